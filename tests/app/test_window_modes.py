"""The window's input modes and HUD sections without a display (issue 23): the modes are plain objects over the
table (engine/app/table.py: the real controller, view state, camera and mode stack), so a stand-in for the window
behind it -- what the intents' performer and the file and GM functions read -- drives them with the real rules
core."""

from __future__ import annotations

from pathlib import Path

import pytest

import pyglet

pyglet.options["shadow_window"] = False           # importing pyglet.window must not open a display

from pyglet.window import key  # noqa: E402

from engine.app.camera_control import CameraControl  # noqa: E402
from engine.app.controller import Controller  # noqa: E402
from engine.app.modes.base import PASS, POP, Mode, ModeStack  # noqa: E402
from engine.app.modes.main import KEYMAP, LOOKUP, MainMode, help_rows  # noqa: E402
from engine.app.modes.prompts import Chooser, YesNo  # noqa: E402
from engine.app.perform import open_chooser, perform  # noqa: E402
from engine.app.modes.question import Question, sync  # noqa: E402
from engine.app.modes.text import TextEntry  # noqa: E402
from engine.app.modes.tools import Ruler, Template  # noqa: E402
from engine.app.panels import table as panel_table  # noqa: E402
from engine.app.table import Table, table_of  # noqa: E402
from engine.app.seats import Seats  # noqa: E402
from engine.app.viewstate import ViewState  # noqa: E402
from engine.render.state import from_session  # noqa: E402
from engine.scene import load_scene  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.unit


class FakeWin:
    """The window behind the table, nothing drawn: the modes get the real table of its real parts (``table``), and
    what they ask is performed by the real performer (engine/app/perform.py) on this stand-in."""

    def __init__(self, scene_name="showcase.toml"):
        self.scene = load_scene(str(ROOT / "scenes" / scene_name))
        self.ctl = Controller(self.scene, None)
        self.ctl.set_ask(True)
        self.vstate = ViewState()
        self.modes = ModeStack(MainMode())
        self.camctl = CameraControl(self.scene, from_session(self.scene, self.ctl.session).characters)
        self.saved_actions: list = []
        self.said: list = []
        self.shot_pending = False
        self.seats = Seats(self.vstate)

    @property
    def table(self) -> Table:
        return table_of(self)

    def perform(self, intent):
        return perform(self, intent)

    def do(self, fn, *a):
        return fn(*a)

    def say(self, text, kind="info", toast=True):
        self.said.append(text)
        self.ctl.say(text, kind)

    def changed(self):
        pass

    def set_controller(self, ctl):
        self.ctl = ctl

    def name(self, cid):
        return str(cid)

    def named(self, text):
        return text

    def key(self, symbol, mods=0, text=None):
        """A key press as pyglet sends it: the press, then its character as text."""
        self.modes.dispatch(self.table, "on_key", symbol, mods)
        if text is not None:
            self.modes.dispatch(self.table, "on_text", text)
        sync(self.table)

    def type(self, s):
        for ch in s:
            self.modes.dispatch(self.table, "on_text", ch)


@pytest.fixture
def win():
    return FakeWin()


def test_r_opens_the_die_roll(win):
    assert isinstance(win.modes.top, MainMode)
    win.key(key.R, text="r")                           # the R arrives as text too: not part of the line
    top = win.modes.top
    assert isinstance(top, TextEntry) and top.kind == "roll" and top.text == ""
    assert win.modes.status(win.table)[0].startswith("die result for the next action")


def test_a_typed_roll_reaches_the_controller(win):
    win.key(key.R, text="r")
    win.type("attack 17")
    assert win.modes.top.text == "attack 17"
    win.key(key.BACKSPACE)
    win.type("8")
    win.key(key.ENTER)
    assert isinstance(win.modes.top, MainMode)          # Enter closed the line
    assert win.ctl.forced, win.ctl.message
    assert list(win.ctl.forced) == ["attack"] and 18 in (win.ctl.forced["attack"] if isinstance(
        win.ctl.forced["attack"], list) else [win.ctl.forced["attack"]])


