"""The D&D 5e ruleset's options (scene ``[options]``): type, allowed values, default, the rule each one reads."""

from __future__ import annotations

from engine.rules.options import AERIAL, OptionSpec

SPECS = {
    **AERIAL,
    "fall_roll_on": OptionSpec("choice", "hit", choices=("hit",), help="AIR-11: which attack results force a fall roll"),
    "nat20_death_save": OptionSpec("choice", "two_successes", choices=("two_successes", "regain_1hp"), help="DND-03"),
    "prone_ranged": OptionSpec("choice", "disadvantage", choices=("disadvantage", "none"), help="DND-48"),
    "grounding_grappler": OptionSpec("choice", "not_flying", choices=("not_flying", "can_fly"), help="AIR-10"),
    "half_cover_dex_saves": OptionSpec("bool", True, help="half cover adds +2 to Dexterity saves"),
    "temp_hp": OptionSpec("choice", "keep_higher", choices=("keep_higher", "replace"), help="DND-35"),
    "monsters_die_at_0": OptionSpec("bool", True, help="pc = false creatures die at 0 HP"),
    "sneak_attack_per": OptionSpec("choice", "round", choices=("round", "turn"), help="DND-38"),
    "creatures_give_cover": OptionSpec("bool", True, help="DND-32: a creature in the way is half cover"),
    "mount_oa_target": OptionSpec("choice", "mount", choices=("mount", "rider"), help="DND-36"),
}
