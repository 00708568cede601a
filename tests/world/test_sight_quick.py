"""The Python sight-line shortcuts (engine/world/cover.py ``_quick``; engine/world/los.py ``trace_one``) answer what
the batch traversal answers, bit for bit: one line walked in Python visits the voxels the plain traversal visits,
a pair certified wholly blocked (``_slab_blocks``) has every line blocked, one called visible has a clear line, and
``cover_between``, ``cover_many`` and ``sight_many`` give the reference's results -- on random maps, on walls and
blocks (where the certificate fires), with eye points and bodies on voxel planes (the tie rule)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.rules.registry import cover_levels
from engine.world import cover, los
from engine.world.geometry import Body
from engine.world.grid import World
from engine.world.materials import AIR, BUILTIN_MATERIALS

from test_rules_speed import _cover_reference, _rays

pytestmark = pytest.mark.unit
LEVELS = cover_levels("dnd5e")


@pytest.mark.parametrize("seed", range(3))
def test_one_line_in_python_is_the_plain_traversal(seed):
    rng = np.random.default_rng(seed)
    for trial in range(60):
        X, Y, Z = (int(v) for v in rng.integers(1, 14, 3))
        size = (X, Y, Z)
        blk = rng.random((Z, Y, X)) < rng.choice([0.0, 0.02, 0.05, 0.2, 0.5])
        flat = blk.ravel()
        data = los.distance_field(blk).ravel().tobytes()         # the jumps across clear cubes, as the batch's
        n = 40
        p0, p1 = _rays(rng, size, n, trial % 3)
        ignore = set(rng.integers(0, X * Y * Z, 3).tolist()) if trial % 2 else set()
        for a, b in zip(p0.tolist(), p1.tolist()):
            vis = [x + X * (y + Y * z) for x, y, z in los.visited_voxels(size, a, b)]
            want = next((v for v in vis if flat[v] and v not in ignore), None)
            assert los.trace_one(data, size, a, b, ignore) == ((True, want) if want is not None else (False, -1))


def _walled_world(rng, X, Y, Z):
    """A floor, a few walls one voxel thick and a few solid blocks: the certificate's own cases, with gaps."""
    vox = np.zeros((Z, Y, X), dtype=np.uint8)
    vox[0] = 1
    for _ in range(int(rng.integers(1, 5))):
        ax = int(rng.integers(0, 3))
        lo = [int(rng.integers(0, s)) for s in (Z, Y, X)]
        hi = [min(s, lo[i] + int(rng.integers(1, s + 1))) for i, s in enumerate((Z, Y, X))]
        k = 2 - ax                                       # the wall's thin axis (array order z, y, x)
        hi[k] = lo[k] + 1
        vox[lo[0]:hi[0], lo[1]:hi[1], lo[2]:hi[2]] = 1
    for _ in range(int(rng.integers(0, 3))):
        lo = [int(rng.integers(0, s)) for s in (Z, Y, X)]
        hi = [min(s, lo[i] + int(rng.integers(1, 5))) for i, s in enumerate((Z, Y, X))]
        vox[lo[0]:hi[0], lo[1]:hi[1], lo[2]:hi[2]] = 1
    if rng.random() < 0.3:
        vox |= (rng.random((Z, Y, X)) < 0.04).astype(np.uint8)
    return World(vox, (AIR, BUILTIN_MATERIALS["stone"]), 1.5)


