"""The GM's command line in the window (``;``): short commands -> the rules core's ``gm_*`` actions
(:mod:`engine.rules.gm`). A character is named by its id or its name (any case, the part before a parenthesis).

    hp NAME 12            gm_set hp (also: set NAME vigor 3, temp NAME 5)
    cond NAME +prone      gm_condition add (-prone removes; both may be given)
    place NAME x y layer  gm_place
    add ID like NAME at x y layer [fly]
    remove NAME           gm_remove
    order NAME after NAME gm_order (or before)
    roll 2d6+3 [label]    gm_roll
    do NAME ACTION k=v .. any action of that character, with its parameters (values: numbers, true/false, text;
                          quote text with spaces), e.g. a stated effect the GM rules:
                          do Ines create_opportunity skill=intimidate effect=stated difficulty=9 text="he drops it"
"""

from __future__ import annotations


def _who(word: str, state) -> str:
    w = word.strip().lower()
    for aid, a in state.actors.items():
        if aid.lower() == w:
            return aid
    for aid, a in state.actors.items():
        if (a.name or "").split(" (")[0].strip().lower() == w:
            return aid
    raise ValueError(f"no character {word!r} (ids or names: {', '.join(state.actors)})")


def _ints(words, n, what):
    try:
        v = [int(x) for x in words[:n]]
    except ValueError:
        raise ValueError(f"{what}: {n} whole numbers") from None
    if len(v) != n:
        raise ValueError(f"{what}: {n} whole numbers")
    return v


def parse(text: str, state) -> dict | None:
    t = text.strip().split()
    if not t:
        return None
    cmd, rest = t[0].lower(), t[1:]
    gm: dict[str, object] = {"actor": "gm"}     # every action below is a JSON object: values of any kind
    if cmd in ("hp", "temp", "set"):
        if cmd == "set":
            if len(rest) != 3:
                raise ValueError("set NAME KEY VALUE (e.g. set Brann vigor 3)")
            who, k, v = rest
        else:
            if len(rest) != 2:
                raise ValueError(f"{cmd} NAME VALUE")
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
            raise ValueError("place NAME x y layer")
        act = {**gm, "action": "gm_place", "target": _who(rest[0], state), "to": _ints(rest[1:], 3, "x y layer")}
        if len(rest) > 4 and rest[4].lower() in ("fly", "flying"):
            act["flying"] = True
        return act
    if cmd == "add":
        # add ID like NAME at x y layer [fly]
        low = [w.lower() for w in rest]
        if len(rest) < 7 or low[1] != "like" or low[3] != "at":
            raise ValueError("add ID like NAME at x y layer [fly]")
        like = _who(rest[2], state)
        act = {**gm, "action": "gm_add", "id": rest[0], "like": like, "at": _ints(rest[4:], 3, "x y layer")}
        if len(rest) > 7 and low[7] in ("fly", "flying"):
            act["flying"] = True
        return act
    if cmd in ("remove", "rm"):
        if len(rest) != 1:
            raise ValueError("remove NAME")
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
        import shlex
        try:
            words = shlex.split(text.strip())[1:]
        except ValueError as e:
            raise ValueError(f"do NAME ACTION key=value ...: {e}") from None
        if len(words) < 2:
            raise ValueError("do NAME ACTION key=value ... (e.g. do Ines create_opportunity skill=intimidate "
                             "effect=stated difficulty=9 text=\"he drops it\")")
        act = {"actor": _who(words[0], state), "action": words[1]}
        for w in words[2:]:
            k, eq, v = w.partition("=")
            if not eq or not k:
                raise ValueError(f"{w!r}: parameters are key=value")
            act[k] = (int(v) if v.lstrip("-").isdigit() else True if v == "true" else False if v == "false"
                      else _who(v, state) if k in ("target", "to") and _is_who(v, state) else v)
        return act
    raise ValueError(f"unknown command {cmd!r}: hp, set, temp, cond, place, add, remove, order, roll, do")


def _is_who(word: str, state) -> bool:
    try:
        _who(word, state)
        return True
    except ValueError:
        return False
