"""The shortcuts that make the rules' whole loop fast give the answers of the code they replace, bit for bit
(docs/performance.md, "Rules: the whole loop at 2,000 actions/s"): the loop-free sight-line traversal, the cover's
per-body geometry, and the caches' invalidation."""

from __future__ import annotations

import numpy as np
import pytest

from engine.rules.registry import cover_levels
from engine.world import los

pytestmark = pytest.mark.unit


def _rays(rng, size, n, mode):
    hi = np.array(size) * los.FP
    if mode == 0:                                   # anywhere
        p0, p1 = rng.integers(0, hi, (n, 3)), rng.integers(0, hi, (n, 3))
    elif mode == 1:                                 # on voxel planes, edges and corners: the tie rule
        half = los.FP // 2
        p0 = rng.integers(0, np.array(size) * 2, (n, 3)) * half
        p1 = rng.integers(0, np.array(size) * 2, (n, 3)) * half
    else:                                           # along one axis, or of length zero
        p0 = rng.integers(0, hi, (n, 3))
        p1 = p0.copy()
        ax = rng.integers(0, 3, n)
        p1[np.arange(n), ax] = rng.integers(0, hi[ax])
        same = rng.random(n) < 0.3
        p1[same] = p0[same]
    return np.minimum(p0, hi - 1), np.minimum(p1, hi - 1)


@pytest.mark.parametrize("seed", range(4))
def test_trace_crossings_equals_the_stepped_and_plain_traversals(seed):
    rng = np.random.default_rng(seed)
    for trial in range(60):
        X, Y, Z = (int(v) for v in rng.integers(1, 18, 3))
        size = (X, Y, Z)
        blk = rng.random((Z, Y, X)) < rng.choice([0.0, 0.05, 0.2, 0.5])
        dist = los.distance_field(blk).ravel()
        n = int(rng.integers(1, 150))
        p0, p1 = _rays(rng, size, n, trial % 3)
        got = los.trace_crossings(dist, size, p0, p1)
        assert (got == los.trace_fixed(dist, size, p0, p1)).all()
        assert (got == los._trace_plain(blk.ravel(), p0, p1, size)).all()
        table = rng.integers(0, X * Y * Z, 4)
        ign = lambda flat: (flat[:, None] == table).any(axis=1)      # noqa: E731
        assert (los.trace_crossings(dist, size, p0, p1, ign) == los.trace_fixed(dist, size, p0, p1, ignore=ign)).all()
        rows = rng.integers(0, X * Y * Z, (n, 3))

        def per(flat, rid):
            return (rows[rid] == flat[:, None]).any(axis=1)

        per.per_ray = True
        assert (los.trace_crossings(dist, size, p0, p1, per)
                == los.trace_fixed(dist, size, p0, p1, ignore=per, chunk=n)).all()


def test_trace_crossings_visits_exactly_the_voxels_of_the_traversal():
    """One blocking voxel at a time: a segment is blocked exactly when ``visited_voxels`` lists that voxel."""
    rng = np.random.default_rng(7)
    size = (6, 5, 4)
    X, Y, Z = size
    p0, p1 = _rays(rng, size, 40, 1)
    q0, q1 = _rays(rng, size, 40, 0)
    p0, p1 = np.concatenate([p0, q0]), np.concatenate([p1, q1])
    visited = [set(los.visited_voxels(size, a.tolist(), b.tolist())) for a, b in zip(p0, p1)]
    for z in range(Z):
        for y in range(Y):
            for x in range(X):
                blk = np.zeros((Z, Y, X), dtype=bool)
                blk[z, y, x] = True
                got = los.trace_crossings(los.distance_field(blk).ravel(), size, p0, p1)
                assert got.tolist() == [(x, y, z) in v for v in visited]


