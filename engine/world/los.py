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

FP_BITS = 8
FP = 1 << FP_BITS
_INF = np.int64(1) << np.int64(62)
CHUNK = 32768


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
    per = np.stack([L // dd[:, 0], L // dd[:, 1], L // dd[:, 2]], axis=1)   # L / |D_a|, exact
    T = np.where(nz, n * per, _INF)
    inc = np.where(nz, FP * per, 0)
    stride = np.array([1, X, X * Y], dtype=np.int64)
    step = np.sign(d) * stride
    idx = (v[:, 2] * Y + v[:, 1]) * X + v[:, 0]
    return idx, T, inc, step, L


def _trace_chunk(blk: np.ndarray, p0: np.ndarray, p1: np.ndarray, size, ignore, out_blocked, out_steps):
    idx, T, inc, step, L = _setup(p0, p1, size)
    n = len(idx)
    # one packed state array, so dropping finished rays is a single gather
    st = np.empty((10, n), dtype=np.int64)
    st[0] = idx
    st[1:4] = T.T
    st[4:7] = inc.T
    st[7:10] = step.T
    L_ = L.copy()
    rid = np.arange(n)
    steps = 0
    while st.shape[1]:
        idx = st[0]
        hit = blk[idx]
        if ignore is not None:
            hit &= ~ignore(idx)
        Tx, Ty, Tz = st[1], st[2], st[3]
        m = np.minimum(np.minimum(Tx, Ty), Tz)
        stop = hit | (m >= L_)
        if stop.any():
            done = rid[stop]
            out_blocked[done] = hit[stop]
            out_steps[done] = steps + 1
            keep = ~stop
            st = st[:, keep]
            L_ = L_[keep]
            rid = rid[keep]
            if not st.shape[1]:
                break
            idx = st[0]
            Tx, Ty, Tz = st[1], st[2], st[3]
            m = m[keep]
        mx = Tx == m
        my = Ty == m
        mz = Tz == m
        np.add(idx, st[7], out=idx, where=mx)
        np.add(idx, st[8], out=idx, where=my)
        np.add(idx, st[9], out=idx, where=mz)
        np.add(Tx, st[4], out=Tx, where=mx)
        np.add(Ty, st[5], out=Ty, where=my)
        np.add(Tz, st[6], out=Tz, where=mz)
        steps += 1


def trace_fixed(blocking_flat: np.ndarray, size, p0: np.ndarray, p1: np.ndarray, *, ignore=None,
                return_steps: bool = False, chunk: int = CHUNK):
    """Trace fixed-point segments. ``blocking_flat`` is bool [Z*Y*X] (x fastest).

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
    for s in range(0, n, chunk):
        e = min(n, s + chunk)
        _trace_chunk(blocking_flat, p0[s:e], p1[s:e], size, ignore, blocked[s:e], steps[s:e])
    return (blocked, steps) if return_steps else blocked


def trace(world, p0, p1, **kw):
    """Trace float voxel-unit segments through a World (quantised, then exact)."""
    return trace_fixed(world.blocks_sight().ravel(), world.size, quantize(p0), quantize(p1), **kw)


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
