"""SRD-56 A touch that sets the target on fire: "Touch. Melee Weapon Attack: +6 to hit, reach 5 ft., one target. Hit:
10 (2d6 + 3) fire damage. If the target is a creature or a flammable object, it ignites. Until a creature takes an
action to douse the fire, the target takes 5 (1d10) fire damage at the start of each of its turns." (the fire
elemental; the magmin's: "Until a target takes an action to douse the fire, the target takes 3 (1d6) fire damage at
the end of each of its turns.")

The weapon's ``ignite`` = {dice, when = start | end} (srd_rider_text.ignite): a creature hit burns (the sheet's
``burning`` = {by, dice, when}, an ``ignited`` event; one fire at a time: a burning creature hit again keeps its
fire); at the start (or end) of each of its turns the dice are rolled as fire damage from the one that lit it (its
resistances and immunity apply). ``douse`` (actions/srd_douse.py), an action of the burning creature itself or of one
within 1.5 m, puts it out (a ``doused`` event).
"""

from __future__ import annotations

from engine.rules.dnd5e import srd_traits, text
from engine.rules.dnd5e.srd_sheet import dice_parts
from engine.rules.dnd5e.turns import TURN_END, TURN_START

RULE = "SRD-56"


def after_hit(rs, session, a, t, w: dict) -> None:
    ig = w.get("ignite")
    if not ig or t.dead or t.data.get("burning"):
        return
    t.data["burning"] = {"by": a.id, "dice": ig["dice"], "when": ig["when"]}
    session.emit({"type": "ignited", "who": t.id, "by": a.id, "dice": ig["dice"], "when": ig["when"], "rule": RULE})


def _burn(rs, session, x, when: str) -> None:
    b = x.data.get("burning")
    if not b or b["when"] != when or x.dead:
        return
    n, s, bonus = dice_parts(b["dice"])
    amount = sum(session.roll("damage", s, n, who=b["by"], rule=RULE)) + bonus
    rs.apply_damage(session, x, amount, "fire", b["by"], RULE)


@TURN_START.rule("SRD-56")
def burning_start(rs, session, x):
    """"the target takes 5 (1d10) fire damage at the start of each of its turns" until the fire is doused."""
    _burn(rs, session, x, "start")


@TURN_END.rule("SRD-56")
def burning_end(rs, session, x):
    """The magmin's: "at the end of each of its turns"."""
    _burn(rs, session, x, "end")


def douse(session, t, by) -> None:
    t.data.pop("burning", None)
    session.emit({"type": "doused", "who": t.id, "by": by.id, "rule": RULE})


srd_traits.AFTER_EXTRA.append(after_hit)          # SRD-56: after the touch's damage
text.EVENT_LINES.update({
    "ignited": text._did(lambda s, e: f"catches fire: {e['dice']} fire damage at the {e['when']} of each of its turns"),
    "doused": text._did(lambda s, e: "is doused: the fire is out"),
})
