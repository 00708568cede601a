"""Loading (DND-F28, l. 227 of the document: Crossbow Expert "ignores the loading property"): a weapon with
``loading`` fires once per action, bonus action or reaction, whatever the number of attacks the action gives
(Extra Attack); Crossbow Expert lifts it for the crossbows its holder is proficient with.

The document names loading only through Crossbow Expert; what loading does is the rulebook's (the SRD's weapon
properties), stated as the grounding in docs/rules.md. A reaction is one attack, so only the Attack action (its
several attacks) and the bonus action can meet it twice; the turn keeps which of them fired a loading weapon.
"""

from __future__ import annotations

from engine.rules.core import Illegal
from engine.rules.dnd5e import feats_data, gear

RULE = "DND-F28"


def lifted(a, w: dict) -> bool:
    """Crossbow Expert ignores loading for a crossbow its holder is proficient with (gear.proficient_weapon)."""
    return bool(a.data.get("feats")) and "crossbow" in w["name"] and feats_data.has(a, "crossbow_expert") \
        and gear.proficient_weapon(a, w)


def applies(a, w: dict) -> bool:
    """The weapon has loading and nothing lifts it."""
    return "loading" in w["properties"] and not lifted(a, w)


def refusal(a, w: dict, turn: dict, kind: str) -> Illegal | None:
    """Why ``a`` may not fire ``w`` again with this ``kind`` ("action" or "bonus") this turn, or None."""
    if "loading" not in w["properties"] or kind not in turn.get("loading_fired", ()) or lifted(a, w):
        return None
    what = "action" if kind == "action" else "bonus action"
    return Illegal(f"the {w['name'].replace('_', ' ')} has the loading property: it fires once per {what}, whatever "
                   f"the number of attacks, and {a.name} has fired it this {what} (Crossbow Expert ignores loading)",
                   RULE, "weapon")


def fired(a, w: dict, turn: dict, kind: str) -> None:
    """Mark the ``kind`` of the turn as having fired a loading weapon (only when loading applies)."""
    if "loading" in w["properties"] and turn.get("actor") == a.id and not lifted(a, w):
        turn.setdefault("loading_fired", []).append(kind)


def preview_note(a, w: dict, turn: dict) -> str | None:
    """The attack preview's line on loading, or None for a weapon without it."""
    if "loading" not in w["properties"]:
        return None
    if lifted(a, w):
        return f"loading: ignored, Crossbow Expert with a proficient crossbow ({RULE})"
    if turn.get("attacks_left", 0) > 1 or (not turn.get("action") and a.data["attacks"] > 1):
        return (f"loading: the {w['name'].replace('_', ' ')} fires once this action; the other attacks need "
                f"another weapon ({RULE})")
    return f"loading: the {w['name'].replace('_', ' ')} fires once per action, bonus action or reaction ({RULE})"
