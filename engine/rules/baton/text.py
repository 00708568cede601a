"""How the baton events read in the runner's log (``aerie run`` without ``--json``): ``type -> line``.
Events every ruleset shares (rolls, moves, attacks, falls...) are in ``engine.rules.runner.GENERIC_LINES``."""

from __future__ import annotations


def _test(session, e, n, r):
    ch = ""
    if e.get("positive") or e.get("negative"):
        ch = "; chances: " + ", ".join([f"+{p[0]}" for p in e.get("positive", [])] +
                                       [f"-{q[0]}" for q in e.get("negative", [])])
    res = ("critical success" if e.get("critical") else "critical failure" if e.get("critical_failure")
           else "success" if e["success"] else "failure")
    lvl = f", level {e['level']}" if e["success"] else ""
    return (f"    {n('who')} tests {e['skill'].replace('_', ' ')} for {e['purpose']}: d12 {e['kept']}"
            f"{' (of ' + ', '.join(map(str, e['dice'])) + ')' if len(e['dice']) > 1 else ''} + {e['skill_level']}"
            f" = {e['total']} vs {e['difficulty']}: {res}{lvl}{ch}{r}")


def _hit(session, e, n, r):
    if not ("damage" in e and "rolled" in e):
        from engine.rules.runner import _generic

        return _generic(session, e)
    extra = [f"rolled {e['rolled']} on {e['dice']}"]
    if e.get("physique_bonus"):
        extra.append(f"+{e['physique_bonus']} Physique")
    if e.get("second_weapon"):
        extra.append(f"+{e['second_weapon']} second weapon")
    if e.get("critical_extra"):
        extra.append(f"+{e['critical_extra']} critical")
    return f"{n('who')} hits {n('target')} for {e['damage']} ({', '.join(extra)}){r}"


def _baton(session, e, n, r):
    how = {"starts": "starts with it", "pass": "kept by the side" if e.get("kept") else "passed"}.get(e.get("how"), e.get("how"))
    return f"   baton -> {n('to')} ({e['side']}, turn {e['turn']}): {how}{r}"


EVENT_LINES = {
    "test": _test,
    "hit": _hit,
    "baton": _baton,
    "pass": lambda session, e, n, r: f"{n('who')} passes the initiative to {n('to')} (die {e.get('die')}: {'kept' if e.get('kept') else 'lost'}){r}",
    "side_turn": lambda session, e, n, r: f"== {e['side']}'s turn {e['turn']} =={r}",
    "combat_start": lambda session, e, n, r: f"== combat: {' against '.join(e['sides'])} =={r}",
}
