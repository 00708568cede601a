"""Objects (DND-40) and locks (DND-39): attacking an object, a part of one or a voxel of terrain
(``attack`` with ``target = "<object id>"`` or ``voxel = [x, y, z]``), picking a lock with thieves' tools
(Dexterity + proficiency, doubled with expertise) and forcing it (Strength against the DC). Breaking is
attacking. The world side -- what a target is, sight, damage, what breaks -- is ``engine/rules/objects.py``.

An object cannot dodge, hide or be helped against: only the attacker's own disadvantages apply (prone, blinded,
restrained, poisoned, frightened, beyond normal range, a ranged attack within 1.5 m of a hostile, underwater).
"""

from __future__ import annotations

from engine.rules import objects
from engine.rules.actions import Param, Unit
from engine.rules.core import Illegal
from engine.rules.dnd5e.actions import action
from engine.rules.registry import cover_levels
from engine.rules.dnd5e import advantage, attacks, common, conditions
from engine.rules.dnd5e.common import dice_spec
from engine.world.geometry import cell_gap, in_melee_reach
from engine.world.geometry import distance_m

OBJECT_RULE, LOCK_RULE = "DND-40", "DND-39"
TOOLS = "thieves_tools"
COVER_BONUS = {"half": 2, "three-quarters": 5}

# the attacker-side sources of the attack hook (an object has no conditions, cannot dodge and sees nothing)
OBJECT_ATTACK_SOURCES = (advantage.ranged_while_engaged, advantage.prone, advantage.blinded,
                         advantage.restrained_attacker, advantage.poisoned_attacker, advantage.frightened_attacker,
                         advantage.underwater)


class _Thing:
    """The target of an attack on an object, as the attacker-side advantage sources see it: no conditions."""
    conditions: dict = {}
    dead = True

    def has(self, c):
        return False


def names_object(session, act) -> bool:
    """The attack names an object or a voxel, not a character."""
    if act.get("voxel") is not None:
        return True
    t = act.get("target")
    return isinstance(t, str) and t not in session.state.actors and objects.find_object(session, t.partition(".")[0]) is not None


def object_sources(rs, session, a, plan):
    ctx = {"ranged": not plan["melee"], "near": False}
    adv, dis = [], []
    for fn in OBJECT_ATTACK_SOURCES:
        for item in fn(rs, session, a, _Thing(), plan, ctx):
            (adv if item[0] == advantage.ADV else dis).append((item[1], item[2] if len(item) > 2 else fn.rule))
    return adv, dis


def target_of(session, act):
    if act.get("target") is not None and act.get("voxel") is not None:
        raise Illegal("name the object (target) or the voxel, not both", OBJECT_RULE, "voxel")
    t = objects.resolve(session, act.get("target"), act.get("voxel"), OBJECT_RULE)
    if t.indestructible:
        raise Illegal(f"{t.name} is {t.material.name}, which cannot be broken", OBJECT_RULE, "voxel" if act.get("voxel") else "target")
    return t


