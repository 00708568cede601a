#version 430
// The line-of-sight grid: the exact traversal of engine/world/los.py (fixed point 1/256 voxel, integer boundary
// parameters over a common denominator, every tied axis stepped at once) with two changes that leave the answer
// alone and make it faster here:
//  * the empty space is skipped with eight "octant" distance fields (engine/world/volumes.py, octant_fields):
//    at a voxel with value k the k x k x k cube that starts at it and grows in the ray's direction of travel is
//    clear, and a ray that moves the same way on every axis cannot leave that cube but through its far faces,
//    so it jumps to the first voxel it enters outside it (k = 0 blocks; k = 1 is the plain one-voxel step);
//  * the crossings counted on that jump, c = (mp - T) // inc + 1 (never more than the cube's side), come from a
//    float estimate corrected with one exact integer test, instead of a 64-bit division.
// The fields are bytes, four to a word, or 4-bit codes, eight to a word (FIELD_NIBBLES), in a storage buffer
// (x fastest, one field after the other); which fields (eight octants, or four merged along z) is the uniform
// field_of (engine/render/los_grid.py, FIELDS: a batch reads the smaller set, a volume all eight).
//
// Variants (defines added after this line by engine/render/los_grid.py):
//   MODE_SEGMENTS: one invocation per segment of a batch -> blocked bit.
//   MODE_CELLS:    one invocation per cell of a box of layers; rays generated here, eye x sample points x cells:
//                  the fewest blocked sample lines over a list of eyes (threat: only eyes whose reach or range
//                  covers the cell), 255 when no eye may attack there, 0xFFFF where a body cannot be.
#extension GL_ARB_gpu_shader_int64 : require
#if !defined(MODE_SEGMENTS) && !defined(MODE_CELLS)
#define MODE_SEGMENTS
#endif
#ifdef MODE_SEGMENTS
#define NO_BOXES          // a batch has no floor boxes: every blocking voxel counts
#endif

#ifndef LOCAL
#define LOCAL 64
#endif
layout(local_size_x = LOCAL) in;


uniform ivec3 size;          // X, Y, Z
uniform ivec3 field_of;      // the field a ray uses: its direction's signs (x, y, z < 0) weighted by these:
                             // (1, 2, 4) eight octant fields, (1, 2, 0) four (z both ways), (0, 0, 0) one
uniform int field_len;       // X * Y * Z

const int FP = 256;

#ifdef FIELD_NIBBLES
// the fields as 4-bit codes, eight to a word: half the memory (the fields are read at random places; the fewer
// cache lines they take, the fewer of those reads wait for memory). A code is the largest of the cube sides
// 0..8, 10, 12, 14, 16, 20, 24, 28 not above the field's value (a smaller clear cube is clear: the same voxels
// are visited, with shorter jumps through the largest spaces)
layout(std430, binding = 0) readonly buffer Field { uint field[]; };
uint field_at(int i) {
    uint c = (field[i >> 3] >> uint((i & 7) * 4)) & 15u;
    return c <= 8u ? c : (c <= 12u ? 2u * c - 8u : 4u * c - 32u);
}
#else
layout(std430, binding = 0) readonly buffer Field { uint field[]; };
uint field_at(int i) {
    return (field[i >> 2] >> uint((i & 3) * 8)) & 0xFFu;
}
#endif

bool in_box(ivec3 v, ivec4 box, int z) {
    return v.z == z && v.x >= box.x && v.x < box.z && v.y >= box.y && v.y < box.w;
}

// The boundary parameters are integers. ARITH_DOUBLE keeps them in doubles, exactly: every value a decision
// depends on is below L = |Dx| |Dy| |Dz| <= X Y Z 2^24 <= 2^50 (the 64 Mi voxel cap) < 2^53, and a value past L
// stays past it when rounded. Otherwise they are 64-bit integers. Same answers; which is faster is the
// hardware's business (llvmpipe: doubles; most GPUs: integers).
#ifdef ARITH_DOUBLE
#define NUM double
#define NUM3 dvec3
#define NUM_INF 4.611686018427388e18lf
#else
#define NUM int64_t
#define NUM3 i64vec3
#define NUM_INF (int64_t(1) << 62)
#endif

