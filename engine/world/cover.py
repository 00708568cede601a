"""Cover between two characters from the exact line of sight (AIR-13 to AIR-16; the levels are the ruleset's).

Sample layout (docs/rules.md): from the attacker's eye -- the centre of its footprint at ``layer + eye_m`` -- to
36 points inside the target's body: a 3 x 3 grid across it (offsets -0.3, 0, +0.3 of its footprint width from its
centre, so all inside the body column) at 4 heights spread over the body (``layer + h * (0.1, 0.37, 0.63, 0.9)``
for a body ``h`` layers tall). The blocked fraction is the share of those lines that some sight-blocking voxel
cuts. The floor under either character's own feet never counts: the support voxels under both footprints are
treated as clear, so a character standing at a roof's edge is not covered by its own roof (a roof edge *between*
the two still is).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.memo import table as memo_table
from engine.world.geometry import Body
from engine.world.los import (CROSSINGS_MAX, FP, FP_BITS, crossings_total, trace_crossings,
                              trace_fixed, trace_one)

SAMPLE_XY = (-0.3, 0.0, 0.3)
SAMPLE_Z = (0.1, 0.37, 0.63, 0.9)
N_SAMPLES = len(SAMPLE_XY) ** 2 * len(SAMPLE_Z)        # sight lines per cover: blocked fractions are k / 36



#: the levels when the caller gives none: what the geometry alone says (nothing, some or every sight line blocked).
#: A ruleset's own levels (``cover_levels`` in its registry entry; docs/rules.md, "Cover thresholds") come from the
#: rules: the world never looks a ruleset up.
GEOMETRIC_LEVELS = (("none", 0.0), ("partial", 1e-9), ("total", 1.0))


@dataclass(frozen=True)
class CoverResult:
    blocked_fraction: float
    level: str
    visible: bool
    eye: tuple[float, float, float]                   # voxel units
    samples: tuple[tuple[float, float, float], ...]   # voxel units
    blocked: tuple[bool, ...]                         # per sample

    @property
    def rays(self):
        return [(self.eye, s, b) for s, b in zip(self.samples, self.blocked)]


def eye_point(b: Body) -> tuple[float, float, float]:
    cx, cy = b.centre
    return (cx, cy, b.layer + b.eye_m)


# the sample layout as columns (x fastest, then y, then height), for sample_points
_SX = np.array([ox for hz in SAMPLE_Z for oy in SAMPLE_XY for ox in SAMPLE_XY], dtype=np.float64)
_SY = np.array([oy for hz in SAMPLE_Z for oy in SAMPLE_XY for ox in SAMPLE_XY], dtype=np.float64)
_SZ = np.array([hz for hz in SAMPLE_Z for oy in SAMPLE_XY for ox in SAMPLE_XY], dtype=np.float64)


def sample_points(b: Body) -> np.ndarray:
    """float64 [36, 3]: ``(cx + ox * f, cy + oy * f, layer + h * hz)`` for every sample (the same float
    operations, element by element, as writing each point out)."""
    cx, cy = b.centre
    f = b.footprint
    pts = np.empty((len(_SX), 3), dtype=np.float64)
    pts[:, 0] = cx + _SX * f
    pts[:, 1] = cy + _SY * f
    pts[:, 2] = b.layer + b.height_layers * _SZ
    return pts


def levels_table(levels=None, thresholds=None) -> tuple:
    """``thresholds`` (a scene's ``cover_thresholds`` option) if given, else ``levels`` (the ruleset's
    ``((level, blocked fraction from which it applies), ...)``, lowest first), else GEOMETRIC_LEVELS."""
    table = thresholds or levels or GEOMETRIC_LEVELS
    if isinstance(table, str):
        raise TypeError(f"cover levels are a table ((level, from fraction), ...), not the ruleset name {table!r}: "
                        "the rules pass engine.rules.registry.cover_levels(name)")
    return table


def cover_level(fraction: float, levels=None, thresholds=None) -> str:
    table = levels_table(levels, thresholds)
    level = table[0][0]
    for name, start in table:
        if fraction >= start - 1e-12:
            level = name
    return level


def support_indices(world, bodies) -> list[int]:
    """The flat indices (``(z * Y + y) * X + x``) of the voxels right under each body's footprint (its own
    floor), inside the world."""
    X, Y, Z = world.size
    idx = []
    for b in bodies:
        z = b.layer - 1
        if 0 <= z < Z:
            for j in range(b.footprint):
                for i in range(b.footprint):
                    x, y = b.x + i, b.y + j
                    if 0 <= x < X and 0 <= y < Y:
                        idx.append((z * Y + y) * X + x)
    return idx


def _support_ignore(world, bodies):
    """A line-of-sight ignore test for the voxels right under each body's footprint (its own floor)."""
    idx = support_indices(world, bodies)
    if not idx:
        return None
    table = np.array(sorted(set(idx)), dtype=np.int64)
    # a handful of voxels: comparing against each is several times faster than np.isin (which sorts)
    return lambda flat: (flat[:, None] == table).any(axis=1)


