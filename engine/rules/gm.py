"""The game master's table actions, for any ruleset: what the table decided, recorded in the event log.

Each is an ordinary action with ``actor = "gm"`` and an action name starting with ``gm_``; :class:`Session` sends
them here instead of to the ruleset (``Session.check`` / ``step`` / ``preview``, one ``if`` each). So they are
checked completely before anything changes (a refusal is one :class:`Illegal` naming the key), replayed from a save
or a log, and undone like any other action (the window rebuilds the session from scene + seed + actions).

=============== ======================================================================= =================================
action          parameters                                                              does
=============== ======================================================================= =================================
``gm_set``      ``target``, ``key`` (``hp``, ``temp_hp`` or a number the ruleset          sets it (0..its maximum)
                publishes in ``Actor.data["public"]``, e.g. ``vigor``, ``protection``),  
                ``value``
``gm_condition`` ``target``, ``add`` and / or ``remove`` (a condition name)             adds / removes it (source "gm")
``gm_place``    ``target``, ``to`` [x, y, layer], optional ``flying``                    puts it there (the body must fit;
                                                                                         in the air only a flyer, flying)
``gm_add``      ``id``, ``like`` (a scene character), ``at``, optional ``name``,         a new creature with the stats of
                ``side``, ``flying``                                                     ``like``, last in the turn order
``gm_remove``   ``target``                                                               takes it off the table
``gm_order``    ``target``, ``after`` or ``before`` (another character)                  moves it in the turn order (delay)
``gm_roll``     ``dice`` ("2d6+3", "d20", "4d6-1d4"), optional ``label``                 rolls for the table, in the log
=============== ======================================================================= =================================

Rules of thumb: a GM action never touches the ruleset's private bookkeeping beyond the generic ``Actor`` fields
(position, flying, hp, temp_hp, conditions) and the published numbers; what a ruleset derives from them (death at
0 HP, a fall) happens when its own rules next look (the GM's word is final for the value itself). The current
character cannot be removed or moved in the turn order (end its turn first): that would need the ruleset's turn
change. Dice for ``gm_roll`` are the session's seeded dice (roll name ``table``; forced with ``rolls = {table =
[..]}`` like any roll).
"""

from __future__ import annotations

import re
from dataclasses import replace

from engine.rules.actions import Param, check_params
from engine.rules.core import BadAction, Illegal
from engine.rules import aerial
from engine.rules.choices import check_reactions
import msgspec
from engine.errors import SceneError
from engine.world.scene import SIZES, supported
from engine.rules.statblocks import block, read_library
import json

P = Param
SPECS = {
    "gm_set": {"target": P("id", True), "key": P("str", True, help="hp, temp_hp or a published number"),
               "value": P("int", True)},
    "gm_condition": {"target": P("id", True), "add": P("str"), "remove": P("str")},
    "gm_place": {"target": P("id", True), "to": P("pos", True), "flying": P("bool")},
    "gm_add": {"id": P("str", True), "like": P("id", help="a scene character whose stats it copies"),
               "block": P("str", help="a stat block of the library (assets/statblocks/RULESET.toml) or of the "
                                      "scene's statblocks files"),
               "srd": P("str", help="an SRD creature's id (young-red-dragon), in a ruleset with a bestiary"),
               "at": P("pos", True), "name": P("str"), "side": P("str"), "flying": P("bool")},
    "gm_remove": {"target": P("id", True)},
    "gm_order": {"target": P("id", True), "after": P("id"), "before": P("id")},
    "gm_roll": {"dice": P("str", True, help='an expression like "2d6+3"'), "label": P("str")},
}
#: ``reactions``: the characters' answers to the reactions a table action sets off (a flyer the GM knocks out falls:
#: a Feather Fall its ally's player is asked for; engine/rules/choices.py)
_META = {"actor", "action", "rolls", "comment", "note", "reactions"}
DICE_RE = re.compile(r"\s*([+-]?)\s*(?:(\d*)d(\d+)|(\d+))\s*")


def handles(action) -> bool:
    """Is this a GM table action (``gm_*``)? Anything else goes to the ruleset."""
    return isinstance(action, dict) and isinstance(action.get("action"), str) and action["action"] in SPECS


