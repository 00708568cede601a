"""``darkness_aura``: the darkmantle's Darkness Aura (SRD-101, engine/rules/dnd5e/srd_sight.py): 1/Day, its action,
a 4.5 m sphere of magical darkness that moves with it while it concentrates."""

from __future__ import annotations

from engine.rules.actions import Unit
from engine.rules.dnd5e import common, srd_sight
from engine.rules.dnd5e.actions import action
from engine.rules.dnd5e.srd_senses import senses


@action
class DarknessAura(Unit):
    name = "darkness_aura"
    PARAMS: dict = {}

    @staticmethod
    def offered(rs, session, a) -> bool:
        return bool(senses(a).get("darkness_aura"))

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return []                       # a policy does not use it yet (no expected damage to weigh)

    @staticmethod
    def check(rs, session, a, act):
        plan = srd_sight.aura_check(rs, session, a)
        common.need_action(rs, a, session, "Darkness Aura", srd_sight.AURA)
        return plan

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.state.turn["action"] = True
        srd_sight.aura_apply(rs, session, a, plan)
