"""The SRD creatures' traits about breathing and light (SRD-81..SRD-86, issue 44) as a sheet key (``srd_exposure``),
read from a creature record's text (assets/srd/creatures.json), and whether each is played (``status``). The rules
that play them: engine/rules/dnd5e/srd_breath.py; the catalogue: srd_catalogue_breath.py.

``srd_exposure`` (any 5e character may carry it; a scene without it plays as before)::

    breathes_water = true          # SRD-82 Amphibious ("can breathe air and water"), Water Breathing
    hold_breath_min = 15           # SRD-81 Hold Breath ("can hold its breath for 15 minutes")
    sunlight_sensitivity = true    # SRD-84 Sunlight Sensitivity (disadvantage while in sunlight)
    light_sensitivity = true       # SRD-84 Light Sensitivity (disadvantage while in bright light)
    sunlight_hypersensitivity = 20 # SRD-85 the vampire's radiant damage at the start of its turn in sunlight
    running_water = 20             # SRD-86 the vampire's acid damage when it ends its turn in running water
"""

from __future__ import annotations

import re
from typing import Any

from engine.errors import SceneError

KEYS = ("breathes_water", "hold_breath_min", "sunlight_sensitivity", "light_sensitivity",
        "sunlight_hypersensitivity", "running_water")
#: creature types that do not breathe (SRD-81's decision: a construct or an undead never suffocates)
BREATHLESS_TYPES = ("construct", "undead")

AMPHIBIOUS = re.compile(r"^The [\w' -]+ can breathe air and water\.?$")
WATER_BREATHING = re.compile(r"^The [\w' -]+ can breathe only underwater\.$")
HOLD_BREATH = re.compile(r"^The [\w' -]+ can hold its breath for (\d+) (minutes|hour)\.?$")
SUNLIGHT = re.compile(r"^While in sunlight, the [\w' -]+ has disadvantage on attack rolls, as well as on Wisdom "
                      r"\(Perception\) checks that rely on sight\.$")
BRIGHT = re.compile(r"^While in bright light, the [\w' -]+ has disadvantage on attack rolls and Wisdom \(Perception\) "
                    r"checks that rely on sight\.$")
WEAKNESSES = re.compile(r"^The vampire has the following flaws: Forbiddance\. The vampire can't enter a residence "
                        r"without an invitation from one of the occupants\. Harmed by Running Water\. The vampire takes "
                        r"(\d+) acid damage (?:if|when) it ends its turn in running water\. Stake to the Heart\. (?P<stake>"
                        r"[^.]+\.) Sunlight Hypersensitivity\. The vampire takes (\d+) radiant damage when it starts "
                        r"its turn in sunlight\. While in sunlight, it has disadvantage on attack rolls and ability "
                        r"checks\.$")


def _name(n: str) -> str:
    return re.sub(r"\s*\(.*\)$", "", n).strip().lower()


def read(f: dict) -> dict | None:
    """The ``srd_exposure`` entries of one trait whose text is the one the rules play, or None."""
    name, text = _name(f["name"]), " ".join(f["desc"].split())
    if name == "amphibious" and AMPHIBIOUS.match(text):
        return {"breathes_water": True}
    if name == "water breathing" and WATER_BREATHING.match(text):
        return {"breathes_water": True}
    if name == "hold breath" and (m := HOLD_BREATH.match(text)):
        return {"hold_breath_min": int(m.group(1)) * (60 if m.group(2) == "hour" else 1)}
    if name == "sunlight sensitivity" and SUNLIGHT.match(text):
        return {"sunlight_sensitivity": True}
    if name == "light sensitivity" and BRIGHT.match(text):
        return {"light_sensitivity": True}
    if name == "vampire weaknesses" and (m := WEAKNESSES.match(text)):
        return {"running_water": int(m.group(1)), "sunlight_hypersensitivity": int(m.group(3))}
    return None


def character_keys(c: dict) -> dict:
    """The sheet keys these traits give a creature record (merged into srd_blocks.character's)."""
    out: dict = {}
    for f in c["traits"]:
        got = read(f)
        if got:
            out.update(got)
    return {"srd_exposure": out} if out else {}


