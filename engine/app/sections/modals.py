"""The panels drawn over everything: a player's question, the yes / no prompt, Ctrl+O's chooser and F1's help
(generated from the main mode's key map, handed in the table)."""

from __future__ import annotations

from engine.app import hud as H
from engine.app.sections.base import Layout, Section
from engine.app.sections.context import Table
from engine.app.intents import Control, Intent, OpenChosen


def modal(t: Table, lines, click=False, ids=None) -> None:
    hud = t.hud
    W, Hh = t.size
    lh = hud.line + 6
    w = min(max(hud.width(txt) for txt in lines) + 40, W - 20)
    h = len(lines) * lh + 24
    x0, y0 = (W - w) / 2, max((Hh - h) / 2, 4)
    hud.box(x0, y0, x0 + w, y0 + h, (10, 12, 18, 248))
    hud.block(0, 0, W, Hh, "modal")
    for i, txt in enumerate(lines):
        if txt:
            hud.text(x0 + 20, y0 + 12 + i * lh, txt, H.ACCENT if i == 0 else H.FG, max_w=w - 40)
        row = (ids[i] if ids is not None else i - 1) if i > 0 else None
        if click and row is not None:
            hud.rects.append((x0, y0 + 12 + i * lh - 2, x0 + w, y0 + 12 + (i + 1) * lh - 4, ("open", row)))


class QuestionPanel(Section):
    """Who chooses (named, with the side), the question, the dice rolled so far, one row per option with what it
    does (a click or its number answers; Enter: the highlighted one; Esc: put aside)."""

    name = "question"
    modal = True
    players = False               # asked of the GM's table (the chooser may be one the players cannot see)
    kinds = ("answer",)

    def depends(self, t: Table) -> tuple:
        import json

        return (json.dumps(t.ctl.question_view(), default=str),)

    def visible(self, t: Table) -> bool:
        return t.ctl.question is not None

    def on_click(self, t: Table, kind, val) -> Intent | None:
        return Control("answer", (val,), wait=True) if t.ctl.question is not None else None

    def lines(self, qv) -> tuple[list, int]:
        head = (f"{qv['label']} choose{'' if qv['table'] else 's'}" + (f"  (side {qv['side']})" if qv["side"] else "")
                + (f"  {qv['rule']}" if qv["rule"] else ""))
        lines = [(head, H.ACCENT)]
        if qv["question"]:
            lines.append((qv["question"], H.FG))
        if qv["rolled"]:
            lines.append(("rolled: " + ", ".join(qv["rolled"]), H.GOOD))
        first = len(lines)
        for i, o in enumerate(qv["options"]):
            mark = ">" if i == qv["pick"] else " "
            lines.append((f"{mark} {i + 1}  {o['label']}: {o['does']}" + ("  (default)" if o["default"] else ""),
                          H.FG if i == qv["pick"] else H.DIM))
        lines.append(("1-9 or click: choose   Up/Down, Enter: the highlighted   Esc: "
                      + ("leave it as it stands" if qv["table"] else "put the action aside"), H.DIM))
        return lines, first

    def build(self, t: Table, L: Layout) -> None:
        qv = t.ctl.question_view()
        assert qv is not None                # visible: a question is asked
        hud = t.hud
        W, Hh = L.W, L.H
        lh = hud.line + 6
        lines, first = self.lines(qv)
        w = min(max(hud.width(txt) for txt, _c in lines) + 40, W - 20)
        h = len(lines) * lh + 24
        x0, y0 = (W - w) / 2, max((Hh - h) / 2, 4)
        hud.box(x0 - 2, y0 - 2, x0 + w + 2, y0 + h + 2, (200, 170, 80, 255))
        hud.box(x0, y0, x0 + w, y0 + h, (10, 12, 18, 250))
        hud.block(x0, y0, x0 + w, y0 + h, "question")
        t.drawn.panels["question"] = (x0, y0, x0 + w, y0 + h)
        for i, (txt, col) in enumerate(lines):
            yy = y0 + 12 + i * lh
            if i - first == qv["pick"] and 0 <= i - first < len(qv["options"]):
                hud.box(x0 + 8, yy - 3, x0 + w - 8, yy + lh - 5, (60, 70, 100, 230))
            hud.text(x0 + 20, yy, txt, col, max_w=w - 40)
            if 0 <= i - first < len(qv["options"]):
                hud.rects.append((x0, yy - 2, x0 + w, yy + lh - 4, ("answer", i - first)))


