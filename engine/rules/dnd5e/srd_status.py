"""Where each family of SRD features says whether the rules play it, and what sheet keys it gives a creature.

Each entry of ``STATUS`` takes (creature record, section, feature) and answers ``(modelled, why)`` or ``None`` when
the feature is not of its family; the first answer wins. Each entry of ``KEYS`` takes a creature record and returns
the sheet keys its family adds (an empty dict when none). srd_blocks reads both lists: a new family of features adds
one line to each, never a branch to srd_blocks' ``feature_status``.
"""

from __future__ import annotations

from typing import Any, Callable

from engine.rules.dnd5e import srd_features, srd_shape_data

Status = Callable[[dict, str, dict], "tuple[bool, str] | None"]
Keys = Callable[[dict], "dict[str, Any]"]

#: families of features, asked in this order (SRD-30..49 first)
STATUS: tuple[Status, ...] = (
    srd_features.status,
    srd_shape_data.status,                      # SRD-89..96: shapes and planes
)

#: the sheet keys each family adds to a creature's character table
KEYS: tuple[Keys, ...] = (
    srd_features.character_keys,
    srd_shape_data.character_keys,              # SRD-89..96: srd_shapes
)


def status(c: dict, section: str, f: dict) -> tuple[bool, str] | None:
    for ask in STATUS:
        played = ask(c, section, f)
        if played is not None:
            return played
    return None


def keys(c: dict) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for give in KEYS:
        out.update(give(c))
    return out
