"""Exact line of sight through the voxel grid, vectorised over many rays (numpy backend).

The arithmetic (docs/world.md, "Line of sight"):

* Coordinates are in voxel units (x, y in cells, z in 1 m layers) and quantised to fixed point: ``FP`` = 256
  sub-units per voxel, ``q = floor(v * FP + 0.5)``. Everything after quantisation is integer arithmetic, so the
  GLSL kernel (int64) reproduces it bit for bit.
* A ray is the segment ``P0 -> P1``. It visits every voxel whose interior the segment passes through, in order
  (Amanatides & Woo). For each axis with ``D = P1 - P0 != 0`` the parameter of the next boundary crossing is
  ``t = n / |D|``; all three are kept over the common denominator ``L = prod(|D| != 0)`` as integers
  ``T = n * L / |D|``, so comparing crossings is an exact integer comparison.
* Tie rule: when the segment crosses two or three boundary planes at the same parameter (it passes exactly
  through a voxel edge or corner) it steps along all of those axes at once: it enters the diagonal voxel and
  neither of the side voxels it only touches. A start point exactly on a boundary plane starts in the voxel the
  segment moves into. A crossing at exactly ``t = 1`` (the end point lies on a face) does not enter the next voxel.
* Both end points must lie in the half-open map box ``[0, X) x [0, Y) x [0, Z)`` so every visited voxel is inside
  the grid; ``clamp_points`` brings a point inside.
"""

from __future__ import annotations

import numpy as np

from engine.memo import table as memo_table

FP_BITS = 8
FP = 1 << FP_BITS
_INF = np.int64(1) << np.int64(62)
CHUNK = 32768
DIST_CAP = 16


def quantize(points) -> np.ndarray:
    """Voxel-unit float coordinates -> int64 fixed point (round half up)."""
    return np.floor(np.asarray(points, dtype=np.float64) * FP + 0.5).astype(np.int64)


def clamp_points(q: np.ndarray, size) -> np.ndarray:
    hi = np.array(size, dtype=np.int64) * FP - 1
    return np.clip(q, 0, hi)


def _setup(p0: np.ndarray, p1: np.ndarray, size):
    """Initial traversal state for fixed-point segments p0 -> p1 (int64 [N, 3])."""
    X, Y, _ = size
    d = p1 - p0
    ad = np.abs(d)
    nz = ad != 0
    dd = np.where(nz, ad, 1)
    L = dd[:, 0] * dd[:, 1] * dd[:, 2]
    # start voxel: floor, or the voxel below a boundary the segment leaves downwards
    v = np.floor_divide(p0, FP)
    on_plane = (p0 - v * FP) == 0
    v = v - ((d < 0) & on_plane)
    # distance to the next boundary plane along the direction of travel, in (0, FP]
    n = np.where(d > 0, (v + 1) * FP - p0, p0 - v * FP)
    per = L[:, None] // dd                                                  # L / |D_a|, exact
    T = np.where(nz, n * per, _INF)
    inc = np.where(nz, FP * per, 0)
    stride = np.array([1, X, X * Y], dtype=np.int64)
    step = np.sign(d) * stride
    idx = (v[:, 2] * Y + v[:, 1]) * X + v[:, 0]
    return idx, T, inc, step, L


