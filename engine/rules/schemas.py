"""Per-ruleset character keys in scene files. Unknown keys are errors that name the key path.

The scene loader validates the keys common to every ruleset (id, side, at, flying, size...) itself and hands the
rest of each character table to the schema of the scene's ruleset.
"""

from __future__ import annotations

from typing import Any

import msgspec


class _Strict(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    pass


class Dnd5eStats(_Strict):
    max_hp: int | None = None
    hp: int | None = None               # defaults to max_hp
    temp_hp: int = 0
    ac: int | None = None
    speed_m: float | None = None
    fly_speed_m: float | None = None    # absent: cannot fly
    swim_speed_m: float | None = None
    abilities: dict[str, int] = {}      # str dex con int wis cha; each defaults to 10
    level: int | None = None
    weapons: list[Any] = []             # names from the built-in table, or tables with their own stats
    initiative: int | None = None       # a fixed result the GM entered; rolled when absent
    reach_m: float | None = None
    conditions: list[str] = []
    resistances: list[str] = []
    vulnerabilities: list[str] = []
    immunities: list[str] = []
    proficiency: int | None = None
    skills: dict[str, int] = {}
    saves: list[str] = []
    spells: list[Any] = []
    sneak_attack: bool | None = None
    mount: str | None = None
    controlled_mount: bool | None = None
    underwater: bool = False
    hidden: bool = False
    invisible: bool = False
    pc: bool | None = None
    attacks: int | None = None          # attacks per Attack action (Extra Attack / Multiattack)
    spell_slots: dict[str, int] | None = None   # {"1": 4, "2": 3}; absent: slots are not tracked
    spellcasting: str | None = None     # casting ability (int/wis/cha); default: the highest of the three
    items: list[str] = []               # objects usable with Use an Object (potion_of_healing...)
    stable: bool = False


class BatonStats(_Strict):
    pc: bool = False
    attributes: dict[str, int] = {}
    skills: dict[str, int] = {}
    protection: int | None = None
    armour: list[Any] = []
    weapons: list[Any] = []
    speed_m: float | None = None
    fly_speed_m: float | None = None
    surprised: bool = False
    vigor: int | None = None
    wounds: list[Any] = []
    conditions: list[str] = []
    defence: str | None = None          # dodge | shield | defence | none: the defence skill it resists with (BAT-14)
    mount: str | None = None            # id of the character it rides (BAT-42)
    destiny: int | None = None          # the players' Destiny pool (BAT-36), given on any PC
    items: dict[str, int] = {}          # bandage, splint, potion_healing, ... -> count
    equipped: list[str] = []            # weapons in hand: [main, off]; default: the first weapon
    counterattack: bool = False         # gear or ability granting counterattacks (BAT-13)
    undead: bool | None = None          # divine damage is always critical against it (BAT-52)
    reach_m: float | None = None        # melee reach (default 1.5 m)


_SCHEMAS: dict[str, type] = {"dnd5e": Dnd5eStats, "baton": BatonStats}


def character_schema(ruleset: str) -> type:
    return _SCHEMAS[ruleset]


def register_schema(ruleset: str, schema: type) -> None:
    _SCHEMAS[ruleset] = schema
