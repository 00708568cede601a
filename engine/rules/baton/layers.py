"""The baton ruleset's modules and their layers (engine/rules/layers.py says what may import what; a new module
of the package is added here)."""

from engine.rules.layers import ACTIONS, DATA, QUERIES, RESOLUTION, RULES, RULESET

LAYERS: dict[str, dict[str, int]] = {"engine.rules.baton": {
    "": DATA, "layers": DATA, "data": DATA, "common": DATA, "dice": DATA, "options": DATA, "schema": DATA, "text": DATA,
    "catalogue": DATA, "quotes": DATA, "upcalls": DATA, "events": DATA,
    "initiative": QUERIES, "skills": QUERIES, "mounts": QUERIES, "slots": QUERIES,
    "combat": RESOLUTION, "health": RESOLUTION, "baton_order": RESOLUTION, "leave_cover": RESOLUTION,
    "turns": RULES, "setup": RULES,
    "choices": ACTIONS, "listing": ACTIONS, "actions": ACTIONS, "actions.attacks": ACTIONS,
    "actions.doors": ACTIONS, "actions.downtime": ACTIONS, "actions.minor": ACTIONS,
    "actions.objects": ACTIONS, "actions.turn": ACTIONS,
    "ruleset": RULESET,
}}