def parse_dice(expr: str, path: str = "dice") -> list[tuple[int, int, int]]:
    """``"2d6+3"`` -> [(+1, 2, 6), (+1, 3, 0)]: (sign, count, sides), sides 0 for a constant."""
    if not isinstance(expr, str) or not expr.strip():
        raise BadAction('a dice expression like "2d6+3"', "", path)
    pos, out = 0, list[tuple[int, int, int]]()
    text = expr.strip().lower()
    if re.search(r"\d{7,}", text):     # no count, side or bonus that long (int() of thousands of digits raises)
        raise BadAction(f"{expr[:40]!r}: a number in a dice expression has at most 6 digits", "", path)
    while pos < len(text):
        m = DICE_RE.match(text, pos)
        if not m or m.end() == pos or (out and not m.group(1)):
            raise BadAction(f'cannot read {expr!r} at {text[pos:]!r}: a dice expression like "2d6+3"', "", path)
        sign = -1 if m.group(1) == "-" else 1
        if m.group(3):
            n = int(m.group(2) or 1)
            sides = int(m.group(3))
            if not 1 <= n <= 100 or not 2 <= sides <= 1000:
                raise BadAction(f"{n}d{sides}: 1 to 100 dice of 2 to 1000 sides", "", path)
            out.append((sign, n, sides))
        else:
            out.append((sign, int(m.group(4)), 0))
        pos = m.end()
    if len(out) > 20:
        raise BadAction("at most 20 terms", "", path)
    return out


def check_condition_tool(act, known) -> None:
    """A ruleset's own ``condition`` tool (``add`` / ``remove`` a condition by name): at least one of them, each a
    condition in ``known`` (the names in the order the refusal lists them)."""
    if not act.get("add") and not act.get("remove"):
        raise Illegal("give add = NAME or remove = NAME", "", "add")
    for key in ("add", "remove"):
        c = act.get(key)
        if c and c not in known:
            raise Illegal(f"unknown condition {c!r}; one of {', '.join(known)}", "", key)


def _normalise(session, action) -> dict:
    if action.get("actor") != "gm":
        raise Illegal(f"{action['action']} is a game master's action: use actor = \"gm\"", "", "actor")
    rolls = action.get("rolls", {})
    if not isinstance(rolls, dict) or any(not (isinstance(v, int) or (isinstance(v, list) and all(isinstance(i, int) for i in v)))
                                          for v in rolls.values()):
        raise BadAction("must be a table of roll name = die result(s)", "", "rolls")
    if "reactions" in action:
        check_reactions(session, action["reactions"])
    return check_params(action, SPECS[action["action"]], _META)


def _who(session, aid, key):
    return session.actor(aid, key)


def _name(a) -> str:
    return a.name.split(" (")[0] if a.name else a.id


def _maximum(a, key):
    if key == "hp":
        return a.max_hp
    if key == "temp_hp":
        return None
    d = a.data or {}
    return d.get(f"max_{key}", d.get(f"{key}_max"))


def _fits(session, a, x, y, layer, ignore=()):
    """The body fits at (x, y, layer): inside the map, no solid voxel, no other body there."""

    if not aerial.body_fits(session, a, x, y, layer):
        return False, "the body does not fit there (terrain or the map's edge)"
    for o in session.state.actors.values():
        if o.id == a.id or o.id in ignore or o.dead:
            continue
        if (x < o.x + o.footprint and o.x < x + a.footprint and y < o.y + o.footprint and o.y < y + a.footprint
                and layer < o.layer + o.height_layers and o.layer < layer + a.height_layers):
            return False, f"{_name(o)} is there"
    return True, ""


class _With:
    """A read-only view of an object with some attributes replaced (a scene with one more character, for the
    ruleset's ``make_actor``, which locates a character in its scene for its error messages)."""

    def __init__(self, base, **over):
        self.__dict__.update(over)
        self._base = base

    def __getattr__(self, k):
        return getattr(self._base, k)


def _make(session, ch):
    scene = _With(session.scene, characters=tuple(session.scene.characters) + (ch,))
    return session.ruleset.make_actor(_With(session, scene=scene), ch)


def short(name: str) -> str:
    """The name a table uses: the part before a parenthesis ("Kestrel (harpy, low)" -> "Kestrel")."""
    return name.split(" (")[0].strip()


