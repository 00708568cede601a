"""Typed events: one declared type per event type, and what ``Session.step`` returns (:class:`StepResult`).

The log itself stays what it always was -- the dicts the rules emit, written as JSON lines byte for byte (parity) --
and the rules still emit dicts. Each event type is also *declared* here (the core's and the aerial rules' events)
or in its ruleset's ``events`` module (``engine/rules/<ruleset>/events.py``): a frozen
msgspec Struct whose tag is the event's ``type`` and whose fields are the keys the event may carry, each named once.
A ruleset's ``EVENTS`` (``Ruleset.EVENTS``: ``{type: Struct}``) is the core's table plus its own.

:func:`typed` turns a log dict into its declared type (lazily: :class:`StepResult` converts a step's events the first
time they are read, so a step the caller only logs never pays for it). An event type no table declares, or a dict
that does not fit its declaration (an unknown key, a value of another type), never crashes a reader: it becomes an
:class:`Undeclared` holding the dict. ``tests/rules/test_event_types.py`` plays random games of every registered
ruleset and fails on any event that is not declared or does not convert, so the declarations stay complete.

Readers use the fields (``ev.hit``, ``ev.to``) and the two roles every event names the same way: :attr:`Event.subject`
(the character it is about: the field its class names in ``SUBJECT``, ``who`` unless said otherwise) and
:attr:`Event.acted_on` (the one acted on: ``ACTED_ON``, ``target`` unless said otherwise).

A key that is a Python keyword (``from``) is the field ``from_``, written ``from`` in the log.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import Any, ClassVar

import msgspec

__all__ = ["Event", "Undeclared", "StepResult", "typed", "strict", "table", "CORE_EVENTS"]


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    """One event of the log, typed. Subclasses declare ``tag="..."`` (the log's ``type``) and their fields."""

    #: the field that names the character the event is about ("" when it names none)
    SUBJECT: ClassVar[str] = "who"
    #: the field that names the character or object acted on ("" when it names none)
    ACTED_ON: ClassVar[str] = "target"
    #: the field that holds the event's number (hit points lost or gained...; "" when it has none)
    AMOUNT: ClassVar[str] = "amount"

    @property
    def type(self) -> str:
        return str(self.__struct_config__.tag)

    @property
    def subject(self) -> str | None:
        f = type(self).SUBJECT
        return getattr(self, f) if f and f in self.__struct_fields__ else None

    @property
    def acted_on(self) -> str | None:
        f = type(self).ACTED_ON
        v = getattr(self, f) if f and f in self.__struct_fields__ else None
        return v if isinstance(v, str) else None

    @property
    def quantity(self) -> int | float | None:
        f = type(self).AMOUNT
        v = getattr(self, f) if f and f in self.__struct_fields__ else None
        return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None

    def to_dict(self) -> dict:
        """The log dict again (fields left at their default ``None`` are keys the event did not carry)."""
        return {k: v for k, v in msgspec.to_builtins(self).items() if v is not None}


class Undeclared(msgspec.Struct, frozen=True):
    """An event no table declares, or one that does not fit its declaration: the dict as it was, and why."""
    kind: str
    fields: dict
    why: str = ""
    subject: ClassVar[None] = None
    acted_on: ClassVar[None] = None
    quantity: ClassVar[None] = None

    @property
    def type(self) -> str:
        return self.kind

    def to_dict(self) -> dict:
        return dict(self.fields)


AnyEvent = Event | Undeclared


# ------------------------------------------------------------------------------------------------- shapes
# What readers that know no ruleset (the renderer, the window) draw from: a ruleset's event type that is one of these
# subclasses the shape (its own fields added), so ``isinstance(ev, Attacking)`` and ``ev.target`` work for all.
class Attacking(Event, frozen=True):
    """An attack at a character: ``who`` attacks ``target``; :attr:`landed` (the ``hit`` field, or the class's
    ``LANDED`` where the type itself says it: a ``miss``)."""
    LANDED: ClassVar[bool | None] = None         # None: the subclass has a ``hit: bool`` field
    who: str
    target: str
    critical: bool | None = None
    cover: str | None = None

    @property
    def landed(self) -> bool:
        f = type(self).LANDED
        return bool(getattr(self, "hit")) if f is None else f


class AttackingObject(Event, frozen=True):
    """An attack at an object: ``who`` aims at ``voxel`` of object ``target``."""
    who: str
    target: str
    hit: bool
    voxel: list


class Hurting(Event, frozen=True):
    """Hit points lost: ``who`` loses ``amount`` (``damage_type``: "falling" lands at the end of the fall)."""
    ACTED_ON = ""
    who: str
    amount: int
    damage_type: str | None = None


class Moving(Event, frozen=True):
    """A move: ``who`` ends at ``to`` along ``path`` (cells)."""
    ACTED_ON = ""
    who: str
    to: list
    path: list | None = None


def table(*tables: Mapping[str, type[Event]] | Iterable[type[Event]]) -> dict[str, type[Event]]:
    """One ``{type: Struct}`` table from tables and lists of Structs; a type declared twice is an error (a
    ruleset declares only its own events; the core's stay the core's)."""
    out: dict[str, type[Event]] = {}
    for t in tables:
        for cls in (t.values() if isinstance(t, Mapping) else t):
            tag = cls.__struct_config__.tag
            if not isinstance(tag, str):
                raise TypeError(f"{cls.__name__}: an event type needs tag='its type'")
            if tag in out and out[tag] is not cls:
                raise TypeError(f"event type {tag!r} declared twice: {out[tag].__name__} and {cls.__name__}")
            out[tag] = cls
    return out


def strict(ev: Mapping, events: Mapping[str, type[Event]]) -> Event:
    """The log dict as its declared type; raises ``KeyError`` (undeclared) or ``msgspec.ValidationError``."""
    return msgspec.convert(ev, events[ev["type"]])


def typed(ev: Mapping, events: Mapping[str, type[Event]]) -> AnyEvent:
    """The log dict as its declared type, or :class:`Undeclared` (never raises for a dict)."""
    kind = ev.get("type")
    cls = events.get(kind) if isinstance(kind, str) else None
    if cls is None:
        return Undeclared(str(kind), dict(ev), "not declared")
    try:
        return msgspec.convert(ev, cls)
    except msgspec.ValidationError as e:
        return Undeclared(str(kind), dict(ev), str(e))


class StepResult:
    """What ``Session.step`` returns: the step's events typed (:attr:`events`, converted when first read), the
    log dicts themselves (:attr:`log`, what ``session.events`` gained, for callers that write or compare the log),
    the new state's version (:attr:`version`: ``state.steps`` after the step), the choice points asked and answered
    in ask mode (:attr:`answered`, ``{point key: value}``) and the state before the step (:attr:`before`, unpickled
    on demand from the snapshot the session keeps anyway to undo a failed step)."""

    def __init__(self, log: list[dict], version: int, events_table: Mapping[str, type[Event]],
                 snapshot: bytes | None = None, answered: Mapping | None = None):
        self.log = log
        self.version = version
        self.answered = dict(answered or {})
        self._events_table = events_table
        self._snapshot = snapshot

    @cached_property
    def events(self) -> tuple[AnyEvent, ...]:
        return tuple(typed(e, self._events_table) for e in self.log)

    @property
    def before(self) -> Any:
        """The rules state before the step (a fresh copy each time), None when not kept."""
        return None if self._snapshot is None else pickle.loads(self._snapshot)

    def of_type(self, kind: str) -> list[AnyEvent]:
        return [e for e in self.events if e.type == kind]

    def __repr__(self) -> str:
        return f"StepResult(version={self.version}, events={[e.get('type') for e in self.log]})"


# ------------------------------------------------------------------------------------------- the core's events
# Generated from the emission sites and checked against random games (tests/rules/test_event_types.py).


class Action(Event, tag="action", frozen=True):
    """``action``: emitted in session.py."""
    SUBJECT = ""
    ACTED_ON = ""
    action: dict
    step: int


class Descend(Event, tag="descend", frozen=True):
    """``descend``: emitted in aerial.py."""
    ACTED_ON = ""
    cause: str | None = None
    damage: int | None = None
    from_: int | None = msgspec.field(default=None, name="from")
    layers: int | None = None
    note: str | None = None
    rule: str | None = None
    to: int | None = None
    who: str | None = None


class DoorOpened(Event, tag="door_opened", frozen=True):
    """``door_opened``: emitted in objects.py."""
    SUBJECT = "by"
    by: Any = None
    rule: Any = None
    target: Any = None
    voxels: Any = None


class Fall(Event, tag="fall", frozen=True):
    """``fall``: emitted in aerial.py (and by a ruleset's own falls, the same keys)."""
    ACTED_ON = ""
    cause: str
    damage: int
    damage_rule: str
    from_: int = msgspec.field(name="from")
    layers: int
    rule: str
    to: int
    who: str
    at: list | None = None
    beside: str | None = None
    percent: int | None = None


class FallRoll(Event, tag="fall_roll", frozen=True):
    """``fall_roll``: emitted in aerial.py."""
    ACTED_ON = ""
    outcome: str
    result: int
    rule: str
    who: str


class FlightLost(Event, tag="flight_lost", frozen=True):
    """``flight_lost``: emitted in aerial.py (and by a ruleset's own, the same keys)."""
    ACTED_ON = ""
    because: str
    reason: str
    rule: str
    who: str


class GmChange(Event, tag="gm", frozen=True):
    """``gm``: emitted in gm.py (the GM's table actions; ``what`` says which: set, condition, place, add, remove,
    order)."""
    ACTED_ON = ""
    what: str
    text: str
    who: str | None = None
    key: str | None = None                  # set: the key, its old value (``from``) and the new one
    value: Any = None
    from_: Any = msgspec.field(default=None, name="from")    # set: the old value; place: the old position
    add: str | None = None                  # condition
    remove: str | None = None
    to: list | None = None                  # place
    flying: bool | None = None              # place, add
    name: str | None = None                 # add, remove
    at: list | None = None                  # add: where, which side, the scene table it was made from
    side: str | None = None
    table: dict | None = None
    like: str | None = None
    block: str | None = None
    srd: str | None = None                  # add: the SRD creature's id (the ruleset's bestiary)
    order: list | None = None               # order: the new turn order


class IllegalAction(Event, tag="illegal", frozen=True):
    """``illegal``: emitted in runner.py."""
    SUBJECT = ""
    ACTED_ON = ""
    expected: bool
    reason: str
    rule: str
    step: int
    path: Any = None


class LockOpened(Event, tag="lock_opened", frozen=True):
    """``lock_opened``: emitted in objects.py."""
    SUBJECT = "by"
    by: str | None = None
    how: str | None = None
    opens: bool | None = None
    rule: str | None = None
    target: str | None = None
    voxels: list | None = None


class ObjectDamage(Event, tag="object_damage", frozen=True):
    """``object_damage``: emitted in objects.py."""
    amount: int
    damage_type: str
    material: str
    rule: str
    target: str
    who: str
    applied: str | None = None
    dealt: int | None = None
    hp: int | None = None
    max_hp: int | None = None


class ObjectDestroyed(Event, tag="object_destroyed", frozen=True):
    """``object_destroyed``: emitted in objects.py."""
    SUBJECT = "by"
    kind: str
    material: str
    object: str
    target: str
    whole: bool
    by: str | None = None
    cause: str | None = None
    rule: str | None = None
    voxels: list | None = None


class Roll(Event, tag="roll", frozen=True):
    """``roll``: emitted in core.py."""
    ACTED_ON = ""
    die: str
    forced: bool
    name: str
    result: int
    purpose: str | None = None
    rule: str | None = None
    who: str | None = None


class SessionStart(Event, tag="session", frozen=True):
    """``session``: emitted in session.py."""
    SUBJECT = ""
    ACTED_ON = ""
    options: dict
    ruleset: str
    seed: int
    version: int
    scene: str | None = None
    scene_hash: str | None = None


class TableRoll(Event, tag="table_roll", frozen=True):
    """``table_roll``: emitted in gm.py (the GM's ``gm_roll``: dice, their total, a label)."""
    SUBJECT = ""
    ACTED_ON = ""
    what: str
    dice: str
    total: int
    label: str
    text: str


class Upkeep(Event, tag="upkeep", frozen=True):
    """``upkeep``: emitted in aerial.py."""
    ACTED_ON = ""
    rule: str
    spent: str
    who: str


#: the core's events, in every ruleset's table (``Ruleset.EVENTS``)
CORE_EVENTS = table([Action, Descend, DoorOpened, Fall, FallRoll, FlightLost, GmChange, IllegalAction, LockOpened, ObjectDamage, ObjectDestroyed, Roll, SessionStart, TableRoll, Upkeep])
