"""Actions as data: parameter specs and their validation (errors name the key, e.g. ``script[3].to``).

A ruleset describes each action's parameters as ``{name: Param(kind, required, choices)}``. Kinds: ``str``,
``int``, ``bool``, ``pos`` (``[x, y, layer]``), ``id`` (a character id), ``table`` (a dict), ``any``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.rules.core import BadAction, Illegal


@dataclass(frozen=True)
class Param:
    kind: str
    required: bool = False
    choices: tuple = ()
    default: Any = None
    help: str = ""


def _isint(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_params(action: dict, spec: dict, meta: set) -> dict:
    out = {k: action[k] for k in meta if k in action}
    for k in action:
        if k not in spec and k not in meta:
            allowed = ", ".join(sorted(spec)) or "none"
            raise BadAction(f"unknown parameter for {action['action']} (its parameters: {allowed})", "", k)
    for k, p in spec.items():
        if k not in action:
            if p.required:
                raise BadAction(f"required for {action['action']}" + (f": {p.help}" if p.help else ""), "", k)
            if p.default is not None:
                out[k] = p.default
            continue
        v = action[k]
        if p.kind == "pos":
            if not (isinstance(v, (list, tuple)) and len(v) == 3 and all(_isint(i) for i in v)):
                raise BadAction(f"must be [x, y, layer] (three integers), got {v!r}", "", k)
            v = [int(i) for i in v]
        elif p.kind in ("str", "id"):
            if not isinstance(v, str):
                raise BadAction(f"must be a string, got {v!r}", "", k)
        elif p.kind == "int":
            if not _isint(v):
                raise BadAction(f"must be an integer, got {v!r}", "", k)
        elif p.kind == "bool":
            if not isinstance(v, bool):
                raise BadAction(f"must be true or false, got {v!r}", "", k)
        elif p.kind == "table" and not isinstance(v, dict):
            raise BadAction(f"must be a table, got {v!r}", "", k)
        if p.choices and v not in p.choices:
            raise BadAction(f"{v!r} is not one of {', '.join(map(str, p.choices))}", "", k)
        out[k] = v
    return out


def require_condition(actor, condition: str, rule: str) -> None:
    """Refuse an action that needs the actor to be ``condition`` (standing up needs prone): "X is not prone"."""
    if not actor.has(condition):
        raise Illegal(f"{actor.name} is not {condition}", rule)

