"""The window's panels handed a table, not the window (issue 40, the shape; engine/app/panels.py): a click, the
wheel or a drop on a section returns an intent and changes nothing until the window performs it; what a section
lays out comes back through the table's ``drawn`` record; the players' screen performs nothing."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from test_window_player_view_and_panels import OverlayWin
from test_window_table_round3 import PanelHud

from engine.app import hud as H
from engine.app import intents as I
from engine.app import perform as P
from engine.app.panels import Panels, absorb, table
from engine.app.perform import perform
from engine.app.sections import default
from engine.app.sections.base import Layout
from engine.app.sections.bottom import Actions
from engine.app.sections.left import TopBar, TurnOrder
from engine.app.sections.right import EventLog

pytestmark = pytest.mark.unit

SECTIONS = Path(__file__).resolve().parents[2] / "engine" / "app" / "sections"


def _win():
    win = OverlayWin()
    win.hud = PanelHud()
    win.hud.line = 18
    win.log_view, win.panels, win.panel_rows = {}, {}, {}
    return win


def test_a_click_on_a_panel_changes_nothing_until_the_window_performs_it():
    win = _win()
    t = table(win)
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.ctl = None                                              # read-only: the table is not the window
    got = TopBar().on_click(t, "help", None)
    assert got == I.ToggleHelp() and not win.vstate.help
    perform(win, got)
    assert win.vstate.help
    assert TopBar().on_click(t, "undo", None) == I.Control("undo", wait=True)
    cid = next(c for c in win.ctl.state.order if c != win.ctl.selected)
    got = TurnOrder().on_click(t, "select", cid)
    assert got == I.Control("select", (cid,)) and win.ctl.selected != cid
    perform(win, got)
    assert win.ctl.selected == cid
    said = len(win.said)
    got = Actions().on_click(t, "greyed", "dash")
    assert isinstance(got, I.Say) and got.kind == "error" and got.text.startswith("dash: not now")
    assert len(win.said) == said
    perform(win, got)
    assert win.said[-1] == got.text and win.ctl.message == (got.text, "error")


def test_the_players_screen_performs_no_click_the_gms_window_does():
    win = _win()
    win.hud.over = lambda x, y: ("help", None)                    # the top bar's F1 button under the cursor
    panels = Panels(default())
    win.gm = object()                                             # the players' screen (F4): it only shows
    assert panels.click(win, 10, 10) and not win.vstate.help
    win.gm = None
    assert panels.click(win, 10, 10) and win.vstate.help
    win.hud.over = lambda x, y: None                              # off the HUD: the map's click
    assert not panels.click(win, 10, 10) and win.vstate.help


def test_the_log_scrolls_by_intent_and_its_layout_comes_back_through_drawn():
    win = _win()
    win.log_lines = [(f"line {i}", H.FG) for i in range(30)]
    L = Layout(1280, 720, 21, False, pw=300, left_bottom=400, by=650, rw=358, ry=120)
    t = table(win)
    EventLog().build(t, L)
    assert win.log_view == {} and t.drawn.log_view["lines"] == 30 and "log" in t.drawn.panels
    absorb(win, t.drawn)
    area = win.log_view["area"]
    assert win.panels["log"][:4] == (area[0], area[1], area[2], area[1] + 21 + 4)
    inside, outside = ((area[0] + area[2]) / 2, (area[1] + area[3]) / 2), (area[0] - 5, area[1])
    log = EventLog()
    assert log.on_scroll(table(win), *outside, 1) is None
    assert log.on_scroll(table(win), *inside, 1) == I.ScrollLog(3) and win.vstate.log_scroll == 0
    win.hud.over = lambda x, y: ("log", None)
    assert Panels(default()).scroll(win, *inside, 1) and win.vstate.log_scroll == 3
    win.vstate.log_scroll = 500                                   # beyond the oldest line: kept within, by drawn
    t = table(win)
    EventLog().build(t, L)
    assert win.vstate.log_scroll == 500 and 0 < t.drawn.log_scroll < 30
    absorb(win, t.drawn)
    assert win.vstate.log_scroll == t.drawn.log_scroll == win.log_view["scroll"]


def test_every_intent_a_section_returns_is_the_modes_and_is_performed():
    """The sections' intents come from the one intents module the modes use (engine/app/intents.py; no second one
    in engine/app/sections), and the one performer knows each (an unknown one is an error, not silence)."""
    used: set[str] = set()
    for f in sorted(SECTIONS.glob("*.py")):
        for n in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(n, ast.ImportFrom) and n.module and n.module.endswith("intents"):
                assert n.module == "engine.app.intents", (f.name, n.module)
                used |= {a.name for a in n.names}
    kinds = {getattr(I, n) for n in used} - {I.Intent}
    assert kinds == {I.Say, I.Control, I.GmStep, I.ToggleHelp, I.ScrollLog, I.PickSpell, I.CompendiumRow,
                     I.OutlookSide, I.HideOutlook, I.TokenHudAct, I.OpenChosen}
    assert all(issubclass(k, I.Intent) for k in kinds) and kinds <= set(P._BY_TYPE)
    assert not (SECTIONS / "intents.py").exists()
    with pytest.raises(TypeError):
        perform(_win(), object())
