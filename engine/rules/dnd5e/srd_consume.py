"""SRD-59 Consume Life, SRD-60 the invisibility it ends (the will-o'-wisp):

- SRD-59 "As a bonus action, the will-o'-wisp can target one creature it can see within 5 ft. of it that has 0 hit
  points and is still alive. The target must succeed on a DC 10 Constitution saving throw against this magic or die.
  If the target dies, the will-o'-wisp regains 10 (3d6) hit points." -- the sheet's ``srd_hits.consume_life`` {dc,
  dice, range_m}; ``consume_life`` (actions/srd_consume.py) spends the bonus action on a creature it sees within
  range at 0 HP and not dead (dying or stable); the save has advantage from Magic Resistance ("against this magic");
  a failure kills it and the wisp regains the dice's hit points.
- SRD-60 "The will-o'-wisp and its light magically become invisible until it attacks or uses its Consume Life, or
  until its concentration ends" -- using Consume Life (whatever the save) ends SRD-34's invisibility and its
  concentration.
"""

from __future__ import annotations

from engine.rules.core import Illegal
from engine.rules.dnd5e import concentration, conditions, damage, srd_traits2, text
from engine.rules.dnd5e.srd_sheet import dice_parts, has
from engine.world.geometry import distance_m

RULE = "SRD-59"
ENDS_INVISIBILITY = "SRD-60"


def consume_life(a) -> dict | None:
    return (a.data.get("srd_hits") or {}).get("consume_life")


def refusal(rs, session, a, t) -> Illegal | None:
    """Why ``a`` may not consume ``t``'s life now, or None."""
    cl = consume_life(a)
    if cl is None:
        return Illegal(f"{a.name} has no Consume Life", RULE, "action")
    if session.state.turn["bonus"]:
        return Illegal(f"{a.name} has already used its bonus action this turn; Consume Life takes it", RULE)
    if t.dead or t.hp > 0:
        return Illegal(f"{t.name} " + ("is dead" if t.dead else "has hit points left: only a creature at 0 hit "
                                       "points that is still alive"), RULE, "target")
    if distance_m(a.body(), t.body(), session.world.cell_m) > float(cl.get("range_m", 1.5)) + 1e-9:
        return Illegal(f"{t.name} is not within {cl.get('range_m', 1.5):g} m", RULE, "target")
    if not rs.sees(session, a, t):
        return Illegal(f"{a.name} cannot see {t.name}", RULE, "target")
    return None


def consume(rs, session, a, t) -> None:
    """The save or die; the hit points regained; the invisibility it ends."""
    cl = consume_life(a) or {}          # the check has refused a creature without it
    session.state.turn["bonus"] = True
    session.emit({"type": "consume_life", "who": a.id, "target": t.id, "rule": RULE})
    ok = conditions.saving_throw(rs, session, t, "con", int(cl.get("dc", 10)), a, RULE, "Consume Life",
                                 advantage="Magic Resistance (SRD-10)" if has(t, "magic resistance") else None)
    if not ok:
        damage.die(rs, session, t, f"{a.name} consumed its life", RULE)
        n, s, bonus = dice_parts(cl.get("dice", "3d6"))
        damage.heal(rs, session, a, sum(session.roll("heal", s, n, who=a.id, rule=RULE)) + bonus, RULE)
    c = a.data.get("concentration")
    if c and c["spell"] == srd_traits2.INVISIBILITY:
        concentration.end(rs, session, a, "it used its Consume Life", ENDS_INVISIBILITY)


text.EVENT_LINES.update({
    "consume_life": text._did(lambda s, e: f"feeds on {getattr(s.state.actors.get(e['target']), 'name', '')}'s "
                                           f"fading life (Consume Life)"),
})
