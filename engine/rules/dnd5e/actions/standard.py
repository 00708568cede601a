"""Dnd5e actions move, attack, dash, disengage, dodge, hide, search, ready, use, stand, end_turn (help, stabilize: allies.py): each one unit (``check`` -> plan, ``apply``),
dispatched by ``Dnd5e.ACTIONS``. ``rs`` is the ruleset."""

from __future__ import annotations

from engine.rules.dnd5e import attacks, common, turns
from engine.rules.dnd5e import srd_drink, srd_grapple, srd_misc, srd_multiattack
from engine.rules.dnd5e import conditions
from engine.rules.dnd5e import damage
from engine.rules import riding
from engine.rules import aerial
from engine.rules.actions import Param, Unit, require_condition
from engine.rules.choices import choose
from engine.rules.core import Actor, BadAction, Illegal
from engine.rules.legal import MoveRun
from engine.rules.dnd5e.actions import action, magic
from engine.rules.dnd5e.actions.objects import AttackObject, names_object, object_attack_line, preview_object_attack
from engine.rules.dnd5e import attack_preview, concentration, feats, loading
from engine.rules.dnd5e.common import OBJECTS, dice_spec
from engine.rules.dnd5e.data import SPELLS
from engine.world.geometry import distance_m, engaged, in_melee_reach

P = Param


def _action_on(rs, session, a, act, label: str, rule: str):
    """The prologue of an action on a creature: the action is unused (``label``, ``rule``), the target exists."""
    common.need_action(rs, a, session, label, rule)
    return common.living_target(rs, session, a, act["target"])


def fear_sources(rs, session, a) -> list:
    """DND-49: the characters a frightened ``a`` may not move closer to -- each source of its fear in its sight
    (or every one, ``frightened_move = "always"``). Move's check refuses such a move and its listing leaves it out
    (it listed them: a frightened harpy was offered moves its check refused)."""
    if not a.has("frightened"):
        return []
    out = []
    for s in a.conditions["frightened"]:
        src = session.state.actors.get(s)
        if src and (rs.opt("frightened_move") == "always" or rs.sees(session, a, src)):
            out.append(src)
    return out


def nearer_fear(session, a, to, fears):
    """The first of ``fears`` that a move of ``a`` to ``to`` ends closer to, or None (DND-49, one test for the
    check and the listing)."""
    cm, ab = session.world.cell_m, a.body()
    for src in fears:
        if distance_m(ab.moved(*to), src.body(), cm) < distance_m(ab, src.body(), cm) - 1e-9:
            return src
    return None


