"""D&D 5e gear on a character sheet: armour worn and the proficiencies with it, weapon proficiencies, hit dice,
passive Perception and Investigation. What the armour feats (DND-F08, F13, F17, F19, F33), Weapon Master (F18),
Durable (F23) and Observant (F29) act on.

The Polish document has no armour table: the values are the SRD 5.1 ones (``ARMOUR``). Every new key is optional
and a sheet without it plays exactly as before: no ``armor`` -> the sheet's ``ac``; no ``armor_proficiencies`` ->
proficient with the armour it wears; no ``weapon_proficiencies`` -> proficient with every weapon it carries.
"""

from __future__ import annotations

from engine.errors import SceneError
from engine.rules.dnd5e.feats_data import closest
from engine.rules.dnd5e.common import mod

CATEGORIES = ("light", "medium", "heavy")

# name: (category, base AC, Dex cap (None: all of it, 0: none), Stealth disadvantage, Strength needed (0: none))
ARMOUR: dict[str, tuple[str, int, int | None, bool, int]] = {
    "padded": ("light", 11, None, True, 0),
    "leather": ("light", 11, None, False, 0),
    "studded_leather": ("light", 12, None, False, 0),
    "hide": ("medium", 12, 2, False, 0),
    "chain_shirt": ("medium", 13, 2, False, 0),
    "scale_mail": ("medium", 14, 2, True, 0),
    "breastplate": ("medium", 14, 2, False, 0),
    "half_plate": ("medium", 15, 2, True, 0),
    "ring_mail": ("heavy", 14, 0, True, 0),
    "chain_mail": ("heavy", 16, 0, True, 13),
    "splint": ("heavy", 17, 0, True, 15),
    "plate": ("heavy", 18, 0, True, 15),
}
SHIELD_AC = 2
#: the armour feats: the proficiency each gives, and the proficiency each needs (DND-F00 prerequisites)
GRANTS = {"lightly_armored": "light", "moderately_armored": "medium", "heavily_armored": "heavy"}
NEEDS = {"moderately_armored": "light", "heavily_armored": "medium", "medium_armor_master": "medium",
         "heavy_armor_master": "heavy"}
SIMPLE = ("club", "dagger", "greatclub", "handaxe", "javelin", "light_hammer", "mace", "quarterstaff", "sickle",
          "spear", "light_crossbow", "dart", "shortbow", "sling")
MARTIAL = ("battleaxe", "flail", "glaive", "greataxe", "greatsword", "halberd", "lance", "longsword", "maul",
           "morningstar", "pike", "rapier", "scimitar", "shortsword", "trident", "war_pick", "warhammer", "whip",
           "blowgun", "hand_crossbow", "heavy_crossbow", "longbow", "net")
NATURAL = ("unarmed", "claws", "talons", "beak", "bite", "stinger")
HIT_DIE_SIDES = (6, 8, 10, 12)
#: the character keys this module reads, and the feats that need its fields even on a sheet without those keys
KEYS = ("armor", "shield", "armor_proficiencies", "weapon_proficiencies", "feat_weapons", "hit_die", "hit_dice")
FEATS_READ = ("weapon_master", "durable", "observant")


def _closest(name, known) -> str:
    return closest(name, known)


def armour_of(raw, file, key) -> dict | None:
    """``armor = "chain_mail"`` or a table (``name``, ``category``, ``ac``, ``dex_cap``, ``stealth_disadvantage``,
    ``strength``; a known ``name`` fills what the table leaves out)."""
    if raw is None:
        return None
    if isinstance(raw, str):
        if raw not in ARMOUR:
            raise SceneError(file, f"{key}.armor", f"unknown armour {raw!r}; did you mean {_closest(raw, ARMOUR)!r}? "
                             f"(the SRD table: {', '.join(ARMOUR)}; or a table with category, ac, dex_cap)")
        raw = {"name": raw}
    if not isinstance(raw, dict):
        raise SceneError(file, f"{key}.armor", "an armour name or a table")
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise SceneError(file, f"{key}.armor.name", "an armour table needs a name")
    base = ARMOUR.get(name)
    out: dict = {"name": name}
    if base:
        out.update(zip(("category", "ac", "dex_cap", "stealth_disadvantage", "strength"), base))
    for k, v in raw.items():
        if k == "name":
            continue
        ok = {"category": lambda v: v in CATEGORIES,
              "ac": lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 30,
              "dex_cap": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10),
              "stealth_disadvantage": lambda v: isinstance(v, bool),
              "strength": lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 30}.get(k)
        if ok is None:
            raise SceneError(file, f"{key}.armor.{k}", "unknown armour key; one of name, category, ac, dex_cap, "
                             "stealth_disadvantage, strength")
        if not ok(v):
            raise SceneError(file, f"{key}.armor.{k}", {"category": "one of light, medium, heavy",
                                                        "stealth_disadvantage": "true or false"}.get(k, "an integer 0..30"))
        out[k] = v
    for k in ("category", "ac"):
        if k not in out:
            raise SceneError(file, f"{key}.armor.{k}", f"{name!r} is not in the armour table: give its {k}"
                             f" (did you mean {_closest(name, ARMOUR)!r}?)")
    out.setdefault("dex_cap", {"light": None, "medium": 2, "heavy": 0}[out["category"]])
    out.setdefault("stealth_disadvantage", False)
    out.setdefault("strength", 0)
    return out


