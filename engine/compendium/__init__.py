"""``aerie compendium <section>``: the libraries a GM searches -- one module per section, named here.

Each section module has ``add_arguments(parser)`` (its options under ``aerie compendium <section>``) and
``run(args) -> int``; engine/cli.py builds the subcommands from :data:`SECTIONS`, so a new section adds one line
here. A section module stays light to import: the whole ``aerie`` parser imports it.
"""

from __future__ import annotations

SECTIONS = {"creatures": "engine.compendium.creatures", "spells": "engine.compendium.spells"}
