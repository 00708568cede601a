"""SRD-44 and SRD-45's actions (engine/rules/dnd5e/srd_engulf.py): ``engulf`` -- the gelatinous cube's "The cube moves
up to its speed. While doing so, it can enter Large or smaller creatures' spaces." -- ``escape_engulf`` ("An engulfed
creature can try to escape by taking an action to make a DC 12 Strength check"), ``whelm`` -- the water elemental's "Whelm (Recharge
4-6). Each creature in the elemental's space must make a DC 15 Strength saving throw." -- and ``pull_out``: "A creature
within 5 feet of the elemental can pull a creature or object out of it by taking an action to make a DC 14 Strength
and succeeding." The engulfed creature's own way out is the Escape action against the grapple's escape DC."""

from __future__ import annotations

from engine.rules.actions import Param, Unit
from engine.rules.core import Illegal
from engine.rules import aerial
from engine.rules.dnd5e import attacks, conditions, common, srd_engulf
from engine.rules.dnd5e.data import SIZES
from engine.rules.dnd5e.actions import action
from engine.world.geometry import engaged

P = Param


@action
class Whelm(Unit):
    name = "whelm"
    spends_action = True
    PARAMS = {}

    @staticmethod
    def offered(rs, session, a) -> bool:
        return (a.data.get("srd_engulf") or {}).get("kind") == "whelm"

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        try:
            Whelm.check(rs, session, a, {})
        except Illegal:
            return []
        return [{"actor": a.id, "action": "whelm"}]

    @staticmethod
    def check(rs, session, a, act):
        common.need_action(rs, a, session, "Whelm", srd_engulf.WHELM)
        e = a.data.get("srd_engulf")
        if not e or e["kind"] != "whelm":
            raise Illegal(f"{a.name} has no Whelm", srd_engulf.WHELM, "action")
        if e.get("recharge") and (a.data.get("creature_state") or {}).get(e["name"], {}).get("spent"):
            lo = e["recharge"][0]
            raise Illegal(f"{e['name']} is spent: it recharges on a {lo}-6 of a d6 at the start of {a.name}'s turn",
                          "SRD-05", "action")
        caught = srd_engulf.in_space(session, a)
        if not caught:
            raise Illegal(f"no creature is in {a.name}'s space", srd_engulf.WHELM, "action")
        return {"targets": [t.id for t in caught]}

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.state.turn["action"] = True
        srd_engulf.whelm(rs, session, a)


@action
class PullOut(Unit):
    name = "pull_out"
    spends_action = True
    PARAMS = {"target": P("id", True, help="a creature held inside another (engulfed, whelmed)")}

    @staticmethod
    def offered(rs, session, a) -> bool:
        return any(o.data.get("held_in") or o.data.get("inside") for o in session.state.actors.values())

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        out = []
        for o in sorted(session.state.actors.values(), key=lambda o: o.id):
            if (o.data.get("held_in") or o.data.get("inside")) and o.id != a.id:
                try:
                    PullOut.check(rs, session, a, {"target": o.id})
                except Illegal:
                    continue
                out.append({"actor": a.id, "action": "pull_out", "target": o.id})
        return out

    @staticmethod
    def check(rs, session, a, act):
        common.need_action(rs, a, session, "pulling a creature out", srd_engulf.WHELM)
        t = session.actor(act["target"], "target")
        h = srd_engulf.holder(session, t)
        if h is None:
            raise Illegal(f"{t.name} is not held inside a creature", srd_engulf.WHELM, "target")
        rule = srd_engulf.rule_of(h.data["srd_engulf"])
        if not h.data["srd_engulf"].get("pull_dc"):
            raise Illegal(f"{h.name}'s {h.data['srd_engulf']['name']} says no way to pull a creature out", rule,
                          "target")
        if a.id in (h.id, t.id) or a.data.get("held_in") or a.data.get("inside") or not engaged(a.body(), h.body()):
            raise Illegal(f"{a.name} must be within 1.5 m of {h.name}, outside it", rule, "target")
        return {"target": t.id}

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.state.turn["action"] = True
        srd_engulf.pull_out(rs, session, a, session.state.actors[plan["target"]])


