"""The cheapest costs of a small box as a Dijkstra over sets of nodes (Dial's buckets): every node set is one
Python integer of bits over ``pathing._relax_small``'s padded flat array, a move is a shift of those bits, so one
cost class (every node first reached at that cost) is relaxed along every edge in a few integer operations, not
two numpy calls per shift and sweep. The answer is the exact cheapest cost; ``search`` gives it only when
``_relax_small``'s sweeps are sure to reach it too (when no cheapest path has more edges than the sweeps it may
make), so the two agree element for element (tests/test_rules_speed.py), and returns None otherwise."""

from __future__ import annotations

import heapq

import numpy as np

#: the planar moves to the 8 neighbours (dilated in a few shifts)
_H8 = frozenset((dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))
#: 2 ** k as float64, k < 53: the bit planes of the costs made numbers in one product (exact below 2 ** 53)
_POW = 2.0 ** np.arange(53)
_PLANS: dict = {}


def _plan(Zb, Yb, Xb, fly, costs, shifts):
    """The edges of a box of that size, grouped by weight: ``((weight, ((source, destination, vertical offset,
    planar moves), ...)), ...)`` and the least weight. ``source`` / ``destination``: which nodes may be an end
    ("all", "sup": supported, "air": not supported; destination None: any), planar moves "h8" (the 8 neighbours) or
    a tuple of flat offsets. The edges are ``_relax_small``'s: walking steps up or down join supported nodes, a
    flyer leaving support into the air pays the take-off."""
    key = (Zb, Yb, Xb, fly, costs)
    got = _PLANS.get(key)
    if got is not None:
        return got
    cell, diag, climb, descend, takeoff = costs
    sy, sz = Xb + 2, (Yb + 2) * (Xb + 2)
    parts: dict = {}
    for dz, dy, dx in shifts:
        if not fly and dz != 0 and dx == dy == 0:
            continue
        vert = climb if dz > 0 else (descend if dz < 0 else 0)
        w = (0 if dx == dy == 0 else (diag if dx and dy else cell)) + vert
        if dz and (dx or dy):
            kinds = [(w, "sup", "sup")]         # walkable: passable and supported, both ends
        elif fly and takeoff:
            kinds = [(w, "air", None), (w, "sup", "sup"), (w + takeoff, "sup", "air")]
        else:
            kinds = [(w, "all", None)]
        for wk, src, dst in kinds:
            parts.setdefault((wk, src, dst, dz), []).append((dy, dx))
    groups: dict = {}
    for (w, src, dst, dz), moves in parts.items():
        plan = "h8" if len(moves) == 8 and frozenset(moves) == _H8 else tuple(dy * sy + dx for dy, dx in moves)
        groups.setdefault(w, []).append((src, dst, dz * sz, plan))
    if len(_PLANS) > 4096:
        _PLANS.clear()
    got = _PLANS[key] = (tuple((w, tuple(g)) for w, g in sorted(groups.items())), min(groups) if groups else 0)
    return got


def _bits(mask: np.ndarray) -> int:
    return int.from_bytes(np.packbits(mask.reshape(-1), bitorder="little").tobytes(), "little")


def _classes(table, masks, start: int, sy: int) -> list[tuple[int, int]]:
    """Dijkstra over cost classes: ``[(cost, nodes first reached at that cost), ...]`` in increasing cost."""
    open_ = masks["all"]
    pending = {0: start}
    heap = [0]
    done = []
    while heap:
        d = heapq.heappop(heap)
        s = pending.pop(d) & open_
        if not s:
            continue
        open_ ^= s
        done.append((d, s))
        srcs: dict = {}
        dil: dict = {}
        for w, parts in table:
            t = 0
            for src, dst, oz, plan in parts:
                x = srcs.get(src)
                if x is None:
                    x = srcs[src] = s & masks[src]
                if plan == "h8":
                    u = dil.get(src)
                    if u is None:
                        u = x << 1 | x >> 1              # the 8 neighbours, not the node itself
                        v = u | x
                        u |= v << sy | v >> sy
                        dil[src] = u
                else:
                    u = 0
                    for o in plan:
                        u |= x << o if o > 0 else x >> -o
                if oz:
                    u = u << oz if oz > 0 else u >> -oz
                if dst is not None:
                    u &= masks[dst]
                t |= u
            t &= open_
            if t:
                e = d + w
                got = pending.get(e)
                if got is None:
                    pending[e] = t
                    heapq.heappush(heap, e)
                else:
                    pending[e] = got | t
    return done


def search(passable, supc, lo, fly, costs, max_iter, shifts, inf):
    """``pathing._relax_small(passable, supc, lo, fly, costs, max_iter)`` (``shifts``: its ``_SHIFTS``, ``inf``: its
    INF), or None where the sweeps might stop before the fixpoint (or an edge costs nothing)."""
    Zb, Yb, Xb = passable.shape
    table, wmin = _plan(Zb, Yb, Xb, fly, costs, shifts)
    if wmin <= 0:
        return None
    P = np.zeros((Zb + 2, Yb + 2, Xb + 2), dtype=bool)
    P[1:-1, 1:-1, 1:-1] = passable
    S = np.zeros_like(P)
    S[1:-1, 1:-1, 1:-1] = supc
    N = P.size
    Pi = _bits(P)
    Si = _bits(S) & Pi
    masks = {"sup": Si, "air": Pi & ~Si, "all": Pi}
    done = _classes(table, masks, 1 << (((lo[0] + 1) * (Yb + 2) + lo[1] + 1) * (Xb + 2) + lo[2] + 1), Xb + 2)
    # a cheapest path has at most cost / wmin edges: the sweeps reach every cost by then
    if not done or done[-1][0] // wmin > max_iter - 1:
        return None
    planes: list = []                     # bit b of every reached node's cost + 1 (0: not reached)
    for d, s in done:
        d += 1
        b = 0
        while d:
            if d & 1:
                while len(planes) <= b:
                    planes.append(0)
                planes[b] |= s
            d >>= 1
            b += 1
    nb = (N + 7) // 8
    bits = np.unpackbits(np.frombuffer(b"".join(r.to_bytes(nb, "little") for r in planes), dtype=np.uint8),
                         bitorder="little").reshape(len(planes), nb * 8)
    val = (_POW[:len(planes)] @ bits)[:N].astype(np.int64)
    val -= 1
    val[val < 0] = inf
    return val.reshape(Zb + 2, Yb + 2, Xb + 2)[1:-1, 1:-1, 1:-1].copy()
