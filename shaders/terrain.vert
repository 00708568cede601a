#version 330
// Greedy-meshed voxel terrain. Vertex: uint16 x, y, z+1 (voxel units) and face | material << 3.
// Everything constant over a face (normal, colour, sun angle) is computed here once per vertex and passed flat,
// so the fragment shader is one texture fetch and a few multiplies (llvmpipe shades every pixel on the CPU).
in uvec4 in_vert;
invariant gl_Position;
uniform mat4 u_vp;
uniform mat4 u_light_vp;
uniform float u_cell;
uniform vec3 u_map;              // X, Y, Z in voxels
uniform vec3 u_sun;              // unit vector towards the sun
uniform vec3 u_eye;
uniform float u_fog;             // density per metre
uniform float u_face_offset;     // light is looked up this far in front of a face (0.5; f - 0.5 for LOD f)
uniform sampler2D u_palette;     // 512 x 1 RGBA8: colour, alpha (< 1 for translucent materials)
out vec3 v_vox;                  // voxel units, map z (layers)
out vec3 v_lp;                   // where the baked light volume is sampled (texture coordinates)
out float v_fog;                 // distance fog, per vertex (smooth enough over a quad, saves an exp per pixel)
out float v_tint;                // brighter with height (linear in z, so exact per vertex)
out vec4 v_light;                // light clip space (shadow-map lighting)
flat out int v_face;
flat out vec3 v_n;
flat out vec4 v_base;
flat out float v_sunlit;         // max(n . sun, 0)
flat out float v_sky;            // sky light on this face: more from above

void main() {
    vec3 p = vec3(in_vert.xyz) - vec3(0.0, 0.0, 1.0);
    int face = int(in_vert.w & 7u);
    vec3 n = vec3(face == 0 ? -1.0 : face == 1 ? 1.0 : 0.0, face == 2 ? -1.0 : face == 3 ? 1.0 : 0.0,
                  face == 4 ? -1.0 : face == 5 ? 1.0 : 0.0);
    v_vox = p;
    v_face = face;
    v_n = n;
    v_base = texelFetch(u_palette, ivec2(int(in_vert.w >> 3u), 0), 0);
    v_sunlit = max(dot(n, u_sun), 0.0);
    v_sky = 0.55 + 0.25 * n.z;
    v_lp = (p + n * u_face_offset) / vec3(u_map.xy, u_map.z + 1.0);
    v_tint = 0.88 + 0.24 * clamp(p.z / max(u_map.z, 1.0), 0.0, 1.0);
    vec3 w = vec3(p.x * u_cell, p.y * u_cell, p.z);
    v_fog = clamp(1.0 - exp(-u_fog * length(w - u_eye)), 0.0, 0.6);
    // normal offset: look the shadow map up a little in front of the face, so faces never shadow themselves
    v_light = u_light_vp * vec4(w + n * 0.12, 1.0);
    gl_Position = u_vp * vec4(w, 1.0);
}
