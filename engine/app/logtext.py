"""The window's event log as text (pure Python: the window only colours and wraps these lines).

Each event becomes one line through the ruleset's own describer (``engine.rules.runner.describe``, the lines
``aerie run`` prints), an action as "> Ines: move (to [8, 5, 0], declined Brigand)" with its parameters in words,
and character ids replaced by the names a table uses. Tests read the same lines the window draws, so a ruleset's
log is checked for ``None``, raw JSON or another ruleset's words exactly as the table sees it.

Each line is ``(text, kind)`` or ``(text, kind, "gm")`` for a line only the GM's screen shows -- a GM action's and
every line that follows from it, up to the next action ("Brann drops to 0 HP" after ``;hp Brann 0``); ``kind`` is one of
``"dim"``, ``"action"``, ``"accent"``, ``"bad"``, ``"fg"`` (the window's colours).
"""

from __future__ import annotations

import re

from engine.app.tokens import short_name
from engine.rules.preview_text import fmt


def namer(actors, gone: dict | None = None):
    """A function replacing character ids (and full names) in a line by their short names. ``gone``: {id: full
    name} of characters no longer on the table, so a line about them reads as it did (the log never changes in
    retrospect)."""
    table = {}
    for k, full in (gone or {}).items():
        table[k] = full.split(" (")[0].strip() or k
        if full != table[k]:
            table[full] = table[k]
    for k, a in actors.items():
        table[k] = short_name(a)
        if a.name and a.name != table[k]:
            table[a.name] = table[k]          # "Kestrel (harpy, low)" -> "Kestrel"
        for w in (a.data or {}).get("weapons", ()) if isinstance(a.data, dict) else ():
            wid = w.get("name") if isinstance(w, dict) else None
            if isinstance(wid, str) and "_" in wid:
                table.setdefault(wid, wid.replace("_", " "))     # a weapon's id in words: "light crossbow"
    if not table:
        return lambda text: text
    keys = sorted(table, key=len, reverse=True)
    pat = re.compile(r"(?<![\w])(" + "|".join(re.escape(k) for k in keys) + r")(?![\w])")
    return lambda text: pat.sub(lambda m: table[m.group(1)], text)


