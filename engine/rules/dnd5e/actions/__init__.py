"""The Dnd5e actions, one unit each (engine/rules/actions.py ``Unit``): every class in this package registers itself
in ``ACTIONS`` with ``@action``; the ruleset's spec table, listing and previews are derived from them.

``ORDER``: the spec table's order (the window's buttons); an action not named here comes after these."""

from engine.rules.actions import ActionTable

ORDER = ("move", "attack", "pick_lock", "force_lock", "open_door", "dash", "disengage", "dodge", "help", "hide", "search",
         "ready", "use", "cast", "creature_action", "grapple", "escape", "shove", "stand", "stabilize", "mount", "dismount", "reaction_policy",
         "end_turn", "condition", "damage", "heal", "temp_hp", "inspire", "short_rest", "trap", "secret_door")
ACTIONS = ActionTable(ORDER)
action = ACTIONS.register
