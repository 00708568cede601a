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
:data:`MAX_FUNCTION_IMPORTS` imports inside functions. A new module is added to its package's table (the core's below, a ruleset's in its own ``layers.py``).
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil

import engine.rules as pkg

#: the layers, bottom first
NAMES = ("data", "queries", "resolution", "rules", "actions", "ruleset", "session")
DATA, QUERIES, RESOLUTION, RULES, ACTIONS, RULESET, SESSION = range(len(NAMES))

#: imports inside functions allowed in all engine/rules (each with a comment saying why)
MAX_FUNCTION_IMPORTS = 10

#: Names kept importable from an old place for the callers outside engine/rules, loaded when first asked for (a
#: module ``__getattr__``): (module, the module the name lives in) -> why. The checker leaves these edges out of the
#: graph (nothing inside engine/rules may use them: tests/structure/test_package_layers.py) and counts them among
#: the imports inside functions.
OUTSIDE_ALIASES: dict[tuple[str, str], str] = {}   # none: `Session` is imported from engine.rules.session

#: package -> {module (relative to the package): layer}; "" is the package's ``__init__``. The core's table is
#: here; each ruleset package declares its own in its ``layers.py`` (:func:`tables` finds them: shared code never
#: names a ruleset)
LAYERS: dict[str, dict[str, int]] = {
    "engine.rules": {
        "": DATA, "hooks": DATA, "core": DATA, "registry": DATA, "options": DATA, "schemas": DATA,
        "validate": DATA, "lines": DATA, "statblocks": DATA, "aerial_catalogue": DATA, "aerial_quotes": DATA, "layers": DATA,
        "events": DATA, "preview_text": DATA,
        "dial": QUERIES, "riding": QUERIES, "pathing": QUERIES, "legal": QUERIES,
        "aerial": RESOLUTION, "objects": RESOLUTION, "choices": RESOLUTION,
        "actions": ACTIONS, "gm": ACTIONS,
        "ruleset": RULESET,
        "saves": SESSION, "session": SESSION, "runner": SESSION, "catalogue": SESSION,
    },
}


def tables() -> dict[str, dict[str, int]]:
    """The core's table and every package's under engine/rules that declares one (``<package>.layers.LAYERS``)."""
    out = dict(LAYERS)
    for m in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if m.ispkg and importlib.util.find_spec(f"{pkg.__name__}.{m.name}.layers") is not None:
            out.update(importlib.import_module(f"{pkg.__name__}.{m.name}.layers").LAYERS)
    return out