def words(v) -> str:
    """A parameter's value in words: yes / no, lists joined, tables as "key value" (never Python's repr)."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "nothing"
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, (list, tuple)):
        if v and all(isinstance(i, (int, float)) and not isinstance(i, bool) for i in v):
            return "[" + ", ".join(words(i) for i in v) + "]"        # a position or several die results
        return ", ".join(words(i) for i in v) if v else "none"
    if isinstance(v, dict):
        return ", ".join(f"{k} {words(x)}" for k, x in v.items())
    return str(v)


def act_words(actors, a: dict) -> str:
    """An action in a few words for the message line ("GM: remove Talon", "Vess: attack Brann"), never its ids
    ("gm gm_remove")."""
    def nm(cid):
        x = actors.get(cid) if isinstance(cid, str) else None
        return short_name(x) if x is not None else str(cid)

    who = "GM" if a.get("actor") == "gm" else nm(a.get("actor"))
    what = str(a.get("action", "")).removeprefix("gm_").replace("_", " ")
    tgt = a.get("target")
    return f"{who}: {what}" + (f" {nm(tgt)}" if isinstance(tgt, str) else "")


def action_line(a: dict, name) -> str:
    params = ", ".join(f"{k} {words(v)}" for k, v in a.items() if k not in ("actor", "action", "rolls"))
    rolls = a.get("rolls")
    who = "GM" if a.get("actor") == "gm" else name(a.get("actor"))
    return (f"> {who}: {str(a.get('action')).replace('_', ' ')}" + (f" ({params})" if params else "")
            + (f", dice by hand: {words(rolls)}" if rolls else ""))


def gone_names(session) -> dict:
    """{id: name} of every character that was on the table and is not now (the GM removed it): the scene's and
    those the GM added (their ``gm`` add event names them)."""
    acts = session.state.actors
    out = {c.id: c.name for c in session.scene.characters if c.id not in acts}
    for e in session.events:
        if e.get("type") == "gm" and e.get("who") not in acts and isinstance(e.get("name"), str):
            out[e["who"]] = e["name"]
    return out


def log_entries(session) -> list[tuple]:
    """Every event of ``session`` as the window's log shows it (see the module's text)."""
    acts = session.state.actors
    gone = gone_names(session)
    named = namer(acts, gone)

    def name(cid):
        a = acts.get(cid) if isinstance(cid, str) else None
        if a is None and cid in gone:
            return gone[cid].split(" (")[0]
        return short_name(a) if a is not None else str(cid)

    out: list[tuple] = []
    gm = False                     # in a GM action's events: its lines and what follows from it are the GM's
    for e in session.events:
        t = e.get("type")
        n0 = len(out)
        if t == "action" and isinstance(e.get("action"), dict):
            gm = e["action"].get("actor") == "gm"
        _line(session, e, t, named, name, out)
        if gm:
            out[n0:] = [(ln[0], ln[1], "gm") for ln in out[n0:]]
    return out


def _line(session, e: dict, t, named, name, out: list) -> None:
    from engine.rules.runner import describe

    if t == "session":
        out.append((f"{e.get('scene')}: seed {e.get('seed')}, {e.get('ruleset')}", "dim"))
        return
    if t == "action" and isinstance(e.get("action"), dict):
        a = e["action"]
        if a.get("actor") == "gm" and str(a.get("action", "")).startswith("gm_"):
            return            # the GM's event line that follows says it in words
        out.append((named(action_line(a, name)), "action"))
        return
    if t in ("gm", "table_roll") and isinstance(e.get("text"), str):
        out.append((named(e["text"]), "accent", "gm") if t == "gm" else (named(e["text"]), "accent"))
        return
    line: str | None
    if t == "roll":
        line = event_line(e)
        if e.get("who") == "gm":
            line = "GM" + line[2:]
        kind = "dim"
    else:
        try:
            line = describe(session, e)
        except Exception:   # noqa: BLE001 - an event the runner's describer does not know
            line = event_line(e)
        if line is None:
            return
        line = line.strip()
        kind = "accent" if t in ("round", "turn") else ("bad" if t in ("damage", "fall", "condition") else "fg")
        if t == "condition" and e.get("added") is False:
            kind = "fg"           # a condition gone ("no longer unconscious") is no harm: not in red
    out.append((named(line), kind))


def event_line(ev: dict) -> str:
    """One event as one log line, every roll with its die and rule ID."""
    t = ev.get("type", "?")
    rule = ev.get("rule") or ev.get("rules")
    rule_s = ""
    if rule:
        rule_s = " [" + (", ".join(rule) if isinstance(rule, (list, tuple)) else str(rule)) + "]"
    if t == "roll":
        who = ev.get("who", "")
        forced = " (by hand)" if ev.get("forced") else ""
        purpose = f" {ev['purpose']}" if ev.get("purpose") else ""
        return f"{who + ': ' if who else ''}{ev.get('name')} {ev.get('die')} = {ev.get('result')}{forced}{purpose}{rule_s}"
    if "text" in ev and isinstance(ev["text"], str):
        return ev["text"] + rule_s
    if "message" in ev and isinstance(ev["message"], str):
        return ev["message"] + rule_s
    who = ev.get("actor") or ev.get("who") or ev.get("id") or ""
    skip = {"type", "rule", "rules", "actor", "who", "id", "path"}
    rest = " ".join(f"{k}={fmt(v)}" for k, v in ev.items() if k not in skip and not isinstance(v, (dict, list)) or
                    (k not in skip and isinstance(v, list) and len(v) <= 4))
    return f"{who + ': ' if who else ''}{t.replace('_', ' ')} {rest}".rstrip() + rule_s
