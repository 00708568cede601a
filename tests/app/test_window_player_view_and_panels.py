"""Issue 23's fixes in the window, each a test that failed before its fix. The headless ones drive the window's
pieces (overlays, sections, the player filter) with a fake window over the real rules core; the Xvfb ones run
``aerie play`` and drive it with X input."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_window import display  # noqa: F401  (the display fixture)
from test_window_modes import FakeWin

from engine.app import scene_prims as SP
from engine.app.jobs import Workers
from engine.app.panels import table
from engine.app.perform import perform
from engine.render.state import from_session

ROOT = Path(__file__).resolve().parents[2]


class OverlayWin(FakeWin):
    """A fake window with what the overlays read: the workers' results, the overlay cache, the player filter."""

    def __init__(self, scene_name="showcase.toml"):
        super().__init__(scene_name)
        self.jobs = Workers()
        self.ov_cache: dict = {}
        self.drawn_maps: dict = {}
        self.table_tags: list = []

    def player_view(self):
        return self.seats.view(self.ctl)           # the window's own (engine/app/seats.py)

    def render_state(self):
        return from_session(self.scene, self.ctl.session)


def seen_rs(win):
    """The render state as the window draws it in the player view: only what the side sees."""
    rs = win.render_state()
    pf = win.player_view()
    return type(rs)([c for c in rs.characters if pf.shows(c.id)])


@pytest.mark.unit
def test_item1_player_view_with_the_selected_character_out_of_sight_draws(monkeypatch):
    """Issue 23 item 1: ;place Ilse 20 22 5, ;place knight 24 24 6, a turn-order row clicked, F3, F3 -> KeyError
    in ghost_prims (rs.get(sel)) and the window exited. The selected character out of the side's sight is not
    drawn (no ring, no sight lines from it), and nothing raises."""
    win = OverlayWin()
    for act in ({"actor": "gm", "action": "gm_place", "target": "roof_archer", "to": [20, 22, 5]},
                {"actor": "gm", "action": "gm_place", "target": "knight", "to": [24, 24, 6]}):
        win.ctl.step(act)
    assert len(win.ctl.session.actions) == 2, win.ctl.message
    sides = list(dict.fromkeys(a.side for a in win.ctl.state.actors.values()))
    hidden = None
    for side in sides:                                 # F3, F3: each side's view in turn
        win.vstate.player_side = side
        pf = win.player_view()
        hid = [a.id for a in win.ctl.state.actors.values() if not pf.shows(a.id)]
        if hid:
            hidden = (side, hid[0])
            break
    assert hidden is not None, "some side must not see one of the two the GM placed"
    side, cid = hidden
    win.vstate.player_side = side
    win.ctl.select(cid)                                # the turn-order row clicked before F3
    for name in ("engagement", "sightlines"):
        win.vstate.set_overlay(name, True)
    rs = seen_rs(win)
    assert cid not in {c.id for c in rs.characters}
    pr = SP.ghost_prims(win, rs)                       # raised KeyError before the fix
    prims, notes = SP.overlay_prims(win, rs)
    assert not [n for n in notes if "KeyError" in n or cid in n], notes
    assert pr is not None                              # drawn; and no ring of the hidden one:
    win.vstate.player_side = None
    gm_rings = len(SP.ghost_prims(win, win.render_state()).tris)
    win.vstate.player_side = side
    assert len(SP.ghost_prims(win, seen_rs(win)).tris) < gm_rings


GUARD = r'''
import json, os, sys
import pyglet
pyglet.options["shadow_window"] = False
from engine.app import scene_prims
from engine.app.modes.prompts import YesNo
from engine.app.window import PlayWindow
from engine.scene import load_scene

scene = load_scene(sys.argv[1])
win = PlayWindow(scene, 7, (640, 360))
win.apply(win.ctl.step, {"actor": "gm", "action": "gm_roll", "dice": "2d6", "label": "gust"})
real = scene_prims.ghost_prims
def broken(*a):
    raise KeyError("boom")
scene_prims.ghost_prims = broken
for _ in range(3):                     # three frames in error: each dropped, the window kept
    win.tick(1 / 30)
    win.on_draw()
    win.flip()
out = {"message": win.ctl.message, "alive": not win.has_exit}
scene_prims.ghost_prims = real
win.on_draw()
out["after"] = win.ctl.message[1]
win.quit()
again = PlayWindow(scene, 7, (640, 360))      # the next start offers the recovery file
yn = again.modes.find(YesNo)
out["offer"] = yn.text if yn else None
from pyglet.window import key
again.on_key_press(key.Y, 0)
out["loaded"] = len(again.ctl.session.actions)
again.quit()
print("RESULT " + json.dumps(out))
'''


