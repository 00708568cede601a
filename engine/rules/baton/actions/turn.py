"""Baton actions pass, move, stand, drop, dismount, dash: each one unit (``check`` -> plan, ``apply``),
dispatched by ``Baton.ACTIONS``. ``rs`` is the ruleset."""

from __future__ import annotations

import math

from engine.rules import aerial, riding
from engine.rules.actions import require_condition
from engine.rules.baton import baton_order, choices, combat, health, mounts, skills, slots
from engine.rules.baton.common import DIRS8
from engine.rules.actions import Param, Unit
from engine.rules.baton import leave_cover
from engine.rules.baton.actions import action
from engine.rules.core import Illegal
from engine.world.geometry import distance_m, in_melee_reach
from engine.world.geometry import cell_gap

P = Param


@action
class Pass(Unit):
    name = "pass"
    place = 0
    hotkey = "3"
    groups = {"start": 0}
    PARAMS = {"to": P("id", True, help="who gets the baton")}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "pass", "to": i} for i in ctx.pass_ids]

    @staticmethod
    def preview(rs, session, a, act, plan):
        ids, kept, rule = baton_order.pass_targets(rs, session, a)
        return {"kept": plan["kept"], "rule": plan["rule"], "may_receive": ids,
                "lines": combat.pass_lines(rs, session, a, ids, plan)}


    # -- pass -----------------------------------------------------------------------------------------
    @staticmethod
    def check(rs, session, a, act):
        to = act["to"]
        t = session.actor(to, "to")
        ids, kept, rule = baton_order.pass_targets(rs, session, a)
        if to in baton_order.may_receive(rs, session, a):
            return {"to": to, "kept": kept, "rule": rule}
        die = session.state.turn.get("test_die")
        if not baton_order.can_hold(rs, t, session):
            why = "dead" if t.dead else ("petrified" if t.has("petrified") else "a mount: it acts with its rider")
            raise Illegal(f"{t.name} cannot take the baton: {why}", "BAT-42" if riding.carries(t) else "BAT-25", "to")
        first = [session.state.actors[i] for i in ids if session.state.actors[i].has("confused")]
        if first and t.side == first[0].side and t.id != a.id:
            names = ", ".join(o.name for o in first)
            raise Illegal(f"{names} {'is' if len(first) == 1 else 'are'} confused, and a confused character acts "
                          f"before its allies ({t.name} among them): pass to {', '.join(ids)}", "BAT-58", "to")
        if a.has("confused"):
            raise Illegal(f"{a.name} is confused: it always passes the initiative to an ally, one who has not acted "
                          f"in this turn first ({', '.join(ids)}), not to {t.name}", "BAT-58", "to")
        if kept:
            if t.side != a.side:
                raise Illegal(f"the test die was {die} (even): {a.name}'s side keeps the initiative and passes it to an ally "
                              f"({', '.join(ids)}), not to {t.name}", "BAT-08", "to")
            if t.id == a.id:
                raise Illegal(f"{a.name} must pass the baton to another character ({', '.join(ids)})", "BAT-08", "to")
            raise Illegal(f"{t.name} has already acted; pass to an ally who has not yet ({', '.join(ids)})", "BAT-08", "to")
        why = "no skill test in its major action" if die is None else f"the test die was {die} (odd)"
        if not ids:
            raise Illegal("nobody on the other side can take the baton", "BAT-09", "to")
        raise Illegal(f"{why}: the initiative goes to the opponents' side ({', '.join(ids)}), not to {t.name}", "BAT-09", "to")

    @staticmethod
    def apply(rs, session, a, act, plan):
        if plan["to"] == a.id:
            baton_order.end_activation(rs, session, a)
            session.emit({"type": "pass", "who": a.id, "to": a.id, "kept": True, "rule": "BAT-08",
                          "die": session.state.turn.get("test_die"), "note": "no other ally can act"})
            if not session.state.over and baton_order.in_combat(rs, session) and baton_order.can_hold(rs, a, session):
                baton_order.give_baton(rs, session, a.id, "BAT-08", True, "kept")
            return
        baton_order.do_pass(rs, session, a, plan["to"], plan["kept"], plan["rule"])


