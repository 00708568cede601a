"""The GM's tools as modes over the main one: the 3D ruler (U), the area template (Y) and dragging a character
to another cell (Alt+drag). Keys they do not use pass to the main mode."""

from __future__ import annotations

from pyglet.window import key

from engine.app import pointing
from engine.app.modes.base import PASS, POP, Mode

TEMPLATES = ("sphere", "cone", "line", "cube")


class Ruler(Mode):
    """U: click two points or characters; U again: off."""

    name = "ruler"

    def enter(self, win) -> None:
        win.vstate.ruler_mode = True
        win.vstate.ruler = None

    def leave(self, win) -> None:
        win.vstate.ruler_mode = False
        win.vstate.ruler = None

    def on_key(self, win, symbol: int, modifiers: int):
        if symbol == key.U and not modifiers & (key.MOD_CTRL | key.MOD_COMMAND):
            win.say("U: ruler off")
            return POP
        return PASS

    def on_click(self, win, hit):
        t = {"char": hit["char"].char if hit["char"] is not None else None,
             "cell": list(hit["cell"].cell) if hit["cell"] is not None else None}
        if t["cell"] is None and t["char"] is None:
            return None
        if t["cell"] is None:
            t["cell"] = list(win.ctl.actor(t["char"]).pos)
        r = win.vstate.ruler
        if r is None or "b" in r:
            win.vstate.ruler = {"a": t}
            win.say("ruler: click the second point or character (U: ruler off)", toast=False)
        else:
            win.vstate.set_ruler_end("b", t)
        return None


class Template(Mode):
    """Y: an area template at the cursor (cone and line from the selected character); Y again: the next shape,
    then off; Ctrl+wheel: its size."""

    name = "template"

    def __init__(self, shape: str = "sphere", size_m: float = 6.0) -> None:
        self.shape, self.size_m = shape, size_m

    def enter(self, win) -> None:
        win.vstate.template = {"shape": self.shape, "size_m": self.size_m}

    def leave(self, win) -> None:
        win.vstate.template = None

    def on_key(self, win, symbol: int, modifiers: int):
        if symbol in (key.ENTER, key.RETURN) and (win.vstate.template or {}).get("at") is not None:
            return keep_template(win)
        if symbol in (key.DELETE, key.BACKSPACE) and win.vstate.pinned:
            return drop_template(win)
        if symbol != key.Y or modifiers & (key.MOD_CTRL | key.MOD_COMMAND):
            return PASS
        t = win.vstate.template or {"shape": self.shape, "size_m": self.size_m}
        i = TEMPLATES.index(t["shape"]) + 1 if t["shape"] in TEMPLATES else 0
        if i >= len(TEMPLATES):
            win.say("Y: area template off")
            return POP
        win.vstate.template = dict(t, shape=TEMPLATES[i])
        say_template(win)
        return None

    def on_click(self, win, hit):
        """A click on a cell pins the template there (issue 23 item 8: a template could not be pinned); a click
        elsewhere moves the pin."""
        if win.vstate.template is None:
            return PASS
        a = win.ctl.state.actors.get(hit["char"].char) if hit.get("char") is not None else None
        if a is not None:                # a character: the template on its cell (issue 40 item 6: it kept following)
            cell = [a.x + a.footprint // 2, a.y + a.footprint // 2, a.layer]
        elif hit["cell"] is not None:
            cell = list(hit["cell"].cell)
        else:
            return PASS
        win.vstate.template = dict(win.vstate.template, at=cell)
        win.say(f"template pinned at {tuple(cell)}" + (f" on {win.name(a.id)}" if a is not None else "")
                + " (a click moves it; Enter keeps it on the map; Y: next shape)", toast=False)
        return None

    def on_scroll(self, win, scroll_y: float, ctrl: bool, shift: bool):
        if not ctrl or win.vstate.template is None:
            return PASS
        size = win.vstate.template["size_m"] + (1.5 if scroll_y > 0 else -1.5)
        win.vstate.set_template_size(float(min(max(size, 1.5), 60.0)))
        return None


def keep_template(win):
    """Enter: the pinned template stays on the map as it is (several can), the live one follows the cursor again."""
    from engine.app.scene_prims import template_geometry

    g = template_geometry(win)
    if g is None:
        return PASS
    win.vstate.pinned = win.vstate.pinned + (g,)
    win.vstate.template = {k: v for k, v in win.vstate.template.items() if k != "at"}
    win.say(f"template kept on the map ({len(win.vstate.pinned)} kept; Delete removes the one nearest the cursor)",
            toast=False)
    return None


def drop_template(win):
    """Delete: the kept template nearest the cursor goes (the newest when the cursor is off the map)."""
    pins = list(win.vstate.pinned)
    cur = win.ctl.hover
    i = len(pins) - 1
    if cur is not None:
        cm = win.scene.world.cell_m
        at = ((cur[0] + 0.5) * cm, (cur[1] + 0.5) * cm, cur[2] + 0.5)
        i = min(range(len(pins)), key=lambda k: sum((p - q) ** 2 for p, q in zip(pins[k][2], at)))
    pins.pop(i)
    win.vstate.pinned = tuple(pins)
    win.say(f"kept template removed ({len(pins)} left)", toast=False)
    return None


def say_template(win) -> None:
    from engine.app.scene_prims import template_size

    t = win.vstate.template
    win.say(f"Y: {template_size(t['shape'], t['size_m'])} template at the cursor (cone and line from the selected; "
            "Ctrl+wheel: size; a click pins it, on a character its cell; Enter keeps it; Y: next shape)")


class GmDrag(Mode):
    """Alt+drag: the GM moves a character to the cell under the cursor when the button is released (a flyer at
    the cursor's layer; the wheel sets it) -- a recorded ``gm_place``."""

    name = "gm drag"

    def __init__(self, cid: str) -> None:
        self.cid = cid

    def on_drag(self, win, dx: float, dy: float, buttons: int):
        pointing.hover(win)
        return None

    def on_scroll(self, win, scroll_y: float, ctrl: bool, shift: bool):
        win.ctl.change_layer(1 if scroll_y > 0 else -1)
        win.say(f"GM: drop {win.name(self.cid)} at layer {win.ctl.cursor_layer} (a flyer; a walker lands on the "
                "surface)", toast=False)
        return None

    def on_release(self, win, drag, button: int):
        self.drop(win)
        return POP

    def drop(self, win) -> None:
        a = win.ctl.state.actors.get(self.cid)
        if a is None:
            return
        rs = win.render_state()
        hit = win.picker.pick(win.camctl.camera(), win.size_px, win.mouse[0], win.mouse[1], rs.characters,
                              win.ctl.cursor_layer if a.can_fly else None)
        if hit["cell"] is None:
            win.say("GM: no cell under the cursor", "error")
            return
        x, y, layer = hit["cell"].cell
        from engine.app.gmtable import gm_step

        gm_step(win, {"actor": "gm", "action": "gm_place", "target": self.cid, "to": [x, y, layer]})

    def key(self) -> tuple:
        return (self.name, self.cid)