def setup(raw_fields: dict, given: set, abilities: dict, feats_: list, weapons: list, file, key,
          moderately_as_written: bool = False) -> dict:
    """The gear fields of a new actor: armour, its AC, armour and weapon proficiencies, hit dice. ``feats_`` are
    the character's feats (already validated). Returns the data fields to add (empty for an unchanged sheet).
    ``moderately_as_written``: Moderately Armored needs medium armour proficiency, l. 258's words (DND-F33)."""
    out: dict = {}
    armour = armour_of(raw_fields.get("armor"), file, key)
    shield = bool(raw_fields.get("shield"))
    if (armour is not None or shield) and "ac" in given:
        raise SceneError(file, f"{key}.ac", "give the armour (armor, shield) or the AC (ac), not both: the AC comes "
                         "from the armour")
    profs = raw_fields.get("armor_proficiencies")
    if profs is not None:
        for j, p in enumerate(profs):
            if p not in (*CATEGORIES, "shields"):
                raise SceneError(file, f"{key}.armor_proficiencies[{j}]", f"unknown proficiency {p!r}; one of light, "
                                 f"medium, heavy, shields (did you mean {_closest(p, (*CATEGORIES, 'shields'))!r}?)")
        have = set(profs)
        for j, f in enumerate(feats_):          # DND-F00: the armour feats' prerequisites, when the sheet lists them
            need = "medium" if moderately_as_written and f == "moderately_armored" else NEEDS.get(f)
            if need and need not in have:
                raise SceneError(file, f"{key}.feats[{j}]", f"{f} needs proficiency with {need} armour "
                                 f"(armor_proficiencies) (DND-F00)")
            if GRANTS.get(f):
                have.add(GRANTS[f])
        out["armor_profs"] = sorted(have)
    if armour is not None or shield:
        out["armor"] = armour
        out["shield"] = shield
        if armour is not None and armour["strength"] and abilities["str"] < armour["strength"]:
            out["armor_slow_m"] = 3.0           # SRD: speed -3 m (10 ft) below the armour's Strength
    wp = raw_fields.get("weapon_proficiencies")
    fw = raw_fields.get("feat_weapons")
    if fw is not None and "weapon_master" not in feats_:
        raise SceneError(file, f"{key}.feat_weapons", "feat_weapons are Weapon Master's four weapons: take weapon_master")
    if wp is not None or "weapon_master" in feats_:
        known = set(SIMPLE) | set(MARTIAL)
        have_w: set = set()
        for j, p in enumerate(wp or []):
            if p not in known | {"simple", "martial"}:
                raise SceneError(file, f"{key}.weapon_proficiencies[{j}]", f"unknown weapon {p!r}; did you mean "
                                 f"{_closest(p, sorted(known | {'simple', 'martial'}))!r}? (simple, martial or a weapon)")
            have_w |= set(SIMPLE) if p == "simple" else set(MARTIAL) if p == "martial" else {p}
        if "weapon_master" in feats_:           # DND-F18: four simple or martial weapons
            if fw is None:
                # default: the carried simple/martial weapons it is not proficient with yet, then the rest carried
                carried = [w["name"] for w in weapons if w["name"] in known]
                fw = ([n for n in carried if wp is not None and n not in have_w] + carried)
                fw = list(dict.fromkeys(fw))[:4]
            else:
                for j, n in enumerate(fw):
                    if n not in known:
                        raise SceneError(file, f"{key}.feat_weapons[{j}]", f"{n!r} is not a simple or martial weapon; "
                                         f"did you mean {_closest(n, sorted(known))!r}? (DND-F18)")
                if len(fw) != 4 or len(set(fw)) != 4:
                    raise SceneError(file, f"{key}.feat_weapons", "Weapon Master gives four different weapons (DND-F18)")
            out["feat_weapons"] = list(fw)
            have_w |= set(fw)
        if wp is not None:
            out["weapon_profs"] = sorted(have_w)
    hd = raw_fields.get("hit_die")
    if hd is not None and hd not in HIT_DIE_SIDES:
        raise SceneError(file, f"{key}.hit_die", "the sides of its hit die: 6, 8, 10 or 12")
    n = raw_fields.get("hit_dice")
    if n is not None or hd is not None or "durable" in feats_:
        out["hit_die"] = int(hd or 8)
        out["hit_dice"] = int(n) if n is not None else None      # None: its level, filled by the ruleset
    return out


