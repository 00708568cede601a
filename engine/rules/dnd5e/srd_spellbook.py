"""A creature's Spellcasting and Innate Spellcasting traits read from the stat block's text (SRD-50..SRD-54): the
ability, the spell save DC and spell attack bonus as written, the spellcaster level, the slots by level, the spells
by SRD index, and the innate spells' uses ("At will", "3/day each"). 5e-database's structured ``spellcasting``
fields are not kept by the bestiary's generator (engine/compendium/fivee_db.py keeps the text), so the text is read,
as issue 44 says the prose governs.

``book(c, f)`` is the parse; ``keys(c)`` the sheet keys it gives (``spells``, ``spell_slots``, ``spellcasting``,
``srd_spellcasting``); ``status(c, f)`` whether the rules play the trait (``feature_status``).

Decision on a partly castable list (issue 39: "be honest"): the trait counts as modelled only when every fight
spell of it -- issue 39's definition: a spell with a damage roll, healing or a save -- is castable. The spells with
none of these that Aerie does not cast (detect magic and mage hand, but also shield, counterspell, invisibility,
mirror image, dispel magic: they do change a fight) are named in ``why`` as left out and do not keep the trait
from counting; a fight spell left out (light, scrying, plane shift, dominate monster...) does, and ``why`` names
each. Stricter, "every spell of the list castable", only the three mephits' one-spell traits would count.
"""

from __future__ import annotations

import re

from engine.rules.dnd5e.srd_spells import catalogue

ABILITY = {"intelligence": "int", "wisdom": "wis", "charisma": "cha"}
ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)[- ]level spellcaster")
DC = re.compile(r"spell save DC (\d+)")
ATTACK = re.compile(r"([+-]\d+) to hit with spell attacks")
ABILITY_RE = re.compile(r"spell ?casting ability is (Intelligence|Wisdom|Charisma)", re.I)
#: "- 1st level (4 slots): bless, cure wounds" / "Cantrips (at will): light"
SLOT_LINE = re.compile(r"(?:Cantrips \(at will\)|(\d)(?:st|nd|rd|th) level \((\d+) slots?\)):\s*([^\n]+)")
#: "At will: detect magic" / "3/day each: bless" / "1/day: geas" (the lamia's text runs on one line)
USE = re.compile(r"(At will|(\d+)/day(?: each)?):\s*")
#: "The mephit can innately cast sleep, requiring ..." (the SRD's "Innate Spellcasting (1/Day)": 5e-database's name
#: drops the "(1/Day)", the trait's ``per_day`` keeps it where the generator read it, else 1)
SINGLE = re.compile(r"can innately cast ([a-z' /]+?)(?: \(spell save DC \d+\))?, requiring")
#: "The archmage can cast disguise self and invisibility at will"
ALSO_AT_WILL = re.compile(r"can cast ([a-z' /]+?) and ([a-z' /]+?) at will")


def index(name: str) -> str:
    """A spell's name as the stat block writes it -> its SRD index ("blindness/deafness" -> "blindness-deafness")."""
    n = re.sub(r"\s*\(.*?\)", "", name).strip().rstrip("*").strip().lower()
    return re.sub(r"[^a-z0-9]+", "-", n.replace("'", "")).strip("-")


def _names(text: str) -> list[str]:
    """The spells of a list ("bless, cure wounds, sanctuary"), qualifiers "(self only)" dropped."""
    text = re.sub(r"\([^)]*\)", "", text)
    return [index(x) for x in text.split(",") if x.strip()]


def kind(f: dict) -> str | None:
    n = re.sub(r"\s*\(.*\)$", "", f["name"].lower())
    return n if n in ("spellcasting", "innate spellcasting") else None


