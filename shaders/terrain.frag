#version 330
// Per-material colour, lit. Compiled with BAKED: the light comes from the chunk's light map (one bilinear 2D
// fetch: r = ambient with occlusion, g = sun with soft shadows, both with the height tint; filled in numpy from the
// light volume, engine/render/lightmap.py). Without: occupancy from a 3D texture plus a PCF shadow map per pixel.
// Then 1 m layer lines on walls and a faint cell grid on floors, so heights and distances can be counted; fog.
in vec2 v_grid;                     // the coordinates the grid lines follow
in float v_fog;
flat in vec2 v_grid_line;           // line strength, line width in pixels
flat in vec4 v_base;
#ifdef BAKED
in vec2 v_uv;
uniform sampler2D u_lightmap;
#else
in vec3 v_vox;
in vec4 v_light;
in float v_tint;
flat in vec3 v_n;
flat in float v_sunlit;
flat in float v_sky;
uniform sampler3D u_occ;            // X x Y x Z R8: 1 where a voxel is opaque; border 0
uniform sampler2DShadow u_shadow;
uniform vec3 u_map;
uniform float u_shadow_texel;
#endif
uniform vec3 u_sky;
#ifdef GROUND_IMAGE
flat in float v_is_ground;
in vec2 v_ground_uv;
uniform sampler2D u_ground;         // [map] ground_image, uploaded bottom row first (north at v = 1)
#endif
#ifdef FLOOR_IMAGES
flat in float v_floor;
in vec2 v_floor_uv;
uniform sampler2DArray u_floors;    // [map] floor_images: RGBA, one layer per floor, bottom row first
#endif
out vec4 f_color;

const vec3 AMBIENT = vec3(0.50, 0.54, 0.62);    // engine/render/lightmap.py: AMBIENT_COLOUR, SUN_COLOUR
const vec3 SUN = vec3(1.0, 0.95, 0.85);

void main() {
#ifdef FLAT
    // a measurement aid (aerie bench render --breakdown): the terrain's cost without any shading
    f_color = vec4(0.55, 0.55, 0.55, 1.0);
    return;
#endif
    vec3 base = v_base.rgb;
#ifdef GROUND_IMAGE
    base = mix(base, texture(u_ground, v_ground_uv).rgb, v_is_ground);
#endif
#ifdef FLOOR_IMAGES
    if (v_floor >= 0.0) {
        vec4 img = texture(u_floors, vec3(v_floor_uv, v_floor));
        base = mix(base, img.rgb, img.a);
    }
#endif
#ifdef BAKED
    vec2 L = texture(u_lightmap, v_uv).rg;
    vec3 col = base * (AMBIENT * L.r + SUN * L.g);
#else
    float a1 = textureLod(u_occ, (v_vox + v_n * 0.5) / u_map, 0.0).r;
    float a2 = textureLod(u_occ, (v_vox + v_n * 1.5) / u_map, 1.0).r;
    float ao = clamp(1.0 - 0.75 * a1 - 0.35 * a2, 0.25, 1.0);
    // 2 PCF taps, each a hardware 2 x 2 compare
    vec3 lp = v_light.xyz / v_light.w * 0.5 + 0.5;
    float bias = 0.0008;
    float t = u_shadow_texel;
    float lit = 0.5 * v_sunlit * (texture(u_shadow, vec3(lp.xy + vec2(-0.6, -0.4) * t, lp.z - bias))
                                  + texture(u_shadow, vec3(lp.xy + vec2(0.6, 0.4) * t, lp.z - bias)));
    vec3 col = base * (AMBIENT * v_sky * ao + SUN * 0.75 * lit * (0.6 + 0.4 * ao)) * v_tint;
#endif
    // layer lines on walls (every 1 m) and a faint cell grid on floors, faded out below a pixel (no moire).
    // One branch-free path for both (walls get (z, z), floors (x, y)): llvmpipe would run both sides of a branch.
    vec2 d = 0.5 - abs(fract(v_grid) - 0.5);
    vec2 w = fwidth(v_grid);
    vec2 s = clamp(1.0 - d / (v_grid_line.y * w), 0.0, 1.0);
    col *= 1.0 - v_grid_line.x * max(s.x, s.y) * clamp(2.0 - 4.0 * max(w.x, w.y), 0.0, 1.0);
    col = mix(col, u_sky, v_fog);
    f_color = vec4(col, v_base.a);
}
