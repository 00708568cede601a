"""Baton doors: the doors of imported maps (``[[objects]]`` with ``door = true``) open in baton too, as the minor
action (BAT-05; option ``door_action = "major"``: the major action, BAT-04). Before, a closed door blocked a baton
fight for good: the ruleset had no action for it."""

from __future__ import annotations

import pytest

from engine.rules.core import Illegal
from engine.rules.session import Session
from engine.scene import parse_scene

pytestmark = pytest.mark.unit


def scene(options: str = "", locked: bool = False) -> Session:
    text = f"""
name = "baton door"
ruleset = "baton"
seed = 3
initiative_starts = "k"
[options]
{options}
[map]
size = [8, 8, 4]
fill = [{{ material = "grass", from = [0, 0, 0], to = [7, 7, 0] }},
        {{ material = "stone", from = [4, 0, 1], to = [4, 7, 3] }}]
[[objects]]
id = "door"
name = "the oak door"
from = [4, 3, 1]
to = [4, 3, 2]
material = "wood"
door = true
{"lock = { dc = 12 }" if locked else ""}
[[characters]]
id = "k"
kind = "knight"
side = "a"
at = [3, 3, 1]
[[characters]]
id = "b"
kind = "knight"
side = "b"
at = [6, 3, 1]
"""
    return Session(parse_scene(text, "<baton door>"), 3)


def test_a_baton_character_opens_a_door_next_to_it_with_the_minor_action_and_walks_through():
    s = scene()
    acts = s.legal_actions("k")
    assert {"actor": "k", "action": "open_door", "target": "door"} in list(acts)
    pv = s.preview({"actor": "k", "action": "open_door", "target": "door"})
    assert pv["legal"] and "minor" in pv["takes"]
    evs = s.step({"actor": "k", "action": "open_door", "target": "door"}).log
    opened = [e for e in evs if e["type"] == "door_opened"]
    assert opened and opened[0]["rule"] == "BAT-05"
    assert not s.world.voxels[1:3, 3, 4].any()                     # the way is clear
    assert s.state.turn["minor"] is not None                         # the minor action is spent
    with pytest.raises(Illegal) as e:
        s.step({"actor": "k", "action": "open_door", "target": "door"})
    assert "already" in str(e.value)
    s.step({"actor": "k", "action": "move", "to": [5, 3, 1]})          # through the doorway


def test_the_other_reading_spends_the_major_action_and_a_locked_door_must_be_broken():
    s = scene('door_action = "major"')
    evs = s.step({"actor": "k", "action": "open_door", "target": "door"}).log
    assert [e for e in evs if e["type"] == "door_opened"][0]["rule"] == "BAT-04"
    assert s.state.turn["major"] is not None and s.state.turn["minor"] is None
    s = scene(locked=True)
    assert not [a for a in s.legal_actions("k") if a["action"] == "open_door"]
    with pytest.raises(Illegal) as e:
        s.step({"actor": "k", "action": "open_door", "target": "door"})
    assert "locked" in str(e.value) and e.value.path == "target"


def test_a_door_out_of_reach_or_no_door_is_refused_naming_the_target():
    s = scene()
    s.state.actors["k"].x = 1
    with pytest.raises(Illegal) as e:
        s.step({"actor": "k", "action": "open_door", "target": "door"})
    assert "next to" in str(e.value)
    with pytest.raises(Illegal) as e:
        s.step({"actor": "k", "action": "open_door", "target": "gate"})
    assert "no door 'gate'" in str(e.value) and "door" in str(e.value)