#ifdef ARITH_I32
// 32-bit variant, exact where every coordinate is below 2^15 (a map of at most 128 voxels a side): the crossing
// parameters as fractions N_a / |D_a| (N_a: fixed-point distance from p0 to axis a's next boundary plane), compared
// by cross-multiplication -- the same comparisons as T_a = N_a L / |D_a| over the common denominator, so the same
// voxels, ties included. Products stay below 2^31: N_a + 256 (k - 1) < |D_a| + 2^14 and |D_b| < 2^15.
// The loop keeps what does not change along the ray out of it: the axes it moves along (an axis it does not
// move along has N = 32768 over a denominator of 1, so it never comes first, as 32768 / 1 > any crossing), the
// denominators, and the field index, stepped with the voxel.
bool blocked(ivec3 p0, ivec3 p1, ivec4 box_a, int za, ivec4 box_b, int zb) {
    ivec3 d = p1 - p0;
    ivec3 mvi = ivec3(notEqual(d, ivec3(0)));
    ivec3 dd = max(abs(d), ivec3(1));
    ivec3 v = p0 >> 8;
    ivec3 stp = sign(d);
    ivec3 N;
    for (int a = 0; a < 3; ++a) {
        if (d[a] < 0 && (p0[a] & (FP - 1)) == 0) v[a] -= 1;
        N[a] = d[a] > 0 ? (v[a] + 1) * FP - p0[a] : (d[a] < 0 ? p0[a] - v[a] * FP : 32768);
    }
    ivec3 mm = -mvi;                                  // all ones on the axes the ray moves along, 0 on the others
    vec3 rden = 1.0 / vec3(FP * dd);
    ivec3 stride = ivec3(1, size.x, size.x * size.y);
    int idx = (int(d.x < 0) * field_of.x + int(d.y < 0) * field_of.y + int(d.z < 0) * field_of.z) * field_len
              + v.x + stride.y * v.y + stride.z * v.z;
    ivec3 dstep = stp * stride;
    for (;;) {
        uint k = field_at(idx);
#ifdef NO_BOXES
        if (k == 0u) return true;                     // (no floor boxes: the voxel need not be known)
#else
        if (k == 0u) {
            if (!(in_box(v, box_a, za) || in_box(v, box_b, zb))) return true;
            k = 1u;
        }
#endif
        ivec3 cand = N + ((int(k - 1u) << 8) & mm);
        bool ym = cand.y * dd.x < cand.x * dd.y;
        int cm = ym ? cand.y : cand.x;
        int dm = ym ? dd.y : dd.x;
        float rd = ym ? rden.y : rden.x;
        bool zm = cand.z * dm < cm * dd.z;
        cm = zm ? cand.z : cm;
        dm = zm ? dd.z : dm;
        rd = zm ? rden.z : rd;
        if (cm >= dm) return false;
        ivec3 num = cm * dd - N * dm;
        int step_den = FP * dm;
        ivec3 q = ivec3(vec3(num) * rd);
        ivec3 rem = num - q * step_den;
        q -= ivec3(lessThan(rem, ivec3(0)));
        q += ivec3(greaterThanEqual(rem, ivec3(step_den)));
        ivec3 c = max(q + 1, ivec3(0)) & mm;
        N += c << 8;
#ifndef NO_BOXES
        v += c * stp;
#endif
        idx += c.x * dstep.x + c.y * dstep.y + c.z * dstep.z;
    }
}
#else
// true when a sight-blocking voxel (other than those of the two floor boxes) lies on p0 -> p1
bool blocked(ivec3 p0, ivec3 p1, ivec4 box_a, int za, ivec4 box_b, int zb) {
    ivec3 d = p1 - p0;
    ivec3 dd = max(abs(d), ivec3(1));
    NUM3 per = NUM3(NUM(dd.y) * NUM(dd.z), NUM(dd.x) * NUM(dd.z), NUM(dd.x) * NUM(dd.y));  // L / |D_a|
    NUM L = per.x * NUM(dd.x);
    ivec3 v = p0 >> 8;                                                    // p0 >= 0: floor(p0 / FP)
    ivec3 stp = sign(d);
    NUM3 T, inc;
    vec3 rinc;
    for (int a = 0; a < 3; ++a) {
        if (d[a] < 0 && (p0[a] & (FP - 1)) == 0) v[a] -= 1;             // a start on a plane, moving down
        int n = d[a] > 0 ? (v[a] + 1) * FP - p0[a] : p0[a] - v[a] * FP;
        T[a] = d[a] != 0 ? NUM(n) * per[a] : NUM_INF;
        inc[a] = d[a] != 0 ? NUM(FP) * per[a] : NUM(0);
        rinc[a] = d[a] != 0 ? 1.0 / float(inc[a]) : 0.0;
    }
    int base = 0;
    base = (int(d.x < 0) * field_of.x + int(d.y < 0) * field_of.y + int(d.z < 0) * field_of.z) * field_len;
    for (;;) {
        uint k = field_at(base + (v.z * size.y + v.y) * size.x + v.x);
#ifdef NO_BOXES
        if (k == 0u) return true;
#else
        if (k == 0u) {
            if (!(in_box(v, box_a, za) || in_box(v, box_b, zb))) return true;
            k = 1u;                                                       // a floor that never counts
        }
#endif
        NUM kk = NUM(k - 1u);
        NUM mp = min(min(T.x + kk * inc.x, T.y + kk * inc.y), T.z + kk * inc.z);
        if (mp >= L) return false;
        // crossings of each axis up to and including mp: c = max(floor((mp - T) / inc) + 1, 0), the floor from
        // a float estimate (within one of it: the quotient is at most the cube's side) and one exact test
        NUM3 r = NUM3(mp) - T;
        ivec3 q = ivec3(vec3(r) * rinc);
        NUM3 rem = r - NUM3(q) * inc;
        q -= ivec3(lessThan(rem, NUM3(0)));
        q += ivec3(greaterThanEqual(rem, inc));
        ivec3 c = max(q + 1, ivec3(0));
        T += NUM3(c) * inc;
        v += c * stp;
    }
}

