"""The SRD 5.1 flyers' senses and the traits about being perceived (SRD-97..SRD-100, issue 44): Devil's Sight,
blindsight, Echolocation, False Appearance, each with the text it implements (the SRD 5.1, CC-BY-4.0) and the
decision taken. Fields and rendering: engine/rules/catalogue.py."""

T = "tests/rules/dnd5e/test_srd_sight.py::"

RULES = [
    {'id': 'SRD-97',
     'rule': 'Devil\'s Sight: "Magical darkness doesn\'t impede the devil\'s darkvision."',
     'status': 'built',
     'decision': 'the sheet\'s `srd_senses.devils_sight_m` (its darkvision\'s range): a creature within it is seen '
                 'through the voxels of magical darkness (a Darkness, the spell\'s `magical_darkness`), not through '
                 'a Fog Cloud\'s: every sight test of the devil (its attacks\' unseen-target disadvantage, targeting '
                 'and total cover, its own sight tests, the player view) runs on the world without those voxels '
                 '(a lens, sight.py `LENSES`). Beyond its darkvision\'s range the darkness blinds it as any other',
     'where': 'srd sight `lens`, srd sight `lens_world`, 5e sight `lens_of`, srd senses `read`',
     'tests': [T + 'test_srd97_devils_sight_sees_through_magical_darkness_not_fog']},
    {'id': 'SRD-98',
     'rule': 'Blindsight (the SRD, "Senses"): "A creature with blindsight can perceive its surroundings without '
             'relying on sight, within a specific radius."',
     'status': 'built',
     'decision': 'every SRD creature\'s blindsight (its senses, the sheet\'s `srd_senses.blindsight_m`): within the '
                 'radius it perceives another creature whatever obscures it (darkness, fog: no obscured voxel '
                 'blocks its lines), invisible or not, and blinded or not; walls still do (a sight line through the '
                 'world\'s voxels, so no total cover). Invisible and blinded then give no advantage or disadvantage '
                 'between the two (DND-42, DND-46 ask `perceives_without_sight`). A hidden foe stays hidden (the '
                 'Hide contest is not sight); unconscious, it perceives nothing',
     'where': 'srd sight `blindsight`, srd sight `blindsight_reaches`, 5e sight `perceives_without_sight`',
     'tests': [T + 'test_srd98_blindsight_perceives_the_invisible_and_through_fog']},
    {'id': 'SRD-99',
     'rule': 'Echolocation: "The bat can\'t use its blindsight while deafened."',
     'status': 'built',
     'decision': 'the sheet\'s `srd_senses.echolocation`: while it has a condition tagged `cannot_hear` (deafened, '
                 'DND-44) its blindsight (SRD-98) is off: it sees with its eyes alone',
     'where': 'srd sight `blindsight_reaches`',
     'tests': [T + 'test_srd99_echolocation_no_blindsight_while_deafened']},
    {'id': 'SRD-100',
     'rule': 'False Appearance: "While the gargoyle remains motionless, it is indistinguishable from an inanimate '
             'statue." (the cloaker: "without its underside exposed"; the flying sword: "and isn\'t flying")',
     'status': 'built',
     'decision': 'the rules have no surprise; the reading played: a creature with the trait that has not moved or '
                 'acted since the fight began, and is not aloft, is not known for a creature by its foes: none may '
                 'name it as a target (the refusal names SRD-100), they do not see it (`rs.sees`: the player view '
                 'leaves it out, an attack of its is an unseen attacker\'s, DND-26), and the simulate policies leave '
                 'it alone (`SIM_AIDS["unnoticed"]`). A `false_appearance` event as the first turn starts says so; '
                 'any action but ending the turn ends it before it plays, an attack once made '
                 '(`false_appearance_ends`). An area still catches it. Left out: taking it up again once unseen. '
                 'Option `false_appearance = false`: the other reading (with no surprise the trait does nothing)',
     'where': 'srd sight `disguised`, srd sight `not_a_target`, srd sight `acts`, srd sight `attacked`, srd sight '
              '`false_appearance_holds`, 5e turns `target_refusal`',
     'tests': [T + 'test_srd100_false_appearance_no_target_until_it_acts',
               T + 'test_srd100_the_player_view_and_listing_leave_it_out']},
    {'id': 'SRD-101',
     'rule': 'Darkness Aura (1/Day): "A 15-foot radius of magical darkness extends out from the darkmantle, moves '
             'with it, and spreads around corners. The darkness lasts as long as the darkmantle maintains '
             'concentration, up to 10 minutes (as if concentrating on a spell). Darkvision can\'t penetrate this '
             'darkness, and no natural light can illuminate it. If any of the darkness overlaps with an area of '
             'light created by a spell of 2nd level or lower, the spell creating the light is dispelled."',
     'status': 'built',
     'decision': 'action `darkness_aura` (its action; the sheet\'s `srd_senses.darkness_aura` {radius_m, per_day}, '
                 'a use counted in its `creature_state`): the Darkness spell\'s lasting area (SPL-10, magical '
                 'darkness) as a 4.5 m sphere centred on it, held by its concentration on "darkness" (damage, '
                 'incapacitation or another concentration end it; the 10 minutes outlast a fight). "moves with it": '
                 'the obscured voxels are set anew at the end of each of its moves (a push or a fall moves it at its '
                 'next move). "spreads around corners": the sphere\'s voxels, walls or not. Darkvision does not see '
                 'through it (none does here), Devil\'s Sight (SRD-97) and blindsight (SRD-98, its own Echolocation) '
                 'do. Left out: dispelling spells of light (light is not modelled); a policy does not use it yet',
     'where': 'srd sight `aura_check`, srd sight `aura_apply`, srd sight `darkness_follows`, srd senses `read`',
     'tests': [T + 'test_srd101_darkness_aura_moves_with_the_darkmantle']},
]
