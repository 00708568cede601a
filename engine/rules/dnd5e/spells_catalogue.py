"""The SRD spells' rules (SPL-xx, issue 39) and the decisions taken on them: rows of docs/rules.md."""

T = "tests/rules/dnd5e/test_dnd5e_srd_spells.py::"
OB = "tests/rules/dnd5e/test_dnd5e_obscured.py::"

W = "tests/rules/dnd5e/test_srd_spell_wards.py::"

RULES = [
    {'id': 'SPL-01',
     'rule': 'SRD 5.1 spells cast from their data: range, area, damage by slot or character level, save and half '
             'damage, healing, conditions with their repeat saves, concentration.',
     'status': 'built',
     'decision': '`assets/srd/spells.json` (tools/gen_srd_spells.py from 5e-database, CC-BY-4.0; 5 ft = 1.5 m) holds '
                 'all 319; `aerie compendium spells` lists them with `castable` and `why`. `cast spell = "<SRD index>"` '
                 '(the fifteen older names stay, with their own numbers), `slot = N` upcasts; a character listing SRD '
                 'spells without `spell_slots` / `slots` has a full caster\'s slots for its level. Which condition a '
                 'failed save gives, a line\'s width and a cylinder\'s height are read from the text into '
                 '`srd_spells.EFFECTS`; a castable spell\'s lasting parts that are not modelled are named in `omits`. '
                 'Areas are true 3D (`areas.py`: a body is caught when a sample point of it is inside) and reach what '
                 'their point of origin sees (total cover from it). Unknown, not castable, not known, no slot, out of '
                 'range: one refusal naming the rule',
     'where': '`dnd5e/srd_spells.py` `support`, `internal`; `dnd5e/srd_cast.py` `check`, `apply`, `resolve`, '
              '`area_of`; `dnd5e/areas.py` `contains`, `catches`',
     'tests': [T + 'test_spl01_compendium_holds_all_319_spells_in_metres',
               T + 'test_spl01_generated_castable_is_the_engines',
               T + 'test_spl01_castable_share_of_fight_spells',
               T + 'test_spl01_upcasting_and_cantrip_scaling',
               T + 'test_spl01_bad_input_one_refusal_nothing_changed',
               T + 'test_spl01_elemental_adept_on_an_srd_spell',
               T + 'test_spl01_slots_key_and_its_bad_values']},
    {'id': 'SPL-02',
     'rule': 'Feather Fall: a reaction when a creature within 18 m falls; it descends 18 m a round and takes no '
             'falling damage.',
     'status': 'built',
     'decision': 'A fall to the ground (AIR-10, AIR-11\'s 9-10, AIR-12 off an edge) of a creature within 18 m of a '
                 'caster on its side who knows feather-fall, has its reaction and a level 1 slot asks that caster\'s '
                 'player (choice point `feather_fall`, `reactions = {feather_fall = false}` declines): it descends '
                 'at most 18 layers now and 18 more when each of its turns starts, no damage, on its feet (not Prone); '
                 'while it hangs it owes no AIR-08 upkeep. A fall a GM\'s table action brings about (a flyer knocked '
                 'out) is asked alike: the GM\'s action holds the answer in its `reactions`',
     'where': '`dnd5e/srd_air.py` `feather_fall`, `descend`, `feather_fall_descends`; aerial `fall`; '
              '`choices.takes`, `gm._normalise`',
     'tests': [T + 'test_spl02_feather_fall_answers_a_fall', T + 'test_spl02_feather_fall_declined_falls',
               T + 'test_spl02_feather_fall_is_asked_of_the_casters_player',
               'tests/rules/dnd5e/test_spl02_feather_fall_gm_table.py::'
               'test_spl02_a_gm_knockout_asks_the_casters_player_and_plays_like_the_script',
               'tests/app/test_window_feather_fall.py::test_spl02_the_casters_player_is_asked_when_the_gm_drops_a_flyer']},
    {'id': 'SPL-03',
     'rule': 'Fly: a willing creature touched gains a flying speed of 18 m; when the spell ends while it is aloft it '
             'falls, unless it can stop the fall.',
     'status': 'built',
     'decision': 'AIR-10 lists why a flyer falls ("loses its movement"): losing the only fly speed is that case, so '
                 'it falls straight to the support below (AIR-10, not AIR-11\'s roll), takes AIR-12\'s damage (5% of '
                 'max HP a layer above the first, the aerial module\'s fall in place of the SRD\'s 1d6 per 3 m) and '
                 'lands Prone. A creature with a fly speed of its own keeps flying. While it flies by the spell it is '
                 'a flyer like any other: AIR-08\'s upkeep and AIR-11\'s fall roll apply',
     'where': '`dnd5e/srd_air.py` `Fly`, `fly_ends`; `dnd5e/concentration.py` `end`',
     'tests': [T + 'test_spl03_fly_then_concentration_breaks_and_it_falls']},
    {'id': 'SPL-04',
     'rule': 'Misty Step (9 m, a space it can see) and Dimension Door (150 m): teleport to an unoccupied space.',
     'status': 'built',
     'decision': 'Any layer in range where the body fits and no one is; Misty Step needs a clear sight line to it. '
                 'Arriving in the air a flyer flies; a walker falls (AIR-12)',
     'where': '`dnd5e/srd_air.py` `Teleport.check`, `Teleport.apply`',
     'tests': [T + 'test_spl04_misty_step_to_a_roof_and_into_the_air',
               T + 'test_spl04_dimension_door_needs_no_sight_and_a_walker_falls']},
    {'id': 'SPL-05',
     'rule': 'Area spells in 3D: Fireball\'s sphere, Lightning Bolt\'s 30 m line through layers, Cone of Cold\'s cone; '
             'Web\'s cube restrains, and a restrained flyer falls (AIR-10).',
     'status': 'built',
     'decision': 'Sphere and cube centred on the aimed cell, cylinder standing on it, cone and line from the caster\'s '
                 'centre toward the aimed point (any direction, up included). Web\'s cube is resolved as it is cast '
                 '(the lasting cube is not state yet)',
     'where': '`dnd5e/areas.py` `make`, `contains`; `dnd5e/srd_cast.py` `area_of`, `caught`; `dnd5e/srd_air.py` `Web`',
     'tests': [T + 'test_spl05_fireball_sphere_in_3d', T + 'test_spl05_lightning_bolt_line_through_layers',
               T + 'test_spl05_cone_of_cold_upcast', T + 'test_spl05_web_restrains_a_flyer_that_falls']},
    {'id': 'SPL-06',
     'rule': 'Thunderwave and Gust of Wind push in 3D: away from the caster, a flyer through the air, stopped by '
             'walls.',
     'status': 'built',
     'decision': 'Straight away from the caster\'s centre, half a metre at a time to the nearest cell and layer, '
                 'stopping before a wall or a body; a walker keeps to its level (pushed off an edge it falls, AIR-12)',
     'where': '`dnd5e/srd_air.py` `Push.apply_push`, `Thunderwave`, `GustOfWind`',
     'tests': [T + 'test_spl06_thunderwave_pushes_a_flyer_up_and_away',
               T + 'test_spl06_gust_of_wind_pushes_a_flyer_into_a_wall']},
    {'id': 'SPL-07',
     'rule': 'Hold Person, Hold Monster, Sleep, Color Spray: a paralysed or unconscious flyer falls (AIR-10).',
     'status': 'built',
     'decision': 'Hold: a Wisdom save, paralysed, a save at the end of each turn. Sleep / Color Spray: the hit point '
                 'pool (5d8 / 6d10, +2d8 / +2d10 a slot above 1st), the lowest current HP first. Waking a sleeper by '
                 'damage is the unconscious condition\'s own (not modelled for sleep)',
     'where': '`dnd5e/srd_air.py` `Sleep.apply`; `dnd5e/srd_cast.py` `save_one`',
     'tests': [T + 'test_spl07_hold_monster_grounds_a_flyer', T + 'test_spl07_sleep_grounds_the_weakest_flyer']},
    {'id': 'SPL-08',
     'rule': 'Levitate: up or down 6 m, an unwilling target\'s Con save.',
     'status': 'built',
     'decision': 'Levitate lifts its target at most 6 layers (`at` names the layer), it hangs there without flying '
                 'upkeep and floats down unhurt when the spell ends. Jump: SPL-10',
     'where': '`dnd5e/srd_air.py` `Levitate`, `levitate_ends`',
     'tests': [T + 'test_spl08_levitate_lifts_and_floats_down']},
    {'id': 'SPL-09',
     'rule': 'Lasting spell areas (Web, Stinking Cloud, Moonbeam, Cloudkill, Insect Plague, Black Tentacles, Spirit '
             'Guardians): state with their volume, held by concentration.',
     'status': 'built',
     'decision': 'Kept in the caster\'s state (`lasting`: spell, area in metres, origin\'s eye, DC, slot), saved and '
                 'replayed with it; a creature whose turn starts inside (reached from the origin) saves again: the '
                 'damage rolled anew, the conditions, Stinking Cloud\'s lost action (no save as Stinking Cloud is '
                 'cast); Spirit Guardians follows its caster and spares its side. The area ends with the '
                 'concentration. Entering an area mid-turn is not a trigger yet; Fog Cloud and Darkness are lasting '
                 'areas that obscure (SPL-10)',
     'where': '`dnd5e/srd_lasting.py` `begin`, `lasting_areas`, `ends`',
     'tests': [T + 'test_spl09_moonbeam_burns_each_turn_until_the_concentration_ends',
               T + 'test_spl09_web_catches_a_flyer_when_its_turn_starts',
               T + 'test_spl09_stinking_cloud_takes_the_action']},
    {'id': 'SPL-10',
     'rule': 'Fog Cloud and Darkness: their areas are heavily obscured. SRD 5.1 (Vision and Light): "A heavily obscured '
             'area\u2014such as darkness, opaque fog, or dense foliage\u2014blocks vision entirely. A creature effectively '
             'suffers from the blinded condition (see appendix PH-A) when trying to see something in that area." Fog '
             'Cloud: "You create a 20-foot-radius sphere of fog centered on a point within range. The sphere spreads '
             'around corners, and its area is heavily obscured." Darkness: "Magical darkness spreads from a point you '
             'choose within range to fill a 15-foot-radius sphere for the duration. The darkness spreads around corners. '
             'A creature with darkvision can\'t see through this darkness."',
     'status': 'built',
     'decision': 'Cast at a point (`at = [x, y, layer]`, in range: SPL-01), held by concentration, kept as a lasting '
                 'area (SPL-09) that asks no save. Its voxels (centres inside the 6 m / 4.5 m sphere, Fog Cloud 6 m more '
                 'a slot level above 1st) are the world\'s `obscured` grid, joined to the sight-blocking voxels '
                 '(`World.blocks_sight`): the one arithmetic of each backend (the numpy traversals, the GLSL kernels, '
                 'the cover and threat volumes, the window\'s sight lines and maps, the player view) cuts a sight line '
                 'there as at an opaque wall, and nothing else changes: movement, support and free cells see no '
                 'obscured voxel. How it meets cover: Aerie has one sight test, the 36 lines of AIR-15, so a line '
                 'through the fog counts as blocked in the blocked fraction. A creature every line to which crosses '
                 'fog is unseen and counts as behind total cover: no attack or spell targets it (the SRD lets one '
                 'attack an unseen creature at disadvantage, guessing its place: not modelled), and an area\'s point '
                 'of origin does not reach through fog. A creature partly behind fog gets the partial levels (half, '
                 'three-quarters) where the SRD gives no AC for obscurement: the divergence is the price of one '
                 'arithmetic, and the fog\'s edge is where it shows. Darkvision is not modelled: none sees through '
                 'either. The window draws the obscured voxels as a translucent volume (engine/render/fog.py). '
                 'Spreading around corners: the voxels are the sphere\'s, walls do not stop it',
     'where': '`dnd5e/srd_lasting.py` `Obscure`, `obscured_mask`, `sync_obscured`; `world/grid.py` `World.set_obscured`, '
              '`blocks_sight`; `render/fog.py` `fog_tris`',
     'tests': [OB + 'test_spl10_fog_cloud_blocks_a_sight_line_until_its_concentration_ends', OB + 'test_spl10_obscured_voxels_follow_the_state_and_leave_movement_alone', OB + 'test_spl10_fog_cloud_upcast_grows_and_needs_a_point',
               'tests/world/test_obscured.py::test_a_sight_line_through_fog_is_blocked_and_clears_with_it',
               'tests/world/test_obscured.py::test_the_cover_volume_sees_the_fog',
               'tests/render/test_los_gpu.py::test_obscured_voxels_block_alike_in_glsl_and_numpy',
               'tests/app/test_window_fog.py::test_the_windows_sight_lines_and_threat_map_stop_at_the_fog']},
    {'id': 'SPL-14',
     'rule': 'Jump: "You touch a creature. The creature\'s jump distance is tripled until the spell ends" (1 minute).',
     'status': 'built',
     'decision': 'AIR-07 has no jump: a walker changes layers by stepping up one (a climb, 4 m: "double the '
                 'horizontal cost"). The SRD\'s high jump is 3 + Str modifier feet, and "each foot you clear on the '
                 'jump costs a foot of movement"; tripled it is 3 x (3 + Str mod) ft (a knight\'s Str 16: 5.4 m), '
                 'which clears a 1 m layer (AIR-02) for any Str modifier of -1 or more. So under Jump a walker leaps '
                 'a layer instead of climbing it: it pays the jump\'s foot for a foot, not AIR-07\'s doubling -- half '
                 '`climb_m` (2 m) a layer up, the same reading as Athlete\'s `athlete_climb = "free"` (DND-F04). A '
                 'flyer is unchanged; the long jump across a gap is not modelled (walkers path over supported cells '
                 'only). A willing creature touched (the caster\'s side); it ends when the caster\'s turn starts 10 '
                 'rounds after the cast',
     'where': '`dnd5e/srd_air.py` `Jump`, `jump_climb` (the `CLIMB_COST` hook), `jump_ends`; `pathing.reach` (the '
              'climb cost is part of the reach map\'s key)',
     'tests': [T + 'test_spl14_jump_leaps_layers_a_walker_could_not_climb',
               T + 'test_spl14_jump_touches_a_willing_creature']},
    {'id': 'SPL-11',
     'rule': 'What a failed save (or a spell attack\'s hit) leaves that is no condition: Faerie Fire, Bestow Curse, '
             'Calm Emotions, Bane, Ray of Enfeeblement, Slow, Confusion, Resilient Sphere, Compulsion.',
     'status': 'built',
     'decision': 'A mark in the target\'s `data["spell_marks"]` (spell, caster, saved and replayed), dropped when the '
                 'caster\'s concentration ends. Faerie Fire: advantage on attacks against it by an attacker that sees '
                 'it. Bestow Curse: the curse of disadvantage on its attacks against the caster (the other three named '
                 'in `omits`). Calm Emotions: its charmed / frightened put aside with their sources and given back '
                 'when the spell ends. Bane: a d4 (`rolls.bane`) off each attack roll and save, up to 3 creatures (+1 '
                 'a slot above 1st: `targets`). Ray of Enfeeblement: on a hit, half damage with Strength weapon '
                 'attacks. Slow: speed halved, -2 AC and Dex saves, no reactions. Confusion: no reactions, a d10 '
                 '(`rolls.confusion`) when each turn starts: 1-6 no move and no action (a 1\'s random move is not '
                 'made), 7-8 a melee attack on a creature in reach picked by a die, 9-10 normal. Ray, Slow, Confusion: '
                 'a save at the end of each of its turns ends it on the target. Resilient Sphere: no damage from a '
                 'creature outside reaches it and none it deals reaches outside; half speed. Compulsion: `at` names '
                 'the way (horizontal from the caster); when each of its turns starts it walks all its movement '
                 'straight that way (stopped by walls and bodies, off an edge it falls, AIR-12), then saves',
     'where': '`dnd5e/srd_marks.py`; hooks `srd_cast.ON_FAILED_SAVE`, `conditions.ROLL_ADJUST`, '
              '`attacks.DEALT_DAMAGE`, `damage.DAMAGE_MODIFIERS` (`resilient_sphere`), `advantage.ATTACK_SOURCES` '
              '(`spell_marks`)',
     'tests': [T + 'test_spl11_faerie_fire_gives_advantage_against_the_outlined',
               T + 'test_spl11_bestow_curse_disadvantage_against_the_caster',
               T + 'test_spl11_calm_emotions_suppresses_fear_until_it_ends',
               T + 'test_spl11_bane_subtracts_a_d4_from_attacks_and_saves',
               T + 'test_spl11_ray_of_enfeeblement_halves_strength_weapon_damage',
               T + 'test_spl11_slow_halves_speed_lowers_ac_and_takes_reactions',
               T + 'test_spl11_confusion_d10_each_turn',
               T + 'test_spl11_resilient_sphere_no_damage_in_or_out',
               T + 'test_spl11_compulsion_walks_the_target_the_way_named']},
    {'id': 'SPL-12',
     'rule': 'Longer casting times: "you must spend your action each turn casting the spell, and you must maintain '
             'your concentration while you do so. If your concentration is broken, the spell fails, but you don\'t '
             'expend a spell slot."',
     'status': 'built',
     'decision': 'A minute is 10 rounds (10 minutes 100, an hour 600): the action of the turn the casting begins and '
                 'of each of the caster\'s turns after it is spent on it, under concentration; when its turn starts '
                 'that many rounds later the spell takes effect (that turn\'s action free) and the slot is spent. '
                 'The targets are named as it begins and checked again then (a target gone: it fails, the slot '
                 'kept). Geas (charmed), Planar Binding (charmed: its service), Contact Other Plane (the caster\'s DC '
                 '15 Int save, 6d6 psychic, incapacitated), Prayer of Healing (up to six: `targets`)',
     'where': '`dnd5e/srd_long.py` `begin`, `long_cast_goes_on`, `fails`; `srd_spells.rounds_of`',
     'tests': [T + 'test_spl12_geas_takes_a_minute_of_actions_then_charms',
               T + 'test_spl12_broken_concentration_fails_the_casting_and_keeps_the_slot',
               T + 'test_spl12_contact_other_plane_dc_15_on_the_caster',
               T + 'test_spl12_prayer_of_healing_ten_minutes_up_to_six']},
    {'id': 'SPL-13',
     'rule': 'Enlarge/Reduce: the target grows or shrinks a size category; its weapons deal 1d4 more or less; an '
             'unwilling target\'s Con save.',
     'status': 'built',
     'decision': 'The body of the new size from the scene\'s size table (large: 2 cells across, 3 layers tall), its '
                 'corner cell kept; where the grown body does not fit (a wall, a ceiling, a creature) it keeps its '
                 'size ("the maximum possible size in the space available": one step or none). `option = "enlarge"` '
                 'or `"reduce"` (default: enlarge one of the caster\'s side, reduce another, which saves); its size '
                 'comes back when the concentration ends',
     'where': '`dnd5e/srd_marks.py` `EnlargeReduce`, `resize`, `size_die`, `size_ends`',
     'tests': [T + 'test_spl13_enlarge_grows_the_body_and_its_blows',
               T + 'test_spl13_reduce_an_unwilling_foe_saves_or_shrinks']},
    {'id': 'SPL-15',
     'rule': 'Dispel Evil and Good: "For the duration, celestials, elementals, fey, fiends, and undead have '
             'disadvantage on attack rolls against you."',
     'status': 'built',
     'decision': 'An attack-roll source (`spell_wards`) while the caster concentrates on the spell, read against the '
                 'attacker\'s `creature_type` (an SRD creature\'s type; a scene may write it; a character without one '
                 'is none of the five). Possession is not modelled (named in `omits`)',
     'where': '`dnd5e/srd_wards.py` `spell_wards`, `DispelEvilAndGood`',
     'tests': [W + 'test_spl15_a_fiend_attacks_the_warded_caster_with_disadvantage']},
    {'id': 'SPL-16',
     'rule': 'Dispel Evil and Good\'s special functions, each "As your action", each ending the spell: Dismissal (a '
             'melee spell attack against a celestial, an elemental, a fey, a fiend or an undead; on a hit a Charisma '
             'save or "sent back to its home plane") and Break Enchantment (a creature charmed or frightened by such '
             'a creature is no longer).',
     'status': 'built',
     'decision': '`cast` with `option = "dismissal"` or `"break_enchantment"` and a `target` within 1.5 m while the '
                 'spell is held: the action, no slot, the concentration ends. Sent home = out of the fight (the '
                 'battle is on the Material Plane; the SRD\'s fiends, celestials, elementals and fey come from '
                 'elsewhere, its undead go to the Shadowfell): a `dismissed` event and the state\'s `dead` flag (no '
                 'death event, no Death Burst). Refused citing SPL-16 without the spell held, or at a creature of '
                 'another type',
     'where': '`dnd5e/srd_wards.py` `DispelEvilAndGood`, `leave_fight`; `dnd5e/srd_cast.py` `check`',
     'tests': [W + 'test_spl16_dismissal_sends_the_fiend_home_and_ends_the_spell',
               W + 'test_spl16_dismissal_refused_without_the_spell_or_at_a_human',
               W + 'test_spl16_break_enchantment_frees_a_friend_charmed_by_a_fiend']},
    {'id': 'SPL-17',
     'rule': 'Magic Circle: a 10-foot-radius, 20-foot-tall cylinder against chosen types (celestials, elementals, '
             'fey, fiends, undead): "The creature has disadvantage on attack rolls against targets within the '
             'cylinder. Targets within the cylinder can\'t be charmed, frightened, or possessed by the creature."',
     'status': 'built',
     'decision': 'A 3 m radius, 6 m tall cylinder on the floor of a cell within 3 m (`at`), `option` its types '
                 '(comma-separated; default all five); cast over 1 minute as SPL-12 (ten rounds of actions); then '
                 'kept on the caster\'s `data["circles"]` for the rest of the fight (its hour outlasts any fight). '
                 'An attack by a chosen type at a creature whose body is in the cylinder has disadvantage; a charm or '
                 'fright from such a creature on one inside is a `condition_immune` naming SPL-17',
     'where': '`dnd5e/srd_wards.py` `MagicCircle`, `spell_wards`, `circle_ward`, `circles_around`; '
              '`dnd5e/conditions.py` `add_condition`',
     'tests': [W + 'test_spl17_magic_circle_after_its_minute_wards_those_within']},
    {'id': 'SPL-18',
     'rule': 'Magic Circle: "The creature can\'t willingly enter the cylinder by nonmagical means. If the creature '
             'tries to use teleportation or interplanar travel to do so, it must first succeed on a Charisma saving '
             'throw." and its reverse direction.',
     'status': 'planned',
     'decision': 'Not enforced: the pathing has no barrier by creature type; named in the spell\'s `omits` (the '
                 'compendium shows it)',
     'where': '`dnd5e/srd_spells.py` `EFFECTS`',
     'tests': []},
    {'id': 'SPL-19',
     'rule': 'Polymorph: "An unwilling creature must make a Wisdom saving throw ... The new form can be any beast '
             'whose challenge rating is equal to or less than the target\'s (or the target\'s level) ... The '
             'target\'s game statistics ... are replaced by the statistics of the chosen beast ... The target '
             'assumes the hit points of its new form ... it can\'t ... cast spells".',
     'status': 'built',
     'decision': '`option` = a beast of the SRD bestiary (default: the weakest that walks for a foe, the strongest '
                 'its level allows for a friend); unwilling = another side (a Wisdom save). The sheet\'s numbers '
                 '(abilities, AC, speeds, fly speed, weapons and multiattack, saves, skills, resistances, traits, '
                 'type), its hit points and its body\'s size become the beast\'s (the body keeps its size where the '
                 'new one does not fit), its spells are gone; a flyer made a beast without a fly speed falls at once '
                 '(AIR-10..12, as when Fly ends). The CR limit reads the sheet\'s `level` (an SRD creature\'s is its '
                 'CR, at least 1); shapechangers are not exempt (no subtype on the sheet)',
     'where': '`dnd5e/srd_polymorph.py` `Polymorph`, `transform`, `new_form`, `default_beast`',
     'tests': [W + 'test_spl19_a_flying_eagle_made_a_frog_falls_and_reverts_at_zero',
               W + 'test_spl19_a_friend_made_a_beast_and_back_when_the_spell_ends',
               W + 'test_spl19_a_beast_above_the_targets_level_is_refused']},
    {'id': 'SPL-20',
     'rule': 'Polymorph: "The transformation lasts for the duration, or until the target drops to 0 hit points or '
             'dies ... When it reverts to its normal form, the creature returns to the number of hit points it had '
             'before it transformed. If it reverts as a result of dropping to 0 hit points, any excess damage '
             'carries over to its normal form."',
     'status': 'built',
     'decision': 'The concentration ending reverts it; damage that would drop the beast to 0 reverts it (the '
                 'damage module\'s `AT_ZERO`), ends the caster\'s concentration and deals the excess to the normal '
                 'form through its own resistances (a `polymorph` event with `ended`, then the `damage` naming '
                 'SPL-20); reverted aloft without a fly speed, it falls',
     'where': '`dnd5e/srd_polymorph.py` `revert`, `drops_to_zero`, `spell_ends`; `dnd5e/damage.py` `apply_damage`',
     'tests': [W + 'test_spl19_a_flying_eagle_made_a_frog_falls_and_reverts_at_zero',
               W + 'test_spl19_a_friend_made_a_beast_and_back_when_the_spell_ends']},
    {'id': 'SPL-21',
     'rule': 'The SRD spells\' events are typed: each event type the spells emit (cast with its slot, area, option; '
             'lasting areas, long casts, marks, the air spells\' moves and falls, polymorph, dismissal, innate uses) '
             'is declared in the ruleset\'s events module.',
     'status': 'built',
     'decision': 'Declared as frozen Structs in `dnd5e/spell_events.py` (`SPELL_EVENTS`, joined to `dnd5e/events.py`\'s table); the log stays the dicts the rules '
                 'emit, byte for byte (tools/parity.py check); a test plays the spells and converts every event '
                 'strictly',
     'where': '`dnd5e/spell_events.py` `Cast`, `LongCast`, `SpellMark`, `Polymorph`; `dnd5e/events.py` `Pushed`',
     'tests': [W + 'test_spl21_every_spell_event_is_declared']},
]
