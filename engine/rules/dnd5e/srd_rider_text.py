"""What a hit's save does beyond damage and a condition, read from the stat block's text (the rules:
engine/rules/dnd5e/srd_riders.py, SRD-22..SRD-24). Data only: srd_blocks.on_hit gives the weapon's ``on_hit`` a
``rider`` from here and leaves the sentences read here out of what ``features`` names as left out."""

from __future__ import annotations

import re

from engine.rules.dnd5e import srd_hits_text

#: SRD-22 "If the poison damage reduces the target to 0 hit points, the target is stable but poisoned for 1 hour,
#: even after regaining hit points, and is paralyzed while poisoned in this way."
POISON_AT_ZERO = re.compile(r"If the poison damage reduces the target to 0 hit points, the target is stable but "
                            r"poisoned for 1 hour, even after regaining hit points, and is paralyzed while poisoned in "
                            r"this way\.?")
#: SRD-23 "The target must succeed on a DC 10 Constitution saving throw or its hit point maximum is reduced by an
#: amount equal to the damage taken. This reduction lasts until the creature finishes a long rest. The target dies if
#: this effect reduces its hit point maximum to 0."
DRAIN = re.compile(r"hit point maximum (?:is )?reduced by an amount equal to the damage taken")
DRAIN_MORE = re.compile(r"^(?:This reduction lasts until the (?:creature|target) finishes a long rest\.|The target "
                        r"dies if this (?:effect|attack) reduces its hit point maximum to 0\.|The reduction lasts "
                        r"until removed by the greater restoration spell or other magic\.)$")
#: SRD-24 "If the target is a creature that has 190 hit points or fewer, it must succeed on a DC 15 Constitution
#: saving throw or die."
SLAY = re.compile(r"If the target is a creature that has (\d+) hit points or fewer, it must succeed on a DC \d+ "
                  r"\w+ saving throw or die\.")


#: SRD-25 on a hit: "If the saving throw fails by 5 or more, the target is also unconscious while poisoned in this way.
#: The target wakes up if it takes damage or if another creature takes an action to shake it awake." (the drow) and
#: "Until this poison ends, the target is unconscious. Another creature can use an action to shake the target awake."
#: (the couatl: damage does not wake it)
SLEEP_BY = re.compile(r"If the saving throw fails by (\d+) or more, the target is also unconscious while poisoned in "
                      r"this way\.|The target wakes up if it takes damage or if another creature takes an action to "
                      r"shake it awake\.")
SLEEP_DEEP = re.compile(r"Until this poison ends, the target is unconscious\.|Another creature can use an action to "
                        r"shake the target awake\.")
#: SRD-13's condition, as lasting as written: "The poison lasts until it is removed by the lesser restoration spell or
#: similar magic." (nothing in a fight removes it)
LASTS = re.compile(r"The poison lasts until it is removed by the lesser restoration spell or similar magic\.")


#: SRD-29 "While poisoned in this way, the target can't regain hit points, and it takes 21 (6d6) poison damage at the
#: start of each of its turns."
BLIGHT = re.compile(r"While poisoned in this way, the target can't regain hit points(?:, and it takes \d+ \((\d+d\d+)\) "
                    r"(\w+) damage at the start of each of its turns)?\.")


#: SRD-26 "the target must succeed on a DC 20 Strength saving throw or be pulled up to 25 feet toward the balor."
PULLED = re.compile(r"or be pulled up to (\d+) feet toward the \w+\.")


#: SRD-49 "If the target is a humanoid, it must succeed on a DC 12 Constitution saving throw or be cursed with werewolf
#: lycanthropy." and "If the target is a creature, it must succeed on a DC 12 Constitution saving throw or be cursed
#: with mummy rot. The cursed target can't regain hit points, and its hit point maximum decreases by 10 (3d6) for every
#: 24 hours that elapse. If the curse reduces the target's hit point maximum to 0, the target dies, and its body turns
#: to dust. The curse lasts until removed by the remove curse spell or other magic."
LYCANTHROPY = re.compile(r"If the target is a humanoid, it must succeed on a DC \d+ Constitution saving throw or be "
                         r"cursed with (\w+ lycanthropy)\.$")
