"""The players' screen's one mode (F4's second window, engine/app/mirror.py): the camera and F3; nothing that
changes the game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyglet.window import key, mouse

from engine.app import intents as I
from engine.app.modes.base import Mode

if TYPE_CHECKING:
    from engine.app.table import Table


class MirrorMode(Mode):
    """The players' window: the camera and F3; nothing that changes the game."""

    name = "players' screen"

    def on_key(self, t: Table, symbol: int, modifiers: int):
        if symbol == key.F4:               # F4 closes it from either window (the GM may have clicked into it)
            return I.ToggleMirror()
        if symbol == key.F3:
            sides = [s for s in dict.fromkeys(a.side for a in t.ctl.state.actors.values())]
            cur = t.vstate.player_side
            t.vstate.player_side = sides[(sides.index(cur) + 1) % len(sides)] if cur in sides else sides[0]
            return I.Caption(f"Aerie - the players' screen: side {t.vstate.player_side}")
        return None

    def on_text(self, t: Table, text: str):
        return None

    def on_click(self, t: Table, hit):
        return None

    def on_drag(self, t: Table, dx: float, dy: float, buttons: int):
        if buttons & mouse.LEFT:
            t.camctl.orbit(dx, dy)
        elif buttons & (mouse.RIGHT | mouse.MIDDLE):
            t.camctl.pan(dx, dy)
        t.changed()
        return None

    def on_scroll(self, t: Table, scroll_y: float, ctrl: bool, shift: bool):
        t.camctl.zoom(scroll_y)
        return None
