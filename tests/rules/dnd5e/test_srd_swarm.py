"""SRD-41, the bodies that share a space: the Swarm trait (swarm of bats) and Air Form (air elemental), played on
sessions built here (tests/support/rules_helpers.py)."""

from __future__ import annotations

import pytest

from engine.rules.core import Illegal
from rules_helpers import find, make, step

pytestmark = pytest.mark.unit

ARCHER = {"id": "a", "kind": "archer", "side": "blue", "at": [8, 8, 0]}
FLY = {"air_speed": "fly_speed"}
#: a wall across the map at y = 6, with one open voxel at (5, 6, 3)
WALL = [("stone", (0, 6, 0), (11, 6, 2)), ("stone", (0, 6, 3), (4, 6, 3)), ("stone", (6, 6, 3), (11, 6, 3)),
        ("stone", (0, 6, 4), (11, 6, 9))]


def test_srd41_swarm_and_air_form_pass_a_one_voxel_opening():
    """"the swarm can move through any opening large enough for a Tiny bat"; "It can move through a space as narrow
    as 1 inch wide": the swarm of ravens (two layers tall) and the air elemental (Large) fly through the one open voxel of the
    wall; the same swarm without the trait may not."""
    for who, at in (({"id": "s", "srd": "swarm-of-ravens"}, [5, 4, 3]), ({"id": "s", "srd": "air-elemental"}, [4, 3, 3])):
        bats = {**who, "side": "red", "at": at, "flying": True}
        s = make([bats, ARCHER], fill=WALL, options=FLY)
        step(s, "s", "move", to=[at[0], 8, 3])
        assert s.state.actors["s"].pos == (at[0], 8, 3)
    plain = {"id": "s", "srd": "swarm-of-ravens", "side": "red", "at": [5, 4, 3], "flying": True,
             "srd_features": {"swarm": False}}
    s = make([plain, ARCHER], fill=WALL, options=FLY)
    with pytest.raises(Illegal):
        step(s, "s", "move", to=[5, 8, 3])


def test_srd41_swarm_shares_a_space_and_vice_versa():
    """"The swarm can occupy another creature's space and vice versa": it ends its move in the archer's space, then
    the archer walks into the swarm's; Air Form "can enter a hostile creature's space and stop there"."""
    bats = {"id": "s", "srd": "swarm-of-bats", "side": "red", "at": [3, 3, 0], "flying": True}
    guard = {**ARCHER, "id": "g", "at": [9, 3, 0]}
    s = make([bats, ARCHER, guard], options=FLY)
    step(s, "s", "move", to=[8, 8, 0])
    assert s.state.actors["s"].pos == s.state.actors["a"].pos
    step(s, "s", "end_turn")
    step(s, "a", "move", to=[8, 7, 0])
    step(s, "a", "move", to=[8, 8, 0])
    step(s, "a", "end_turn")
    with pytest.raises(Illegal) as e:           # the swarm and the archer there: the archer's body is in the way
        step(s, "g", "move", to=[8, 8, 0])
    assert "occupied by a " in str(e.value)
    plain = {"id": "s", "srd": "swarm-of-bats", "side": "red", "at": [3, 3, 0], "flying": True,
             "srd_features": {"swarm": False}}
    s = make([plain, ARCHER], options=FLY)
    with pytest.raises(Illegal):
        step(s, "s", "move", to=[8, 8, 0])
    air = {"id": "e", "srd": "air-elemental", "side": "red", "at": [3, 3, 0], "flying": True}
    s = make([air, ARCHER], options=FLY)
    step(s, "e", "move", to=[8, 8, 0])
    assert s.state.actors["e"].pos == (8, 8, 0)


def test_srd41_swarm_cannot_regain_hit_points():
    """"The swarm can't regain hit points or gain temporary hit points": the GM's healing and temporary hit points
    are refused (SRD-41), its hit points unchanged; the archer beside it heals."""
    bats = {"id": "s", "srd": "swarm-of-bats", "side": "red", "at": [3, 3, 0], "flying": True}
    s = make([bats, ARCHER], options=FLY)
    step(s, "gm", "damage", target="s", amount=10, type="slashing")
    step(s, "gm", "damage", target="a", amount=5, type="slashing")
    hp = s.state.actors["s"].hp
    step(s, "gm", "heal", target="s", amount=5)
    step(s, "gm", "temp_hp", target="s", amount=5)
    step(s, "gm", "heal", target="a", amount=5)
    assert s.state.actors["s"].hp == hp and s.state.actors["s"].temp_hp == 0
    blocked = [e["why"] for e in s.events if e["type"] == "heal_blocked" and e["rule"] == "SRD-41"]
    assert blocked == ["a swarm can't regain hit points", "a swarm can't gain temporary hit points"]
    assert find(s.events, "heal", who="a")
