"""Wards against creature types (issue 39): Dispel Evil and Good (SPL-15, SPL-16) and Magic Circle (SPL-17, SPL-18),
read against the sheet's ``creature_type`` (the SRD creature's type: ``srd = "..."`` gives it; a scene may write
it; a character without one is none of the warded types).

- SPL-15 Dispel Evil and Good: "For the duration, celestials, elementals, fey, fiends, and undead have disadvantage
  on attack rolls against you." -- while the caster concentrates on it (an attack-roll source).
- SPL-16 its two special functions, each "As your action", each ending the spell: Dismissal ("make a melee spell
  attack against a celestial, an elemental, a fey, a fiend, or an undead you can reach. On a hit ... The creature
  must succeed on a Charisma saving throw or be sent back to its home plane") and Break Enchantment ("you touch a
  creature you can reach that is charmed, frightened, or possessed by a celestial, an elemental, a fey, a fiend,
  or an undead. The creature you touch is no longer charmed, frightened, or possessed by such creatures"). ``cast``
  with ``option = "dismissal"`` / ``"break_enchantment"`` and a ``target`` while the spell is held: the action, no
  slot. A creature sent to its home plane leaves the fight (the sandbox's battle is on the Material Plane; the
  SRD's fiends, celestials, elementals and fey come from other planes and its undead go to the Shadowfell):
  a ``dismissed`` event and the state's ``dead`` flag (out of the fight: no death event, no Death Burst).
- SPL-17 Magic Circle: "a 10-foot-radius, 20-foot-tall cylinder ... Choose one or more of the following types of
  creatures: celestials, elementals, fey, fiends, or undead" (``option``: the types, comma-separated; default all
  five). "The creature has disadvantage on attack rolls against targets within the cylinder. Targets within the
  cylinder can't be charmed, frightened, or possessed by the creature." Its casting time of 1 minute is SPL-12's
  (an action each turn for 10 rounds); its hour outlasts any fight the sandbox plays (kept on the caster's
  ``data["circles"]`` until the fight ends; the slot's longer hours change nothing here).
- SPL-18 "The creature can't willingly enter the cylinder by nonmagical means" is not enforced on movement (the
  pathing has no barrier by creature type) nor its reverse direction: named in the spell's ``omits``.
"""

from __future__ import annotations

from engine.rules import aerial
from engine.rules.core import Illegal
from engine.rules.dnd5e import areas, attacks, concentration, conditions, damage, srd_cast, text
from engine.rules.dnd5e.advantage import DIS, source
from engine.rules.dnd5e.srd_spells import spell

WARDED = ("celestial", "elemental", "fey", "fiend", "undead")
DEG = "dispel-evil-and-good"

text.EVENT_LINES.update({
    "dismissed": text._did(lambda s, e: f"is sent back to its home plane ({e['spell']}): out of the fight"),
    "enchantment_broken": text._did(lambda s, e: f"is no longer {', '.join(e['conditions'])} ({e['spell']})"),
})


def creature_type(a) -> str | None:
    return a.data.get("creature_type")


def warded_type(a, types=WARDED) -> bool:
    return creature_type(a) in types


def circles_around(session, t) -> list[dict]:
    """The Magic Circles whose cylinder holds ``t``'s body."""
    cell = session.world.cell_m
    out = []
    for c in session.state.actors.values():
        for e in c.data.get("circles") or ():
            if areas.catches(areas.make(e["area"], tuple(e["area"]["origin"])), t, cell):
                out.append(e)
    return out


@source("SPL-15")
def spell_wards(rs, session, a, t, plan, ctx):
    """SPL-15: a warded type attacking the caster of a held Dispel Evil and Good; SPL-17: a circle's chosen type
    attacking a target within the cylinder."""
    if not creature_type(a):
        return
    if warded_type(a) and concentration.held(t) == DEG:
        yield DIS, f"{t.name} is warded by Dispel Evil and Good against {creature_type(a)}s", "SPL-15"
    if any(creature_type(a) in e["types"] for e in circles_around(session, t)):
        yield DIS, f"{t.name} is within a Magic Circle against {creature_type(a)}s", "SPL-17"


