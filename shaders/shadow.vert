#version 330
// Depth-only pass of the terrain from the sun (the shadow map); same vertex format as terrain.vert.
in uvec4 in_vert;
invariant gl_Position;
uniform mat4 u_light_vp;
uniform float u_cell;
void main() {
    vec3 p = vec3(in_vert.xyz) - vec3(0.0, 0.0, 1.0);
    gl_Position = u_light_vp * vec4(p.x * u_cell, p.y * u_cell, p.z, 1.0);
}
