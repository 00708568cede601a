"""Words about the action being composed (``ctl.pending``): which variant Tab has reached, and what the core says
of a target it did not offer. Functions over the controller, so its class stays small; pure Python."""

from __future__ import annotations

from engine.errors import AerieError
from engine.rules.core import Illegal


def variant_note(ctl) -> str:
    """"dodge shield (1 of 2; Tab: next)": what tells the highlighted variant from the others, when several fit."""
    p = ctl.pending
    if p is None:
        return ""
    cands = p.candidates()
    if len(cands) <= 1:
        return ""
    a = cands[p.variant_i % len(cands)]
    picked = {k for k, _kind in p.needs} | set(p.drop)   # chosen on the map / by a click (or left out), not by Tab
    diff = [k for k in a if k not in ("actor", "action") and k not in picked
            and any(c.get(k) != a.get(k) for c in cands)]
    if not diff:
        return ""
    desc = ", ".join(f"{k} {a[k]}" for k in diff)
    return f"{desc} ({p.variant_i % len(cands) + 1} of {len(cands)}; Tab: next)"


def unoffered(ctl, p, key: str, value) -> tuple[str, str]:
    """What to say when ``value`` is not among the targets the core offered for ``key``: the core's own
    answer (its reason when illegal; a note when it is an ally, which the rules allow)."""
    act = {"actor": ctl.selected, "action": p.name, **p.params, key: value}
    try:
        ctl.session.check(act)
    except Illegal as e:
        rule = f" ({e.rule})" if e.rule and f"({e.rule})" not in e.reason else ""
        return f"{value}: {e.reason}{rule}", "error"
    except AerieError:
        return f"{value} is not a target {p.name.replace('_', ' ')} can take now", "error"
    try:
        own = ctl.actor(value).side == ctl.actor(ctl.selected).side
    except (KeyError, AttributeError):
        own = False
    return (f"{value} is on {ctl.selected}'s own side: the rules allow it", "info") if own else ("", "info")
