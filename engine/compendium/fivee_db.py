"""A 5e-database monster (``src/2014/en/5e-SRD-Monsters.json``, https://github.com/5e-bits/5e-database) read into
Aerie's creature record: metres (5 ft = 1.5 m), every trait, action, reaction and legendary action parsed from its
text as well as its structured fields. Where the two disagree, the stat block's prose governs (the SRD is the text;
the structured fields are 5e-database's reading of it) and the record's ``settled`` lists each disagreement: a
breath weapon whose ``success_type`` is ``none`` while its text says "half as much damage on a successful one", a DC
only in the text, a rider's damage (the aboleth's disease, "every 10 minutes") listed as the hit's.

Pure data in, data out: the tool (tools/gen_srd_creatures.py) writes assets/srd/creatures.json with it, and
``aerie import`` reads a GM's 5e-database monster with the same code, so an import equals the shipped creature.
"""

from __future__ import annotations

import re
from typing import Any

FT = 0.3                      # 5 ft = 1.5 m
ABILITY_NAMES = {"strength": "str", "dexterity": "dex", "constitution": "con", "intelligence": "int",
                 "wisdom": "wis", "charisma": "cha"}
ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
CONDITIONS = ("blinded", "charmed", "deafened", "frightened", "grappled", "incapacitated", "invisible",
              "paralyzed", "petrified", "poisoned", "prone", "restrained", "stunned", "unconscious", "exhaustion")
SECTIONS = (("traits", "special_abilities"), ("actions", "actions"), ("reactions", "reactions"),
            ("legendary_actions", "legendary_actions"))
SOURCE = "SRD 5.1 (CC-BY-4.0), via 5e-database"

DICE = r"\d+d\d+(?:\s*[+\-−]\s*\d+)?"
DMG = re.compile(r"(\d+) \((" + DICE + r")\) (\w+) damage")
FLAT_DMG = re.compile(r"(?<![(\d])(\d+) (\w+) damage")
ATTACK = re.compile(r"\s*(Melee or Ranged|Melee|Ranged) (Weapon|Spell) Attack: ([+\-]\d+) to hit"
                    r"(?: \([^)]*\))?, (.*?), ([^.]*?)\. Hit: (.*)", re.S)
REACH = re.compile(r"reach (\d+) ft")
RANGE = re.compile(r"range (\d+)(?:/(\d+))? ft")
SAVE = re.compile(r"DC (\d+) (Strength|Dexterity|Constitution|Intelligence|Wisdom|Charisma) saving throw")
HALF = re.compile(r"half as much damage on a successful one|half (?:as much )?damage on a success", re.I)
RECHARGE = re.compile(r"\(Recharge (\d)(?:[–\-](\d))?\)")
PER_DAY = re.compile(r"\((\d+)/Day\)", re.I)
COSTS = re.compile(r"\(Costs (\d+) Actions\)")
AREA = re.compile(r"(\d+)-foot(?:-radius)? (cone|line|cube|sphere|cylinder)|(\d+)-foot[- ]radius", re.I)
LINE_WIDTH = re.compile(r"line that is (\d+) feet wide")
WITHIN = re.compile(r"(?:each|every|any) (?:other )?creature (?:with)?in (\d+) (?:feet|ft\.?) of", re.I)
CONDITION_ON_FAIL = re.compile(r"\b(?:be|is|become|becomes|be knocked|is knocked|knocked) ("
                               + "|".join(CONDITIONS) + r")\b")
ESCAPE = re.compile(r"grappled \(escape DC (\d+)\)")
MULTI_NUM = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "once": 1,
             "twice": 2}


