"""The SRD 5.1 bestiary (assets/srd/creatures.json, CC-BY-4.0) as 5e scene characters: a creature record made into
the keys of a ``[[characters]]`` table (the keys a scene writes override them, as with ``kind``), and which of its
features the rules play (``features``: ``{name, modelled, why}``; ``why`` says what is left out).

The record is made by ``engine/compendium/fivee_db.py`` (tools/gen_srd_creatures.py writes the file); this module
only reads it. Metres throughout (5 ft = 1.5 m).
"""

from __future__ import annotations

import difflib
import functools
import json
import re

from engine.errors import AerieError
from engine.resources import resource_dir
from engine.rules.dnd5e import srd_rider_text
from engine.rules.dnd5e import srd_features, srd_status, srd_swallow_text
from engine.rules.dnd5e.common import DAMAGE_TYPES, SKILL_ABILITY, mod
from engine.rules.dnd5e.srd_spellbook import harms as spellbook_harms, keys as spellbook_keys, kind as spellbook_kind
from engine.rules.dnd5e.srd_block_grapple import grapple
from engine.rules.dnd5e.srd_spellbook import status as spellbook_status

SRD_FILE = "srd/creatures.json"
#: traits the rules play (engine/rules/dnd5e/srd_traits.py), by the name the SRD writes, and their rule ID
TRAITS_PLAYED = {"flyby": "SRD-07", "pack tactics": "SRD-09", "magic resistance": "SRD-10",
                 "keen sight": "SRD-11", "keen hearing and sight": "SRD-11", "keen sight and smell": "SRD-11",
                 "keen hearing": "SRD-11", "keen hearing and smell": "SRD-11", "keen senses": "SRD-11"}


def library_file():
    return resource_dir("assets") / SRD_FILE


@functools.cache
def bestiary() -> dict[str, dict]:
    """``{id: creature record}`` of the shipped SRD creatures."""
    p = library_file()
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise AerieError(f"assets/{SRD_FILE}: cannot read the SRD bestiary: {e}") from None
    return {c["id"]: c for c in data["creatures"]}


def closest(name: str, have, n: int = 3) -> list[str]:
    return difflib.get_close_matches(str(name).lower().replace("_", "-").replace(" ", "-"), list(have), n, 0.5)


# -- the creature as scene keys ---------------------------------------------------------------------------------

def _props(f: dict) -> list[str]:
    return ["ranged"] if f["ranged"] and not f["melee"] else []


def weapon(f: dict, abilities: dict) -> dict:
    """An attack action as a weapon table: its own to-hit and damage as written (the damage bonus the table gives
    is the written one less the ability modifier the rules add, DND-16), reach or range, extra damage."""
    hit = f["hit"] or [{"dice": "0", "type": "bludgeoning"}]       # a hit that deals no damage (a web)
    main = hit[0]
    dice, bonus = _split(main["dice"])
    props = _props(f)
    ab = mod(abilities["dex"]) if "ranged" in props else mod(abilities["str"])
    w: dict = {"name": f["name"], "damage": dice, "type": main["type"], "properties": props,
               "to_hit": int(f["to_hit"]), "damage_bonus": bonus - ab}
    if f["melee"]:
        w["reach_m"] = float(f.get("reach_m", 1.5)) or 1.5      # a swarm's "reach 0 ft." (feature_status says)
    if f.get("range_m"):
        w["range"] = [float(x) for x in f["range_m"]]
        if f["melee"]:
            w["properties"] = ["thrown"]
    if f.get("spell"):
        w["properties"] = w["properties"] + ["magical"]
    oh = None if srd_swallow_text.bite_swallows(f) else on_hit(f)[0]       # SRD-43: the worm's swallowing bite
    if oh:
        w["on_hit"] = oh
    gr = grapple(f)[0]
    if gr:
        w["grapple"] = gr
    alt = alternative(f)
    if alt:
        w["alternative"] = alt            # SRD-21
    if srd_rider_text.ignite(f):
        w["ignite"] = srd_rider_text.ignite(f)        # SRD-56: the fire elemental's Touch
    if srd_rider_text.drink(f) is not None:
        w["drink"] = srd_rider_text.drink(f)          # SRD-48: the vampire's Bite
    if CRIT_THRICE.fullmatch((f.get("rider") or "").strip()):
        w["crit_dice"] = 3                # SRD-21: "it rolls damage dice three times, instead of twice"
    extra = []
    for d in hit[1:]:
        xd, xb = _split(d["dice"])
        extra.append({"damage": xd, "type": d["type"], **({"bonus": xb} if xb else {})})
    if extra:
        w["extra"] = extra
    return w


