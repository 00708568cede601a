"""Input modes (the tcod tutorial's event-handler states): the window hands each event to the top mode of a
stack, with the table (:class:`engine.app.table.Table`: the controller, view state, camera, ...), never the window
itself. A handler returns ``None`` (handled), a new :class:`Mode` (pushed on top), :data:`POP` (this mode leaves),
:class:`Replace` (this one leaves, that one comes), :data:`PASS` (not mine: the mode below gets it), an intent
(:mod:`engine.app.intents`: what the window does, performed by the table's ``perform``), or a tuple of these,
applied in order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.app.intents import Intent

if TYPE_CHECKING:
    from engine.app.table import Table


class _Pass:
    def __repr__(self) -> str:
        return "PASS"


class _Pop:
    def __repr__(self) -> str:
        return "POP"


PASS: Any = _Pass()
POP: Any = _Pop()


class Replace:
    def __init__(self, mode: "Mode") -> None:
        self.mode = mode


class Mode:
    """A state of the input. The defaults pass everything down; a modal mode swallows the map's clicks."""

    name = "mode"
    modal = False          # a map click under it does nothing (a question or a prompt is on screen)

    def enter(self, t: Table) -> None:
        """Called when pushed."""

    def leave(self, t: Table) -> None:
        """Called when removed."""

    def on_key(self, t: Table, symbol: int, modifiers: int) -> Any:
        return PASS

    def on_text(self, t: Table, text: str) -> Any:
        return PASS

    def on_click(self, t: Table, hit) -> Any:
        """A left click on the map (no panel under it); ``hit`` is the picker's answer."""
        return None if self.modal else PASS

    def on_press(self, t: Table, button: int, modifiers: int, over_hud: bool) -> Any:
        return PASS

    def on_drag(self, t: Table, dx: float, dy: float, buttons: int) -> Any:
        return PASS

    def on_release(self, t: Table, drag: dict | None, button: int) -> Any:
        return PASS

    def on_scroll(self, t: Table, scroll_y: float, ctrl: bool, shift: bool) -> Any:
        return PASS

    def status(self, t: Table) -> tuple[str, str] | None:
        """The message line while this mode is up (text, kind), or None."""
        return None

    def key(self) -> tuple:
        """What of this mode shows on screen (part of the HUD's cache key)."""
        return (self.name,)


class ModeStack:
    def __init__(self, bottom: Mode) -> None:
        self.modes: list[Mode] = [bottom]

    @property
    def top(self) -> Mode:
        return self.modes[-1]

    def push(self, t: Table, mode: Mode) -> Mode:
        self.modes.append(mode)
        mode.enter(t)
        return mode

    def remove(self, t: Table, mode: Mode) -> None:
        if mode in self.modes and mode is not self.modes[0]:
            self.modes.remove(mode)
            mode.leave(t)

    def find(self, cls) -> Any:
        return next((m for m in reversed(self.modes) if isinstance(m, cls)), None)

    def apply(self, t: Table, mode: Mode, r: Any) -> None:
        """A handler's result: the stack changed, an intent performed (a tuple: each in order)."""
        if isinstance(r, tuple):
            for one in r:
                self.apply(t, mode, one)
        elif isinstance(r, Mode):
            self.push(t, r)
        elif r is POP:
            self.remove(t, mode)
        elif isinstance(r, Replace):
            self.remove(t, mode)
            self.push(t, r.mode)
        elif isinstance(r, Intent):
            t.perform(r)

    def dispatch(self, t: Table, event: str, *args) -> bool:
        """Hand an event to the top mode, down the stack while they pass it; True when one took it."""
        for mode in reversed(list(self.modes)):
            r = getattr(mode, event)(t, *args)
            if r is PASS:
                continue
            self.apply(t, mode, r)
            return True
        return False

    def status(self, t: Table) -> tuple[str, str] | None:
        for mode in reversed(self.modes):
            s = mode.status(t)
            if s is not None:
                return s
        return None

    def key(self) -> tuple:
        return tuple(m.key() for m in self.modes)