def _trace_chunk(dist: np.ndarray, p0: np.ndarray, p1: np.ndarray, size, ignore, out_blocked, out_steps):
    """Traverse one chunk of rays. ``dist`` is the capped Chebyshev distance (uint8, 0 = blocking) from every
    voxel to the nearest sight-blocking voxel: at a voxel with distance k the cube of radius k - 1 around it is
    clear, so the ray jumps to the first voxel it enters outside that cube (every voxel it passes on the way is
    one the exact traversal would visit, and all are clear). k = 1 is the plain one-voxel step, ties included,
    so the result is the exact traversal's, bit for bit (``_trace_plain`` checks it in the tests)."""
    idx, T, inc, step, L = _setup(p0, p1, size)
    n = len(idx)
    st = np.empty((11, n), dtype=np.int64)     # one packed state array: dropping finished rays is one gather
    st[0] = idx
    st[1:4] = T.T
    st[4:7] = np.where(inc > 0, inc, 1).T       # a safe divisor; axes that never cross have T = INF
    st[7:10] = step.T
    st[10] = L
    rid = np.arange(n)
    steps = 0
    while st.shape[1]:
        idx = st[0]
        k = dist[idx].astype(np.int64)
        hit = k == 0
        if ignore is not None and hit.any():
            # an ``ignore`` marked ``per_ray`` also gets each ray's index in the chunk (cover_many: one floor per pair)
            clear = (ignore(idx, rid) if getattr(ignore, "per_ray", False) else ignore(idx)) & hit
            hit &= ~clear
            k[clear] = 1
        k -= 1
        np.maximum(k, 0, out=k)
        # the three axes at once (rows 1-3: next crossing T, rows 4-6: its increment, rows 7-9: the index step)
        T, inc3 = st[1:4], st[4:7]
        mp = (T + k * inc3).min(axis=0)      # leaving the clear cube
        stop = hit | (mp >= st[10])
        steps += 1
        if stop.any():
            done = rid[stop]
            out_blocked[done] = hit[stop]
            out_steps[done] = steps
            keep = ~stop
            st = st[:, keep]
            rid = rid[keep]
            if not st.shape[1]:
                break
            mp = mp[keep]
            T, inc3 = st[1:4], st[4:7]
        # crossings of each axis up to and including mp (ties step together)
        c = mp - T
        c //= inc3
        c += 1
        np.maximum(c, 0, out=c)
        T += c * inc3
        st[0] += (c * st[7:10]).sum(axis=0)


def _trace_plain(blk: np.ndarray, p0: np.ndarray, p1: np.ndarray, size):
    """The plain one-voxel-at-a-time traversal (reference for the tests; same rules as ``_trace_chunk``)."""
    idx, T, inc, step, L = _setup(p0, p1, size)
    out = np.zeros(len(idx), dtype=bool)
    active = np.ones(len(idx), dtype=bool)
    while active.any():
        out |= active & blk[idx]
        active &= ~out
        m = T.min(axis=1)
        active &= m < L
        mask = (T == m[:, None]) & active[:, None]
        idx = idx + (step * mask).sum(axis=1)
        T = T + inc * mask
    return out


def trace_one(dist, size, p0, p1, ignore=()) -> tuple[bool, int]:
    """One fixed-point segment ``p0 -> p1`` (int triples inside the map box) in plain Python: ``_trace_chunk``'s
    traversal for one ray (the jumps across clear cubes, the plain step with its tie rule at distance 1), for a caller
    that wants one or two lines and would pay more for a batch's fixed cost than for the steps (engine/world/cover.py
    ``_quick``). ``dist``: the capped distance field as bytes (0 = sight-blocking), ``ignore``: flat indices that
    count as clear. Returns (blocked, the flat index of the blocking voxel, or -1 when clear)."""
    X, Y, _ = size
    d0, d1, d2 = p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]
    a0, a1, a2 = (d0 if d0 > 0 else -d0) or 1, (d1 if d1 > 0 else -d1) or 1, (d2 if d2 > 0 else -d2) or 1
    L = a0 * a1 * a2
    XY = X * Y
    v0, v1, v2 = p0[0] >> FP_BITS, p0[1] >> FP_BITS, p0[2] >> FP_BITS
    # the start voxel: the one below a boundary plane the segment leaves downwards
    if d0 < 0 and p0[0] == v0 << FP_BITS:
        v0 -= 1
    if d1 < 0 and p0[1] == v1 << FP_BITS:
        v1 -= 1
    if d2 < 0 and p0[2] == v2 << FP_BITS:
        v2 -= 1
    idx = v0 + X * v1 + XY * v2
    # per axis: the next crossing T (times L), its increment, the index step; an axis never crossed: T = INF, inc 1
    if d0:
        per = L // a0
        T0, i0, s0 = ((v0 + 1) * FP - p0[0] if d0 > 0 else p0[0] - v0 * FP) * per, FP * per, (1 if d0 > 0 else -1)
    else:
        T0, i0, s0 = _INF_INT, 1, 0
    if d1:
        per = L // a1
        T1, i1, s1 = ((v1 + 1) * FP - p0[1] if d1 > 0 else p0[1] - v1 * FP) * per, FP * per, (X if d1 > 0 else -X)
    else:
        T1, i1, s1 = _INF_INT, 1, 0
    if d2:
        per = L // a2
        T2, i2, s2 = ((v2 + 1) * FP - p0[2] if d2 > 0 else p0[2] - v2 * FP) * per, FP * per, (XY if d2 > 0 else -XY)
    else:
        T2, i2, s2 = _INF_INT, 1, 0
    while True:
        k = dist[idx]
        if not k:
            if idx not in ignore:
                return True, idx
            k = 1
        k -= 1                  # the cube of radius k - 1 around this voxel is clear: leave it in one jump
        m = T0 + k * i0
        if T1 + k * i1 < m:
            m = T1 + k * i1
        if T2 + k * i2 < m:
            m = T2 + k * i2
        if m >= L:
            return False, -1
        if T0 <= m:             # every crossing of each axis up to and including m (ties step together)
            c = (m - T0) // i0 + 1
            T0 += c * i0
            idx += c * s0
        if T1 <= m:
            c = (m - T1) // i1 + 1
            T1 += c * i1
            idx += c * s1
        if T2 <= m:
            c = (m - T2) // i2 + 1
            T2 += c * i2
            idx += c * s2


