"""SRD-44 and SRD-45's actions (engine/rules/dnd5e/srd_engulf.py): ``whelm`` -- the water elemental's "Whelm (Recharge
4-6). Each creature in the elemental's space must make a DC 15 Strength saving throw." -- and ``pull_out``: "A creature
within 5 feet of the elemental can pull a creature or object out of it by taking an action to make a DC 14 Strength
and succeeding." The engulfed creature's own way out is the Escape action against the grapple's escape DC."""

from __future__ import annotations

from engine.rules.actions import Param, Unit
from engine.rules.core import Illegal
from engine.rules.dnd5e import common, srd_engulf
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
        e = a.data.get("srd_engulf")
        if not e or e["kind"] != "whelm":
            raise Illegal(f"{a.name} has no Whelm", srd_engulf.WHELM, "action")
        common.need_action(rs, a, session, e["name"], srd_engulf.WHELM)
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
        return any(o.data.get("held_in") for o in session.state.actors.values())

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        out = []
        for o in sorted(session.state.actors.values(), key=lambda o: o.id):
            if o.data.get("held_in") and o.id != a.id:
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
        h = session.state.actors.get(t.data.get("held_in") or "")
        if h is None or h.id not in t.conditions.get("grappled", []):
            raise Illegal(f"{t.name} is not held inside a creature", srd_engulf.WHELM, "target")
        rule = srd_engulf.rule_of(h.data["srd_engulf"])
        if not h.data["srd_engulf"].get("pull_dc"):
            raise Illegal(f"{h.name}'s {h.data['srd_engulf']['name']} says no way to pull a creature out", rule,
                          "target")
        if a.id in (h.id, t.id) or a.data.get("held_in") or not engaged(a.body(), h.body()):
            raise Illegal(f"{a.name} must be within 1.5 m of {h.name}, outside it", rule, "target")
        return {"target": t.id}

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.state.turn["action"] = True
        srd_engulf.pull_out(rs, session, a, session.state.actors[plan["target"]])
