"""The D&D 5e ruleset's modules and their layers (engine/rules/layers.py says what may import what; a new module
of the package is added here)."""

from engine.rules.layers import ACTIONS, DATA, QUERIES, RESOLUTION, RULES, RULESET

LAYERS: dict[str, dict[str, int]] = {"engine.rules.dnd5e": {
    "": DATA, "layers": DATA, "data": DATA, "common": DATA, "options": DATA, "schema": DATA, "text": DATA, "catalogue": DATA, "quotes": DATA,
    "feats_catalogue": DATA, "feats_data": DATA, "upcalls": DATA, "events": DATA, "spell_events": DATA,
    # the SRD's data (issues 39, 44): the spells and the stat blocks as read from assets/srd, their catalogues
    "spells_catalogue": DATA, "srd_catalogue": DATA, "srd_catalogue2": DATA, "srd_spells": DATA, "srd_blocks": DATA, "srd_scene": DATA,
    "srd_sheet": DATA, "srd_spellbook": DATA, "srd_block_grapple": DATA, "srd_actions_catalogue": DATA, "srd_rider_text": DATA, "srd_weakened": DATA,
    "srd_blight": DATA, "srd_curses": DATA, "srd_features": DATA, "srd_status": DATA, "srd_lasting_text": DATA, "srd_catalogue3": DATA, "srd_swallow_text": DATA, "srd_swallow_catalogue": DATA, "srd_charm_text": DATA, "srd_charms_catalogue": DATA,
    "srd_exposure": DATA, "srd_catalogue_breath": DATA,
    "srd_shape_data": DATA, "srd_catalogue_shapes": DATA,                # SRD-89..96 (issue 44: shapes and planes)
    "srd_misc_text": DATA, "srd_catalogue_misc": DATA,                   # SRD-105..112 (issue 44: the oni, chimera, balor)
    "srd_hits_text": DATA, "srd_catalogue_riders": DATA,                # SRD-46, -47, -59, -60 (issue 44: riders)
    "srd_senses": DATA, "srd_catalogue_sight": DATA,                     # SRD-97..101 (issue 44: senses, darkness)
    "srd_action_check": DATA,                                            # a scene's save actions, legendary options, weapons
    "areas": DATA,
    "conditions": QUERIES, "advantage": QUERIES, "figures": QUERIES, "sight": QUERIES, "gear": QUERIES,
    "loading": QUERIES, "srd_multiattack": QUERIES,
    "attack_roll": RESOLUTION, "attacks": RESOLUTION, "damage": RESOLUTION, "concentration": RESOLUTION,
    "mounts": RESOLUTION, "srd_traits": RESOLUTION, "srd_presence": RESOLUTION, "srd_grapple": RESOLUTION, "srd_alternative": RESOLUTION, "srd_riders": RESOLUTION, "srd_drink": RESOLUTION, "srd_parry": RESOLUTION,
    "turns": RULES, "feats": RULES, "feats_moments": RULES, "feats_sheet": RULES, "sheet": RULES,
    "srd_cast": RULES, "srd_lasting": RULES, "srd_air": RULES, "srd_marks": RULES, "srd_long": RULES,
    "srd_legendary": RULES, "srd_wing": RULES, "srd_breaths": RULES, "srd_detect": RESOLUTION, "srd_burst": RULES,
    "srd_casters": RESOLUTION,
    "srd_wound": RULES, "srd_consume": RULES,         # SRD-46, -47, -59, -60 (issue 44: riders)
    "srd_breath": RULES,                                                    # SRD-81..86 (issue 44: breathing, light)
    "srd_wards": RULES, "srd_brief": RULES, "srd_burning": RULES, "srd_glare": RULES, "srd_gaze": RULES, "srd_polymorph": RULES,
    "srd_lasting_actions": RULES, "srd_carry": RULES, "srd_traits2": RULES, "srd_through": RULES, "srd_auras": RULES, "srd_swarm": RULES, "srd_swallow": RULES, "srd_engulf": RULES, "srd_charms": RULES, "srd_shapes": RULES, "srd_planes": RULES, "srd_misc": RULES, "srd_sight": RULES,              # SRD-30..38 (issue 44: the flyers' traits)
    "attack_preview": ACTIONS, "listing": ACTIONS, "actions": ACTIONS, "actions.allies": ACTIONS,
    "actions.contact": ACTIONS, "actions.magic": ACTIONS, "actions.objects": ACTIONS,
    "actions.policy": ACTIONS, "actions.rest": ACTIONS, "actions.standard": ACTIONS, "actions.srd": ACTIONS, "actions.srd_wake": ACTIONS, "actions.srd_douse": ACTIONS, "actions.srd_swallow": ACTIONS, "actions.srd_engulf": ACTIONS,
    "actions.traits": ACTIONS, "actions.srd_shape": ACTIONS,
    "actions.srd_stanch": ACTIONS, "actions.near_one": ACTIONS, "actions.srd_consume": ACTIONS, "actions.srd_sight": ACTIONS,
    "ruleset": RULESET,
}}
