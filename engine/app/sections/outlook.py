"""The "how does this end?" panel (I; issue 26), in the right column: the background run's progress, then each
side's win rate with its 95% interval, draws and rounds, and which state the answer is for; above them one row
per side with the policy it plays in the next run (a click: the next policy). The GM's: hidden in the players'
view (F3) and on the players' screen. A click on the rest of it hides it (I shows it again)."""

from __future__ import annotations

from engine.app import hud as H
from engine.app.outlook import rows, side_rows
from engine.app.sections.base import Layout, Section
from engine.app.sections.context import Table
from engine.app.intents import HideOutlook, Intent, OutlookSide
from engine.render.state import side_colour

COLOURS = {"dim": H.DIM, "fg": H.FG, "bad": H.BAD, "accent": H.ACCENT}


class HowDoesThisEnd(Section):
    name = "how does this end"
    players = False               # the odds are the GM's
    kinds = ("outlook", "outlook_side")

    def visible(self, t: Table) -> bool:
        o = t.outlook
        return o is not None and (o.future is not None or o.setup) and o.shown and t.vstate.player_side is None

    def depends(self, t: Table) -> tuple:
        o = t.outlook
        if o is None or (o.future is None and not o.setup):
            return ()
        return (id(o.future), o.future is not None and o.future.done(), o.shown, o.setup,
                tuple(sorted(o.sides.items())), o.policy, o.stale(t.ctl.session.actions), t.vstate.player_side)

    def on_click(self, t: Table, kind, val) -> Intent | None:
        return OutlookSide(val) if kind == "outlook_side" else HideOutlook()

    def build(self, t: Table, L: Layout) -> None:
        hud, w = t.hud, L.rw
        x, y = L.W - w - 8, L.ry
        sides = side_rows(t)
        drawn = [("next run (I):", H.DIM)] + [(text, (*side_colour(side), 255)) for text, side in sides]
        for text, tag in rows(t):
            col = (*side_colour(tag[1]), 255) if isinstance(tag, tuple) else COLOURS[str(tag)]
            drawn.append((text, col))
        bottom = hud.panel(x, y, w, "How does this end? (I: run; click: hide)", drawn)
        hud.rects.append((x, y, x + w, bottom, ("outlook", None)))
        lh = hud.line + 3
        top = y + lh + 8 + lh                       # the policy rows, each its own button (hud.panel's row pitch),
        for i, (_t, side) in enumerate(sides):      # after the panel's: a hit is looked up from the last rectangle
            hud.rects.append((x, top + i * lh, x + w, top + (i + 1) * lh, ("outlook_side", side)))
        t.drawn.panels["outlook"] = (x, y, x + w, bottom, H.BG_TITLE)
        L.ry = bottom + 6
