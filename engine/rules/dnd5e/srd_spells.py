"""The SRD 5.1's 319 spells as data (assets/srd/spells.json, made by tools/gen_srd_spells.py) and what of each the
rules resolve (SPL-01).

``support(entry)`` says whether a spell is castable and, when not, why: the generic cast resolves an attack roll, a
save (half or nothing on a success), automatic damage, healing, a condition with its repeat save, an area in 3D
(``areas.py``), upcasting (damage by slot) and cantrip scaling (damage by character level), concentration (DND-21).
What the SRD's JSON does not structure (which condition a failed save gives, a line's width, a cylinder's height,
several rays) is the table ``EFFECTS`` below, read from the spell's text. ``internal(entry)`` is the spell in the
form ``data.SPELLS`` holds; ``register()`` adds every castable SRD spell to ``data.SPELLS`` under its SRD index
(``fire-bolt``), beside the fifteen older entries (``fire_bolt``), which keep their own numbers and names.
"""

from __future__ import annotations

import functools
import json
import re

from engine.resources import resource_dir
from engine.rules.dnd5e.data import SPELLS

#: the casting times a turn has: action, bonus action, reaction; longer ones are not cast in a fight
TIMES = {"1 action": "action", "1 bonus action": "bonus", "1 reaction": "reaction"}

