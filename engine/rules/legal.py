"""The legal-action list in a compact form (``Session.legal_actions``; docs/rules-core.md, "Legal actions").

A flyer can reach millions of cells: one dict per destination would take gigabytes. :class:`LegalActions` is a
read-only sequence of action dicts, in the ruleset's order, whose move destinations are kept as one integer
array per run of moves (:class:`MoveRun`) and turned into ``{"actor": id, "action": "move", "to": [x, y, z]}``
only when an item is read. It lists exactly what the plain list of dicts would, in the same order: ``len``,
indexing, slices, iteration, ``in``, ``==`` against a list, ``random.choice`` / ``random.sample`` all behave as
on that list. ``by_action()`` groups it by action name (each group a sequence in list order) without
materialising the moves; ``list(acts)`` is the plain list (e.g. for ``json.dumps``).

A part may also be :class:`Lazy`: worked out only when read (issue 26: a policy that needs one kind of action, or
only to know which kinds there are, does not pay for the rest). :class:`LazyMoves` runs the path search when the
moves are read, :class:`Checked` asks each candidate's check when it is read (``by_action`` asks each kind only for
its first legal action, ``group`` one kind alone). What is read is exactly
what the eager list would hold, in its order; the list belongs to the state it was made in, and reading an
unread part after the session has stepped raises :class:`StaleActions` (what was read before stays readable).
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from engine.rules.core import Illegal


class MoveRun(Sequence):
    """A run of move actions: ``{"actor": actor, "action": "move", "to": [x, y, z]}`` for each row of ``cells``
    (int [n, 3], x, y, layer), in row order. Every read builds a fresh dict."""

    __slots__ = ("actor", "cells")

    def __init__(self, actor: str, cells: np.ndarray):
        self.actor = actor
        self.cells = np.asarray(cells, dtype=np.int32).reshape(-1, 3)

    def __len__(self) -> int:
        return len(self.cells)

    def _one(self, row) -> dict:
        return {"actor": self.actor, "action": "move", "to": row}

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._one(r) for r in self.cells[i].tolist()]
        return self._one(self.cells[i].tolist())

    def __iter__(self) -> Iterator[dict]:
        actor = self.actor
        return ({"actor": actor, "action": "move", "to": r} for r in self.cells.tolist())

    def __contains__(self, act: Any) -> bool:
        if not (isinstance(act, dict) and act.keys() == {"actor", "action", "to"} and act["actor"] == self.actor
                and act["action"] == "move"):
            return False
        to = act["to"]
        if not (isinstance(to, list) and len(to) == 3 and all(type(v) is int for v in to)):
            return False
        return bool(np.any(np.all(self.cells == np.array(to, dtype=np.int64), axis=1)))

    def __repr__(self) -> str:
        return f"MoveRun({self.actor!r}, {len(self)} destinations)"


class StaleActions(RuntimeError):
    """A lazy legal-action list read after its session changed: list again (``Session.legal_actions``)."""


class Fresh:
    """The test a lazy part runs before it works anything out: the session is still in the state the list was made
    in (the same state object, step count and world revision), else :class:`StaleActions`."""

    __slots__ = ("session", "state", "steps", "revision")

    def __init__(self, session):
        self.session = session
        self.state = session.state
        self.steps = session.state.steps
        self.revision = session.world.revision

    def __call__(self) -> None:
        s = self.session
        if s.state is not self.state or s.state.steps != self.steps or s.world.revision != self.revision:
            raise StaleActions("this legal-action list was made before the session changed (a step, an undo, an "
                               "edit of the map): list the actions again")


def passes(check, fits=None):
    """A lazy part's legality test from a check: True when the candidate passes ``fits`` (a cheap filter, where
    given) and ``check`` (which raises Illegal to refuse), else False."""
    def ok(c) -> bool:
        if fits is not None and not fits(c):
            return False
        try:
            check(c)
        except Illegal:
            return False
        return True
    return ok


class _Worked(Sequence):
    """A sequence read through ``_read()`` (the list, or run, it works out when first asked)."""

    __slots__ = ()

    def _read(self) -> Sequence:
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self._read())

    def __getitem__(self, i):
        return self._read()[i]

    def __iter__(self) -> Iterator[dict]:
        return iter(self._read())

    def __contains__(self, act: Any) -> bool:
        return act in self._read()


class Lazy(_Worked):
    """A part of a listing worked out when first read. ``kinds``: the action names it may hold (in order);
    ``first(kind)``: a sort key of the first legal action of that kind within the part, None when it holds none
    (asking no more than that needs); ``group(kind)``: its actions of that kind in order (read lazily too)."""

    __slots__ = ()
    kinds: tuple[str, ...] = ()

    def first(self, kind: str):
        raise NotImplementedError

    def firsts(self, skip=frozenset()) -> dict:
        """``{kind: first(kind)}`` for each kind it holds, but those in ``skip`` (known to be there already: not
        asked); a part may find them all in one pass."""
        out = {}
        for k in self.kinds:
            if k not in skip:
                i = self.first(k)
                if i is not None:
                    out[k] = i
        return out

    def group(self, kind: str) -> Sequence:
        raise NotImplementedError

    def __bool__(self) -> bool:
        return any(self.first(k) is not None for k in self.kinds)


class LazyMoves(Lazy):
    """The move destinations as a :class:`MoveRun`, the path search run when the moves are first read (their
    number, one of them, or whether there are any): ``find()`` gives the run (or an empty list)."""

    __slots__ = ("actor", "_find", "_fresh", "_run")
    kinds = ("move",)

    def __init__(self, actor: str, find, fresh: Fresh):
        self.actor = actor
        self._find, self._fresh = find, fresh
        self._run: MoveRun | None = None

    def run(self) -> MoveRun:
        r = self._run
        if r is None:
            self._fresh()
            got = self._find()
            r = self._run = got if isinstance(got, MoveRun) else MoveRun(self.actor, np.zeros((0, 3), np.int32))
        return r

    _read = run

    @property
    def cells(self) -> np.ndarray:
        return self.run().cells

    def first(self, kind: str):
        return 0 if kind == "move" and len(self.run()) else None

    def group(self, kind: str) -> Sequence:
        return self if kind == "move" else []


    def __repr__(self) -> str:
        return f"LazyMoves({self.actor!r}, {'not searched yet' if self._run is None else f'{len(self._run)} destinations'})"


class Checked(Lazy):
    """The candidates ``cands`` (action dicts, in list order) that pass ``ok(candidate) -> bool``, each asked once,
    when first read: the whole part, or one kind of it (``group``), or each kind's first legal action (``firsts``).
    ``ok`` is asked with ``session.probing`` on (a check then asks only what legality needs: an attack's cover level
    waits for its step or preview)."""

    __slots__ = ("cands", "_kinds", "_ok", "_fresh", "_known", "_unasked", "_all", "_index")

    def __init__(self, cands: list[dict], ok, fresh: Fresh):
        self.cands = cands
        self._kinds: tuple[str, ...] | None = None
        self._ok, self._fresh = ok, fresh
        self._known: list[bool | None] = [None] * len(cands)
        self._unasked = len(cands)
        self._all: list[dict] | None = None
        self._index: dict[str, list[int]] | None = None

    @property
    def kinds(self) -> tuple[str, ...]:  # type: ignore[override]
        got = self._kinds
        if got is None:
            got = self._kinds = tuple(self._indices())
        return got

    def _ask(self, idx, skip=None) -> dict:
        """Answer the candidates ``idx`` (in order) not asked yet. With ``skip`` (a set of kinds): ``firsts`` -- a
        candidate of a kind in ``skip`` or already found is not asked, and ``{kind: index of its first legal}`` is
        returned."""
        known, cands, ok = self._known, self.cands, self._ok
        found: dict = {}
        if skip is None and not self._unasked:
            return found
        self._fresh()
        session = self._fresh.session
        was = session.probing
        session.probing = True
        try:
            for i in idx:
                c = cands[i]
                if skip is not None:
                    k = c["action"]
                    if k in found or k in skip:
                        continue
                v = known[i]
                if v is None:
                    v = known[i] = bool(ok(c))
                    self._unasked -= 1
                if v and skip is not None:
                    found[k] = i
        finally:
            session.probing = was
        return found

    def _indices(self) -> dict[str, list[int]]:
        got = self._index
        if got is None:
            got = {}
            for i, c in enumerate(self.cands):
                got.setdefault(c["action"], []).append(i)
            self._index = got
        return got

    def of(self, kind: str) -> list[int]:
        """The candidates' indices of this kind."""
        return self._indices().get(kind, [])

    def first(self, kind: str):
        return self._ask(self.of(kind), frozenset()).get(kind)

    def firsts(self, skip=frozenset()) -> dict:
        return self._ask(range(len(self.cands)), skip)

    def _legal_of(self, idx) -> list[dict]:
        self._ask(idx)
        known, cands = self._known, self.cands
        return [cands[i] for i in idx if known[i]]

    def group(self, kind: str) -> Sequence:
        idx = self.of(kind)
        return _Picked(lambda: self._legal_of(idx))

    def _read(self) -> list[dict]:
        got = self._all
        if got is None:
            got = self._all = self._legal_of(range(len(self.cands)))
        return got


    def __repr__(self) -> str:
        return f"Checked({len(self.cands)} candidates, {self._known.count(None)} not asked yet)"


