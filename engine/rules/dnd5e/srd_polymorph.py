"""Polymorph (SPL-19, SPL-20): a creature made a beast of the SRD bestiary (assets/srd/creatures.json), in 3D.

SPL-19: "This spell transforms a creature that you can see within range into a new form. An unwilling creature
must make a Wisdom saving throw to avoid the effect. The spell has no effect on a shapechanger or a creature with 0
hit points. ... The new form can be any beast whose challenge rating is equal to or less than the target's (or the
target's level, if it doesn't have a challenge rating). The target's game statistics, including mental ability
scores, are replaced by the statistics of the chosen beast. ... The target assumes the hit points of its new form.
... it can't speak, cast spells, or take any other action that requires hands or speech."

``cast`` with ``option`` = the beast's SRD index (``"giant-eagle"``; default: for a creature of another side the
weakest beast that walks -- a flyer made a walker falls by AIR-10..12 --, for one of the caster's side the
strongest beast its level allows). Unwilling = of another side (a Wisdom save); willing = the caster's side. The
sheet's numbers (abilities, AC, speeds, fly speed, weapons and multiattack, saves, skills, resistances, traits,
type) and its body's size become the beast's (the body keeps its size where the beast's does not fit, as
Enlarge's does); its spells are gone for the duration; the old sheet is kept in ``data["polymorph"]``. The
challenge rating limit reads the sheet's ``level`` (an SRD creature's is its CR, at least 1).

SPL-20: "The transformation lasts for the duration, or until the target drops to 0 hit points or dies. ... When it
reverts to its normal form, the creature returns to the number of hit points it had before it transformed. If it
reverts as a result of dropping to 0 hit points, any excess damage carries over to its normal form." -- the
caster's concentration ending reverts it; damage that would drop the beast to 0 reverts it and the excess is dealt
to the normal form (through its own resistances).
"""

from __future__ import annotations

import copy

from engine.rules import aerial
from engine.rules.core import Illegal
from engine.rules.dnd5e import concentration, conditions, damage, sheet, srd_cast, text
from engine.rules.dnd5e.srd_blocks import bestiary, character
from engine.rules.dnd5e.srd_spells import spell
from engine.world.scene import SIZES

RULE = "SPL-19"
REVERT_RULE = "SPL-20"
#: the sheet keys a new form replaces (the rest: the action economy, death saves, concentration... stay)
KEYS = ("abilities", "ac", "speed_m", "fly_speed_m", "swim_speed_m", "weapons", "attacks", "multiattack",
        "creature_actions", "saves", "skills", "resist", "vuln", "immune", "condition_immunities", "srd_traits",
        "spells", "hover", "creature_type", "prof", "legendary", "legendary_resistance", "srd_spellcasting")

text.EVENT_LINES.update({
    "polymorph": text._did(lambda s, e: f"reverts to its normal form ({e['reason']})" if e.get("ended") else
                           f"becomes a {e['beast']} ({e['hp']} HP)"),
})


def beasts() -> dict[str, dict]:
    return {k: c for k, c in bestiary().items() if c["type"] == "beast"}


def default_beast(a, t) -> str:
    limit = t.data["level"]
    fits = [c for c in beasts().values() if c["cr"] <= limit]
    if t.side != a.side:
        walk = [c for c in fits if not c["fly_speed_m"]] or fits
        return min(walk, key=lambda c: (c["cr"], c["hp"], c["id"]))["id"]
    return max(fits, key=lambda c: (c["cr"], c["hp"], c["id"]))["id"]


def new_form(rs, beast: str) -> tuple[dict, int, str]:
    """(the sheet keys of the beast, its hit points, its size) as a scene's ``srd = beast`` would give them."""
    t = character(bestiary()[beast])
    data = {"abilities": dict(t["abilities"]), "ac": int(t["ac"]), "speed_m": float(t["speed_m"]),
            "fly_speed_m": t.get("fly_speed_m"), "swim_speed_m": t.get("swim_speed_m"),
            "weapons": [sheet._weapon(rs, w, "<polymorph>", f"{beast}.weapons[{j}]") for j, w in enumerate(t["weapons"])],
            "attacks": int(t["attacks"]), "saves": list(t["saves"]), "skills": dict(t["skills"]),
            "resist": sorted(set(t["resistances"])), "vuln": sorted(set(t["vulnerabilities"])),
            "immune": sorted(set(t["immunities"])), "condition_immunities": sorted(set(t["condition_immunities"])),
            "srd_traits": sorted(set(t["srd_traits"])), "spells": [], "hover": bool(t.get("hover")),
            "creature_type": "beast", "prof": int(t["proficiency"])}
    if t.get("multiattack"):
        data["multiattack"] = [dict(o) for o in t["multiattack"]]
    if t.get("creature_actions"):
        data["creature_actions"] = [dict(f) for f in t["creature_actions"]]
    return data, int(t["max_hp"]), str(t["size"]).lower()


