"""The sheet key ``creature_actions`` checked as a scene gives it: the save actions of a stat block (SRD-12 and the
rules that add keys to its entries) as ``srd_blocks.character`` writes them for the 334 SRD creatures. A scene may
write its own entries (a homebrew breath); each is checked here against the shape the rules read, so that a wrong
key or value is one line naming ``characters[N].creature_actions[J].KEY`` instead of an error in the middle of a
fight. tests/rules/dnd5e/test_srd_action_check.py holds every generated entry to this shape."""

from __future__ import annotations

import math
import re

from engine.errors import SceneError
from engine.rules.dnd5e.common import ABILITIES, DAMAGE_TYPES
from engine.rules.dnd5e.data import CONDITIONS
from engine.rules.validate import dice_expr

#: the areas a save action's ``area`` may have (actions/srd.py plays each): a cone or a line from the creature, a
#: sphere at a point, or ``self``, a radius around it
SHAPES = ("cone", "self", "sphere", "line")

# a value's kind: "bool", "int", "signed", "metres" (a finite number >= 0), "str", "dice", a tuple of the strings
# allowed, a dict (a table of these kinds; its REQ entry: the keys it must have), or a one-item list (a list of that
# kind)
REQ = "__required__"
DAMAGE = {"dice": "dice", "type": DAMAGE_TYPES, REQ: ("dice", "type")}
CHARM = {REQ: ("rule",), "rule": ("SRD-65", "SRD-66", "SRD-67", "SRD-68", "SRD-70", "SRD-71", "SRD-72"),
         "repeat": ("end_turn", "lure", "harm_by_side", "damage"), "types": ["str"], "limit": "counts",
         "needs": "str", **{k: "bool" for k in ("bite", "choose", "control", "dis_seen", "immune", "lure", "magic",
                                                "no_reactions", "possess", "sees", "to_zero")}}
ROAR = {REQ: ("ability", "dc"), "ability": ABILITIES, "dc": "dc", "damage": [DAMAGE], "half": "bool", "conditions": [tuple(CONDITIONS)],
        "repeat_save": tuple(CONDITIONS), "paralyzed_while": tuple(CONDITIONS), "deafened_rounds": "int"}
ENTRY = {
    "name": "str", "dc": "dc", "ability": ABILITIES, "damage": [DAMAGE], "half": "bool",
    "area": {"shape": SHAPES, "length_m": "metres", "width_m": "metres", "radius_m": "metres"},
    "recharge": "recharge", "recharge_group": "str", "per_day": "int", "condition": tuple(CONDITIONS),
    "range_m": "metres", "push_m": "metres", "until": ("its", "target"), "bolts": "int",
    "not_types": ["str"], "in_place_of": ["str"], "each_turn": DAMAGE, "cloud": {"radius_m": "metres", "rounds": "int", REQ: ("radius_m", "rounds")},
    "glare": {REQ: ("by_kind", "margin"), "by_kind": "str", "margin": "int", "also": tuple(CONDITIONS), "immune_to": ["str"]},
    "charm": CHARM, "roars": [ROAR],
    **{k: "bool" for k in ("repeat_save", "in_multiattack", "frightful", "slow", "sleep", "weaken", "hearing",
                           "around_corners", "not_while_grappling", "sees_it", "immune_after", "drain",
                           "charmed_or_willing")},
}
REQUIRED = ("name", "dc", "ability")
#: the size each shape is measured by (attacks.area_targets, actions/srd.py): a cone's and a line's length, a
#: sphere's and a radius around the creature's radius
SIZE = {"cone": "length_m", "line": "length_m", "sphere": "radius_m", "self": "radius_m"}

#: a legendary option as srd_legendary.py reads it: each has a name, a cost and a kind; an attack names one of the
#: creature's weapons, a save has a DC, an ability and a radius around the creature (or a gaze), bolts name the
#: save action they are (SRD-78)
OPTION = {
    "name": "str", "cost": "cost", "kind": ("attack", "save", "detect", "spell", "teleport", "move", "bolts"),
    "weapon": "str", "feature": "str", "dc": "dc", "ability": ABILITIES, "damage": [DAMAGE], "half": "bool",
    "area": {"shape": ("self",), "radius_m": "metres"}, "condition": tuple(CONDITIONS), "range_m": "metres",
    "until": ("its", "target"), "not_types": ["str"], "gaze": {"immune_after": "bool", "range_m": "metres", "sees_it": "bool"},
    **{k: "bool" for k in ("foes_only", "hearing", "magic", "repeat_save", "then_fly")},
}
#: what schema.WEAPON's checks of a weapon table look at only on the surface, checked to the leaf: what a hit adds
#: (``on_hit``: a save, its damage and its rider), a grapple's damage each turn, the damage a hit adds (``extra``),
#: as srd_blocks.weapon writes them for the SRD's attacks. The table's other keys are schema.WEAPON's alone.
RIDER = {REQ: ("kind",), "kind": ("blight", "curse", "drain", "petrify", "poison_at_zero", "pull", "slay", "sleep",
                                  "wound"),
         "curse": "str", "damage_wakes": "bool", "dice": "dice", "each_day": "dice", "each_turn": DAMAGE,
         "hours": "int", "margin": "int", "max_hp": "int", "metres": "metres", "more": "dice", "no_heal": "bool",
         "only": "str", "spares": ["str"], "stanch_dc": "dc"}
