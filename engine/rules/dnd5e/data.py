"""5e data: the basic weapons, a few spells, ready stat blocks, the fourteen conditions. Metric: 5 ft = 1.5 m."""

from __future__ import annotations

from typing import Any

# name: (damage dice, type, properties, (normal, long) range in m or None, versatile dice or None)
# properties: finesse light thrown reach heavy two-handed ammunition loading versatile
_W = {
    # simple melee
    "club": ("1d4", "bludgeoning", ("light",), None, None),
    "dagger": ("1d4", "piercing", ("finesse", "light", "thrown"), (6, 18), None),
    "greatclub": ("1d8", "bludgeoning", ("two-handed",), None, None),
    "handaxe": ("1d6", "slashing", ("light", "thrown"), (6, 18), None),
    "javelin": ("1d6", "piercing", ("thrown",), (9, 36), None),
    "light_hammer": ("1d4", "bludgeoning", ("light", "thrown"), (6, 18), None),
    "mace": ("1d6", "bludgeoning", (), None, None),
    "quarterstaff": ("1d6", "bludgeoning", ("versatile",), None, "1d8"),
    "sickle": ("1d4", "slashing", ("light",), None, None),
    "spear": ("1d6", "piercing", ("thrown", "versatile"), (6, 18), "1d8"),
    # simple ranged
    "light_crossbow": ("1d8", "piercing", ("ammunition", "loading", "two-handed", "ranged"), (24, 96), None),
    "dart": ("1d4", "piercing", ("finesse", "thrown", "ranged"), (6, 18), None),
    "shortbow": ("1d6", "piercing", ("ammunition", "two-handed", "ranged"), (24, 96), None),
    "sling": ("1d4", "bludgeoning", ("ammunition", "ranged"), (9, 36), None),
    # martial melee
    "battleaxe": ("1d8", "slashing", ("versatile",), None, "1d10"),
    "flail": ("1d8", "bludgeoning", (), None, None),
    "glaive": ("1d10", "slashing", ("heavy", "reach", "two-handed"), None, None),
    "greataxe": ("1d12", "slashing", ("heavy", "two-handed"), None, None),
    "greatsword": ("2d6", "slashing", ("heavy", "two-handed"), None, None),
    "halberd": ("1d10", "slashing", ("heavy", "reach", "two-handed"), None, None),
    "lance": ("1d12", "piercing", ("reach",), None, None),
    "longsword": ("1d8", "slashing", ("versatile",), None, "1d10"),
    "maul": ("2d6", "bludgeoning", ("heavy", "two-handed"), None, None),
    "morningstar": ("1d8", "piercing", (), None, None),
    "pike": ("1d10", "piercing", ("heavy", "reach", "two-handed"), None, None),
    "rapier": ("1d8", "piercing", ("finesse",), None, None),
    "scimitar": ("1d6", "slashing", ("finesse", "light"), None, None),
    "shortsword": ("1d6", "piercing", ("finesse", "light"), None, None),
    "trident": ("1d6", "piercing", ("thrown", "versatile"), (6, 18), "1d8"),
    "war_pick": ("1d8", "piercing", (), None, None),
    "warhammer": ("1d8", "bludgeoning", ("versatile",), None, "1d10"),
    "whip": ("1d4", "slashing", ("finesse", "reach"), None, None),
    # martial ranged
    "blowgun": ("1d1", "piercing", ("ammunition", "loading", "ranged"), (7.5, 30), None),
    "hand_crossbow": ("1d6", "piercing", ("ammunition", "light", "loading", "ranged"), (9, 36), None),
    "heavy_crossbow": ("1d10", "piercing", ("ammunition", "heavy", "loading", "two-handed", "ranged"), (30, 120), None),
    "longbow": ("1d8", "piercing", ("ammunition", "heavy", "two-handed", "ranged"), (45, 180), None),
    "net": ("0d4", "bludgeoning", ("thrown", "ranged", "special"), (1.5, 4.5), None),
    # natural weapons used by the stat blocks
    "unarmed": ("1d1", "bludgeoning", (), None, None),
    "claws": ("2d4", "slashing", (), None, None),
    "talons": ("2d6", "slashing", (), None, None),
    "beak": ("1d8", "piercing", (), None, None),
    "bite": ("1d10", "piercing", ("reach",), None, None),
    "stinger": ("2d6", "piercing", ("reach",), None, None),
}

WEAPONS: dict[str, Any] = {}
for _n, (_d, _t, _p, _r, _v) in _W.items():
    WEAPONS[_n] = {"name": _n, "damage": _d, "type": _t, "properties": list(_p),
                   "range": list(_r) if _r else None, "versatile": _v}

UNDERWATER_MELEE_OK = {"dagger", "javelin", "shortsword", "spear", "trident"}          # DND-37
UNDERWATER_RANGED_OK = {"light_crossbow", "hand_crossbow", "heavy_crossbow", "net", "javelin", "spear", "trident", "dart"}

