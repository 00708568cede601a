"""Baton resolution (BAT-00): a skill test is 1d12 + skill against a difficulty; positive and negative chances
add d12s kept high / low, cancel, capped at +-3; a natural 12 on the kept die is a critical success, a natural 1
a critical failure; the success level; the damage scale."""

from __future__ import annotations

import re

from engine.rules.baton.data import DAMAGE_SCALE

_DICE = re.compile(r"^\s*(\d*)d(\d+)\s*(?:([+-])\s*(\d+))?\s*$")


def parse(expr: str) -> tuple[int, int, int]:
    """'2d6+1' -> (2, 6, 1); a plain integer '3' -> (0, 0, 3)."""
    s = str(expr).strip()
    if re.fullmatch(r"\d+", s):
        return 0, 0, int(s)
    m = _DICE.match(s)
    if not m:
        raise ValueError(f"{expr!r} is not a dice expression like 1d8 or 2d6+1")
    n = int(m.group(1) or 1)
    sides = int(m.group(2))
    bonus = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    if n < 0 or n > 20 or sides < 1 or sides > 100:
        raise ValueError(f"{expr!r}: 0..20 dice of 1..100 sides")
    return n, sides, bonus


def fmt(n: int, sides: int, bonus: int) -> str:
    if n == 0:
        return str(bonus)
    return f"{n}d{sides}" + (f"+{bonus}" if bonus > 0 else (str(bonus) if bonus < 0 else ""))


def shift(expr: str, steps: int, scale=DAMAGE_SCALE) -> str:
    """Move a damage expression ``steps`` places along the damage scale (BAT-35, BAT-48). An expression that is an
    entry of the scale (plus a bonus) moves to the entry ``steps`` further; otherwise each die moves along the
    scale's one-die entries. Past the scale's last entry each step adds +1 per die."""
    n, sides, bonus = parse(expr)
    if steps == 0 or n == 0:
        return expr
    entries = [parse(s) for s in scale]
    if (n, sides, 0) in entries:
        idx, count, _base_n = entries.index((n, sides, 0)), 1, n
    else:
        one = [(1, s_, 0) for s_ in [e[1] for e in entries if e[0] == 1 and e[2] == 0]]
        if (1, sides, 0) not in one:
            return fmt(n, sides, bonus + steps * n) if steps > 0 else expr
        entries = one
        idx, count, _base_n = one.index((1, sides, 0)), n, 1
    j = max(0, idx + steps)
    over = max(0, j - (len(entries) - 1))
    en, es, eb = entries[min(j, len(entries) - 1)]
    return fmt(en * count, es, eb * count + bonus + over * count)


def maximum(expr: str) -> int:
    n, sides, bonus = parse(expr)
    return n * sides + bonus


def success_level(total: int, difficulty: int, success: bool, mode: str) -> int:
    """BAT-00 (inferred, an option): "total-difficulty+1" (default) or "total-difficulty"; at least 1 on a
    success, 0 on a failure."""
    if not success:
        return 0
    if mode == "total-difficulty":
        return max(1, total - difficulty)
    if mode == "per-3":
        return max(1, 1 + (total - difficulty) // 3)
    return max(1, total - difficulty + 1)


def test(session, who: str, skill_name: str, skill: int, difficulty: int, positive: list, negative: list,
         rule: str, purpose: str, options: dict, roll_name: str = "test", auto: bool = False) -> dict:
    """Roll a skill test; emit the ``test`` event; return it. ``positive``/``negative`` are lists of
    [reason, rule] (each one chance)."""
    net = len(positive) - len(negative)
    cap = int(options.get("chance_cap", 3))
    capped = max(-cap, min(cap, net))
    n = 1 + abs(capped)
    dice = session.roll(roll_name, 12, n, who=who, rule=rule or "BAT-00", purpose=purpose)
    kept = max(dice) if capped > 0 else (min(dice) if capped < 0 else dice[0])
    total = kept + skill
    crit = kept == 12
    fumble = kept == 1
    if options.get("criticals_decide", True):
        success = crit or (not fumble and total >= difficulty)
    else:
        success = total >= difficulty
    if auto:                        # BAT-37 a helpless target: the test always hits, the die still counts (BAT-08)
        success, crit = True, True
    level = success_level(total, difficulty, success, options.get("success_level", "total-difficulty+1"))
    ev = {"type": "test", "who": who, "skill": skill_name, "skill_level": skill, "difficulty": difficulty,
          "positive": [list(p) for p in positive], "negative": [list(p) for p in negative], "chances": capped,
          "dice": dice, "kept": kept, "total": total, "success": success, "level": level,
          "critical": crit and success, "critical_failure": fumble and not success, "even": kept % 2 == 0,
          "rule": rule, "purpose": purpose}
    if auto:
        ev["auto"] = True
    session.emit(ev)
    return ev
