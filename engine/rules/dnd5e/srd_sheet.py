"""The SRD creatures' keys on a 5e sheet: condition immunities (SRD-04), Hover (SRD-08) and the traits the rules
play (``srd_traits``: flyby, pack tactics, magic resistance, keen sight ...; engine/rules/dnd5e/srd_traits.py).
Any 5e character may carry them; a scene without them plays as before."""

from __future__ import annotations

from engine.errors import SceneError
from engine.rules.dnd5e.common import dice_spec
from engine.rules.choices import choose
from engine.rules.dnd5e.data import CONDITIONS
from engine.rules.dnd5e.srd_blocks import DAMAGE_TYPES, TRAITS_PLAYED

IMMUNE_CONDITIONS = tuple(c for c in CONDITIONS if c != "frozen")
DAMAGE_KEYS = set(DAMAGE_TYPES) | {f"nonmagical_{t}" for t in ("bludgeoning", "piercing", "slashing")}


def legendary_resistance(session, a, purpose: str) -> bool:
    """SRD-14 Legendary Resistance (3/Day): "If the dragon fails a saving throw, it can choose to succeed instead." --
    a choice point of the creature's (``legendary_resistance`` on the action; its policy: use it while it has
    uses); a use spent is counted on the sheet (``legendary_resistance``: the uses left)."""
    left = int(a.data.get("legendary_resistance") or 0)
    if left <= 0:
        return False
    use = choose(session, ("legendary_resistance",), a.id,
                 {True: f"succeed instead (Legendary Resistance, {left} left today)", False: "keep the failure"},
                 True, rule="SRD-14", role="target", question=f"{a.name} failed a saving throw ({purpose})")
    if use:
        a.data["legendary_resistance"] = left - 1
    return bool(use)


def check(raw: dict, file: str, key: str) -> None:
    lg = raw.get("legendary")
    if lg is not None and not (isinstance(lg, dict) and isinstance(lg.get("points", 3), int)
                               and isinstance(lg.get("options", []), list)
                               and all(isinstance(o, dict) and o.get("kind") in ("attack", "save", "detect", "spell",
                                                                "teleport", "move", "bolts")
                                       and isinstance(o.get("cost", 1), int) for o in lg.get("options", []))):
        raise SceneError(file, f"{key}.legendary", "{points, options = [{name, cost, kind = attack|save|detect|spell|teleport|move|bolts, ...}]}")
    lr = raw.get("legendary_resistance")
    if lr is not None and (isinstance(lr, bool) or not isinstance(lr, int) or not 0 <= lr <= 10):
        raise SceneError(file, f"{key}.legendary_resistance", "uses per day: an integer 0..10")
    sc = raw.get("srd_spellcasting")
    if sc is not None and not (isinstance(sc, dict) and set(sc) <= {"dc", "attack", "level", "innate"}
                               and all(sc.get(k) is None or (isinstance(sc[k], int) and not isinstance(sc[k], bool)
                                                              and 0 <= sc[k] <= 40) for k in ("dc", "attack", "level"))
                               and isinstance(sc.get("innate", {}), dict)
                               and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 9
                                       for v in sc.get("innate", {}).values())):
        raise SceneError(file, f"{key}.srd_spellcasting", "{dc, attack, level, innate = {spell = uses per day 0..9, "
                                                          "0 at will}}: integers (SRD-50, SRD-51)")
    for s in (sc or {}).get("innate", {}) if isinstance(sc, dict) else ():
        if s not in (raw.get("spells") or []):
            raise SceneError(file, f"{key}.srd_spellcasting.innate.{s}", "an innate spell is one of its `spells` (SRD-51)")
    pa = raw.get("parry")
    if pa is not None and (isinstance(pa, bool) or not isinstance(pa, int) or not 0 <= pa <= 10):
        raise SceneError(file, f"{key}.parry", "the AC its Parry adds: an integer 0..10 (SRD-73)")
    for j, c in enumerate(raw.get("condition_immunities") or []):
        if c not in IMMUNE_CONDITIONS:
            raise SceneError(file, f"{key}.condition_immunities[{j}]",
                             f"unknown condition {c!r}; one of {', '.join(IMMUNE_CONDITIONS)}")
    for j, t in enumerate(raw.get("srd_traits") or []):
        if t not in TRAITS_PLAYED:
            raise SceneError(file, f"{key}.srd_traits[{j}]", f"{t!r} is not a trait the rules play; one of "
                                                             f"{', '.join(sorted(TRAITS_PLAYED))}")


