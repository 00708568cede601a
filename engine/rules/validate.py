"""The shared validation layer: data a user wrote (scene tables, actions, saves) into JSON-safe, bounded values.

* :func:`json_safe` -- a deep copy of a value that can be written as JSON and read back the same: finite floats,
  integers within JSON's exact range, strings, booleans, lists and string-keyed tables, nested at most
  :data:`MAX_DEPTH` deep. TOML dates and times, NaN, infinity, sets, bytes, objects: an error naming the key path.
  Iterative, so a value nested 2,000 deep is refused without a ``RecursionError``.
* :func:`check_character` -- ranges of the ruleset keys of a character (speeds, HP, reach), weapon tables
  (``damage = 5``, ``"1d0"``, ``"-3d6"``, ``"99999999d6"``, ``to_hit = "x"``) and the baton ruleset's attribute and
  skill names, checked when the scene loads, before a ruleset builds its actors.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any
import math
import re

from engine.errors import AerieError, SceneError

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
_DND_DICE = re.compile(r"([1-9][0-9]?)?d([1-9][0-9]{0,2})")
DICE_MAX = 40                    # dice in one damage expression
SIDES_MAX = 100


def _num(v, lo, hi, integer=False) -> bool:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or (integer and not isinstance(v, int)):
        return False
    return (not isinstance(v, float) or math.isfinite(v)) and lo <= v <= hi


def dnd_dice(text) -> bool:
    """``NdS`` with 1..40 dice of 1..100 sides (``d8`` is ``1d8``)."""
    if not isinstance(text, str):
        return False
    m = _DND_DICE.fullmatch(text.strip())
    return m is not None and 1 <= int(m.group(1) or 1) <= DICE_MAX and 1 <= int(m.group(2)) <= SIDES_MAX


_DND_WEAPON = {
    "name": lambda v: isinstance(v, str) and v.strip() != "",
    "damage": dnd_dice,
    "versatile": lambda v: v is None or dnd_dice(v),
    "type": lambda v: isinstance(v, str),
    "properties": lambda v: isinstance(v, list) and all(isinstance(i, str) for i in v),
    "range": lambda v: v is None or (isinstance(v, list) and len(v) == 2 and all(_num(i, 0.1, 10000) for i in v)
                                     and v[0] <= v[1]),
    "reach_m": lambda v: _num(v, 0.5, 100),
    "to_hit": lambda v: _num(v, -50, 50, True),
    "damage_bonus": lambda v: _num(v, -50, 50, True),
}
_DND_WEAPON_HELP = {
    "damage": f"dice like 1d8 or 2d6 (1..{DICE_MAX} dice of 1..{SIDES_MAX} sides; a bonus goes in damage_bonus)",
    "versatile": "dice like 1d10", "range": "[normal, long] in metres", "reach_m": "metres, 0.5..100",
    "to_hit": "an integer -50..50", "damage_bonus": "an integer -50..50", "properties": "a list of names",
    "type": "a damage type name", "name": "a name",
}


def _baton_damage(v) -> bool:
    from engine.rules.baton.dice import parse

    if isinstance(v, bool) or not isinstance(v, (str, int)):
        return False
    try:
        n, sides, bonus = parse(str(v))
    except ValueError:
        return False
    return 0 <= bonus <= 100


_BATON_WEAPON = {
    "name": lambda v: isinstance(v, str) and v.strip() != "",
    "damage": _baton_damage,
    "size": lambda v: v in ("light", "small", "medium", "large"),
    "range_m": lambda v: _num(v, 0, 10000),
    "type": lambda v: isinstance(v, str),
    "reach_m": lambda v: _num(v, 0.5, 100),
    "skill": lambda v: isinstance(v, str) and v != "",
}
_BATON_WEAPON_HELP = {
    "damage": "dice like 1d8 or 2d6+1 (0..20 dice of 1..100 sides) or a whole number 0..100",
    "size": "one of light, small, medium, large", "range_m": "metres, 0 = melee", "reach_m": "metres, 0.5..100",
    "skill": "a skill name", "type": "a damage type name", "name": "a name",
}

# key: (lo, hi, integer) for the ruleset keys both schemas may carry
_RANGES = {
    "speed_m": (0, 1000, False), "fly_speed_m": (0, 1000, False), "swim_speed_m": (0, 1000, False),
    "reach_m": (0.5, 100, False), "max_hp": (1, 1_000_000, True), "hp": (0, 1_000_000, True),
    "temp_hp": (0, 1_000_000, True), "ac": (0, 100, True), "initiative": (-100, 100, True), "level": (1, 30, True),
    "attacks": (1, 20, True), "proficiency": (0, 20, True), "protection": (0, 1000, True), "vigor": (0, 1000, True),
    "destiny": (0, 1000, True),
}


def _weapons(weapons, table, helps, file, key):
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
    """Ranges and tables of one character's ruleset keys (``raw``: the table as written)."""
    for f, (lo, hi, integer) in _RANGES.items():
        if f in raw and raw[f] is not None and not _num(raw[f], lo, hi, integer):
            what = "an integer" if integer else "a number"
            raise SceneError(file, f"{key}.{f}", f"must be {what} {lo:g}..{hi:g}, got {raw[f]!r}")
    if ruleset == "dnd5e":
        _weapons(raw.get("weapons"), _DND_WEAPON, _DND_WEAPON_HELP, file, key)
        if raw.get("hit_dice") is not None and not _num(raw["hit_dice"], 0, 30, True):
            raise SceneError(file, f"{key}.hit_dice", f"hit dice left: an integer 0..30, got {raw['hit_dice']!r}")
        slots = raw.get("spell_slots")
        if isinstance(slots, dict):
            for k, v in slots.items():
                if k not in {str(i) for i in range(1, 10)} or not _num(v, 0, 20, True):
                    raise SceneError(file, f"{key}.spell_slots.{k}", "spell level 1..9 = slots 0..20")
    elif ruleset == "baton":
        _weapons(raw.get("weapons"), _BATON_WEAPON, _BATON_WEAPON_HELP, file, key)
        from engine.rules.baton.options import check_names

        attrs, skills, weapons = raw.get("attributes"), raw.get("skills"), raw.get("weapons")
        check_names(attrs if isinstance(attrs, dict) else {}, skills if isinstance(skills, dict) else {},
                    weapons if isinstance(weapons, list) else [], file, key)
        items = raw.get("items")
        if isinstance(items, dict):
            for k, v in items.items():
                if not _num(v, 0, 1000, True):
                    raise SceneError(file, f"{key}.items.{k}", "a count 0..1000")


def scene_error(file: str):
    """An ``error(path, problem)`` for :func:`json_safe` that raises SceneError for ``file``."""
    return lambda path, problem: SceneError(file, path, problem)


def aerie_error(prefix: str):
    return lambda path, problem: AerieError(f"{prefix}: {path}: {problem}" if path else f"{prefix}: {problem}")
