"""The 5e character sheet made into an actor: stat blocks, the keys a scene gives, weapons, gear (armour,
proficiencies, hit dice), feats. ``rs`` is the ruleset (``Dnd5e``)."""


from __future__ import annotations

from typing import TYPE_CHECKING


from engine.errors import SceneError
from engine.rules import aerial
from engine.rules.core import Actor
from engine.rules.dnd5e.common import ABILITIES, OBJECTS, SKILL_ABILITY, dice_spec, mod  # noqa: F401
from engine.rules.dnd5e import (conditions, feats, gear, srd_exposure, srd_features, srd_hits_text, srd_senses, srd_shape_data, srd_sheet,
                               srd_spells, srd_swallow_text)
from engine.rules.dnd5e.data import (
    CONDITIONS,
    SPELLS,
    STATBLOCKS,
    WEAPONS,
)
from engine.rules.ruleset import character_index, scene_conditions

if TYPE_CHECKING:
    from engine.rules.session import Session



def make_actor(rs, session: Session, ch) -> Actor:
    st = ch.stats
    idx = character_index(session, ch)
    key = f"characters[{idx}]"
    file = session.scene.path
    base = STATBLOCKS.get(ch.kind, {}) if ch.kind is not None else {}     # a stat block's defaults (or none)
    raw = {f: getattr(st, f) for f in st.__struct_fields__}
    given = set(ch.raw)
    pick = _picker(base, raw, given)
    abilities = _abilities(base, raw, file, key)
    level = int(pick("level", 1))
    if not 1 <= level <= 30:
        raise SceneError(file, f"{key}.level", "a level is 1..30")
    spells = _spells(list(pick("spells", []) or []), file, key)
    featdata = None
    if raw["feats"] or raw["feat_choices"] or raw["reactions"]:     # DND-F00: increases before anything derived
        featdata = feats.setup(raw["feats"], raw["feat_choices"], raw["reactions"], abilities, spells, file, key,
                               rulebook=rs.opt("feat_prerequisites") == "rulebook")
    _check_limits(raw, file, key)
    max_hp, hp = _hit_points(pick("max_hp"), raw["hp"], abilities, level, featdata, file, key)
    speed = float(pick("speed_m", 9.0))
    fly = pick("fly_speed_m")
    if ch.flying and fly is None:
        fly = speed        # AIR-09: placed in the air without a fly speed: it flies at its ground speed
    weapons = [_weapon(rs, w, file, f"{key}.weapons[{j}]") for j, w in enumerate(pick("weapons", []) or ["unarmed"])]
    conds = scene_conditions(raw["conditions"], CONDITIONS, file, key)
    _check_saves_and_skills(pick("saves", []) or [], pick("skills", {}) or {}, file, key)
    data = _sheet_data(raw, pick, abilities, level, speed, fly, weapons, spells)
    srd_sheet.setup(data, raw)                     # condition immunities, hover, the SRD traits (SRD-04, -07..11)
    srd_features.setup(data, raw)                  # SRD-30..49 (srd_traits2.py)
    srd_swallow_text.setup(data, raw)              # SRD-43 (srd_swallow.py)
    srd_exposure.setup(data, raw)                  # SRD-81..86 (srd_breath.py)
    srd_shape_data.setup(data, raw)                # SRD-89..96 (srd_shapes.py, srd_planes.py)
    srd_hits_text.setup(data, raw)                 # SRD-59, -64 (srd_consume.py, srd_attach.py)
    srd_senses.setup(data, raw)                    # SRD-97..101 (srd_sight.py)
    gear_public = _gear(rs, data, raw, given, featdata["feats"] if featdata else [], file, key)
    if featdata:
        _feat_effects(rs, data, featdata, weapons)
    if gear_public:
        data["public"] = data.get("public", []) + gear_public
    if raw["invisible"]:
        conds.setdefault("invisible", [])
    a = Actor(ch.id, ch.side, ch.name, ch.kind, ch.size, ch.footprint, ch.height_layers, ch.eye_m,
              ch.at[0], ch.at[1], ch.at[2], bool(ch.flying), fly is not None, int(hp), int(max_hp),
              int(raw["temp_hp"]), conds, False, data)
    _as_it_starts(rs, session, a, data, conds, hp)
    return a


def _picker(base: dict, raw: dict, given: set):
    """``pick(field, default)``: the scene's value where the scene gives the key, else the stat block's, else the
    default where the scene's value is empty."""
    def pick(f, default=None):
        if f in given:
            return raw[f]
        if f in base:
            return base[f]
        return default if raw.get(f) in (None, [], {}) else raw[f]
    return pick


def _check_limits(raw: dict, file, key: str) -> None:
    """The speeds, the reach and the number of attacks a scene gives are within their limits."""
    for f, lo in (("speed_m", 0), ("fly_speed_m", 0), ("swim_speed_m", 0), ("reach_m", 0.5), ("attacks", 1)):
        v = raw.get(f)
        if v is not None and (v < lo or v > 1000):
            raise SceneError(file, f"{key}.{f}", f"must be between {lo} and 1000")


