"""`aerie run SCENE [--seed N] [--actions FILE] [--json] [--log FILE]`: play a scene's script, check expectations.

Exit status: 0 when every step was legal and every expectation held; 1 when a step was illegal (unless the step
says ``illegal = "RULE-ID"``, in which case it must be refused with that rule) or an expectation failed; 2 for
a bad scene or actions file (one line naming the file and key path). With ``--actions FILE`` the file's
``[[script]]`` replaces the scene's and only the file's ``[[expect]]`` tables are checked.
"""

from __future__ import annotations


import json
import tomllib
from pathlib import Path
from typing import Any

from engine.errors import AerieError
from engine.rules.core import BadAction, Illegal
from engine.rules.lines import say, sources_text  # noqa: F401  (sources_text: re-exported)

from engine.rules.session import Session
from engine.rules.options import closest
from engine.inputs import ACTIONS_MAX_BYTES, read_text
from engine.rules.validate import aerie_error, json_safe

EXPECT_KEYS = {"after", "character", "layer", "x", "y", "position", "hp", "max_hp", "temp_hp", "conditions",
               "has_conditions", "lacks_conditions", "flying", "dead", "stable", "current", "round", "over",
               "winner", "events", "no_events", "event", "no_event", "comment", "note"}


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _strs(v) -> bool:
    return isinstance(v, list) and all(isinstance(i, str) for i in v)


def _tables(v) -> bool:
    return isinstance(v, dict) or (isinstance(v, list) and all(isinstance(i, dict) for i in v))


# key: (test, what it must be)
EXPECT_TYPES = {
    "after": (lambda v: _is_int(v) and v >= 0, "the number of script steps played (an integer >= 0)"),
    "character": (lambda v: isinstance(v, str), "a character id"),
    "layer": (_is_int, "an integer"), "x": (_is_int, "an integer"), "y": (_is_int, "an integer"),
    "position": (lambda v: isinstance(v, list) and len(v) == 3 and all(_is_int(i) for i in v), "[x, y, layer]"),
    "hp": (_is_int, "an integer"), "max_hp": (_is_int, "an integer"), "temp_hp": (_is_int, "an integer"),
    "conditions": (_strs, "a list of condition names"), "has_conditions": (_strs, "a list of condition names"),
    "lacks_conditions": (_strs, "a list of condition names"),
    "flying": (lambda v: isinstance(v, bool), "true or false"), "dead": (lambda v: isinstance(v, bool), "true or false"),
    "stable": (lambda v: isinstance(v, bool), "true or false"), "over": (lambda v: isinstance(v, bool), "true or false"),
    "current": (lambda v: isinstance(v, str), "a character id"), "round": (_is_int, "an integer"),
    "winner": (lambda v: isinstance(v, str), "a side"),
    "events": (_strs, "a list of event types"), "no_events": (_strs, "a list of event types"),
    "event": (_tables, "a table of event fields (or a list of them), e.g. { type = \"fall\", layers = 3 }"),
    "no_event": (_tables, "a table of event fields (or a list of them)"),
    "comment": (lambda v: True, ""), "note": (lambda v: True, ""),
}
CHARACTER_KEYS = {"layer", "x", "y", "position", "hp", "max_hp", "temp_hp", "flying", "dead", "stable",
                  "conditions", "has_conditions", "lacks_conditions"}


def validate_expectations(expects, error, base: str = "expect") -> list:
    """Every ``[[expect]]`` table typed before anything is played; ``error(path, problem)`` builds the error."""

    if not isinstance(expects, list):
        raise error(base, "must be a list of tables ([[expect]])")
    for k, e in enumerate(expects):
        where = f"{base}[{k}]"
        if not isinstance(e, dict):
            raise error(where, "must be a table")
        for key in e:
            if key not in EXPECT_TYPES:
                raise error(f"{where}.{key}", f"unknown key{closest(str(key), EXPECT_TYPES)}")
        if "after" not in e:
            raise error(f"{where}.after", "required: the number of script steps played")
        for key, v in e.items():
            test, what = EXPECT_TYPES[key]
            if not test(v):
                raise error(f"{where}.{key}", f"must be {what}, got {v!r}")
        if "character" not in e:
            need = sorted(set(e) & CHARACTER_KEYS)
            if need:
                raise error(f"{where}.{need[0]}", "needs character = ID")
    return expects


