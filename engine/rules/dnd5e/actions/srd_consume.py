"""``consume_life``: the will-o'-wisp's "As a bonus action, the will-o'-wisp can target one creature it can see within
5 ft. of it that has 0 hit points and is still alive" (SRD-59, engine/rules/dnd5e/srd_consume.py)."""

from __future__ import annotations

from engine.rules.actions import Param, Unit
from engine.rules.dnd5e import srd_consume
from engine.rules.dnd5e.actions import action
from engine.rules.dnd5e.common import living_target

P = Param


@action
class ConsumeLife(Unit):
    name = "consume_life"
    place = 35
    groups = {"on_foe": 4}
    PARAMS = {"target": P("id", True, help="a creature it sees within 1.5 m at 0 hit points, still alive")}

    @staticmethod
    def offered(rs, session, a) -> bool:
        """Only a creature with Consume Life (SRD-59)."""
        return srd_consume.consume_life(a) is not None

    @staticmethod
    def candidates(rs, session, a, ctx, f):
        """A foe at 0 hit points it may consume now."""
        if srd_consume.consume_life(a) is None or f.dead or f.hp > 0:
            return []
        return [] if srd_consume.refusal(rs, session, a, f) else [{"actor": a.id, "action": "consume_life",
                                                                   "target": f.id}]

    @staticmethod
    def check(rs, session, a, act):
        t = living_target(rs, session, a, act["target"])
        why = srd_consume.refusal(rs, session, a, t)
        if why is not None:
            raise why
        return {"target": t.id}

    @staticmethod
    def apply(rs, session, a, act, plan):
        srd_consume.consume(rs, session, a, session.state.actors[plan["target"]])
