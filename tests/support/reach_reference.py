"""The reference implementation of the reach relaxation on 3D slices (tests/rules/test_air_rules.py and
tests/rules/test_rules_speed.py compare it with :func:`engine.rules.pathing._relax_flat`, the one the rules use). Test
code: it lives beside the tests, not in the package."""

from __future__ import annotations

import numpy as np

from engine.rules.pathing import _SHIFTS, INF, _slices


def _relax_3d(passable, supc, lo, fly, costs, max_iter):
    """Reference implementation of the relaxation on 3D slices (tests compare it with :func:`_relax_flat`)."""
    cell, diag, climb, descend, takeoff = costs
    Zb, Yb, Xb = passable.shape
    big = np.int32(1 << 29)     # big + big still fits an int32
    dist = np.full(passable.shape, big, dtype=np.int32)
    dist[lo] = 0
    dense, sparse = [], []
    walk_pairs = passable & supc
    for dz, dy, dx in _SHIFTS:
        if not fly and dz != 0 and dx == dy == 0:
            continue
        horiz = 0 if dx == dy == 0 else (diag if dx and dy else cell)
        vert = climb if dz > 0 else (descend if dz < 0 else 0)
        sz, tz = _slices(dz, Zb)
        sy, ty = _slices(dy, Yb)
        sx, tx = _slices(dx, Xb)
        s, t = (sz, sy, sx), (tz, ty, tx)
        if dz and (dx or dy):
            ok = walk_pairs[t] & walk_pairs[s]          # stepping up or down while moving across: walking only
            if not ok.any():
                continue
            tidx = np.flatnonzero(ok)
            # flat indices in the full box of the dst and src nodes
            tz_, ty_, tx_ = np.unravel_index(tidx, ok.shape)
            dst = np.ravel_multi_index((tz_ + t[0].start, ty_ + t[1].start, tx_ + t[2].start), dist.shape)
            src = np.ravel_multi_index((tz_ + s[0].start, ty_ + s[1].start, tx_ + s[2].start), dist.shape)
            sparse.append((src, dst, np.int32(horiz + vert)))
            continue
        ok = passable[t] & passable[s]
        if not ok.any():
            continue
        W = np.full(ok.shape, horiz + vert, dtype=np.int32)
        if fly and takeoff:
            W += np.int32(takeoff) * (supc[s] & ~supc[t])
        W[~ok] = big
        dense.append((W, s, t))
    flat = dist.reshape(-1)
    if sparse:       # all walking steps as one edge list (np.minimum.at copes with repeated destinations)
        s_src = np.concatenate([e[0] for e in sparse])
        s_dst = np.concatenate([e[1] for e in sparse])
        s_w = np.concatenate([np.full(len(e[0]), e[2], dtype=np.int32) for e in sparse])
    for _ in range(max_iter):
        before = dist.copy()
        for W, s, t in dense:
            np.minimum(dist[t], dist[s] + W, out=dist[t])
        if sparse:
            np.minimum.at(flat, s_dst, flat[s_src] + s_w)
        if np.array_equal(before, dist):
            break
    dist = np.minimum(dist.astype(np.int64), INF)
    dist[dist >= big] = INF
    return dist