def late_expectation(expects, steps: int) -> tuple[str, str] | None:
    """(key path, problem) of the first ``[[expect]]`` whose ``after`` is past the script's last step, else None.
    Such a table would never be checked: the run passed as if it held. It is bad input (exit 2), as a misspelt
    key is; ``after = N`` with N the number of steps checks the state the script ends in."""
    for k, e in enumerate(expects if isinstance(expects, list) else []):
        after = e.get("after") if isinstance(e, dict) else None
        if isinstance(after, int) and not isinstance(after, bool) and after > steps:
            return (f"expect[{k}].after", f"{after} is past the script's last step (it has {steps} step(s)): it "
                                          f"would never be checked (after = {steps} checks the state it ends in)")
    return None


def event_matches(ev: dict, want: dict) -> bool:
    """``want`` is a subset of ``ev``; a list in ``want`` must be contained in the event's list."""
    for k, v in want.items():
        if k not in ev:
            return False
        got = ev[k]
        if isinstance(v, list) and isinstance(got, list) and not (v and isinstance(v[0], int)):
            if not all(x in got for x in v):
                return False
        elif got != v:
            return False
    return True


def _parse(path, text: str, fmt: str, syntax_error: type[Exception], loads):
    """``loads(text)``, its errors as one line naming the file: a syntax error, or a document nested too deep."""
    try:
        return loads(text)
    except syntax_error as e:
        raise AerieError(f"{path}: {fmt} syntax error: {e}") from None
    except (RecursionError, ValueError) as e:
        raise AerieError(f"{path}: {fmt} cannot be read: {'nested too deep' if isinstance(e, RecursionError) else e}") from None


def load_actions(path: str) -> tuple[list, list]:
    """An actions file: ``.toml`` with ``[[script]]`` and ``[[expect]]`` tables, ``.json`` (a list of actions or
    ``{"script": [...], "expect": [...]}``) or ``.jsonl`` (one action a line). Everything is checked here: a step
    must be a table, values JSON-safe, expectations typed; errors name the file and the key. ``actions`` is another
    name of ``script`` (``aerie replay`` read it so)."""

    p = Path(path)
    text = read_text(p, ACTIONS_MAX_BYTES, str(path))
    err = aerie_error(str(path))
    if p.suffix in (".json", ".jsonl"):
        if p.suffix == ".jsonl":
            items = _parse(path, text, "JSON", json.JSONDecodeError,
                           lambda t: [json.loads(line) for line in t.splitlines() if line.strip()])
        else:
            items = _parse(path, text, "JSON", json.JSONDecodeError, json.loads)
        if isinstance(items, dict):
            unknown = set(items) - {"script", "expect", "actions"}
            if unknown:
                raise AerieError(f"{path}: {sorted(unknown)[0]}: unknown key (an actions file holds script and expect)")
            data = items
        elif isinstance(items, list):
            data = {"script": items}
        else:
            raise AerieError(f"{path}: expected a list of actions or {{\"script\": [...], \"expect\": [...]}}")
    else:
        data = _parse(path, text, "TOML", tomllib.TOMLDecodeError, tomllib.loads)
        unknown = set(data) - {"script", "expect", "actions"}
        if unknown:
            raise AerieError(f"{path}: {sorted(unknown)[0]}: unknown key (an actions file holds [[script]] and [[expect]] tables)")
    if "actions" in data:
        if "script" in data:
            raise err("actions", "another name of script: give one of them")
        data = {("script" if k == "actions" else k): v for k, v in data.items()}
    data = json_safe(data, "", err)
    script, expects = data.get("script", []), data.get("expect", [])
    if not isinstance(script, list):
        raise err("script", "must be a list of actions")
    for i, a in enumerate(script):
        if not isinstance(a, dict):
            raise err(f"script[{i}]", "a step is a table with actor and action")
    validate_expectations(expects, err, "expect")
    late = late_expectation(expects, len(script))
    if late:
        raise err(*late)
    return script, expects