@pytest.mark.parametrize("seed", range(3))
def test_the_quick_answers_are_the_traced_ones(seed):
    rng = np.random.default_rng(100 + seed)
    fired = {cover.TOTAL: 0, cover.VISIBLE: 0}
    for trial in range(25):
        X, Y, Z = (int(v) for v in rng.integers(5, 18, 3))
        world = _walled_world(rng, X, Y, Z)
        size = world.size
        dist = world.los_distance()
        blk = cover._dist_bytes(world, dist)
        pairs = []
        for _ in range(20):
            f = int(rng.integers(1, 3))
            a = Body(int(rng.integers(0, X - f + 1)), int(rng.integers(0, Y - f + 1)), int(rng.integers(0, Z)), f,
                     int(rng.integers(1, 4)), float(rng.choice([0.5, 1.0, 1.6])))
            g = int(rng.integers(1, 3))
            t = Body(int(rng.integers(0, X - g + 1)), int(rng.integers(0, Y - g + 1)), int(rng.integers(0, Z)), g,
                     int(rng.integers(1, 4)))
            eye = None if rng.random() < 0.6 else tuple(float(v) for v in rng.integers(0, 2 * np.array(size)) / 2)
            pairs.append((a, t, eye))
            ref = _cover_reference(world, a, t, eye)
            ga, gt = cover._geom(a, size), cover._geom(t, size)
            e = cover._eye(ga, eye, size)
            got = cover._quick(blk, size, e[1], gt, set(ga.floor + gt.floor))
            if got is not None:
                fired[got] += 1
            if got == cover.TOTAL:
                assert ref.blocked_fraction == 1.0
            elif got == cover.VISIBLE:
                assert ref.visible
            assert cover.cover_between(world, a, t, LEVELS, eye=eye) == ref
            one = cover.sight_one(world, a, t, LEVELS, eye=eye)
            assert (one is True and ref.visible) or one == ref
        refs = [_cover_reference(world, a, t, e) for a, t, e in pairs]
        assert cover.cover_many(world, pairs, LEVELS) == refs
        full = [bool(rng.random() < 0.5) for _ in pairs]
        for want, got, ref in zip(full, cover.sight_many(world, pairs, LEVELS, full=full), refs):
            if got is True:
                assert not want and ref.visible
            else:
                assert got == ref
    assert fired[cover.TOTAL] > 40 and fired[cover.VISIBLE] > 40


def test_the_certificate_holds_on_a_wall_met_exactly_at_voxel_edges():
    """Eye and samples on voxel planes: lines that cross the wall's plane exactly on an edge enter the diagonal
    voxel (the tie rule); a gap there must stop the certificate."""
    X, Y, Z = 12, 12, 6
    vox = np.zeros((Z, Y, X), dtype=np.uint8)
    vox[0] = 1
    vox[1:5, 6, 2:10] = 1                                # a wall across y = 6
    for gap in [None, (2, 6, 5), (3, 6, 6), (1, 6, 4)]:
        v = vox.copy()
        if gap:
            v[gap] = 0
        world = World(v, (AIR, BUILTIN_MATERIALS["stone"]), 1.5)
        for a in (Body(5, 1, 1), Body(6, 2, 1, 1, 2, 1.0), Body(4, 0, 2, 2, 2, 2.0)):
            for t in (Body(5, 10, 1), Body(6, 11, 1, 2, 3), Body(3, 9, 2)):
                for eye in (None, (6.0, 2.0, 3.0), (5.5, 1.0, 2.5)):
                    assert cover.cover_between(world, a, t, LEVELS, eye=eye) == _cover_reference(world, a, t, eye)


def test_the_kept_geometry_is_the_arrays_numbers():
    """``_Geom`` works its samples and fixed points out coordinate by coordinate in Python: the same floats and
    integers as ``sample_points``, ``quantize`` and ``clamp_points`` (bodies at the map's edges and past them, an
    eye height given as an integer)."""
    rng = np.random.default_rng(7)
    for _ in range(300):
        size = tuple(int(v) for v in rng.integers(1, 20, 3))
        f = int(rng.integers(1, 5))
        b = Body(int(rng.integers(-2, size[0] + 2)), int(rng.integers(-2, size[1] + 2)), int(rng.integers(-2, size[2] + 2)),
                 f, int(rng.integers(1, 7)), [1.6, 2, 0.5, 5.5][int(rng.integers(0, 4))])
        g = cover._Geom(b, size)
        smp = cover.sample_points(b)
        assert g.samples_t == tuple(map(tuple, smp.tolist()))
        assert (g.q == los.clamp_points(los.quantize(smp), size)).all()
        e = np.array(cover.eye_point(b), dtype=np.float64)
        assert g.eye_t == tuple(e.tolist()) and all(type(v) is float for v in g.eye_t)
        assert g.eye_q == tuple(los.clamp_points(los.quantize(e), size).tolist())
        v = g.q >> los.FP_BITS
        assert g.box == (tuple(v.min(axis=0).tolist()), tuple(v.max(axis=0).tolist()))


