"""The D&D 5e ruleset's options (scene ``[options]``): type, allowed values, default, the rule each one reads."""

from __future__ import annotations

from engine.errors import AerieError
from engine.rules.options import AERIAL, OptionSpec, choice

def _material_names(value, path):
    if not (isinstance(value, list) and len(value) <= 255 and all(isinstance(v, str) and v for v in value)):
        raise AerieError(f"{path}: a list of material names, e.g. [\"river\"], got {value!r}")
    return list(value)


SPECS = {
    **AERIAL,
    "fall_roll_on": choice("hit", help="AIR-11: which attack results force a fall roll"),
    "nat20_death_save": choice("two_successes", "regain_1hp", help="DND-03"),
    "prone_ranged": choice("disadvantage", "none", help="DND-48"),
    "grounding_grappler": choice("not_flying", "can_fly", help="AIR-10"),
    "half_cover_dex_saves": OptionSpec("bool", False, help="DND-32: half cover adds +2 to Dexterity saves too (the "
                                                           "rulebook; the document gives half cover +2 AC only)"),
    "temp_hp": choice("keep_higher", "replace", help="DND-35"),
    "monsters_die_at_0": OptionSpec("bool", True, help="pc = false creatures die at 0 HP"),
    "sneak_attack_per": choice("round", "turn", help="DND-38"),
    "creatures_give_cover": OptionSpec("bool", True, help="DND-32: a creature in the way is half cover"),
    "mount_oa_target": choice("mount", "rider", help="DND-36"),
    # issue 12: the readings fixed against the documents, each with the old one as a choice
    "temp_hp_at_zero": choice("absorb", "failure_first", help="DND-35 with DND-04: temporary HP absorb damage at 0 HP before a death-save failure"),
    "stable_damage": choice("restart", "keep_counts", help="DND-05: damage to a stable creature restarts its death saves from zero"),
    "frightened_move": choice("always", "in_sight", help="DND-49: never willingly closer to the source (always) or only while it is seen"),
    "incapacitated_flyer": choice("falls_now", "end_of_turn", help="AIR-10: a flyer that loses its bonus action falls at once or at its turn's end"),
    "fall_damage_type": choice("bludgeoning", "untyped", help="5e: falling damage is bludgeoning (resistance applies) or untyped (old reading)"),
    "dodge_unseen": choice("disadvantage", "needs_sight", help="DND-24: Dodge gives every attack disadvantage (the digest) or only seen attackers (5e)"),
    "hide_passive": choice("searchers", "passive_perception",
                           help="DND-23: Hide is contested by searchers only (the document) or also noticed by a "
                                "hostile's passive Perception (the SRD; Observant's +5 counts)"),
    "durable_minimum": choice("die", "regain",
                              help="DND-F23: a hit die's result below 2 x Con mod counts as it (the document) or "
                                   "at least 2 x Con mod regained per die (the SRD)"),
    # issue 24: the feats clause by clause (docs/rules.md quotes each line)
    "feat_prerequisites": choice("document", "rulebook",
                                 help="DND-F00: the document's prerequisites only, or also the rulebook's Dex 13 "
                                      "(Skulker), Str 13 (Grappler) and a spell (War Caster)"),
    "sentinel_exempt": choice("target", "attacker",
                              help="DND-F37: who, having Sentinel, gets no reaction attack: the attacked target (the "
                                   "rulebook's sentence) or the attacker"),
    "knock_out": choice("any_attack", "melee", help="DND-34: any attack may knock out at 0 HP (the document) or a melee "
                                                   "attack only (the rulebook)"),
    "moderately_armored_prereq": choice("light", "medium",
                                        help="DND-F33: the prerequisite is light armour proficiency (the SRD) or, "
                                             "as written, medium"),
    "athlete_climb": choice("air07", "free", help="DND-F04: climbing costs AIR-07's climb (the default) or no extra "
                                                 "movement for an Athlete"),
    "gwm_power_attack": choice("heavy", "melee",
                               help="DND-F16: Great Weapon Master's -5 / +10 with any heavy weapon it is proficient "
                                    "with, a longbow too (the document) or a heavy melee weapon only (the rulebook)"),
    "charger_attack": choice("any", "melee",
                             help="DND-F31: Charger's bonus attack after Dash is any one weapon attack (the document: "
                                  "\"raz zaatakować\") or a melee weapon attack, not a throw (the rulebook)"),
    "mounted_combatant_attack": choice("any", "melee",
                                       help="DND-F12: Mounted Combatant's advantage against an unmounted creature "
                                            "smaller than its mount on any attack roll (the document: \"w testach "
                                            "ataku\") or on melee attacks only (the rulebook)"),
    "spell_names": choice("legacy", "srd", help="SPL-01: fireball, thunderwave and entangle by name are the older "
                                                "entries (legacy) or the SRD's data (srd: 3D areas, upcasting)"),
    "elemental_adept_ones": choice("spells", "any_damage",
                                   help="DND-F02: 1s count as 2 on its spells' damage dice or on any damage of the "
                                        "element it deals"),
    # issue 44: the flyers' traits about breathing and light (srd_breath.py)
    "suffocation": OptionSpec("bool", True, help="SRD-81: a creature underwater that breathes air holds its breath, "
                                                 "then suffocates (false: no one suffocates)"),
    "running_water": OptionSpec("custom", [], check=_material_names,
                                help="SRD-86: the names of the scene's materials that are running water (a river's, a "
                                     "stream's: a vampire's weakness; a body in them is in water too, SRD-81)"),
    "light": choice("unstated", "bright", "sunlight",
                    help="SRD-83: the scene's light: unstated (no trait reads it), bright light everywhere, or "
                         "sunlight (bright light; in sunlight where the open sky is above a creature)"),
    # issue 44: senses and being perceived (srd_sight.py)
    "false_appearance": OptionSpec("bool", True, help="SRD-100: a creature with False Appearance, motionless since "
                                                      "the fight began, is taken for an object by its foes (no "
                                                      "target, unseen) until it moves or acts; false: the other "
                                                      "reading (no surprise here, so the trait does nothing)"),
}
