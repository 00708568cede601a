"""The SRD creatures' traits and non-attack actions of SRD-30..SRD-49 as a sheet key (``srd_features``), read from a
creature record's text (assets/srd/creatures.json), and whether each is played (``status``). The rules that play
them: engine/rules/dnd5e/srd_traits2.py, srd_carry.py, actions/traits.py. Metres (5 ft = 1.5 m).

``srd_features`` (any 5e character may carry it; a scene without it plays as before)::

    incorporeal = {dice = "1d10"}                       # SRD-31 Incorporeal Movement
    regeneration = {hp = 20, stopped_by = ["radiant"]}  # SRD-32 Regeneration
    fire_aura = {dice = "3d6", type = "fire"}           # SRD-36 Fire Aura
    fear_aura = {dc = 21, radius_m = 6.0}               # SRD-39 Fear Aura (srd_auras.py)
    confer_resistance = "fire"                           # SRD-40 Confer Fire Resistance (srd_auras.py)
    spikes = {weapon = "Tail Spike", count = 24}       # SRD-42 Tail Spike Regrowth (srd_auras.py)
    swarm = true                                         # SRD-41 Swarm (srd_swarm.py)
    air_form = true                                      # SRD-41 Air Form, Water Form (srd_swarm.py)
    actions = [{name = "Teleport", kind = "teleport", range_m = 36.0},          # SRD-33
               {name = "Invisibility", kind = "invisibility"},                  # SRD-34
               {name = "Healing Touch", kind = "heal", dice = "4d8+2", per_day = 3},  # SRD-35
               {name = "Shapechanger", kind = "shape", sizes = ["small", "medium"], wingless = true}]   # SRD-37
"""

from __future__ import annotations

import re
from typing import Any

from engine.errors import SceneError
from engine.rules.dnd5e.common import DAMAGE_TYPES

RULES = {"teleport": "SRD-33", "invisibility": "SRD-34", "heal": "SRD-35", "shape": "SRD-37"}
SIZE_NAMES = ("tiny", "small", "medium", "large", "huge", "gargantuan")
KEYS = ("incorporeal", "regeneration", "fire_aura", "fear_aura", "confer_resistance", "swarm", "air_form", "spikes",
        "actions")
DICE = re.compile(r"\d+d\d+(?:[+-]\d+)?")

INCORPOREAL = re.compile(r"^The [\w' -]+ can move through other creatures and objects as if they were difficult "
                         r"terrain\. It takes \d+ \((\d+d\d+)\) force damage if it ends its turn inside an object\.$")
REGENERATION = re.compile(r"^The [\w' -]+ regains (\d+) hit points at the start of its turn if it has at least 1 hit "
                          r"point(?P<sun> and isn't in sunlight or running water)?\.(?: If the [\w' -]+ takes "
                          r"(?P<stop>\w+) damage(?P<holy> or damage from holy water)?, this trait doesn't function at "
                          r"the start of the [\w' -]+'s next turn\.)?$")
TELEPORT = re.compile(r"^The [\w' -]+ magically teleports, along with any equipment it is wearing or carrying, up to "
                      r"(\d+) (?:feet|ft\.) to an unoccupied space it can see\.$")
INVISIBILITY = re.compile(r"^The [\w' -]+ (?:and its light )?magically (?:turns|become) invisible until it attacks"
                          r"(?: or casts a spell| or uses its Consume Life)?, or until its concentration ends \(as if "
                          r"concentrating on a spell\)\.(?: Any equipment the [\w' -]+ wears or carries is invisible "
                          r"with it\.)?$")
HEALING = re.compile(r"^The [\w' -]+ touches another creature\. The target magically regains \d+ \((\d+d\d+ ?[+-] ?\d+)\)"
                     r" hit points and is freed from any curse, disease, poison, blindness, or deafness\.$")
