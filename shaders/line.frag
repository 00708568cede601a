#version 330
in vec4 v_color;
uniform float u_alpha;
out vec4 f_color;
void main() {
    f_color = vec4(v_color.rgb, v_color.a * u_alpha);
}
