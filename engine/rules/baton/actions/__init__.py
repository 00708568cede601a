"""The baton's actions, one unit each (engine/rules/actions.py ``Unit``): every class in this package (and
``OpenWith`` in baton/choices.py) registers itself in ``ACTIONS`` with ``@action``; the ruleset's spec table, listing
and previews are derived from them.

``ORDER``: the spec table's order (the window's buttons); an action not named here comes after these."""

from engine.rules.actions import ActionTable

ORDER = ("pass", "move", "stand", "drop", "dismount", "attack", "manipulate", "charge", "create_opportunity", "open_with",
         "disarm", "dash", "grab", "trip", "push", "break_free", "resist_poison", "extinguish", "take_item", "use_power",
         "equip", "stow", "drop_item", "pick_up", "drink", "shout", "rest", "treat", "wait", "day",
         "damage", "condition", "poison", "fire", "breath")
ACTIONS = ActionTable(ORDER)
action = ACTIONS.register