FIRE_AURA = re.compile(r"^At the start of each of the [\w' -]+'s turns, each creature within 5 feet of it takes \d+ "
                       r"\((\d+d\d+)\) (\w+) damage, and flammable objects in the aura that aren't being worn or carried "
                       r"ignite\. A creature that touches the [\w' -]+ or hits it with a melee attack while within 5 "
                       r"feet of it takes \d+ \((\d+d\d+)\) \w+ damage\.$")
SHAPECHANGER = re.compile(r"^The fiend can use its action to polymorph into a Small or Medium humanoid, or back into "
                          r"its true form\. Without wings, the fiend loses its flying speed\. Other than its size and "
                          r"speed, its statistics are the same in each form\. Any equipment it is wearing or carrying "
                          r"isn't transformed\. It reverts to its true form if it dies\.$")
ONI_SHAPE = re.compile(r"^The oni magically polymorphs into a Small or Medium humanoid, into a Large giant, or back into "
                       r"its true form\. Other than its size, its statistics are the same in each form\. The only "
                       r"equipment that is transformed is its glaive, which shrinks so that it can be wielded in "
                       r"humanoid form\. If the oni dies, it reverts to its true form, and its glaive reverts to its "
                       r"normal size\.$")
FEAR_AURA = re.compile(r"^Any creature hostile to the [\w' -]+ that starts its turn within (\d+) feet of the [\w' -]+ "
                       r"must make a DC (\d+) Wisdom saving throw, unless the [\w' -]+ is incapacitated\. On a failed "
                       r"save, the creature is frightened until the start of its next turn\. If a creature's saving "
                       r"throw is successful, the creature is immune to the [\w' -]+'s Fear Aura for the next 24 "
                       r"hours\.$")
CONFER = re.compile(r"^The [\w' -]+ can grant resistance to (\w+) damage to anyone riding it\.$")
SWARM = re.compile(r"^The swarm can occupy another creature's space and vice versa, and the swarm can move through any "
                   r"opening large enough for a Tiny \w+\. The swarm can't regain hit points or gain temporary hit "
                   r"points\.$")
AIR_FORM = re.compile(r"^The elemental can enter a hostile creature's space and stop there\. It can move through a "
                      r"space as narrow as 1 inch wide without squeezing\.$")
SPIKES = re.compile(r"^The [\w' -]+ has ([\w-]+) tail spikes\. Used spikes regrow when the [\w' -]+ finishes a long "
                    r"rest\.$")
COUNTS = {"twelve": 12, "eighteen": 18, "twenty": 20, "twenty-four": 24, "thirty": 30}
ALWAYS_INVISIBLE = re.compile(r"^The [\w' -]+ is invisible\.$")


def _name(n: str) -> str:
    return re.sub(r"\s*\(.*\)$", "", n).strip().lower()


