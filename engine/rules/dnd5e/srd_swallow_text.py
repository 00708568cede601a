"""How the SRD's swallowing and engulfing actions read (SRD-43..45): the behir's, the remorhaz's and the tarrasque's
Swallow, the purple worm's Bite and the gibbering mouther's Bites (the sheet key ``srd_swallow``); the gelatinous
cube's and the shambling mound's Engulf and the water elemental's Whelm (``srd_engulf``); whether each is played
(``status``, srd_status.STATUS); and the sentences srd_blocks leaves to these rules (the absorbing bite, SRD-12's save
thrown at a point). The rules that play them: engine/rules/dnd5e/srd_swallow.py, srd_engulf.py and their actions.

``srd_swallow`` and ``srd_engulf`` (any 5e character may carry them; a scene without them plays as before)::

    srd_swallow = {weapon = "Bite", action = true, max_size = "medium", dice = "6d6", type = "acid",
                   threshold = 30, dc = 14, escape_m = 4.5, one = true, in_multiattack = false}
    # the purple worm's Bite: no action; its hit asks a save: save = {dc = 19, ability = "dex"}
    # the gibbering mouther's Bites: srd_swallow = {weapon = "Bites", absorb = true}
    srd_engulf = {kind = "whelm", name = "Whelm", dc = 15, ability = "str", dice = "2d8+4", type = "bludgeoning",
                  max_size = "large", escape_dc = 14, hold = {large = 1, medium = 2},
                  each_turn = {dice = "2d8+4", type = "bludgeoning"}, pull_dc = 14, water = true, recharge = [4, 6]}
    # kind = "mound": weapon, blinded, each_turn.save; kind = "cube": pull_damage, no grapple (inside it)
"""

from __future__ import annotations

import re

from engine.errors import SceneError
from engine.rules.dnd5e.common import DAMAGE_TYPES

RULE = "SRD-43"
SIZE_NAMES = ("tiny", "small", "medium", "large", "huge", "gargantuan")
_N = r"[\w' -]+"

#: "The behir makes one bite attack against a Medium or smaller target it is grappling. If the attack hits, the
#: target is also swallowed, and the grapple ends." (the remorhaz's and the tarrasque's in their words)
ACTION = re.compile(r"^The \w+ makes one bite attack against an? (?P<size>Tiny|Small|Medium|Large|Huge) or smaller "
                    r"(?:target|creature) it is grappling\. If the attack hits, (?:the target is also swallowed|that "
                    r"creature takes the bite's damage and is swallowed|the target takes the bite's damage, the target "
                    r"is swallowed), and the grapple ends\. While swallowed, the (?:target|creature) is blinded and "
                    r"restrained, ")
#: the purple worm's Bite, after its damage
BITE = re.compile(r"^If the target is an? (?P<size>Tiny|Small|Medium|Large|Huge) or smaller creature, it must succeed "
                  r"on a DC (?P<sdc>\d+) Dexterity saving throw or be swallowed by the \w+\. A swallowed creature is "
                  r"blinded and restrained, ")
#: what both say after "blinded and restrained, "
INSIDE = re.compile(r"it has total cover against attacks and other effects outside the \w+, and it takes \d+ "
                    r"\((?P<dice>\d+d\d+)\) (?P<type>\w+) damage at the start of each of the \w+'s turns\.(?P<one> An? "
                    r"\w+ can have only one creature swallowed at a time\.)? If the \w+ takes (?P<n>\d+) damage or "
                    r"more on a single turn from (?:the swallowed creature|a creature inside it), the \w+ must succeed "
                    r"on a DC (?P<dc>\d+) Constitution saving throw at the end of that turn or regurgitate (?:the "
                    r"creature|all swallowed creatures), which falls? prone in a space within 10 (?:ft\.|feet) of the "
                    r"\w+\. If the \w+ dies, a swallowed creature is no longer restrained by it and can escape from the "
                    r"corpse (?:by )?using (?P<ft>\d+) (?:ft\.|feet) of movement, exiting prone\.$")
