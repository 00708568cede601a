#version 330
// Greedy-meshed voxel terrain. Vertex: uint16 x, y, z+1 (voxel units), face | material << 3, and the corner's
// texel coordinates in its chunk's light map (engine/render/lightmap.py).
// Everything constant over a face (normal, colour) is computed here once per vertex and passed flat, and the
// light comes baked, so the fragment shader is one 2D texture fetch and a few multiplies (llvmpipe shades every
// pixel on the CPU).
in uvec4 in_vert;
#ifdef BAKED
in uvec2 in_uv;
uniform vec2 u_lm_texel;         // 1 / the light map's size in texels
out vec2 v_uv;                   // light-map texture coordinates
#else
out vec3 v_vox;                  // voxel units, map z (layers)
uniform mat4 u_light_vp;
uniform vec3 u_sun;              // unit vector towards the sun
out vec4 v_light;                // light clip space (shadow-map lighting)
out float v_tint;                // brighter with height (linear in z, so exact per vertex)
flat out vec3 v_n;
flat out float v_sunlit;         // max(n . sun, 0)
flat out float v_sky;            // sky light on this face: more from above
#endif
invariant gl_Position;
uniform mat4 u_vp;
uniform float u_cell;
uniform vec3 u_map;              // X, Y, Z in voxels
uniform vec3 u_eye;
uniform float u_fog;             // density per metre
uniform sampler2D u_palette;     // 512 x 1 RGBA8: colour, alpha (< 1 for translucent materials)
out vec2 v_grid;                 // walls: (z, z), floors and ceilings: (x, y), voxel units
out float v_fog;                 // distance fog, per vertex (smooth enough over a quad, saves an exp per pixel)
flat out vec2 v_grid_line;       // grid line strength and width: 1 m layer lines on walls, a faint cell grid on floors
flat out vec4 v_base;
#ifdef GROUND_IMAGE
flat out float v_is_ground;      // 1 on the ground's top face: its colour comes from the map image
out vec2 v_ground_uv;            // the map image's coordinates: (0, 0) south-west corner, (1, 1) north-east
#endif
#ifdef FLOOR_IMAGES
uniform float u_floor_z[8];      // the top-face heights (layer + 1) of the storeys' floors with an image
uniform int u_floor_n;
flat out float v_floor;          // the floor image's index in u_floors, or -1
out vec2 v_floor_uv;
#endif

void main() {
    vec3 p = vec3(in_vert.xyz) - vec3(0.0, 0.0, 1.0);
    int face = int(in_vert.w & 7u);
    v_grid = face < 4 ? p.zz : p.xy;
    v_grid_line = face < 4 ? vec2(0.22, 1.5) : vec2(0.10, 1.2);
    v_base = texelFetch(u_palette, ivec2(int(in_vert.w >> 3u), 0), 0);
    vec3 w = vec3(p.x * u_cell, p.y * u_cell, p.z);
#ifdef GROUND_IMAGE
    v_is_ground = (int(in_vert.w >> 3u) == 256 && face == 5) ? 1.0 : 0.0;
    v_ground_uv = p.xy / u_map.xy;
#endif
#ifdef FLOOR_IMAGES
    v_floor = -1.0;
    if (face == 5) {
        for (int i = 0; i < 8; i++) {
            if (i < u_floor_n && abs(p.z - u_floor_z[i]) < 0.01) v_floor = float(i);
        }
    }
    v_floor_uv = p.xy / u_map.xy;
#endif
    v_fog = clamp(1.0 - exp(-u_fog * length(w - u_eye)), 0.0, 0.6);
#ifdef BAKED
    v_uv = vec2(in_uv) * u_lm_texel;
#else
    v_vox = p;
    vec3 n = vec3(face == 0 ? -1.0 : face == 1 ? 1.0 : 0.0, face == 2 ? -1.0 : face == 3 ? 1.0 : 0.0,
                  face == 4 ? -1.0 : face == 5 ? 1.0 : 0.0);
    v_n = n;
    v_sunlit = max(dot(n, u_sun), 0.0);
    v_sky = 0.55 + 0.25 * n.z;
    v_tint = 0.88 + 0.24 * clamp(p.z / max(u_map.z, 1.0), 0.0, 1.0);
    // normal offset: look the shadow map up a little in front of the face, so faces never shadow themselves
    v_light = u_light_vp * vec4(w + n * 0.12, 1.0);
#endif
    gl_Position = u_vp * vec4(w, 1.0);
}
