"""The SRD creatures' senses and the traits about being perceived (SRD-97..SRD-101, issue 44) as a sheet key
(``srd_senses``), read from a creature record (assets/srd/creatures.json: its ``senses`` and its traits' text), and
whether each trait is played (``status``). The rules that play them: engine/rules/dnd5e/srd_sight.py; the
catalogue: srd_catalogue_sight.py. Metres (5 ft = 1.5 m).

``srd_senses`` (any 5e character may carry it; a scene without it plays as before)::

    blindsight_m = 18.0            # SRD-98 blindsight (the block's senses): perceives without sight within it
    echolocation = true            # SRD-99 Echolocation ("can't use its blindsight while deafened")
    devils_sight_m = 36.0          # SRD-97 Devil's Sight: magical darkness doesn't impede its darkvision (its range)
    false_appearance = "motionless" # SRD-100 False Appearance ("not_flying": the flying sword's "and isn't flying")
    darkness_aura = {radius_m = 4.5, per_day = 1}   # SRD-101 the darkmantle's Darkness Aura (action ``darkness_aura``)
"""

from __future__ import annotations

import re
from typing import Any

from engine.errors import SceneError

KEYS = ("blindsight_m", "echolocation", "devils_sight_m", "false_appearance", "darkness_aura")
APPEARANCES = ("motionless", "not_flying")

DEVILS_SIGHT = re.compile(r"^Magical darkness doesn't impede the [\w' -]+'s darkvision\.$")
ECHOLOCATION = re.compile(r"^The [\w' -]+ can't use its blindsight while deafened\.$")
FALSE_APPEARANCE = re.compile(r"^While the [\w' -]+ remains motion ?less(?P<how> without its underside exposed| and "
                              r"isn't flying)?, it is indistinguishable from (?:a |an )?[\w' ,-]+\.$")

DARKNESS_AURA = re.compile(r"^A (\d+)-foot radius of magical darkness extends out from the [\w' -]+, moves with it, and "
                           r"spreads around corners\. The darkness lasts as long as the [\w' -]+ maintains "
                           r"concentration, up to 10 minutes \(as if concentrating on a spell\)\. Darkvision can't "
                           r"penetrate this darkness, and no natural light can illuminate it\. If any of the darkness "
                           r"overlaps with an area of light created by a spell of 2nd level or lower, the spell creating "
                           r"the light is dispelled\.$")


def _name(n: str) -> str:
    return re.sub(r"\s*\(.*\)$", "", n).strip().lower()


def read(c: dict, f: dict) -> dict | None:
    """The ``srd_senses`` entries of one trait whose text is the one the rules play, or None."""
    name, text = _name(f["name"]), " ".join(f["desc"].split())
    senses = c.get("senses") or {}
    if name == "devil's sight" and DEVILS_SIGHT.match(text) and senses.get("darkvision_m"):
        return {"devils_sight_m": float(senses["darkvision_m"])}
    if name == "echolocation" and ECHOLOCATION.match(text) and senses.get("blindsight_m"):
        return {"echolocation": True}
    if name == "darkness aura" and (m := DARKNESS_AURA.match(text)):
        return {"darkness_aura": {"radius_m": round(int(m.group(1)) * 0.3, 2), "per_day": int(f.get("per_day") or 1)}}
    if name == "false appearance" and "(" not in f["name"] and (m := FALSE_APPEARANCE.match(text)):
        return {"false_appearance": "not_flying" if m.group("how") == " and isn't flying" else "motionless"}
    return None


def character_keys(c: dict) -> dict:
    """The sheet keys a creature record's senses and traits give it (merged into srd_blocks.character's): its
    blindsight for every creature that has one (SRD-98), the traits read here."""
    out: dict = {}
    if (c.get("senses") or {}).get("blindsight_m"):
        out["blindsight_m"] = float(c["senses"]["blindsight_m"])
    for f in c["traits"] + c["actions"]:
        got = read(c, f)
        if got:
            out.update(got)
    return {"srd_senses": out} if out else {}


#: what a played trait's text says that the fight here does not act on (the trait is still counted as modelled
#: where the fight plays what the text says; these say what is left out)
LEFT_OUT = {
    "devil's sight": "played as SRD-97 (its darkvision's range sees through a Darkness or a Darkness Aura; a fog "
                     "still blinds it)",
    "echolocation": "played as SRD-99 (deafened, its blindsight, SRD-98, is off)",
    "false appearance": "played as SRD-100 (motionless since the fight began, foes do not know it for a creature: "
                        "no target, unseen; option `false_appearance`); left out: taking it up again later",
    "darkness aura": "played as SRD-101 (action `darkness_aura`: a Darkness that moves with it while it "
                     "concentrates); left out: dispelling spells of light (light is not modelled)",
}


def status(c: dict, section: str, f: dict) -> tuple[bool, str] | None:
    """(modelled, why) for a trait read here, or None (another family decides)."""
    if section not in ("traits", "actions") or read(c, f) is None:
        return None
    return True, LEFT_OUT.get(_name(f["name"]), "")


# -- the sheet key --------------------------------------------------------------------------------------------------

def _metres(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v <= 10000


def check(raw: dict, file: str, key: str) -> None:
    se = raw.get("srd_senses")
    if se is None:
        return
    k = f"{key}.srd_senses"
    if not isinstance(se, dict):
        raise SceneError(file, k, "a table: " + ", ".join(KEYS))
    for name, v in se.items():
        if name not in KEYS:
            raise SceneError(file, f"{k}.{name}", "unknown; one of " + ", ".join(KEYS))
        if name in ("blindsight_m", "devils_sight_m") and not _metres(v):
            raise SceneError(file, f"{k}.{name}", "metres: a number above 0")
        if name == "echolocation" and not isinstance(v, bool):
            raise SceneError(file, f"{k}.{name}", "true or false")
        if name == "darkness_aura" and not (isinstance(v, dict) and set(v) <= {"radius_m", "per_day"}
                                            and _metres(v.get("radius_m", 4.5)) and isinstance(v.get("per_day", 1), int)):
            raise SceneError(file, f"{k}.{name}", "{radius_m = 4.5, per_day = 1}")
        if name == "false_appearance" and v not in APPEARANCES:
            raise SceneError(file, f"{k}.{name}", "one of " + ", ".join(APPEARANCES))


def setup(data: dict, raw: dict) -> None:
    if raw.get("srd_senses"):
        data["srd_senses"] = dict(raw["srd_senses"])


def senses(a) -> dict[str, Any]:
    return a.data.get("srd_senses") or {}
