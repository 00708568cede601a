"""Typed ruleset options: each key a ruleset understands is declared with its type and range or allowed values.

A ruleset declares its keys once, ``SPECS = {key: OptionSpec(...)}`` (by custom in ``engine/rules/<name>/options.py``),
and names them on its class (``Ruleset.OPTION_SPECS``; the defaults are the specs' own); the base
:class:`~engine.rules.ruleset.Ruleset` validates a scene's ``[options]`` against it (plus :data:`COMMON`, the keys
the core and the aerial module read) before anything else looks at them. An unknown key is an error naming the
closest known key (``options.diagonl: unknown option; did you mean diagonal?``): a typo never goes unnoticed.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field
from typing import Any, Callable

from engine.errors import AerieError
from engine.rules import registry


@dataclass(frozen=True)
class OptionSpec:
    """``kind``: ``bool`` | ``int`` | ``float`` | ``choice`` | ``custom``. ``lo``/``hi``: inclusive range for numbers;
    ``choices`` for ``choice``; ``check(value, path) -> value`` for ``custom`` (raise AerieError)."""
    kind: str
    default: Any = None
    lo: float | None = None
    hi: float | None = None
    choices: tuple = ()
    help: str = ""
    check: Callable | None = field(default=None, compare=False)

    def validate(self, value, path: str):
        k = self.kind
        if k == "bool":
            if not isinstance(value, bool):
                raise AerieError(f"{path}: must be true or false, got {value!r}")
            return value
        if k in ("int", "float"):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or (k == "int" and not isinstance(value, int)):
                raise AerieError(f"{path}: must be {'an integer' if k == 'int' else 'a number'}, got {value!r}")
            if isinstance(value, float) and not math.isfinite(value):
                raise AerieError(f"{path}: must be a finite number, got {value!r}")
            if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
                raise AerieError(f"{path}: {value!r} is outside {self.lo:g}..{self.hi:g}")
            return value
        if k == "choice":
            if not isinstance(value, str) or value not in self.choices:
                raise AerieError(f"{path}: {value!r} is not one of {', '.join(map(str, self.choices))}")
            return value
        if k == "custom":
            return self.check(value, path) if self.check else value
        raise ValueError(f"unknown option kind {k!r}")


def _rolls(value, path):
    ok = isinstance(value, dict) and all(
        isinstance(k, str) and ((isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 1000) or (
            isinstance(v, list) and len(v) <= 1000 and all(isinstance(i, int) and not isinstance(i, bool) and 1 <= i <= 1000 for i in v)))
        for k, v in value.items())
    if not ok:
        raise AerieError(f"{path}: a table of roll name = die result(s), e.g. {{ initiative = [15, 4] }}")
    return value


def _thresholds(value, path):
    """``[[level, fraction], ...]``: levels named once, fractions 0..1 rising (docs/rules.md, "Cover thresholds")."""
    ok = isinstance(value, list) and 1 <= len(value) <= 8
    last = -1.0
    names = set()
    for item in value if ok else ():
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and item[0]
                and isinstance(item[1], (int, float)) and not isinstance(item[1], bool)
                and math.isfinite(item[1]) and 0 <= item[1] <= 1 and item[1] > last and item[0] not in names):
            ok = False
            break
        last = item[1]
        names.add(item[0])
    if not ok:
        raise AerieError(f"{path}: a list of [level, fraction] pairs, fractions 0..1 rising, "
                         'e.g. [["none", 0.0], ["half", 0.25], ["three-quarters", 0.75], ["total", 1.0]]')
    return value


#: keys every ruleset's session reads (the core: ``rolls``; the cover code: ``cover_thresholds``)
COMMON = {
    "rolls": OptionSpec("custom", {}, check=_rolls, help="dice rolled before any action, forced: { initiative = [15, 4] }"),
    "cover_thresholds": OptionSpec("custom", None, check=_thresholds, help="blocked fraction -> cover level"),
}

#: the aerial module's keys (AIR-07, AIR-12), shared by both rulesets
AERIAL = {
    "diagonal": OptionSpec("choice", "5e", choices=("5e", "euclidean", "5-10-5"), help="cost of a diagonal step"),
    "climb_m": OptionSpec("float", 4.0, 0.0, 1000.0, help="AIR-07: metres of movement to climb one layer"),
    "descend_m": OptionSpec("float", 2.0, 0.0, 1000.0, help="AIR-07: metres of movement to descend one layer"),
    "fall_cap_percent": OptionSpec("int", 50, 0, 100, help="AIR-12: the most a fall takes, % of max HP"),
    "fall_damage_rounding": OptionSpec("choice", "down", choices=("down", "up", "nearest"), help="AIR-12 rounding"),
    "upkeep": OptionSpec("choice", "end_of_turn", choices=("end_of_turn", "start_of_turn"),
                         help="AIR-08: paid at the end of a turn aloft, or on starting one aloft"),
    "air_speed": OptionSpec("choice", "ground", choices=("ground", "fly_speed"),
                            help="AIR-09: in the air at the ground speed (the document) or the character's own fly "
                                 "speed (AIR-06's take-off is half of the same speed)"),
}

def specs_for(ruleset: str) -> dict[str, OptionSpec] | None:
    """Every option key a ruleset accepts (COMMON + its class's ``OPTION_SPECS``, found through the registry), or
    None when it declares none."""

    return with_common(registry.info(ruleset).ruleset_class().OPTION_SPECS)


def with_common(specs: dict[str, OptionSpec] | None) -> dict[str, OptionSpec] | None:
    return None if specs is None else {**COMMON, **specs}


def defaults(specs: dict[str, OptionSpec]) -> dict:
    """``{key: default}`` of a ruleset's own specs (a fresh copy of each list or table default)."""
    return {k: (type(s.default)(s.default) if isinstance(s.default, (list, dict)) else s.default) for k, s in specs.items()}


def closest(key: str, known) -> str:
    m = difflib.get_close_matches(key, list(known), n=1, cutoff=0.6)
    return f"; did you mean {m[0]}?" if m else f"; known: {', '.join(sorted(known))}"


def validate_options(specs: dict[str, OptionSpec], options: dict | None, base: str = "options") -> dict:
    """A new dict of the given options, each validated by its spec; raises AerieError naming ``options.key``."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise AerieError(f"{base}: must be a table of option = value")
    out = {}
    for k, v in options.items():
        spec = specs.get(k) if isinstance(k, str) else None
        if spec is None:
            raise AerieError(f"{base}.{k}: unknown option{closest(str(k), specs)}")
        out[k] = spec.validate(v, f"{base}.{k}")
    return out


def validate_for(ruleset: str | dict | None, options: dict | None) -> dict:
    """``options`` validated against a ruleset's keys (its name, or its ``OPTION_SPECS``; none: unchecked)."""
    specs = with_common(ruleset) if isinstance(ruleset, dict) or ruleset is None else specs_for(ruleset)
    if specs is None:
        return dict(options or {})
    return validate_options(specs, options)


def describe(ruleset: str) -> list[tuple[str, str, str]]:
    """(key, type and range, help) for docs and ``--help`` text."""
    out = []
    for k, s in sorted((specs_for(ruleset) or {}).items()):
        t = {"choice": " | ".join(map(str, s.choices)), "bool": "true | false"}.get(s.kind, s.kind)
        if s.kind in ("int", "float") and s.lo is not None:
            t += f" {s.lo:g}..{s.hi:g}"
        out.append((k, t, s.help))
    return out


def choice(*choices: str, help: str = "") -> OptionSpec:
    """A ``choice`` option whose default is its first choice (the reading the document gives; the rest are the
    other readings a scene may pick)."""
    return OptionSpec("choice", choices[0], choices=tuple(choices), help=help)
