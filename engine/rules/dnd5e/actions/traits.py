"""The SRD creatures' actions that are neither attacks nor saves (SRD-30..SRD-49; engine/rules/dnd5e/srd_carry.py,
srd_traits2.py): ``let_go`` (a carrier releases what it holds, SRD-30) and ``trait_action`` (Teleport, Invisibility,
Healing Touch, Shapechanger as the stat block writes them). Offered only to a creature whose sheet has them."""

from __future__ import annotations

from engine.rules.actions import Param, Unit
from engine.rules.core import Illegal
from engine.rules.dnd5e import common, srd_carry, srd_traits2
from engine.rules.dnd5e.actions import action

P = Param


@action
class LetGo(Unit):
    name = "let_go"
    PARAMS = {"target": P("id", True, help="the creature it holds")}

    @staticmethod
    def offered(rs, session, a) -> bool:
        return any(a.id in o.conditions.get("grappled", []) for o in session.state.actors.values())

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "let_go", "target": o.id} for o in srd_carry.carried_by(session, a)
                if o.data.get("carried_by") == a.id]

    @staticmethod
    def check(rs, session, a, act):
        t = session.actor(act["target"], "target")
        if a.id not in t.conditions.get("grappled", []):
            raise Illegal(f"{a.name} does not hold {t.name}", "SRD-30", "target")
        return {"target": t.id}

    @staticmethod
    def apply(rs, session, a, act, plan):
        srd_carry.let_go(rs, session, a, session.state.actors[plan["target"]])


@action
class TraitAction(Unit):
    name = "trait_action"
    PARAMS = {"feature": P("str", True, help="the stat block's action, as written (Teleport, Invisibility, Healing "
                                              "Touch)"),
              "target": P("id", help="the creature it touches (Healing Touch)"),
              "at": P("pos", help="where it teleports [x, y, layer]"),
              "form": P("str", help="the size it polymorphs into (small, medium, large), or true (Shapechanger, "
                                    "Change Shape)")}

    @staticmethod
    def offered(rs, session, a) -> bool:
        return bool(srd_traits2.actions_of(a))

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return srd_traits2.candidates(rs, session, a)

    @staticmethod
    def check(rs, session, a, act):
        f = srd_traits2.feature(a, act["feature"])
        common.need_action(rs, a, session, f["name"], f["rule"])
        return srd_traits2.check(rs, session, a, f, act)

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.state.turn["action"] = True
        srd_traits2.apply(rs, session, a, plan)
