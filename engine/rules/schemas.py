"""Per-ruleset character keys in scene files. Unknown keys are errors that name the key path.

The scene loader validates the keys common to every ruleset (id, side, at, flying, size...) itself and hands the
rest of each character table to the schema of the scene's ruleset.
"""

from __future__ import annotations

import msgspec
from engine.rules import registry
import dataclasses


class _Strict(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    pass


def character_schema(ruleset: str) -> type:
    """The msgspec Struct of the ruleset's own character keys (from the registry)."""

    return registry.info(ruleset).schema_class()


def register_schema(ruleset: str, schema: type) -> None:
    """Replace the character schema of a registered ruleset."""


    registry.register(dataclasses.replace(registry.info(ruleset), schema=schema))
