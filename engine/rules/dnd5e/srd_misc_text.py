"""Four flyers' features as read from a creature record's text (assets/srd/creatures.json, issue 44): the oni's
Multiattack and Glaive, the chimera's breath within its Multiattack and the balor's Death Throes. What they add to
the sheet (``character_keys``, ``adjust``) and whether each is played whole (``status``). The rules that play them:
engine/rules/dnd5e/srd_misc.py (SRD-105, SRD-107), srd_alternative.py (SRD-106), srd_burst.py (SRD-108); the
catalogue: srd_catalogue_misc.py.

Sheet keys given (any 5e character may carry them)::

    multiattack = [{Glaive = 2}, {"Claw (Oni Form Only)" = 2}]     # SRD-105 "either with its claws or its glaive"
    multiattack = [{Bite = 1, Horns = 1, Claws = 1}, {"Fire Breath" = 1, Horns = 1, Claws = 1}, ...]    # SRD-107
    creature_actions = [{name = "Fire Breath", ..., in_place_of = ["Bite", "Horns"]}]                  # SRD-107
    death_burst = {dc = 20, ability = "dex", damage = [...], half = true, area = {...}, throes = true}  # SRD-108

and the weapon's ``alternative`` ``when = "small_form"`` (SRD-106: srd_blocks reads "in Small" as such).
"""

from __future__ import annotations

import re

from engine.rules.dnd5e.srd_features import read

NAME = r"[\w' -]+"
#: SRD-105 "The oni makes two attacks, either with its claws or its glaive."
EITHER = re.compile(r"^The [\w' -]+ makes (two|three) attacks, either with its ([\w ]+?) or (?:with )?its ([\w ]+?)\.$")
NUMBERS = {"two": 2, "three": 3}
#: "Claw (Oni Form Only)": an attack of its true form only (SRD-105)
FORM_ONLY = re.compile(r"\((\w+) Form Only\)$")
#: SRD-106 "Hit: 15 (2d10 + 4) slashing damage, or 9 (1d10 + 4) slashing damage in Small or Medium form."
SMALL_FORM = re.compile(r"damage, or \d+ \(\d+d\d+ ?[+-] ?\d+\) \w+ damage in Small or Medium form\.$")
#: SRD-107 "When its fire breath is available, it can use the breath in place of its bite or horns."
IN_PLACE = re.compile(r"When its ([\w ]+?) is available, it can use the breath in place of its (\w+) or (\w+)\.$")
#: SRD-108 the balor's Death Throes, whole
THROES = re.compile(r"^When the (\w+) dies, it explodes, and each creature within (\d+) feet of it must make a DC (\d+) "
                    r"Dexterity saving throw, taking \d+ \((\d+d\d+)\) (\w+) damage on a failed save, or half as much "
                    r"damage on a successful one\. The explosion ignites flammable objects in that area that aren't "
                    r"being worn or carried, and it destroys the \1's weapons\.$")


def _text(f: dict) -> str:
    return " ".join(f["desc"].split())


def _base(name: str) -> str:
    return re.sub(r"\s*\(.*\)$", "", name).strip().lower()


def _attack(c: dict, said: str) -> str | None:
    """The attack a Multiattack names ("claws" -> "Claw (Oni Form Only)"): singular or plural, its parenthesis
    aside."""
    key = said.strip().lower()
    for g in c["actions"]:
        if g.get("kind") == "attack" and _base(g["name"]) in (key, key.rstrip("s")):
            return g["name"]
    return None


def _multiattack(c: dict) -> dict | None:
    return next((f for f in c["actions"] if f.get("kind") == "multiattack"), None)


def either(c: dict) -> list[dict] | None:
    """SRD-105: "makes two attacks, either with its claws or its glaive" -- two of one kind (the drider's "either
    with its longsword or its longbow" is read the same), each attack found by its name without "(Oni Form Only)"."""
    ma = _multiattack(c)
    m = EITHER.match(_text(ma)) if ma else None
    if not m:
        return None
    names = [_attack(c, m.group(2)), _attack(c, m.group(3))]
    if None in names or not any(FORM_ONLY.search(n or "") for n in names):
        return None          # only where the block's own combinations miss an attack by its "(... Form Only)" name
    return [{n: NUMBERS[m.group(1)]} for n in names if n]


