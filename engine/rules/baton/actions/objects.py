"""Baton: the scene's objects and breakable terrain in baton terms (issue 14). The objects themselves (what a
target is, its AC-free material stats, hit points, immunities, what breaking does to the world) are the shared
``engine/rules/objects.py``.

* ``attack`` with ``target = "<object id>"`` or ``voxel = [x, y, z]``: an overcome-obstacle action (BAT-12) with
  the weapon's fighting skill against the base difficulty (7, BAT-14) -- an object offers no resistance: no Dodge,
  no Shield (BAT-14) --; range, reach and line of sight as against a character (BAT-12, BAT-41). Its die reads for
  the baton like any major-action test (BAT-08/09). A success deals the weapon's damage (a critical adds its
  maximum, BAT-36) through the material: blunt = bludgeoning, cutting = slashing.
* ``manipulate``: "manipular o campo de batalha ... derrubando objetos" (BAT-15, create opportunity): a major
  action next to an object, a test of ``skill`` (default athletics) against ``difficulty`` (default 6 + 2 per voxel
  of the object: 8 for a barrel, as create_opportunity's default); a success knocks it over: its voxels leave the
  place they stood (those on it fall, AIR-12 as the aerial layer applies it); the heap it leaves on the ground is
  not modelled as terrain.
"""

from __future__ import annotations

from engine.rules import objects
from engine.rules.baton import baton_order, combat, mounts, skills, slots
from engine.rules.baton import dice as bd
from engine.rules.actions import Param, Unit
from engine.rules.baton.actions import action
from engine.rules.core import Illegal
from engine.rules.registry import cover_levels
from engine.world.geometry import distance_m, in_melee_reach

ATTACK_RULE, OPPORTUNITY_RULE = "BAT-12", "BAT-15"
DAMAGE_TYPES = {"blunt": "bludgeoning", "cutting": "slashing", "piercing": "piercing"}

P = Param


def names_object(session, act) -> bool:
    if act.get("voxel") is not None:
        return True
    t = act.get("target")
    return isinstance(t, str) and t not in session.state.actors and objects.find_object(session, t.partition(".")[0]) is not None


def _target(session, act):
    if act.get("target") is not None and act.get("voxel") is not None:
        raise Illegal("name the object (target) or the voxel, not both", ATTACK_RULE, "voxel")
    t = objects.resolve(session, act.get("target"), act.get("voxel"), ATTACK_RULE)
    if t.indestructible:
        raise Illegal(f"{t.name} is {t.material.name}, which cannot be broken", ATTACK_RULE,
                      "voxel" if act.get("voxel") is not None else "target")
    return t


class AttackObject:
    name = "attack"

    @staticmethod
    def check(rs, session, a, act):
        slots.check_slot(rs, session, a, "major", "attacking")
        t = _target(session, act)
        w = combat.pick_weapon(rs, a, act.get("weapon"))
        ab = mounts.body_of(rs, session, a).body()
        cell = session.world.cell_m
        cands = objects.candidate_voxels(session, t)
        key = "voxel" if act.get("voxel") is not None else "target"
        melee = combat.is_melee(rs, w)
        if melee:
            near = [v for v in cands if in_melee_reach(ab, objects.voxel_body(v), combat.reach_of(rs, a, w), cell)]
            if not near:
                raise Illegal(f"{t.name} is not within reach of {a.name}'s {w['name']}", ATTACK_RULE, key)
            cands = near
        else:
            inr = [v for v in cands if distance_m(ab, objects.voxel_body(v), cell) <= w["range_m"] + 1e-9]
            if not inr:
                d = min(distance_m(ab, objects.voxel_body(v), cell) for v in cands)
                raise Illegal(f"{t.name} is {d:.1f} m away; {a.name}'s {w['name']} reaches {w['range_m']:g} m", ATTACK_RULE, key)
            cands = inr
        sg = objects.sight(session, ab, t, cover_levels("baton"), voxels=cands)
        if sg.level == "total":
            raise Illegal(f"{t.name} is behind total cover from {a.name}: no line of sight", "BAT-41", key)
        hp, max_hp = objects.hp_of(session, t)
        return {"object": True, "target": t.id, "voxel": list(sg.voxel), "weapon": w["name"], "melee": melee,
                "cover": sg.level, "blocked_fraction": round(sg.blocked_fraction, 4), "hp": hp, "max_hp": max_hp,
                "difficulty": int(rs.opt("base_difficulty"))}

    @staticmethod
    def apply(rs, session, a, act, plan):
        t = _target(session, act)
        w = combat.pick_weapon(rs, a, plan["weapon"])
        slots.use_slot(rs, session, "major", "attack")
        if baton_order.in_combat(rs, session):
            session.state.turn["last"] = "attack"
        skill, lv = skills.weapon_skill(rs, a, w)
        ev = skills.skill_test(rs, session, a, skill, plan["difficulty"], ATTACK_RULE, f"attack {t.id} with {w['name']}",
                      major=True, attack=True, level=lv)
        session.emit({"type": "object_attack", "who": a.id, "target": t.id, "voxel": plan["voxel"], "weapon": w["name"],
                      "melee": plan["melee"], "difficulty": plan["difficulty"], "hit": bool(ev["success"]),
                      "critical": bool(ev["critical"]), "roll": ev["kept"], "bonus": lv, "total": ev["total"],
                      "cover": plan["cover"], "rule": ATTACK_RULE})
        if not ev["success"]:
            return
        expr = w["damage"]
        n, _sides, bonus = bd.parse(expr)
        rolls = session.roll("damage", *skills.dice_of(rs, expr), who=a.id, rule=ATTACK_RULE, purpose=f"{w['name']} damage") if n else []
        total = max(0, sum(rolls) + bonus + (bd.maximum(expr) if ev["critical"] else 0))      # BAT-36
        dtype = DAMAGE_TYPES.get(w.get("type", "blunt"), w.get("type", "blunt"))
        objects.damage(session, t, total, dtype, a.id, ATTACK_RULE)


