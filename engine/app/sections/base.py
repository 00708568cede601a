"""Sections (arcade's ``Section`` / ``SectionManager``): each panel of the HUD is a section that lays itself out
at any window size (from the :class:`Layout` the sections before it leave), builds its draw list, says what it
depends on (the HUD's cache key is the sections' own) and takes the clicks on the hit ids it made (``kinds``).
One :class:`SectionManager` builds them in order, the modal ones last, and hit-tests: no click ladder."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


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

    def depends(self, win) -> tuple:
        """What this section's picture depends on beyond the controller's versions and the view state's."""
        return ()

    def visible(self, win) -> bool:
        return True

    def build(self, win, L: Layout) -> None:
        raise NotImplementedError

    def on_click(self, win, kind: str, val) -> None:
        """A click on one of its hit ids."""

    def on_scroll(self, win, x: float, y: float, scroll_y: float) -> bool:
        """The wheel over the HUD; True when this section took it."""
        return False

    def on_drop(self, win, start, end) -> None:
        """A drag from one of its hit ids (``start``) released over ``end`` (another hit id, or None)."""


def players_screen(win) -> bool:
    """``win`` is the players' screen (F4's second window: ``win.gm`` is the GM's window)."""
    return getattr(win, "gm", None) is not None


class SectionManager:
    def __init__(self, sections: list[Section]) -> None:
        self.sections = [s for s in sections if not s.modal] + [s for s in sections if s.modal]
        self.by_kind: dict[str, Section] = {}
        for s in self.sections:
            for k in s.kinds:
                assert k not in self.by_kind, f"hit id {k!r} claimed by {self.by_kind[k].name} and {s.name}"
                self.by_kind[k] = s

    def key(self, win) -> tuple:
        return tuple(s.depends(win) for s in self.sections)

    def build(self, win, L: Layout) -> None:
        table = players_screen(win)
        for s in self.sections:
            if (s.players or not table) and s.visible(win):
                s.build(win, L)

    def over(self, win, x: float, y: float):
        return win.hud.over(x, y)

    def click(self, win, x: float, y: float) -> bool:
        """A click on the HUD goes to the section whose hit id it is; True when the HUD was under it (a panel's
        background included: never the map under it)."""
        ident = win.hud.over(x, y)
        if ident is None:
            return False
        if players_screen(win):        # it only shows: a click there changes nothing of the GM's
            return True
        kind, val = ident
        s = self.by_kind.get(kind)
        if s is not None:
            s.on_click(win, kind, val)
        return True

    def drop(self, win, start, end) -> bool:
        """A drag that began on a hit id of the HUD: the section owning that id takes it."""
        if not start or start[0] not in self.by_kind:
            return False
        if players_screen(win):        # a turn-order row dragged there reorders nothing
            return True
        self.by_kind[start[0]].on_drop(win, start, end)
        return True

    def scroll(self, win, x: float, y: float, scroll_y: float) -> bool:
        if win.hud.over(x, y) is None:
            return False
        for s in self.sections:
            if s.on_scroll(win, x, y, scroll_y):
                break
        return True