def _cover_reference(world, a, t, eye=None):
    """The cover as it was computed before the per-body geometry was kept and the crossings listed at once."""
    from engine.world.cover import CoverResult, cover_level, eye_point, sample_points, support_indices

    e = np.array(eye if eye is not None else eye_point(a), dtype=np.float64)
    samples = sample_points(t)
    size = world.size
    p1 = los.clamp_points(los.quantize(samples), size)
    p0 = los.clamp_points(np.broadcast_to(los.quantize(e), p1.shape).copy(), size)
    idx = support_indices(world, (a, t))
    table = np.array(sorted(set(idx)), dtype=np.int64)
    ignore = (lambda flat: (flat[:, None] == table).any(axis=1)) if idx else None
    blocked = los.trace_fixed(world.los_distance(), size, p0, p1, ignore=ignore)
    frac = float(blocked.mean())
    return CoverResult(frac, cover_level(frac, cover_levels("dnd5e")), bool(frac < 1.0), tuple(float(v) for v in e),
                       tuple(tuple(float(v) for v in s) for s in samples), tuple(bool(b) for b in blocked))


def test_cover_between_and_cover_many_equal_the_reference():
    from engine.world.cover import cover_between, cover_many
    from engine.world.geometry import Body
    from engine.world.grid import World
    from engine.world.materials import AIR, BUILTIN_MATERIALS

    rng = np.random.default_rng(3)
    X, Y, Z = 14, 12, 8
    vox = (rng.random((Z, Y, X)) < 0.12).astype(np.uint8)
    vox[0] = 1                                      # a floor to stand on (and to be ignored under the feet)
    world = World(vox, (AIR, BUILTIN_MATERIALS["stone"]), 1.5)
    pairs = []
    for _ in range(40):
        f = int(rng.integers(1, 3))
        a = Body(int(rng.integers(0, X - f)), int(rng.integers(0, Y - f)), int(rng.integers(0, Z - 2)), f,
                 int(rng.integers(1, 4)), float(rng.choice([0.8, 1.6, 2.4])))
        t = Body(int(rng.integers(0, X - 1)), int(rng.integers(0, Y - 1)), int(rng.integers(0, Z - 2)))
        eye = None if rng.random() < 0.7 else (t.x + 0.5, t.y + 0.5, t.layer + 0.5)
        pairs.append((a, t, eye))
        assert cover_between(world, a, t, cover_levels("dnd5e"), eye=eye) == _cover_reference(world, a, t, eye)
    assert cover_many(world, pairs, cover_levels("dnd5e")) == [_cover_reference(world, a, t, e) for a, t, e in pairs]
    assert any(r.blocked_fraction not in (0.0, 1.0) for r in cover_many(world, pairs, cover_levels("dnd5e")))


@pytest.mark.parametrize("max_iter", [1, 2, 3, 500])
def test_small_box_relaxation_equals_the_reference_sweep_for_sweep(max_iter):
    """``pathing._relax_small`` (what ``_relax_flat`` runs on an ordinary move's box) against the 3D reference,
    also when ``max_iter`` stops both before the fixpoint: the same relaxations in the same order."""
    from engine.rules import pathing
    from reach_reference import _relax_3d

    rng = np.random.default_rng(11 + max_iter)
    for _ in range(50):
        Zb, Yb, Xb = (int(v) for v in (rng.integers(1, 6), rng.integers(1, 10), rng.integers(1, 10)))
        passable = rng.random((Zb, Yb, Xb)) < 0.8
        supc = rng.random((Zb, Yb, Xb)) < 0.5
        supc[0] = True
        lo = (int(rng.integers(0, Zb)), int(rng.integers(0, Yb)), int(rng.integers(0, Xb)))
        fly = bool(rng.random() < 0.6)
        if not fly:
            passable &= supc
        passable[lo] = True
        costs = (150, int(rng.choice([150, 212])), 400, 200, int(rng.choice([0, 150, 450])) if fly else 0)
        got = pathing._relax_small(passable, supc, lo, fly, costs, max_iter)
        want = _relax_3d(passable, supc, lo, fly, costs, max_iter)
        assert got.dtype == want.dtype and np.array_equal(got, want)
        assert np.array_equal(pathing._relax_flat(passable, supc, lo, fly, costs, max_iter), got)