#: SRD-12's save at a point (the gibbering mouther's Blinding Spittle, the storm giant's Lightning Strike): "The mouther
#: spits a chemical glob at a point it can see within 15 feet of it. The glob explodes in a blinding flash of light on
#: impact. Each creature within 5 feet of the flash must succeed on a DC 13 Dexterity saving throw" -- the source
#: reads its area as around the creature; the sentences that name the point and what bursts there are the area's
#: (srd_blocks.save_action reads both)
AT_A_POINT = re.compile(r"^The \w+ (?:spits|hurls) an? [\w ]+ at a point it can see within \d+ (?:feet|ft\.) of it\.")
POINT_SENTENCES = re.compile(r"^(?:The \w+ (?:spits|hurls) an? [\w ]+ at a point it can see within \d+ (?:feet|ft\.) of "
                             r"it\.|The glob explodes in a blinding flash of light on impact\.)$")
#: SRD-43 the gibbering mouther's Bites: "If the target is killed by this damage, it is absorbed into the mouther."
ABSORB = "If the target is killed by this damage, it is absorbed into the mouther."
#: the tarrasque's Multiattack: "It can use its Swallow instead of its bite."
INSTEAD = "It can use its Swallow instead of its bite."


#: SRD-44 the shambling mound's Engulf (its Multiattack gives the grapple: "If both attacks hit a Medium or smaller
#: target, the target is grappled (escape DC 14), and the shambling mound uses its Engulf on it.")
MOUND = re.compile(r"^The shambling mound engulfs a (?P<size>Medium|Small|Large) or smaller creature grappled by it\. "
                   r"The engulfed target is blinded, restrained, and unable to breathe, and it must succeed on a DC "
                   r"(?P<dc>\d+) Constitution saving throw at the start of each of the mound's turns or take \d+ "
                   r"\((?P<dice>\d+d\d+ ?\+ ?\d+)\) (?P<type>\w+) damage\. If the mound moves, the engulfed target "
                   r"moves with it\. The mound can have only one creature engulfed at a time\.$")
MOUND_MULTI = re.compile(r"^The shambling mound makes two (?P<w>\w+) attacks\. If both attacks hit a (?:Medium) or "
                         r"smaller target, the target is grappled \(escape DC (?P<esc>\d+)\), and the shambling mound "
                         r"uses its Engulf on it\.$")
#: SRD-44 the gelatinous cube's Engulf (its Ooze Cube trait gives what it holds and the pull out)
CUBE = re.compile(r"^The cube moves up to its speed\. While doing so, it can enter (?P<size>Large) or smaller creatures' "
                  r"spaces\. Whenever the cube enters a creature's space, the creature must make a DC (?P<dc>\d+) "
                  r"Dexterity saving throw\. On a successful save, the creature can choose to be pushed 5 feet back or "
                  r"to the side of the cube\. A creature that chooses not to be pushed suffers the consequences of a "
                  r"failed saving throw\. On a failed save, the cube enters the creature's space, and the creature "
                  r"takes \d+ \((?P<dice>\d+d\d+)\) (?P<type>\w+) damage and is engulfed\. The engulfed creature "
                  r"can't breathe, is restrained, and takes \d+ \((?P<turn>\d+d\d+)\) (?P<ttype>\w+) damage at the "
                  r"start of each of the cube's turns\. When the cube moves, the engulfed creature moves with it\. An "
                  r"engulfed creature can try to escape by taking an action to make a DC (?P<esc>\d+) Strength check\. "
                  r"On a success, the creature escapes and enters a space of its choice within 5 feet of the cube\.$")
OOZE_CUBE = re.compile(r"A creature within 5 feet of the cube can take an action to pull a creature or object out of "
                       r"the cube\. Doing so requires a successful DC (?P<pull>\d+) Strength check, and the creature "
                       r"making the attempt takes \d+ \((?P<dice>\d+d\d+)\) (?P<type>\w+) damage\. The cube can hold "
                       r"only one Large creature or up to (?P<n>four) Medium or smaller creatures inside it at a time\.")