class BadMonster(ValueError):
    """A monster this reader cannot take: ``key`` names where (``actions[2].desc``)."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"{key}: {problem}")
        self.key = key
        self.problem = problem


def feet(text: Any) -> float:
    """'40 ft.' -> 12.0 (metres: 5 ft = 1.5 m)."""
    m = re.match(r"\s*(\d+)\s*ft", str(text))
    return round(int(m.group(1)) * FT, 2) if m else 0.0


def _dice(s: str) -> str:
    return re.sub(r"\s+", "", s.replace("−", "-"))


def _mentions(text: str) -> list[tuple[int, int, dict]]:
    """Every 'N (XdY + Z) type damage' and flat 'N type damage' in ``text``, by position."""
    out = [(m.start(), m.end(), {"avg": int(m.group(1)), "dice": _dice(m.group(2)), "type": m.group(3).lower()})
           for m in DMG.finditer(text)]
    for m in FLAT_DMG.finditer(text):
        if m.group(2).lower() not in ("more", "extra", "the") and not any(a <= m.start() < b for a, b, _ in out):
            out.append((m.start(), m.end(), {"avg": int(m.group(1)), "dice": m.group(1), "type": m.group(2).lower()}))
    return sorted(out, key=lambda t: t[0])


def _damages(text: str) -> list[dict]:
    return [d for _, _, d in _mentions(text)]


def _id(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def parse_attack(text: str) -> dict | None:
    """'Melee Weapon Attack: +9 to hit, reach 10 ft., one target. Hit: 12 (2d6 + 5) bludgeoning damage ...'."""
    m = ATTACK.match(text)
    if not m:
        return None
    how, kind, bonus, where, target, hit = m.groups()
    first_sentence = re.split(r"\.(?:\s|$)", hit, maxsplit=1)[0]
    sv = SAVE.search(first_sentence)
    dmg_text = first_sentence[:sv.start()] if sv else first_sentence
    out: dict[str, Any] = {"kind": "attack", "melee": "Melee" in how, "ranged": "Ranged" in how,
                           "spell": kind == "Spell", "to_hit": int(bonus), "target": target.strip()}
    r = REACH.search(where)
    if r:
        out["reach_m"] = round(int(r.group(1)) * FT, 2)
    g = RANGE.search(where)
    if g:
        n = int(g.group(1))
        out["range_m"] = [round(n * FT, 2), round(int(g.group(2) or n) * FT, 2)]
    parts: list[dict] = []
    last = 0
    for i, (a0, a1, d) in enumerate(_mentions(dmg_text)):
        between = dmg_text[last:a0]
        last = a1
        if i and re.search(r"\bor\b", between) and "plus" not in between and "versatile" not in out:
            # "…, or 10 (1d10 + 3) slashing damage if used with two hands": an alternative, not more damage
            nxt = re.split(r",? plus |\bor\b|, and ", dmg_text[a1:], maxsplit=1)[0]
            out["versatile"] = {**d, "when": nxt.strip(" ,.")[:80]}
            continue
        if i and re.search(r"\band\b", between) and "plus" not in between:
            break       # "…, and the target takes …": a rider, not the hit's damage
        parts.append(d)
    out["hit"] = parts
    rest = hit[len(first_sentence):]
    s = SAVE.search(hit)
    if s:
        out["on_hit_save"] = {"dc": int(s.group(1)), "ability": ABILITY_NAMES[s.group(2).lower()]}
        c = CONDITION_ON_FAIL.search(hit[s.end():])
        if c:
            out["on_hit_save"]["condition"] = c.group(1)
        later = _damages(hit[s.end():])
        if later:
            out["on_hit_save"]["damage"] = later
            out["on_hit_save"]["half"] = bool(HALF.search(hit))
    e = ESCAPE.search(hit)
    if e:
        out["grapple_escape_dc"] = int(e.group(1))
    if rest.strip(" ."):
        out["rider"] = rest.strip(" .")[:300]
    return out


def parse_save(text: str) -> dict | None:
    """An action that forces a save: its DC, ability, damage, half on a success, area, condition."""
    s = SAVE.search(text)
    if not s:
        return None
    out: dict[str, Any] = {"kind": "save", "dc": int(s.group(1)), "ability": ABILITY_NAMES[s.group(2).lower()]}
    dm = _damages(text)
    if dm:
        out["damage"] = dm
        out["half"] = bool(HALF.search(text))
    c = CONDITION_ON_FAIL.search(text[s.end():]) or CONDITION_ON_FAIL.search(text)
    if c:
        out["condition"] = c.group(1)
    a = AREA.search(text)
    if a:
        if a.group(2):
            shape = a.group(2).lower()
            size_ft = int(a.group(1))
            area: dict[str, Any] = {"shape": shape}
            if shape in ("cone", "line"):
                area["length_m"] = round(size_ft * FT, 2)
                if shape == "line":
                    w = LINE_WIDTH.search(text)
                    area["width_m"] = round(int(w.group(1)) * FT, 2) if w else 1.5
            elif shape == "cube":
                area["side_m"] = round(size_ft * FT, 2)
            else:
                area["radius_m"] = round(size_ft * FT, 2)
        else:
            area = {"shape": "sphere", "radius_m": round(int(a.group(3)) * FT, 2)}
        out["area"] = area
    else:
        w = WITHIN.search(text)
        if w:
            out["area"] = {"shape": "self", "radius_m": round(int(w.group(1)) * FT, 2)}
    return out


def parse_multiattack(text: str, action_names: list[str]) -> dict:
    """'The dragon makes three attacks: one with its bite and two with its claws.' -> options, each a list of
    {action, count}; 'Or …' / 'Alternatively, …' start another option. Names are matched to the creature's actions
    (singular or plural, case-insensitive)."""
    lower = {n.lower(): n for n in action_names}
    options: list[list[dict]] = []
    total = None
    m = re.search(r"makes (\w+) (?:\w+ )?attacks", text)
    if m and m.group(1) in MULTI_NUM:
        total = MULTI_NUM[m.group(1)]
    for part in re.split(r"\.\s+(?:Or|Alternatively),?\s+|\bor\b(?= (?:one|two|three|four|it|its|the) )", text):
        opt = []
        for num, name in re.findall(r"\b(one|two|three|four|five|six|once|twice)\b (?:with|of|attack with|using) "
                                    r"(?:its|his|her|their) ([A-Za-z' ]+?)(?=[,.;:]| and | or |$)", part):
            key = name.strip().lower()
            hit = lower.get(key) or lower.get(key.rstrip("s")) or lower.get(key[:-2] if key.endswith("es") else key)
            if hit is None:
                hit = next((v for k, v in lower.items() if key.startswith(k) or k.startswith(key.rstrip("s"))), None)
            if hit:
                opt.append({"action": hit, "count": MULTI_NUM[num]})
        for num, name in re.findall(r"(?:makes|make) (one|two|three|four|five|six) ([A-Za-z' ]+?) attacks", part):
            key = name.strip().lower()
            hit = lower.get(key) or lower.get(key.rstrip("s"))
            if hit:
                opt.append({"action": hit, "count": MULTI_NUM[num]})
        for name in re.findall(r"uses? (?:its|his|her) ([A-Z][A-Za-z' ]+?)(?=[,.;:]| and | or |$)", part):
            hit = lower.get(name.strip().lower())
            if hit:
                opt.append({"action": hit, "count": 1, "use": True})
        if opt:
            options.append(opt)
    return {"kind": "multiattack", "total": total, "options": options}


def _within(small: list[dict], big: list[dict]) -> bool:
    """Every {action, count} of ``small`` is in ``big`` with at least that count (the structured reading may add
    what the text allows under a condition: "if it has a shortsword drawn, it can also…")."""
    have = {x["action"]: x["count"] for x in big}
    return all(have.get(x["action"], 0) >= x["count"] for x in small if not x.get("use"))


def _match(name: str, action_names: list[str]) -> str | None:
    """An action named in a multiattack, found among the creature's actions (singular or plural)."""
    lower = {n.lower(): n for n in action_names}
    key = name.strip().lower()
    return lower.get(key) or lower.get(key.rstrip("s")) or lower.get(key + "s") \
        or lower.get(key[:-2] if key.endswith("es") else key)


