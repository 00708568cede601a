"""The token HUD's panel, beside the character's model (see engine/app/modes/tokenhud.py)."""

from __future__ import annotations

from engine.app import hud as H
from engine.app.modes.tokenhud import last_roll
from engine.app.sections.base import Layout, Section
from engine.app.sections.context import Table
from engine.app.intents import Intent, TokenHudAct


class TokenHudPanel(Section):
    name = "token hud"
    players = False
    modal = True
    kinds = ("tokhud",)

    def visible(self, t: Table) -> bool:
        m = t.tokenhud
        return m is not None and m.cid in t.ctl.state.actors

    def depends(self, t: Table) -> tuple:
        return (tuple(t.token_boxes.get(m.cid, {}).get("anchor", ())) if (m := t.tokenhud) else None,)

    def on_click(self, t: Table, kind, val) -> Intent | None:
        return TokenHudAct(*val) if t.tokenhud is not None else None

    def build(self, t: Table, L: Layout) -> None:
        hud = t.hud
        m = t.tokenhud
        a = t.ctl.state.actors[m.cid]
        conds = list(t.ctl.session.ruleset.CONDITIONS)
        lh = L.lh + 6
        w = min(360, L.W - 20)
        anchor = t.token_boxes.get(m.cid, {}).get("anchor") or (L.W / 2, L.H / 2)
        # the chips wrap: measure the rows first
        rows: list[list] = [[]]
        x = 8.0
        for c in conds:
            cw = hud.button_width(c)
            if rows[-1] and x + cw > w - 8:
                rows.append([])
                x = 8.0
            rows[-1].append((x, c))
            x += cw + 4
        h = 5 * lh + len(rows) * (hud.line + 14) + 16
        x0 = min(max(anchor[0] + 30, 10), L.W - w - 10)
        y0 = min(max(anchor[1] - h / 2, L.bar_h + 4), L.H - h - 10)
        hud.box(x0 - 2, y0 - 2, x0 + w + 2, y0 + h + 2, (200, 170, 80, 255))
        hud.box(x0, y0, x0 + w, y0 + h, (10, 12, 18, 250))
        hud.block(x0, y0, x0 + w, y0 + h, "token hud")
        t.drawn.panels["token hud"] = (x0, y0, x0 + w, y0 + h)
        yy = y0 + 8
        hidden = m.cid in t.vstate.hidden
        hud.text(x0 + 10, yy, f"{t.name(m.cid)}: token HUD  (Esc closes)", H.ACCENT, max_w=w - 20)
        yy += lh
        xx = x0 + 10 + hud.text(x0 + 10, yy + 5, f"HP {a.hp}/{a.max_hp}", H.FG) + 12
        for d in (-5, -1, 1, 5):
            xx = hud.button(xx, yy, f"{d:+d}", ("tokhud", ("hp", d))) + 4
        yy += lh + 4
        roll = last_roll(t.ctl.session)      # the GM's last ;roll, as damage or healing; a number typed sets HP
        xx = x0 + 10
        if roll is not None:
            xx = hud.button(xx, yy, f"damage {roll}", ("tokhud", ("hp", -roll))) + 4
            xx = hud.button(xx, yy, f"heal {roll}", ("tokhud", ("hp", roll))) + 8
        hud.text(xx, yy + 5, f"HP = {m.typed}_ (Enter)" if m.typed else "type a number: exact HP", H.ACCENT if m.typed
                 else H.DIM, max_w=x0 + w - 10 - xx)
        yy += lh + 4
        hud.text(x0 + 10, yy, "conditions (a click toggles):", H.DIM)
        yy += lh - 4
        for row in rows:
            for cx, c in row:
                hud.button(x0 + cx, yy, c, ("tokhud", ("cond", c)), on=c in a.conditions)
            yy += hud.line + 14
        yy += 4
        xx = hud.button(x0 + 10, yy, "show to players" if hidden else "hide from players", ("tokhud", ("hide", None)),
                        on=hidden) + 8
        hud.button(xx, yy, "remove", ("tokhud", ("remove", None)))