# Spells as data. kind: attack (spell attack roll) | save | auto | heal | temp_hp. concentration: the caster holds
# it (the SRD's spells: hold person, entangle, cause fear; concentration.py)
SPELLS: dict[str, Any] = {
    "fire_bolt": {"level": 0, "time": "action", "range_m": 36, "kind": "attack", "damage": "1d10", "type": "fire", "scales": True},
    "ray_of_frost": {"level": 0, "time": "action", "range_m": 18, "kind": "attack", "damage": "1d8", "type": "cold", "scales": True},
    "eldritch_blast": {"level": 0, "time": "action", "range_m": 36, "kind": "attack", "damage": "1d10", "type": "force", "scales": True},
    "sacred_flame": {"level": 0, "time": "action", "range_m": 18, "kind": "save", "save": "dex", "damage": "1d8", "type": "radiant", "half": False, "ignores_cover": True, "scales": True},
    "magic_missile": {"level": 1, "time": "action", "range_m": 36, "kind": "auto", "damage": "1d4", "bonus": 1, "darts": 3, "type": "force"},
    "burning_hands": {"level": 1, "time": "action", "range_m": 4.5, "kind": "save", "save": "dex", "damage": "3d6", "type": "fire", "half": True, "area": {"shape": "cone", "length_m": 4.5}},
    "thunderwave": {"level": 1, "time": "action", "range_m": 4.5, "kind": "save", "save": "con", "damage": "2d8", "type": "thunder", "half": True, "area": {"shape": "self", "radius_m": 4.5}, "push_cells": 2},
    "cure_wounds": {"level": 1, "time": "action", "range_m": 1.5, "kind": "heal", "heal": "1d8"},
    "healing_word": {"level": 1, "time": "bonus", "range_m": 18, "kind": "heal", "heal": "1d4"},
    "false_life": {"level": 1, "time": "action", "range_m": 0, "kind": "temp_hp", "amount": "1d4", "bonus": 4},
    "hold_person": {"level": 2, "time": "action", "range_m": 18, "kind": "save", "save": "wis", "condition": "paralyzed", "repeat_save": True, "concentration": True},
    "entangle": {"level": 1, "time": "action", "range_m": 27, "kind": "save", "save": "str", "condition": "restrained", "area": {"shape": "sphere", "radius_m": 3}, "concentration": True},
    "fireball": {"level": 3, "time": "action", "range_m": 45, "kind": "save", "save": "dex", "damage": "8d6", "type": "fire", "half": True, "area": {"shape": "sphere", "radius_m": 6}},
    "blindness": {"level": 2, "time": "action", "range_m": 9, "kind": "save", "save": "con", "condition": "blinded", "repeat_save": True},
    "cause_fear": {"level": 1, "time": "action", "range_m": 18, "kind": "save", "save": "wis", "condition": "frightened", "repeat_save": True, "concentration": True},
}

CONDITIONS = ("blinded", "charmed", "deafened", "frightened", "grappled", "incapacitated", "invisible",
              "paralyzed", "petrified", "poisoned", "prone", "restrained", "stunned", "unconscious", "frozen")
#: What the conditions do, as tags: each tag lists the conditions that carry it, in the order the rules report
#: them (the first present one names the reason). Code asks for a tag (``conditions.tagged(rs, actor, tag)``), never
#: for a list of condition names; a new condition adds itself to the tags it has.
CONDITION_TAGS = {
    "incapacitated": ("incapacitated", "unconscious", "stunned", "paralyzed", "petrified"),   # DND-43 and those that include it
    "speed_zero": ("grappled", "restrained", "stunned", "paralyzed", "petrified", "unconscious", "frozen"),
    "auto_fail_str_dex": ("unconscious", "stunned", "paralyzed", "petrified"),
    "attacked_with_advantage": ("unconscious", "stunned", "paralyzed", "petrified", "restrained", "blinded"),
    "grounds_flyer": ("prone", "unconscious", "stunned", "paralyzed", "petrified", "restrained", "frozen"),   # AIR-10
    "other_plane": ("ethereal",),        # SRD-94: on the Ethereal Plane (srd_planes.py), not one of CONDITIONS
    "cannot_hear": ("deafened",),        # DND-44; Echolocation (SRD-99) switches blindsight off with it
}
#: why a condition grounds a flyer (AIR-10), for the fall's reason
GROUNDING_TEXT = {"prone": "is Prone", "unconscious": "is unconscious", "stunned": "is stunned",
                  "paralyzed": "is paralyzed: it cannot move", "petrified": "is petrified: it cannot move",
                  "restrained": "is restrained: it loses its bonus action",
                  "frozen": "is frozen (Congelado): it loses its movement"}
