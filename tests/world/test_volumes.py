"""Cover and threat volumes on the CPU (engine/world/volumes.py): the octant fields are true, the traversal is the
engine's, the cover volume is cover_between at every cell (the floors under both bodies never counting, so a
body at a roof's edge is not covered by its own roof), and reach and range are the rules' own tests."""

import glob
from pathlib import Path

import numpy as np
import pytest
from tiers import full, sample

from engine.world.cover import _support_ignore, cover_between, eye_point, sample_points
from engine.world.geometry import Body, distance_m, in_melee_reach
from engine.world.grid import World
from engine.world.los import clamp_points, distance_field, quantize, trace_fixed
from engine.world.materials import BUILTIN_MATERIALS
from engine.world.volumes import (NO_ATTACK, NO_BODY, Weapons, cover_counts_cpu, cover_map, fraction, free_cells,
                                  may_attack, octant_fields, range_table, sample_offsets, threat_counts_cpu, trace_octant)

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]
MATS = ("air", "stone", "glass", "foliage", "water", "roof")


def random_world(rng, lo=6, hi=16, density=None):
    X, Y, Z = (int(v) for v in rng.integers(lo, hi, 3))
    p = density if density is not None else rng.uniform(0.03, 0.3)
    mats = tuple([BUILTIN_MATERIALS.get(m) for m in MATS[1:]])
    from engine.world.materials import AIR

    vox = np.where(rng.random((Z, Y, X)) < p, rng.integers(1, len(MATS), (Z, Y, X)), 0).astype(np.uint8)
    return World(vox, (AIR,) + mats, cell_m=float(rng.choice([1.0, 1.5, 2.0])))


def free_body(rng, world, footprint=1):
    X, Y, Z = world.size
    for _ in range(1000):
        b = Body(int(rng.integers(0, X - footprint + 1)), int(rng.integers(0, Y - footprint + 1)),
                 int(rng.integers(0, Z)), footprint, int(rng.integers(1, 4)), float(rng.uniform(0.5, 2.5)))
        if free_cells(world, Body(0, 0, 0, footprint, 1))[b.layer, b.y, b.x]:
            return b
    pytest.skip("no free cell")


def test_octant_fields_claim_only_clear_cubes():
    rng = np.random.default_rng(3)
    for _ in range(4):
        blk = rng.random(tuple(int(v) for v in rng.integers(4, 14, 3))) < rng.uniform(0.02, 0.2)
        Z, Y, X = blk.shape
        F = octant_fields(blk).reshape((8,) + blk.shape)
        for o in range(8):
            s = [-1 if o & bit else 1 for bit in (1, 2, 4)]           # x, y, z directions
            for _ in range(300):
                z, y, x = (int(rng.integers(0, n)) for n in blk.shape)
                k = int(F[o, z, y, x])
                assert (k == 0) == bool(blk[z, y, x])
                if k <= 1:
                    continue
                xs = sorted((x, x + s[0] * (k - 1)))
                ys = sorted((y, y + s[1] * (k - 1)))
                zs = sorted((z, z + s[2] * (k - 1)))
                cube = blk[max(zs[0], 0):zs[1] + 1, max(ys[0], 0):ys[1] + 1, max(xs[0], 0):xs[1] + 1]
                assert not cube.any(), (o, x, y, z, k)


@pytest.mark.parametrize("grid", [False, True])
def test_octant_traversal_is_the_engines(grid):
    rng = np.random.default_rng(11 + grid)
    for _ in range(6):
        X, Y, Z = (int(v) for v in rng.integers(5, 30, 3))
        blk = rng.random((Z, Y, X)) < rng.uniform(0.01, 0.3)
        size = (X, Y, Z)
        a = rng.random((5000, 3)) * size
        b = rng.random((5000, 3)) * size
        if grid:                    # quarter-voxel end points: many rays through edges and corners (ties)
            a, b = np.floor(a * 4) / 4, np.floor(b * 4) / 4
        q0, q1 = clamp_points(quantize(a), size), clamp_points(quantize(b), size)
        want = trace_fixed(distance_field(blk).ravel(), size, q0, q1)
        got = trace_octant(octant_fields(blk), size, q0, q1)
        assert np.array_equal(want, got)
        assert 0 < want.mean() < 1


