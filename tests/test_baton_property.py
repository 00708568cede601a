"""Property test for the baton ruleset: random small scenes (with flyers and difficult terrain), random legal
actions, invariants after every step: Life within bounds, nobody in a solid voxel, no walker at rest in the air,
illegal actions change nothing, exactly one side holds the baton, nobody acts twice in a side's turn unless the
baton was kept for it (BAT-08), replay and save/load give the same state."""

from __future__ import annotations

import random

import pytest

from engine.rules import aerial
from engine.rules.core import Session, dumps
from engine.world.scene import parse_scene
from scenegen import random_fills, refused_unchanged

pytestmark = pytest.mark.unit

KINDS = ["knight", "archer", "brigand", "harpy", "wolf", "skeleton", "griffon"]
FLYERS = ("harpy", "griffon")


def random_scene_text(rng: random.Random) -> str:
    X, Y, Z = rng.randint(7, 10), rng.randint(7, 10), rng.randint(6, 8)
    fills, solid = random_fills(rng, X, Y, Z, ["stone", "roof", "mud", "ice", "coals", "snow", "wood"])
    opts = []
    if rng.random() < 0.5:
        opts.append(f'air12_vs_bat47 = "{rng.choice(["bat47", "air12"])}"')
    if rng.random() < 0.3:
        opts.append("air17_overrides_elevation = false")
    if rng.random() < 0.3:
        opts.append('keep_prefers = "turn"')
    if rng.random() < 0.2:
        opts.append('upkeep = "start_of_turn"')
    lines = ['name = "random baton"', 'ruleset = "baton"', f"seed = {rng.randint(0, 10**6)}"]
    if opts:
        lines += ["[options]"] + opts
    lines += ["[map]", f"size = [{X}, {Y}, {Z}]", f"fill = [{', '.join(fills)}]"]
    taken = set()
    n = 0
    for side in ("party", "foes"):
        for _ in range(rng.randint(1, 3)):
            kind = rng.choice(KINDS)
            big = kind == "griffon"
            fp, h = (2, 3) if big else (1, 2)
            flyer = kind in FLYERS
            for _try in range(50):
                x, y = rng.randrange(X - fp + 1), rng.randrange(Y - fp + 1)
                ground = max([z + 1 for (sx, sy, z) in solid if x <= sx < x + fp and y <= sy < y + fp] + [0])
                layer = ground + (rng.randint(1, 3) if flyer and rng.random() < 0.6 else 0)
                cells = {(x + i, y + j, layer + k) for i in range(fp) for j in range(fp) for k in range(h)}
                if layer + h > Z or cells & solid or cells & taken:
                    continue
                taken |= cells
                n += 1
                lines += ["[[characters]]", f'id = "c{n}"', f'side = "{side}"', f"at = [{x}, {y}, {layer}]",
                          f'kind = "{kind}"']
                if big:
                    lines += ['size = "large"']
                if flyer and layer > ground:
                    lines += ["flying = true"]
                if side == "party":
                    lines += ["pc = true"]
                if rng.random() < 0.2:
                    lines += ["counterattack = true"]
                if rng.random() < 0.2:
                    lines += ['items = { potion_healing = 1, potion_vigor = 1 }']
                if rng.random() < 0.15:
                    lines += ["surprised = true"]
                if rng.random() < 0.1:
                    lines += [f'conditions = ["{rng.choice(["slow", "shaken", "confused", "overloaded", "prone"])}"]']
                if big and rng.random() < 0.6:          # a rider on the griffon (BAT-42)
                    mount = f"c{n}"
                    n += 1
                    lines += ["[[characters]]", f'id = "c{n}"', f'side = "{side}"', f"at = [{x}, {y}, {layer}]",
                              'kind = "knight"', f'mount = "{mount}"', "flying = true"]   # carried
                    if side == "party":
                        lines += ["pc = true"]
                break
    return "\n".join(lines) + "\n"


def check_invariants(s: Session):
    try:
        _check_invariants(s)
    except AssertionError as e:
        tail = "\n".join(dumps(x) for x in s.events[-25:])
        raise AssertionError(f"{e}\nafter {s.actions[-1] if s.actions else 'the start'}\n{tail}") from None


