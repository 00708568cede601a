"""``douse``: "Until a creature takes an action to douse the fire" (SRD-56) -- the burning creature itself or one
within 1.5 m of it spends its action and the fire is out (engine/rules/dnd5e/srd_burning.py)."""

from __future__ import annotations

from engine.rules.actions import Param, Unit
from engine.rules.core import Illegal
from engine.rules.dnd5e import srd_burning
from engine.rules.dnd5e.actions import action
from engine.rules.dnd5e.actions.standard import _action_on
from engine.world.geometry import engaged

P = Param


@action
class Douse(Unit):
    name = "douse"
    place = 33
    groups = {"on_friend": 0}
    spends_action = True
    PARAMS = {"target": P("id", True, help="a burning creature (itself, or one within 1.5 m)")}

    @staticmethod
    def offered(rs, session, a) -> bool:
        """Only while someone on the table burning (SRD-56): otherwise it is no one's action, not one greyed out on every sheet."""
        return any(x.data.get("burning") for x in session.state.actors.values())

    @staticmethod
    def candidates(rs, session, a, ctx, f):
        """A burning friend."""
        return [{"actor": a.id, "action": "douse", "target": f.id}] if f.data.get("burning") else []

    @staticmethod
    def check(rs, session, a, act):
        t = _action_on(rs, session, a, act, "dousing a fire", srd_burning.RULE)
        if not t.data.get("burning"):
            raise Illegal(f"{t.name} is not burning", srd_burning.RULE, "target")
        if t.id != a.id and not engaged(a.body(), t.body()):
            raise Illegal(f"{t.name} is not within 1.5 m", srd_burning.RULE, "target")
        return {"target": t.id}

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.state.turn["action"] = True
        srd_burning.douse(session, session.state.actors[plan["target"]], a)