def _line(a, to) -> list:
    """The cube's cells from where it is to ``to``, one step (a cell, straight or diagonal) at a time."""
    x, y, z = a.pos
    path = [(x, y, z)]
    while (x, y) != (to[0], to[1]):
        x += (to[0] > x) - (to[0] < x)
        y += (to[1] > y) - (to[1] < y)
        path.append((x, y, z))
    return path


@action
class Engulf(Unit):
    name = "engulf"
    spends_action = True
    PARAMS = {"to": P("pos", True, help="where the cube ends its move [x, y, layer] (its layer: on the ground)")}

    @staticmethod
    def offered(rs, session, a) -> bool:
        return (a.data.get("srd_engulf") or {}).get("kind") == "cube"

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        out = []
        for t in ctx.foes:
            act = {"actor": a.id, "action": "engulf", "to": [t.x, t.y, a.layer]}
            try:
                Engulf.check(rs, session, a, act)
            except Illegal:
                continue
            out.append(act)
        return out

    @staticmethod
    def check(rs, session, a, act):
        common.need_action(rs, a, session, "Engulf", srd_engulf.ENGULF)
        e = a.data.get("srd_engulf")
        rule = srd_engulf.ENGULF
        if not e or e["kind"] != "cube":
            raise Illegal(f"{a.name} has no Engulf that moves", rule, "action")
        sz = conditions.speed_zero(rs, a)
        if sz:
            raise Illegal(f"{a.name} is {sz[0]}: its speed is 0", sz[1], "to")
        to = tuple(act["to"])
        if to[2] != a.layer or to == a.pos:
            raise Illegal(f"the cube moves across its layer ({a.layer}) to another place", rule, "to")
        path = _line(a, to)
        cost = (len(path) - 1) * session.world.cell_m
        left = rs.movement_left(session, a, False)
        if cost > left + 1e-9:
            raise Illegal(f"{cost:g} m in a line; {a.name} has {max(left, 0):g} m of movement left", rule, "to")
        for p in path[1:]:
            if not aerial.body_fits(session, a, *p) or not aerial.is_supported(session, a, *p):
                raise Illegal(f"the cube does not fit on the ground at {list(p)}", "AIR-02", "to")
            for o in session.state.actors.values():
                if o.id != a.id and not o.dead and o.data.get("inside") != a.id \
                        and aerial._overlap(a, p, o) and SIZES.index(o.size) > SIZES.index(e["max_size"]):
                    raise Illegal(f"{o.name} is {o.size}: the cube enters Large or smaller creatures' spaces", rule,
                                  "to")
        return {"path": path, "cost": cost}

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.state.turn["action"] = True
        path = plan["path"]
        left = rs.movement_left(session, a, False) - plan["cost"]
        rs.spend_movement(session, a, plan["cost"])
        attacks.emit_move(rs, session, a, path, plan["cost"], left, "Engulf (SRD-44)")
        met: set = set()
        for p in path[1:]:
            a.x, a.y, a.layer = p
            for o in sorted(session.state.actors.values(), key=lambda o: o.id):
                if o.id in met or o.id == a.id or o.dead or o.data.get("inside") == a.id \
                        or not aerial._overlap(a, p, o):
                    continue
                met.add(o.id)
                srd_engulf.cube_enters(rs, session, a, o, path[-1])
            if a.dead:
                break
        conditions.MOVED.run(rs, session, a)
        conditions.check_grapples(rs, session)


@action
class EscapeEngulf(Unit):
    name = "escape_engulf"
    spends_action = True
    PARAMS = {}

    @staticmethod
    def offered(rs, session, a) -> bool:
        h = srd_engulf.holder(session, a)
        return h is not None and h.data["srd_engulf"]["kind"] == "cube"

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        try:
            EscapeEngulf.check(rs, session, a, {})
        except Illegal:
            return []
        return [{"actor": a.id, "action": "escape_engulf"}]

    @staticmethod
    def check(rs, session, a, act):
        common.need_action(rs, a, session, "escaping the cube", srd_engulf.ENGULF)
        h = srd_engulf.holder(session, a)
        if h is None or h.data["srd_engulf"]["kind"] != "cube":
            raise Illegal(f"{a.name} is not engulfed by a cube", srd_engulf.ENGULF, "action")
        return {"from": h.id}

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.state.turn["action"] = True
        srd_engulf.escape_cube(rs, session, a)