def _structured_multiattack(a: dict) -> list[list[dict]]:
    if a.get("multiattack_type") == "actions":
        return [[{"action": x["action_name"], "count": int(x["count"])} for x in a.get("actions", [])
                 if str(x.get("count", "")).isdigit()]]
    opts = []
    for o in a.get("action_options", {}).get("from", {}).get("options", []):
        items = o.get("items", [o])
        opts.append([{"action": x["action_name"], "count": int(x["count"])} for x in items
                     if "action_name" in x and str(x.get("count", "")).isdigit()])
    return opts


def parse_feature(section: str, a: dict, action_names: list[str], where: str, settled: list) -> dict:
    """One trait / action / reaction / legendary action: the name as written, its text, and what it does."""
    if not isinstance(a, dict) or not isinstance(a.get("name"), str) or not isinstance(a.get("desc", ""), str):
        raise BadMonster(where, "a feature is a table with a name and a desc")
    name, text = a["name"], a.get("desc", "")
    f: dict[str, Any] = {"name": name, "desc": text}
    r = RECHARGE.search(name)
    usage = a.get("usage") or {}
    if r:
        f["recharge"] = [int(r.group(1)), int(r.group(2) or 6)]
    elif usage.get("type") == "recharge on roll":
        f["recharge"] = [int(usage.get("min_value", 6)), 6]
    if usage.get("type") == "recharge after rest":
        f["per_rest"] = True
    p = PER_DAY.search(name)
    if p or usage.get("type") == "per day":
        f["per_day"] = int(p.group(1)) if p else int(usage.get("times", 1))
    c = COSTS.search(name)
    if section == "legendary_actions":
        f["cost"] = int(c.group(1)) if c else 1
    parsed = None
    if section == "actions" and name == "Multiattack":
        parsed = parse_multiattack(text, action_names)
        struct = _structured_multiattack(a)
        prose = parsed["options"]
        # the text's reading where it is complete (its counts add up to the attacks it names); else the structured
        complete = [o for o in prose if parsed["total"] and sum(x["count"] for x in o if not x.get("use"))
                    == parsed["total"]]
        struct = [[{**x, "action": _match(x["action"], action_names) or x["action"]} for x in o] for o in struct]
        if struct and complete and not any(_within(complete[0], o) for o in struct):
            settled.append({"where": where, "field": "multiattack", "structured": struct, "prose": complete,
                            "why": "the combination as the text writes it"})
            parsed["options"] = complete + [o for o in struct[1:]]
        elif struct:
            parsed["options"] = struct
    elif "Attack:" in text[:60]:
        parsed = parse_attack(text)
    if parsed is None and SAVE.search(text) and section != "traits":
        parsed = parse_save(text)
    if parsed is None and section == "traits" and SAVE.search(text):
        parsed = parse_save(text)
        if parsed:
            parsed["kind"] = "trait_save"
    if parsed:
        f.update(parsed)
    _settle(f, a, where, settled)
    return f