def manipulate_difficulty(o) -> int:
    return 6 + 2 * o.box.voxels


@action
class Manipulate(Unit):
    """BAT-15: knock an object over (create an opportunity by manipulating the battlefield)."""
    name = "manipulate"
    place = 6
    groups = {"object": 1}
    PARAMS = {"target": P("id", True, help="the object to knock over (BAT-15)"), "skill": P("str"), "difficulty": P("int")}

    @staticmethod
    def candidates(rs, session, a, ctx, o):
        return [{"actor": a.id, "action": "manipulate", "target": o.id}]

    @staticmethod
    def check(rs, session, a, act):
        slots.check_slot(rs, session, a, "major", "manipulating the battlefield")
        o = objects.find_object(session, act["target"])
        if o is None:
            ids = ", ".join(x.id for x in objects._objects(session)) or "none"
            raise Illegal(f"no object {act['target']!r} (objects: {ids})", OPPORTUNITY_RULE, "target")
        if objects.gone(session, o):
            raise Illegal(f"{o.name} is no longer standing", OPPORTUNITY_RULE, "target")
        if not objects.next_to(session, mounts.body_of(rs, session, a).body(), a, o):
            raise Illegal(f"{a.name} must stand next to {o.name} to knock it over", OPPORTUNITY_RULE, "target")
        diff = act.get("difficulty")
        diff = manipulate_difficulty(o) if diff is None else diff
        if not 2 <= diff <= 30:
            raise Illegal("a difficulty between 2 and 30", OPPORTUNITY_RULE, "difficulty")
        return {"target": o.id, "difficulty": diff, "skill": act.get("skill") or "athletics"}

    @staticmethod
    def apply(rs, session, a, act, plan):
        slots.use_slot(rs, session, "major", "manipulate")
        o = objects.find_object(session, plan["target"])
        ev = skills.skill_test(rs, session, a, plan["skill"], plan["difficulty"], OPPORTUNITY_RULE, f"knock over {o.name}", major=True)
        if not ev["success"]:
            return
        t = objects.resolve(session, o.id, None, OPPORTUNITY_RULE)
        objects.break_target(session, t, a.id, OPPORTUNITY_RULE, "AIR-12", "knocked over")


def object_opens(rs, session, a, plan) -> list[dict]:
    """The preview's "what breaking it would open" (sight lines from the attacker to each foe)."""
    vox = plan["target"].startswith("voxel:")
    t = objects.resolve(session, None if vox else plan["target"], plan["voxel"] if vox else None, ATTACK_RULE)
    others = [o for o in session.state.actors.values() if o.side != a.side and not o.dead]
    return objects.what_breaking_opens(session, t, a, others, cover_levels("baton"))
#: how an attack on an object reads (the baton's Attack.LINES)
ATTACK_LINES = {
    "object_attack": lambda session, e, n, r: (
        f"{n('who')} attacks {e['target']} (voxel {e['voxel']}) with {e['weapon']}: {e['roll']} + {e['bonus']} = "
        f"{e['total']} vs difficulty {e['difficulty']} (no defence): {'success' if e['hit'] else 'fails'}{r}"),
    # the object rules count an object's toughness in points; baton has no hit points, so the line says structure
    "object_damage": lambda session, e, n, r: (
        f"    {e['target']} ({e['material']}) takes {e['dealt']}"
        + (f" ({e['amount']} {e['damage_type']}, {e['applied']})" if e.get("applied") else f" {e['damage_type']}")
        + (f" (below its damage threshold {e['below_threshold']}: nothing)" if e.get("below_threshold") else "")
        + f": {e['hp']}/{e['max_hp']} structure left{r}"),
}