#: SRD-21 "If the balor scores a critical hit, it rolls damage dice three times, instead of twice."
CRIT_THRICE = re.compile(r"If the \w+ scores a critical hit, it rolls damage dice three times, instead of twice\.?")
ALTERNATIVE_WHEN = (("two hands", "two_hands"), ("at range", "ranged"), ("half of its hit points", "bloodied"),
                    ("in Small", "small_form"))         # SRD-106: the oni's glaive "in Small or Medium form"


def alternative(f: dict) -> dict | None:
    """The weapon's ``alternative`` (SRD-21) for "or 5 (1d8 + 1) piercing damage if used with two hands", "... at
    range", "... if the swarm has half of its hit points or fewer"; None for the rest (shillelagh, enlarged, another
    form: what the rules do not play) or when the bonus or the type differs."""
    v = f.get("versatile")
    if not v or not f.get("hit"):
        return None
    when = next((k for t, k in ALTERNATIVE_WHEN if t in v["when"]), None)
    (d, b), b0 = _split(v["dice"]), _split(f["hit"][0]["dice"])[1]
    if when is None or b != b0 or v["type"] != f["hit"][0]["type"] or (when == "ranged" and not f.get("range_m")):
        return None
    return {"damage": d, "when": when}


MAGIC_WEAPONS = ("magic weapons", "angelic weapons", "hellish weapons")
REPEAT = re.compile(r"repeat the saving throw at the end of each of its turns, ending the effect on itself on a success",
                    re.I)


def on_hit(f: dict) -> tuple[dict | None, str]:
    """(the weapon's ``on_hit`` save, what is left out) for an attack whose hit forces a save (SRD-13): "the target
    must succeed on a DC 13 Constitution saving throw or be poisoned for 1 minute"; (None, why) when it cannot
    play."""
    sv = f.get("on_hit_save")
    if not sv:
        return None, ""
    cond = sv.get("condition")
    text = f["desc"].split("Hit:", 1)[-1]
    rider, covered = srd_rider_text.read(text)          # SRD-22..24
    if rider and rider["kind"] == "poison_at_zero":
        cond = None                # "paralyzed while poisoned in this way": at 0 HP only, not on a failed save
    if rider and rider.get("each_turn"):
        sv = {**sv, "damage": []}          # SRD-29: "at the start of each of its turns", not on the failed save
    if cond and cond not in PLAYED_CONDITIONS:
        return None, f"the save it forces on a hit ({cond} is not tracked)"
    dmg = [{"dice": d["dice"], "type": d["type"]} for d in sv.get("damage", ()) if re.fullmatch(r"\d+d\d+([+-]\d+)?", d["dice"])]
    if not cond and not dmg and not rider:
        return None, "the save it forces on a hit (neither damage nor a condition the rules know)"
    entry: dict = {"dc": int(sv["dc"]), "ability": sv["ability"], "damage": dmg, "half": bool(sv.get("half"))}
    if cond:
        entry["condition"] = cond
    if rider:
        entry["rider"] = rider
    if REPEAT.search(text):
        entry["repeat_save"] = True
    sentences = [x.strip() for x in re.split(r"(?<=\.)\s+", text) if x.strip()][1:]
    left = [x for x in sentences if ("saving throw" not in x or "start of each" in x or "hit point maximum" in x)
            and not (covered and covered(x)) and x != srd_swallow_text.ABSORB]     # SRD-43 plays the absorbing
    if "saving throw" not in re.split(r"(?<=\.)\s+", text)[0] and not any("saving throw" in x for x in sentences):
        return None, "the save it forces on a hit"
    return entry, ("left out: " + " ".join(left)[:200]) if left else ""


def _split(dice: str) -> tuple[str, int]:
    """'2d10+6' -> ('2d10', 6); a flat '1' -> ('1d1', 0): one point, as the weapon table's unarmed strike; '0' (no
    damage) -> ('1d1', -1)."""
    m = re.fullmatch(r"(\d+d\d+)([+-]\d+)?", dice)
    if m:
        return m.group(1), int(m.group(2) or 0)
    return "1d1", int(dice) - 1