class Expanded(Lazy):
    """``expand(base)`` -- each candidate followed by its variants, every variant of its candidate's action -- kept
    where ``ok`` passes (a :class:`Checked`), worked out when read: read whole, every candidate is expanded; a kind
    read alone (``group``, ``first``) expands only that kind's candidates, which gives that kind's part of the
    whole in the same order (``expand`` treats each candidate on its own)."""

    __slots__ = ("base", "kinds", "_expand", "_ok", "_fresh", "_whole", "_by")

    def __init__(self, base: list[dict], expand, ok, fresh: Fresh):
        self.base = base
        self.kinds = tuple(dict.fromkeys(c["action"] for c in base))
        self._expand, self._ok, self._fresh = expand, ok, fresh
        self._whole: Checked | None = None
        self._by: dict[str, Checked] = {}

    def _read(self) -> Checked:
        got = self._whole
        if got is None:
            self._fresh()
            got = self._whole = Checked(list(self._expand(self.base)), self._ok, self._fresh)
        return got

    def _of(self, kind: str) -> Checked:
        if self._whole is not None:
            return self._whole
        got = self._by.get(kind)
        if got is None:
            self._fresh()
            got = self._by[kind] = Checked(
                [c for c in self._expand([c for c in self.base if c["action"] == kind]) if c["action"] == kind],
                self._ok, self._fresh)
        return got

    def first(self, kind: str):
        return self._of(kind).first(kind)

    def firsts(self, skip=frozenset()) -> dict:
        return self._read().firsts(skip)

    def group(self, kind: str) -> Sequence:
        return _Picked(lambda: list(self._of(kind).group(kind)))