def name_taken(session, name: str, but=None) -> str | None:
    """The id of a character on the table already called ``name`` (its short name, any case), else None."""
    want = short(name).lower()
    for o in session.state.actors.values():
        if o.id != but and (short(o.name or o.id).lower() == want or o.id.lower() == want):
            return o.id
    return None


def unique_name(session, base: str) -> str:
    """``base``, or "base 2", "base 3"... : the first no character on the table has (a copy never duplicates)."""
    base = short(base) or "Creature"
    if name_taken(session, base) is None:
        return base
    n = 2
    while name_taken(session, f"{base} {n}") is not None:
        n += 1
    return f"{base} {n}"


def table_of(session, cid: str) -> dict | None:
    """The scene table a character on the table was made from: the scene's, or the one its ``gm_add`` logged."""
    for e in reversed(session.events):
        if e.get("type") == "gm" and e.get("what") == "add" and e.get("who") == cid and isinstance(e.get("table"), dict):
            return dict(e["table"])
    c = next((c for c in session.scene.characters if c.id == cid), None)
    return dict(c.raw) if c is not None else None


# How a table becomes a Character: characters are checked a layer above the rules (engine/scene registers its
# builder here when it is imported), so the rules never import the scene loader that imports them.
CHARACTER_BUILDER: list = []


def register_character_builder(build) -> None:
    CHARACTER_BUILDER[:] = [build]


def _from_table(session, act, table: dict, source: str, nid: str, at: tuple):
    """A Character from a scene table (a library block or a copy), checked as a scene character is (the ruleset's
    schema and checks), with the GM's id, place, side and a name no one on the table has."""


    if not CHARACTER_BUILDER:
        raise Illegal("no scene layer to build a character (import engine.scene)", "", "table")
    _build_characters = CHARACTER_BUILDER[0]

    table = {k: v for k, v in table.items() if k not in ("id", "at", "mount", "about")}   # a copy stands alone
    raw = {**table, "id": nid, "at": list(at), "side": act.get("side") or table.get("side") or "neutral",
           "name": act.get("name") or unique_name(session, table.get("name") or source)}
    if "flying" in act:
        raw["flying"] = bool(act["flying"])
    else:                      # not given: aloft exactly where nothing holds it up (checked again on the body)
        foot = SIZES.get(str(raw.get("size", "medium")), SIZES["medium"])[0]
        raw["flying"] = not supported(session.world, at[0], at[1], at[2], foot)
    spec = msgspec.structs.replace(session.scene.spec, characters=[raw])
    try:
        (ch,) = _build_characters(spec, session.world, source)
        probe = _make(session, ch)
        if ch.flying and not _make(session, replace(ch, flying=False)).can_fly:
            # a scene's character placed flying is a flyer (AIR-09); one the GM puts in the air must be one already
            if act.get("flying"):
                raise Illegal(f"{ch.name} cannot fly (AIR-01): place it on a surface", "AIR-01", "flying")
            raise Illegal(f"nothing to stand on at {list(at)}: {ch.name} cannot fly (the surface below is layer "
                          f"{session.world.support_layer(*at)})", "AIR-10", "at")
    except SceneError as e:
        where = e.path.split(".", 1)[1] if "." in e.path else ""
        raise Illegal(f"{source}: {e.problem}", "", "at" if where == "at" else next(k for k in ("like", "srd", "block")
                                                                                         if act.get(k) is not None)) from None
    return ch, probe


def scene_block(session, name: str) -> dict:
    """Block ``name`` of the shipped library, else of the scene's own ``statblocks`` files (its .toml inputs, read
    again: the scene keeps their paths), else the shipped library's refusal naming its blocks."""
    try:
        return block(session.scene.ruleset, name)
    except BadAction:
        for p in getattr(session.scene, "files", ()):
            if str(p).endswith(".toml"):
                lib = read_library(p, p.name, lambda m, p=p: BadAction(f"{p.name}: {m}", "", "block"))
                if name in lib:
                    return {k: v for k, v in lib[name].items() if k != "about"}
        raise


