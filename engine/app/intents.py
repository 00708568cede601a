"""What a mode or a HUD section asks of the window (issue 40, the shape): a mode's handler returns one of these --
or a tuple of them and of the mode stack's own results (:mod:`engine.app.modes.base`) --, a click, a drop or the
wheel on a section returns one or None (:mod:`engine.app.sections.base`), and one place performs every one
(:func:`engine.app.perform.perform`), as the tcod tutorial's handlers return actions. Plain frozen data: neither a
mode nor a section imports anything that reaches the window, and neither changes the window itself.

``then`` (what follows a save-first prompt) is another intent, or a plain callable from code outside the modes
(the window's own quit, a GM line's ``start``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Literal, Union


class Intent:
    """The base of every intent (what :meth:`ModeStack.apply` hands to the table's ``perform``, and what a
    section's click, drop or wheel returns to :class:`engine.app.panels.Panels`)."""


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
    """The players' view passes to the side a question is for, or back (``Seats.hotseat``, engine/app/seats.py)."""


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
    """A GM action (``gm_set``, ``gm_place``, a turn-order row dragged onto another: ``gm_order``, ...) sent to the
    core and said on screen."""

    action: dict = field(compare=False)


@dataclass(frozen=True)
class GmCommand(Intent):
    """The ``;`` line."""

    text: str


# ---------------------------------------------------------------------------------------- what the sections ask
@dataclass(frozen=True)
class Control(Intent):
    """A controller call. ``wait``: one that changes the session, run once no worker reads it (the window's
    ``do``)."""

    call: Literal["choose", "cancel", "select", "confirm", "undo", "redo", "answer"]
    args: tuple = ()
    wait: bool = False


@dataclass(frozen=True)
class ToggleHelp(Intent):
    """F1's help shown or hidden."""


@dataclass(frozen=True)
class ScrollLog(Intent):
    """The event log scrolled ``by`` lines (older: more)."""

    by: int


@dataclass(frozen=True)
class PickSpell(Intent):
    """The cast menu's row: that spell becomes the composed cast's."""

    spell: str


@dataclass(frozen=True)
class CompendiumRow(Intent):
    """The compendium's row ``i`` clicked: highlighted, or added when it was already."""

    i: int


@dataclass(frozen=True)
class OutlookSide(Intent):
    """How does this end?: the side's next policy."""

    side: str


@dataclass(frozen=True)
class HideOutlook(Intent):
    """How does this end? hidden (I shows it again)."""


@dataclass(frozen=True)
class TokenHudAct(Intent):
    """A token HUD button: (what, value), e.g. ("hp", -5), ("cond", "prone"), ("hide", None)."""

    what: str
    value: Any = None


@dataclass(frozen=True)
class OpenChosen(Intent):
    """Ctrl+O's entry ``i`` opened."""

    i: int