def test_keys_typed_into_a_line_never_reach_the_main_mode(win):
    on_before = dict(win.vstate.on)
    win.key(key.SEMICOLON, text=";")
    win.key(key.G, text="g")                            # G would toggle the grid in the main mode
    assert win.vstate.on == on_before
    assert win.modes.top.text == "g"
    win.key(key.ESCAPE)
    assert isinstance(win.modes.top, MainMode)


def test_esc_pops_the_chooser(win, monkeypatch):
    monkeypatch.chdir(ROOT)
    open_chooser(win)
    ch = win.modes.top
    assert isinstance(ch, Chooser) and ch.paths, win.said
    win.key(key.DOWN)
    assert ch.i == 1
    win.key(key.G)                                      # modal: nothing else happens meanwhile
    assert not win.vstate.on["grid"]
    win.key(key.ESCAPE)
    assert win.modes.find(Chooser) is None and isinstance(win.modes.top, MainMode)


def test_the_chooser_asks_first_when_work_would_be_lost(win, monkeypatch):
    monkeypatch.chdir(ROOT)
    win.ctl.step({"actor": win.ctl.session.current, "action": "end_turn"})
    open_chooser(win)
    win.key(key.ENTER)
    yn = win.modes.top
    assert isinstance(yn, YesNo) and "1 unsaved action(s)" in yn.text
    win.key(key.C)               # the save-first prompt's cancel (N was "keep" before Ctrl+O asked save first)
    assert isinstance(win.modes.top, MainMode) and len(win.ctl.session.actions) == 1


def test_f1_rows_equal_the_key_map():
    rows = help_rows()
    expect = []
    group = None
    for b in KEYMAP:
        if b.group != group:
            expect.append((b.group, ""))
            group = b.group
        expect.append((b.label, b.doc))
    assert rows == expect
    # every keyboard binding is reachable from its keys, and each key has one binding
    for b in KEYMAP:
        assert (b.run is None) == (not b.keys), b.label
        for k in b.keys:
            assert LOOKUP[k] is b
    assert {b.group for b in KEYMAP} == {"Mouse", "Actions", "Camera", "Overlays", "Table"}


class RecordingHud:
    """A HUD that records what is written."""

    line = 15

    def __init__(self):
        self.texts = []

    def box(self, *a):
        pass

    def text(self, x, y, t, col=None, max_w=None, size=None):
        self.texts.append(t)
        return len(t) * 7

    def width(self, t, size=None):
        return len(t) * 7

    def wrap(self, t, w, size=None):
        return [t]


def test_the_help_panel_draws_the_key_maps_rows(win):
    from engine.app.sections.base import Layout
    from engine.app.sections.modals import HelpPanel

    win.hud = RecordingHud()
    HelpPanel().build(panel_table(win, help_rows), Layout(1920, 1080, 18, False))
    drawn = win.hud.texts[1:]                           # after the panel's title
    want = []
    for k, d in help_rows():
        want += [k] if not d else [k, d]
    assert drawn == want


def test_the_overlay_keys_toggle_the_view_state_and_count_versions(win):
    v0 = win.vstate.version
    win.key(key.G)
    assert win.vstate.on["grid"] and win.vstate.version > v0
    win.key(key.G)
    assert not win.vstate.on["grid"]


def test_ruler_and_template_are_modes_over_the_main_one(win):
    win.key(key.U)
    assert isinstance(win.modes.top, Ruler) and win.vstate.ruler_mode
    win.key(key.G)                                      # not the ruler's key: the main mode's
    assert win.vstate.on["grid"]
    win.key(key.U)
    assert win.modes.find(Ruler) is None and not win.vstate.ruler_mode
    win.key(key.Y)
    assert isinstance(win.modes.top, Template) and win.vstate.template["shape"] == "sphere"
    for shape in ("cone", "line", "cube"):
        win.key(key.Y)
        assert win.vstate.template["shape"] == shape
    win.key(key.Y)
    assert win.modes.find(Template) is None and win.vstate.template is None


