"""The D&D 5e ruleset (DND-01 to DND-05, DND-10 to DND-54)."""

# The 5e modules import only downward (engine/rules/layers.py), so they load in any order; the order their rules
# run in is declared on each hook (engine/rules/hooks.py), never taken from which module was imported first.
from engine.rules.registry import RulesetInfo

RULESET = RulesetInfo(
    name="dnd5e",
    title="D&D 5e",
    ruleset="engine.rules.dnd5e.ruleset:Dnd5e",
    character_check="engine.rules.dnd5e.schema:check_character",
    schema="engine.rules.dnd5e.schema:Dnd5eStats",
    # blocked fraction -> level; a level applies from its threshold up (docs/rules.md, "Cover thresholds")
    cover_levels=(("none", 0.0), ("half", 0.25), ("three-quarters", 0.75), ("total", 1.0)),
    cover_rule="DND-32",
    default=True,
    doc="docs/rules-core.md",
    extra={"character_blocks": "engine.rules.dnd5e.srd_scene:expand",     # srd = "young-red-dragon", kind = block
           "areas": "engine.rules.dnd5e.areas",      # the area arithmetic (the window draws spell areas with it)
           "catalogue": ["engine.rules.dnd5e.catalogue", "engine.rules.dnd5e.feats_catalogue",
                         "engine.rules.dnd5e.spells_catalogue", "engine.rules.dnd5e.srd_catalogue",
                         "engine.rules.dnd5e.srd_actions_catalogue",
                         "engine.rules.dnd5e.srd_catalogue2", "engine.rules.dnd5e.srd_catalogue3", "engine.rules.dnd5e.srd_swallow_catalogue",
                         "engine.rules.dnd5e.srd_charms_catalogue", "engine.rules.dnd5e.srd_catalogue_breath",
                         "engine.rules.dnd5e.srd_catalogue_shapes", "engine.rules.dnd5e.srd_catalogue_misc",
                         "engine.rules.dnd5e.srd_catalogue_riders", "engine.rules.dnd5e.srd_catalogue_sight"],
           "quotes": "engine.rules.dnd5e.quotes",     # the document's words of each DND rule
           "where": {"5e": "engine.rules.dnd5e.ruleset", "5e data": "engine.rules.dnd5e.data", "data": "engine.rules.dnd5e.data",
                     "feats": "engine.rules.dnd5e.feats",
                     "feat moments": "engine.rules.dnd5e.feats_moments",
                     # the subject modules of the ruleset (module functions taking the ruleset as ``rs``)
                     "5e attacks": "engine.rules.dnd5e.attacks", "5e conditions": "engine.rules.dnd5e.conditions",
                     "5e damage": "engine.rules.dnd5e.damage", "5e turns": "engine.rules.dnd5e.turns",
                     "5e mounts": "engine.rules.dnd5e.mounts", "5e common": "engine.rules.dnd5e.common",
                     "srd traits": "engine.rules.dnd5e.srd_traits", "srd sheet": "engine.rules.dnd5e.srd_sheet",
                     "srd presence": "engine.rules.dnd5e.srd_presence", "srd detect": "engine.rules.dnd5e.srd_detect",
                     "srd burst": "engine.rules.dnd5e.srd_burst", "srd grapple": "engine.rules.dnd5e.srd_grapple",
                     "srd blocks": "engine.rules.dnd5e.srd_blocks",
                     "srd multiattack": "engine.rules.dnd5e.srd_multiattack",
                     "srd legendary": "engine.rules.dnd5e.srd_legendary",
                     "srd carry": "engine.rules.dnd5e.srd_carry", "srd traits2": "engine.rules.dnd5e.srd_traits2",
                     "srd features": "engine.rules.dnd5e.srd_features",
                     "srd through": "engine.rules.dnd5e.srd_through",
                     "srd auras": "engine.rules.dnd5e.srd_auras", "srd swarm": "engine.rules.dnd5e.srd_swarm",
                     "srd parry": "engine.rules.dnd5e.srd_parry",
                     "srd lasting actions": "engine.rules.dnd5e.srd_lasting_actions",
                     "srd lasting text": "engine.rules.dnd5e.srd_lasting_text",
                     "srd swallow": "engine.rules.dnd5e.srd_swallow", "srd swallow text": "engine.rules.dnd5e.srd_swallow_text",
                     "srd swallow actions": "engine.rules.dnd5e.actions.srd_swallow", "5e sight": "engine.rules.dnd5e.sight",
                     "srd engulf": "engine.rules.dnd5e.srd_engulf",
                     "srd engulf actions": "engine.rules.dnd5e.actions.srd_engulf",
                     "srd status": "engine.rules.dnd5e.srd_status",
                     "srd breath": "engine.rules.dnd5e.srd_breath", "srd exposure": "engine.rules.dnd5e.srd_exposure",
                     "srd shapes": "engine.rules.dnd5e.srd_shapes", "srd shape data": "engine.rules.dnd5e.srd_shape_data",
                     "srd planes": "engine.rules.dnd5e.srd_planes",
                     "srd misc": "engine.rules.dnd5e.srd_misc", "srd misc text": "engine.rules.dnd5e.srd_misc_text",
                     "srd wound": "engine.rules.dnd5e.srd_wound", "srd hits text": "engine.rules.dnd5e.srd_hits_text",
                     "srd consume": "engine.rules.dnd5e.srd_consume",

                     "srd sight": "engine.rules.dnd5e.srd_sight", "srd senses": "engine.rules.dnd5e.srd_senses"}},
)
