"""The SRD creatures' charms, fears and possessions (SRD-65..72, issue 44) as read from their stat blocks
(assets/srd/creatures.json): the sheet's ``creature_actions`` entry each gives (its ``charm`` keys; SRD-12's save
action plays it, engine/rules/dnd5e/srd_charms.py adds what the text says), and whether the rules play it
(``status``: srd_status asks it before srd_blocks' save-action branch).

A feature is recognised by its name and its opening words; the DC and the save are the block's, the range the text's.
``charm`` keys (all optional but ``rule``)::

    rule      the rule ID that plays it (SRD-65 charm, -66 control, -67 death glare, -68 slow, -70 fear, -71
              possession, -72 luring song)
    types     creature types it may target (a character with no type is a humanoid)
    sees      "If the target can see the vampire": a target that does not see it makes no save
    magic     "against this magic" / "magically": Magic Resistance (SRD-10) gives advantage
    immune    a target that saves is immune to it (for 24 hours: the fight)
    repeat    "harm_by_side" (the charmer or its companions harm it), "damage" (it takes damage), "end_turn" (at the
              end of each of its turns), "lure" (end of turn, and damage from another than the harpy)
    limit     {creature type or "any": how many it may hold charmed at a time}: the oldest is freed
    control   the charmed target is under its control (played on the charmer's side)
    no_reactions  the charmed target can't take reactions
    needs     the condition its target must have ("one frightened creature")
    to_zero   a failed save drops the target to 0 hit points
    choose    "one or more creatures it can see within 10 ft.": the foes it sees within the range
    dis_seen  its repeated save is at disadvantage while the charmer is within its line of sight
    possess   the ghost's Possession
    lure      the harpy's Luring Song
"""

from __future__ import annotations

import re

RANGE = re.compile(r"within (\d+) (?:feet|ft\.)")

#: (name, opening words) -> (charm keys, the entry's other keys, what the text says that has no effect in a fight)
FEATURES: dict[tuple[str, str], tuple[dict, dict, str]] = {
    ("Charm", "One humanoid the fiend can see within"): (
        {"rule": "SRD-66", "types": ["humanoid"], "magic": True, "immune": True, "repeat": "damage",
         "limit": {"any": 1}, "control": True}, {"condition": "charmed"},
        "its 1 day and 24 hours outlast a fight; a \"suicidal command\" is never given (its side's policy commands "
        "the target as one of its own)"),
    ("Charm", "The vampire targets one humanoid it can see"): (
        {"rule": "SRD-65", "types": ["humanoid"], "sees": True, "magic": True, "repeat": "harm_by_side",
         "bite": True}, {"condition": "charmed"},
        "its 24 hours, planes and the vampire's bonus action to end it outlast or lie outside a fight; \"regards the "
        "vampire as a trusted friend\" is DND-54's charm (it can't attack or harm the vampire)"),
    ("Fey Charm", "The dryad targets one humanoid or beast"): (
        {"rule": "SRD-65", "types": ["humanoid", "beast"], "sees": True, "magic": True, "repeat": "harm_by_side",
         "immune": True, "limit": {"humanoid": 1, "beast": 3}}, {"condition": "charmed"},
        "its 24 hours, planes and the dryad's bonus action to end it outlast or lie outside a fight; \"regards the "
        "dryad as a trusted friend\" is DND-54's charm (it can't attack or harm the dryad)"),
    ("Enslave", "The aboleth targets one creature it can see"): (
        {"rule": "SRD-66", "magic": True, "repeat": "damage", "control": True, "no_reactions": True},
        {"condition": "charmed"},
        "telepathy over any distance and the save at 1 mile away lie outside a fight"),
    ("Death Glare", "The hag targets one frightened creature"): (
        {"rule": "SRD-67", "needs": "frightened", "sees": True, "magic": True, "to_zero": True}, {}, ""),
    ("Slow", "The golem targets one or more creatures"): (
        {"rule": "SRD-68", "choose": True, "magic": True}, {"slow": True},
        "its 1 minute is not counted: the effect lasts until a save ends it (as SRD-27's Slowing Breath)"),
    ("Horrifying Visage", "Each non-undead creature within"): (
        {"rule": "SRD-70", "sees": True, "immune": True, "repeat": "end_turn"},
        {"condition": "frightened", "not_types": ["undead"]},
        "the aging (1d4 x 10 years on a failure by 5 or more, reversed by greater restoration within 24 hours) has "
        "no effect in a fight: no age is on a sheet"),
    ("Scare", "One creature of the quasit's choice"): (
        {"rule": "SRD-70", "repeat": "end_turn", "dis_seen": True}, {"condition": "frightened"}, ""),
    ("Possession", "One humanoid that the ghost can see"): (
        {"rule": "SRD-71", "types": ["humanoid"], "immune": True, "possess": True}, {"condition": "incapacitated"},
        "the ghost keeps its alignment and does not gain the target's knowledge, class features or proficiencies "
        "(the body's weapons are played with its own numbers); its bonus action to end it and turning or dispel evil "
        "and good forcing it out are not offered"),
    ("Luring Song", "The harpy sings a magical melody"): (
        {"rule": "SRD-72", "types": ["humanoid", "giant"], "magic": True, "repeat": "lure", "immune": True,
         "lure": True}, {"condition": "charmed", "hearing": True, "area": {"shape": "self", "radius_m": 90.0}},
        "\"ignores the songs of other harpies\" and damaging terrain (no lava or pits on the map) do not arise; "
        "\"it can stop singing at any time\": its policy sings on"),
}

