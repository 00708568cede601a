#version 330
in vec2 v_uv;
in vec4 v_color;
uniform sampler2D u_atlas;   // R8 glyph coverage; texel (0, 0) is solid
out vec4 f_color;
void main() {
    float a = texture(u_atlas, v_uv).r;
    f_color = vec4(v_color.rgb, v_color.a * a);
}
