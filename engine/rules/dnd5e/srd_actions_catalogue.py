"""The SRD 5.1 creatures' attack and save actions played whole (SRD-20..SRD-29; issue 44): what the stat blocks of
assets/srd/creatures.json do beyond SRD-01..19, each with the text it implements (the SRD 5.1, CC-BY-4.0) and the
decision taken. Fields and rendering: engine/rules/catalogue.py."""

T = "tests/rules/dnd5e/test_srd_actions.py::"

RULES = [
    {'id': 'SRD-20',
     'rule': 'Wing Attack (Costs 2 Actions): "The dragon beats its wings. Each creature within 10 ft. of the dragon '
             'must succeed on a DC 22 Dexterity saving throw or take 15 (2d6 + 8) bludgeoning damage and be knocked '
             'prone. The dragon can then fly up to half its flying speed."',
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
                 'the nearest such foe (a `wing_flight` event, then the move)',
     'where': 'engine/rules/dnd5e/srd_wing.py `fly_after`, `destination`, `ordered`; srd legendary '
              '`legendary_actions`; srd blocks `legendary_option`',
     'tests': [T + 'test_srd20_wing_attack_knocks_flyers_prone_they_fall_and_the_dragon_flies_off',
               T + 'test_srd20_two_foes_get_the_tail_and_a_dragon_that_flattened_everyone_stays']},
    {'id': 'SRD-21',
     'rule': 'The alternative damage of an attack: "Hit: 4 (1d6 + 1) piercing damage or 5 (1d8 + 1) piercing damage if '
             'used with two hands to make a melee attack"; "9 (2d6 + 2) piercing damage in melee or 5 (1d6 + 2) '
             'piercing damage at range"; "7 (2d6) piercing damage, or 3 (1d6) piercing damage if the swarm has half '
             'of its hit points or fewer".',
     'status': 'built',
     'decision': 'a weapon key `alternative` {damage, when = two_hands | ranged | bloodied}: a hit rolls the '
                 'alternative dice when the case holds (an `alternative_damage` event): a ranged attack; the '
                 'attacker at half its hit points or fewer; both hands on a melee attack -- the attacker\'s choice '
                 '(`two_hands` on the attack, never asked), by default yes unless it attacked with another weapon '
                 'this turn (that one is in its other hand). The blocks as kept do not say who carries a shield, so '
                 'a guard with its shield is played two-handed unless the action says `two_hands = false`. The '
                 'alternatives the rules do not play (shillelagh, enlarged, another form) stay named in `features`',
     'where': 'engine/rules/dnd5e/srd_alternative.py `damage_dice`, `applies`; 5e attacks `_damage`; '
              'srd blocks `alternative`, `weapon`',
     'tests': [T + 'test_srd21_two_hands_on_a_versatile_weapon_unless_told_or_the_other_hand_attacked',
               T + 'test_srd21_at_range_and_a_swarm_at_half_its_hit_points']},
]