def setup(data: dict, raw: dict) -> None:
    if raw.get("condition_immunities"):
        data["condition_immunities"] = sorted(set(raw["condition_immunities"]))
    if raw.get("hover"):
        data["hover"] = True
    if raw.get("srd_traits"):
        data["srd_traits"] = sorted(set(raw["srd_traits"]))
    if raw.get("legendary"):
        data["legendary"] = {"points": int(raw["legendary"].get("points", 3)),
                             "options": [dict(o) for o in raw["legendary"].get("options", [])]}
        data["legendary_points"] = data["legendary"]["points"]
    if raw.get("legendary_resistance"):
        data["legendary_resistance"] = int(raw["legendary_resistance"])
    if raw.get("multiattack"):
        data["multiattack"] = [dict(o) for o in raw["multiattack"]]
    if raw.get("creature_actions"):
        data["creature_actions"] = [dict(f) for f in raw["creature_actions"]]
    if raw.get("death_burst"):
        data["death_burst"] = dict(raw["death_burst"])
    if raw.get("parry"):
        data["parry"] = int(raw["parry"])            # SRD-73 (srd_parry.py)
    if raw.get("creature_type"):
        data["creature_type"] = str(raw["creature_type"])
    if raw.get("srd_spellcasting"):                 # SRD-50, -51, -53 (srd_casters.py reads it)
        sc = raw["srd_spellcasting"]
        data["srd_spellcasting"] = {**{k: sc[k] for k in ("dc", "attack", "level") if sc.get(k) is not None},
                                    "innate": {str(k): int(v) for k, v in (sc.get("innate") or {}).items()}}
        data["innate_used"] = {}


def has(a, trait: str) -> bool:
    return trait in a.data.get("srd_traits", ())


def immune_condition(a, name: str) -> tuple[str, str] | None:
    """SRD-04: the stat block's condition immunities."""
    if name in a.data.get("condition_immunities", ()):
        return f"immune to {name} (its stat block)", "SRD-04"
    return None


def magic_resistance(a, rule: str, concentration) -> str | None:
    """SRD-10 Magic Resistance: "advantage on saving throws against spells and other magical effects" -- the saves a
    spell forces (DND-21); a concentration save is not against a spell."""
    if has(a, "magic resistance") and rule == "DND-21" and not concentration:
        return "Magic Resistance (SRD-10)"
    return None


KEEN = ("keen sight", "keen hearing and sight", "keen sight and smell", "keen hearing", "keen hearing and smell",
        "keen senses")


def keen_sight(a, skill: str) -> int:
    """SRD-11 Keen Sight: "advantage on Wisdom (Perception) checks that rely on sight" -- the passive Perception the
    sandbox uses to notice a hider it can see (DND-23) is +5, as advantage on a passive check. Keen Hearing ("checks
    that rely on hearing") and Keen Senses the same: a hider's Stealth is against being heard as much as seen."""
    if skill == "perception" and any(has(a, k) for k in KEEN):
        return 5
    return 0


def dice_parts(dice: str) -> tuple[int, int, int]:
    head, _, bonus = dice.replace("-", "+-").partition("+")
    if "d" not in head:
        return 0, 0, int(dice)
    n, s = dice_spec(head)
    return n, s, int(bonus or 0)
