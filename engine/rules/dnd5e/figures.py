"""An attack's figures, beside the attack (engine/rules/dnd5e/attacks.py): the mean damage of a hit (what a
policy weighs, engine/sim) and where the attack bonus comes from (the events' ``sources``)."""

from __future__ import annotations

from engine.rules.core import Actor
from engine.rules.dnd5e import conditions, gear
from engine.rules.dnd5e.common import dice_spec


def mean_hit_damage(rs, a: Actor, plan: dict) -> float:
    """DND-16: the mean damage of one hit as resolve_attack adds it -- the weapon's dice, its ability modifier
    (DND-29: none on an off-hand attack unless negative) and damage bonus; criticals, feats and sneak attacks,
    which depend on the roll, are left out."""
    w = plan["weapon"]
    n, s = dice_spec(w["damage"])
    return max(0.0, n * (s + 1) / 2 + damage_modifier(rs, a, w, plan))


def damage_modifier(rs, a: Actor, w: dict, plan: dict) -> int:
    """The damage's fixed modifier: the ability modifier and the weapon's own ``damage_bonus`` (a +1 weapon).
    DND-29 l. 407 "Nie dodajesz swojego modyfikatora z cechy do obrażeń wynikających z akcji dodatkowej, chyba że
    jest on negatywny": on the two-weapon off-hand attack the ability modifier alone is dropped when positive; the
    weapon's bonus stays (a -1 Str and a +2 weapon: +1, not 0)."""

    ability = dmg_mod(rs, a, w, plan["melee"])
    if plan.get("kind") == "bonus" and ability > 0 and not plan.get("bonus_from"):
        ability = 0                                  # not a feat's bonus attack (GWM, Polearm Master...)
    return ability + int(w.get("damage_bonus", 0))


def bonus_sources(rs, a: Actor, w: dict, melee: bool) -> list[dict]:
    """Where ``attack_bonus`` comes from, one entry a modifier (source, value, rule ID): the ability, proficiency
    (a spell: the spellcasting ability and proficiency, DND-21), or a weapon's own ``to_hit``."""
    if "to_hit" in w:
        if w.get("spell"):
            k = a.data["casting"]
            return [{"source": k.capitalize(), "value": conditions.ab(rs, a, k), "rule": "DND-21"},
                    {"source": "proficiency", "value": a.data["prof"], "rule": "DND-21"}]
        return [{"source": f"the {w['name']}'s to_hit", "value": int(w["to_hit"]), "rule": "DND-16"}]
    s, d = conditions.ab(rs, a, "str"), conditions.ab(rs, a, "dex")
    k = ("Dex" if d > s else "Str") if "finesse" in w["properties"] else ("Dex" if "ranged" in w["properties"] else "Str")
    out = [{"source": k, "value": d if k == "Dex" else s, "rule": "DND-16"}]
    if gear.proficient_weapon(a, w):
        out.append({"source": "proficiency", "value": a.data["prof"], "rule": "DND-16"})
    return out


def dmg_mod(rs, a, w, melee):
    s, d = conditions.ab(rs, a, "str"), conditions.ab(rs, a, "dex")
    if "finesse" in w["properties"]:
        return max(s, d)
    if "ranged" in w["properties"]:
        return d
    return s
