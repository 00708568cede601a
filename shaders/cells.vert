#version 330
// Small cubes at the cells of a volume (the 3D view of a cover or threat volume), instanced: one unit cube's
// 36 corners with their face normals, and per instance the cell's centre (metres), half size and colour.
in vec3 in_corner;               // -1 .. 1
in vec3 in_normal;
in vec3 in_centre;
in float in_half;
in vec4 in_color;
uniform mat4 u_vp;
out vec4 v_color;
void main() {
    // a fixed light from above and the south-west: the faces of a cube read apart, no shadow pass
    float l = 0.55 + 0.45 * max(dot(in_normal, normalize(vec3(-0.4, -0.6, 0.7))), 0.0) + 0.1 * in_normal.z;
    v_color = vec4(in_color.rgb * l, in_color.a);
    gl_Position = u_vp * vec4(in_centre + in_corner * in_half, 1.0);
}
