"""SRD-73 Parry: "The captain adds 2 to its AC against one melee attack that would hit it. To do so, the captain must
see the attacker and be wielding a melee weapon." (bandit captain, erinyes, gladiator, knight, marilith, noble).

The sheet's ``parry`` is the AC it adds (srd_lasting_actions.character_keys reads it from the block; any 5e character
may carry it). When a melee attack would hit it -- not a critical hit, which hits whatever the AC -- and the AC it
adds turns the hit (a table does not spend its reaction on a hit that stays a hit), it is offered as a reaction
(the choice point ``("reactions", id, "parry")``; ``reactions = {parry = false}`` declines; default take), if it
has its reaction, is not incapacitated, sees the attacker and carries a melee weapon (a weapon without the
``ranged`` property, not its unarmed strike)."""

from __future__ import annotations

from engine.rules.dnd5e import conditions, feats_data
from engine.rules.dnd5e.upcalls import FEAT

RULE = "SRD-73"
TEXTS = ("+{n} AC: the hit becomes a miss (Parry)", "take the hit")

feats_data.REACTION_RULE["parry"] = RULE


def _melee_weapon(t) -> bool:
    return any(isinstance(w, dict) and w.get("name") != "unarmed" and "ranged" not in w.get("properties", ())
               for w in t.data.get("weapons") or ())


def parry(rs, session, a, t, plan: dict, total: int, ac: int, crit: bool) -> int | None:
    """The AC with the parry when ``t`` takes it against ``a``'s melee attack that hits with ``total`` (else None)."""
    n = int(t.data.get("parry") or 0)
    if not n or crit or not plan.get("melee") or t.data.get("reaction_used") or t.dead:
        return None
    if total >= ac + n or conditions.incapacitated(rs, t) or not _melee_weapon(t) or not rs.sees(session, t, a):
        return None
    take, leave = TEXTS
    if not feats_data.reaction_taken(t, "parry", session, f"{a.name}'s attack hits ({total} vs AC {ac})",
                                     texts=(take.format(n=n), leave)):
        return None
    t.data["reaction_used"] = True
    session.emit({"type": "reaction", "who": t.id, "feat": "parry", "against": a.id, "ac": ac + n, "rule": RULE,
                  "text": f"+{n} AC (Parry): the hit becomes a miss"})
    return ac + n


def ac_reactions(rs, session, a, t, plan: dict, roll: int, total: int, ac: int, hit: bool, crit: bool) -> tuple[int, bool]:
    """(AC, hit) after the target's reactions that raise its AC against a hit: Defensive Duelist (DND-F21, feats.py)
    first, then Parry (SRD-73)."""
    if hit and t.data.get("feats"):
        dd_ac = FEAT.defensive_duelist(rs, session, a, t, plan, roll, total, ac, hit, crit)
        if dd_ac is not None:
            ac, hit = dd_ac, False
    if hit and t.data.get("parry"):
        p_ac = parry(rs, session, a, t, plan, total, ac, crit)
        if p_ac is not None:
            ac, hit = p_ac, False
    return ac, hit
