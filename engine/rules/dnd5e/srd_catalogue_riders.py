"""The SRD 5.1 flyers' riders (SRD-46, SRD-47, SRD-59, SRD-60, issue 44): what the stat blocks of
assets/srd/creatures.json add after a hit's damage, and the traits that go with them, each with the text it
implements (the SRD 5.1, CC-BY-4.0) and the decision taken. Fields and rendering: engine/rules/catalogue.py."""

T = "tests/rules/dnd5e/test_srd_riders.py::"

RULES = [
    {'id': 'SRD-46',
     'rule': 'Infernal wound (the horned devil\'s Tail, the bearded devil\'s Glaive): "If the target is a creature '
             'other than an undead or a construct, it must succeed on a DC 17 Constitution saving throw or lose 10 '
             '(3d6) hit points at the start of each of its turns due to an infernal wound. Each time the devil hits '
             'the wounded target with this attack, the damage dealt by the wound increases by 10 (3d6). Any creature '
             'can take an action to stanch the wound with a successful DC 12 Wisdom (Medicine) check. The wound also '
             'closes if the target receives magical healing."',
     'status': 'built',
     'decision': 'the weapon\'s `on_hit` rider {kind = "wound", dice, more, stanch_dc, spares}: an undead or a '
                 'construct is asked no save; a failed save opens the wound (the sheet\'s `infernal_wounds`); a hit '
                 'of the same devil\'s same attack on a target it wounded asks no save and adds the dice; at the start '
                 'of each of its turns the target loses the dice\'s hit points (dealt as untyped damage, so no '
                 'resistance applies and 0 HP is dying as after any damage); the action `stanch` (the wounded '
                 'creature or one within 1.5 m: a Wisdom (Medicine) check against the DC) closes every infernal '
                 'wound it bears; healing by a spell (DND-21, SPL-01), a potion (DND-25) or the unicorn\'s Healing '
                 'Touch (SRD-35) closes them; a Healer\'s kit, Regeneration or a GM\'s heal do not (not magic)',
     'where': 'srd wound `wound_before_save`, `rider`, `infernal_wound`, `healed`, `stanch`; srd hits text `read`; '
              'engine/rules/dnd5e/actions/srd_stanch.py `Stanch`; srd traits `on_hit_save`; 5e damage `heal`',
     'tests': [T + 'test_srd46_the_horned_devils_tail_opens_an_infernal_wound_that_grows_and_is_stanched',
               T + 'test_srd46_magical_healing_closes_the_wound_an_undead_is_spared_stanch_refused']},
    {'id': 'SRD-47',
     'rule': 'Petrification (the cockatrice\'s Bite): "the target must succeed on a DC 11 Constitution saving throw '
             'against being magically petrified. On a failed save, the creature begins to turn to stone and is '
             'restrained. It must repeat the saving throw at the end of its next turn. On a success, the effect '
             'ends. On a failure, the creature is petrified for 24 hours."',
     'status': 'built',
     'decision': 'SRD-13\'s failed save restrains it; the rider {kind = "petrify"} notes it turning to stone (the '
                 'sheet\'s `petrifying`), armed when its next turn starts; at that turn\'s end it saves again '
                 '(Magic Resistance gives advantage: the effect is magic): a success ends the restraint, a failure '
                 'petrifies it (DND-50; 24 hours outlast any fight) and the restraint ends with the petrification '
                 'that replaces it. The first save is SRD-13\'s, which gives Magic Resistance no advantage',
     'where': 'srd wound `rider`, `petrification_arms`, `petrification_save`; srd hits text `read`',
     'tests': [T + 'test_srd47_the_cockatrices_bite_turns_to_stone']},
    {'id': 'SRD-59',
     'rule': 'Consume Life (the will-o\'-wisp): "As a bonus action, the will-o\'-wisp can target one creature it can '
             'see within 5 ft. of it that has 0 hit points and is still alive. The target must succeed on a DC 10 '
             'Constitution saving throw against this magic or die. If the target dies, the will-o\'-wisp regains 10 '
             '(3d6) hit points."',
     'status': 'built',
     'decision': 'the sheet\'s `srd_hits.consume_life` {dc, dice, range_m}; the action `consume_life` spends the '
                 'bonus action on a creature it sees within range at 0 HP and not dead (dying or stable); Magic '
                 'Resistance gives the save advantage ("against this magic"); a failure kills it (a `death` event '
                 'naming SRD-59) and the wisp regains the dice\'s hit points. Refused (SRD-59 named): no Consume '
                 'Life, the bonus action used, a target with hit points or dead, out of range or unseen',
     'where': 'srd consume `refusal`, `consume`; engine/rules/dnd5e/actions/srd_consume.py `ConsumeLife`; srd hits '
              'text `trait`',
     'tests': [T + 'test_srd59_consume_life_kills_a_dying_creature_and_heals_the_wisp']},
    {'id': 'SRD-60',
     'rule': 'Invisibility (the will-o\'-wisp): "The will-o\'-wisp and its light magically become invisible until it '
             'attacks or uses its Consume Life, or until its concentration ends (as if concentrating on a spell)."',
     'status': 'built',
     'decision': 'SRD-34 plays the invisibility and its end on an attack or a lost concentration; using Consume Life '
                 '(SRD-59), whatever the save, ends its concentration and so the invisibility',
     'where': 'srd consume `consume`; srd traits2 `invisibility_ends_on_attack`',
     'tests': [T + 'test_srd60_consume_life_ends_the_wisps_invisibility']},
]