class Later(Lazy):
    """A plain list worked out when first read (``make()``); ``kinds``: the action names it may hold."""

    __slots__ = ("kinds", "_make", "_fresh", "_list")

    def __init__(self, kinds: tuple[str, ...], make, fresh: Fresh):
        self.kinds, self._make, self._fresh = tuple(kinds), make, fresh
        self._list: list[dict] | None = None

    def _read(self) -> list[dict]:
        got = self._list
        if got is None:
            self._fresh()
            got = self._list = list(self._make())
        return got

    def first(self, kind: str):
        return next((i for i, c in enumerate(self._read()) if c["action"] == kind), None)

    def group(self, kind: str) -> Sequence:
        return _Picked(lambda: [c for c in self._read() if c["action"] == kind])


class _Picked(_Worked):
    """One kind of a lazy part: ``make()``'s list, worked out when first read."""

    __slots__ = ("_make", "_list")

    def __init__(self, make):
        self._make = make
        self._list: list[dict] | None = None

    def _read(self) -> list[dict]:
        got = self._list
        if got is None:
            got = self._list = list(self._make())
        return got


class _Chain(Sequence):
    """Several sequences read as one (a group of ``by_action``); a part's length is asked when the chain is first
    read by position or length (a lazy part is worked out then), not before."""

    __slots__ = ("_parts", "_live", "starts", "_n")

    def __init__(self, parts: list[Sequence]):
        self._parts = list(parts)
        self._live: list[Sequence] | None = None
        self.starts: list[int] = []
        self._n = 0

    @property
    def parts(self) -> list[Sequence]:
        """The non-empty parts (working out every lazy one)."""
        live = self._live
        if live is None:
            live = [p for p in self._parts if len(p)]
            n = 0
            for p in live:
                self.starts.append(n)
                n += len(p)
            self._n = n
            self._live = live
        return live

    def __len__(self) -> int:
        self.parts
        return self._n

    def __bool__(self) -> bool:
        if self._live is not None:
            return self._n > 0
        return any(bool(p) for p in self._parts)

    def __getitem__(self, i):
        parts = self.parts
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("legal-action index out of range")
        k = bisect.bisect_right(self.starts, i) - 1
        return parts[k][i - self.starts[k]]

    def __iter__(self) -> Iterator[dict]:
        # every part worked out before the first item: an iteration reads the list as it is now, even if the caller
        # steps the session before it ends (a lazy part read after a step would be stale)
        return itertools.chain.from_iterable(self.parts)

    def __contains__(self, act: Any) -> bool:
        return any(act in p for p in self._parts)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, Sequence)) and not isinstance(other, (str, bytes)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


class LegalActions(_Chain):
    """The legal actions of one actor now: plain action dicts, :class:`MoveRun` runs and :class:`Lazy` parts, in
    the ruleset's order."""

    __slots__ = ()

    @property
    def moves(self) -> int:
        """How many of them are moves kept compact (no dict built)."""
        return sum(len(p) for p in self._parts if isinstance(p, (MoveRun, LazyMoves)))

    def by_action(self) -> dict[str, Sequence]:
        """``{action name: its actions in list order}``, names in order of first appearance; moves stay compact. A
        lazy part is asked per kind only for its first legal action (the first part that has one); each group is
        worked out when it is read."""
        seqs: dict[str, list[Sequence]] = {}
        where: dict[str, tuple[int, Any]] = {}
        for pi, p in enumerate(self._parts):
            if isinstance(p, MoveRun):
                found: list[tuple[str, Any, Sequence]] = [("move", 0, p)] if len(p) else []
            elif isinstance(p, Lazy):
                firsts = p.firsts(frozenset(where))     # a kind already known to be there: not asked again
                found = [(k, firsts.get(k), p.group(k)) for k in p.kinds if k in firsts or k in where]
            else:
                cur: dict[str, list] = {}
                at: dict[str, int] = {}
                for j, a in enumerate(p):
                    if a["action"] not in cur:
                        cur[a["action"]], at[a["action"]] = [], j
                    cur[a["action"]].append(a)
                found = [(k, at[k], v) for k, v in cur.items()]
            for k, i, g in found:
                if k in where:
                    seqs[k].append(g)               # this part's share, read when the group is
                else:
                    where[k], seqs[k] = (pi, i), [g]
        return {k: (seqs[k][0] if len(seqs[k]) == 1 else _Chain(seqs[k])) for k in sorted(where, key=where.__getitem__)}

    def maybe(self) -> list[str]:
        """The action names this list may hold, in order of their first candidate: every one it holds, and kinds a
        lazy part has not asked yet (none of which need be there). Nothing is worked out."""
        out: dict[str, None] = {}
        for p in self._parts:
            if isinstance(p, (MoveRun, LazyMoves)):
                out["move"] = None
            elif isinstance(p, Lazy):
                out.update(dict.fromkeys(p.kinds))
            else:
                out.update(dict.fromkeys(a["action"] for a in p))
        return list(out)

    def group(self, kind: str) -> Sequence:
        """Its actions named ``kind``, in list order, worked out when read (``by_action()[kind]``, or empty, without
        asking the other kinds)."""
        seqs: list[Sequence] = []
        for p in self._parts:
            if isinstance(p, (MoveRun, LazyMoves)):
                if kind == "move":
                    seqs.append(p)
            elif isinstance(p, Lazy):
                if kind in p.kinds:
                    seqs.append(p.group(kind))
            else:
                got = [a for a in p if a["action"] == kind]
                if got:
                    seqs.append(got)
        return seqs[0] if len(seqs) == 1 else _Chain(seqs)

    def __add__(self, other):
        return list(self) + list(other)

    def __radd__(self, other):
        return list(other) + list(self)

    def __repr__(self) -> str:
        head = ", ".join(repr(a) for a in self[:3])
        return f"LegalActions({len(self)} actions, {self.moves} compact moves: [{head}{', ...' if len(self) > 3 else ''}])"


def uniform(acts: Sequence[dict], rng) -> dict | None:
    """A uniform legal action of ``acts`` (a listing): uniformly among the kinds of action it holds, then uniformly
    among that kind; None when it holds none. The kinds are tried in a random order (``rng.randrange`` over what is
    left of ``LegalActions.maybe()``, sorted), the first one that holds an action is taken: a kind that turns out
    empty is dropped and the draw goes on, so each kind the list holds is equally likely, and a lazy list works out
    only the kinds it tries (a path search only when moves are drawn). The draws differ from
    ``rng.choice(sorted(acts.by_action()))`` -- same distribution, another sequence."""
    if isinstance(acts, LegalActions):
        kinds = sorted(acts.maybe())
        group = acts.group
    else:
        groups: dict[str, list[dict]] = {}
        for a in acts:
            groups.setdefault(a["action"], []).append(a)
        kinds = sorted(groups)
        group = groups.__getitem__  # type: ignore[assignment]
    while kinds:
        g = group(kinds.pop(rng.randrange(len(kinds))))
        if len(g):                              # the kind drawn, worked out whole: its actions are drawn from next
            return rng.choice(g)
    return None
