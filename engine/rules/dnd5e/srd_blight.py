"""SRD-29 What lasts on a creature while a stat block's condition holds it: "While poisoned in this way, the target
can't regain hit points, and it takes 21 (6d6) poison damage at the start of each of its turns." (the pit fiend's
bite; the bearded devil's beard without the damage) and "Until this grapple ends, the target is restrained and takes
7 (2d6) piercing damage at the start of each of its turns." (the chain devil's chain).

The sheet's ``srd_blight`` = {by, while (the condition), no_heal, each_turn = {dice, type}}: set by the failed save
(srd_riders.py) or the grapple (srd_grapple.py); it lasts while the creature still has that condition from that
source (a repeated save, an escape end it). This module is the query; healing asks ``blocks_healing``
(damage.heal), the damage at the start of its turns is srd_breaths.py's ``blight_damage``.
"""

from __future__ import annotations

RULE = "SRD-29"


def active(t) -> dict | None:
    b = t.data.get("srd_blight")
    return b if b and b["by"] in t.conditions.get(b["while"], []) else None


def blocks_healing(t) -> str | None:
    b = active(t)
    return f"it can't regain hit points while {b['while']} in this way ({RULE})" if b and b.get("no_heal") else None
