"""The layers of the rules (issue 45): every module of engine/rules, of each ruleset package, and its layer.

Bottom to top: data and options -> queries (conditions, advantage, figures, sight) -> resolution (attack roll,
damage, saves, concentration) -> rules registered on hooks (feats, traits) -> actions (the ``Unit``s) -> the
ruleset -> the session (the core's driver: the event loop, saves, the runner, the catalogue). A module imports only
modules of its own layer or below (and never in a circle); a lower layer reaches a higher one only through a hook
(engine/rules/hooks.py) or a registry (engine/rules/registry.py, the ``Upcall``s of hooks.py) that the higher
module fills when it loads.

Between packages: the core (``engine.rules``) is below every ruleset, and a ruleset imports the core's modules up
to its ruleset layer (never the session layer); a ruleset never imports another; the core never imports a ruleset
(the registry names them by string). A package's ``__init__`` runs before any of its modules, so it is data.

tests/structure/test_rules_layers.py reads the imports with ``ast`` (those inside functions counted, ``if
TYPE_CHECKING`` ones not) and fails on a circle, on an import upward, on a module missing here, and on more than
:data:`MAX_FUNCTION_IMPORTS` imports inside functions. A new module is added to its package's table below.
"""

from __future__ import annotations

#: the layers, bottom first
NAMES = ("data", "queries", "resolution", "rules", "actions", "ruleset", "session")
DATA, QUERIES, RESOLUTION, RULES, ACTIONS, RULESET, SESSION = range(len(NAMES))

#: imports inside functions allowed in all engine/rules (each with a comment saying why)
MAX_FUNCTION_IMPORTS = 10

#: Names kept importable from an old place for the callers outside engine/rules, loaded when first asked for (a
#: module ``__getattr__``): (module, the module the name lives in) -> why. The checker leaves these edges out of the
#: graph (nothing inside engine/rules may use them: tests/structure/test_package_layers.py) and counts them among
#: the imports inside functions.
OUTSIDE_ALIASES: dict[tuple[str, str], str] = {
    ("engine.rules.core", "engine.rules.session"):
        "``from engine.rules.core import Session``: the app, sim, interop and many tests import it from there",
}

#: package -> {module (relative to the package): layer}; "" is the package's ``__init__``
LAYERS: dict[str, dict[str, int]] = {
    "engine.rules": {
        "": DATA, "hooks": DATA, "core": DATA, "registry": DATA, "options": DATA, "schemas": DATA,
        "validate": DATA, "lines": DATA, "statblocks": DATA, "aerial_catalogue": DATA, "layers": DATA,
        "dial": QUERIES, "riding": QUERIES, "pathing": QUERIES, "legal": QUERIES,
        "aerial": RESOLUTION, "objects": RESOLUTION, "choices": RESOLUTION,
        "actions": ACTIONS, "gm": ACTIONS,
        "ruleset": RULESET,
        "saves": SESSION, "session": SESSION, "runner": SESSION, "catalogue": SESSION,
    },
    "engine.rules.dnd5e": {
        "": DATA, "data": DATA, "common": DATA, "options": DATA, "schema": DATA, "text": DATA, "catalogue": DATA,
        "feats_catalogue": DATA, "feats_data": DATA, "upcalls": DATA,
        "conditions": QUERIES, "advantage": QUERIES, "figures": QUERIES, "sight": QUERIES, "gear": QUERIES,
        "loading": QUERIES,
        "attack_roll": RESOLUTION, "attacks": RESOLUTION, "damage": RESOLUTION, "concentration": RESOLUTION,
        "mounts": RESOLUTION,
        "turns": RULES, "feats": RULES, "feats_moments": RULES, "feats_sheet": RULES, "sheet": RULES,
        "attack_preview": ACTIONS, "listing": ACTIONS, "actions": ACTIONS, "actions.allies": ACTIONS,
        "actions.contact": ACTIONS, "actions.magic": ACTIONS, "actions.objects": ACTIONS,
        "actions.policy": ACTIONS, "actions.rest": ACTIONS, "actions.standard": ACTIONS,
        "ruleset": RULESET,
    },
    "engine.rules.baton": {
        "": DATA, "data": DATA, "common": DATA, "dice": DATA, "options": DATA, "schema": DATA, "text": DATA,
        "catalogue": DATA, "upcalls": DATA,
        "initiative": QUERIES, "skills": QUERIES, "mounts": QUERIES, "slots": QUERIES,
        "combat": RESOLUTION, "health": RESOLUTION, "baton_order": RESOLUTION, "leave_cover": RESOLUTION,
        "turns": RULES, "setup": RULES,
        "choices": ACTIONS, "listing": ACTIONS, "actions": ACTIONS, "actions.attacks": ACTIONS,
        "actions.doors": ACTIONS, "actions.downtime": ACTIONS, "actions.minor": ACTIONS,
        "actions.objects": ACTIONS, "actions.turn": ACTIONS,
        "ruleset": RULESET,
    },
}


def package_of(module: str) -> str:
    """The package of the table that holds ``module`` (the longest that is a prefix of it)."""
    best = ""
    for pkg in LAYERS:
        if (module == pkg or module.startswith(pkg + ".")) and len(pkg) > len(best):
            best = pkg
    return best


def layer_of(module: str) -> int | None:
    pkg = package_of(module)
    if not pkg:
        return None
    return LAYERS[pkg].get(module[len(pkg) + 1:] if module != pkg else "")