#endif

#ifdef MODE_SEGMENTS
// The end points as the caller's int64 arrays [N, 3] (0 <= v < 2^31: the high words are checked), no conversion
// in Python. Each invocation traces RAYS_PER consecutive segments one after the other (on llvmpipe the lanes of a
// SIMD group still wait for each other at every segment: each round lasts as long as its longest segment).
#ifndef RAYS_PER
#define RAYS_PER 8
#endif
layout(std430, binding = 1) readonly buffer P0 { int64_t p0q[]; };
layout(std430, binding = 3) readonly buffer P1 { int64_t p1q[]; };
layout(std430, binding = 2) writeonly buffer Results { uint result[]; };   // one byte a segment: 1 = blocked
layout(std430, binding = 4) buffer Bad { uint bad_points; };               // set: an end point outside the map
uniform int n_rays;

void main() {
    int first = int(gl_GlobalInvocationID.x) * RAYS_PER;
    if (first >= n_rays) return;
    uint word = 0u;
    for (int j = 0; j < RAYS_PER; ++j) {
        int i = first + j;
        if (i < n_rays) {
            i64vec3 a = i64vec3(p0q[3 * i], p0q[3 * i + 1], p0q[3 * i + 2]);
            i64vec3 b = i64vec3(p1q[3 * i], p1q[3 * i + 1], p1q[3 * i + 2]);
            ivec3 p0 = ivec3(a), p1 = ivec3(b);
            ivec3 hw = ivec3((a | b) >> 32);            // nonzero: negative or past 2^31
            ivec3 top = size * FP;
            if (any(notEqual(hw, ivec3(0))) || any(lessThan(min(p0, p1), ivec3(0))) ||
                any(greaterThanEqual(max(p0, p1), top))) {
                atomicOr(bad_points, 1u);                 // outside the map box: refused by the caller
            } else if (blocked(p0, p1, ivec4(0), -2, ivec4(0), -2)) {
                word |= 1u << uint(8 * (j & 3));
            }

        }
        if ((j & 3) == 3) {
            result[(first >> 2) + (j >> 2)] = word;
            word = 0u;
        }
    }
}
#endif

