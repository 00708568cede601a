"""A Foundry VTT dnd5e actor export (an NPC) read as a 5e-database monster, so the one reader
(engine/compendium/fivee_db.py) makes its creature record: both item formats -- dnd5e 2.x-3.x (``system.actionType``,
``system.damage.parts = [["2d10 + @mod", "piercing"], ...]``, ``system.save``, ``system.recharge``) and 4.x-5.x
(``system.activities``: attack / save / utility, ``damage.base`` and ``parts``, ``uses.recovery`` recharge).

Each item becomes a trait, action, reaction or legendary action by its activation; an attack's and a save's text
is written from the numbers as the SRD writes it ("Melee Weapon Attack: +10 to hit, reach 10 ft., one target. Hit:
17 (2d10 + 6) piercing damage plus 3 (1d6) fire damage."), the rest from the item's description with its HTML and
enrichers (``[[/item ...]]{claws}``, ``[[/save]]``, ``[[/damage average]]``) resolved.
"""

from __future__ import annotations

import html
import re
from typing import Any

from engine.compendium.fivee_db import BadMonster

SIZES = {"tiny": "Tiny", "sm": "Small", "med": "Medium", "lg": "Large", "huge": "Huge", "grg": "Gargantuan"}
ABILITY_LONG = {"str": "Strength", "dex": "Dexterity", "con": "Constitution", "int": "Intelligence",
                "wis": "Wisdom", "cha": "Charisma"}
SKILLS = {"acr": "acrobatics", "ani": "animal-handling", "arc": "arcana", "ath": "athletics", "dec": "deception",
          "his": "history", "ins": "insight", "itm": "intimidation", "inv": "investigation", "med": "medicine",
          "nat": "nature", "prc": "perception", "prf": "performance", "per": "persuasion", "rel": "religion",
          "slt": "sleight-of-hand", "ste": "stealth", "sur": "survival"}
SKILL_ABILITY = {"acr": "dex", "ani": "wis", "arc": "int", "ath": "str", "dec": "cha", "his": "int", "ins": "wis",
                 "itm": "cha", "inv": "int", "med": "wis", "nat": "int", "prc": "wis", "prf": "cha", "per": "cha",
                 "rel": "int", "slt": "dex", "ste": "dex", "sur": "wis"}
PHYSICAL = ("bludgeoning", "piercing", "slashing")


def is_actor(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("system"), dict) and data.get("type") in ("npc", "character")


def _mod(score: int) -> int:
    return (score - 10) // 2