def book(c: dict, f: dict) -> dict:
    """The trait as data: ``{ability, dc, attack, level, slots, spells, innate}``; ``innate`` maps a spell to its uses
    per day (0: at will); ``spells`` are every spell the trait names (SRD index), castable or not."""
    text = f["desc"]
    m = ABILITY_RE.search(text)
    b: dict = {"ability": ABILITY[m.group(1).lower()] if m else "cha", "slots": {}, "spells": [], "innate": {}}
    for k, rx in (("dc", DC), ("attack", ATTACK), ("level", ORDINAL)):
        found = rx.search(text)
        b[k] = int(found.group(1)) if found else None
    if kind(f) == "spellcasting":
        for lvl, n, names in SLOT_LINE.findall(text):
            if lvl:
                b["slots"][lvl] = int(n)
            b["spells"] += _names(names)
        also = ALSO_AT_WILL.search(text)
        if also:                                   # the archmage's "disguise self and invisibility at will"
            for s in (index(also.group(1)), index(also.group(2))):
                b["innate"][s] = 0
                b["spells"].append(s)
        return b
    single = SINGLE.search(text)
    if single and not USE.search(text):
        s = index(single.group(1))
        b["innate"][s] = int(f.get("per_day") or 1)
        b["spells"].append(s)
        return b
    parts = USE.split(text)
    # USE.split: [before, "At will", None, names, "3/day each", "3", names, ...]
    for j in range(1, len(parts) - 2, 3):
        uses = 0 if parts[j].lower() == "at will" else int(parts[j + 1])
        for s in _names(parts[j + 2].split("\n")[0]):
            b["innate"][s] = uses
            b["spells"].append(s)
    return b


def fight_spell(e: dict) -> bool:
    """A spell with a damage roll, healing or a save (issue 39's "fight spells")."""
    return bool(e.get("damage") or e.get("heal") or e.get("save"))


def harms(sid: str) -> bool:
    """A castable spell with damage (what SRD-52's legendary policy casts)."""
    e = catalogue().get(sid)
    return bool(e and e["castable"] and e.get("damage"))


def split(b: dict) -> tuple[list[str], list[str], list[str]]:
    """(castable, fight spells left out, other spells left out) of a parsed trait, by SRD index."""
    cat = catalogue()
    ok, fight, other = [], [], []
    for s in b["spells"]:
        e = cat.get(s)
        if e is not None and e["castable"]:
            ok.append(s)
        elif e is None or fight_spell(e):          # an index the SRD lacks: counted against the trait
            fight.append(s)
        else:
            other.append(s)
    return ok, fight, other


def keys(c: dict) -> dict:
    """The sheet keys of the creature's spellcasting traits (SRD-50, SRD-51, SRD-53): its castable spells, its slots,
    its ability, and ``srd_spellcasting`` = {dc, attack, level, innate}: the DC and attack bonus as written, the
    spellcaster level (cantrip scaling), the innate spells' uses per day (0 at will)."""
    out: dict = {}
    spells: list[str] = []
    slots: dict[str, int] = {}
    sc: dict = {"innate": {}}
    for f in c["traits"]:
        if kind(f) is None:
            continue
        b = book(c, f)
        ok = split(b)[0]
        spells += [s for s in ok if s not in spells]
        for k, v in b["slots"].items():
            slots[k] = slots.get(k, 0) + v
        for s, n in b["innate"].items():
            if s in ok:
                sc["innate"][s] = n
        for k in ("dc", "attack", "level"):
            if b[k] is not None and k not in sc:
                sc[k] = b[k]
        out.setdefault("spellcasting", b["ability"])
    if not spells:
        return {}
    out["spells"] = spells
    out["spell_slots"] = slots
    out["srd_spellcasting"] = sc
    return out


def status(c: dict, f: dict) -> tuple[bool, str]:
    """(modelled, why) of a Spellcasting / Innate Spellcasting trait: see the module's decision."""
    b = book(c, f)
    ok, fight, other = split(b)
    if not b["spells"]:
        return False, "not played: no spell list could be read from its text"
    rule = "SRD-50" if kind(f) == "spellcasting" else "SRD-51"
    gaps = []
    if fight:
        gaps.append("fight spells not castable in Aerie: " + ", ".join(fight))
    if other:
        gaps.append("spells with no damage, healing or save (not issue 39's fight spells), not cast: "
                    + ", ".join(other))
    if not ok:
        return False, "not played: none of its spells is castable in Aerie (" + "; ".join(gaps) + ")"
    head = f"played as {rule}: casts {', '.join(ok)}"
    return not fight, head + ("; left out: " + "; ".join(gaps) if gaps else "")
