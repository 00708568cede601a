"""Longer casting times (SPL-12): the SRD's "When you cast a spell with a casting time longer than a single action or
reaction, you must spend your action each turn casting the spell, and you must maintain your concentration while you
do so. If your concentration is broken, the spell fails, but you don't expend a spell slot."

A spell of 1 minute takes 10 rounds (10 minutes: 100, an hour: 600): the action of the turn the casting begins and
of each of the caster's turns after it, until the turn that starts that many rounds later: then the spell takes
effect (that turn's action is free). Meanwhile the caster concentrates on the casting (one concentration at a time,
DND-21: casting another concentration spell ends it). The casting is kept in the caster's ``data["long_cast"]``
(saved and replayed); its targets are the ones named when it began, checked again as it takes effect (alive, in
range, not behind total cover): a casting whose target is gone fails, the slot kept."""

from __future__ import annotations

from engine.rules.core import Illegal
from engine.rules.dnd5e import concentration, srd_cast, text, turns
from engine.rules.dnd5e.srd_spells import spell

RULE = "SPL-12"

text.EVENT_LINES.update({
    "long_cast": text._did(lambda s, e: (f"stops casting {e['spell']}: {e['reason']}, no slot spent" if e.get("failed")
                                         else f"spends its action casting {e['spell']} ({e['rounds_left']} "
                                         f"round(s) to go)")),
})


def begin(rs, session, a, plan: dict, sp: dict) -> None:
    """The casting begins: this turn's action spent, the concentration held, no slot spent yet."""
    session.state.turn["action"] = True
    session.state.turn["action_spell"] = True
    a.data["long_cast"] = {"plan": plan, "round": session.state.round, "rounds": sp["rounds"]}
    concentration.begin(rs, session, a, plan["spell"], plan.get("targets", []))
    session.emit({"type": "long_cast", "who": a.id, "spell": plan["spell"], "targets": plan.get("targets", []),
                  "rounds_left": sp["rounds"], "rule": RULE})


srd_cast.BEGIN_LONG.append(begin)


@turns.TURN_START.rule(RULE)
def long_cast_goes_on(rs, session, a):
    """Each turn of the casting spends its action; the turn ``rounds`` rounds after it began, the spell takes
    effect."""
    lc = a.data.get("long_cast")
    if not lc or a.dead:
        return
    left = lc["round"] + lc["rounds"] - session.state.round
    plan = lc["plan"]
    if left > 0:
        session.state.turn["action"] = True
        session.state.turn["action_spell"] = True
        session.emit({"type": "long_cast", "who": a.id, "spell": plan["spell"], "rounds_left": left, "rule": RULE})
        return
    a.data.pop("long_cast")
    concentration.end(rs, session, a, f"{plan['spell']} is cast", RULE)
    sp = spell(session, plan["spell"])
    for tid in plan.get("targets", []):
        try:
            if tid != a.id:
                srd_cast.single(rs, session, a, {"target": tid}, sp)
        except Illegal as e:
            session.emit({"type": "long_cast", "who": a.id, "spell": plan["spell"], "failed": True,
                          "reason": str(e), "rule": RULE})
            return
    srd_cast.apply(rs, session, a, {**plan, "long_done": True})


def fails(rs, session, caster, held) -> None:
    """The concentration broke while casting: the spell fails, no slot spent."""
    lc = caster.data.get("long_cast")
    if lc and lc["plan"]["spell"] == held["spell"]:
        caster.data.pop("long_cast")
        session.emit({"type": "long_cast", "who": caster.id, "spell": held["spell"], "failed": True,
                      "reason": "its concentration broke", "rule": RULE})


concentration.ON_END.append(fails)
