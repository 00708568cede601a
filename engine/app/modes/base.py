"""Input modes (the tcod tutorial's event-handler states): the window hands each event to the top mode of a
stack. A handler returns ``None`` (handled), a new :class:`Mode` (pushed on top), :data:`POP` (this mode leaves),
:class:`Replace` (this one leaves, that one comes) or :data:`PASS` (not mine: the mode below gets it)."""

from __future__ import annotations

from typing import Any


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

    def enter(self, win) -> None:
        """Called when pushed."""

    def leave(self, win) -> None:
        """Called when removed."""

    def on_key(self, win, symbol: int, modifiers: int) -> Any:
        return PASS

    def on_text(self, win, text: str) -> Any:
        return PASS

    def on_click(self, win, hit) -> Any:
        """A left click on the map (no panel under it); ``hit`` is the picker's answer."""
        return None if self.modal else PASS

    def on_press(self, win, button: int, modifiers: int, over_hud: bool) -> Any:
        return PASS

    def on_drag(self, win, dx: float, dy: float, buttons: int) -> Any:
        return PASS

    def on_release(self, win, drag: dict | None, button: int) -> Any:
        return PASS

    def on_scroll(self, win, scroll_y: float, ctrl: bool, shift: bool) -> Any:
        return PASS

    def status(self, win) -> tuple[str, str] | None:
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

    def push(self, win, mode: Mode) -> Mode:
        self.modes.append(mode)
        mode.enter(win)
        return mode

    def remove(self, win, mode: Mode) -> None:
        if mode in self.modes and mode is not self.modes[0]:
            self.modes.remove(mode)
            mode.leave(win)

    def find(self, cls) -> Any:
        return next((m for m in reversed(self.modes) if isinstance(m, cls)), None)

    def apply(self, win, mode: Mode, r: Any) -> None:
        if isinstance(r, Mode):
            self.push(win, r)
        elif r is POP:
            self.remove(win, mode)
        elif isinstance(r, Replace):
            self.remove(win, mode)
            self.push(win, r.mode)

    def dispatch(self, win, event: str, *args) -> bool:
        """Hand an event to the top mode, down the stack while they pass it; True when one took it."""
        for mode in reversed(list(self.modes)):
            r = getattr(mode, event)(win, *args)
            if r is PASS:
                continue
            self.apply(win, mode, r)
            return True
        return False

    def status(self, win) -> tuple[str, str] | None:
        for mode in reversed(self.modes):
            s = mode.status(win)
            if s is not None:
                return s
        return None

    def key(self) -> tuple:
        return tuple(m.key() for m in self.modes)