def _settle(f: dict, a: dict, where: str, settled: list) -> None:
    """Compare the structured fields with the text; the text wins, each disagreement recorded."""
    dc = a.get("dc")
    text_dc = SAVE.search(f["desc"])
    if isinstance(dc, dict):
        st = dc.get("success_type")
        if f.get("kind") == "save" and "damage" in f and f.get("half") and st == "none":
            settled.append({"where": where, "field": "dc.success_type", "structured": "none",
                            "prose": "half", "why": "the text says half as much damage on a successful save"})
        if f.get("kind") == "save" and st == "half" and not f.get("half") and "damage" in f:
            settled.append({"where": where, "field": "dc.success_type", "structured": "half",
                            "prose": "none", "why": "the text gives no damage on a successful save"})
        sv = dc.get("dc_value")
        if text_dc and sv is not None and int(sv) != int(text_dc.group(1)):
            settled.append({"where": where, "field": "dc.dc_value", "structured": sv,
                            "prose": int(text_dc.group(1)), "why": "the DC written in the text"})
    elif text_dc and f.get("kind") in ("save", "trait_save", "attack"):
        settled.append({"where": where, "field": "dc", "structured": None, "prose": int(text_dc.group(1)),
                        "why": "a DC only in the text"})
    if f.get("kind") == "attack":
        struct = [{"dice": _dice(d.get("damage_dice", "")), "type": d.get("damage_type", {}).get("index")}
                  for d in a.get("damage", []) if isinstance(d, dict) and "damage_dice" in d]
        prose = [{"dice": d["dice"], "type": d["type"]} for d in f["hit"]]
        if struct and struct != prose:
            settled.append({"where": where, "field": "damage", "structured": struct, "prose": prose,
                            "why": "the hit's damage as the text writes it (riders, alternatives and later "
                                   "damage are not the hit's)"})
        ab = a.get("attack_bonus")
        if ab is not None and int(ab) != f["to_hit"]:
            settled.append({"where": where, "field": "attack_bonus", "structured": ab, "prose": f["to_hit"],
                            "why": "the bonus written in the text"})


