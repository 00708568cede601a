"""SRD-27 Weakened: "Weakening Breath. The dragon exhales gas in a 60-foot cone. Each creature in that area must
succeed on a DC 21 Strength saving throw or have disadvantage on Strength-based attack rolls, Strength checks, and
Strength saving throws for 1 minute. A creature can repeat the saving throw at the end of each of its turns, ending
the effect on itself on a success."

A failed save leaves ``weakened`` on the sheet ({by, dc}: srd_breaths.after_save); while it lasts: disadvantage on
its attack rolls that use Strength (a melee weapon, a thrown one; a finesse weapon when its Strength is at least its
Dexterity -- the choice a finesse attacker makes -- as Ray of Enfeeblement reads "weapon attacks that use
Strength"), on its Strength checks (``conditions.check_d20``: a grapple, a shove, an escape) and its Strength saves
(``conditions.saving_throw``); the Strength save at the end of each of its turns ends it. This module is the query
the checks and saves ask; the attack's disadvantage and the repeated save are srd_breaths.py's.
"""

from __future__ import annotations

RULE = "SRD-27"
WHY = "weakened by a Weakening Breath (SRD-27)"


def slowed(a) -> bool:
    """SRD-27's Slowing Breath on ``a`` (srd_breaths.py)."""
    return bool(a.data.get("slowed_breath"))


def weakened(a, ability: str) -> str | None:
    """The reason for disadvantage on ``a``'s ``ability`` check or save, or None."""
    return WHY if ability == "str" and a.data.get("weakened") else None
