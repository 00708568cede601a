"""Named hooks: an ordered list of small named functions, each carrying the rule ID it implements.

A ruleset declares a hook once (``TURN_START = Hook("turn_start", "...")``) and registers its rules on it with the
decorator (``@TURN_START.rule("DND-13")``); the code that reaches that moment of the game runs the hook
(``hook.run(...)`` for every function, ``hook.first(...)`` for the first answer that is not ``None``). A feat or a
condition that acts at that moment adds a function; it does not edit the method that calls the hook. Functions run
in the order they were registered (the order of the events they emit). ``aerie rules`` / the generated docs name
them by ``fn.rule``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Hook(list):
    """A named hook: a list of functions, each with ``fn.rule`` (its rule ID)."""

    def __init__(self, name: str, doc: str = "") -> None:
        super().__init__()
        self.name = name
        self.doc = doc

    def rule(self, rule_id: str) -> Callable:
        """Decorator: register ``fn`` on this hook as the rule ``rule_id`` (it stays a plain function)."""
        def deco(fn):
            fn.rule = rule_id
            self.append(fn)
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
