"""Every SRD flyer, put in a scene against four archers, plays random and `aggressive` fights to the end with no
error (engine.sim.fight.play: an error is a row with ``error``). A cheap default runs a few flyers; the full 104,
20 random and 20 aggressive fights each, run under the ``slow`` marker with AERIE_FUZZ=1."""


import pytest
from tiers import full

from engine.rules.dnd5e.srd_blocks import bestiary
from engine.scene import parse_scene
from engine.sim.fight import Plan, play

pytestmark = pytest.mark.unit

FLYERS = sorted(i for i, c in bestiary().items() if c["fly_speed_m"] > 0)
FEW = ["young-red-dragon", "giant-eagle", "vrock", "blood-hawk", "air-elemental", "roc"]


def scene_for(sid: str):
    size = bestiary()[sid]["size"]
    X = 30
    chars = [f'[[characters]]\nid = "f"\nsrd = "{sid}"\nside = "sky"\nat = [2, 2, 6]\nflying = true\n']
    for i, (x, y) in enumerate(((20, 20), (22, 20), (20, 22), (22, 22))):
        chars.append(f'[[characters]]\nid = "a{i}"\nkind = "archer"\nside = "ground"\nat = [{x}, {y}, 0]\n')
    text = (f'name = "{sid} against four archers"\nruleset = "dnd5e"\nseed = 1\n[map]\nsize = [{X}, {X}, 14]\n'
            f'[options]\nair_speed = "fly_speed"\n' + "\n".join(chars))
    assert size
    return parse_scene(text, f"<{sid}>")


def _fights(sid: str, runs: int) -> None:
    sc = scene_for(sid)
    for policy in ("random", "aggressive"):
        plan = Plan(sc, {"sky": policy, "ground": policy}, max_rounds=12)
        for i in range(runs):
            row, _ = play(plan, 7, i)
            assert row["outcome"] != "error", (sid, policy, row)


@pytest.mark.parametrize("sid", FEW)
def test_a_few_flyers_fight_to_the_end(sid):
    assert sid in FLYERS
    _fights(sid, 2)


@pytest.mark.slow
@pytest.mark.parametrize("sid", FLYERS if full() else [])
def test_every_flyer_fights_to_the_end(sid):
    """4,160 fights, 61 s on two cores (measured 2026-12-06): the long profiles only (`make slow`, `make fuzz`);
    `make test` plays the few above."""
    _fights(sid, 20)


def test_there_are_104_flyers():
    assert len(FLYERS) == 104


def _dragon_against(archers, ally=None):
    import random

    from engine.rules.session import Session
    from engine.sim.policies import resolve

    chars = ['[[characters]]\nid = "f"\nsrd = "young-red-dragon"\nside = "sky"\nat = [6, 9, 2]\nflying = true\n'
             'initiative = 30\n']
    for i, (x, y) in enumerate(archers):
        chars.append(f'[[characters]]\nid = "a{i}"\nkind = "archer"\nside = "ground"\nat = [{x}, {y}, 0]\n'
                     f'initiative = {20 - i}\n')
    if ally:
        chars.append(f'[[characters]]\nid = "friend"\nkind = "scout"\nside = "sky"\nat = [{ally[0]}, {ally[1]}, 0]\n')
    s = Session(parse_scene('name = "t"\nruleset = "dnd5e"\n[map]\nsize = [24, 24, 12]\n' + "\n".join(chars), "<t>"), 1)
    return resolve("aggressive")(s, s.state.actors["f"], random.Random(1))


def test_the_aggressive_dragon_breathes_when_the_breath_beats_its_multiattack():
    """Four archers in its cone: the breath's expected damage (56 on a failed save, half on a success, x4) beats
    three attacks; with a friend of its own in the cone it bites and claws instead."""
    assert _dragon_against([(9, 9), (9, 10), (10, 9), (10, 10)])["action"] == "creature_action"
    assert _dragon_against([(8, 11)], ally=(9, 11))["action"] == "attack"