@pytest.mark.parametrize("max_iter", [1, 3, 500])
def test_bit_set_search_equals_the_small_box_relaxation(max_iter):
    """``dial.search`` (what ``_relax_flat`` runs on a walker's small box) gives ``_relax_small``'s costs element for
    element, or None (then the sweeps are run): walkers with stairs and flyers with a take-off, both diagonal
    costs, and a ``max_iter`` that stops the sweeps early (where it must answer None)."""
    from engine.rules import dial, pathing

    rng = np.random.default_rng(23 + max_iter)
    answered = 0
    for trial in range(120):
        Zb, Yb, Xb = (int(v) for v in (rng.integers(1, 6), rng.integers(1, 12), rng.integers(1, 12)))
        passable = rng.random((Zb, Yb, Xb)) < rng.choice([0.6, 0.9, 1.0])
        supc = rng.random((Zb, Yb, Xb)) < 0.4
        supc[0] = True
        lo = (int(rng.integers(0, Zb)), int(rng.integers(0, Yb)), int(rng.integers(0, Xb)))
        fly = bool(trial % 3 == 0)
        if not fly:
            passable &= supc
        passable[lo] = True
        costs = (150, int(rng.choice([150, 212])), int(rng.choice([400, 250])), 200,
                 int(rng.choice([0, 150, 450])) if fly else 0)
        want = pathing._relax_small(passable, supc, lo, fly, costs, max_iter)
        got = dial.search(passable, supc, lo, fly, costs, max_iter, pathing._SHIFTS, pathing.INF)
        if got is not None:
            answered += 1
            assert got.dtype == want.dtype and np.array_equal(got, want)
        assert np.array_equal(pathing._relax_flat(passable, supc, lo, fly, costs, max_iter), want)
    assert answered > (100 if max_iter == 500 else 0)


def _fresh_listing(s):
    """The legal actions with every derived cache dropped (the session's reach maps and covers, the cover's
    per-body geometry, the searches kept by their inputs): what the listing says from scratch."""
    from engine.rules import pathing
    from engine.world import cover

    keep, geom, searches = dict(s.cache), dict(cover._GEOM), dict(pathing._SEARCHES)
    s.cache.clear()
    cover._GEOM.clear()
    pathing._SEARCHES.clear()
    try:
        return list(s.legal_actions())
    finally:
        s.cache.clear()
        s.cache.update(keep)
        cover._GEOM.update(geom)
        pathing._SEARCHES.update(searches)


@pytest.mark.parametrize("feats", [False, True])
def test_warm_caches_list_what_a_cold_listing_lists(feats):
    """Play the bench skirmish: after every move, attack, condition and death the listing with every cache warm
    (reach maps shared across allies' moves, covers, body geometry) equals the listing from scratch."""
    import random

    from engine.scene import bench
    from engine.rules.session import Session

    s = Session(bench.skirmish_scene(feats), 3)
    rng = random.Random(3)
    for _ in range(120):
        if s.state.over:
            break
        warm = list(s.legal_actions())
        assert warm == _fresh_listing(s)
        s.step(bench.random_action(s, rng))


def test_an_edit_of_the_world_drops_the_reach_maps_and_the_covers():
    """A GM's (or a broken object's) edit of the voxels: the next listing and cover see the new world."""
    import random

    from engine.scene import bench
    from engine.rules.session import Session
    from engine.rules.dnd5e import attacks
    from engine.world.cover import cover_between

    s = Session(bench.skirmish_scene(), 1)
    rng = random.Random(1)
    for _ in range(5):
        s.step(bench.random_action(s, rng))
    a = s.state.actors[s.current]
    before = list(s.legal_actions())
    others = [o for o in s.state.actors.values() if o.id != a.id and not o.dead]
    covers = {o.id: attacks.cover(s.ruleset, s, a, o) for o in others}
    # a wall of stone around the actor, one cell away, two layers tall: it cannot go far, and sees less
    x, y, z = a.pos
    X, Y, Z = s.world.size
    for dx, dy in ((-2, 0), (2, 0), (0, -2), (0, 2)):
        lo = (max(0, min(X - 1, x + dx - (dy != 0) * 2)), max(0, min(Y - 1, y + dy - (dx != 0) * 2)), 0)
        hi = (max(0, min(X - 1, x + dx + (dy != 0) * 2)), max(0, min(Y - 1, y + dy + (dx != 0) * 2)), min(Z - 1, z + 3))
        s.world.set_voxels(lo, hi, 1)
    after = list(s.legal_actions())
    assert after == _fresh_listing(s)
    assert after != before
    for o in others:
        got = attacks.cover(s.ruleset, s, a, o)
        assert got == cover_between(s.world, a.body(), o.body(), cover_levels("dnd5e"), s.options.get("cover_thresholds"))
    assert any(attacks.cover(s.ruleset, s, a, o) != covers[o.id] for o in others)