ROT = re.compile(r"If the target is a creature, it must succeed on a DC \d+ Constitution saving throw or be cursed with "
                 r"mummy rot\. The cursed target can't regain hit points, and its hit point maximum decreases by \d+ "
                 r"\((\d+d\d+)\) for every 24 hours that elapse\. If the curse reduces the target's hit point maximum to "
                 r"0, the target dies, and its body turns to dust\. The curse lasts until removed by the remove curse "
                 r"spell or other magic\.$")
ROT_MORE = ("The cursed target can't regain hit points, and its hit point maximum decreases by",
            "If the curse reduces the target's hit point maximum to 0, the target dies, and its body turns to dust.",
            "The curse lasts until removed by the remove curse spell or other magic.")


def curse(text: str):
    """SRD-49's (``rider``, test of the sentences it covers), or (None, None)."""
    m = LYCANTHROPY.search(text.strip())
    if m:
        return {"kind": "curse", "curse": m.group(1), "only": "humanoid"}, lambda x: False
    m = ROT.search(text.strip())
    if m:
        return ({"kind": "curse", "curse": "mummy rot", "no_heal": True, "each_day": m.group(1)},
                lambda x: x.startswith(ROT_MORE))
    return None, None


def read(text: str):
    """(the ``rider``, a test of the sentences it covers) of a hit's text after "Hit:", or (None, None)."""
    cursed = curse(text)
    if cursed[0]:
        return cursed
    hit = srd_hits_text.read(text)              # SRD-46 the infernal wound, SRD-47 petrification
    if hit[0]:
        return hit
    if POISON_AT_ZERO.search(text):
        return {"kind": "poison_at_zero"}, lambda x: bool(POISON_AT_ZERO.search(x))
    if DRAIN.search(text):
        return {"kind": "drain"}, lambda x: bool(DRAIN.search(x) or DRAIN_MORE.match(x))
    m = SLAY.search(text)
    if m:
        return {"kind": "slay", "max_hp": int(m.group(1))}, lambda x: bool(SLAY.search(x))
    found = SLEEP_BY.findall(text)
    if len(found) == 2 and found[0]:
        return {"kind": "sleep", "margin": int(found[0]), "damage_wakes": True}, lambda x: bool(SLEEP_BY.fullmatch(x))
    if len(SLEEP_DEEP.findall(text)) == 2:
        return {"kind": "sleep", "margin": 0, "damage_wakes": False}, lambda x: bool(SLEEP_DEEP.fullmatch(x))
    m = BLIGHT.search(text)
    if m:
        r: dict = {"kind": "blight"}
        if m.group(1):
            r["each_turn"] = {"dice": m.group(1), "type": m.group(2)}
        return r, lambda x: bool(BLIGHT.fullmatch(x))
    m = PULLED.search(text)
    if m:
        return {"kind": "pull", "metres": round(int(m.group(1)) * 0.3, 2)}, lambda x: False
    if LASTS.search(text):
        return None, lambda x: bool(LASTS.fullmatch(x))
    return None, None


#: SRD-25 "... or fall unconscious for 10 minutes. This effect ends for a creature if the creature takes damage or
#: someone uses an action to wake it."
SLEEP = re.compile(r"This effect ends for a creature if the creature takes damage or someone uses an action to wake "
                   r"it\.")
#: SRD-26 "On a failed save, the creature is pushed 60 feet away from the dragon."
PUSHED = re.compile(r"On a failed save, the creature is pushed (\d+) feet away from the \w+\.")


#: SRD-27 "... or have disadvantage on Strength-based attack rolls, Strength checks, and Strength saving throws for 1
#: minute. A creature can repeat the saving throw at the end of each of its turns, ending the effect on itself on a
#: success."
WEAKEN = re.compile(r"^Each creature in that area must succeed on a DC \d+ Strength saving throw or have disadvantage "
                    r"on Strength-based attack rolls, Strength checks, and Strength saving throws for 1 minute\.$")
WEAKEN_REPEAT = "A creature can repeat the saving throw at the end of each of its turns, ending the effect on itself " \
                "on a success."


#: SRD-27 "On a failed save, the creature can't use reactions, its speed is halved, and it can't make more than one
#: attack on its turn. In addition, the creature can use either an action or a bonus action on its turn, but not
#: both. These effects last for 1 minute. The creature can repeat the saving throw at the end of each of its turns,
#: ending the effect on itself with a successful save."
SLOWING = ("On a failed save, the creature can't use reactions, its speed is halved, and it can't make more than one "
           "attack on its turn.", "In addition, the creature can use either an action or a bonus action on its turn, "
           "but not both.", "These effects last for 1 minute.", "The creature can repeat the saving throw at the end of "
           "each of its turns, ending the effect on itself with a successful save.")


