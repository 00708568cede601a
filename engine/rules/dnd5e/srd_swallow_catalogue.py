"""The SRD 5.1 creatures that swallow and engulf (SRD-43..SRD-45, issue 44): what their stat blocks in
assets/srd/creatures.json do at the table, each with the text it implements (the SRD 5.1, CC-BY-4.0) and the decision
taken. Fields and rendering: engine/rules/catalogue.py."""

T = "tests/rules/dnd5e/test_srd_swallow.py::"

RULES = [
    {'id': 'SRD-43',
     'rule': 'Swallow: "The behir makes one bite attack against a Medium or smaller target it is grappling. If the '
             'attack hits, the target is also swallowed, and the grapple ends. While swallowed, the target is blinded '
             'and restrained, it has total cover against attacks and other effects outside the behir, and it takes 21 '
             '(6d6) acid damage at the start of each of the behir\'s turns. A behir can have only one creature '
             'swallowed at a time. If the behir takes 30 damage or more on a single turn from the swallowed creature, '
             'the behir must succeed on a DC 14 Constitution saving throw at the end of that turn or regurgitate the '
             'creature, which falls prone in a space within 10 ft. of the behir. If the behir dies, a swallowed '
             'creature is no longer restrained by it and can escape from the corpse by using 15 ft. of movement, '
             'exiting prone." (the remorhaz\'s and the tarrasque\'s Swallow alike; the purple worm\'s Bite: "If the '
             'target is a Large or smaller creature, it must succeed on a DC 19 Dexterity saving throw or be swallowed '
             'by the worm.")',
     'status': 'built',
     'decision': 'the sheet key `srd_swallow` (read from the text). The action `swallow` (target: a creature it is '
                 'grappling, of the size written, none already inside where "only one") is one attack with its Bite '
                 '(refused citing SRD-43 otherwise); it takes the action, except the tarrasque\'s "It can use its '
                 'Swallow instead of its bite": one of its Multiattack\'s attacks, counted as the bite (SRD-01). On a '
                 'hit, after the bite\'s damage, the grapple ends and the creature is swallowed (a `swallowed` event): '
                 'blinded and restrained (their source the swallower), set inside its body (`inside` on its sheet), '
                 'moved with it after each of its moves, on the ground or aloft (`moved_inside`). The worm\'s bite '
                 'asks its save instead of SRD-13\'s. Total cover: nothing outside reaches it, the swallower\'s own '
                 'attacks and contests included (DND-32 total cover, areas leave it out), and from inside it reaches '
                 'only the swallower (and another creature inside it): `legal_actions` lists its attacks on the '
                 'swallower only. At the start of each of the swallower\'s turns, the acid is rolled for each creature '
                 'inside. The damage it takes from creatures inside it is counted per turn; at the end of a turn with '
                 'the number written or more, it makes the Constitution save, and on a failure every creature inside '
                 'leaves for the nearest free place beside it (within 10 ft.), prone (a `regurgitated` event); one '
                 'left in the air falls by AIR-12. When the swallower dies, the restraint it gave ends; the action '
                 '`escape_corpse` uses the movement written (refused with less left) and sets the creature beside the '
                 'corpse, prone, no longer blinded (an `escapes_corpse` event)',
     'where': 'srd swallow `swallow`, srd swallow `swallowed_acid`, srd swallow `hurt_from_inside`, srd swallow '
              '`regurgitate_check`, srd swallow `regurgitate`, srd swallow `swallower_dies`, srd swallow '
              '`moved_inside`, srd swallow actions `Swallow`, srd swallow actions `EscapeCorpse`, 5e sight `sealed`, '
              'srd swallow text `read`',
     'tests': [T + 'test_srd43_the_behir_swallows_what_it_constricts_digests_it_and_regurgitates_it',
               T + 'test_srd43_the_purple_worms_bite_swallows_and_its_corpse_lets_the_creature_out',
               T + 'test_srd43_a_swallowed_creature_reaches_only_its_swallower_and_moves_with_it']},
]