#: what the SRD's text says and its JSON does not (SPL-01): conditions on a failed save (``repeat``: a save at the end
#: of each of its turns ends it), the geometry the JSON omits, rays, the air spells' own effect (``effect``), and what
#: a castable spell leaves out (``omits``, shown in the compendium). ``no``: why a fight spell is not castable.
EFFECTS: dict[str, dict] = {
    # conditions on a failed save
    "hold-person": {"conditions": ["paralyzed"], "repeat": True, "omits": "humanoids only: creature types are not checked"},
    "hold-monster": {"conditions": ["paralyzed"], "repeat": True},
    "entangle": {"conditions": ["restrained"], "omits": "the difficult terrain; the Strength check to break free"},
    "blindness-deafness": {"conditions": ["blinded"], "repeat": True, "omits": "the deafened choice"},
    "charm-person": {"conditions": ["charmed"]},
    "animal-friendship": {"conditions": ["charmed"], "omits": "beasts only; Intelligence 4 or more is not checked"},
    "command": {"conditions": ["prone"], "omits": "commands other than grovel"},
    "dominate-beast": {"conditions": ["charmed"], "omits": "the caster's control of its actions"},
    "dominate-person": {"conditions": ["charmed"], "omits": "the caster's control of its actions"},
    "suggestion": {"conditions": ["charmed"], "omits": "the suggested course of action"},
    "modify-memory": {"conditions": ["charmed", "incapacitated"], "omits": "the memory itself"},
    "fear": {"conditions": ["frightened"], "repeat": True, "omits": "dropping what it holds; dashing away"},
    "grease": {"conditions": ["prone"], "omits": "the difficult terrain that lasts"},
    "hideous-laughter": {"conditions": ["prone", "incapacitated"], "repeat": True},
    "hypnotic-pattern": {"conditions": ["charmed", "incapacitated"]},
    "stinking-cloud": {"conditions": [], "lasting": True, "at_cast": False, "loses_action": True,
                       "omits": "entering the cloud; its heavily obscured volume; poison immunity"},
    "contagion": {"conditions": ["poisoned"], "omits": "the disease after three failed saves"},
    "enthrall": {"conditions": [], "omits": "disadvantage on Perception against others"},
    "banishment": {"conditions": ["incapacitated"], "omits": "the banishment itself: the target stays, incapacitated"},
    "web": {"conditions": ["restrained"], "effect": "web", "save": "dex", "lasting": True,
            "omits": "entering the webs (a save when a turn starts in them); difficult terrain; burning"},
    # geometry the JSON leaves out
    "lightning-bolt": {"width_m": 1.5},
    "wall-of-fire": {"width_m": 0.3, "omits": "the wall that lasts (only the damage as it appears)"},
    "wind-wall": {"width_m": 0.3, "omits": "the wall that lasts (only the damage as it appears)"},
    "flame-strike": {"area": {"shape": "cylinder", "size_m": 3.0, "height_m": 12.0}},
    "ice-storm": {"height_m": 12.0, "omits": "the difficult terrain"},
    "moonbeam": {"height_m": 12.0, "lasting": True, "omits": "entering the beam; moving it"},
    "guardian-of-faith": {"area": None, "omits": "the guardian that lasts: one creature struck as it appears"},
    "thunderwave": {"effect": "thunderwave", "push_m": 3.0},
    "gust-of-wind": {"effect": "gust_of_wind", "width_m": 3.0, "push_m": 4.5},
    # several attacks
    "scorching-ray": {"rays": 3, "rays_per_slot": 1},
    "eldritch-blast": {"beams_by_level": True},
    # damage that is not damage
    "sleep": {"effect": "sleep"},
    "color-spray": {"effect": "color_spray"},
    # the air spells (srd_air.py)
    "fly": {"effect": "fly"}, "feather-fall": {"effect": "feather_fall"}, "misty-step": {"effect": "misty_step"},
    "dimension-door": {"effect": "dimension_door"}, "levitate": {"effect": "levitate"},
    "jump": {"effect": "jump", "omits": "the long jump across a gap (walkers path over supported cells only)"},
    # lasting / moving damage: the damage as it is cast, the rest named
    "cloudkill": {"lasting": True, "omits": "entering the cloud; its drift of 3 m a turn"},
    "insect-plague": {"lasting": True, "omits": "entering the swarm; difficult terrain"},
    "black-tentacles": {"conditions": ["restrained"], "lasting": True, "omits": "entering the area; escaping by a check"},
    "spirit-guardians": {"lasting": True, "foes_only": True, "area": {"shape": "sphere", "size_m": 4.5},
                         "save": "wis", "half": True,
                         "damage": {"type": "radiant", "by": "slot", "dice": {str(n): f"{n}d8" for n in range(3, 10)}},
                         "omits": "entering its area; halved speed; the caster's choice of whom it spares (its foes)"},
    # heavily obscured volumes (SPL-10, srd_lasting.py): sight lines, the GPU grid and the renderer see them
    "fog-cloud": {"effect": "obscure", "lasting": True, "obscures": True, "radius_per_slot_m": 6.0,
                  "omits": "a wind of moderate or greater speed dispersing it"},
    "darkness": {"effect": "obscure", "lasting": True, "obscures": True, "magical_darkness": True,
                 "omits": "darkness on an object that moves with it; dispelling light spells; darkvision is not "
                          "modelled (none sees through it but Devil's Sight, SRD-97, and blindsight, SRD-98)"},
    "call-lightning": {"omits": "the storm's later bolts"},
    "flaming-sphere": {"omits": "the sphere that lasts and rams"},
    "spiritual-weapon": {"omits": "its later bonus-action attacks"},
    "heat-metal": {"omits": "dropping the object; later bonus-action damage"},
    "acid-arrow": {"omits": "the damage at the end of its next turn"},
    "guiding-bolt": {"omits": "advantage on the next attack against it"},
    "chill-touch": {"omits": "no healing until the caster's next turn"},
    "shocking-grasp": {"omits": "advantage against metal armour; no reactions"},
    "ray-of-frost": {"omits": "the speed reduced by 3 m"},
    "vicious-mockery": {"omits": "disadvantage on its next attack"},
    "vampiric-touch": {"omits": "the caster's healing; later touches"},
    "phantasmal-killer": {"conditions": ["frightened"], "omits": "the damage at the end of its turns"},
    "branding-smite": {"omits": "the smite rides the next weapon hit: struck at once here"},
    "divine-favor": {"omits": "rides each weapon hit for a minute: struck at once here"},
    "flame-blade": {"omits": "the blade itself: one strike"},
    # range Self, but the attack is thrown: "you can hurl the flame at a creature within 9 m of you" (its reach,
    # not the 1.5 m of a self-range spell: at 1.5 m a Large foe touching the caster was out of the attack's range)
    "produce-flame": {"omits": "the light", "range_m": 9.0},
    "fire-shield": {"omits": "the shield's answer to melee hits: one strike"},
    "faithful-hound": {"omits": "the hound that lasts"},
    "aid": {"omits": "the raised maximum; treated as healing"},
    "false-life": {"self": True},
    "mass-healing-word": {"targets_n": 6},
    "mass-cure-wounds": {"targets_n": 6},
    "control-water": {"omits": "the water's shapes; only the whirlpool's damage"},
    "hellish-rebuke": {"omits": "the reaction's trigger: cast as an action here"},
    # not castable (the fight effect is not modelled)
    "bane": {"conditions": [], "mark": "baned", "targets_n": 3, "targets_per_slot": 1},
    # marks on a failed save (srd_marks.py, SPL-11)
    "bestow-curse": {"conditions": [], "mark": "cursed",
                     "omits": "the other curses (an ability's disadvantage, the lost action, the extra 1d8 necrotic): "
                              "the curse cast is disadvantage on its attacks against the caster; the longer "
                              "duration of a higher slot"},
    "calm-emotions": {"conditions": [], "mark": "calmed",
                      "omits": "humanoids only; a creature choosing to fail; the indifference option"},
    "faerie-fire": {"conditions": [], "mark": "outlined",
                    "omits": "the dim light; the objects outlined; no benefit from being invisible"},
    "compulsion": {"conditions": [], "mark": "compelled", "needs_at": True, "targets_any": True,
                   "omits": "a new direction by a bonus action each turn (the one named at the cast holds); taking "
                            "its action before it moves; creatures that cannot be charmed or hear"},
    "confusion": {"conditions": [], "mark": "confused", "mark_repeat": "wis",
                  "omits": "a 1's random move (it stays, its movement and action spent); the sphere a higher slot "
                           "widens"},
    # wards by creature type (srd_wards.py, SPL-15..SPL-18)
    "dispel-evil-and-good": {"effect": "dispel_evil_and_good",
                             "omits": "possession (not modelled); a creature's home plane: one sent back leaves the "
                                      "fight"},
    "magic-circle": {"effect": "magic_circle",
                     "omits": "the chosen types cannot willingly enter the cylinder (the pathing has no barrier by "
                              "creature type) and its teleportation save; the reverse direction; possession; the "
                              "hour is not counted down (it outlasts the fight)"},
    "hallow": {"no": "a ward over an area cast in 24 hours that lasts until dispelled: no fight effect modelled"},
    "scrying": {"no": "an invisible sensor watching from afar: no fight effect"},
    "enlarge-reduce": {"effect": "enlarge_reduce",
                       "omits": "advantage / disadvantage on Strength checks and saves; objects"},
    "light": {"no": "light is not modelled"},
    "polymorph": {"effect": "polymorph",
                  "omits": "shapechangers are not exempt (the sheet has no subtype); the challenge rating limit reads "
                           "the sheet's level (an SRD creature's CR, at least 1); the gear melded; actions needing "
                           "hands are not barred beyond the beast's own attacks"},
    "ray-of-enfeeblement": {"mark": "enfeebled", "mark_repeat": "con"},
    "resilient-sphere": {"conditions": [], "mark": "sphered",
                         "omits": "only damage is stopped (conditions and pushes from outside still reach it); "
                                  "lifting or carrying the sphere; Disintegrate"},
    "slow": {"conditions": [], "mark": "slowed", "mark_repeat": "wis", "foes_only": True,
             "omits": "up to six of the caster's choice: every foe in the cube; an action or a bonus action, not "
                      "both; one attack a turn; a spell of 1 action failing on the d20"},
    "dream": {"no": "a dream is no fight spell (casting time 1 minute)"},
    # longer casting times (srd_long.py, SPL-12): an action each turn and concentration until it takes effect
    "geas": {"conditions": ["charmed"],
             "omits": "the command itself and its 5d10 psychic damage when the target acts against it"},
    "contact-other-plane": {"self": True, "dc": 15, "conditions": ["incapacitated"],
                            "damage": {"type": "psychic", "by": "slot", "dice": {"5": "6d6"}},
                            "omits": "the questions answered; the insanity's other effects (incapacitated until "
                                     "a long rest)"},
    "regenerate": {"omits": "the hit point regained each turn; the regrown limbs"},
    "planar-binding": {"conditions": ["charmed"],
                       "omits": "celestials, elementals, fey and fiends only: creature types are not checked; the "
                                "service itself (the caster's instructions): charmed by the caster for the duration"},
    "prayer-of-healing": {"targets_n": 6, "omits": "undead and constructs are not excluded"},
}