@action
class Move(Unit):
    name = "move"
    place = 0
    hotkey = "1"
    groups = {"frame": 1}
    PARAMS = {"to": P("pos", True, help="the destination [x, y, layer]")}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        """The destinations as one compact run (engine/rules/legal.py), or none."""
        if a.data["mounted_on"] or conditions.speed_zero(rs, a):
            return []
        crawl = a.has("prone")
        fly = a.can_fly and not crawl
        left = rs.movement_left(session, a, fly) / (2 if crawl else 1)
        if left <= 0:
            return []
        cells = aerial.reach(session, a, budget_m=left, fly=fly).destination_cells()
        fears = fear_sources(rs, session, a)
        if fears and len(cells):            # DND-49, as ``check`` refuses it: no cell closer to a source in sight
            cells = cells[[i for i, to in enumerate(cells.tolist()) if nearer_fear(session, a, to, fears) is None]]
        return MoveRun(a.id, cells)

    @staticmethod
    def preview(rs, session, a, act, plan):
        path = plan["path"]
        fly = a.can_fly and not plan["crawl"]
        out = aerial.move_preview(session, a, path)
        ends_aloft = out["ends_aloft"]
        out.update({"cost_m": plan["costs"][-1],
                    "left_after_m": round(rs.movement_left(session, a, fly) - plan["costs"][-1], 4),
                    "bonus_action_needed": ends_aloft,
                    "bonus_action_available": rs.upkeep_available(session, a),
                    "falls_at_end_of_turn": ends_aloft and not rs.upkeep_available(session, a),
                    "provokes": attacks.would_provoke(rs, session, a, path)})
        return out

    @staticmethod
    def check(rs, session, a, act):
        to = tuple(act["to"])
        if riding.rides(a):
            m = riding.mount_of(session, a)
            raise Illegal(f"{a.name} rides {m.name}: the mount moves (or dismount first)", "DND-36", "to")
        sz = conditions.speed_zero(rs, a)
        if sz:
            raise Illegal(f"{a.name} is {sz[0]}: its speed is 0", sz[1], "to")
        if to == a.pos:
            raise Illegal(f"{a.name} is already at {list(to)}", "DND-11", "to")
        crawl = a.has("prone")
        fly = a.can_fly and not crawl
        left = rs.movement_left(session, a, fly)
        if crawl:
            left = left / 2.0          # DND-48: crawling costs double
        src = nearer_fear(session, a, to, fear_sources(rs, session, a))        # DND-49
        if src is not None:
            raise Illegal(f"{a.name} is frightened of {src.name} and cannot move closer to it", "DND-49", "to")
        r = aerial.reach(session, a, budget_m=left, fly=fly)
        if not r.can_end(*to):
            if crawl and a.can_fly and aerial.body_fits(session, a, *to) and not aerial.is_supported(session, a, *to):
                raise Illegal(f"{a.name} is prone: it must stand up before it can fly", "DND-48", "to")
            e = aerial.explain_unreachable(session, a, to, r, fly)
            if crawl and "movement left" in e.reason:
                e = Illegal(e.reason.replace(" of movement left", " of movement left, crawling at half speed (Prone, stand up first)"), "DND-48")
            e.path = "to"
            raise e
        path = r.path(*to)
        costs = [r.cost_cm(*p) / 100.0 * (2 if crawl else 1) for p in path]
        return {"path": path, "costs": costs, "crawl": crawl}

    @staticmethod
    def apply(rs, session, a, act, plan):
        path, costs = plan["path"], plan["costs"]
        t = session.state.turn
        left0 = rs.movement_left(session, a, a.can_fly and not plan["crawl"])
        seg = [0]
        stopped = None
        # anyone who could possibly react (DND-28): hostile, able, reaction unused, armed for melee, with its reach
        # (a move changes none of it but the reaction, which it can only use up, and none of them moves)
        watchers = [(r.body(), attacks.oa_weapon(rs, r)[1]) for r in session.state.actors.values()
                    if conditions.hostile(rs, r, a) and not r.dead and not r.data["reaction_used"] and not conditions.incapacitated(rs, r)
                    and attacks.oa_weapon(rs, r)[0] is not None and attacks.oa_allowed(rs, session, r, a)]
        cell = session.world.cell_m
        body = a.body()
        # anyone who could attack it on entering its reach (DND-F15): Polearm Master, hostile, holding a polearm
        # (what attacks.entering_reach asks first, none of which a move changes)
        polearms = any(o.data.get("feats") and "polearm_master" in o.data["feats"] and conditions.hostile(rs, o, a)
                       and any(w["name"] in feats.POLEARMS for w in o.data["weapons"]) for o in session.state.actors.values())

        def flush(i, note):      # the move so far, up to path[i], as one event
            attacks.emit_move(rs, session, a, path[seg[0]:i + 1], costs[i] - costs[seg[0]], left0 - costs[i], note)
            seg[0] = i

        for i in range(len(path) - 1):
            nxt = path[i + 1]
            # an opportunity attack needs the step to start inside a watcher's reach (AIR-05, attacks.opportunity_attacks)
            if watchers and any(in_melee_reach(rb, body.moved(*path[i]), reach, cell) for rb, reach in watchers):
                provoked = attacks.opportunity_attacks(rs, session, a, path[i], nxt,
                                                     before=lambda i=i: flush(i, "stops before leaving a reach"))
                if provoked and (a.pos != path[i] or conditions.speed_zero(rs, a) or a.has("prone") or a.dead or a.hp == 0):
                    stopped = i
                    break
            if polearms and attacks.entering_reach(rs, session, a, path[i], nxt):
                if a.can_fly:
                    a.flying = not aerial.is_supported(session, a)
                stopped = i + 1
                flush(i + 1, "stopped on entering a polearm's reach")
                break
            a.x, a.y, a.layer = nxt
            if a.can_fly:
                a.flying = not aerial.is_supported(session, a)
            aerial._carry_rider(session, a)
        if stopped is None:
            flush(len(path) - 1, None)
            spent = costs[-1]
        else:
            spent = costs[stopped]
            session.emit({"type": "move_stopped", "who": a.id, "at": list(a.pos), "rule": "DND-28"})
        rs.spend_movement(session, a, spent)
        if t.get("dash") and a.data.get("feats") and "charger" in a.data["feats"]:
            t["charge_line_m"] = feats.straight_line_m(session, path[:(stopped if stopped is not None else len(path) - 1) + 1])
        if a.data["hidden"] is not None:
            attacks.maybe_revealed(rs, session, a)
        conditions.MOVED.run(rs, session, a)
        conditions.check_grapples(rs, session)
        attacks.readied_triggers(rs, session, a)