def circle_ward(rs, session, t, name: str, src: str):
    """SPL-17: "Targets within the cylinder can't be charmed, frightened, or possessed by the creature."."""
    if name not in ("charmed", "frightened"):
        return None
    o = session.state.actors.get(src)
    if o is None or not creature_type(o):
        return None
    if any(creature_type(o) in e["types"] for e in circles_around(session, t)):
        return f"within a Magic Circle against {creature_type(o)}s", "SPL-17"
    return None


conditions.WARDS.append(circle_ward)


def leave_fight(rs, session, t, caster, spell_id: str, rule: str) -> None:
    """Sent to its home plane: out of the fight (the state's ``dead`` flag; no death, no Death Burst)."""
    t.dead = True
    session.emit({"type": "dismissed", "who": t.id, "spell": spell_id, "by": caster.id, "rule": rule})
    if t.data.get("concentration"):
        concentration.incapacitated(rs, session, t, "is sent to its home plane", rule)
    for o in session.state.actors.values():
        if t.id in o.conditions.get("grappled", []):
            conditions.release(rs, session, o, t, "DND-47", f"{t.name} is gone")
    aerial.check_grounded(session, t)
    damage.check_over(rs, session)


class DispelEvilAndGood:
    """SPL-15 / SPL-16 (see the module)."""
    rule = "SPL-15"

    @staticmethod
    def no_slot(a, act) -> bool:
        """Dismissal and Break Enchantment are the held spell's own actions: no slot, no new casting."""
        return (act.get("option") or "ward") != "ward"

    @staticmethod
    def check(rs, session, a, act, sp, plan):
        option = act.get("option") or "ward"
        if option not in ("ward", "dismissal", "break_enchantment"):
            raise Illegal(f"Dispel Evil and Good's option is ward, dismissal or break_enchantment, not {option!r}",
                          "SPL-16", "option")
        plan["option"] = option
        if option == "ward":
            plan["targets"] = [a.id]
            return plan
        if concentration.held(a) != DEG:
            raise Illegal(f"{option.replace('_', ' ')} ends a Dispel Evil and Good {a.name} holds: it holds none",
                          "SPL-16", "option")
        t = srd_cast.single(rs, session, a, act, {**sp, "range_m": 1.5, "self_range": False, "kind": "effect"})
        if option == "dismissal" and not warded_type(t):
            raise Illegal(f"Dismissal drives back a celestial, an elemental, a fey, a fiend or an undead: {t.name} is "
                          f"{creature_type(t) or 'of no such type'}", "SPL-16", "target")
        if option == "break_enchantment" and not _enchanted_by(session, t):
            raise Illegal(f"{t.name} is not charmed or frightened by a celestial, an elemental, a fey, a fiend or an "
                          "undead", "SPL-16", "target")
        plan["targets"] = [t.id]
        return plan

    @staticmethod
    def candidates(rs, session, a, ctx, sp, base):
        if concentration.held(a) != DEG:
            return [base] if any(warded_type(f) for f in ctx.foes) else []
        out = [{**base, "option": "dismissal", "target": f.id} for f in ctx.foes if warded_type(f)]
        return out + [{**base, "option": "break_enchantment", "target": f.id} for f in ctx.friends + [a]
                      if _enchanted_by(session, f)]

    @staticmethod
    def apply(rs, session, a, plan):
        sp = spell(session, plan["spell"])
        if plan["option"] == "ward":
            srd_cast.spend(rs, session, a, sp, plan)
            session.emit({"type": "cast", "who": a.id, "spell": plan["spell"], "targets": plan["targets"],
                          "option": "ward", **({"slot": plan["slot"]} if plan.get("slot") else {}), "rule": "SPL-15"})
            concentration.begin(rs, session, a, plan["spell"], [a.id])
            return
        session.state.turn["action"] = True
        t = session.state.actors[plan["targets"][0]]
        session.emit({"type": "cast", "who": a.id, "spell": plan["spell"], "targets": [t.id],
                      "option": plan["option"], "rule": "SPL-16"})
        concentration.end(rs, session, a, plan["option"].replace("_", " "), "SPL-16")    # "the spell ends"
        if plan["option"] == "break_enchantment":
            gone = []
            for cond in ("charmed", "frightened"):
                by = [s for s in t.conditions.get(cond, ()) if s in session.state.actors
                      and warded_type(session.state.actors[s])]
                if not by:
                    continue
                rest = [s for s in t.conditions[cond] if s not in by]
                if rest:
                    t.conditions[cond] = rest
                else:
                    conditions.remove_condition(rs, session, t, cond, "SPL-16")
                gone.append(cond)
            session.emit({"type": "enchantment_broken", "who": t.id, "spell": plan["spell"], "conditions": gone,
                          "rule": "SPL-16"})
            return
        _, _, to_hit = srd_cast.caster_numbers(rs, a)
        w = {"name": "dismissal", "damage": "0d1", "type": "radiant", "properties": [], "range": None,
             "to_hit": to_hit, "spell": True}
        p = attacks.attack_plan(rs, session, a, t, w, False)
        p["kind"] = "spell"
        p["weapon"] = {**w, "damage_bonus": -attacks.dmg_mod(rs, a, w, True)}
        if attacks.resolve_attack(rs, session, a, t, p, {}) is None or t.dead:
            return
        _, dc, _ = srd_cast.caster_numbers(rs, a)
        if not conditions.saving_throw(rs, session, t, "cha", dc, a, "SPL-16", plan["spell"], sole_target=True):
            leave_fight(rs, session, t, a, plan["spell"], "SPL-16")