def _added(session, act):
    """The Character ``gm_add`` puts on the table: a copy of a character on the table (``like``) or a library
    block, with a name no one on the table has."""

    nid = act["id"]
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,40}", nid) or nid == "gm":
        raise BadAction(f"{nid!r}: an id is letters, digits and _", "", "id")
    if nid in session.state.actors or any(c.id == nid for c in session.scene.characters):
        raise Illegal(f"there is already a character {nid!r}", "", "id")
    if sum(act.get(k) is not None for k in ("like", "block", "srd")) != 1:
        raise BadAction("give like = CHARACTER (a copy), block = NAME (the stat-block library) or srd = ID (the SRD "
                        "bestiary), one of them", "", "like")
    if act.get("name") is not None:
        if not act["name"].strip() or len(act["name"]) > 80:
            raise BadAction("a name is 1 to 80 characters", "", "name")
        other = name_taken(session, act["name"])
        if other is not None:
            raise Illegal(f"{_name(session.state.actors[other])} is on the table already: give another name", "", "name")
    x, y, layer = act["at"]
    if act.get("srd") is not None:      # the ruleset's bestiary: its character_blocks expand ``srd`` (or refuse)
        title = str(act["srd"]).replace("-", " ").title()     # young-red-dragon: "Young Red Dragon" by default
        ch, probe = _from_table(session, act, {"srd": act["srd"], "name": title}, f"SRD creature {act['srd']}", nid,
                                (x, y, layer))
    elif act.get("block") is not None:
        ch, probe = _from_table(session, act, scene_block(session, act["block"]), f"stat block {act['block']}",
                                nid, (x, y, layer))
    else:
        table = table_of(session, act["like"]) if act["like"] in session.state.actors else None
        if table is None:
            raise BadAction(f"no character {act['like']!r} on the table to copy (on the table: "
                            f"{', '.join(session.state.actors) or 'none: add from the library, block = NAME'})", "", "like")
        ch, probe = _from_table(session, act, table, f"a copy of {_name(session.state.actors[act['like']])}",
                                nid, (x, y, layer))
    probe = _make(session, ch)
    ok, why = _fits(session, probe, x, y, layer)
    if not ok:
        raise Illegal(f"{ch.name} cannot be placed at {[x, y, layer]}: {why}", "", "at")
    supported = aerial.is_supported(session, probe, x, y, layer)
    if not probe.flying and not supported:
        raise Illegal(f"nothing to stand on at {[x, y, layer]}" + ("" if probe.can_fly else f": {ch.name} cannot fly"),
                      "AIR-10", "at")
    if probe.flying and not probe.can_fly:
        raise Illegal(f"{ch.name} cannot fly", "AIR-01", "flying")
    return ch


#: a number with no maximum of its own (temporary HP, a published count) is at most this: a GM's slip of the
#: keyboard (temp_hp = 10**12) is refused, not carried into every damage roll after it
SET_MAX = 1_000_000_000


def _check_set(session, act) -> dict:
    """``gm_set``: the key is one the GM may set on this character, the value within 0..its maximum."""
    a = _who(session, act["target"], "target")
    key, v = act["key"], act["value"]
    pub = (a.data or {}).get("public", ()) if isinstance(a.data, dict) else ()
    allowed = ["hp", "temp_hp"] + [k for k in pub if isinstance(a.data.get(k), int) and not isinstance(a.data.get(k), bool)]
    if key not in allowed:
        raise BadAction(f"{key!r} is not a number the GM can set on {_name(a)}; one of {', '.join(allowed)}", "", "key")
    mx = _maximum(a, key)
    mx = SET_MAX if mx is None else mx
    if v < 0 or v > mx:
        raise BadAction(f"{key} {v} is outside 0..{mx} for {_name(a)}", "", "value")
    return {"from": a.hp if key == "hp" else (a.temp_hp if key == "temp_hp" else a.data.get(key))}


def _check_remove(session, act) -> None:
    """``gm_remove``: not the current character, and nothing else names it (a condition, a grapple, a mount...)."""

    st = session.state
    a = _who(session, act["target"], "target")
    if a.id == st.current:
        raise Illegal(f"it is {_name(a)}'s turn: end it before removing {_name(a)}", "", "target")
    for o in st.actors.values():
        if o.id == a.id:
            continue
        held = sorted(c for c, srcs in o.conditions.items() if a.id in (srcs or ()))
        if held:                   # grappled by it, frightened of it...: the condition would outlive its source
            raise Illegal(f"{_name(o)} is {', '.join(held)} by {_name(a)}: end that first (gm_condition remove)",
                          "", "target")
        if json.dumps(o.data, default=str).find(f'"{a.id}"') >= 0:
            raise Illegal(f"{_name(o)}'s state refers to {_name(a)} (a grapple, a mount, a target...): "
                          f"resolve that first", "", "target")
    if json.dumps(st.data, default=str).find(f'"{a.id}"') >= 0:
        raise Illegal(f"the ruleset's bookkeeping refers to {_name(a)} this round: remove it when it has no part "
                      "in the current turn", "", "target")


