#version 450
// Exact line of sight, the GLSL backend. The same arithmetic as engine/world/los.py (_setup, _trace_chunk), bit
// for bit: fixed-point end points (1/256 voxel), integer boundary parameters over a common denominator, the tie
// rule (step every tied axis at once), and the capped distance field for empty-space skipping.
#extension GL_ARB_gpu_shader_int64 : require

layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer Segments { ivec4 seg[]; };   // p0 = seg[2i].xyz, p1 = seg[2i+1].xyz
layout(std430, binding = 1) writeonly buffer Results { uint result[]; }; // bit 0: blocked; bits 1..: loop count

uniform usampler3D dist;    // R8UI, width X, height Y, depth Z: distance to the nearest sight-blocking voxel
uniform int n_rays;

const int FP = 256;
const int64_t INF = int64_t(1) << 62;

int64_t floordiv(int64_t a, int64_t b) {       // b > 0; numpy's // rounds towards minus infinity
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= uint(n_rays)) return;
    ivec3 p0 = seg[2u * i].xyz;
    ivec3 p1 = seg[2u * i + 1u].xyz;
    ivec3 d = p1 - p0;
    i64vec3 ad = i64vec3(abs(d));
    i64vec3 dd = max(ad, i64vec3(1));
    int64_t L = dd.x * dd.y * dd.z;
    ivec3 v = p0 >> 8;                                           // p0 >= 0: floor(p0 / FP)
    bvec3 on_plane = equal(p0 & (FP - 1), ivec3(0));
    for (int a = 0; a < 3; ++a) if (d[a] < 0 && on_plane[a]) v[a] -= 1;
    i64vec3 T, inc;
    ivec3 stp = sign(d);
    for (int a = 0; a < 3; ++a) {
        int64_t n = d[a] > 0 ? int64_t((v[a] + 1) * FP - p0[a]) : int64_t(p0[a] - v[a] * FP);
        int64_t per = L / dd[a];
        T[a] = d[a] != 0 ? n * per : INF;
        inc[a] = d[a] != 0 ? int64_t(FP) * per : int64_t(1);
    }
    uint steps = 0u;
    uint blocked = 0u;
    for (;;) {
        uint k = texelFetch(dist, v, 0).r;
        steps += 1u;
        if (k == 0u) { blocked = 1u; break; }
        int64_t kk = int64_t(k) - 1;
        int64_t mp = min(min(T.x + kk * inc.x, T.y + kk * inc.y), T.z + kk * inc.z);
        if (mp >= L) break;
        for (int a = 0; a < 3; ++a) {
            int64_t c = max(floordiv(mp - T[a], inc[a]) + 1, int64_t(0));
            T[a] += c * inc[a];
            v[a] += int(c) * stp[a];
        }
    }
    result[i] = blocked | (steps << 1);
}