def rounds_of(casting_time: str) -> int | None:
    """A longer casting time in rounds of 6 seconds ("1 minute" -> 10, "1 hour" -> 600), or None (not one)."""
    m = re.fullmatch(r"(\d+) (minute|hour)s?", casting_time.strip())
    return int(m.group(1)) * (10 if m.group(2) == "minute" else 600) if m else None


def support(e: dict) -> tuple[bool, str | None]:
    """(castable, why not) for a spell as the generator writes it."""
    fx = EFFECTS.get(e["id"], {})
    if "no" in fx:
        return False, fx["no"]
    if e["casting_time"] not in TIMES and rounds_of(e["casting_time"]) is None:
        return False, f"casting time {e['casting_time']}: not cast in a fight's turn"
    if fx.get("effect") or fx.get("damage"):
        return True, None
    if e.get("attack") and (e.get("damage") or fx.get("mark")):
        return True, None
    if e.get("damage") and e["damage"].get("type"):
        return True, None
    if e.get("heal"):
        return True, None
    if e.get("save") and fx.get("conditions") is not None:
        return True, None
    if e.get("save"):
        return False, "what a failed save does is not modelled"
    return False, "no damage, healing, save or air effect the rules resolve"


def omits(e: dict) -> str | None:
    """What a castable spell leaves out (the compendium shows it)."""
    return EFFECTS.get(e["id"], {}).get("omits")