def test_a_reach_search_is_shared_only_when_the_hostiles_in_its_box_stand_still():
    from engine.rules import aerial
    from engine.scene import bench
    from engine.rules.session import Session

    s = Session(bench.skirmish_scene(), 1)
    a = s.state.actors[s.current]
    r1 = aerial.reach(s, a)
    ally = next(o for o in s.state.actors.values() if o.id != a.id and o.side == a.side)
    foe = next(o for o in s.state.actors.values() if o.side != a.side)
    ally_at, foe_at = ally.pos, foe.pos
    # an ally steps aside inside the box: the same costs, a different set of cells where the move may end
    ally.x = max(0, min(s.world.size[0] - 1, a.x + 1))
    ally.y, ally.layer = a.y, a.layer
    r2 = aerial.reach(s, a)
    assert r2 is not r1 and r2.dist is r1.dist
    assert not r2.can_end(ally.x, ally.y, ally.layer)
    s.cache.clear()
    fresh = aerial.reach(s, a)
    assert np.array_equal(fresh.dist, r2.dist) and np.array_equal(fresh.destination_cells(), r2.destination_cells())
    # a foe stands next to it instead: a search of its own (it may not be passed through)
    ally.x, ally.y, ally.layer = ally_at
    foe.x, foe.y, foe.layer = max(0, a.x - 1), a.y, a.layer
    r3 = aerial.reach(s, a)
    assert r3.dist is not r1.dist
    s.cache.clear()
    assert np.array_equal(aerial.reach(s, a).dist, r3.dist)
    foe.x, foe.y, foe.layer = foe_at


def test_the_clear_box_shortcut_answers_as_the_traversal_does():
    """``cover._clear`` (no blocking voxel but the ignored floors in the box of a pair's sight lines) answers only
    what tracing answers: on random maps, bodies, floors and eye points (planes included), every pair it calls
    clear traces clear, the results equal the traced ones, and it does fire."""
    from engine.world import cover
    from engine.world.geometry import Body
    from engine.world.grid import World
    from engine.world.materials import AIR, BUILTIN_MATERIALS

    rng = np.random.default_rng(11)
    fired = 0
    for trial in range(30):
        X, Y, Z = (int(v) for v in rng.integers(4, 16, 3))
        vox = (rng.random((Z, Y, X)) < rng.choice([0.0, 0.01, 0.05, 0.15])).astype(np.uint8)
        if trial % 2:
            vox[0] = 1                                  # a floor (ignored under the feet)
        world = World(vox, (AIR, BUILTIN_MATERIALS["stone"]), 1.5)
        size = world.size
        dist = world.los_distance()
        table = cover._blocking_table(world, dist)
        pairs = []
        for _ in range(25):
            f = int(rng.integers(1, 3))
            a = Body(int(rng.integers(0, X - f + 1)), int(rng.integers(0, Y - f + 1)), int(rng.integers(0, Z)), f,
                     int(rng.integers(1, 4)), float(rng.choice([0.5, 1.0, 1.6])))
            t = Body(int(rng.integers(0, X)), int(rng.integers(0, Y)), int(rng.integers(0, Z)))
            eye = None if rng.random() < 0.6 else tuple(float(v) for v in rng.integers(0, 2 * np.array(size)) / 2)
            pairs.append((a, t, eye))
            ga, gt = cover._geom(a, size), cover._geom(t, size)
            e_t, e_q, e_box = cover._eye(ga, eye, size)
            floor = ga.floor + gt.floor
            table_f = np.array(sorted(set(floor)), dtype=np.int64)
            ign = (lambda flat, tf=table_f: (flat[:, None] == tf).any(axis=1)) if floor else None
            traced = cover._trace(dist, size, np.broadcast_to(e_q, gt.q.shape), gt.q, ign)
            if cover._clear(table, dist, size, e_box, gt, floor):
                fired += 1
                assert not traced.any()
        assert cover.cover_many(world, pairs, cover_levels("dnd5e")) == [_cover_reference(world, a, t, e) for a, t, e in pairs]
    assert fired > 50


