"""What a failed save leaves on a creature that is no condition of the SRD's list (SPL-11), held by the caster's
concentration and kept in the target's ``data["spell_marks"]`` (saved and replayed with the state):

* Faerie Fire: "Any attack roll against an affected creature ... has advantage if the attacker can see it" (an
  advantage source on ``advantage.ATTACK_SOURCES``).
* Bestow Curse: the curse "While cursed, the target has disadvantage on attack rolls against you" (the other three
  curses are named in the spell's ``omits``).
* Bane: a d4 subtracted from each attack roll and saving throw (``conditions.ROLL_ADJUST``).
* Calm Emotions: "You can suppress any effect causing a target to be charmed or frightened. When this spell ends,
  any suppressed effect resumes": the conditions and their sources are put aside in the mark and given back when
  the concentration ends.

The spell's data (``srd_spells.EFFECTS``) names its mark: ``mark``: ``"outlined"``, ``"cursed"``, ``"calmed"`` or ``"baned"``."""

from __future__ import annotations

from engine.rules.dnd5e import advantage, concentration, conditions, srd_cast, text
from engine.rules.dnd5e.data import CONDITION_RULE

RULE = "SPL-11"

text.EVENT_LINES.update({
    "spell_mark": text._did(lambda s, e: (f"is no longer {e['mark']} ({e['spell']})" if e.get("ended") else
                                          f"is {e['mark']} by {e['spell']}")
                            + (f": {', '.join(e['suppressed'])} put aside" if e.get("suppressed") else "")
                            + (f": {', '.join(e['resumed'])} resume(s)" if e.get("resumed") else "")),
})

SUPPRESSED = ("charmed", "frightened")


def failed_save(rs, session, a, t, sp: dict, plan: dict) -> None:
    """``t`` failed the save of ``sp`` cast by ``a``: the spell's mark on it."""
    mark = sp["fx"].get("mark")
    if not mark or t.dead:
        return
    entry = {"spell": sp["id"], "mark": mark, "caster": a.id}
    ev = {"type": "spell_mark", "who": t.id, "spell": sp["id"], "mark": mark, "caster": a.id, "rule": RULE}
    if mark == "calmed":
        put = {c: list(t.conditions[c]) for c in SUPPRESSED if c in t.conditions}
        for c in put:
            conditions.remove_condition(rs, session, t, c, RULE)
        entry["suppressed"] = put
        ev["suppressed"] = sorted(put)
    t.data.setdefault("spell_marks", []).append(entry)
    session.emit(ev)


srd_cast.ON_FAILED_SAVE.append(failed_save)


def marked(t, mark: str, caster: str | None = None) -> bool:
    return any(m["mark"] == mark and (caster is None or m["caster"] == caster) for m in t.data.get("spell_marks") or ())


@advantage.source(RULE)
def spell_marks(rs, session, a, t, plan, ctx):
    """Faerie Fire's outline (the attacker sees the target) and Bestow Curse's curse against its caster."""
    if marked(t, "outlined") and rs.sees(session, a, t):
        yield advantage.ADV, "the target is outlined by Faerie Fire"
    if marked(a, "cursed", t.id):
        yield advantage.DIS, f"the attacker is cursed by {t.name} (Bestow Curse)"


def bane_die(rs, session, a, what: str):
    """Bane: "Whenever a target that fails this saving throw makes an attack roll or a saving throw before the spell
    ends, the target must roll a d4 and subtract the number rolled"."""
    if marked(a, "baned"):
        (d,) = session.roll("bane", 4, who=a.id, rule=RULE, purpose=f"Bane: subtracted from the {what}")
        yield {"source": "Bane", "value": -d, "rule": RULE}


conditions.ROLL_ADJUST.append(bane_die)


def ends(rs, session, caster, held) -> None:
    """The concentration ended: its marks go; Calm Emotions' suppressed conditions resume."""
    for tid in held["targets"]:
        t = session.state.actors.get(tid)
        marks = t.data.get("spell_marks") if t is not None else None
        if not marks:
            continue
        mine = [m for m in marks if m["spell"] == held["spell"] and m["caster"] == caster.id]
        if not mine:
            continue
        t.data["spell_marks"] = [m for m in marks if m not in mine]
        for m in mine:
            back = []
            for c, srcs in (m.get("suppressed") or {}).items():
                if t.dead:
                    break
                for src in srcs or [None]:
                    conditions.add_condition(rs, session, t, c, CONDITION_RULE[c], source=src)
                back.append(c)
            session.emit({"type": "spell_mark", "who": t.id, "spell": m["spell"], "mark": m["mark"],
                          "caster": caster.id, "ended": True, **({"resumed": back} if back else {}), "rule": RULE})


concentration.ON_END.append(ends)