@action
class Move(Unit):
    name = "move"
    place = 1
    hotkey = "1"
    groups = {"start": 2}
    PARAMS = {"to": P("pos", True, help="the destination [x, y, layer]"), "careful": P("bool", default=False, help="leave reach without provoking, at half movement"), "declined": P("any", help="enemies who let the mover go without their immediate attack (BAT-38, BAT-41)"), "counter_crit": choices.COUNTER_CRIT}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        """About ten destinations spread over the reach (sampled, not every cell), and the farthest, carefully."""
        body = mounts.body_of(rs, session, a)
        if not rs.can_move(session, body)[0]:
            return []
        fly = body.can_fly and not body.has("prone")
        left = rs.movement_left(session, body, fly)
        if left <= 0 or a.has("confused"):
            return []
        dests = aerial.reach(session, body, budget_m=left, fly=fly).destinations()
        step = max(1, len(dests) // 10)
        out = [{"actor": a.id, "action": "move", "to": list(dd)} for dd in dests[::step]]
        if dests:
            out.append({"actor": a.id, "action": "move", "to": list(dests[-1]), "careful": True})
        return out

    @staticmethod
    def preview(rs, session, a, act, plan):
        body = session.state.actors[plan["body"]]
        out = aerial.move_preview(session, body, plan["path"])
        ends_aloft = out["ends_aloft"]
        out.update({"cost_m": plan["cost"],
                    "minor_action_needed": ends_aloft, "minor_action_available": rs.upkeep_available(session, body),
                    "provokes": [e.id for e in combat.provokers(rs, session, body, plan["path"])] if not plan["careful"] else [],
                    # BAT-41: who shoots it at once as it leaves their total cover (the move's own test)
                    "exposed_to": leave_cover.shooters(rs, session, a, body, plan["path"][-1])})
        return out


    # -- movement --------------------------------------------------------------------------------------
    @staticmethod
    def check(rs, session, a, act):
        to = tuple(act["to"])
        body = mounts.body_of(rs, session, a)
        if riding.carries(a) and baton_order.in_combat(rs, session):
            raise Illegal(f"{a.name} carries {riding.rider_of(session, a).name}: the rider moves it", "BAT-42", "actor")
        slots.needs_movement(rs, session, a, "move")
        slots.check_slot(rs, session, a, "movement", "move")
        if to == body.pos:
            raise Illegal(f"{body.name} is already at {list(to)}", "BAT-06", "to")
        t = session.state.turn
        if baton_order.in_combat(rs, session) and t["move_used"] and t["extra_m"] <= t["moved_m"]:
            raise Illegal(f"{a.name} has used its movement ({t['last'] or 'standing up'})", "BAT-06", "to")
        careful = bool(act.get("careful")) or (baton_order.in_combat(rs, session) and t["careful"])
        fly = body.can_fly and not body.has("prone")
        left = rs.movement_left(session, body, fly)
        if careful and baton_order.in_combat(rs, session) and not t["careful"]:
            base = rs.movement_left(session, body, fly) + t["moved_m"] - t["extra_m"]
            left = base / 2.0 + t["extra_m"] - t["moved_m"]
            if left <= 0:
                raise Illegal(f"{body.name} has already moved {t['moved_m']:g} m: half its movement is spent", "BAT-39", "careful")
        if a.has("grappled"):
            for g in a.conditions["grappled"]:
                o = session.state.actors.get(g)
                if o is None:        # the GM's hold (source "gm"): no grabber's reach to stay in
                    continue
                if not in_melee_reach(body.body().moved(*to), o.body(), combat.reach_of(rs, o, {"reach_m": o.data["reach_m"]}), session.world.cell_m):
                    raise Illegal(f"{a.name} is grappled by {o.name}: it cannot move out of its reach (break free first)", "BAT-54", "to")
        r = aerial.reach(session, body, budget_m=left, fly=fly)
        if not r.can_end(*to):
            e = aerial.explain_unreachable(session, body, to, r, fly)
            e.path = "to"
            if careful and "movement left" in e.reason:
                e = Illegal(e.reason.rsplit(";", 1)[0] + f"; {body.name} has {max(left, 0):g} m left at half movement "
                            "(leaving reach without provoking)", "BAT-39", "to")
            raise e
        path = r.path(*to)
        cost = r.cost_cm(*to) / 100.0
        costs = [r.cost_cm(*p) / 100.0 for p in path]
        return {"path": path, "cost": cost, "costs": costs, "careful": careful, "body": body.id,
                "declined": choices.declined(rs, session, act)}

    @staticmethod
    def apply(rs, session, a, act, plan):
        """BAT-06: careful or not (BAT-39), the counterattacks on leaving reach (BAT-38), the difficult terrain
        test (BAT-46 / BAT-64), the move itself, a grappled character dragged (BAT-55), what the failed test does,
        and the attacks on leaving total cover (BAT-41)."""
        body = session.state.actors[plan["body"]]
        path = plan["path"]
        t = session.state.turn
        if plan["careful"] and baton_order.in_combat(rs, session) and not t["careful"]:
            t["careful"] = True
            session.emit({"type": "careful", "who": a.id, "rule": "BAT-39", "note": "half movement, no opportunity attacks"})
        if not plan["careful"] and baton_order.in_combat(rs, session) and rs.opt("opportunity_attacks"):
            if _counterattacks(rs, session, a, body, path):
                return
        kinds, stop, failed, n_diff, overloaded = _terrain_test(rs, session, a, body, path)
        carried_from = body.pos
        _move_to(rs, session, a, body, path, plan["costs"], stop)
        _drag(rs, session, body, path, stop)
        if failed:
            _failed_terrain(rs, session, a, body, path, kinds, stop, n_diff, overloaded)
        skills.check_grapples(rs, session)
        if baton_order.in_combat(rs, session) and rs.opt("cover_exposure") and not a.dead:
            _leaving_cover(rs, session, a, body, carried_from)


def _counterattacks(rs, session, a, body, path) -> bool:
    """BAT-38: leaving an enemy's reach lets it attack at once (a counterattack), each who does not let the mover
    go, until the move is stopped. True when it was (the move does not happen)."""
    start = body.pos
    prone0 = (a.has("prone"), body.has("prone"), body.flying, riding.mount_id(a))

    def stopped():
        return (a.dead or body.dead or body.pos != start or not rs.can_move(session, body)[0]
                or (a.has("prone"), body.has("prone"), body.flying, riding.mount_id(a)) != prone0)
    provokers = combat.provokers(rs, session, body, path)
    let_go = [e for e in provokers if choices.choose_let_go(rs, session, e, a, "BAT-38")]      # the choice points
    for e in let_go:
        session.emit({"type": "declines", "who": e.id, "target": a.id, "what": "opportunity attack", "rule": "BAT-38"})
    provokers = [e for e in provokers if e not in let_go]
    for e in provokers:
        if stopped():
            break
        w = combat.opportunity_weapon(rs, e)
        assert w is not None                # combat.provokers: only those wielding a melee weapon
        session.emit({"type": "opportunity_attack", "who": e.id, "target": a.id, "rule": "BAT-38"})
        combat.resolve_attack(rs, session, e, a, w, {"counter": True, "rule": "BAT-38"})
    if provokers and stopped():
        session.emit({"type": "move_interrupted", "who": a.id, "at": list(body.pos), "rule": "BAT-38"})
        return True
    return False


def _terrain_test(rs, session, a, body, path) -> tuple:
    """BAT-46 / BAT-64: the difficult terrain along the ground part of the path (all of it exhausting when
    overloaded) and the test to cross it. (kinds per step, the index the move stops at, failed, how many difficult
    steps, overloaded)."""
    stop = len(path) - 1
    kinds: list[str | None] = []
    overloaded = body.has("overloaded") or a.has("overloaded")
    for p in path[1:]:
        if body.can_fly and not aerial.is_supported(session, body, *p):
            kinds.append(None)
            continue
        kinds.append(combat.terrain_at(rs, session, body, *p))
    if overloaded:
        kinds = ["exhausting"] * (len(path) - 1)
    n_diff = sum(1 for k in kinds if k)
    failed = False
    if n_diff:
        metres = n_diff * session.world.cell_m
        diff = 7 + math.ceil(metres / 1.5 - 1e-9)
        skill, _ = skills.best(rs, a, "athletics", "agility")
        ev = skills.skill_test(rs, session, a, skill, diff, "BAT-64" if overloaded else "BAT-46",
                               f"cross {metres:g} m of difficult terrain")
        failed = not ev["success"]
        if failed:
            for i, k in enumerate(kinds, 1):
                if k in ("slippery", "trapping"):
                    stop = i
                    break
    return kinds, stop, failed, n_diff, overloaded


def _move_to(rs, session, a, body, path, costs, stop) -> None:
    """The body goes to ``path[stop]`` (its rider with it), spends the movement and says so; in combat the turn
    keeps the straight run (a charge's)."""
    end = path[stop]
    body.x, body.y, body.layer = end
    if body.can_fly:
        body.flying = not aerial.is_supported(session, body)
    aerial._carry_rider(session, body)
    spent = costs[stop]
    rs.spend_movement(session, body, spent)
    dx, dy, dz = end[0] - path[0][0], end[1] - path[0][1], end[2] - path[0][2]
    cells = max(abs(dx), abs(dy))
    on_line = dz == 0 and (dx == 0 or dy == 0 or abs(dx) == abs(dy))
    straight = cells * session.world.cell_m if on_line and abs(spent - cells * session.world.cell_m) < 1e-6 else 0.0
    if baton_order.in_combat(rs, session):
        session.state.turn["last"] = "move"
        session.state.turn["straight_m"] = round(straight, 4)
    b = aerial.path_breakdown(session, body, path[:stop + 1])
    session.emit({"type": "move", "who": body.id, "by": a.id, "from": list(path[0]), "to": list(end),
                  "path": [list(p) for p in path[:stop + 1]], "cost_m": round(spent, 4), "flying": body.flying,
                  "takeoffs": b["takeoffs"], "layers_up": b["layers_up"], "layers_down": b["layers_down"],
                  "straight_m": round(straight, 4), "rule": "BAT-06+AIR-09",
                  "left_m": round(rs.movement_left(session, body, body.can_fly), 4)})


def _drag(rs, session, body, path, stop) -> None:
    """BAT-55: a smaller grappled character is dragged to the cell before the end, where it fits and stands."""
    for tid in list(body.conditions.get("grappling", [])):
        g = session.state.actors.get(tid)
        if g is None:                # GM-given (source "gm"): nobody to drag
            continue
        if skills.size_cmp(rs, body, g) > 0 and len(path[:stop + 1]) >= 2 and not riding.rides(g):
            px, py, pz = path[stop - 1]
            if (aerial.body_fits(session, g, px, py, pz) and not mounts.occupied(rs, session, g, (px, py, pz))
                    and (g.flying or aerial.is_supported(session, g, px, py, pz))):
                g.x, g.y, g.layer = px, py, pz
                aerial._carry_rider(session, g)
                session.emit({"type": "dragged", "who": g.id, "by": body.id, "to": [px, py, pz], "rule": "BAT-55"})


def _failed_terrain(rs, session, a, body, path, kinds, stop, n_diff, overloaded) -> None:
    """BAT-46 / BAT-64, a failed test: slippery ground knocks prone, trapping ground holds (stuck), dangerous
    ground and exhausting ground crossed hurt."""
    cell = session.world.cell_m
    crossed = kinds[:stop]
    if stop < len(path) - 1 or (kinds and kinds[stop - 1] in ("slippery", "trapping")):
        k = kinds[stop - 1]
        if k == "slippery":
            rs.knock_prone(session, a, "BAT-46")
        elif k == "trapping":
            skills.add_condition(rs, session, body, "stuck", "BAT-46", "terrain")
            body.data["stuck_difficulty"] = 7 + n_diff
    dang = sum(1 for k in crossed if k == "dangerous")
    if dang:
        rs.apply_damage(session, a, int(dang * cell / 1.5 + 1e-9), "dangerous", None, "BAT-46")
    exh = sum(1 for k in crossed if k == "exhausting") * cell
    if int(exh / 3.0 + 1e-9):
        rs.apply_damage(session, a, int(exh / 3.0 + 1e-9), "fatigue", None, "BAT-64" if overloaded else "BAT-46")


def _leaving_cover(rs, session, a, body, carried_from) -> None:
    """BAT-41: leaving total cover exposes the mover to an immediate ranged attack from each able enemy in range
    that had it in total cover before the move and not after (unless it lets it go)."""
    for e in session.state.actors.values():
        if e.side == a.side or not combat.can_counter(rs, e):
            continue
        rw = next((w for w in combat.equipped(rs, e) if not combat.is_melee(rs, w)), None)
        if rw is None or a.dead:
            continue
        if distance_m(e.body(), body.body(), session.world.cell_m) > rw["range_m"]:
            continue
        if combat.cover(rs, session, e, body, t_at=carried_from).level == "total" and combat.cover(rs, session, e, body).level != "total":
            if choices.choose_let_go(rs, session, e, a, "BAT-41"):
                session.emit({"type": "declines", "who": e.id, "target": a.id, "what": "attack on leaving cover",
                              "rule": "BAT-41"})
                continue
            session.emit({"type": "exposed_leaving_cover", "who": a.id, "by": e.id, "rule": "BAT-41"})
            combat.resolve_attack(rs, session, e, a, rw, {"counter": True, "rule": "BAT-41"})


@action
class Stand(Unit):
    name = "stand"
    place = 2
    hotkey = "7"
    groups = {"then": 0}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "stand"}]

    @staticmethod
    def check(rs, session, a, act):
        require_condition(a, "prone", "BAT-06")
        slots.needs_movement(rs, session, a, "stand up")
        slots.check_slot(rs, session, a, "movement", "standing up")
        return {}

    @staticmethod
    def apply(rs, session, a, act, plan):
        if baton_order.in_combat(rs, session):
            session.state.turn["move_used"] = True
            session.state.turn["last"] = "stand"
        skills.remove_condition(rs, session, a, "prone", "BAT-06")