def _weapon_refusals(rs, session, a, w, t, turn, act):
    """The weapon's own limits on this attack, in order, each a refusal or None (the first refusal is raised): its
    loading, its form (SRD-105), the stat block's Multiattack, a grappling weapon's one target, a drinking bite's target."""
    if "loading" in w["properties"]:
        yield loading.refusal(a, w, turn, "bonus" if act.get("bonus") else "action")
    yield srd_misc.form_only_refusal(a, w)                 # SRD-105: "Claw (Oni Form Only)"
    if not act.get("bonus") and a.data.get("multiattack"):
        yield srd_multiattack.refusal(a, w, turn)          # SRD-01: the combination as written
    if w.get("grapple"):
        yield srd_grapple.refusal(session, a, w, t)        # SRD-19: "can't use its talons on another target"
    if w.get("drink") is not None:
        yield srd_drink.refusal(rs, a, w, t)               # SRD-48: "one willing creature, or ... grappled"


@action
class Attack(Unit):
    name = "attack"
    place = 1
    hotkey = "2"
    groups = {"on_foe": 0, "object": 0}
    PARAMS = {"target": P("id", help="a character or object id"), "weapon": P("str"),
              "bonus": P("bool", default=False), "knock_out": P("bool", default=False),
              "voxel": P("pos", help="a voxel [x, y, z] to attack (DND-40)"),
              "power_attack": P("bool", help="-5 to hit, +10 damage (Great Weapon Master, Sharpshooter)"),
              "lucky": P("bool", help="spend a luck point: one more d20, named luck (Lucky)"),
              "savage": P("bool", help="reroll the melee damage once a turn, keep the higher (Savage Attacker)"),
              "manoeuvre": P("str", choices=("trip", "pushing", "precision"),
                             help="spend the superiority die (Martial Adept): trip, pushing, precision"),
              "bonus_from": P("str", choices=("two_weapon", "great_weapon_master", "polearm_master",
                                              "crossbow_expert", "charger"),
                              help="what allows the bonus-action attack (default: the first that applies)")}
    LINES = {"object_attack": object_attack_line}          # a character's attack reads in dnd5e/text.py

    @staticmethod
    def candidates(rs, session, a, ctx, t):
        """A foe: each weapon, with the Attack action and as the off-hand bonus attack; an object: each weapon."""
        if not isinstance(t, Actor):
            return [{"actor": a.id, "action": "attack", "target": t.id, "weapon": w["name"]} for w in a.data["weapons"]]
        out = []
        turn = ctx.turn
        for w in a.data["weapons"]:
            if ctx.can_attack:
                out.append({"actor": a.id, "action": "attack", "target": t.id, "weapon": w["name"]})
            if turn["light_weapon"] and not turn["bonus"]:
                out.append({"actor": a.id, "action": "attack", "target": t.id, "weapon": w["name"], "bonus": True})
        return out

    @staticmethod
    def preview(rs, session, a, act, plan):
        return preview_object_attack(rs, session, a, plan) if plan.get("object") else \
            attack_preview.on_character(rs, session, a, act, plan)

    @staticmethod
    def damage_on_hit(rs, session, a, act, plan):
        if plan.get("object") or "weapon" not in plan:
            return None
        return attacks.mean_hit_damage(rs, a, plan)

    @staticmethod
    def check(rs, session, a, act):
        if names_object(session, act):                  # an object, a part or a voxel (DND-40)
            return AttackObject.check(rs, session, a, act)
        if act.get("target") is None:
            raise BadAction("required for attack", "", "target")
        t = common.living_target(rs, session, a, act["target"])
        w = attacks.weapon(rs, a, act.get("weapon"))
        turn = session.state.turn
        bonus_from = None
        if act.get("bonus"):
            if turn["bonus"]:
                raise Illegal(f"{a.name} has already used its bonus action this turn", "DND-12")
            srcs = feats.bonus_attack_sources(rs, session, a, w)
            want = act.get("bonus_from")
            if want and want not in srcs:
                raise Illegal(f"{want.replace('_', ' ')} does not allow a bonus-action attack with the {w['name']} now",
                              feats.FEAT_ID.get(want, "DND-29"), "bonus_from")
            if not srcs:
                if a.data.get("feats") and not turn["light_weapon"]:
                    raise Illegal(f"nothing allows {a.name} a bonus-action attack with the {w['name']} now (two-weapon "
                                  "fighting needs a light-weapon attack first; feats: after a kill or crit, a polearm "
                                  "attack, a one-handed attack, a Dash)", "DND-29")
                if not turn["light_weapon"]:
                    raise Illegal("the off-hand attack needs an attack with a light melee weapon first, with the Attack action", "DND-29")
                if "light" not in w["properties"] or not rs.is_melee(w):
                    raise Illegal(f"the off-hand attack needs a light melee weapon; {w['name']} is not", "DND-29", "weapon")
                if w["name"] == turn["light_weapon"]:
                    raise Illegal(f"the off-hand attack is made with another light weapon held in the other hand, "
                                  f"not the {w['name']} that just attacked", "DND-29", "weapon")
                raise Illegal(f"{a.name} holds no second light weapon for the other hand", "DND-29", "weapon")
            bonus_from = want or srcs[0]
        elif turn["attacks_left"] <= 0 and turn["action"]:
            raise Illegal(f"{a.name} has no attack left this turn (its action is used)", "DND-16")
        refused = next((r for r in _weapon_refusals(rs, session, a, w, t, turn, act) if r is not None), None)
        if refused is not None:
            raise refused
        if act.get("knock_out") and not rs.is_melee(w) and rs.opt("knock_out") == "melee":
            raise Illegal("only a melee attack can knock a creature out (option knock_out = \"melee\")", "DND-34", "knock_out")
        if act.get("power_attack") and not feats.power_attack_feat(rs, a, w, rs.is_melee(w)):
            raise Illegal("power_attack needs Great Weapon Master with a heavy weapon it is proficient with or "
                          "Sharpshooter with a ranged weapon", "DND-F16", "power_attack")
        if act.get("lucky") and a.data.get("luck", 0) <= 0:
            raise Illegal(f"{a.name} has no luck point left" if feats.has(a, "lucky") else f"{a.name} does not have Lucky",
                          "DND-F32", "lucky")
        if act.get("savage"):
            if not feats.has(a, "savage_attacker") or not rs.is_melee(w):
                raise Illegal("savage needs Savage Attacker and a melee weapon", "DND-F06", "savage")
            if turn.get("savage_used"):
                raise Illegal("Savage Attacker rerolls once per turn", "DND-F06", "savage")
        if act.get("manoeuvre"):
            m = act["manoeuvre"]
            if m not in a.data.get("manoeuvres", ()):
                raise Illegal(f"{a.name} does not know the {m} manoeuvre", "DND-F01", "manoeuvre")
            if a.data.get("superiority", 0) <= 0:
                raise Illegal(f"{a.name} has no superiority die left", "DND-F01", "manoeuvre")
            if m != "precision" and not rs.is_melee(w) and "ranged" not in w["properties"]:
                raise Illegal("a weapon attack is needed", "DND-F01", "manoeuvre")
        if bonus_from == "polearm_master":
            w = feats.butt_end(w)
        plan = attacks.attack_plan(rs, session, a, t, w, bool(act.get("bonus")))
        if act.get("savage") and not plan["melee"]:       # DND-F06 "atakiem wręcz bronią": not a thrown weapon
            raise Illegal(f"Savage Attacker rerolls a melee attack's damage; the {w['name']} is thrown", "DND-F06", "savage")
        if not plan["melee"] and (bonus_from == "great_weapon_master"     # DND-F16 "atak wręcz bronią białą"
                                  or bonus_from == "charger" and rs.opt("charger_attack") == "melee"):
            raise Illegal(f"{feats.FEATS[bonus_from]['name']}'s bonus attack is a melee attack; the "
                          f"{w['name']} would be thrown", feats.FEAT_ID[bonus_from], "weapon")
        if bonus_from and bonus_from != "two_weapon":
            plan["bonus_from"] = bonus_from
        return plan

    @staticmethod
    def apply(rs, session, a, act, plan):
        if plan.get("object"):
            return AttackObject.apply(rs, session, a, act, plan)
        if plan["kind"] == "bonus":
            session.state.turn["bonus"] = True
            if plan.get("bonus_from") == "charger":
                session.state.turn["charged"] = True
        else:
            attacks.use_attack(rs, session, a)
            srd_multiattack.made(a, plan["weapon"], session.state.turn)      # SRD-01
            if feats.off_hand_weapon(rs, a, plan["weapon"]):      # light, thrown too (DND-29); Dual Wielder (DND-F24)
                session.state.turn["light_weapon"] = plan["weapon"]["name"]
        if "loading" in plan["weapon"]["properties"]:
            loading.fired(a, plan["weapon"], session.state.turn, plan["kind"])      # DND-F28
        t = session.state.actors[plan["target"]]
        attacks.resolve_attack(rs, session, a, t, plan, act)
        if not a.dead:
            feats.sentinel_protects(rs, session, a, t)     # DND-F37: it attacked someone else next to a Sentinel


