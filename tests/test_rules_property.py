"""Property test: random scenes, thousands of random legal actions, invariants after every step."""

from __future__ import annotations

import random

import pytest

from engine.rules import aerial
from engine.rules.bench import random_action
from engine.rules.core import Session, dumps
from engine.world.scene import parse_scene
from scenegen import random_fills, refused_unchanged

pytestmark = pytest.mark.unit

KINDS = ["archer", "knight", "harpy", "rogue", "priest", "mage", "guard", "duelist", "giant_eagle", "griffon",
         "flying_scout"]


def random_scene_text(rng: random.Random) -> str:
    X, Y, Z = rng.randint(8, 12), rng.randint(8, 12), rng.randint(6, 9)
    fills, solid = random_fills(rng, X, Y, Z, ["stone", "roof", "brick", "wood"])
    lines = ['name = "random"', 'ruleset = "dnd5e"', f"seed = {rng.randint(0, 10**6)}", "[map]",
             f"size = [{X}, {Y}, {Z}]", f"fill = [{', '.join(fills)}]",
             "[options]", f'diagonal = "{rng.choice(["5e", "5e", "euclidean", "5-10-5"])}"']
    taken = set()
    n = 0
    for side in ("red", "blue"):
        for _ in range(rng.randint(1, 3)):
            kind = rng.choice(KINDS)
            big = kind in ("giant_eagle", "griffon")
            fp = 2 if big else 1
            h = 3 if big else 2
            flyer = kind in ("harpy", "giant_eagle", "griffon", "flying_scout")
            for _try in range(50):
                x, y = rng.randrange(X - fp + 1), rng.randrange(Y - fp + 1)
                ground = max([z + 1 for (sx, sy, z) in solid if x <= sx < x + fp and y <= sy < y + fp] + [0])
                layer = ground + (rng.randint(0, 3) if flyer and rng.random() < 0.6 else 0)
                cells = {(x + i, y + j, layer + k) for i in range(fp) for j in range(fp) for k in range(h)}
                if layer + 1 > Z or cells & solid or cells & taken or any(c[2] >= Z for c in cells if c[2] < layer + 1):
                    continue
                taken |= cells
                n += 1
                lines += ["[[characters]]", f'id = "c{n}"', f'side = "{side}"', f"at = [{x}, {y}, {layer}]"]
                if kind == "flying_scout":
                    lines += ['kind = "scout"', "fly_speed_m = 12"]
                else:
                    lines += [f'kind = "{kind}"']
                if big:
                    lines += ['size = "large"']
                if flyer and layer > ground:
                    lines += ["flying = true"]
                if rng.random() < 0.2:
                    lines += ['items = ["potion_of_healing"]']
                if rng.random() < 0.3:
                    lines += ["pc = true"]
                break
    return "\n".join(lines) + "\n"


def check_invariants(s: Session):
    rs = s.ruleset
    for a in s.state.actors.values():
        assert 0 <= a.hp <= a.max_hp, (a.id, a.hp, a.max_hp)
        assert a.temp_hp >= 0
        if a.dead:
            assert a.hp == 0
        assert aerial.body_fits(s, a, a.x, a.y, a.layer), f"{a.id} inside a solid voxel at {a.pos}"
        riding = a.data.get("mounted_on")
        if riding:
            m = s.state.actors[riding]
            assert a.pos == m.pos
            continue
        if a.flying:
            assert a.can_fly, f"{a.id} flies without a fly speed"
            assert not a.dead and rs.fall_reason(s, a) is None, f"{a.id} aloft but {rs.fall_reason(s, a)}"
            assert not aerial.is_supported(s, a), f"{a.id} marked flying while standing"
        else:
            assert aerial.is_supported(s, a), f"{a.id} at rest in the air at {a.pos}"


