"""The character keys of a baton scene (validated by the scene loader; unknown keys are errors)."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.rules.schemas import _Strict


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
