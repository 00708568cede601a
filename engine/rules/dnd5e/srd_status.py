"""Where each family of SRD features says whether the rules play it, and what sheet keys it gives a creature.

Each entry of ``STATUS`` takes (creature record, section, feature) and answers ``(modelled, why)`` or ``None`` when
the feature is not of its family; the first answer wins. Each entry of ``KEYS`` takes a creature record and returns
the sheet keys its family adds (an empty dict when none). Each entry of ``ACTIONS`` takes a creature record and one
of its actions and answers the sheet's ``creature_actions`` entry it plays, or None (srd_blocks.character asks them
before its own ``save_action``). srd_blocks reads the lists: a new family of features adds one line to each, never a
branch to srd_blocks' ``feature_status``.
"""

from __future__ import annotations

from typing import Any, Callable

from engine.rules.dnd5e import (srd_charm_text, srd_exposure, srd_features, srd_hits_text, srd_lasting_text, srd_misc_text,
                                srd_senses, srd_shape_data, srd_swallow_text)

Status = Callable[[dict, str, dict], "tuple[bool, str] | None"]
Keys = Callable[[dict], Any]

#: families of features, asked in this order (SRD-30..49 first)
STATUS: tuple[Status, ...] = (
    srd_hits_text.status,               # SRD-59..64: Consume Life (before SRD-34's Invisibility), Damage Transfer
    srd_features.status,
    srd_lasting_text.status,            # SRD-73..77: Parry, Horror Nimbus, Lightning Strike, Spores, Roar
    srd_swallow_text.status,         # SRD-43 swallowing
    srd_charm_text.status,              # SRD-65..72: charms, fears, possession (before srd_blocks' save actions)
    srd_exposure.status,            # SRD-81..86: breathing and light (srd_breath.py)
    srd_shape_data.status,                      # SRD-89..96: shapes and planes
    srd_misc_text.status,                       # SRD-105..108: the oni, the chimera, the balor
    srd_senses.status,                          # SRD-97..101: senses, darkness, False Appearance (srd_sight.py)
)

#: the sheet keys each family adds to a creature's character table
KEYS: tuple[Keys, ...] = (
    srd_features.character_keys,
    srd_lasting_text.character_keys,    # SRD-73 parry
    srd_swallow_text.character_keys,     # SRD-43 srd_swallow
    srd_exposure.character_keys,    # srd_exposure (SRD-81..86)
    srd_shape_data.character_keys,              # SRD-89..96: srd_shapes
    srd_misc_text.character_keys,               # SRD-105, -107, -108: multiattack, death_burst
    srd_hits_text.character_keys,               # SRD-59, -64: srd_hits
    srd_senses.character_keys,                  # SRD-97..101: srd_senses
)
Adjust = Callable[[dict, "list[dict]"], "list[dict]"]
#: what each family adds to the block's ``creature_actions`` entries (the save actions' second effects)
ADJUST: tuple[Adjust, ...] = (
    srd_lasting_text.adjust,            # SRD-74..79
    srd_misc_text.adjust,               # SRD-107: the breath in place of an attack
)
#: the legendary options each family adds to the block's (srd_blocks.legendary_option's)
LEGENDARY: tuple[Keys, ...] = (
    srd_lasting_text.legendary,         # SRD-80
)


#: each family's own save actions: (creature record, feature) -> the sheet's ``creature_actions`` entry or None;
#: srd_blocks.character asks them before its own ``save_action``
ACTIONS: tuple[Callable[[dict, dict], "dict | None"], ...] = (
    srd_charm_text.entry,               # SRD-65..72
)


def action(c: dict, f: dict) -> dict | None:
    for ask in ACTIONS:
        e = ask(c, f)
        if e is not None:
            return e
    return None


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


def legendary(c: dict) -> list[dict]:
    out: list[dict] = []
    for more in LEGENDARY:
        out += more(c)
    return out


def adjust(c: dict, saves: list[dict]) -> list[dict]:
    for fix in ADJUST:
        saves = fix(c, saves)
    return saves