def _prof(cr: float) -> int:
    return 2 + max(0, (int(max(cr, 1)) - 1) // 4)


def _num(v, default=0):
    try:
        return int(float(v))
    except (TypeError, ValueError):
        return default


def _text(raw: str) -> str:
    """An item description as plain text: enrichers' labels kept, HTML gone; a 2.x-3.x description's stat-block
    text (its ``<section class="secret">``) without the chat line after it."""
    sec = re.search(r'<section class="secret">(.*?)</section>', raw or "", re.S)
    raw = sec.group(1) if sec else raw
    s = re.sub(r"\[\[/item [^\]]*\]\]\{([^}]*)\}", r"\1", raw or "")
    s = re.sub(r"@UUID\[[^\]]*\]\{([^}]*)\}", r"\1", s)
    s = re.sub(r"<[^>]+>", " ", s)
    s = re.sub(r"&Reference\[([a-zA-Z]+)[^\]]*\](?:\{([^}]*)\})?", lambda m: m.group(2) or m.group(1),
               html.unescape(s))
    return re.sub(r"\s+", " ", s).strip()


def _dice(number, denomination, bonus: int) -> str:
    d = f"{number}d{denomination}" if number and denomination else ""
    if not d:
        return str(bonus)
    return d + (f" + {bonus}" if bonus > 0 else f" - {-bonus}" if bonus < 0 else "")


def _avg(number, denomination, bonus: int) -> int:
    return int(number * (denomination + 1) / 2 + bonus) if number and denomination else bonus


def _part_text(number, denomination, bonus, dtype) -> str:
    b = _avg(number, denomination, bonus)
    return f"{b} ({_dice(number, denomination, bonus)}) {dtype} damage" if number else f"{b} {dtype} damage"


def _formula(text: str, mod: int) -> tuple[int, int, int]:
    """'2d10 + @mod' -> (2, 10, mod); '1d6' -> (1, 6, 0); '5' -> (0, 0, 5)."""
    t = str(text).replace(" ", "")
    m = re.match(r"(\d+)d(\d+)(.*)", t)
    n, d, rest = (int(m.group(1)), int(m.group(2)), m.group(3)) if m else (0, 0, t)
    bonus = 0
    for sign, term in re.findall(r"([+-]?)([^+-]+)", rest):
        v = mod if term == "@mod" else _num(term, 0)
        bonus += -v if sign == "-" else v
    return n, d, bonus


class _Item:
    """One item read in either format: what kind of feature it is and its numbers."""

    def __init__(self, it: dict, actor: dict, where: str) -> None:
        if not isinstance(it, dict) or not isinstance(it.get("system"), dict) or not isinstance(it.get("name"), str):
            raise BadMonster(where, "an item is a table with a name and a system")
        self.name = it["name"]
        self.sys = it["system"]
        self.where = where
        self.actor = actor
        acts = self.sys.get("activities")
        self.activities = list(acts.values()) if isinstance(acts, dict) else []

    def activation(self) -> str:
        for a in self.activities:
            t = (a.get("activation") or {}).get("type")
            if t:
                return t
        return str((self.sys.get("activation") or {}).get("type") or "")

    def recharge(self) -> int | None:
        r = self.sys.get("recharge")
        if isinstance(r, dict) and r.get("value"):
            return _num(r["value"], 6)
        for rec in (self.sys.get("uses") or {}).get("recovery") or []:
            if isinstance(rec, dict) and rec.get("period") == "recharge":
                return _num(rec.get("formula"), 6)
        return None


def monster(actor: dict, where: str = "actor") -> dict:
    """The actor as a 5e-database monster (raises :class:`BadMonster` naming the key)."""
    if not is_actor(actor):
        raise BadMonster(where, "not a Foundry VTT actor (a JSON object with type npc and a system)")
    name = actor.get("name")
    if not isinstance(name, str) or not name.strip():
        raise BadMonster(f"{where}.name", "an actor needs a name")
    s = actor["system"]
    try:
        ab = {k: _num(s["abilities"][k]["value"], 10) for k in ABILITY_LONG}
        attrs, details, traits = s["attributes"], s["details"], s["traits"]
        hp = attrs["hp"]
        mv = attrs.get("movement") or {}
    except (KeyError, TypeError):
        raise BadMonster(f"{where}.system", "an NPC's abilities, attributes (hp, movement), details and traits") \
            from None
    cr = details.get("cr")
    if isinstance(cr, str):
        try:
            cr = float(eval_fraction(cr))
        except ValueError:
            raise BadMonster(f"{where}.system.details.cr", f"not a challenge rating: {cr!r}") from None
    if not isinstance(cr, (int, float)) or isinstance(cr, bool):
        raise BadMonster(f"{where}.system.details.cr", "a challenge rating")
    prof = _num(attrs.get("prof"), 0) or _prof(cr)
    unit = 1.0 if (mv.get("units") or "ft") == "ft" else 1 / 0.3
    speed: dict[str, Any] = {k: f"{round(_num(mv.get(k)) * unit)} ft." for k in ("walk", "fly", "swim", "climb", "burrow")
             if _num(mv.get(k))}
    if mv.get("hover"):
        speed["hover"] = True
    ac = attrs.get("ac") or {}
    ac_value = _num(ac.get("flat") or ac.get("value"), 0) or 10 + _mod(ab["dex"])
    profs = []
    for k, long in ABILITY_LONG.items():
        if _num(s["abilities"][k].get("proficient")):
            profs.append({"value": _mod(ab[k]) + prof,
                          "proficiency": {"index": f"saving-throw-{k}", "name": f"Saving Throw: {k.upper()}"}})
    for k, sk in (s.get("skills") or {}).items():
        mult = float((sk or {}).get("value") or 0) if isinstance(sk, dict) else 0
        if mult and k in SKILLS:
            profs.append({"value": _mod(ab[SKILL_ABILITY[k]]) + int(mult * prof),
                          "proficiency": {"index": f"skill-{SKILLS[k]}"}})
    typ = details.get("type")
    m: dict[str, Any] = {
        "index": re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60] or "creature",
        "name": name.strip(), "size": SIZES.get(str(traits.get("size", "med")), "Medium"),
        "type": (typ.get("value") if isinstance(typ, dict) else typ) or "",
        "subtype": (typ.get("subtype") if isinstance(typ, dict) else None) or None,
        "alignment": str(details.get("alignment") or "").lower(),
        "armor_class": [{"type": str(ac.get("calc") or "natural"), "value": ac_value}],
        "hit_points": _num(hp.get("max") or hp.get("value"), 0), "hit_points_roll": str(hp.get("formula") or ""),
        "speed": speed, "challenge_rating": cr, "proficiency_bonus": prof,
        **{long.lower(): ab[k] for k, long in ABILITY_LONG.items()},
        "proficiencies": profs,
        "damage_resistances": _damage_traits(traits.get("dr")), "damage_immunities": _damage_traits(traits.get("di")),
        "damage_vulnerabilities": _damage_traits(traits.get("dv")),
        "condition_immunities": [{"index": c} for c in (traits.get("ci") or {}).get("value") or []],
        "senses": _senses(attrs.get("senses") or {}),
        "languages": ", ".join((traits.get("languages") or {}).get("value") or []),
        "special_abilities": [], "actions": [], "reactions": [], "legendary_actions": [],
    }
    m["hit_points_roll"] = m["hit_points_roll"].replace(" ", "")
    items = actor.get("items") or []
    if not isinstance(items, list):
        raise BadMonster(f"{where}.items", "a list of items")
    for j, raw in enumerate(items):
        it = _Item(raw, actor, f"{where}.items[{j}]")
        if raw.get("type") in ("spell", "loot", "equipment", "container", "consumable", "tool", "class", "subclass",
                               "background", "race"):
            continue
        f = _feature(it, ab, prof)
        act = it.activation()
        section = {"action": "actions", "bonus": "actions", "reaction": "reactions", "legendary": "legendary_actions",
                   "lair": None}.get(act, "special_abilities")
        if it.name.lower() == "multiattack":
            section = "actions"
        if section:
            m[section].append(f)
    return m


