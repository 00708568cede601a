"""What one side's page is sent: the side's view of the table as plain JSON-able data, built from the one filter of
the player view (:func:`engine.app.viewstate.player_filter`, the same true-3D sight lines as F3) -- never the GM's.

Everything a page gets is made here, by whitelist: the characters the side sees (its own with their numbers, the
others with a health word), the turn order's visible rows, the log's lines the filter lets through (with other
characters' exact hit points and every armour class taken out), the legal actions of the side's character whose
turn it is (ids only of what the side sees; an attack's preview reduced to cover, distance and chance to hit), and a
question the rules ask that side. Pure Python over the controller: no aiohttp, no window.
"""

from __future__ import annotations

import re

from engine.app.logtext import log_entries
from engine.app.tokens import short_name
from engine.app.viewstate import PlayerFilter, player_filter

LOG_LINES = 60            # the newest lines of the side's log each update carries
MAX_MOVES = 4000          # a flyer's destinations: at most this many cells are listed
# the numbers of an attack's / a move's preview a player may see (not the target's AC)
ATTACK_KEYS = ("cover", "distance_m", "hit_chance", "advantage", "disadvantage", "height", "to_hit_bonus")
MOVE_KEYS = ("cost_m", "left_after_m", "horizontal_m", "climb_m", "ends_aloft", "falls_at_end_of_turn",
             "bonus_action_needed", "lands")
_HP = re.compile(r"(\d+)\s*/\s*(\d+) HP")
_AC = re.compile(r"\bAC \d+(?: \+ [a-z-]+ cover \d+)?")


def side_filter(ctl, side: str, cache: dict, reveal_hp: bool = False, hidden: frozenset = frozenset()) -> PlayerFilter:
    """The one filter of what ``side`` may see (engine.app.viewstate.player_filter), for the controller's state."""
    return player_filter(ctl.session, side, ctl.state_version, cache, reveal_hp, hidden)


def sides_of(session) -> list[str]:
    return list(dict.fromkeys(a.side for a in session.state.actors.values()))


def _token(session, a, pf: PlayerFilter, cur) -> dict:
    w = session.world
    t = {"id": a.id, "name": short_name(a), "side": a.side, "own": a.side == pf.side,
         "pos": [int(a.x), int(a.y), int(a.layer)], "floor": int(w.support_layer(int(a.x), int(a.y), int(a.layer) + 1)),
         "flying": bool(a.flying), "dead": bool(a.dead), "current": a.id == cur,
         "height": int(getattr(a, "height_layers", 2) or 2), "footprint": int(getattr(a, "footprint", 1) or 1),
         "kind": str(getattr(a, "kind", "") or ""), "conditions": sorted(str(c) for c in a.conditions)}
    word = pf.health(a)
    if word is None:
        t.update(hp=int(a.hp), max_hp=int(a.max_hp), temp_hp=int(getattr(a, "temp_hp", 0) or 0))
    else:
        t["health"] = word
    return t


def scrub(line: str, own_names: list[str]) -> str:
    """A log line as a player reads it: another side's exact hit points and every armour class taken out."""
    line = _AC.sub("AC ?", line)
    if _HP.search(line) and not any(line.strip().startswith(n + ":") for n in own_names):
        line = _HP.sub("? HP", line)
    return line


def log_lines(session, pf: PlayerFilter, entries: list | None = None) -> list[str]:
    """The side's log: the window's lines (``entries``: engine.app.logtext.log_entries, made once for every side)
    through the side's filter, scrubbed."""
    own = [short_name(a) for a in session.state.actors.values() if a.side == pf.side]
    head = str(session.scene.path)          # the session's first line names the GM's file: not the players' business
    entries = log_entries(session) if entries is None else entries
    return [scrub(e[0], own) for e in entries if pf.log_ok(e) and not e[0].startswith(head)][-LOG_LINES:]


def _id_params(ctl) -> dict:
    """{action name: {param names of kind "id"}} from the ruleset's action specs."""
    return {name: {k for k, p in spec.items() if getattr(p, "kind", None) == "id"}
            for name, spec in ctl.specs().items()}


def names_only_seen(ctl, act: dict, pf: PlayerFilter) -> bool:
    """Every character or object an action names is one the side sees (objects are part of the map)."""
    ids = _id_params(ctl).get(str(act.get("action")), set())
    st = ctl.session.state
    if any(v in st.actors and not pf.shows(v) for v in _strings(act)):
        return False                   # whatever the parameter's kind or depth: a hidden character named
    for k in ids | {"actor"}:
        v = act.get(k)
        if v is None:
            continue
        if v in st.actors:
            if not pf.shows(v):
                return False
        elif k == "actor" or v not in st.objects:
            return False
    return True


def _strings(v):
    """Every string in a value (a dict's keys and values, a list's items, at any depth)."""
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield from _strings(k)
            yield from _strings(x)
    elif isinstance(v, (list, tuple)):
        for x in v:
            yield from _strings(x)