def read(section: str, f: dict) -> tuple[str, Any] | None:
    """(key, entry) for a feature of SRD-30..49 whose text is the one the rules play, or None."""
    name, text = _name(f["name"]), " ".join(f["desc"].split())
    if section == "traits":
        if name == "incorporeal movement" and (m := INCORPOREAL.match(text)):
            return "incorporeal", {"dice": m.group(1)}
        if name == "regeneration" and (m := REGENERATION.match(text)):
            stop = [m.group("stop").lower()] if m.group("stop") else []
            sun = {"sunlight": True} if m.group("sun") else {}        # SRD-85: "and isn't in sunlight or running water"
            return "regeneration", {"hp": int(m.group(1)), "stopped_by": stop, **sun}
        if name == "fire aura" and (m := FIRE_AURA.match(text)):
            return "fire_aura", {"dice": m.group(1), "type": m.group(2).lower()}
        if name == "fear aura" and (m := FEAR_AURA.match(text)):
            return "fear_aura", {"dc": int(m.group(2)), "radius_m": round(int(m.group(1)) * 0.3, 2)}
        if name.startswith("confer ") and (m := CONFER.match(text)) and m.group(1).lower() in DAMAGE_TYPES:
            return "confer_resistance", m.group(1).lower()
        if name == "tail spike regrowth" and (m := SPIKES.match(text)) and m.group(1).lower() in COUNTS:
            return "spikes", {"weapon": "Tail Spike", "count": COUNTS[m.group(1).lower()]}
        if name == "swarm" and SWARM.match(text):
            return "swarm", True
        if name in ("air form", "water form") and AIR_FORM.match(text):
            return "air_form", True
        if name == "invisibility" and ALWAYS_INVISIBLE.match(text):
            return "invisible", {}
        if name == "shapechanger" and SHAPECHANGER.match(text):      # "can use its action": an action
            return "action", {"name": "Shapechanger", "kind": "shape", "sizes": ["small", "medium"], "wingless": True}
        return None
    if section == "actions" and f.get("kind") not in ("attack", "save", "multiattack"):
        if name == "teleport" and (m := TELEPORT.match(text)):
            return "action", {"name": "Teleport", "kind": "teleport", "range_m": round(int(m.group(1)) * 0.3, 2)}
        if name == "invisibility" and INVISIBILITY.match(text):
            return "action", {"name": "Invisibility", "kind": "invisibility"}
        if name == "change shape" and ONI_SHAPE.match(text):
            return "action", {"name": "Change Shape", "kind": "shape", "sizes": ["small", "medium", "large"]}
        if name == "healing touch" and (m := HEALING.match(text)):
            e = {"name": "Healing Touch", "kind": "heal", "dice": m.group(1).replace(" ", "")}
            if f.get("per_day"):
                e["per_day"] = int(f["per_day"])
            return "action", e
    return None


MOVE = re.compile(r"^The [\w' -]+ moves up to its speed without provoking opportunity attacks\.$")


def legendary(f: dict) -> dict | None:
    """The sheet's legendary option for "Teleport (Costs 2 Actions). The sphinx magically teleports ... up to 120
    feet to an unoccupied space it can see." (SRD-33) and "Move. The vampire moves up to its speed without provoking
    opportunity attacks." (SRD-38), or None."""
    name, text, cost = _name(f["name"]), " ".join(f["desc"].split()), int(f.get("cost", 1))
    if name == "teleport" and (m := TELEPORT.match(text)):
        return {"name": "Teleport", "cost": cost, "kind": "teleport", "range_m": round(int(m.group(1)) * 0.3, 2)}
    if name == "move" and MOVE.match(text):
        return {"name": "Move", "cost": cost, "kind": "move"}
    return None


def character_keys(c: dict) -> dict:
    """The sheet keys these features give a creature record (merged into srd_blocks.character's)."""
    out: dict = {}
    feats: dict = {}
    for section in ("traits", "actions"):
        for f in c[section]:
            got = read(section, f)
            if got is None:
                continue
            key, entry = got
            if key == "action":
                feats.setdefault("actions", []).append(entry)
            elif key == "invisible":
                out["invisible"] = True            # SRD-34 "The stalker is invisible."
            else:
                feats[key] = entry
    if feats:
        out["srd_features"] = feats
    return out


#: what a played feature's text says that the rules leave out (the feature is then not counted as modelled)
LEFT_OUT: dict[str, str] = {}         # none now: Fire Aura's touch is SRD-109's (srd_misc.py), its objects do not burn


def status(c: dict, section: str, f: dict) -> tuple[bool, str] | None:
    """(modelled, why) for a feature read here, or None (srd_blocks.feature_status decides)."""
    if section == "legendary_actions":
        return (True, "") if legendary(f) is not None else None
    got = read(section, f)
    if got is None:
        return None
    key, entry = got
    if key in LEFT_OUT:
        return False, LEFT_OUT[key]
    if isinstance(entry, dict) and entry.get("kind") == "invisibility" and "Consume Life" in f["desc"]:
        return False, "played as SRD-34; left out: its use of Consume Life ending the invisibility"
    return True, ""


# -- the sheet key --------------------------------------------------------------------------------------------------

def _dice(v) -> bool:
    return isinstance(v, str) and DICE.fullmatch(v) is not None