def test_sample_offsets_reproduce_sample_points():
    size = (37, 23, 19)
    offs = sample_offsets(size)
    for x, y, z in ((0, 0, 0), (36, 22, 18), (17, 5, 9)):
        assert np.array_equal(quantize(sample_points(Body(x, y, z))), np.array([x, y, z]) * 256 + offs)


def _check_volume_against_cover_between(world, attacker, counts, cells=None):
    free = free_cells(world)
    frac = fraction(counts)
    assert np.array_equal(counts == NO_BODY, ~free)
    zz, yy, xx = np.nonzero(free) if cells is None else cells
    for x, y, z in zip(xx.tolist(), yy.tolist(), zz.tolist()):
        r = cover_between(world, attacker, Body(x, y, z))
        assert np.float32(r.blocked_fraction) == frac[z, y, x], (x, y, z)
        assert sum(r.blocked) == counts[z, y, x]


def test_cover_volume_is_cover_between_at_every_cell_of_random_maps():
    rng = np.random.default_rng(5)
    for i in range(5):
        w = random_world(rng, 5, 12)
        att = free_body(rng, w, footprint=1 + (i % 2))
        counts = cover_counts_cpu(w, att)
        _check_volume_against_cover_between(w, att, counts)
        assert 0 < np.mean(counts[counts != NO_BODY] > 0) < 1


def test_cover_volume_traced_in_batches_of_cells_is_the_same(monkeypatch):
    """``CELLS_CHUNK``: a layer's cells are traced a batch at a time (a whole 512 x 512 layer at once took some
    3.7 GB); batches of 7 cells give the counts of one batch for the whole map, threat volume too."""
    import engine.world.volumes as V

    rng = np.random.default_rng(9)
    for i in range(3):
        w = random_world(rng, 6, 14)
        att = free_body(rng, w)
        foe = free_body(rng, w)
        whole = cover_counts_cpu(w, att)
        threat = V.threat_counts_cpu(w, [([foe], Weapons(1.5, 30.0))])
        monkeypatch.setattr(V, "CELLS_CHUNK", 7)
        assert np.array_equal(cover_counts_cpu(w, att), whole)
        assert np.array_equal(V.threat_counts_cpu(w, [([foe], Weapons(1.5, 30.0))]), threat)
        monkeypatch.setattr(V, "CELLS_CHUNK", 1 << 30)


def _roof_world():
    """A roof (layer 3) over x 6..11; a wall-less house: a body on its edge, an attacker low to the west."""
    from engine.world.materials import AIR

    vox = np.zeros((8, 6, 16), dtype=np.uint8)
    vox[3, :, 6:12] = 1
    return World(vox, (AIR, BUILTIN_MATERIALS["roof"]), 1.5)


def test_roof_edge_own_floor_never_counts_in_the_cover_map():
    w = _roof_world()
    att = Body(2, 2, 0)                         # eye at 1.6 m: lines up to a body on the roof edge cut its floor
    frac = cover_map(w, att, 4)
    for x in range(16):
        for y in range(6):
            r = cover_between(w, att, Body(x, y, 4))
            assert np.float32(r.blocked_fraction) == frac[y, x], (x, y)
    # the rule is exercised: counting the roof under the body's own feet would change the edge cell
    body = Body(6, 2, 4)
    p1 = clamp_points(quantize(sample_points(body)), w.size)
    p0 = np.broadcast_to(clamp_points(quantize(eye_point(att)), w.size), p1.shape)
    with_floor = trace_fixed(w.los_distance(), w.size, p0, p1).mean()
    assert with_floor > frac[2, 6]
    assert frac[2, 6] == np.float32(cover_between(w, att, body).blocked_fraction)


