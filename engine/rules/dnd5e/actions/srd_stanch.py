"""``stanch``: "Any creature can take an action to stanch the wound with a successful DC 12 Wisdom (Medicine) check"
(SRD-46) -- the wounded creature itself or one within 1.5 m of it spends its action on the check; a success closes
the infernal wound (engine/rules/dnd5e/srd_wound.py)."""

from __future__ import annotations

from engine.rules.actions import Param
from engine.rules.dnd5e import srd_wound
from engine.rules.dnd5e.actions import action
from engine.rules.dnd5e.actions.near_one import OnOneNear


@action
class Stanch(OnOneNear):
    name = "stanch"
    place = 34
    mark, rule, doing, lacks = "infernal_wounds", srd_wound.WOUND, "stanching a wound", "has no infernal wound"
    PARAMS = {"target": Param("id", True, help="a creature with an infernal wound (itself, or one within 1.5 m)")}

    @staticmethod
    def tend(rs, session, a, t) -> None:
        srd_wound.stanch(rs, session, a, t)
