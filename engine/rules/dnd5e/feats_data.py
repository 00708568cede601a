"""The D&D 5e feats as data (DND-F00): the table (id, name, scope, ability increase, prerequisite), whether a
character has a feat now, the reactions a character takes or declines, and the small pure helpers the attack and
the save ask -- the data layer every other 5e module may import (engine/rules/layers.py). The feats' rules on
their moments are in ``feats.py`` / ``feats_moments.py``, above; ``feats`` re-exports these names."""

from __future__ import annotations

import difflib
from typing import TypedDict

from engine.rules import choices


class Prereq(TypedDict):
    """A feat's ability prerequisite: one of ``ability`` at ``min`` or higher."""
    ability: tuple[str, ...]
    min: int


class FeatInfo(TypedDict):
    """One row of ``FEATS``."""
    id: str
    name: str
    scope: str
    asi: str | tuple[str, ...] | None
    prereq: Prereq | str | None


# name: (id, English name, scope, ability increase: None | "str" | ("str", "dex") (a choice, first by default),
#        prerequisite: None | {"ability": ("str",) , "min": 13} | "spellcaster")
_F: list[tuple[str, str, str, str, str | tuple[str, ...] | None, Prereq | str | None]] = [
    ("martial_adept", "DND-F01", "Martial Adept", "auto", None, None),
    ("elemental_adept", "DND-F02", "Elemental Adept", "auto", None, "spellcaster"),
    ("actor", "DND-F03", "Actor", "sheet", "cha", None),
    ("athlete", "DND-F04", "Athlete", "auto", ("str", "dex"), None),
    ("dungeon_delver", "DND-F05", "Dungeon Delver", "auto", None, None),
    ("savage_attacker", "DND-F06", "Savage Attacker", "auto", None, None),
    ("keen_mind", "DND-F07", "Keen Mind", "sheet", "int", None),
    ("heavily_armored", "DND-F08", "Heavily Armored", "auto", "str", None),
    ("skulker", "DND-F09", "Skulker", "auto", None, None),
    ("alert", "DND-F10", "Alert", "auto", None, None),
    ("linguist", "DND-F11", "Linguist", "sheet", "int", None),
    ("mounted_combatant", "DND-F12", "Mounted Combatant", "auto", None, None),
    ("lightly_armored", "DND-F13", "Lightly Armored", "auto", ("dex", "str"), None),
    ("war_caster", "DND-F14", "War Caster", "auto", None, None),
    ("polearm_master", "DND-F15", "Polearm Master", "auto", None, None),
    ("great_weapon_master", "DND-F16", "Great Weapon Master", "auto", None, None),
    ("heavy_armor_master", "DND-F17", "Heavy Armor Master", "auto", "str", None),
    ("weapon_master", "DND-F18", "Weapon Master", "auto", ("str", "dex"), None),
    ("medium_armor_master", "DND-F19", "Medium Armor Master", "auto", None, None),
    ("shield_master", "DND-F20", "Shield Master", "auto", None, None),
    ("defensive_duelist", "DND-F21", "Defensive Duelist", "auto", None, {"ability": ("dex",), "min": 13}),
    ("spell_sniper", "DND-F22", "Spell Sniper", "auto", None, "spellcaster"),
    ("durable", "DND-F23", "Durable", "auto", "con", None),
    ("dual_wielder", "DND-F24", "Dual Wielder", "auto", None, None),
    ("resilient", "DND-F25", "Resilient", "auto", ("str", "dex", "con", "int", "wis", "cha"), None),
    ("inspiring_leader", "DND-F26", "Inspiring Leader", "auto", None, {"ability": ("cha",), "min": 13}),
    ("mobile", "DND-F27", "Mobile", "auto", None, None),
    ("crossbow_expert", "DND-F28", "Crossbow Expert", "auto", None, None),
    ("observant", "DND-F29", "Observant", "auto", ("int", "wis"), None),
    ("sharpshooter", "DND-F30", "Sharpshooter", "auto", None, None),
    ("charger", "DND-F31", "Charger", "auto", None, None),
    ("lucky", "DND-F32", "Lucky", "auto", None, None),
    ("moderately_armored", "DND-F33", "Moderately Armored", "auto", ("str", "dex"), None),
    ("tough", "DND-F34", "Tough", "auto", None, None),
    ("skilled", "DND-F35", "Skilled", "sheet", None, None),
    ("healer", "DND-F36", "Healer", "auto", None, None),
    ("sentinel", "DND-F37", "Sentinel", "auto", None, None),
    ("magic_initiate", "DND-F38", "Magic Initiate", "sheet", None, None),
    ("tavern_brawler", "DND-F39", "Tavern Brawler", "auto", ("str", "con"), None),
    ("mage_slayer", "DND-F40", "Mage Slayer", "auto", None, None),
    ("grappler", "DND-F41", "Grappler", "auto", None, None),
    ("ritual_caster", "DND-F42", "Ritual Caster", "sheet", None, {"ability": ("int", "wis"), "min": 13}),
]
FEATS: dict[str, FeatInfo] = {n: {"id": i, "name": en, "scope": sc, "asi": asi, "prereq": pr}
                              for n, i, en, sc, asi, pr in _F}