@pytest.mark.window
@pytest.mark.slow
def test_item1_an_error_in_a_frame_keeps_the_window_and_saves_the_work(display, tmp_path):
    """Issue 23 item 1: an error in a frame ended the window and the GM's work was lost. Now the frame is
    dropped, the error said in red, the actions saved to a recovery file that the next start offers."""
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, DISPLAY=display, AERIE_SAVE=str(tmp_path / "game.save.json"),
               PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, "-c", GUARD, str(ROOT / "scenes" / "showcase.toml")], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=240)
    line = next((x for x in r.stdout.splitlines() if x.startswith("RESULT ")), None)
    assert line, (r.returncode, r.stdout[-2000:], r.stderr[-3000:])
    out = json.loads(line[7:])
    text, kind = out["message"]
    assert kind == "error" and "KeyError" in text and "boom" in text, text
    rec = tmp_path / "game.recovery.save.json"
    assert str(rec) in text and out["alive"]
    assert out["offer"] and "game.recovery.save.json" in out["offer"]
    assert out["loaded"] == 1                           # the GM's roll is back
    assert r.stderr.count("Traceback") == 1             # printed once, not every frame


class FakeHud:
    """A HUD that lays text out at 7 px a character and records what is written."""

    line = 15

    def __init__(self):
        self.texts, self.rects, self.blocks, self.panels = [], [], [], []

    def box(self, *a):
        pass

    def block(self, *a):
        self.blocks.append(a)

    def width(self, t):
        return len(t) * 7

    def text(self, x, y, t, col=None, max_w=None):
        self.texts.append(t)
        return len(t) * 7

    def wrap(self, t, w):
        return [t]

    def panel(self, x, y, w, title, rows, title_col=None, max_rows=None):
        self.panels.append((title, [r if isinstance(r, str) else r[0] for r in rows]))
        return y + 20 * (len(rows) + 1)


def _player_win():
    win = OverlayWin()
    win.hud = FakeHud()
    win.log_view, win.panels, win.panel_rows = {}, {}, {}
    return win


@pytest.mark.unit
def test_item5_players_see_enemies_as_unhurt_bloodied_down():
    """Issue 23 item 5: the players saw their enemies' exact HP. In a side's view an enemy's health is a word
    (unhurt / hurt / bloodied / down) in the turn order, the selected panel and the tokens; the GM's view and the
    side's own characters keep the numbers; the GM can reveal them (Shift+F3)."""
    from engine.app.sections.base import Layout
    from engine.app.sections.left import Selected, TurnOrder

    win = _player_win()
    win.ctl.step({"actor": "gm", "action": "gm_set", "target": "harpy_low", "key": "hp", "value": 3})
    assert win.ctl.state.actors["harpy_low"].hp == 3, win.ctl.message
    foe_side = win.ctl.state.actors["harpy_low"].side
    side = next(a.side for a in win.ctl.state.actors.values() if a.side != foe_side)
    L = Layout(1280, 720, 18, False, state=win.ctl.state, pw=300)
    win.vstate.player_side = side
    assert win.player_view().shows("harpy_low")
    rows = {r[3]: r[2] for r in TurnOrder().rows(table(win), L)}
    assert rows["harpy_low"].startswith("bloodied"), rows["harpy_low"]
    assert "3/" not in rows["harpy_low"]
    own = next(a for a in win.ctl.state.actors.values() if a.side == side)
    assert f"{own.hp}/{own.max_hp}" in rows[own.id]                     # their own: the numbers
    win.ctl.select("harpy_low")
    text = " ".join(t for t, _c in Selected().rows(table(win), win.ctl.state.actors["harpy_low"]))
    assert "bloodied" in text and "3/" not in text, text
    win.vstate.player_side = None                                      # the GM: the numbers
    rows = {r[3]: r[2] for r in TurnOrder().rows(table(win), L)}
    assert "3/" in rows["harpy_low"]
    win.vstate.player_side = side
    win.vstate.reveal_hp = True                                        # the GM reveals
    rows = {r[3]: r[2] for r in TurnOrder().rows(table(win), L)}
    assert "3/" in rows["harpy_low"]


