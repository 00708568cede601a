"""The ``caster`` policy (issue 39): the expected damage of a spell over everyone its area catches, weighed
against the best attack; through ``aerie simulate``'s own policy lookup (module:function)."""

from __future__ import annotations

import random

import pytest

from engine.sim.policies import resolve
from rules_helpers import make

pytestmark = pytest.mark.unit

MAGE = {"id": "m", "kind": "mage", "side": "r", "at": [2, 2, 0], "spells": ["fireball", "fire-bolt"], "level": 9}


def _pick(chars):
    s = make([MAGE, *chars], size=(16, 16, 10), options={"spell_names": "srd"})
    return s, resolve("engine.sim.policies:caster")(s, s.state.actors["m"], random.Random(1))


def test_a_cluster_gets_the_fireball_and_its_preview_says_why():
    s, act = _pick([{"id": f"g{i}", "kind": "guard", "side": "b", "at": [9 + i % 2, 2 + i // 2, 0]} for i in range(4)])
    assert act["action"] == "cast" and act["spell"] == "fireball"
    exp = s.preview(act)["expected_damage"]
    assert len(exp) == 4 and all(v > 14 for v in exp.values())        # 8d6 (28 mean), DC 15 against Dex +1


def test_no_fireball_on_its_own_side():
    """A lone foe beside the caster's friend: the fireball would burn the friend, so the fire bolt (or a weapon)."""
    s, act = _pick([{"id": "g", "kind": "guard", "side": "b", "at": [9, 2, 0]},
                    {"id": "k", "kind": "knight", "side": "r", "at": [9, 3, 0]}])
    assert not (act["action"] == "cast" and act["spell"] == "fireball"), act
