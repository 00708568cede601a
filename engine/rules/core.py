"""The ruleset-agnostic rules core's value types: actors, state, dice, events and illegal actions -- what every
rules module imports. The Session event loop that drives them is :mod:`engine.rules.session`, above them.

Every die is an event.
Events are plain JSON-able dicts with a ``type``; :func:`dumps` writes them with sorted keys, so the same
scene + seed + actions give the same log byte for byte. Nothing here knows about any one ruleset:
see :mod:`engine.rules.ruleset` for the plug-in interface and ``docs/rules-core.md``.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.errors import AerieError
from engine.memo import table as memo_table

if TYPE_CHECKING:
    from engine.rules.session import Session
from engine.world.geometry import Body

Event = dict


def dumps(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


class Illegal(AerieError):
    """An action the rules do not allow. ``reason`` is for a player; ``rule`` is the rule ID behind it."""

    def __init__(self, reason: str, rule: str = "", path: str = ""):
        self.reason = reason
        self.rule = rule
        self.path = path
        msg = reason + (f" ({rule})" if rule and f"({rule})" not in reason else "")
        super().__init__(f"{path}: {msg}" if path else msg)

    def at(self, path: str) -> Illegal:
        """The same error, located at a script step (``script[3]``) for the runner."""
        p = f"{path}.{self.path}" if self.path else path
        return Illegal(self.reason, self.rule, p)


class BadAction(Illegal):
    """A malformed action: unknown action, missing or wrong parameter. ``path`` names the key."""


# ---------------------------------------------------------------------------------------------------------
_BODIES: dict = memo_table("core._BODIES")      # (x, y, layer, footprint, height_layers, eye_m) -> Body (Actor.body)


@dataclass
class Actor:
    """One character's state. Generic fields are shared by every ruleset; ``data`` is the ruleset's own
    (JSON-able) state: action economy, death saves, weapons..."""
    id: str
    side: str
    name: str
    kind: str | None
    size: str
    footprint: int
    height_layers: int
    eye_m: float
    x: int
    y: int
    layer: int
    flying: bool
    can_fly: bool
    hp: int
    max_hp: int
    temp_hp: int = 0
    conditions: dict = field(default_factory=dict)   # lowercase name -> sorted list of source ids ([] if none)
    dead: bool = False
    data: dict = field(default_factory=dict)

    @property
    def pos(self) -> tuple[int, int, int]:
        return (self.x, self.y, self.layer)

    def has(self, cond: str) -> bool:
        return cond in self.conditions

    def body(self):
        """The geometry's ``Body`` of this character now (frozen, so one is shared per position and size: the
        legal-action list asks for ~20 a step)."""
        key = (self.x, self.y, self.layer, self.footprint, self.height_layers, self.eye_m)
        b = _BODIES.get(key)
        if b is None:
            if len(_BODIES) > 65536:
                _BODIES.clear()
            b = _BODIES[key] = Body(*key)
        return b

    def to_dict(self) -> dict:
        d = {
            "id": self.id, "side": self.side, "name": self.name, "kind": self.kind, "size": self.size,
            "footprint": self.footprint, "height_layers": self.height_layers, "eye_m": self.eye_m,
            "position": [self.x, self.y, self.layer], "flying": self.flying, "can_fly": self.can_fly,
            "hp": self.hp, "max_hp": self.max_hp, "temp_hp": self.temp_hp,
            "conditions": sorted(self.conditions), "condition_sources": {k: list(v) for k, v in sorted(self.conditions.items())},
            "dead": self.dead, "data": self.data,
        }
        for k in self.data.get("public", ()):    # the ruleset's own top-level fields (Actor.data["public"])
            d.setdefault(k, self.data.get(k))
        return d


@dataclass
class State:
    actors: dict[str, Actor]
    order: list[str] = field(default_factory=list)   # turn order (ruleset-defined)
    turn_index: int = 0
    round: int = 0
    turn: dict = field(default_factory=dict)         # ruleset's per-turn bookkeeping for the current actor
    data: dict = field(default_factory=dict)         # ruleset's global bookkeeping
    over: bool = False
    winner: str | None = None
    steps: int = 0
    objects: dict = field(default_factory=dict)      # the scene's [[objects]]: hp, destroyed, lock (engine/rules/objects.py)
    terrain: dict = field(default_factory=dict)      # damaged terrain voxels: "x,y,z" -> hit points left
    broken: list = field(default_factory=list)       # voxel boxes broken, in order: [[lo], [hi]]

    @property
    def current(self) -> str | None:
        if not self.order or self.over:
            return None
        return self.order[self.turn_index % len(self.order)]

    def to_dict(self) -> dict:
        return {
            "type": "state", "round": self.round, "current": self.current, "order": list(self.order),
            "turn": self.turn, "data": self.data, "over": self.over, "winner": self.winner, "steps": self.steps,
            "characters": {k: a.to_dict() for k, a in self.actors.items()},
            **{k: v for k, v in (("objects", self.objects), ("terrain", self.terrain), ("broken", self.broken)) if v},
        }


# ---------------------------------------------------------------------------------------------------------
class Dice:
    """The session's seeded generator. Every die rolled becomes a ``roll`` event. Forced results (a table
    rolling physical dice) come by roll name from the action's ``rolls`` table: an int is used for every die
    of that name in the action, a list is used one die at a time (then the generator takes over). Every draw from
    the generator is made here: while a step applies (``armed``), the generator's state before its first draw is
    kept in ``undo``, so a failed step restores it (an action that rolls nothing from it never copies it)."""

    def __init__(self, seed: int):
        self.seed = int(seed)
        self.rng = random.Random(self.seed)
        self.forced: dict[str, Any] = {}
        self.armed = False
        self.undo: tuple | None = None

    def roll(self, session: Session, name: str, sides: int, count: int = 1, who: str | None = None,
             rule: str = "", purpose: str = "") -> list[int]:
        out = []
        for _ in range(count):
            forced = False
            f = self.forced.get(name)
            if isinstance(f, list) and f:
                v, forced = int(f.pop(0)), True
            elif isinstance(f, int) and not isinstance(f, bool):
                v, forced = f, True
            else:
                if self.armed:
                    self.undo, self.armed = self.rng.getstate(), False
                v = self.rng.randint(1, sides)
            if forced and not 1 <= v <= sides:
                raise Illegal(f"forced roll {name} = {v} is not a result of a d{sides}", rule, f"rolls.{name}")
            out.append(v)
            ev = {"type": "roll", "name": name, "die": f"d{sides}", "result": v, "forced": forced}
            if who:
                ev["who"] = who
            if rule:
                ev["rule"] = rule
            if purpose:
                ev["purpose"] = purpose
            session.emit(ev)
        return out


# roll names whose die is always the same (checked before anything happens); others are checked when rolled
FIXED_DICE = {"attack": 20, "save": 20, "death_save": 20, "initiative": 20, "check": 20, "contest": 20, "fall": 10}