def test_the_blocking_table_follows_every_edit_of_the_world():
    """The table of blocking voxels is rebuilt after ``set_voxels`` (the field patched in place, the revision
    bumped) and after the field is replaced (an object's voxels): a wall put between two bodies covers at once,
    and taken away uncovers."""
    from engine.world import cover
    from engine.world.geometry import Body
    from engine.world.grid import World
    from engine.world.materials import AIR, BUILTIN_MATERIALS

    world = World.empty((12, 6, 4), (AIR, BUILTIN_MATERIALS["stone"]))
    a, t = Body(1, 2, 0), Body(10, 2, 0)
    assert cover.cover_between(world, a, t, cover_levels("dnd5e")).blocked_fraction == 0.0
    world.set_voxels((5, 0, 0), (5, 5, 3), 1)
    assert cover.cover_between(world, a, t, cover_levels("dnd5e")).blocked_fraction == 1.0
    assert cover.cover_many(world, [(a, t), (t, a)], cover_levels("dnd5e"))[1].blocked_fraction == 1.0
    world.set_voxels((5, 0, 0), (5, 5, 3), 0)
    assert cover.cover_many(world, [(a, t), (t, a)], cover_levels("dnd5e"))[0].blocked_fraction == 0.0
    world.voxels[:, :, 6] = 1                          # as objects do: new voxels, the cached field dropped
    world._luts.pop("_los_flat", None)
    assert cover.cover_between(world, a, t, cover_levels("dnd5e")) == _cover_reference(world, a, t, None)
    assert cover.cover_between(world, a, t, cover_levels("dnd5e")).blocked_fraction == 1.0


@pytest.mark.parametrize("feats", [False, True])
def test_the_listing_checker_keeps_what_the_full_check_keeps(feats, monkeypatch):
    """``listing.checker`` (the actor's own tests once a listing) keeps exactly the candidates ``Dnd5e.check``
    keeps: the bench skirmish played on, with a controlled mount, a grappled, a prone and an incapacitated actor
    along the way, lists the same with either."""
    import random

    from engine.scene import bench
    from engine.rules.session import Session
    from engine.rules.dnd5e import listing

    real = listing.checker
    s = Session(bench.skirmish_scene(feats), 5)
    rng = random.Random(5)
    seen = set()
    for i in range(150):
        if s.state.over:
            break
        a = s.state.actors[s.current]
        if i == 10:                                   # an incapacitated actor: only end_turn is listed
            a.conditions["stunned"] = ["test"]
        if i == 20:
            a.conditions["prone"] = ["test"]
        fast = list(s.legal_actions())
        monkeypatch.setattr(listing, "checker", lambda rs, session, a: (lambda c: rs.check(session, c)))
        full = list(s.legal_actions())
        monkeypatch.setattr(listing, "checker", real)
        assert fast == full
        seen.update(k for k in ("stunned", "prone", "grappled") if a.has(k))
        s.step(bench.random_action(s, rng))
    assert {"stunned", "prone"} <= seen


