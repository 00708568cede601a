"""A listing is read-only: making a creature's legal actions (its recharge and uses checked for each stat-block
action) leaves the state as it was, so a fight replayed from its actions alone (``aerie run``, ``aerie bench rules``'
replay) has the same state as the fight that listed them (issue 44, found by ``aerie bench rules --dragon``)."""

from __future__ import annotations

import pytest

from rules_helpers import make

pytestmark = pytest.mark.unit


def test_listing_a_dragons_actions_leaves_the_state_as_it_was():
    chars = [{"id": "dragon", "srd": "adult-red-dragon", "side": "blue", "flying": True, "at": [4, 10, 4],
              "initiative": 30},
             {"id": "a", "kind": "archer", "side": "red", "at": [14, 10, 0], "initiative": 1}]
    s = make(chars, size=(20, 20, 12))
    assert s.current == "dragon"
    before = s.fingerprint()
    acts = list(s.legal_actions())
    assert any(a["action"] == "creature_action" for a in acts)
    assert s.fingerprint() == before
    act = next(a for a in acts if a["action"] == "dodge")
    listed = make(chars, size=(20, 20, 12))
    listed.legal_actions()
    listed.step(act)
    alone = make(chars, size=(20, 20, 12))
    alone.step(act)
    assert listed.fingerprint() == alone.fingerprint()