class _SpendsAction(Unit):
    """A simple action (Dash, Disengage, Dodge, Hide, Search): the check is that the action is unused
    (``label`` and ``rule`` name it); ``apply`` spends it, does the action's one thing (``effect``, which returns
    the event's own fields) and says so in an event of the action's name."""
    name = label = rule = ""

    @classmethod
    def candidates(cls, rs, session, a, ctx, item):
        return [{"actor": a.id, "action": cls.name}]

    @classmethod
    def check(cls, rs, session, a, act):
        common.need_action(rs, a, session, cls.label, cls.rule)

    @classmethod
    def apply(cls, rs, session, a, act, plan):
        session.state.turn["action"] = True
        fields = cls.effect(rs, session, a)
        session.emit({"type": cls.name, "who": a.id, **fields, "rule": cls.rule})

    @staticmethod
    def effect(rs, session, a) -> dict:
        return {}


@action
class Dash(_SpendsAction):
    name, label, rule = "dash", "Dash", "DND-22"
    place = 5
    hotkey = "3"
    groups = {"first": 0}
    spends_action = True

    @staticmethod
    def effect(rs, session, a):
        session.state.turn["dash"] += 1
        return {"movement_left_m": round(rs.movement_left(session, a, a.can_fly), 4)}


@action
class Disengage(_SpendsAction):
    name, label, rule = "disengage", "Disengage", "DND-17"
    place = 6
    hotkey = "5"
    groups = {"first": 1}
    spends_action = True

    @staticmethod
    def effect(rs, session, a):
        session.state.turn["disengaged"] = True
        return {}


