#version 330
// Coloured world-space triangles: rings, shadows, grid planes, cover cells, reach and engagement shapes.
in vec3 in_position;
in vec4 in_color;
uniform mat4 u_vp;
out vec4 v_color;
void main() {
    v_color = in_color;
    gl_Position = u_vp * vec4(in_position, 1.0);
}