def creature(m: dict, where: str = "monster") -> dict:
    """The creature record of one 5e-database monster; raises :class:`BadMonster` naming the key."""
    size, ac_list, speed, cr = _checked_core(m, where)
    abilities = _abilities(m, where)
    saves, skills = _proficiencies(m, where)
    senses = _senses(m)
    feats, settled = _features(m, where)
    ac0 = ac_list[0]
    rec = {
        "id": m["index"], "name": m["name"], "size": size, "type": str(m["type"]),
        "subtype": m.get("subtype"), "alignment": m.get("alignment", ""),
        "ac": int(ac0["value"]), "ac_type": str(ac0.get("type", "")),
        "ac_notes": [f"{x.get('value')} {x.get('type')}" for x in ac_list[1:] if isinstance(x, dict)],
        "hp": int(m["hit_points"]), "hp_formula": m.get("hit_points_roll") or m.get("hit_dice", ""),
        "hit_dice": m.get("hit_dice", ""),
        "speed_m": feet(speed.get("walk", "0 ft.")), "fly_speed_m": feet(speed.get("fly", "0 ft.")),
        "hover": bool(speed.get("hover", False)), "climb_speed_m": feet(speed.get("climb", "0 ft.")),
        "swim_speed_m": feet(speed.get("swim", "0 ft.")), "burrow_speed_m": feet(speed.get("burrow", "0 ft.")),
        "abilities": abilities, "saves": saves, "skills": skills, "senses": senses,
        "languages": m.get("languages", ""),
        "damage_resistances": [str(x) for x in m.get("damage_resistances", []) or []],
        "damage_immunities": [str(x) for x in m.get("damage_immunities", []) or []],
        "damage_vulnerabilities": [str(x) for x in m.get("damage_vulnerabilities", []) or []],
        "condition_immunities": [_cond(x) for x in m.get("condition_immunities", []) or []],
        "cr": cr, "xp": m.get("xp", 0), "proficiency_bonus": int(m.get("proficiency_bonus") or _prof(cr)),
        **feats,
        "legendary_points": 3 if feats["legendary_actions"] else 0,
        "source": SOURCE,
        "settled": settled,
    }
    return rec