def eval_fraction(text: str) -> float:
    a, _, b = text.partition("/")
    return float(a) / float(b) if b else float(a)


def _damage_traits(t) -> list[str]:
    if not isinstance(t, dict):
        return []
    vals = [str(v) for v in t.get("value") or []]
    out = [v for v in vals if not (v in PHYSICAL and "mgc" in (t.get("bypasses") or []))]
    phys = [v for v in PHYSICAL if v in vals and "mgc" in (t.get("bypasses") or [])]
    if phys:
        out.append(", ".join(phys[:-1]) + (", and " if len(phys) > 2 else " and " if len(phys) == 2 else "")
                   + phys[-1] + " from nonmagical weapons")
    if t.get("custom"):
        out.append(str(t["custom"]))
    return out


def _senses(s: dict) -> dict:
    return {k: f"{_num(s.get(k))} ft." for k in ("darkvision", "blindsight", "tremorsense", "truesight")
            if _num(s.get(k))}


def _feature(it: _Item, ab: dict, prof: int) -> dict:
    """The item as a 5e-database feature ({name, desc, usage})."""
    name = it.name
    r = it.recharge()
    f: dict[str, Any] = {"name": name}
    if r:
        f["usage"] = {"type": "recharge on roll", "dice": "1d6", "min_value": r}
    elif _per_day(it.sys):
        f["usage"] = {"type": "per day", "times": _per_day(it.sys)}
    attack = _attack_text(it, ab, prof)
    save = _save_text(it)
    desc = _text((it.sys.get("description") or {}).get("value", ""))
    f["desc"] = attack or save or desc
    return f


def _per_day(s: dict) -> int:
    """Uses a day: 4.x ``uses.max`` with a ``day`` recovery, 2.x-3.x ``uses.per = "day"``."""
    u = s.get("uses") or {}
    if not isinstance(u, dict):
        return 0
    rec = u.get("recovery") or []
    daily = u.get("per") == "day" or any(isinstance(r, dict) and r.get("period") == "day" for r in rec
                                         if isinstance(rec, list))
    return _num(u.get("max"), 0) if daily else 0


