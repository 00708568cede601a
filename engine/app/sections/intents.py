"""What a click, a drop or the wheel on a section asks for (the tcod tutorial's actions): small values a handler
returns, performed in one place by the window (:func:`engine.app.panels.perform`). A section changes nothing of the
window, the controller or the view state itself."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal


@dataclass(frozen=True)
class Say:
    """A message in the message line (and, with ``toast``, big on screen for a few seconds)."""

    text: str
    kind: str = "info"
    toast: bool = True


@dataclass(frozen=True)
class Control:
    """A controller call. ``wait``: one that changes the session, run once no worker reads it (the window's
    ``do``)."""

    call: Literal["choose", "cancel", "select", "confirm", "undo", "redo", "answer"]
    args: tuple = ()
    wait: bool = False


@dataclass(frozen=True)
class ToggleHelp:
    """F1's help shown or hidden."""


@dataclass(frozen=True)
class ScrollLog:
    """The event log scrolled ``by`` lines (older: more)."""

    by: int


@dataclass(frozen=True)
class GmStep:
    """A recorded GM action (a turn-order row dragged onto another: ``gm_order``)."""

    action: dict


@dataclass(frozen=True)
class PickSpell:
    """The cast menu's row: that spell becomes the composed cast's."""

    spell: str


@dataclass(frozen=True)
class CompendiumRow:
    """The compendium's row ``i`` clicked: highlighted, or added when it was already."""

    i: int


@dataclass(frozen=True)
class OutlookSide:
    """How does this end?: the side's next policy."""

    side: str


@dataclass(frozen=True)
class HideOutlook:
    """How does this end? hidden (I shows it again)."""


@dataclass(frozen=True)
class TokenHudAct:
    """A token HUD button: (what, value), e.g. ("hp", -5), ("cond", "prone"), ("hide", None)."""

    what: str
    value: Any = None


@dataclass(frozen=True)
class OpenChosen:
    """Ctrl+O's entry ``i`` opened."""

    i: int


Intent = (Say | Control | ToggleHelp | ScrollLog | GmStep | PickSpell | CompendiumRow | OutlookSide | HideOutlook
          | TokenHudAct | OpenChosen)
