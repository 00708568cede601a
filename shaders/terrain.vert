#version 330
// Greedy-meshed voxel terrain. Vertex: uint16 x, y, z+1 (voxel units) and face | material << 3.
in uvec4 in_vert;
invariant gl_Position;
uniform mat4 u_vp;
uniform mat4 u_light_vp;
uniform float u_cell;
out vec3 v_vox;          // voxel units, map z (layers)
out float v_fog;         // distance fog, per vertex (smooth enough over a quad, saves an exp per pixel)
uniform vec3 u_eye;
uniform float u_fog;     // density per metre
out vec4 v_light;        // light clip space
flat out int v_face;
flat out int v_mat;

void main() {
    vec3 p = vec3(in_vert.xyz) - vec3(0.0, 0.0, 1.0);
    v_vox = p;
    v_face = int(in_vert.w & 7u);
    v_mat = int(in_vert.w >> 3u);
    vec3 w = vec3(p.x * u_cell, p.y * u_cell, p.z);
    v_fog = clamp(1.0 - exp(-u_fog * length(w - u_eye)), 0.0, 0.6);
    // normal offset: look the shadow map up a little in front of the face, so faces never shadow themselves
    int face = int(in_vert.w & 7u);
    vec3 n = vec3(face == 0 ? -1.0 : face == 1 ? 1.0 : 0.0, face == 2 ? -1.0 : face == 3 ? 1.0 : 0.0,
                  face == 4 ? -1.0 : face == 5 ? 1.0 : 0.0);
    v_light = u_light_vp * vec4(w + n * 0.12, 1.0);
    gl_Position = u_vp * vec4(w, 1.0);
}
