#version 330
// Character models (trimesh-loaded glTF): position, normal, vertex colour. Alpha < 0.5 marks parts painted in
// the side's colour (the rgb then scales it).
in vec3 in_position;
in vec3 in_normal;
in vec4 in_color;
uniform mat4 u_vp;
uniform mat4 u_model;
uniform float u_outline;     // > 0: the outline pass, faces pushed out along their normals (model units)
out vec3 v_normal;
out vec4 v_color;
out vec3 v_world;
void main() {
    vec4 w = u_model * vec4(in_position + in_normal * u_outline, 1.0);
    v_world = w.xyz;
    v_normal = mat3(u_model) * in_normal;
    v_color = in_color;
    gl_Position = u_vp * w;
}