def _enchanted_by(session, t) -> bool:
    return any(s in session.state.actors and warded_type(session.state.actors[s])
               for cond in ("charmed", "frightened") for s in t.conditions.get(cond, ()))


class MagicCircle:
    """SPL-17 (see the module): a cylinder centred on a cell in range, its base on the ground (the aimed cell's
    floor), against the chosen types."""
    rule = "SPL-17"

    @staticmethod
    def check(rs, session, a, act, sp, plan):
        types = [x.strip() for x in (act.get("option") or ",".join(WARDED)).split(",") if x.strip()]
        bad = [x for x in types if x not in WARDED]
        if bad or not types:
            raise Illegal(f"Magic Circle's option names its creature types among {', '.join(WARDED)}, not "
                          f"{', '.join(bad) or 'none'}", "SPL-17", "option")
        if act.get("at") is None:
            raise Illegal("Magic Circle needs a point on the ground: at = [x, y, layer]", "SPL-17", "at")
        sp = {**sp, "area": {"shape": "cylinder", "size_m": 3.0, "height_m": 6.0}}
        ar, _ = srd_cast.area_of(session, a, sp, act)
        plan.update({"targets": [], "types": types, "point": list(act["at"]),
                     "area": {"shape": "cylinder", "size_m": ar.size_m, "height_m": 6.0,
                              "origin": [round(c, 3) for c in ar.origin]}})
        return plan

    @staticmethod
    def candidates(rs, session, a, ctx, sp, base):
        if a.data.get("circles") or not any(warded_type(f) for f in ctx.foes):
            return []
        return [{**base, "at": [a.x, a.y, a.layer]}]

    @staticmethod
    def apply(rs, session, a, plan):
        sp = spell(session, plan["spell"])
        srd_cast.spend(rs, session, a, sp, plan)
        session.emit({"type": "cast", "who": a.id, "spell": plan["spell"], "targets": [], "at": plan["point"],
                      "area": plan["area"], "option": ",".join(plan["types"]),
                      **({"slot": plan["slot"]} if plan.get("slot") else {}), "rule": "SPL-17"})
        a.data.setdefault("circles", []).append({"spell": plan["spell"], "area": plan["area"],
                                                 "types": plan["types"]})


srd_cast.EFFECTS["dispel_evil_and_good"] = DispelEvilAndGood
srd_cast.EFFECTS["magic_circle"] = MagicCircle
