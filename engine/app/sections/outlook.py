"""The "how does this end?" panel (I; issue 26), in the right column: the background run's progress, then each
side's win rate with its 95% interval, draws and rounds, and which state the answer is for. The GM's: hidden in
the players' view (F3) and on the players' screen. A click on it hides it (I shows it again)."""

from __future__ import annotations

from engine.app import hud as H
from engine.app.outlook import outlook, rows
from engine.app.sections.base import Layout, Section
from engine.render.state import side_colour

COLOURS = {"dim": H.DIM, "fg": H.FG, "bad": H.BAD, "accent": H.ACCENT}


class HowDoesThisEnd(Section):
    name = "how does this end"
    kinds = ("outlook",)

    def visible(self, win) -> bool:
        o = getattr(win, "outlook", None)
        return (o is not None and o.future is not None and o.shown and getattr(win, "gm", None) is None
                and win.vstate.player_side is None)

    def depends(self, win) -> tuple:
        o = getattr(win, "outlook", None)
        if o is None or o.future is None:
            return ()
        return (id(o.future), o.future.done(), o.shown, o.stale(win.ctl.session.actions), win.vstate.player_side)

    def on_click(self, win, kind, val) -> None:
        outlook(win).shown = False
        win.say("how does this end? hidden (I shows it again)")

    def build(self, win, L: Layout) -> None:
        hud, w = win.hud, L.rw
        x, y = L.W - w - 8, L.ry
        drawn = []
        for text, tag in rows(win):
            col = (*side_colour(tag[1]), 255) if isinstance(tag, tuple) else COLOURS[str(tag)]
            drawn.append((text, col))
        bottom = hud.panel(x, y, w, "How does this end? (I; click: hide)", drawn)
        hud.rects.append((x, y, x + w, bottom, ("outlook", None)))
        win.panels["outlook"] = (x, y, x + w, bottom, H.BG_TITLE)
        L.ry = bottom + 6