def test_at_most_k_blocked_is_the_traced_count():
    rng = np.random.default_rng(21)
    asked = 0
    for trial in range(20):
        X, Y, Z = (int(v) for v in rng.integers(5, 16, 3))
        world = _walled_world(rng, X, Y, Z)
        for _ in range(15):
            a = Body(int(rng.integers(0, X)), int(rng.integers(0, Y)), int(rng.integers(0, Z)))
            t = Body(int(rng.integers(0, X - 1)), int(rng.integers(0, Y - 1)), int(rng.integers(0, Z)), 2, 3)
            eye = None if rng.random() < 0.7 else tuple(float(v) for v in rng.integers(0, 2 * np.array(world.size)) / 2)
            n = sum(_cover_reference(world, a, t, eye).blocked)
            for k in (0, 8, int(rng.integers(0, 37))):
                got = cover.blocked_at_most(world, a, t, k, eye)
                if got is not None:
                    asked += 1
                    assert got == (n <= k)
    assert asked > 500


@pytest.mark.parametrize("thresholds", [None, [["none", 0.0], ["half", 0.2], ["total", 0.6]],
                                        [["none", 0.0], ["half", 0.05], ["three-quarters", 0.5]]])
@pytest.mark.parametrize("feats", [False, True])
def test_a_probing_listing_lists_what_the_full_checks_list(thresholds, feats, monkeypatch):
    """The listing's checks only probe (``session.probing``: the sight test for total cover, Hide's watchers answered
    nearest first, no attack level): they keep exactly what the full checks keep, with the ruleset's levels and with
    scene thresholds where total cover is not every line blocked, or there is no total level at all (so
    ``total_cover`` asks the level, or nothing)."""
    import random

    from engine.rules.session import Session
    from engine.scene import bench, parse_scene
    from engine.rules.dnd5e import listing, sight

    text = bench.SKIRMISH
    if thresholds:
        text = text.replace("[map]", "[options]\ncover_thresholds = " + repr(thresholds).replace("'", '"') + "\n[map]", 1)
    if feats:
        text = text.replace("[[characters]]\n", '[[characters]]\nfeats = ["sharpshooter", "alert", "sentinel"]\n')
    s = Session(parse_scene(text, "<probe test>"), 9)
    rng = random.Random(9)
    real = listing.legal_actions

    def unprobed(rs, session, a, kinds=None):        # the same listing with every check a full one
        old = type(session).probing if hasattr(type(session), "probing") else None
        monkeypatch.setattr(type(session), "probing", property(lambda self: False, lambda self, v: None), raising=False)
        try:
            return real(rs, session, a, kinds)
        finally:
            if old is None:
                monkeypatch.delattr(type(session), "probing")
            else:
                monkeypatch.setattr(type(session), "probing", old)

    hides = 0
    for _ in range(120):
        if s.state.over:
            break
        fast = list(s.legal_actions())
        monkeypatch.setattr(listing, "legal_actions", unprobed)
        full = list(s.legal_actions())
        monkeypatch.setattr(listing, "legal_actions", real)
        assert fast == full
        hides += any(c["action"] == "hide" for c in fast)
        living = [o for o in s.state.actors.values() if not o.dead]
        for x in living:                              # the sight tests against the whole cover, on a fresh cache
            for y in living:
                if x is not y:
                    s.cache.clear()
                    probes = (sight.sight(s.ruleset, s, x, y), sight.total_cover(s.ruleset, s, x, y))
                    s.cache.clear()
                    c = sight.cover(s.ruleset, s, x, y)
                    assert probes == (c.visible, c.level == "total")
            s.cache.clear()
            s.probing = True
            seen = sight.in_plain_sight(s.ruleset, s, [o for o in living if o is not x], x)
            s.probing = False
            assert (seen is None) == all(sight.cover(s.ruleset, s, o, x).level != "none" for o in living if o is not x)
        s.step(bench.random_action(s, rng))
    assert hides or thresholds                       # Hide was listed (its watchers asked) along the way
