"""Sections (arcade's ``Section`` / ``SectionManager``): each panel of the HUD is a section that lays itself out
at any window size (from the :class:`Layout` the sections before it leave), builds its draw list, says what it
depends on (the HUD's cache key is the sections' own) and takes the clicks on the hit ids it made (``kinds``).
One :class:`SectionManager` builds them in order, the modal ones last, and hit-tests: no click ladder.

A section is handed a :class:`~engine.app.sections.context.Table` (``t``), never the window; a click, a drop or
the wheel returns an intent (:mod:`engine.app.intents`, the modes' own) that the window performs in the one place
that performs every intent (:func:`engine.app.perform.perform`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.app.sections.context import Table
from engine.app.intents import Intent


@dataclass
class Layout:
    """What the sections built so far leave to the next ones (pixels, top-left origin)."""

    W: float
    H: float
    lh: float
    small: bool
    bar_h: float = 0.0
    pw: float = 0.0               # the left column's width
    left_bottom: float = 0.0      # where the left column ends
    by: float = 0.0               # the top of the action buttons (the window's height when none are drawn)
    rw: float = 0.0               # the right column's width
    ry: float = 0.0               # where the right column has reached
    notes: list = field(default_factory=list)
    state: Any = None             # the rules state the panels show (hud_state)


class Section:
    name = "section"
    modal = False                 # drawn after every other section (over them)
    #: drawn on the players' screen (F4) too: False for the GM's tools (the action bar, the preview of what the GM
    #: composes, the odds, the prompts and pickers), which the players' window cannot use and must not show
    players = True
    kinds: tuple[str, ...] = ()   # the hit ids (hud rects' first element) this section answers

    def depends(self, t: Table) -> tuple:
        """What this section's picture depends on beyond the controller's versions and the view state's."""
        return ()

    def visible(self, t: Table) -> bool:
        return True

    def build(self, t: Table, L: Layout) -> None:
        raise NotImplementedError

    def on_click(self, t: Table, kind: str, val) -> Intent | None:
        """A click on one of its hit ids: what it asks for (None: nothing)."""
        return None

    def on_scroll(self, t: Table, x: float, y: float, scroll_y: float) -> Intent | None:
        """The wheel over the HUD: what it asks for when this section takes it (None: not this section's)."""
        return None

    def on_drop(self, t: Table, start, end) -> Intent | None:
        """A drag from one of its hit ids (``start``) released over ``end`` (another hit id, or None)."""
        return None


class SectionManager:
    def __init__(self, sections: list[Section]) -> None:
        self.sections = [s for s in sections if not s.modal] + [s for s in sections if s.modal]
        self.by_kind: dict[str, Section] = {}
        for s in self.sections:
            for k in s.kinds:
                assert k not in self.by_kind, f"hit id {k!r} claimed by {self.by_kind[k].name} and {s.name}"
                self.by_kind[k] = s

    def key(self, t: Table) -> tuple:
        return tuple(s.depends(t) for s in self.sections)

    def build(self, t: Table, L: Layout) -> None:
        for s in self.sections:
            if (s.players or not t.players_screen) and s.visible(t):
                s.build(t, L)

    def over(self, t: Table, x: float, y: float):
        return t.hud.over(x, y)

    def click(self, t: Table, x: float, y: float) -> tuple[bool, Intent | None]:
        """A click on the HUD goes to the section whose hit id it is: (the HUD was under it -- a panel's background
        included: never the map under it --, what the section asks for)."""
        ident = t.hud.over(x, y)
        if ident is None:
            return False, None
        if t.players_screen:           # it only shows: a click there changes nothing of the GM's
            return True, None
        kind, val = ident
        s = self.by_kind.get(kind)
        return True, (s.on_click(t, kind, val) if s is not None else None)

    def drop(self, t: Table, start, end) -> tuple[bool, Intent | None]:
        """A drag that began on a hit id of the HUD: the section owning that id takes it."""
        if not start or start[0] not in self.by_kind:
            return False, None
        if t.players_screen:           # a turn-order row dragged there reorders nothing
            return True, None
        return True, self.by_kind[start[0]].on_drop(t, start, end)

    def scroll(self, t: Table, x: float, y: float, scroll_y: float) -> tuple[bool, Intent | None]:
        if t.hud.over(x, y) is None:
            return False, None
        for s in self.sections:
            if (got := s.on_scroll(t, x, y, scroll_y)) is not None:
                return True, got
        return True, None
