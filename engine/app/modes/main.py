"""The main mode: the map, the camera and every key. ONE key map (:data:`KEYMAP`): the key handling looks keys up
in it and F1's help is generated from it (:func:`help_rows`), so the two cannot disagree."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, TYPE_CHECKING

from pyglet.window import key, mouse

from engine.app import intents as I
from engine.app import statement
from engine.app.modes.base import Mode
from engine.app.modes.text import TextEntry
from engine.app.modes.tools import GmDrag, Ruler, Template, say_template

if TYPE_CHECKING:
    from engine.app.table import Table

OVERLAYS = (("grid", key.G, "layer grid at the cursor's altitude"),
            ("engagement", key.X, "engagement (AIR-04) and the selected character's reach (AIR-05)"),
            ("sightlines", key.L, "sight lines from the selected character to its target / the hovered one"),
            ("cover", key.C, "cover map of the selected attacker at the cursor's layer"),
            ("movement", key.M, "where the selected character can move this turn, with costs"),
            ("threat", key.B, "threat map: enemies that could attack the selected character's side at the cursor's layer"),
            ("volume", key.J, "3D view of the threat volume: cubes in place at the cells enemies could attack the "
                              "selected character's side at (J again: the safe cells, then off)"))

Run = Callable[[Any, int, bool], Any]      # (table, key symbol, shift held) -> a mode result or an intent


@dataclass(frozen=True)
class Binding:
    group: str
    label: str
    doc: str
    keys: tuple = ()            # ((symbol, ctrl), ...); none: a mouse binding (documented, handled by the mode)
    run: Run | None = None


def _esc(t: Table, sym, shift):
    if t.vstate.help:
        t.vstate.help = False
    elif t.ctl.pending is not None:
        t.ctl.cancel()
    elif t.camctl.mode in ("fly", "flythrough", "follow"):
        t.camctl.set_mode("orbit")


def _enter(t: Table, sym, shift):
    return I.Do(t.ctl.confirm)


def _digit(t: Table, sym, shift):
    d = str((sym - key._0) if sym <= key._9 else (sym - key.NUM_0))
    ctl = t.ctl
    ctl.hotkey(d)
    if t.point.placing():
        # placing starts at the character itself, at its own altitude: PgUp twice = climb two layers
        a = ctl.state.actors.get(ctl.selected)
        if a is not None:
            ctl.hover = a.pos
            ctl.set_layer(a.layer)
    t.point.follow_hover()


def _undo(t: Table, sym, shift):
    ctl = t.ctl
    if sym == key.Z and not shift:
        return I.Do(ctl.undo), I.Do(lambda: t.say(f"Ctrl+Z: {t.named(ctl.message[0])} (Ctrl+Y redoes)"))
    return I.Do(ctl.redo), I.Do(lambda: t.say(f"Ctrl+Y: {t.named(ctl.message[0])} (Ctrl+Z undoes)"))


def _save_open(t: Table, sym, shift):
    if sym == key.S and shift:
        t.say("Ctrl+Shift+S: type a name for the save, Enter", toast=False)
        return TextEntry("save as")
    return I.Save() if sym == key.S else I.OpenChooser()


def _help(t: Table, sym, shift):
    if sym != key.SLASH or shift:
        t.vstate.help = not t.vstate.help


def _fly(t: Table, sym, shift):
    c = t.camctl
    c.set_mode("orbit" if c.mode == "fly" else "fly")
    t.say("F: free fly - W A S D, Q down, E up, drag to look (F or Esc: back to orbit)"
          if c.mode == "fly" else "F: orbit camera again")


def _follow(t: Table, sym, shift):
    c = t.camctl
    if c.mode == "follow":
        c.set_mode("orbit")
        t.say("V: follow off")
    elif t.ctl.selected:
        c.follow(t.point.centre(t.ctl.selected))
        c.set_mode("follow")
        t.say(f"V: the camera follows {t.name(t.ctl.selected)} (V: off)")


def _camera(t: Table, sym, shift):
    if shift:
        t.camctl.home_view()
        t.say("Shift+K: home view")
    else:
        name = t.camctl.snap()
        t.say(f"K - camera: {name} (K: next, Shift+K: home)")


def _top(t: Table, sym, shift):
    t.camctl.top_view()
    t.say("O: top view, straight down over the map (K: the scene's cameras, Shift+K: home)")


def _flythrough(t: Table, sym, shift):
    t.camctl.set_mode("flythrough")
    t.say("P: the scene's fly-through (Esc stops it)")


def _campath(t: Table, sym, shift):
    from engine.app.modes.campath import CameraPath

    return CameraPath()


def _overlay(t: Table, sym, shift):
    name = next(n for n, k, _d in OVERLAYS if k == sym)
    on = t.vstate.toggle(name)
    t.say(f"{key.symbol_string(sym)}: {name} overlay {'on' if on else 'off'}")


def _volume(t: Table, sym, shift):
    v = t.vstate       # the 3D volume: the cells in reach this turn -> every exposed cell -> every safe cell -> off
    nxt = {"reach": "exposed", "exposed": "safe"}
    if not v.on["volume"]:
        v.set_overlay("volume", True)
        v.volume_mode = "reach"
    elif v.volume_mode in nxt:
        v.volume_mode = nxt[v.volume_mode]
    else:
        v.set_overlay("volume", False)
    words = {"reach": "the cells the selected character could reach this turn, by threat",
             "exposed": "every cell an enemy could attack", "safe": "every cell safe from every enemy"}
    then = {"reach": "every exposed cell", "exposed": "every safe cell", "safe": "off"}
    t.say("J: 3D threat view off" if not v.on["volume"] else
          f"J: 3D threat view, {words[v.volume_mode]} (J: {then[v.volume_mode]})")


def _statement(t: Table, sym, shift):
    if statement.begin(t.ctl):
        return TextEntry("statement")
    return None


def _ruler(t: Table, sym, shift):
    t.say("U: ruler - click two points or characters (U: off)")
    return Ruler()


def _template(t: Table, sym, shift):
    t.modes.push(t, Template())
    say_template(t)


def _fold(t: Table, sym, shift):
    t.vstate.fold = not t.vstate.fold
    t.say("F2: panels folded (F2: unfold)" if t.vstate.fold else "F2: panels unfolded")


def _player_view(t: Table, sym, shift):
    if not shift:
        return I.NextPlayerView()
    v = t.vstate
    v.reveal_hp = not v.reveal_hp
    t.say("Shift+F3: the players see their enemies' exact health" if v.reveal_hp else
          "Shift+F3: the players see their enemies as unhurt / hurt / bloodied / down")


def _outlook(t: Table, sym, shift):
    return I.Outlook(choose=shift)


def _quit(t: Table, sym, shift):
    return I.SaveFirst("quit", I.Quit())      # unsaved work: "save first? (y)es / (n)o / (c)ancel"


def _arrows(t: Table, sym, shift):
    t.point.nudge({key.UP: "up", key.DOWN: "down", key.LEFT: "left", key.RIGHT: "right"}[sym])


def _storey(t: Table, sym, shift):
    from engine.app import storeys

    w = t.scene.world
    up = sym == key.PERIOD          # ',' a storey down, '.' back up (to everything): I is "how does this end?"
    t.vstate.cut_above = storeys.step(w, t.vstate.cut_above, +1 if up else -1)
    t.say(("." if up else ",") + ": " + storeys.label(w, t.vstate.cut_above))


def _units(t: Table, sym, shift):
    t.vstate.units = "m" if t.vstate.units == "ft" else "ft"
    t.say("Ctrl+U: distances in " + ("feet (a square is 5 ft)" if t.vstate.units == "ft" else "metres")
          + " - display only, the rules stay metric")


def _compendium(t: Table, sym, shift):
    from engine.app.modes.compendium import open_compendium

    return open_compendium(t)


def _k(*syms, ctrl=False):
    return tuple((s, ctrl) for s in syms)


DIGITS = tuple(range(key._0, key._9 + 1)) + tuple(range(key.NUM_0, key.NUM_9 + 1))

KEYMAP: list[Binding] = [
    Binding("Mouse", "left click", "select; while composing: target / destination"),
    Binding("Mouse", "left drag", "orbit the camera (free fly: look around); from the current character: move it"),
    Binding("Mouse", "right / middle drag", "pan"),
    Binding("Mouse", "right click", "a character's token HUD: HP, conditions, hide, remove"),
    Binding("Mouse", "drag a turn-order row", "move that character before / after the row it is dropped on"),
    Binding("Mouse", "wheel", "zoom; while placing a move: the altitude"),
    Binding("Actions", "1 .. 9, 0", "the legal actions (the buttons)", _k(*DIGITS), _digit),
    Binding("Actions", "Enter / Esc", "confirm the previewed action / cancel it",
            _k(key.ENTER, key.RETURN) + _k(key.ESCAPE) + _k(key.ESCAPE, ctrl=True),
            lambda w, s, sh: (_esc if s == key.ESCAPE else _enter)(w, s, sh)),
    Binding("Actions", "Tab", "next option (weapon, variant)", _k(key.TAB), lambda w, s, sh: w.ctl.next_variant()),
    Binding("Actions", "T", "next possible target", _k(key.T), lambda w, s, sh: w.point.next_target()),
    Binding("Actions", "arrow keys", "move the cell cursor", _k(key.LEFT, key.RIGHT, key.UP, key.DOWN), _arrows),
    Binding("Actions", "PgUp / PgDn, ] [", "cursor altitude (the ghost's layer)",
            _k(key.PAGEUP, key.BRACKETRIGHT, key.PAGEDOWN, key.BRACKETLEFT),
            lambda w, s, sh: w.point.layer(+1 if s in (key.PAGEUP, key.BRACKETRIGHT) else -1)),
    Binding("Actions", "Space", "select whose turn it is", _k(key.SPACE), lambda w, s, sh: w.ctl.select_current()),
    Binding("Actions", "N / Shift+N", "next / previous character", _k(key.N),
            lambda w, s, sh: w.ctl.cycle_selection(-1 if sh else 1)),
    Binding("Camera", "F", "free fly: W A S D, Q down, E up, drag to look", _k(key.F), _fly),
    Binding("Camera", "V", "follow the selected character", _k(key.V), _follow),
    Binding("Camera", "K / Shift+K", "next named scene camera / home view", _k(key.K), _camera),
    Binding("Camera", "O", "top view: straight down over the map", _k(key.O), _top),
    Binding("Camera", ", / .", "storey cut: the storeys above cut away, a storey down / up (all)",
            _k(key.COMMA, key.PERIOD), _storey),
    Binding("Camera", "P", "play the scene's fly-through", _k(key.P), _flythrough),
    Binding("Camera", "Ctrl+P", "camera-path mode: Enter adds a key at the view, P plays, F5 saves it into the scene, "
            "F6 renders its video (docs/window.md)", _k(key.P, ctrl=True), _campath),
    Binding("Overlays", "G", "layer grid at the cursor's altitude", _k(key.G), _overlay),
    Binding("Overlays", "X", "engagement (AIR-04) and reach (AIR-05)", _k(key.X), _overlay),
    Binding("Overlays", "L", "sight lines to the target / hovered / nearest", _k(key.L), _overlay),
    Binding("Overlays", "C", "cover map of the selected, cursor's layer", _k(key.C), _overlay),
    Binding("Overlays", "M", "movement range at the cursor's layer", _k(key.M), _overlay),
    Binding("Overlays", "B", "threat map: enemies that could attack the selected's side there", _k(key.B), _overlay),
    Binding("Overlays", "J", "3D threat volume: exposed cells, J: safe cells, J: off", _k(key.J), _volume),
    Binding("Table", "Ctrl+Z / Ctrl+Y", "undo / redo", _k(key.Z, key.Y, ctrl=True), _undo),
    Binding("Table", "Ctrl+S / Ctrl+O", "save (Ctrl+Shift+S: under a name) / open a scene or save (a picker)",
            _k(key.S, key.O, ctrl=True),
            _save_open),
    Binding("Table", "R", "enter a die result by hand: attack 17, Enter", _k(key.R),
            lambda w, s, sh: TextEntry("roll")),
    Binding("Table", "E", "GM: state what the composed action leaves to the GM (an open effect, its difficulty)",
            _k(key.E), _statement),
    Binding("Table", "; (semicolon)", "GM command: hp NAME 12, cond NAME +prone, place NAME x y layer, add \"NAME\" BLOCK side=S at "
            "x y layer, remove NAME, order NAME after NAME, roll 2d6+3, blocks, save scene PATH.toml, start PATH.toml", _k(key.SEMICOLON),
            lambda w, s, sh: TextEntry("gm")),
    Binding("Table", "Ctrl+B", "GM: the compendium - search every creature (name, type, cr5, flies), its stat block "
            "with what is modelled; Enter adds it at the cursor, initiative rolled", _k(key.B, ctrl=True), _compendium),
    Binding("Table", "Alt+drag", "GM: drag a character to another cell (wheel: layer)"),
    Binding("Table", "U", "3D ruler: click two points or characters (AIR-03, AIR-07)", _k(key.U), _ruler),
    Binding("Table", "Y", "area template: sphere, cone, line, cube, off (wheel: size)", _k(key.Y), _template),
    Binding("Table", "Ctrl+U", "distances in feet / metres (a square is 5 ft; display only, the rules stay metric)",
            _k(key.U, ctrl=True), _units),
    Binding("Table", "F2", "fold / unfold the side panels", _k(key.F2), _fold),
    Binding("Table", "F3 / Shift+F3", "player view: what each side sees (true 3D sight lines) / show its "
            "enemies' exact health", _k(key.F3), _player_view),
    Binding("Table", "F4", "the players' screen in a second window (F3 there: next side; F4: close it)", _k(key.F4),
            lambda w, s, sh: I.ToggleMirror()),
    Binding("Table", "I / Shift+I", "how does this end? a batch of fights from here in the background, the t "
            "rates and their 95% intervals in a panel / choose the policies first (a click on a side's row: its own)", _k(key.I), _outlook),
    Binding("Table", "F12", "screenshot (PNG)", _k(key.F12), lambda w, s, sh: I.Screenshot()),
    Binding("Table", "F1 or H", "this help", _k(key.F1, key.H, key.SLASH), _help),
    Binding("Table", "Ctrl+Q", "quit (unsaved work: save first? y / n / c)", _k(key.Q, ctrl=True), _quit),
]

LOOKUP: dict[tuple[int, bool], Binding] = {k: b for b in KEYMAP for k in b.keys}
FLY_KEYS = (key.W, key.A, key.S, key.D, key.Q, key.E)


def help_rows() -> list[tuple[str, str]]:
    """F1's rows: a group title ("Camera", "") before its bindings, then (keys, what they do) -- the key map's."""
    rows: list[tuple[str, str]] = []
    group = None
    for b in KEYMAP:
        if b.group != group:
            rows.append((b.group, ""))
            group = b.group
        rows.append((b.label, b.doc))
    return rows


class MainMode(Mode):
    name = "main"

    def on_key(self, t: Table, symbol: int, modifiers: int):
        ctrl = bool(modifiers & (key.MOD_CTRL | key.MOD_COMMAND))
        shift = bool(modifiers & key.MOD_SHIFT)
        if not ctrl and t.camctl.mode == "fly" and symbol in FLY_KEYS:
            return None                                # held keys, read every frame
        b = LOOKUP.get((symbol, ctrl))
        if b is None or b.run is None:
            return None
        return b.run(t, symbol, shift)

    def on_click(self, t: Table, hit):
        t.point.map_click(hit)
        return None

    def on_press(self, t: Table, button: int, modifiers: int, over_hud: bool):
        if button == mouse.LEFT and modifiers & key.MOD_ALT and not over_hud:
            hit = t.point.pick()
            if hit["char"] is not None:          # GM: Alt+drag a character to another cell
                cid = hit["char"].char
                t.say(f"GM: dragging {t.name(cid)} - release on a cell (wheel: layer)")
                return GmDrag(cid)
        elif button == mouse.LEFT and not over_hud:
            from engine.app.modes.movedrag import candidate

            return candidate(t, t.point.pick())       # the current character: a drag moves it
        return None

    def on_drag(self, t: Table, dx: float, dy: float, buttons: int):
        c = t.camctl
        if buttons & mouse.LEFT:
            if c.mode == "fly":
                c.look(dx, dy)
            else:
                c.orbit(dx, dy)
        elif buttons & (mouse.RIGHT | mouse.MIDDLE):
            c.pan(dx, dy)
        t.changed()
        return None

    def on_release(self, t: Table, drag, button: int):
        if drag is not None and drag["moved"] < 4 and button == mouse.LEFT:
            return I.Click()
        elif drag is not None and drag["moved"] < 4 and button == mouse.RIGHT and not drag.get("hud"):
            from engine.app.modes.tokenhud import open_at

            open_at(t, t.point.pick())        # a right click on a character: its token HUD
        return None

    def on_scroll(self, t: Table, scroll_y: float, ctrl: bool, shift: bool):
        placing = t.point.placing()
        if (placing or shift) and not ctrl:
            t.ctl.change_layer(int(math.copysign(1, scroll_y)) if scroll_y else 0)
            t.point.hover()
            t.point.follow_hover()
        else:
            t.camctl.zoom(scroll_y)
        return None