class AttackObject:
    """``attack`` on an object, a part or a voxel: range, reach and line of sight as for a creature (AIR-03,
    AIR-05, DND-32 cover from the voxels), a d20 against the object's AC (+ cover); damage through the
    material (DND-40)."""
    name = "attack"

    @staticmethod
    def check(rs, session, a, act):
        t = target_of(session, act)
        w = attacks.weapon(rs, a, act.get("weapon"))
        turn = session.state.turn
        if act.get("bonus"):
            raise Illegal("the off-hand attack is against a creature (attack the object with the Attack action)", "DND-29", "bonus")
        if turn["attacks_left"] <= 0 and turn["action"]:
            raise Illegal(f"{a.name} has no attack left this turn (its action is used)", "DND-16")
        if act.get("knock_out"):
            raise Illegal("an object cannot be knocked out", "DND-34", "knock_out")
        ab = attacks.geom(rs, session, a)
        cell = session.world.cell_m
        cands = objects.candidate_voxels(session, t)
        melee = rs.is_melee(w)
        thrown = False
        key = "voxel" if act.get("voxel") is not None else "target"
        if melee:
            near = [v for v in cands if in_melee_reach(ab, objects.voxel_body(v), rs.melee_reach(a, w), cell)]
            if not near and "thrown" in w["properties"] and w["range"]:
                melee, thrown = False, True
            elif not near:
                v = min(cands, key=lambda v: (cell_gap(ab, objects.voxel_body(v)), abs(v[2] - a.layer)))
                lay = abs(v[2] - a.layer)
                raise Illegal(f"{t.name} is out of reach of {a.name}'s {w['name']} (nearest voxel {list(v)}, "
                              f"{cell_gap(ab, objects.voxel_body(v))} cell(s) and {lay} layer(s) away; reach "
                              f"{rs.melee_reach(a, w):g} m)", "AIR-05", key)
            else:
                cands = near
        if not melee:
            lo, hi = w["range"]
            inr = [v for v in cands if distance_m(ab, objects.voxel_body(v), cell) <= hi + 1e-9]
            if not inr:
                d = min(distance_m(ab, objects.voxel_body(v), cell) for v in cands)
                raise Illegal(f"{t.name} is {d:.1f} m away, beyond the {w['name']}'s long range of {hi:g} m", "AIR-03", key)
            cands = inr
        sg = objects.sight(session, ab, t, cover_levels("dnd5e"), session.options.get("cover_thresholds"), voxels=cands)
        if sg.level == "total":
            raise Illegal(f"{a.name} has no line of sight to {t.name} (total cover)", "DND-32", key)
        hp, max_hp = objects.hp_of(session, t)
        return {"object": True, "target": t.id, "voxel": list(sg.voxel), "weapon": w, "melee": melee, "thrown": thrown,
                "distance_m": round(sg.distance_m, 3), "cover": sg.level, "blocked_fraction": sg.blocked_fraction,
                "kind": "action", "ac": t.ac, "hp": hp, "max_hp": max_hp}

    @staticmethod
    def apply(rs, session, a, act, plan):
        attacks.use_attack(rs, session, a)
        t = target_of(session, act)
        w = plan["weapon"]
        adv, dis = object_sources(rs, session, a, plan)
        cover_bonus = COVER_BONUS.get(plan["cover"], 0)
        ac = t.ac + cover_bonus
        bonus = attacks.attack_bonus(rs, a, w, plan["melee"])
        r = conditions.d20(rs, session, "attack", a.id, bool(adv), bool(dis), OBJECT_RULE, f"{w['name']} against {t.name}")
        crit = r == 20
        hit = crit or (r != 1 and r + bonus >= ac)
        session.emit({"type": "object_attack", "who": a.id, "target": t.id, "voxel": plan["voxel"], "weapon": w["name"],
                      "roll": r, "bonus": bonus, "total": r + bonus, "ac": t.ac, "cover": plan["cover"],
                      "cover_bonus": cover_bonus, "hit": hit, "critical": crit and hit, "melee": plan["melee"],
                      "advantage": [s for s, _ in adv], "disadvantage": [s for s, _ in dis],
                      "rules": sorted({rid for _, rid in adv + dis} | {OBJECT_RULE, "DND-16", "DND-32"})})
        if a.data["hidden"] is not None:          # DND-26: attacking reveals the attacker
            a.data["hidden"] = None
            session.emit({"type": "revealed", "who": a.id, "reason": "attacked", "rule": "DND-26"})
        if not hit:
            return
        n, s = dice_spec(w["damage"])
        if crit:
            n *= 2
        rolls = session.roll("damage", s, n, who=a.id, rule="DND-16") if n else []
        total = max(0, sum(rolls) + attacks.dmg_mod(rs, a, w, plan["melee"]) + int(w.get("damage_bonus", 0)))
        objects.damage(session, t, total, w["type"], a.id, OBJECT_RULE)


def _lock_target(session, a, act):
    o = objects.find_object(session, act["target"])
    if o is None:
        ids = ", ".join(x.id for x in objects._objects(session) if x.lock_dc is not None) or "none"
        raise Illegal(f"no object {act['target']!r} with a lock (locked objects: {ids})", LOCK_RULE, "target")
    st = session.state.objects[o.id]
    if o.lock_dc is None:
        raise Illegal(f"{o.name} has no lock", LOCK_RULE, "target")
    if st["destroyed"]:
        raise Illegal(f"{o.name} is destroyed", LOCK_RULE, "target")
    if not st["locked"]:
        raise Illegal(f"{o.name} is not locked", LOCK_RULE, "target")
    if not objects.next_to(session, a.body(), a, o):
        raise Illegal(f"{a.name} must stand next to {o.name} to work its lock", LOCK_RULE, "target")
    return o


