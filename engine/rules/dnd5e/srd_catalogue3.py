"""The SRD 5.1 save actions' second effects and the Parry reaction (SRD-73..SRD-80, issue 44): what the stat blocks
of assets/srd/creatures.json do at the table, each with the text it implements (the SRD 5.1, CC-BY-4.0) and the
decision taken. Fields and rendering: engine/rules/catalogue.py."""

T = "tests/rules/dnd5e/test_srd_lasting_actions.py::"
P = "tests/rules/dnd5e/test_srd_parry.py::"

RULES = [
    {'id': 'SRD-73',
     'rule': 'Parry (bandit captain, erinyes, gladiator, knight, marilith, noble): "The knight adds 2 to its AC against '
             'one melee attack that would hit it. To do so, the knight must see the attacker and be wielding a melee '
             'weapon."',
     'status': 'built',
     'decision': 'the sheet\'s `parry` (the AC it adds, read from the block\'s reaction). A melee attack that would '
                 'hit it -- not a critical hit, which hits whatever the AC -- and that the added AC turns into a miss '
                 '(a table does not spend a reaction on a hit that stays one) is offered as a reaction: the choice '
                 'point `("reactions", id, "parry")` asked of its player, `reactions = {parry = false}` declines, '
                 'default take (the policies take it); only with its reaction left, not incapacitated, seeing the '
                 'attacker, and carrying a melee weapon (a weapon without the `ranged` property, not its unarmed '
                 'strike). A `reaction` event with the new AC',
     'where': 'srd parry `parry`, srd parry `ac_reactions`, 5e attacks `_to_hit`',
     'tests': [P + 'test_srd73_parry_turns_a_melee_hit_into_a_miss',
               P + 'test_srd73_parry_not_taken_when_it_cannot_turn_the_hit_or_is_declined']},
    {'id': 'SRD-74',
     'rule': 'Horror Nimbus: "The nalfeshnee magically emits scintillating, multicolored light. Each creature within '
             '15 feet of the nalfeshnee that can see the light must succeed on a DC 15 Wisdom saving throw or be '
             'frightened for 1 minute. ... If a creature\'s saving throw is successful or the effect ends for it, the '
             'creature is immune to the nalfeshnee\'s Horror Nimbus for the next 24 hours." and its Multiattack: "The '
             'nalfeshnee uses Horror Nimbus if it can. It then makes three attacks: one with its bite and two with its '
             'claws."',
     'status': 'built',
     'decision': 'the save action (SRD-12) catches only the creatures in the radius that see the nalfeshnee (the '
                 'rules\' sight: not blinded, a clear line, not in an obscured area; `sees_it`); a success, or the fear '
                 'ending, makes the creature immune for the rest of the scene (24 hours outlast any fight; the record '
                 '`srd_immune`); used as the action, it leaves the Multiattack\'s attacks to make (`in_multiattack`, '
                 'as SRD-16\'s Frightful Presence); "if it can": when it is spent, the Attack action is made alone',
     'where': 'srd lasting actions `caught`, srd lasting actions `immune`, srd lasting actions `after_save`, '
              'srd lasting text `extra`, engine/rules/dnd5e/actions/srd.py',
     'tests': [T + 'test_srd74_horror_nimbus_sees_the_light_immunity_and_multiattack']},
    {'id': 'SRD-75',
     'rule': 'Lightning Strike (storm giant): "The giant hurls a magical lightning bolt at a point it can see within '
             '500 feet of it. Each creature within 10 feet of that point must make a DC 17 Dexterity saving throw, '
             'taking 54 (12d8) lightning damage on a failed save, or half as much damage on a successful one."',
     'status': 'built',
     'decision': 'a sphere of 3 m at a point (`at`) within 150 m, as SRD-12 plays a sphere at a point (the area '
                 'reaches what the point sees, a Dexterity save with the cover); not a radius around the giant (the '
                 'record reads "within 10 feet of that point" as one)',
     'where': 'srd lasting text `extra`, srd lasting text `adjust`, engine/rules/dnd5e/actions/srd.py',
     'tests': [T + 'test_srd75_lightning_strike_at_a_point_within_500_feet']},
    {'id': 'SRD-76',
     'rule': 'Spores (vrock): "A 15-foot-radius cloud of toxic spores extends out from the vrock. The spores spread '
             'around corners. Each creature in that area must succeed on a DC 14 Constitution saving throw or become '
             'poisoned. While poisoned in this way, a target takes 5 (1d10) poison damage at the start of each of its '
             'turns. A target can repeat the saving throw at the end of each of its turns, ending the effect on itself '
             'on a success. Emptying a vial of holy water on the target also ends the effect on it."',
     'status': 'built',
     'decision': 'every creature within the radius is caught, whatever cover stands between (the spores spread around '
                 'corners; the spread is not traced voxel by voxel); a failed save poisons; at the start of each of its '
                 'turns while the poisoned condition from that vrock lasts, the d10 of poison damage (a `damage` die, '
                 'SRD-76); its repeated save (SRD-12) or anything ending the condition (lesser restoration, a GM '
                 'removing it) ends the damage. The engine has no holy water object, so that ending never arises',
     'where': 'srd lasting actions `caught`, srd lasting actions `after_save`, srd lasting actions '
              '`save_action_each_turn`',
     'tests': [T + 'test_srd76_spores_damage_each_turn_while_poisoned_around_corners']},
    {'id': 'SRD-77',
     'rule': 'Roar (androsphinx, 3/Day): "Each time it roars before finishing a long rest, the roar is louder and the '
             'effect is different ... First Roar. Each creature that fails a DC 18 Wisdom saving throw is frightened '
             'for 1 minute. ... Second Roar. Each creature that fails a DC 18 Wisdom saving throw is deafened and '
             'frightened for 1 minute. A frightened creature is paralyzed and can repeat the saving throw ... Third '
             'Roar. Each creature makes a DC 18 Constitution saving throw. On a failed save, a creature takes 44 '
             '(8d10) thunder damage and is knocked prone. On a successful save, the creature takes half as much '
             'damage and isn\'t knocked prone."',
     'status': 'built',
     'decision': 'the roars used (its 3/Day uses on the sheet\'s `creature_state`) pick the roar: a `roar` event (1, 2, '
                 '3) before the save. Each creature within 150 m that can hear (not deafened, SRD-54\'s `hearing`). '
                 'First: frightened, the repeated Wisdom save. Second: deafened, frightened and paralyzed; the '
                 'paralysis ends with that fright (its repeated save at the end of its turn, `roar_paralysis_ends`); '
                 'the deafness lasts 1 minute: 10 rounds, ending as the sphinx\'s turn starts. Third: a Constitution '
                 'save, 8d10 thunder and prone on a failure, half and no prone on a success; no fourth (3/Day, SRD-05)',
     'where': 'srd lasting actions `stage`, srd lasting actions `after_save`, srd lasting actions '
              '`roar_paralysis_ends`, srd lasting actions `roar_deafness_ends`',
     'tests': [T + 'test_srd77_each_roar_louder_and_different']},
    {'id': 'SRD-78',
     'rule': 'Lightning Storm (kraken): "The kraken magically creates three bolts of lightning, each of which can '
             'strike a target the kraken can see within 120 feet of it. A target must make a DC 23 Dexterity saving '
             'throw, taking 22 (4d10) lightning damage on a failed save, or half as much damage on a successful one."',
     'status': 'built',
     'decision': '`creature_action` with its `target` and up to two other `targets`, a bolt each: every one a '
                 'different creature (the bolts are not doubled up), each within 36 m and seen (SRD-12\'s checks, '
                 'refused with SRD-12), each bolt its own 4d10 (the first SRD-12\'s roll, the others SRD-78\'s) and its '
                 'target its own save with the cover; more targets than bolts, the same target twice, or `targets` '
                 'on a save action without bolts are refused (SRD-78). Its policy aims the other bolts at the nearest '
                 'other foes it sees in range',
     'where': 'srd lasting actions `bolt_ids`, srd lasting actions `more_bolts`, srd lasting text `extra`, '
              'engine/rules/dnd5e/actions/srd.py',
     'tests': [T + 'test_srd78_lightning_storm_three_bolts_three_targets']},
    {'id': 'SRD-79',
     'rule': 'Fetid Cloud (dretch, 1/Day): "A 10-foot radius of disgusting green gas extends out from the dretch. The '
             'gas spreads around corners, and its area is lightly obscured. It lasts for 1 minute or until a strong '
             'wind disperses it. Any creature that starts its turn in that area must succeed on a DC 11 Constitution '
             'saving throw or be poisoned until the start of its next turn. While poisoned in this way, the target can '
             'take either an action or a bonus action on its turn, not both, and can\'t take reactions."',
     'status': 'built',
     'decision': 'the action makes no save as the cloud forms (a `cloud` event): the cloud stays where the dretch '
                 'stood, 3 m around that space, for 10 rounds (it ends as the dretch\'s turn starts then; the '
                 'dretch\'s death does not end it). A creature whose turn starts in it -- any creature, a wall between '
                 'or not (the gas spreads around corners), not one immune to the poisoned condition -- makes the '
                 'Constitution save (SRD-79); on a failure it is poisoned until the start of its next turn (where it '
                 'saves again if still inside), spends its reaction, and after each of its steps the one of action or '
                 'bonus action it used spends the other (SRD-27\'s). Not played, and named in its `features`: the area '
                 'being lightly obscured (the rules have no lightly obscured areas) and a strong wind dispersing it',
     'where': 'srd lasting actions `begin_cloud`, srd lasting actions `fetid_cloud`, srd lasting actions `caught`, '
              'srd breaths `one_of_action_or_bonus`',
     'tests': [T + 'test_srd79_fetid_cloud_lasts_and_poisons_each_turn_start']},
    {'id': 'SRD-80',
     'rule': 'The kraken\'s legendary action "Lightning Storm (Costs 2 Actions). The kraken uses Lightning Storm."',
     'status': 'built',
     'decision': 'a legendary option (SRD-15, kind `bolts`) of a save action with bolts (SRD-78): at the end of another '
                 'creature\'s turn, with 2 points left, its bolts strike the nearest foes it sees within the range (36 '
                 'm), a different foe each, each bolt its own 4d10 and its target its own Dexterity save with the '
                 'cover (SRD-80); with no foe in range it is not taken and nothing is spent. The block\'s other '
                 'legendary actions ("Tentacle Attack or Fling", "Ink Cloud") are not played and `features` says so',
     'where': 'srd lasting actions `legendary_bolts`, srd lasting text `legendary_uses`, srd legendary '
              '`legendary_actions`',
     'tests': [T + 'test_srd80_legendary_lightning_storm']},
]
