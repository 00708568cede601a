"""SRD-57 Dreadful Glare: "The mummy targets one creature it can see within 60 ft. of it. If the target can see the
mummy, it must succeed on a DC 11 Wisdom saving throw against this magic or become frightened until the end of the
mummy's next turn. If the target fails the saving throw by 5 or more, it is also paralyzed for the same duration. A
target that succeeds on the saving throw is immune to the Dreadful Glare of all mummies (but not mummy lords) for the
next 24 hours." (the mummy lord's: "... immune to the Dreadful Glare of all mummies and mummy lords ...")

The save action's ``glare`` = {by_kind, margin, also, immune_to} (srd_rider_text.glare): a target that does not see
the glaring creature (AIR-15's sight, blinded) makes no save and nothing happens (a ``glare_unseen`` event), nor
does one immune to glares of that kind; one that fails by ``margin`` or more is also ``also`` (paralyzed) for the same
duration (SRD-54's ``until``); one that succeeds is immune to the glares of the kinds written (the sheet's
``glare_immune``: 24 hours outlast the fight). "against this magic": Magic Resistance (SRD-10) gives advantage.
"""

from __future__ import annotations

from engine.rules.dnd5e import conditions, srd_brief
from engine.rules.dnd5e.data import CONDITION_RULE
from engine.rules.dnd5e.srd_sheet import has

RULE = "SRD-57"


def spared(rs, session, a, t, f: dict) -> bool:
    """Whether ``t`` is not affected at all (it does not see ``a``, or it is immune): an event says why."""
    g = f["glare"]
    why = None
    if g["by_kind"] in (t.data.get("glare_immune") or ()):
        why = f"immune to the {f['name']} of a {g['by_kind']}"
    elif not rs.sees(session, t, a):
        why = "it cannot see the glaring creature"
    if why:
        session.emit({"type": "glare_unseen", "who": t.id, "by": a.id, "why": why, "rule": RULE})
    return why is not None


def advantage(t, f: dict) -> str | None:
    return "Magic Resistance (SRD-10)" if f.get("glare") and has(t, "magic resistance") else None


def after_save(rs, session, a, t, f: dict, ok: bool, failed_by: int) -> None:
    g = f["glare"]
    if ok:
        t.data["glare_immune"] = sorted(set(t.data.get("glare_immune") or ()) | set(g["immune_to"]))
        session.emit({"type": "glare_immune", "who": t.id, "kinds": list(g["immune_to"]), "rule": RULE})
        return
    if failed_by >= int(g["margin"]) and not t.dead:
        conditions.add_condition(rs, session, t, g["also"], CONDITION_RULE.get(g["also"], RULE), source=a.id)
        srd_brief.lasts(session, a, t, g["also"], f)          # "for the same duration"