class Polymorph:
    rule = RULE

    @staticmethod
    def check(rs, session, a, act, sp, plan):
        t = srd_cast.single(rs, session, a, act, {**sp, "kind": "effect"})
        if t.hp == 0:
            raise Illegal(f"Polymorph has no effect on a creature with 0 hit points: {t.name}", RULE, "target")
        if t.data.get("polymorph"):
            raise Illegal(f"{t.name} is already polymorphed", RULE, "target")
        if not rs.sees(session, a, t):
            raise Illegal(f"Polymorph transforms a creature {a.name} can see: not {t.name}", RULE, "target")
        beast = act.get("option") or default_beast(a, t)
        c = beasts().get(beast)
        if c is None:
            raise Illegal(f"Polymorph's option is a beast of the SRD (`aerie compendium creatures beast`), not "
                          f"{beast!r}", RULE, "option")
        if c["cr"] > t.data["level"]:
            raise Illegal(f"a {c['name']} (CR {c['cr']:g}) is above {t.name}'s challenge rating or level "
                          f"{t.data['level']}", RULE, "option")
        plan.update({"targets": [t.id], "option": beast})
        return plan

    @staticmethod
    def candidates(rs, session, a, ctx, sp, base):
        return [{**base, "target": t.id} for t in ctx.foes if t.hp > 0 and not t.data.get("polymorph")]

    @staticmethod
    def apply(rs, session, a, plan):
        sp = spell(session, plan["spell"])
        srd_cast.spend(rs, session, a, sp, plan)
        session.emit({"type": "cast", "who": a.id, "spell": plan["spell"], "targets": plan["targets"],
                      "option": plan["option"], **({"slot": plan["slot"]} if plan.get("slot") else {}), "rule": RULE})
        concentration.begin(rs, session, a, plan["spell"], plan["targets"])
        t = session.state.actors[plan["targets"][0]]
        if t.dead or t.hp == 0:
            return
        if t.side != a.side:
            _, dc, _ = srd_cast.caster_numbers(rs, a)
            if conditions.saving_throw(rs, session, t, "wis", dc, a, "DND-21", sp["id"], sole_target=True):
                return
        transform(rs, session, a, t, plan["option"], sp["id"])


def transform(rs, session, a, t, beast: str, spell_id: str) -> None:
    data, hp, size = new_form(rs, beast)
    t.data["polymorph"] = {"caster": a.id, "spell": spell_id, "beast": beast,
                           "sheet": {k: copy.deepcopy(t.data.get(k)) for k in KEYS},
                           "hp": t.hp, "max_hp": t.max_hp, "temp_hp": t.temp_hp, "can_fly": t.can_fly,
                           "body": [t.size, t.footprint, t.height_layers, t.eye_m]}
    for k in KEYS:
        t.data.pop(k, None)
    t.data.update({k: v for k, v in data.items() if v is not None or k in ("fly_speed_m", "swim_speed_m")})
    t.hp = t.max_hp = hp
    t.temp_hp = 0
    t.can_fly = data["fly_speed_m"] is not None
    if size in SIZES and size != t.size:
        old = (t.size, t.footprint, t.height_layers, t.eye_m)
        t.size = size
        t.footprint, t.height_layers, t.eye_m = SIZES[size]
        if not aerial.body_fits(session, t, t.x, t.y, t.layer) or aerial.body_in_the_way(session, t, t.pos) is not None:
            t.size, t.footprint, t.height_layers, t.eye_m = old
    session.emit({"type": "polymorph", "who": t.id, "beast": beast, "spell": spell_id, "hp": hp,
                  "size": t.size, "fly_speed_m": data["fly_speed_m"], "rule": RULE})
    _falls(session, t, f"made a {beast} without a fly speed while aloft")


def _falls(session, t, why: str) -> None:
    """A flyer whose new form cannot fly falls (AIR-10..12, as when Fly ends: SPL-03)."""
    if t.flying and not t.can_fly and not t.dead:
        session.emit({"type": "flight_lost", "who": t.id, "reason": why, "rule": "AIR-10", "because": RULE})
        aerial.fall(session, t, None, "AIR-10", why)


def revert(rs, session, t, reason: str) -> None:
    """SPL-20: its own sheet, body and hit points back."""
    p = t.data.pop("polymorph", None)
    if p is None:
        return
    for k in KEYS:
        t.data.pop(k, None)
    t.data.update({k: v for k, v in p["sheet"].items() if v is not None or k in ("fly_speed_m", "swim_speed_m")})
    t.hp, t.max_hp, t.temp_hp, t.can_fly = p["hp"], p["max_hp"], p["temp_hp"], p["can_fly"]
    t.size, t.footprint, t.height_layers, t.eye_m = p["body"]
    session.emit({"type": "polymorph", "who": t.id, "beast": p["beast"], "spell": p["spell"], "hp": t.hp,
                  "ended": True, "reason": reason, "rule": REVERT_RULE})
    _falls(session, t, "reverted to a form without a fly speed while aloft")


def spell_ends(rs, session, caster, held) -> None:
    """The caster's concentration on Polymorph ended: its target reverts."""
    for tid in held["targets"]:
        t = session.state.actors.get(tid)
        if t is not None and (t.data.get("polymorph") or {}).get("caster") == caster.id \
                and t.data["polymorph"]["spell"] == held["spell"]:
            revert(rs, session, t, "the spell ends")


def drops_to_zero(rs, session, t, excess: int, dtype: str, source, rule: str) -> bool:
    """SPL-20: damage that drops the beast to 0 reverts it; the excess carries over to the normal form. Returns
    whether it reverted (the damage is then dealt here)."""
    p = t.data.get("polymorph")
    if p is None:
        return False
    caster = session.state.actors.get(p["caster"])
    revert(rs, session, t, "it drops to 0 hit points")
    if caster is not None and (caster.data.get("concentration") or {}).get("spell") == p["spell"]:
        concentration.end(rs, session, caster, f"{t.name} reverted", REVERT_RULE)
    if excess > 0:
        rs.apply_damage(session, t, excess, dtype, source, REVERT_RULE)
    return True


srd_cast.EFFECTS["polymorph"] = Polymorph
concentration.ON_END.append(spell_ends)
damage.AT_ZERO.append(drops_to_zero)
