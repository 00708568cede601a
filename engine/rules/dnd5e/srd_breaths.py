"""The metallic dragons' second breaths and the sleeps a stat block writes (SRD-25, SRD-26), after a failed save of a
save action (actions/srd.py ``CreatureAction``, ``after_save``) or of a hit (srd_traits.on_hit_save's riders):

- SRD-25 Sleep: "Sleep Breath. The dragon exhales sleep gas in a 60-foot cone. Each creature in that area must
  succeed on a DC 18 Constitution saving throw or fall unconscious for 10 minutes. This effect ends for a creature if
  the creature takes damage or someone uses an action to wake it." -- unconscious (so prone, and a flyer falls:
  AIR-10) and ``asleep`` on its sheet (who put it to sleep); any damage it takes wakes it (the unconscious condition
  ends, the damage is dealt), and so does ``wake``, an action of a creature within 1.5 m (actions/srd_wake.py). Ten
  minutes outlast a fight.
- SRD-26 Repulsion: "Repulsion Breath. The dragon exhales repulsion energy in a 30-foot cone. Each creature in that
  area must succeed on a DC 19 Strength saving throw. On a failed save, the creature is pushed 60 feet away from the
  dragon." -- straight away from the dragon's centre to the creature's, in 3D (a flyer is pushed up or down along
  the line, a walker along the ground), half a metre at a time to the nearest cell and layer, stopping before a wall,
  the map's edge or a body (the spells' push, SPL-06's ``slide``); pushed off a roof a walker falls (AIR-12).
"""

from __future__ import annotations

from engine.rules import aerial
from engine.rules.dnd5e import advantage, areas, conditions, damage, srd_air, srd_cast, srd_riders
from engine.rules.dnd5e import srd_blight, srd_grapple, srd_traits
from engine.rules.dnd5e.srd_sheet import dice_parts
from engine.rules.dnd5e.turns import TURN_END, TURN_START


@damage.damage_modifier("SRD-25")
def sleep_ends_on_damage(rs, session, t, dmg):
    """"This effect ends for a creature if the creature takes damage": after every other modifier, damage that is
    still more than 0 wakes it before it is dealt."""
    if t.data.get("asleep") and not t.data.get("asleep_deep") and dmg["amount"] > 0:
        srd_riders.wake(rs, session, t, "it takes damage")


def repel(rs, session, a, t, metres: float, rule: str = "SRD-26", toward: bool = False) -> None:
    """Pushed ``metres`` straight away from ``a`` (3D for a flyer, along the ground for a walker); ``toward``: pulled
    toward it, stopping before its body."""
    cell = session.world.cell_m
    o, p = srd_cast.body_centre(a, cell), srd_cast.body_centre(t, cell)
    d = areas.make({"shape": "line", "size_m": 1}, o, p).direction
    if toward:
        d = (-d[0], -d[1], -d[2])
    if not t.flying:
        h = (d[0] ** 2 + d[1] ** 2) ** 0.5 or 1.0
        d = (d[0] / h, d[1] / h, 0.0)
    start = srd_air.Push.slide(session, t, d, metres)
    session.emit({"type": "pushed", "who": t.id, "by": a.id, "from": list(start), "to": list(t.pos),
                  "metres": metres, **({"toward": True} if toward else {}), "rule": rule})
    aerial.fall_if_unsupported(session, t, "AIR-12", "pushed off an edge")


def strength_attack(rs, a, w) -> bool:
    """SRD-27 an attack "that uses Strength": a melee or thrown weapon; a finesse one when its Strength is at least its
    Dexterity (the attacker's better choice, as Ray of Enfeeblement reads it)."""
    props = w.get("properties") or ()
    if "finesse" in props:
        return conditions.ab(rs, a, "str") >= conditions.ab(rs, a, "dex")
    return "ranged" not in props or "thrown" in props


@advantage.source("SRD-27")
def weakened_attacker(rs, session, a, t, plan, ctx):
    """SRD-27: "disadvantage on Strength-based attack rolls" (srd_weakened.py)."""
    if a.data.get("weakened") and plan.get("kind") != "spell" and strength_attack(rs, a, plan["weapon"]):
        yield advantage.DIS, "the attacker is weakened (Weakening Breath): a Strength-based attack"


@advantage.source("SRD-28")
def held_in_its_grapple(rs, session, a, t, plan, ctx):
    """SRD-28 "Until this grapple ends, the ankheg can bite only the grappled creature and has advantage on attack
    rolls to do so." (SRD-19's ``one_target`` refuses the bite at another)."""
    g = (plan.get("weapon") or {}).get("grapple") or {}
    if g.get("advantage_held") and srd_grapple.holding(session, a, plan["weapon"]["name"]) is t:
        yield advantage.ADV, f"{t.name} is held in the {plan['weapon']['name']}'s grapple"


