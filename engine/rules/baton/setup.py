"""Baton characters from the scene: attributes, skills, gear, Life, Vigor, Protection (BAT-16, BAT-22)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import SceneError
from engine.rules import aerial
from engine.rules.baton import dice as bd
from engine.rules.baton import health
from engine.rules.baton.common import CONDITIONS
from engine.rules.baton.data import ARMOUR, KINDS, WEAPONS
from engine.rules.core import Actor

if TYPE_CHECKING:
    from engine.rules.session import Session
from engine.rules.ruleset import character_index, scene_conditions


# ================================================================================ setup
def make_actor(rs, session: Session, ch) -> Actor:
    st = ch.stats
    file = session.scene.path
    idx = character_index(session, ch)
    key = f"characters[{idx}]"
    base = KINDS.get(ch.kind or "", {})
    given = set(ch.raw)

    def pick(f, default=None):
        if f in given:
            return getattr(st, f)
        if f in base:
            return base[f]
        v = getattr(st, f, None)
        return default if v in (None, [], {}) else v

    attributes = {"physique": 0, "agility": 0}
    attributes.update(base.get("attributes", {}))
    attributes.update(st.attributes or {})
    for k, v in attributes.items():
        if not isinstance(v, int) or not -3 <= v <= 12:
            raise SceneError(file, f"{key}.attributes.{k}", "an attribute is an integer -3..12")
    skills = dict(base.get("skills", {}))
    skills.update(st.skills or {})
    for k, v in skills.items():
        if not isinstance(v, int) or not -3 <= v <= 12:
            raise SceneError(file, f"{key}.skills.{k}", "a skill level is an integer -3..12")
    weapons = []
    for j, w in enumerate(pick("weapons", []) or []):
        weapons.append(weapon_spec(rs, w, file, f"{key}.weapons[{j}]"))
    names = [w["name"] for w in weapons]
    if "unarmed" not in names:
        weapons.append(weapon_spec(rs, "unarmed", file, key))
    armour = _armour(pick("armour", []) or [], file, key)
    prot = st.protection if "protection" in given else None
    if prot is None:
        prot = sum(layer["protection"] for layer in armour)       # BAT-16
    if prot < 0:
        raise SceneError(file, f"{key}.protection", "must not be negative")
    max_life = 6 + 2 * attributes.get("physique", 0)               # BAT-22
    if max_life < 1:
        raise SceneError(file, f"{key}.attributes.physique", "Life 6 + 2 x Physique must be at least 1")
    wounds = _wounds(st.wounds or [], file, key)
    speed = float(pick("speed_m", rs.opt("default_speed_m")))
    fly = pick("fly_speed_m")
    if ch.flying and fly is None and not st.mount:
        fly = speed          # placed in the air without a fly speed: it flies at its ground speed (AIR-09)
    equipped = _equipped(list(pick("equipped", []) or []), weapons, file, key)
    conds = scene_conditions(st.conditions, CONDITIONS, file, key)
    undead = pick("undead")
    if undead is None:
        undead = bool(base.get("undead", False))
    defence = pick("defence")
    if defence is not None and defence not in ("dodge", "shield", "defence", "none", "best"):
        raise SceneError(file, f"{key}.defence", "one of dodge, shield, defence, none, best")
    items = dict(pick("items", {}) or {})
    data = {
        "pc": bool(st.pc), "attributes": attributes, "skills": skills, "weapons": weapons,
        "equipped": equipped, "armour": armour, "protection": int(prot), "protection_max": int(prot),
        "vigor": 0, "max_vigor": 0, "max_life": max_life, "wounds": wounds,
        "next_wound": len(wounds) + 1, "speed_m": speed, "fly_speed_m": None if fly is None else float(fly),
        "surprised": bool(st.surprised), "counterattack": bool(pick("counterattack", False)),
        "undead": bool(undead), "reach_m": float(pick("reach_m", 1.5)), "defence": defence or "best",
        "items": items, "has_shield": any(layer["name"] == "shield" for layer in armour) or "shield" in equipped,
        "mounted_on": None, "rider": None, "mount_at_start": st.mount,
        "breath_min": 0, "short_rest_period": None, "long_rest_day": None, "destiny_start": st.destiny,
        "public": ["vigor", "max_vigor", "protection", "protection_max", "wounds"],
    }
    a = Actor(ch.id, ch.side, ch.name, ch.kind, ch.size, ch.footprint, ch.height_layers, ch.eye_m,
              ch.at[0], ch.at[1], ch.at[2], bool(ch.flying), fly is not None, 0, max_life, 0, conds, False, data)
    health.sync_life(rs, a)
    v = st.vigor
    a.data["vigor"] = a.data["max_vigor"] if v is None else max(0, min(int(v), a.data["max_vigor"]))
    if a.hp <= 0:
        a.dead = True
    if a.flying and aerial.is_supported(session, a):
        a.flying = False
    return a


def _armour(layers: list, file, key: str) -> list[dict]:
    """BAT-16: the armour layers, each a known name or {name, protection}."""
    armour = []
    for j, layer in enumerate(layers):
        if isinstance(layer, str):
            if layer not in ARMOUR:
                raise SceneError(file, f"{key}.armour[{j}]", f"unknown armour {layer!r}; known: {', '.join(sorted(ARMOUR))}")
            armour.append({"name": layer, "protection": ARMOUR[layer]})
        elif isinstance(layer, dict) and isinstance(layer.get("name"), str) and isinstance(layer.get("protection", 0), int):
            armour.append({"name": layer["name"], "protection": int(layer.get("protection", ARMOUR.get(layer["name"], 0)))})
        else:
            raise SceneError(file, f"{key}.armour[{j}]", "an armour layer is a name or {name, protection}")
    return armour


def _wounds(given: list, file, key: str) -> list[dict]:
    """The wounds it starts with: each a severity (cutting) or {severity, type, treated, necrotic}, numbered."""
    wounds = []
    for j, w in enumerate(given):
        if isinstance(w, int) and not isinstance(w, bool) and w > 0:
            wounds.append({"severity": w, "type": "cutting"})
        elif isinstance(w, dict) and isinstance(w.get("severity"), int) and w["severity"] > 0:
            extra = set(w) - {"severity", "type", "treated", "necrotic"}
            if extra:
                raise SceneError(file, f"{key}.wounds[{j}].{min(extra)}", "unknown key")
            wounds.append({"severity": w["severity"], "type": str(w.get("type", "cutting")),
                           "treated": bool(w.get("treated", False)), "necrotic": bool(w.get("necrotic", False))})
        else:
            raise SceneError(file, f"{key}.wounds[{j}]", "a wound is a severity (>= 1) or {severity, type, treated}")
    for i, w in enumerate(wounds):
        w.setdefault("treated", False)
        w.setdefault("necrotic", w["type"] == "necrotic")
        w["id"] = i + 1
        w["recovery"] = None
    return wounds


def _equipped(equipped: list, weapons: list, file, key: str) -> list:
    """What it holds: its weapons or a shield, two hands at most; none given: its first weapon."""
    for j, e in enumerate(equipped):
        if e not in [w["name"] for w in weapons] and e != "shield":
            raise SceneError(file, f"{key}.equipped[{j}]", f"{e!r} is not one of its weapons")
    if len(equipped) > 2:
        raise SceneError(file, f"{key}.equipped", "two hands: at most two weapons")
    if not equipped:
        equipped = [weapons[0]["name"]]
    return equipped


def weapon_spec(rs, w, file, key) -> dict:
    if isinstance(w, str):
        if w not in WEAPONS:
            raise SceneError(file, key, f"unknown weapon {w!r}; the built-in table has {', '.join(sorted(WEAPONS))} "
                                        "(or give a table {name, damage, size, range_m})")
        d, size, rng, typ = WEAPONS[w]
        return {"name": w, "damage": d, "size": size, "range_m": float(rng), "type": typ}
    if isinstance(w, dict):
        name = w.get("name")
        if not isinstance(name, str):
            raise SceneError(file, f"{key}.name", "a weapon table needs a name")
        d, size, rng, typ = WEAPONS.get(name, ("1d4", "small", 0, "blunt"))
        out = {"name": name, "damage": d, "size": size, "range_m": float(rng), "type": typ}
        for k, v in w.items():
            if k not in ("name", "damage", "size", "range_m", "type", "reach_m", "skill"):
                raise SceneError(file, f"{key}.{k}", "unknown weapon key (name, damage, size, range_m, type, reach_m, skill)")
            out[k] = v
        try:
            bd.parse(out["damage"])
        except ValueError as e:
            raise SceneError(file, f"{key}.damage", str(e)) from None
        if out["size"] not in ("light", "small", "medium", "large"):
            raise SceneError(file, f"{key}.size", "one of light, small, medium, large")
        if not isinstance(out["range_m"], (int, float)) or out["range_m"] < 0:
            raise SceneError(file, f"{key}.range_m", "a range in metres (0 = melee)")
        out["range_m"] = float(out["range_m"])
        return out
    raise SceneError(file, key, "a weapon is a name or a table")
