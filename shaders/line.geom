#version 330
// One segment -> a quad u_width pixels wide (core profiles have no wide lines). Clips at the near plane first.
layout(lines) in;
layout(triangle_strip, max_vertices = 4) out;
in vec4 g_color[];
out vec4 v_color;
uniform vec2 u_viewport;
uniform float u_width;
void main() {
    vec4 a = gl_in[0].gl_Position;
    vec4 b = gl_in[1].gl_Position;
    float eps = 1e-3;
    if (a.w < eps && b.w < eps) return;
    if (a.w < eps) a = mix(a, b, (eps - a.w) / (b.w - a.w));
    if (b.w < eps) b = mix(b, a, (eps - b.w) / (a.w - b.w));
    vec2 sa = a.xy / a.w * u_viewport * 0.5;
    vec2 sb = b.xy / b.w * u_viewport * 0.5;
    vec2 d = sb - sa;
    float len = length(d);
    vec2 dir = len > 1e-6 ? d / len : vec2(1.0, 0.0);
    vec2 off = vec2(-dir.y, dir.x) * u_width * 0.5 / (u_viewport * 0.5);
    v_color = g_color[0];
    gl_Position = vec4(a.xy + off * a.w, a.zw); EmitVertex();
    gl_Position = vec4(a.xy - off * a.w, a.zw); EmitVertex();
    v_color = g_color[1];
    gl_Position = vec4(b.xy + off * b.w, b.zw); EmitVertex();
    gl_Position = vec4(b.xy - off * b.w, b.zw); EmitVertex();
    EndPrimitive();
}
