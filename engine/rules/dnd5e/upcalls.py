"""The 5e functions a lower layer calls but a higher one defines (engine/rules/layers.py): each slot declares its
names here; the module above fills it when it loads (``FEAT.provide(...)`` at the end of feats.py) and the module
below calls ``FEAT.lucky_save(...)`` -- it never imports the module above. The ruleset imports every provider."""

from __future__ import annotations

from engine.rules.hooks import Upcalls

#: the feats' rules the attack, the save, the contest and the damage reach at their moments (feats.py provides)
FEAT = Upcalls("5e feats (dnd5e/feats.py)", (
    "after_attack", "attack_mods", "bonus_contest_refusal", "bonus_contest_source", "cover_ignored",
    "defensive_duelist", "drop_sources", "extra_advantage", "lucky_cancels", "lucky_check", "lucky_defence",
    "lucky_save", "manoeuvre_effect", "mounted_redirect", "power_attack_feat", "reaction_plan", "save_advantage",
    "sentinel_hit", "unpin", "war_caster_spell"))
#: the spells an attack's trigger or a feat casts (dnd5e/actions/magic.py provides)
SPELL = Upcalls("5e spells (dnd5e/actions/magic.py)", (
    "check_target", "release_readied", "spell_attack", "spell_effect", "spell_plan"))
#: concentration broken when its caster becomes incapacitated (dnd5e/concentration.py provides)
CONCENTRATION = Upcalls("5e concentration (dnd5e/concentration.py)", ("incapacitated",))
#: a rider falling off, a mount falling under its rider (dnd5e/mounts.py provides)
MOUNT = Upcalls("5e mounts (dnd5e/mounts.py)", ("fall_off_mount", "mount_fell"))