def breath_extra(line: str):
    """(the keys a breath's ``creature_actions`` entry gains, a test of the sentences they cover) for a metallic
    dragon's breath whose failed save does more than damage or a condition; ({}, None) for the rest."""
    if SLEEP.search(line) and re.search(r"fall unconscious", line):
        return {"sleep": True}, lambda x: bool(SLEEP.fullmatch(x))
    if all(x in _sentences(line) for x in SLOWING):
        return {"slow": True}, lambda x: x in SLOWING
    if any(WEAKEN.match(x) for x in _sentences(line)) and WEAKEN_REPEAT in line:
        return {"weaken": True}, lambda x: x == WEAKEN_REPEAT
    m = PUSHED.search(line)
    if m:
        return {"push_m": round(int(m.group(1)) * 0.3, 2)}, lambda x: bool(PUSHED.fullmatch(x))
    return {}, None


def _sentences(line: str) -> list[str]:
    return [x.strip() for x in re.split(r"(?<=\.)\s+", line) if x.strip()]


#: SRD-48 "one willing creature, or a creature that is grappled by the vampire, incapacitated, or restrained. ... The
#: target's hit point maximum is reduced by an amount equal to the necrotic damage taken, and the vampire regains hit
#: points equal to that amount. The reduction lasts until the target finishes a long rest. The target dies if this
#: effect reduces its hit point maximum to 0. A humanoid slain in this way and then buried in the ground rises the
#: following night as a vampire spawn under the vampire's control."
DRINK_TARGET = "one willing creature, or a creature that is grappled by the vampire, incapacitated, or restrained"
DRINK = re.compile(r"Hit: [^.]*? plus \d+ \(\d+d\d+\) necrotic damage\. The target's hit point maximum is reduced by "
                   r"an amount equal to the necrotic damage taken, and the vampire regains hit points equal to that "
                   r"amount\. The reduction lasts until the target finishes a long rest\. The target dies if this effect "
                   r"reduces its hit point maximum to 0\.(?: A humanoid slain in this way and then buried in the ground "
                   r"rises the following night as an? ([\w ]+?) under the vampire's control\.)?$")


def drink(f: dict) -> dict | None:
    """The weapon's ``drink`` (SRD-48) for the vampire's Bite written whole, or None."""
    if f.get("target") != DRINK_TARGET:
        return None
    m = DRINK.search(f["desc"])
    return None if m is None else ({"rises_as": m.group(1)} if m.group(1) else {})


#: SRD-54 "... or be stunned until the end of the vrock's next turn" / "... or be blinded until the end of the
#: creature's next turn"; "Each creature within 20 feet of it that can hear it and that isn't a demon"; the sentence
#: that says what makes the area: "The vrock emits a horrific screech." / "Blinding dust and sand swirls magically around
#: the mummy lord."
BRIEF = re.compile(r"until the end of the ([\w ]+?)'s next turn")
BRIEF_AREA = re.compile(r"The \w+ emits a horrific screech\.|Blinding dust and sand swirls magically around the [\w ]+\.|"
                        r"The [\w ]+ utters a blasphemous word\.")
HEARING = re.compile(r"that can hear it and that isn't an? (\w+) must")


def brief(text: str) -> dict:
    """The save action's SRD-54 keys ({} when it writes no such duration)."""
    m = BRIEF.search(text)
    if not m:
        return {}
    out: dict = {"until": "target" if m.group(1) == "creature" else "its"}
    h = HEARING.search(text)
    if h:
        out.update({"hearing": True, "not_types": [h.group(1)]})
    return out


#: SRD-55 "Disrupt Life (Costs 3 Actions). Each living creature within 20 feet of the lich must make a DC 18
#: Constitution saving throw against this magic, taking 21 (6d6) necrotic damage on a failed save, or half as much
#: damage on a successful one." / "Blasphemous Word (Costs 2 Actions). The mummy lord utters a blasphemous word. Each
#: non-undead creature within 10 feet of the mummy lord that can hear the magical utterance must succeed on a DC 16
#: Constitution saving throw or be stunned until the end of the mummy lord's next turn."
AROUND = re.compile(r"(?:^|\. )Each (living|non-undead) creature within (\d+) feet of the [\w ]+?( that can hear the "
                    r"magical utterance)? must")
