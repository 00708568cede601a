"""``change_shape`` (SRD-89..92: Change Shape, the Shapechangers by speed and the vampire's, engine/rules/dnd5e/
srd_shapes.py) and ``etherealness`` (SRD-94, SRD-95: Etherealness, Ethereal Stride, srd_planes.py): actions offered
only to a creature whose sheet has them (``srd_shapes``)."""

from __future__ import annotations

from engine.rules.actions import Param, Unit
from engine.rules.core import Illegal
from engine.rules.dnd5e import common, srd_planes, srd_shapes
from engine.rules.dnd5e.actions import action

P = Param


@action
class ChangeShape(Unit):
    name = "change_shape"
    PARAMS = {"form": P("str", True, help="the new form: an SRD humanoid or beast id (Change Shape), a form the trait "
                                         "names (rat, raven, bat, mist...), or true")}

    @staticmethod
    def offered(rs, session, a) -> bool:
        ss = srd_shapes.shapes(a)
        return "change_shape" in ss or "speed_forms" in ss or "vampire" in ss

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        """A short, deterministic list (srd_shapes.options)."""
        if a.data.get("misty_zero"):
            return []
        return [{"actor": a.id, "action": "change_shape", "form": f} for f in srd_shapes.options(a)]

    @staticmethod
    def check(rs, session, a, act):
        ss = srd_shapes.shapes(a)
        if not ChangeShape.offered(rs, session, a):
            raise Illegal(f"{a.name} has no Change Shape nor Shapechanger", "SRD-89", "action")
        rule = "SRD-89" if "change_shape" in ss else "SRD-90" if "speed_forms" in ss else "SRD-91"
        common.need_action(rs, a, session, "changing shape", rule)
        return {"form": srd_shapes.check(rs, session, a, act.get("form"))}

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.state.turn["action"] = True
        srd_shapes.change_shape(rs, session, a, plan["form"])


@action
class Etherealness(Unit):
    name = "etherealness"
    PARAMS = {"with": P("ids", help="up to its number of willing creatures within 1.5 m that go with it (Ethereal "
                                    "Stride: up to three)")}

    @staticmethod
    def offered(rs, session, a) -> bool:
        return "etherealness" in srd_shapes.shapes(a)

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "etherealness"}]

    @staticmethod
    def check(rs, session, a, act):
        if not Etherealness.offered(rs, session, a):
            raise Illegal(f"{a.name} has no Etherealness nor Ethereal Stride", srd_planes.RULE, "action")
        common.need_action(rs, a, session, "crossing to the other plane", srd_planes.RULE)
        return {"with": srd_planes.check(rs, session, a, act.get("with") or [])}

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.state.turn["action"] = True
        srd_planes.cross(rs, session, a, plan["with"])