_INF_INT = 1 << 62


#: at most this many boundary crossings in one ``trace_crossings`` batch (memory: about 150 bytes each)
CROSSINGS_MAX = 1 << 18


def crossings_total(p0: np.ndarray, p1: np.ndarray) -> int:
    """An upper bound of the boundary crossings of fixed-point segments p0 -> p1 (int64 [N, 3]): the voxels
    between the end points' voxels, plus one per axis (``trace_crossings`` sizes its work by it)."""
    return int((np.abs(p1 // FP - p0 // FP) + 1).sum())


_TILES: dict = memo_table("los._TILES")


def _ray_tile(n: int) -> np.ndarray:
    """``[0, 1, ..., n - 1]`` three times (read-only, kept per n)."""
    got = _TILES.get(n)
    if got is None:
        if len(_TILES) > 4096:
            _TILES.clear()
        got = _TILES[n] = np.tile(np.arange(n), 3)
        got.flags.writeable = False
    return got


def trace_crossings(dist: np.ndarray, size, p0: np.ndarray, p1: np.ndarray, ignore=None) -> np.ndarray:
    """``trace_fixed``'s answer (bool [N], True when some visited voxel blocks), worked out without a loop over the
    steps: every boundary crossing of every segment (``T_a + j * inc_a < L`` on each axis, the traversal's own
    integers) is listed at once, and the voxel entered there is the start voxel moved by every crossing of every
    axis at or before that parameter (``(t - T_b) // inc_b + 1`` on axis b): crossings at the same parameter give
    the same voxel, the one the segment enters stepping along all of those axes at once (the tie rule). These are
    exactly the voxels the plain traversal visits (``_trace_plain``), so the answer is bit for bit
    ``trace_fixed``'s. For a few hundred short segments (the 36 sight lines of a few covers) this is a fixed
    handful of array operations instead of a dozen per step of the longest segment; the caller bounds the work
    (``crossings_total``)."""
    n = len(p0)
    blocked = np.zeros(n, dtype=bool)
    if not n:
        return blocked
    idx0, T, inc, step, L = _setup(p0, p1, size)
    safe = np.maximum(inc, 1)
    # crossings with T_a + j inc_a < L, per axis: none where T_a >= L (then L - 1 - T_a >= -inc_a, as T_a <= inc_a)
    # nor on an axis never crossed (T_a = INF)
    cnt = L[:, None] - 1 - T
    cnt //= safe
    cnt += 1
    np.maximum(cnt, 0, out=cnt)
    c_flat = cnt.T.ravel()                                # axis-major: all x crossings, then y, then z
    E = int(c_flat.sum())
    tile = _ray_tile(n)                                   # axis * n + ray -> ray
    vox = idx0
    vray = tile[:n]
    if E:
        # per ray, one row each: T (3), the increments (3), the index steps (3), the start index
        M = np.empty((10, n), dtype=np.int64)
        M[0:3] = T.T
        M[3:6] = safe.T
        M[6:9] = step.T
        M[9] = idx0
        k = np.repeat(np.arange(3 * n), c_flat)           # (axis, ray) of each crossing, as axis * n + ray
        ray = np.repeat(tile, c_flat)
        G = M[:, ray]
        j = np.arange(E) - np.repeat(np.cumsum(c_flat) - c_flat, c_flat)     # the crossing's number on its axis
        t = T.T.ravel()[k] + j * safe.T.ravel()[k]        # the parameter of each crossing (times L)
        idx = G[9].copy()
        for b in range(3):                                # crossings of axis b at or before t
            c = t - G[b]
            c //= G[3 + b]
            c += 1
            np.maximum(c, 0, out=c)
            c *= G[6 + b]
            idx += c
        vox = np.concatenate([idx0, idx])
        vray = np.concatenate([vray, ray])
    hit = dist[vox] == 0
    if ignore is not None and hit.any():
        hv, hr = vox[hit], vray[hit]
        clear = ignore(hv, hr) if getattr(ignore, "per_ray", False) else ignore(hv)
        hr = hr[~clear]
    else:
        hr = vray[hit]
    blocked[hr] = True
    return blocked


def trace_fixed(dist_flat: np.ndarray, size, p0: np.ndarray, p1: np.ndarray, *, ignore=None,
                return_steps: bool = False, chunk: int = CHUNK, threads: int = 1):
    """Trace fixed-point segments. ``dist_flat`` is ``distance_field(blocking)`` flattened (x fastest).

    Returns bool [N]: True when some visited voxel blocks. ``ignore`` is an optional function of the flat voxel
    index array returning the voxels to treat as clear (used for the floor under a character's own feet).
    """
    p0 = np.ascontiguousarray(p0, dtype=np.int64).reshape(-1, 3)
    p1 = np.ascontiguousarray(p1, dtype=np.int64).reshape(-1, 3)
    if p0.shape != p1.shape:
        raise ValueError("p0 and p1 must have the same shape")
    hi = np.array(size, dtype=np.int64) * FP
    if len(p0) and ((p0 < 0).any() or (p1 < 0).any() or (p0 >= hi).any() or (p1 >= hi).any()):
        raise ValueError("ray end points must lie inside the map box [0, size)")
    n = len(p0)
    blocked = np.zeros(n, dtype=bool)
    steps = np.zeros(n, dtype=np.int32)
    spans = [(s, min(n, s + chunk)) for s in range(0, n, chunk)]

    def work(span):
        s, e = span
        _trace_chunk(dist_flat, p0[s:e], p1[s:e], size, ignore, blocked[s:e], steps[s:e])

    if threads > 1 and len(spans) > 1:
        from concurrent.futures import ThreadPoolExecutor   # numpy releases the GIL inside its loops

        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(work, spans))
    else:
        for span in spans:
            work(span)
    return (blocked, steps) if return_steps else blocked


def distance_field(blocking: np.ndarray, cap: int = DIST_CAP) -> np.ndarray:
    """uint8 [Z, Y, X]: Chebyshev distance from each voxel to the nearest blocking voxel, capped at ``cap``
    (0 on blocking voxels). Outside the map counts as clear: rays never leave it."""
    cur = blocking.astype(bool, copy=True)
    dist = np.full(cur.shape, cap, dtype=np.uint8)
    dist[cur] = 0
    for k in range(1, cap):
        if cur.all():
            break
        grown = cur.copy()
        for axis in range(3):                       # a 3x3x3 dilation is three 1D ones
            g = grown
            src = g.copy()
            sl = [slice(None)] * 3
            sl2 = [slice(None)] * 3
            sl[axis], sl2[axis] = slice(1, None), slice(None, -1)
            g[tuple(sl)] |= src[tuple(sl2)]
            g[tuple(sl2)] |= src[tuple(sl)]
        new = grown & ~cur
        dist[new] = k
        cur = grown
    return dist


def trace(world, p0, p1, **kw):
    """Trace float voxel-unit segments through a World (quantised, clamped into the map, then exact)."""
    size = world.size
    return trace_fixed(world.los_distance(), size, clamp_points(quantize(p0), size),
                       clamp_points(quantize(p1), size), **kw)


def visited_voxels(size, p0q, p1q) -> list[tuple[int, int, int]]:
    """The voxels one fixed-point segment visits, in order (for overlays, debugging and tests)."""
    X, Y, _ = size
    idx, T, inc, step, L = _setup(np.asarray([p0q], np.int64), np.asarray([p1q], np.int64), size)
    idx, T, inc, step, L = int(idx[0]), [int(t) for t in T[0]], [int(i) for i in inc[0]], [int(s) for s in step[0]], int(L[0])
    out = []
    while True:
        out.append((idx % X, (idx // X) % Y, idx // (X * Y)))
        m = min(T)
        if m >= L:
            return out
        for a in range(3):
            if T[a] == m:
                idx += step[a]
                T[a] += inc[a]