#: SRD-45 the water elemental's Whelm
WHELM = re.compile(r"^Each creature in the elemental's space must make a DC (?P<dc>\d+) Strength saving throw\. On a "
                   r"failure, a target takes \d+ \((?P<dice>\d+d\d+ ?\+ ?\d+)\) (?P<type>\w+) damage\. If it is "
                   r"(?P<size>Large) or smaller, it is also grappled \(escape DC (?P<esc>\d+)\)\. Until this grapple "
                   r"ends, the target is restrained and unable to breathe unless it can breathe water\. If the saving "
                   r"throw is successful, the target is pushed out of the elemental's space\. The elemental can grapple "
                   r"one Large creature or up to (?P<n>two) Medium or smaller creatures at one time\. At the start of "
                   r"each of the elemental's turns, each target grappled by it takes \d+ \((?P<turn>\d+d\d+ ?\+ ?\d+)\) "
                   r"(?P<ttype>\w+) damage\. A creature within 5 feet of the elemental can pull a creature or object "
                   r"out of it by taking an action to make a DC (?P<pull>\d+) Strength and succeeding\.$")


def engulf(c: dict, f: dict) -> dict | None:
    """The sheet's ``srd_engulf`` for the shambling mound's Engulf (SRD-44) or the water elemental's Whelm (SRD-45)
    as the SRD writes them, or None."""
    if f.get("kind") != "save":
        return None
    text = _text(f)
    if f["name"] == "Engulf" and (m := MOUND.match(text)):
        ma = next((g for g in c["actions"] if g.get("kind") == "multiattack"), None)
        mm = MOUND_MULTI.match(_text(ma)) if ma else None
        if not mm or not any(g.get("kind") == "attack" and g["name"].lower() == mm.group("w") for g in c["actions"]):
            return None
        w = next(g["name"] for g in c["actions"] if g.get("kind") == "attack" and g["name"].lower() == mm.group("w"))
        return {"kind": "mound", "name": "Engulf", "weapon": w, "escape_dc": int(mm.group("esc")),
                "max_size": m.group("size").lower(), "hold": {"medium": 1}, "blinded": True,
                "each_turn": {"dice": m.group("dice").replace(" ", ""), "type": m.group("type"),
                              "save": {"dc": int(m.group("dc")), "ability": "con"}}}
    ooze = next((g for g in c["traits"] if g["name"] == "Ooze Cube"), None)
    o = OOZE_CUBE.search(_text(ooze)) if ooze else None
    if f["name"] == "Engulf" and o and (m := CUBE.match(text)):
        return {"kind": "cube", "name": "Engulf", "dc": int(m.group("dc")), "ability": "dex", "dice": m.group("dice"),
                "type": m.group("type"), "max_size": "large", "escape_dc": int(m.group("esc")),
                "hold": {"large": 1, "medium": 4}, "each_turn": {"dice": m.group("turn"), "type": m.group("ttype")},
                "pull_dc": int(o.group("pull")), "pull_damage": {"dice": o.group("dice"), "type": o.group("type")}}
    if re.sub(r"\s*\(.*\)$", "", f["name"]) == "Whelm" and (m := WHELM.match(text)):
        return {"kind": "whelm", "name": "Whelm", "dc": int(m.group("dc")), "ability": "str",
                "dice": m.group("dice").replace(" ", ""), "type": m.group("type"), "max_size": "large",
                "escape_dc": int(m.group("esc")), "hold": {"large": 1, "medium": 2},
                "each_turn": {"dice": m.group("turn").replace(" ", ""), "type": m.group("ttype")},
                "pull_dc": int(m.group("pull")), "water": True, **({"recharge": list(f["recharge"])}
                                                                  if f.get("recharge") else {})}
    return None


def _text(f: dict) -> str:
    return " ".join(f["desc"].split())


