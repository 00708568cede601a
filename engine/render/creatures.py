"""How a creature looks, from its stat block: its model family, its colours and whether it has wings.

Pure functions of the SRD record (engine/compendium's ``assets/srd/creatures.json``: ``id``, ``name``, ``type``,
``subtype``, ``size`` and the speeds); no GL. The renderer builds the family's mesh (engine/render/creature_models.py)
at the size's footprint and body height, in these colours. Every one of the 334 SRD creatures has a family; a
dragon is always drawn as a dragon.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

#: the model families, each a mesh builder in engine/render/creature_models.py
FAMILIES = ("dragon", "bird", "bat", "insect", "humanoid", "giant", "quadruped", "elemental", "winged", "serpent",
            "swarm", "amorphous")

# id words that settle a family whatever the type says (checked in this order, on whole words of the id)
_BY_WORD: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("swarm", ("swarm",)),
    ("bird", ("griffon", "hippogriff", "roc", "eagle", "hawk", "owl", "raven", "vulture", "cockatrice", "axe")),
    ("bat", ("bat", "cloaker", "darkmantle")),
    ("insect", ("wasp", "stirge", "spider", "scorpion", "centipede", "beetle", "crab", "ankheg", "chuul", "drider",
                "remorhaz")),
    ("serpent", ("snake", "naga", "couatl", "salamander", "behir", "worm", "shark", "whale", "quipper", "grick",
                 "plesiosaurus", "aboleth", "crocodile", "hydra", "merrow")),
    ("amorphous", ("octopus", "kraken", "otyugh", "mouther", "mound", "shrieker", "fungus", "roper", "rug", "mimic",
                   "cube", "pudding", "ooze", "jelly", "mist", "shrub")),
    ("elemental", ("wisp", "stalker", "djinni", "efreeti", "sword", "xorn")),
    ("winged", ("harpy", "gargoyle", "mephit", "homunculus", "imp", "sprite", "quasit")),
    ("giant", ("treant", "tree", "golem", "troll", "ettin", "ogre", "oni", "tarrasque")),
    ("quadruped", ("wolf", "boar", "tiger", "rat", "bear", "horse", "hound", "dog", "lion", "sphinx", "centaur",
                   "lamia", "chimera", "manticore", "pegasus", "nightmare", "unicorn", "gorgon", "basilisk", "bulette",
                   "owlbear", "frog", "toad", "lizard", "turtle", "rhinoceros", "triceratops", "rex", "camel", "mule",
                   "pony", "goat", "elk", "deer", "cat", "panther", "hyena", "jackal", "badger", "weasel",
                   "mastiff", "worg", "death", "rust", "ape", "baboon", "warhorse", "mammoth", "elephant")),
)
# humanoid shapes among the words above (a werewolf in its hybrid form stands on two legs)
_HUMANOID_IDS = ("hybrid", "human", "lizardfolk", "ettercap", "minotaur", "medusa", "doppelganger", "hag", "azer")
# by type when no word settles it
_BY_TYPE = {"dragon": "dragon", "humanoid": "humanoid", "giant": "giant", "elemental": "elemental",
            "beast": "quadruped", "monstrosity": "quadruped", "ooze": "amorphous", "plant": "amorphous",
            "construct": "humanoid", "undead": "humanoid", "fey": "humanoid", "aberration": "amorphous",
            "fiend": "humanoid", "celestial": "humanoid"}
# flyers that fly without wings, and why (the rest of the flyers outside the elemental and swarm families have them)
NO_WINGS = {"nightmare": "it flies on hooves of fire", "oni": "it flies by magic"}
WINGED_FAMILIES = ("dragon", "bird", "bat", "insect", "winged")


def _words(c: dict) -> list[str]:
    return re.split(r"[^a-z]+", str(c.get("id") or c.get("name") or "").lower())


def family(c: dict) -> str:
    """The model family of an SRD creature record (see :data:`FAMILIES`)."""
    words = _words(c)
    ctype = str(c.get("type") or "").lower()
    if ctype == "dragon":
        return "dragon"                      # dragons, wyrmlings, the pseudodragon, the wyvern, the dragon turtle
    if ctype.startswith("swarm"):
        return "swarm"
    if any(w in words for w in _HUMANOID_IDS) or ctype == "humanoid" and not any(w in words for w in ("rat", "wolf",
                                                                                                     "boar", "tiger",
                                                                                                     "bear")):
        return "humanoid"
    if ctype in ("fiend", "celestial") and float(c.get("fly_speed_m") or 0) > 0 \
            and not any(w in words for w in ("nightmare", "pegasus", "couatl")):
        return "winged"                      # the winged fiends and celestials: devils, demons, angels
    if ctype in ("beast", "monstrosity") and not float(c.get("speed_m") or 0) and float(c.get("swim_speed_m") or 0):
        return "serpent"                     # the swimmers without legs: sharks, whales, sea horses, quippers
    for fam, keys in _BY_WORD:
        if any(k in words for k in keys):
            return fam
    if ctype == "elemental" and str(c.get("size")) == "small":
        return "humanoid"                    # azer, magmin
    if ctype == "elemental" and any(w in words for w in ("elemental",)):
        return "elemental"
    return _BY_TYPE.get(ctype, "humanoid")


def has_wings(c: dict) -> bool:
    """Wings only on those that fly: a fly speed, not hovering by magic, and a body that flies on wings."""
    if not float(c.get("fly_speed_m") or 0) or c.get("hover"):
        return False
    if str(c.get("id")) in NO_WINGS:
        return False
    return family(c) not in ("elemental", "swarm", "amorphous", "giant", "humanoid")


# -- colours --------------------------------------------------------------------------------------------------------
RGB = tuple[int, int, int]
#: the dragons' colours (chromatic and metallic), by the colour word of the id
DRAGON_COLOURS: dict[str, RGB] = {
    "red": (190, 40, 30), "blue": (40, 85, 200), "green": (45, 140, 60), "black": (40, 40, 46),
    "white": (225, 230, 238), "brass": (200, 160, 70), "bronze": (150, 105, 50), "copper": (185, 95, 55),
    "gold": (225, 180, 40), "silver": (180, 188, 198),
}
# colour words in ids and names, then the keywords of elements and animals (the first that matches wins)
_BY_COLOUR_WORD: tuple[tuple[tuple[str, ...], RGB], ...] = (
    (("fire", "magma", "efreeti", "salamander", "hell", "balor", "red", "magmin", "azer"), (200, 70, 30)),
    (("ice", "frost", "polar", "winter", "white", "yeti"), (215, 228, 240)),
    (("water", "blue", "sea", "merfolk", "merrow", "sahuagin"), (50, 110, 170)),
    (("air", "cloud", "storm", "steam", "djinni", "stalker", "mist"), (190, 205, 220)),
    (("earth", "stone", "gargoyle", "xorn", "dust", "clay", "iron", "golem", "armor", "sword", "guardian"),
     (130, 125, 115)),
    (("ghost", "specter", "wraith", "shadow", "wisp", "skeleton", "lich", "bone"), (200, 205, 215)),
    (("raven", "bat", "black", "cloaker", "darkmantle", "nightmare", "panther", "vrock"), (48, 44, 50)),
    (("gold", "brass", "lion", "griffon", "sphinx", "solar", "deva", "planetar", "tiger", "couatl"), (200, 160, 70)),
    (("green", "troll", "shambling", "treant", "tree", "shrub", "dryad", "lizard", "frog", "toad", "snake",
      "crocodile", "hag", "goblin", "orc", "hydra"), (80, 125, 60)),
    (("wolf", "rat", "shark", "elephant", "mammoth", "rhinoceros", "owl", "dust", "wererat"), (120, 118, 112)),
    (("wasp", "bee"), (210, 170, 40)),
    (("pegasus", "unicorn", "pseudodragon"), (235, 235, 240)),
)
_BY_TYPE_COLOUR: dict[str, RGB] = {
    "beast": (130, 95, 60), "monstrosity": (150, 110, 70), "fiend": (150, 40, 35), "celestial": (235, 220, 170),
    "undead": (175, 170, 150), "plant": (80, 125, 60), "ooze": (110, 150, 80), "elemental": (170, 160, 140),
    "construct": (140, 140, 145), "aberration": (120, 80, 130), "fey": (90, 150, 90), "giant": (190, 150, 120),
    "humanoid": (210, 170, 135), "dragon": (90, 110, 70),
}


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def colours(c: dict) -> tuple[RGB, RGB]:
    """(body, belly/accent) colours of a creature: a red dragon red, a blue one blue, a fire elemental orange."""
    words = _words(c)
    ctype = str(c.get("type") or "").lower()
    body = None
    if ctype == "dragon" or "dragon" in words:
        body = next((DRAGON_COLOURS[w] for w in words if w in DRAGON_COLOURS), None)
    if body is None:
        body = next((col for keys, col in _BY_COLOUR_WORD if any(k in words for k in keys)), None)
    if body is None:
        body = _BY_TYPE_COLOUR.get(ctype, (150, 140, 130))
    belly = _mix(body, (235, 220, 180), 0.45)
    return body, belly


@dataclass(frozen=True)
class Look:
    """What the renderer needs to build a creature's model."""
    family: str
    body: RGB
    belly: RGB
    wings: bool
    creature: str            # the SRD id it was taken from