#ifdef MODE_CELLS
#ifndef MAX_SAMPLES
#define MAX_SAMPLES 36
#endif
struct Eye {
    ivec4 eye;        // xyz: the eye, fixed point, inside the map; w: the layer of its floor (feet layer - 1)
    ivec4 floor_box;  // x0, y0, x1, y1 (half-open) of its footprint: its own floor never counts
    ivec4 centre;     // 2 x the footprint's centre (x, y), its feet layer, its footprint
};
layout(std430, binding = 1) readonly buffer Eyes { Eye eyes[]; };
layout(std430, binding = 2) readonly buffer Free { uint free_bits[]; };  // 1 bit a voxel: a body can be here
layout(std430, binding = 3) readonly buffer Range { int max_dx2[]; };  // [|dz|][|2 dy|] -> max |2 dx|, -1
layout(std430, binding = 4) writeonly buffer Counts { uint counts[]; };

uniform ivec3 box0;          // the first cell of the box: (0, 0, first layer)
uniform ivec3 box_size;      // cells in the box (X, Y, layers)
uniform int n_samples;
uniform ivec3 offsets[MAX_SAMPLES];   // sample points from a body's cell corner (x, y, feet layer), fixed point
uniform int footprint;       // the standard body's footprint (cells a side)
uniform int eye0;            // the eyes this run uses: eyes[eye0 .. eye0 + n_eyes)
uniform int n_eyes;
uniform int check;           // 0: every eye counts (cover); 1: only eyes that reach the cell (threat)
uniform int melee_cells;     // AIR-05 horizontal reach in cells, -1: no melee weapon
uniform int melee_layers;    // AIR-05 layers of difference reached
uniform int range_w;         // row length of max_dx2; 0: no ranged weapon

bool may_attack(Eye e, ivec3 c) {
    int f = e.centre.w;
    int gx = max(0, max(c.x - (e.floor_box.z - 1), e.floor_box.x - (c.x + footprint - 1)));
    int gy = max(0, max(c.y - (e.floor_box.w - 1), e.floor_box.y - (c.y + footprint - 1)));
    int dz = abs(c.z - e.centre.z);
    if (melee_cells >= 0 && max(gx, gy) <= melee_cells && dz <= melee_layers) return true;
    if (range_w > 0 && dz < size.z) {
        int dx2 = abs(2 * c.x + footprint - e.centre.x);
        int dy2 = abs(2 * c.y + footprint - e.centre.y);
        if (dy2 < range_w && dx2 <= max_dx2[dz * range_w + dy2]) return true;
    }
    return false;
}

void main() {
    int i = int(gl_GlobalInvocationID.x);
    int per_layer = box_size.x * box_size.y;
    if (i >= per_layer * box_size.z) return;
    ivec3 c = box0 + ivec3(i % box_size.x, (i / box_size.x) % box_size.y, i / per_layer);
    int vi = (c.z * size.y + c.y) * size.x + c.x;
    if ((free_bits[vi >> 5] & (1u << uint(vi & 31))) == 0u) { counts[i] = 0xFFFFu; return; }
    ivec3 hi = size * FP - 1;
    ivec3 base = c * FP;
    ivec4 own = ivec4(c.x, c.y, c.x + footprint, c.y + footprint);
    uint best = 255u;
    for (int j = 0; j < n_eyes; ++j) {
        Eye e = eyes[eye0 + j];
        if (check != 0 && !may_attack(e, c)) continue;
        uint n = 0u;
        for (int s = 0; s < n_samples; ++s) {
            ivec3 p1 = clamp(base + offsets[s], ivec3(0), hi);
            if (blocked(e.eye.xyz, p1, e.floor_box, e.eye.w, own, c.z - 1)) {
                n += 1u;
                if (n >= best) break;
            }
        }
        best = min(best, n);
        if (best == 0u) break;
    }
    counts[i] = best;
}
#endif