def read(c: dict, f: dict) -> dict | None:
    """The sheet's ``srd_swallow`` for a feature of ``c`` as the SRD writes it, or None."""
    text = _text(f)
    if f.get("kind") == "attack":
        after = text.split("Hit:", 1)[-1].split(". ", 1)[-1]
        m = BITE.match(after)
        entry: dict = {"weapon": f["name"], "action": False}
        rest = after[m.end():] if m else ""
        if m:
            entry["save"] = {"dc": int(m.group("sdc")), "ability": "dex"}
    elif f.get("kind") == "save" and f["name"] == "Swallow":
        m = ACTION.match(text)
        entry = {"weapon": "Bite", "action": True}
        rest = text[m.end():] if m else ""
    else:
        return None
    i = INSIDE.match(rest) if m else None
    if not m or not i or i.group("type").lower() not in DAMAGE_TYPES:
        return None
    if entry["action"] and not any(g.get("kind") == "attack" and g["name"] == "Bite" for g in c["actions"]):
        return None
    ma = next((g for g in c["actions"] if g.get("kind") == "multiattack"), None)
    entry.update({"max_size": m.group("size").lower(), "dice": i.group("dice"), "type": i.group("type").lower(),
                  "threshold": int(i.group("n")), "dc": int(i.group("dc")),
                  "escape_m": round(int(i.group("ft")) * 0.3, 2), "one": bool(i.group("one")),
                  "in_multiattack": bool(entry["action"] and ma and INSTEAD in _text(ma))})
    return entry


def takes(c: dict, f: dict) -> bool:
    """The feature is played by SRD-43..45 (not as a save action, SRD-12, nor its hit's save, SRD-13)."""
    return f.get("kind") in ("attack", "save") and (read(c, f) is not None or engulf(c, f) is not None)


def bite_swallows(f: dict) -> bool:
    """An attack whose hit swallows (the purple worm's Bite): its save is SRD-43's, not SRD-13's ``on_hit``."""
    return f.get("kind") == "attack" and read({"actions": []}, f) is not None


def absorbs(f: dict) -> bool:
    """An attack whose kill is absorbed (the gibbering mouther's Bites); srd_blocks.on_hit leaves the sentence to
    SRD-43 (its other rider is SRD-13's)."""
    return f.get("kind") == "attack" and _text(f).endswith(ABSORB)


def character_keys(c: dict) -> dict:
    out: dict = {}
    for f in c["actions"]:
        if absorbs(f):
            out["srd_swallow"] = {"weapon": f["name"], "absorb": True}
        e = read(c, f)
        if e is not None:
            out["srd_swallow"] = e
        g = engulf(c, f)
        if g is not None:
            out["srd_engulf"] = g
    return out


def status(c: dict, section: str, f: dict) -> tuple[bool, str] | None:
    """(True, "") for a swallowing feature played as written; the tarrasque's Multiattack with its Swallow."""
    if section != "actions":
        return None
    if takes(c, f):
        return True, ""
    if f.get("kind") == "multiattack" and MOUND_MULTI.match(_text(f)) and "srd_engulf" in character_keys(c):
        return True, ""              # SRD-44: "and the shambling mound uses its Engulf on it"
    if f.get("kind") == "multiattack" and INSTEAD in _text(f) and "srd_swallow" in character_keys(c):
        names = {g["name"] for g in c["actions"] if g.get("kind") == "attack"} | {"Swallow", "Frightful Presence"}
        if all(x["action"] in names for o in f["options"] for x in o):
            return True, ""
    return None


# -- the sheet key --------------------------------------------------------------------------------------------------

KEYS: dict[str, type | tuple[type, ...]] = {"absorb": bool, "weapon": str, "action": bool, "max_size": str, "dice": str, "type": str, "threshold": int, "dc": int,
        "escape_m": (int, float), "one": bool, "in_multiattack": bool, "save": dict}


