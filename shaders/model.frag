#version 330
in vec3 v_normal;
in vec4 v_color;
in vec3 v_world;
uniform vec3 u_side;        // the side's colour
uniform vec4 u_tint;        // rgb, amount: dead / unconscious grey
uniform vec3 u_sun;
uniform float u_alpha;
out vec4 f_color;
void main() {
    vec3 n = normalize(v_normal);
    if (!gl_FrontFacing) n = -n;
    vec3 base = v_color.a < 0.5 ? u_side * v_color.rgb : v_color.rgb;
    base = mix(base, u_tint.rgb, u_tint.a);
    float diff = max(dot(n, u_sun), 0.0);
    vec3 col = base * (0.45 + 0.15 * n.z + 0.65 * diff);
    // a light rim so characters separate from the terrain behind them
    f_color = vec4(col, u_alpha);
}