def _range(e: dict) -> float:
    if e["range_m"] is not None:
        return float(e["range_m"])
    r = e["range"].lower()
    return 1.5 if r == "touch" else 0.0 if r.startswith("self") else 1e9


def internal(e: dict) -> dict:
    """The castable spell in ``data.SPELLS``'s form (``srd``: resolved by srd_cast.py)."""
    fx = EFFECTS.get(e["id"], {})
    area = fx["area"] if "area" in fx else (dict(e["area"]) if e.get("area") else None)
    if area is not None:
        area = dict(area)
        for k in ("width_m", "height_m"):
            if k in fx:
                area[k] = fx[k]
    if fx.get("effect"):
        kind = "effect"
    elif e.get("attack") and (e.get("damage") or fx.get("mark")):
        kind = "attack"
    elif e.get("save") or fx.get("save"):
        kind = "save"
    elif e.get("damage"):
        kind = "auto"
    else:
        kind = "heal"
    sp = {"srd": True, "id": e["id"], "name": e["name"], "level": e["level"],
          "time": TIMES.get(e["casting_time"], "long"), "rounds": rounds_of(e["casting_time"]),
          "range_m": fx.get("range_m", _range(e)),
          "self_range": e["range"].lower().startswith("self") and "range_m" not in fx, "kind": kind,
          "area": area, "concentration": e["concentration"], "duration": e["duration"],
          "damage": e.get("damage") or fx.get("damage"), "type": (e.get("damage") or fx.get("damage") or {}).get("type"),
          "heal": e.get("heal"),
          "attack": e.get("attack"), "save": (e.get("save") or {}).get("ability") or fx.get("save"),
          "half": (e.get("save") or {}).get("success") == "half" or bool(fx.get("half")),
          "conditions": list(fx.get("conditions", [])),
          "repeat_save": bool(fx.get("repeat")), "effect": fx.get("effect"), "fx": fx}
    if sp["conditions"]:
        sp["condition"] = sp["conditions"][0]         # what concentration's end removes (concentration.py)
    return sp


@functools.cache
def catalogue() -> dict[str, dict]:
    """The SRD's spells by index, as assets/srd/spells.json holds them (empty before it is generated)."""
    path = resource_dir("assets") / "srd" / "spells.json"
    if not path.is_file():
        return {}
    return {s["id"]: s for s in json.loads(path.read_text())["spells"]}


