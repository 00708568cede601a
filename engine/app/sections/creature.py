"""A creature's own actions and their state (issue 44, "In the window"): under the selected character's panel, for a
creature whose stat block gives it actions with a recharge or uses per day (an SRD dragon's breath), one line each:
"Fire Breath (recharge 5-6): ready" / "spent - recharges on a 5-6 of a d6 at the start of its turn", "Web
(2/day): 1 left". The state is the rules' (the sheet's ``creature_actions`` and ``creature_state``, set by the
action and by the recharge die each turn start); the action itself is on the action bar (``creature action``)."""

from __future__ import annotations

from engine.app import hud as H
from engine.app.sections.base import Layout, Section
from engine.app.sections.context import Table


def rows(actor) -> list[tuple[str, bool]]:
    """(line, usable now) for each action of ``actor`` with a recharge or uses per day."""
    data = actor.data if isinstance(getattr(actor, "data", None), dict) else {}
    state = data.get("creature_state") or {}
    out = []
    for f in data.get("creature_actions") or ():
        st = state.get(f.get("name"), {})
        if f.get("recharge"):
            lo = f["recharge"][0]
            die = f"{lo}-6" if lo < 6 else "6"
            spent = bool(st.get("spent"))
            out.append((f"{f['name']} (recharge {die}): " + (f"spent - back on a {die} of a d6 at its turn's start"
                                                             if spent else "ready"), not spent))
        elif f.get("per_day"):
            left = max(f["per_day"] - st.get("used", 0), 0)
            out.append((f"{f['name']} ({f['per_day']}/day): {left} left", left > 0))
    return out


class CreatureActions(Section):
    name = "creature actions"
    players = False               # the GM's numbers (a player sees the breath when it comes)

    def _actor(self, t: Table):
        return t.ctl.state.actors.get(t.ctl.selected) if t.ctl.selected else None

    def visible(self, t: Table) -> bool:
        a = self._actor(t)
        return a is not None and bool(rows(a))

    def depends(self, t: Table) -> tuple:
        a = self._actor(t)
        return (tuple(rows(a)),) if a is not None else ()

    def build(self, t: Table, L: Layout) -> None:
        hud = t.hud
        lh = hud.line + 5
        w = max(L.pw, 300)
        lines = [(part, ok) for txt, ok in rows(self._actor(t)) for part in hud.wrap(txt, w - 20)]
        x0, y0 = 8, L.left_bottom + 6
        h = len(lines) * lh + 10
        if y0 + h > L.by - 4 * (lh + 6):          # no room under the left column: not drawn over the status lines
            return
        hud.box(x0, y0, x0 + w, y0 + h, H.BG)
        hud.block(x0, y0, x0 + w, y0 + h, "creature actions")
        for i, (txt, ok) in enumerate(lines):
            hud.text(x0 + 10, y0 + 5 + i * lh, txt, H.GOOD if ok else H.BAD, max_w=w - 20)
        L.left_bottom = y0 + h
