"""The character keys of a D&D 5e scene (validated by the scene loader; unknown keys are errors)."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from engine.errors import SceneError
from engine.rules.schemas import _Strict
from engine.rules.dnd5e import srd_action_check, srd_exposure, srd_features, srd_hits_text, srd_senses, srd_shape_data, srd_sheet, srd_swallow_text
from engine.rules.validate import DICE_MAX, SIDES_MAX, check_weapons, dice_expr, number


class Dnd5eStats(_Strict, frozen=True):
    max_hp: int | None = None
    hp: int | None = None               # defaults to max_hp
    temp_hp: int = 0
    ac: int | None = None
    speed_m: float | None = None
    fly_speed_m: float | None = None    # absent: cannot fly
    swim_speed_m: float | None = None
    abilities: dict[str, int] = msgspec.field(default_factory=dict)      # str dex con int wis cha; each defaults to 10
    level: int | None = None
    weapons: list[Any] = msgspec.field(default_factory=list)             # names from the built-in table, or tables with their own stats
    initiative: int | None = None       # a fixed result the GM entered; rolled when absent
    reach_m: float | None = None
    conditions: list[str] = msgspec.field(default_factory=list)
    resistances: list[str] = msgspec.field(default_factory=list)
    vulnerabilities: list[str] = msgspec.field(default_factory=list)
    immunities: list[str] = msgspec.field(default_factory=list)
    proficiency: int | None = None
    skills: dict[str, int] = msgspec.field(default_factory=dict)
    saves: list[str] = msgspec.field(default_factory=list)
    spells: list[Any] = msgspec.field(default_factory=list)
    sneak_attack: bool | None = None
    mount: str | None = None
    controlled_mount: bool | None = None
    underwater: bool = False
    hidden: bool = False
    invisible: bool = False
    pc: bool | None = None
    attacks: int | None = None          # attacks per Attack action (Extra Attack / Multiattack)
    spell_slots: dict[str, int] | None = None   # {"1": 4, "2": 3}; absent: slots are not tracked
    slots: dict[str, int] | None = None         # the same (``slots = {1 = 4, 2 = 3}``); absent with SRD spells: by level
    spellcasting: str | None = None     # casting ability (int/wis/cha); default: the highest of the three
    items: list[str] = msgspec.field(default_factory=list)               # objects usable with Use an Object (potion_of_healing...)
    stable: bool = False
    tools: dict[str, Literal["carried", "proficient", "expertise"]] = {}   # thieves_tools = "expertise" (DND-39)
    feats: list[str] = msgspec.field(default_factory=list)              # DND-F01..F42, snake_case names
    # {resilient = "con", elemental_adept = "fire"}; a feat taken several times (Elemental Adept, DND-F02): a list
    feat_choices: dict[str, str | list[str]] = msgspec.field(default_factory=dict)
    reactions: dict[str, bool] = msgspec.field(default_factory=dict)    # {opportunity_attack = false}: decline (default take)
    # dnd5e/gear.py (issue 12's feats on gear): all optional, a sheet without them plays as before
    armor: str | dict[str, Any] | None = None   # "chain_mail" (the SRD table) or {name, category, ac, dex_cap, ...}
    shield: bool = False                         # +2 AC (with armor or 10 + Dex)
    armor_proficiencies: list[str] | None = None    # light / medium / heavy / shields; absent: what it wears
    weapon_proficiencies: list[str] | None = None   # simple / martial / weapon names; absent: what it carries
    feat_weapons: list[str] | None = None        # Weapon Master's four (DND-F18); absent: the weapons it carries
    hit_die: int | None = None                   # 6 / 8 / 10 / 12 (default 8)
    hit_dice: int | None = None                  # hit dice left (default: its level)
    # the SRD's creatures (srd_blocks.character; engine/rules/dnd5e/srd_traits.py plays them)
    condition_immunities: list[str] = msgspec.field(default_factory=list)   # SRD-04
    hover: bool = False                                                     # SRD-08
    srd_traits: list[str] = msgspec.field(default_factory=list)             # flyby, pack tactics, ... (SRD-07..11)
    not_modelled: dict[str, str] = msgspec.field(default_factory=dict)      # a block's features kept as text only
    creature_actions: list[dict[str, Any]] = msgspec.field(default_factory=list)  # save actions (SRD-12, SRD-05)
    multiattack: list[dict[str, int]] = msgspec.field(default_factory=list)       # SRD-01: {attack: count} each
    legendary_resistance: int = 0                                                  # SRD-14: uses per day
    legendary: dict[str, Any] | None = None                                        # SRD-15: {points, options}
    death_burst: dict[str, Any] | None = None                                      # SRD-18: its save when it dies
    # SRD-50, -51, -53: {dc, attack, level, innate = {spell = uses per day, 0 at will}} (srd_spellbook.keys)
    srd_spellcasting: dict[str, Any] | None = None
    creature_type: str | None = None        # the SRD's type (fiend, beast...): Dispel Evil and Good, Polymorph (SPL-15..)
    srd_features: dict[str, Any] | None = None                 # SRD-30..49: srd_features.py (its docstring)
    parry: int = 0                                  # SRD-73: the AC its Parry reaction adds (srd_parry.py)
    srd_swallow: dict[str, Any] | None = None                  # SRD-43: srd_swallow_text.py (its docstring)
    srd_engulf: dict[str, Any] | None = None                   # SRD-44, -45: srd_swallow_text.py (its docstring)
    srd_exposure: dict[str, Any] | None = None                 # SRD-81..86: srd_exposure.py (its docstring)
    srd_shapes: dict[str, Any] | None = None                   # SRD-89..96: srd_shape_data.py (its docstring)
    srd_hits: dict[str, Any] | None = None                     # SRD-59, -64: srd_hits_text.py (its sheet key)
    srd_senses: dict[str, Any] | None = None                   # SRD-97..101: srd_senses.py (its docstring)


# -- what the types cannot say: the weapon shape's values, hit dice and spell slots (checked when the scene loads)
WEAPON = {
    "name": lambda v: isinstance(v, str) and v.strip() != "",
    "damage": dice_expr,
    "versatile": lambda v: v is None or dice_expr(v),
    "type": lambda v: isinstance(v, str),
    "properties": lambda v: isinstance(v, list) and all(isinstance(i, str) for i in v),
    "range": lambda v: v is None or (isinstance(v, list) and len(v) == 2 and all(number(i, 0.1, 10000) for i in v)
                                     and v[0] <= v[1]),
    "reach_m": lambda v: number(v, 0.5, 100),
    "to_hit": lambda v: number(v, -50, 50, True),
    "damage_bonus": lambda v: number(v, -50, 50, True),
    "on_hit": lambda v: isinstance(v, dict) and isinstance(v.get("dc"), int) and v.get("ability") in (
        "str", "dex", "con", "int", "wis", "cha") and isinstance(v.get("damage", []), list)
        and set(v) <= {"dc", "ability", "damage", "half", "condition", "repeat_save", "rider"}
        and (v.get("rider") is None or isinstance(v["rider"], dict) and v["rider"].get("kind") in ("poison_at_zero", "drain", "slay", "sleep", "blight", "pull", "curse", "wound",
                                                       "petrify")),
    "grapple": lambda v: isinstance(v, dict) and isinstance(v.get("escape_dc"), int) and v.get("max_size") in (
        None, "tiny", "small", "medium", "large", "huge", "gargantuan")
        and set(v) <= {"escape_dc", "max_size", "restrained", "one_target", "max_held", "each_turn",
                         "advantage_held"},
    "crit_dice": lambda v: number(v, 2, 4, True),                                      # SRD-21
    "ignite": lambda v: isinstance(v, dict) and set(v) == {"dice", "when"} and dice_expr(v["dice"])
        and v["when"] in ("start", "end"),                                           # SRD-56
    "drink": lambda v: isinstance(v, dict) and set(v) <= {"rises_as"} and isinstance(v.get("rises_as", ""), str),
    # SRD-48
    "alternative": lambda v: isinstance(v, dict) and set(v) == {"damage", "when"} and dice_expr(v["damage"])
        and v["when"] in ("two_hands", "ranged", "bloodied", "small_form"),         # SRD-21, SRD-106
    "extra": lambda v: isinstance(v, list) and len(v) <= 8 and all(
        isinstance(e, dict) and {"damage", "type"} <= set(e) <= {"damage", "type", "bonus"} and dice_expr(e["damage"])
        and isinstance(e["type"], str) and number(e.get("bonus", 0), -50, 50, True) for e in v),
}
WEAPON_HELP = {
    "damage": f"dice like 1d8 or 2d6 (1..{DICE_MAX} dice of 1..{SIDES_MAX} sides; a bonus goes in damage_bonus)",
    "versatile": "dice like 1d10", "range": "[normal, long] in metres", "reach_m": "metres, 0.5..100",
    "to_hit": "an integer -50..50", "damage_bonus": "an integer -50..50", "properties": "a list of names",
    "type": "a damage type name", "name": "a name",
    "on_hit": "{dc, ability, damage = [{dice, type}], half, condition, repeat_save}: the save a hit forces (SRD-13)",
    "extra": "a list of {damage = \"1d6\", type = \"fire\", bonus = 0}: damage a hit adds (SRD-02)",
    "ignite": "{dice = \"1d10\", when = \"start\" | \"end\"}: a hit that sets the target burning (SRD-56)",
    "drink": "{rises_as = \"vampire spawn\"}: the vampire's Bite, its targets and its drain (SRD-48)",
    "crit_dice": "2..4: how many times a critical hit rolls the damage dice (SRD-21)",
    "alternative": "{damage = \"1d8\", when = \"two_hands\" | \"ranged\" | \"bloodied\" | \"small_form\"}: the other "
                   "dice (SRD-21, SRD-106)",
    "grapple": "{escape_dc, max_size, restrained, one_target}: a hit that grapples (SRD-19)",
}


def check_character(raw: dict, file: str, key: str) -> None:
    """The 5e keys the schema's types cannot check (RulesetInfo.character_check): weapon tables, hit dice, slots."""
    check_weapons(raw.get("weapons"), WEAPON, WEAPON_HELP, file, key)
    srd_sheet.check(raw, file, key)
    srd_features.check(raw, file, key)
    srd_swallow_text.check(raw, file, key)
    srd_exposure.check(raw, file, key)
    srd_shape_data.check(raw, file, key)
    srd_hits_text.check(raw, file, key)
    srd_senses.check(raw, file, key)
    srd_action_check.check(raw, file, key)
    if raw.get("hit_dice") is not None and not number(raw["hit_dice"], 0, 30, True):
        raise SceneError(file, f"{key}.hit_dice", f"hit dice left: an integer 0..30, got {raw['hit_dice']!r}")
    for name in ("spell_slots", "slots"):
        _check_slots(raw.get(name), file, key, name)


def _check_slots(slots, file, key: str, name: str) -> None:
    if isinstance(slots, dict):
        for k, v in slots.items():
            if k not in {str(i) for i in range(1, 10)} or not number(v, 0, 20, True):
                raise SceneError(file, f"{key}.{name}.{k}", "spell level 1..9 = slots 0..20")
