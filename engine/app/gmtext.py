"""The GM's command line in the window (``;``): short commands -> the rules core's ``gm_*`` actions
(:mod:`engine.rules.gm`). A character is named by its id or its name (any case, the part before a parenthesis);
a name with spaces is quoted ("Sir Aldric" or 'Sir Aldric') in every command.

    hp NAME 12                       gm_set hp (also: set NAME vigor 3, temp NAME 5)
    cond NAME +prone                 gm_condition add (-prone removes; both may be given)
    place NAME x y layer [fly]       gm_place
    add [NEW] BLOCK [side=S] [id=ID] at x y layer [fly]
                                     gm_add from the stat-block library (``blocks`` lists them); NEW is the new
                                     creature's name (default: the block's, numbered when taken)
    add [NEW] like NAME [side=S] at x y layer [fly]
                                     gm_add, a copy of a scene character (a new name, never a duplicate)
    remove NAME                      gm_remove
    order NAME after NAME            gm_order (or before)
    roll 2d6+3 [label]               gm_roll
    do NAME ACTION k=v ..            any action of that character, with its parameters (values: numbers,
                                     true/false, text; quote text with spaces), e.g. a stated effect the GM rules:
                                     do Ines create_opportunity skill=intimidate effect=stated difficulty=9 text="he drops it"
    save scene PATH.toml ["NAME"]    (the controller's, not an action) the table as a new scene file
    start PATH.toml ["NAME"]         (the controller's) save the table as a scene and play it from round 1
    blocks                           (the controller's) the library's stat blocks
"""

from __future__ import annotations

import re
import shlex

USAGE = ('hp NAME 12 | cond NAME +prone | place NAME x y layer | add "NEW NAME" BLOCK side=S at x y layer | '
         'add NEW like NAME at x y layer | remove NAME | order NAME after NAME | roll 2d6+3 | do NAME ACTION k=v | '
         'save scene PATH.toml | start PATH.toml | blocks   (quote names with spaces)')


def _who(word: str, state) -> str:
    w = word.strip().lower()
    for aid, a in state.actors.items():
        if aid.lower() == w:
            return aid
    for aid, a in state.actors.items():
        if (a.name or "").split(" (")[0].strip().lower() == w:
            return aid
    names = ", ".join(f'"{n}"' if " " in n else n for n in ((a.name or aid).split(" (")[0] for aid, a in state.actors.items()))
    raise ValueError(f"no character {word!r} (names: {names or 'none on the table'})")


def _ints(words, n, what):
    try:
        v = [int(x) for x in words[:n]]
    except ValueError:
        raise ValueError(f"{what}: {n} whole numbers") from None
    if len(v) != n:
        raise ValueError(f"{what}: {n} whole numbers")
    return v


def words_of(text: str) -> list[str]:
    """The command's words, quotes honoured ("Sir Aldric" is one word); one clear line for an open quote."""
    try:
        return shlex.split(text.strip())
    except ValueError as e:
        raise ValueError(f"{e} (close the quote around a name with spaces)") from None


def new_id(name: str, state, scene=None) -> str:
    """An id for a new creature from its name ("Sir Aldric" -> sir_aldric, then sir_aldric_2...), unused on the
    table and in the scene."""
    base = re.sub(r"[^A-Za-z0-9_]+", "_", name.strip()).strip("_").lower()[:36] or "creature"
    if not re.match(r"[A-Za-z_]", base):
        base = "c_" + base
    taken = set(state.actors) | ({c.id for c in scene.characters} if scene is not None else set())
    if base not in taken and base != "gm":
        return base
    n = 2
    while f"{base}_{n}" in taken:
        n += 1
    return f"{base}_{n}"