#: why the features of this family that the rules do not play are not played
NOT_PLAYED = {
    ("Heart Sight", "The sprite touches a creature and magically knows"): (
        "no effect in a fight: it learns the target's emotional state and alignment, which no rule, policy or "
        "sheet reads (the sandbox has no alignments, and no choice of a fight depends on a creature's emotions)"),
    ("Antennae", "The rust monster corrodes a nonmagical ferrous metal object"): (
        "not played: the sheets do not say which weapons, armour or shields are of ferrous metal, so the corrosion "
        "(-1 AC cumulative, a weapon rusting as Rust Metal says) has nothing to act on"),
}


#: what a played feature's text says that the rules leave out (the feature is then not counted as modelled)
LEFT_OUT = {
    ("Possession", "One humanoid that the ghost can see"): (
        "\"The ghost can't be targeted by any attack, spell, or other effect\": the ghost stays where it stood, its "
        "turns spent, and may still be targeted; \"reappears in an unoccupied space within 5 ft. of the body\": it "
        "reappears where it stood"),
}


def _key(f: dict, table: dict):
    text = " ".join(f.get("desc", "").split())
    return next((k for k in table if f["name"] == k[0] and text.startswith(k[1])), None)


def entry(c: dict, f: dict) -> dict | None:
    """The sheet's ``creature_actions`` entry for a feature of this family, or None."""
    k = _key(f, FEATURES) if f.get("kind") == "save" else None
    if k is None:
        return None
    charm, other, _ = FEATURES[k]
    rng = RANGE.search(f["desc"])
    metres = round(int(rng.group(1)) * 0.3, 2) if rng else 1.5
    e: dict = {"name": f["name"], "dc": int(f["dc"]), "ability": f["ability"], "damage": [], "half": False}
    if charm.get("choose") or k[0] == "Horrifying Visage":      # "Each ... within 60 ft.": an area around it
        e["area"] = {"shape": "self", "radius_m": metres}
    elif "area" not in other:
        e["range_m"] = metres
    e.update({x: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v) for x, v in other.items()})
    if f.get("recharge"):
        e["recharge"] = list(f["recharge"])
    if f.get("per_day"):
        e["per_day"] = int(f["per_day"])
    e["charm"] = {x: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
                  for x, v in charm.items()}
    return e


def status(c: dict, section: str, f: dict) -> tuple[bool, str] | None:
    """(modelled, why) for a feature of this family, or None (another family, or srd_blocks, decides)."""
    if section != "actions":
        return None
    k = _key(f, NOT_PLAYED)
    if k is not None:
        return False, NOT_PLAYED[k]
    k = _key(f, FEATURES) if f.get("kind") == "save" else None
    if k is None:
        return None
    rule, none = FEATURES[k][0]["rule"], FEATURES[k][2]
    if k in LEFT_OUT:
        return False, f"played as {rule}; left out: {LEFT_OUT[k]}"
    return True, (f"played as {rule}; no effect in a fight: {none}" if none else "")
