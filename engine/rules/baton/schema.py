"""The character keys of a baton scene (validated by the scene loader; unknown keys are errors)."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.errors import SceneError
from engine.rules.schemas import _Strict
from engine.rules.validate import check_weapons, number
from engine.rules.baton.dice import parse
from engine.rules.baton.options import check_names


class BatonStats(_Strict, frozen=True):
    pc: bool = False
    attributes: dict[str, int] = msgspec.field(default_factory=dict)
    skills: dict[str, int] = msgspec.field(default_factory=dict)
    protection: int | None = None
    armour: list[Any] = msgspec.field(default_factory=list)
    weapons: list[Any] = msgspec.field(default_factory=list)
    speed_m: float | None = None
    fly_speed_m: float | None = None
    surprised: bool = False
    vigor: int | None = None
    wounds: list[Any] = msgspec.field(default_factory=list)
    conditions: list[str] = msgspec.field(default_factory=list)
    defence: str | None = None          # dodge | shield | defence | none: the defence skill it resists with (BAT-14)
    mount: str | None = None            # id of the character it rides (BAT-42)
    destiny: int | None = None          # the players' Destiny pool (BAT-36), given on any PC
    items: dict[str, int] = msgspec.field(default_factory=dict)          # bandage, splint, potion_healing, ... -> count
    equipped: list[str] = msgspec.field(default_factory=list)            # weapons in hand: [main, off]; default: the first weapon
    counterattack: bool = False         # gear or ability granting counterattacks (BAT-13)
    undead: bool | None = None          # divine damage is always critical against it (BAT-52)
    reach_m: float | None = None        # melee reach (default 1.5 m)


# -- what the types cannot say: the weapon shape's values, names and counts (checked when the scene loads)
def _damage(v) -> bool:

    if isinstance(v, bool) or not isinstance(v, (str, int)):
        return False
    try:
        n, sides, bonus = parse(str(v))
    except ValueError:
        return False
    return 0 <= bonus <= 100


WEAPON = {
    "name": lambda v: isinstance(v, str) and v.strip() != "",
    "damage": _damage,
    "size": lambda v: v in ("light", "small", "medium", "large"),
    "range_m": lambda v: number(v, 0, 10000),
    "type": lambda v: isinstance(v, str),
    "reach_m": lambda v: number(v, 0.5, 100),
    "skill": lambda v: isinstance(v, str) and v != "",
}
WEAPON_HELP = {
    "damage": "dice like 1d8 or 2d6+1 (0..20 dice of 1..100 sides) or a whole number 0..100",
    "size": "one of light, small, medium, large", "range_m": "metres, 0 = melee", "reach_m": "metres, 0.5..100",
    "skill": "a skill name", "type": "a damage type name", "name": "a name",
}


def check_character(raw: dict, file: str, key: str) -> None:
    """The baton keys the schema's types cannot check (RulesetInfo.character_check): weapon tables, attribute and
    skill names, item counts."""

    check_weapons(raw.get("weapons"), WEAPON, WEAPON_HELP, file, key)
    attrs, skills, weapons = raw.get("attributes"), raw.get("skills"), raw.get("weapons")
    check_names(attrs if isinstance(attrs, dict) else {}, skills if isinstance(skills, dict) else {},
                weapons if isinstance(weapons, list) else [], file, key)
    items = raw.get("items")
    if isinstance(items, dict):
        for k, v in items.items():
            if not number(v, 0, 1000, True):
                raise SceneError(file, f"{key}.items.{k}", "a count 0..1000")
