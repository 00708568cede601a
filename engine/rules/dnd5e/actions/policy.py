"""Dnd5e action reaction_policy: take or decline a reaction the rules offer (the ordinary opportunity attack,
Sentinel, Mage Slayer, Defensive Duelist, Shield Master, Polearm Master, a readied action (DND-20)). Free, on the character's own turn; it
stands until changed. Default (no policy): every reaction is taken. The scene can set it from the start with the
character key ``reactions = {opportunity_attack = false}``."""

from __future__ import annotations

from engine.rules.actions import Param, Unit
from engine.rules.core import Illegal
from engine.rules.dnd5e.actions import action
from engine.rules.dnd5e.feats import REACTIONS
from engine.rules.dnd5e.feats import reaction_taken


@action
class ReactionPolicy(Unit):
    name = "reaction_policy"
    place = 22
    PARAMS = {"reaction": Param("str", True, choices=REACTIONS), "take": Param("bool", True)}

    @staticmethod
    def check(rs, session, a, act):
        cur = reaction_taken(a, act["reaction"])
        if cur == act["take"]:
            raise Illegal(f"{a.name} already {'takes' if cur else 'declines'} {act['reaction'].replace('_', ' ')}", "DND-13",
                          "take")
        return {"reaction": act["reaction"], "take": act["take"]}

    @staticmethod
    def apply(rs, session, a, act, plan):
        a.data.setdefault("reactions", {})[plan["reaction"]] = plan["take"]
        session.state.turn["policy_set"] = True
        session.emit({"type": "reaction_policy", "who": a.id, "reaction": plan["reaction"], "take": plan["take"],
                      "rule": "DND-13"})
