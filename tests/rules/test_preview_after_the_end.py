"""A preview asked once the fight is over is refused as a step is ("the fight is over"), never an error: the 5e
check named the character whose turn it was, and at the end there is none (`make fuzz`, seed 13: a KeyError)."""

from __future__ import annotations

import pytest

from rules_helpers import make

pytestmark = pytest.mark.unit


def test_a_preview_after_the_end_is_a_refusal():
    s = make([{"id": "a", "kind": "guard", "side": "red", "at": [1, 1, 0]},
              {"id": "b", "kind": "guard", "side": "blue", "at": [2, 1, 0], "hp": 1}], size=(8, 8, 4), session_seed=1)
    s.step({"actor": "a", "action": "attack", "target": "b", "rolls": {"attack": 19, "damage": 6}})
    assert s.state.over and s.current is None
    for act in ({"actor": "a", "action": "attack"}, {"actor": "b", "action": "end_turn"},
                {"actor": "a", "action": "attack", "target": "b"}):
        p = s.preview(act)
        assert p["legal"] is False and "the fight is over" in p["reason"], p