def armour_ac(d: dict, feats_: list) -> int:
    """AC from the armour worn: base + Dex (capped: medium 2, 3 with Medium Armor Master and Dex 16+, DND-F19;
    heavy none) + 2 with a shield; no armour: 10 + Dex."""
    dex = mod(d["abilities"]["dex"])
    arm = d.get("armor")
    if arm is None:
        ac = 10 + dex
    else:
        cap = arm["dex_cap"]
        if arm["category"] == "medium" and cap == 2 and "medium_armor_master" in feats_ and d["abilities"]["dex"] >= 16:
            cap = 3
        ac = arm["ac"] + (dex if cap is None else min(dex, cap))
    return ac + (SHIELD_AC if d.get("shield") else 0)


def proficient_armour(d: dict) -> bool:
    """Proficient with the armour (and shield) it wears: its ``armor_proficiencies`` with the armour feats' ones;
    without the list, proficient with what it wears."""
    have = d.get("armor_profs")
    if have is None:
        return True
    arm = d.get("armor")
    if arm is not None and arm["category"] not in have:
        return False
    return not (d.get("shield") and "shields" not in have)


def untrained(a) -> bool:
    """Wearing armour it is not proficient with: disadvantage on Str / Dex checks, saves and attacks; no spells."""
    d = a.data
    return "armor" in d and not proficient_armour(d)


def armour_check_disadvantage(a, ability: str) -> str | None:
    """Why a Str or Dex d20 has disadvantage from the armour worn (None: it does not)."""
    if ability in ("str", "dex") and untrained(a):
        return "armour it is not proficient with"
    return None


def stealth_disadvantage(a) -> str | None:
    """The armour's Stealth disadvantage (none in medium armour with Medium Armor Master, DND-F19)."""
    arm = a.data.get("armor")
    if not arm or not arm["stealth_disadvantage"]:
        return None
    if arm["category"] == "medium" and "medium_armor_master" in (a.data.get("feats") or ()):
        return None
    return f"{arm['name'].replace('_', ' ')}: disadvantage on Stealth"


def proficient_weapon(a, w: dict) -> bool:
    """Proficient with the weapon: the sheet's ``weapon_proficiencies`` with Weapon Master's four (DND-F18);
    without the list, with every weapon it carries; natural weapons and unknown (custom) weapons always."""
    have = a.data.get("weapon_profs")
    if have is None:
        return True
    name = w["name"]
    if name not in SIMPLE and name not in MARTIAL:
        return True
    return name in have


def heavy_armour_worn(a) -> bool:
    """DND-F17 Heavy Armor Master needs heavy armour: the worn armour's category when the sheet gives one; a sheet
    without ``armor`` (its own AC) is taken to wear the heavy armour the feat needs."""
    if "armor" not in a.data:
        return True
    arm = a.data["armor"]
    return arm is not None and arm["category"] == "heavy"


def shield_carried(a) -> bool:
    """DND-F20 Shield Master's shield clauses need one: the sheet's ``shield`` when it gives its gear; a sheet
    without ``armor`` / ``shield`` (its own AC) is taken to carry the shield the feat needs (as ``heavy_armour_worn``)."""
    if "armor" not in a.data:
        return True
    return bool(a.data.get("shield"))


# -- weapons in hand (DND-29, DND-F24) ----------------------------------------------------------------------
def other_hand(a, w, first: str) -> bool:
    """DND-29 l. 406 "zaatakować inną lekką bronią trzymaną w drugiej dłoni": the off-hand weapon is another weapon
    than the one the Attack action used (``first``): a second dagger, not the same one twice."""
    copies = sum(1 for x in a.data["weapons"] if x["name"] == w["name"])
    return copies >= (2 if w["name"] == first else 1)


def one_handed_melee(rs, w) -> bool:
    """DND-F24 l. 201-203 "po jednej broni białej w każdej ręce", "jednoręcznych broni": a melee weapon held in one
    hand -- not a two-handed one (a greatsword), not a natural weapon or an unarmed strike (NATURAL)."""
    return rs.is_melee(w) and "two-handed" not in w["properties"] and w["name"] not in NATURAL
