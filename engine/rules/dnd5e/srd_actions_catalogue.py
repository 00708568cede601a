"""The SRD 5.1 creatures' attack and save actions played whole (SRD-20..SRD-29; issue 44): what the stat blocks of
assets/srd/creatures.json do beyond SRD-01..19, each with the text it implements (the SRD 5.1, CC-BY-4.0) and the
decision taken. Fields and rendering: engine/rules/catalogue.py."""

T = "tests/rules/dnd5e/test_srd_actions.py::"

RULES = [
    {'id': 'SRD-20',
     'rule': 'Wing Attack (Costs 2 Actions): "The dragon beats its wings. Each creature within 10 ft. of the dragon '
             'must succeed on a DC 22 Dexterity saving throw or take 15 (2d6 + 8) bludgeoning damage and be knocked '
             'prone. The dragon can then fly up to half its flying speed." (and the solar\'s burst around it: '
             '"Searing Burst (Costs 2 Actions). The solar emits magical, divine energy. Each creature of its choice '
             'in a 10-foot radius must make a DC 23 Dexterity saving throw ...")',
     'status': 'built',
     'decision': 'SRD-15\'s save around the creature (every creature in the 10 ft. sphere around its body in 3D, a '
                 'flyer above or below included; knocked prone, a flyer falls: AIR-10, AIR-12), then a flight of '
                 'half its speed in the air as AIR-09 reads it (its ground speed; `air_speed = "fly_speed"`: its fly '
                 'speed) at the aerial costs (AIR-06: a dragon on the ground spends the half on the take-off and '
                 'rises no farther; AIR-07 layers), spending none of its own movement; the flight provokes '
                 'opportunity attacks as any move (DND-28, AIR-05). Its policy (the GM\'s choice is not offered yet, '
                 'as SRD-15\'s): a Wing Attack is taken before the block\'s order when its average damage on every '
                 'foe it catches beats the average of the attacks the same points buy (three foes around an adult '
                 'red dragon, 45, beat two tail attacks, 34; two do not); it flies only when a foe still standing '
                 '(not prone, not incapacitated) holds it in melee reach, to the cell within the half farthest from '
                 'the nearest such foe (a `wing_flight` event, then the move). The Searing Burst is the same save '
                 'around it on the creatures of its choice: its foes (`foes_only`), its allies spared',
     'where': 'engine/rules/dnd5e/srd_wing.py `fly_after`, `destination`, `ordered`; srd legendary '
              '`legendary_actions`, `_area_targets`; srd blocks `legendary_option`',
     'tests': [T + 'test_srd20_wing_attack_knocks_flyers_prone_they_fall_and_the_dragon_flies_off',
               T + 'test_srd20_two_foes_get_the_tail_and_a_dragon_that_flattened_everyone_stays',
               T + 'test_srd20_the_solars_searing_burst_on_the_creatures_of_its_choice']},
    {'id': 'SRD-21',
     'rule': 'The alternative damage of an attack: "Hit: 4 (1d6 + 1) piercing damage or 5 (1d8 + 1) piercing damage if '
             'used with two hands to make a melee attack"; "9 (2d6 + 2) piercing damage in melee or 5 (1d6 + 2) '
             'piercing damage at range"; "7 (2d6) piercing damage, or 3 (1d6) piercing damage if the swarm has half '
             'of its hit points or fewer"; "If the balor scores a critical hit, it rolls damage dice three times, '
             'instead of twice."',
     'status': 'built',
     'decision': 'a weapon key `alternative` {damage, when = two_hands | ranged | bloodied}: a hit rolls the '
                 'alternative dice when the case holds (an `alternative_damage` event): a ranged attack; the '
                 'attacker at half its hit points or fewer; both hands on a melee attack unless it attacked with '
                 'another weapon this turn (that one is in its other hand). The blocks as kept do not say who carries '
                 'a shield: a scene that gives a guard its shield writes the spear\'s weapon table without '
                 '`alternative`. The alternatives the rules do not play (shillelagh, enlarged, another form) stay '
                 'named in `features`. The balor\'s critical hit: a weapon key `crit_dice = 3`, the weapon\'s dice '
                 'and its added damage (SRD-02) rolled three times',
     'where': 'engine/rules/dnd5e/srd_alternative.py `damage_dice`, `applies`; 5e attacks `_damage`; '
              'srd blocks `alternative`, `weapon`; srd traits `extra_damage`',
     'tests': [T + 'test_srd21_two_hands_on_a_versatile_weapon_unless_the_other_hand_attacked',
               T + 'test_srd21_at_range_and_a_swarm_at_half_its_hit_points',
               T + 'test_srd21_the_balors_critical_hit_rolls_its_dice_three_times']},
    {'id': 'SRD-22',
     'rule': 'Poison that drops its target: "the target must make a DC 11 Constitution saving throw, taking 10 (3d6) '
             'poison damage on a failed save ... If the poison damage reduces the target to 0 hit points, the target '
             'is stable but poisoned for 1 hour, even after regaining hit points, and is paralyzed while poisoned in '
             'this way."',
     'status': 'built',
     'decision': 'after SRD-13\'s save and its poison damage, a target that damage took to 0 HP and that is not dead '
                 '(a monster under `monsters_die_at_0` is) is stable (no death saves: a `stable` event) and poisoned '
                 'and paralyzed; healing wakes it (DND-02) and leaves both (an hour outlasts a fight, and the rules '
                 'know no cure); a failed save alone does not paralyze (the block\'s text was read as a condition on '
                 'the failure before). Likewise SRD-13\'s poison that "lasts until it is removed by the lesser '
                 'restoration spell or similar magic" (the erinyes\' longbow) stays: nothing in a fight removes it',
     'where': 'engine/rules/dnd5e/srd_riders.py `poison_at_zero`, `rider`; srd traits `on_hit_save`; '
              'engine/rules/dnd5e/srd_rider_text.py `read`; srd blocks `on_hit`',
     'tests': [T + 'test_srd22_poison_that_drops_the_target_leaves_it_stable_poisoned_and_paralyzed']},
    {'id': 'SRD-23',
     'rule': 'Life Drain: "Hit: 10 (3d6) necrotic damage. The target must succeed on a DC 10 Constitution saving throw '
             'or its hit point maximum is reduced by an amount equal to the damage taken. This reduction lasts until '
             'the creature finishes a long rest. The target dies if this effect reduces its hit point maximum to 0." '
             '(the clay golem\'s Slam alike).',
     'status': 'built',
     'decision': 'on a failed save the target\'s max HP drops by the damage the hit dealt it (its damage events since '
                 'the attack, after resistances), its HP to at most the new maximum (a `max_hp_reduced` event); at a '
                 'maximum of 0 it dies; the long rest or greater restoration that ends it is beyond a fight. The '
                 'wight\'s "A humanoid slain by this attack rises 24 hours later as a zombie" is named as left out. '
                 'On a save action alike: the succubus\' "Draining Kiss. The fiend kisses a creature charmed by it or '
                 'a willing creature. ... The target\'s hit point maximum is reduced by an amount equal to the damage '
                 'taken" -- its target charmed by it or willing (its own side; another is refused citing SRD-23), the '
                 'maximum reduced by the damage the kiss dealt, saved or not',
     'where': 'engine/rules/dnd5e/srd_riders.py `drain`, `rider`, `save_drain`; srd traits `on_hit_save`; '
              'engine/rules/dnd5e/actions/srd.py `CreatureAction`',
     'tests': [T + 'test_srd23_life_drain_reduces_the_hit_point_maximum_by_the_damage_taken',
               T + 'test_srd23_the_draining_kiss_of_a_willing_creature']},
    {'id': 'SRD-24',
     'rule': 'A hit that slays: "Slaying Longbow. ... Hit: 15 (2d8 + 6) piercing damage plus 27 (6d8) radiant damage. '
             'If the target is a creature that has 190 hit points or fewer, it must succeed on a DC 15 Constitution '
             'saving throw or die."',
     'status': 'built',
     'decision': 'after the hit\'s damage, SRD-13\'s save; a failure with the written number of HP or fewer left '
                 'kills it (a `death` event naming SRD-24). With SRD-01 read as written, an attack action that its '
                 'Multiattack does not name (this longbow beside "two greatsword attacks", a giant\'s Rock) is an '
                 'Attack action\'s one attack (it was refused)',
     'where': 'engine/rules/dnd5e/srd_riders.py `rider`; srd multiattack `refusal`',
     'tests': [T + 'test_srd24_a_hit_that_slays_a_creature_with_few_enough_hit_points',
               T + 'test_srd01_an_attack_action_outside_the_multiattack_is_the_actions_one_attack']},
    {'id': 'SRD-25',
     'rule': 'Sleep: "Sleep Breath. The dragon exhales sleep gas in a 30-foot cone. Each creature in that area must '
             'succeed on a DC 14 Constitution saving throw or fall unconscious for 5 minutes. This effect ends for a '
             'creature if the creature takes damage or someone uses an action to wake it."',
     'status': 'built',
     'decision': 'a failed save: unconscious (so prone; a flyer falls, AIR-10) and `asleep` on the sheet (an `asleep` '
                 'event); damage still above 0 after every other modifier wakes it before it is dealt (a damage '
                 'modifier, last); `wake` is the action of a creature within 1.5 m (AIR-04), offered for a friend '
                 'asleep; a creature at 0 HP stays unconscious (dying is not sleep); the minutes outlast a fight. '
                 'The same sleep on a hit\'s save (a `sleep` rider): the drow\'s bolt when the save fails by 5 or '
                 'more ("the target is also unconscious while poisoned in this way. The target wakes up if it takes '
                 'damage or if another creature takes an action to shake it awake", its margin read from the save), '
                 'the couatl\'s bite ("Until this poison ends, the target is unconscious. Another creature can use an '
                 'action to shake the target awake": damage does not wake it)',
     'where': 'engine/rules/dnd5e/srd_riders.py `put_to_sleep`, `wake`, `rider`; '
              'engine/rules/dnd5e/srd_breaths.py `sleep_ends_on_damage`, `after_save`; '
              'engine/rules/dnd5e/actions/srd_wake.py `Wake`; engine/rules/dnd5e/actions/srd.py `CreatureAction`; '
              'engine/rules/dnd5e/srd_rider_text.py `breath_extra`; srd blocks `breath_options`',
     'tests': [T + 'test_srd25_sleep_breath_until_damage_or_a_friend_wakes_it',
               T + 'test_srd25_a_poisoned_bolt_that_puts_to_sleep_when_the_save_fails_by_5',
               T + 'test_srd25_the_couatls_poison_sleep_only_a_friends_action_ends']},
    {'id': 'SRD-26',
     'rule': 'Pushed away: "Repulsion Breath. The dragon exhales repulsion energy in a 30-foot cone. Each creature in '
             'that area must succeed on a DC 15 Strength saving throw. On a failed save, the creature is pushed 40 '
             'feet away from the dragon."',
     'status': 'built',
     'decision': 'straight away from the dragon\'s centre to the creature\'s in 3D: a flyer along that line (up when '
                 'it is above the dragon\'s centre), a walker along the ground; half a metre at a time to the '
                 'nearest cell and layer, stopping before a wall, the map\'s edge or a body (SPL-06\'s `slide`); a '
                 'walker pushed off a roof falls (AIR-12); a `pushed` event naming SRD-26. Pulled alike on a hit\'s '
                 'failed save: the balor\'s whip, "or be pulled up to 25 feet toward the balor" -- the whole '
                 'distance along the same line toward it, stopping before its body',
     'where': 'engine/rules/dnd5e/srd_breaths.py `repel`, `after_save`, `pull_rider`; '
              'engine/rules/dnd5e/actions/srd.py `CreatureAction`; '
              'engine/rules/dnd5e/srd_rider_text.py `breath_extra`',
     'tests': [T + 'test_srd26_repulsion_breath_pushes_walkers_along_the_ground_and_flyers_through_the_air',
               T + 'test_srd26_the_balors_whip_pulls_toward_it']},
    {'id': 'SRD-27',
     'rule': 'A breath\'s lasting effect until an end-of-turn save: "Weakening Breath. ... Each creature in that area '
             'must succeed on a DC 21 Strength saving throw or have disadvantage on Strength-based attack rolls, '
             'Strength checks, and Strength saving throws for 1 minute. A creature can repeat the saving throw at '
             'the end of each of its turns, ending the effect on itself on a success." and "Slowing Breath. ... On a '
             'failed save, the creature can\'t use reactions, its speed is halved, and it can\'t make more than one '
             'attack on its turn. In addition, the creature can use either an action or a bonus action on its turn, '
             'but not both. These effects last for 1 minute. The creature can repeat the saving throw at the end of '
             'each of its turns, ending the effect on itself with a successful save."',
     'status': 'built',
     'decision': 'weakened (`weakened` on the sheet, a `weakened` event): disadvantage on its attack rolls that use '
                 'Strength (a melee or thrown weapon; a finesse one when its Strength is at least its Dexterity), on '
                 'its Strength checks (every check goes through the same d20: a grapple, a shove, an escape) and its '
                 'Strength saves. Slowed (`slowed_breath`, a `slowed` event): its reaction is spent and does not come '
                 'back at the start of its turns; its speed halved (on the ground and in the air); the Attack action '
                 'gives one attack; after each of its steps the action or the bonus action it used spends the other '
                 '(so a slowed flyer that takes an action has no bonus action for AIR-08 and falls at the end of its '
                 'turn unless it lands: AIR-10). Each ends with the save at the end of its turns (Strength with its '
                 'own disadvantage; Constitution)',
     'where': 'engine/rules/dnd5e/srd_breaths.py `weakened_attacker`, `weakness_repeat_save`, `weaken`, '
              '`strength_attack`, `slow`, `slowed_no_reaction_back`, `one_of_action_or_bonus`; '
              'engine/rules/dnd5e/srd_weakened.py `weakened`, `slowed`; 5e conditions `check_d20`, `saving_throw`; '
              '5e attacks `use_attack`; 5e `Dnd5e.movement_left`, `Dnd5e.apply`',
     'tests': [T + 'test_srd27_weakening_breath_strength_attacks_checks_and_saves_at_disadvantage',
               T + 'test_srd27_slowing_breath_one_attack_half_speed_no_reaction_and_an_action_or_a_bonus_action']},
    {'id': 'SRD-28',
     'rule': 'As many held as it has limbs: "the target is grappled (escape DC 11). The crab has two claws, each of '
             'which can grapple only one target."; "The kraken has ten tentacles, each of which can grapple one '
             'target."; "The target is grappled (escape DC 16) if the behir isn\'t already constricting a creature, '
             'and the target is restrained until this grapple ends."; "if it is a Large or smaller creature and the '
             'chuul doesn\'t have two other creatures grappled."',
     'status': 'built',
     'decision': 'SRD-19\'s grapple with `max_held` (2 claws, pincers or tentacles; 10 tentacles; 1 constrict; the '
                 'chuul\'s two): a hit grapples only while fewer creatures than that are held with the weapon; the '
                 'attack itself is not refused (a claw that holds one still strikes another, as the blocks do not '
                 'forbid it) and its damage is dealt. The ankheg\'s "Until this grapple ends, the ankheg can bite '
                 'only the grappled creature and has advantage on attack rolls to do so": SRD-19\'s one target and '
                 'advantage on the bite at the creature it holds (an advantage source)',
     'where': 'engine/rules/dnd5e/srd_grapple.py `limb_free`, `held_by`, `on_hit`; srd blocks `grapple`; '
              'engine/rules/dnd5e/srd_breaths.py `held_in_its_grapple`',
     'tests': [T + 'test_srd28_two_claws_hold_two_creatures_the_third_is_struck_not_held',
               T + 'test_srd28_a_constrict_that_holds_one_creature_at_a_time',
               T + 'test_srd12_a_line_written_in_feet_long_and_wide_and_a_spray_only_with_no_creature_grappled']},
    {'id': 'SRD-29',
     'rule': 'What lasts while a block\'s condition holds: "The target must succeed on a DC 21 Constitution saving '
             'throw or become poisoned. While poisoned in this way, the target can\'t regain hit points, and it takes '
             '21 (6d6) poison damage at the start of each of its turns."; "Until this grapple ends, the target is '
             'restrained and takes 7 (2d6) piercing damage at the start of each of its turns."',
     'status': 'built',
     'decision': 'the sheet\'s `srd_blight` {by, while, no_heal, each_turn} from the failed save (poisoned) or the '
                 'grapple (grappled), lasting while that condition from that creature holds (a repeated save, an '
                 'escape end it; a `blight` event): healing is refused (`heal_blocked`, the dice rolled, nothing '
                 'regained) and the damage is rolled at the start of each of its turns (not on the failed save: the '
                 'pit fiend\'s 6d6 was dealt at once before); the chain devil\'s "if the devil isn\'t already '
                 'grappling a creature" is SRD-28\'s one held',
     'where': 'engine/rules/dnd5e/srd_blight.py `active`, `blocks_healing`; engine/rules/dnd5e/srd_breaths.py '
              '`blight_damage`; engine/rules/dnd5e/srd_riders.py `blight`; 5e damage `heal`; '
              'engine/rules/dnd5e/srd_grapple.py `on_hit`; engine/rules/dnd5e/srd_rider_text.py `read`',
     'tests': [T + 'test_srd29_poisoned_in_this_way_no_healing_and_poison_at_the_start_of_each_turn',
               T + 'test_srd29_a_chain_that_hurts_each_turn_until_the_grapple_ends']},
    {'id': 'SRD-48',
     'rule': 'The vampire\'s Bite: "Melee Weapon Attack: +9 to hit, reach 5 ft., one willing creature, or a creature '
             'that is grappled by the vampire, incapacitated, or restrained. Hit: 7 (1d6 + 4) piercing damage plus 10 '
             '(3d6) necrotic damage. The target\'s hit point maximum is reduced by an amount equal to the necrotic '
             'damage taken, and the vampire regains hit points equal to that amount. The reduction lasts until the '
             'target finishes a long rest. The target dies if this effect reduces its hit point maximum to 0. A '
             'humanoid slain in this way and then buried in the ground rises the following night as a vampire spawn '
             'under the vampire\'s control." (the vampire spawn\'s Bite without the last sentence)',
     'status': 'built',
     'decision': 'the weapon key `drink` {rises_as}: an attack on a target that is not of its own side (willing, as '
                 'SRD-23\'s kiss reads it), not grappled by the biter, not incapacitated and not restrained is refused '
                 'citing SRD-48; after the hit\'s damage the target\'s maximum drops by the necrotic damage it took '
                 '(SRD-23\'s `max_hp_reduced`, dead at 0) and the biter regains as much (a `heal` event); a humanoid '
                 '(a character with no creature type counts as one) slain by it is recorded as rising (a `rises` event, '
                 'the sheet\'s `rises_as`): the burial and the following night are beyond a fight. The long rest that '
                 'ends the reduction is beyond a fight too',
     'where': 'engine/rules/dnd5e/srd_drink.py `refusal`, `after_hit`; srd traits `extra_damage`; '
              'engine/rules/dnd5e/srd_rider_text.py `drink`; srd blocks `weapon`',
     'tests': [T + 'test_srd48_the_vampire_bites_a_grappled_foe_drains_its_maximum_and_heals',
               T + 'test_srd48_the_vampire_bite_refuses_a_free_foe']},
    {'id': 'SRD-49',
     'rule': 'A hit\'s curse: "Bite. ... Hit: 6 (1d8 + 2) piercing damage. If the target is a humanoid, it must succeed '
             'on a DC 12 Constitution saving throw or be cursed with werewolf lycanthropy." (every lycanthrope\'s bite '
             'or tusks) and "Rotting Fist. ... If the target is a creature, it must succeed on a DC 12 Constitution '
             'saving throw or be cursed with mummy rot. The cursed target can\'t regain hit points, and its hit point '
             'maximum decreases by 10 (3d6) for every 24 hours that elapse. If the curse reduces the target\'s hit '
             'point maximum to 0, the target dies, and its body turns to dust. The curse lasts until removed by the '
             'remove curse spell or other magic."',
     'status': 'built',
     'decision': 'SRD-13\'s save with a `curse` rider: "If the target is a humanoid": no save is asked of a target of '
                 'another creature type (a character that names none is a humanoid); a failed save adds the curse to '
                 'the sheet\'s `curses` (a `cursed` event). Lycanthropy shows beyond the fight: recorded, no other '
                 'effect. Mummy rot refuses every heal while it lasts (`heal_blocked` naming SRD-49, nothing '
                 'regained); its loss every 24 hours is recorded (`each_day`), not dealt: a day is beyond a fight, and '
                 'nothing castable here removes the curse',
     'where': 'engine/rules/dnd5e/srd_curses.py `spared`, `blocks_healing`, `rider`; srd traits `on_hit_save`; '
              '5e damage `heal`; engine/rules/dnd5e/srd_rider_text.py `curse`',
     'tests': [T + 'test_srd49_a_lycanthropes_bite_curses_a_humanoid_that_fails_its_save',
               T + 'test_srd49_mummy_rot_refuses_healing']},
    {'id': 'SRD-54',
     'rule': 'A condition until the end of a next turn: "Stunning Screech (1/Day). The vrock emits a horrific screech. '
             'Each creature within 20 feet of it that can hear it and that isn\'t a demon must succeed on a DC 14 '
             'Constitution saving throw or be stunned until the end of the vrock\'s next turn." and the mummy lord\'s '
             '"Blinding Dust. Blinding dust and sand swirls magically around the mummy lord. Each creature within 5 '
             'feet of the mummy lord must succeed on a DC 16 Constitution saving throw or be blinded until the end of '
             'the creature\'s next turn."',
     'status': 'built',
     'decision': 'the save action\'s (or legendary option\'s) `until` = its | target: the condition a failed save gives '
                 'is noted on the sheet\'s `brief` (a `brief_condition` event); the next start of that creature\'s turn '
                 'arms it and the end of that turn removes the condition from that source (SRD-54; another source '
                 'keeps it). "that can hear it": a deafened creature is not caught; "that isn\'t a demon": nor one of '
                 'that creature type. The sentence that names what makes the area (the screech, the dust) is the area',
     'where': 'engine/rules/dnd5e/srd_brief.py `caught`, `lasts`, `brief_condition_arms`, `brief_condition_ends`; '
              'engine/rules/dnd5e/actions/srd.py `CreatureAction`; srd legendary `_save_option`; '
              'engine/rules/dnd5e/srd_rider_text.py `brief`; srd blocks `save_action`',
     'tests': [T + 'test_srd54_stunned_until_the_end_of_the_vrocks_next_turn',
               T + 'test_srd54_blinded_until_the_end_of_the_creatures_next_turn']},
    {'id': 'SRD-55',
     'rule': 'A legendary save around the creature, on the living or the non-undead: "Disrupt Life (Costs 3 Actions). '
             'Each living creature within 20 feet of the lich must make a DC 18 Constitution saving throw against this '
             'magic, taking 21 (6d6) necrotic damage on a failed save, or half as much damage on a successful one." and '
             '"Blasphemous Word (Costs 2 Actions). The mummy lord utters a blasphemous word. Each non-undead creature '
             'within 10 feet of the mummy lord that can hear the magical utterance must succeed on a DC 16 '
             'Constitution saving throw or be stunned until the end of the mummy lord\'s next turn."',
     'status': 'built',
     'decision': 'the distance written is the area around the creature (SRD-15\'s save option, as a Wing Attack\'s); '
                 '"living": an undead or a construct is not caught, "non-undead": an undead is not; "that can hear": a '
                 'deafened creature is not (the option\'s `not_types`, `hearing`; a character with no creature type is '
                 'caught). The stun lasts as SRD-54 says. "against this magic": a creature with Magic Resistance (SRD-10) '
                 'saves with advantage (the option\'s `magic`)',
     'where': 'engine/rules/dnd5e/srd_rider_text.py `around`; srd blocks `legendary_option`; srd legendary '
              '`_area_targets`; engine/rules/dnd5e/srd_brief.py `caught`',
     'tests': [T + 'test_srd55_disrupt_life_spares_the_undead_and_constructs',
               T + 'test_srd55_blasphemous_word_stuns_a_creature_that_hears_it']},
    {'id': 'SRD-56',
     'rule': 'A touch that sets the target on fire: "Touch. Melee Weapon Attack: +6 to hit, reach 5 ft., one target. '
             'Hit: 10 (2d6 + 3) fire damage. If the target is a creature or a flammable object, it ignites. Until a '
             'creature takes an action to douse the fire, the target takes 5 (1d10) fire damage at the start of each '
             'of its turns." (the fire elemental; the magmin\'s: "... the target takes 3 (1d6) fire damage at the end '
             'of each of its turns.")',
     'status': 'built',
     'decision': 'the weapon key `ignite` {dice, when}: a creature hit burns (the sheet\'s `burning`, an `ignited` '
                 'event; a burning creature hit again keeps its one fire); at the start (or end) of each of its turns '
                 'the dice are rolled as fire damage from the one that lit it (resistance and immunity apply). The '
                 'action `douse` (target: itself, or a creature within 1.5 m) spends the action and puts the fire out '
                 '(a `doused` event); a creature not burning is refused. Objects do not burn (no flammable objects in '
                 'the sandbox)',
     'where': 'engine/rules/dnd5e/srd_burning.py `after_hit`, `burning_start`, `burning_end`, `douse`; '
              'engine/rules/dnd5e/actions/srd_douse.py `Douse`; srd traits `extra_damage`; '
              'engine/rules/dnd5e/srd_rider_text.py `ignite`; srd blocks `weapon`',
     'tests': [T + 'test_srd56_a_fire_elementals_touch_burns_until_someone_douses_it',
               T + 'test_srd56_douse_is_refused_on_a_creature_not_burning']},
    {'id': 'SRD-57',
     'rule': 'Dreadful Glare: "The mummy targets one creature it can see within 60 ft. of it. If the target can see '
             'the mummy, it must succeed on a DC 11 Wisdom saving throw against this magic or become frightened until '
             'the end of the mummy\'s next turn. If the target fails the saving throw by 5 or more, it is also '
             'paralyzed for the same duration. A target that succeeds on the saving throw is immune to the Dreadful '
             'Glare of all mummies (but not mummy lords) for the next 24 hours." (the mummy lord\'s: "... immune to '
             'the Dreadful Glare of all mummies and mummy lords ...")',
     'status': 'built',
     'decision': 'the save action\'s `glare` {by_kind, margin, also, immune_to}: a target that does not see the glaring '
                 'creature (blinded, out of sight) or is immune to glares of its kind makes no save (a `glare_unseen` '
                 'event saying why); a failure by the margin or more adds the second condition, lasting as the first '
                 '(SRD-54\'s until the end of the mummy\'s next turn); a success makes it immune to the kinds written '
                 '(the sheet\'s `glare_immune`, a `glare_immune` event: 24 hours outlast a fight). "against this '
                 'magic": Magic Resistance (SRD-10) gives advantage',
     'where': 'engine/rules/dnd5e/srd_glare.py `spared`, `advantage`, `after_save`; '
              'engine/rules/dnd5e/actions/srd.py `CreatureAction`; engine/rules/dnd5e/srd_rider_text.py `glare`; '
              'srd blocks `save_action`',
     'tests': [T + 'test_srd57_dreadful_glare_frightens_paralyzes_by_five_or_makes_immune',
               T + 'test_srd57_a_blinded_target_does_not_see_the_glare']},
    {'id': 'SRD-58',
     'rule': 'A legendary gaze on one creature: "Frightening Gaze (Costs 2 Actions). The lich fixes its gaze on one '
             'creature it can see within 10 feet of it. The target must succeed on a DC 18 Wisdom saving throw against '
             'this magic or become frightened for 1 minute. The frightened target can repeat the saving throw at the '
             'end of each of its turns, ending the effect on itself on a success. If a target\'s saving throw is '
             'successful or the effect ends for it, the target is immune to the lich\'s gaze for the next 24 hours." '
             'and "Blinding Gaze (Costs 3 Actions). The solar targets one creature it can see within 30 ft. of it. If '
             'the target can see it, the target must succeed on a DC 15 Constitution saving throw or be blinded until '
             'magic such as the lesser restoration spell removes the blindness."',
     'status': 'built',
     'decision': 'the legendary option\'s `gaze` {range_m, sees_it, immune_after}: its target is the nearest foe it '
                 'sees within the range (body to body), one that sees it where written, one not immune; SRD-15\'s '
                 'save, the condition and its repeated save where written. The lich\'s: saved or not, it does not '
                 'gaze at that creature again (the sheet\'s `gaze_immune`, a `gaze_immune` event: a success or the '
                 'effect\'s end makes it immune; while still frightened a second gaze gains nothing). The solar\'s '
                 'blindness lasts (lesser restoration is not castable here). "against this magic": Magic Resistance '
                 '(SRD-10) gives advantage',
     'where': 'engine/rules/dnd5e/srd_gaze.py `target`, `advantage`, `after_save`; srd legendary `_area_targets`, '
              '`_save_option`; engine/rules/dnd5e/srd_rider_text.py `gaze`; srd blocks `legendary_option`',
     'tests': [T + 'test_srd58_the_lichs_frightening_gaze_then_immune',
               T + 'test_srd58_the_solars_blinding_gaze_needs_the_target_to_see_it']},
]
