"""A fourth, test-only ruleset, "lancers": the pawns (tests/support/pawns_ruleset.py) with weapons of a shape of their own
and options of their own, plugged in without an edit to any shared file (issue 25). Registered as any add-on is
(tests/conftest.py names it in ``AERIE_RULESETS``), so the API test (tests/rules/test_ruleset_api.py) plays it too.

* LNC-1 a weapon is ``{ name = "lance", reach_cells = 2 }`` (melee, that many cells) or
  ``{ name = "javelin", throw_cells = 8 }`` (thrown that far); checked when the scene loads.
* LNC-2 option ``charge_bonus`` (0..3, default 1) and ``formation`` (``loose`` | ``tight``), declared once.
"""

from __future__ import annotations

import msgspec

from engine.errors import SceneError
from engine.rules.options import OptionSpec, choice, defaults
from engine.rules.registry import RulesetInfo
from engine.rules.validate import check_weapons, number

from pawns_ruleset import Pawns


class LancerStats(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    hp: int = 4
    speed_m: float = 6.0
    fly_speed_m: float | None = None
    quickness: int = 0
    weapons: list[dict] = msgspec.field(default_factory=list)


WEAPON = {
    "name": lambda v: isinstance(v, str) and v.strip() != "",
    "reach_cells": lambda v: number(v, 1, 4, True),
    "throw_cells": lambda v: number(v, 1, 20, True),
}
WEAPON_HELP = {"name": "a name", "reach_cells": "cells 1..4", "throw_cells": "cells 1..20"}


def check_character(raw: dict, file: str, key: str) -> None:
    check_weapons(raw.get("weapons"), WEAPON, WEAPON_HELP, file, key)
    for j, w in enumerate(raw.get("weapons") or []):
        if isinstance(w, dict) and ("reach_cells" in w) == ("throw_cells" in w):
            raise SceneError(file, f"{key}.weapons[{j}]", "a weapon has reach_cells or throw_cells (LNC-1)")


OPTION_SPECS = {
    "charge_bonus": OptionSpec("int", 1, 0, 3, help="LNC-2: added to a lance's strike"),
    "formation": choice("loose", "tight", help="LNC-2"),
}


class Lancers(Pawns):
    name = "lancers"
    OPTION_SPECS = OPTION_SPECS
    DEFAULT_OPTIONS = defaults(OPTION_SPECS)

    def make_actor(self, session, ch):
        a = super().make_actor(session, ch)
        a.data["weapons"] = [dict(w) for w in ch.stats.weapons]
        return a

    def attack_reach(self, session, actor):
        cell = session.world.cell_m
        melee = [w["reach_cells"] * cell for w in actor.data["weapons"] if "reach_cells" in w]
        thrown = [w["throw_cells"] * cell for w in actor.data["weapons"] if "throw_cells" in w]
        return (max(melee) if melee else None), (max(thrown) if thrown else None)


RULESET = RulesetInfo(
    name="lancers",
    title="Lancers (test-only)",
    ruleset=Lancers,
    schema=LancerStats,
    character_check=check_character,
    cover_levels=(("open", 0.0), ("shielded", 0.4), ("total", 1.0)),
    cover_rule="LNC-1",
)