def _types(entries: list[str]) -> list[str]:
    """'bludgeoning, piercing, and slashing from nonmagical weapons' -> nonmagical_bludgeoning ... (SRD-03); a plain
    type as itself; anything else (a silvered weapon's exception) kept as written for the features."""
    out = []
    for e in entries:
        low = e.lower()
        found = [t for t in DAMAGE_TYPES if re.search(rf"\b{t}\b", low)]
        if "nonmagical" in low:
            out += [f"nonmagical_{t}" for t in found]
        elif found:
            out += found
    return sorted(set(out))


PLAYED_CONDITIONS = ("blinded", "charmed", "deafened", "frightened", "grappled", "incapacitated", "invisible",
                     "paralyzed", "petrified", "poisoned", "prone", "restrained", "stunned", "unconscious")
RANGE_IN_TEXT = re.compile(r"within (\d+) (?:feet|ft\.?)")
COVERED = re.compile(r"saving throw|damage|\bcone\b|\bline\b|radius|\bcube\b|sphere|exhales|breath|"
                     r"repeat the saving throw|the effect ends|" + "|".join(PLAYED_CONDITIONS), re.I)


def save_action(f: dict) -> tuple[dict | None, str]:
    """(the sheet's ``creature_actions`` entry, "" ) for a save action the rules play (SRD-12), or (None, why not)
    -- or (entry, what is left out) when it plays with part of its text left out."""
    if f.get("kind") != "save":
        return None, "not a save action"
    text = f["desc"]
    area = dict(f["area"]) if f.get("area") else None
    ln = LINE_FT.search(text)
    if area is None and ln:                 # "a line that is 30 ft. long and 5 ft. wide" (the source reads no area)
        area = {"shape": "line", "length_m": round(int(ln.group(1)) * 0.3, 2), "width_m": round(int(ln.group(2)) * 0.3, 2)}
    cond = f.get("condition")
    if not f.get("damage") and not cond:
        return None, "a save with neither damage nor a condition the rules know"
    if cond and cond not in PLAYED_CONDITIONS:
        return None, f"its condition ({cond}) is not tracked"
    entry: dict = {"name": re.sub(r"\s*\((?:Recharge|Costs|\d+/Day).*?\)", "", f["name"]).strip(),
                   "dc": int(f["dc"]), "ability": f["ability"],
                   "damage": [{"dice": d["dice"], "type": d["type"]} for d in f.get("damage", ())],
                   "half": bool(f.get("half"))}
    rng = RANGE_IN_TEXT.search(text)
    if CHOICE_OF_BREATHS.search(text):
        return None, ("two breath weapons to choose from (" + ", ".join(BREATH_NAME.findall(text)) + "): only the "
                      "first is read from the block")
    if FRIGHTFUL.match(f["name"]) and rng and area is None:
        area = {"shape": "self", "radius_m": round(int(rng.group(1)) * 0.3, 2)}     # SRD-16
    if area is not None:
        if area["shape"] in ("cube", "cylinder"):
            return None, f"a {area['shape']} area: it comes with the spells' area code (engine/rules/dnd5e/areas.py)"
        if area["shape"] == "self" and srd_swallow_text.AT_A_POINT.search(text):    # the source's "self": a point
            area = {"shape": "sphere", "radius_m": area["radius_m"]}
        if area["shape"] == "sphere" and not re.search(r"point|centered", text):
            area = {"shape": "self", "radius_m": area["radius_m"]}
        entry["area"] = area
        if area["shape"] == "sphere":
            if not rng:
                return None, "a sphere at a point whose range the text does not give"
            entry["range_m"] = round(int(rng.group(1)) * 0.3, 2)
    else:
        entry["range_m"] = round(int(rng.group(1)) * 0.3, 2) if rng else 1.5
    if FRIGHTFUL.match(f["name"]):
        entry["frightful"] = True
    if ln and "provided that it has no creature grappled" in text:
        entry["not_while_grappling"] = True          # the ankheg's Acid Spray
    drains = bool(srd_rider_text.DRAIN.search(text))
    if drains:
        entry["drain"] = True                        # SRD-23: the succubus' Draining Kiss
    if KISS.match(text):
        entry["charmed_or_willing"] = True
    if cond:
        entry["condition"] = cond
        if re.search(r"repeat the saving throw at the end of each of its turns", text):
            entry["repeat_save"] = True
    if f.get("recharge"):
        entry["recharge"] = list(f["recharge"])
    if f.get("per_day"):
        entry["per_day"] = int(f["per_day"])
    entry.update(srd_rider_text.brief(text) if cond else {})          # SRD-54
    entry.update(srd_rider_text.glare(text))                          # SRD-57
    left = [x.strip() for x in re.split(r"(?<=\.)\s+", text) if x.strip() and not COVERED.search(x)
            and not (entry.get("frightful") and FRIGHTFUL_COVERED.search(x))
            and not ((entry.get("area") or {}).get("shape") == "self" and AREA_SENTENCE.fullmatch(x))
            and not ((entry.get("area") or {}).get("shape") == "line" and (x == "wide." or LINE_PIECE.fullmatch(x)))
            and not (entry.get("not_while_grappling") and x == "wide, provided that it has no creature grappled.")
            and not (drains and srd_rider_text.DRAIN_MORE.match(x))
            and not (entry.get("until") and srd_rider_text.BRIEF_AREA.fullmatch(x))
            and not (entry.get("glare") and srd_rider_text.GLARE_WHO.fullmatch(x))
            and not ((entry.get("area") or {}).get("shape") == "sphere" and srd_swallow_text.POINT_SENTENCES.match(x))]
    later = re.search(r"(?:at the start of each of its turns|at the end of each of its turns)[^.]*damage|damage at the "
                      r"start of each of its turns", text)
    if later and entry["damage"]:
        entry["damage"] = []        # the damage is the condition's, each turn it lasts: not dealt by the save
        left.insert(0, "the damage each turn while the condition lasts")
    if not entry["damage"] and not cond:
        return None, "its damage comes each turn while its condition lasts (not played)"
    return entry, ("left out: " + " ".join(left)[:200]) if left else ""