def _checked_core(m, where: str) -> tuple[str, list, dict, int | float]:
    """The keys every monster has, checked: (size, armor class list, speed table, challenge rating)."""
    if not isinstance(m, dict):
        raise BadMonster(where, "a monster is a JSON object")
    for k in ("index", "name", "size", "type", "armor_class", "hit_points", "speed", "challenge_rating"):
        if k not in m:
            raise BadMonster(f"{where}.{k}", "missing (a 5e-database monster has index, name, size, type, "
                                             "armor_class, hit_points, speed, challenge_rating)")
    if not isinstance(m["index"], str) or not re.fullmatch(r"[a-z0-9][a-z0-9\-]{0,60}", m["index"]):
        raise BadMonster(f"{where}.index", "an index like young-red-dragon")
    if not isinstance(m["name"], str) or not m["name"].strip() or len(m["name"]) > 100:
        raise BadMonster(f"{where}.name", "a name of 1..100 characters")
    size = str(m["size"]).lower()
    if size not in ("tiny", "small", "medium", "large", "huge", "gargantuan"):
        raise BadMonster(f"{where}.size", f"unknown size {m['size']!r}")
    ac_list = m["armor_class"]
    if isinstance(ac_list, int):
        ac_list = [{"type": "natural", "value": ac_list}]
    if not isinstance(ac_list, list) or not ac_list or not isinstance(ac_list[0], dict) \
            or not _int(ac_list[0].get("value"), 1, 40):
        raise BadMonster(f"{where}.armor_class", "a list of {type, value} with a value 1..40")
    if not _int(m["hit_points"], 1, 10000):
        raise BadMonster(f"{where}.hit_points", "an integer 1..10000")
    speed = m["speed"]
    if not isinstance(speed, dict):
        raise BadMonster(f"{where}.speed", "a table like {walk = '30 ft.'}")
    cr = m["challenge_rating"]
    if not isinstance(cr, (int, float)) or isinstance(cr, bool) or not 0 <= cr <= 30:
        raise BadMonster(f"{where}.challenge_rating", "a number 0..30")
    return size, ac_list, speed, cr


def _abilities(m: dict, where: str) -> dict[str, int]:
    """The six ability scores by short name (10 where the monster leaves one out)."""
    abilities = {}
    for long, short in ABILITY_NAMES.items():
        v = m.get(long, 10)
        if not _int(v, 1, 30):
            raise BadMonster(f"{where}.{long}", "an ability score 1..30")
        abilities[short] = int(v)
    return abilities


def _proficiencies(m: dict, where: str) -> tuple[dict[str, int], dict[str, int]]:
    """(saving throw bonuses by ability, skill bonuses by skill) from the monster's proficiencies."""
    saves, skills = {}, {}
    for j, p in enumerate(m.get("proficiencies", []) or []):
        try:
            idx, val = p["proficiency"]["index"], int(p["value"])
        except (KeyError, TypeError, ValueError):
            raise BadMonster(f"{where}.proficiencies[{j}]", "a {value, proficiency: {index}} table") from None
        if idx.startswith("saving-throw-"):
            saves[idx.removeprefix("saving-throw-")] = val
        elif idx.startswith("skill-"):
            skills[idx.removeprefix("skill-").replace("-", "_")] = val
    return saves, skills


def _senses(m: dict) -> dict:
    """The senses in metres (``darkvision_m``...), the passive Perception as it is."""
    senses = {}
    for k, v in (m.get("senses") or {}).items():
        senses[k if k == "passive_perception" else f"{k}_m"] = v if k == "passive_perception" else feet(v)
    return senses


def _features(m: dict, where: str) -> tuple[dict[str, list], list[dict]]:
    """(each section's parsed features, every disagreement of the structured fields with the text, settled)."""
    settled: list[dict] = []
    feats: dict[str, list] = {}
    action_names = [a.get("name", "") for a in m.get("actions", []) or [] if isinstance(a, dict)]
    for ours, theirs in SECTIONS:
        lst = m.get(theirs, []) or []
        if not isinstance(lst, list):
            raise BadMonster(f"{where}.{theirs}", "a list of {name, desc}")
        feats[ours] = [parse_feature(ours, a, action_names, f"{where}.{theirs}[{j}]", settled)
                       for j, a in enumerate(lst)]
    for s in settled:                       # where in the monster, not in the file that held it
        s["where"] = s["where"][len(where) + 1:]
    return feats, settled


def _cond(x) -> str:
    return str(x.get("index") if isinstance(x, dict) else x).lower()


def _int(v, lo, hi) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _prof(cr) -> int:
    return 2 + max(0, (int(max(cr, 1)) - 1) // 4)


def creatures(data: Any, where: str = "") -> list[dict]:
    """One monster or an array of them."""
    if isinstance(data, dict):
        return [creature(data, where or "monster")]
    if isinstance(data, list) and data:
        return [creature(m, f"{where}[{i}]") for i, m in enumerate(data)]
    raise BadMonster(where or "(top)", "a 5e-database monster object or a non-empty array of them")
