"""The SRD save actions with a second effect, and the Parry reaction, as read from a creature record's text
(assets/srd/creatures.json): what they add to the sheet (``adjust``: keys on the ``creature_actions`` entries the
block's save actions make; ``character_keys``: ``parry``) and whether each is played whole (``status``). The rules
that play them: engine/rules/dnd5e/srd_lasting_actions.py (SRD-74..79) and srd_parry.py (SRD-73).

Entry keys added (any 5e character's ``creature_actions`` entry may carry them)::

    sees_it = true, immune_after = true     # SRD-74 Horror Nimbus: "that can see the light"; immune once it ends
    in_multiattack = true                   # SRD-74 "uses Horror Nimbus if it can. It then makes three attacks"
    area = {shape = "sphere", ...}, range_m # SRD-75 Lightning Strike: "at a point ... within 500 feet of it"
    each_turn = {dice = "1d10", type = "poison"}, around_corners = true    # SRD-76 Spores
    roars = [{ability, dc, damage, half, conditions, repeat_save}, ...]     # SRD-77 Roar, one per roar used
    bolts = 3                               # SRD-78 Lightning Storm: a target each, its own damage roll
    cloud = {radius_m = 3.0, rounds = 10}   # SRD-79 Fetid Cloud: a lasting cloud, a save as a turn starts in it

and a legendary option ``{name, cost, kind = "bolts", feature}`` (SRD-80: "The kraken uses Lightning Storm.").
"""

from __future__ import annotations

import re

NAME = r"[\w' -]+"
PARRY = re.compile(rf"^The {NAME} adds (\d+) to its AC against one melee attack that would hit it\. To do so, the "
                   rf"{NAME} must see the attacker and be wielding a melee weapon\.$")
NIMBUS = re.compile(r"^The (\w+) magically emits scintillating, multicolored light\. Each creature within \d+ feet of "
                    r"the \1 that can see the light must succeed on a DC \d+ Wisdom saving throw or be frightened for 1 "
                    r"minute\. A creature can repeat the saving throw at the end of each of its turns, ending the "
                    r"effect on itself on a success\. If a creature's saving throw is successful or the effect ends for "
                    r"it, the creature is immune to the \1's Horror Nimbus for the next 24 hours\.$")
USES_FIRST = re.compile(r"^The (\w+) uses ([\w ]+?) if it can\. It then makes \w+ attacks: [\w ,]+\.$")
STRIKE = re.compile(r"^The giant hurls a magical lightning bolt at a point it can see within (\d+) feet of it\. Each "
                    r"creature within (\d+) feet of that point must make a DC \d+ Dexterity saving throw, taking \d+ "
                    r"\(\d+d\d+\) lightning damage on a failed save, or half as much damage on a successful one\.$")
SPORES = re.compile(r"^A (\d+)-foot-radius cloud of toxic spores extends out from the (\w+)\. The spores spread around "
                    r"corners\. Each creature in that area must succeed on a DC \d+ Constitution saving throw or become "
                    r"poisoned\. While poisoned in this way, a target takes \d+ \((\d+d\d+)\) (\w+) damage at the start "
                    r"of each of its turns\. A target can repeat the saving throw at the end of each of its turns, "
                    r"ending the effect on itself on a success\. Emptying a vial of holy water on the target also ends "
                    r"the effect on it\.$")
NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5}
BOLTS = re.compile(r"^The (\w+) magically creates (\w+) bolts of lightning, each of which can strike a target the \1 "
                   r"can see within \d+ feet of it\. A target must make a DC \d+ Dexterity saving throw, taking \d+ "
                   r"\(\d+d\d+\) lightning damage on a failed save, or half as much damage on a successful one\.$")
FETID = re.compile(r"^A (\d+)-foot radius of disgusting green gas extends out from the (\w+)\. The gas spreads around "
                   r"corners, and its area is lightly obscured\. It lasts for 1 minute or until a strong wind disperses "
                   r"it\. Any creature that starts its turn in that area must succeed on a DC \d+ Constitution saving "
                   r"throw or be poisoned until the start of its next turn\. While poisoned in this way, the target can "
                   r"take either an action or a bonus action on its turn, not both, and can't take reactions\.$")
ROAR = re.compile(r"^The (\w+) emits a magical roar\. Each time it roars before finishing a long rest, the roar is "
                  r"louder and the effect is different, as detailed below\. Each creature within \d+ feet of the \1 "
                  r"and able to hear the roar must make a saving throw\. "
                  r"First Roar\. Each creature that fails a DC (\d+) Wisdom saving throw is frightened for 1 minute\. A "
                  r"frightened creature can repeat the saving throw at the end of each of its turns, ending the effect "
                  r"on itself on a success\. "
                  r"Second Roar\. Each creature that fails a DC (\d+) Wisdom saving throw is deafened and frightened for "
                  r"1 minute\. A frightened creature is paralyzed and can repeat the saving throw at the end of each of "
                  r"its turns, ending the effect on itself on a success\. "
                  r"Third Roar\. Each creature makes a DC (\d+) Constitution saving throw\. On a failed save, a creature "
                  r"takes \d+ \((\d+d\d+)\) (\w+) damage and is knocked prone\. On a successful save, the creature takes "
                  r"half as much damage and isn't knocked prone\.$")


#: what a Foundry import adds after the text ("... also ends the effect on it. (in a 15-foot sphere)")
IMPORTED_AREA = re.compile(r"\s*\(in an? [\w -]+\)$")


def _text(f: dict) -> str:
    return IMPORTED_AREA.sub("", " ".join(f["desc"].split()))


