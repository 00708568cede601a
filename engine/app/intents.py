"""What a mode asks of the window (issue 40, the shape): a handler returns one of these -- or a tuple of them and
of the mode stack's own results (:mod:`engine.app.modes.base`) -- and one place performs it
(:func:`engine.app.perform.perform`), as the tcod tutorial's handlers return actions. Plain frozen data: a mode
imports nothing that reaches the window.

``then`` (what follows a save-first prompt) is another intent, or a plain callable from code outside the modes
(the window's own quit, a GM line's ``start``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Union


class Intent:
    """The base of every intent (what :meth:`ModeStack.apply` hands to the table's ``perform``)."""


Then = Union[Intent, Callable[[], Any]]


@dataclass(frozen=True)
class Do(Intent):
    """A session-changing call: now, or as soon as no worker reads the session (``PlayWindow.do``)."""

    fn: Callable[..., Any]
    args: tuple = ()


@dataclass(frozen=True)
class Call(Intent):
    """A callable that code outside the modes handed a prompt (a recovery file's yes), called as it is."""

    fn: Callable[[], Any] = field(compare=False)


@dataclass(frozen=True)
class Say(Intent):
    """A line in the message line (and big on screen for a while: ``toast``), in its turn among the others."""

    text: str
    kind: str = "info"
    toast: bool = True


@dataclass(frozen=True)
class Click(Intent):
    """An ordinary left click where the mouse is (the HUD's section under it, else the map)."""


@dataclass(frozen=True)
class Screenshot(Intent):
    """F12: a PNG of the next frame drawn."""


@dataclass(frozen=True)
class Hotseat(Intent):
    """The players' view passes to the side a question is for, or back (``PlayWindow.hotseat``)."""


@dataclass(frozen=True)
class NextPlayerView(Intent):
    """F3: the next side's view, then the GM's."""


@dataclass(frozen=True)
class ToggleMirror(Intent):
    """F4: the players' screen opened or closed (from either window)."""


@dataclass(frozen=True)
class Caption(Intent):
    text: str


@dataclass(frozen=True)
class Outlook(Intent):
    """I: a batch of fights from here in the background; ``choose``: Shift+I, the next policies first."""

    choose: bool = False


@dataclass(frozen=True)
class Quit(Intent):
    """The window closes (no question: wrap it in :class:`SaveFirst` for that)."""


@dataclass(frozen=True)
class Save(Intent):
    """Ctrl+S; a refusal is said, the window goes on."""


@dataclass(frozen=True)
class SaveAs(Intent):
    name: str


@dataclass(frozen=True)
class OpenPath(Intent):
    """A scene (``.toml``) or a saved game opened in the window."""

    path: Path


@dataclass(frozen=True)
class OpenChooser(Intent):
    """Ctrl+O: the picker of the scenes and saves around."""


@dataclass(frozen=True)
class SaveFirst(Intent):
    """``then`` at once when nothing would be lost, else after "save first? (y)es / (n)o / (c)ancel". ``opens``:
    the file ``then`` opens (a save over it is not made). ``hint``: the line said with the prompt, ``{lost}`` the
    unsaved work (the default names ``what``)."""

    what: str
    then: Then = field(compare=False)
    opens: Path | None = None
    hint: str | None = None


@dataclass(frozen=True)
class SaveThen(Intent):
    """The save-first prompt's yes: save (not over ``opens``), then ``then``; a refused save stops there."""

    what: str
    then: Then = field(compare=False)
    opens: Path | None = None


@dataclass(frozen=True)
class GmStep(Intent):
    """A GM action (``gm_set``, ``gm_place``, ...) sent to the core and said on screen."""

    action: dict = field(compare=False)


@dataclass(frozen=True)
class GmCommand(Intent):
    """The ``;`` line."""

    text: str