@action
class Dodge(_SpendsAction):
    name, label, rule = "dodge", "Dodge", "DND-24"
    place = 7
    hotkey = "4"
    groups = {"first": 2}
    spends_action = True

    @staticmethod
    def effect(rs, session, a):
        a.data["dodging"] = True
        return {}


@action
class Hide(_SpendsAction):
    name, label, rule = "hide", "Hide", "DND-23"
    place = 9
    hotkey = "8"
    groups = {"then": 1}
    spends_action = True

    @classmethod
    def check(cls, rs, session, a, act):
        common.need_action(rs, a, session, cls.label, cls.rule)
        if a.has("invisible"):
            return {}
        seen_by = attacks.in_plain_sight(rs, session, [
            o for o in session.state.actors.values()
            if conditions.hostile(rs, o, a) and not o.dead and not conditions.incapacitated(rs, o) and not o.has("blinded")], a)
        if seen_by is not None:
            raise Illegal(f"{a.name} is in plain sight of {seen_by.name} (no cover): it cannot hide", "DND-23")
        return {}

    @staticmethod
    def effect(rs, session, a):
        total = conditions.check_roll(rs, session, a, "stealth", "check", "DND-23", "Stealth to hide")
        a.data["hidden"] = total
        return {"stealth": total}

    @classmethod
    def apply(cls, rs, session, a, act, plan):
        super().apply(rs, session, a, act, plan)
        if rs.opt("hide_passive") == "passive_perception":
            conditions.passive_notice(rs, session, a, a.data["hidden"])   # the SRD: a watcher's passive Perception (Observant +5)