FEAT_ID: dict[str, str] = {n: f["id"] for n, f in FEATS.items()}
#: DND-F00: the prerequisites above are the document's "Wymagania" lines; the rulebook (PHB) also asks these three,
#: which ``004_...`` never writes: on with option ``feat_prerequisites = "rulebook"``
RULEBOOK_PREREQS: dict[str, Prereq | str] = {"skulker": {"ability": ("dex",), "min": 13},
                                              "grappler": {"ability": ("str",), "min": 13},
                                              "war_caster": "spellcaster"}
MANOEUVRES = ("trip", "pushing", "precision")     # DND-F01: the manoeuvres the program resolves
#: DND-F15 l. 148-149: the butt-end bonus attack names "drąg, glewię, halabardę lub włócznię" (no pike); the
#: second clause, opportunity attacks on entering reach, adds "piką"
BUTT_END_POLEARMS = ("glaive", "halberd", "quarterstaff", "spear")
POLEARMS = (*BUTT_END_POLEARMS, "pike")
#: the reactions a character may take or decline (``reactions = {name = false}`` on the character, default take)
REACTIONS = ("opportunity_attack", "sentinel", "mage_slayer", "defensive_duelist", "shield_master", "polearm_master",
             "lucky", "war_caster", "mounted_combatant", "readied_action", "feather_fall", "parry")
#: choices whose default is decline (they spend a limited resource): Lucky's points against attacks and on saves
DEFAULT_DECLINE = ("lucky", "war_caster")


def closest(name: str, known) -> str:
    m = difflib.get_close_matches(str(name), list(known), n=1, cutoff=0.0)
    return m[0] if m else ""


def prereq(name: str, rulebook: bool):
    """A feat's prerequisite: the document's, or with ``rulebook`` the PHB's extras too (DND-F00)."""
    p = FEATS[name]["prereq"]
    return RULEBOOK_PREREQS.get(name, p) if rulebook and p is None else p


def unmet(prereq, abilities: dict, spells: list) -> str | None:
    if prereq is None:
        return None
    if prereq == "spellcaster":
        return None if spells else "the ability to cast at least one spell"
    if any(abilities.get(k, 10) >= prereq["min"] for k in prereq["ability"]):
        return None
    return " or ".join(k.capitalize() for k in prereq["ability"]) + f" {prereq['min']} or higher"


def has(a, name: str) -> bool:
    """The actor has the feat and meets its prerequisite now (DND-F00: a lost prerequisite makes it unusable)."""
    d = a.data
    fs = d.get("feats")
    if not fs or name not in fs:
        return False
    p = FEATS[name]["prereq"]
    if p is None:
        if not d.get("rulebook_prereqs") or name not in RULEBOOK_PREREQS:
            return True
        p = RULEBOOK_PREREQS[name]
    return unmet(p, d["abilities"], d["spells"]) is None


