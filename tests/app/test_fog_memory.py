"""Issue 40 item 13: fog of war with memory. What a side has seen stays drawn, dimmed, where it last saw it, in
that side's view, and is saved with the game. Pure: the memory is made from the one player filter (what the side
sees now) after each change of the rules state; a save carries it and a load gives it back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.app import fog
from engine.app.controller import Controller
from engine.app.gmline import gm_line
from engine.app.viewstate import player_filter
from engine.scene import load_scene

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]


def test_item13_what_a_side_saw_stays_drawn_dimmed_and_is_saved_with_the_game(tmp_path):
    scene = load_scene(str(ROOT / "scenes" / "showcase.toml"))
    ctl = Controller(scene, 7)
    fog.update(ctl)
    vess = ctl.state.actors["ground_archer"]
    start = (vess.x, vess.y, vess.layer)
    assert player_filter(ctl.session, "red", ctl.state_version, {}).shows("ground_archer")   # red sees Vess
    gm_line(ctl, "place Vess 2 2 0")                   # out of red's sight (a corner behind the houses)
    fog.update(ctl)
    pf = player_filter(ctl.session, "red", ctl.state_version, {})
    assert not pf.shows("ground_archer")              # not drawn as she is now
    assert ctl.fog.remembered("red")["ground_archer"] == start      # remembered where red last saw her
    assert ("ground_archer", start) in fog.ghosts(ctl.fog, "red", pf.shows, ctl.state.actors)
    assert fog.ghosts(ctl.fog, "blue", player_filter(ctl.session, "blue", ctl.state_version, {}).shows,
                      ctl.state.actors) == []         # blue sees its own Vess: nothing of hers is a memory
    pr = fog.fog_prims(ctl.fog, "red", pf.shows, ctl.state.actors, scene.world.cell_m)
    cubes = pr.cell_array()
    cm = scene.world.cell_m
    assert len(cubes) == vess.height_layers and (cubes[:, 7] < 0.5).all()     # dimmed: translucent grey
    assert {(int(x // cm), int(y // cm)) for x, y, _z in cubes[:, :3]} == {start[:2]}
    assert [lb.text for lb in pr.labels] == ["Vess (last seen)"]
    assert fog.fog_prims(ctl.fog, None, lambda c: True, ctl.state.actors, cm).cell_array().size == 0   # GM: none

    path = tmp_path / "game.save.json"                # saved with the game, and back
    ctl.save(path)
    assert json.loads(path.read_text())["fog"]["red"]["ground_archer"][0] == [0, *start]
    back = Controller(scene, 7)
    assert back.load(path), back.message
    assert back.fog == ctl.fog and back.fog.remembered("red")["ground_archer"] == start

    data = json.loads(path.read_text())                # a damaged fog key: one line naming it, nothing changed
    data["fog"] = {"red": {"ground_archer": [[0, 1, "x", 0]]}}
    bad = tmp_path / "bad.save.json"
    bad.write_text(json.dumps(data))
    other = Controller(scene, 7)
    assert not other.load(bad)
    assert "fog.red.ground_archer" in other.message[0] and not other.session.actions, other.message

    ctl.undo()                                         # undone: Vess back in sight, what came after forgotten
    fog.update(ctl)
    assert ctl.fog.remembered("red")["ground_archer"] == start
    assert all(r[0] == 0 for rows in ctl.fog.sightings.values() for r in sum(rows.values(), []))