@action
class Drop(Unit):
    name = "drop"
    place = 3
    hotkey = "5"
    groups = {"then": 6}
    PARAMS = {"attack": P("id", help="attack this character at the end of the fall (BAT-48)"), "weapon": P("str"), "defence": P("str", choices=("best", "dodge", "shield", "defence", "none")), "crit": P("str", choices=("damage", "destiny"), default="damage"), "fall_test": P("str", choices=("attack", "agility", "none"), default="attack"), "counter_crit": choices.COUNTER_CRIT}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "drop"}]

    @staticmethod
    def check(rs, session, a, act):
        body = mounts.body_of(rs, session, a)
        slots.needs_movement(rs, session, a, "drop")
        slots.check_slot(rs, session, a, "movement", "dropping down")
        ground = aerial.support_below(session, body)
        if ground >= body.layer:
            raise Illegal(f"{body.name} is standing on the ground: there is nowhere to drop", "BAT-47")
        if mounts.occupied(rs, session, body, (body.x, body.y, ground)):
            raise Illegal(f"someone is right below {body.name}", "BAT-47")
        plan = {"ground": ground, "layers": body.layer - ground}
        if act.get("attack") and act.get("fall_test") == "none":
            raise Illegal("a falling attack's roll or the Agility test halves the wound: fall_test = attack or agility "
                          "(none is for a drop without an attack)", "BAT-48", "fall_test")
        if act.get("attack"):
            slots.check_slot(rs, session, a, "major", "a falling attack")
            t = slots.check_target(rs, session, a, act["attack"], "attack")
            w = combat.pick_weapon(rs, a, act.get("weapon"), "weapon")
            if not combat.is_melee(rs, w):
                raise Illegal("a falling attack is a melee attack", "BAT-48", "weapon")
            if not in_melee_reach(body.body().moved(body.x, body.y, ground), t.body(), combat.reach_of(rs, a, w), session.world.cell_m):
                raise Illegal(f"{t.name} is not within reach of where {a.name} lands", "BAT-48", "attack")
            plan.update({"target": t.id, "weapon": w["name"]})
        return plan

    @staticmethod
    def apply(rs, session, a, act, plan):
        """BAT-47/BAT-48: drop to the surface below; with ``attack`` the attack at the end of the fall gains +1 on
        the damage scale per 1.5 m and its roll replaces the Agility test. Reaching the surface by falling leaves
        the body Prone (AIR-12), after its falling attack (option ``drop_prone``)."""
        body = mounts.body_of(rs, session, a)
        st = session.state
        if baton_order.in_combat(rs, session):
            st.turn["move_used"] = True
        start = body.layer
        body.layer = plan["ground"]
        body.flying = False
        aerial._carry_rider(session, body)
        sev = health.fall_severity(rs, plan["layers"])
        session.emit({"type": "fall", "who": body.id, "from": start, "to": plan["ground"], "layers": plan["layers"],
                      "cause": "dropped", "rule": "BAT-47", "damage": sev, "damage_rule": "BAT-47"})
        if plan.get("target"):
            t = st.actors[plan["target"]]
            w = combat.pick_weapon(rs, a, plan["weapon"])
            steps = health.fall_severity(rs, plan["layers"])
            slots.use_slot(rs, session, "major", "falling attack")
            ev = combat.resolve_attack(rs, session, a, t, w, {"major": True, "scale": steps, "rule": "BAT-48",
                                                         "crit": act.get("crit", "damage"), "defence": act.get("defence")})
            ft = choices.choose_fall_test(rs, session, a, ev["total"], sev) if sev and not a.dead and ev is not None \
                else act.get("fall_test")                   # BAT-48's choice point, once the total is known
            if ft == "agility":          # the player keeps the Agility test (BAT-47)
                if sev and not a.dead:
                    tv = skills.skill_test(rs, session, a, "agility", 7 + sev, "BAT-47", f"Agility to halve a fall wound of {sev}")
                    if tv["success"]:
                        sev = (sev + 1) // 2
            elif sev and ev is not None and ev["total"] >= 7 + sev:
                sev = (sev + 1) // 2
                session.emit({"type": "fall_halved", "who": a.id, "by": "the attack roll", "severity": sev, "rule": "BAT-48"})
            if sev:
                rs.apply_damage(session, a, sev, "falling", None, "BAT-47")
        else:
            if sev:
                if choices.choose_fall_agility(rs, session, a, sev) != "none":      # BAT-47's choice point
                    ev = skills.skill_test(rs, session, a, "agility", 7 + sev, "BAT-47", f"Agility to halve a fall wound of {sev}")
                    if ev["success"]:
                        sev = (sev + 1) // 2
                rs.apply_damage(session, a, sev, "falling", None, "BAT-47")
        if rs.opt("drop_prone") and not body.dead:
            rs.knock_prone(session, body, "AIR-12")      # AIR-12 "quem chega ao chão caindo ... fica Caído"
        if baton_order.in_combat(rs, session):
            st.turn["fell_m"] = float(plan["layers"])


