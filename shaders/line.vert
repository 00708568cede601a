#version 330
// World-space line segments, widened to screen-space quads by line.geom.
in vec3 in_position;
in vec4 in_color;
uniform mat4 u_vp;
out vec4 g_color;
void main() {
    g_color = in_color;
    gl_Position = u_vp * vec4(in_position, 1.0);
}
