"""Issue 23 item 9: "several targets for an area spell". While an area spell is composed the window rings every
creature the area would catch and lists them in the preview, by the rules' own answer (the preview's targets:
5e's ``area_targets``, never a copy of the rule); a click on an empty cell aims it at that point; Enter casts it
once, at all of them."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from test_window_player_view_and_panels import OverlayWin

from engine.app import areaspell
from engine.app import scene_prims as SP
from engine.rules.dnd5e import attacks
from engine.rules.dnd5e.data import SPELLS

pytestmark = pytest.mark.unit


def _ready(win):
    """The worker's preview of the composed action, as the window has it a frame later."""
    import json

    act = win.ctl.action()
    key = (win.ctl.state_version, json.dumps(act, sort_keys=True))
    win.jobs.results["preview"] = (key, win.ctl.preview_of(act))


def _fireball_at(win, cell):
    ctl = win.ctl
    assert ctl.choose("cast")
    ctl.pending.params["spell"] = "fireball"
    assert areaspell.point_param(ctl) == "at"
    taken = areaspell.aim(win, {"char": None, "cell": SimpleNamespace(cell=tuple(cell)), "terrain": None})
    assert taken and ctl.action()["at"] == list(cell)
    assert "target" not in ctl.action()          # aimed at a point: as a scene script writes it, no stray target
    _ready(win)


def test_an_area_spell_rings_and_lists_everyone_it_catches_and_casts_once():
    win = OverlayWin("dnd_spells_vs_flyers.toml")
    win.name = lambda cid: win.ctl.state.actors[cid].name
    _fireball_at(win, (12, 6, 5))
    s = win.ctl.session
    mage = s.state.actors["mage"]
    want = attacks.area_targets(s.ruleset, s, mage, SPELLS["fireball"], (12, 6, 5), None)   # the rules' own
    assert len(want) >= 2
    assert areaspell.caught(win) == want
    row = areaspell.row(win)
    assert row.startswith(f"caught by the area ({len(want)}):") and all(win.name(c) in row for c in want)
    rs = win.render_state()
    rings = len(SP.ghost_prims(win, rs).tris)
    win.ctl.cancel()
    assert len(SP.ghost_prims(win, rs).tris) < rings                  # the rings were the area's
    _fireball_at(win, (12, 6, 5))
    before = {c: s.state.actors[c].hp for c in want}
    act = win.ctl.action()
    act["rolls"] = {"damage": 3, "save": [2, 19]}
    win.ctl.step(act)                                                 # one confirm: one action
    assert [a["action"] for a in s.actions] == ["cast"]
    assert all(s.state.actors[c].hp < before[c] for c in want)        # every one caught took its damage


def test_a_single_target_spell_lists_no_area_and_aim_leaves_attacks_alone():
    win = OverlayWin("dnd_spells_vs_flyers.toml")
    win.name = lambda cid: cid
    ctl = win.ctl
    ctl.choose("cast")
    ctl.pending.params.update(spell="fire_bolt", target="h1")
    _ready(win)
    assert areaspell.caught(win) == [] and areaspell.row(win) is None
    ctl.cancel()
    ctl.choose("attack")
    assert areaspell.point_param(ctl) is None              # an attack's voxel is not a point of origin
    assert not areaspell.aim(win, {"char": None, "cell": SimpleNamespace(cell=(3, 3, 0)), "terrain": None})


def test_a_click_on_a_character_aims_the_spell_at_it():
    win = OverlayWin("dnd_spells_vs_flyers.toml")
    win.name = lambda cid: cid
    ctl = win.ctl
    _fireball_at(win, (12, 6, 5))
    assert areaspell.aim(win, {"char": SimpleNamespace(char="h3"), "cell": None, "terrain": None})
    act = ctl.action()
    assert act["target"] == "h3" and "at" not in act and act["spell"] == "fireball" and ctl.selected == "mage"
    assert not areaspell.aim(win, {"char": SimpleNamespace(char="mage"), "cell": None, "terrain": None})