#: SRD-23 "The fiend kisses a creature charmed by it or a willing creature."
KISS = re.compile(r"^The \w+ kisses a creature charmed by it or a willing creature\.")
#: "a line that is 30 ft. long and 5 ft. wide" (its sentence split at "ft.": "long and 5 ft.", "wide.")
LINE_FT = re.compile(r"a line (?:of \w+ )?that is (\d+) ft\. long and (\d+) ft\. wide")
LINE_PIECE = re.compile(r"long and \d+ ft\.")
#: "Each creature within 5 ft." -- a self area's sentence, cut at its "ft." (the area plays it)
AREA_SENTENCE = re.compile(r"Each creature within \d+ ft\.")
CHOICE_OF_BREATHS = re.compile(r"uses one of the following breath weapons", re.I)
BREATH_NAME = re.compile(r"^([A-Z][a-z]+ Breath)\.", re.M)
FRIGHTFUL = re.compile(r"frightful presence", re.I)
#: the sentences SRD-16 plays besides the save: "Each creature of the dragon's choice that is within 120 ft."
#: (the split at "ft.") and "... immune to the dragon's Frightful Presence for the next 24 hours"
FRIGHTFUL_COVERED = re.compile(r"of the \w+'s choice that is within \d+ (?:feet|ft\.)|immune to the .*Frightful "
                               r"Presence", re.I)


ABILITY = {"Strength": "str", "Dexterity": "dex", "Constitution": "con", "Intelligence": "int", "Wisdom": "wis",
           "Charisma": "cha"}
SUB_AREA = re.compile(r"in an? (\d+)-foot (line|cone)(?: that is (\d+) feet wide)?")
SUB_SAVE = re.compile(r"DC (\d+) (Strength|Dexterity|Constitution|Intelligence|Wisdom|Charisma) saving throw")
SUB_DAMAGE = re.compile(r"\d+ \((\d+d\d+)(?: ?([+-]) ?(\d+))?\) (\w+) damage")
SUB_REPEAT = ("A creature can repeat the saving throw at the end of each of its turns, ending the effect on itself on a "
              "success.")


