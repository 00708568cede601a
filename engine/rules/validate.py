"""The shared validation layer: data a user wrote (scene tables, actions, saves) into JSON-safe, bounded values.

* :func:`json_safe` -- a deep copy of a value that can be written as JSON and read back the same: finite floats,
  integers within JSON's exact range, strings, booleans, lists and string-keyed tables, nested at most
  :data:`MAX_DEPTH` deep. TOML dates and times, NaN, infinity, sets, bytes, objects: an error naming the key path.
  Iterative, so a value nested 2,000 deep is refused without a ``RecursionError``.
* :func:`check_character` -- ranges of the ruleset keys of a character (speeds, HP, reach), then the ruleset's own
  checks (its registry entry's ``character_check``: weapon tables such as ``damage = 5``, ``"1d0"``, ``"-3d6"``,
  ``"99999999d6"``, ``to_hit = "x"``, its own names), checked when the scene loads, before it builds its actors;
  :func:`check_weapons`, :func:`dice_expr` and :func:`number` are the pieces those checks are made of.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any
import math
import re

from engine.errors import AerieError, SceneError
from engine.rules import registry

MAX_DEPTH = 32
MAX_INT = 2 ** 53                # integers beyond this do not survive a JSON reader that uses doubles
MAX_ITEMS = 1_000_000            # list items / table keys in one value, all levels together


def _join(path: str, key) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def json_safe(value, path: str, error, max_depth: int = MAX_DEPTH, max_items: int = MAX_ITEMS):
    """A deep copy of ``value`` (tuples become lists) or ``error(path, problem)`` for the first bad item."""
    count = 0

    def leaf(v, p):
        if v is None or isinstance(v, (bool, str)):
            return v
        if isinstance(v, int):
            if not -MAX_INT <= v <= MAX_INT:
                raise error(p, f"integer {str(v)[:12]}... is outside +-2**53" if len(str(v)) > 16
                            else f"integer {v} is outside +-2**53")
            return v
        if isinstance(v, float):
            if not math.isfinite(v):
                raise error(p, f"must be a finite number, got {v!r}")
            return v
        if isinstance(v, (_dt.date, _dt.time, _dt.datetime)):
            raise error(p, f"TOML dates and times are not supported here (got {v.isoformat()}); write a string")
        raise error(p, f"a {type(v).__name__} cannot be stored (only strings, numbers, booleans, lists, tables)")

    if not isinstance(value, (dict, list, tuple)):
        return leaf(value, path)
    root: Any = {} if isinstance(value, dict) else []
    stack: list[tuple[Any, Any, str, int]] = [(value, root, path, 1)]
    while stack:
        src, dst, p, depth = stack.pop()
        if depth > max_depth:
            raise error(p, f"nested more than {max_depth} deep")
        items = src.items() if isinstance(src, dict) else enumerate(src)
        for k, v in items:
            count += 1
            if count > max_items:
                raise error(p, f"more than {max_items:,} items")
            if isinstance(src, dict) and not isinstance(k, str):
                raise error(p, f"table keys must be strings, got {k!r}")
            kp = _join(p, k)
            if isinstance(v, (dict, list, tuple)):
                child: Any = {} if isinstance(v, dict) else []
                stack.append((v, child, kp, depth + 1))
                v2 = child
            else:
                v2 = leaf(v, kp)
            if isinstance(dst, dict):
                dst[k] = v2
            else:
                dst.append(v2)
    return root


# ------------------------------------------------------------------------------------------------- characters
_DICE = re.compile(r"([1-9][0-9]?)?d([1-9][0-9]{0,2})")
DICE_MAX = 40                    # dice in one damage expression
SIDES_MAX = 100


def number(v, lo, hi, integer=False) -> bool:
    """``v`` is a finite number (an integer if ``integer``) within lo..hi, never a bool."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or (integer and not isinstance(v, int)):
        return False
    return (not isinstance(v, float) or math.isfinite(v)) and lo <= v <= hi


def dice_expr(text) -> bool:
    """``NdS`` with 1..40 dice of 1..100 sides (``d8`` is ``1d8``)."""
    if not isinstance(text, str):
        return False
    m = _DICE.fullmatch(text.strip())
    return m is not None and 1 <= int(m.group(1) or 1) <= DICE_MAX and 1 <= int(m.group(2)) <= SIDES_MAX


# key: (lo, hi, integer) for the ruleset keys both schemas may carry
_RANGES = {
    "speed_m": (0, 1000, False), "fly_speed_m": (0, 1000, False), "swim_speed_m": (0, 1000, False),
    "reach_m": (0.5, 100, False), "max_hp": (1, 1_000_000, True), "hp": (0, 1_000_000, True),
    "temp_hp": (0, 1_000_000, True), "ac": (0, 100, True), "initiative": (-100, 100, True), "level": (1, 30, True),
    "attacks": (1, 20, True), "proficiency": (0, 20, True), "protection": (0, 1000, True), "vigor": (0, 1000, True),
    "destiny": (0, 1000, True),
}


def check_weapons(weapons, table, helps, file, key):
    """Each weapon table of a character against ``table`` (``{key: check(value) -> bool}``, the ruleset's weapon
    shape); a failed check is a SceneError at ``key.weapons[j].k`` saying what ``helps[k]`` expects."""
    if not isinstance(weapons, list):
        return
    if len(weapons) > 64:
        raise SceneError(file, f"{key}.weapons", "at most 64 weapons")
    for j, w in enumerate(weapons):
        if not isinstance(w, dict):
            continue                  # a name: the ruleset looks it up in its table
        for k, v in w.items():
            check = table.get(k)
            if check is None:
                continue              # the ruleset names the unknown key
            if not check(v):
                raise SceneError(file, f"{key}.weapons[{j}].{k}", f"{v!r} is not {helps.get(k, 'valid')}")


def check_character(ruleset: str, raw: dict, file: str, key: str) -> None:
    """Ranges and tables of one character's ruleset keys (``raw``: the table as written): the ranges of the keys
    the schemas share, then the ruleset's own checks (its weapon shape, its names), which its registry entry names
    (``RulesetInfo.character_check``)."""
    for f, (lo, hi, integer) in _RANGES.items():
        if f in raw and raw[f] is not None and not number(raw[f], lo, hi, integer):
            what = "an integer" if integer else "a number"
            raise SceneError(file, f"{key}.{f}", f"must be {what} {lo:g}..{hi:g}, got {raw[f]!r}")

    own = registry.info(ruleset).character_check_fn()
    if own is not None:
        own(raw, file, key)


def scene_error(file: str):
    """An ``error(path, problem)`` for :func:`json_safe` that raises SceneError for ``file``."""
    return lambda path, problem: SceneError(file, path, problem)


def aerie_error(prefix: str):
    return lambda path, problem: AerieError(f"{prefix}: {path}: {problem}" if path else f"{prefix}: {problem}")