def _tools(session, a) -> str | None:
    """How the actor holds thieves' tools: None, "carried", "proficient" or "expertise" (scene key ``tools``)."""
    try:
        ch = session.scene.character(a.id)
    except KeyError:
        return None
    return (getattr(ch.stats, "tools", None) or {}).get(TOOLS)


def lockpick_bonus(rs, a, how: str | None) -> int:
    """DND-39: Dexterity, + proficiency when proficient with thieves' tools, doubled with expertise."""
    prof = a.data["prof"]
    bonus: dict[str | None, int] = {"proficient": prof, "expertise": 2 * prof}
    return conditions.ab(rs, a, "dex") + bonus.get(how, 0)


def _locked(session, o) -> bool:
    return bool(session.state.objects[o.id].get("locked"))


def _target_object(help_: str) -> dict:
    return {"target": Param("id", True, help=help_)}


@action
class PickLock(Unit):
    """DND-39: thieves' tools -- a Dexterity check (+ proficiency, doubled with expertise) against the lock's DC;
    an action. Success opens it (a door swings open)."""
    name = "pick_lock"
    place = 2
    groups = {"object": 1}
    PARAMS = _target_object("the locked object")
    LINES = {"lock_check": lambda session, e, n, r: (    # forcing a lock reads the same
        f"{n('who')} tries to {e['how']} {e['target']}'s lock: {e['roll']} + {e['bonus']} = "
        f"{e['total']} vs DC {e['dc']}: {'success' if e['success'] else 'fails'}{r}")}

    @staticmethod
    def candidates(rs, session, a, ctx, o):
        return [{"actor": a.id, "action": "pick_lock", "target": o.id}] if _locked(session, o) else []

    @staticmethod
    def check(rs, session, a, act):
        common.need_action(rs, a, session, "Picking a lock", LOCK_RULE)
        o = _lock_target(session, a, act)
        how = _tools(session, a)
        if how is None:
            raise Illegal(f"{a.name} has no thieves' tools (character key tools = {{ thieves_tools = \"proficient\" }})",
                          LOCK_RULE, "target")
        return {"target": o.id, "dc": o.lock_dc, "bonus": lockpick_bonus(rs, a, how), "tools": how}

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.state.turn["action"] = True
        _roll_lock(rs, session, a, plan, "pick", "thieves' tools (Dexterity)")


@action
class ForceLock(Unit):
    """DND-39: forcing the lock -- a Strength check against its DC; an action."""
    name = "force_lock"
    place = 3
    groups = {"object": 2}
    PARAMS = _target_object("the locked object")

    @staticmethod
    def candidates(rs, session, a, ctx, o):
        return [{"actor": a.id, "action": "force_lock", "target": o.id}] if _locked(session, o) else []

    @staticmethod
    def check(rs, session, a, act):
        common.need_action(rs, a, session, "Forcing a lock", LOCK_RULE)
        o = _lock_target(session, a, act)
        return {"target": o.id, "dc": o.lock_dc, "bonus": conditions.ab(rs, a, "str")}

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.state.turn["action"] = True
        _roll_lock(rs, session, a, plan, "force", "Strength")


