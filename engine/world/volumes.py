"""Cover and threat volumes for the whole map (pure numpy; the CPU backend of engine/render/los_grid.py).

**Cover volume.** For one attacker, at every cell of every layer where a standard body can be (1 cell, 2 layers
tall, no solid voxel in it): how many of the 36 sample lines of ``engine.world.cover`` from the attacker's eye to
that body some sight-blocking voxel cuts -- exactly what ``cover_between(world, attacker, body)`` counts, the
floors under both bodies' feet never counting. Stored as counts (``uint8``; ``NO_BODY`` where a body cannot be);
the blocked fraction is ``count / 36`` and the level the ruleset's (``cover_level``).

**Threat volume.** For one side, per enemy, the fewest blocked lines over the places it may attack from (where
it stands, or with ``after_move`` every place it can end its move this turn) among those whose reach (AIR-05)
or range (AIR-03) covers the body; ``NO_ATTACK`` where none does. An enemy can attack a body there when that
count is below total cover. Reach and range are the rules' own functions (``engine.world.geometry``),
tabulated once per weapon so the GPU kernel checks them with integers and gets the same answers.

**Same answers, faster.** The traversal is ``engine.world.los``'s (same ``_setup``, fixed point, tie rule); the
empty space is skipped with eight *octant* fields instead of the one Chebyshev field: at a voxel with value k the
k-voxel cube that starts there and grows in the ray's direction of travel (one octant per sign pattern) is clear.
A ray that moves that way on every axis stays on the far side of the voxel's near faces, so it can leave the
cube only through its far faces; it jumps to the first voxel it enters outside it. Every voxel jumped over is
clear, so the answer is the plain traversal's (tests/world/test_volumes.py checks it against cover_between).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from engine.world.cover import SAMPLE_XY, SAMPLE_Z, cover_level, eye_point, sample_points
from engine.world.geometry import Body, distance_m, melee_cells, melee_layer_reach
from engine.world.los import FP, _setup, clamp_points, quantize

NO_BODY = 0xFFFF        # counts: a standard body cannot be at this cell (a solid voxel in it)
NO_ATTACK = 255         # threat counts: no place of this enemy reaches or sees the cell
N_SAMPLES = len(SAMPLE_XY) ** 2 * len(SAMPLE_Z)
# the cube sides the octant fields hold: every side up to 16, then steps of 2, 4, 8 (a ray's jump is the cube's
# side, so a finer ladder means fewer steps: 1.05-1.1x on the 1M-segment batch than (1, 2, 3, 4, 6, 8, 12, ...)
# for about 1.5x the fields' build time, once per map and edit)
OCTANT_SIDES = tuple(range(1, 17)) + (18, 20, 22, 24, 28, 32, 40, 48, 56, 64)
STANDARD = Body(0, 0, 0)


# -- the octant fields ---------------------------------------------------------------------------------------
def _and_shift(c: np.ndarray, b: int, axis: int) -> None:
    """c &= c shifted by -b along ``axis`` (c[p] &= c[p + b]); past the map's edge counts as clear."""
    n = c.shape[axis]
    if b >= n:
        return
    dst = [slice(None)] * 3
    src = [slice(None)] * 3
    dst[axis], src[axis] = slice(0, n - b), slice(b, n)
    c[tuple(dst)] &= c[tuple(src)]


def octant_fields(blocking: np.ndarray, sides=OCTANT_SIDES) -> np.ndarray:
    """uint8 [8, Z*Y*X]: field ``o`` (bit 0: x decreasing, bit 1: y, bit 2: z) holds at each voxel the side k of
    the largest clear cube in ``sides`` that starts at the voxel and grows along o's directions (0 on a blocking
    voxel). Outside the map counts as clear: rays never leave it. Exact cubes, from smaller ones: the cube of
    side a + b (b <= a) is clear where the eight cubes of side a at offsets {0, b}^3 are."""
    blk = np.asarray(blocking, dtype=bool)
    out = np.empty((8,) + blk.shape, dtype=np.uint8)
    for o in range(8):
        flip = tuple(ax for ax, bit in ((2, 1), (1, 2), (0, 4)) if o & bit)
        clear = ~(np.flip(blk, axis=flip) if flip else blk)
        cubes = {1: clear}
        d = clear.astype(np.uint8)
        for k in sides[1:]:
            a = max(s for s in cubes if s < k and k - s <= s)
            c = cubes[a].copy()
            for axis in range(3):
                _and_shift(c, k - a, axis)
            cubes[k] = c
            d[c] = k
            if not c.any():
                break
        out[o] = np.flip(d, axis=flip) if flip else d
    return out.reshape(8, -1)