def breath_options(f: dict) -> list[tuple[str, dict | None, str]]:
    """The metallic dragons' "Breath Weapons (Recharge 5-6). The dragon uses one of the following breath weapons.
    Fire Breath. ... Sleep Breath. ...": each breath as (name, its ``creature_actions`` entry or None, what is left
    out), the entries sharing the recharge (``recharge_group``). A breath is played whole only when its text is the
    area, the save with its damage or a tracked condition, and the repeated save: anything else is named."""
    out: list[tuple[str, dict | None, str]] = []
    for m in BREATH_NAME.finditer(f["desc"]):
        line = f["desc"][m.end():].split("\n", 1)[0].strip()
        name = m.group(1)
        ar, sv = SUB_AREA.search(line), SUB_SAVE.search(line)
        if not ar or not sv:
            out.append((name, None, "its area or save is not read"))
            continue
        area = {"shape": ar.group(2), "length_m": round(int(ar.group(1)) * 0.3, 2)}
        if ar.group(2) == "line":
            area["width_m"] = round(int(ar.group(3) or 5) * 0.3, 2)
        dmg = [{"dice": d + (f"{sign}{b}" if b else ""), "type": t} for d, sign, b, t in SUB_DAMAGE.findall(line)]
        cond = next((c for c in PLAYED_CONDITIONS if re.search(rf"\b(?:be|fall) {c}\b", line)), None)
        more, covered = srd_rider_text.breath_extra(line)          # SRD-25 sleep, SRD-26 pushed away
        if more.get("sleep"):
            cond = None               # the sleep's unconsciousness (it ends when it takes damage), not the condition's
        if not dmg and not cond and not more:
            out.append((name, None, "neither damage nor a condition the rules track"))
            continue
        entry: dict = {"name": name, "dc": int(sv.group(1)), "ability": ABILITY[sv.group(2)], "damage": dmg,
                       "half": "half as much damage" in line, "area": area, "recharge_group": "Breath Weapons"}
        if f.get("recharge"):
            entry["recharge"] = list(f["recharge"])
        entry.update(more)
        sentences = [x.strip() for x in re.split(r"(?<=\.)\s+", line) if x.strip()]
        left = [x for x in sentences[2:] if x != SUB_REPEAT and not (covered and covered(x))]
        if cond:
            entry["condition"] = cond
            if SUB_REPEAT in line:
                entry["repeat_save"] = True
        out.append((name, entry, ("left out: " + " ".join(left)[:200]) if left else ""))
    return out


def multiattack_with(c: dict, f: dict) -> list[str]:
    """The actions other than attacks that the Multiattack begins with and the rules play there (SRD-01 with SRD-16:
    "The dragon can use its Frightful Presence. It then makes three attacks")."""
    names = {g["name"] for g in c["actions"] if g.get("kind") == "attack"}
    other = sorted({x["action"] for o in f["options"] for x in o if x["action"] not in names})
    played = {g["name"] for g in c["actions"] if FRIGHTFUL.match(g["name"]) and save_action(g)[0] is not None}
    return [x for x in other if x in played and re.search(rf"can use its {re.escape(x)}\. It then makes", f["desc"])]


DETECT = re.compile(r"The \w+ makes a Wisdom \(Perception\) check\.")
ONE_ATTACK = re.compile(r"makes (?:one|a) ([a-z' ]+?) attack\.$")


#: SRD-52: "Cast a Spell (Costs 3 Actions). The sphinx casts a spell from its list of prepared spells, using a spell
#: slot as normal."
CAST_A_SPELL = re.compile(r"The [\w ]+ casts a spell from its list of prepared spells, using a spell slot as normal\.")


