"""How the D&D 5e events read in the runner's log (``aerie run`` without ``--json``): ``type -> line``.
Events every ruleset shares (rolls, moves, attacks, falls...) are in ``engine.rules.runner.GENERIC_LINES``."""

from __future__ import annotations

from engine.rules.lines import say
from engine.rules.lines import sources_text


def _name(session, aid):
    a = session.state.actors.get(aid)
    return a.name if a else str(aid)


def _initiative(session, e, n, r):
    return f"{n('who')} initiative {e['total']}{' (fixed)' if e['fixed'] else ''}{r}"


def _check(session, e, n, r):
    return f"{n('who')} {e['skill'].replace('_', ' ')} check: {e['roll']} -> {e['total']}{r}"


def _contest(session, e, n, r):
    if e.get("automatic"):
        return f"{n('who')} against {n('target')}: automatic success (the target is incapacitated){r}"
    return (f"{n('who')} {e['attacker_total']} against {n('target')}'s {e['defender_skill']} {e['defender_total']}: "
            f"{'success' if e['success'] else 'fails'}{r}")


def _save(session, e, n, r):
    if "auto_fail" in e:
        return f"{n('who')} fails its {e['ability'].upper()} save automatically ({e['auto_fail']}){r}"
    what = f" to keep its concentration on {e['concentration'].replace('_', ' ')}" if e.get("concentration") else ""
    how = "".join(f"; {k}: {', '.join(e[k])}" for k in ("advantage", "disadvantage") if e.get(k))
    return (f"{n('who')} {e['ability'].upper()} save{what} {e['roll']} -> {e['total']}{sources_text(e)} vs DC {e['dc']}: "
            f"{'success' if e['success'] else 'failure'}{how}{r}")


def _death_save(session, e, n, r):
    if "outcome" in e:
        return f"{n('who')} death save {e['result']}: {e['outcome']}{r}"
    return f"{n('who')} death save {e['result']}: {e['successes']} success(es), {e['failures']} failure(s){r}"


def _shove(session, e, n, r):
    if e["mode"] == "prone":
        return f"{n('who')} shoves {n('target')} prone{r}"
    return (f"{n('who')} pushes {n('target')} to {e['to']}" if e.get("moved") else f"{n('who')} cannot push {n('target')}: {e.get('reason')}") + r


def _cast(session, e, n, r):
    return f"{n('who')} casts {e['spell'].replace('_', ' ')}" + (f" on {', '.join(_name(session, i) for i in e['targets'])}" if e["targets"] else "") + r


def _did(what):
    return lambda session, e, n, r: f"{n('who')} {what(session, e)}{r}"


EVENT_LINES = {
    "initiative": _initiative,
    "check": _check,
    "contest": _contest,
    "save": _save,
    "death_save": _death_save,
    "death_save_failure": say("{@who} is hurt at 0 HP: +{added} failed death save(s), {failures} in all{r}"),
    "dying": say("{@who} drops to 0 HP: unconscious and dying{r}"),
    "stable": say("{@who} is stable{r}"),
    "grapple": say("{@who} grapples {@target}{r}"),
    "grapple_ends": say("{@who} is no longer grappled by {@grappler}: {reason}{r}"),
    "shove": _shove,
    "cast": _cast,
    "concentration": lambda session, e, n, r: f"{n('who')} concentrates on {e['spell'].replace('_', ' ')}{r}",
    "concentration_ends": lambda session, e, n, r: (f"{n('who')} loses its concentration on "
                                                    f"{e['spell'].replace('_', ' ')}: {e['reason']}{r}"),
    "heal": say("{@who} regains {amount} HP ({hp} now){r}"),
    "hide": _did(lambda s, e: f"hides (Stealth {e.get('stealth')})"),
    "search": _did(lambda s, e: f"searches: {e['auto_fail']}, it fails (a search by sight)" if e.get("auto_fail") else
                   f"searches (Perception {e.get('perception')}){': finds ' + ', '.join(e['found']) if e.get('found') else ''}"),
    "ready": _did(lambda s, e: f"readies {e['spell'].replace('_', ' ')}, held by concentration" if e.get("spell")
                  else f"readies an attack with {e.get('weapon')}"),
    "readied_action": lambda session, e, n, r: (f"{n('who')} releases its readied {e['spell'].replace('_', ' ')} at "
                                                f"{n('target')}{r}" if e.get("spell") else
                                                f"{n('who')} takes its readied attack on {n('target')}{r}"),
    "use": _did(lambda s, e: f"uses {e.get('object')}"),
    "help": _did(lambda s, e: f"helps {_name(s, e.get('ally'))} with a task (its next check)" if e.get("task") else
                 f"helps {_name(s, e.get('ally'))} against {_name(s, e.get('target'))}"),
    "mount": _did(lambda s, e: f"mounts {_name(s, e.get('mount'))}"),
}