def world_octant_fields(world) -> np.ndarray:
    """The octant fields of a World, cached with its other derived grids (dropped by every edit)."""
    key = ("_octant_fields", world.revision)
    got = world._luts.get(key)
    if got is None or "_los_flat" not in world._luts:
        for k in [k for k in world._luts if isinstance(k, tuple) and k[0] == "_octant_fields"]:
            del world._luts[k]
        got = octant_fields(world.blocks_sight())
        world.los_distance()             # the marker that the derived grids are fresh (set_voxels drops it)
        world._luts[key] = got
    return got


# -- the traversal, with per-ray floors that never count -----------------------------------------------------
def trace_octant(fields: np.ndarray, size, p0: np.ndarray, p1: np.ndarray, ignore=None) -> np.ndarray:
    """Blocked bool [N] for fixed-point segments inside the map (the answer of ``los.trace_fixed``).
    ``ignore(flat_voxel_index, ray_index) -> bool`` names blocking voxels that count as clear for a ray."""
    p0 = np.ascontiguousarray(p0, dtype=np.int64).reshape(-1, 3)
    p1 = np.ascontiguousarray(p1, dtype=np.int64).reshape(-1, 3)
    n = len(p0)
    out = np.zeros(n, dtype=bool)
    if n == 0:
        return out
    idx, T, inc, step, L = _setup(p0, p1, size)
    d = p1 - p0
    N = fields.shape[1]
    flat = fields.reshape(-1)
    base = ((d[:, 0] < 0) * 1 + (d[:, 1] < 0) * 2 + (d[:, 2] < 0) * 4).astype(np.int64) * (N if len(fields) == 8 else 0)
    st = np.empty((12, n), dtype=np.int64)
    st[0] = idx
    st[1:4] = T.T
    st[4:7] = np.where(inc > 0, inc, 1).T
    st[7:10] = step.T
    st[10] = L
    st[11] = base
    rid = np.arange(n)
    while st.shape[1]:
        idx = st[0]
        k = flat[st[11] + idx].astype(np.int64)
        hit = k == 0
        if ignore is not None and hit.any():
            h = np.flatnonzero(hit)
            clear = ignore(idx[h], rid[h])
            hit[h[clear]] = False
            k[h[clear]] = 1
        k -= 1
        np.maximum(k, 0, out=k)
        mp = np.minimum(np.minimum(st[1] + k * st[4], st[2] + k * st[5]), st[3] + k * st[6])
        stop = hit | (mp >= st[10])
        if stop.any():
            out[rid[stop]] = hit[stop]
            keep = ~stop
            st = st[:, keep]
            rid = rid[keep]
            mp = mp[keep]
            if not st.shape[1]:
                break
        idx = st[0]
        for a in range(3):
            T_, i_ = st[1 + a], st[4 + a]
            c = mp - T_
            c //= i_
            c += 1
            np.maximum(c, 0, out=c)
            T_ += c * i_
            idx += c * st[7 + a]
    return out


# -- bodies at every cell ------------------------------------------------------------------------------------
def free_cells(world, template: Body = STANDARD) -> np.ndarray:
    """bool [Z, Y, X]: a body like ``template`` fits with its south-west cell here (no solid voxel in it, inside
    the map) -- where cover_map and the volumes have an answer."""
    X, Y, Z = world.size
    solid = world.solid()
    f, h = template.footprint, template.height_layers
    occ = np.zeros((Z + h, Y + f, X + f), dtype=bool)
    occ[:Z, :Y, :X] = solid
    occ[:Z, Y:, :] = True                           # a footprint may not hang over the map's edge
    occ[:Z, :, X:] = True
    acc = np.zeros((Z, Y, X), dtype=bool)
    for dz in range(h):
        for dy in range(f):
            for dx in range(f):
                acc |= occ[dz:dz + Z, dy:dy + Y, dx:dx + X]
    return ~acc


@functools.lru_cache(maxsize=16)
def _sample_table(size, template):
    t = _sample_table_uncached(size, template)
    for a in t:
        a.setflags(write=False)
    return t


