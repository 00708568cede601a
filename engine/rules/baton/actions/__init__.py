"""The baton's actions, one unit each (engine/rules/actions.py ``Unit``): every class in this package (and
``OpenWith`` in baton/choices.py) registers itself in ``ACTIONS`` with ``@action``; the ruleset's spec table, listing
and previews are derived from them.

Each unit carries its ``place`` in the spec table (the window's buttons), its ``hotkey``, its listing ``groups``
and whether it ``spends_action``; one without a place comes after those with one."""

from engine.rules.actions import ActionTable

ACTIONS = ActionTable()
action = ACTIONS.register
