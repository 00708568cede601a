"""Movement's path search (AIR-06, AIR-07, AIR-09), written once for every ruleset: where a body fits and stands,
and the cheapest path over nodes (cell x, cell y, layer) as a vectorised Bellman-Ford relaxation over the box the
budget can reach (``Reach``, cached per actor position). ``engine.rules.aerial`` re-exports it; the costs are
described in its docstring."""

from __future__ import annotations

from typing import TYPE_CHECKING

import math

import numpy as np

from engine.memo import table as memo_table
from engine.rules import dial, riding
from engine.rules.core import Actor

if TYPE_CHECKING:
    from engine.rules.session import Session

INF = np.int64(1) << np.int64(40)


def climb_cost(session: Session, a: Actor, flying: bool) -> float:
    """AIR-07: the metres one layer up costs: the option ``climb_m``, then each of the ruleset's ``CLIMB_COST``
    rules in order (a feat may lower it for a character)."""
    metres = float(session.options.get("climb_m", 4.0))
    for fn in session.ruleset.CLIMB_COST:
        metres = fn(session.ruleset, session, a, flying, metres)
    return metres

def cm(metres: float) -> int:
    return round(metres * 100)


# ---------------------------------------------------------------------------------------------------------
def body_masks(session: Session, footprint: int, height: int):
    """(fit, sup): bool [Z, Y, X] -- a body of that size fits with its feet at (x, y, z) / stands there."""
    key = ("masks", footprint, height)
    store = session.__dict__.setdefault("_mask_cache", {})
    if key in store:
        return store[key]
    world = session.world
    solid = world.solid()
    Z, Y, X = solid.shape
    pad = np.zeros((Z + height, Y + footprint, X + footprint), dtype=bool)
    pad[:Z, :Y, :X] = solid
    pad[:, Y:, :] = True
    pad[:, :, X:] = True
    fit = np.ones((Z, Y, X), dtype=bool)
    for dz in range(height):
        for dy in range(footprint):
            for dx in range(footprint):
                fit &= ~pad[dz:dz + Z, dy:dy + Y, dx:dx + X]
    sup = np.zeros((Z, Y, X), dtype=bool)
    sup[0] = True
    below = np.zeros((Z, Y, X), dtype=bool)
    for dy in range(footprint):
        for dx in range(footprint):
            below[1:] |= pad[0:Z - 1, dy:dy + Y, dx:dx + X]
    sup |= below
    store[key] = (fit, sup)
    return fit, sup


def is_supported(session: Session, a: Actor, x=None, y=None, layer=None) -> bool:
    x = a.x if x is None else x
    y = a.y if y is None else y
    layer = a.layer if layer is None else layer
    if layer == 0:
        return True
    w = session.world
    return any(w.is_solid(x + i, y + j, layer - 1) for i in range(a.footprint) for j in range(a.footprint))


def support_below(session: Session, a: Actor) -> int:
    """AIR-12: the highest support under the footprint (ground 0, or a roof) at or below the feet."""
    w = session.world
    return max(w.support_layer(a.x + i, a.y + j, a.layer) for i in range(a.footprint) for j in range(a.footprint))


def body_fits(session: Session, a: Actor, x: int, y: int, layer: int) -> bool:
    X, Y, Z = session.world.size
    if not (0 <= x and x + a.footprint <= X and 0 <= y and y + a.footprint <= Y and 0 <= layer < Z):
        return False
    fit, _ = body_masks(session, a.footprint, a.height_layers)
    return bool(fit[layer, y, x])