def check(session, action):
    """Validate a GM action completely (nothing changes); returns (normalised action, plan)."""
    act = _normalise(session, action)
    name = act["action"]
    st = session.state
    if name == "gm_set":
        return act, _check_set(session, act)
    if name == "gm_condition":
        a = _who(session, act["target"], "target")
        add, rem = act.get("add"), act.get("remove")
        if not add and not rem:
            raise BadAction("give add = CONDITION or remove = CONDITION", "", "add")
        for k, c in (("add", add), ("remove", rem)):
            if c is not None and not re.fullmatch(r"[a-z][a-z_]{1,30}", c):
                raise BadAction(f"{c!r}: a condition is a lowercase name (prone, poisoned...)", "", k)
        known = session.ruleset.CONDITIONS
        if add and known and add not in known:
            raise BadAction(f"{add!r} is not a condition of this ruleset; one of {', '.join(sorted(known))}", "", "add")
        if add and a.has(add):
            raise Illegal(f"{_name(a)} is already {add}", "", "add")
        if rem and not a.has(rem):
            raise Illegal(f"{_name(a)} is not {rem}" + (f" (conditions: {', '.join(sorted(a.conditions))})" if a.conditions else ""), "", "remove")
        return act, None
    if name == "gm_place":
        a = _who(session, act["target"], "target")
        x, y, layer = act["to"]
        ok, why = _fits(session, a, x, y, layer)
        if not ok:
            raise Illegal(f"{_name(a)} cannot be placed at {[x, y, layer]}: {why}", "", "to")

        supported = aerial.is_supported(session, a, x, y, layer)
        fly = act.get("flying")
        if fly is None:
            fly = not supported
        if fly and not a.can_fly:
            raise Illegal(f"{_name(a)} cannot fly: place it on a surface (layer {session.world.support_layer(x, y, layer)} there)",
                          "AIR-01", "to")
        if not fly and not supported:
            raise Illegal(f"nothing to stand on at {[x, y, layer]}: flying = true, or the surface at layer "
                          f"{session.world.support_layer(x, y, layer)}", "AIR-10", "to")
        return act, {"flying": bool(fly)}
    if name == "gm_add":
        return act, {"character": _added(session, act)}
    if name == "gm_remove":
        _check_remove(session, act)
        return act, None
    if name == "gm_order":
        a = _who(session, act["target"], "target")
        after, before = act.get("after"), act.get("before")
        if (after is None) == (before is None):
            raise BadAction("give after = ID or before = ID (one of them)", "", "after")
        other = _who(session, after or before, "after" if after else "before")
        if other.id == a.id:
            raise BadAction(f"{_name(a)} cannot be placed relative to itself", "", "after" if after else "before")
        if a.id not in st.order or other.id not in st.order:
            missing = a if a.id not in st.order else other
            raise Illegal(f"{_name(missing)} is not in the turn order", "", "target")
        if st.current in (a.id,):
            raise Illegal(f"it is {_name(a)}'s turn: it acts now (end its turn, then move it)", "", "target")
        order = [i for i in st.order if i != a.id]
        j = order.index(other.id) + (1 if after else 0)
        order.insert(j, a.id)
        return act, {"order": order}
    if name == "gm_roll":
        return act, {"terms": parse_dice(act["dice"])}
    raise BadAction(f"unknown GM action {name!r}", "", "action")


def _apply_add(session, act, plan, ev) -> None:
    """``gm_add``: the new creature, last in the turn order; its event names it and keeps the table it was made from."""
    st = session.state
    a = _make(session, plan["character"])
    st.actors[a.id] = a
    if st.order:
        st.order = st.order + [a.id]     # a new list: the round event already logged holds the old one
    src = (f"a copy of {_name(st.actors[act['like']])}" if act.get("like") else
           f"SRD creature {act['srd']}" if act.get("srd") else f"stat block {act['block']}")
    ev.update(who=a.id, name=a.name, at=list(act["at"]), side=a.side, flying=a.flying, table=dict(plan["character"].raw),
              text=f"GM adds {_name(a)} ({src}, side {a.side}) at {list(act['at'])}"
                   + (" flying" if a.flying else "") + ", last in the turn order")
    if act.get("like"):
        ev["like"] = act["like"]
    elif act.get("srd"):
        ev["srd"] = act["srd"]
    else:
        ev["block"] = act["block"]


