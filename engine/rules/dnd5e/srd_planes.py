"""The Ethereal Plane of the flyers (SRD-94, SRD-95, issue 44): the sheet's ``srd_shapes.etherealness``
(engine/rules/dnd5e/srd_shape_data.py), played through the ``etherealness`` action (actions/srd_shape.py).

* SRD-94 Etherealness: "The ghost enters the Ethereal Plane from the Material Plane, or vice versa. It is visible on
  the Material Plane while it is in the Border Ethereal, and vice versa, yet it can't affect or be affected by anything
  on the other plane." (the succubus's: "The fiend magically enters the Ethereal Plane from the Material Plane, or vice
  versa.")
* SRD-95 Ethereal Stride: "The nightmare and up to three willing creatures within 5 feet of it magically enter the
  Ethereal Plane from the Material Plane, or vice versa."

A creature on the Ethereal Plane carries the condition ``ethereal`` (data.CONDITION_TAGS' ``other_plane``): an
attack between two creatures on different planes is refused (SRD-94), damage from a creature on the other plane is
nothing, and a condition given from the other plane does not take.
"""

from __future__ import annotations

from engine.rules.core import Illegal
from engine.rules.dnd5e import conditions, srd_traits, text
from engine.rules.dnd5e.damage import damage_modifier
from engine.rules.dnd5e.srd_shape_data import shapes
from engine.world.geometry import engaged

RULE, STRIDE = "SRD-94", "SRD-95"

text.EVENT_LINES.update({
    "plane": text._did(lambda s, e: f"enters the {e['plane']} Plane"),
})


def ethereal(rs, a) -> bool:
    return conditions.tagged(rs, a, "other_plane") is not None


def apart(rs, a, b) -> bool:
    """Whether ``a`` and ``b`` are on different planes."""
    return ethereal(rs, a) != ethereal(rs, b)


def check(rs, session, a, with_: list) -> list[str]:
    """Those who go with it: "up to three willing creatures within 5 feet of it" (its side's, within 1.5 m,
    AIR-04, on its plane)."""
    e = shapes(a)["etherealness"]
    n = int(e.get("allies", 0))
    rule = STRIDE if n else RULE
    if len(with_) > n:
        raise Illegal(f"{a.name} takes {'no one' if not n else f'up to {n} willing creatures'} with it", rule, "with")
    out = []
    for tid in with_:
        t = session.actor(tid, "with")
        if t.id == a.id or t.dead or t.side != a.side:
            raise Illegal(f"{t.name} is not a willing creature of {a.name}'s side", rule, "with")
        if not engaged(a.body(), t.body()):
            raise Illegal(f"{t.name} is not within 1.5 m of {a.name} (AIR-04)", rule, "with")
        if apart(rs, a, t):
            raise Illegal(f"{t.name} is not on {a.name}'s plane", rule, "with")
        out.append(t.id)
    return out


def cross(rs, session, a, with_: list) -> None:
    """It (and those with it) enter the Ethereal Plane, or back to the Material Plane."""
    to_ethereal = not ethereal(rs, a)
    rule = STRIDE if shapes(a)["etherealness"].get("allies") else RULE
    for t in [a] + [session.state.actors[x] for x in with_]:
        if to_ethereal:
            t.conditions["ethereal"] = [a.id]
        else:
            t.conditions.pop("ethereal", None)
        session.emit({"type": "plane", "who": t.id, "plane": "Ethereal" if to_ethereal else "Material", "by": a.id,
                      "rule": rule})


def across_target(rs, session, a, t) -> None:
    """"it can't affect or be affected by anything on the other plane": no attack across."""
    if apart(rs, a, t):
        raise Illegal(f"{t.name} is on the {'Ethereal' if ethereal(rs, t) else 'Material'} Plane, {a.name} on the "
                      f"other: it can't affect or be affected by anything on the other plane", RULE, "target")


@damage_modifier(RULE)
def across_the_planes(rs, session, a, dmg):
    """Damage from a creature on the other plane (an area's, an aura's) is nothing."""
    src = session.state.actors.get(dmg["source"]) if isinstance(dmg.get("source"), str) else None
    if src is not None and dmg["amount"] > 0 and apart(rs, a, src):
        dmg["amount"] = 0
        dmg["notes"].append("from the other plane: nothing crosses (SRD-94)")


def ward(rs, session, a, name, source):
    """A condition given by a creature on the other plane does not take."""
    src = session.state.actors.get(source) if isinstance(source, str) else None
    if src is not None and src.id != a.id and apart(rs, a, src):
        return ("it is on the other plane", RULE)
    return None


srd_traits.TARGET_CHECKS.append(across_target)
conditions.WARDS.append(ward)