def preview_numbers(ctl, act: dict) -> dict:
    """The preview's numbers a player may see (ATTACK_KEYS / MOVE_KEYS), or {"illegal": reason}."""
    pv = ctl.preview_of(act)
    p = pv.get("preview") or {}
    keys = ATTACK_KEYS if act.get("action") == "attack" else MOVE_KEYS
    out = {k: p[k] for k in keys if k in p and isinstance(p[k], (int, float, str, bool, list))}
    if not pv.get("ok"):
        out["illegal"] = str(pv.get("rule") or "not possible now")
    return out


def legal_for(ctl, pf: PlayerFilter, cur: str) -> dict:
    """The legal actions of the side's character whose turn it is: moves as cells, the others as whole actions
    (only those naming what the side sees), attacks with their preview numbers."""
    try:
        acts = list(ctl.session.legal_actions(cur))
    except Exception:   # noqa: BLE001 - no list rather than a broken page
        acts = []
    moves: list[list[int]] = []
    others: list[dict] = []
    for a in acts:
        if a.get("action") == "move" and set(a) <= {"actor", "action", "to"}:
            if len(moves) < MAX_MOVES:
                moves.append([int(v) for v in a["to"]])
            continue
        if not names_only_seen(ctl, a, pf):
            continue
        row = {"action": {k: v for k, v in a.items() if k != "rolls"}, "label": action_label(ctl, a)}
        if a.get("action") == "attack":
            row["preview"] = preview_numbers(ctl, a)
        others.append(row)
    return {"actor": cur, "moves": moves, "actions": others}


def action_label(ctl, a: dict) -> str:
    """A legal action in the player's words: "attack Brann", "end turn (stay aloft: no)" -- never a raw key or value
    ("end turn stay_aloft False")."""
    words = [str(a.get("action")).replace("_", " ")]
    extra = []
    for k, v in a.items():
        if k in ("actor", "action", "rolls"):
            continue
        if k == "target":
            words.append(_label(ctl, v))
        elif isinstance(v, bool):
            extra.append(f"{k.replace('_', ' ')}: {'yes' if v else 'no'}")
        else:
            extra.append(f"{k.replace('_', ' ')} {_label(ctl, v)}")
    return " ".join(words) + (f" ({', '.join(extra)})" if extra else "")


def _label(ctl, v) -> str:
    a = ctl.session.state.actors.get(v) if isinstance(v, str) else None
    return short_name(a) if a is not None else str(v).replace("_", " ")


def question_for(ctl, pf: PlayerFilter) -> dict | None:
    """The rules' open question when a character of this side chooses (its words through the side's filter)."""
    qv = ctl.question_view()
    if qv is None or qv.get("side") != pf.side:
        return None
    texts = [qv.get("label") or "", qv.get("question") or ""]
    opts = []
    for i, o in enumerate(qv.get("options") or []):
        lab, does = str(o.get("label", "")), str(o.get("does", "") or "")
        if not (pf.text_ok(lab) and pf.text_ok(does)):
            lab, does = f"option {i + 1}", ""
        opts.append({"i": i, "label": lab, "does": does, "default": bool(o.get("default"))})
    return {"key": str(qv.get("key")), "label": texts[0] if pf.text_ok(texts[0]) else "your character",
            "question": texts[1] if pf.text_ok(texts[1]) else "", "options": opts}


def side_view(ctl, side: str, cache: dict, reveal_hp: bool = False, hidden: frozenset = frozenset(),
              entries: list | None = None) -> dict:
    """The whole of what ``side``'s page is sent for the controller's present state (``entries``: the log's lines,
    when the caller made them once for every side)."""
    s = ctl.session
    pf = side_filter(ctl, side, cache, reveal_hp, hidden)
    cur = s.current
    acts = s.state.actors
    tokens = [_token(s, a, pf, cur) for a in acts.values() if pf.shows(a.id)]
    order = [{"id": c, "name": short_name(acts[c]), "own": acts[c].side == side}
             for c in s.state.order if c in acts and pf.shows(c)]
    mine = cur is not None and cur in acts and acts[cur].side == side
    turn = {"current": cur if cur is not None and pf.shows(cur) else None, "mine": mine,
            "round": int(getattr(s.state, "round", 0) or 0)}
    q = question_for(ctl, pf)
    X, Y, Z = s.world.size
    return {"side": side, "tokens": tokens, "order": order, "turn": turn,
            "legal": legal_for(ctl, pf, cur) if mine and ctl.question is None else None,
            "question": q, "log": log_lines(s, pf, entries), "steps": len(s.actions),
            "map": {"size": [int(X), int(Y), int(Z)], "cell_m": float(s.world.cell_m), "layer_m": 1.0},
            "over": bool(getattr(s.state, "over", False))}
