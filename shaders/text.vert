#version 330
// Screen-space text and label boxes: pixel positions (origin top left), atlas coordinates, colour.
in vec2 in_position;
in vec2 in_uv;
in vec4 in_color;
uniform vec2 u_viewport;
out vec2 v_uv;
out vec4 v_color;
void main() {
    v_uv = in_uv;
    v_color = in_color;
    vec2 p = in_position / u_viewport * 2.0 - 1.0;
    gl_Position = vec4(p.x, -p.y, 0.0, 1.0);
}