@action
class OpenDoor(Unit):
    """Opening an unlocked door (DND-39 with the doors of imported maps): standing next to it, the turn's free
    interaction with an object, or the action when that is spent. A locked door is picked, forced or broken; a
    secret door is opened once it is found (the game master's ``secret_door`` with ``door``)."""
    name = "open_door"
    place = 4
    groups = {"object": 3}
    PARAMS = _target_object("the door (an object with door = true), not locked")
    LINES = {"door_opened": lambda session, e, n, r: f"{n('by')} opens {e['target']}{r}"}

    @staticmethod
    def candidates(rs, session, a, ctx, o):
        st = session.state.objects[o.id]
        if not st.get("locked") and o.door and not st["open"] and st.get("found", True):
            return [{"actor": a.id, "action": "open_door", "target": o.id}]
        return []

    @staticmethod
    def check(rs, session, a, act):
        o = objects.closed_door(session, act["target"], LOCK_RULE, " (DC {dc}): pick_lock, force_lock, or break it",
                                " (secret_door with door = {id!r})", "DND-19")
        if not objects.next_to(session, a.body(), a, o):
            raise Illegal(f"{a.name} must stand next to {o.name} to open it", LOCK_RULE, "target")
        free = not session.state.turn.get("object_interaction")
        if not free:
            common.need_action(rs, a, session, "Opening a second door this turn", LOCK_RULE)
        return {"target": o.id, "free": free}

    @staticmethod
    def apply(rs, session, a, act, plan):
        if plan["free"]:
            session.state.turn["object_interaction"] = True
        else:
            session.state.turn["action"] = True
        objects.open_door(session, objects.find_object(session, plan["target"]), a.id, LOCK_RULE)


def _roll_lock(rs, session, a, plan, how, what):
    o = objects.find_object(session, plan["target"])
    # an ability check like any other (DND-49, DND-53, DND-F32): Dexterity to pick, Strength to force
    r = conditions.check_d20(rs, session, a, "dex" if how == "pick" else "str", "check", LOCK_RULE,
                             f"{what} against {o.name}'s lock", what)
    total = r + plan["bonus"]
    ok = total >= plan["dc"]
    session.emit({"type": "lock_check", "who": a.id, "target": o.id, "how": how, "roll": r, "bonus": plan["bonus"],
                  "total": total, "dc": plan["dc"], "success": ok, "rule": LOCK_RULE})
    if ok:
        objects.open_lock(session, o, a.id, how, LOCK_RULE)


def standing_objects(session) -> list:
    """The objects an attack, a lock or a door of the listing may be on: not gone, not indestructible."""
    return [o for o in objects._objects(session) if not (objects.gone(session, o) or o.indestructible)]


def preview_object_attack(rs, session, a, plan) -> dict:
    adv, dis = object_sources(rs, session, a, plan)
    bonus = attacks.attack_bonus(rs, a, plan["weapon"], plan["melee"])
    ac = plan["ac"] + COVER_BONUS.get(plan["cover"], 0)
    need = max(2, min(20, ac - bonus))
    p1 = (21 - need) / 20.0
    p = 1 - (1 - p1) ** 2 if adv and not dis else (p1 * p1 if dis and not adv else p1)
    t = objects.resolve(session, plan["target"] if not plan["target"].startswith("voxel:") else None,
                        plan["voxel"] if plan["target"].startswith("voxel:") else None, OBJECT_RULE)
    others = [o for o in session.state.actors.values() if o.id != a.id and not o.dead and conditions.hostile(rs, a, o)]
    return {"target": plan["target"], "object": True, "voxel": plan["voxel"], "weapon": plan["weapon"]["name"],
            "opens": objects.what_breaking_opens(session, t, a, others, cover_levels("dnd5e")),
            "melee": plan["melee"], "cover": plan["cover"], "blocked_fraction": plan["blocked_fraction"],
            "distance_m": plan["distance_m"], "to_hit_bonus": bonus, "target_ac": ac, "hit_chance": round(p, 4),
            "hp": plan["hp"], "max_hp": plan["max_hp"], "advantage": [list(s) for s in adv],
            "disadvantage": [list(s) for s in dis]}


def object_attack_line(session, e, n, r):
    adv = f"; advantage: {', '.join(e['advantage'])}" if e["advantage"] else ""
    dis = f"; disadvantage: {', '.join(e['disadvantage'])}" if e["disadvantage"] else ""
    cov = f" + {e['cover']} cover {e['cover_bonus']}" if e["cover_bonus"] else ""
    res = "CRITICAL HIT" if e["critical"] else ("hits" if e["hit"] else "misses")
    return (f"{n('who')} attacks {e['target']} (voxel {e['voxel']}) with {e['weapon']}: {e['roll']} + {e['bonus']} = "
            f"{e['total']} vs AC {e['ac']}{cov}: {res}{adv}{dis} [{', '.join(e['rules'])}]")
