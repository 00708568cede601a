"""``douse``: "Until a creature takes an action to douse the fire" (SRD-56) -- the burning creature itself or one
within 1.5 m of it spends its action and the fire is out (engine/rules/dnd5e/srd_burning.py)."""

from __future__ import annotations

from engine.rules.actions import Param
from engine.rules.dnd5e import srd_burning
from engine.rules.dnd5e.actions import action
from engine.rules.dnd5e.actions.near_one import OnOneNear


@action
class Douse(OnOneNear):
    name = "douse"
    place = 33
    mark, rule, doing, lacks = "burning", srd_burning.RULE, "dousing a fire", "is not burning"
    PARAMS = {"target": Param("id", True, help="a burning creature (itself, or one within 1.5 m)")}

    @staticmethod
    def tend(rs, session, a, t) -> None:
        srd_burning.douse(session, t, a)