def _reference_volume(world, attacker):
    """cover_between's answer at every free cell: literally where the body's own floor blocks sight (the rule
    matters there), and through the same engine call (trace_fixed, same points, the attacker's floor ignored)
    everywhere else, where ignoring a clear floor voxel changes nothing."""
    X, Y, Z = world.size
    free = free_cells(world)
    blk = world.blocks_sight()
    out = np.full((Z, Y, X), NO_BODY, dtype=np.uint16)
    floor_blocks = np.zeros_like(free)
    floor_blocks[1:] = blk[:-1]
    zz, yy, xx = np.nonzero(free & floor_blocks)
    for x, y, z in zip(xx.tolist(), yy.tolist(), zz.tolist()):
        out[z, y, x] = sum(cover_between(world, attacker, Body(x, y, z)).blocked)
    zz, yy, xx = np.nonzero(free & ~floor_blocks)
    pts = np.concatenate([sample_points(Body(x, y, z)) for x, y, z in zip(xx.tolist(), yy.tolist(), zz.tolist())])
    p1 = clamp_points(quantize(pts), world.size)
    p0 = clamp_points(np.broadcast_to(quantize(eye_point(attacker)), p1.shape).copy(), world.size)
    b = trace_fixed(world.los_distance(), world.size, p0, p1, ignore=_support_ignore(world, (attacker,)))
    out[zz, yy, xx] = b.reshape(len(xx), -1).sum(axis=1)
    return out, (zz, yy, xx)


SCENES = sorted(glob.glob(str(ROOT / "scenes" / "*.toml")))


def _one_scene_a_map(paths: list[str]) -> list[str]:
    """One scene a map file, the showcase first (three scenes play on the 64 x 64 x 24 town: its volume is checked
    once in `make test`, from each in `make slow`); a scene with its own map stays."""
    import tomllib

    seen, out = set(), []
    for p in sorted(paths, key=lambda p: (Path(p).stem != "showcase", p)):
        with open(p, "rb") as f:
            vox = tomllib.load(f).get("map", {}).get("vox")
        if vox is None or vox not in seen:
            out.append(p)
            seen.add(vox)
    return sorted(out)


MAPS = SCENES if full() else _one_scene_a_map(SCENES)


@pytest.mark.parametrize("path", MAPS, ids=[Path(p).stem for p in MAPS])
def test_cover_volume_equals_cover_between_on_the_shipped_maps(path):
    from engine.scene import load_scene

    scene = load_scene(path)
    ch = max(scene.characters, key=lambda c: c.at[2])          # the highest: lines over roofs and edges
    att = Body.of(ch)
    counts = cover_counts_cpu(scene.world, att)
    ref, (zz, yy, xx) = _reference_volume(scene.world, att)
    assert np.array_equal(counts, ref)
    # and literally cover_between at a sample of the other cells
    rng = np.random.default_rng(1)
    pick = rng.choice(len(xx), min(60, len(xx)), replace=False)
    _check_volume_against_cover_between(scene.world, att, counts, (zz[pick], yy[pick], xx[pick]))


@pytest.mark.slow
@pytest.mark.parametrize("path", SCENES, ids=[Path(p).stem for p in SCENES])
def test_cover_volume_is_literally_cover_between_at_every_cell_of_the_shipped_maps(path):
    # every cell for two characters in `make slow` (about 40 s for the 29 maps); `make test` checks a random
    # sample of 1,500 cells for one (the test above already holds every cell against the same engine call)
    from engine.scene import load_scene

    scene = load_scene(path)
    rng = np.random.default_rng(3)
    for ch in scene.characters[:sample(1, 2)]:
        att = Body.of(ch)
        cells = None
        if not full():
            zz, yy, xx = np.nonzero(free_cells(scene.world))
            pick = rng.choice(len(xx), min(1500, len(xx)), replace=False)
            cells = (zz[pick], yy[pick], xx[pick])
        _check_volume_against_cover_between(scene.world, att, cover_counts_cpu(scene.world, att), cells)