def test_a_question_is_a_mode_while_the_controller_asks(win):
    class Q:
        options = ("a", "b")

    win.ctl.question = {"point": Q()}
    sync(win.table)
    assert isinstance(win.modes.top, Question)
    win.ctl.question = None
    sync(win.table)
    assert win.modes.find(Question) is None


def test_up_down_move_the_questions_pick_and_esc_puts_it_aside(win):
    class Q:                                  # the choice point's fields the mode and the questions module read
        options = {"a": "", "b": "", "c": ""}
        key = "k"

    win.ctl.question = {"point": Q(), "pick": 0, "action": {}, "answered": {}}
    sync(win.table)
    win.key(key.DOWN)
    assert win.ctl.question["pick"] == 1
    win.key(key.UP)
    win.key(key.UP)
    assert win.ctl.question["pick"] == 2      # round from the first option to the last
    win.key(key.ESCAPE)
    assert win.ctl.question is None and "put aside" in win.ctl.message[0]
    assert win.ctl.session.actions == []


def test_the_stack_passes_down_and_pops():
    seen = []

    class Top(Mode):
        def on_key(self, w, s, m):
            seen.append(("top", s))
            return POP if s == 2 else PASS

    class Bottom(Mode):
        def on_key(self, w, s, m):
            seen.append(("bottom", s))

    st = ModeStack(Bottom())
    st.push(None, Top())
    st.dispatch(None, "on_key", 1, 0)
    assert seen == [("top", 1), ("bottom", 1)]
    st.dispatch(None, "on_key", 2, 0)
    assert len(st.modes) == 1


def test_item8_o_is_the_top_view_and_the_top_bar_names_the_camera(win):
    """Issue 23 item 8: no top-view key; the top bar said "camera: orbit" on a named camera."""
    import numpy as np

    name = win.camctl.snap()                            # K: the first named scene camera
    assert win.camctl.describe() == f"{name} (orbit)"
    win.camctl.orbit(10, 0)                             # moved by hand: a plain orbit again
    assert win.camctl.describe() == "orbit"
    win.key(key.O)
    assert win.camctl.describe() == "top view (orbit)"
    for _ in range(200):
        win.camctl.update(1 / 30)
    cam = win.camctl.camera()
    d = np.array(cam.look_at) - np.array(cam.position)
    assert d[2] < -0.99 * np.linalg.norm(d)             # looking straight down


def test_save_as_asks_before_it_replaces_a_file_this_program_did_not_write(win, tmp_path, monkeypatch):
    """Ctrl+Shift+S with the name of another game's save: a yes/no first (N keeps the file byte for byte, Y
    replaces it); a name this program saved to before is written again without asking."""
    import json

    monkeypatch.setenv("AERIE_SAVE", str(tmp_path / "game.save.json"))
    other = tmp_path / "last week.save.json"
    other.write_text('{"not": "this game"}')
    win.ctl.step({"actor": win.ctl.session.current, "action": "end_turn"})
    for answer in (key.N, key.Y):
        win.key(key.S, key.MOD_CTRL | key.MOD_SHIFT)
        win.type("last week")
        win.key(key.ENTER)
        yn = win.modes.top
        assert isinstance(yn, YesNo) and "exists: replace it" in yn.text, win.said
        win.key(answer)
        assert isinstance(win.modes.top, MainMode)
        if answer == key.N:
            assert other.read_text() == '{"not": "this game"}'
    assert len(json.loads(other.read_text())["actions"]) == 1
    win.ctl.step({"actor": win.ctl.session.current, "action": "end_turn"})
    win.key(key.S, key.MOD_CTRL | key.MOD_SHIFT)
    win.type("last week")
    win.key(key.ENTER)                                    # written by this program now: no question
    assert isinstance(win.modes.top, MainMode) and len(json.loads(other.read_text())["actions"]) == 2


