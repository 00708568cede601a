"""What the SRD flyers' hits do after the damage, read from the stat blocks' text (assets/srd/creatures.json): the
infernal wound (SRD-46), the cockatrice's petrification (SRD-47). Data only: srd_rider_text.read gives the weapon's
``on_hit`` a ``rider`` from here, and the sentences read here are left out of what ``features`` names as left out. The
rules that play them: engine/rules/dnd5e/srd_wound.py; the catalogue: srd_catalogue_riders.py."""

from __future__ import annotations

import re

from engine.errors import SceneError
from engine.rules.validate import dice_expr, number

#: SRD-46 the horned devil's Tail, the bearded devil's Glaive: "If the target is a creature other than an undead or a
#: construct, it must succeed on a DC 17 Constitution saving throw or lose 10 (3d6) hit points at the start of each of
#: its turns due to an infernal wound. Each time the devil hits the wounded target with this attack, the damage dealt
#: by the wound increases by 10 (3d6). Any creature can take an action to stanch the wound with a successful DC 12
#: Wisdom (Medicine) check. The wound also closes if the target receives magical healing."
WOUND = re.compile(r"If the target is a creature other than an undead or a construct, it must succeed on a DC \d+ "
                   r"Constitution saving throw or lose \d+ \((\d+d\d+)\) hit points at the start of each of its turns "
                   r"due to an infernal wound\. Each time the devil hits the wounded target with this attack, the "
                   r"damage dealt by the wound increases by \d+ \((\d+d\d+)\)\. Any creature can take an action to "
                   r"stanch the wound with a successful DC (\d+) Wisdom \(Medicine\) check\. The wound also closes if "
                   r"the target receives magical healing\.$")
#: SRD-47 the cockatrice's Bite: "... the target must succeed on a DC 11 Constitution saving throw against being
#: magically petrified. On a failed save, the creature begins to turn to stone and is restrained. It must repeat the
#: saving throw at the end of its next turn. On a success, the effect ends. On a failure, the creature is petrified
#: for 24 hours."
PETRIFY = re.compile(r"saving throw against being magically petrified\. On a failed save, the creature begins to turn "
                     r"to stone and is restrained\. It must repeat the saving throw at the end of its next turn\. On a "
                     r"success, the effect ends\. On a failure, the creature is petrified for (\d+) hours\.$")


def read(text: str):
    """(the on-hit ``rider``, a test of the sentences it covers) of a hit's text after "Hit:", or (None, None)."""
    text = " ".join(text.split())
    m = WOUND.search(text)
    if m:
        return ({"kind": "wound", "dice": m.group(1), "more": m.group(2), "stanch_dc": int(m.group(3)),
                 "spares": ["undead", "construct"]}, lambda x, s=m.group(0): x in s)
    m = PETRIFY.search(text)
    if m:
        return {"kind": "petrify", "hours": int(m.group(1))}, lambda x, s=m.group(0): x in s
    return None, None


# -- the sheet key ``srd_hits`` (any 5e character may carry it; a scene without it plays as before) ----------------
#
#     consume_life = {dc = 10, dice = "3d6", range_m = 1.5}    # SRD-59 the will-o'-wisp's Consume Life

KEYS = ("consume_life",)

#: SRD-59 "As a bonus action, the will-o'-wisp can target one creature it can see within 5 ft. of it that has 0 hit
#: points and is still alive. The target must succeed on a DC 10 Constitution saving throw against this magic or die.
#: If the target dies, the will-o'-wisp regains 10 (3d6) hit points."
CONSUME = re.compile(r"^As a bonus action, the [\w' -]+ can target one creature it can see within (\d+) (?:ft\.|feet) "
                     r"of it that has 0 hit points and is still alive\. The target must succeed on a DC (\d+) "
                     r"Constitution saving throw against this magic or die\. If the target dies, the [\w' -]+ regains "
                     r"\d+ \((\d+d\d+)\) hit points\.$")
#: SRD-60 "The will-o'-wisp and its light magically become invisible until it attacks or uses its Consume Life, or
#: until its concentration ends (as if concentrating on a spell)." (SRD-34 plays the rest)
INVISIBLE_UNTIL_CONSUME = "until it attacks or uses its Consume Life"


def _name(n: str) -> str:
    return re.sub(r"\s*\(.*\)$", "", n).strip().lower()


def trait(f: dict) -> dict | None:
    """The ``srd_hits`` entries of one trait whose text the rules play, or None."""
    text = " ".join(f["desc"].split())
    m = CONSUME.match(text) if _name(f["name"]) == "consume life" else None
    if m:
        return {"consume_life": {"dc": int(m.group(2)), "dice": m.group(3),
                                 "range_m": round(int(m.group(1)) * 0.3, 2)}}
    return None


def character_keys(c: dict) -> dict:
    """The sheet keys these features give a creature record (merged into srd_blocks.character's)."""
    out: dict = {}
    for f in c["traits"]:
        out.update(trait(f) or {})
    return {"srd_hits": out} if out else {}


def status(c: dict, section: str, f: dict) -> tuple[bool, str] | None:
    """(modelled, why) for a feature played here, or None (another family decides)."""
    if section == "traits" and trait(f) is not None:
        return True, ""
    if section == "actions" and _name(f["name"]) == "invisibility" and INVISIBLE_UNTIL_CONSUME in f["desc"] \
            and any(trait(g) for g in c["traits"]):
        return True, ""              # SRD-34 with SRD-60: Consume Life ends it too
    return None


def check(raw: dict, file: str, key: str) -> None:
    h = raw.get("srd_hits")
    if h is None:
        return
    k = f"{key}.srd_hits"
    if not isinstance(h, dict):
        raise SceneError(file, k, "a table: " + ", ".join(KEYS))
    for name in h:
        if name not in KEYS:
            raise SceneError(file, f"{k}.{name}", "unknown; one of " + ", ".join(KEYS))
    cl = h.get("consume_life")
    if cl is not None and not (isinstance(cl, dict) and set(cl) <= {"dc", "dice", "range_m"}
                               and number(cl.get("dc", 10), 1, 40, True) and dice_expr(cl.get("dice", "3d6"))
                               and number(cl.get("range_m", 1.5), 0.5, 100)):
        raise SceneError(file, f"{k}.consume_life", "{dc = 10, dice = \"3d6\", range_m = 1.5}")


def setup(data: dict, raw: dict) -> None:
    if raw.get("srd_hits"):
        data["srd_hits"] = dict(raw["srd_hits"])