@action
class Search(_SpendsAction):
    name, label, rule = "search", "Search", "DND-19"
    place = 10
    groups = {"then": 2}
    spends_action = True

    @staticmethod
    def effect(rs, session, a):
        blind = conditions.sight_check_fails(rs, a)
        if blind:        # the search finds a hider by sight (its line of sight below): it fails, no die
            return {"perception": None, "found": [], "auto_fail": blind[0], "auto_fail_rule": blind[1]}
        total = conditions.check_roll(rs, session, a, "perception", "check", "DND-19", "Perception to search")
        found = []
        for o in session.state.actors.values():
            if o.data["hidden"] is not None and conditions.hostile(rs, a, o) and attacks.sight(rs, session, a, o) \
                    and total >= o.data["hidden"]:                   # DND-23: contested by active searchers
                o.data["hidden"] = None
                found.append(o.id)
                session.emit({"type": "revealed", "who": o.id, "by": a.id, "reason": "found by a search", "rule": "DND-23"})
        return {"perception": total, "found": found}


@action
class Ready(Unit):
    name = "ready"
    place = 11
    groups = {"then": 3}
    spends_action = True
    PARAMS = {"target": P("id"), "weapon": P("str"), "trigger": P("str", choices=("enters_reach",), default="enters_reach"),
              "spell": P("str", help="ready a spell of one action's casting time, held by concentration (DND-20)")}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "ready", "weapon": a.data["weapons"][0]["name"]}] + [
            {"actor": a.id, "action": "ready", "spell": sp} for sp in a.data["spells"]   # DND-20
            if SPELLS[sp]["time"] == "action" and SPELLS[sp]["kind"] in magic.READY_KINDS]

    @staticmethod
    def preview(rs, session, a, act, plan):
        if plan.get("spell"):
            return {"spell": plan["spell"], "concentration": concentration.cast_note(a, plan["spell"], readied=True)}
        return None

    @staticmethod
    def check(rs, session, a, act):
        common.need_action(rs, a, session, "Ready", "DND-20")
        if act.get("spell"):
            return magic.check_ready_spell(rs, session, a, act)
        w = attacks.weapon(rs, a, act.get("weapon"))
        if act.get("target"):
            t = common.living_target(rs, session, a, act["target"])
            if not conditions.hostile(rs, a, t):
                raise Illegal(f"{t.name} is not an enemy", "DND-20", "target")
        return {"weapon": w["name"], "target": act.get("target")}

    @staticmethod
    def apply(rs, session, a, act, plan):
        if plan.get("spell"):
            return magic.ready_spell(rs, session, a, plan)
        session.state.turn["action"] = True
        a.data["readied"] = {"weapon": plan["weapon"], "target": plan["target"], "trigger": "enters_reach"}
        session.emit({"type": "ready", "who": a.id, "weapon": plan["weapon"], "target": plan["target"],
                      "trigger": "a hostile creature ends a move within reach or range", "rule": "DND-20"})


