"""The D&D 5e rules (DND-xx, feats DND-Fxx) and the decisions taken on them: the metadata behind docs/rules.md. Fields and rendering: engine/rules/catalogue.py."""

RULES = [
    {'id': 'DND-01',
     'rule': 'Instant death: when damage reduces HP to 0 and the remaining damage is at least max HP, the creature '
             'dies.',
     'status': 'built',
     'decision': 'remaining damage >= max HP kills',
     'where': '5e damage `apply_damage`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd01_instant_death']},
    {'id': 'DND-02',
     'rule': 'Otherwise at 0 HP it falls unconscious; that ends when it regains any HP.',
     'status': 'built',
     'decision': '0 HP: unconscious and prone; healing wakes',
     'where': '5e damage `apply_damage`, 5e damage `heal`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd02_zero_hp_unconscious_until_healed',
               'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd02_monsters_die_at_zero_option']},
    {'id': 'DND-03',
     'rule': 'Death saves: starting a turn at 0 HP, roll d20: 10+ is a success, else a failure; 3 successes stabilise, '
             '3…',
     'status': 'built',
     'decision': 'd20 at turn start, nat 20 two successes, nat 1 two failures',
     'where': '5e damage `death_save`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd03_death_saves',
               'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd03_nat20_option_and_reset_on_healing']},
    {'id': 'DND-04',
     'rule': 'Damage at 0 HP adds one failure, two on a critical hit; damage of at least max HP kills.',
     'status': 'built',
     'decision': 'damage at 0 HP: failure(s) or death; temporary HP absorb it first (DND-35: the pool is separate and lost first; `temp_hp_at_zero = "failure_first"` the old reading)',
     'where': '5e damage `apply_damage`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_readings.py::test_dnd35_dnd04_temp_hp_absorb_damage_at_0_hp_before_a_failure', 'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd04_damage_at_zero']},
    {'id': 'DND-05',
     'rule': 'Stabilising: Medicine DC 10 makes the creature stable (still unconscious, no more death saves); taking '
             'dama…',
     'status': 'built',
     'decision': '`stabilize` Medicine DC 10; damage to a stable creature restarts its saves from zero successes and zero failures, then counts its failure (`stable_damage = "keep_counts"` the old reading); the 1d4 hours are out of combat (not automated)',
     'where': '5e `_apply_stabilize`, 5e damage `apply_damage`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_readings.py::test_dnd05_damage_to_a_stable_creature_restarts_its_death_saves', 'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd05_stabilise_with_medicine_and_damage_restarts']},
    {'id': 'DND-10',
     'rule': 'Combat runs in rounds of about 6 s; each participant takes a turn; initiative sets the order.',
     'status': 'built',
     'decision': 'd20 + Dex (or the fixed `initiative`), ties by Dex then id; `initiative_starts`',
     'where': '5e `start`, 5e turns `advance`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd10_initiative_order_rounds_and_start']},
    {'id': 'DND-11',
     'rule': 'On its turn a creature may move up to its speed and take one action.',
     'status': 'built',
     'decision': 'one action; move up to speed; a walker\'s over-long move is refused citing DND-11 (a flyer\'s AIR-09)',
     'where': '5e common `need_action`, 5e `movement_left`; aerial `explain_unreachable`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_readings.py::test_dnd11_a_walkers_long_move_cites_the_movement_rule', 'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd11_one_action_per_turn',
               'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd22_dash_doubles_movement']},
    {'id': 'DND-12',
     'rule': 'A bonus action only when a feature grants one; at most one per turn; its timing is free unless stated.',
     'status': 'built',
     'decision': 'one bonus action',
     'where': '5e `turn["bonus"]`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd12_one_bonus_action']},
    {'id': 'DND-13',
     'rule': 'A reaction answers a trigger; one per round.',
     'status': 'built',
     'decision': 'one reaction per round, reset at the start of own turn',
     'where': '5e turns `begin_turn`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd13_one_reaction_per_round']},
    {'id': 'DND-14',
     'rule': 'After a bonus-action spell, the only other spell that turn may be a cantrip with a casting time of one '
             'action.',
     'status': 'built',
     'decision': 'bonus-action spell then only a cantrip (and the converse); a readied spell (DND-20 l. 363 "rzucić '
                 'czar i przygotować się na jego rzucenie") is cast when readied, so after a bonus-action spell only '
                 'a cantrip may be readied',
     'where': '5e `_check_cast`; `dnd5e/actions/magic.py` `after_bonus_spell`, `check_ready_spell`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd14_bonus_spell_then_only_a_cantrip',
               'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd14_no_readied_spell_but_a_cantrip_after_a_bonus_action_spell']},
    {'id': 'DND-15',
     'rule': 'Movement may be split before and after the action, and between the attacks of a multi-attack action.',
     'status': 'built',
     'decision': '`move` any number of times until the budget is spent',
     'where': '5e `_check_move`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd15_split_movement']},
    {'id': 'DND-16',
     'rule': 'Attack: one melee or ranged attack.',
     'status': 'built',
     'decision': 'Attack action with `attacks` per action (Extra Attack / Multiattack). Where the bonus came from '
                 '(issue 24): the attack event lists `sources`, one entry a modifier (`source`, `value`, `rule`): '
                 'the ability (Str, Dex: the finesse weapon\'s better one; a spell: the spellcasting ability, DND-21), '
                 'proficiency when proficient, a feat\'s to-hit change (Great Weapon Master / Sharpshooter -5), '
                 'Martial Adept\'s precision die, and the cover on the target\'s side (`on = "AC"`, DND-32); the '
                 'save event likewise (ability, save proficiency, cover DND-32, Shield Master +2 DND-F20) with its '
                 '`advantage` / `disadvantage` reasons; an event names a feat (`feats`) only when the feat changed '
                 'something: a save\'s advantage from a feat cancelled by a disadvantage names neither. The log '
                 'line says them: "9 + 5 (Dex +3, proficiency +2) = 14"',
     'where': '5e `_check_attack`, 5e attacks `resolve_attack`, 5e figures `bonus_sources`; 5e conditions `saving_throw`; '
              '5e conditions `feat_named`; runner `sources_text`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd16_attack_and_multiattack',
               'tests/rules/dnd5e/test_dnd5e_concentration_loading.py::test_dnd16_attack_event_lists_each_modifier_with_its_rule',
               'tests/rules/dnd5e/test_dnd5e_concentration_loading.py::test_dnd_f20_shield_master_bonus_named_on_the_save',
               'tests/rules/dnd5e/test_dnd5e_concentration_loading.py::test_dnd_f14_f40_feats_not_named_when_advantage_and_disadvantage_cancel']},
    {'id': 'DND-17',
     'rule': 'Disengage: movement for the rest of the turn provokes no opportunity attacks.',
     'status': 'built',
     'decision': 'no opportunity attacks after Disengage',
     'where': '5e `_apply_move`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd17_disengage']},
    {'id': 'DND-18',
     'rule': "Help: give advantage on another creature's task, or on the first attack of an ally against a target "
             'within…',
     'status': 'built',
     'decision': "advantage on the ally's first attack before the helper's next turn (`help` with `against`, the "
                 'foe within 1.5 m of the helper). Help with a task (l. 343 "Pomagasz innej istocie w wykonywanym '
                 'przez nią zadaniu co daje jej ułatwienie"): `help` without `against` gives the ally advantage on '
                 'its next ability check (any, through `check_d20`: a skill check, a contest side, a lock); the text '
                 'names no distance for it (the 1.5 m is the attack\'s) and no end: it lapses at the helper\'s next '
                 'turn, as the attack\'s does (l. 344 "przed początkiem twojej następnej tury"). Listed for each '
                 'living friend while the action is unused (the listing\'s friend group), help against a foe for each '
                 'foe within 1.5 m',
     'where': '`dnd5e/actions/allies.py` `Help`, 5e attacks `attack_sources`, 5e conditions `task_help`, `check_d20`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd18_help', 'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd18_help_with_a_task']},
    {'id': 'DND-19',
     'rule': 'Search: Perception or Investigation, depending on what is searched.',
     'status': 'built',
     'decision': "Perception against the hiders' Stealth",
     'where': '5e `_apply_search`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd19_23_hide_and_search']},
    {'id': 'DND-20',
     'rule': 'Ready: declare a perceivable trigger and an action or a move; when it happens, use the reaction or '
             'ignore i…',
     'status': 'built',
     'decision': 'readied attack, reaction, trigger "enters reach/range". l. 361-362 "możliwe do zaobserwowania '
                 'przez ciebie okoliczności" and "możesz użyć swojej reakcji ... albo je zignorować": the reader must '
                 'see the mover (`sees`: an invisible or hidden mover sets nothing off), and taking the readied '
                 'action (attack or spell) is its choice point `readied_action` (the action\'s `reactions = {id = '
                 '{readied_action = false}}`, the character\'s `reactions` policy or `reaction_policy`; default take); '
                 'ignored, no reaction is spent and the action stays readied until its next turn. A readied spell (l. 363; before issue 24 '
                 '`ready` took a weapon only): `ready` with `spell` (a casting time of one action, a spell that '
                 'strikes a creature: attack, save or automatic damage; else refused, DND-20) spends the action and '
                 'the slot now, and its concentration holds it (DND-21: one at a time, the Con save on damage, lost '
                 'when incapacitated); a hostile creature (the `target` if given) ending a move within the spell\'s '
                 'range takes it as the reaction (events `readied_action`, `cast` with `readied`); broken '
                 'concentration loses it, and so does the start of the caster\'s next turn; listed in '
                 '`legal_actions`, the preview says the concentration',
     'where': '5e attacks `readied_triggers`; `dnd5e/actions/magic.py` `check_ready_spell`, `ready_spell`, '
              '`release_readied`; 5e turns `readied_action_lapses`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd20_ready',
               'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd20_ready_trigger_perceived_and_may_be_ignored',
               'tests/rules/dnd5e/test_dnd5e_concentration_loading.py::test_dnd20_readied_spell_held_by_concentration_and_released_on_the_trigger',
               'tests/rules/dnd5e/test_dnd5e_concentration_loading.py::test_dnd20_readied_spell_lost_when_its_concentration_breaks',
               'tests/rules/dnd5e/test_dnd5e_concentration_loading.py::test_dnd20_readied_spell_lapses_at_the_casters_next_turn_and_needs_one_action',
               'tests/rules/dnd5e/test_dnd5e_concentration_loading.py::test_dnd20_readied_spell_listed_and_previewed']},
    {'id': 'DND-21',
     'rule': 'Cast a spell with its own casting time.',
     'status': 'built',
     'decision': 'spells as data (attack, save, auto, heal, temp HP, conditions, areas). Concentration (named by the '
                 'document at War Caster l. 142, Mage Slayer l. 301 and the readied spell l. 363, never written out: '
                 "the grounding is the rulebook's, the SRD's \"Concentration\"): the spells that have it are marked "
                 '`concentration` in the data (hold person, entangle, cause fear); the caster holds one at a time '
                 '(casting another ends the first); damage makes it save Con, DC 10 or half the damage taken (rounded '
                 'down), whichever is higher, and a failure ends it; it ends when the caster is incapacitated (any '
                 'condition tagged `incapacitated`, unconscious at 0 HP included) or dies; when it ends, the condition '
                 'the spell put on each target (the caster its source) and its repeated save end too; broken while it '
                 "is cast (a Mage Slayer's hit), the spell ends unresolved. Shown in the JSON state (`concentration`: "
                 'spell, targets), the panel ("Concentrating on ..."), the events `concentration`, '
                 '`concentration_ends` (with the reason) and the save\'s `concentration` field, the cast preview '
                 '(`concentration`: what it ends) and the attack preview on a concentrating target (`notes`). '
                 'The spell durations (1 minute) are not counted: a fight rarely lasts 10 rounds',
     'where': '5e `_check_cast`, `_apply_cast`; data `SPELLS`; `dnd5e/concentration.py` `begin`, `end`, `damaged`, '
              '`incapacitated`; `dnd5e/damage.py` `apply_damage`, `die`; 5e conditions `add_condition`, `saving_throw`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd21_spells_attack_save_area',
               'tests/rules/dnd5e/test_dnd5e_concentration_loading.py::test_dnd21_concentration_scene_broken_by_damage',
               'tests/rules/dnd5e/test_dnd5e_concentration_loading.py::test_dnd21_concentration_dc_is_half_the_damage_above_20',
               'tests/rules/dnd5e/test_dnd5e_concentration_loading.py::test_dnd21_one_concentration_at_a_time',
               'tests/rules/dnd5e/test_dnd5e_concentration_loading.py::test_dnd21_concentration_ends_when_incapacitated_or_dead',
               'tests/rules/dnd5e/test_dnd5e_concentration_loading.py::test_dnd21_concentration_not_for_other_spells_and_no_save_without_it',
               'tests/rules/dnd5e/test_dnd5e_concentration_loading.py::test_dnd21_concentration_in_the_listing_previews_panel_and_log']},
    {'id': 'DND-22',
     'rule': 'Dash: extra movement — this turn the creature may move 2 × its speed.',
     'status': 'built',
     'decision': 'Dash adds the speed again',
     'where': '5e `_apply_dash`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd22_dash_doubles_movement']},
    {'id': 'DND-23',
     'rule': 'Hide: Stealth contested by the Perception of everyone actively searching; on success they cannot see the '
             'hi…',
     'status': 'built',
     'decision': 'hide needs half cover; contested by searchers',
     'where': '5e `_check_hide`, `_apply_hide`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd19_23_hide_and_search',
               'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd23_cannot_hide_in_plain_sight']},
    {'id': 'DND-24',
     'rule': 'Dodge: until the start of its next turn, attacks against it have disadvantage and it has advantage on '
             'Dexte…',
     'status': 'built',
     'decision': 'disadvantage against, advantage on Dex saves; both lost when incapacitated or speed 0 ("Tracisz te korzyści": one test, `conditions.dodge_holds`). Against an attacker it cannot see: the document (004, "Unik") says "każdy atak skierowany na ciebie ma utrudnienie" (every attack against you has disadvantage); 5e adds "if you can see the attacker". Decision: the document (every attack); `dodge_unseen = "needs_sight"` for 5e\'s reading',
     'where': '5e attacks `attack_sources`, 5e conditions `saving_throw`, `dodge_holds`; `dnd5e/advantage.py` `dodging_target`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_readings.py::test_dnd24_dodge_against_an_unseen_attacker', 'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd24_dodge',
               'tests/rules/dnd5e/test_dnd5e_readings.py::test_dnd24_dodge_dex_save_advantage_is_lost_at_speed_0']},
    {'id': 'DND-25',
     'rule': 'Use an object that needs an action.',
     'status': 'built',
     'decision': '`use` (potion_of_healing heals 2d4+2)',
     'where': '5e `_apply_use`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd25_use_an_object']},
    {'id': 'DND-26',
     'rule': 'Attacking a target you cannot see: disadvantage; a wrong guessed location misses. A target that cannot '
             'see…',
     'status': 'built',
     'decision': 'unseen attacker advantage, unseen target disadvantage, attacking reveals',
     'where': '5e attacks `attack_sources`, 5e attacks `resolve_attack`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd26_unseen_attackers_and_targets',
               'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd26_attacking_reveals_the_hider']},
    {'id': 'DND-27',
     'rule': 'A ranged attack (weapon or spell) within 1.5 m of a hostile creature that sees the attacker and is not '
             'inca…',
     'status': 'built',
     'decision': 'ranged attack engaged by a seeing, capable hostile: disadvantage',
     'where': '5e attacks `attack_sources`',
     'tests': ['tests/rules/test_air_rules.py::test_air04_engagement_is_same_layer_or_one_apart',
               'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd27_not_when_the_neighbour_is_incapacitated']},
    {'id': 'DND-28',
     'rule': 'Opportunity attack: when a hostile creature the reactor can see leaves its reach, the reactor may spend '
             'its…',
     'status': 'built',
     'decision': 'leaving reach (AIR-05) provokes; not if unseen; forced movement never',
     'where': '5e attacks `opportunity_attacks`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd28_opportunity_attacks_and_forced_movement',
               'tests/rules/test_air_rules.py::test_air05_climbing_out_of_reach_provokes_an_opportunity_attack']},
    {'id': 'DND-29',
     'rule': 'Two-weapon fighting: after attacking with a light one-handed weapon, a bonus action attacks with a light '
             'we…',
     'status': 'built',
     'decision': 'off-hand light attack as bonus action, no positive modifier. l. 406 "inną lekką bronią trzymaną '
                 'w drugiej dłoni": another weapon than the one that attacked (two daggers, not one dagger twice); '
                 'l. 407 "Nie dodajesz swojego modyfikatora z cechy": the ability modifier only, when positive -- a '
                 'weapon\'s own `damage_bonus` stays (Str -2 and a +3 weapon: +1)',
     'where': '5e `_check_attack`, `dnd5e/gear.py` `other_hand`, `dnd5e/figures.py` `damage_modifier`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd29_two_weapon_fighting',
               'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd29_off_hand_is_another_weapon_and_keeps_the_weapons_own_bonus']},
    {'id': 'DND-30',
     'rule': 'Grapple: replaces one attack; target at most one size larger and within reach; Athletics against the '
             'target…',
     'status': 'built',
     'decision': 'grapple replaces an attack; contest; size; auto vs incapacitated; escape',
     'where': '5e `_check_grapple`, 5e conditions `contest`, 5e `_apply_escape`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd30_grapple_escape_and_size']},
    {'id': 'DND-31',
     'rule': 'Shove: as a grapple attempt, but the target is knocked prone or pushed 1.5 m away.',
     'status': 'built',
     'decision': 'shove prone or push one cell (off an edge: falls)',
     'where': '5e `_apply_shove`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd31_shove_prone',
               'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd31_push_off_a_roof_falls', 'scenes/air_rooftop.toml']},
    {'id': 'DND-32',
     'rule': 'Cover: half cover +2 AC; three-quarters cover +5 AC and Dexterity saves; total cover: cannot be targeted '
             'di…',
     'status': 'built',
     'decision': '+2 / +5 AC; l. 429 "w trzech czwartych dostaje +5 do KP i rzutów obronnych na zręczność": +5 to '
                 'Dex saves with three-quarters cover, none with half (l. 428 "połowicznie dostaje +2 do KP": AC '
                 'only; option `half_cover_dex_saves = true`: the rulebook\'s +2); total = no target; another '
                 'creature in the way = half',
     'where': '5e attacks `resolve_attack`, 5e conditions `saving_throw`, 5e attacks `creature_between`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd32_cover_bonuses_to_ac_and_dex_saves',
               'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd32_another_creature_is_half_cover',
               'tests/rules/dnd5e/test_dnd5e_concentration_loading.py::test_dnd32_save_event_names_the_cover_bonus',
               'tests/rules/test_air_rules.py::test_air13_14_low_wall_protects_from_the_ground_not_from_high_above',
               'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd32_half_cover_gives_no_dex_save_bonus_as_written']},
    {'id': 'DND-33',
     'rule': 'Resistance halves damage of that type, vulnerability doubles it, applied after all other modifiers; '
             'several…',
     'status': 'built',
     'decision': 'after all modifiers ("Odporność i podatność są brane pod uwagę po zastosowaniu wszystkich '
                 'modyfikatorów do obrażeń"): the last damage modifier, after Heavy Armor Master\'s −3; same type once',
     'where': '5e damage `apply_damage`; `dnd5e/damage.py` `DAMAGE_MODIFIERS` order',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd33_resistance_and_vulnerability',
               'tests/rules/dnd5e/test_dnd5e_readings.py::test_dnd33_resistance_comes_after_heavy_armor_master']},
    {'id': 'DND-34',
     'rule': 'Knocking out: an attacker that reduces a creature to 0 HP may knock it out instead: unconscious and '
             'stable.',
     'status': 'built',
     'decision': '`knock_out = true` on an attack, melee or ranged: l. 441 "Jeśli zadałeś obrażenia istocie i jej PW zostało zredukowane do 0 to możesz podjąć decyzję, że zamiast zabijać to ogłuszasz cel" names no melee (a spell has no `knock_out`); option `knock_out = "melee"`: the rulebook\'s melee attack only',
     'where': '5e damage `apply_damage`; `dnd5e/actions/standard.py` `Attack.check`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd34_knock_out', 'tests/rules/dnd5e/test_dnd5e_feats_as_written.py::test_dnd34_knock_out_with_any_attack_and_the_melee_option']},
    {'id': 'DND-35',
     'rule': 'Temporary HP: a separate pool lost first; may exceed max HP; not restored by healing; new temporary HP '
             'repl…',
     'status': 'built',
     'decision': 'lost first (at 0 HP too, before any death-save failure), keep the higher, not healed, do not wake',
     'where': '5e damage `apply_damage`, 5e damage `give_temp_hp`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_readings.py::test_dnd35_dnd04_temp_hp_absorb_damage_at_0_hp_before_a_failure', 'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd35_temporary_hp']},
    {'id': 'DND-36',
     'rule': 'Mounts: mounting or dismounting a creature within 1.5 m costs half speed; moved against its will while '
             'moun…',
     'status': 'built',
     'decision': 'see "Mounts" above',
     'where': '5e `_check_mount`, 5e mounts `mount_fell`, aerial `fall`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd36_mounts',
               'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd36_mount_knocked_prone_rider_lands_on_feet']},
    {'id': 'DND-37',
     'rule': 'Underwater: without a swim speed melee attacks have disadvantage except with shortsword, javelin, '
             'dagger, t…',
     'status': 'built',
     'decision': '`underwater = true` characters; a swim speed excuses the melee disadvantage only (l. 467 "Jeśli nie '
                 'posiadasz szybkości pływania masz utrudnienie w atakach wręcz"); a ranged attack has disadvantage '
                 'swim speed or not, unless crossbow, net or a thrown weapon like the javelin (l. 468)',
     'where': '5e attacks `attack_sources`, 5e attacks `attack_plan`, 5e damage `apply_damage`; `dnd5e/advantage.py` `underwater`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd37_underwater',
               'tests/rules/dnd5e/test_dnd5e_readings.py::test_dnd37_a_swim_speed_excuses_melee_only_ranged_keeps_its_disadvantage']},
    {'id': 'DND-38',
     'rule': 'Sneak attack: once per round, with advantage and a finesse or ranged weapon, extra damage by level (1–2: '
             '1d…',
     'status': 'built',
     'decision': 'level dice, finesse or ranged, advantage or an ally next to the target, once per round',
     'where': '5e attacks `sneak_ok`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd38_sneak_attack']},
    {'id': 'DND-39',
     'rule': "Opening locks: thieves' tools (Dexterity + proficiency, doubled with expertise), forcing (Strength "
             'against…',
     'status': 'built',
     'decision': "`pick_lock` (an action, next to the object, needs the character key `tools = { thieves_tools = "
                 '"carried" / "proficient" / "expertise" }`: Dex, + proficiency, doubled with expertise), `force_lock` '
                 '(an action: Str against the DC), or breaking it (attack the object, DND-40); `lock = { dc = N }` on '
                 'an object; an opened door (`opens`, default) leaves the way (its voxels go, not destroyed); a chest '
                 '(`opens = false`) is only unlocked',
     'where': '`dnd5e/actions/objects.py` `PickLock`, `ForceLock`, `lockpick_bonus`, `_roll_lock`; '
              '`objects.py` `open_lock`',
     'tests': ['tests/rules/test_objects.py::test_dnd39_thieves_tools_dex_plus_proficiency_doubled_with_expertise',
               'tests/rules/test_objects.py::test_dnd39_picking_needs_tools_and_opening_clears_the_way',
               'tests/rules/test_objects.py::test_dnd39_a_lock_is_worked_from_next_to_it',
               'tests/rules/test_objects.py::test_dnd39_the_locked_doors_scene_picks_forces_and_breaks',
               'scenes/objects_locked_doors.toml']},
    {'id': 'DND-40',
     'rule': 'Objects: AC by material (paper 11 … adamantine 23; wood about 15, stone 17, metal 19); HP by size and '
             'tough…',
     'status': 'built',
     'decision': 'materials carry AC (rope 11, glass 13, wood 15, stone 17, metal 19), HP per voxel (a voxel is a '
                 'medium object: fragile 4, resilient 18), a damage threshold, immunity to psychic and poison, '
                 'resistances and vulnerabilities from the examples (fire works on wood not stone, bludgeoning on '
                 'glass, a pick on stone); ground is indestructible; `[materials.NAME]` may set `ac`, `hp`, '
                 '`toughness`, `threshold`, `indestructible`, the damage-type lists; `[[objects]]` (id, from/to, '
                 'material, hp = HP per voxel x voxels unless given, ac, threshold, lock, parts with their own HP, '
                 '`fells`); `attack` with `target = OBJECT[.PART]` or `voxel = [x, y, z]`: range, reach and line of '
                 'sight as for a creature, cover from the voxels, no dodge; at 0 HP the voxels become air (not '
                 'rubble) for everyone, walkers on them fall (AIR-12), `object_destroyed`',
     'where': '`dnd5e/actions/objects.py` `AttackObject`, `object_sources`, `target_of`; `objects.py` `resolve`, '
              '`sight`, `adjusted`, `damage`, `break_target`, `remove_boxes`, `drop_unsupported`, `rebuild_world`; '
              '`engine/world/objects.py` `build_objects`, `material_object_stats`',
     'tests': ['tests/rules/test_objects.py::test_dnd40_builtin_materials_carry_object_stats',
               'tests/rules/test_objects.py::test_dnd40_scene_materials_may_set_object_stats',
               'tests/rules/test_objects.py::test_dnd40_bad_objects_are_one_line_naming_the_key',
               'tests/rules/test_objects.py::test_dnd40_immune_resistant_vulnerable_threshold',
               'tests/rules/test_objects.py::test_dnd40_destroyed_at_0_hp_changes_the_world_and_cover_for_everyone',
               'tests/rules/test_objects.py::test_dnd40_an_object_is_hit_against_its_ac_plus_cover_and_cannot_dodge',
               'tests/rules/test_objects.py::test_dnd40_a_voxel_of_terrain_can_be_attacked_air_and_out_of_reach_are_refused',
               'tests/rules/test_objects.py::test_dnd40_parts_have_their_own_hp_and_a_felling_part_brings_the_object_down',
               'tests/rules/test_objects.py::test_dnd40_breaking_drops_walkers_with_the_aerial_fall_and_leaves_flyers',
               'tests/rules/test_objects.py::test_dnd40_replays_and_saves_rebuild_the_same_voxels',
               'tests/rules/test_objects.py::test_dnd40_one_broken_voxel_remeshes_only_its_chunk',
               'scenes/objects_low_wall.toml', 'scenes/objects_rope_bridge.toml']},
    {'id': 'DND-41',
     'rule': 'Unconscious: incapacitated; drops what it holds and falls prone; auto-fails Strength and Dexterity '
             'saves; a…',
     'status': 'built',
     'decision': 'incapacitated, prone, adv against, crit within 1.5 m, fails Str/Dex saves',
     'where': '5e conditions `add_condition`, 5e attacks `resolve_attack`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd41_unconscious_adv_and_auto_crit_within_1_5m']},
    {'id': 'DND-42',
     'rule': 'Invisible: cannot be seen without special senses; counts as heavily obscured for hiding; attacks against '
             'it…',
     'status': 'built',
     'decision': 'disadvantage against, advantage for it, cannot be seen',
     'where': '5e attacks `sees`, 5e attacks `attack_sources`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd42_invisible']},
    {'id': 'DND-43',
     'rule': 'Incapacitated: no actions and no reactions.',
     'status': 'built',
     'decision': 'no actions, no reactions; its turn passes',
     'where': '5e `check`, 5e attacks `opportunity_attacks`, 5e turns `begin_turn`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd43_incapacitated_no_actions_no_reactions']},
    {'id': 'DND-44',
     'rule': 'Deafened: cannot hear; fails hearing-based checks.',
     'status': 'built',
     'decision': 'recorded; no combat effect (no hearing checks in combat)',
     'where': '5e data `CONDITIONS`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd44_deafened_changes_no_attack']},
    {'id': 'DND-45',
     'rule': 'Stunned: incapacitated, cannot move, speaks falteringly; auto-fails Strength and Dexterity saves; '
             'attacks a…',
     'status': 'built',
     'decision': 'incapacitated, speed 0, fails Str/Dex saves, adv against',
     'where': '5e',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd45_stunned']},
    {'id': 'DND-46',
     'rule': 'Blinded: cannot see; fails sight-based checks; attacks against it have advantage, its attacks '
             'disadvantage.',
     'status': 'built',
     'decision': 'its attacks dis, attacks against adv; l. 505 "automatycznie nie zdaje testów cech opartych na '
                 'wzroku": its Search (which finds a hider along a line of sight, DND-19/23) fails with no roll '
                 '(the search event\'s `auto_fail`); the game master\'s `secret_door` leaves the sense to the GM',
     'where': '5e attacks `attack_sources`, 5e attacks `sees`, 5e conditions `sight_check_fails`; `dnd5e/actions/standard.py` `Search.effect`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd46_blinded',
               'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd46_blinded_search_fails_without_a_roll']},
    {'id': 'DND-47',
     'rule': 'Grappled: speed 0, no speed bonuses; ends if the grappler is incapacitated or the target is moved out of '
             'it…',
     'status': 'built',
     'decision': 'speed 0; ends when the grappler is incapacitated or out of reach',
     'where': '5e conditions `speed_zero`, 5e conditions `check_grapples`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd47_grapple_ends_when_grappler_incapacitated_or_out_of_reach',
               'scenes/air_grappled_flyer.toml']},
    {'id': 'DND-48',
     'rule': 'Prone: may only crawl unless it stands up; disadvantage on its attacks; attacks from within 1.5 m have '
             'adva…',
     'status': 'built',
     'decision': 'crawl at double cost, stand for half speed, adv within 1.5 m, dis beyond (option), its attacks dis',
     'where': '5e',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd48_prone',
               'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd48_crawling_costs_double']},
    {'id': 'DND-49',
     'rule': 'Frightened: disadvantage on checks and attacks while the source is in sight; cannot willingly move '
             'closer t…',
     'status': 'built',
     'decision': 'dis on checks and attacks while the source is in sight: every ability check (one function, `conditions.check_d20`: a skill check, both sides of a contest, the grappler against an escape, a lock); cannot willingly move closer whether or not it sees the source (`frightened:SOURCE`; `frightened_move = "in_sight"` the old reading)',
     'where': '5e `_check_move`, 5e attacks `attack_sources`, 5e conditions `check_d20`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd49_frightened', 'tests/rules/dnd5e/test_dnd5e_readings.py::test_dnd49_frightened_cannot_move_closer_even_without_seeing_the_source',
               'tests/rules/dnd5e/test_dnd5e_readings.py::test_dnd49_dnd53_every_ability_check_the_defender_the_grappler_and_a_lock',
               'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd49_a_frightened_characters_moves_never_go_closer_to_the_source']},
    {'id': 'DND-50',
     'rule': 'Petrified: incapacitated, cannot move or speak, unaware; weight ×10; attacks against it have advantage; '
             'aut…',
     'status': 'built',
     'decision': 'incapacitated, resistance to all, adv against, fails saves; l. 531 "niepodatny na trucizny i '
                 'choroby": immune to poison damage (read as DND-40\'s "niepodatne na obrażenia psychiczne i '
                 'trucizny") and to the poisoned condition (event `condition_immune`); a poison taken before is '
                 'suspended, and petrified it makes no attack or check the poison could hinder; diseases are not '
                 'modelled',
     'where': '5e damage `apply_damage`, `petrified_immune_to_poison`; 5e conditions `condition_immunity`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd50_petrified_resists_everything',
               'tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd50_petrified_immune_to_poison']},
    {'id': 'DND-51',
     'rule': 'Paralyzed: incapacitated, cannot move or speak; auto-fails Strength and Dexterity saves; attacks against '
             'it…',
     'status': 'built',
     'decision': 'crit within 1.5 m, adv against, fails saves',
     'where': '5e attacks `resolve_attack`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd51_paralyzed_crit_within_reach']},
    {'id': 'DND-52',
     'rule': 'Restrained: speed 0; attacks against it have advantage, its attacks disadvantage; disadvantage on '
             'Dexterity…',
     'status': 'built',
     'decision': 'speed 0, adv against, its attacks dis, Dex saves dis',
     'where': '5e',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd52_restrained']},
    {'id': 'DND-53',
     'rule': 'Poisoned: disadvantage on attack rolls and ability checks.',
     'status': 'built',
     'decision': 'dis on attacks and checks ("Zatruty ma utrudnienie w rzutach na atak i testach cech"): every ability check goes through `conditions.check_d20` (a skill check, both sides of a contest, the grappler against an escape, picking or forcing a lock)',
     'where': '5e attacks `attack_sources`, 5e conditions `check_d20`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd53_poisoned',
               'tests/rules/dnd5e/test_dnd5e_readings.py::test_dnd49_dnd53_every_ability_check_the_defender_the_grappler_and_a_lock']},
    {'id': 'DND-54',
     'rule': 'Charmed: cannot attack or harm the charmer; the charmer has advantage on social checks against it.',
     'status': 'built',
     'decision': 'cannot attack or harm the charmer (`charmed:SOURCE`): no attack, no harmful spell, and no shove '
                 'or grapple ("ani w żaden inny sposób zaszkodzić")',
     'where': '5e attacks `attack_plan`, 5e magic `check_target`, 5e conditions `contest_target`',
     'tests': ['tests/rules/dnd5e/test_dnd5e_rules.py::test_dnd54_charmed',
               'tests/rules/dnd5e/test_dnd5e_readings.py::test_dnd54_charmed_cannot_shove_or_grapple_its_charmer']},
]