def _check_invariants(s: Session):
    rs = s.ruleset
    st = s.state
    for a in st.actors.values():
        assert 0 <= a.hp <= a.max_hp, (a.id, a.hp, a.max_hp)
        assert a.hp == max(0, a.data["max_life"] - sum(w["severity"] for w in a.data["wounds"])), a.id   # BAT-26
        assert a.max_hp == a.data["max_life"], a.id
        assert 0 <= a.data["vigor"] <= a.hp, (a.id, a.data["vigor"], a.hp)                         # BAT-20
        assert 0 <= a.data["protection"] <= a.data["protection_max"], a.id
        if a.dead:
            assert a.hp == 0 or a.has("petrified"), a.id
        assert aerial.body_fits(s, a, a.x, a.y, a.layer), f"{a.id} inside a solid voxel at {a.pos}"
        if a.data.get("mounted_on"):
            assert a.pos == st.actors[a.data["mounted_on"]].pos, f"{a.id} rides but is not on its mount"
            continue
        if a.flying:
            assert a.can_fly and not a.dead and rs.fall_reason(s, a) is None, a.id
            assert not aerial.is_supported(s, a), f"{a.id} marked flying while standing"
        else:
            assert aerial.is_supported(s, a), f"{a.id} at rest in the air at {a.pos}"
    d = st.data
    if d["combat"] and not st.over:
        h = st.actors[d["holder"]]
        assert st.current == h.id, (st.current, h.id)
        assert d["side"] == h.side, (d["side"], h.id)               # exactly one side holds the baton
        assert not h.dead and not h.has("petrified"), f"the holder {h.id} cannot act"
    else:
        assert d["holder"] is None, d["holder"]


def baton_log_ok(s: Session):
    """Replaying the events: a character gets the baton again within its side's turn only after a kept pass."""
    got = set()
    for e in s.events:
        if e["type"] == "side_turn":
            got = set()
        elif e["type"] == "baton":
            if e["to"] in got:
                assert e["kept"], f"{e['to']} got the baton twice in one turn without a kept pass: {e}"
            got.add(e["to"])


def mutate(rng: random.Random, s: Session, act: dict) -> dict:
    bad = dict(act)
    X, Y, Z = s.world.size
    ids = list(s.state.actors) + ["nobody"]
    r = rng.random()
    if r < 0.2:
        bad = {"actor": act["actor"], "action": "move", "to": [rng.randint(-1, X), rng.randint(-1, Y), rng.randint(-1, Z)]}
    elif r < 0.4:
        bad = {"actor": act["actor"], "action": rng.choice(["attack", "grab", "trip", "push", "disarm", "charge"]),
               "target": rng.choice(ids)}
    elif r < 0.55:
        bad = {"actor": act["actor"], "action": "pass", "to": rng.choice(ids)}
    elif r < 0.7:
        bad["actor"] = rng.choice(ids)
    elif r < 0.85:
        bad = {"actor": act["actor"], "action": rng.choice(["dash", "stand", "break_free", "resist_poison", "dismount",
                                                            "drop", "rest", "treat", "day"])}
    else:
        bad["rolls"] = {"test": rng.choice([0, 13, 99])}
    return bad


def play_random(seed: int, games: int):
    rng = random.Random(seed)
    total_steps = 0
    illegal_checked = 0
    passes = kept = 0
    for game in range(games):
        scene = parse_scene(random_scene_text(rng), f"<random baton {game}>")
        s = Session(scene, rng.randint(0, 10**6))
        check_invariants(s)
        for _ in range(160):
            if s.state.over or not s.state.data["combat"]:
                break
            acts = s.legal_actions()
            assert acts, "the holder always has something to do (at least pass)"
            assert all(a["actor"] in (s.current, s.state.actors[s.current].data.get("mounted_on")) for a in acts)
            assert any(a["action"] == "pass" for a in acts)
            # pass less often than acting, so fights develop
            nonpass = [a for a in acts if a["action"] != "pass"]
            act = rng.choice(nonpass) if nonpass and rng.random() < 0.7 else rng.choice([a for a in acts if a["action"] == "pass"])
            if rng.random() < 0.3:
                if refused_unchanged(s, mutate(rng, s, act)):
                    illegal_checked += 1
                else:
                    check_invariants(s)
                    total_steps += 1
                    continue
            evs = s.step(act)
            for e in evs:
                if e["type"] == "pass":
                    passes += 1
                    kept += bool(e["kept"])
            total_steps += 1
            check_invariants(s)
        baton_log_ok(s)
        again = Session(scene, s.seed)
        for a in s.actions:
            again.step(a)
        assert again.fingerprint() == s.fingerprint()
        assert [dumps(e) for e in again.events] == [dumps(e) for e in s.events]
        loaded = Session.load(s.save(), scene=scene)
        assert loaded.fingerprint() == s.fingerprint()
    return total_steps, illegal_checked, passes, kept


def test_random_baton_play_invariants():
    total_steps, illegal_checked, passes, kept = play_random(6060, 20)
    assert total_steps >= 2000
    assert illegal_checked >= 300
    assert passes > 100 and 0 < kept < passes
