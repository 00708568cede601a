"""The SRD 5.1 flyers' traits about breathing and light (SRD-81..SRD-86, issue 44): what the stat blocks of
assets/srd/creatures.json and the SRD's own rule on suffocating do at the table, each with the text it implements
(the SRD 5.1, CC-BY-4.0) and the decision taken. Fields and rendering: engine/rules/catalogue.py.

The 5e document (004, "D&D 5e Mechanika") says nothing of breathing: its "Walka pod wodą" (underwater combat,
DND-37) gives the attacks' disadvantage and fire resistance only; the SRD's "Suffocating" is the rule played here."""

T = "tests/rules/dnd5e/test_srd_breath_light.py::"

RULES = [
    {'id': 'SRD-81',
     'rule': 'Suffocating (SRD 5.1, "The Environment"): "A creature can hold its breath for a number of minutes equal '
             'to 1 + its Constitution modifier (minimum of 30 seconds). When a creature runs out of breath or is '
             'choking, it can survive for a number of rounds equal to its Constitution modifier (minimum of 1 '
             'round). At the start of its next turn, it drops to 0 hit points and is dying, and it can\'t regain hit '
             'points or be stabilized until it can breathe again."; Hold Breath: "The crocodile can hold its breath '
             'for 15 minutes."',
     'status': 'built',
     'decision': 'underwater is DND-37\'s `underwater = true`, or the top layer of the body all in water (a voxel of '
                 'the material water or of one the option `running_water` names). Each turn a creature that breathes air starts underwater counts '
                 'a round of held breath (a round is 6 seconds: 1 + Con modifier minutes is 10 rounds a minute, at '
                 'least 5; Hold Breath\'s minutes instead, the sheet\'s `srd_exposure.hold_breath_min`): a '
                 '`holds_breath` event on the first; the round after the last a `suffocating` event (it survives Con '
                 'modifier rounds, at least 1); at the start of the turn after those it drops to 0 HP (`suffocated`): '
                 'dying and unconscious, or dead for a monster with `monsters_die_at_0`; healing is refused while it '
                 'lies there (a `heal_blocked` event; stabilizing is not refused: left out). A turn started out of '
                 'the water starts the count over. Exempt: SRD-82, a construct or an undead (they do not breathe: '
                 'the decision, the SRD says nothing either way), a water creature (a swim speed and no other). '
                 'Option `suffocation = false`: no one suffocates',
     'where': 'srd breath `suffocation`, srd breath `underwater`, srd breath `held_rounds`, srd breath '
              '`no_breath_no_healing`, srd exposure `read`',
     'tests': [T + 'test_srd81_a_creature_underwater_holds_its_breath_then_drops_to_0_hp',
               T + 'test_srd81_hold_breath_and_the_option_off']},
    {'id': 'SRD-82',
     'rule': 'Amphibious: "The dragon can breathe air and water."; Water Breathing: "The shark can breathe only '
             'underwater."',
     'status': 'built',
     'decision': 'the sheet\'s `srd_exposure.breathes_water`: the creature never suffocates underwater (SRD-81). '
                 'Water Breathing\'s "only" (suffocating out of the water) is not played (no SRD flyer has it), so '
                 'Water Breathing is counted as not modelled',
     'where': 'srd breath `breathes_underwater`, srd exposure `read`',
     'tests': [T + 'test_srd82_amphibious_breathes_underwater']},
    {'id': 'SRD-83',
     'rule': 'The scene\'s light, which Sunlight Sensitivity, Light Sensitivity and Sunlight Hypersensitivity read '
             '("While in sunlight", "While in bright light")',
     'status': 'built',
     'decision': 'option `light`: "unstated" (the default: no trait reads it, every scene plays as before), '
                 '"bright" (bright light everywhere), "sunlight" (daylight: bright light everywhere; a creature is in '
                 'sunlight where nothing that blocks sight is above it in at least one column of its footprint: a '
                 'roof or a canopy shades it)',
     'where': 'srd exposure `in_sunlight`, srd exposure `in_bright_light`',
     'tests': [T + 'test_srd83_sunlight_is_the_open_sky_a_roof_shades']},
    {'id': 'SRD-84',
     'rule': 'Sunlight Sensitivity: "While in sunlight, the wraith has disadvantage on attack rolls, as well as on '
             'Wisdom (Perception) checks that rely on sight."; Light Sensitivity: "While in bright light, the cloaker '
             'has disadvantage on attack rolls and Wisdom (Perception) checks that rely on sight."',
     'status': 'built',
     'decision': 'an attack source (disadvantage on its attack rolls) and a check source (a Perception check: the '
                 'Search action, which here relies on sight) while in sunlight / bright light (SRD-83). A passive '
                 'Perception is not lowered',
     'where': 'srd breath `light_sensitivity`, srd breath `check_flaw`, 5e conditions `check_d20`',
     'tests': [T + 'test_srd84_sunlight_sensitivity_attacks_and_perception',
               T + 'test_srd84_light_sensitivity_in_bright_light']},
    {'id': 'SRD-85',
     'rule': 'Sunlight Hypersensitivity (Vampire Weaknesses): "The vampire takes 20 radiant damage when it starts its '
             'turn in sunlight. While in sunlight, it has disadvantage on attack rolls and ability checks."; '
             'Regeneration: "The vampire regains 20 hit points at the start of its turn if it has at least 1 hit '
             'point and isn\'t in sunlight or running water."',
     'status': 'built',
     'decision': 'at the start of its turn in sunlight (SRD-83) the sheet\'s `srd_exposure.sunlight_hypersensitivity` '
                 'radiant damage; disadvantage on its attack rolls and every ability check while in sunlight; its '
                 'Regeneration does not function in sunlight or running water (a `regeneration` event says why)',
     'where': 'srd breath `sunlight_burns`, srd breath `light_sensitivity`, srd breath `check_flaw`, srd traits2 '
              '`regeneration`',
     'tests': [T + 'test_srd85_sunlight_hypersensitivity_burns_and_stops_regeneration']},
    {'id': 'SRD-86',
     'rule': 'Harmed by Running Water (Vampire Weaknesses): "The vampire takes 20 acid damage if it ends its turn in '
             'running water."',
     'status': 'built',
     'decision': 'running water is a scene material the option `running_water` names (`running_water = '
                 '["river"]`, none by default: the material `water` is still water): at the end of its turn with a voxel of its body in it, the sheet\'s '
                 '`srd_exposure.running_water` acid damage. Forbiddance and Stake to the Heart (a residence, a resting '
                 'place) are not played: no fight here has them',
     'where': 'srd breath `running_water`, srd breath `in_running_water`',
     'tests': [T + 'test_srd86_running_water_harms_the_vampire']},
]
