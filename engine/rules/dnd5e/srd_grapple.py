"""SRD-19 A hit that grapples, as the stat blocks write it: "Talons. Melee Weapon Attack ... Hit: 23 (4d6 + 9)
slashing damage, and the target is grappled (escape DC 19). Until this grapple ends, the target is restrained, and
the roc can't use its talons on another target." (with a size limit where written: "If the target is a Medium or
smaller creature, it is grappled").

The weapon's ``grapple`` (srd_block_grapple.grapple): ``escape_dc``, ``max_size`` (or none), ``restrained``, ``one_target``.
After the hit's damage, a living target within the size gets ``grappled`` (the grappler its source, so DND-47's
reach and AIR's grappled flyer apply as to any grapple) and ``restrained`` where written; its ``srd_grapple``
records the grapple. Escaping is the Escape action's check against the escape DC (contact.py, not a contest);
when the grapple ends (an escape, the grappler's death, out of reach) the restraint ends with it
(conditions.release). "Can't use its talons on another target": an attack with that weapon at another creature is
refused citing SRD-19 while the grapple lasts.
"""

from __future__ import annotations

from engine.rules.core import Illegal
from engine.rules.dnd5e import conditions
from engine.rules.dnd5e.data import SIZES

RULE = "SRD-19"


def holding(session, a, weapon: str):
    """The creature ``a`` holds with ``weapon`` (its grapple on a hit), or None."""
    for o in session.state.actors.values():
        g = o.data.get("srd_grapple")
        if g and g["by"] == a.id and g["weapon"] == weapon and a.id in o.conditions.get("grappled", []):
            return o
    return None


def held_by(session, a, weapon: str) -> list:
    """Every creature ``a`` holds with ``weapon``."""
    return [o for o in session.state.actors.values() if (o.data.get("srd_grapple") or {}).get("by") == a.id
            and o.data["srd_grapple"]["weapon"] == weapon and a.id in o.conditions.get("grappled", [])]


def limb_free(session, a, w: dict, t) -> bool:
    """SRD-28 "The crab has two claws, each of which can grapple only one target" / "if the behir isn't already
    constricting a creature": a hit grapples only while fewer than ``max_held`` creatures are held with the weapon
    (the attack itself is not refused: a claw that holds one still strikes another)."""
    held = held_by(session, a, w["name"])
    return t in held or len(held) < int(w["grapple"]["max_held"])


def refusal(session, a, w: dict, t) -> Illegal | None:
    """"the roc can't use its talons on another target": why ``a`` may not attack ``t`` with ``w``, or None."""
    g = w.get("grapple")
    if not g or not g.get("one_target"):
        return None
    held = holding(session, a, w["name"])
    if held is not None and held.id != t.id:
        return Illegal(f"{a.name} holds {held.name} with its {w['name']}: it cannot use them on another target",
                       RULE, "target")
    return None


def on_hit(rs, session, a, t, w: dict) -> None:
    """After the hit's damage: "the target is grappled (escape DC 19). Until this grapple ends, the target is
    restrained"."""
    g = w["grapple"]
    if t.dead or (g.get("max_size") and SIZES.index(t.size) > SIZES.index(g["max_size"])):
        return
    if g.get("one_target") and holding(session, a, w["name"]) not in (None, t):
        return
    if g.get("max_held") and not limb_free(session, a, w, t):
        return                                      # SRD-28: every claw holds someone already
    if a.id in t.conditions.get("grappled", []):
        return
    conditions.add_condition(rs, session, t, "grappled", RULE, source=a.id)
    if a.id not in t.conditions.get("grappled", []):
        return                                      # immune (SRD-04): no grapple
    t.data["srd_grapple"] = {"by": a.id, "weapon": w["name"], "escape_dc": int(g["escape_dc"]),
                             "restrained": bool(g.get("restrained"))}
    session.emit({"type": "grapple", "who": a.id, "target": t.id, "rule": RULE})
    if g.get("restrained"):
        conditions.add_condition(rs, session, t, "restrained", RULE, source=a.id)
    if g.get("each_turn"):                          # SRD-29: "takes 7 (2d6) piercing damage at the start of each of its
        e = g["each_turn"]                          # turns" until this grapple ends (srd_blight.py)
        t.data["srd_blight"] = {"by": a.id, "while": "grappled", "no_heal": False, "each_turn": dict(e)}
        session.emit({"type": "blight", "who": t.id, "by": a.id, "while": "grappled", "no_heal": False,
                      "each_turn": f"{e['dice']} {e['type']}", "rule": "SRD-29"})


def escape_dc(a, gid: str | None) -> int | None:
    """The escape DC of the grapple ``gid`` holds ``a`` in, when it is a stat block's (SRD-19), or None."""
    g = a.data.get("srd_grapple")
    return int(g["escape_dc"]) if g and g["by"] == gid else None
