"""Issue 23 item 9: "a 'save first' choice when work would be dropped". Quitting (Ctrl+Q) or closing the window
with actions since the last save asks "save first? (y)es / (n)o / (c)ancel": C (or Esc) keeps the window, Y saves
and then quits, N quits without saving. Ctrl+O's picker asks the same before opening something else (Y opens,
S saves first, N keeps: tests/app/test_window_modes.py)."""

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

    src = Path(__file__).resolve().parents[2] / "scenes" / "dnd_two_weapons.toml"
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


def _ctrl_o(win):
    from engine.app.perform import open_chooser

    open_chooser(win)
    win.key(key.ENTER)                               # the picker's first entry
    return win.modes.top


@pytest.mark.unit
def test_ctrl_o_with_unsaved_work_asks_save_first_like_quitting(tmp_path, monkeypatch):
    """Ctrl+O's unsaved-work prompt was Y (open) / S (save first) / N (keep) while quitting and ``;start`` ask
    "save first? (y)es / (n)o / (c)ancel": it is the same SaveFirst prompt now -- Y saves then opens, N opens
    without saving, C or Esc keeps the game (S still saves first, as it did)."""
    import shutil
    from pathlib import Path

    src = Path(__file__).resolve().parents[2] / "scenes"
    shutil.copy(src / "dnd_two_weapons.toml", tmp_path / "other.toml")
    monkeypatch.chdir(tmp_path)
    save = tmp_path / "game.save.json"
    for keep in (key.C, key.ESCAPE):
        win = _win(tmp_path, monkeypatch)
        win.ctl.step({"actor": win.ctl.session.current, "action": "end_turn"})
        scene = win.ctl.scene
        top = _ctrl_o(win)
        assert isinstance(top, SaveFirst) and "(y)es / (n)o / (c)ancel" in top.text, top.text
        assert "other.toml" in top.text and "1 unsaved action(s)" in top.text
        assert "N: open other.toml without saving" in top.hint()
        win.key(keep)
        assert isinstance(win.modes.top, MainMode) and win.ctl.scene is scene and len(win.ctl.session.actions) == 1
        assert not save.exists()
    _ctrl_o(win)
    win.key(key.N)                                   # no: open it without saving
    assert isinstance(win.modes.top, MainMode) and win.ctl.scene is not scene and not save.exists()
    assert win.ctl.scene.source == str((tmp_path / "other.toml").resolve())
    for yes in (key.Y, key.S):
        win = _win(tmp_path, monkeypatch)
        win.ctl.step({"actor": win.ctl.session.current, "action": "end_turn"})
        scene = win.ctl.scene
        _ctrl_o(win)                                 # the saves come first in the picker: open the scene file
        assert win.modes.top.text.startswith("open other.toml"), win.modes.top.text
        win.key(yes)                                 # yes (or S): saved, then opened
        assert win.ctl.scene is not scene and len(json.loads(save.read_text())["actions"]) == 1
        save.unlink()
        (tmp_path / "game.save.log.jsonl").unlink()


@pytest.mark.unit
def test_ctrl_o_save_first_never_overwrites_the_save_being_opened(tmp_path, monkeypatch):
    """Y on opening the very file Ctrl+S writes would save over it and then open what was just saved (the
    game as it is, not the one chosen): it opens the save as it was, unsaved work dropped, and says so."""
    monkeypatch.chdir(tmp_path)
    save = tmp_path / "game.save.json"
    win = _win(tmp_path, monkeypatch)
    for _ in range(3):
        win.ctl.step({"actor": win.ctl.session.current, "action": "end_turn"})
    win.key(key.S, key.MOD_CTRL)
    win.ctl.undo()
    win.ctl.undo()                                   # two undone: redo steps, unsaved work
    top = _ctrl_o(win)                               # the default save is the picker's first entry
    assert isinstance(top, SaveFirst) and "game.save.json" in top.text and "redo" in top.text, top.text
    win.key(key.Y)
    assert len(json.loads(save.read_text())["actions"]) == 3
    assert len(win.ctl.session.actions) == 3 and isinstance(win.modes.top, MainMode), win.said
    assert any("not saved" in s and "game.save.json" in s for s in win.said), win.said
