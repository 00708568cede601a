"""Named hooks: an ordered list of small named functions, each carrying the rule ID it implements.

A ruleset declares a hook once (``TURN_START = Hook("turn_start", "...")``) and registers its rules on it with the
decorator (``@TURN_START.rule("XYZ-13")``); the code that reaches that moment of the game runs the hook
(``hook.run(...)`` for every function, ``hook.first(...)`` for the first answer that is not ``None``). A feat or a
condition that acts at that moment adds a function; it does not edit the method that calls the hook. Functions run
in the order the hook declares (``Hook(..., order=("dodge_ends", "death_save", ...))``, by function name): that order
is the order of the events they emit, so it is written down once, never taken from which module happened to be
imported first; a function the order does not name is refused when it registers. ``aerie rules`` / the generated
docs name them by ``fn.rule``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Hook(list):
    """A named hook: a list of functions, each with ``fn.rule`` (its rule ID)."""

    def __init__(self, name: str, doc: str = "", order: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.name = name
        self.doc = doc
        self.order = tuple(order)
        if len(set(self.order)) != len(self.order):
            raise ValueError(f"hook {name}: a function is named twice in its order")

    def rule(self, rule_id: str) -> Callable:
        """Decorator: register ``fn`` on this hook as the rule ``rule_id`` (it stays a plain function), at its place
        in the declared order."""
        def deco(fn):
            if fn.__name__ not in self.order:
                raise ValueError(f"hook {self.name}: {fn.__name__} is not in its declared order "
                                 f"({', '.join(self.order) or 'empty'}); name it there")
            if any(f.__name__ == fn.__name__ for f in self):
                raise ValueError(f"hook {self.name}: {fn.__name__} is registered twice")
            fn.rule = rule_id
            place = self.order.index(fn.__name__)
            at = next((i for i, f in enumerate(self) if self.order.index(f.__name__) > place), len(self))
            self.insert(at, fn)
            return fn
        return deco

    def run(self, *args: Any) -> None:
        """Call every function in order."""
        for fn in self:
            fn(*args)

    def first(self, *args: Any):
        """The first answer that is not ``None`` (e.g. the reason a flyer falls), or ``None``."""
        for fn in self:
            out = fn(*args)
            if out is not None:
                return out
        return None

    def __repr__(self) -> str:
        return f"Hook({self.name!r}: {', '.join(f'{fn.__name__} {fn.rule}' for fn in self)})"


class Upcalls:
    """Functions a lower layer calls and a higher one defines (engine/rules/layers.py): the lower module declares
    the slot and its names (``FEAT = Upcalls("5e feats", ("lucky_save", ...))``), the higher module fills it when it
    loads (``FEAT.provide(lucky_save, ...)``), and the lower one calls ``FEAT.lucky_save(...)`` without importing the
    module above. A name not declared cannot be provided; one called before its provider loaded says so."""

    def __init__(self, name: str, names: tuple[str, ...]) -> None:
        self._slot = name
        self._names = frozenset(names)

    def provide(self, *fns: Callable, **named: Callable) -> None:
        """Fill names: each function under its own name, or ``name=fn`` (an alias)."""
        for name, fn in [(f.__name__, f) for f in fns] + list(named.items()):
            if name not in self._names:
                raise ValueError(f"{self._slot}: {name} is not one of its declared names ({', '.join(sorted(self._names))})")
            setattr(self, name, fn)

    def __getattr__(self, name: str):
        # reached only for a name not provided yet (a provided one is an attribute of the instance)
        if name.startswith("_") or name not in self._names:
            raise AttributeError(name)
        raise RuntimeError(f"{self._slot}: {name} is called before the module that provides it was imported "
                           "(the ruleset imports every provider)")

    def __repr__(self) -> str:
        return f"Upcalls({self._slot!r}: {', '.join(sorted(self._names))})"