def _base(name: str) -> str:
    return re.sub(r"\s*\(.*\)$", "", name).strip()


def parry(c: dict) -> int | None:
    """SRD-73: the AC its Parry adds, or None."""
    for f in c.get("reactions") or ():
        m = PARRY.match(_text(f)) if _base(f["name"]) == "Parry" else None
        if m:
            return int(m.group(1))
    return None


def character_keys(c: dict) -> dict:
    n = parry(c)
    return {"parry": n} if n else {}


def roars(m: re.Match) -> list[dict]:
    """SRD-77: the three roars, in the order used."""
    return [{"ability": "wis", "dc": int(m.group(2)), "damage": [], "half": False, "conditions": ["frightened"],
             "repeat_save": "frightened"},
            {"ability": "wis", "dc": int(m.group(3)), "damage": [], "half": False,
             "conditions": ["deafened", "frightened", "paralyzed"], "repeat_save": "frightened",
             "paralyzed_while": "frightened", "deafened_rounds": 10},
            {"ability": "con", "dc": int(m.group(4)), "damage": [{"dice": m.group(5), "type": m.group(6).lower()}],
             "half": True, "conditions": ["prone"]}]


def extra(c: dict, f: dict) -> dict | None:
    """The keys SRD-74..79 add to the ``creature_actions`` entry of save action ``f``, or None."""
    text = _text(f)
    if NIMBUS.match(text):
        out: dict = {"sees_it": True, "immune_after": True}
        ma = next((g for g in c["actions"] if g.get("kind") == "multiattack"), None)
        um = USES_FIRST.match(_text(ma)) if ma else None
        if um and um.group(2) == _base(f["name"]):
            out["in_multiattack"] = True
        return out
    m = STRIKE.match(text)
    if m:
        return {"area": {"shape": "sphere", "radius_m": round(int(m.group(2)) * 0.3, 2)},
                "range_m": round(int(m.group(1)) * 0.3, 2)}
    m = SPORES.match(text)
    if m:
        return {"each_turn": {"dice": m.group(3), "type": m.group(4).lower()}, "around_corners": True,
                "area": {"shape": "self", "radius_m": round(int(m.group(1)) * 0.3, 2)}}
    m = FETID.match(text)
    if m:
        return {"cloud": {"radius_m": round(int(m.group(1)) * 0.3, 2), "rounds": 10}, "around_corners": True,
                "area": {"shape": "self", "radius_m": round(int(m.group(1)) * 0.3, 2)}}
    m = BOLTS.match(text)
    if m and m.group(2) in NUMBERS:
        return {"bolts": NUMBERS[m.group(2)]}
    m = ROAR.match(text)
    if m:
        first = roars(m)[0]           # the entry as listed: the first roar (the record reads the third's damage)
        return {"roars": roars(m), "hearing": True, "ability": first["ability"], "dc": first["dc"], "damage": [],
                "half": False, "condition": "frightened", "repeat_save": True}
    return None


USES = re.compile(r"^The (\w+) uses ([\w ]+)\.$")


def legendary_uses(c: dict, f: dict) -> dict | None:
    """SRD-80 "Lightning Storm (Costs 2 Actions). The kraken uses Lightning Storm.": the legendary option that uses
    one of its save actions with bolts (SRD-78), or None."""
    m = USES.match(_text(f))
    used = next((g for g in c["actions"] if m and g.get("kind") == "save" and _base(g["name"]) == m.group(2)), None)
    if used is None or not (extra(c, used) or {}).get("bolts"):
        return None
    return {"name": _base(f["name"]), "cost": int(f.get("cost", 1)), "kind": "bolts", "feature": _base(used["name"])}


def legendary(c: dict) -> list[dict]:
    return [o for o in (legendary_uses(c, f) for f in c.get("legendary_actions") or ()) if o is not None]


def adjust(c: dict, saves: list[dict]) -> list[dict]:
    """The block's ``creature_actions`` entries with the keys SRD-74..79 add."""
    by_name = {_base(f["name"]): f for f in c["actions"] if f.get("kind") == "save"}
    out = []
    for e in saves:
        f = by_name.get(e["name"])
        more = extra(c, f) if f is not None else None
        out.append({**e, **more} if more else e)
    return out


#: what SRD-79 leaves out of Fetid Cloud (the feature is then not counted as modelled)
LEFT_OUT = ("played as SRD-79 (the lasting cloud, its save as a turn starts in it, the poison until the start of the "
            "next turn with one of action or bonus action and no reactions); left out: its area being lightly obscured "
            "(the rules have no lightly obscured areas) and a strong wind (Gust of Wind) dispersing it")


def status(c: dict, section: str, f: dict) -> tuple[bool, str] | None:
    """(modelled, why) for the features played here, or None."""
    if section == "legendary_actions":
        return (True, "") if legendary_uses(c, f) is not None else None
    if section == "reactions":
        return (True, "") if _base(f["name"]) == "Parry" and PARRY.match(_text(f)) else None
    if section != "actions":
        return None
    more = extra(c, f) if f.get("kind") == "save" else None
    if more is not None:
        return (False, LEFT_OUT) if more.get("cloud") else (True, "")
    if f.get("kind") == "multiattack":
        um = USES_FIRST.match(_text(f))
        if not um:
            return None
        used = next((g for g in c["actions"] if _base(g["name"]) == um.group(2) and g.get("kind") == "save"), None)
        names = {g["name"] for g in c["actions"] if g.get("kind") == "attack"}
        rest = {x["action"] for o in f["options"] for x in o} - names - {um.group(2)}
        if used is not None and not rest and (extra(c, used) or {}).get("in_multiattack"):
            return True, ""
    return None
