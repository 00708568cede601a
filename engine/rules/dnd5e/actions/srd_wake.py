"""``wake``: "someone uses an action to wake it" (Sleep Breath, SRD-25) -- a creature within 1.5 m of a sleeper spends
its action and the sleep ends (engine/rules/dnd5e/srd_riders.py)."""

from __future__ import annotations

from engine.rules.actions import Param, Unit
from engine.rules.core import Illegal
from engine.rules.dnd5e import srd_riders
from engine.rules.dnd5e.actions import action
from engine.rules.dnd5e.actions.standard import _action_on
from engine.world.geometry import engaged

P = Param


@action
class Wake(Unit):
    name = "wake"
    place = 32
    groups = {"on_friend": 0}
    spends_action = True
    PARAMS = {"target": P("id", True, help="a creature asleep (Sleep Breath) within 1.5 m")}

    @staticmethod
    def offered(rs, session, a) -> bool:
        """Only while someone on the table asleep (Sleep Breath): otherwise it is no one's action, not one greyed out on every sheet."""
        return any(x.data.get("asleep") for x in session.state.actors.values())

    @staticmethod
    def candidates(rs, session, a, ctx, f):
        """A friend put to sleep."""
        return [{"actor": a.id, "action": "wake", "target": f.id}] if f.data.get("asleep") and f.hp > 0 else []

    @staticmethod
    def check(rs, session, a, act):
        t = _action_on(rs, session, a, act, "waking a sleeper", "SRD-25")
        if not t.data.get("asleep"):
            raise Illegal(f"{t.name} is not asleep", "SRD-25", "target")
        if not engaged(a.body(), t.body()):
            raise Illegal(f"{t.name} is not within 1.5 m", "SRD-25", "target")
        return {"target": t.id}

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.state.turn["action"] = True
        t = session.state.actors[plan["target"]]
        srd_riders.wake(rs, session, t, f"{a.name} wakes it")
