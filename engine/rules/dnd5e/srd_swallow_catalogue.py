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
             'by the worm."; the gibbering mouther\'s Bites: "If the target is killed by this damage, it is absorbed '
             'into the mouther.")',
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
                 'corpse, prone, no longer blinded (an `escapes_corpse` event). The mouther\'s Bites (`srd_swallow` = '
                 '{weapon, absorb}): a creature dead after its hit (a dead creature is no target: the hit killed it) '
                 'is absorbed, its body set inside the mouther (an `absorbed` event); its prone save is SRD-13\'s',
     'where': 'srd swallow `swallow`, srd swallow `_absorbed`, srd swallow `swallowed_acid`, srd swallow `hurt_from_inside`, srd swallow '
              '`regurgitate_check`, srd swallow `regurgitate`, srd swallow `swallower_dies`, srd swallow '
              '`moved_inside`, srd swallow actions `Swallow`, srd swallow actions `EscapeCorpse`, 5e sight `sealed`, '
              'srd swallow text `read`',
     'tests': [T + 'test_srd43_the_behir_swallows_what_it_constricts_digests_it_and_regurgitates_it',
               T + 'test_srd43_the_purple_worms_bite_swallows_and_its_corpse_lets_the_creature_out',
               T + 'test_srd43_a_swallowed_creature_reaches_only_its_swallower_and_moves_with_it',
               T + 'test_srd43_the_gibbering_mouther_absorbs_what_its_bites_kill',
               T + 'test_srd43_a_swallower_aloft_carries_its_prey_and_what_it_regurgitates_falls']},
    {'id': 'SRD-44',
     'rule': 'Engulf: the gelatinous cube\'s "The cube moves up to its speed. While doing so, it can enter Large or '
             'smaller creatures\' spaces. Whenever the cube enters a creature\'s space, the creature must make a DC 12 '
             'Dexterity saving throw. On a successful save, the creature can choose to be pushed 5 feet back or to the '
             'side of the cube. A creature that chooses not to be pushed suffers the consequences of a failed saving '
             'throw. On a failed save, the cube enters the creature\'s space, and the creature takes 10 (3d6) acid '
             'damage and is engulfed. The engulfed creature can\'t breathe, is restrained, and takes 21 (6d6) acid '
             'damage at the start of each of the cube\'s turns. When the cube moves, the engulfed creature moves with '
             'it. An engulfed creature can try to escape by taking an action to make a DC 12 Strength check. On a '
             'success, the creature escapes and enters a space of its choice within 5 feet of the cube." (with its Ooze '
             'Cube\'s "A creature within 5 feet of the cube can take an action to pull a creature or object out of the '
             'cube. Doing so requires a successful DC 12 Strength check, and the creature making the attempt takes 10 '
             '(3d6) acid damage. The cube can hold only one Large creature or up to four Medium or smaller creatures '
             'inside it at a time."); the shambling mound\'s "Multiattack. The shambling mound makes two slam attacks. If both attacks hit a Medium or smaller '
             'target, the target is grappled (escape DC 14), and the shambling mound uses its Engulf on it." and '
             '"Engulf. The shambling mound engulfs a Medium or smaller creature grappled by it. The engulfed target is '
             'blinded, restrained, and unable to breathe, and it must succeed on a DC 14 Constitution saving throw at '
             'the start of each of the mound\'s turns or take 13 (2d8 + 4) bludgeoning damage. If the mound moves, the '
             'engulfed target moves with it. The mound can have only one creature engulfed at a time." The SRD\'s '
             'Suffocating: "A creature can hold its breath for a number of minutes equal to 1 + its Constitution '
             'modifier (minimum of 30 seconds). When a creature runs out of breath or is choking, it can survive for a '
             'number of rounds equal to its Constitution modifier (minimum of 1 round). At the start of its next turn, '
             'it drops to 0 hit points and is dying"',
     'status': 'built',
     'decision': 'the sheet key `srd_engulf` (kind "mound", read from the text). The second hit of its Slam on the same '
                 'Medium or smaller creature within one Attack action grapples it (SRD-19\'s `srd_grapple`, escape DC '
                 '14) and engulfs it when it holds no one (an `engulfed` event; else it is only grappled): restrained '
                 'while the grapple lasts, blinded by it, in its space (the sheet\'s `held_in`: the path search lets '
                 'the bodies share it) and moved with it (SRD-43\'s `moved_inside`). At the start of each of the '
                 'mound\'s turns the Constitution save, and on a failure the damage rolled. The Escape action\'s check '
                 'against DC 14 ends it, as the mound\'s death does (DND-47): the creature leaves for a free place beside '
                 'it, sees and breathes again (an `engulf_ends` event). "Unable to breathe": the sheet\'s `no_breath` '
                 'counts the rounds from the start of each of its turns; past 10 x (1 + Con modifier) rounds (at least '
                 '5) and then its Con modifier rounds (at least 1) it drops to 0 hit points, dying (a `suffocates` '
                 'event). The gelatinous cube\'s Engulf (kind "cube"; its Ooze Cube trait gives the holding and the pull): the action '
                 '`engulf` (to: where it ends, on its layer) moves it cell by cell in a line, within its movement (no '
                 'opportunity attack is asked on the way), through the spaces of Large or smaller creatures (a larger '
                 'one refuses it); each creature whose space it enters makes the Dexterity save once: on a success it '
                 'is pushed (it always chooses the push) to the nearest free place beside the cube where its move ends; '
                 'on a failure, or with no place to be pushed to, the damage is rolled and it is engulfed while the '
                 'cube has room (one Large or four Medium or smaller; full, it is pushed): inside it (SRD-43\'s '
                 '`inside`: total cover, "Creatures inside the cube can be seen but have total cover"), restrained, '
                 'unable to breathe, moved with it, its damage at the start of each of the cube\'s turns. The action '
                 '`escape_engulf` (its Strength check against DC 12) or `pull_out` (a creature within 1.5 m: DC 12, '
                 'and it takes the 3d6 acid) sets it in the nearest free place beside the cube; a dead cube lets '
                 'everyone out. The Ooze Cube\'s "Other creatures can enter the space ... disadvantage on the saving '
                 'throw" is not played (its trait is not counted)',
     'where': 'srd engulf `cube_enters`, srd engulf `cube_engulf`, srd engulf `escape_cube`, srd engulf `leave_cube`, '
              'srd engulf `cube_dies`, srd engulf actions `Engulf`, srd engulf actions `EscapeEngulf`, srd engulf '
              '`pull_out`, srd engulf `engulf`, srd engulf `_slam_hit`, srd engulf `engulfed_damage`, srd engulf `holding_breath`, '
              'srd engulf `engulf_ends`, srd engulf `room_for`, srd swallow `moved_inside`, srd swallow text `engulf`',
     'tests': [T + 'test_srd44_the_shambling_mound_engulfs_what_both_slams_hit',
               T + 'test_srd44_the_gelatinous_cube_engulfs_as_it_moves',
               T + 'test_srd44_inside_the_cube_total_cover_and_a_pull_out']},
    {'id': 'SRD-45',
     'rule': 'Whelm: "Whelm (Recharge 4-6). Each creature in the elemental\'s space must make a DC 15 Strength saving '
             'throw. On a failure, a target takes 13 (2d8 + 4) bludgeoning damage. If it is Large or smaller, it is '
             'also grappled (escape DC 14). Until this grapple ends, the target is restrained and unable to breathe '
             'unless it can breathe water. If the saving throw is successful, the target is pushed out of the '
             'elemental\'s space. The elemental can grapple one Large creature or up to two Medium or smaller creatures '
             'at one time. At the start of each of the elemental\'s turns, each target grappled by it takes 13 (2d8 + '
             '4) bludgeoning damage. A creature within 5 feet of the elemental can pull a creature or object out of it '
             'by taking an action to make a DC 14 Strength and succeeding."',
     'status': 'built',
     'decision': 'the sheet key `srd_engulf` (kind "whelm"); the action `whelm` (refused with no creature in its space '
                 'or while spent: its recharge is rolled at the start of its turn, SRD-05) asks each creature whose body '
                 'is in its space (Water Form lets it enter a hostile creature\'s, SRD-41) for the save; the damage is '
                 'rolled for each that fails, and one that fits (one Large, or two Medium or smaller) is held as '
                 'SRD-44 holds (grappled, escape DC 14, restrained, in its space, moved with it; not blinded); one '
                 'that saves is pushed to the nearest free place beside it (a `pushed_out` event). "unless it can breathe '
                 'water": a creature whose SRD block (found by its name) has Amphibious or Water Breathing, or that has '
                 'Water Form and a swimming speed, breathes; any other holds its breath (SRD-44). The damage each of its '
                 'turns is rolled for each creature held. The action `pull_out` (a creature within 1.5 m of the '
                 'elemental, outside it): a Strength check against DC 14; on a success the grapple ends',
     'where': 'srd engulf `whelm`, srd engulf `in_space`, srd engulf `pull_out`, srd engulf `breathes_water`, srd '
              'engulf actions `Whelm`, srd engulf actions `PullOut`, srd engulf `engulfed_damage`, srd swallow text '
              '`engulf`',
     'tests': [T + 'test_srd45_whelm_holds_the_failed_pushes_out_the_saved_and_is_pulled_out']},
]