def legendary_option(c: dict, f: dict) -> tuple[dict | None, str]:
    """(the sheet's ``legendary`` option, what is left out) for a legendary action the rules play (SRD-15): "The
    dragon makes a tail attack." (one of its attacks) or a save around it ("Wing Attack (Costs 2 Actions)");
    (None, why) for the rest."""
    own = srd_features.legendary(f)                  # Teleport, Move (SRD-33, SRD-38)
    if own is not None:
        return own, ""
    name = re.sub(r"\s*\(Costs \d+ Actions\)", "", f["name"]).strip()
    cost = int(f.get("cost", 1))
    if DETECT.fullmatch(f["desc"].strip()):
        return {"name": name, "cost": cost, "kind": "detect"}, ""          # SRD-17
    if CAST_A_SPELL.fullmatch(f["desc"].strip()):                          # SRD-52
        harms = [s for s in spellbook_keys(c).get("spells", ()) if spellbook_harms(s)]
        return {"name": name, "cost": cost, "kind": "spell"}, (
            "" if harms else "its policy casts a spell that damages a foe: none of its castable spells does")
    m = ONE_ATTACK.search(f["desc"].strip())
    if m:
        attacks = {g["name"].lower(): g["name"] for g in c["actions"] if g.get("kind") == "attack"}
        key = m.group(1).strip().lower()
        w = attacks.get(key) or attacks.get(key.rstrip("s")) or attacks.get(key + "s")
        if w:
            return {"name": name, "cost": cost, "kind": "attack", "weapon": w}, ""
        return None, f"the attack it names ({m.group(1)}) is not one of its attacks"
    f, spared = srd_rider_text.around(f)             # SRD-55: "Each living creature within 20 feet of the lich"
    said, gaze = srd_rider_text.gaze(f)              # SRD-58: "fixes its gaze on one creature it can see"
    if gaze is not None:
        entry, why = save_action({**f, "desc": said})
        if entry is None:
            return None, why
        entry = {k: v for k, v in entry.items() if k not in ("recharge", "per_day", "range_m")}
        return {**entry, "name": name, "cost": cost, "kind": "save", "gaze": gaze,
                **({"magic": True} if "against this magic" in said else {})}, why
    burst = BURST.match(f["desc"].strip()) if (f.get("area") or {}).get("shape") == "sphere" else None
    if f.get("kind") == "save" and ((f.get("area") or {}).get("shape") == "self" or burst):
        wing = WING.match(f["desc"].strip())             # SRD-20: the save, then its flight
        desc = wing.group("save") if wing else (burst.group("save") if burst else f["desc"])
        entry, why = save_action({**f, "desc": desc})
        if entry is None:
            return None, why
        entry = {k: v for k, v in entry.items() if k not in ("recharge", "per_day", "range_m", "repeat_save")}
        return {**entry, **spared, "name": name, "cost": cost, "kind": "save", **({"then_fly": True} if wing else {}),
                **({"foes_only": True} if burst else {})}, why
    return None, "a legendary action the rules do not play (its text is shown with the block)"


#: SRD-20 "The dragon beats its wings. Each creature within 10 ft. ... The dragon can then fly up to half its flying speed."
WING = re.compile(r"^The (\w+) beats its wings\. (?P<save>.+) The \1 can then fly up to half its flying speed\.$", re.S)
#: SRD-20 "The solar emits magical, divine energy. Each creature of its choice in a 10-foot radius must make a DC 23
#: Dexterity saving throw ..." -- a burst around it, on the creatures of its choice (its foes)
BURST = re.compile(r"^The \w+ emits magical, divine energy\. (?P<save>Each creature of its choice in a \d+-foot radius "
                   r"must .+)$", re.S)
DIES = re.compile(r"^When the [\w ]+ dies, it explodes in a [\w ,]+\.\s*")


def death_burst(f: dict) -> tuple[dict | None, str]:
    """(the sheet's ``death_burst``, what is left out) for "Death Burst. When the mephit dies, it explodes in a burst
    of jagged ice. Each creature within 5 ft. of it must make a DC 10 Dexterity saving throw, taking 4 (1d8) slashing
    damage on a failed save, or half as much damage on a successful one." (SRD-18); (None, why) when it cannot play."""
    if f.get("kind") != "trait_save" or not (f.get("area") or {}).get("shape") == "self" or not DIES.match(f["desc"]):
        return None, "a trait the rules do not play yet (its text is shown with the block)"
    text = DIES.sub("", f["desc"])
    entry, why = save_action({**f, "kind": "save", "desc": text})
    if entry is None:
        return None, why
    if entry.get("condition") and re.search(r"repeat the saving throw on each of its turns", text):
        entry["repeat_save"] = True       # "can repeat the saving throw on each of its turns": at its end (SRD-12's)
    return {k: v for k, v in entry.items() if k not in ("recharge", "per_day", "range_m")}, why


def multiattack(c: dict) -> dict | None:
    return next((f for f in c["actions"] if f.get("kind") == "multiattack"), None)


