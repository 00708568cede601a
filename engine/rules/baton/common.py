"""Module-level names of the Baton ruleset (shared by its ruleset, parts and actions)."""

from __future__ import annotations

CONDITIONS = {
    "grappled": "BAT-54", "grappling": "BAT-55", "shaken": "BAT-56", "prone": "BAT-57", "confused": "BAT-58",
    "exposed": "BAT-59", "slow": "BAT-60", "paralyzed": "BAT-61", "petrified": "BAT-62", "stuck": "BAT-63",
    "overloaded": "BAT-64", "unaware": "BAT-37", "helpless": "BAT-37", "hallucinating": "BAT-53",
    "frozen": "AIR-10",   # Congelado (AIR-10): GM-applied; takes a flyer's movement, so it falls
}
#: What the conditions do, as tags: each tag lists its conditions in the order the rules report them. Code asks
#: for a tag (``skills.tagged(rs, actor, tag)``), not for names.
CONDITION_TAGS = {
    "grounds_flyer": ("prone", "paralyzed", "petrified", "stuck", "frozen"),   # AIR-10 with BAT-57, BAT-61..63
    "speed_zero": ("petrified", "paralyzed", "stuck", "frozen"),          # BAT-61..63 (frozen: AIR-10): cannot move
    "no_counterattack": ("paralyzed",),   # BAT-61 with BAT-13: no counterattack, so no opportunity attack (BAT-38)
}
NEEDS_MOVEMENT = ("move", "stand", "dash", "charge", "drop", "dismount")
MAJOR = ("attack", "charge", "create_opportunity", "disarm", "dash", "grab", "trip", "push", "break_free",
         "resist_poison", "extinguish", "take_item_backpack", "use_power_major")
MINOR = ("equip", "stow", "drop_item", "pick_up", "drink", "take_item_pocket", "shout", "use_power_minor")
DIRECT = ("direct", "necrotic", "fire", "falling", "caustic", "latent")
FATIGUE = ("fatigue",)
#: BAT-53 "qualquer teste relacionado a discernir a realidade": of the skills, the one that perceives what is there
REALITY_SKILLS = ("perception",)
PROTECTION_PENALTY = ("agility", "athletics", "dodge", "stealth", "acrobatics", "climb", "swim")
DIRS8 = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
GM_ACTIONS = ("damage", "condition", "poison", "fire", "breath")
ANYONE_ACTIONS = ("wait", "day")
OUT_OF_COMBAT = ("rest", "treat", "wait", "day", "move", "equip", "stow", "drink", "pick_up", "drop_item",
                 "take_item", "dismount")


def _rule_of(cond: str) -> str:
    return CONDITIONS.get(cond, "")
