"""Issue 23 item 9: "a 'save first' choice when work would be dropped". Quitting (Ctrl+Q) or closing the window
with actions since the last save asks "save first? (y)es / (n)o / (c)ancel": C (or Esc) keeps the window, Y saves
and then quits, N quits without saving. Ctrl+O's picker asks the same before opening something else (Y opens,
S saves first, N keeps: tests/test_window_modes.py)."""

from __future__ import annotations

import json
import time

import pytest

from test_window import SCENE, App, display  # noqa: F401  (the display fixture)
from test_window_modes import FakeWin

from pyglet.window import key

from engine.app.modes.main import MainMode
from engine.app.modes.prompts import SaveFirst, YesNo


def _win(tmp_path, monkeypatch):
    monkeypatch.setenv("AERIE_SAVE", str(tmp_path / "game.save.json"))
    win = FakeWin()
    win.quits = 0

    def quit_():
        win.quits += 1
    win.quit = quit_
    return win


@pytest.mark.unit
def test_quit_with_nothing_unsaved_quits_at_once(tmp_path, monkeypatch):
    win = _win(tmp_path, monkeypatch)
    win.key(key.Q, key.MOD_CTRL)
    assert win.quits == 1 and isinstance(win.modes.top, MainMode)


@pytest.mark.unit
def test_quit_with_unsaved_work_asks_save_first_cancel_no_yes(tmp_path, monkeypatch):
    win = _win(tmp_path, monkeypatch)
    win.ctl.step({"actor": win.ctl.session.current, "action": "end_turn"})
    win.key(key.Q, key.MOD_CTRL)
    top = win.modes.top
    assert isinstance(top, SaveFirst) and isinstance(top, YesNo) and win.quits == 0
    assert "1 unsaved action(s)" in top.text and "(y)es / (n)o / (c)ancel" in top.text
    win.key(key.C)                                   # cancel: the window stays, nothing saved
    assert win.quits == 0 and isinstance(win.modes.top, MainMode)
    assert not (tmp_path / "game.save.json").exists() and len(win.ctl.session.actions) == 1
    win.key(key.Q, key.MOD_CTRL)
    win.key(key.ESCAPE)                              # Esc cancels too
    assert win.quits == 0 and isinstance(win.modes.top, MainMode)
    win.key(key.Q, key.MOD_CTRL)
    win.key(key.Y)                                   # yes: saved, then quit
    assert win.quits == 1 and json.loads((tmp_path / "game.save.json").read_text())["actions"]
    win.ctl.step({"actor": win.ctl.session.current, "action": "end_turn"})
    win.key(key.Q, key.MOD_CTRL)
    win.key(key.N)                                   # no: quit without saving
    assert win.quits == 2 and len(json.loads((tmp_path / "game.save.json").read_text())["actions"]) == 1


@pytest.mark.window
def test_ctrl_q_in_the_window_asks_save_first(display, tmp_path):  # noqa: F811
    scene = tmp_path / "duel.toml"
    scene.write_text(SCENE)
    app = App(display, scene, tmp_path)
    try:
        app.idle()
        app.key("semicolon")
        app.xdo("type", "--delay", "25", "roll 2d6 gust")
        time.sleep(0.1)
        app.key("Return")
        app.wait(lambda s: len(s["actions"]) == 1, 20, "the GM roll")
        app.key("ctrl+q")
        st = app.wait(lambda s: s["window"]["prompt"] and "Save first?" in s["window"]["prompt"], 20, "the prompt")
        assert "1 unsaved action(s)" in st["window"]["prompt"]
        app.key("c")
        app.wait(lambda s: s["window"]["prompt"] is None, 20, "cancelled")
        assert app.proc.poll() is None, "cancel closed the window"
        app.key("ctrl+q")
        app.wait(lambda s: s["window"]["prompt"] is not None, 20, "the prompt again")
        app.key("y")
        app.proc.wait(20)
        saved = json.loads((tmp_path / "game.save.json").read_text())
        assert [a["action"] for a in saved["actions"]] == ["gm_roll"]
    finally:
        app.close()


@pytest.mark.unit
def test_starting_a_new_game_on_the_gm_line_asks_save_first(tmp_path, monkeypatch):
    """``;start PATH.toml`` (the table as a new scene, played from round 1) drops the game's actions: it asks first."""
    import shutil
    from pathlib import Path

    from engine.app.gmtable import gm_command

    src = Path(__file__).resolve().parents[1] / "scenes" / "dnd_two_weapons.toml"
    shutil.copy(src, tmp_path / "duel.toml")
    monkeypatch.setenv("AERIE_SAVE", str(tmp_path / "game.save.json"))
    win = FakeWin(str(tmp_path / "duel.toml"))
    win.ctl.step({"actor": win.ctl.session.current, "action": "end_turn"})
    scene = win.ctl.scene
    gm_command(win, f"start {tmp_path / 'next.toml'}")
    assert isinstance(win.modes.top, SaveFirst) and win.ctl.scene is scene
    win.key(key.C)
    assert win.ctl.scene is scene and not (tmp_path / "next.toml").exists()
    gm_command(win, f"start {tmp_path / 'next.toml'}")
    win.key(key.N)
    assert win.ctl.scene is not scene and (tmp_path / "next.toml").is_file(), win.said
