"""Baton data: weapons, armour, the damage scale, fire sources, poisons, potions and ready stat blocks.

Where the document gives no table (BAT-50 fire, potions, stat blocks) these are Aerie's own data, documented in
docs/baton.md; scenes may override weapons inline and the fire table with ``[options] fire_sources``.
"""

from __future__ import annotations

from typing import Any

# name: (damage, size, range_m, type)   size: light | small | medium | large ("medium and large weapons add
# Physique", BAT-36); range_m 0 = melee; type: cutting | piercing | blunt (BAT-29 bandage vs splint)
WEAPONS: dict[str, Any] = {
    "unarmed": ("1d2", "light", 0, "blunt"),
    "dagger": ("1d4", "light", 0, "piercing"),
    "shortsword": ("1d6", "small", 0, "piercing"),
    "club": ("1d4", "small", 0, "blunt"),
    "mace": ("1d6", "medium", 0, "blunt"),
    "longsword": ("1d8", "medium", 0, "cutting"),
    "axe": ("1d8", "medium", 0, "cutting"),
    "spear": ("1d8", "medium", 0, "piercing"),
    "lance": ("1d10", "large", 0, "piercing"),
    "greatsword": ("1d10", "large", 0, "cutting"),
    "greataxe": ("1d12", "large", 0, "cutting"),
    "claws": ("1d6", "small", 0, "cutting"),
    "talons": ("1d6", "small", 0, "piercing"),
    "bite": ("1d8", "medium", 0, "piercing"),
    "shortbow": ("1d6", "small", 24, "piercing"),
    "longbow": ("1d8", "medium", 45, "piercing"),
    "crossbow": ("1d10", "medium", 30, "piercing"),
    "sling": ("1d4", "light", 15, "blunt"),
    "javelin": ("1d6", "small", 9, "piercing"),
}

# armour layers (BAT-16): name -> Protection
ARMOUR: dict[str, Any] = {
    "padded": 2, "gambeson": 3, "leather": 3, "mail": 6, "scale": 7, "plate": 9, "helmet": 1, "shield": 2,
    "hide": 2,
}

# BAT-00 (inferred): one step moves one place along this list; past the end, +1 per step
DAMAGE_SCALE = ("1d2", "1d3", "1d4", "1d6", "1d8", "1d10", "1d12")

# BAT-50 (GAP: the document's table is missing): source -> (base severity, growth per turn in contact)
FIRE_SOURCES = {
    "candle": (1, 0),
    "torch": (1, 1),
    "campfire": (2, 1),
    "burning_oil": (2, 2),
    "bonfire": (3, 2),
    "dragon_fire": (4, 3),
    "lava": (6, 4),
}

POISONS = ("hallucinogenic", "caustic", "inoculant", "neurotoxic", "latent")

# potions (not in the document; Aerie's data): name -> effect
POTIONS = {
    "healing": {"heal_wound": "1d6", "magical": True},   # lowers the worst wound; magic heals necrotic (BAT-51)
    "vigor": {"vigor": "1d6"},
    "antidote": {"cure_poison": True},
}

SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")

# ready stat blocks by ``kind``: keys a scene character omits are taken from here
KINDS: dict[str, Any] = {
    "knight": {"attributes": {"physique": 3, "agility": 1}, "skills": {"fight_longsword": 3, "shield": 2, "dodge": 1,
               "athletics": 1, "ride": 2}, "armour": ["mail", "helmet", "shield"],
               "weapons": ["longsword", "lance"], "speed_m": 9.0},
    "archer": {"attributes": {"physique": 1, "agility": 3}, "skills": {"fight_longbow": 3, "fight_dagger": 1,
               "dodge": 2, "agility": 0}, "armour": ["leather"], "weapons": ["longbow", "dagger"], "speed_m": 9.0},
    "brigand": {"attributes": {"physique": 2, "agility": 2}, "skills": {"fight_axe": 2, "fight_shortbow": 1,
                "dodge": 2, "athletics": 1}, "armour": ["leather"], "weapons": ["axe", "shortbow"], "speed_m": 9.0},
    "harpy": {"attributes": {"physique": 1, "agility": 3}, "skills": {"fight_talons": 3, "dodge": 3},
              "weapons": ["talons"], "speed_m": 6.0, "fly_speed_m": 12.0},
    "griffon": {"attributes": {"physique": 4, "agility": 2}, "skills": {"fight_talons": 3, "fight_bite": 2,
                "defence": 2, "dodge": 2}, "weapons": ["talons", "bite"], "speed_m": 9.0, "fly_speed_m": 15.0},
    "wolf": {"attributes": {"physique": 2, "agility": 3}, "skills": {"fight_bite": 3, "dodge": 2},
             "weapons": ["bite"], "speed_m": 12.0},
    "skeleton": {"attributes": {"physique": 1, "agility": 1}, "skills": {"fight_shortsword": 2, "shield": 1},
                 "armour": ["shield"], "weapons": ["shortsword"], "speed_m": 9.0, "undead": True},
}
