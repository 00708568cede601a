"""Baton actions attack, charge, create_opportunity, disarm, grab, trip, push, break_free: each one unit (``check`` -> plan, ``apply``),
dispatched by ``Baton.ACTIONS``. ``rs`` is the ruleset."""

from __future__ import annotations

from engine.rules import aerial, riding
from engine.rules.baton import baton_order, choices, combat, mounts, skills, slots
from engine.rules.baton.actions.minor import drop_weapon
from engine.rules.baton.actions.objects import ATTACK_LINES, AttackObject, names_object
from engine.rules.baton.common import DIRS8
from engine.rules.actions import Param, Unit
from engine.rules.baton.actions.objects import object_opens
from engine.rules.baton.actions import action
from engine.rules.core import BadAction, Illegal

P = Param


def _major_on(rs, session, a, act, doing: str):
    """The prologue of a major action against a target: the slot is free (BAT-04) and the target exists."""
    slots.check_slot(rs, session, a, "major", doing)
    return slots.check_target(rs, session, a, act["target"])


@action
class Attack(Unit):
    name = "attack"
    place = 5
    hotkey = "2"
    groups = {"weapon_foe": 0, "object": 0}
    PARAMS = {"target": P("id", help="a character or object id"), "weapon": P("str"), "crit": P("str", choices=("damage", "destiny"), default="damage"), "defence": P("str", choices=("best", "dodge", "shield", "defence", "none")), "voxel": P("pos", help="a voxel [x, y, z] to attack (issue 14)"), "counter_crit": choices.COUNTER_CRIT}
    LINES = ATTACK_LINES          # on an object (on a character: baton/text.py)

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        """``(who, foe, weapon)``: the rider or its mount, each able foe, each weapon in hand (or the main one); an
        object (not indestructible): each weapon in hand."""
        if isinstance(item, tuple):
            who, t, w = item
            return [{"actor": who.id, "action": "attack", "target": t.id, "weapon": w["name"]}]
        if item.indestructible:
            return []
        return [{"actor": a.id, "action": "attack", "target": item.id, "weapon": w["name"]}
                for w in combat.equipped(rs, a) or [combat.main_weapon(rs, a)]]

    @staticmethod
    def preview(rs, session, a, act, plan):
        if plan.get("object"):
            out = {k: plan[k] for k in ("target", "voxel", "weapon", "melee", "cover", "difficulty", "hp", "max_hp")}
            out["object"] = True
            out["opens"] = object_opens(rs, session, a, plan)
            return out
        return combat.attack_preview(rs, session, a, act, plan)

    @staticmethod
    def damage_on_hit(rs, session, a, act, plan):
        return None if plan.get("object") or "weapon" not in plan else combat.mean_hit_damage(rs, a, plan)

    @staticmethod
    def check(rs, session, a, act, charge=False):
        if not charge and names_object(session, act):           # an object or a voxel (issue 14)
            return AttackObject.check(rs, session, a, act)
        if act.get("target") is None:
            raise BadAction(f"required for {'charge' if charge else 'attack'}: the character", "", "target")
        slots.check_slot(rs, session, a, "major", "charging" if charge else "attacking")
        t = slots.check_target(rs, session, a, act["target"])
        w = combat.pick_weapon(rs, a, act.get("weapon"))
        if charge:
            slots.needs_movement(rs, session, a, "charge")
            tt = session.state.turn
            if tt["last"] != "move":
                raise Illegal(f"a charge is an attack at the end of a move; {a.name} has not just moved", "BAT-35")
            if tt["straight_m"] < 3.0 - 1e-9:
                raise Illegal(f"{a.name} moved {tt['straight_m']:g} m in a straight line; a charge gains +1 damage per 3 m",
                              "BAT-35")
            if not combat.is_melee(rs, w):
                raise Illegal("a charge is a melee attack", "BAT-35", "weapon")
        plan = combat.attack_plan(rs, session, a, t, w)
        plan.update({"target": t.id, "weapon": w["name"]})
        if charge:
            plan["scale"] = int(session.state.turn["straight_m"] // 3.0 + 1e-9)
        return plan

    @staticmethod
    def apply(rs, session, a, act, plan, charge=False):
        if plan.get("object"):
            return AttackObject.apply(rs, session, a, act, plan)
        t = session.state.actors[plan["target"]]
        w = combat.pick_weapon(rs, a, plan["weapon"])
        slots.use_slot(rs, session, "major", "charge" if charge else "attack")
        if baton_order.in_combat(rs, session):
            session.state.turn["last"] = "attack"
        combat.resolve_attack(rs, session, a, t, w, {"major": True, "scale": plan.get("scale", 0), "charge": charge,
                                                 "crit": act.get("crit", "damage"), "defence": act.get("defence")})


@action
class Charge(Unit):
    name = "charge"
    place = 7
    hotkey = "4"
    groups = {"weapon_foe": 1}
    PARAMS = {"target": P("id", True, help="the character"), "weapon": P("str"), "crit": P("str", choices=("damage", "destiny"), default="damage"), "defence": P("str", choices=("best", "dodge", "shield", "defence", "none")), "counter_crit": choices.COUNTER_CRIT}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        who, t, w = item
        return [{"actor": who.id, "action": "charge", "target": t.id, "weapon": w["name"]}]

    @staticmethod
    def preview(rs, session, a, act, plan):
        return combat.attack_preview(rs, session, a, act, plan)

    @staticmethod
    def damage_on_hit(rs, session, a, act, plan):
        return None if plan.get("object") or "weapon" not in plan else combat.mean_hit_damage(rs, a, plan)

    @staticmethod
    def check(rs, session, a, act):
        return rs.ACTIONS["attack"].check(rs, session, a, act, charge=True)

    @staticmethod
    def apply(rs, session, a, act, plan):
        rs.ACTIONS["attack"].apply(rs, session, a, act, plan, charge=True)
        if not a.dead:
            skills.add_condition(rs, session, a, "exposed", "BAT-35", "until_next_turn")


@action
class CreateOpportunity(Unit):
    name = "create_opportunity"
    place = 8
    hotkey = "6"
    groups = {"on_foe": 4}
    PARAMS = {"skill": P("str", True, help="the skill used (intimidate, perform, ...)"), "target": P("id"), "difficulty": P("int", default=8), "effect": P("str", choices=("advantage", "expose", "shake", "stated"), default="advantage"), "text": P("str", help="the effect the GM states (effect = \"stated\")")}

    @staticmethod
    def candidates(rs, session, a, ctx, t):
        return [{"actor": a.id, "action": "create_opportunity", "skill": "intimidate", "target": t.id, "effect": "shake"}]


    # -- other major actions ------------------------------------------------------------------------------
    @staticmethod
    def check(rs, session, a, act):
        slots.check_slot(rs, session, a, "major", "creating an opportunity")
        if act.get("effect") in ("expose", "shake", "advantage") and act.get("effect") != "advantage" and not act.get("target"):
            raise Illegal("name the target of the effect", "BAT-15", "target")
        if act.get("target"):
            slots.check_target(rs, session, a, act["target"])
        if act.get("effect") == "stated" and not act.get("text"):
            raise Illegal("the game master states the effect: give it as text (and its difficulty)", "BAT-15", "text")
        if not 2 <= act["difficulty"] <= 30:
            raise Illegal("a difficulty between 2 and 30", "BAT-15", "difficulty")
        return {}

    @staticmethod
    def apply(rs, session, a, act, plan):
        slots.use_slot(rs, session, "major", "create opportunity")
        ev = skills.skill_test(rs, session, a, act["skill"], act["difficulty"], "BAT-15", f"create an opportunity ({act.get('text') if act['effect'] == 'stated' else act['effect']})",
                        major=True)
        if not ev["success"]:
            return
        tid = act.get("target")
        eff = act["effect"]
        if eff == "advantage" and tid:
            session.state.data["opportunity"].append({"target": tid, "side": a.side, "by": a.id})
            session.emit({"type": "opportunity", "who": a.id, "target": tid, "effect": "next attack by an ally gets a positive chance", "rule": "BAT-15"})
        elif eff in ("expose", "shake"):
            skills.add_condition(rs, session, session.state.actors[tid], "exposed" if eff == "expose" else "shaken",
                                 "BAT-15", created_lasts(rs, a))
        elif eff == "stated":                  # the GM's own effect: it happens as stated (its tools apply it)
            session.emit({"type": "opportunity", "who": a.id, "effect": act["text"], "stated": True, "rule": "BAT-15",
                          **({"target": tid} if tid else {})})


def created_lasts(rs, a) -> str:
    """BAT-15 (the document gives no duration): a condition an opportunity puts on its target lasts until the
    initiative comes back to the creator's side (source ``until_side:<side>``), as the positive chance does -- so a
    shaken foe's own turn (BAT-56, "fazê-los hesitar") and the exposed foe's (BAT-59) are covered; option
    ``opportunity_lasts = "target_turn"``: until the target's next turn, the earlier reading."""
    return "until_next_turn" if rs.opt("opportunity_lasts") == "target_turn" else f"until_side:{a.side}"


@action
class Disarm(Unit):
    name = "disarm"
    place = 10
    groups = {"on_foe": 3}
    PARAMS = {"target": P("id", True, help="the character"), "weapon": P("str")}

    @classmethod
    def candidates(cls, rs, session, a, ctx, t):
        return [{"actor": a.id, "action": cls.name, "target": t.id}]

    @staticmethod
    def check(rs, session, a, act):
        t = _major_on(rs, session, a, act, "disarming")
        w = combat.pick_weapon(rs, a, act.get("weapon"))
        if not combat.is_melee(rs, w):
            raise Illegal("disarming takes a melee weapon", "BAT-32", "weapon")
        combat.attack_plan(rs, session, a, t, w)
        held = [x for x in combat.equipped(rs, t) if x["name"] not in ("unarmed",)]
        natural = {"claws", "talons", "bite"}
        held = [x for x in held if x["name"] not in natural]
        if not held:
            raise Illegal(f"{t.name} holds no weapon", "BAT-32", "target")
        return {"target": t.id, "weapon": w["name"], "theirs": held[0]["name"]}

    @staticmethod
    def apply(rs, session, a, act, plan):
        slots.use_slot(rs, session, "major", "disarm")
        t = session.state.actors[plan["target"]]
        w = combat.pick_weapon(rs, a, plan["weapon"])
        theirs = next(x for x in t.data["weapons"] if x["name"] == plan["theirs"])
        skill, lv = skills.weapon_skill(rs, a, w)
        _, tv = skills.weapon_skill(rs, t, theirs)
        ev = skills.skill_test(rs, session, a, skill, 7 + tv, "BAT-32", f"disarm {t.id}", major=True, attack=True, level=lv)
        if not ev["success"]:
            return
        (k,) = session.roll("direction", 8, who=a.id, rule="BAT-32", purpose="where the weapon lands")
        dx, dy = DIRS8[k - 1]
        X, Y, _Z = session.world.size
        x, y = t.x, t.y
        for _ in range(ev["level"]):
            nx, ny = x + dx, y + dy
            if not (0 <= nx < X and 0 <= ny < Y) or session.world.is_solid(nx, ny, max(t.layer, 0)):
                break
            x, y = nx, ny
        z = session.world.support_layer(x, y, t.layer)
        drop_weapon(session, t, theirs, [x, y, z])
        session.emit({"type": "disarmed", "who": t.id, "by": a.id, "weapon": theirs["name"], "lands": [x, y, z],
                      "direction": [dx, dy], "cells": max(abs(x - t.x), abs(y - t.y)), "rule": "BAT-32"})


#: BAT-34's three effects, one of which the manoeuvre's success gives
MANOEUVRES = ("grab", "trip", "push")
EFFECT = P("str", choices=MANOEUVRES, help="BAT-34: the effect chosen once the test succeeds (default: the action's own)")


class _Manoeuvre(Unit):
    """Grab, trip and push (BAT-34): one check (a major action, the target within reach) and one contest
    (``combat.manoeuvre``); "Se for bem-sucedido, o personagem escolhe um dos efeitos": the effect is chosen once
    the test has succeeded (choice point ``effect``, default the action's own), then its class says what it does
    (``success``)."""
    name = ""

    @classmethod
    def candidates(cls, rs, session, a, ctx, t):
        return [{"actor": a.id, "action": cls.name, "target": t.id}]

    @staticmethod
    def check(rs, session, a, act):
        t = _major_on(rs, session, a, act, act["action"])
        if not combat.in_reach(rs, session, a, t, {"reach_m": a.data["reach_m"]}):
            raise Illegal(f"{t.name} is not within reach", "BAT-34", "target")
        if (act.get("effect") or act["action"]) == "grab" and a.id in t.conditions.get("grappled", []):
            raise Illegal(f"{a.name} already grapples {t.name}", "BAT-34", "effect" if act.get("effect") else "target")
        return {"target": t.id}

    @classmethod
    def apply(cls, rs, session, a, act, plan):
        t = session.state.actors[plan["target"]]
        ev = combat.manoeuvre(rs, session, a, t, cls.name)
        if ev["success"]:
            eff = choices.choose_manoeuvre(rs, session, a, t, cls.name, ev["level"])
            rs.ACTIONS[eff].success(rs, session, a, t, ev)

    @staticmethod
    def success(rs, session, a, t, ev):
        raise NotImplementedError


@action
class Grab(_Manoeuvre):
    name = "grab"
    place = 12
    groups = {"on_foe": 0}
    PARAMS = {"target": P("id", True, help="the character"), "effect": EFFECT}

    @staticmethod
    def success(rs, session, a, t, ev):
        skills.add_condition(rs, session, t, "grappled", "BAT-54", a.id)
        skills.add_condition(rs, session, a, "grappling", "BAT-55", t.id)
        c = skills.size_cmp(rs, a, t)
        if c == 0:
            skills.add_condition(rs, session, t, "overloaded", "BAT-54", f"grab:{a.id}")
            skills.add_condition(rs, session, a, "overloaded", "BAT-55", f"grab:{t.id}")
        elif c > 0:
            skills.add_condition(rs, session, t, "stuck", "BAT-54", f"grab:{a.id}")
        aerial.check_grounded(session, t)


@action
class Trip(_Manoeuvre):
    name = "trip"
    place = 13
    groups = {"on_foe": 1}
    PARAMS = {"target": P("id", True, help="the character"), "effect": EFFECT}

    @staticmethod
    def success(rs, session, a, t, ev):
        rs.knock_prone(session, t, "BAT-34")


@action
class Push(_Manoeuvre):
    name = "push"
    place = 14
    groups = {"on_foe": 2}
    PARAMS = {"target": P("id", True, help="the character"), "effect": EFFECT}

    @staticmethod
    def success(rs, session, a, t, ev):
        cells = ev["level"] // 2
        if riding.rides(t) and cells:
            mounts.throw_rider(rs, session, t, "pushed off its mount")          # BAT-42 "derrubado"
            return
        dx = (t.x > a.x) - (t.x < a.x)
        dy = (t.y > a.y) - (t.y < a.y)
        if dx == dy == 0:
            dx = 1
        moved = aerial.slide(session, t, dx, dy, cells, lambda at: mounts.occupied(rs, session, t, at))
        session.emit({"type": "pushed", "who": t.id, "by": a.id, "cells": moved, "metres": moved * session.world.cell_m,
                      "to": list(t.pos), "rule": "BAT-34"})
        aerial.fall_if_unsupported(session, t, "BAT-34", "pushed off the edge")


@action
class BreakFree(Unit):
    name = "break_free"
    place = 15
    groups = {"then": 2}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "break_free"}]

    @staticmethod
    def check(rs, session, a, act):
        slots.check_slot(rs, session, a, "major", "breaking free")
        if not a.has("grappled") and not a.has("stuck"):
            raise Illegal(f"{a.name} is neither grappled nor stuck", "BAT-63")
        return {}

    @staticmethod
    def apply(rs, session, a, act, plan):
        slots.use_slot(rs, session, "major", "break free")
        st = session.state
        grabbers = [st.actors[s] for s in a.conditions.get("grappled", []) if s in st.actors]
        if grabbers:
            g = grabbers[0]
            _, gv = skills.best(rs, g, "physique", "fight_unarmed")
            ev = skills.skill_test(rs, session, a, "physique", 7 + gv, "BAT-34", f"break free of {g.id}", major=True)
            if ev["success"]:
                skills.release(rs, session, g, a)
        else:       # stuck, or the GM's hold (a grapple with no grabber, gm_condition): the stuck test (BAT-63)
            held = a.has("grappled")
            diff = int(a.data.get("stuck_difficulty", 8))
            skill, _ = skills.best(rs, a, "physique", "athletics")
            ev = skills.skill_test(rs, session, a, skill, diff, "BAT-63",
                                   "break free of the GM's hold" if held else "break free", major=True)
            if ev["success"] and held:
                skills.remove_condition(rs, session, a, "grappled", "BAT-63")
            elif ev["success"]:
                a.conditions.pop("stuck", None)
                session.emit({"type": "condition", "who": a.id, "condition": "stuck", "added": False, "rule": "BAT-63"})