def check_expectations(session: Session, expects: list, after: int, step_events: list, where: str) -> list[str]:
    fails = []
    st = session.state
    for k, e in enumerate(expects):
        if not isinstance(e, dict):
            raise AerieError(f"{where}: expect[{k}]: must be a table")
        unknown = set(e) - EXPECT_KEYS
        if unknown:
            raise AerieError(f"{where}: expect[{k}].{min(unknown)}: unknown key; known: {', '.join(sorted(EXPECT_KEYS))}")
        if "after" not in e or not isinstance(e["after"], int):
            raise AerieError(f"{where}: expect[{k}].after: required: the number of script steps played")
        if e["after"] != after:
            continue
        tag = f"expect[{k}] (after step {after})"
        a = None
        if "character" in e:
            a = st.actors.get(e["character"])
            if a is None:
                raise AerieError(f"{where}: expect[{k}].character: no character {e['character']!r}")
        def cmp(name, got, want, tag=tag, e=e):
            if got != want:
                fails.append(f"{tag}: {e.get('character', 'state')}: {name} is {got!r}, expected {want!r}")
        for f in ("layer", "x", "y", "position", "hp", "max_hp", "temp_hp", "flying", "dead", "stable",
                  "conditions", "has_conditions", "lacks_conditions"):
            if f not in e:
                continue
            if a is None:
                raise AerieError(f"{where}: expect[{k}].{f}: needs character = ID")
            got = {"layer": a.layer, "x": a.x, "y": a.y, "position": [a.x, a.y, a.layer], "hp": a.hp,
                   "max_hp": a.max_hp, "temp_hp": a.temp_hp, "flying": a.flying, "dead": a.dead,
                   "stable": bool(a.data.get("stable")), "conditions": sorted(a.conditions)}.get(f)
            if f == "conditions":
                cmp(f, got, sorted(x.lower() for x in e[f]))
            elif f == "has_conditions":
                missing = [c for c in e[f] if c.lower() not in a.conditions]
                if missing:
                    fails.append(f"{tag}: {a.id}: lacks {missing}; has {sorted(a.conditions)}")
            elif f == "lacks_conditions":
                extra = [c for c in e[f] if c.lower() in a.conditions]
                if extra:
                    fails.append(f"{tag}: {a.id}: has {extra}, expected not")
            else:
                cmp(f, got, e[f])
        if "current" in e:
            cmp("current", st.current, e["current"])
        if "round" in e:
            cmp("round", st.round, e["round"])
        if "over" in e:
            cmp("over", st.over, e["over"])
        if "winner" in e:
            cmp("winner", st.winner, e["winner"])
        types = [ev.get("type") for ev in step_events]
        for t in e.get("events", []):
            if t not in types:
                fails.append(f"{tag}: no {t!r} event in step {after} (events: {', '.join(dict.fromkeys(types))})")
        for key, neg in (("event", False), ("no_event", True)):
            if key in e:
                wants = e[key] if isinstance(e[key], list) else [e[key]]
                for w in wants:
                    if not isinstance(w, dict):
                        raise AerieError(f"{where}: expect[{k}].{key}: a table of event fields, e.g. {{ type = \"fall\", layers = 3 }}")
                    hit = any(event_matches(ev, w) for ev in step_events)
                    if hit == neg:
                        fails.append(f"{tag}: {'unexpected' if neg else 'no'} event matching {json.dumps(w, sort_keys=True)} in step {after}")
        for t in e.get("no_events", []):
            if t in types:
                fails.append(f"{tag}: unexpected {t!r} event in step {after}")
    return fails


class BadStep(str):
    """A problem that is a refused or malformed step (bad input: ``aerie run`` exits 2), not a failed expectation."""


