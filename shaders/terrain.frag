#version 330
// Per-material colour; per-pixel ambient occlusion and sun from 3D textures of the same voxels (so greedy quads
// never split on lighting): either one baked light volume (u_baked = 1: occupancy, propagated sun visibility,
// broad occupancy) or an occupancy texture plus a PCF shadow map; 1 m layer lines on walls and a faint cell grid
// on floors so heights and distances can be counted; distance fog.
in vec3 v_vox;
in vec4 v_light;
in float v_fog;
flat in int v_face;
flat in int v_mat;
uniform sampler2D u_palette;        // 512 x 1 RGBA8: colour, alpha (< 1 for translucent materials)
uniform sampler3D u_occ;            // X x Y x Z R8: 1 where a voxel is opaque; border 0
uniform sampler2DShadow u_shadow;
uniform sampler3D u_light;          // baked (engine/render/lighting.py): r occupancy, g sun, b broad occupancy
// compiled with BAKED defined: light from u_light (one fetch); without: AO from u_occ + the shadow map
uniform vec3 u_map;                 // X, Y, Z in voxels
uniform vec3 u_sun;                 // unit vector towards the sun
uniform vec3 u_sky;
uniform float u_face_offset;        // where light is looked up in front of a face: 0.5 voxel (f - 0.5 for LOD f)
uniform float u_shadow_texel;
out vec4 f_color;

const vec3 NORMALS[6] = vec3[6](vec3(-1, 0, 0), vec3(1, 0, 0), vec3(0, -1, 0), vec3(0, 1, 0), vec3(0, 0, -1),
                                vec3(0, 0, 1));

float occ(vec3 p, float lod) {
    return textureLod(u_occ, p / u_map, lod).r;
}

void main() {
    vec4 base = texelFetch(u_palette, ivec2(v_mat, 0), 0);
    vec3 n = NORMALS[v_face];
    float ndl = dot(n, u_sun);
    float ao;
    float lit = 0.0;
#ifdef BAKED
        // one trilinear fetch half a voxel in front of the face: occupancy there (AO at edges and corners),
        // the sun's visibility there (soft shadows) and a broader occupancy (narrow streets are darker)
        vec4 L = texture(u_light, (v_vox + n * u_face_offset) / vec3(u_map.xy, u_map.z + 1.0));
        ao = clamp(1.0 - 0.75 * L.r - 0.55 * L.b, 0.25, 1.0);
        lit = max(ndl, 0.0) * L.g;
#else
        // ambient occlusion: the opaque share of the voxels just in front of the face (linear filtering blends
        // the four nearest, which darkens edges and inner corners), plus a coarser look further out
        float a1 = occ(v_vox + n * 0.5, 0.0);
        float a2 = occ(v_vox + n * 1.5, 1.0);
        ao = clamp(1.0 - 0.75 * a1 - 0.35 * a2, 0.25, 1.0);
        // sun with a 2-tap PCF shadow (each tap is a hardware 2 x 2 compare, so 8 depth samples in all)
        vec3 lp = v_light.xyz / v_light.w * 0.5 + 0.5;
        if (ndl > 0.0) {
            float bias = 0.0008;
            float t = u_shadow_texel;
            lit += texture(u_shadow, vec3(lp.xy + vec2(-0.6, -0.4) * t, lp.z - bias));
            lit += texture(u_shadow, vec3(lp.xy + vec2(0.6, 0.4) * t, lp.z - bias));
            lit *= 0.5 * ndl;
        }
#endif
    // sky light from above, a little bounce from below
    float sky = 0.55 + 0.25 * n.z;
    vec3 col = base.rgb * (vec3(0.50, 0.54, 0.62) * sky * ao + vec3(1.0, 0.95, 0.85) * 0.75 * lit * (0.6 + 0.4 * ao));
    // layer lines on walls (every 1 m) and a faint cell grid on floors
    vec2 g;
    if (v_face < 4) {
        float z = v_vox.z;
        float d = min(fract(z), 1.0 - fract(z));
        float fw = fwidth(z);
        float line = (1.0 - smoothstep(0.0, 1.5 * fw, d)) * (1.0 - smoothstep(0.25, 0.5, fw));
        col *= 1.0 - 0.22 * line;
    } else {
        g = v_vox.xy;
        vec2 d = min(fract(g), 1.0 - fract(g));
        vec2 w = 1.2 * fwidth(g);
        float line = max(1.0 - smoothstep(vec2(0.0), w, d).x, 1.0 - smoothstep(vec2(0.0), w, d).y);
        line *= 1.0 - smoothstep(0.3, 0.6, max(w.x, w.y));      // no moire where cells are under a few pixels
        col *= 1.0 - 0.10 * line;
    }
    // gently brighter with height, so high roofs stand out from the street
    col *= 0.88 + 0.24 * clamp(v_vox.z / max(u_map.z, 1.0), 0.0, 1.0);
    col = mix(col, u_sky, v_fog);
    f_color = vec4(col, base.a);
}
