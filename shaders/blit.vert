#version 330
// One triangle covering the viewport (no vertex buffer): shows an offscreen view stretched to the window.
out vec2 v_uv;
void main() {
    vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
    v_uv = p * 0.5 + 0.5;
    gl_Position = vec4(p, 0.0, 1.0);
}