def apply(session, act, plan) -> None:
    name = act["action"]
    st = session.state
    ev = {"type": "gm", "what": name[3:]}
    if name == "gm_set":
        a = st.actors[act["target"]]
        key, v = act["key"], act["value"]
        if key == "hp":
            a.hp = v
        elif key == "temp_hp":
            a.temp_hp = v
        else:
            a.data = {**a.data, key: v}      # new containers: events already logged may share the old ones
        label = {"hp": getattr(session.ruleset, "hp_label", None) or "HP", "temp_hp": "temporary HP"}.get(key, key.replace("_", " "))
        ev.update(who=a.id, key=key, value=v, **{"from": plan["from"]},
                  text=f"GM sets {_name(a)}'s {label} {plan['from']} -> {v}")
    elif name == "gm_condition":
        a = st.actors[act["target"]]
        bits = []
        conds = dict(a.conditions)
        if act.get("remove"):
            conds.pop(act["remove"], None)
            bits.append(f"-{act['remove']}")
        if act.get("add"):
            conds[act["add"]] = ["gm"]
            bits.append(f"+{act['add']}")
        a.conditions = conds
        ev.update(who=a.id, add=act.get("add"), remove=act.get("remove"), text=f"GM: {_name(a)} {' '.join(bits)}")
    elif name == "gm_place":
        a = st.actors[act["target"]]
        frm = list(a.pos)
        a.x, a.y, a.layer = act["to"]
        a.flying = plan["flying"]
        ev.update(who=a.id, **{"from": frm}, to=list(act["to"]), flying=a.flying,
                  text=f"GM places {_name(a)} at {list(act['to'])}" + (" (flying)" if a.flying else ""))
    elif name == "gm_add":
        _apply_add(session, act, plan, ev)
    elif name == "gm_remove":
        a = st.actors.pop(act["target"])
        if a.id in st.order:
            cur = st.current
            st.order = [i for i in st.order if i != a.id]
            if cur is not None and cur in st.order:
                st.turn_index = st.order.index(cur)
            elif st.order:
                st.turn_index = st.turn_index % len(st.order)
        ev.update(who=a.id, name=a.name, text=f"GM removes {_name(a)}")
    elif name == "gm_order":
        cur = st.current
        st.order = list(plan["order"])
        if cur is not None:
            st.turn_index = st.order.index(cur)
        rel = "after" if act.get("after") else "before"
        ev.update(who=act["target"], order=list(st.order),
                  text=f"GM moves {_name(st.actors[act['target']])} {rel} "
                       f"{_name(st.actors[act.get('after') or act.get('before')])} in the turn order")
    elif name == "gm_roll":
        total, parts = 0, []
        for sign, n, sides in plan["terms"]:
            if sides == 0:
                total += sign * n
                parts.append(f"{'-' if sign < 0 else '+'}{n}")
                continue
            got = session.roll("table", sides, n, who="gm", purpose=act.get("label", ""))
            total += sign * sum(got)
            parts.append(f"{'-' if sign < 0 else '+'}{n}d{sides}{got}")
        desc = " ".join(parts).lstrip("+")
        ev.update(dice=act["dice"], total=total, label=act.get("label", ""),
                  text=f"table roll {act['dice']}" + (f" ({act['label']})" if act.get("label") else "") + f": {desc} = {total}")
        ev["type"] = "table_roll"
    session.emit(ev)
    if name == "gm_set":            # what follows from the new value, in the ruleset's own rules (after the GM's line)
        a = st.actors[act["target"]]
        for fn in getattr(session.ruleset, "GM_SET", ()):
            fn(session.ruleset, session, a, act["key"], plan["from"], act["value"])


def preview(session, action) -> dict:
    act, plan = check(session, action)
    out = {"action": act["action"], "gm": True}
    if act["action"] == "gm_order":
        out["order"] = plan["order"]
    if act["action"] == "gm_place":
        out["flying"] = plan["flying"]
    return out
