"""``stanch``: "Any creature can take an action to stanch the wound with a successful DC 12 Wisdom (Medicine) check"
(SRD-46) -- the wounded creature itself or one within 1.5 m of it spends its action on the check; a success closes
the infernal wound (engine/rules/dnd5e/srd_wound.py)."""

from __future__ import annotations

from engine.rules.actions import Param, Unit
from engine.rules.core import Illegal
from engine.rules.dnd5e import srd_wound
from engine.rules.dnd5e.actions import action
from engine.rules.dnd5e.actions.standard import _action_on
from engine.world.geometry import engaged

P = Param


@action
class Stanch(Unit):
    name = "stanch"
    place = 34
    groups = {"on_friend": 0}
    spends_action = True
    PARAMS = {"target": P("id", True, help="a creature with an infernal wound (itself, or one within 1.5 m)")}

    @staticmethod
    def offered(rs, session, a) -> bool:
        """Only while someone on the table bleeds from an infernal wound (SRD-46)."""
        return any(x.data.get("infernal_wounds") for x in session.state.actors.values())

    @staticmethod
    def candidates(rs, session, a, ctx, f):
        """A wounded friend."""
        return [{"actor": a.id, "action": "stanch", "target": f.id}] if f.data.get("infernal_wounds") else []

    @staticmethod
    def check(rs, session, a, act):
        t = _action_on(rs, session, a, act, "stanching a wound", srd_wound.WOUND)
        if not t.data.get("infernal_wounds"):
            raise Illegal(f"{t.name} has no infernal wound", srd_wound.WOUND, "target")
        if t.id != a.id and not engaged(a.body(), t.body()):
            raise Illegal(f"{t.name} is not within 1.5 m", srd_wound.WOUND, "target")
        return {"target": t.id}

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.state.turn["action"] = True
        srd_wound.stanch(rs, session, a, session.state.actors[plan["target"]])
