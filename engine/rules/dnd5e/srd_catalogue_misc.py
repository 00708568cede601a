"""The SRD 5.1 flyers' Multiattacks with a form or a breath, the oni's Glaive and the balor's Death Throes (SRD-105..
SRD-108, issue 44): what the stat blocks of assets/srd/creatures.json do at the table, each with the text it
implements (the SRD 5.1, CC-BY-4.0) and the decision taken. Fields and rendering: engine/rules/catalogue.py."""

T = "tests/rules/dnd5e/test_srd_misc.py::"

RULES = [
    {'id': 'SRD-105',
     'rule': 'The oni\'s Multiattack and its claws: "Multiattack. The oni makes two attacks, either with its claws or its '
             'glaive."; "Claw (Oni Form Only). Melee Weapon Attack: +7 to hit, reach 5 ft., one target. Hit: 8 (1d8 + '
             '4) slashing damage."',
     'status': 'built',
     'decision': 'the sheet\'s `multiattack` names the attack by its full name: two claws or two glaive attacks ("either '
                 '... or" read as the drider\'s "either with its longsword or its longbow": one kind for both; a claw '
                 'and a glaive attack are refused, SRD-01). An attack named "(... Form Only)" is refused while the '
                 'creature is in another form its Change Shape took (SRD-37: a Small or Medium humanoid, a Large '
                 'giant), the refusal naming SRD-105; back in its true form (or dead: it reverts) it claws again',
     'where': 'srd misc `form_only_refusal`, srd misc text `either`, srd misc text `character_keys`, '
              'srd multiattack `refusal`',
     'tests': [T + 'test_srd105_the_onis_two_attacks_either_with_its_claws_or_its_glaive']},
    {'id': 'SRD-106',
     'rule': 'The oni\'s Glaive: "Melee Weapon Attack: +7 to hit, reach 10 ft., one target. Hit: 15 (2d10 + 4) slashing '
             'damage, or 9 (1d10 + 4) slashing damage in Small or Medium form."; Change Shape: "The only equipment '
             'that is transformed is its glaive, which shrinks so that it can be wielded in humanoid form. If the oni '
             'dies, it reverts to its true form, and its glaive reverts to its normal size."',
     'status': 'built',
     'decision': 'the weapon\'s `alternative` (SRD-21) with `when = "small_form"`: a hit while the oni is in a Small or '
                 'Medium form of its Change Shape (SRD-37) rolls 1d10 (an `alternative_damage` event naming SRD-106); '
                 'in its true form or as a Large giant, 2d10. Its reach stays 3 m in every form (the block gives one '
                 'reach). When it dies SRD-37 gives it its true form back, and the glaive its dice',
     'where': 'engine/rules/dnd5e/srd_alternative.py `in_small_form`, engine/rules/dnd5e/srd_alternative.py '
              '`damage_dice`, srd misc text `small_form`, srd blocks `alternative`',
     'tests': [T + 'test_srd106_the_onis_glaive_in_small_or_medium_form']},
    {'id': 'SRD-107',
     'rule': 'The chimera\'s Multiattack: "The chimera makes three attacks: one with its bite, one with its horns, and '
             'one with its claws. When its fire breath is available, it can use the breath in place of its bite or '
             'horns."',
     'status': 'built',
     'decision': 'the breath\'s `creature_actions` entry carries `in_place_of = ["Bite", "Horns"]` and the sheet\'s '
                 '`multiattack` the block\'s three combinations (bite, horns, claws; breath, horns, claws; bite, '
                 'breath, claws). "Available": its recharge (SRD-05) is not spent. Then `creature_action` with the '
                 'breath is one attack of the Attack action: used first it takes the action and leaves two attacks, '
                 'used after an attack it spends one of those left; it is refused when no attack is left or no '
                 'combination fits (the bite and the horns both made: SRD-107), and the attacks after it keep to a '
                 'combination with it (SRD-01). The listing offers it while it fits; its preview weighs it as one '
                 'attack (the damage expected over the foes caught, not divided by the three attacks as a breath that '
                 'takes the whole action is), so the policies take it in place of an attack when it does more',
     'where': 'srd misc `in_place_refusal`, srd misc `spend_in_place`, srd misc text `in_place`, srd misc text '
              '`adjust`, engine/rules/dnd5e/actions/srd.py `CreatureAction`',
     'tests': [T + 'test_srd107_the_chimeras_breath_in_place_of_its_bite_or_horns',
               T + 'test_srd107_the_listing_the_preview_and_the_policy_offer_the_breath_in_place']},
    {'id': 'SRD-108',
     'rule': 'The balor\'s Death Throes: "When the balor dies, it explodes, and each creature within 30 feet of it must '
             'make a DC 20 Dexterity saving throw, taking 70 (20d6) fire damage on a failed save, or half as much '
             'damage on a successful one. The explosion ignites flammable objects in that area that aren\'t being worn '
             'or carried, and it destroys the balor\'s weapons."',
     'status': 'built',
     'decision': 'the sheet\'s `death_burst` with `throes = true`, on the damage module\'s `DEATH` hook after SRD-18: when '
                 'the balor dies (a monster at 0 HP, `monsters_die_at_0`), every other living creature whose body is '
                 'within 9 m of its body (the spells\' area code, in 3D: a flyer above is caught) saves, allies too; one '
                 '20d6 roll (recorded dice, rule SRD-108), half on a success; the Dexterity save gets the cover DND-32 '
                 'grants from the balor. Then its weapons are destroyed: its Longsword and Whip give way to an '
                 'unarmed strike (a `weapons_destroyed` event). Flammable objects: no object in the sandbox burns (as '
                 'SRD-56\'s fire, which sets creatures only alight), so the explosion changes no object',
     'where': 'srd burst `death_throes`, srd burst `explode`, srd misc text `throes`, 5e damage `die`',
     'tests': [T + 'test_srd108_the_balors_death_throes']},
    {'id': 'SRD-109',
     'rule': 'The balor\'s Fire Aura touched: "At the start of each of the balor\'s turns, each creature within 5 feet of '
             'it takes 10 (3d6) fire damage, and flammable objects in the aura that aren\'t being worn or carried '
             'ignite. A creature that touches the balor or hits it with a melee attack while within 5 feet of it '
             'takes 10 (3d6) fire damage."',
     'status': 'built',
     'decision': 'the touch: a creature whose grapple (DND-30) or shove (DND-31) of the balor succeeds has laid hands on '
                 'it and takes the aura\'s 3d6 fire damage from the balor (its own roll, an `aura_touch` event); a '
                 'contest it loses is no touch; holding it grappled afterwards does not burn again (the text burns a '
                 'touch, not a hold). The turn-start aura and the melee hit are SRD-36\'s. Flammable objects: no object '
                 'in the sandbox burns (as SRD-56\'s fire), so none ignites',
     'where': 'srd misc `touch_burns`, engine/rules/dnd5e/actions/contact.py `Grapple`, '
              'engine/rules/dnd5e/actions/contact.py `Shove`, srd traits2 `fire_aura`',
     'tests': [T + 'test_srd109_a_creature_that_touches_the_balor_burns']},
]
