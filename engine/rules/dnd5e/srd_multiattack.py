"""SRD-01 Multiattack as written: "The dragon makes three attacks: one with its bite and two with its claws", and
its alternatives ("Or the captain makes two ranged attacks with its daggers"). The sheet's ``multiattack`` is the
list of combinations, each ``{attack name: count}`` (srd_blocks.character); the Attack action gives the largest
number of attacks (``attacks``) and each attack must keep at least one combination possible: the attacks made
this action, with this one, fit within it -- or it is the action's one attack with a weapon no combination names (an
attack action of its own: "Rock. Ranged Weapon Attack" beside "The giant makes two greatclub attacks").
``legal_actions`` lists only those (its candidates are checked), so the preview and the policies follow the text too. A character without ``multiattack`` is not touched.
"""

from __future__ import annotations

from engine.rules.core import Illegal

RULE = "SRD-01"


def _used(a, turn: dict) -> dict:
    return turn.get("multiattack_used", {}) if turn.get("actor") == a.id else {}


def refusal(a, w: dict, turn: dict) -> Illegal | None:
    """Why ``a`` may not make this attack with ``w`` within its Multiattack, or None."""
    opts = a.data.get("multiattack")
    if not opts:
        return None
    used = dict(_used(a, turn))
    if not used and not any(w["name"] in o for o in opts):
        return None        # an attack action of its own, outside the Multiattack (the hill giant's Rock): one attack
    used[w["name"]] = used.get(w["name"], 0) + 1
    if any(all(o.get(k, 0) >= n for k, n in used.items()) for o in opts):
        return None
    said = " or ".join(", ".join(f"{n} {k}" for k, n in o.items()) for o in opts)
    made = ", ".join(f"{n} {k}" for k, n in _used(a, turn).items()) or "none"
    return Illegal(f"{a.name}'s Multiattack is {said}; made so far: {made}: no {w['name']} attack fits", RULE, "weapon")


def made(a, w: dict, turn: dict) -> None:
    """Count an attack of the Attack action against the combinations."""
    if a.data.get("multiattack") and turn.get("actor") == a.id:
        u = turn.setdefault("multiattack_used", {})
        u[w["name"]] = u.get(w["name"], 0) + 1