@action
class Dismount(Unit):
    name = "dismount"
    place = 4
    groups = {"then": 5}
    PARAMS = {"to": P("pos")}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "dismount"}]

    @staticmethod
    def check(rs, session, a, act):
        m = riding.require_mount(session, a, "BAT-42")
        slots.check_slot(rs, session, a, "movement", "dismounting")
        to = tuple(act["to"]) if act.get("to") else None
        if to is None:
            for dx, dy in DIRS8:
                p = (m.x + dx * (m.footprint if dx > 0 else 1), m.y + dy * (m.footprint if dy > 0 else 1), m.layer)
                if aerial.body_fits(session, a, *p) and not mounts.occupied(rs, session, a, p) and (a.can_fly or aerial.is_supported(session, a, *p)):
                    to = p
                    break
        if to is None:
            raise Illegal(f"no free space beside {m.name} to dismount", "BAT-42", "to")
        if not aerial.body_fits(session, a, *to) or mounts.occupied(rs, session, a, to):
            raise Illegal(f"{list(to)} is not free", "BAT-42", "to")
        if cell_gap(a.body().moved(*to), m.body()) > 1 or abs(to[2] - m.layer) > 1:
            raise Illegal(f"{list(to)} is not beside {m.name}", "BAT-42", "to")
        if not a.can_fly and not aerial.is_supported(session, a, *to):
            raise Illegal(f"{list(to)} is in the air and {a.name} cannot fly", "AIR-01", "to")
        return {"to": to}

    @staticmethod
    def apply(rs, session, a, act, plan):
        m = riding.unseat(session, a)
        a.x, a.y, a.layer = plan["to"]
        a.flying = a.can_fly and not aerial.is_supported(session, a)
        if baton_order.in_combat(rs, session):
            session.state.turn["move_used"] = True
        session.emit({"type": "dismount", "who": a.id, "mount": m.id, "to": list(plan["to"]), "rule": "BAT-42"})


@action
class Dash(Unit):
    name = "dash"
    place = 11
    hotkey = "8"
    groups = {"then": 1}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "dash"}]

    @staticmethod
    def check(rs, session, a, act):
        slots.check_slot(rs, session, a, "major", "dashing")
        slots.needs_movement(rs, session, a, "dash")
        body = mounts.body_of(rs, session, a)
        left = rs.movement_left(session, body, body.flying)
        if left >= session.world.cell_m - 1e-9:
            raise Illegal(f"{a.name} still has {left:g} m of movement: dash after using all of it", "BAT-33")
        return {}

    @staticmethod
    def apply(rs, session, a, act, plan):
        slots.use_slot(rs, session, "major", "dash")
        skill, _ = skills.best(rs, a, "athletics", "agility")
        ev = skills.skill_test(rs, session, a, skill, 8, "BAT-33", "dash beyond its movement", major=True)
        if ev["success"]:
            m = 1.5 * ev["level"]
            session.state.turn["extra_m"] += m
            session.emit({"type": "dash", "who": a.id, "extra_m": m, "rule": "BAT-33"})
        else:
            skills.add_condition(rs, session, a, "exposed", "BAT-33", "until_next_turn")
