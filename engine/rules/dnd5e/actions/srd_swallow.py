"""SRD-43's actions (engine/rules/dnd5e/srd_swallow.py): ``swallow`` -- "The behir makes one bite attack against a
Medium or smaller target it is grappling. If the attack hits, the target is also swallowed" (an action of its own;
the tarrasque's "can use its Swallow instead of its bite" within its Multiattack: one of its attacks, counted as the
bite) -- and ``escape_corpse``: "If the behir dies, a swallowed creature ... can escape from the corpse by using 15 ft.
of movement, exiting prone". Offered only where a sheet has ``srd_swallow`` or someone is inside a dead swallower."""

from __future__ import annotations

from engine.rules.actions import Param, Unit
from engine.rules.core import Illegal
from engine.rules.dnd5e import attacks, common, srd_multiattack, srd_swallow
from engine.rules.dnd5e.actions import action

P = Param
RULE = srd_swallow.RULE


def _bite(rs, a) -> dict:
    return attacks.weapon(rs, a, a.data["srd_swallow"]["weapon"])


@action
class Swallow(Unit):
    name = "swallow"
    PARAMS = {"target": P("id", True, help="a creature it is grappling")}

    @staticmethod
    def offered(rs, session, a) -> bool:
        return bool((a.data.get("srd_swallow") or {}).get("action"))

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        if not ctx.can_attack:
            return []
        return [{"actor": a.id, "action": "swallow", "target": o.id}
                for o in sorted(session.state.actors.values(), key=lambda o: o.id)
                if a.id in o.conditions.get("grappled", []) and not o.dead]

    @staticmethod
    def check(rs, session, a, act):
        sw = a.data.get("srd_swallow")
        if not sw or not sw.get("action"):
            raise Illegal(f"{a.name} has no Swallow", RULE, "action")
        t = common.living_target(rs, session, a, act["target"])
        turn = session.state.turn
        w = _bite(rs, a)
        if sw.get("in_multiattack"):          # "It can use its Swallow instead of its bite": an attack of the action
            if turn["attacks_left"] <= 0 and turn["action"]:
                raise Illegal(f"{a.name} has no attack left this turn (its action is used)", "DND-16")
            refused = srd_multiattack.refusal(a, w, turn)
            if refused is not None:
                raise refused
        else:
            common.need_action(rs, a, session, "Swallow", RULE)
        if a.id not in t.conditions.get("grappled", []):
            raise Illegal(f"{a.name} is not grappling {t.name}: Swallow is a bite \"against a target it is grappling\"",
                          RULE, "target")
        why = srd_swallow.can_swallow(session, a, t)
        if why:
            raise Illegal(why, RULE, "target")
        plan = attacks.attack_plan(rs, session, a, t, w, False)
        plan["swallow"] = True
        return plan

    @staticmethod
    def damage_on_hit(rs, session, a, act, plan):
        return attacks.mean_hit_damage(rs, a, plan) if "weapon" in plan else None

    @staticmethod
    def apply(rs, session, a, act, plan):
        turn = session.state.turn
        if a.data["srd_swallow"].get("in_multiattack"):
            attacks.use_attack(rs, session, a)
            srd_multiattack.made(a, plan["weapon"], turn)       # SRD-01: counted as its bite
        else:
            turn["action"] = True
            turn["attacks_left"] = 0
        t = session.state.actors[plan["target"]]
        hit = attacks.resolve_attack(rs, session, a, t, plan, {k: v for k, v in act.items() if k != "action"})
        if hit is t and not t.dead and not a.dead and srd_swallow.can_swallow(session, a, t) is None:
            srd_swallow.swallow(rs, session, a, t)


@action
class EscapeCorpse(Unit):
    name = "escape_corpse"
    PARAMS = {}

    @staticmethod
    def offered(rs, session, a) -> bool:
        h = srd_swallow.holder(session, a)
        return h is not None and h.dead

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        try:
            EscapeCorpse.check(rs, session, a, {})
        except Illegal:
            return []
        return [{"actor": a.id, "action": "escape_corpse"}]

    @staticmethod
    def check(rs, session, a, act):
        h = srd_swallow.holder(session, a)
        if h is None or "escape_m" not in (h.data.get("srd_swallow") or {}):
            raise Illegal(f"{a.name} is not swallowed by a creature", RULE, "action")
        if not h.dead:
            raise Illegal(f"{a.name} is swallowed by {h.name}, alive: only its death lets it out", RULE, "action")
        need = float(h.data["srd_swallow"]["escape_m"])
        left = rs.movement_left(session, a, False)
        if left + 1e-9 < need:
            raise Illegal(f"escaping from the corpse uses {need:g} m of movement; {a.name} has {max(left, 0):g} m left",
                          RULE, "action")
        return {"from": h.id}

    @staticmethod
    def apply(rs, session, a, act, plan):
        srd_swallow.escape_corpse(rs, session, session.state.actors[plan["from"]], a)