@pytest.mark.unit
def test_the_player_view_shows_no_selected_panel_of_whom_it_cannot_see():
    """The selected panel named a character the side on screen cannot see, with its hit points, AC and layer,
    when the GM had it selected (F3, or the players' screen following the GM's selection)."""
    from engine.app.sections.base import Layout
    from engine.app.sections.left import Selected

    win = _player_win()
    win.ctl.select("harpy_low")
    L = Layout(1280, 720, 18, False, state=win.ctl.state, pw=300)
    Selected().build(table(win), L)
    assert win.hud.panels and win.hud.panels[-1][0] == "Selected"           # the GM's view: the panel
    foe = win.ctl.state.actors["harpy_low"].side
    side = next(a.side for a in win.ctl.state.actors.values() if a.side != foe)
    win.vstate.player_side = side
    win.vstate.hidden = frozenset({"harpy_low"})                           # hidden from the players (token HUD)
    assert not win.player_view().shows("harpy_low")
    win.hud.panels.clear()
    Selected().build(table(win), L)
    assert not win.hud.panels, win.hud.panels
    assert not any("harpy" in t.lower() for t in win.hud.texts), win.hud.texts
    win.vstate.hidden = frozenset()
    Selected().build(table(win), L)                                              # seen again: the panel again
    assert win.hud.panels and win.hud.panels[-1][0] == "Selected"


@pytest.mark.unit
def test_the_player_view_names_no_unseen_character_whose_turn_it_is():
    """The top bar said "round 1, Ilse's turn" in the view of a side that cannot see Ilse (hidden by the GM)."""
    from engine.app.sections.base import Layout
    from engine.app.sections.left import TopBar

    win = _player_win()
    win.hud.button_width = lambda label, hotkey="": len(label) * 7 + 16
    win.hud.button = lambda x, y, label, ident, **kw: x + len(label) * 7 + 16
    cur = win.ctl.state.current
    name = win.name(cur)
    L = Layout(1280, 720, 18, False, state=win.ctl.state)
    TopBar().build(table(win), L)
    assert any(f"{name}'s turn" in t for t in win.hud.texts), win.hud.texts        # the GM's view
    own = win.ctl.state.actors[cur].side
    win.vstate.player_side = next(a.side for a in win.ctl.state.actors.values() if a.side != own)
    win.vstate.hidden = frozenset({cur})
    assert not win.player_view().shows(cur)
    win.hud.texts.clear()
    TopBar().build(table(win), L)
    assert not any(name in t for t in win.hud.texts), win.hud.texts
    assert any("unseen character's turn" in t for t in win.hud.texts), win.hud.texts


@pytest.mark.unit
def test_item5_players_see_no_table_rolls_and_no_event_count():
    """Issue 23 item 5: the players' log showed the GM's table rolls and the event count."""
    from engine.app.sections.base import Layout
    from engine.app.sections.right import EventLog
    from engine.app.window import PlayWindow

    win = _player_win()
    win.ctl.step({"actor": "gm", "action": "gm_roll", "dice": "2d6+3", "label": "gust"})
    assert len(win.ctl.session.actions) == 1, win.ctl.message
    PlayWindow._rebuild_log(win)
    assert any("gust" in e[0] for e in win.log_lines)
    L = Layout(1280, 720, 18, False, state=win.ctl.state, rw=380, ry=40, by=600)
    EventLog().build(table(win), L)
    title, rows = win.hud.panels[-1]
    assert "events" in title and any("gust" in r for r in rows)        # the GM's screen
    win.vstate.player_side = next(iter(win.ctl.state.actors.values())).side
    EventLog().build(table(win), L)
    title, rows = win.hud.panels[-1]
    assert "events" not in title, title
    assert not any("gust" in r or "table roll" in r or r.startswith("GM") for r in rows), rows