def _add(rest: list[str], state, scene, cursor=None) -> dict:
    """add [NEW] BLOCK|like NAME [side=S] [id=ID] [at x y layer] [fly]: without ``at``, at ``cursor`` (the cell under
    the mouse; the GM line then takes the nearest free cell for its size, engine/app/gmline.py)"""
    low = [w.lower() for w in rest]
    if "at" not in low:
        if cursor is None:
            raise ValueError('add "NEW NAME" BLOCK side=SIDE at x y layer [fly] (or add NEW like NAME at x y layer; '
                             'without at: at the cell under the mouse)')
        fly = [w for w in low if w in ("fly", "flying", "land", "ground")]
        rest = [w for w in rest if w.lower() not in ("fly", "flying", "land", "ground")]
        rest = rest + ["at"] + [str(int(v)) for v in cursor] + fly[:1]
        low = [w.lower() for w in rest]
    i = low.index("at")
    head, tail = rest[:i], rest[i + 1:]
    opts = {w.split("=", 1)[0].lower(): w.split("=", 1)[1] for w in head if "=" in w}
    bad = [k for k in opts if k not in ("side", "id", "name")]
    if bad:
        raise ValueError(f"{bad[0]}=: add takes side=, id= and name=")
    plain = [w for w in head if "=" not in w]
    act: dict = {"actor": "gm", "action": "gm_add"}
    low_plain = [w.lower() for w in plain]
    if "like" in low_plain:
        j = low_plain.index("like")
        if j + 1 >= len(plain) or j > 1 or len(plain) > j + 2:
            raise ValueError("add NEW like NAME at x y layer (a copy of NAME named NEW)")
        act["like"] = _who(plain[j + 1], state)
        name = plain[0] if j == 1 else opts.get("name")
    else:
        if not 1 <= len(plain) <= 2 or not plain[-1].strip():
            raise ValueError('add "NEW NAME" BLOCK at x y layer: one name (quoted when it has spaces) and one block')
        act["block"] = plain[-1].lower()
        name = plain[0] if len(plain) == 2 else opts.get("name")
    act["at"] = _ints(tail, 3, "at x y layer")
    if len(tail) > 3:
        if tail[3].lower() not in ("fly", "flying", "land", "ground"):
            raise ValueError(f"{tail[3]!r}: after x y layer only fly (or land)")
        act["flying"] = tail[3].lower() in ("fly", "flying")
    if name:
        act["name"] = name
    if "side" in opts:
        act["side"] = opts["side"]
    act["id"] = opts.get("id") or new_id(name or act.get("block") or state.actors[act["like"]].name.split(" (")[0],
                                         state, scene)
    return {k: act[k] for k in ("actor", "action", "id", "like", "block", "name", "side", "at", "flying") if k in act}


def parse(text: str, state, scene=None, cursor=None) -> dict | None:
    first = text.split()[:1]
    if not first:
        return None
    # a roll's label is free words ("giant's luck"): no quoting there
    t = text.split() if first[0].lower() in ("roll", "r") else words_of(text)
    cmd, rest = t[0].lower(), t[1:]
    gm: dict[str, object] = {"actor": "gm"}     # every action below is a JSON object: values of any kind
    if cmd in ("hp", "temp", "set"):
        if cmd == "set":
            if len(rest) != 3:
                raise ValueError("set NAME KEY VALUE (e.g. set Brann vigor 3)")
            who, k, v = rest
        else:
            if len(rest) != 2:
                raise ValueError(f"{cmd} NAME VALUE (quote a name with spaces)")
            who, v = rest
            k = "hp" if cmd == "hp" else "temp_hp"
        return {**gm, "action": "gm_set", "target": _who(who, state), "key": k, "value": _ints([v], 1, "value")[0]}
    if cmd in ("cond", "condition"):
        if len(rest) < 2:
            raise ValueError("cond NAME +CONDITION / -CONDITION")
        act = {**gm, "action": "gm_condition", "target": _who(rest[0], state)}
        for w in rest[1:]:
            if w.startswith("-"):
                act["remove"] = w[1:].lower()
            else:
                act["add"] = w.lstrip("+").lower()
        return act
    if cmd in ("place", "move"):
        if len(rest) < 4:
            raise ValueError("place NAME x y layer (quote a name with spaces)")
        act = {**gm, "action": "gm_place", "target": _who(rest[0], state), "to": _ints(rest[1:], 3, "x y layer")}
        if len(rest) > 4 and rest[4].lower() in ("fly", "flying"):
            act["flying"] = True
        return act
    if cmd == "add":
        return _add(rest, state, scene, cursor)
    if cmd in ("remove", "rm"):
        if len(rest) != 1:
            raise ValueError("remove NAME (quote a name with spaces)")
        return {**gm, "action": "gm_remove", "target": _who(rest[0], state)}
    if cmd in ("order", "delay"):
        if len(rest) != 3 or rest[1].lower() not in ("after", "before"):
            raise ValueError("order NAME after NAME (or before)")
        return {**gm, "action": "gm_order", "target": _who(rest[0], state), rest[1].lower(): _who(rest[2], state)}
    if cmd in ("roll", "r"):
        if not rest:
            raise ValueError("roll 2d6+3 [label]")
        act = {**gm, "action": "gm_roll", "dice": rest[0]}
        if len(rest) > 1:
            act["label"] = " ".join(rest[1:])
        return act
    if cmd == "do":
        return _do(rest, state)
    raise ValueError(f"unknown command {cmd!r}: hp, set, temp, cond, place, add, remove, order, roll, do, "
                     "save scene, start, blocks")


def _do(words: list[str], state) -> dict:
    if len(words) < 2:
        raise ValueError("do NAME ACTION key=value ... (e.g. do Ines create_opportunity skill=intimidate "
                         "effect=stated difficulty=9 text=\"he drops it\")")
    act: dict[str, object] = {"actor": _who(words[0], state), "action": words[1]}
    for w in words[2:]:
        k, eq, v = w.partition("=")
        if not eq or not k:
            raise ValueError(f"{w!r}: parameters are key=value")
        act[k] = (int(v) if v.lstrip("-").isdigit() else True if v == "true" else False if v == "false"
                  else _who(v, state) if k in ("target", "to") and _is_who(v, state) else v)
    return act


def _is_who(word: str, state) -> bool:
    try:
        _who(word, state)
        return True
    except ValueError:
        return False
