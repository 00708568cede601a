"""SRD-17 the legendary action Detect: "Detect. The dragon makes a Wisdom (Perception) check." -- the check a Search
makes (DND-19, DND-23): its Perception total against each hidden foe's Stealth total; a foe it can see whose total
it meets is found (``revealed``). Its policy (srd_legendary.py): take it when a foe is hidden from it, and not
otherwise (a check with nothing to find changes nothing). A blinded creature's check fails (DND-46), so it is not
taken then.
"""

from __future__ import annotations

from engine.rules.dnd5e import attacks, conditions

RULE = "SRD-17"


def _hidden_foes(rs, session, a):
    return [o for o in session.state.actors.values()
            if not o.dead and o.data.get("hidden") is not None and conditions.hostile(rs, a, o)]


def worth_it(rs, session, a) -> bool:
    """Whether Detect can find anything: a hidden foe, and the creature not blinded."""
    return conditions.sight_check_fails(rs, a) is None and bool(_hidden_foes(rs, session, a))


def detect(rs, session, a) -> list[str]:
    """The Wisdom (Perception) check (a ``check`` event) and the foes it finds (``revealed`` events)."""
    total = conditions.check_roll(rs, session, a, "perception", "check", RULE, "Perception (Detect)")
    found = []
    for o in _hidden_foes(rs, session, a):
        if attacks.sight(rs, session, a, o) and total >= o.data["hidden"]:
            o.data["hidden"] = None
            found.append(o.id)
            session.emit({"type": "revealed", "who": o.id, "by": a.id, "reason": "found by Detect", "rule": "DND-23"})
    return found
