"""The SRD 5.1 creatures' charms, fears and possession (SRD-65..SRD-72; issue 44), each with the text it implements
(the SRD 5.1, CC-BY-4.0) and the decision taken. Fields and rendering: engine/rules/catalogue.py."""

T = "tests/rules/dnd5e/test_srd_charms.py::"
W = ("engine/rules/dnd5e/srd_charm_text.py `entry`, `status`; engine/rules/dnd5e/actions/srd.py `CreatureAction`; "
     "srd status `action`; ")

RULES = [
    {'id': 'SRD-65',
     'rule': 'A charm that harm breaks: "Charm. The vampire targets one humanoid it can see within 30 ft. of it. If '
             'the target can see the vampire, the target must succeed on a DC 17 Wisdom saving throw against this '
             'magic or be charmed by the vampire. ... it is a willing target for the vampire\'s bite attack. Each time '
             'the vampire or the vampire\'s companions do anything harmful to the target, it can repeat the saving '
             'throw, ending the effect on itself on a success. Otherwise, the effect lasts 24 hours or until the '
             'vampire is destroyed ..." (and the dryad\'s Fey Charm: "one humanoid or beast ... If a target\'s saving '
             'throw is successful, the target is immune to the dryad\'s Fey Charm for the next 24 hours. The dryad '
             'can have no more than one humanoid and up to three beasts charmed at a time.")',
     'status': 'built',
     'decision': 'SRD-12\'s save on one creature of the types written (a character with no creature type is a '
                 'humanoid; another is refused citing SRD-65); one that does not see the charmer makes no save (a '
                 '`charm_spared` event), nor one immune (the sheet\'s `charm_immune`, a `charm_immune` event after a '
                 'success). Failed: charmed by the creature (DND-54: it can\'t attack it or aim a harmful spell or '
                 'save action at it, so its legal actions offer none), held on the sheet\'s `srd_charms`. Each damage '
                 'dealt to it by the charmer or a creature of the charmer\'s side lets it repeat the save before the '
                 'damage (a success ends the charm: a `charm_ended` event); the charm ends when the charmer dies; a '
                 'new charm past the limit frees the oldest of its kind. The vampire\'s charmed target is "a willing '
                 'target" of its Bite (SRD-48 takes it). Magic Resistance (SRD-10) gives advantage ("against this '
                 'magic", "magically"). 24 hours, planes and the bonus action to end it lie outside a fight',
     'where': W + 'engine/rules/dnd5e/srd_charms.py `refusal`, `spared`, `after_save`, `end`, `harm_repeats_charm`, '
                  '`charmer_dies`; engine/rules/dnd5e/srd_drink.py `refusal`',
     'tests': [T + 'test_srd65_vampire_charm_refuses_attacks_on_it_makes_the_bite_willing_and_harm_repeats_the_save',
               T + 'test_srd65_the_fey_charm_ends_when_the_dryad_dies_and_takes_no_creature_that_does_not_see_her']},
    {'id': 'SRD-66',
     'rule': 'A charm that commands: "Enslave (3/Day). The aboleth targets one creature it can see within 30 ft. of '
             'it. The target must succeed on a DC 14 Wisdom saving throw or be magically charmed by the aboleth until '
             'the aboleth dies ... The charmed target is under the aboleth\'s control and can\'t take reactions ... '
             'Whenever the charmed target takes damage, the target can repeat the saving throw. On a success, the '
             'effect ends." (and the succubus\' Charm: "One humanoid the fiend can see within 30 feet of it must '
             'succeed on a DC 15 Wisdom saving throw or be magically charmed for 1 day. The charmed target obeys the '
             'fiend\'s verbal or telepathic commands. If the target suffers any harm ... it can repeat the saving '
             'throw ... The fiend can have only one target charmed at a time.")',
     'status': 'built',
     'decision': 'SRD-65\'s charm, and the target is under the charmer\'s control: it is played as a creature of the '
                 'charmer\'s side (a `controlled` event; its side\'s policy or player moves it) until the charm ends, '
                 'then it is back on its own side. Any damage it takes lets it repeat the save. The aboleth\'s target '
                 'has no reaction (spent at the start of each of its turns). The succubus\' one target: a new charm '
                 'frees the previous. Telepathy, 1 mile and 1 day lie outside a fight; a "suicidal command" is not '
                 'given',
     'where': W + 'engine/rules/dnd5e/srd_charms.py `after_save`, `end`, `harm_repeats_charm`, `charm_turn_start`, '
                  '`charmer_dies`',
     'tests': [T + 'test_srd66_enslave_puts_the_target_on_the_aboleths_side_until_damage_frees_it']},
    {'id': 'SRD-67',
     'rule': 'Death Glare: "The hag targets one frightened creature she can see within 30 ft. of her. If the target '
             'can see the hag, it must succeed on a DC 11 Wisdom saving throw against this magic or drop to 0 hit '
             'points."',
     'status': 'built',
     'decision': 'a target that is not frightened is refused citing SRD-67; one that does not see the hag makes no '
                 'save. Failed: its hit points (and temporary hit points) drop to 0, not as damage (a `drop_to_zero` '
                 'event): a monster dies (DND-02\'s `monsters_die_at_0`), another is dying and unconscious',
     'where': W + 'engine/rules/dnd5e/srd_charms.py `refusal`, `spared`, `drop_to_zero`',
     'tests': [T + 'test_srd67_death_glare_drops_a_frightened_target_to_zero']},
    {'id': 'SRD-68',
     'rule': 'Slow: "The golem targets one or more creatures it can see within 10 ft. of it. Each target must make a '
             'DC 17 Wisdom saving throw against this magic. On a failed save, a target can\'t use reactions, its speed '
             'is halved, and it can\'t make more than one attack on its turn. In addition, the target can take either '
             'an action or a bonus action on its turn, not both. These effects last for 1 minute. A target can repeat '
             'the saving throw at the end of each of its turns, ending the effect on itself on a success."',
     'status': 'built',
     'decision': 'the targets are the foes it sees within the range (its allies are not chosen); a failure is '
                 'SRD-27\'s slowed (the metallic dragons\' Slowing Breath: the same words), its end-of-turn save the '
                 'Wisdom save written. The slow spell\'s -2 to AC and Dexterity saves are not in the golem\'s text and '
                 'are not applied; the minute is not counted (the effect lasts until a save ends it)',
     'where': W + 'engine/rules/dnd5e/srd_charms.py `caught`; engine/rules/dnd5e/srd_breaths.py `slow`, '
                  '`weakness_repeat_save`',
     'tests': [T + 'test_srd68_stone_golem_slow_takes_the_foes_it_sees_with_a_wisdom_save_each_turn']},
    {'id': 'SRD-69',
     'rule': 'The charms\' and fears\' 24-hour immunity: "If a target\'s saving throw is successful or the effect ends '
             'for it, the target is immune to this ghost\'s Horrifying Visage for the next 24 hours." (the dryad\'s, '
             'the succubus\', the harpy\'s, the ghost\'s Possession alike)',
     'status': 'built',
     'decision': 'a success against such a feature, or its end on the creature where the text says so, makes the '
                 'creature immune to that creature\'s feature for the rest of the fight (the sheet\'s `charm_immune`: '
                 '24 hours outlast a fight; a `charm_immune` event); a later use makes it no save (a `charm_spared` '
                 'event)',
     'where': 'engine/rules/dnd5e/srd_charms.py `spared`, `after_save`, `end`',
     'tests': [T + 'test_srd69_a_success_or_the_end_of_the_effect_makes_it_immune']},
    {'id': 'SRD-70',
     'rule': 'A fear with conditions: "Horrifying Visage. Each non-undead creature within 60 ft. of the ghost that '
             'can see it must succeed on a DC 13 Wisdom saving throw or be frightened for 1 minute. If the save fails '
             'by 5 or more, the target also ages 1d4 x 10 years. A frightened target can repeat the saving throw at '
             'the end of each of its turns ..." and "Scare (1/Day). One creature of the quasit\'s choice within 20 ft. '
             'of it must succeed on a DC 10 Wisdom saving throw or be frightened for 1 minute. The target can repeat '
             'the saving throw at the end of each of its turns, with disadvantage if the quasit is within line of '
             'sight, ending the effect on itself on a success."',
     'status': 'built',
     'decision': 'the Visage: every creature within 18 m that is not undead and sees the ghost saves (SRD-54\'s '
                 '`not_types`); the Scare: the end-of-turn save is rolled with disadvantage while a line of sight '
                 '(AIR-15) joins the target and the quasit. The aging has no effect in a fight (no age on a sheet)',
     'where': W + 'engine/rules/dnd5e/srd_charms.py `charm_repeat_save`, `spared`',
     'tests': [T + 'test_srd70_quasit_scare_repeats_with_disadvantage_in_sight_and_the_visage_spares_the_undead']},
    {'id': 'SRD-71',
     'rule': 'Possession (Recharge 6): "One humanoid that the ghost can see within 5 ft. of it must succeed on a DC 13 '
             'Charisma saving throw or be possessed by the ghost; the ghost then disappears, and the target is '
             'incapacitated and loses control of its body. The ghost now controls the body ... it retains its '
             'alignment, Intelligence, Wisdom, Charisma ... The possession lasts until the body drops to 0 hit '
             'points ..."',
     'status': 'built',
     'decision': 'failed: the body is played as a creature of the ghost\'s side with the ghost\'s Intelligence, '
                 'Wisdom and Charisma (a `possessed` event); its own will is held, so it is not left incapacitated '
                 '(the ghost moves it). The ghost\'s own turns are spent (a `possessing` event). Damage that drops '
                 'the body to 0 hit points ends it first (a `possession_ended` event): its side and abilities come '
                 'back and it is immune. Left out (the feature is not counted modelled): the ghost stays where it '
                 'stood and may still be targeted',
     'where': W + 'engine/rules/dnd5e/srd_charms.py `after_save`, `charm_turn_start`, `harm_repeats_charm`',
     'tests': [T + 'test_srd71_possession_plays_the_body_on_the_ghosts_side_until_it_drops_to_zero']},
    {'id': 'SRD-72',
     'rule': 'Luring Song: "The harpy sings a magical melody. Every humanoid and giant within 300 ft. of the harpy '
             'that can hear the song must succeed on a DC 11 Wisdom saving throw or be charmed until the song ends. '
             'The harpy must take a bonus action on its subsequent turns to continue singing. ... The song ends if '
             'the harpy is incapacitated. While charmed by the harpy, a target is incapacitated ... If the charmed '
             'target is more than 5 ft. away from the harpy, the must move on its turn toward the harpy by the most '
             'direct route. ... whenever it takes damage from a source other than the harpy, a target can repeat the '
             'saving throw. A creature can also repeat the saving throw at the end of each of its turns."',
     'status': 'built',
     'decision': 'every humanoid or giant within 90 m that is not deafened saves; failed: charmed and incapacitated '
                 '(from the harpy). At the start of its turn a target farther than 1.5 m from the harpy moves toward '
                 'it by the straight line, as far as its movement goes and it is not yet within 1.5 m (a `lured` '
                 'event): horizontally, so a walker under a flying harpy walks to the ground below it and waits (it '
                 'cannot rise; it falls off an edge, AIR-12); it repeats the save at the end of each of its turns '
                 'and when damage comes from another than the harpy. The harpy spends its bonus action at the start '
                 'of each later turn to sing on (a `song` event); the song ends when it is incapacitated or dies',
     'where': W + 'engine/rules/dnd5e/srd_charms.py `caught`, `charm_turn_start`, `charm_repeat_save`, '
                  '`harm_repeats_charm`, `charmer_dies`',
     'tests': [T + 'test_srd72_luring_song_draws_the_charmed_target_to_the_harpy']},
]
