"""The compendium's panel (Ctrl+B, engine/app/modes/compendium.py): on the right half of the window, the search
line, the matching creatures (name, CR, size, type, a wing mark for a flyer, the library) and the highlighted one's
stat block with what the rules model and what they leave out (and why). The map stays visible on the left: the
cell cursor there is where Enter puts the creature. A click on a row highlights it; a second click adds it."""

from __future__ import annotations

from engine.app import compendium as C
from engine.app import hud as H
from engine.app.sections.base import Layout, Section
from engine.app.sections.context import Table
from engine.app.intents import CompendiumRow, Intent

TONES = {"head": H.ACCENT, "fg": H.FG, "dim": H.DIM, "good": H.GOOD, "bad": H.BAD}


class CompendiumPanel(Section):
    name = "compendium"
    modal = True                  # over the other panels (the map's clicks still reach the mode)
    players = False
    kinds = ("compendium",)

    def visible(self, t: Table) -> bool:
        return t.compendium is not None

    def depends(self, t: Table) -> tuple:
        m = t.compendium
        return () if m is None else m.key() + (tuple(t.ctl.hover or ()),)

    def on_click(self, t: Table, kind, val) -> Intent | None:
        if t.compendium is None or not isinstance(val, int):
            return None
        return CompendiumRow(val)

    def build(self, t: Table, L: Layout) -> None:
        m = t.compendium
        hud = t.hud
        W, Hh = L.W, L.H
        lh = hud.line + 5
        x0, x1 = max(W * 0.40, 300), W - 8
        y0, y1 = 8 + L.bar_h, Hh - 40
        hud.box(x0 - 2, y0 - 2, x1 + 2, y1 + 2, (200, 170, 80, 255))
        hud.box(x0, y0, x1, y1, (10, 12, 18, 246))
        hud.block(x0, y0, x1, y1, "compendium")
        cur = t.ctl.hover
        where = f"cursor {list(cur)}" if cur else "no cell under the cursor"
        hud.text(x0 + 12, y0 + 8, f"Compendium: {m.query}_   ({len(m.found)} of {len(m.all)};  {where};  side "
                 f"{m.side})", H.ACCENT, max_w=x1 - x0 - 24)
        hud.text(x0 + 12, y0 + 8 + lh, "type: name, type, cr5 / cr1-5, flies   Up/Down  Enter: add at the cursor   "
                 "Tab: side   Esc", H.DIM, max_w=x1 - x0 - 24)
        top = y0 + 14 + 2 * lh
        rows = max(int((y1 - top - 8) // lh), 3)
        split = x0 + (x1 - x0) * 0.46
        first = min(max(m.i - rows // 2, 0), max(len(m.found) - rows, 0))
        for r, i in enumerate(range(first, min(first + rows, len(m.found)))):
            e = m.found[i]
            yy = top + r * lh
            if i == m.i:
                hud.box(x0 + 6, yy - 3, split - 4, yy + lh - 4, (60, 70, 100, 230))
            label = f"{e.name}  CR {C.cr_text(e.cr)}" + ("  flies" if e.flies else "") + f"  {e.type}"
            hud.text(x0 + 12, yy, label, H.FG if i == m.i else H.DIM, max_w=split - x0 - 20)
            hud.rects.append((x0, yy - 2, split - 4, yy + lh - 4, ("compendium", i)))
        if not m.found:
            hud.text(x0 + 12, top, "nothing matches (Backspace: a letter back)", H.BAD)
        e = m.current
        if e is None:
            return
        yy, bottom = top, y1 - 8
        for text, tone in C.stat_lines(e):
            for part in hud.wrap(text, x1 - split - 20):
                if yy + lh > bottom:
                    hud.text(split + 8, yy, "...", H.DIM)
                    return
                hud.text(split + 8, yy, part, TONES.get(tone, H.FG), max_w=x1 - split - 20)
                yy += lh
