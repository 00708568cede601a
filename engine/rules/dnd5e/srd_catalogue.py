"""The SRD 5.1 creatures' mechanics (SRD-xx): what the stat blocks of assets/srd/creatures.json do at the table, each
with the text it implements (the SRD 5.1, CC-BY-4.0) and the decision taken. Fields and rendering:
engine/rules/catalogue.py."""

T = "tests/rules/dnd5e/test_srd_mechanics.py::"
SC = "tests/rules/dnd5e/test_srd_spellcasting.py::"

RULES = [
    {'id': 'SRD-01',
     'rule': 'Multiattack as written: "The dragon makes three attacks: one with its bite and two with its claws" '
             '(alternatives with "or": "Or the captain makes two ranged attacks with its daggers").',
     'status': 'built',
     'decision': 'the sheet\'s `multiattack` lists the combinations ({attack: count}); the Attack action gives the '
                 'largest number of attacks and each attack must keep one combination possible (refused citing '
                 'SRD-01), so `legal_actions`, the preview and the policies follow the text; a combination naming '
                 'another action (Frightful Presence, a breath "in place of its bite") keeps its attacks and '
                 '`features` names what is left out',
     'where': 'srd multiattack `refusal`, srd multiattack `made`, srd blocks `character`',
     'tests': [T + 'test_srd01_multiattack_as_written', T + 'test_srd01_alternatives_with_or']},
    {'id': 'SRD-02',
     'rule': 'A hit\'s added damage: "Hit: 17 (2d10 + 6) piercing damage plus 3 (1d6) fire damage."',
     'status': 'built',
     'decision': 'each added damage a weapon key `extra` = [{damage, type, bonus}], rolled as `extra_damage` (doubled '
                 'on a critical) and dealt as its own type after the weapon\'s, each with its own resistances',
     'where': 'srd traits `extra_damage`, 5e attacks `_damage`',
     'tests': [T + 'test_srd02_a_hits_added_damage']},
    {'id': 'SRD-03',
     'rule': 'Damage resistances, immunities and vulnerabilities of the stat block, "bludgeoning, piercing, and '
             'slashing from nonmagical weapons" included.',
     'status': 'built',
     'decision': 'the block\'s types as DND-33\'s; "from nonmagical weapons" is `nonmagical_<type>`: a weapon attack '
                 'whose weapon has no `magical` property (the sandbox\'s weapons are mundane unless a scene says so; '
                 'a spell attack is magical; "Magic Weapons" / "Angelic Weapons" / "Hellish Weapons": "The deva\'s weapon '
                 'attacks are magical" gives its weapons the property) is resisted, or ignored for an immunity',
     'where': 'srd traits `nonmagical_weapons`, 5e damage `immunity_resistance_vulnerability`, srd blocks `character`',
     'tests': [T + 'test_srd03_resistance_to_nonmagical_weapons_and_immunity',
               T + 'test_srd03_immunity_and_vulnerability_from_the_block',
               T + 'test_srd03_magic_weapons_bypass_nonmagical_resistance',
               'tests/rules/dnd5e/test_srd_auras.py::test_srd03_hellish_weapons_are_magical']},
    {'id': 'SRD-04',
     'rule': 'Condition immunities: "Condition Immunities poisoned" -- the condition is not applied.',
     'status': 'built',
     'decision': 'a `condition_immune` event naming SRD-04 instead of the condition (exhaustion is not tracked)',
     'where': 'srd sheet `immune_condition`, 5e conditions `condition_immunity`',
     'tests': [T + 'test_srd04_condition_immunity']},
    {'id': 'SRD-05',
     'rule': 'Recharge X-Y: "Fire Breath (Recharge 5-6)": the action is spent once used; at the start of each of '
             'its turns the creature rolls a d6 and on the range written it can use it again; "(3/Day)": uses per day.',
     'status': 'built',
     'decision': 'a d6 named `recharge` at the start of its turn (a turn-start rule, recorded as a die; forced with '
                 '`rolls = { recharge = 5 }`) for each spent action, a `recharge` event; a spent or used-up action is '
                 'refused citing SRD-05 and not listed',
     'where': 'actions/srd.py `recharge_roll`, actions/srd.py `CreatureAction`',
     'tests': [T + 'test_srd05_recharge_a_d6_at_the_start_of_its_turn']},
    {'id': 'SRD-06',
     'rule': 'Reach from the stat block: "Melee Weapon Attack: +10 to hit, reach 10 ft."',
     'status': 'built',
     'decision': 'each attack carries its own `reach_m` (5 ft = 1.5 m; AIR-05 measures it in 3D); a swarm\'s "reach '
                 '0 ft." is played at 1.5 m (no body shares its space; `features` says so)',
     'where': 'srd blocks `weapon`, 5e attacks `melee_reach`',
     'tests': [T + 'test_srd06_reach_from_the_stat_block']},
    {'id': 'SRD-07',
     'rule': 'Flyby: "The owl doesn\'t provoke opportunity attacks when it flies out of an enemy\'s reach."',
     'status': 'built',
     'decision': 'no opportunity attack against it while it is flying; a move on the ground provokes as usual',
     'where': 'srd traits `no_flyby_opportunity`, 5e attacks `oa_allowed`',
     'tests': [T + 'test_srd07_flyby_no_opportunity_attack_when_it_flies_out_of_reach']},
    {'id': 'SRD-08',
     'rule': 'Hover: "fly 90 ft. (hover)"; SRD Movement: "If a flying creature is knocked prone, has its speed reduced '
             'to 0, or is otherwise deprived of the ability to move, the creature falls, unless it has the ability '
             'to hover".',
     'status': 'built',
     'decision': 'against AIR-10 (a flyer falls when it becomes Prone, Stunned, loses its movement ...): a creature '
                 'with hover does not fall for prone, grappled, restrained, stunned, paralyzed, petrified, frozen or '
                 'speed 0; it still falls when it dies or drops to 0 HP (AIR-10 names Dying and Unconscious apart, '
                 'and the SRD speaks of the ability to move, not of consciousness)',
     'where': 'srd traits `hover_holds`, 5e `fall_reason`',
     'tests': [T + 'test_srd08_hover_does_not_fall_when_knocked_prone_or_stunned']},
    {'id': 'SRD-09',
     'rule': 'Pack Tactics: "advantage on an attack roll against a creature if at least one of the hawk\'s allies is '
             'within 5 feet of the creature and the ally isn\'t incapacitated."',
     'status': 'built',
     'decision': 'an ally of its side, not incapacitated, engaged with the target in 3D (AIR-05\'s 1.5 m)',
     'where': 'srd traits `pack_tactics`',
     'tests': [T + 'test_srd09_pack_tactics']},
    {'id': 'SRD-10',
     'rule': 'Magic Resistance: "advantage on saving throws against spells and other magical effects."',
     'status': 'built',
     'decision': 'the saves a spell forces (DND-21); a concentration save is not against a spell',
     'where': 'srd sheet `magic_resistance`, 5e conditions `saving_throw`',
     'tests': [T + 'test_srd10_magic_resistance']},
    {'id': 'SRD-11',
     'rule': 'Keen Sight: "advantage on Wisdom (Perception) checks that rely on sight."',
     'status': 'built',
     'decision': 'its passive Perception, which notices a hider it can see (DND-23, `hide_passive = '
                 '"passive_perception"`), is +5 (advantage on a passive check); also Keen Hearing and Sight, Keen '
                 'Sight and Smell; Keen Hearing ("checks that rely on hearing"), Keen Hearing and Smell and Keen '
                 'Senses the same: a hider\'s Stealth (DND-23) is against being heard as much as seen (Keen Smell '
                 'alone is not played: the sandbox tracks no scent)',
     'where': 'srd sheet `keen_sight`, 5e conditions `passive`',
     'tests': [T + 'test_srd11_keen_sight']},
    {'id': 'SRD-12',
     'rule': 'Save actions as written: "The dragon exhales fire in a 30-foot cone. Each creature in that area must '
             'make a DC 17 Dexterity saving throw, taking 56 (16d6) fire damage on a failed save, or half as much '
             'damage on a successful one."',
     'status': 'built',
     'decision': '`creature_action` with `feature` (the action as written) and a point `at` or a `target`: every '
                 'creature in the volume in 3D (a cone from the creature, a radius around it or a point; the spells\' '
                 '`area_targets`), flyers below included; one damage roll, each target its save (DC and ability of '
                 'the block), half on a success where the text says so (the text over 5e-database\'s fields), the '
                 'condition on a failure (and its repeated save where written), Dexterity saves with the cover DND-32 '
                 'grants from the creature; a line ("exhales lightning in a 90-foot line that is 5 feet wide") with the spells\' '
                 'area code (engine/rules/dnd5e/areas.py: every creature any part of whose body is in it); cubes '
                 'are not played (`features` says so); the metallic dragons\' "Breath Weapons (Recharge 5-6). The '
                 'dragon uses one of the following breath weapons": each breath its own action, the two sharing one '
                 'recharge (one d6 for both, SRD-05); a breath whose effect the rules do not track (pushed, slowed, '
                 'weakened) is not offered and `features` names it; a save thrown "at a point it can see within 15 '
                 'feet of it" (the gibbering mouther\'s Blinding Spittle, the storm giant\'s Lightning Strike, which '
                 '5e-database reads as around the creature) is a sphere of the radius written at that point, its range '
                 'the distance written',
     'where': 'actions/srd.py `CreatureAction`, actions/srd.py `line_targets`, srd blocks `save_action`, '
              'srd blocks `breath_options`',
     'tests': [T + 'test_srd12_breath_cone_catches_a_flyer_two_layers_below_and_a_walker_behind_half_cover',
               T + 'test_srd12_a_line_breath_catches_each_creature_on_the_line',
               T + 'test_srd12_the_metallic_breath_weapons_share_one_recharge',
               'tests/rules/dnd5e/test_srd_swallow.py::test_srd12_blinding_spittle_bursts_at_a_point_not_around_the_'
               'mouther']},
    {'id': 'SRD-13',
     'rule': 'A hit that forces a save: "Hit: ... and the target must succeed on a DC 14 Constitution saving throw or '
             'become poisoned for 1 minute. The target can repeat the saving throw at the end of each of its turns, '
             'ending the effect on itself on a success."',
     'status': 'built',
     'decision': 'a weapon key `on_hit` {dc, ability, damage, half, condition, repeat_save}: after the hit\'s damage the '
                 'target saves; a failure takes the damage (half on a success where written) and the condition '
                 '(a condition the rules track), its repeated save at the end of each of its turns where written; '
                 'whatever else the text says (diseases, hit point maximum, petrification over turns) is named in '
                 '`features` as left out',
     'where': 'srd traits `on_hit_save`, srd blocks `on_hit`, 5e attacks `_damage`',
     'tests': [T + 'test_srd13_a_hit_that_forces_a_save']},
    {'id': 'SRD-14',
     'rule': 'Legendary Resistance (3/Day): "If the dragon fails a saving throw, it can choose to succeed instead."',
     'status': 'built',
     'decision': 'a choice point of the creature\'s after a failed save (`legendary_resistance`; its policy: use it '
                 'while uses are left); the save event says it (`legendary_resistance`: the uses left), the sheet '
                 'counts them; the scene may set `legendary_resistance` (uses left today)',
     'where': 'srd sheet `legendary_resistance`, 5e conditions `saving_throw`',
     'tests': [T + 'test_srd14_legendary_resistance']},
    {'id': 'SRD-15',
     'rule': 'Legendary actions: "The dragon can take 3 legendary actions, choosing from the options below. Only one '
             'legendary action option can be used at a time and only at the end of another creature\'s turn. The '
             'dragon regains spent legendary actions at the start of its turn."',
     'status': 'built',
     'decision': 'the options the rules play: one of its attacks ("makes a tail attack") and a save around it ("Wing '
                 'Attack (Costs 2 Actions)"); at the end of each other creature\'s turn a legendary creature that is '
                 'not incapacitated takes the first option it can pay for that reaches a foe (a `legendary_action` '
                 'event with the points left), its points back at the start of its turn; the GM\'s own choice at '
                 'that moment (a choice point) and the options that are not attacks, saves or Detect (SRD-17: a move, '
                 'a spell, a teleport) are not offered yet (`features` names them)',
     'where': 'srd legendary `legendary_actions`, srd legendary `legendary_points_return`, srd blocks `legendary_option`',
     'tests': [T + 'test_srd15_legendary_actions_at_the_end_of_another_creatures_turn']},
    {'id': 'SRD-16',
     'rule': 'Frightful Presence: "Each creature of the dragon\'s choice that is within 120 feet of the dragon and aware '
             'of it must succeed on a DC 16 Wisdom saving throw or become frightened for 1 minute. A creature can '
             'repeat the saving throw at the end of each of its turns, ending the effect on itself on a success. If a '
             'creature\'s saving throw is successful or the effect ends for it, the creature is immune to the '
             'dragon\'s Frightful Presence for the next 24 hours." Multiattack: "The dragon can use its Frightful '
             'Presence. It then makes three attacks".',
     'status': 'built',
     'decision': 'a `creature_action` around the creature of the range written; "of the dragon\'s choice" is its '
                 'foes, "aware of it" a foe that is conscious (no surprise in the sandbox); a success, or a fear '
                 'that has ended (its repeated save, the condition removed), makes that creature immune for the rest '
                 'of the scene (24 hours outlast any fight): the next use leaves it out of its targets; used as the '
                 'first part of its Multiattack it spends the action and leaves the Attack action\'s attacks to make',
     'where': 'srd presence `affected`, srd presence `after_save`, actions/srd.py `CreatureAction`, '
              'srd blocks `multiattack_with`',
     'tests': [T + 'test_srd16_frightful_presence_save_frightened_and_immunity']},
    {'id': 'SRD-17',
     'rule': 'The legendary action Detect: "Detect. The dragon makes a Wisdom (Perception) check."',
     'status': 'built',
     'decision': 'the check a Search makes (DND-19, DND-23): its Perception total against each hidden foe\'s Stealth '
                 'total, a foe it can see whose total it meets found (`revealed`); a legendary option (SRD-15) its '
                 'policy takes at the end of another creature\'s turn when a foe is hidden from it and it is not '
                 'blinded (a check with nothing to find changes nothing), a `legendary_action` event then the check',
     'where': 'srd detect `detect`, srd detect `worth_it`, srd legendary `legendary_actions`, srd blocks `legendary_option`',
     'tests': [T + 'test_srd17_detect_a_legendary_perception_check_finds_a_hidden_foe']},
    {'id': 'SRD-18',
     'rule': 'Death Burst: "When the mephit dies, it explodes in a burst of jagged ice. Each creature within 5 ft. of it '
             'must make a DC 10 Dexterity saving throw, taking 4 (1d8) slashing damage on a failed save, or half as '
             'much damage on a successful one." (the dust mephit\'s: "or be blinded for 1 minute. A blinded creature '
             'can repeat the saving throw on each of its turns").',
     'status': 'built',
     'decision': 'on the damage module\'s `DEATH` hook: when the creature dies (not when it is dying at 0 HP: the '
                 'text says "dies"), every other living creature in the radius, its allies too, saves against the '
                 'block\'s DC; one damage roll, half on a success where written, the condition on a failure with its '
                 'repeated save at the end of each of its turns; Dexterity saves with the cover DND-32 grants from the '
                 'creature (a `death_burst` event, then the saves); the magmin\'s igniting of flammable objects is '
                 'left out (`features` says so)',
     'where': 'srd burst `death_burst`, srd blocks `death_burst`, 5e damage `die`',
     'tests': [T + 'test_srd18_death_burst_when_the_mephit_dies']},
    {'id': 'SRD-19',
     'rule': 'A hit that grapples: "Talons. ... Hit: 23 (4d6 + 9) slashing damage, and the target is grappled (escape DC '
             '19). Until this grapple ends, the target is restrained, and the roc can\'t use its talons on another '
             'target." (a size limit where written: "If the target is a Medium or smaller creature, it is grappled").',
     'status': 'built',
     'decision': 'a weapon key `grapple` {escape_dc, max_size, restrained, one_target}: after the hit\'s damage a '
                 'living target within the size is grappled (the grappler its source: DND-47\'s reach and AIR\'s '
                 'grappled flyer apply as to any grapple) and restrained where written; the Escape action is a check '
                 'against the escape DC (not a contest); the restraint ends with the grapple (an escape, the '
                 'grappler\'s death, out of reach); an attack with that weapon at another creature is refused while '
                 'it lasts; a text saying more (two claws each holding one, automatic hits, damage each turn) is '
                 'named in `features` as left out. Carrying the grappled creature aloft is not played (the sandbox '
                 'has no dragging)',
     'where': 'srd grapple `on_hit`, srd grapple `refusal`, srd grapple `escape_dc`, 5e conditions `release`, '
              'srd blocks `grapple`',
     'tests': [T + 'test_srd19_a_hit_that_grapples_restrains_until_an_escape']},
    {'id': 'SRD-50',
     'rule': 'Spellcasting: "The mage is a 9th-level spellcaster. Its spellcasting ability is Intelligence (spell save '
             'DC 14, +6 to hit with spell attacks). The mage has the following wizard spells prepared: Cantrips (at '
             'will): fire bolt ... 3rd level (3 slots): counterspell, fireball, fly".',
     'status': 'built',
     'decision': 'The trait\'s text is read (5e-database\'s structured `spellcasting` fields are not kept by the '
                 'bestiary\'s generator; the prose governs): the ability, the DC and attack bonus as written (the '
                 'sheet\'s `srd_spellcasting`, used by every spell it casts instead of 8 + proficiency + modifier), '
                 'the slots by level, the spells by SRD index. The sheet lists only the spells Aerie casts; they are '
                 'in `legal_actions` and the policies like any caster\'s. The feature counts as modelled only when '
                 'every fight spell of it (issue 39\'s: a damage roll, healing or a save) is castable; its `why` '
                 'names each spell left out (the fight spells, then those with no damage, healing or save, such as '
                 'counterspell or shield, which do not keep it from counting)',
     'where': '`dnd5e/srd_spellbook.py` `book`, `keys`, `status`; `dnd5e/srd_casters.py` `numbers`; '
              '`dnd5e/srd_cast.py` `caster_numbers`',
     'tests': [SC + 'test_the_traits_read_as_written', SC + 'test_feature_status_names_what_is_left_out',
               SC + 'test_srd50_spellcasting_dc_attack_and_slots_as_written',
               SC + 'test_srd50_a_spell_off_its_list_is_refused',
               SC + 'test_srd50_the_caster_policy_casts_the_creatures_spells']},
    {'id': 'SRD-51',
     'rule': 'Innate Spellcasting: "At will: detect magic, fireball / 3/day each: hold monster, wall of fire" (and '
             '"The mephit can innately cast sleep" under "Innate Spellcasting (1/Day)").',
     'status': 'built',
     'decision': 'An innate spell takes no slot and is cast at its own level; an N/day spell is counted on the sheet '
                 '(`innate_used`) and refused citing SRD-51 once spent; each innate cast is an `innate_spell` event '
                 '(its uses per day, 0 at will, and the uses left). The mephits\' "(1/Day)" is dropped from the name '
                 'by 5e-database: read as 1/day',
     'where': '`dnd5e/srd_casters.py` `innate_slot`, `spend_innate`, `can_cast`; `dnd5e/srd_spellbook.py` `book`',
     'tests': [SC + 'test_srd51_innate_uses_per_day_and_at_will', SC + 'test_srd51_an_innate_spell_takes_no_slot']},
    {'id': 'SRD-52',
     'rule': 'The legendary action "Cast a Spell (Costs 3 Actions). The sphinx casts a spell from its list of '
             'prepared spells, using a spell slot as normal."',
     'status': 'built',
     'decision': 'A legendary option (`kind = "spell"`, SRD-15\'s points) taken at the end of another creature\'s '
                 'turn: its policy casts the spell of its list with a slot left whose expected damage over the foes '
                 'it catches, less the friends it catches, is highest (none when no spell of it harms a foe: the '
                 'gynosphinx\'s suggestion or banishment are not chosen by the policy, so its Cast a Spell is not '
                 'counted modelled; the GM\'s own choice is not offered yet, as for SRD-15); the slot is spent, a `legendary_action` and a `cast` naming SRD-52',
     'where': '`dnd5e/srd_cast.py` `legendary_cast`; srd legendary `legendary_actions`, srd blocks `legendary_option`',
     'tests': [SC + 'test_srd52_legendary_cast_a_spell_uses_a_slot']},
    {'id': 'SRD-53',
     'rule': 'The spellcaster level: "The archmage is an 18th-level spellcaster."',
     'status': 'built',
     'decision': 'Its cantrips scale by that level (the sheet\'s `srd_spellcasting.level`), not by the sheet\'s level '
                 '(its CR)',
     'where': '`dnd5e/srd_casters.py` `caster_level`; `dnd5e/srd_cast.py` `dice`',
     'tests': [SC + 'test_srd53_cantrips_scale_by_the_spellcaster_level']},
]