WEAPON_PARTS = {
    "on_hit": {"ability": ABILITIES, "condition": tuple(CONDITIONS), "damage": [DAMAGE], "dc": "dc", "half": "bool",
               "repeat_save": "bool", "rider": RIDER},
    "grapple": {"advantage_held": "bool", "each_turn": DAMAGE, "escape_dc": "dc", "max_held": "int",
                "max_size": ("tiny", "small", "medium", "large", "huge", "gargantuan"), "one_target": "bool",
                "restrained": "bool"},
    "extra": [{REQ: ("damage", "type"), "damage": "dice", "type": DAMAGE_TYPES, "bonus": "signed"}],
}
OPTION_NEEDS = {"attack": ("weapon",), "save": ("dc", "ability"), "bolts": ("feature",)}


_DICE = re.compile(r"(\d*d\d+)([+-]\d+)?|\d+")


def _dice(v) -> bool:
    """``NdS``, ``NdS+B``, ``NdS-B`` or a flat number, as srd_sheet.dice_parts reads them (NdS within dice_expr's
    bounds)."""
    m = _DICE.fullmatch(v) if isinstance(v, str) else None
    return m is not None and (m.group(1) is None or dice_expr(m.group(1))) and len(v) <= 20


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _fits(kind, v) -> str | None:
    """Why ``v`` is not of ``kind`` (what it should be), or None when it is."""
    if isinstance(kind, dict):
        return None if isinstance(v, dict) else "a table"
    if isinstance(kind, list):
        return None if isinstance(v, list) else "a list"
    if isinstance(kind, tuple):
        return None if isinstance(v, str) and v in kind else "one of " + ", ".join(kind)
    ok = {"bool": isinstance(v, bool), "str": isinstance(v, str) and v.strip() != "",
          "int": _int(v) and 0 <= v <= 1000, "signed": _int(v) and -100 <= v <= 100, "dc": _int(v) and 1 <= v <= 40, "cost": _int(v) and 1 <= v <= 10,
          "metres": isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and 0 <= v <= 10_000,
          "dice": _dice(v),
          "recharge": isinstance(v, list) and len(v) == 2 and all(_int(x) for x in v) and 1 <= v[0] <= v[1] <= 6,
          "counts": isinstance(v, dict) and all(_int(x) and 0 <= x <= 100 for x in v.values()),
          "range": isinstance(v, list) and len(v) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                                and math.isfinite(x) for x in v) and 0 < v[0] <= v[1] <= 10_000}[kind]
    return None if ok else {"bool": "true or false", "str": "a name", "int": "an integer 0..1000", "signed": "an integer -100..100",
                            "dc": "an integer 1..40", "cost": "an integer 1..10", "metres": "metres, a number 0..10000",
                            "dice": "dice such as \"2d6+3\"", "recharge": "[low, high] of a d6, 1 <= low <= high <= 6",
                            "counts": "a table of integers 0..100",
                            "range": "[normal, long] in metres, 0 < normal <= long"}[kind]


def _check(spec, v, file: str, key: str) -> None:
    why = _fits(spec, v)
    if why is not None:
        raise SceneError(file, key, f"{why}, not {v!r}")
    if isinstance(spec, dict):
        for k, x in v.items():
            if k not in spec or k == REQ:
                raise SceneError(file, f"{key}.{k}", "unknown; one of " + ", ".join(n for n in spec if n != REQ))
            _check(spec[k], x, file, f"{key}.{k}")
        for k in spec.get(REQ, ()):
            if k not in v:
                raise SceneError(file, f"{key}.{k}", "required")
    elif isinstance(spec, list):
        for j, x in enumerate(v):
            _check(spec[0], x, file, f"{key}[{j}]")


def _area(e: dict, file: str, k: str) -> None:
    area = e.get("area")
    if area is not None:
        if "shape" not in area:
            raise SceneError(file, f"{k}.area.shape", "required: one of " + ", ".join(SHAPES))
        if SIZE[area["shape"]] not in area:
            raise SceneError(file, f"{k}.area.{SIZE[area['shape']]}", f"required: a {area['shape']} is measured by it")


def check_weapon(w: dict, file: str, key: str) -> None:
    """A weapon table's nested parts (WEAPON_PARTS), once schema.WEAPON's checks have passed it."""
    for k, spec in WEAPON_PARTS.items():
        if k in w:
            _check(spec, w[k], file, f"{key}.{k}")


def check(raw: dict, file: str, key: str) -> None:
    """A character's save actions, legendary options and weapon tables (schema.check_character calls it after its
    own checks)."""
    weapons = raw.get("weapons")
    for j, w in enumerate(weapons if isinstance(weapons, list) else ()):
        if isinstance(w, dict):
            check_weapon(w, file, f"{key}.weapons[{j}]")
    names = set()
    for j, e in enumerate(raw.get("creature_actions") or ()):
        k = f"{key}.creature_actions[{j}]"
        _check(ENTRY, e, file, k)
        for r in REQUIRED:
            if r not in e:
                raise SceneError(file, f"{k}.{r}", "required (a save action has a name, a DC and an ability)")
        _area(e, file, k)
        if e["name"] in names:          # the action names its feature: two of one name would be one action
            raise SceneError(file, f"{k}.name", f"{e['name']!r} twice: each save action has a name of its own")
        names.add(e["name"])
    lg = raw.get("legendary")
    for j, o in enumerate(lg.get("options") or () if isinstance(lg, dict) else ()):
        k = f"{key}.legendary.options[{j}]"
        _check(OPTION, o, file, k)
        for r in ("name", "cost", "kind", *OPTION_NEEDS.get(o["kind"], ())):
            if r not in o:
                raise SceneError(file, f"{k}.{r}", f"required (a legendary {o.get('kind', 'option')} has it)")
        if o["kind"] == "save" and "area" not in o and "gaze" not in o:
            raise SceneError(file, f"{k}.area", "required: a legendary save reaches an area around it or a gaze")
        _area(o, file, k)
        if o["kind"] == "bolts" and o["feature"] not in names:
            raise SceneError(file, f"{k}.feature", f"{o['feature']!r} is none of its creature_actions")