class YesNoPanel(Section):
    name = "yes/no"
    modal = True
    players = False

    def visible(self, t: Table) -> bool:
        return t.yesno is not None

    def build(self, t: Table, L: Layout) -> None:
        yn = t.yesno
        modal(t, [yn.text, yn.hint()])


class ChooserPanel(Section):
    name = "chooser"
    modal = True
    players = False
    kinds = ("open",)

    def visible(self, t: Table) -> bool:
        return t.chooser is not None

    def on_click(self, t: Table, kind, val) -> Intent | None:
        return OpenChosen(val) if t.chooser is not None else None

    def build(self, t: Table, L: Layout) -> None:
        """The entries that fit the window's height (issue 23 item 7: the list ran off a 720-high window), the
        highlighted one always among them; a click on a row opens that entry."""
        ch = t.chooser
        lh = t.hud.line + 6
        fit = max(int((L.H - 24 - 8) // lh) - 3, 3)
        n = len(ch.paths)
        first = min(max(ch.i - fit // 2, 0), max(n - fit, 0))
        shown = range(first, min(first + fit, n))
        lines = ["Open a scene or a saved game (type to filter; Up/Down, Enter; Esc: cancel)"]
        if ch.query or n < len(ch.all_paths):
            lines[0] = f"Open: {ch.query}_  ({n} of {len(ch.all_paths)}; Backspace: a letter back)"
        lines.append(f"  ... {first} more above" if first else ("  nothing matches" if not n else ""))
        lines += [("> " if i == ch.i else "  ") + ch.labels[i] for i in shown]
        below = n - shown.stop
        lines.append(f"  ... {below} more below" if below else "")
        modal(t, lines, click=True, ids=[None, None] + list(shown) + [None])


class HelpPanel(Section):
    """Every binding of the key map, in two columns; a long description wraps in its column rather than being cut
    (issue 23 item 7: "right / middle dra.", "(AIR-."), and a window too low for it gets a smaller print."""

    name = "help"
    modal = True
    players = False

    def visible(self, t: Table) -> bool:
        return t.vstate.help

    def lay(self, hud, rows, cw, size):
        """(key column width, [(key, [description lines])], total lines) at this print size."""
        kw = min(max(hud.width(k, size) for k, d in rows if d) + 24, cw * 0.4)
        laid = [(k, hud.wrap(d, cw - kw - 4, size) if d else []) for k, d in rows]
        return kw, laid

    def build(self, t: Table, L: Layout) -> None:
        hud = t.hud
        W, Hh = L.W, L.H
        rows = t.help_rows()
        w = min(W - 40, 1160)
        cw = (w - 40) // 2
        size = hud.line
        for size in getattr(hud, "prints", (hud.line, hud.line * 0.85, hud.line * 0.72)):   # crisp, own glyphs
            kw, laid = self.lay(hud, rows, cw, size)
            heights = [max(len(d), 1) for _k, d in laid]
            half = sum(heights) / 2
            acc, cut = 0, len(laid)
            for i, rows_i in enumerate(heights):      # the second column starts at the group title nearest half-way
                if acc >= half and not rows[i][1]:
                    cut = i
                    break
                acc += rows_i
            lh = size + 4
            tall = max(sum(heights[:cut]), sum(heights[cut:])) * lh + 50
            if tall <= Hh - 8:
                break
        h = tall
        x0, y0 = (W - w) // 2, (max(34, (Hh - h) // 2) if h + 34 <= Hh else max((Hh - h) // 2, 0))
        hud.box(x0, y0, x0 + w, y0 + h, (10, 12, 18, 245))
        hud.text(x0 + 16, y0 + 10, "Keys and mouse   (F1, H or Esc closes)", H.ACCENT, size=size)
        for ci, col in enumerate((laid[:cut], laid[cut:])):
            xx = x0 + 16 + ci * (cw + 10)
            yy = y0 + 16 + lh
            for k, d in col:
                if not d:
                    hud.text(xx, yy, k, H.ACCENT, size=size)
                    yy += lh
                    continue
                hud.text(xx + 10, yy, k, H.FG, size=size, max_w=kw - 14)
                for part in d:
                    hud.text(xx + kw, yy, part, H.DIM, size=size, max_w=cw - kw - 4)
                    yy += lh
