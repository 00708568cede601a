"""The legal-action list in a compact form (``Session.legal_actions``; docs/rules-core.md, "Legal actions").

A flyer can reach millions of cells: one dict per destination would take gigabytes. :class:`LegalActions` is a
read-only sequence of action dicts, in the ruleset's order, whose move destinations are kept as one integer
array per run of moves (:class:`MoveRun`) and turned into ``{"actor": id, "action": "move", "to": [x, y, z]}``
only when an item is read. It lists exactly what the plain list of dicts would, in the same order: ``len``,
indexing, slices, iteration, ``in``, ``==`` against a list, ``random.choice`` / ``random.sample`` all behave as
on that list. ``by_action()`` groups it by action name (each group a sequence in list order) without
materialising the moves; ``list(acts)`` is the plain list (e.g. for ``json.dumps``).
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np


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


class _Chain(Sequence):
    """Several sequences read as one (a group of ``by_action``)."""

    __slots__ = ("parts", "starts", "_n")

    def __init__(self, parts: list[Sequence]):
        self.parts = [p for p in parts if len(p)]
        self.starts: list[int] = []
        n = 0
        for p in self.parts:
            self.starts.append(n)
            n += len(p)
        self._n = n

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("legal-action index out of range")
        k = bisect.bisect_right(self.starts, i) - 1
        return self.parts[k][i - self.starts[k]]

    def __iter__(self) -> Iterator[dict]:
        return itertools.chain.from_iterable(self.parts)

    def __contains__(self, act: Any) -> bool:
        return any(act in p for p in self.parts)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, Sequence)) and not isinstance(other, (str, bytes)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


class LegalActions(_Chain):
    """The legal actions of one actor now: plain action dicts and :class:`MoveRun` runs, in the ruleset's order."""

    __slots__ = ()

    @property
    def moves(self) -> int:
        """How many of them are moves kept compact (no dict built)."""
        return sum(len(p) for p in self.parts if isinstance(p, MoveRun))

    def by_action(self) -> dict[str, Sequence]:
        """``{action name: its actions in list order}``, names in order of first appearance; moves stay compact."""
        groups: dict[str, list[Sequence]] = {}
        for p in self.parts:
            if isinstance(p, MoveRun):
                groups.setdefault("move", []).append(p)
                continue
            cur: dict[str, list] = {}
            for a in p:
                cur.setdefault(a["action"], []).append(a)
            for k, v in cur.items():
                groups.setdefault(k, []).append(v)
        return {k: (v[0] if len(v) == 1 else _Chain(v)) for k, v in groups.items()}

    def __add__(self, other):
        return list(self) + list(other)

    def __radd__(self, other):
        return list(other) + list(self)

    def __repr__(self) -> str:
        head = ", ".join(repr(a) for a in self[:3])
        return f"LegalActions({len(self)} actions, {self.moves} compact moves: [{head}{', ...' if len(self) > 3 else ''}])"