def sample_table(size, template: Body = STANDARD):
    """(Cached, read-only) see ``_sample_table_uncached``."""
    return _sample_table(tuple(int(v) for v in size), template)


def _sample_table_uncached(size, template: Body = STANDARD):
    """Per axis, the fixed-point sample coordinates of a body at every cell: ``qx[x, s]``, ``qy[y, s]``,
    ``qz[layer, s]`` (int64, the 36 samples of ``cover.sample_points``, quantised and clamped into the map as
    cover_between does). A sample's x depends only on the cell's x (and so on), so three small tables give every
    cell's points exactly."""
    X, Y, Z = size
    hi = np.array(size, dtype=np.int64) * FP - 1
    qx = np.stack([quantize(sample_points(template.moved(x, 0, 0))[:, 0]) for x in range(X)])
    qy = np.stack([quantize(sample_points(template.moved(0, y, 0))[:, 1]) for y in range(Y)])
    qz = np.stack([quantize(sample_points(template.moved(0, 0, z))[:, 2]) for z in range(Z)])
    return np.clip(qx, 0, hi[0]), np.clip(qy, 0, hi[1]), np.clip(qz, 0, hi[2])


def sample_offsets(size, template: Body = STANDARD) -> np.ndarray | None:
    """(Cached, read-only) see ``_sample_offsets``."""
    return _sample_offsets(tuple(int(v) for v in size), template)


@functools.lru_cache(maxsize=16)
def _sample_offsets(size, template: Body = STANDARD) -> np.ndarray | None:
    """int [36, 3]: the samples as fixed-point offsets from a cell's corner ``(x, y, layer) * FP``, when that is
    exact at every cell of the map (before clamping); None otherwise (then the GPU cannot make them itself)."""
    X, Y, Z = size
    out = []
    for axis, n in ((0, X), (1, Y), (2, Z)):
        coords = np.arange(n, dtype=np.int64)
        rows = []
        for v in range(n):
            b = template.moved(v if axis == 0 else 0, v if axis == 1 else 0, v if axis == 2 else 0)
            rows.append(quantize(sample_points(b)[:, axis]))
        q = np.stack(rows) - coords[:, None] * FP
        if not (q == q[0]).all():
            return None
        out.append(q[0])
    res = np.stack(out, axis=1)
    res.setflags(write=False)
    return res


def eye_fixed(world, attacker: Body) -> np.ndarray:
    """The attacker's eye as cover_between quantises and clamps it."""
    return clamp_points(quantize(np.array(eye_point(attacker), dtype=np.float64)), world.size)


# -- the cover volume, CPU backend ---------------------------------------------------------------------------
#: cells traced in one batch (36 sight lines each): the traversal keeps about 200 bytes a line, so a whole 512 x 512
#: layer at once (9.4 M lines) took some 3.7 GB; a batch of this many cells stays under about 60 MB
CELLS_CHUNK = 8192