def _sheet_data(raw: dict, pick, abilities: dict, level: int, speed: float, fly, weapons: list,
                spells: list) -> dict:
    """The actor's data: the sheet's figures and the state every fight starts from."""
    pc = pick("pc")
    if pc is None:
        pc = True
    prof = raw["proficiency"] if raw["proficiency"] is not None else 2 + (level - 1) // 4
    casting = pick("spellcasting") or max(("int", "wis", "cha"), key=lambda k: (abilities[k], k == "int"))
    slots = pick("spell_slots")
    if slots is None:
        slots = pick("slots")
    if slots is None and any(SPELLS[sp].get("srd") for sp in spells):
        slots = srd_spells.slots_for(level)            # SPL-01: a full caster's slots by its level
    return {
        "abilities": abilities, "ac": int(pick("ac", 10 + mod(abilities["dex"]))), "speed_m": speed,
        "fly_speed_m": None if fly is None else float(fly), "swim_speed_m": pick("swim_speed_m"),
        "level": level, "prof": prof, "weapons": weapons, "attacks": int(pick("attacks", 1)),
        "reach_m": float(pick("reach_m", 1.5)), "resist": sorted(set(raw["resistances"])),
        "vuln": sorted(set(raw["vulnerabilities"])), "immune": sorted(set(raw["immunities"])),
        "skills": dict(pick("skills", {}) or {}), "saves": list(pick("saves", []) or []), "spells": spells,
        "spell_slots": dict(slots) if slots is not None else None, "casting": casting,
        "sneak_attack": bool(pick("sneak_attack", False)), "pc": bool(pc),
        "controlled_mount": bool(pick("controlled_mount", False)), "items": list(raw["items"]),
        "underwater": bool(raw["underwater"]), "hidden": 10 if raw["hidden"] else None,
        "dodging": False, "reaction_used": False, "death": {"successes": 0, "failures": 0},
        "stable": bool(raw["stable"]), "initiative": raw["initiative"], "readied": None,
        "sneak_round": -1, "mounted_on": None, "rider": None, "mount_at_start": raw["mount"],
    }


def _as_it_starts(rs, session: Session, a: Actor, data: dict, conds: dict, hp) -> None:
    """The actor as it starts: landed when at rest on a surface, its passive scores, unconscious at 0 hit points."""
    if a.flying and aerial.is_supported(session, a):
        a.flying = False     # at rest on a surface: landed
    if "passive" in data:                            # DND-F29 Observant: shown in the state and the panel
        data["passive"] = {k: conditions.passive(rs, a, k) for k in ("perception", "investigation")}
    if hp == 0 and "unconscious" not in conds:
        conds["unconscious"] = []
        conds.setdefault("prone", [])


def _abilities(base: dict, raw: dict, file, key: str) -> dict:
    """The six scores: 10, the stat block's, the scene's (each checked: a known ability, 1..30)."""
    abilities: dict = {k: 10 for k in ABILITIES}
    abilities.update(base.get("abilities", {}))
    for k, v in (raw["abilities"] or {}).items():
        if k not in ABILITIES:
            raise SceneError(file, f"{key}.abilities.{k}", f"unknown ability; one of {', '.join(ABILITIES)}")
        if not 1 <= v <= 30:
            raise SceneError(file, f"{key}.abilities.{k}", "an ability score is 1..30")
        abilities[k] = v
    return abilities


def _hit_points(max_hp, hp, abilities: dict, level: int, featdata, file, key: str) -> tuple:
    """(max_hp, hp): the given maximum or the level's (d8, average after the first), Tough's +2 a level, and the
    current hit points (the maximum unless given; 0..max_hp)."""
    if max_hp is None:
        max_hp = max(1, 8 + mod(abilities["con"]) + (level - 1) * (5 + mod(abilities["con"])))
    if max_hp < 1:
        raise SceneError(file, f"{key}.max_hp", "must be at least 1")
    if featdata and "tough" in featdata["feats"]:
        max_hp += 2 * level                           # DND-F34 Tough
    hp = hp if hp is not None else max_hp
    if not 0 <= hp <= max_hp:
        raise SceneError(file, f"{key}.hp", f"must be between 0 and max_hp ({max_hp})")
    return max_hp, hp


def _spells(spells: list, file, key: str) -> list:
    for j, sp in enumerate(spells):
        if not isinstance(sp, str):           # looked up by name below: a list there is unhashable
            raise SceneError(file, f"{key}.spells[{j}]", f"a spell's name (a string), not {sp!r}")
        if sp not in SPELLS and sp in srd_spells.catalogue():
            raise SceneError(file, f"{key}.spells[{j}]", f"{sp} is not castable in Aerie (SPL-01): "
                             f"{srd_spells.catalogue()[sp]['why']}")
        if sp not in SPELLS:
            raise SceneError(file, f"{key}.spells[{j}]", f"unknown spell {sp!r}; known: "
                             f"{', '.join(sorted(k for k in SPELLS if not SPELLS[k].get('srd')))}, or an SRD index "
                             "(`aerie compendium spells --castable`)")
    return spells