# ---------------------------------------------------------------------------------------------------------
class Reach:
    """Cheapest movement cost (cm) to every node of a box around the actor; paths on demand."""

    def __init__(self, origin, box0, dist, passable, endable, sup, budget_cm, costs, fly, per=None):
        self.per = per            # 5-10-5 diagonals: cost per parity of diagonals so far, [2, z, y, x]
        self.origin = origin
        self.box0 = box0          # (x0, y0, z0) of the box
        self.dist = dist          # int64 [z, y, x] in the box
        self.passable = passable
        self.endable = endable
        self.sup = sup
        self.budget_cm = budget_cm
        self.costs = costs        # (cell, diag, climb, descend, takeoff) in cm
        self.fly = fly

    def _local(self, x, y, z):
        x0, y0, z0 = self.box0
        lz, ly, lx = z - z0, y - y0, x - x0
        Zb, Yb, Xb = self.dist.shape
        if 0 <= lz < Zb and 0 <= ly < Yb and 0 <= lx < Xb:
            return lz, ly, lx
        return None

    def cost_cm(self, x, y, z) -> int | None:
        loc = self._local(x, y, z)
        if loc is None:
            return None
        d = int(self.dist[loc])
        return None if d >= INF else d

    def can_end(self, x, y, z) -> bool:
        loc = self._local(x, y, z)
        return loc is not None and bool(self.endable[loc]) and int(self.dist[loc]) <= self.budget_cm

    def destination_cells(self) -> np.ndarray:
        """Every node where the move may end (within budget, the body fits and is not on another's), the origin
        left out: int32 [n, 3] of (x, y, layer), layer-major then y then x (the order of ``destinations``).
        Worked out once per reach map (they are cached) and read-only."""
        got = self.__dict__.get("_cells")
        if got is not None:
            return got
        ok = self.endable & (self.dist <= self.budget_cm)
        x0, y0, z0 = self.box0
        ox, oy, oz = self.origin
        if 0 <= oz - z0 < ok.shape[0] and 0 <= oy - y0 < ok.shape[1] and 0 <= ox - x0 < ok.shape[2]:
            ok[oz - z0, oy - y0, ox - x0] = False
        flat = np.flatnonzero(ok)
        Zb, Yb, Xb = ok.shape
        out = np.empty((flat.size, 3), dtype=np.int32)
        out[:, 0] = flat % Xb + x0
        out[:, 1] = (flat // Xb) % Yb + y0
        out[:, 2] = flat // (Xb * Yb) + z0
        out.flags.writeable = False
        self._cells = out
        return out

    def destinations(self) -> list[tuple[int, int, int]]:
        return [tuple(c) for c in self.destination_cells().tolist()]

    def edge_cm(self, p, q, diag_cm=None) -> int:
        """Cost of one edge p -> q (local box indices), INF when not allowed."""
        if not (self.passable[p] and self.passable[q]):
            return int(INF)
        dz, dy, dx = q[0] - p[0], q[1] - p[1], q[2] - p[2]
        sp, sq = bool(self.sup[p]), bool(self.sup[q])
        if dz and (dx or dy) and not (sp and sq):
            return int(INF)      # climbing while stepping across: only a walking step (stairs)
        if not self.fly and dz and not (dx or dy):
            return int(INF)
        cell, diag, climb, descend, takeoff = self.costs
        if diag_cm is not None:
            diag = diag_cm
        c = 0 if not (dx or dy) else (diag if dx and dy else cell)
        c += climb if dz > 0 else (descend if dz < 0 else 0)
        if self.fly and sp and not sq:
            c += takeoff
        return c

    def path(self, x, y, z) -> list[tuple[int, int, int]]:
        """Nodes from the origin to (x, y, z), both included."""
        loc = self._local(x, y, z)
        if loc is None or self.dist[loc] >= INF:
            return []
        x0, y0, z0 = self.box0
        if self.per is not None:
            return [(lx + x0, ly + y0, lz + z0) for lz, ly, lx in self._path_parity(loc)]
        out = [loc]
        cur = loc
        guard = 0
        while self.dist[cur] > 0 and guard < 10000:
            guard += 1
            found = None
            for p, dy, dx in _back_steps(cur, self.dist.shape):
                w = self.edge_cm(p, cur)
                if w < INF and self.dist[p] + w == self.dist[cur]:
                    found = p
                    break
            if found is None:
                break
            cur = found
            out.append(cur)
        out.reverse()
        return [(lx + x0, ly + y0, lz + z0) for lz, ly, lx in out]


    def _path_parity(self, loc):
        D = self.per
        cell = self.costs[0]
        par = 0 if D[0][loc] == self.dist[loc] else 1
        cur, out, guard = loc, [loc], 0
        while D[par][cur] > 0 and guard < 10000:
            guard += 1
            found = None
            for p, dy, dx in _back_steps(cur, self.dist.shape):
                if dx and dy:      # a diagonal flips the parity: the odd one costs one cell, the even one two
                    pp, w = 1 - par, self.edge_cm(p, cur, cell if par == 1 else 2 * cell)
                else:
                    pp, w = par, self.edge_cm(p, cur)
                if w < INF and D[pp][p] + w == D[par][cur]:
                    found = (p, pp)
                    break
            if found is None:
                break
            cur, par = found
            out.append(cur)
        out.reverse()
        return out


# straight moves first, so reconstructed paths prefer them among equal costs
_SHIFTS = sorted(((dz, dy, dx) for dz in (-1, 0, 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dz, dy, dx) != (0, 0, 0)),
                 key=lambda d: (abs(d[0]) + abs(d[1]) + abs(d[2]), d))


def _back_steps(cur, shape):
    """The nodes inside the box one step before ``cur`` (each of ``_SHIFTS`` undone, in its order), with the
    step's dy, dx (for path reconstruction)."""
    Zb, Yb, Xb = shape
    for dz, dy, dx in _SHIFTS:
        p = (cur[0] - dz, cur[1] - dy, cur[2] - dx)
        if 0 <= p[0] < Zb and 0 <= p[1] < Yb and 0 <= p[2] < Xb:
            yield p, dy, dx


def _slices(d, n):
    """src and dst slices along one axis for a shift of d (dst = src + d)."""
    if d > 0:
        return slice(0, n - d), slice(d, n)
    if d < 0:
        return slice(-d, n), slice(0, n + d)
    return slice(0, n), slice(0, n)


#: finished searches by their inputs (``reach``): (box shape, passable and support masks, start, fly, costs, 5-10-5,
#: sweeps) -> (dist, per), read-only arrays; boxes of at most SEARCH_NODES nodes (an ordinary move's), cleared when
#: it holds SEARCHES_MAX (at most about 50 MiB of arrays, a few MiB in a skirmish)
_SEARCHES: dict = memo_table("pathing._SEARCHES")
SEARCHES_MAX = 512
SEARCH_NODES = 4096


def _spaces(a: Actor, live: list, shape: tuple, box0: tuple) -> list:
    """The nodes of the box (``shape`` [Z, Y, X] from ``box0`` (x0, y0, z0)) where a's body would overlap another's
    body, as ((za, zb, ya, yb, xa, xb), hostile) slices: a move may not end there; a hostile's may not be passed
    through either. Boxes of other bodies wholly outside it are empty and change nothing."""
    f, h = a.footprint, a.height_layers
    x0, y0, z0 = box0
    Zc, Yc, Xc = shape
    spaces = []
    for o in live:
        za, zb = o.layer - h + 1 - z0, o.layer + o.height_layers - z0      # [za, zb) etc.: the overlapping nodes
        ya, yb = o.y - f + 1 - y0, o.y + o.footprint - y0
        xa, xb = o.x - f + 1 - x0, o.x + o.footprint - x0
        za, ya, xa = (za if za > 0 else 0), (ya if ya > 0 else 0), (xa if xa > 0 else 0)
        if za < (zb if zb < Zc else Zc) and ya < (yb if yb < Yc else Yc) and xa < (xb if xb < Xc else Xc):
            spaces.append(((za, zb, ya, yb, xa, xb), o.side != a.side))
    return spaces


#: fn(session, actor, fit, sup, spaces, box0, budget_cm, costs, max_iter) -> a flyer's own reach map or None: a
#: creature that moves through bodies and objects (a ruleset's rule registers it)
THROUGH: list = []
#: fn(a, o) -> True where a may pass and stop in o's space; fn(a) -> True where a passes any opening one voxel wide,
#: ending only where its own body fits (a ruleset's rules register them: 5e's swarms and Air Form, SRD-41)
SHARES: list = []
SQUEEZES: list = []


def reach(session: Session, a: Actor, budget_m: float | None = None, fly: bool | None = None) -> Reach:
    """The reach map of actor ``a`` now (cached by everything it depends on)."""
    rs = session.ruleset
    fly = a.can_fly if fly is None else fly
    budget_m = rs.movement_left(session, a, fly) if budget_m is None else budget_m
    live = [o for o in session.state.actors.values() if o.id != a.id and not o.dead and not _rides(o)
            and not any(fn(a, o) for fn in SHARES)]
    squeeze = bool(SQUEEZES) and any(fn(a) for fn in SQUEEZES)
    others = tuple(sorted((o.id, o.x, o.y, o.layer, o.side == a.side, o.footprint, o.height_layers) for o in live))
    climb = cm(climb_cost(session, a, fly))        # in the key: a spell (Jump) may change it where it stands
    key = ("reach", a.id, a.pos, a.flying, fly, round(budget_m, 4), others, rs.takeoff_cost(session, a), climb,
           a.footprint, a.height_layers, squeeze)   # Enlarge/Reduce changes a body where it stands
    got = session.cache.get(key)
    if got is not None:
        return got
    opts = session.options
    world = session.world
    X, Y, Z = world.size
    cell = cm(world.cell_m)
    mode = opts.get("diagonal", "5e")
    diag = cm(world.cell_m * math.sqrt(2)) if mode == "euclidean" else cell
    descend = cm(float(opts.get("descend_m", 2.0)))
    takeoff = cm(rs.takeoff_cost(session, a)) if fly else 0
    budget = cm(max(budget_m, 0.0))
    f, h = a.footprint, a.height_layers
    fit, sup = body_masks(session, f, h)
    R = budget // min(cell, diag) + 1
    x0, x1 = max(0, a.x - R), min(X - 1, a.x + R)
    y0, y1 = max(0, a.y - R), min(Y - 1, a.y + R)
    # walkers change a layer only with a step across (cell + climb/descend), flyers may go straight up or down
    z0 = max(0, a.layer - (budget // descend if fly else budget // (min(cell, diag) + descend)) - 1)
    z1 = min(Z - 1, a.layer + (budget // climb if fly else budget // (min(cell, diag) + climb)) + 1)
    fitc = fit[z0:z1 + 1, y0:y1 + 1, x0:x1 + 1]
    supc = sup[z0:z1 + 1, y0:y1 + 1, x0:x1 + 1]
    fits_end = fitc
    if squeeze:                          # it passes where a one-voxel body fits, ends where its own body does
        fitc = body_masks(session, 1, 1)[0][z0:z1 + 1, y0:y1 + 1, x0:x1 + 1]
    spaces = _spaces(a, live, fitc.shape, (x0, y0, z0))
    for fn in THROUGH if fly else ():
        through = fn(session, a, fitc, supc, spaces, (x0, y0, z0), budget, (cell, diag, climb, descend, takeoff),
                     4 * (R + fitc.shape[0]) + 8)
        if through is not None:
            if len(session.cache) > 4096:
                session.cache.clear()
            session.cache[key] = through
            return through
    passable = fitc & supc if not fly else fitc.copy()
    endable = passable & fits_end if squeeze else passable.copy()
    for (za, zb, ya, yb, xa, xb), hostile in spaces:
        endable[za:zb, ya:yb, xa:xb] = False
        if hostile:
            passable[za:zb, ya:yb, xa:xb] = False     # through an ally's space, not a hostile's
    lo = (a.layer - z0, a.y - y0, a.x - x0)
    passable[lo] = True
    costs = (cell, diag, climb, descend, takeoff)
    # the costs depend on the box, the costs and the passable nodes only: the same search is shared by every
    # reach map that differs only in where allies stand (or others outside the box)
    dkey = ("reach_dist", a.pos, f, h, fly, mode, costs, budget, (x0, x1, y0, y1, z0, z1), squeeze,
            tuple(sl for sl, hostile in spaces if hostile))
    dist, per = _searched(session, dkey, passable, supc, lo, fly, costs, mode == "5-10-5", 4 * (R + fitc.shape[0]) + 8)
    r = Reach(a.pos, (x0, y0, z0), dist, passable, endable, supc, budget, costs, fly, per)
    if len(session.cache) > 4096:
        session.cache.clear()
    session.cache[key] = r
    return r


def _searched(session: Session, dkey, passable, supc, lo, fly, costs, alternate: bool, max_iter: int):
    """(dist, per) of the search from ``lo`` over the box: kept in the session by ``dkey``, and a box of at most
    SEARCH_NODES nodes in ``_SEARCHES`` by its masks, start and costs (the search is a pure function of them,
    wherever the box lies on whichever map: an open stretch of sky, the same room again give the same answer)."""
    done = here = session.cache.get(dkey)
    skey = None
    if done is None and passable.size <= SEARCH_NODES:
        skey = (passable.shape, passable.tobytes(), supc.tobytes(), lo, fly, costs, alternate, max_iter)
        done = _SEARCHES.get(skey)
    if done is not None:
        dist, per = done
    elif alternate:
        dist, per = _relax_flat(passable, supc, lo, fly, costs, max_iter, alternate=True)
    else:
        dist, per = _relax_flat(passable, supc, lo, fly, costs, max_iter), None
    if done is None:
        for arr in (dist, per):
            if arr is not None:
                arr.flags.writeable = False          # shared by the reach maps of this search (and of any other)
        if skey is not None:
            if len(_SEARCHES) >= SEARCHES_MAX:
                _SEARCHES.clear()
            _SEARCHES[skey] = (dist, per)
    if here is None:
        session.cache[dkey] = (dist, per)
    return dist, per


#: boxes with more nodes than this are relaxed a whole straight line at a time (``_scan_shift``)
SCAN_NODES = 200_000
#: a box of at most this many (padded) nodes is searched over bit sets (``engine.rules.dial``: the same costs in
#: about half the time of ``_relax_small`` on a walker's ordinary move in the bench, 0.8-0.9 of it on a flyer's,
#: whose take-offs make many more cost classes)
DIAL_NODES = 8192


def _scan_shift(dist, Pf, Sf, o, w, takeoff, fly):
    """Relax every edge ``i - o -> i`` (weight ``w``, plus the take-off where it leaves support into the air)
    along whole chains ``r, r + o, r + 2o...`` at once, in place on the int32 ``dist``: on each run of passable
    nodes, ``dist[k] = min over j <= k of dist[j] + (weights from j to k)``, a cumulative minimum of
    ``dist - C`` (C: the cumulative weights) with every run offset below the one before so none leaks into the
    next. The same fixpoint as one step per sweep, in far fewer sweeps on a big box."""
    if o < 0:
        dist, Pf, Sf, o = dist[::-1], Pf[::-1], Sf[::-1], -o
    N = dist.size
    M = -(-N // o)
    ok = np.zeros(M * o, dtype=bool)
    ok[o:N] = Pf[o:] & Pf[:-o]                      # the edge into i from i - o exists
    W = np.where(ok, np.int64(w), np.int64(0))
    if fly and takeoff:
        lift = np.zeros(M * o, dtype=bool)
        lift[o:N] = Sf[:-o] & ~Sf[o:]
        lift &= ok
        W[lift] += takeoff
    shape = (M, o) if o > 1 else (M,)                # o = 1: one chain, a plain (fast) 1D scan
    C = W.reshape(shape).cumsum(axis=0)
    del W
    off = (~ok).reshape(shape).cumsum(axis=0, dtype=np.int64)
    del ok
    off <<= 31                                      # run k sits 2^31 * k below run k - 1 (costs are < 2^30)
    off += C
    del C
    v = np.full(M * o, 1 << 29, dtype=np.int64).reshape(shape)
    v.reshape(-1)[:N] = dist
    v -= off
    np.minimum.accumulate(v, axis=0, out=v)
    v += off
    np.minimum(dist, v.reshape(-1)[:N], out=dist, casting="unsafe")


_SHIFT_TABLES: dict = memo_table("pathing._SHIFT_TABLES")


def _shift_table(Zb, Yb, Xb, fly, costs):
    """``_relax_small``'s edges for a box of that size, in ``_SHIFTS`` order: the shifts swept densely, each as
    (flat offset, weight), and the walking steps up or down (an edge list) as (offsets [k, 1], weights [k, 1]) or
    None; kept per box size, mode and costs."""
    key = (Zb, Yb, Xb, fly, costs)
    got = _SHIFT_TABLES.get(key)
    if got is not None:
        return got
    cell, diag, climb, descend, takeoff = costs
    sy, sz = Xb + 2, (Yb + 2) * (Xb + 2)
    shifts, steps = [], []
    for dz, dy, dx in _SHIFTS:
        if not fly and dz != 0 and dx == dy == 0:
            continue
        vert = climb if dz > 0 else (descend if dz < 0 else 0)
        horiz = 0 if dx == dy == 0 else (diag if dx and dy else cell)
        o = dz * sz + dy * sy + dx
        if dz and (dx or dy):                       # stepping up or down while moving across: walking only
            steps.append((o, horiz + vert))
        else:
            shifts.append((o, horiz + vert))
    if len(_SHIFT_TABLES) > 4096:
        _SHIFT_TABLES.clear()
    offs = np.array([o for o, _ in steps], dtype=np.int64)[:, None]
    ws = np.array([w for _, w in steps], dtype=np.int32)[:, None]
    got = _SHIFT_TABLES[key] = (tuple(shifts), (offs, ws) if steps else None)
    return got


def _relax_small(passable, supc, lo, fly, costs, max_iter):
    """``_relax_flat`` (one cost per node, no line scans) with the same relaxations in fewer array operations,
    for the small boxes of an ordinary move: an impassable node's cost is never lowered (its in-edges carry a
    penalty of ``big``: ``dist[src] + w + big`` is never below ``big``) and an unreached one stays ``big`` (its
    out-edges start at ``big + w``), so the edge test "both ends passable" needs no per-shift weight array: every
    straight or diagonal shift of a walker shares one weight array, a flyer's shifts differ only by the take-off
    term. Sweep after sweep, each shift's candidates are the numbers ``_relax_flat`` computes (a missing edge's
    is at least ``big`` either way), so the result is ``_relax_flat``'s element for element, even when
    ``max_iter`` stops it early (tests/rules/test_rules_speed.py compares it with the 3D reference)."""
    cell, diag, climb, descend, takeoff = costs
    Zb, Yb, Xb = passable.shape
    P = np.zeros((Zb + 2, Yb + 2, Xb + 2), dtype=bool)
    P[1:-1, 1:-1, 1:-1] = passable
    S = np.zeros_like(P)
    S[1:-1, 1:-1, 1:-1] = supc
    Pf, Sf = P.reshape(-1), S.reshape(-1)
    N = Pf.size
    big = 1 << 29               # big + big + any cost still fits an int32
    pen = np.where(Pf, np.int32(0), np.int32(big))
    dist = np.full(N, big, dtype=np.int32)
    dist[((lo[0] + 1) * (Yb + 2) + lo[1] + 1) * (Xb + 2) + lo[2] + 1] = 0
    base: dict = {}             # weight -> pen + weight (the in-edge cost at every node)
    lift = None
    if fly and takeoff:         # leaving support into the air: + takeoff
        lift = (Sf * np.int32(takeoff)).astype(np.int32)
        nsup = ~Sf
    dense = []                  # (source view, destination view, weight view, scratch view)
    scratch = np.empty(N, dtype=np.int32)
    shifts, steps = _shift_table(Zb, Yb, Xb, fly, costs)
    for o, w in shifts:
        a0, a1 = max(0, o), N + min(0, o)          # destinations i with source i - o inside the array
        if w not in base:
            base[w] = pen + np.int32(w)
        W = base[w][a0:a1]
        if lift is not None:
            W = W + lift[a0 - o:a1 - o] * nsup[a0:a1]
        dense.append((dist[a0 - o:a1 - o], dist[a0:a1], W, scratch[:a1 - a0]))
    # walking steps up or down: an edge list (np.minimum.at copes with repeated destinations); walkable nodes are
    # inside the padding, so a node minus any offset stays inside the array
    sparse = None
    WPf = Pf & Sf
    walk = np.flatnonzero(WPf)
    if walk.size and steps is not None:
        offs, ws = steps
        src = walk[None, :] - offs
        ok = WPf[src]
        if ok.any():
            sparse = (src[ok], np.broadcast_to(walk[None, :], src.shape)[ok], np.broadcast_to(ws, src.shape)[ok])
    total = int(dist.sum(dtype=np.int64))
    for _ in range(max_iter):
        for sv, dv, W, tmp in dense:
            np.add(sv, W, out=tmp)
            np.minimum(dv, tmp, out=dv)
        if sparse is not None:
            np.minimum.at(dist, sparse[1], dist[sparse[0]] + sparse[2])
        now = int(dist.sum(dtype=np.int64))
        if now == total:
            break
        total = now
    out = dist.reshape(Zb + 2, Yb + 2, Xb + 2)[1:-1, 1:-1, 1:-1].astype(np.int64)
    out[out >= big] = INF
    return out


def _relax_flat(passable, supc, lo, fly, costs, max_iter, alternate=False):
    """Cheapest cost (cm, int64, INF where unreachable) from ``lo`` to every node of the box: Gauss-Seidel
    Bellman-Ford over the 26 neighbour shifts, on a flat array padded by one impassable node on every side, so
    every shift is a constant offset and every update one contiguous 1D numpy operation.

    ``alternate`` (diagonal = "5-10-5"): diagonals cost one cell, then two, alternately; the search then keeps
    two costs per node (an even or odd number of diagonals so far) and returns ``(cost, per_parity)``."""
    Zb, Yb, Xb = passable.shape
    if not alternate and (Zb + 2) * (Yb + 2) * (Xb + 2) <= SCAN_NODES:
        if (Zb + 2) * (Yb + 2) * (Xb + 2) <= DIAL_NODES:
            got = dial.search(passable, supc, lo, fly, costs, max_iter, _SHIFTS, INF)
            if got is not None:
                return got
        return _relax_small(passable, supc, lo, fly, costs, max_iter)
    takeoff = costs[4]
    P = np.zeros((Zb + 2, Yb + 2, Xb + 2), dtype=bool)
    P[1:-1, 1:-1, 1:-1] = passable
    S = np.zeros_like(P)
    S[1:-1, 1:-1, 1:-1] = supc
    Pf, Sf = P.reshape(-1), S.reshape(-1)
    N = Pf.size
    big = np.int32(1 << 29)     # big + big still fits an int32
    npar = 2 if alternate else 1
    dist = np.full((npar, N), big, dtype=np.int32)
    dist[0, ((lo[0] + 1) * (Yb + 2) + lo[1] + 1) * (Xb + 2) + lo[2] + 1] = 0
    scan = not alternate and N > SCAN_NODES
    dense, steps = _flat_edges(Pf, Sf, (Yb + 2, Xb + 2), fly, costs, alternate, scan, big)
    sparse = _walking_edges(Pf & Sf, steps, npar)
    # costs only go down, so an unchanged sum means an unchanged array: the fixpoint
    total = int(dist.sum(dtype=np.int64))
    for _ in range(max_iter):
        for ps, pd, a0, a1, o, W in dense:
            if scan:
                _scan_shift(dist[0], Pf, Sf, o, W, takeoff, fly)
                continue
            np.minimum(dist[pd, a0:a1], dist[ps, a0 - o:a1 - o] + W, out=dist[pd, a0:a1])
        for ps, pd, s_src, s_dst, s_w in sparse:
            np.minimum.at(dist[pd], s_dst, dist[ps][s_src] + s_w)
        now = int(dist.sum(dtype=np.int64))
        if now == total:
            break
        total = now
    per = dist.reshape(npar, Zb + 2, Yb + 2, Xb + 2)[:, 1:-1, 1:-1, 1:-1].astype(np.int64)
    per[per >= big] = INF
    out = per.min(axis=0)
    return (out, per) if alternate else out


def _flat_edges(Pf, Sf, plane: tuple, fly, costs, alternate: bool, scan: bool, big) -> tuple[list, list]:
    """``_relax_flat``'s edges on the padded flat box (``plane``: its padded (Y, X)): the shifts swept densely, as
    (src parity, dst parity, first, end, offset, weights) -- with ``scan``, (0, 0, 0, 0, offset, weight) for
    ``_scan_shift`` -- and the walking steps up or down as (src parity, dst parity, offset, weight)."""
    cell, diag, climb, descend, takeoff = costs
    sy, sz = plane[1], plane[0] * plane[1]
    N = Pf.size
    npar = 2 if alternate else 1
    NSf = ~Sf
    dense, steps = [], []
    for dz, dy, dx in _SHIFTS:
        if not fly and dz != 0 and dx == dy == 0:
            continue
        vert = climb if dz > 0 else (descend if dz < 0 else 0)
        o = dz * sz + dy * sy + dx
        if dx and dy and alternate:
            variants = [(0, 1, cell), (1, 0, 2 * cell)]
        else:
            horiz = 0 if dx == dy == 0 else (diag if dx and dy else cell)
            variants = [(p, p, horiz) for p in range(npar)]
        if dz and (dx or dy):                       # stepping up or down while moving across: walking only
            steps += [(ps, pd, o, h + vert) for ps, pd, h in variants]
            continue
        if scan:
            dense.append((0, 0, 0, 0, o, variants[0][2] + vert))
            continue
        a0, a1 = max(0, o), N + min(0, o)          # destinations i with source i - o inside the array
        ok = Pf[a0:a1] & Pf[a0 - o:a1 - o]
        if not ok.any():
            continue
        extra = np.int32(takeoff) * (Sf[a0 - o:a1 - o] & NSf[a0:a1]) if fly and takeoff else None
        for ps, pd, h in variants:
            W = np.where(ok, np.int32(h + vert), big)     # big (+ a take-off) still fits an int32
            if extra is not None:
                W += extra
            dense.append((ps, pd, a0, a1, o, W))
    return dense, steps


def _walking_edges(WPf, steps: list, npar: int) -> list:
    """All walking steps as one edge list per parity pair, (src parity, dst parity, sources, destinations,
    weights) between walkable nodes (np.minimum.at copes with repeated destinations); walkable nodes are inside
    the padding, so a node minus any offset stays inside the array."""
    sparse = []
    walk = np.flatnonzero(WPf)
    for ps in range(npar):
        for pd in range(npar):
            sel = [(o, w) for a, b, o, w in steps if (a, b) == (ps, pd)]
            if not walk.size or not sel:
                continue
            offs = np.array([o for o, _ in sel], dtype=np.int64)[:, None]
            src = walk[None, :] - offs
            ok = WPf[src]
            if ok.any():
                sparse.append((ps, pd, src[ok], np.broadcast_to(walk[None, :], src.shape)[ok],
                               np.broadcast_to(np.array([w for _, w in sel], dtype=np.int32)[:, None], src.shape)[ok]))
    return sparse


def _rides(o: Actor) -> bool:
    return riding.rides(o)