def look(c: dict) -> Look:
    body, belly = colours(c)
    return Look(family(c), body, belly, has_wings(c), str(c.get("id") or ""))


@lru_cache(maxsize=1)
def _bestiary() -> dict[str, dict]:
    """The SRD records by id, read once from the shipped file (not through engine.compendium, which imports the app
    and so the renderer); an unreadable file leaves every character to the shipped models."""
    import json

    from engine.resources import resource_dir

    try:
        data = json.loads((resource_dir("assets") / "srd" / "creatures.json").read_text(encoding="utf-8"))
        return {c["id"]: c for c in data["creatures"]}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def look_for(srd: str | None, kind: str | None = None) -> Look | None:
    """The look of a character: its SRD creature (``srd = "young-red-dragon"``), else the SRD creature its stat
    block's kind names (``kind = "giant_eagle"`` -> ``giant-eagle``); None when it is neither (a shipped model or
    the generic one draws it)."""
    creatures = _bestiary()
    for key in (srd, (kind or "").replace("_", "-")):
        if key and key in creatures:
            return look(creatures[key])
    return None


#: aliases of a ``kind`` that is itself a creature: the creature is drawn, not the stand-in (a wyvern is no rider)
CREATURE_ALIASES = ("wyvern",)


def drawn_look(own_model: bool, srd: str | None, kind: str | None, has_model) -> Look | None:
    """The look a character is drawn with, or None when a shipped model draws it: the scene's own ``model`` wins;
    then its SRD creature (``srd = ...``); then a ``kind`` with a shipped model (``has_model(kind)``: archer,
    knight, harpy, and guard, scout... by alias) keeps it; else the SRD creature the kind names, if any. Shared by
    the renderer and the glTF exporter, so both draw the same bodies."""
    if own_model:
        return None
    if srd:
        return look_for(srd)
    if kind and has_model(kind):
        return None
    return look_for(None, kind)
