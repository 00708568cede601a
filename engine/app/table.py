"""The table a mode is handed instead of the window (issue 40, the shape): the controller, the view state, the
camera, the mode stack, the scene, the pointer (the pick under the mouse and the cell cursor), what says a line
on screen, and ``perform`` for what only the window can do (:mod:`engine.app.intents`). Frozen: a mode reads and
calls through it, never sets a field; the window builds one for each event (:func:`table_of`), so a scene opened
or a camera made anew is the next event's.

Its fields are named as the window's attributes are, so code outside the modes that still holds the window (a
section's click) can hand the window where a table is asked for while it moves over."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:
    import numpy as np

    from engine.app.camera_control import CameraControl
    from engine.app.controller import Controller
    from engine.app.intents import Intent
    from engine.app.modes.base import ModeStack
    from engine.app.pointing import Pointer
    from engine.app.viewstate import ViewState


class Say(Protocol):
    def __call__(self, text: str, kind: str = "info", toast: bool = True) -> None: ...


class Offscreen(Protocol):
    """A frame drawn by the window's renderer into a target of its own (a camera path's still): uint8 [H, W, 3]."""

    def __call__(self, cam: Any, state: Any, options: Any, size: tuple[int, int]) -> "np.ndarray": ...


@dataclass(frozen=True)
class Table:
    ctl: "Controller"
    vstate: "ViewState"
    camctl: "CameraControl"
    modes: "ModeStack"
    scene: Any
    point: "Pointer"
    say: Say
    changed: Callable[[], None]
    name: Callable[[Any], str]                 # a character id -> its name on screen
    named: Callable[[str], str]                # ids in a line -> names
    perform: Callable[["Intent"], Any]
    shot_dir: Path = Path(".")
    offscreen: Offscreen | None = None


def table_of(win) -> Table:
    """The table of a window (or of the stand-in the tests build: the same attributes)."""
    from engine.app.pointing import Pointer

    return Table(ctl=win.ctl, vstate=win.vstate, camctl=win.camctl, modes=win.modes, scene=win.scene,
                 point=Pointer(win), say=win.say, changed=win.changed, name=win.name, named=win.named,
                 perform=win.perform, shot_dir=Path(getattr(win, "shot_dir", ".")), offscreen=_offscreen(win))


def _offscreen(win) -> Offscreen:
    def draw(cam, state, options, size):
        view = win.rc.target(size)
        try:
            with win.rc.drawing_into(view):
                win.renderer.draw(cam, state, None, options)
            return win.rc.read_target(view)
        finally:
            view.release()
    return draw