def _attack_text(it: _Item, ab: dict, prof: int) -> str | None:
    s = it.sys
    act = next((a for a in it.activities if a.get("type") == "attack"), None)
    kind = s.get("actionType")
    if act is None and kind not in ("mwak", "rwak", "msak", "rsak"):
        return None
    if act is not None:
        atype = ((act.get("attack") or {}).get("type") or {})
        melee = atype.get("value", "melee") == "melee"
        spell = atype.get("classification") == "spell"
        ability = (act.get("attack") or {}).get("ability") or ""
        bonus = _num((act.get("attack") or {}).get("bonus"), 0)
    else:
        melee, spell = kind in ("mwak", "msak"), kind in ("msak", "rsak")
        ability, bonus = s.get("ability") or "", _num(s.get("attackBonus"), 0)
    props = s.get("properties") or []
    if not ability:
        ability = "dex" if (not melee or ("fin" in props and ab["dex"] > ab["str"])) else "str"
    mod = _mod(ab.get(ability, 10))
    to_hit = mod + (prof if _num(s.get("proficient", 1), 1) or act is None else 0) + bonus
    rng = s.get("range") or {}
    if melee:
        reach = _num(rng.get("reach")) or _num(rng.get("value")) or 5
        where = f"reach {reach} ft."
    else:
        where = f"range {_num(rng.get('value'))}/{_num(rng.get('long')) or _num(rng.get('value'))} ft."
    parts = []
    if act is not None:
        base = (s.get("damage") or {}).get("base") or {}
        dm = act.get("damage") or {}
        if dm.get("includeBase", True) and base.get("number"):
            parts.append((base["number"], base["denomination"], mod + _num(base.get("bonus"), 0),
                          (base.get("types") or ["bludgeoning"])[0]))
        for p in dm.get("parts") or []:
            parts.append((p.get("number") or 0, p.get("denomination") or 0, _num(p.get("bonus"), 0),
                          (p.get("types") or ["bludgeoning"])[0]))
    else:
        for j, p in enumerate((s.get("damage") or {}).get("parts") or []):
            if isinstance(p, list) and len(p) == 2:
                n, d, b = _formula(p[0], mod)
                parts.append((n, d, b, p[1] or "bludgeoning"))
    how = ("Melee" if melee else "Ranged") + (" Spell" if spell else " Weapon")
    hit = " plus ".join(_part_text(*p) for p in parts) or "0 bludgeoning damage"
    return f"{how} Attack: {to_hit:+d} to hit, {where}, one target. Hit: {hit}."


def _save_text(it: _Item) -> str | None:
    s = it.sys
    act = next((a for a in it.activities if a.get("type") == "save"), None)
    desc = (s.get("description") or {}).get("value", "")
    if act is not None:
        sv = act.get("save") or {}
        abil = sv.get("ability")
        abil = abil[0] if isinstance(abil, list) and abil else abil
        dc = _num((sv.get("dc") or {}).get("formula") if isinstance(sv.get("dc"), dict) else sv.get("dc"), 0)
        dm = act.get("damage") or {}
        parts = [(p.get("number") or 0, p.get("denomination") or 0, _num(p.get("bonus"), 0),
                  (p.get("types") or ["bludgeoning"])[0]) for p in dm.get("parts") or []]
        half = dm.get("onSave") == "half"
        tpl = (act.get("target") or {}).get("template") or {}
    elif s.get("actionType") == "save":
        sv = s.get("save") or {}
        abil, dc = sv.get("ability"), _num(sv.get("dc"), 0)
        parts = [(*_formula(p[0], 0), p[1]) for p in (s.get("damage") or {}).get("parts") or []
                 if isinstance(p, list) and len(p) == 2]
        half = "half as much" in desc
        t = s.get("target") or {}
        tpl = {"type": t.get("type"), "size": t.get("value"), "width": t.get("width")}
    else:
        return None
    if abil not in ABILITY_LONG or not dc:
        return None
    save = f"DC {dc} {ABILITY_LONG[abil]} saving throw"
    text = _text(desc)
    if "saving throw" in text and re.search(r"DC \d+", text):
        return text                                     # the 2.x-3.x description is the stat block's text
    dmg = " plus ".join(_part_text(*p) for p in parts)
    area = ""
    if tpl.get("type") in ("cone", "line", "cube", "sphere", "cylinder", "radius") and _num(tpl.get("size")):
        shape = "sphere" if tpl["type"] == "radius" else tpl["type"]
        area = f"in a {_num(tpl['size'])}-foot {shape}" + (
            f" that is {_num(tpl.get('width'))} feet wide" if shape == "line" and _num(tpl.get("width")) else "")
    text = text.replace("[[/save]] saving throw", save).replace("[[/save]]", save)
    if dmg:
        text = re.sub(r"\[\[/damage[^\]]*\]\]( damage)?", dmg, text)
    if "saving throw" not in text:
        text = f"Each creature {area or 'in range'} must make a {save}" + (
            f", taking {dmg} on a failed save" + (", or half as much damage on a successful one" if half else "")
            if dmg else "") + "."
    elif area and area.split(" ", 2)[2] not in text:
        text = f"{text} ({area})"
    return text