def _check_saves_and_skills(saves, skills, file, key: str) -> None:
    for j, s in enumerate(saves):
        if s not in ABILITIES:
            raise SceneError(file, f"{key}.saves[{j}]", f"unknown ability {s!r}")
    for k in skills:
        if k not in SKILL_ABILITY:
            raise SceneError(file, f"{key}.skills.{k}", f"unknown skill; one of {', '.join(sorted(SKILL_ABILITY))}")


def _feat_effects(rs, data: dict, featdata: dict, weapons: list) -> None:
    """The feats' data on the sheet, and what some change on it at once: Mobile's speed, Dual Wielder's AC,
    Resilient's save, Tavern Brawler's unarmed die."""
    data.update(featdata)
    data["public"] = ["feats"]
    if feats.has_raw(featdata, "mobile"):
        data["speed_m"] += 3.0                    # DND-F27 Mobile
    if feats.has_raw(featdata, "dual_wielder") and sum(1 for w in weapons if gear.one_handed_melee(rs, w)) >= 2:
        data["ac"] += 1                           # DND-F24 Dual Wielder: a one-handed melee weapon in each hand
    if feats.has_raw(featdata, "resilient"):
        ab = featdata["feat_increases"]["resilient"]
        if ab not in data["saves"]:
            data["saves"].append(ab)              # DND-F25 Resilient
    if feats.has_raw(featdata, "tavern_brawler"):
        for w in weapons:
            if w["name"] == "unarmed":
                w["damage"] = "1d4"               # DND-F39 Tavern Brawler


def _gear(rs, data: dict, raw: dict, given: set, feats_: list, file, key) -> list[str]:
    """Armour (its AC, the Strength it needs), armour and weapon proficiencies, hit dice, passive scores
    (``dnd5e/gear.py``); a sheet without those keys or the feats that read them is left as it was."""
    if not any(raw.get(f) for f in gear.KEYS) and not any(f in gear.FEATS_READ for f in feats_):
        return []
    gd = gear.setup({f: raw.get(f) for f in gear.KEYS}, given, data["abilities"], feats_, data["weapons"], file, key,
                    moderately_as_written=rs.opt("moderately_armored_prereq") == "medium")
    data.update(gd)
    if "armor" in gd:
        data["ac"] = gear.armour_ac(data, feats_)
        data["speed_m"] = max(0.0, data["speed_m"] - gd.get("armor_slow_m", 0.0))
    if "hit_die" in gd and gd["hit_dice"] is None:
        data["hit_dice"] = data["level"]
    elif "hit_die" in gd and gd["hit_dice"] > data["level"]:
        raise SceneError(file, f"{key}.hit_dice", f"at most its level ({data['level']}): one hit die per level")
    if "observant" in feats_:
        data["passive"] = None           # filled when the actor is made (it needs the ruleset's skill bonus)
    return [k for k in ("armor", "shield", "armor_profs", "weapon_profs", "feat_weapons", "hit_die", "hit_dice",
                        "passive") if k in data and k in gd | {"passive": 1}]

def _weapon(rs, w, file, key) -> dict:
    if isinstance(w, str):
        if w not in WEAPONS:
            raise SceneError(file, key, f"unknown weapon {w!r}; the built-in table has {', '.join(sorted(WEAPONS))}")
        return dict(WEAPONS[w])
    if isinstance(w, dict):
        name = w.get("name")
        if not isinstance(name, str):
            raise SceneError(file, f"{key}.name", "a weapon table needs a name")
        out = dict(WEAPONS.get(name, {"name": name, "damage": "1d4", "type": "bludgeoning", "properties": [],
                                      "range": None, "versatile": None}))
        for k, v in w.items():
            if k not in ("name", "damage", "type", "properties", "range", "versatile", "reach_m", "to_hit", "damage_bonus",
                         "extra", "on_hit", "grapple", "alternative", "crit_dice", "drink", "ignite"):
                raise SceneError(file, f"{key}.{k}", "unknown weapon key")
            out[k] = v
        try:
            dice_spec(out["damage"])
        except ValueError:
            raise SceneError(file, f"{key}.damage", f"damage {out['damage']!r} is not like 2d6") from None
        return out
    raise SceneError(file, key, "a weapon is a name or a table")


def gear_rows(rs, a) -> list[str]:
    """The character panel's gear rows (from dnd5e/gear.py: they read the passive scores of conditions.py) (only for sheets that carry the new keys or the feats that read them)."""
    d = a.data
    rows = []
    if "armor" in d:
        arm = d["armor"]
        what = "no armour" if arm is None else f"{arm['name'].replace('_', ' ')} ({arm['category']})"
        if d.get("shield"):
            what += " + shield"
        if not gear.proficient_armour(d):
            what += " [not proficient: disadvantage on Str/Dex, no spells]"
        rows.append(f"Armour: {what}")
    if d.get("feats") and "observant" in d["feats"]:
        rows.append(f"Passive Perception {conditions.passive(rs, a, 'perception')}, Investigation "
                    f"{conditions.passive(rs, a, 'investigation')} (Observant +5)")
    if d.get("hit_dice") is not None:
        rows.append(f"Hit dice {d['hit_dice']}/{d['level']} (d{d['hit_die']})")
    return rows