@action
class Use(Unit):
    name = "use"
    place = 12
    groups = {"then": 0}
    spends_action = True
    PARAMS = {"object": P("str", True), "target": P("id")}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "use", "object": it} for it in sorted(set(a.data["items"]))]

    @staticmethod
    def check(rs, session, a, act):
        common.need_action(rs, a, session, "Use an Object", "DND-25")
        obj = act["object"]
        if obj not in a.data["items"]:
            raise Illegal(f"{a.name} carries no {obj}; it carries: {', '.join(a.data['items']) or 'nothing'}", "DND-25", "object")
        t = a
        if act.get("target"):
            t = common.living_target(rs, session, a, act["target"])
            if t.id != a.id and not engaged(a.body(), t.body()):
                raise Illegal(f"{t.name} is not within 1.5 m", "DND-25", "target")
        if obj == "healers_kit":
            if not feats.has(a, "healer"):
                raise Illegal("a healer's kit heals only with the Healer feat (stabilise with it: `stabilize`)", "DND-F36", "object")
            if t.id in session.state.data.get("healer_tended", []):
                raise Illegal(f"{t.name} has been tended with Healer already (once per rest)", "DND-F36", "target")
        return {"object": obj, "target": t.id}

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.state.turn["action"] = True
        obj = plan["object"]
        a.data["items"].remove(obj)
        session.emit({"type": "use", "who": a.id, "object": obj, "target": plan["target"], "rule": "DND-25"})
        info = OBJECTS.get(obj)
        if obj == "healers_kit":                  # DND-F36: 1d6 + 4 + the creature's hit dice (its level), once per rest
            t = session.state.actors[plan["target"]]
            session.state.data.setdefault("healer_tended", []).append(t.id)
            amt = session.roll("heal", 6, 1, who=a.id, rule="DND-F36")[0] + 4 + t.data["level"]
            damage.heal(rs, session, t, amt, "DND-F36")
        elif info and "heal" in info:
            n, s = dice_spec(info["heal"])
            amt = sum(session.roll("heal", s, n, who=a.id, rule="DND-25")) + info["bonus"]
            damage.heal(rs, session, session.state.actors[plan["target"]], amt, "DND-25")


@action
class Stand(Unit):
    name = "stand"
    place = 18
    hotkey = "9"
    groups = {"then": 4}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "stand"}] if a.has("prone") else []      # its check's first condition

    @staticmethod
    def check(rs, session, a, act):
        require_condition(a, "prone", "DND-48")
        sz = conditions.speed_zero(rs, a)
        if sz:
            raise Illegal(f"{a.name} is {sz[0]}: speed 0, it cannot stand up", sz[1])
        cost = a.data["speed_m"] / 2
        if feats.has(a, "athlete"):
            cost = 1.5                 # DND-F04 Athlete: standing up costs only 1.5 m
        left = rs.movement_left(session, a, False)
        if left + 1e-9 < cost:
            raise Illegal(f"standing up costs half the speed ({cost:g} m); {a.name} has {max(left, 0):g} m left", "DND-48")
        return {"cost": cost}

    @staticmethod
    def apply(rs, session, a, act, plan):
        rs.spend_movement(session, a, plan["cost"])
        conditions.remove_condition(rs, session, a, "prone", "DND-48")
        session.emit({"type": "stand", "who": a.id, "cost_m": plan["cost"], "rule": "DND-48"})


@action
class EndTurn(Unit):
    name = "end_turn"
    place = 23
    hotkey = "0"
    groups = {"frame": 0}
    PARAMS = {"stay_aloft": P("bool", help="false: do not spend the bonus action on staying aloft, and fall (AIR-10)")}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        """Always; a flyer's AIR-10 choice too (not to spend the bonus action, and fall)."""
        out = [{"actor": a.id, "action": "end_turn"}]
        if a.flying and not a.data.get("mounted_on"):
            out.append({"actor": a.id, "action": "end_turn", "stay_aloft": False})
        return out

    @staticmethod
    def check(rs, session, a, act):
        return {}

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.emit({"type": "end_turn", "who": a.id})
        stay = act.get("stay_aloft")
        if a.flying and not riding.rides(a) and rs.upkeep_available(session, a):
            stay = choose(session, "stay_aloft", a.id, {True: "spend the bonus action to stay aloft (AIR-08)",
                                                        False: "do not spend it: fall (AIR-10)"}, stay,
                          rule="AIR-10", role="flyer", question=f"{a.name} ends the turn in the air",
                          ask=False)        # the flyer's own variant of end_turn (Tab), not a question every turn
        if stay is False and a.flying and not riding.rides(a):
            # AIR-10 "não gasta a Ação Bônus pra se manter no ar": the player's choice, it falls
            session.emit({"type": "flight_lost", "who": a.id, "reason": f"{a.name} does not spend its bonus action to stay aloft",
                          "rule": "AIR-10", "because": "AIR-08"})
            aerial.fall(session, a, None, "AIR-10", "chose not to spend the bonus action to stay aloft")
        turns.end_of_turn_effects(rs, session, a)
        turns.check_over(rs, session)
        turns.advance(rs, session)
        turns.begin_turn(rs, session, 0)
