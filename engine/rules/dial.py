"""The cheapest costs of a small box as a Dijkstra over sets of nodes (Dial's buckets): every node set is one
Python integer of bits over ``pathing._relax_small``'s padded flat array, a move is a shift of those bits, so one
cost class (every node first reached at that cost) is relaxed along every edge in a few integer operations, not
two numpy calls per shift and sweep. The answer is the exact cheapest cost; ``search`` gives it only when
``_relax_small``'s sweeps are sure to reach it too (when no cheapest path has more edges than the sweeps it may
make), so the two agree element for element (tests/rules/test_rules_speed.py), and returns None otherwise."""

from __future__ import annotations

import heapq

import numpy as np

from engine.memo import table as memo_table

#: the planar moves to the 8 neighbours, the 4 straight and the 4 diagonal ones (dilated in a few shifts)
_H8 = frozenset((dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))
_S4 = frozenset(((0, 1), (0, -1), (1, 0), (-1, 0)))
_D4 = _H8 - _S4
_PLANS: dict = memo_table("dial._PLANS")
#: the node sets a move may start from (indices of a pop's bases: 0-2 the nodes, 3-5 / 6-8 / 9-11 their 8 /
#: 4 straight / 4 diagonal neighbours)
_SRC = {"all": 0, "sup": 1, "air": 2}
_PLANAR = {_H8: 1, _S4: 2, _D4: 3}


def _plan(fly, costs, shifts):
    """The edges, grouped by weight: ``((weight, ((base, dz, dy, dx, destination), ...)), ...)`` and the least
    weight. A term's nodes are a pop's ``base`` (the class's nodes that may start that move: all, supported, in the
    air; or their neighbours, dilated) moved by (dz, dy, dx), kept where ``destination`` allows (None: any, "sup",
    "air"). The edges are ``_relax_small``'s: walking steps up or down join supported nodes, a flyer leaving
    support into the air pays the take-off. Kept per mode and costs (any box size)."""
    key = (fly, costs)
    got = _PLANS.get(key)
    if got is not None:
        return got
    cell, diag, climb, descend, takeoff = costs
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
        mv = frozenset(moves)
        pl = _PLANAR.get(mv, 0) if len(mv) == len(moves) else 0
        if mv == {(0, 0)}:
            terms = [(_SRC[src], dz, 0, 0, dst)]
        elif pl:
            terms = [(3 * pl + _SRC[src], dz, 0, 0, dst)]
        else:
            terms = [(_SRC[src], dz, dy, dx, dst) for dy, dx in moves]
        groups.setdefault(w, []).extend(terms)
    if len(_PLANS) > 4096:
        _PLANS.clear()
    got = _PLANS[key] = (tuple((w, tuple(g)) for w, g in sorted(groups.items())), min(groups) if groups else 0)
    return got


def _bits(mask: np.ndarray) -> int:
    return int.from_bytes(np.packbits(mask.reshape(-1), bitorder="little").tobytes(), "little")


def _around(b: int, x: int, sy: int) -> int:
    """Base ``b`` of the node set ``x`` (``b // 3``: the nodes, their 8 / 4 straight / 4 diagonal neighbours)."""
    if b < 3:
        return x
    h = x << 1 | x >> 1
    if b < 6:
        v = h | x
        return h | v << sy | v >> sy
    if b < 9:
        return h | x << sy | x >> sy
    return h << sy | h >> sy


def _table(plan, masks, sy: int, sz: int):
    """The plan's terms on this box: ``((weight, ((base, flat offset, destinations), ...)), ...)``, each term's
    destinations narrowed to the nodes it can reach from any node of its kind (a walker's steps up or down on a
    box with one walkable layer are none, and left out)."""
    sel = (masks["all"], masks["sup"], masks["air"])
    dsts = {None: masks["all"], "sup": masks["sup"], "air": masks["air"]}
    table = []
    for w, terms in plan:
        kept = []
        for b, dz, dy, dx, d in terms:
            o = dz * sz + dy * sy + dx
            u = _around(b, sel[b % 3], sy)
            m = (u << o if o > 0 else u >> -o) & dsts[d]
            if m:
                kept.append((b, o, m))
        if kept:
            table.append((w, tuple(kept)))
    return tuple(table)


def _classes(table, masks, start: int, sy: int) -> list[tuple[int, int]]:
    """Dijkstra over cost classes: ``[(cost, nodes first reached at that cost), ...]`` in increasing cost."""
    sel = (masks["all"], masks["sup"], masks["air"])
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
        base: list = [None] * 12
        for w, terms in table:
            t = 0
            for b, o, m in terms:
                u = base[b]
                if u is None:
                    x = s & sel[b % 3]
                    if b < 3:
                        u = x
                    elif b < 6:                     # the 8 neighbours (_around, inline: the usual case)
                        h = x << 1 | x >> 1
                        v = h | x
                        u = h | v << sy | v >> sy
                    else:
                        u = _around(b, x, sy)
                    base[b] = u
                t |= (u << o if o > 0 else u >> -o) & m
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
    plan, wmin = _plan(fly, costs, shifts)
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
    sy, sz = Xb + 2, (Yb + 2) * (Xb + 2)
    done = _classes(_table(plan, masks, sy, sz), masks, 1 << ((lo[0] + 1) * sz + (lo[1] + 1) * sy + lo[2] + 1), sy)
    # a cheapest path has at most cost / wmin edges: the sweeps reach every cost by then
    if not done or done[-1][0] // wmin > max_iter - 1:
        return None
    # the class of every node from how many of the unions of the classes up to each one hold it (C - k for class
    # k, 0 where none reached it), in one unpacking and one sum
    unions = []
    u = 0
    for _, c in done:
        u |= c
        unions.append(u)
    nb = (N + 7) // 8
    bits = np.unpackbits(np.frombuffer(b"".join(r.to_bytes(nb, "little") for r in unions), dtype=np.uint8),
                         bitorder="little").reshape(len(unions), nb * 8)
    held = np.add.reduce(bits, axis=0, dtype=np.uint8 if len(unions) < 256 else np.intp)[:N]
    val = np.array([inf] + [d for d, _ in reversed(done)], dtype=np.int64)[held]
    return val.reshape(Zb + 2, Yb + 2, Xb + 2)[1:-1, 1:-1, 1:-1].copy()