def play(scene, seed=None, script=None, expects=None, on_events=None, source="script", options=None, session=None):
    """Play a script; returns (session, problems). Problems are readable lines naming the step and rule. A step
    marked ``illegal`` (true, or the rule ID that refuses it) must be refused, and then changes nothing. It plays
    on a new session of ``scene`` with ``seed`` and ``options``, or on ``session`` as it stands (a simulated
    fight's, with that fight's dice)."""
    session = Session(scene, seed, options) if session is None else session
    script = scene.spec.script if script is None else script
    expects = scene.spec.expect if expects is None else expects
    problems: list = []
    late = late_expectation(expects, len(script)) if isinstance(script, list) else None
    if late:                  # never checked otherwise: bad input, before a step is played (the loaders say it first)
        return session, [BadStep(f"{late[0]}: {late[1]}")]
    if on_events:
        on_events(session, session.start_events)
    problems += check_expectations(session, expects, 0, session.start_events, scene.path)
    for i, raw in enumerate(script):
        where = f"{source}[{i}]"
        if not isinstance(raw, dict):
            problems.append(BadStep(f"{where}: a step is a table with actor and action"))
            break
        step = dict(raw)
        want_illegal = step.pop("illegal", None)
        try:
            evs = session.step(step).log
        except Illegal as e:
            if want_illegal is not None and (want_illegal is True or want_illegal == e.rule):
                ev = {"type": "illegal", "step": i, "reason": e.reason, "rule": e.rule, "expected": True}
                if on_events:
                    on_events(session, [ev])
                problems += check_expectations(session, expects, i + 1, [ev], scene.path)
                continue
            who = step.get("actor", "?")
            what = step.get("action", "?")
            loc = f"{where}.{e.path}" if e.path else where
            kind = "malformed" if isinstance(e, BadAction) else "illegal"
            problems.append(BadStep(f"{loc} ({who} {what}): {kind}: {e.reason}" + (f" ({e.rule})" if e.rule else "")))
            if on_events:
                on_events(session, [{"type": "illegal", "step": i, "reason": e.reason, "rule": e.rule, "path": loc}])
            break
        if want_illegal is not None:
            problems.append(f"{where} ({step.get('actor')} {step.get('action')}): expected to be refused ({want_illegal}) but it was legal")
            break
        if on_events:
            on_events(session, evs)
        problems += check_expectations(session, expects, i + 1, evs, scene.path)
    return session, problems


# ---------------------------------------------------------------------------------------------------------
def describe(session, e: dict) -> str | None:
    """One readable line per event (None: nothing to say). Never fails: an event a ruleset shaped differently
    falls back to its type and fields."""
    try:
        return _describe(session, e)
    except (KeyError, TypeError, ValueError, AttributeError):
        return _generic(session, e)


def _generic(session, e: dict) -> str:
    t = str(e.get("type", "event"))
    r = f" [{e['rule']}]" if e.get("rule") else ""
    rest = {k: v for k, v in e.items() if k not in ("type", "who", "rule")}
    who = f"{_n(session, e.get('who'))} " if "who" in e else ""
    return f"{who}{t.replace('_', ' ')}" + (f": {json.dumps(rest, sort_keys=True)}" if rest else "") + r


def _n(session, aid):
    a = session.state.actors.get(aid)
    return a.name if a else str(aid)


def rule_suffix(e: dict) -> str:
    return f" [{e['rule']}]" if e.get("rule") else ""


def _roll(session, e, n, r):
    return f"    rolls {e['die']} for {e['name']}: {e['result']}{' (forced)' if e['forced'] else ''}"


def _round(session, e, n, r):
    return f"== round {e['round']} ==" + (f" order: {', '.join(_n(session, i) for i in e['order'])}" if "order" in e else "")


def _move(session, e, n, r):
    bits = [f"{e['cost_m']:g} m"]
    if e["takeoffs"]:
        bits.append("takes off (AIR-06)")
    if e["layers_up"]:
        bits.append(f"climbs {e['layers_up']} (AIR-07)")
    if e["layers_down"]:
        bits.append(f"descends {e['layers_down']} (AIR-07)")
    return f"{n('who')} moves {e['from']} -> {e['to']}: {', '.join(bits)}; {max(e['left_m'], 0):g} m left{', aloft' if e['flying'] else ''}"


def _attack(session, e, n, r):
    adv = f"; advantage: {', '.join(e['advantage'])}" if e["advantage"] else ""
    dis = f"; disadvantage: {', '.join(e['disadvantage'])}" if e["disadvantage"] else ""
    cov = f" + {e['cover']} cover {e['cover_bonus']}" if e["cover_bonus"] else ""
    res = "CRITICAL HIT" if e["critical"] else ("hits" if e["hit"] else "misses")
    against = (f"difficulty {e['difficulty']}" + (f" ({e['defence']})" if e.get("defence") else "")
               if "difficulty" in e else f"AC {e['ac']}")
    adv = adv.replace("advantage", "positive chance") if "difficulty" in e else adv
    dis = dis.replace("disadvantage", "negative chance") if "difficulty" in e else dis
    return (f"{n('who')} attacks {n('target')} with {e['weapon']}: {e['roll']} + {e['bonus']}{sources_text(e)} = "
            f"{e['total']} vs {against}{cov}: {res}{adv}{dis} [{', '.join(e['rules'])}]")