def test_item9_save_under_a_chosen_name_and_save_first_before_work_is_dropped(win, tmp_path, monkeypatch):
    """Issue 23 item 9: no way to save under a name of one's choosing, and no "save first" choice when work
    would be dropped."""
    monkeypatch.setenv("AERIE_SAVE", str(tmp_path / "game.save.json"))
    win.ctl.step({"actor": win.ctl.session.current, "action": "end_turn"})
    win.key(key.S, key.MOD_CTRL | key.MOD_SHIFT)
    assert isinstance(win.modes.top, TextEntry) and win.modes.top.kind == "save as"
    win.type("ambush at the square")
    win.key(key.ENTER)
    p = tmp_path / "ambush at the square.save.json"
    assert p.is_file() and (tmp_path / "ambush at the square.save.log.jsonl").is_file(), win.said
    assert isinstance(win.modes.top, MainMode)
    win.ctl.step({"actor": win.ctl.session.current, "action": "end_turn"})
    win.key(key.S, key.MOD_CTRL)                          # Ctrl+S: the chosen name from then on
    import json

    assert len(json.loads(p.read_text())["actions"]) == 2
    win.ctl.step({"actor": win.ctl.session.current, "action": "end_turn"})
    monkeypatch.chdir(ROOT)
    open_chooser(win)
    win.key(key.ENTER)
    yn = win.modes.top
    assert isinstance(yn, YesNo) and "S: save first" in yn.hint()
    win.key(key.S)                                        # save first, then open
    assert len(json.loads(p.read_text())["actions"]) == 3
    assert win.modes.find(YesNo) is None


def test_item9_dragging_the_current_character_moves_it(win, monkeypatch):
    """Issue 23 item 9: drag the current character to move it, with the path and its cost while dragging."""
    from types import SimpleNamespace

    from pyglet.window import mouse

    from engine.app import pointing
    from engine.app.modes.movedrag import MoveDrag, candidate

    ctl = win.ctl
    cur = ctl.session.current
    a = ctl.state.actors[cur]
    dest = (a.x + 1, a.y, a.layer)

    def hover(w):                                       # the cursor over the destination cell
        ctl.hover = dest
        pointing.follow_hover(w)

    monkeypatch.setattr(pointing, "hover", hover)
    clicks = []
    win.click = lambda x, y: clicks.append((x, y))
    win.mouse = (10, 10)
    other = next(c for c in ctl.state.actors if c != cur)
    assert candidate(win.table, {"char": SimpleNamespace(char=other)}) is None       # only whose turn it is
    m = candidate(win.table, {"char": SimpleNamespace(char=cur)})
    assert isinstance(m, MoveDrag)
    win.modes.push(win.table, m)
    win.modes.dispatch(win.table, "on_release", {"moved": 0.0}, mouse.LEFT)           # no drag: a click
    assert clicks and ctl.pending is None and win.modes.find(MoveDrag) is None
    win.modes.push(win.table, candidate(win.table, {"char": SimpleNamespace(char=cur)}))
    win.modes.dispatch(win.table, "on_drag", 12.0, 0.0, mouse.LEFT)
    assert ctl.pending is not None and ctl.pending.name == "move"
    act = ctl.action()
    assert act is not None and list(act["to"]) == list(dest)
    pv = ctl.preview_of(act)                            # what the window draws while dragging: path and cost
    assert pv.get("ok") and (pv.get("preview") or {}).get("path")
    win.modes.dispatch(win.table, "on_release", {"moved": 12.0}, mouse.LEFT)
    assert ctl.state.actors[cur].pos == dest and ctl.session.actions[-1]["action"] == "move"