def character(c: dict) -> dict:
    """The creature's ``[[characters]]`` keys (5e): what ``srd = "<id>"`` gives before the scene's own keys."""
    ab = dict(c["abilities"])
    attacks = [f for f in c["actions"] if f.get("kind") == "attack"]
    weapons: list = [weapon(f, ab) for f in attacks]
    ma = multiattack(c)
    n = 1
    combos: list[dict] = []
    if ma:
        names = {f["name"] for f in attacks}
        counts = [sum(x["count"] for x in o if x["action"] in names) for o in ma["options"]]
        n = max(counts + [1])
        for o in ma["options"]:
            combo: dict = {}
            for x in o:
                if x["action"] in names:
                    combo[x["action"]] = combo.get(x["action"], 0) + x["count"]
            if combo and combo not in combos:
                combos.append(combo)
    prof = int(c["proficiency_bonus"])
    skills = {}
    for k, v in c["skills"].items():
        if k in SKILL_ABILITY:
            skills[k] = max(1, round((v - mod(ab[SKILL_ABILITY[k]])) / prof))
    t: dict = {
        "name": c["name"], "size": c["size"], "max_hp": int(c["hp"]), "ac": int(c["ac"]),
        "speed_m": float(c["speed_m"]), "abilities": ab, "proficiency": prof,
        "level": max(1, min(30, int(c["cr"]))), "weapons": weapons or ["unarmed"], "attacks": n, "pc": False,
        "saves": sorted(c["saves"]), "skills": skills,
        "resistances": _types(c["damage_resistances"]), "immunities": _types(c["damage_immunities"]),
        "vulnerabilities": _types(c["damage_vulnerabilities"]),
        "condition_immunities": [x for x in c["condition_immunities"] if x != "exhaustion"],
        "srd_traits": sorted({_trait(f["name"]) for f in c["traits"] if _trait(f["name"]) in TRAITS_PLAYED}),
    }
    options = [o for o, _ in (legendary_option(c, f) for f in c["legendary_actions"]) if o is not None]
    options += srd_status.legendary(c)             # each family of srd_status.LEGENDARY (SRD-80)
    if options:
        t["legendary"] = {"points": int(c.get("legendary_points") or 3), "options": options}
    lr = next((f for f in c["traits"] if _trait(f["name"]) == "legendary resistance"), None)
    if lr is not None:
        t["legendary_resistance"] = int(lr.get("per_day") or 3)      # SRD-14
    if any(_trait(f["name"]) in MAGIC_WEAPONS for f in c["traits"]):
        for w in weapons:              # SRD-03: "The deva's weapon attacks are magical."
            if isinstance(w, dict) and "magical" not in w["properties"]:
                w["properties"] = w["properties"] + ["magical"]
    if combos and (len(combos) > 1 or len(weapons) > 1):
        t["multiattack"] = combos             # SRD-01: the combinations as written
    saves = [e for e in (srd_status.action(c, f) or save_action(f)[0] for f in c["actions"]
             if not srd_swallow_text.takes(c, f)) if e is not None]
    for f in c["actions"]:
        if f.get("kind") == "save" and CHOICE_OF_BREATHS.search(f["desc"]):
            saves += [e for _, e, _ in breath_options(f) if e is not None]          # SRD-12 with SRD-05
    saves = srd_status.adjust(c, saves)             # each family of srd_status.ADJUST (SRD-74..77)
    if saves:
        t["creature_actions"] = saves
        for e in saves:                     # SRD-01 with SRD-16: "can use its Frightful Presence. It then makes ..."
            if ma and e["name"] in multiattack_with(c, ma):
                e["in_multiattack"] = True
    burst = next((f for f in c["traits"] if _trait(f["name"]) == "death burst"), None)
    if burst is not None and death_burst(burst)[0] is not None:
        t["death_burst"] = death_burst(burst)[0]          # SRD-18
    if c["fly_speed_m"]:
        t["fly_speed_m"] = float(c["fly_speed_m"])
    if c["hover"]:
        t["hover"] = True
    if c["swim_speed_m"]:
        t["swim_speed_m"] = float(c["swim_speed_m"])
    t["creature_type"] = c["type"]
    t.update(spellbook_keys(c))                 # SRD-50, -51, -53: its castable spells, slots, DC, uses
    t.update(srd_status.keys(c))                    # SRD-30..49 and each family of srd_status.KEYS
    return t


def _trait(name: str) -> str:
    return re.sub(r"\s*\(.*\)$", "", name.lower())