#: what a played trait's text says that no fight here can act on (the trait is then not counted as modelled)
LEFT_OUT = {
    "water breathing": "played: it breathes underwater (SRD-82); left out: \"only\" -- it does not suffocate out of "
                       "the water",
    "vampire weaknesses": "played: Harmed by Running Water (SRD-86) and Sunlight Hypersensitivity (SRD-85); left "
                          "out: Forbiddance (no residence or invitation in a fight) and Stake to the Heart (no "
                          "resting place)",
}


#: the surfaces' traits, not played, and why (issue 44: they need the path search's support, not a rule here)
NOT_PLAYED = {
    "spider climb": "not played: a body here stands only on a solid voxel under its feet (AIR-06's support); climbing "
                    "a wall or clinging upside down to a ceiling (support beside or above it) is not in the path "
                    "search (engine/rules/pathing.py), so there is no climb for it to make without a check",
    "ice walk": "not played: the 5e rules here have no difficult terrain and no climbing check (the materials ice and "
                "snow are difficult terrain for the baton ruleset only, BAT-46; a 5e walker steps up a layer at "
                "AIR-07's cost on any material), so there is nothing for it to ignore",
}


def status(c: dict, section: str, f: dict) -> tuple[bool, str] | None:
    """(modelled, why) for a trait read here, or None (another family decides)."""
    if section == "traits" and _name(f["name"]) in NOT_PLAYED:
        return False, NOT_PLAYED[_name(f["name"])]
    if section != "traits" or read(f) is None:
        return None
    name = _name(f["name"])
    if name in LEFT_OUT:
        return False, LEFT_OUT[name]
    return True, ""


# -- the sheet key --------------------------------------------------------------------------------------------------

def _count(v, hi: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= hi


def check(raw: dict, file: str, key: str) -> None:
    ex = raw.get("srd_exposure")
    if ex is None:
        return
    k = f"{key}.srd_exposure"
    if not isinstance(ex, dict):
        raise SceneError(file, k, "a table: " + ", ".join(KEYS))
    for name, v in ex.items():
        if name not in KEYS:
            raise SceneError(file, f"{k}.{name}", "unknown; one of " + ", ".join(KEYS))
        if name in ("breathes_water", "sunlight_sensitivity", "light_sensitivity") and not isinstance(v, bool):
            raise SceneError(file, f"{k}.{name}", "true or false")
        if name == "hold_breath_min" and not _count(v, 1440):
            raise SceneError(file, f"{k}.{name}", "minutes: an integer 1..1440")
        if name in ("sunlight_hypersensitivity", "running_water") and not _count(v, 1000):
            raise SceneError(file, f"{k}.{name}", "damage: an integer 1..1000")


def setup(data: dict, raw: dict) -> None:
    if raw.get("srd_exposure"):
        data["srd_exposure"] = dict(raw["srd_exposure"])


def exposure(a) -> dict[str, Any]:
    return a.data.get("srd_exposure") or {}


# -- where a creature is (pure queries on the session's world and options) ------------------------------------------

def _open_sky(session, a) -> bool:
    """Nothing that blocks sight above the body in at least one column of its footprint (the sun overhead)."""
    w = session.world
    X, Y, Z = w.size
    top = a.layer + a.height_layers
    if top >= Z:
        return True
    lut = w.sight_lut
    for i in range(a.footprint):
        for j in range(a.footprint):
            x, y = a.x + i, a.y + j
            if 0 <= x < X and 0 <= y < Y and not lut[w.voxels[top:, y, x]].any():
                return True
    return False


def in_sunlight(rs, session, a) -> bool:
    """SRD-83: the scene's ``light = "sunlight"`` (option) lights a creature with the open sky above it."""
    return rs.opt("light") == "sunlight" and _open_sky(session, a)


def in_bright_light(rs, session, a) -> bool:
    """SRD-83: ``light = "bright"`` everywhere; ``"sunlight"``: daylight is bright light, in the shade too."""
    return rs.opt("light") in ("bright", "sunlight")


def in_material(session, a, names: tuple[str, ...]) -> bool:
    """Whether a voxel of the body is of one of the materials ``names`` (water is not solid: a body can be in it)."""
    w = session.world
    X, Y, Z = w.size
    ids = {i for i, m in enumerate(w.materials) if m.name in names}
    if not ids:
        return False
    box = w.voxels[max(0, a.layer):min(Z, a.layer + a.height_layers), max(0, a.y):min(Y, a.y + a.footprint),
                   max(0, a.x):min(X, a.x + a.footprint)]
    return any(int(v) in ids for v in set(box.ravel().tolist()))