def check(raw: dict, file: str, key: str) -> None:
    check_engulf(raw, file, key)
    sw = raw.get("srd_swallow")
    if sw is None:
        return
    k = f"{key}.srd_swallow"
    if isinstance(sw, dict) and sw.get("absorb") is True and set(sw) == {"weapon", "absorb"} \
            and isinstance(sw["weapon"], str):
        return                                       # the gibbering mouther's Bites
    ok = isinstance(sw, dict) and set(sw) <= set(KEYS) and all(isinstance(sw[n], KEYS[n]) for n in sw) \
        and isinstance(sw.get("weapon"), str) and sw.get("max_size", "huge") in SIZE_NAMES \
        and re.fullmatch(r"\d+d\d+", sw.get("dice", "")) is not None and sw.get("type") in DAMAGE_TYPES \
        and 1 <= sw.get("threshold", 0) <= 1000 and 1 <= sw.get("dc", 0) <= 40 \
        and 0 <= sw.get("escape_m", 0) <= 100
    sv = sw.get("save") if isinstance(sw, dict) else None
    if ok and sv is not None:
        ok = set(sv) == {"dc", "ability"} and isinstance(sv["dc"], int) and sv["ability"] in (
            "str", "dex", "con", "int", "wis", "cha")
    if not ok:
        raise SceneError(file, k, "{weapon, action, max_size, dice = \"6d6\", type, threshold, dc, escape_m, one, "
                                  "in_multiattack, save = {dc, ability}} (SRD-43)")
    names = [w if isinstance(w, str) else w.get("name") for w in raw.get("weapons") or ()]
    if raw.get("weapons") is not None and sw["weapon"] not in names:
        raise SceneError(file, f"{k}.weapon", f"the weapon that swallows: one of {', '.join(map(str, names))}")


def _dice(v) -> bool:
    return isinstance(v, str) and re.fullmatch(r"\d+d\d+(?:[+-]\d+)?", v) is not None


def check_engulf(raw: dict, file: str, key: str) -> None:
    """``srd_engulf`` (SRD-44, -45): {kind = "mound" | "whelm", name, escape_dc, max_size, hold = {large = 1, medium =
    2}, each_turn = {dice, type, save = {dc, ability}}; the mound's weapon and blinded; the whelm's dc, ability, dice,
    type, pull_dc, water, recharge}."""
    e = raw.get("srd_engulf")
    if e is None:
        return
    each = e.get("each_turn") if isinstance(e, dict) else None
    ok = isinstance(e, dict) and e.get("kind") in ("mound", "whelm", "cube") and isinstance(e.get("name"), str) \
        and isinstance(e.get("escape_dc"), int) and e.get("max_size") in SIZE_NAMES \
        and isinstance(e.get("hold"), dict) and all(k in ("large", "medium") and isinstance(v, int)
                                                    for k, v in e["hold"].items()) \
        and isinstance(each, dict) and _dice(each.get("dice")) and each.get("type") in DAMAGE_TYPES
    if ok and e["kind"] == "mound":
        ok = isinstance(e.get("weapon"), str)
    if ok and e["kind"] in ("whelm", "cube"):
        ok = isinstance(e.get("dc"), int) and e.get("ability") in ("str", "dex", "con") and _dice(e.get("dice")) \
            and e.get("type") in DAMAGE_TYPES and isinstance(e.get("pull_dc"), int)
    if not ok:
        raise SceneError(file, f"{key}.srd_engulf", "{kind = \"mound\" | \"whelm\", name, escape_dc, max_size, hold, "
                                                   "each_turn = {dice, type}, ...} (SRD-44, SRD-45)")


def setup(data: dict, raw: dict) -> None:
    if raw.get("srd_engulf"):
        data["srd_engulf"] = {k: (dict(v) if isinstance(v, dict) else v) for k, v in raw["srd_engulf"].items()}
    if (raw.get("srd_swallow") or {}).get("absorb"):
        data["srd_swallow"] = dict(raw["srd_swallow"])
    elif raw.get("srd_swallow"):
        sw = dict(raw["srd_swallow"])
        sw.setdefault("action", True)
        sw.setdefault("one", False)
        sw.setdefault("in_multiattack", False)
        sw.setdefault("max_size", "huge")
        sw.setdefault("escape_m", 4.5)
        data["srd_swallow"] = sw