def _fall(session, e, n, r):
    aside = f", beside {n('beside')} at {e['at']}" if e.get("beside") else ""    # someone was where it fell
    if e.get("percent") is None:     # the ruleset's own fall rule (``Ruleset.fall_damage``)
        return (f"{n('who')} falls {e['layers']} layer(s) to layer {e['to']} ({e['cause']}{aside}): "
                f"{e['damage']} damage [{e['rule']}, {e.get('damage_rule')}]")
    return (f"{n('who')} falls {e['layers']} layer(s) to layer {e['to']} ({e['cause']}{aside}): {e['percent']}% of max HP = "
            f"{e['damage']} damage [{e['rule']}, AIR-12]")


def _simple(verb):
    return lambda session, e, n, r: f"{n('who')} {verb(e) if callable(verb) else verb}{r}"


#: the readable line of the events every ruleset shares: ``type -> fn(session, event, name_of, rule_suffix)``.
#: A ruleset adds (or overrides) its own with ``Ruleset.EVENT_LINES``; ``None`` says nothing.
GENERIC_LINES = {
    "roll": _roll,
    "round": _round,
    "turn": say("-- {@who}'s turn"),
    "turn_skipped": say("-- {reason}: turn passes{r}"),
    "move": _move,
    "attack": _attack,
    "damage": say("{@who} takes {amount} {damage_type} damage{r}"),
    "hp": say("    {@who}: {hp}/{max_hp} HP"),
    "fall_roll": say("{@who} fall roll {result}: {outcome}{r}"),
    "fall": _fall,
    "descend": say("{@who} drops {layers} layer(s) to layer {to}, still aloft, no damage [AIR-11, AIR-12]"),
    "upkeep": say("{@who} spends its {spent} to stay aloft{r}"),
    "flight_lost": say("{@who} can no longer fly: {reason}{r}"),
    "condition": lambda session, e, n, r: f"{n('who')} {'is now' if e['added'] else 'is no longer'} {e['condition']}{r}",
    "illegal": lambda session, e, n, r: f"!! step {e['step']}: refused{' as expected' if e.get('expected') else ''}: {e['reason']} ({e['rule']})",
    "end_turn": None,
    "action": None,
    "session": None,
    "death": say("{@who} DIES: {reason}{r}"),
    "opportunity_attack": say("{@who} makes an opportunity attack on {@target} as it leaves its reach{r}"),
    "dash": _simple("dashes"),
    "disengage": _simple("disengages"),
    "dodge": _simple("dodges"),
    "stand": _simple("stands up"),
    "dismount": _simple(lambda e: f"dismounts to {e.get('to')}"),
    # the GM's table (engine/rules/gm.py): its events carry their own words
    "gm": lambda session, e, n, r: f"{e['text']}{r}",
    "table_roll": lambda session, e, n, r: f"{e['text']}{r}",
    "combat_over": lambda session, e, n, r: f"== the fight is over: {e.get('winner') or 'nobody'} wins ==",
    # objects and breakable terrain (engine/rules/objects.py)
    "object_damage": lambda session, e, n, r: (
        f"    {e['target']} ({e['material']}) takes {e['dealt']}"
        + (f" ({e['amount']} {e['damage_type']}, {e['applied']})" if e.get("applied") else f" {e['damage_type']}")
        + (f" (below its damage threshold {e['below_threshold']}: nothing)" if e.get("below_threshold") else "")
        + f": {e['hp']}/{e['max_hp']} HP{r}"),
    "object_destroyed": lambda session, e, n, r: (
        f"{e['target']} is DESTROYED ({e['cause']}): voxels {' '.join(f'{a}..{b}' for a, b in e['voxels'])} are gone{r}"),
    "lock_opened": lambda session, e, n, r: f"{e['target']}'s lock is open ({e['how']})" + (", it swings open" if e["opens"] else "") + r,
}


def _describe(session, e: dict) -> str | None:
    t: Any = e.get("type")
    own = getattr(session.ruleset, "EVENT_LINES", {})
    units = getattr(getattr(session.ruleset, "ACTIONS", None), "lines", None)      # the actions' own (Unit.LINES)
    unit = units() if units is not None else {}
    fn = unit[t] if t in unit else own[t] if t in own else GENERIC_LINES.get(t, own.get("*", _generic_line))  # "*": fallback
    if fn is None:
        return None
    return fn(session, e, lambda k: _n(session, e.get(k)), rule_suffix(e))


def _generic_line(session, e, n, r):
    return _generic(session, e)


def state_json(session) -> dict:
    return session.state.to_dict()