@pytest.mark.unit
def test_item4_the_overlays_read_the_session_world_after_the_wall_breaks():
    """Issue 23 item 4: once the low wall was shot down the preview said 0/36 blocked while the sight-line overlay
    still drew 18 red lines and "cover: half" (it read the scene's voxels). Every overlay reads the session's."""
    from engine.rules.registry import cover_levels
    from engine.world.cover import cover_between

    win = OverlayWin("objects_low_wall.toml")
    s = win.ctl.session
    a, b = s.state.actors["ground_archer"], s.state.actors["brann"]
    assert cover_between(s.world, a.body(), b.body(), cover_levels("dnd5e")).level == "half"
    win.ctl.step({"actor": "ground_archer", "action": "attack", "target": "wall", "rolls": {"attack": 19, "damage": 8}})
    s = win.ctl.session
    assert s.state.objects["wall"]["destroyed"], win.ctl.message
    rules = cover_between(s.world, a.body(), b.body(), cover_levels("dnd5e"))
    assert rules.level == "none" and sum(rules.blocked) == 0
    win.ctl.select("ground_archer")
    win.vstate.set_overlay("sightlines", True)
    win.ctl.hover = b.pos
    rs = win.render_state()
    pr, notes = SP.overlay_prims(win, rs)
    caption = [lb.text for lb in pr.labels if lb.text.startswith("cover:")]
    assert caption == [f"cover: none (0/{len(rules.blocked)} blocked)"], caption
    from engine.render.overlays import BLOCKED

    assert not [seg for seg in pr.xray if tuple(seg[2]) == tuple(BLOCKED)], "red sight lines through the broken wall"


class BoxHud(FakeHud):
    """FakeHud that keeps where each text went; its line is the real HUD's at 1280 x 720 (18 px)."""

    line = 18

    def __init__(self):
        super().__init__()
        self.placed = []

    def text(self, x, y, t, col=None, max_w=None):
        self.placed.append((x, y, t))
        return super().text(x, y, t, col, max_w)


@pytest.mark.unit
def test_item7_the_picker_fits_a_720_high_window_and_names_the_scenes(monkeypatch):
    """Issue 23 item 7: Ctrl+O's picker ran off a 720-high window and listed bare paths."""
    from engine.app.modes.prompts import Chooser
    from engine.app.perform import open_chooser
    from engine.app.sections.base import Layout
    from engine.app.sections.modals import ChooserPanel

    monkeypatch.chdir(ROOT)
    win = OverlayWin()
    win.size_px = (1280, 720)
    open_chooser(win)
    ch = win.modes.find(Chooser)
    assert len(ch.paths) > 25
    for i in (0, len(ch.paths) - 1):                   # the first entry highlighted, then the last
        ch.i = i
        win.hud = BoxHud()
        ChooserPanel().build(table(win), Layout(1280, 720, 18, False))
        assert win.hud.rects, "no rows"
        assert all(0 <= r[1] and r[3] <= 720 for r in win.hud.rects), "rows off the window"
        assert all(0 <= y and y + 18 <= 720 for _x, y, _t in win.hud.placed), "text off the window"
        assert any(r[4] == ("open", i) for r in win.hud.rects), "the highlighted entry is not shown"
    texts = " ".join(t for _x, _y, t in win.hud.placed)
    assert "Town square" in texts and "/scenes/" not in texts     # the showcase by its name, no bare paths


class PrintHud(BoxHud):
    """9 px a character at the full print (DejaVu Sans at the HUD's 15 px is about that), narrower when smaller;
    it records each text's room (max_w) so a test sees a cut."""

    def __init__(self):
        super().__init__()
        self.cut = []

    def width(self, t, size=None):
        return len(t) * 9 * ((size or self.line) / self.line)

    def wrap(self, t, w, size=None):
        words, lines, cur = t.split(" "), [], ""
        for wd in words:
            nxt = (cur + " " + wd) if cur else wd
            if self.width(nxt, size) <= w or not cur:
                cur = nxt
            else:
                lines.append(cur)
                cur = wd
        return lines + ([cur] if cur else [])

    def text(self, x, y, t, col=None, max_w=None, size=None):
        if max_w is not None and self.width(t, size) > max_w + 0.5:
            self.cut.append(t)
        self.placed.append((x, y, t))
        return self.width(t, size)