def test_item8_a_template_is_pinned_by_a_click_and_says_its_radius(win):
    """Issue 23 item 8: a template could not be pinned, and "sphere 6 m" did not say radius."""
    from types import SimpleNamespace

    from engine.app import scene_prims as SP

    win.key(key.Y)
    win.ctl.hover = (20, 20, 0)
    assert SP.template_geometry(win)[2][:2] == (20.5 * 1.5, 20.5 * 1.5)
    win.modes.dispatch(win.table, "on_click", {"cell": SimpleNamespace(cell=(10, 12, 0)), "char": None})
    win.ctl.hover = (30, 30, 0)                          # the cursor moves on: the pinned template stays
    assert SP.template_geometry(win)[2][:2] == (10.5 * 1.5, 12.5 * 1.5)
    win.key(key.Y)                                       # the next shape keeps the pin
    assert win.vstate.template["shape"] == "cone" and win.vstate.template["at"] == [10, 12, 0]
    assert SP.template_size("sphere", 6) == "sphere 6 m radius"
    assert "sphere 6 m" in SP.template_size("sphere", 6)  # the words the window tests look for


def test_the_view_state_counts_changes_only():
    """An assignment of the same value is no change: the frame it would redraw is skipped (the idle frames of
    `aerie bench window` redrew once when a set-up set an overlay to what it already was)."""
    v = ViewState()
    n = v.version
    v.set_overlay("volume", False)
    v.fold = False
    assert v.version == n
    v.set_overlay("volume", True)
    assert v.version == n + 1


def test_comma_and_period_step_the_storey_cut_in_the_view_state():
    """Issue 27: , cuts the view a storey down, . back up to everything; the view state records it."""
    win = FakeWin()
    Z = win.scene.world.size[2]
    v0 = win.vstate.version
    win.key(key.COMMA)
    assert win.vstate.cut_above == Z - 2 and win.vstate.version > v0
    win.key(key.COMMA)
    assert win.vstate.cut_above == Z - 3
    assert "storey" in win.said[-1]
    win.key(key.PERIOD)
    win.key(key.PERIOD)
    assert win.vstate.cut_above is None


def test_no_key_is_bound_twice_in_the_key_map():
    """One binding a key: the first of two would take it and F1 would list a key that does another thing (the
    storey cut and "how does this end?" both took I when their branches merged)."""
    from collections import Counter

    from engine.app.modes.main import KEYMAP

    seen = Counter(k for b in KEYMAP for k in set(b.keys))     # (pyglet: ENTER and RETURN are one symbol)
    assert len(seen) > 30
    assert [k for k, n in seen.items() if n > 1] == []


def test_the_table_is_frozen_and_the_keys_return_intents(win):
    """Issue 40, the shape: a mode reads the table (it cannot swap the window's controller), and what only the
    window can do comes back as an intent for the one place that performs it (engine/app/perform.py)."""
    import dataclasses

    from engine.app import intents as I

    t = win.table
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.ctl = None
    assert t.ctl is win.ctl and t.vstate is win.vstate and t.modes is win.modes

    def run(symbol, ctrl=False, shift=False):
        return LOOKUP[(symbol, ctrl)].run(t, symbol, shift)

    assert run(key.S, ctrl=True) == I.Save() and run(key.O, ctrl=True) == I.OpenChooser()
    assert run(key.Q, ctrl=True) == I.SaveFirst("quit", I.Quit())
    assert run(key.F4) == I.ToggleMirror() and run(key.F12) == I.Screenshot() and run(key.F3) == I.NextPlayerView()
    assert run(key.I) == I.Outlook(choose=False) and run(key.I, shift=True) == I.Outlook(choose=True)
    assert run(key.ENTER) == I.Do(win.ctl.confirm)
    undo = run(key.Z, ctrl=True)
    assert isinstance(undo, tuple) and undo[0] == I.Do(win.ctl.undo) and isinstance(undo[1], I.Do)
    assert not win.shot_pending
    win.key(key.F12)                                      # through the stack: performed on the window
    assert win.shot_pending


def test_an_intent_nobody_performs_is_an_error(win):
    from engine.app import intents as I
    from engine.app.perform import perform

    class Unknown(I.Intent):
        pass

    with pytest.raises(TypeError, match="no one performs"):
        perform(win, Unknown())