NOT_ALIVE = {"living": ["undead", "construct"], "non-undead": ["undead"]}


def around(f: dict) -> tuple[dict, dict]:
    """(the feature with its area around the creature, the SRD-55 keys: the creature types spared, hearing) for a
    legendary save written "Each living creature within 20 feet of the lich"; (f, {}) for the rest."""
    m = AROUND.search(f["desc"])
    if f.get("kind") != "save" or f.get("area") or not m:
        return f, {}
    keys: dict = {"not_types": NOT_ALIVE[m.group(1)], **({"hearing": True} if m.group(3) else {}),
                  **({"magic": True} if "saving throw against this magic" in f["desc"] else {})}
    return {**f, "area": {"shape": "self", "radius_m": round(int(m.group(2)) * 0.3, 2)}}, keys


#: SRD-56 "If the target is a creature or a flammable object, it ignites. Until a creature takes an action to douse the
#: fire, the target takes 5 (1d10) fire damage at the start of each of its turns."
IGNITE = re.compile(r"If the target is a creature or a flammable object, it ignites\. Until a (?:creature|target) takes "
                    r"an action to douse the fire, the target takes \d+ \((\d+d\d+)\) fire damage at the (start|end) of "
                    r"each of its turns\.$")


def ignite(f: dict) -> dict | None:
    """The weapon's ``ignite`` (SRD-56), or None."""
    m = IGNITE.search(f.get("desc", "").strip())
    return {"dice": m.group(1), "when": m.group(2)} if m else None


#: SRD-57 "The mummy targets one creature it can see within 60 ft. of it. If the target can see the mummy, ... If the
#: target fails the saving throw by 5 or more, it is also paralyzed for the same duration. A target that succeeds on
#: the saving throw is immune to the Dreadful Glare of all mummies (but not mummy lords) for the next 24 hours."
GLARE_WHO = re.compile(r"^The ([\w ]+?) targets one creature it can see within \d+ (?:feet of it\.|ft\.)$|^of it\.$")
GLARE = re.compile(r"If the target can see the ([\w ]+?), it must succeed .*? If the target fails the saving throw by "
                   r"(\d+) or more, it is also (\w+) for the same duration\. A target that succeeds on the saving throw "
                   r"is immune to the Dreadful Glare of all (mummies \(but not mummy lords\)|mummies and mummy lords) "
                   r"for the next 24 hours\.$")
GLARE_KINDS = {"mummies (but not mummy lords)": ["mummy"], "mummies and mummy lords": ["mummy", "mummy lord"]}


def glare(text: str) -> dict:
    """The save action's SRD-57 ``glare`` keys ({} for the rest)."""
    m = GLARE.search(text)
    if not m:
        return {}
    return {"glare": {"by_kind": m.group(1), "margin": int(m.group(2)), "also": m.group(3),
                      "immune_to": GLARE_KINDS[m.group(4)]}}


#: SRD-58 "The lich fixes its gaze on one creature it can see within 10 feet of it. The target must succeed on ..." /
#: "The solar targets one creature it can see within 30 ft. of it. If the target can see it, the target must ..." and
#: "If a target's saving throw is successful or the effect ends for it, the target is immune to the lich's gaze for the
#: next 24 hours."
GAZE = re.compile(r"^The \w+ (?:fixes its gaze on|targets) one creature it can see within (\d+) (?:feet|ft\.) of it\. "
                  r"(?P<save>(?P<sees>If the target can see it, the target)?.+)$", re.S)
GAZE_IMMUNE = "If a target's saving throw is successful or the effect ends for it, the target is immune to the"


def gaze(f: dict):
    """(the feature's save text, the SRD-58 ``gaze`` keys) of a legendary gaze on one creature, or (None, None)."""
    m = GAZE.match(f["desc"].strip()) if f.get("kind") == "save" and not f.get("area") else None
    if not m:
        return None, None
    keys = {"range_m": round(int(m.group(1)) * 0.3, 2), **({"sees_it": True} if m.group("sees") else {}),
            **({"immune_after": True} if GAZE_IMMUNE in f["desc"] else {})}
    return m.group("save"), keys
