"""The SRD 5.1 flyers' traits and non-attack actions (SRD-30..SRD-36, issue 44): what the stat blocks of
assets/srd/creatures.json do at the table, each with the text it implements (the SRD 5.1, CC-BY-4.0) and the decision
taken. Fields and rendering: engine/rules/catalogue.py."""

T = "tests/rules/dnd5e/test_srd_traits2.py::"
T3 = "tests/rules/dnd5e/test_srd_auras.py::"
T4 = "tests/rules/dnd5e/test_srd_swarm.py::"

RULES = [
    {'id': 'SRD-30',
     'rule': 'Talons that carry: a creature held by a stat block\'s grapple ("Talons. ... the target is grappled (escape '
             'DC 19)") is carried along by its grappler, aloft too. SRD (Grappling, Moving a Grappled Creature): "When '
             'you move, you can drag or carry the grappled creature with you, but your speed is halved, unless the '
             'creature is two or more sizes smaller than you."',
     'status': 'built',
     'decision': 'a creature held by an SRD-19 grapple and two or more sizes smaller than its grappler (a roc\'s '
                 'Medium prey) is carried: after each move of the grappler it hangs in the nearest free place under the '
                 'grappler\'s body (centred, then beside it ring by ring, within its reach), a `carried` event; one '
                 'less than two sizes smaller is not carried (the halved speed is not played) and the grapple ends out '
                 'of reach (DND-47) as before. A carried walker hangs without flying (held: no AIR-08 upkeep). With '
                 'AIR\'s grappled flyer (AIR-10: a flyer grappled by a flyer is held aloft), when the grapple ends -- '
                 '`let_go` (no action: "You can release the target whenever you like"), an escape, the grappler\'s '
                 'death or incapacitation -- a walker over nothing falls straight down by AIR-12 (5% of its max HP a '
                 'layer above the first, Prone); a flyer let go flies on',
     'where': 'srd carry `carry_load`, srd carry `dropped_aloft`, srd carry `let_go`, 5e conditions `release`, '
              'engine/rules/dnd5e/actions/traits.py',
     'tests': [T + 'test_srd30_a_roc_carries_a_grappled_walker_aloft_and_drops_it_from_layer_8']},
    {'id': 'SRD-31',
     'rule': 'Incorporeal Movement: "The ghost can move through other creatures and objects as if they were difficult '
             'terrain. It takes 5 (1d10) force damage if it ends its turn inside an object."',
     'status': 'built',
     'decision': 'its flight\'s path search (`pathing.THROUGH`, srd_through.py) passes every node of the map: a node where a '
                 'voxel of its body is solid, or another creature\'s body is, costs its step twice (SRD: difficult '
                 'terrain, "every foot of movement in difficult terrain costs 1 extra foot"); it may end a move inside '
                 'an object, not in another creature\'s space (DND-11). When its turn ends with a voxel of its body '
                 'solid, a d10 (`damage`) of force damage. Walking (a ghost has no walking speed) keeps the plain '
                 'search',
     'where': 'engine/rules/pathing.py, srd through `through_reach`, srd traits2 `incorporeal`, srd traits2 `inside_an_object`',
     'tests': [T + 'test_srd31_incorporeal_movement_through_a_wall_as_difficult_terrain',
               T + 'test_srd31_incorporeal_movement_through_a_creature']},
    {'id': 'SRD-32',
     'rule': 'Regeneration: "The oni regains 10 hit points at the start of its turn if it has at least 1 hit point." '
             '(the vampire\'s: "... and isn\'t in sunlight or running water. If the vampire takes radiant damage or '
             'damage from holy water, this trait doesn\'t function at the start of the vampire\'s next turn.")',
     'status': 'built',
     'decision': 'a turn-start rule: at 1 HP or more it heals the number written (a `heal` event, SRD-32); the damage '
                 'types that stop it (radiant) are noted when dealt and skip the next turn start (a `regeneration` '
                 'event saying why). Sunlight and running water stop the vampire\'s (SRD-85); the sandbox has no holy water',
     'where': 'srd traits2 `regeneration`, srd traits2 `regeneration_stopped`',
     'tests': [T + 'test_srd32_regeneration_and_radiant_damage_stopping_it']},
    {'id': 'SRD-33',
     'rule': 'Teleport: "The balor magically teleports, along with any equipment it is wearing or carrying, up to 120 '
             'feet to an unoccupied space it can see."',
     'status': 'built',
     'decision': '`trait_action` with `feature = "Teleport"` and `at`: any layer within the range (36 m, measured in '
                 '3D), the body fits and no one is there, a clear sight line (AIR-15) to it; it flies where it arrives '
                 'in the air. The legendary Teleport (sphinxes, solar: "Teleport (Costs 2 Actions)") is a legendary '
                 'option (SRD-15) with the same checks; its policy (the GM\'s choice point is not offered, as for '
                 'every legendary option): at the end of another creature\'s turn, when a foe is within 1.5 m and the '
                 'creature is at half its hit points or fewer, to the free space in range it can see farthest from '
                 'the nearest foe (when that is farther than where it stands)',
     'where': 'srd traits2 `_teleport_to`, srd traits2 `apply`, srd traits2 `escape_to`, srd traits2 `legendary_move`, '
              'srd legendary `legendary_actions`, engine/rules/dnd5e/actions/traits.py',
     'tests': [T + 'test_srd33_teleport_to_a_space_it_can_see',
               T + 'test_srd33_srd38_legendary_teleport_and_move_get_away']},
    {'id': 'SRD-34',
     'rule': 'Invisibility: "The imp magically turns invisible until it attacks, or until its concentration ends (as if '
             'concentrating on a spell)." (the sprite\'s "or casts a spell", the will-o\'-wisp\'s "or uses its Consume '
             'Life"); "The stalker is invisible."',
     'status': 'built',
     'decision': '`trait_action` with `feature = "Invisibility"`: it concentrates (DND-21: damage asks the save, one '
                 'concentration at a time) and is invisible (the condition: unseen attacker and target, DND-26); '
                 'after its next attack its concentration ends and the condition with it. The stalker\'s is the '
                 'sheet\'s `invisible` from the start. Casting a spell and Consume Life do not end it yet (neither is '
                 'played for those creatures here)',
     'where': 'srd traits2 `apply`, srd traits2 `invisibility_ends_on_attack`, srd traits2 `_invisibility_ends`, '
              '5e attacks `resolve_attack`',
     'tests': [T + 'test_srd34_invisibility_until_it_attacks']},
    {'id': 'SRD-35',
     'rule': 'Healing Touch (3/Day): "The deva touches another creature. The target magically regains 20 (4d8 + 2) hit '
             'points and is freed from any curse, disease, poison, blindness, or deafness."',
     'status': 'built',
     'decision': '`trait_action` with `feature = "Healing Touch"` and `target`: another living creature within 1.5 m '
                 '(AIR-04); the dice named `heal`; poisoned, blinded and deafened end (curses and diseases are not '
                 'tracked); uses per day counted',
     'where': 'srd traits2 `check`, srd traits2 `apply`',
     'tests': [T + 'test_srd35_healing_touch']},
    {'id': 'SRD-36',
     'rule': 'Fire Aura: "At the start of each of the balor\'s turns, each creature within 5 feet of it takes 10 (3d6) '
             'fire damage, and flammable objects in the aura that aren\'t being worn or carried ignite. A creature that '
             'touches the balor or hits it with a melee attack while within 5 feet of it takes 10 (3d6) fire damage."',
     'status': 'built',
     'decision': 'a turn-start rule: one roll for every creature within 1.5 m (engaged, AIR-04); after a melee hit on it '
                 'by a creature within 1.5 m, that creature takes its own roll; a touch (a grapple or shove) is SRD-109\'s. The '
                 'sandbox\'s objects do not burn (as SRD-56\'s fire: nothing but a creature is set alight)',
     'where': 'srd traits2 `fire_aura`, srd traits2 `aura_burns_attacker`',
     'tests': [T + 'test_srd36_fire_aura']},
    {'id': 'SRD-37',
     'rule': 'Shapechanger, Change Shape by size: "The fiend can use its action to polymorph into a Small or Medium '
             'humanoid, or back into its true form. Without wings, the fiend loses its flying speed. Other than its '
             'size and speed, its statistics are the same in each form. ... It reverts to its true form if it dies."; '
             'the oni\'s "polymorphs into a Small or Medium humanoid, into a Large giant, or back into its true form. '
             'Other than its size, its statistics are the same in each form."',
     'status': 'built',
     'decision': '`trait_action` with `form` (a size it lists, or `true`): the body of that size where it stands (its '
                 'corner cell kept, as Enlarge/Reduce, SPL-13), refused when it does not fit; the succubus\'s other '
                 'forms have no fly speed, and aloft it falls (AIR-10, AIR-12\'s damage and Prone); its true form gives '
                 'the fly speed back; a `shape` event. When it dies it takes its true form (the damage module\'s DEATH '
                 'hook). Which humanoid it resembles changes nothing at the table. The forms that change more than '
                 'size and speed (a dragon\'s, a deva\'s, the imp\'s climbing spider, the vampire\'s mist) are not '
                 'played (`features` says so)',
     'where': 'srd traits2 `_form`, srd traits2 `change_shape`, srd traits2 `true_form_on_death`',
     'tests': [T + 'test_srd37_shapechanger_without_wings_falls_and_change_shape_reverts_at_death']},
    {'id': 'SRD-38',
     'rule': 'The legendary Move: "Move. The vampire moves up to its speed without provoking opportunity attacks."',
     'status': 'built',
     'decision': 'a legendary option (SRD-15): its reach map at its speed (AIR-09: in the air at its ground speed '
                 'unless `air_speed = "fly_speed"`), no opportunity attack on the way (a `move` event saying so); the '
                 'policy is the legendary Teleport\'s (SRD-33): away from a foe within 1.5 m when at half its hit '
                 'points or fewer, to the place farthest from the nearest foe',
     'where': 'srd traits2 `escape_to`, srd traits2 `legendary_move`, srd legendary `legendary_actions`, '
              'srd features `legendary`, srd blocks `legendary_option`',
     'tests': [T + 'test_srd33_srd38_legendary_teleport_and_move_get_away']},
    {'id': 'SRD-39',
     'rule': 'Fear Aura: "Any creature hostile to the pit fiend that starts its turn within 20 feet of the pit fiend '
             'must make a DC 21 Wisdom saving throw, unless the pit fiend is incapacitated. On a failed save, the '
             'creature is frightened until the start of its next turn. If a creature\'s saving throw is successful, '
             'the creature is immune to the pit fiend\'s Fear Aura for the next 24 hours."',
     'status': 'built',
     'decision': 'a turn-start rule of the creature whose turn starts: the fear an aura gave it ends first, then each '
                 'hostile, not incapacitated aura within its radius (6 m from the aura\'s body: the centres\' '
                 'distance, AIR-03, less half its footprint) asks a Wisdom save; a failure frightens it with the aura '
                 'as the source (SRD conditions: no moving closer, disadvantage while it sees the source), a success '
                 'makes it immune for the rest of the scene (24 hours outlast any fight)',
     'where': 'srd auras `fear_aura`, srd features `read`',
     'tests': [T3 + 'test_srd39_fear_aura']},
    {'id': 'SRD-40',
     'rule': 'Confer Fire Resistance: "The nightmare can grant resistance to fire damage to anyone riding it."',
     'status': 'built',
     'decision': 'a damage modifier: a rider seated on the nightmare (DND-36) resists fire damage while the mount '
                 'lives; "can grant" is taken as always granted (the mount\'s choice, made for its rider)',
     'where': 'srd auras `conferred_resistance`, srd features `read`',
     'tests': [T3 + 'test_srd40_confer_fire_resistance']},
    {'id': 'SRD-41',
     'rule': 'Swarm: "The swarm can occupy another creature\'s space and vice versa, and the swarm can move through any '
             'opening large enough for a Tiny bat. The swarm can\'t regain hit points or gain temporary hit points."; '
             'Air Form (Water Form alike): "The elemental can enter a hostile creature\'s space and stop there. It can '
             'move through a space as narrow as 1 inch wide without squeezing."',
     'status': 'built',
     'decision': 'the path search (pathing `SHARES`, `SQUEEZES`) leaves out the bodies it may share: a swarm passes '
                 'and stops in anyone\'s space and anyone in a swarm\'s; Air Form in a hostile creature\'s (an ally\'s '
                 'it passes, as anyone, without stopping). The opening: at the voxel scale the smallest opening is one '
                 'voxel, a Tiny body\'s, so its path passes every node where one voxel is free and ends only where its '
                 'own body fits (a hole in a wall has the wall under it: passing it lands and takes off again, AIR-06). '
                 'Healing and temporary hit points given to a swarm are refused (a `heal_blocked` event)',
     'where': 'srd swarm `shares_space`, srd swarm `squeezes`, srd swarm `no_healing`, srd features `read`',
     'tests': [T4 + 'test_srd41_swarm_and_air_form_pass_a_one_voxel_opening',
               T4 + 'test_srd41_swarm_shares_a_space_and_vice_versa', T4 + 'test_srd41_swarm_cannot_regain_hit_points']},
    {'id': 'SRD-42',
     'rule': 'Tail Spike Regrowth: "The manticore has twenty-four tail spikes. Used spikes regrow when the manticore '
             'finishes a long rest."',
     'status': 'built',
     'decision': 'each attack with its Tail Spike uses one spike, hit or miss (the multiattack\'s "three with its tail '
                 'spikes" three); with none left the attack is refused (SRD-42), so the policies and `legal_actions` '
                 'leave it out; a fight has no long rest: none regrows. The count is the sheet\'s `srd_features.spikes`',
     'where': 'srd auras `spikes_check`, srd auras `spike_used`, srd features `read`',
     'tests': [T3 + 'test_srd42_tail_spikes_run_out']},
]
