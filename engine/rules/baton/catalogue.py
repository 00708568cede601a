"""The baton rules (BAT-00 to BAT-64) and the decisions taken on them: the metadata behind docs/rules.md. Fields and rendering: engine/rules/catalogue.py."""

RULES = [
    {'id': 'BAT-00',
     'rule': 'Grounding for the dice the baton document leaves unsaid (d12 + skill, chances, criticals; '
             "CATALOGUE's BAT section)",
     'status': 'built',
     'decision': '1d12 + skill vs difficulty; chances as extra d12 kept high/low, cancelling, cap ±3; natural 12 / '
                 '1 decide; success level and damage scale are options (above)',
     'where': '`baton/dice.py`',
     'tests': ['tests/rules/baton/test_baton_turns.py::test_bat00_d12_plus_skill_chances_keep_high_or_low_and_cancel',
               'tests/rules/baton/test_baton_turns.py::test_bat00_criticals_and_success_levels',
               'tests/rules/baton/test_baton_turns.py::test_bat00_damage_scale']},
    {'id': 'BAT-01',
     'rule': 'Initiative is the spotlight of the fight: it is passed like a baton between characters.',
     'status': 'built',
     'decision': 'The baton: `state.data.holder` = `state.current`; only it acts; `pass` hands it on',
     'where': 'baton order `give_baton`; `check`',
     'tests': ['tests/rules/baton/test_baton_turns.py::test_bat01_the_holder_is_the_current_character_and_passes_the_baton',
               'tests/rules/test_ruleset_api.py::test_random_play_keeps_the_invariants']},
    {'id': 'BAT-02',
     'rule': 'When combat starts, a non-surprised PC chosen by the players starts with the initiative; if every PC '
             'is sur…',
     'status': 'built',
     'decision': '`initiative_starts` must be a non-surprised PC; all PCs surprised: an opponent; default the '
                 'first such'
                 '; without it the players may hand the opening to another non-surprised PC (`open_with`, before anything is done)',
     'where': '`start`; baton order `first_holder`; baton choices `opening_candidates`',
     'tests': ['tests/rules/baton/test_baton_choices.py::test_bat02_the_players_choose_who_opens_the_initiative_when_the_scene_does_not_say',
               'tests/rules/baton/test_baton_turns.py::test_bat02_a_non_surprised_pc_starts_else_an_opponent']},
    {'id': 'BAT-03',
     'rule': 'Holding the initiative, a character may take, in any order, one major action, one minor action and '
             'one move…',
     'status': 'built',
     'decision': 'One major, one minor, one movement, any order',
     'where': 'baton slots `check_slot`',
     'tests': ['tests/rules/baton/test_baton_turns.py::test_bat03_one_major_one_minor_one_movement_in_any_order']},
    {'id': 'BAT-04',
     'rule': 'Major action: an overcome-obstacle action (attack, cast a spell); a create-opportunity action; take '
             'an item…',
     'status': 'built',
     'decision': 'Major: attack, create opportunity, take from the backpack, a ring (and every manoeuvre)',
     'where': 'baton slots `check_slot`; `_check_take_item`, `_check_use_power`',
     'tests': ['tests/rules/baton/test_baton_turns.py::test_bat04_major_actions_take_the_major_slot']},
    {'id': 'BAT-05',
     'rule': 'Minor action: shout a command; equip or stow a weapon; drop or pick up an item on the ground; take '
             'an item…',
     'status': 'built',
     'decision': 'Minor: shout, equip/stow, drop/pick up, pocket item, drink, item of power, miracle; '
                 '`open_door` (the document names no doors; handling a thing within reach, l. 30): an unlocked door '
                 'next to the character swings open and its voxels leave the way (option `door_action = "major"`: '
                 'the major action, as manipulating the battlefield, l. 20); a locked one is broken or knocked down',
     'where': '`_check_equip` … `_check_shout`; `baton/actions/doors.py` `OpenDoor`',
     'tests': ['tests/rules/baton/test_baton_turns.py::test_bat05_minor_actions_take_the_minor_slot',
               'tests/rules/baton/test_baton_doors.py::test_a_baton_character_opens_a_door_next_to_it_with_the_minor_action_and_walks_through',
               'tests/rules/baton/test_baton_doors.py::test_the_other_reading_spends_the_major_action_and_a_locked_door_must_be_broken',
               'tests/rules/baton/test_baton_tactics.py::test_picking_up_a_disarmed_weapon_is_a_minor_action']},
    {'id': 'BAT-06',
     'rule': "Movement: move up to the character's speed; stand up if prone.",
     'status': 'built',
     'decision': 'Movement up to the speed, or standing up (uses all of it)',
     'where': '`_check_move`, `_check_stand`, `movement_left`',
     'tests': ['tests/rules/baton/test_baton_turns.py::test_bat06_movement_is_up_to_the_speed_or_standing_up']},
    {'id': 'BAT-07',
     'rule': 'A major or a minor action may be taken in the middle of the movement.',
     'status': 'built',
     'decision': 'The movement is a budget split around the actions',
     'where': '`movement_left`, `spend_movement`',
     'tests': ['tests/rules/baton/test_baton_turns.py::test_bat07_a_major_action_in_the_middle_of_the_movement']},
    {'id': 'BAT-08',
     'rule': 'After acting the character must pass the initiative. Keeping it: if it made a skill test as part of '
             'its maj…',
     'status': 'built',
     'decision': "Even kept die of the major action's test: pass to an ally, one who has not acted in the combat "
                 'first ("priorizando personagens que ainda não agiram no combate"; option `keep_prefers`)',
     'where': 'baton order `pass_targets`; `_check_pass`',
     'tests': ['tests/rules/baton/test_baton_turns.py::test_bat08_even_die_keeps_the_baton_for_an_ally_who_has_not_acted',
               'scenes/baton_passing.toml']},
    {'id': 'BAT-09',
     'rule': 'Losing it: if it made no skill test as part of its major action, or the die result is odd, it passes '
             'the in…',
     'status': 'built',
     'decision': 'No test or odd: pass to an opponent',
     'where': 'baton order `pass_targets`, `auto_pass`',
     'tests': ['tests/rules/baton/test_baton_turns.py::test_bat09_odd_die_or_no_test_loses_the_baton']},
    {'id': 'BAT-10',
     'rule': 'A turn is the period during which one side holds the initiative: it starts for a character when the '
             'initiat…',
     'status': 'built',
     'decision': "A turn = a side's span with the baton (`state.round`, `side_turn` events)",
     'where': 'baton order `give_baton`',
     'tests': ['tests/rules/baton/test_baton_turns.py::test_bat10_a_turn_is_a_side_holding_the_baton']},
    {'id': 'BAT-11',
     'rule': "A per-turn condition or effect affects its target whenever the initiative returns to the target's "
             'side, and…',
     'status': 'built',
     'decision': 'Per-turn effects tick when the initiative returns to the target\'s side; an effect for N turns '
                 'affects its target in each of the N turns of its side and ends when the Nth is lost (option '
                 '`effect_turns = "through"`; `"on_return"`: the old reading, it ended as the Nth began); "until '
                 'next turn" ends when the side gets the baton back',
     'where': 'baton order `side_turn_starts`, `tick_effect`',
     'tests': ['tests/rules/baton/test_baton_turns.py::test_bat11_per_turn_effects_tick_when_the_initiative_returns',
               'tests/rules/baton/test_baton_turns.py::test_bat11_a_one_turn_effect_given_in_the_givers_turn_lasts_through_the_targets_next_turn',
               'tests/rules/baton/test_baton_turns.py::test_bat11_until_next_turn_ends_when_the_side_gets_the_baton_back']},
    {'id': 'BAT-12',
     'rule': 'An attack is an overcome-obstacle action with the matching Fight with [Weapon] specialization '
             'against an op…',
     'status': 'built',
     'decision': "Attack: `fight_<weapon>` test; success deals the weapon's damage, failure none; melee within "
                 'reach (AIR-05), ranged within `range_m`; an object or a voxel (`target = OBJECT`, `voxel = [x, y, '
                 'z]`) against the base difficulty (no defence), its damage through the material',
     'where': '`_check_attack`; baton combat `resolve_attack`; `baton/actions/objects.py` `AttackObject`',
     'tests': ['tests/rules/baton/test_baton_turns.py::test_bat12_an_attack_hits_with_the_weapon_skill_and_deals_its_damage',
               'tests/rules/test_objects.py::test_baton_objects_are_attacked_against_the_base_difficulty_and_knocked_over']},
    {'id': 'BAT-13',
     'rule': "Some gear or abilities grant a counterattack, an attack in response to an opponent's attack. A "
             'counterattac…',
     'status': 'built',
     'decision': '`counterattack = true` answers an attack in reach; counterattacks (and opportunity attacks) '
                 'never trigger one',
     'where': 'baton combat `resolve_attack`',
     'tests': ['tests/rules/baton/test_baton_turns.py::test_bat13_counterattacks_never_chain']},
    {'id': 'BAT-14',
     'rule': "A target may resist an attack, imposing a difficulty on the attacker's test: Dodge against physical "
             'melee a…',
     'status': 'built',
     'decision': 'Difficulty 7 + Dodge (melee) / Shield (with a shield) / creature Defence'
                 '; the defender chooses (`defence`: dodge, shield, defence, none; default its `defence` key, else best), offered by legal_actions',
     'where': 'baton combat `defence_of`; baton choices `choice_variants`',
     'tests': ['tests/rules/baton/test_baton_choices.py::test_bat14_the_defender_resists_with_dodge_or_shield_or_not_at_all',
               'tests/rules/baton/test_baton_turns.py::test_bat14_dodge_against_melee_shield_against_any_physical_attack']},
    {'id': 'BAT-15',
     'rule': 'Create opportunity: actions that influence the fight without dealing damage (sound or visual '
             'distractions,…',
     'status': 'built',
     'decision': '`create_opportunity`: a test (a major action, it reads for the baton); effects advantage / '
                 'expose / shake -- the document gives no duration: each lasts until the initiative comes back to '
                 'the creator\'s side, so a shaken or exposed foe is so through its own turn ("fazê-los hesitar"; '
                 'option `opportunity_lasts = "target_turn"`: until the target\'s next turn, which ended it as that '
                 'turn began); or `effect = "stated"`: the GM states the effect (`text`) and the `difficulty`; '
                 '`manipulate` (manipulating the battlefield, knocking an object over): a test of '
                 '`skill` (athletics) against 6 + 2 per voxel of the object, next to it; success: its voxels leave '
                 'the place (those on it fall)',
     'where': '`_apply_create_opportunity`, `created_lasts`; baton turns `created_conditions_end`; '
              '`baton/actions/objects.py` `Manipulate`, `manipulate_difficulty`',
     'tests': ['tests/rules/baton/test_baton_turns.py::test_bat15_a_created_shaken_or_exposed_lasts_until_the_creators_side_gets_the_initiative_back',
               'tests/rules/baton/test_baton_choices.py::test_bat15_the_gm_states_an_effect_and_a_difficulty_and_the_test_reads_for_the_baton',
               'tests/rules/baton/test_baton_turns.py::test_bat15_create_opportunity_without_damage',
               'tests/rules/test_objects.py::test_baton_manipulate_needs_to_stand_next_to_the_object_and_scales_with_its_size',
               'tests/rules/test_objects.py::test_baton_objects_are_attacked_against_the_base_difficulty_and_knocked_over',
               'scenes/baton_objects.toml']},
    {'id': 'BAT-16',
     'rule': 'Protection is the sum of the Protection of each armour layer worn.',
     'status': 'built',
     'decision': 'Protection = sum of the armour layers (or `protection`)',
     'where': 'baton setup `make_actor`',
     'tests': ['tests/rules/baton/test_baton_damage.py::test_bat16_protection_is_the_sum_of_the_armour_layers']},
    {'id': 'BAT-17',
     'rule': 'Every 6 points of Protection give one negative chance on skill tests subject to the Protection '
             'Penalty.',
     'status': 'built',
     'decision': 'Per 6 Protection (worn; option) a negative chance on Agility, Athletics, Dodge, Stealth, '
                 'Acrobatics, Climb, Swim tests',
     'where': 'baton skills `negatives`; `PROTECTION_PENALTY`',
     'tests': ['tests/rules/baton/test_baton_damage.py::test_bat17_every_6_protection_is_a_negative_chance_on_penalised_tests_only']},
    {'id': 'BAT-18',
     'rule': 'At 0 Protection the character is unprotected and starts taking damage to Vigor.',
     'status': 'built',
     'decision': 'Damage takes Protection first; at 0 `unprotected`',
     'where': 'baton health `apply_damage`',
     'tests': ['tests/rules/baton/test_baton_damage.py::test_bat18_protection_absorbs_first_then_vigor']},
    {'id': 'BAT-19',
     'rule': 'Protection is fully restored at the end of each combat.',
     'status': 'built',
     'decision': 'Protection restored when combat ends',
     'where': 'baton order `check_over`',
     'tests': ['tests/rules/baton/test_baton_damage.py::test_bat19_protection_is_restored_after_combat']},
    {'id': 'BAT-20',
     'rule': 'Vigor is spent to avoid lethal blows; max Vigor equals the current Life value.',
     'status': 'built',
     'decision': 'Vigor next; max Vigor = current Life (clamped when Life drops)',
     'where': 'baton health `sync_life`, `apply_damage`',
     'tests': ['tests/rules/baton/test_baton_damage.py::test_bat20_max_vigor_is_the_current_life']},
    {'id': 'BAT-21',
     'rule': 'At 0 Vigor the character is exhausted and starts suffering wounds.',
     'status': 'built',
     'decision': 'At 0 Vigor `exhausted`; wounds next',
     'where': 'baton health `apply_damage`',
     'tests': ['tests/rules/baton/test_baton_damage.py::test_bat21_at_zero_vigor_wounds_begin']},
    {'id': 'BAT-22',
     'rule': 'Max Life = 6 + 2 × Physique.',
     'status': 'built',
     'decision': 'Max Life = 6 + 2 × Physique (`max_hp`)',
     'where': 'baton setup `make_actor`',
     'tests': ['tests/rules/baton/test_baton_damage.py::test_bat22_max_life_is_6_plus_twice_physique']},
    {'id': 'BAT-23',
     'rule': 'Damage that Protection and Vigor cannot absorb becomes a wound that reduces current Life.',
     'status': 'built',
     'decision': 'What Protection and Vigor cannot absorb becomes a wound',
     'where': 'baton health `apply_damage`',
     'tests': ['tests/rules/baton/test_baton_damage.py::test_bat23_damage_beyond_protection_and_vigor_is_a_wound']},
    {'id': 'BAT-24',
     'rule': 'Every 6 points of Life lost give one negative chance on every skill test.',
     'status': 'built',
     'decision': 'Per 6 Life lost a negative chance on every test',
     'where': 'baton skills `life_penalty`',
     'tests': ['tests/rules/baton/test_baton_damage.py::test_bat24_every_6_life_lost_is_a_negative_chance_on_every_test']},
    {'id': 'BAT-25',
     'rule': 'At 0 Life the character dies.',
     'status': 'built',
     'decision': 'Life 0: dead',
     'where': 'baton health `maybe_die`',
     'tests': ['tests/rules/baton/test_baton_damage.py::test_bat25_death_at_zero_life']},
    {'id': 'BAT-26',
     'rule': 'Damage reaching Life causes a wound whose severity equals that damage; the sum of all severities is '
             'subtrac…',
     'status': 'built',
     'decision': "A wound's severity = the damage reaching Life; Life = max − sum",
     'where': 'baton health `apply_damage`, `sync_life`',
     'tests': ['tests/rules/baton/test_baton_damage.py::test_bat26_wound_severity_equals_the_damage_and_they_add_up']},
    {'id': 'BAT-27',
     'rule': 'Wounds are light (never worsen on their own), moderate (severity +1 at the end of each day) or grave '
             '(sever…',
     'status': 'built',
     'decision': 'End of day: light +0, moderate +1, grave +2 (GAP bands: 1–3, 4–6, 7+, options)',
     'where': '`_apply_day`',
     'tests': ['tests/rules/baton/test_baton_damage.py::test_bat27_wounds_worsen_each_day_by_category']},
    {'id': 'BAT-28',
     'rule': 'Once a day, during a long rest, a character picks one wound and tests Physique against 7 + its '
             'severity: su…',
     'status': 'built',
     'decision': 'Long rest: Physique vs 7 + severity on one wound; success: light −1, moderate −1, grave 0 at the '
                 "day's end",
     'where': '`_apply_rest`, `_apply_day`',
     'tests': ['tests/rules/baton/test_baton_damage.py::test_bat28_long_rest_recovery_test']},
    {'id': 'BAT-29',
     'rule': 'Treating a wound: Treat Wounds test against 7 + severity, using a bandage (cutting, piercing) or a '
             'splint (…',
     'status': 'built',
     'decision': '`treat`: Treat Wounds vs 7 + severity, bandage (cutting, piercing, fire) or splint (blunt, '
                 'falls), used up; success: evolves one category lower',
     'where': '`_check_treat`, `_apply_treat`',
     'tests': ['tests/rules/baton/test_baton_damage.py::test_bat29_treating_a_wound_makes_it_evolve_one_category_lower']},
    {'id': 'BAT-30',
     'rule': 'Short rest: once per period of the day, recover 1d6 + Physique Vigor.',
     'status': 'built',
     'decision': 'Short rest: 1d6 + Physique Vigor, once per 6-hour period',
     'where': '`_apply_rest`',
     'tests': ['tests/rules/baton/test_baton_damage.py::test_bat30_short_rest_once_per_period']},
    {'id': 'BAT-31',
     'rule': 'Long rest: recover all Vigor and attempt one wound recovery (BAT-28).',
     'status': 'built',
     'decision': 'Long rest: all Vigor, once a day, one recovery test',
     'where': '`_apply_rest`',
     'tests': ['tests/rules/baton/test_baton_damage.py::test_bat31_long_rest_restores_all_vigor_once_a_day']},
    {'id': 'BAT-32',
     'rule': "Disarm: major action, Fight with [Weapon] against 7 + the opponent's Fight with [Weapon]; on success "
             'the we…',
     'status': 'built',
     'decision': "Disarm: `fight_<weapon>` vs 7 + the target's; the weapon lands `level` cells away in a d8 "
                 'direction (stopped by walls), on the surface; `pick_up`',
     'where': '`_apply_disarm`',
     'tests': ['tests/rules/baton/test_baton_tactics.py::test_bat32_disarm_drops_the_weapon_on_the_map']},
    {'id': 'BAT-33',
     'rule': 'Dash: having used all its movement, a character spends its major action on an Agility or Athletics '
             'test aga…',
     'status': 'built',
     'decision': 'Dash with less than a cell of movement left: Agility/Athletics vs 8; +1.5 m per level; failure '
                 'exposed until its next turn',
     'where': '`_check_dash`, `_apply_dash`',
     'tests': ['tests/rules/baton/test_baton_tactics.py::test_bat33_dash_after_all_the_movement',
               'tests/rules/baton/test_baton_turns.py::test_bat11_until_next_turn_ends_when_the_side_gets_the_baton_back']},
    {'id': 'BAT-34',
     'rule': "Grab, trip or push: major action, Physique or Unarmed Fighting against 7 + the opponent's Physique, "
             'Unarmed…',
     'status': 'built',
     'decision': "Grab / trip / push: Physique or Unarmed vs 7 + the best of the target's Physique, Unarmed, "
                 "Dodge; the effect is chosen once the test succeeds (\"Se for bem-sucedido, o personagem escolhe\": "
                 'choice point `effect`, default the action named; no grab of one already held); push 1 cell per 2 '
                 "levels, off ledges into a fall; break free: Physique vs 7 + grabber's Physique/Unarmed",
     'where': 'baton combat `manoeuvre`; baton choices `choose_manoeuvre`; `_apply_grab`, `_apply_push`, `_apply_break_free`',
     'tests': ['tests/rules/baton/test_baton_tactics.py::test_bat34_grab_trip_push_and_break_free',
               'tests/rules/baton/test_baton_choices.py::test_bat34_the_manoeuvres_effect_is_chosen_once_the_test_succeeds']},
    {'id': 'BAT-35',
     'rule': 'Charge: an attack at the end of a move gains +1 damage scale per 3 m moved in a straight line; the '
             'attacker…',
     'status': 'built',
     'decision': '`charge`: +1 scale step per 3 m straight; exposed until its next turn',
     'where': '`_check_attack(charge)`, `_apply_charge`',
     'tests': ['tests/rules/baton/test_baton_tactics.py::test_bat35_charge_gains_damage_scale_per_3_m_straight_and_exposes']},
    {'id': 'BAT-36',
     'rule': 'Critical damage: on a critical success in an attack roll the attacker may deal extra damage equal to '
             'the at…',
     'status': 'built',
     'decision': 'Natural 12: extra = max weapon dice (PC: or a Destiny point); Physique bonus and second weapon '
                 'once; NPCs always'
                 '; `crit` offered by legal_actions for PCs; the document gives no way to spend Destiny in this chapter'
                 '; "uma rolagem de ataque" includes a counterattack and an opportunity attack: a PC making one during '
                 "another's action chooses too (`counter_crit = {id = ...}` on that action, asked in the window)",
     'where': 'baton combat `resolve_attack`; baton choices `choices_of`, `choose_crit`, `check_counter_crit`',
     'tests': ['tests/rules/baton/test_baton_choices.py::test_bat36_a_pc_counterattacking_with_a_natural_12_chooses_damage_or_destiny_too',
               'tests/rules/baton/test_baton_choices.py::test_bat36_a_pcs_natural_12_gives_more_damage_or_a_destiny_point_as_the_player_chooses',
               'tests/rules/baton/test_baton_tactics.py::test_bat36_critical_damage_or_a_destiny_point']},
    {'id': 'BAT-37',
     'rule': 'Sneak attack: melee attacks against unaware opponents get a positive chance and are always critical; '
             'ranged…',
     'status': 'built',
     'decision': 'Unaware: positive chance, critical; ranged difficulty 7; helpless: always hits, critical, max '
                 'damage (a second weapon\'s too, BAT-43: "o máximo de dano possível"), and the test die is still rolled: it reads for the baton (BAT-08; option `helpless_test = '
                 '"roll"`; `"none"`: no die, the side loses the initiative)',
     'where': 'baton combat `resolve_attack`, `_second_damage`; baton skills `unaware`',
     'tests': ['tests/rules/baton/test_baton_tactics.py::test_bat37_sneak_attacks',
               'tests/rules/baton/test_baton_tactics.py::test_bat37_a_helpless_target_is_always_hit_but_the_die_still_reads_for_the_baton',
               'tests/rules/baton/test_baton_tactics.py::test_bat37_a_helpless_target_takes_the_second_weapons_maximum_too']},
    {'id': 'BAT-38',
     'rule': 'Opportunity attack: leaving the reach of an enemy wielding a melee weapon lets it attack at once; it '
             'counts…',
     'status': 'built',
     'decision': "Leaving an armed enemy's reach: an immediate attack (a counterattack)"
                 '; an enemy may decline (`declined = [ids]` on the move); "empunhando uma arma corpo a corpo": '
                 'natural weapons (claws, talons, bite) count, bare hands (nothing held, as after a disarm) do not '
                 '(option `unarmed_opportunity = true`: they do)',
     'where': '`_apply_move`; baton combat `provokers`, `opportunity_weapon`',
     'tests': ['tests/rules/baton/test_baton_choices.py::test_bat38_an_opportunity_attack_may_be_declined',
               'tests/rules/baton/test_baton_tactics.py::test_bat38_leaving_reach_provokes_an_opportunity_attack',
               'tests/rules/baton/test_baton_tactics.py::test_bat38_only_an_enemy_wielding_a_melee_weapon_makes_an_opportunity_attack']},
    {'id': 'BAT-39',
     'rule': "A character may leave an enemy's reach without provoking, at half movement.",
     'status': 'built',
     'decision': '`careful = true`: half movement, no opportunity attacks',
     'where': '`_check_move`, `movement_left`',
     'tests': ['tests/rules/baton/test_baton_tactics.py::test_bat39_leaving_reach_at_half_movement_does_not_provoke']},
    {'id': 'BAT-40',
     'rule': 'Partial cover: ranged attacks against a partially hidden character have a negative chance.',
     'status': 'built',
     'decision': 'Partial cover (line-of-sight engine, baton thresholds): a negative chance on ranged attacks',
     'where': 'baton combat `attack_chances`; `engine/world/cover.py`',
     'tests': ['tests/rules/baton/test_baton_tactics.py::test_bat40_partial_cover_is_a_negative_chance_for_ranged_attacks']},
    {'id': 'BAT-41',
     'rule': 'Total cover: ranged attacks need line of sight; no ranged attack against a character whose line of '
             'sight is…',
     'status': 'built',
     'decision': 'Total cover: no ranged attack; leaving it: an immediate ranged attack'
                 '; an enemy may decline (`declined`, offered by legal_actions)',
     'where': 'baton combat `attack_plan`; `_apply_move`; `engine/rules/baton/leave_cover.py` `shooters`',
     'tests': ['tests/rules/baton/test_baton_choices.py::test_bat41_the_attack_on_leaving_total_cover_may_be_declined',
               'tests/rules/baton/test_baton_tactics.py::test_bat41_total_cover_blocks_ranged_attacks_and_leaving_it_exposes']},
    {'id': 'BAT-42',
     'rule': "Mounted: the rider counts as in an elevated position; adds the mount's Defence to its defence skill; "
             'the mo…',
     'status': 'built',
     'decision': "Mounted: elevated (positive chance, not cancelled by AIR-17), + mount's Defence, the mount's "
                 "movement, the mount acts with the rider's actions, Ride vs 7 + damage or thrown",
     'where': 'baton combat `attack_chances`, `defence_of`; baton mounts `body_of`, `ride_check`, `throw_rider`',
     'tests': ['tests/rules/baton/test_baton_tactics.py::test_bat42_mounted_combat', 'scenes/baton_skyfall.toml']},
    {'id': 'BAT-43',
     'rule': "Two weapons: one test with the main-hand Fight with [Weapon]; on a hit add the second weapon's "
             'damage; if e…',
     'status': 'built',
     'decision': "Two weapons in hand: one test with the main one, + the second's damage; exposed if either is "
                 'medium or large',
     'where': 'baton combat `resolve_attack`',
     'tests': ['tests/rules/baton/test_baton_tactics.py::test_bat43_two_weapons']},
    {'id': 'BAT-44',
     'rule': 'Elevated position: attacking from an elevated position gives a positive chance. (See AIR-17.)',
     'status': 'built',
     'decision': 'Elevated position: a positive chance — by default only for riders (AIR-17 wins for height; '
                 'option)',
     'where': 'baton combat `attack_chances`',
     'tests': ['tests/rules/baton/test_baton_tactics.py::test_bat44_elevated_position_versus_air17']},
    {'id': 'BAT-45',
     'rule': 'Numerical advantage: a positive chance to attack a target that is within melee reach of another '
             'opponent.',
     'status': 'built',
     'decision': 'A positive chance when the target is within melee reach of another opponent',
     'where': 'baton combat `outnumbered`',
     'tests': ['tests/rules/baton/test_baton_tactics.py::test_bat45_numerical_advantage']},
    {'id': 'BAT-46',
     'rule': 'Difficult terrain: Athletics or Agility against 7 + 1 per 1.5 m of difficult terrain; failure '
             'applies its s…',
     'status': 'built',
     'decision': 'Terrain kinds as voxel materials; Athletics/Agility vs 7 + 1 per 1.5 m; setbacks (above)',
     'where': '`_apply_move`; baton combat `terrain_at`',
     'tests': ['tests/rules/baton/test_baton_tactics.py::test_bat46_difficult_terrain']},
    {'id': 'BAT-47',
     'rule': 'Falling causes a wound of severity 1 per 1.5 m fallen; an Agility test against 7 + severity halves '
             'it (roun…',
     'status': 'built',
     'decision': 'A fall: a wound of 1 per 1.5 m, Agility vs 7 + severity halves it (rounded up); the aerial '
                 "module's falls too (option); a `drop` to the surface leaves the faller prone (AIR-12; option "
                 '`drop_prone`)',
     'where': '`fall_damage`, `_apply_drop`',
     'tests': ['tests/rules/baton/test_baton_tactics.py::test_bat47_a_fall_is_a_wound_halved_by_agility',
               'tests/rules/baton/test_baton_tactics.py::test_bat47_a_rider_falling_with_its_flying_mount_takes_a_bat47_wound',
               'tests/rules/baton/test_baton_conditions.py::test_a_flyer_knocked_prone_falls_with_a_bat47_wound']},
    {'id': 'BAT-48',
     'rule': 'Falling attack: an attack at the end of a fall gains +1 damage scale per 1.5 m fallen, and its roll '
             'may rep…',
     'status': 'built',
     'decision': '`drop` + `attack`: +1 scale per 1.5 m fallen; the attack total replaces the Agility test'
                 '; `fall_test = "agility"` makes the Agility test instead',
     'where': '`_apply_drop`',
     'tests': ['tests/rules/baton/test_baton_choices.py::test_bat48_a_falling_character_may_make_the_agility_test_instead_of_using_the_attack',
               'tests/rules/baton/test_baton_tactics.py::test_bat48_falling_attack']},
    {'id': 'BAT-49',
     'rule': 'Breath: held for 1 minute per Physique level, then 1d6 fatigue damage per minute.',
     'status': 'built',
     'decision': 'Breath: Physique minutes, then 1d6 fatigue per minute',
     'where': '`_apply_breath`',
     'tests': ['tests/rules/baton/test_baton_tactics.py::test_bat49_breath']},
    {'id': 'BAT-50',
     'rule': 'Fire: a wound that worsens every turn in contact; base and growth depend on the heat source. GAP: '
             'the table…',
     'status': 'built',
     'decision': 'Fire: a direct wound from a heat-source table (data, option), growing each turn in contact; '
                 '`extinguish`',
     'where': '`_apply_fire`; baton order `tick_effect`; `data.FIRE_SOURCES`',
     'tests': ['tests/rules/baton/test_baton_tactics.py::test_bat50_fire_worsens_every_turn_in_contact']},
    {'id': 'BAT-51',
     'rule': 'Necrotic damage is always direct damage; its wounds never recover naturally (only magical healing).',
     'status': 'built',
     'decision': 'Necrotic: direct; no natural recovery, no bandage; magic (healing potion) only',
     'where': 'baton health `apply_damage`; `_check_rest`, `_check_treat`, `_apply_drink`',
     'tests': ['tests/rules/baton/test_baton_tactics.py::test_bat51_necrotic_damage_is_direct_and_heals_only_by_magic']},
    {'id': 'BAT-52',
     'rule': 'Divine damage is always critical against undead.',
     'status': 'built',
     'decision': 'Divine (a weapon `type`) against `undead`: always critical, and always the extra damage '
                 '("sempre é considerado um dano crítico": the critical damage of BAT-36): a PC\'s natural 12 '
                 'cannot trade it for a Destiny point (`crit = "destiny"` is ignored and not offered), as for sneak '
                 'attacks and helpless targets',
     'where': 'baton combat `resolve_attack`, `divine_vs_undead`; baton choices `choice_variants`, `choices_of`',
     'tests': ['tests/rules/baton/test_baton_tactics.py::test_bat52_divine_damage_is_always_critical_against_undead',
               'tests/rules/baton/test_baton_tactics.py::test_bat52_divine_damage_on_undead_keeps_the_extra_damage_on_a_natural_12']},
    {'id': 'BAT-53',
     'rule': 'Poison: Physique against 7 + potency; success = partial effect, failure = total. Hallucinogenic '
             '(negative c…',
     'status': 'built',
     'decision': "Physique vs 7 + potency; the five poisons' partial / total effects; `resist_poison`; "
                 'hallucinating: "qualquer teste relacionado a discernir a realidade" -- of the skills, perception '
                 'tests get the negative chance (option `hallucination_tests = "all"`: every test)',
     'where': 'baton health `poison`, `hourly`; baton order `tick_effect`; baton skills `hallucination_counts`',
     'tests': ['tests/rules/baton/test_baton_tactics.py::test_bat53_poisons',
               'tests/rules/baton/test_baton_tactics.py::test_bat53_a_hallucinating_character_has_a_negative_chance_to_discern_reality']},
    {'id': 'BAT-54',
     'rule': 'Grappled: exposed; grabber of equal size → also overloaded; larger grabber → stuck.',
     'status': 'built',
     'decision': 'Grappled: exposed; equal grabber → overloaded, larger → stuck; a flyer grappled by a walker '
                 'falls; a flyer grappled by a flying grabber, larger or not, is held aloft (its stuck does not '
                 'ground it: AIR-10 "Agarrado por quem não voa")',
     'where': '`_apply_grab`; baton skills `exposed_to`; `fall_reason`; baton turns `held_aloft`',
     'tests': ['tests/rules/baton/test_baton_conditions.py::test_bat54_grappled_is_exposed_and_stuck_under_a_larger_grabber',
               'tests/rules/baton/test_baton_conditions.py::test_bat54_a_flyer_grappled_by_a_walker_falls',
               'tests/rules/baton/test_baton_conditions.py::test_air10_bat54_a_flyer_grabbed_by_a_larger_flying_grabber_is_held_aloft']},
    {'id': 'BAT-55',
     'rule': 'Grappling: exposed to everyone but the grappled; grappled of equal size → overloaded; smaller '
             'grappled → mo…',
     'status': 'built',
     'decision': 'Grappling: exposed except to the grappled; equal → overloaded; smaller grappled is dragged',
     'where': 'baton skills `exposed_to`; `_apply_move`',
     'tests': ['tests/rules/baton/test_baton_conditions.py::test_bat55_grappling_is_exposed_except_to_the_grappled_and_drags_smaller_ones']},
    {'id': 'BAT-56',
     'rule': 'Shaken: negative chance on attack tests and on tests subject to the Protection Penalty.',
     'status': 'built',
     'decision': 'Shaken: a negative chance on attacks and Protection-penalty tests',
     'where': 'baton skills `negatives`',
     'tests': ['tests/rules/baton/test_baton_conditions.py::test_bat56_shaken_is_a_negative_chance_on_attacks_and_penalised_tests']},
    {'id': 'BAT-57',
     'rule': 'Prone: speed halved; exposed.',
     'status': 'built',
     'decision': 'Prone: half speed, exposed; a flyer falls (AIR-10)',
     'where': '`movement_left`; baton skills `exposed_to`',
     'tests': ['tests/rules/baton/test_baton_conditions.py::test_bat57_prone_halves_speed_and_exposes']},
    {'id': 'BAT-58',
     'rule': 'Confused: on getting the initiative roll 1d6 — 1–3 moves randomly, 4–5 attacks a random character in '
             'reach,…',
     'status': 'built',
     'decision': 'Confused: d6 on getting the baton; acts before its allies (a pass to another character of its '
                 'side is refused with BAT-58, naming it), at the start of the combat too ("sempre age antes de seus '
                 'aliados": the baton BAT-02 gives goes first to a confused, non-surprised character of that side); '
                 '"sempre passa a iniciativa para um aliado independentemente da ação": to an ally who has not acted '
                 'in this turn first, else to any ally who is not confused too (option `confused_pass = "any_ally"`; '
                 '`"fresh_ally"`: the earlier reading, else the opponents); with only confused allies left who have '
                 'acted, the opponents (they would pass it round for ever); 4-5 "ataca um personagem aleatório '
                 'dentro do seu alcance": "alcance" as in BAT-12 (reach for a melee weapon, range for a ranged one, '
                 'not through total cover), so a confused archer shoots',
     'where': 'baton order `confused_activation`, `confused_attack`, `confused_weapon`, `pass_targets`, '
              '`confused_pass_pool`, `confused_first`, `first_holder`; `_check_pass`',
     'tests': ['tests/rules/baton/test_baton_conditions.py::test_bat58_a_confused_archer_shoots_a_random_character_within_its_range',
               'tests/rules/baton/test_baton_conditions.py::test_bat58_confused_rolls_on_getting_the_baton_and_passes_to_an_ally',
               'tests/rules/baton/test_baton_conditions.py::test_bat58_refusing_a_pass_to_an_opponent_while_a_confused_one_must_act_first_cites_bat58',
               'tests/rules/baton/test_baton_conditions.py::test_bat58_a_confused_character_of_the_starting_side_gets_the_baton_first',
               'tests/rules/baton/test_baton_conditions.py::test_bat58_a_confused_character_always_passes_to_an_ally']},
    {'id': 'BAT-59',
     'rule': 'Exposed: others get a positive chance to attack it.',
     'status': 'built',
     'decision': 'Exposed: a positive chance for attackers',
     'where': 'baton skills `exposed_to`',
     'tests': ['tests/rules/baton/test_baton_conditions.py::test_bat59_exposed_gives_a_positive_chance']},
    {'id': 'BAT-60',
     'rule': 'Slow: only one of major action, minor action or movement.',
     'status': 'built',
     'decision': 'Slow: one of major, minor, movement',
     'where': 'baton slots `check_slot`; `upkeep_available`',
     'tests': ['tests/rules/baton/test_baton_conditions.py::test_bat60_slow_allows_only_one_of_the_three']},
    {'id': 'BAT-61',
     'rule': 'Paralyzed: cannot move nor take actions that need movement.',
     'status': 'built',
     'decision': 'Paralyzed: no movement nor actions needing it (move, stand, dash, charge, drop, dismount); '
                 'flyers fall; it makes no counterattack (BAT-13), so no opportunity attack ("é considerado um '
                 'contra-ataque", BAT-38) nor the shot at one leaving total cover (BAT-41): the document limits it '
                 '"quando tem a iniciativa", the answers out of turn are decided alike (tag `no_counterattack`)',
     'where': '`can_move`; baton slots `needs_movement`; `fall_reason`; baton combat `can_counter`',
     'tests': ['tests/rules/baton/test_baton_conditions.py::test_bat61_paralyzed_cannot_move',
               'tests/rules/baton/test_baton_conditions.py::test_bat61_a_paralyzed_enemy_makes_no_opportunity_attack_nor_cover_shot']},
    {'id': 'BAT-62',
     'rule': 'Petrified: turned into a stone statue.',
     'status': 'built',
     'decision': 'Petrified: a statue (no actions, no baton, not a target)',
     'where': '`check`; baton order `can_hold`; baton slots `check_target`',
     'tests': ['tests/rules/baton/test_baton_conditions.py::test_bat62_petrified_is_a_statue']},
    {'id': 'BAT-63',
     'rule': 'Stuck: cannot take actions that need movement; breaking free costs a major action.',
     'status': 'built',
     'decision': 'Stuck: no movement; `break_free` (major). A grapple the GM gives (`gm_condition`, no grabber: '
                 'its source is "gm") is broken by the same test (difficulty 8) and keeps the character exposed '
                 "(BAT-54) with no grabber's reach to stay in; a GM-given grappling holds nobody; both last until "
                 'broken or removed',
     'where': '`can_move`, `_apply_break_free`',
     'tests': ['tests/rules/baton/test_baton_conditions.py::test_bat63_stuck_cannot_move_until_it_breaks_free',
               'tests/rules/baton/test_baton_conditions.py::test_bat54_63_a_gm_given_grapple_has_no_grabber_and_breaks_like_stuck']},
    {'id': 'BAT-64',
     'rule': 'Overloaded: moving counts as crossing exhausting difficult terrain.',
     'status': 'built',
     'decision': 'Overloaded: every move is exhausting terrain',
     'where': '`_apply_move`',
     'tests': ['tests/rules/baton/test_baton_conditions.py::test_bat64_overloaded_moves_as_through_exhausting_terrain']},
]
