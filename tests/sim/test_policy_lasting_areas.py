"""The policies and lasting areas (issue 39): the ``caster`` policy casts Fog Cloud where it blinds the enemy's
archers (``fog_cover``: every line from each archer to the caster's side passes through the sphere), and the rules
then agree -- the archers can no longer shoot; ``aggressive`` ends no move inside a lasting area that would hurt it
when its turn starts (a Cloudkill between it and its foe)."""

from __future__ import annotations

import random

import pytest

from engine.sim.policies import aggressive, fog_cover, resolve
from rules_helpers import make

pytestmark = pytest.mark.unit

FOGGER = {"id": "m", "kind": "mage", "side": "r", "at": [4, 10, 0], "spells": ["fog-cloud"], "level": 5,
          "initiative": 30}
KNIGHT = {"id": "k", "kind": "knight", "side": "r", "at": [5, 12, 0], "initiative": 20, "weapons": ["longsword"]}
ARCHERS = [{"id": f"a{i}", "kind": "archer", "side": "b", "at": [20, 9 + 2 * i, 0], "initiative": 10 - i}
           for i in range(2)]


def _scene(chars, size=(28, 24, 10)):
    return make(chars, size=size, options={"spell_names": "srd"})


def _shots(s, archer, targets):
    """The legal longbow shots of ``archer`` at ``targets`` (its turn)."""
    return [a for a in s.legal_actions(archer) if a["action"] == "attack" and a.get("target") in targets]


def test_the_caster_blinds_two_archers_with_a_fog_cloud_and_the_rules_agree():
    s = _scene([FOGGER, KNIGHT, *ARCHERS])
    act = resolve("engine.sim.policies:caster")(s, s.state.actors["m"], random.Random(1))
    assert act["action"] == "cast" and act["spell"] == "fog-cloud", act
    _, worth = fog_cover(s, s.state.actors["m"])
    assert worth == 2
    s.step(act)
    s.step({"actor": "m", "action": "end_turn"})
    s.step({"actor": "k", "action": "end_turn"})
    assert s.current == "a0"
    assert not _shots(s, "a0", {"m", "k"})                 # heavily obscured: no line to either of them
    before = _scene([FOGGER, KNIGHT, *ARCHERS])             # without the fog the same archer could shoot
    for who in ("m", "k"):
        before.step({"actor": who, "action": "end_turn"})
    assert _shots(before, "a0", {"m", "k"})


def test_no_fog_when_it_would_blind_its_own_archers_as_much():
    """Its own archer stands beside the enemy's: a fog there blinds one of each (worth 0). (A fog hides both ways:
    the knight of the test above has only a sword, or the fog on the archers would blind its crossbow too.)"""
    mine = {"id": "ra", "kind": "archer", "side": "r", "at": [19, 9, 0], "initiative": 25}
    s = _scene([FOGGER, mine, ARCHERS[0]])
    act, worth = fog_cover(s, s.state.actors["m"])
    assert act is None and worth == 0


def test_aggressive_ends_no_move_inside_a_cloudkill():
    cloud = {"id": "c", "kind": "mage", "side": "r", "at": [24, 12, 0], "spells": ["cloudkill"], "level": 9,
             "initiative": 30}
    knight = {"id": "k", "kind": "knight", "side": "b", "at": [2, 10, 0], "initiative": 20, "weapons": ["longsword"]}
    target = {"id": "t", "kind": "archer", "side": "r", "at": [22, 10, 0], "initiative": 10}
    s = _scene([cloud, knight, target])
    s.step({"actor": "c", "action": "cast", "spell": "cloudkill", "at": [10, 10, 0]})
    s.step({"actor": "c", "action": "end_turn"})
    assert s.current == "k"
    k = s.state.actors["k"]
    harmful = s.ruleset.SIM_AIDS["harmful_cells"]
    inside = harmful(s.ruleset, s, k, [[10, 10, 0], [2, 10, 0]])
    assert list(inside) == [True, False]
    act = aggressive(s, k, random.Random(1))
    assert act["action"] == "move", act
    assert not harmful(s.ruleset, s, k, [act["to"]])[0], act
