"""Issue 40 ("the GM's table, third round"): the small items, each a test that failed before its fix. Headless:
the window's sections and modes over the real rules core with a fake window (tests/app/test_window_modes.py's)
and a HUD that lays text out at 9 px a character (test_window_player_view_and_panels.py's PrintHud)."""

from __future__ import annotations

import pytest

from test_window_player_view_and_panels import OverlayWin, PrintHud

from engine.app.logtext import namer
from engine.app.sections.base import Layout

pytestmark = pytest.mark.unit


def _win(scene="showcase.toml"):
    win = OverlayWin(scene)
    win.hud = PrintHud()
    win.log_view, win.panels, win.panel_rows = {}, {}, {}
    win.named = lambda text: namer(win.ctl.state.actors)(text)      # the window's own renaming of ids
    win.size_px = (1280, 720)
    win.mouse = (0, 0)
    win.hud.hit = lambda x, y: None
    return win


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_item3_blocks_lists_every_block_by_its_own_name(size):
    """;blocks said `knight` as "Sir Aldric" and `wyvern_rider` as "Morrow on her wyvern" (the message line renamed
    the ids of characters on the table) and stopped after about nine of fourteen (three lines)."""
    from engine.app.gmline import gm_line
    from engine.app.sections.bottom import Status
    from engine.rules.statblocks import about

    win = _win()
    gm_line(win.ctl, "blocks")
    L = Layout(size[0], size[1], 21, False, pw=300, left_bottom=400, by=size[1] - 80, rw=358)
    Status().build(win, L)
    drawn = [t for _x, _y, t in win.hud.placed]
    rows = about("dnd5e")
    assert len(rows) == 14
    for name, line in rows:
        assert any(t.startswith(f"{name}: ") for t in drawn), (name, drawn)
    assert not [t for t in drawn if t.startswith(("Sir Aldric:", "Morrow on her wyvern:"))], drawn
    assert not win.hud.cut, win.hud.cut
    assert all(0 <= y and y + 21 <= size[1] for _x, y, _t in win.hud.placed)


class PanelHud(PrintHud):
    """PrintHud with the real HUD's panel (it wraps a row too wide for it again)."""

    from engine.app.hud import Hud as _Hud

    panel = _Hud.panel


MISS = ("Oda attacks Kestrel with light crossbow: 2 + 4 (Dex +2, proficiency +2) = 6 vs AC 13: misses; disadvantage: "
        "beyond the weapon's normal range, the target is prone and more than 1.5 m away [AIR-17, DND-16, DND-32]")


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_item2_the_log_keeps_to_its_rectangle_and_wraps_at_word_boundaries(size):
    """A long miss made the log cover the action buttons at both sizes and left "=" or "13:" alone on a line."""
    from engine.app import hud as H
    from engine.app.sections.right import EventLog

    W, Hh = size
    win = _win()
    win.hud = PanelHud()
    win.hud.line = 18
    win.log_lines = [(f"line {i}: Kestrel moves [29, 31, 3] -> [33, 29, 3]", H.FG) for i in range(5)] + \
        [(MISS, H.FG), (MISS.replace("Oda", "Ilse"), H.FG)]
    rw = int(min(380, W * 0.28))
    by = Hh - 2 * 32 - 6
    L = Layout(W, Hh, 21, False, pw=300, left_bottom=400, by=by, rw=rw, ry=120)
    EventLog().build(win, L)
    texts = [(y, t) for _x, y, t in win.hud.placed]
    assert any("misses" in t for _y, t in texts)
    assert all(y + 18 <= by for y, _t in texts), [(y, t) for y, t in texts if y + 18 > by]   # above the buttons
    body = [t.strip() for _y, t in texts[1:]]
    assert not [t for t in body if len(t) <= 3], body          # no "=" or "13:" alone on a line
    assert not win.hud.cut, win.hud.cut
