"""The SRD 5.1 flyers' shapes and planes (SRD-89..SRD-95, issue 44): what the stat blocks of assets/srd/creatures.json
do at the table, each with the text it implements (the SRD 5.1, CC-BY-4.0) and the decision taken. Fields and
rendering: engine/rules/catalogue.py."""

T = "tests/rules/dnd5e/test_srd_shapes.py::"

RULES = [
    {'id': 'SRD-89',
     'rule': 'Change Shape (the ancient brass, bronze, copper, gold and silver dragons, the couatl, the deva): "The dragon '
             'magically polymorphs into a humanoid or beast that has a challenge rating no higher than its own, or back '
             'into its true form. It reverts to its true form if it dies. ... In a new form, the dragon retains its '
             'alignment, hit points, Hit Dice, ability to speak, proficiencies, Legendary Resistance, lair actions, and '
             'Intelligence, Wisdom, and Charisma scores, as well as this action. Its statistics and capabilities are '
             'otherwise replaced by those of the new form, except any class features or legendary actions of that '
             'form."; the couatl\'s and the deva\'s: "retains its game statistics and ability to speak, but its AC, '
             'movement modes, Strength, Dexterity, and other actions [the deva: special senses] are replaced by those '
             'of the new form, and it gains any statistics and capabilities (except class features, legendary actions, '
             'and lair actions) that the new form has but that it lacks. If the new form has a bite attack, the couatl '
             'can use its bite in that form."',
     'status': 'built',
     'decision': '`change_shape` with `form` = the SRD id of a humanoid or beast of the bestiary whose CR is no higher '
                 'than its own (or `true`), its action. The form\'s sheet is made as Polymorph makes one '
                 '(srd_polymorph `new_form`, SPL-19) and its body takes the form\'s size where it fits (kept where it '
                 'does not, as Enlarge\'s). The dragon keeps its hit points, Int, Wis and Cha, its proficiency bonus '
                 '(the form\'s attack bonuses are moved by the difference), saving throw and skill proficiencies and '
                 'Legendary Resistance; it has no legendary actions in the new form (neither its own, not retained, '
                 'nor the form\'s). The couatl and the deva keep their sheet and hit points; AC, speeds (fly, swim, '
                 'hover), Str and Dex are the form\'s; they gain its resistances, immunities, traits and proficiencies; '
                 'the couatl\'s attacks are the form\'s (its own Bite kept where the form has a bite), the deva keeps its '
                 'attacks and gains the form\'s. A form without a fly speed aloft falls (AIR-10, AIR-12). When it dies it '
                 'takes its true form back (the DEATH hook). The listing offers its true form, else the best flying form '
                 'and the best other one (highest CR, then HP, then id). Left as no effect here: alignment, speech, '
                 'equipment, lair actions, senses; a humanoid form\'s spellcasting is not given (Polymorph\'s sheet)',
     'where': 'srd shapes `change_shape`, srd shapes `check`, srd shapes `options`, srd shapes `true_shape_on_death`, '
              'srd shape data `read`, engine/rules/dnd5e/actions/srd_shape.py `ChangeShape`',
     'tests': [T + 'test_srd89_change_shape_keeps_hit_points_and_minds_and_reverts_at_death']},
    {'id': 'SRD-90',
     'rule': 'Shapechanger by speed (the imp, the quasit): "The imp can use its action to polymorph into a beast form that '
             'resembles a rat (speed 20 ft.), a raven (20 ft., fly 60 ft.), or a spider (20 ft., climb 20 ft.), or '
             'back into its true form. Its statistics are the same in each form, except for the speed changes noted. '
             '... It reverts to its true form if it dies."',
     'status': 'built',
     'decision': '`change_shape` with `form` = a form the trait names (rat, raven, spider; bat, centipede, toad) or '
                 '`true`, its action: the walking speed and the fly (and swim) speed are the form\'s; a form without a '
                 'fly speed aloft falls (AIR-10, AIR-12); the true form\'s speeds come back, and at its death. A climb '
                 'speed is kept on the sheet: the sandbox has no climbing of walls, so it changes nothing',
     'where': 'srd shapes `change_shape`, srd shapes `check`, srd shape data `read`, '
              'engine/rules/dnd5e/actions/srd_shape.py `ChangeShape`',
     'tests': [T + 'test_srd90_shapechanger_by_speed_a_rat_falls_a_raven_flies']},
    {'id': 'SRD-91',
     'rule': 'The vampire\'s Shapechanger: "If the vampire isn\'t in sun light or running water, it can use its action to '
             'polymorph into a Tiny bat or a Medium cloud of mist, or back into its true form. While in bat form, the '
             'vampire can\'t speak, its walking speed is 5 feet, and it has a flying speed of 30 feet. Its statistics, '
             'other than its size and speed, are unchanged. ... It reverts to its true form if it dies. While in mist '
             'form, the vampire can\'t take any actions, speak, or manipulate objects. It is weightless, has a flying '
             'speed of 20 feet, can hover, and can enter a hostile creature\'s space and stop there. ... It has '
             'advantage on Strength, Dexterity, and Constitution saving throws, and it is immune to all nonmagical '
             'damage, except the damage it takes from sunlight."',
     'status': 'built',
     'decision': '`change_shape` with `form` = bat, mist or `true`, its action. Each form\'s speeds and attacks are those '
                 'of its record in the bestiary (vampire-vampire, vampire-bat, vampire-mist: the SRD\'s "Unarmed Strike '
                 '(Vampire Form Only)", "Bite (Bat or Vampire Form Only)"); the bat is Tiny, the mist Medium and hovers. '
                 'In mist form every attack is refused (SRD-91: it can\'t take any actions; its way back is this '
                 'trait), Str, Dex and Con saves have advantage, and the damage of a weapon without the magical property '
                 'and of a fall (AIR-12) is 0 (other damage -- spells, breaths, auras, the GM\'s -- is taken as magical). '
                 'The sandbox has no sunlight nor running water; entering a hostile creature\'s space and squeezing are '
                 'not played',
     'where': 'srd shapes `change_shape`, srd shapes `mist_acts`, srd shapes `mist_immune_to_nonmagical`, '
              'srd shape data `mist_save_advantage`, srd shape data `read`',
     'tests': [T + 'test_srd91_vampire_bat_and_mist']},
    {'id': 'SRD-92',
     'rule': 'Misty Escape: "When it drops to 0 hit points outside its resting place, the vampire transforms into a cloud '
             'of mist (as in the Shapechanger trait) instead of falling unconscious, provided that it isn\'t in '
             'sunlight or running water. If it can\'t transform, it is destroyed. While it has 0 hit points in mist '
             'form, it can\'t revert to its vampire form, and it must reach its resting place within 2 hours or be '
             'destroyed. ..."',
     'status': 'built',
     'decision': 'damage that drops it to 0 HP (damage.AT_ZERO) leaves it at 0 HP in mist form (a `misty_escape` event '
                 'and a `change_shape` to mist): not dead (a monster\'s death at 0 HP, DND-02, does not come), not '
                 'dying (no death saves, it does not fall as a dying flyer), and `change_shape` back is refused (SRD-92). '
                 'Damage left over of at least its max HP still kills it (DND-01); damage at 0 HP is DND-04\'s. The '
                 'sandbox has no resting place, no sunlight nor running water: a fight lasts less than 2 hours, so it '
                 'stays a mist',
     'where': 'srd shapes `misty_escape`, 5e damage `apply_damage`, 5e turns `dying`',
     'tests': [T + 'test_srd92_misty_escape_at_zero_hit_points']},
    {'id': 'SRD-93',
     'rule': 'The vampire\'s legendary options in its forms: "Unarmed Strike. The vampire makes one unarmed strike." and '
             '"Bite (Costs 2 Actions). The vampire makes one bite attack." -- the SRD names the attacks "Unarmed Strike '
             '(Vampire Form Only)" and "Bite (Bat or Vampire Form Only)", and "While in mist form, the vampire can\'t '
             'take any actions".',
     'status': 'built',
     'decision': 'each of its forms (vampire-vampire, vampire-bat, vampire-mist) carries the three options of the block '
                 '(Move, Unarmed Strike, Bite) naming the attack by its name; a form without that attack cannot take '
                 'the option (srd_legendary finds no such weapon): the bat no unarmed strike, the mist neither attack '
                 '(its attacks are refused, SRD-91). Its legendary Bite keeps the bite\'s targets (SRD-48: "one willing '
                 'creature, or a creature that is grappled by the vampire, incapacitated, or restrained")',
     'where': 'srd shape data `character_keys`, srd legendary `legendary_actions`',
     'tests': [T + 'test_srd93_the_vampires_legendary_options_follow_its_form']},
    {'id': 'SRD-94',
     'rule': 'Etherealness: "The ghost enters the Ethereal Plane from the Material Plane, or vice versa. It is visible on '
             'the Material Plane while it is in the Border Ethereal, and vice versa, yet it can\'t affect or be '
             'affected by anything on the other plane." (the succubus\'s: "The fiend magically enters the Ethereal '
             'Plane from the Material Plane, or vice versa.")',
     'status': 'built',
     'decision': '`etherealness`, its action: it takes the condition `ethereal` (the tag `other_plane`), or loses it. '
                 'Between two creatures on different planes an attack is refused (SRD-94), the damage one deals the other '
                 '(an area\'s, an aura\'s) is 0 and a condition one gives the other does not take. It stays visible and '
                 'its body stays where it is (the blocks say nothing of passing through objects)',
     'where': 'srd planes `cross`, srd planes `across_target`, srd planes `across_the_planes`, srd planes `ward`, '
              'engine/rules/dnd5e/actions/srd_shape.py `Etherealness`',
     'tests': [T + 'test_srd94_etherealness_nothing_crosses_the_planes']},
    {'id': 'SRD-95',
     'rule': 'Ethereal Stride: "The nightmare and up to three willing creatures within 5 feet of it magically enter the '
             'Ethereal Plane from the Material Plane, or vice versa."',
     'status': 'built',
     'decision': '`etherealness` with `with` = up to three creatures of its side (willing), within 1.5 m (AIR-04) and on '
                 'its plane: all of them cross (SRD-94 then plays between the planes)',
     'where': 'srd planes `check`, srd planes `cross`',
     'tests': [T + 'test_srd95_ethereal_stride_takes_willing_creatures_along']},
]