#: what taking / declining each reaction does (the window's prompt)
REACTION_TEXT = {
    "opportunity_attack": ("make the opportunity attack (DND-28)", "let it go"),
    "sentinel": ("attack the attacker (Sentinel)", "let it be"),
    "mage_slayer": ("attack the caster (Mage Slayer)", "let the spell be"),
    "defensive_duelist": ("+proficiency to AC: the hit becomes a miss (Defensive Duelist)", "take the hit"),
    "shield_master": ("no damage on the successful save (Shield Master)", "take half"),
    "polearm_master": ("attack as it enters reach (Polearm Master)", "let it come"),
    "lucky": ("spend a luck point: one more d20 (Lucky)", "keep the point"),
    "war_caster": ("cast a one-action spell at it instead (War Caster)", "the weapon attack (or none)"),
    "mounted_combatant": ("take the attack aimed at the mount (Mounted Combatant)", "let the mount take it"),
    "readied_action": ("take the readied action (DND-20)", "ignore the trigger, stay ready"),
}
#: the rule of a reaction that is no feat's (else DND-28, the opportunity attack)
REACTION_RULE = {"readied_action": "DND-20"}


def reaction_taken(a, name: str, session=None, about: str = "", peek: bool = False, texts: tuple | None = None) -> bool:
    """Take or decline a reaction the rules offer: the action's ``reactions = {id = {name = bool}}`` if given, else
    the character's policy (``reactions = {sentinel = false}``; default take, Lucky and War Caster decline). With
    ``session`` it is a choice point (engine/rules/choices.py: the window asks the reacting character's player at
    this moment); ``peek`` only looks ahead (an open question in ask mode may still be taken)."""
    pol = a.data.get("reactions", {}).get(name, name not in DEFAULT_DECLINE)
    if session is None:
        return pol
    path = ("reactions", a.id, name)
    if peek:
        v = choices.given(session, path)
        if v is not choices.MISSING:
            return bool(v)
        return True if choices.open_question(session, path, a.id) else pol
    take, leave = texts or REACTION_TEXT[name]
    return bool(choices.choose(session, path, a.id, {True: take, False: leave}, pol, rule=FEAT_ID.get(name) or REACTION_RULE.get(name, "DND-28"),
                               role="reaction", question=about or name.replace("_", " ")))


#: the reactions each feat brings (the ordinary opportunity attack is everyone's)
FEAT_REACTIONS = {"mounted_combatant": "mounted_combatant", "war_caster": "war_caster", "lucky": "lucky", "sentinel": "sentinel", "mage_slayer": "mage_slayer", "defensive_duelist": "defensive_duelist",
                  "shield_master": "shield_master", "polearm_master": "polearm_master"}


def butt_end(w) -> dict:
    """DND-F15: the polearm's other end: 1d4 bludgeoning."""
    return {**w, "damage": "1d4", "type": "bludgeoning", "name": w["name"]}


def can_oa_despite_disengage(r) -> bool:
    return bool(r.data.get("feats")) and has(r, "sentinel")


def has_raw(featdata: dict, name: str) -> bool:
    """At setup (prerequisites already checked): the feat is on the sheet."""
    return name in featdata["feats"]


def adept_dice(rolls: list, on: bool) -> list:
    """DND-F02 Elemental Adept: a 1 on a damage die of its element counts as a 2."""
    return [2 if on and r == 1 else r for r in rolls]


def superiority_die(session, a, manoeuvre) -> int:
    """DND-F01 Martial Adept: spend the superiority die (one per short rest: one per scene here), a d6 named
    ``superiority``."""
    a.data["superiority"] -= 1
    (v,) = session.roll("superiority", 6, who=a.id, rule="DND-F01", purpose=f"Martial Adept: {manoeuvre}")
    session.emit({"type": "feat", "who": a.id, "feat": "martial_adept", "manoeuvre": manoeuvre, "die": v, "rule": "DND-F01"})
    return v
