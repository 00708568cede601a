"""The cast menu (issue 39, "In the window"): while an action whose variants name a ``spell`` is composed (5e's
``cast``), every spell the rules offer the caster now -- each a legal variant, so each castable, slot and economy
allowed -- in one list above the action bar: its level, range, area and save from the SRD spell data
(assets/srd/spells.json, where the spell is there), the highlighted one the spell being aimed. A click on a row
takes that spell (Tab still steps through the variants one by one); its area is then drawn while aimed
(engine/app/spellarea.py) and the preview lists whom it catches."""

from __future__ import annotations

from engine.app import hud as H
from engine.app.areaspell import srd_spell      # the SRD spell data, read once for the menu and the areas
from engine.app.sections.base import Layout, Section
from engine.app.sections.context import Table
from engine.app.intents import Intent, PickSpell


def facts(spell: str) -> str:
    """"level 3, 45 m, sphere 6 m, Dex save" from the SRD data."""
    s = srd_spell(spell)
    if s is None:
        return ""
    bits = ["cantrip" if s["level"] == 0 else f"level {s['level']}"]
    if s.get("range_m"):
        bits.append(f"{s['range_m']:g} m")
    if s.get("area"):
        bits.append(f"{s['area']['shape']} {s['area']['size_m']:g} m")
    sv = s.get("save")
    if isinstance(sv, dict) and sv.get("ability"):
        bits.append(f"{sv['ability'].capitalize()} save")
    return ", ".join(bits)


def spells(ctl) -> list[str]:
    """The spells among the composed action's legal variants, in the rules' order (empty: not a cast)."""
    p = ctl.pending
    if p is None:
        return []
    return list(dict.fromkeys(str(v["spell"]) for v in p.variants if "spell" in v))


def current(ctl) -> str | None:
    act = ctl.action()
    if act is not None and "spell" in act:
        return str(act["spell"])
    p = ctl.pending
    cands = p.candidates() if p is not None else []
    return str(cands[p.variant_i % len(cands)].get("spell")) if cands else None


def pick(ctl, spell: str) -> bool:
    """``spell`` becomes the composed cast's (kept as a chosen parameter: a target or a point clicked afterwards
    keeps it; Tab then steps through that spell's variants). A target chosen for another spell that this one does
    not take is let go. False when the rules offer no cast of it now."""
    p = ctl.pending
    if p is None or not any(v.get("spell") == spell for v in p.variants):
        return False
    p.params["spell"] = spell
    if not p.candidates():
        p.params.pop("target", None)
    p.variant_i = 0
    ctl._changed()
    return True


class CastMenu(Section):
    name = "cast menu"
    players = False
    kinds = ("cast_spell",)

    def visible(self, t: Table) -> bool:
        return len(spells(t.ctl)) > 0

    def depends(self, t: Table) -> tuple:
        return (tuple(spells(t.ctl)), current(t.ctl))

    def on_click(self, t: Table, kind, val) -> Intent | None:
        return PickSpell(val)

    def build(self, t: Table, L: Layout) -> None:
        hud, ctl = t.hud, t.ctl
        names = spells(ctl)
        cur = current(ctl)
        lh = hud.line + 5
        rows = [(n, f"{n.replace('_', ' ')}" + (f"  ({facts(n)})" if facts(n) else "")) for n in names]
        w = min(max(hud.width(txt) for _n, txt in rows) + 30, L.W * 0.45)
        fit = max(int((L.by - 8 - L.bar_h - 30) // lh), 3)
        shown = rows[:fit]
        h = (len(shown) + 1) * lh + 12
        x0 = max(L.W - L.rw - w - 12, 8)         # beside the right column: the status lines climb on the left
        y1 = L.by - 3 * (lh + 7) - 8              # above the status lines (the message, the cell, the hint)
        y0 = y1 - h
        hud.box(x0, y0, x0 + w, y1, (12, 16, 24, 235))
        hud.block(x0, y0, x0 + w, y1, "cast menu")
        more = f" (+{len(rows) - len(shown)} more: Tab)" if len(rows) > len(shown) else ""
        hud.text(x0 + 10, y0 + 6, f"cast: {len(names)} spell(s) castable now{more}", H.ACCENT, max_w=w - 20)
        for i, (n, txt) in enumerate(shown):
            yy = y0 + 6 + (i + 1) * lh
            if n == cur:
                hud.box(x0 + 4, yy - 3, x0 + w - 4, yy + lh - 4, (60, 70, 100, 230))
            hud.text(x0 + 10, yy, txt, H.FG if n == cur else H.DIM, max_w=w - 20)
            hud.rects.append((x0, yy - 2, x0 + w, yy + lh - 4, ("cast_spell", n)))