def test_reach_and_range_are_the_rules_tests():
    rng = np.random.default_rng(9)
    size = (40, 30, 20)
    for cell_m in (1.5, 1.0, 2.5):
        for reach_m, range_m in ((1.5, None), (3.0, 18.0), (None, 45.0), (4.5, 7.5)):
            rt = range_table(range_m, cell_m, size) if range_m else None
            for _ in range(40):
                f = int(rng.integers(1, 4))
                e = Body(int(rng.integers(0, size[0] - f)), int(rng.integers(0, size[1] - f)), int(rng.integers(0, 20)), f)
                cells = np.stack([rng.integers(0, size[0], 200), rng.integers(0, size[1], 200), rng.integers(0, 20, 200)], 1)
                got = may_attack(e, cells, Weapons(reach_m, range_m), cell_m, rt)
                for (x, y, z), g in zip(cells.tolist(), got.tolist()):
                    t = Body(x, y, z)
                    want = (reach_m is not None and in_melee_reach(e, t, reach_m, cell_m)) or \
                           (range_m is not None and distance_m(e, t, cell_m) <= range_m + 1e-9)
                    assert g == want, (e, t, reach_m, range_m, cell_m)


def test_range_table_edges_are_exact():
    """Right at the long range: the table follows distance_m to the last bit (3-4-5 triangles land on it)."""
    rt = range_table(7.5, 1.5, (20, 20, 10))                 # 7.5 m = 5 cells: (dx, dy) = (3, 4) cells, dz 0
    e = Body(0, 0, 0)
    cells = np.array([[3, 4, 0], [4, 4, 0], [5, 0, 0], [0, 5, 0], [3, 4, 1]])
    got = may_attack(e, cells, Weapons(None, 7.5), 1.5, rt).tolist()
    assert got == [distance_m(e, Body(*c), 1.5) <= 7.5 + 1e-9 for c in cells.tolist()] == [True, False, True, True, False]


def test_threat_counts_are_the_fewest_blocked_lines_over_places_that_may_attack():
    rng = np.random.default_rng(21)
    for _ in range(3):
        w = random_world(rng, 6, 11, density=0.12)
        places = [free_body(rng, w) for _ in range(3)]
        weapons = Weapons(1.5 if rng.random() < 0.7 else None, float(rng.choice([6.0, 9.0])))
        rt = range_table(weapons.range_m, w.cell_m, w.size)
        got = threat_counts_cpu(w, [(places, weapons)])[0]
        free = free_cells(w)
        zz, yy, xx = np.nonzero(free)
        for x, y, z in zip(xx.tolist(), yy.tolist(), zz.tolist()):
            t = Body(x, y, z)
            best = NO_ATTACK
            for p in places:
                if may_attack(p, np.array([[x, y, z]]), weapons, w.cell_m, rt)[0]:
                    best = min(best, sum(cover_between(w, p, t).blocked))
            assert got[z, y, x] == best, (x, y, z)
        assert (got == NO_BODY).sum() == (~free).sum()


def test_attack_reach_reads_the_rulesets_weapons():
    from engine.rules.session import Session
    from engine.scene import load_scene

    s = Session(load_scene(ROOT / "scenes" / "showcase.toml"))
    rs = s.ruleset
    got = {a.id: rs.attack_reach(s, a) for a in s.state.actors.values()}
    assert got["wall_archer"] == (1.5, 180.0)          # shortsword; longbow long range
    assert got["knight"] == (1.5, 18.0)                # longsword; the spear thrown
    assert got["harpy_low"] == (1.5, None)             # claws only
    assert got["wyvern_rider"] == (3.0, None)          # a lance has reach
    s = Session(load_scene(ROOT / "scenes" / "baton_skyfall.toml"))
    got = {a.id: s.ruleset.attack_reach(s, a) for a in s.state.actors.values()}
    assert got["lia"] == (1.5, 45.0)
    assert got["h1"][1] is None
