"""The recovery file (engine/app/recovery.py: the save written when the window meets an error) is the whole game:
the actions, and the fog-of-war memory the GM's Ctrl+S saves under the save's ``fog`` key (issue 40 item 13), so
a load of it gives back what each side had seen. Pure: the window is a stand-in with the fields recovery reads."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from engine.app import fog, recovery
from engine.app.controller import Controller
from engine.app.gmline import gm_line
from engine.scene import load_scene

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]


def test_the_recovery_file_carries_the_fog_memory_and_a_load_gives_it_back(tmp_path, monkeypatch):
    monkeypatch.setenv("AERIE_SAVE", str(tmp_path / "game.save.json"))
    scene = load_scene(str(ROOT / "scenes" / "showcase.toml"))
    ctl = Controller(scene, 7)
    fog.update(ctl)
    vess = ctl.state.actors["ground_archer"]
    start = (vess.x, vess.y, vess.layer)
    gm_line(ctl, "place Vess 2 2 0")                   # out of red's sight: red remembers where it saw her
    fog.update(ctl)
    assert ctl.fog.remembered("red")["ground_archer"] == start

    win = SimpleNamespace(ctl=ctl, scene=scene, recovered_at=0)
    p = recovery.save_recovery(win)
    assert p == recovery.recovery_path(scene) == tmp_path / "game.recovery.save.json"
    data = json.loads(p.read_text())
    assert data["fog"] == ctl.fog.to_json() and data["actions"] == ctl.session.actions

    back = Controller(scene, 7)                        # what the next start's Y does (files.load_save)
    assert back.load(p), back.message
    assert back.session.actions == ctl.session.actions
    assert back.fog == ctl.fog and back.fog.remembered("red")["ground_archer"] == start
    assert recovery.save_recovery(win) is None         # the same number of actions: not written again
