"""SRD-31 Incorporeal Movement in the path search: "The ghost can move through other creatures and objects as if they
were difficult terrain." -- its flight's reach map (engine/rules/pathing.py ``THROUGH``) passes every node of the map,
a node where a voxel of its body is solid or another creature's body is costing its step twice."""

from __future__ import annotations

import numpy as np

from engine.rules import pathing
from engine.rules.pathing import _SHIFTS, INF, Reach


class ThroughReach(Reach):
    """The reach map of a flyer that moves through bodies and objects as if they were difficult terrain (SRD-31
    Incorporeal Movement): every node of the map is passable; entering a ``rough`` node (a voxel of the body solid,
    or another's body there) costs its step twice. A move may end inside an object, not in another's body."""

    def __init__(self, *args, rough):
        super().__init__(*args)
        self.rough = rough

    def edge_cm(self, p, q, diag_cm=None) -> int:
        c = super().edge_cm(p, q, diag_cm)
        if c >= INF:
            return c
        takeoff = self.costs[4] if self.fly and self.sup[p] and not self.sup[q] else 0
        return c + (c - takeoff if self.rough[q] else 0)


def through_reach(session, a, fitc, supc, spaces, box0, budget, costs, max_iter) -> ThroughReach | None:
    """The path search of a creature with Incorporeal Movement (on ``pathing.THROUGH``; None for any other):
    Bellman-Ford over the 26 shifts on the box with each node's entry cost doubled where it is rough
    (``ThroughReach``)."""
    if "incorporeal" not in (a.data.get("srd_features") or {}) or a.dead:
        return None
    X, Y = session.world.size[0], session.world.size[1]
    x0, y0, z0 = box0
    Zb, Yb, Xb = fitc.shape
    xs = np.arange(Xb) + x0
    ys = np.arange(Yb) + y0
    inb = np.broadcast_to(((ys[:, None] + a.footprint <= Y) & (xs[None, :] + a.footprint <= X))[None], fitc.shape)
    passable = inb.copy()
    rough = ~fitc
    endable = passable.copy()
    for (za, zb, ya, yb, xa, xb), _hostile in spaces:
        rough[za:zb, ya:yb, xa:xb] = True
        endable[za:zb, ya:yb, xa:xb] = False
    lo = (a.layer - z0, a.y - y0, a.x - x0)
    passable[lo] = True
    cell, diag, climb, descend, takeoff = costs
    pad = (Zb + 2, Yb + 2, Xb + 2)
    P = np.zeros(pad, dtype=bool)
    P[1:-1, 1:-1, 1:-1] = passable
    S = np.zeros(pad, dtype=bool)
    S[1:-1, 1:-1, 1:-1] = supc
    Rg = np.zeros(pad, dtype=bool)
    Rg[1:-1, 1:-1, 1:-1] = rough
    inner = (slice(1, -1),) * 3
    edges = []
    for dz, dy, dx in _SHIFTS:
        src = (slice(1 - dz, pad[0] - 1 - dz), slice(1 - dy, pad[1] - 1 - dy), slice(1 - dx, pad[2] - 1 - dx))
        ok = P[src] & P[inner]
        if dz and (dx or dy):
            ok &= S[src] & S[inner]                 # stepping up or down while moving across: walking only
        w = (0 if not (dx or dy) else (diag if dx and dy else cell)) + (climb if dz > 0 else (descend if dz < 0 else 0))
        W = np.where(ok, np.int64(w) * (1 + Rg[inner]), INF) + np.where(S[src] & ~S[inner], np.int64(takeoff), 0)
        edges.append((src, W))
    dist = np.full(pad, INF, dtype=np.int64)
    dist[lo[0] + 1, lo[1] + 1, lo[2] + 1] = 0
    for _ in range(max_iter):
        before = dist.copy()
        for src, W in edges:
            np.minimum(dist[inner], dist[src] + W, out=dist[inner])
        if np.array_equal(before, dist):
            break
    d = np.minimum(dist[inner], INF)
    d.flags.writeable = False
    return ThroughReach((a.x, a.y, a.layer), box0, d, passable, endable, supc, budget, costs, True, None, rough=rough)


pathing.THROUGH.append(through_reach)