def _trace(dist, size, p0, p1, ignore):
    """``trace_fixed``'s answer for these sight lines: all their crossings at once (``trace_crossings``, the same
    bits) while they are few, the stepped traversal for very long ones."""
    if crossings_total(p0, p1) <= CROSSINGS_MAX:
        return trace_crossings(dist, size, p0, p1, ignore)
    return trace_fixed(dist, size, p0, p1, ignore=ignore, chunk=max(len(p0), 1))


_GEOM: dict = memo_table("cover._GEOM")     # (Body, world size) -> _Geom (a pure function of both: see _geom)


def _fixed(v: float, hi: int) -> int:
    """``clamp_points(quantize(v))`` for one coordinate (the same integer: floor(v * FP + 0.5), clipped)."""
    q = math.floor(v * FP + 0.5)
    return 0 if q < 0 else hi if q > hi else q


class _Geom:
    """What the cover of or from one body needs, worked out once per body and map size: its 36 samples (the result's
    tuple), their fixed-point ends clamped into the map (int triples, and as an array for a batch), its eye point
    (tuple and fixed point) and the flat indices of the floor under its footprint. The same numbers
    ``sample_points``, ``quantize``, ``clamp_points``, ``eye_point`` and ``support_indices`` give (the same float
    operations, one coordinate at a time: a sample's x depends on its x offset alone, y on its y offset, z on its
    height), kept."""

    __slots__ = ("samples_t", "_q", "eye_t", "eye_q", "floor", "box", "eye_box", "ends", "vals")

    def __init__(self, b: Body, size):
        X, Y, Z = size
        cx, cy = b.centre
        f, h = b.footprint, b.height_layers
        xs = [cx + ox * f for ox in SAMPLE_XY]
        ys = [cy + oy * f for oy in SAMPLE_XY]
        zs = [b.layer + h * hz for hz in SAMPLE_Z]
        self.samples_t = tuple((x, y, z) for z in zs for y in ys for x in xs)       # x fastest, then y, then height
        hx, hy, hz_ = X * FP - 1, Y * FP - 1, Z * FP - 1
        qx, qy, qz = [_fixed(v, hx) for v in xs], [_fixed(v, hy) for v in ys], [_fixed(v, hz_) for v in zs]
        self.ends = tuple((x, y, z) for z in qz for y in qy for x in qx)
        self._q: np.ndarray | None = None
        self.vals = (tuple(sorted(set(qx))), tuple(sorted(set(qy))), tuple(sorted(set(qz))))
        self.eye_t = (float(cx), float(cy), float(b.layer + b.eye_m))
        self.eye_q = (_fixed(self.eye_t[0], hx), _fixed(self.eye_t[1], hy), _fixed(self.eye_t[2], hz_))
        z = b.layer - 1
        self.floor = [(z * Y + b.y + j) * X + b.x + i for j in range(b.footprint) for i in range(b.footprint)
                      if 0 <= b.x + i < X and 0 <= b.y + j < Y] if 0 <= z < Z else []
        # the voxels of the (clamped) samples: lowest and highest per axis
        vx, vy, vz = self.vals
        self.box = ((vx[0] >> FP_BITS, vy[0] >> FP_BITS, vz[0] >> FP_BITS),
                    (vx[-1] >> FP_BITS, vy[-1] >> FP_BITS, vz[-1] >> FP_BITS))
        self.eye_box = _start_box(self.eye_q)

    @property
    def q(self) -> np.ndarray:
        """The samples' fixed-point ends as int64 [36, 3] (read-only; built when a batch first traces them)."""
        q = self._q
        if q is None:
            q = self._q = np.array(self.ends, dtype=np.int64)
            q.flags.writeable = False
        return q


