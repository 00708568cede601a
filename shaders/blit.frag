#version 330
in vec2 v_uv;
uniform sampler2D u_image;
out vec4 f_color;
void main() {
    f_color = vec4(texture(u_image, v_uv).rgb, 1.0);
}
