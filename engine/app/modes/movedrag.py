"""Drag the character whose turn it is to move it (issue 23 item 9, what a Foundry GM reaches for): pressing on
it and dragging composes its ``move`` with the destination under the cursor -- the ghost, the rules' path and its
cost on screen while dragging (the preview of a composed move) -- and releasing confirms it when the rules allow
it (when not, the move stays composed with the core's reason in red). A press without a drag is a click."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyglet.window import mouse

from engine.app import intents as I
from engine.app.modes.base import POP, Mode

if TYPE_CHECKING:
    from engine.app.table import Table


class MoveDrag(Mode):
    name = "move drag"

    def __init__(self, cid: str) -> None:
        self.cid = cid
        self.started = False

    def start(self, t: Table) -> bool:
        ctl = t.ctl
        ctl.select(self.cid)
        if not any(b["action"] == "move" for b in ctl.buttons()):
            t.say(f"{t.name(self.cid)} cannot move now", "error")
            return False
        ctl.choose("move")
        a = ctl.state.actors[self.cid]
        ctl.hover = a.pos
        ctl.set_layer(a.layer)
        self.started = True
        t.say(f"moving {t.name(self.cid)}: release on the destination (wheel: altitude; Esc: cancel)",
              toast=False)
        return True

    def on_drag(self, t: Table, dx: float, dy: float, buttons: int):
        if not buttons & mouse.LEFT:
            return None
        if not self.started and not self.start(t):
            return POP
        t.point.hover()              # the destination follows the cursor (a composed move's preview)
        t.changed()
        return None

    def on_scroll(self, t: Table, scroll_y: float, ctrl: bool, shift: bool):
        if not self.started:
            return POP
        t.point.layer(1 if scroll_y > 0 else -1)
        return None

    def on_release(self, t: Table, drag, button: int):
        if not self.started:
            if drag is not None and button == mouse.LEFT:
                return POP, I.Click()        # a press without a drag: an ordinary click
            return POP
        if t.ctl.action() is not None:
            return POP, I.Do(t.ctl.confirm)    # refused by the core: the move stays composed, its reason in red
        return POP


def candidate(t: Table, hit) -> MoveDrag | None:
    """A press on the character whose turn it is, nothing being composed: a move drag may start."""
    ctl = t.ctl
    if hit["char"] is None or ctl.pending is not None:
        return None
    cid = hit["char"].char
    return MoveDrag(cid) if cid == ctl.session.current and cid in ctl.state.actors else None