def _counts_for_cells(world, fields, tables, eyes, cells: np.ndarray, template: Body, threads: int = 1,
                      best=None) -> np.ndarray:
    """Blocked sample lines (0..36) from each eye to a body at each cell (int [E, C]); ``cells`` int [C, 3]. Traced
    ``CELLS_CHUNK`` cells at a time (each line is traced on its own: the same counts in bounded memory)."""
    if len(cells) > CELLS_CHUNK:
        return np.concatenate([_counts_for_cells(world, fields, tables, eyes, cells[i:i + CELLS_CHUNK], template)
                               for i in range(0, len(cells), CELLS_CHUNK)], axis=1)
    X, Y, Z = world.size
    qx, qy, qz = tables
    ns = qx.shape[1]
    f = template.footprint
    cx, cy, cz = cells[:, 0], cells[:, 1], cells[:, 2]
    p1 = np.stack([qx[cx], qy[cy], qz[cz]], axis=2).reshape(-1, 3)    # [C * 36, 3]
    out = np.zeros((len(eyes), len(cells)), dtype=np.int64)
    for e, (eye, body) in enumerate(eyes):
        az = body.layer - 1
        ax0, ay0, ax1, ay1 = body.x, body.y, body.x + body.footprint, body.y + body.footprint

        def ignore(flat, ray, az=az, ax0=ax0, ay0=ay0, ax1=ax1, ay1=ay1):
            vx, vy, vz = flat % X, (flat // X) % Y, flat // (X * Y)
            c = ray // ns
            mine = (vz == cz[c] - 1) & (vx >= cx[c]) & (vx < cx[c] + f) & (vy >= cy[c]) & (vy < cy[c] + f)
            theirs = (vz == az) & (vx >= ax0) & (vx < ax1) & (vy >= ay0) & (vy < ay1)
            return mine | theirs

        p0 = np.broadcast_to(eye, p1.shape)
        out[e] = trace_octant(fields, world.size, p0, p1, ignore).reshape(len(cells), ns).sum(axis=1)
    return out


def cover_counts_cpu(world, attacker: Body, layers=None, template: Body = STANDARD) -> np.ndarray:
    """uint16 [layers, Y, X]: blocked sample lines from ``attacker``'s eye to a ``template`` body at every cell
    of ``layers`` (default: all), NO_BODY where it cannot be."""
    X, Y, Z = world.size
    layers = list(range(Z)) if layers is None else [int(z) for z in layers]
    fields = world_octant_fields(world)
    tables = sample_table(world.size, template)
    free = free_cells(world, template)
    eye = eye_fixed(world, attacker)
    out = np.full((len(layers), Y, X), NO_BODY, dtype=np.uint16)
    for i, z in enumerate(layers):
        yy, xx = np.nonzero(free[z])
        if not len(xx):
            continue
        cells = np.stack([xx, yy, np.full_like(xx, z)], axis=1)
        out[i, yy, xx] = _counts_for_cells(world, fields, tables, [(eye, attacker)], cells, template)[0]
    return out


def fraction(counts: np.ndarray, n_samples: int = N_SAMPLES) -> np.ndarray:
    """float32 blocked fraction from counts, NaN where a body cannot be (the fraction cover_between reports,
    ``count / 36`` in float64, rounded to float32)."""
    c = np.asarray(counts)
    f = (c.astype(np.float64) / n_samples).astype(np.float32)
    f[c == NO_BODY] = np.nan
    return f


def cover_map(world, attacker: Body, layer: int, levels=None, target_template: Body | None = None) -> np.ndarray:
    """Blocked fraction for a standard body standing at every cell of one layer (for the cover overlay).

    Returns float32 [Y, X]; NaN where a body could not stand (solid voxels). The same answer as
    ``engine.world.cover.cover_between`` at every cell, the floors under both bodies' feet never counting: one
    layer of the cover volume (:func:`cover_counts_cpu`). It lives here, not in cover.py, so that cover.py does
    not import this module back."""
    tpl = target_template or Body(0, 0, layer)
    return fraction(cover_counts_cpu(world, attacker, [layer], tpl.moved(0, 0, 0)))[0]


def level_table(levels=None, thresholds=None, n_samples: int = N_SAMPLES) -> list[str]:
    """The cover level of every count 0..36 (``cover_level`` of ``count / 36``; ``levels``: the ruleset's table)."""
    return [cover_level(k / n_samples, levels, thresholds) for k in range(n_samples + 1)]


# -- threat: reach and range as tables -----------------------------------------------------------------------
@dataclass(frozen=True)
class Weapons:
    """What an enemy's attacks reach: the longest melee reach (m, None without a melee attack) and the longest
    range (m, None without a ranged or thrown one)."""
    reach_m: float | None
    range_m: float | None


def range_table(range_m: float, cell_m: float, size) -> np.ndarray:
    """(Cached: the same weapon on the same map gives the same table; read-only.)"""
    return _range_table(float(range_m), float(cell_m), tuple(int(v) for v in size))


@functools.lru_cache(maxsize=64)
def _range_table(range_m: float, cell_m: float, size) -> np.ndarray:
    """int32 [Z, W]: for layers apart |dz| and doubled centre offset |2 dy|, the largest doubled centre offset
    |2 dx| (of the same parity: bodies of footprints f and 1 always differ by (f - 1) / 2 on both axes) with
    ``distance_m(a, b, cell_m) <= range_m + 1e-9``, the rules' own test (AIR-03); -1 if none. Built with
    ``geometry.distance_m`` itself on real bodies (a bisection per entry: the distance grows with |dx|)."""
    X, Y, Z = size
    W = 2 * max(X, Y) + 8
    out = np.full((Z, W), -1, dtype=np.int32)
    lim = range_m + 1e-9

    def ok(dx2, dy2, dz):
        p = dy2 % 2                                  # a: footprint 1 + p at the origin; b: footprint 1
        a = Body(0, 0, 0, 1 + p)
        b = Body((dx2 + p) // 2, (dy2 + p) // 2, dz, 1)
        return distance_m(a, b, cell_m) <= lim

    for dz in range(Z):
        for dy2 in range(W):
            p = dy2 % 2
            if not ok(p, dy2, dz):
                continue
            lo, hi = 0, W // 2                       # dx2 = 2 m + p; ok at m = lo
            if ok(2 * hi + p, dy2, dz):
                out[dz, dy2] = 2 * hi + p
                continue
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if ok(2 * mid + p, dy2, dz):
                    lo = mid
                else:
                    hi = mid
            out[dz, dy2] = 2 * lo + p
    out.setflags(write=False)
    return out


def melee_limits(reach_m: float | None, cell_m: float) -> tuple[int, int]:
    """(cells, layers) a melee attack of this reach covers (AIR-05: ``in_melee_reach``); (-1, -1) for none."""
    if reach_m is None:
        return -1, -1
    return melee_cells(reach_m, cell_m), melee_layer_reach(reach_m)


def may_attack(enemy: Body, cells: np.ndarray, weapons: Weapons, cell_m: float, rtable=None) -> np.ndarray:
    """bool [C]: the enemy at ``enemy`` reaches (AIR-05) or has in range (AIR-03) a standard body at each cell
    -- the kernel's integer test, on the CPU (checked against ``in_melee_reach`` and ``distance_m``)."""
    cx, cy, cz = cells[:, 0], cells[:, 1], cells[:, 2]
    fa = enemy.footprint
    mc, ml = melee_limits(weapons.reach_m, cell_m)
    gx = np.maximum(0, np.maximum(cx - (enemy.x + fa - 1), enemy.x - cx))
    gy = np.maximum(0, np.maximum(cy - (enemy.y + fa - 1), enemy.y - cy))
    dz = np.abs(cz - enemy.layer)
    ok = (np.maximum(gx, gy) <= mc) & (dz <= ml) if mc >= 0 else np.zeros(len(cells), dtype=bool)
    if weapons.range_m is not None:
        if rtable is None:
            raise ValueError("a ranged weapon needs its range_table")
        dx2 = np.abs(2 * cx + 1 - (2 * enemy.x + fa))
        dy2 = np.abs(2 * cy + 1 - (2 * enemy.y + fa))
        inside = dy2 < rtable.shape[1]
        lim = np.where(inside, rtable[dz, np.minimum(dy2, rtable.shape[1] - 1)], -1)
        ok |= inside & (dx2 <= lim)
    return ok


def threat_counts_cpu(world, enemies, layers=None, template: Body = STANDARD) -> np.ndarray:
    """uint16 [E, layers, Y, X]: per enemy ``(places: list[Body], Weapons)``, the fewest blocked sample lines
    to a body at each cell over the places that may attack it; NO_ATTACK where none may, NO_BODY where a body
    cannot be."""
    X, Y, Z = world.size
    layers = list(range(Z)) if layers is None else [int(z) for z in layers]
    fields = world_octant_fields(world)
    tables = sample_table(world.size, template)
    free = free_cells(world, template)
    out = np.full((len(enemies), len(layers), Y, X), NO_BODY, dtype=np.uint16)
    for e, (places, weapons) in enumerate(enemies):
        rt = range_table(weapons.range_m, world.cell_m, world.size) if weapons.range_m is not None else None
        eyes = [(eye_fixed(world, b), b) for b in places]
        for i, z in enumerate(layers):
            yy, xx = np.nonzero(free[z])
            if not len(xx):
                continue
            cells = np.stack([xx, yy, np.full_like(xx, z)], axis=1)
            best = np.full(len(cells), NO_ATTACK, dtype=np.int64)
            for eye, body in eyes:
                ok = may_attack(body, cells, weapons, world.cell_m, rt) & (best > 0)
                if not ok.any():
                    continue
                sel = np.flatnonzero(ok)
                n = _counts_for_cells(world, fields, tables, [(eye, body)], cells[sel], template)[0]
                best[sel] = np.minimum(best[sel], n)
            out[e, i, yy, xx] = best
    return out