def _start_box(q) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The voxels a segment from the fixed point ``q`` (ints) can start in, lowest and highest per axis: its own, and
    the one below a boundary plane it lies on (``los._setup``: a segment leaving such a plane downwards starts there)."""
    hi = tuple(c >> FP_BITS for c in q)
    lo = tuple(max(h - 1, 0) if c & ((1 << FP_BITS) - 1) == 0 else h for c, h in zip(q, hi))
    return lo, hi


#: maps up to this many voxels get a table of blocking-voxel counts (int32, 4 bytes a voxel) for ``_clear``
CLEAR_TABLE_VOXELS = 1 << 22


def _blocking_table(world, dist):
    """The summed-volume table of the sight-blocking voxels (``dist == 0``) as a flat memoryview of int32 over
    ``(Z + 1) x (Y + 1) x (X + 1)``, kept per distance field and world revision (an edit patches the field in place
    and bumps the revision; an object's voxels replace the field); None on a map too big for one."""
    got = world._luts.get("_los_blocking_table")
    if got is not None and got[0] is dist and got[1] == world.revision:
        return got[2]
    X, Y, Z = world.size
    table = None
    if X * Y * Z <= CLEAR_TABLE_VOXELS:
        P = np.zeros((Z + 1, Y + 1, X + 1), dtype=np.int32)
        P[1:, 1:, 1:] = (dist.reshape(Z, Y, X) == 0).cumsum(axis=0, dtype=np.int32).cumsum(axis=1).cumsum(axis=2)
        table = memoryview(P.ravel())
    world._luts["_los_blocking_table"] = (dist, world.revision, table)
    return table


def _clear(table, dist, size, eye_box, gt: _Geom, floor) -> bool:
    """No sight line of this pair can be blocked: the box spanning every voxel its segments can visit (from any
    start voxel of the eye to every sample's voxel: a traversal only moves towards its end point, axis by axis)
    holds no sight-blocking voxel but the ignored floors (``floor``, flat indices). Exact: every visited voxel is
    in the box, so ``_trace`` would find every line clear."""
    X, Y, _ = size
    (ex0, ey0, ez0), (ex1, ey1, ez1) = eye_box
    (sx0, sy0, sz0), (sx1, sy1, sz1) = gt.box
    x0, y0, z0 = min(ex0, sx0), min(ey0, sy0), min(ez0, sz0)
    x1, y1, z1 = max(ex1, sx1) + 1, max(ey1, sy1) + 1, max(ez1, sz1) + 1
    W, A = X + 1, (X + 1) * (Y + 1)
    n = (table[z1 * A + y1 * W + x1] - table[z0 * A + y1 * W + x1] - table[z1 * A + y0 * W + x1]
         - table[z1 * A + y1 * W + x0] + table[z0 * A + y0 * W + x1] + table[z0 * A + y1 * W + x0]
         + table[z1 * A + y0 * W + x0] - table[z0 * A + y0 * W + x0])
    if n == 0:
        return True
    for i in set(floor):                      # the floors under both bodies' feet never count
        if dist[i] == 0:
            x, y, z = i % X, (i // X) % Y, i // (X * Y)
            if x0 <= x < x1 and y0 <= y < y1 and z0 <= z < z1:
                n -= 1
    return n == 0


def _dist_bytes(world, dist) -> bytes:
    """The capped distance field as bytes (0 = sight-blocking), kept per field and revision as ``_blocking_table``
    is: what ``trace_one`` and ``_slab_blocks`` read."""
    got = world._luts.get("_los_dist_bytes")
    if got is not None and got[0] is dist and got[1] == world.revision:
        return got[2]
    data = np.ascontiguousarray(dist, dtype=np.uint8).tobytes()
    world._luts["_los_dist_bytes"] = (dist, world.revision, data)
    return data


#: a sight line of at most this many boundary crossings may be walked in Python (``_quick``); longer ones go to
#: the batch, where a step costs less
QUICK_CROSSINGS = 96
#: the samples ``_quick`` walks: the top and the bottom of the body's centre column (the head over a low wall), then
#: two top corners
def _sample_index(x, y, z):
    return [(zz, yy, xx) for zz in SAMPLE_Z for yy in SAMPLE_XY for xx in SAMPLE_XY].index((z, y, x))


FIRST_LINES = (_sample_index(0.0, 0.0, SAMPLE_Z[-1]), _sample_index(0.0, 0.0, SAMPLE_Z[0]),
               _sample_index(SAMPLE_XY[0], SAMPLE_XY[0], SAMPLE_Z[-1]), _sample_index(SAMPLE_XY[-1], SAMPLE_XY[-1], SAMPLE_Z[-1]))
VISIBLE, TOTAL = "visible", "total"


def _slab_blocks(blk, size, p0, gt: _Geom, axis: int, idx: int, ignore) -> bool:
    """Every sight line of the pair (``p0`` to each of ``gt``'s samples) enters a sight-blocking voxel, not one of
    ``ignore``, in the slab of voxel ``idx`` across ``axis`` -- so every line is blocked. Exact: each line crosses
    the slab's near plane strictly between its ends, and the voxel it enters there is the floor of the crossing
    point on the other two axes (one less on an axis it is leaving downwards exactly at a boundary: the tie rule's
    diagonal voxel), worked out in integers over the segment's own fixed-point ends. False proves nothing."""
    X, Y, _ = size
    stride = (1, X, X * Y)
    va = (idx // stride[axis]) % (X, Y, 1 << 62)[axis]
    vals = gt.vals
    lo, hi = vals[axis][0], vals[axis][-1]
    pa = p0[axis]
    if lo > pa:
        cf = va * FP                          # the plane the lines cross going up the axis
        if not (pa < cf < lo):
            return False
    elif hi < pa:
        cf = (va + 1) * FP
        if not (hi < cf < pa):
            return False
    else:
        return False
    u, w = (1, 2) if axis == 0 else (0, 2) if axis == 1 else (0, 1)
    base = va * stride[axis]
    for ea in vals[axis]:
        den, num_t = ea - pa, cf - pa
        if den < 0:
            den, num_t = -den, -num_t
        unit = den * FP
        cells = []
        for b in (u, w):
            pb = p0[b]
            got = set()
            for eb in vals[b]:
                q, r = divmod(pb * den + num_t * (eb - pb), unit)
                got.add(q - 1 if r == 0 and eb < pb else q)
            cells.append(got)
        for cu in cells[0]:
            for cw in cells[1]:
                flat = base + cu * stride[u] + cw * stride[w]
                if blk[flat] or flat in ignore:     # a distance above 0: not sight-blocking
                    return False
    return True


def _walkable(p0, p1) -> bool:
    """A segment short enough to walk in Python (``QUICK_CROSSINGS``: its voxels apart, axis by axis)."""
    return (abs((p1[0] >> FP_BITS) - (p0[0] >> FP_BITS)) + abs((p1[1] >> FP_BITS) - (p0[1] >> FP_BITS))
            + abs((p1[2] >> FP_BITS) - (p0[2] >> FP_BITS))) <= QUICK_CROSSINGS


def _quick(blk, size, p0, gt: _Geom, ignore) -> str | None:
    """What a few Python steps settle about a pair's sight lines: VISIBLE (one of ``FIRST_LINES`` is clear), TOTAL
    (``_slab_blocks`` at or just past the voxel the first line stopped in), or None (the batch must trace them)."""
    first = None
    for k in FIRST_LINES:
        p1 = gt.ends[k]
        if not _walkable(p0, p1):
            return None
        hit, idx = trace_one(blk, size, p0, p1, ignore)
        if not hit:
            return VISIBLE
        if first is None:
            first = (idx,)
    if first is None:
        return None
    # the slabs across each axis through the voxel the first line stopped in and the next one along its way:
    # a wall's, a block's near face or the layer behind it
    X, Y, _ = size
    idx = first[0]
    v = [idx % X, (idx // X) % Y, idx // (X * Y)]
    for k in (0, 1):
        for ax in (0, 1, 2):
            c = v[ax] + (k if gt.vals[ax][0] > p0[ax] else -k)
            if 0 <= c < size[ax] and _slab_blocks(blk, size, p0, gt, ax, idx + (c - v[ax]) * (1, X, X * Y)[ax], ignore):
                return TOTAL
    return None


def clear_between(world, attacker: Body, target: Body, levels=None, thresholds=None, eye=None) -> CoverResult | None:
    """``cover_between``'s result where the box test alone proves every line clear (``_clear``: a few additions),
    else None (nothing traced): the cheapest question first, for a caller that stops at the first clear pair."""
    size = world.size
    dist = world.los_distance()
    table = _blocking_table(world, dist)
    if table is None:
        return None
    ga, gt = _geom(attacker, size), _geom(target, size)
    e_t, _, e_box = _eye(ga, eye, size)
    if _clear(table, dist, size, e_box, gt, ga.floor + gt.floor):
        return _clear_result(e_t, gt, levels, thresholds)
    return None


def blocked_at_most(world, attacker: Body, target: Body, k: int, eye=None) -> bool | None:
    """Whether at most ``k`` of the pair's sight lines are blocked (``cover_between``'s count), the lines walked one
    by one in Python until it is settled either way; None where a line is too long to walk (or the map too big for
    the tables): then ask ``cover_between``. A cover level's own test (no cover: few lines blocked) without the rest."""
    size = world.size
    dist = world.los_distance()
    if _blocking_table(world, dist) is None:
        return None
    ga, gt = _geom(attacker, size), _geom(target, size)
    _, p0, _ = _eye(ga, eye, size)
    blk = _dist_bytes(world, dist)
    ignore = set(ga.floor + gt.floor)
    n = len(gt.ends)
    blocked = clear = 0
    for p1 in gt.ends:
        if not _walkable(p0, p1):
            return None
        if trace_one(blk, size, p0, p1, ignore)[0]:
            blocked += 1
            if blocked > k:
                return False
        else:
            clear += 1
            if clear >= n - k:
                return True
    return blocked <= k


def _total_result(e_t, gt: _Geom, levels, thresholds) -> CoverResult:
    """What ``cover_between`` finds when every line is blocked."""
    n = len(gt.samples_t)
    return CoverResult(1.0, cover_level(1.0, levels, thresholds), False, e_t, gt.samples_t, (True,) * n)


def _clear_result(e_t, gt: _Geom, levels, thresholds) -> CoverResult:
    """What ``cover_between`` finds when no line is blocked."""
    n = len(gt.samples_t)
    return CoverResult(0.0, cover_level(0.0, levels, thresholds), True, e_t, gt.samples_t, (False,) * n)


def _geom(b: Body, size) -> _Geom:
    key = (b, size)
    g = _GEOM.get(key)
    if g is None:
        if len(_GEOM) > 65536:
            _GEOM.clear()
        g = _GEOM[key] = _Geom(b, size)
    return g


def _eye(geom: _Geom, eye, size):
    """(eye tuple, its fixed point clamped into the map, the voxels a segment from it can start in): the body's
    own eye, or ``eye`` (voxel units)."""
    if eye is None:
        return geom.eye_t, geom.eye_q, geom.eye_box
    e = tuple(float(v) for v in eye)
    X, Y, Z = size
    q = (_fixed(e[0], X * FP - 1), _fixed(e[1], Y * FP - 1), _fixed(e[2], Z * FP - 1))
    return e, q, _start_box(q)


def _settled(table, dist, blk, size, gt: _Geom, e, floor, levels, thresholds, sight_only: bool):
    """What the cheap tests settle about one pair (``e``: ``_eye``'s triple, ``floor`` both bodies' floors): its
    ``CoverResult`` (every line clear by the box test, or every line blocked), True (a clear line, when
    ``sight_only``), or None (the batch must trace it)."""
    if _clear(table, dist, size, e[2], gt, floor):
        return _clear_result(e[0], gt, levels, thresholds)
    got = _quick(blk, size, e[1], gt, set(floor))
    if got == TOTAL:
        return _total_result(e[0], gt, levels, thresholds)
    return True if got == VISIBLE and sight_only else None


def cover_between(world, attacker: Body, target: Body, levels=None, thresholds=None,
                  eye=None) -> CoverResult:
    """Cover of ``target`` against ``attacker``, its level from ``levels`` / ``thresholds`` (:func:`levels_table`).
    ``eye`` overrides the attacker's eye point (voxel units)."""
    size = world.size
    ga, gt = _geom(attacker, size), _geom(target, size)
    e_t, e_q, e_box = _eye(ga, eye, size)
    floor = ga.floor + gt.floor
    dist = world.los_distance()
    table = _blocking_table(world, dist)
    if table is not None:
        got = _settled(table, dist, _dist_bytes(world, dist), size, gt, (e_t, e_q, e_box), floor, levels, thresholds, False)
        if got is not None:
            return got
    p1 = gt.q
    p0 = np.broadcast_to(np.array(e_q, dtype=np.int64), p1.shape)
    table = np.array(sorted(set(floor)), dtype=np.int64) if floor else None
    # a handful of voxels: comparing against each is several times faster than np.isin (which sorts)
    ignore = None if table is None else (lambda flat: (flat[:, None] == table).any(axis=1))
    blocked = _trace(dist, size, p0, p1, ignore)
    n = len(blocked)
    frac = int(np.count_nonzero(blocked)) / n if n else 0.0      # = float(blocked.mean()), exactly
    # tolist() gives the same Python floats and bools as float() / bool() one by one, faster
    return CoverResult(frac, cover_level(frac, levels, thresholds), bool(frac < 1.0),
                       e_t, gt.samples_t, tuple(blocked.tolist()))


def cover_many(world, pairs, levels=None, thresholds=None) -> list[CoverResult]:
    """``[cover_between(world, a, t, levels, thresholds, eye) for a, t[, eye] in pairs]`` (pairs, or triples with
    an eye point), the same results bit for bit, from one batch of all their sight lines (``_trace``: a few pairs
    cost little more than one, the batch's fixed cost being most of it). A pair none of whose lines can be blocked
    (``_clear``) or all of whose lines are (``_quick``) is answered without the batch."""
    return _covers(world, pairs, levels, thresholds, None)


def sight_many(world, pairs, levels=None, thresholds=None, full=None) -> list:
    """For each pair (as ``cover_many``'s): its ``CoverResult`` where that came cheaply or is asked for, else True --
    some sight line is clear (``CoverResult.visible``), the blocked fraction not worked out. ``full``: per pair,
    whether its whole result is wanted (default: none). A line of sight is the question of most legality tests (total
    cover or not); the level is the attack's and the save's own, worked out when they are stepped or previewed."""
    return _covers(world, pairs, levels, thresholds, [False] * len(pairs) if full is None else full)


def sight_one(world, attacker: Body, target: Body, levels=None, thresholds=None, eye=None):
    """``sight_many(world, [(attacker, target, eye)], levels, thresholds)[0]`` for one pair, without the batch's
    frame: True (a clear line, the fraction not worked out) or the pair's ``CoverResult``."""
    got = sight_settled(world, attacker, target, levels, thresholds, eye)
    if got is not None:
        return got
    if _blocking_table(world, world.los_distance()) is None:
        return cover_between(world, attacker, target, levels, thresholds, eye)
    return _covers(world, [(attacker, target, eye)], levels, thresholds, None)[0]


def sight_settled(world, attacker: Body, target: Body, levels=None, thresholds=None, eye=None):
    """What ``sight_one`` answers without the batch, or None where only the batch could: the shortcuts alone (a clear
    box, one clear line, a blocking slab), for a caller with a cheaper way on (Hide's ``blocked_at_most``)."""
    size = world.size
    dist = world.los_distance()
    table = _blocking_table(world, dist)
    if table is None:
        return None
    ga, gt = _geom(attacker, size), _geom(target, size)
    return _settled(table, dist, _dist_bytes(world, dist), size, gt, _eye(ga, eye, size), ga.floor + gt.floor,
                    levels, thresholds, True)


def _covers(world, pairs, levels, thresholds, full) -> list:
    size = world.size
    dist = world.los_distance()
    table = _blocking_table(world, dist)
    blk = _dist_bytes(world, dist) if table is not None else None
    levels = levels_table(levels, thresholds)
    out: list = []
    eyes: list = []
    targets: list[_Geom] = []
    floors: list[list[int]] = []
    slots: list[int] = []
    for i, p in enumerate(pairs):
        ga, gt = _geom(p[0], size), _geom(p[1], size)
        e = _eye(ga, p[2] if len(p) > 2 else None, size)
        floor = ga.floor + gt.floor     # each pair's own floors (the voxels under both footprints)
        if table is not None:
            got = _settled(table, dist, blk, size, gt, e, floor, levels, None, full is not None and not full[i])
            if got is not None:
                out.append(got)
                continue
        slots.append(len(out))
        out.append(None)
        eyes.append(e)
        targets.append(gt)
        floors.append(floor)
    if not targets:
        return out
    counts = [len(g.q) for g in targets]
    p1 = np.concatenate([g.q for g in targets])
    p0 = np.repeat(np.array([e[1] for e in eyes], dtype=np.int64), counts, axis=0)
    ignore = None
    width = max(len(r) for r in floors)
    if width:
        rows = np.full((len(floors), width), -1, dtype=np.int64)      # one row per pair, padded with -1
        for row, r in enumerate(floors):
            rows[row, :len(r)] = r
        per_ray = np.repeat(rows, counts, axis=0)

        def ignore(flat, rid):
            return (per_ray[rid] == flat[:, None]).any(axis=1)

        ignore.per_ray = True    # type: ignore[attr-defined]
    blocked = _trace(dist, size, p0, p1, ignore)
    s = 0
    for slot, e, g, n in zip(slots, eyes, targets, counts):
        b = blocked[s:s + n]
        s += n
        frac = int(np.count_nonzero(b)) / n if n else 0.0
        out[slot] = CoverResult(frac, cover_level(frac, levels), bool(frac < 1.0),
                                e[0], g.samples_t, tuple(b.tolist()))
    return out