def test_the_listing_checker_of_a_controlled_mount_lists_its_few_actions():
    from engine.rules.session import Session
    from engine.rules.dnd5e import listing
    from engine.scene import parse_scene

    scene = parse_scene("""
name = "mount"
ruleset = "dnd5e"
[map]
size = [10, 10, 4]
[[characters]]
id = "rider"
kind = "knight"
side = "red"
at = [2, 2, 0]
[[characters]]
id = "horse"
kind = "giant_eagle"
size = "large"
side = "red"
controlled_mount = true
at = [3, 2, 0]
[[characters]]
id = "foe"
kind = "archer"
side = "blue"
at = [8, 8, 0]
""", "<mount>")
    for seed in range(1, 30):
        s = Session(scene, seed)
        if s.current == "rider":
            break
    assert s.current == "rider"
    s.step({"actor": "rider", "action": "mount", "target": "horse"})
    horse = s.state.actors["horse"]
    assert horse.data["controlled_mount"] and horse.data["rider"] == "rider"
    rs = s.ruleset
    cands = [{"actor": "horse", "action": k} for k in ("dash", "dodge", "hide", "search", "disengage", "end_turn")]
    for _ in range(6):
        if s.current == "horse":
            break
        s.step({"actor": s.current, "action": "end_turn"})
    assert s.current == "horse"
    check = listing.checker(rs, s, horse)
    kept = rs.keep_legal(s, cands, check)
    assert kept == rs.keep_legal(s, cands)
    assert {c["action"] for c in kept} == {"dash", "dodge", "disengage", "end_turn"}


@pytest.mark.parametrize("draws", [0, 1, 3])
def test_a_failed_step_restores_the_dice_kept_at_their_first_draw(draws, monkeypatch):
    """``Dice.undo``: a step that fails after drawing from the generator (or before any draw) leaves the generator
    as it was; the game then goes on exactly as a twin that never tried that step."""
    import random

    from engine.scene import bench
    from engine.rules.session import Session

    s, twin = Session(bench.skirmish_scene(), 2), Session(bench.skirmish_scene(), 2)
    rng, rng2 = random.Random(2), random.Random(2)
    for _ in range(6):
        s.step(bench.random_action(s, rng))
        twin.step(bench.random_action(twin, rng2))
    before = s.fingerprint()
    real = s.ruleset.apply

    def broken(session, act, plan):
        real(session, act, plan)
        for _ in range(draws):
            session.roll("bug", 20, 2)
        raise ZeroDivisionError("a bug found while applying")

    monkeypatch.setattr(s.ruleset, "apply", broken)
    with pytest.raises(ZeroDivisionError):
        s.step({"actor": s.current, "action": "end_turn"})
    monkeypatch.undo()
    assert s.fingerprint() == before == twin.fingerprint()
    assert not s.dice.armed and s.dice.undo is None
    for _ in range(30):
        if s.state.over:
            break
        act = bench.random_action(s, rng)
        assert act == bench.random_action(twin, rng2)
        assert s.step(act).log == twin.step(act).log
    assert s.fingerprint() == twin.fingerprint()


def test_a_search_kept_by_its_inputs_is_the_search_from_scratch():
    """``pathing._SEARCHES`` (issue 26): a flyer high in an open sky has the same box masks, start and costs at
    two places, so the second reach map reuses the first one's search; both equal a search from scratch."""
    from engine.rules import aerial, pathing
    from engine.scene import bench
    from engine.rules.session import Session

    s = Session(bench.skirmish_scene(), 1)
    a = next(o for o in s.state.actors.values() if o.id == "eagle")
    others = {o.id: o.pos for o in s.state.actors.values()}
    for o in s.state.actors.values():           # everyone else out of the way, far below
        if o.id != a.id:
            o.x, o.y, o.layer = (0, 0, 0) if o.side == a.side else (23, 0, 0)
    pathing._SEARCHES.clear()
    a.x, a.y, a.layer, a.flying = 18, 20, 9, True
    r1 = aerial.reach(s, a, budget_m=3.0, fly=True)
    a.x = 19
    r2 = aerial.reach(s, a, budget_m=3.0, fly=True)
    assert r2.dist is r1.dist and r2.box0 != r1.box0
    s.cache.clear()
    pathing._SEARCHES.clear()
    fresh = aerial.reach(s, a, budget_m=3.0, fly=True)
    assert fresh.dist is not r2.dist and np.array_equal(fresh.dist, r2.dist)
    assert np.array_equal(fresh.destination_cells(), r2.destination_cells())
    for o in s.state.actors.values():
        o.x, o.y, o.layer = others[o.id]
