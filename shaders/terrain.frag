#version 330
// Per-material colour; ambient occlusion and sun per pixel from 3D textures of the same voxels (so greedy quads
// never split on lighting): compiled with BAKED, one fetch of the baked light volume (engine/render/lighting.py:
// occupancy, propagated sun visibility, broad occupancy); without, an occupancy texture plus a PCF shadow map.
// 1 m layer lines on walls and a faint cell grid on floors, so heights and distances can be counted; fog.
in vec3 v_vox;
in vec3 v_lp;
in float v_fog;
in float v_tint;
in vec4 v_light;
flat in int v_face;
flat in vec3 v_n;
flat in vec4 v_base;
flat in float v_sunlit;
flat in float v_sky;
uniform sampler3D u_light;          // baked: r occupancy, g sun visibility, b broad occupancy
uniform sampler3D u_occ;            // X x Y x Z R8: 1 where a voxel is opaque; border 0
uniform sampler2DShadow u_shadow;
uniform vec3 u_map;
uniform vec3 u_sky;
uniform float u_shadow_texel;
out vec4 f_color;

void main() {
    float ao;
    float lit;
#ifdef BAKED
    // half a voxel in front of the face: occupancy there darkens edges and inner corners (trilinear blends the
    // four nearest voxels), g is the sun's visibility (soft shadow edges), b darkens narrow streets
    vec4 L = texture(u_light, v_lp);
    ao = clamp(1.0 - 0.75 * L.r - 0.55 * L.b, 0.25, 1.0);
    lit = v_sunlit * L.g;
#else
    float a1 = textureLod(u_occ, (v_vox + v_n * 0.5) / u_map, 0.0).r;
    float a2 = textureLod(u_occ, (v_vox + v_n * 1.5) / u_map, 1.0).r;
    ao = clamp(1.0 - 0.75 * a1 - 0.35 * a2, 0.25, 1.0);
    // 2 PCF taps, each a hardware 2 x 2 compare
    vec3 lp = v_light.xyz / v_light.w * 0.5 + 0.5;
    float bias = 0.0008;
    float t = u_shadow_texel;
    lit = 0.5 * v_sunlit * (texture(u_shadow, vec3(lp.xy + vec2(-0.6, -0.4) * t, lp.z - bias))
                            + texture(u_shadow, vec3(lp.xy + vec2(0.6, 0.4) * t, lp.z - bias)));
#endif
    vec3 col = v_base.rgb * (vec3(0.50, 0.54, 0.62) * v_sky * ao + vec3(1.0, 0.95, 0.85) * 0.75 * lit * (0.6 + 0.4 * ao));
    // layer lines on walls (every 1 m) and a faint cell grid on floors, faded out below a pixel (no moire)
    if (v_face < 4) {
        float z = v_vox.z;
        float d = min(fract(z), 1.0 - fract(z));
        float fw = fwidth(z);
        col *= 1.0 - 0.22 * (1.0 - smoothstep(0.0, 1.5 * fw, d)) * (1.0 - smoothstep(0.25, 0.5, fw));
    } else {
        vec2 g = v_vox.xy;
        vec2 d = min(fract(g), 1.0 - fract(g));
        vec2 w = 1.2 * fwidth(g);
        vec2 s = 1.0 - smoothstep(vec2(0.0), w, d);
        col *= 1.0 - 0.10 * max(s.x, s.y) * (1.0 - smoothstep(0.3, 0.6, max(w.x, w.y)));
    }
    col = mix(col * v_tint, u_sky, v_fog);
    f_color = vec4(col, v_base.a);
}
