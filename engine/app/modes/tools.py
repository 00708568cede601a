"""The GM's tools as modes over the main one: the 3D ruler (U), the area template (Y) and dragging a character
to another cell (Alt+drag). Keys they do not use pass to the main mode."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyglet.window import key

from engine.app import intents as I
from engine.app.modes.base import PASS, POP, Mode

if TYPE_CHECKING:
    from engine.app.table import Table

TEMPLATES = ("sphere", "cone", "line", "cube")


class Ruler(Mode):
    """U: click two points or characters; U again: off."""

    name = "ruler"

    def enter(self, t: Table) -> None:
        t.vstate.ruler_mode = True
        t.vstate.ruler = None

    def leave(self, t: Table) -> None:
        t.vstate.ruler_mode = False
        t.vstate.ruler = None

    def on_key(self, t: Table, symbol: int, modifiers: int):
        if symbol == key.U and not modifiers & (key.MOD_CTRL | key.MOD_COMMAND):
            t.say("U: ruler off")
            return POP
        return PASS

    def on_click(self, t: Table, hit):
        end = {"char": hit["char"].char if hit["char"] is not None else None,
               "cell": list(hit["cell"].cell) if hit["cell"] is not None else None}
        if end["cell"] is None and end["char"] is None:
            return None
        if end["cell"] is None:
            end["cell"] = list(t.ctl.actor(end["char"]).pos)
        r = t.vstate.ruler
        if r is None or "b" in r:
            t.vstate.ruler = {"a": end}
            t.say("ruler: click the second point or character (U: ruler off)", toast=False)
        else:
            t.vstate.set_ruler_end("b", end)
        return None


class Template(Mode):
    """Y: an area template at the cursor (cone and line from the selected character); Y again: the next shape,
    then off; Ctrl+wheel: its size."""

    name = "template"

    def __init__(self, shape: str = "sphere", size_m: float = 6.0) -> None:
        self.shape, self.size_m = shape, size_m

    def enter(self, t: Table) -> None:
        t.vstate.template = {"shape": self.shape, "size_m": self.size_m}

    def leave(self, t: Table) -> None:
        t.vstate.template = None

    def on_key(self, t: Table, symbol: int, modifiers: int):
        if symbol in (key.ENTER, key.RETURN) and (t.vstate.template or {}).get("at") is not None:
            return keep_template(t)
        if symbol in (key.DELETE, key.BACKSPACE) and t.vstate.pinned:
            return drop_template(t)
        if symbol != key.Y or modifiers & (key.MOD_CTRL | key.MOD_COMMAND):
            return PASS
        tpl = t.vstate.template or {"shape": self.shape, "size_m": self.size_m}
        i = TEMPLATES.index(tpl["shape"]) + 1 if tpl["shape"] in TEMPLATES else 0
        if i >= len(TEMPLATES):
            t.say("Y: area template off")
            return POP
        t.vstate.template = dict(tpl, shape=TEMPLATES[i])
        say_template(t)
        return None

    def on_click(self, t: Table, hit):
        """A click on a cell pins the template there (issue 23 item 8: a template could not be pinned); a click
        elsewhere moves the pin."""
        if t.vstate.template is None:
            return PASS
        a = t.ctl.state.actors.get(hit["char"].char) if hit.get("char") is not None else None
        if a is not None:                # a character: the template on its cell (issue 40 item 6: it kept following)
            cell = [a.x + a.footprint // 2, a.y + a.footprint // 2, a.layer]
        elif hit["cell"] is not None:
            cell = list(hit["cell"].cell)
        else:
            return PASS
        t.vstate.template = dict(t.vstate.template, at=cell)
        t.say(f"template pinned at {tuple(cell)}" + (f" on {t.name(a.id)}" if a is not None else "")
              + " (a click moves it; Enter keeps it on the map; Y: next shape)", toast=False)
        return None

    def on_scroll(self, t: Table, scroll_y: float, ctrl: bool, shift: bool):
        if not ctrl or t.vstate.template is None:
            return PASS
        size = t.vstate.template["size_m"] + (1.5 if scroll_y > 0 else -1.5)
        t.vstate.set_template_size(float(min(max(size, 1.5), 60.0)))
        return None


def keep_template(t: Table):
    """Enter: the pinned template stays on the map as it is (several can), the live one follows the cursor again."""
    from engine.app.scene_prims import template_geometry

    g = template_geometry(t)
    tpl = t.vstate.template
    if g is None or tpl is None:
        return PASS
    t.vstate.pinned = t.vstate.pinned + (g,)
    t.vstate.template = {k: v for k, v in tpl.items() if k != "at"}
    t.say(f"template kept on the map ({len(t.vstate.pinned)} kept; Delete removes the one nearest the cursor)",
          toast=False)
    return None


def drop_template(t: Table):
    """Delete: the kept template nearest the cursor goes (the newest when the cursor is off the map)."""
    pins = list(t.vstate.pinned)
    cur = t.ctl.hover
    i = len(pins) - 1
    if cur is not None:
        cm = t.scene.world.cell_m
        at = ((cur[0] + 0.5) * cm, (cur[1] + 0.5) * cm, cur[2] + 0.5)
        i = min(range(len(pins)), key=lambda k: sum((p - q) ** 2 for p, q in zip(pins[k][2], at)))
    pins.pop(i)
    t.vstate.pinned = tuple(pins)
    t.say(f"kept template removed ({len(pins)} left)", toast=False)
    return None


def say_template(t: Table) -> None:
    from engine.app.scene_prims import template_size

    tpl = t.vstate.template
    assert tpl is not None, "said once the template is on"
    t.say(f"Y: {template_size(tpl['shape'], tpl['size_m'])} template at the cursor (cone and line from the selected; "
          "Ctrl+wheel: size; a click pins it, on a character its cell; Enter keeps it; Y: next shape)")


class GmDrag(Mode):
    """Alt+drag: the GM moves a character to the cell under the cursor when the button is released (a flyer at
    the cursor's layer; the wheel sets it) -- a recorded ``gm_place``."""

    name = "gm drag"

    def __init__(self, cid: str) -> None:
        self.cid = cid

    def on_drag(self, t: Table, dx: float, dy: float, buttons: int):
        t.point.hover()
        return None

    def on_scroll(self, t: Table, scroll_y: float, ctrl: bool, shift: bool):
        t.ctl.change_layer(1 if scroll_y > 0 else -1)
        t.say(f"GM: drop {t.name(self.cid)} at layer {t.ctl.cursor_layer} (a flyer; a walker lands on the "
              "surface)", toast=False)
        return None

    def on_release(self, t: Table, drag, button: int):
        return self.drop(t), POP

    def drop(self, t: Table) -> I.GmStep | None:
        a = t.ctl.state.actors.get(self.cid)
        if a is None:
            return None
        hit = t.point.pick_at(t.ctl.cursor_layer if a.can_fly else None)
        if hit["cell"] is None:
            t.say("GM: no cell under the cursor", "error")
            return None
        x, y, layer = hit["cell"].cell
        return I.GmStep({"actor": "gm", "action": "gm_place", "target": self.cid, "to": [x, y, layer]})

    def key(self) -> tuple:
        return (self.name, self.cid)
