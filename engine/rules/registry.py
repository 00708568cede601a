"""The one registry of rulesets. Shared code (world, aerial, runner, render, app) asks it; it never names one.

A ruleset is a package that declares itself in one place, its ``__init__.py``::

    RULESET = RulesetInfo(name="...", ruleset="pkg.module:Class", schema="pkg.schema:Stats",
                          cover_levels=(("none", 0.0), ("half", 0.25), ...), cover_rule="XXX-32", ...)

Everything else about it (options with their defaults, conditions and their tags, turn order, the action table,
hooks, the HUD rows and the log lines of its events) is reached from the ``Ruleset`` class the declaration names.
The registry finds the packages under ``engine/rules/`` by themselves; more are loaded from the modules named in
the environment variable ``AERIE_RULESETS`` (comma-separated module names: each declares ``RULESET``), or
registered in process with :func:`register` -- so a new ruleset is added without editing any shared file.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from dataclasses import dataclass, field
from typing import Any

from engine.errors import AerieError
import engine.rules as pkg


def load_dotted(dotted: str) -> Any:
    mod, _, attr = dotted.partition(":")
    m = importlib.import_module(mod)
    return getattr(m, attr) if attr else m


@dataclass(frozen=True)
class RulesetInfo:
    """One ruleset's declaration. ``ruleset`` / ``schema`` are ``"module:attribute"`` (loaded when first used) or
    the objects themselves."""
    name: str
    ruleset: Any                       # the Ruleset subclass (or "module:Class")
    schema: Any                        # the msgspec Struct of its character keys (or "module:Struct")
    cover_levels: tuple                # ((level, blocked fraction from which it applies), ...), lowest first
    cover_rule: str = ""               # the rule ID that sets the levels (for `aerie query`)
    title: str = ""
    default: bool = False              # the ruleset of a scene that names none
    doc: str = ""                      # the page that describes it
    #: ``check(raw, file, key)``: the character keys its schema's types cannot check (weapon shapes, names), or
    #: "module:function", or None
    character_check: Any = None
    extra: dict = field(default_factory=dict)

    def ruleset_class(self):
        return load_dotted(self.ruleset) if isinstance(self.ruleset, str) else self.ruleset

    def schema_class(self):
        return load_dotted(self.schema) if isinstance(self.schema, str) else self.schema

    def character_check_fn(self):
        c = self.character_check
        return load_dotted(c) if isinstance(c, str) else c


_REG: dict[str, RulesetInfo] = {}
_DISCOVERED = False


def register(info: RulesetInfo) -> RulesetInfo:
    _REG[info.name] = info
    return info


def _discover() -> None:
    global _DISCOVERED
    if _DISCOVERED:
        return
    _DISCOVERED = True

    for m in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if m.ispkg:
            info = getattr(importlib.import_module(f"{pkg.__name__}.{m.name}"), "RULESET", None)
            if isinstance(info, RulesetInfo):
                _REG.setdefault(info.name, info)
    for name in filter(None, (s.strip() for s in os.environ.get("AERIE_RULESETS", "").split(","))):
        try:
            info = getattr(importlib.import_module(name), "RULESET", None)
        except ImportError as e:
            raise AerieError(f"AERIE_RULESETS: cannot import {name!r}: {e}") from None
        if not isinstance(info, RulesetInfo):
            raise AerieError(f"AERIE_RULESETS: {name!r} declares no RULESET = RulesetInfo(...)")
        _REG.setdefault(info.name, info)


def names() -> list[str]:
    _discover()
    return sorted(_REG)


def infos() -> list[RulesetInfo]:
    _discover()
    return [_REG[n] for n in sorted(_REG)]


def info(name: str | None) -> RulesetInfo:
    _discover()
    if name is None:
        return default()
    got = _REG.get(name)
    if got is None:
        raise AerieError(f"unknown ruleset {name!r}; known: {', '.join(sorted(_REG))}")
    return got


def default() -> RulesetInfo:
    _discover()
    for i in _REG.values():
        if i.default:
            return i
    return _REG[min(_REG)]


def cover_levels(name: str | None) -> tuple:
    return info(name).cover_levels


class CoverLevels(dict):
    """``{ruleset name: cover levels}`` read from the registry on demand (``engine.world.cover.DEFAULT_THRESHOLDS``)."""

    def __missing__(self, key):
        return cover_levels(key)

    def __contains__(self, key):
        try:
            info(key)
        except AerieError:
            return False
        return True


__all__ = ["RulesetInfo", "cover_levels", "default", "info", "infos", "load_dotted", "names", "register"]