def check(raw: dict, file: str, key: str) -> None:
    sf = raw.get("srd_features")
    if sf is None:
        return
    k = f"{key}.srd_features"
    if not isinstance(sf, dict):
        raise SceneError(file, k, "a table: " + ", ".join(KEYS))
    for name in sf:
        if name not in KEYS:
            raise SceneError(file, f"{k}.{name}", "unknown; one of " + ", ".join(KEYS))
    inc = sf.get("incorporeal")
    if inc is not None and not (isinstance(inc, dict) and _dice(inc.get("dice", "1d10"))):
        raise SceneError(file, f"{k}.incorporeal", "{dice = \"1d10\"}")
    rg = sf.get("regeneration")
    if rg is not None and not (isinstance(rg, dict) and isinstance(rg.get("hp"), int) and not isinstance(rg["hp"], bool)
                               and 0 < rg["hp"] <= 1000 and isinstance(rg.get("stopped_by", []), list)
                               and all(t in DAMAGE_TYPES for t in rg.get("stopped_by", []))):
        raise SceneError(file, f"{k}.regeneration", "{hp = 1..1000, stopped_by = [damage types]}")
    fa = sf.get("fire_aura")
    if fa is not None and not (isinstance(fa, dict) and _dice(fa.get("dice")) and fa.get("type") in DAMAGE_TYPES):
        raise SceneError(file, f"{k}.fire_aura", "{dice = \"3d6\", type = a damage type}")
    fe = sf.get("fear_aura")
    if fe is not None and not (isinstance(fe, dict) and isinstance(fe.get("dc"), int) and not isinstance(fe["dc"], bool)
                               and 1 <= fe["dc"] <= 40 and isinstance(fe.get("radius_m"), (int, float))
                               and not isinstance(fe["radius_m"], bool) and 0 < fe["radius_m"] <= 1000):
        raise SceneError(file, f"{k}.fear_aura", "{dc = 1..40, radius_m = 0..1000}")
    if "confer_resistance" in sf and sf["confer_resistance"] not in DAMAGE_TYPES:
        raise SceneError(file, f"{k}.confer_resistance", "a damage type: " + ", ".join(DAMAGE_TYPES))
    sp = sf.get("spikes")
    if sp is not None and not (isinstance(sp, dict) and isinstance(sp.get("weapon"), str)
                               and isinstance(sp.get("count"), int) and not isinstance(sp["count"], bool)
                               and 1 <= sp["count"] <= 1000):
        raise SceneError(file, f"{k}.spikes", "{weapon = a weapon's name, count = 1..1000}")
    for b in ("swarm", "air_form"):
        if b in sf and not isinstance(sf[b], bool):
            raise SceneError(file, f"{k}.{b}", "true or false")
    if not isinstance(sf.get("actions") or [], list):
        raise SceneError(file, f"{k}.actions", "a list of {name, kind, ...}")
    for j, e in enumerate(sf.get("actions") or []):
        ok = isinstance(e, dict) and isinstance(e.get("name"), str) and isinstance(e.get("kind"), str) and e["kind"] in RULES
        if ok and e["kind"] == "teleport":
            ok = isinstance(e.get("range_m"), (int, float)) and 0 < e["range_m"] <= 1000
        if ok and e["kind"] == "shape":
            ok = isinstance(e.get("sizes"), list) and all(s in SIZE_NAMES for s in e["sizes"])
        if ok and e["kind"] == "heal":
            ok = _dice(e.get("dice")) and isinstance(e.get("per_day", 1), int)
        if not ok:
            raise SceneError(file, f"{k}.actions[{j}]", "{name, kind = teleport|invisibility|heal|shape, range_m "
                                                        "(teleport), dice and per_day (heal), sizes (shape)}")


def setup(data: dict, raw: dict) -> None:
    if raw.get("srd_features"):
        sf = raw["srd_features"]
        data["srd_features"] = {k: (dict(v) if isinstance(v, dict) else [dict(x) for x in v] if isinstance(v, list)
                                    else v) for k, v in sf.items()}