def in_place(c: dict) -> tuple[str, list[str]] | None:
    """SRD-107: (the breath's name, the attacks it may replace) for "When its fire breath is available, it can use
    the breath in place of its bite or horns", where the breath is a recharge save action of the block."""
    ma = _multiattack(c)
    m = IN_PLACE.search(_text(ma)) if ma else None
    if not m:
        return None
    breath = next((re.sub(r"\s*\(.*\)$", "", g["name"]).strip() for g in c["actions"] if g.get("kind") == "save" and g.get("recharge")
                   and _base(g["name"]) == m.group(1).lower()), None)
    replaced = [_attack(c, m.group(2)), _attack(c, m.group(3))]
    if breath is None or None in replaced:
        return None
    return breath, [r for r in replaced if r]


def _combos(c: dict, breath: str) -> list[dict]:
    """The block's combinations as parsed (the breath in place of each), names of its attacks and the breath only."""
    names = {g["name"] for g in c["actions"] if g.get("kind") == "attack"} | {breath}
    out: list[dict] = []
    ma = _multiattack(c) or {"options": []}          # in_place found it
    for o in ma["options"]:
        combo: dict = {}
        for x in o:
            if x["action"] in names:
                combo[x["action"]] = combo.get(x["action"], 0) + x["count"]
        if combo and combo not in out:
            out.append(combo)
    return out


def throes(c: dict, f: dict) -> dict | None:
    """SRD-108: the sheet's ``death_burst`` for the balor's Death Throes (its save around it when it dies, with
    ``throes``: the weapons destroyed), or None."""
    m = THROES.match(_text(f)) if f.get("kind") == "trait_save" else None
    if not m:
        return None
    return {"dc": int(m.group(3)), "ability": "dex", "damage": [{"dice": m.group(4), "type": m.group(5).lower()}],
            "half": True, "area": {"shape": "self", "radius_m": round(int(m.group(2)) * 0.3, 2)}, "throes": True}


def character_keys(c: dict) -> dict:
    out: dict = {}
    combos = either(c)
    if combos:
        out["multiattack"] = combos                         # SRD-105
    ip = in_place(c)
    if ip:
        out["multiattack"] = _combos(c, ip[0])              # SRD-107
    tr = next((e for e in (throes(c, f) for f in c["traits"] if _base(f["name"]) == "death throes") if e), None)
    if tr:
        out["death_burst"] = tr                             # SRD-108
    return out


def adjust(c: dict, saves: list[dict]) -> list[dict]:
    """SRD-107: the breath's entry says which attacks it may take the place of."""
    ip = in_place(c)
    if not ip:
        return saves
    return [{**e, "in_place_of": ip[1]} if e["name"] == ip[0] else e for e in saves]


def small_form(c: dict, f: dict) -> bool:
    """SRD-106: an attack whose other damage is "in Small or Medium form", of a creature whose Change Shape takes a
    Small or Medium form (SRD-37, srd_features)."""
    shape = [read("actions", g) for g in c["actions"] if _base(g["name"]) == "change shape"]
    return bool(SMALL_FORM.search(_text(f))) and any(s and s[1].get("kind") == "shape" and "small" in s[1]["sizes"]
                                                     for s in shape)


def status(c: dict, section: str, f: dict) -> tuple[bool, str] | None:
    """(modelled, why) for the features played here, or None."""
    if section == "actions" and f.get("kind") == "multiattack" and (either(c) or in_place(c)):
        return True, ""
    if section == "actions" and f.get("kind") == "attack" and (f.get("versatile") or {}).get("when") == "in Small":
        return (True, "") if small_form(c, f) else None
    if section == "traits" and _base(f["name"]) == "death throes" and throes(c, f):
        return True, ""
    return None
