"""What a run of fights says: win rates with 95% Wilson intervals, draws, rounds, per character figures, cover,
rule IDs; and for two variants played on the same seeds (common random numbers), the paired difference."""

from __future__ import annotations

import math
from collections import Counter

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of k successes in n trials (0..1); (0, 1) for n = 0."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def quantile(xs: list[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default)."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    pos = (len(s) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def characters(rows: list[dict]) -> list[str]:
    seen: dict = {}
    for r in rows:
        for k in r:
            if k.endswith(".side"):
                seen.setdefault(k[:-5], r[k])
    return list(seen)


def summarise(rows: list[dict], sides: list[str]) -> dict:
    """The summary of one variant's rows (fights that raised are counted apart, in ``errors``)."""
    ok = [r for r in rows if r.get("outcome") != "error"]
    n = len(ok)
    out: dict = {"fights": n, "errors": len(rows) - n, "sides": {}, "characters": {}}
    for s in sides:
        k = sum(1 for r in ok if r["winner"] == s)
        lo, hi = wilson(k, n)
        out["sides"][s] = {"wins": k, "rate": k / n if n else 0.0, "low": lo, "high": hi}
    draws = sum(1 for r in ok if not r["winner"])
    capped = sum(1 for r in ok if r.get("capped"))
    lo, hi = wilson(draws, n)
    out["draws"] = {"count": draws, "at_round_cap": capped, "rate": draws / n if n else 0.0, "low": lo, "high": hi}
    rounds = [float(r["rounds"]) for r in ok]
    out["rounds"] = {"mean": sum(rounds) / n if n else float("nan"),
                     **{f"p{int(q * 100)}": quantile(rounds, q) for q in (0.1, 0.25, 0.5, 0.75, 0.9)},
                     "max": max(rounds) if rounds else float("nan")}
    for c in characters(ok):
        def mean(key, c=c):
            return sum(float(r.get(f"{c}.{key}", 0) or 0) for r in ok) / n if n else 0.0
        downs = sum(1 for r in ok if r.get(f"{c}.down"))
        lo, hi = wilson(n - downs, n)
        out["characters"][c] = {"side": ok[0].get(f"{c}.side"), "survival": (n - downs) / n if n else 0.0,
                                "low": lo, "high": hi, "dealt": mean("dealt"), "taken": mean("taken"),
                                "falls": mean("falls"), "fall_damage": mean("fall_damage")}
    cover: Counter = Counter()
    rules: Counter = Counter()
    for r in ok:
        for k, v in r.items():
            if k.startswith("attacks.cover."):
                cover[k[len("attacks.cover."):]] += int(v or 0)
            elif k.startswith("rule."):
                rules[k[5:]] += int(v or 0)
    out["attacks_by_cover"] = dict(sorted(cover.items()))
    out["rules"] = dict(sorted(rules.items(), key=lambda kv: (-kv[1], kv[0])))
    return out


def paired_difference(a_rows: list[dict], b_rows: list[dict], sides: list[str]) -> dict:
    """Per side, B's win rate minus A's over the fights both played without error (same index = same seed):
    the mean of the paired differences with a 95% normal interval from their spread."""
    a = {r["index"]: r for r in a_rows if r.get("outcome") != "error"}
    b = {r["index"]: r for r in b_rows if r.get("outcome") != "error"}
    both = sorted(set(a) & set(b))
    n = len(both)
    out: dict = {"pairs": n, "sides": {}}
    for s in sides + [""]:
        d = [(b[i]["winner"] == s) - (a[i]["winner"] == s) for i in both]
        m = sum(d) / n if n else 0.0
        var = sum((x - m) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
        h = Z95 * math.sqrt(var / n) if n else 0.0
        out["sides"][s or "draw"] = {"difference": m, "low": m - h, "high": m + h,
                                     "changed": sum(1 for x in d if x)}
    return out


def text(summary: dict, title: str) -> list[str]:
    """The summary as lines for the terminal."""
    n = summary["fights"]
    lines = [f"{title}: {n} fights" + (f", {summary['errors']} raised (see the rows' error and replay)"
                                        if summary["errors"] else "")]
    for s, v in summary["sides"].items():
        lines.append(f"  {s} wins {v['rate']:.1%} (95% {v['low']:.1%}..{v['high']:.1%}, {v['wins']} of {n})")
    d = summary["draws"]
    lines.append(f"  draws {d['rate']:.1%} ({d['count']}, {d['at_round_cap']} at the round cap)")
    r = summary["rounds"]
    if not summary["fights"] or r["mean"] is None or r["mean"] != r["mean"]:     # every fight raised: no rounds
        lines.append("  rounds: none (no fight finished)")
        return lines
    lines.append(f"  rounds: mean {r['mean']:.1f}, median {r['p50']:g}, 10%..90% {r['p10']:g}..{r['p90']:g}, "
                 f"max {r['max']:g}")
    lines.append("  character                survival          dealt  taken  falls  fall dmg")
    for c, v in summary["characters"].items():
        lines.append(f"  {c[:16]:16} {v['side'][:7]:7} {v['survival']:6.1%} ({v['low']:.0%}..{v['high']:.0%}) "
                     f"{v['dealt']:6.1f} {v['taken']:6.1f} {v['falls']:6.2f} {v['fall_damage']:8.1f}")
    if summary["attacks_by_cover"]:
        lines.append("  attacks by cover: " + ", ".join(f"{k} {v}" for k, v in summary["attacks_by_cover"].items()))
    top = list(summary["rules"].items())[:12]
    if top:
        lines.append("  rule IDs fired (most first): " + ", ".join(f"{k} {v}" for k, v in top))
    return lines


def diff_text(diff: dict, a: str, b: str) -> list[str]:
    lines = [f"difference, {b} minus {a}, on the same {diff['pairs']} seeds (common random numbers):"]
    for s, v in diff["sides"].items():
        lines.append(f"  {s}: {v['difference']:+.1%} (95% {v['low']:+.1%}..{v['high']:+.1%}; "
                     f"{v['changed']} fights changed)")
    return lines