@pytest.mark.unit
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_item7_f1_help_is_not_cut(size):
    """Issue 23 item 7: F1's help was cut ("right / middle dra.", "(AIR-.")."""
    from engine.app.modes.main import help_rows
    from engine.app.sections.base import Layout
    from engine.app.sections.modals import HelpPanel

    win = OverlayWin()
    win.hud = PrintHud()
    win.vstate.help = True
    HelpPanel().build(table(win, help_rows), Layout(size[0], size[1], 21, False))
    assert not win.hud.cut, f"cut: {win.hud.cut[:4]}"
    assert all(0 <= y and y + 18 <= size[1] for _x, y, _t in win.hud.placed), "text off the window"
    drawn = " ".join(t for _x, _y, t in win.hud.placed)
    for k, d in help_rows():
        assert k in drawn and (not d or d.split(" ")[-1] in drawn), k


@pytest.mark.unit
def test_item7_an_error_said_big_is_whole_and_clear_of_the_turn_order():
    """Issue 23 item 7: the error caption covered the turn order and was cut at 1280."""
    from engine.app.sections.base import Layout
    from engine.app.sections.captions import Toast

    win = OverlayWin()
    win.hud, win.big = PrintHud(), PrintHud()
    win.big.line = 27
    text = ("attack: not now - Kestrel has already used its action this turn, and Shrike is out of reach: "
            "6 m of movement left for a climb of 8 m (AIR-07, DND-12)")
    win.toast = (text, 0.0, "error")
    L = Layout(1280, 720, 21, False, pw=300, rw=358, bar_h=26)
    Toast().build(table(win), L)
    placed = win.big.placed + win.hud.placed
    assert not win.big.cut and not win.hud.cut, (win.big.cut, win.hud.cut)
    assert " ".join(t for _x, _y, t in placed) == text                 # all of it, in order
    assert all(x >= L.pw + 8 and x + win.hud.width(t) <= L.W - L.rw for x, _y, t in win.hud.placed)
    assert all(x >= L.pw + 8 for x, _y, _t in win.big.placed)


@pytest.mark.unit
def test_an_empty_message_said_big_draws_nothing_and_does_not_raise():
    """A key's effect cleared to "" reached the toast: its wrap has no line, and max() of nothing raised in the
    frame (seen in aerie bench window's output; the frame guard kept the window)."""
    from engine.app.sections.base import Layout
    from engine.app.sections.captions import Toast

    win = OverlayWin()
    win.hud, win.big = PrintHud(), PrintHud()
    win.big.line = 27
    L = Layout(1280, 720, 21, False, pw=300, rw=358, bar_h=26)
    for text in ("", "   "):
        win.toast = (text, 0.0, "info")
        assert not Toast().visible(table(win))
        Toast().build(table(win), L)
        assert not win.big.placed and not win.hud.placed


@pytest.mark.unit
def test_item7_the_map_overlays_have_legends_saying_against_whom():
    """Issue 23 item 7: the threat map had no legend or note, the cover map no legend and no "against whom"."""
    from engine.app.sections.base import Layout
    from engine.app.sections.legend import Legend

    win = OverlayWin()
    win.hud = PrintHud()
    win.ctl.select("harpy_low")
    win.vstate.set_overlay("cover", True)
    win.vstate.set_overlay("threat", True)
    Legend().build(table(win), Layout(1280, 720, 21, False, rw=358, ry=40))
    drawn = " ".join(t for _x, _y, t in win.hud.placed)
    assert "against harpy_low" in drawn and "Cover map" in drawn        # the fake window names by id
    assert "Threat map" in drawn and "side blue" in drawn and "sight)" in drawn
    for label in ("none", "half", "three-quarters", "safe", "1", "2", "3", "4+"):
        assert label in drawn.split(" ") or label in drawn, label
    assert not win.hud.cut


class ButtonHud(PrintHud):
    def button_width(self, label, hotkey=""):
        return self.width(label) + 16

    def button(self, x, y, label, ident, on=False, enabled=True, hotkey=""):
        w = self.button_width(label)
        self.rects.append((x, y, x + w, y + self.line + 10, ident))
        self.placed.append((x, y, label))
        return x + w