def weaken(rs, session, a, t, f: dict) -> None:
    t.data["weakened"] = {"by": a.id, "dc": int(f["dc"]), "feature": f["name"]}
    session.emit({"type": "weakened", "who": t.id, "by": a.id, "feature": f["name"], "rule": "SRD-27"})


def slow(rs, session, a, t, f: dict) -> None:
    t.data["slowed_breath"] = {"by": a.id, "dc": int(f["dc"]), "feature": f["name"],
                               **({"ability": f["ability"]} if f["ability"] != "con" else {})}   # SRD-68: Wisdom
    t.data["reaction_used"] = True                  # "can't use reactions"
    session.emit({"type": "slowed", "who": t.id, "by": a.id, "feature": f["name"], "rule": "SRD-27"})


@TURN_START.rule("SRD-27")
def slowed_no_reaction_back(rs, session, a):
    """SRD-27 Slowing Breath: "the creature can't use reactions" (it does not come back at the start of its turn)."""
    if a.data.get("slowed_breath"):
        a.data["reaction_used"] = True


def one_of_action_or_bonus(rs, session, a) -> None:
    """SRD-27 Slowing Breath: "the creature can use either an action or a bonus action on its turn, but not both":
    after each of its steps, the one it used spends the other (so a slowed flyer that took an action has no bonus
    action left for AIR-08's upkeep, and falls at the end of its turn unless it lands)."""
    turn = session.state.turn
    if not (a.data.get("slowed_breath") or a.data.get("one_action_only")) or turn.get("actor") != a.id:
        return
    if turn.get("action") and not turn.get("bonus"):
        turn["bonus"] = True
    elif turn.get("bonus") and not turn.get("action"):
        turn["action"] = True
        turn["attacks_left"] = 0


@TURN_END.rule("SRD-27")
def weakness_repeat_save(rs, session, a):
    """SRD-27 "A creature can repeat the saving throw at the end of each of its turns, ending the effect on itself on a
    success." (Weakening Breath: a Strength save, with its own disadvantage; Slowing Breath: its Constitution save)."""
    for key, ability, ev in (("weakened", "str", "weakened"), ("slowed_breath", "con", "slowed")):
        w = a.data.get(key)
        if not w or a.dead:
            continue
        if conditions.saving_throw(rs, session, a, w.get("ability", ability), w["dc"], None, "SRD-27",
                                   f"end of turn save against {w['feature']}"):
            a.data.pop(key, None)
            session.emit({"type": ev, "who": a.id, "ended": True, "rule": "SRD-27"})


def after_save(rs, session, a, t, f: dict, saved: bool) -> None:
    """What a save action's failed save does besides damage and a condition (its entry's ``push_m``, ``sleep``,
    ``weaken``)."""
    if saved or t.dead:
        return
    if f.get("sleep"):
        srd_riders.put_to_sleep(rs, session, a, t)
    if f.get("push_m"):
        repel(rs, session, a, t, float(f["push_m"]))
    if f.get("weaken"):
        weaken(rs, session, a, t, f)
    if f.get("slow"):
        slow(rs, session, a, t, f)


@TURN_START.rule("SRD-29")
def blight_damage(rs, session, a):
    """SRD-29 "it takes 21 (6d6) poison damage at the start of each of its turns" while the condition holds it (an
    ended one is forgotten)."""
    b = a.data.get("srd_blight")
    if not b or a.dead:
        return
    if not srd_blight.active(a):
        a.data.pop("srd_blight", None)
        return
    e = b.get("each_turn")
    if e:
        n, s, bonus = dice_parts(e["dice"])
        amount = sum(session.roll("damage", s, n, who=b["by"], rule="SRD-29")) + bonus
        rs.apply_damage(session, a, amount, e["type"], b["by"], "SRD-29")


def pull_rider(rs, session, a, t, w, saved: bool, dropped: bool) -> None:
    """SRD-26 on a hit: "the target must succeed on a DC 20 Strength saving throw or be pulled up to 25 feet toward
    the balor" -- the whole distance (its choice: as close as it gets), stopping before the balor's body or a wall."""
    r = w["on_hit"]["rider"]
    if r["kind"] == "pull" and not saved and not t.dead:
        repel(rs, session, a, t, float(r["metres"]), toward=True)


srd_traits.ON_HIT_RIDERS.append(pull_rider)