INCAPACITATING = CONDITION_TAGS["incapacitated"]
SPEED_ZERO = CONDITION_TAGS["speed_zero"]
AUTO_FAIL_STR_DEX = CONDITION_TAGS["auto_fail_str_dex"]
ATTACKED_WITH_ADVANTAGE = CONDITION_TAGS["attacked_with_advantage"]
CONDITION_RULE = {"unconscious": "DND-41", "invisible": "DND-42", "incapacitated": "DND-43", "deafened": "DND-44",
                  "stunned": "DND-45", "blinded": "DND-46", "grappled": "DND-47", "prone": "DND-48",
                  "frightened": "DND-49", "petrified": "DND-50", "paralyzed": "DND-51", "restrained": "DND-52",
                  "poisoned": "DND-53", "charmed": "DND-54", "frozen": "AIR-10"}

SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")

# Ready stat blocks (kind = "..."); scene keys override any of them.
STATBLOCKS: dict[str, Any] = {
    "archer": {"max_hp": 22, "ac": 14, "speed_m": 9, "abilities": {"str": 10, "dex": 16, "con": 12, "wis": 13},
               "level": 3, "weapons": ["longbow", "shortsword"], "skills": {"perception": 1, "stealth": 1}},
    "knight": {"max_hp": 52, "ac": 18, "speed_m": 9, "abilities": {"str": 16, "dex": 11, "con": 14, "wis": 11, "cha": 15},
               "level": 5, "weapons": ["longsword", "heavy_crossbow"], "attacks": 2, "skills": {"athletics": 1}, "saves": ["con", "wis"]},
    "harpy": {"max_hp": 38, "ac": 11, "speed_m": 6, "fly_speed_m": 12, "abilities": {"str": 12, "dex": 13, "con": 12, "int": 7, "wis": 10, "cha": 13},
              "level": 3, "weapons": ["claws", "club"], "attacks": 2, "pc": False},
    "wyvern": {"max_hp": 110, "ac": 13, "speed_m": 6, "fly_speed_m": 24, "abilities": {"str": 19, "dex": 10, "con": 16, "int": 5, "wis": 12, "cha": 6},
               "level": 7, "weapons": ["bite", "stinger", "claws"], "attacks": 2, "pc": False, "controlled_mount": True},
    "wyvern_rider": {"max_hp": 45, "ac": 16, "speed_m": 9, "abilities": {"str": 14, "dex": 14, "con": 14, "wis": 12},
                     "level": 5, "weapons": ["lance", "longsword", "javelin"], "attacks": 2, "skills": {"athletics": 1}},
    "griffon": {"max_hp": 59, "ac": 12, "speed_m": 9, "fly_speed_m": 24, "abilities": {"str": 18, "dex": 15, "con": 16, "int": 2, "wis": 13, "cha": 8},
                "level": 5, "weapons": ["beak", "talons"], "attacks": 2, "pc": False, "controlled_mount": True},
    "giant_eagle": {"max_hp": 26, "ac": 13, "speed_m": 3, "fly_speed_m": 24, "abilities": {"str": 16, "dex": 17, "con": 13, "int": 8, "wis": 14, "cha": 10},
                    "level": 3, "weapons": ["beak", "talons"], "attacks": 2, "pc": False},
    "rogue": {"max_hp": 27, "ac": 15, "speed_m": 9, "abilities": {"str": 10, "dex": 18, "con": 12, "wis": 12},
              "level": 5, "weapons": ["shortsword", "dagger", "shortbow"], "sneak_attack": True, "skills": {"stealth": 2, "acrobatics": 1, "perception": 1}},
    "mage": {"max_hp": 40, "ac": 12, "speed_m": 9, "abilities": {"str": 9, "dex": 14, "con": 11, "int": 17, "wis": 12},
             "level": 5, "weapons": ["dagger"], "spells": ["fire_bolt", "magic_missile", "fireball", "hold_person", "false_life", "thunderwave"]},
    "priest": {"max_hp": 27, "ac": 13, "speed_m": 9, "abilities": {"str": 10, "dex": 10, "con": 12, "wis": 16},
               "level": 5, "weapons": ["mace"], "spells": ["sacred_flame", "cure_wounds", "healing_word", "entangle"], "skills": {"medicine": 1}},
    "guard": {"max_hp": 11, "ac": 16, "speed_m": 9, "abilities": {"str": 13, "dex": 12, "con": 12, "wis": 11},
              "level": 1, "weapons": ["spear", "light_crossbow"]},
    "scout": {"max_hp": 16, "ac": 13, "speed_m": 9, "abilities": {"str": 11, "dex": 14, "con": 12, "wis": 13},
              "level": 2, "weapons": ["shortsword", "shortsword", "longbow"], "skills": {"perception": 1, "stealth": 1}},
    "duelist": {"max_hp": 30, "ac": 15, "speed_m": 9, "abilities": {"str": 12, "dex": 16, "con": 12},
                "level": 3, "weapons": ["shortsword", "scimitar", "dagger"]},
}