@pytest.mark.unit
def test_item9_a_right_click_opens_the_token_hud_hp_conditions_hide_remove():
    """Issue 23 item 9: no token HUD on a right click. Each of its buttons is a recorded GM action (or, for hide,
    the players' view)."""
    from types import SimpleNamespace

    from engine.app.modes.tokenhud import TokenHud, open_at
    from engine.app.sections.base import Layout
    from engine.app.sections.tokenhud import TokenHudPanel

    win = OverlayWin()
    win.hud = ButtonHud()
    win.token_boxes, win.panels = {}, {}
    assert open_at(win.table, {"char": SimpleNamespace(char="wall_archer"), "cell": None})
    assert isinstance(win.modes.top, TokenHud)
    panel = TokenHudPanel()
    assert panel.visible(table(win))
    panel.build(table(win), Layout(1280, 720, 21, False, bar_h=26))
    ids = [r[4] for r in win.hud.rects]
    assert ("tokhud", ("hp", -5)) in ids and ("tokhud", ("cond", "prone")) in ids
    assert all(0 <= r[0] and r[2] <= 1280 and 0 <= r[1] and r[3] <= 720 for r in win.hud.rects)
    brann = win.ctl.state.actors["wall_archer"]
    perform(win, panel.on_click(table(win), "tokhud", ("hp", -5)))
    assert win.ctl.state.actors["wall_archer"].hp == brann.max_hp - 5
    perform(win, panel.on_click(table(win), "tokhud", ("cond", "prone")))
    assert "prone" in win.ctl.state.actors["wall_archer"].conditions
    perform(win, panel.on_click(table(win), "tokhud", ("cond", "prone")))
    assert "prone" not in win.ctl.state.actors["wall_archer"].conditions
    acts = [a["action"] for a in win.ctl.session.actions]
    assert acts == ["gm_set", "gm_condition", "gm_condition"]           # recorded, undoable, replayed
    other = next(a.side for a in win.ctl.state.actors.values() if a.side != brann.side)
    win.vstate.player_side = other
    perform(win, panel.on_click(table(win), "tokhud", ("hide", None)))
    assert not win.player_view().shows("wall_archer")
    win.vstate.player_side = brann.side                                # never hidden from its own side
    assert win.player_view().shows("wall_archer")
    perform(win, panel.on_click(table(win), "tokhud", ("remove", None)))
    assert "wall_archer" not in win.ctl.state.actors and win.modes.find(TokenHud) is None


@pytest.mark.unit
def test_item7_folded_headers_are_whole():
    """Issue 23 item 7: folded (F2) headers were cut ("Turn order (round 1) (.", "Event log (19 events) (wh.") and
    a cut turn-order row ended in "?" (the atlas has no ellipsis glyph)."""
    from engine.app.sections.base import Layout
    from engine.app.sections.left import TurnOrder
    from engine.app.sections.right import EventLog
    from engine.app.window import PlayWindow

    win = _player_win()
    win.hud = PrintHud()
    PlayWindow._rebuild_log(win)
    win.vstate.fold = True
    L = Layout(1280, 720, 21, True, state=win.ctl.state, rw=260, bar_h=26)
    L.ry = 32
    TurnOrder().build(table(win), L)
    L.by = 680
    EventLog().build(table(win), L)
    assert not win.hud.cut, win.hud.cut
    assert not any("…" in t for _x, _y, t in win.hud.placed)


@pytest.mark.unit
def test_item9_a_turn_order_row_dragged_onto_another_reorders_the_turns():
    """Issue 23 item 9: reorder the turn order by dragging (a recorded gm_order)."""
    from engine.app.panels import Panels
    from engine.app.sections import default

    win = OverlayWin()
    order = list(win.ctl.state.order)
    cur = win.ctl.session.current
    a, b = [c for c in order if c != cur][-1], [c for c in order if c != cur][0]
    mgr = Panels(default())                  # the window's: the section's intent performed on it
    assert mgr.drop(win, ("select", a), ("select", b))             # the last row dropped on an earlier one
    new = list(win.ctl.state.order)
    assert new.index(a) == new.index(b) - 1, (order, new, win.ctl.message)
    assert win.ctl.session.actions[-1] == {"actor": "gm", "action": "gm_order", "target": a, "before": b}
    assert mgr.drop(win, ("select", a), None) and list(win.ctl.state.order) == new    # dropped off the panel