def mutate(rng: random.Random, s: Session, act: dict) -> dict:
    bad = dict(act)
    X, Y, Z = s.world.size
    r = rng.random()
    ids = list(s.state.actors) + ["nobody"]
    if r < 0.25:
        bad["action"] = "move"
        bad["to"] = [rng.randint(-1, X), rng.randint(-1, Y), rng.randint(-1, Z)]
    elif r < 0.45:
        bad["action"] = rng.choice(["attack", "grapple", "shove", "help", "cast"])
        bad["target"] = rng.choice(ids)
        if bad["action"] == "cast":
            bad["spell"] = rng.choice(["fire_bolt", "fireball", "cure_wounds", "nothing"])
    elif r < 0.6:
        bad["actor"] = rng.choice(ids)
    elif r < 0.75:
        bad["action"] = rng.choice(["dash", "dodge", "disengage", "hide", "stand", "escape", "dismount", "ready"])
    elif r < 0.85:
        bad["to"] = "up"
        bad["action"] = "move"
    else:
        bad["rolls"] = {"attack": rng.choice([0, 21, "x"])}
    return bad


def test_random_play_invariants():
    rng = random.Random(20260)
    total_steps = 0
    illegal_checked = 0
    for game in range(24):
        scene = parse_scene(random_scene_text(rng), f"<random {game}>")
        s = Session(scene, rng.randint(0, 10**6))
        check_invariants(s)
        for _ in range(140):
            if s.state.over:
                break
            fp = s.fingerprint()
            acts = s.legal_actions()
            assert acts and all(a["actor"] == s.current for a in acts)
            act = random_action(s, rng)
            s.preview(act)
            assert s.fingerprint() == fp, "listing or previewing actions changed the state"
            if rng.random() < 0.3:
                if refused_unchanged(s, mutate(rng, s, act)):
                    illegal_checked += 1
                else:
                    check_invariants(s)
                    total_steps += 1
                    continue
            s.step(act)        # every listed action must be legal
            total_steps += 1
            check_invariants(s)
        # the log replays to the same state, byte for byte
        again = Session(scene, s.seed)
        for a in s.actions:
            again.step(a)
        assert again.fingerprint() == s.fingerprint()
        assert [dumps(e) for e in again.events] == [dumps(e) for e in s.events]
        loaded = Session.load(s.save(), scene=scene)
        assert loaded.fingerprint() == s.fingerprint()
    assert total_steps >= 2000
    assert illegal_checked >= 300


MOUNTED = """
name = "mounted skirmish"
ruleset = "dnd5e"
seed = 5
[map]
size = [12, 12, 8]
fill = [{ material = "roof", from = [5, 5, 0], to = [7, 7, 2] }]
[[characters]]
id = "rider"
kind = "wyvern_rider"
side = "blue"
at = [1, 1, 0]
mount = "griffon"
[[characters]]
id = "griffon"
kind = "griffon"
size = "large"
side = "blue"
at = [1, 1, 0]
controlled_mount = true
[[characters]]
id = "eagle_rider"
kind = "scout"
side = "red"
at = [9, 9, 3]
flying = true
mount = "eagle"
[[characters]]
id = "eagle"
kind = "giant_eagle"
size = "large"
side = "red"
at = [9, 9, 3]
flying = true
[[characters]]
id = "knight"
kind = "knight"
side = "red"
at = [6, 6, 3]
[[characters]]
id = "mage"
kind = "mage"
side = "blue"
at = [2, 9, 0]
"""


def test_random_play_with_mounts():
    rng = random.Random(77)
    scene = parse_scene(MOUNTED, "<mounted>")
    steps = 0
    for game in range(8):
        s = Session(scene, game)
        for _ in range(120):
            if s.state.over:
                break
            act = random_action(s, rng)
            s.step(act)
            steps += 1
            check_invariants(s)
        again = Session(scene, game)
        for a in s.actions:
            again.step(a)
        assert again.fingerprint() == s.fingerprint()
    assert steps > 300
