"""Actions as data: parameter specs and their validation (errors name the key, e.g. ``script[3].to``).

A ruleset describes each action's parameters as ``{name: Param(kind, required, choices)}``. Kinds: ``str``,
``int``, ``bool``, ``pos`` (``[x, y, layer]``), ``id`` (a character id), ``table`` (a dict), ``any``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.memo import table as memo_table
from engine.rules.core import BadAction, Illegal
import importlib
import pkgutil


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
        elif p.kind == "ids":
            if not (isinstance(v, (list, tuple)) and v and all(isinstance(i, str) for i in v)):
                raise BadAction(f"must be a list of ids, got {v!r}", "", k)
            v = list(v)
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



# -- actions as units (issue 25): each action one class, its parameters, listing and preview on it ------------------
class Unit:
    """One action, whole: ``name``; ``PARAMS`` (``{parameter: Param}``, the ruleset's spec table is made of them);
    ``check`` -> plan and ``apply`` (the ruleset's dispatch calls them); ``candidates`` (its part of the legal-action
    listing, for one item of what its listing group iterates: None for ``self``, a foe, a friend, an object...);
    ``preview`` (the fields a legal preview adds, from the plan); ``damage_on_hit`` (what a policy weighs, for an
    attack); ``LINES``, how its events read in the log; ``place``, ``hotkey``, ``groups`` and ``spends_action``, where
    it stands in the menus, the window's keys and the listing. A ruleset's table (:class:`ActionTable`) is built by
    registering the classes; everything else is derived."""

    name: str = ""
    #: its place in the ruleset's spec table (the window's buttons, ``aerie actions``), lowest first; None: after
    #: those with a place, in the order registered
    place: int | None = None
    #: the window's key for this kind of action (one of "1".."9", "0": the same key whoever acts); None: no key
    hotkey: str | None = None
    #: the listing groups it is asked in, ``{group: rank in the group}``: the ruleset's listing declares the groups
    #: (their order and what each iterates: ``self``, ``foe``, ``object``...); none: listed after the declared ones
    groups: dict = {}
    #: it spends the turn's action (its check opens with the action economy's refusal): a listing leaves it out once
    #: the action is used
    spends_action: bool = False
    PARAMS: dict = {}

    @staticmethod
    def offered(rs, session, a) -> bool:
        """Whether the window offers the action to ``a`` at all (a greyed button while it is not legal): an action
        only some characters have (a stat block's own) is not offered to the others."""
        return True
    #: how the events it emits read in the runner's log, ``{event type: fn(session, event, name_of, rule_suffix)}``
    #: (before the ruleset's ``EVENT_LINES``), where the line is its own
    LINES: dict = {}

    @staticmethod
    def candidates(rs, session, a, ctx, item) -> list:
        return []

    @staticmethod
    def preview(rs, session, a, act, plan) -> dict | None:
        return None

    @staticmethod
    def damage_on_hit(rs, session, a, act, plan) -> float | None:
        return None


class ActionTable(dict):
    """A ruleset's actions, ``{name: unit}``, filled by ``@table.register`` on each class, in the order of the units'
    ``place`` (the spec table's order, which menus show); a unit with none is kept after them, as registered.
    ``order`` (a test ruleset's): names whose place it declares instead, for units that declare none."""

    def __init__(self, order: tuple = ()):
        super().__init__()
        self.order = tuple(order)
        self._seq: list = []
        self._specs: dict | None = None
        self._lines: dict | None = None
        self._listings: dict = {}

    def register(self, cls):
        if cls.name in self and self[cls.name] is not cls:
            raise ValueError(f"two actions named {cls.name!r}: {self[cls.name].__name__} and {cls.__name__}")
        if cls.name not in self._seq:
            self._seq.append(cls.name)
        units = {**self, cls.name: cls}
        rank = {n: i for i, n in enumerate(self.order)}

        def place(n):
            p = getattr(units[n], "place", None)
            p = rank.get(n) if p is None else p
            return (0, p, 0) if p is not None else (1, 0, self._seq.index(n))
        names = sorted(self._seq, key=place)
        self.clear()
        self.update({n: units[n] for n in names})
        self._specs = self._lines = None
        self._listings = {}
        return cls

    def unregister(self, name: str) -> None:
        """Take an action out again (tests that add one)."""
        self.pop(name, None)
        self._specs = self._lines = None
        self._listings = {}
        if name in self._seq:
            self._seq.remove(name)

    def specs(self) -> dict:
        """``{name: PARAMS}``: the ruleset's spec table, in the table's order (kept until the table changes)."""
        if self._specs is None:
            self._specs = {n: u.PARAMS for n, u in self.items()}
        return self._specs

    def listing(self, groups: tuple) -> tuple:
        """The listing order of ``groups`` (``((group, what it iterates), ...)``, a ruleset's listing declares them)
        made of the units' own ``groups``: ``((each, (name, ...)), ...)`` as :func:`listed` takes it, each group's
        units by their rank in it (kept until the table changes)."""
        got = self._listings.get(groups)
        if got is None:
            got = self._listings[groups] = tuple(
                (each, tuple(sorted((n for n, u in self.items() if group in u.groups), key=lambda n: self[n].groups[group])))
                for group, each in groups)
        return got

    def hotkeys(self) -> dict:
        """``{action name: key}`` of the units that have one, in the keys' order (1..9, 0)."""
        keys = "1234567890"
        return dict(sorted(((n, u.hotkey) for n, u in self.items() if u.hotkey), key=lambda nk: keys.index(nk[1])))

    def lines(self) -> dict:
        """Every unit's ``LINES``, merged in the table's order (kept until the table changes)."""
        if self._lines is None:
            self._lines = {k: fn for u in self.values() for k, fn in getattr(u, "LINES", {}).items()}
        return self._lines


def listed(table: dict, listing: tuple, ctx, kinds=None, declared=None, rest: bool = True,
           allow=None) -> list[dict]:
    """The candidates of the units in ``listing`` (``((each, (name, ...)), ...)``): for each group, for each item of
    ``ctx.each(each)`` (``"self"``: one None), each named unit's ``candidates`` in turn, so per-target candidates
    interleave as the ruleset declares. With ``rest``, then every unit named in no group of ``declared`` (default:
    ``listing``) for ``self``: a new action is listed without a declaration. ``kinds``: only these actions are asked
    (None: all); ``allow(name)``: a gate the ruleset puts on some of them."""
    out: list[dict] = []
    for each, named_units in _groups(table, listing, declared, rest):
        # the gate asked only of the units that list something (it is a test, with no effect)
        units = [u for n, u in named_units if u.candidates is not Unit.candidates
                 and (kinds is None or n in kinds) and (allow is None or allow(n))]
        if not units:
            continue
        for item in ctx.each(each):
            for u in units:
                out += u.candidates(ctx.rs, ctx.session, ctx.actor, ctx, item)
    return out


def _groups(table: dict, listing: tuple, declared, rest: bool) -> list:
    """``listed``'s groups: ``[(each, ((name, unit), ...)), ...]``, the units of the table by name, the undeclared
    ones last (``rest``); kept per listing and the table's contents (a unit registered, replaced or taken out makes
    it anew)."""
    key = (id(table), listing, declared, rest, tuple(table.items()))
    got = _GROUPS.get(key)
    if got is not None and got[0] is table:
        return got[1]
    named = {n for _, names in (declared if declared is not None else listing) for n in names}
    groups = list(listing)
    if rest:
        groups.append(("self", tuple(n for n in table if n not in named)))
    out = [(each, tuple((n, table[n]) for n in names if n in table)) for each, names in groups]
    if len(_GROUPS) > 256:
        _GROUPS.clear()
    _GROUPS[key] = (table, out)
    return out


_GROUPS: dict = memo_table("actions._GROUPS")


class Listing:
    """What one listing asks of the scene, worked out once (the ``ctx`` of ``Unit.candidates``): the ruleset, the
    session, the actor; ``each(key)`` the items a group iterates: ``self`` (one None), ``foe`` and ``friend`` (the
    other living characters, by ``hostile(a, o)``: by default another side), ``object`` (the scene's objects)."""

    def __init__(self, rs, session, actor, hostile=None):
        self.rs, self.session, self.actor = rs, session, actor
        others = [o for o in session.state.actors.values() if o.id != actor.id and not o.dead]
        hostile = hostile or (lambda a, o: o.side != a.side)
        self.foes = [o for o in others if hostile(actor, o)]
        self.friends = [o for o in others if not hostile(actor, o)]

    def each(self, key: str):
        if key == "self":
            return (None,)
        if key == "foe":
            return self.foes
        if key == "friend":
            return self.friends
        raise KeyError(f"a listing group iterates self, foe or friend, not {key!r}")


def import_all(package: str) -> None:
    """Import every module of an action package, so each class in it registers (a new file needs no import)."""

    pkg = importlib.import_module(package)
    for m in pkgutil.iter_modules(pkg.__path__):
        importlib.import_module(f"{package}.{m.name}")


def describe(rs) -> list[str]:
    """One line per action of a ruleset, from its spec table: ``name: param (kind, required): help; ...`` (the
    actions' help, derived as the table is)."""
    out = []
    for name, spec in rs.action_specs().items():
        parts = []
        for k, p in spec.items():
            bits = [p.kind] + (["required"] if p.required else []) + ([f"one of {'|'.join(map(str, p.choices))}"]
                                                                     if p.choices else []) + \
                ([f"default {p.default!r}"] if p.default is not None else [])
            parts.append(f"{k} ({', '.join(bits)})" + (f": {p.help}" if p.help else ""))
        out.append(f"{name}: " + ("; ".join(parts) if parts else "no parameters"))
    return out