MIRROR = r'''
import json, sys
import pyglet
pyglet.options["shadow_window"] = False
from pyglet.window import key
from engine.app.window import PlayWindow
from engine.scene import load_scene
scene = load_scene(sys.argv[1])
gm = PlayWindow(scene, 7, (640, 360))
def frames(n=4):
    for _ in range(n):
        for w in [gm] + ([gm.mirror] if gm.mirror else []):
            w.dispatch_events(); w.tick(1/30); w.switch_to(); w.on_draw(); w.flip()
frames()
gm.on_key_press(key.F4, 0)
m = gm.mirror
frames()
out = {"open": m is not None, "side": m.vstate.player_side, "same_ctl": m.ctl is gm.ctl}
gm.apply(gm.ctl.step, {"actor": "gm", "action": "gm_roll", "dice": "2d6", "label": "gust"})
frames()
out["gm_log_has_roll"] = any("gust" in e[0] for e in gm.log_lines)
out["mirror_log_lines"] = len(m.log_lines) == len(gm.log_lines)
texts = " ".join(t[4] for t in m.hud.texts)
out["mirror_hides_roll"] = "gust" not in texts
out["mirror_player_view"] = "PLAYER VIEW" in texts
img = m.grab()
out["mirror_drawn"] = bool(img.std() > 5)
m.on_key_press(key.F3, 0)
out["side2"] = m.vstate.player_side
gm.on_key_press(key.U, key.MOD_CTRL)
frames()
out["units_follow"] = m.vstate.units == gm.vstate.units == "ft"
from engine.app.modes.tokenhud import act
foe = next(c for c, a in gm.ctl.state.actors.items() if a.side != m.vstate.player_side and m.player_view().shows(c))
act(gm.table, foe, "hide", None)                       # the GM hides a foe from the players, in the GM's window
gm.on_key_press(key.F3, key.MOD_SHIFT)           # and shows them their enemies' health
frames()
out["mirror_follows_hide"] = not m.player_view().shows(foe) and m.vstate.reveal_hp
from engine.app import storeys
from engine.app.controller import Controller
gm.vstate.cut_above = storeys.cuts(gm.scene.world)[-2]     # the showcase cut at layer 22
frames()
out["mirror_cut"] = (m.vstate.cut_above, m.renderer.cut_above)   # the players see the storey the GM opens
gm.set_controller(Controller(load_scene(sys.argv[2]), 1))   # another scene, 8 layers high (Ctrl+O)
frames()
sides = {a.side for a in gm.ctl.state.actors.values()}
out["new_scene"] = (gm.vstate.cut_above, gm.renderer.cut_above, sorted(gm.vstate.hidden), sorted(m.vstate.hidden),
                    m.vstate.player_side in sides)
gm.on_key_press(key.F4, 0)
frames()
out["closed"] = gm.mirror is None and not gm.has_exit
gm.quit()
print("RESULT " + json.dumps(out))
'''


@pytest.mark.window
@pytest.mark.slow
def test_item5_the_players_screen_as_a_second_window(display, tmp_path):
    """Issue 23 item 5: offer the player view as a second window. F4 opens a second pyglet window on the same
    session (the same controller), showing one side's view -- no GM table roll in it --, F3 there takes the next
    side, Ctrl+U in the GM's window switches both to feet, F4 closes it and the GM's window goes on. The GM's hide
    (token HUD) and Shift+F3 hold on the players' screen too (a monkey test found they did not), and another scene
    drops the storey cut (the showcase's layer 22 raised in every frame over an 8-layer map) and the hidden ids, and
    the players' screen shows one of the new scene's sides."""
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, DISPLAY=display, AERIE_SAVE=str(tmp_path / "game.save.json"),
               PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, "-c", MIRROR, str(ROOT / "scenes" / "showcase.toml"),
                        str(ROOT / "scenes" / "air_layers.toml")], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=240)
    line = next((x for x in r.stdout.splitlines() if x.startswith("RESULT ")), None)
    assert line, (r.returncode, r.stdout[-2000:], r.stderr[-3000:])
    out = json.loads(line[7:])
    assert out == {"open": True, "side": "red", "same_ctl": True, "gm_log_has_roll": True, "mirror_log_lines": True,
                   "mirror_hides_roll": True, "mirror_player_view": True, "mirror_drawn": True, "side2": "blue",
                   "units_follow": True, "mirror_follows_hide": True, "mirror_cut": [22, 22], "new_scene": [None, None, [], [], True],
                   "closed": True}, out
    assert "Traceback" not in r.stderr, r.stderr[-2000:]