# -- what the rules play ----------------------------------------------------------------------------------------

#: why a frequent trait is not played, where more can be said than "not yet"
TRAIT_WHY = {
    "amphibious": "not played: the rules track no breathing or suffocation (underwater combat, DND-37, drowns no one)",
    "false appearance": "not played: the rules have no surprise, so a motionless creature is never mistaken for an "
                        "object",
    "incorporeal movement": "not played: moving through creatures and objects (and the force damage for ending a turn "
                            "inside one) is not in the pathing",
}


def feature_status(c: dict, section: str, f: dict) -> tuple[bool, str]:
    """(modelled, why not): whether the rules play feature ``f`` of ``c`` as the SRD writes it."""
    kind = f.get("kind")
    name = f["name"].lower()
    played = srd_status.status(c, section, f)             # SRD-30..49 and each family of srd_status.STATUS
    if played is not None:
        return played
    if section == "traits":
        if _trait(name) in TRAITS_PLAYED or _trait(name) in MAGIC_WEAPONS or _trait(name) == "legendary resistance":
            return True, ""
        if spellbook_kind(f):
            return spellbook_status(c, f)           # SRD-50, SRD-51 (srd_spellbook.py)
        if _trait(name) == "death burst":
            entry, why = death_burst(f)
            return entry is not None and not why, why if entry is None else (
                "played as SRD-18; " + why if why else "")
        return False, TRAIT_WHY.get(_trait(name), "a trait the rules do not play yet (its text is shown with the block)")
    if kind == "attack":
        gaps = []
        if f.get("on_hit_save"):
            oh, why = on_hit(f)
            if oh is None or why:
                gaps.append(why or "the save it forces on a hit")
        if f.get("grapple_escape_dc"):
            gr, why = grapple(f)
            if gr is None:
                gaps.append(why)
        if f.get("rider") and not gaps and not f.get("on_hit_save") and not f.get("grapple_escape_dc") \
                and not CRIT_THRICE.fullmatch(f["rider"].strip()) and srd_rider_text.drink(f) is None \
                and not srd_rider_text.ignite(f):
            gaps.append("what the text adds after the damage")
        if f.get("versatile") and alternative(f) is None:
            gaps.append(f"the alternative damage ({f['versatile']['when']})")
        if f.get("recharge") or f.get("per_day"):
            gaps.append("its recharge / uses per day")
        if f["melee"] and f.get("reach_m") == 0:
            gaps.append("reach 0 ft. (a creature in the swarm's space): played at 1.5 m, no body shares its space")
        if section == "legendary_actions":
            opt, why = legendary_option(c, f)
            return (opt is not None and not why, why)
        if section == "reactions":
            return False, "a reaction the rules do not offer yet"
        return (not gaps, "" if not gaps else "played as an attack; left out: " + "; ".join(gaps))
    if kind == "multiattack":
        names = {g["name"] for g in c["actions"] if g.get("kind") == "attack"}
        other = sorted({x["action"] for o in f["options"] for x in o if x["action"] not in names}
                       - set(multiattack_with(c, f)))
        if other:
            return False, (f"played as written (SRD-01) for its attacks; left out: {', '.join(other)} in the "
                           "combination")
        return True, ""
    if kind == "save" and section == "actions" and CHOICE_OF_BREATHS.search(f["desc"]):
        opts = breath_options(f)
        gaps = [f"{n}: {w or 'not played'}" for n, e, w in opts if e is None or w]
        return (not gaps and len(opts) > 1,
                "played as save actions sharing one recharge (SRD-12, SRD-05); " + "; ".join(gaps) if gaps else "")
    if kind == "save" and section == "actions":
        entry, why = save_action(f)
        if entry is None:
            return False, why
        return (not why, "played as a save action (SRD-12); " + why if why else "")
    if section == "legendary_actions":
        opt, why = legendary_option(c, f)
        return (opt is not None and not why, why or ("" if opt else "a legendary action the rules do not play"))
    return False, "not played: its text is shown with the block"


def features(c: dict) -> list[dict]:
    out = []
    for section in ("traits", "actions", "reactions", "legendary_actions"):
        for f in c[section]:
            m, why = feature_status(c, section, f)
            out.append({"name": f["name"], "section": section, "modelled": m, "why": why})
    return out