#: the SRD spells whose index is also an older entry's name (fireball, thunderwave, entangle): the older entry stays
#: ``data.SPELLS[name]``; this one is cast where the scene says ``[options] spell_names = "srd"`` (SPL-01)
SHARED: dict[str, dict] = {}


def register() -> None:
    """Every castable SRD spell into ``data.SPELLS`` under its SRD index (the older fifteen stay as they are; the
    SRD's own of a shared name in ``SHARED``)."""
    for sid, e in catalogue().items():
        if not e["castable"]:
            continue
        if sid in SPELLS and not SPELLS[sid].get("srd"):
            SHARED[sid] = internal(e)
        else:
            SPELLS[sid] = internal(e)


def spell(session, name: str) -> dict:
    """The spell ``name`` as this session casts it: the SRD's for a shared name under ``spell_names = "srd"``."""
    if name in SHARED and session.ruleset.opt("spell_names") == "srd":
        return SHARED[name]
    return SPELLS[name]


#: today's names of the fifteen older spells and their SRD index (``cast`` takes either)
LEGACY = {"fire_bolt": "fire-bolt", "ray_of_frost": "ray-of-frost", "eldritch_blast": "eldritch-blast",
          "sacred_flame": "sacred-flame", "magic_missile": "magic-missile", "burning_hands": "burning-hands",
          "thunderwave": "thunderwave", "cure_wounds": "cure-wounds", "healing_word": "healing-word",
          "false_life": "false-life", "hold_person": "hold-person", "entangle": "entangle", "fireball": "fireball",
          "blindness": "blindness-deafness", "cause_fear": "cause-fear"}


def dice_terms(text: str) -> tuple[list[tuple[int, int]], int, bool]:
    """"3d4 + 3" -> ([(3, 4)], 3, False); "1d8 + MOD" -> ([(1, 8)], 0, True); "2d6 + 1d8" -> both terms."""
    terms, flat, mod = [], 0, False
    for part in re.split(r"\s*\+\s*", text.strip()):
        m = re.fullmatch(r"(\d+)d(\d+)", part)
        if m:
            terms.append((int(m.group(1)), int(m.group(2))))
        elif part.isdigit():
            flat += int(part)
        elif part.upper() == "MOD":
            mod = True
    return terms, flat, mod


def dice_at(table: dict, by: str, slot: int, char_level: int) -> str | None:
    """The dice at ``slot`` (by slot) or the caster's level (by character level: the highest step reached)."""
    if not table:
        return None
    if by == "character_level":
        steps = sorted(int(k) for k in table if int(k) <= char_level)
        return table[str(steps[-1])] if steps else table[min(table, key=int)]
    if str(slot) in table:
        return table[str(slot)]
    below = sorted(int(k) for k in table if int(k) <= slot)
    return table[str(below[-1])] if below else table[min(table, key=int)]


#: a full caster's slots by caster level (the SRD's Spellcaster table), for characters that give none
FULL_CASTER = {1: [2], 2: [3], 3: [4, 2], 4: [4, 3], 5: [4, 3, 2], 6: [4, 3, 3], 7: [4, 3, 3, 1], 8: [4, 3, 3, 2],
               9: [4, 3, 3, 3, 1], 10: [4, 3, 3, 3, 2], 11: [4, 3, 3, 3, 2, 1], 12: [4, 3, 3, 3, 2, 1],
               13: [4, 3, 3, 3, 2, 1, 1], 14: [4, 3, 3, 3, 2, 1, 1], 15: [4, 3, 3, 3, 2, 1, 1, 1],
               16: [4, 3, 3, 3, 2, 1, 1, 1], 17: [4, 3, 3, 3, 2, 1, 1, 1, 1], 18: [4, 3, 3, 3, 3, 1, 1, 1, 1],
               19: [4, 3, 3, 3, 3, 2, 1, 1, 1], 20: [4, 3, 3, 3, 3, 2, 2, 1, 1]}


def slots_for(level: int) -> dict[str, int]:
    return {str(i + 1): n for i, n in enumerate(FULL_CASTER[max(1, min(20, level))])}


register()
