"""The baton ruleset plug-in ("Combate", BAT-00 to BAT-64) with the aerial module (AIR-*).

The initiative is a baton: its holder (``state.data["holder"]``, also ``state.current``) takes one major action,
one minor action and one movement in any order, then must ``pass`` it (BAT-08/09). Damage runs through
Protection, then Vigor, then Life as wounds (BAT-16..26). Decisions on the document's gaps are in docs/baton.md.
"""

from __future__ import annotations

import math

from engine.errors import SceneError
from engine.rules import aerial
from engine.rules.actions import Param
from engine.rules.baton import dice as bd
from engine.rules.baton.data import (ARMOUR, DAMAGE_SCALE, FIRE_SOURCES, KINDS, POISONS, POTIONS, SIZES,
                                     WEAPONS)
from engine.rules.core import Actor, Illegal, Session
from engine.rules.ruleset import Ruleset
from engine.rules.baton.text import EVENT_LINES
from engine.world.cover import cover_between
from engine.world.geometry import distance_m, in_melee_reach

CONDITIONS = {
    "grappled": "BAT-54", "grappling": "BAT-55", "shaken": "BAT-56", "prone": "BAT-57", "confused": "BAT-58",
    "exposed": "BAT-59", "slow": "BAT-60", "paralyzed": "BAT-61", "petrified": "BAT-62", "stuck": "BAT-63",
    "overloaded": "BAT-64", "unaware": "BAT-37", "helpless": "BAT-37", "hallucinating": "BAT-53",
}
NEEDS_MOVEMENT = ("move", "stand", "dash", "charge", "drop", "dismount")
MAJOR = ("attack", "charge", "create_opportunity", "disarm", "dash", "grab", "trip", "push", "break_free",
         "resist_poison", "extinguish", "take_item_backpack", "use_power_major")
MINOR = ("equip", "stow", "drop_item", "pick_up", "drink", "take_item_pocket", "shout", "use_power_minor")
DIRECT = ("direct", "necrotic", "fire", "falling", "caustic", "latent")
FATIGUE = ("fatigue",)
PROTECTION_PENALTY = ("agility", "athletics", "dodge", "stealth", "acrobatics", "climb", "swim")
DIRS8 = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
GM_ACTIONS = ("damage", "condition", "poison", "fire", "breath")
ANYONE_ACTIONS = ("wait", "day")
OUT_OF_COMBAT = ("rest", "treat", "wait", "day", "move", "equip", "stow", "drink", "pick_up", "drop_item",
                 "take_item", "dismount")


def _rule_of(cond: str) -> str:
    return CONDITIONS.get(cond, "")


class Baton(Ruleset):
    name = "baton"
    upkeep_name = "minor action"
    EVENT_LINES = EVENT_LINES     # how its events read in the runner's log
    DEFAULT_OPTIONS = {
        "diagonal": "5e", "climb_m": 4.0, "descend_m": 2.0,         # AIR-07 (as for 5e)
        "fall_cap_percent": 50, "fall_damage_rounding": "down",     # AIR-12 when air12_vs_bat47 = "air12"
        "success_level": "total-difficulty+1",   # BAT-00 inferred: | "total-difficulty" | "per-3"
        "damage_scale": list(DAMAGE_SCALE),      # BAT-00 inferred
        "chance_cap": 3,                         # BAT-00
        "criticals_decide": True,                # a natural 12 always succeeds, a natural 1 always fails
        "base_difficulty": 7,                    # BAT-14: attack difficulty = 7 + the defence skill
        "wound_light_max": 3,                    # BAT-27 GAP: severity 1-3 light, 4-6 moderate, 7+ grave
        "wound_moderate_max": 6,
        "protection_penalty": "worn",            # BAT-17: per 6 points of the armour worn | "current"
        "physique_bonus": True,                  # medium and large weapons add Physique to damage (BAT-36)
        "air12_vs_bat47": "bat47",               # how a fall to the ground hurts: BAT-47 wound | "air12"
        "air17_overrides_elevation": True,       # height alone gives no positive chance (AIR-17 over BAT-44)
        "elevation_layers": 2,                   # with the option off: feet this many layers above the target
        "keep_prefers": "combat",                # BAT-08 "que ainda não agiram no combate" | "turn"
        "lone_keeps": True,                      # BAT-08 with no other ally able to act: it keeps the baton
        "after_combat": "over",                  # "over" ends the session | "continue" (rest, treat, days)
        "default_speed_m": 9.0,
        "opportunity_attacks": True,             # BAT-38
        "cover_exposure": True,                  # BAT-41 leaving total cover
        "fire_sources": {},                      # BAT-50 extra or replaced sources: {name = [base, growth]}
        "auto_confusion": True,                  # BAT-58 the engine plays a confused character's activation
    }

    # ================================================================================ setup
    def make_actor(self, session: Session, ch) -> Actor:
        st = ch.stats
        file = session.scene.path
        idx = session.scene.characters.index(ch)
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
            weapons.append(self._weapon(w, file, f"{key}.weapons[{j}]"))
        names = [w["name"] for w in weapons]
        if "unarmed" not in names:
            weapons.append(self._weapon("unarmed", file, key))
        armour = []
        for j, layer in enumerate(pick("armour", []) or []):
            if isinstance(layer, str):
                if layer not in ARMOUR:
                    raise SceneError(file, f"{key}.armour[{j}]", f"unknown armour {layer!r}; known: {', '.join(sorted(ARMOUR))}")
                armour.append({"name": layer, "protection": ARMOUR[layer]})
            elif isinstance(layer, dict) and isinstance(layer.get("name"), str) and isinstance(layer.get("protection", 0), int):
                armour.append({"name": layer["name"], "protection": int(layer.get("protection", ARMOUR.get(layer["name"], 0)))})
            else:
                raise SceneError(file, f"{key}.armour[{j}]", "an armour layer is a name or {name, protection}")
        prot = st.protection if "protection" in given else None
        if prot is None:
            prot = sum(layer["protection"] for layer in armour)       # BAT-16
        if prot < 0:
            raise SceneError(file, f"{key}.protection", "must not be negative")
        max_life = 6 + 2 * attributes.get("physique", 0)               # BAT-22
        if max_life < 1:
            raise SceneError(file, f"{key}.attributes.physique", "Life 6 + 2 x Physique must be at least 1")
        wounds = []
        for j, w in enumerate(st.wounds or []):
            if isinstance(w, int) and not isinstance(w, bool) and w > 0:
                wounds.append({"severity": w, "type": "cutting"})
            elif isinstance(w, dict) and isinstance(w.get("severity"), int) and w["severity"] > 0:
                extra = set(w) - {"severity", "type", "treated", "necrotic"}
                if extra:
                    raise SceneError(file, f"{key}.wounds[{j}].{sorted(extra)[0]}", "unknown key")
                wounds.append({"severity": w["severity"], "type": str(w.get("type", "cutting")),
                               "treated": bool(w.get("treated", False)), "necrotic": bool(w.get("necrotic", False))})
            else:
                raise SceneError(file, f"{key}.wounds[{j}]", "a wound is a severity (>= 1) or {severity, type, treated}")
        for i, w in enumerate(wounds):
            w.setdefault("treated", False)
            w.setdefault("necrotic", w["type"] == "necrotic")
            w["id"] = i + 1
            w["recovery"] = None
        speed = float(pick("speed_m", self.opt("default_speed_m")))
        fly = pick("fly_speed_m")
        if ch.flying and fly is None and not st.mount:
            fly = speed          # placed in the air without a fly speed: it flies at its ground speed (AIR-09)
        equipped = list(pick("equipped", []) or [])
        for j, e in enumerate(equipped):
            if e not in [w["name"] for w in weapons] and e != "shield":
                raise SceneError(file, f"{key}.equipped[{j}]", f"{e!r} is not one of its weapons")
        if len(equipped) > 2:
            raise SceneError(file, f"{key}.equipped", "two hands: at most two weapons")
        if not equipped:
            equipped = [weapons[0]["name"]]
        conds = {}
        for j, c in enumerate(st.conditions or []):
            name, _, src = str(c).partition(":")
            name = name.strip().lower()
            if name not in CONDITIONS:
                raise SceneError(file, f"{key}.conditions[{j}]", f"unknown condition {c!r}; one of {', '.join(sorted(CONDITIONS))}")
            conds.setdefault(name, [])
            if src:
                conds[name] = sorted(set(conds[name] + [src.strip()]))
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
        self._sync_life(a)
        v = st.vigor
        a.data["vigor"] = a.data["max_vigor"] if v is None else max(0, min(int(v), a.data["max_vigor"]))
        if a.hp <= 0:
            a.dead = True
        if a.flying and aerial.is_supported(session, a):
            a.flying = False
        return a

    def _weapon(self, w, file, key) -> dict:
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

    def start(self, session: Session) -> None:
        st = session.state
        actors = st.actors
        file = session.scene.path
        for i, a in enumerate(actors.values()):
            m = a.data.pop("mount_at_start", None)
            if m:
                if m not in actors or m == a.id:
                    raise SceneError(file, f"characters[{i}].mount", f"no character {m!r} to ride")
                mt = actors[m]
                a.data["mounted_on"], mt.data["rider"] = m, a.id
                a.x, a.y, a.layer, a.flying = mt.x, mt.y, mt.layer, mt.flying
        destiny = {}
        for a in actors.values():
            if a.data["pc"]:
                destiny.setdefault(a.side, 0)
                if a.data.get("destiny_start") is not None:
                    destiny[a.side] = int(a.data["destiny_start"])
            a.data.pop("destiny_start", None)
        st.order = list(actors)
        st.data.update({"combat": False, "holder": None, "side": None, "turn_no": 0, "destiny": destiny,
                        "ground_items": [], "effects": [], "acted": [], "acted_turn": [], "activations": 0,
                        "hour": 8, "next_effect": 1, "opportunity": []})
        st.round = 0
        aerial.check_all_grounded(session)
        sides = self._able_sides(session)
        if len(sides) < 2:
            session.emit({"type": "out_of_combat", "sides": sorted(sides), "rule": "BAT-01",
                          "note": "one side only: rests, treatment and days (BAT-27..31)"})
            return
        first = self._first_holder(session)
        st.data["combat"] = True
        session.emit({"type": "combat_start", "sides": sorted(sides), "rule": "BAT-01"})
        self._give_baton(session, first, "BAT-02", kept=False, how="starts")

    def _first_holder(self, session) -> str:
        st = session.state
        acts = st.actors
        chosen = session.scene.spec.initiative_starts
        pcs = [a for a in acts.values() if a.data["pc"] and self._able(a)]
        awake = [a for a in pcs if not a.data["surprised"]]
        file = session.scene.path
        if chosen:
            c = acts[chosen]
            if not self._able(c):
                raise SceneError(file, "initiative_starts", f"{c.name} cannot act (dead or petrified)")
            if awake and (not c.data["pc"] or c.data["surprised"]):
                raise SceneError(file, "initiative_starts", f"{c.name} cannot start: a non-surprised PC starts "
                                 f"({', '.join(a.id for a in awake)}) (BAT-02)")
            if not awake and pcs and c.side in {p.side for p in pcs}:
                raise SceneError(file, "initiative_starts", "every PC is surprised: an opponent chosen by the GM starts (BAT-02)")
            return chosen
        if awake:
            return awake[0].id
        pc_sides = {p.side for p in pcs}
        opp = [a for a in acts.values() if self._able(a) and a.side not in pc_sides and not a.data["rider"]]
        opp = [a for a in opp if not a.data["surprised"]] or opp
        return (opp or [a for a in acts.values() if self._able(a)])[0].id

    # ================================================================================ helpers
    def _able(self, a: Actor) -> bool:
        return not a.dead and not a.has("petrified")

    def _can_hold(self, a: Actor, session=None) -> bool:
        """May receive the baton: alive, not a statue, not a ridden mount (it acts with its rider, BAT-42)."""
        if not self._able(a):
            return False
        r = a.data.get("rider")
        return not r or (session is not None and not self._able(session.state.actors[r]))

    def _able_sides(self, session) -> set:
        return {a.side for a in session.state.actors.values() if self._can_hold(a, session)}

    def combat(self, session) -> bool:
        return bool(session.state.data.get("combat"))

    def holder(self, session) -> Actor | None:
        h = session.state.data.get("holder")
        return session.state.actors.get(h) if h else None

    def attr(self, a: Actor, name: str) -> int:
        if name in a.data["attributes"]:
            return int(a.data["attributes"][name])
        return int(a.data["skills"].get(name, 0))

    def best(self, a: Actor, *names) -> tuple[str, int]:
        vals = [(self.attr(a, n), -i, n) for i, n in enumerate(names)]
        v, _, n = max(vals)
        return n, v

    def weapon_skill(self, a: Actor, w: dict) -> tuple[str, int]:
        name = w.get("skill") or f"fight_{w['name']}"
        return name, self.attr(a, name)

    def equipped(self, a: Actor) -> list[dict]:
        out = []
        for n in a.data["equipped"]:
            w = next((w for w in a.data["weapons"] if w["name"] == n), None)
            if w:
                out.append(w)
        return out

    def main_weapon(self, a: Actor) -> dict:
        eq = self.equipped(a)
        if eq:
            return eq[0]
        return next(w for w in a.data["weapons"] if w["name"] == "unarmed")

    def is_melee(self, w: dict) -> bool:
        return float(w.get("range_m", 0)) <= 0

    def reach_of(self, a: Actor, w: dict) -> float:
        return float(w.get("reach_m", a.data["reach_m"]))

    def melee_weapon(self, a: Actor) -> dict | None:
        """The melee weapon it wields (natural weapons count); None with only a ranged weapon in hand."""
        eq = self.equipped(a)
        for w in eq:
            if self.is_melee(w):
                return w
        if not eq:
            return next(w for w in a.data["weapons"] if w["name"] == "unarmed")
        return None

    def in_reach(self, session, a: Actor, t: Actor, w: dict | None = None, at=None) -> bool:
        """Melee reach (AIR-05); a rider reaches from, and is reached at, its mount's whole body (BAT-42)."""
        w = w or self.melee_weapon(a) or {"reach_m": a.data["reach_m"]}
        ab = self._body(session, a).body() if at is None else a.body().moved(*at)
        tb = self._body(session, t).body()
        return in_melee_reach(ab, tb, self.reach_of(a, w), session.world.cell_m)

    def cover(self, session, a: Actor, t: Actor, at=None, t_at=None):
        ab = a.body() if at is None else a.body().moved(*at)
        tb = t.body() if t_at is None else t.body().moved(*t_at)
        key = ("bcover", ab, tb)
        c = session.cache.get(key)
        if c is None:
            c = cover_between(session.world, ab, tb, "baton", session.options.get("cover_thresholds"))
            session.cache[key] = c
        return c

    def size_cmp(self, a: Actor, b: Actor) -> int:
        return SIZES.index(a.size) - SIZES.index(b.size)

    def _sync_life(self, a: Actor) -> None:
        """BAT-22/26/20: Life = max Life - the sum of wound severities; max Vigor = current Life."""
        sev = sum(w["severity"] for w in a.data["wounds"])
        a.hp = max(0, a.data["max_life"] - sev)
        a.max_hp = a.data["max_life"]
        a.data["life"] = a.hp
        a.data["max_vigor"] = a.hp
        a.data["vigor"] = max(0, min(a.data["vigor"], a.hp))
        for w in a.data["wounds"]:
            w["category"] = self.category(w["severity"])

    def category(self, severity: int) -> str:
        if severity <= int(self.opt("wound_light_max")):
            return "light"
        if severity <= int(self.opt("wound_moderate_max")):
            return "moderate"
        return "grave"

    def add_condition(self, session, a: Actor, name: str, rule: str, source: str | None = None) -> None:
        if name == "prone" and a.data.get("mounted_on") and not a.dead:
            self._throw_rider(session, a, f"knocked prone ({rule})")     # a prone rider is off its mount (BAT-42)
            return
        new = name not in a.conditions
        srcs = set(a.conditions.get(name, []))
        if source:
            srcs.add(source)
        a.conditions[name] = sorted(srcs)
        if new:
            session.emit({"type": "condition", "who": a.id, "condition": name, "added": True, "rule": rule,
                          **({"source": source} if source else {})})
            if name in ("prone", "paralyzed", "petrified", "stuck"):
                aerial.check_grounded(session, a)

    def remove_condition(self, session, a: Actor, name: str, rule: str, source: str | None = None) -> None:
        if name not in a.conditions:
            return
        if source is not None:
            srcs = [s for s in a.conditions[name] if s != source]
            if srcs or source not in a.conditions[name] and a.conditions[name]:
                a.conditions[name] = srcs
                if srcs:
                    return
        a.conditions.pop(name, None)
        session.emit({"type": "condition", "who": a.id, "condition": name, "added": False, "rule": rule})

    def exposed_to(self, session, t: Actor, attacker: Actor) -> list:
        """BAT-59 sources that give ``attacker`` a positive chance against ``t``."""
        out = []
        if t.has("exposed"):
            out.append(["exposed", "BAT-59"])
        if t.has("prone"):
            out.append(["prone: exposed", "BAT-57"])
        if t.has("grappled"):
            out.append(["grappled: exposed", "BAT-54"])
        if t.has("grappling") and attacker.id not in t.conditions.get("grappling", []):
            out.append(["grappling: exposed", "BAT-55"])
        return out[:1] if session.options.get("exposed_counts_once", True) else out

    def unaware(self, session, t: Actor) -> bool:
        return t.has("unaware") or (t.data["surprised"] and t.id not in session.state.data["acted"])

    def life_penalty(self, a: Actor) -> int:
        return (a.data["max_life"] - a.hp) // 6                       # BAT-24

    def protection_penalty(self, a: Actor) -> int:
        p = a.data["protection_max"] if self.opt("protection_penalty") == "worn" else a.data["protection"]
        return p // 6                                                 # BAT-17

    def negatives(self, a: Actor, skill: str, attack: bool = False) -> list:
        out = []
        for _ in range(self.life_penalty(a)):
            out.append(["Life lost (per 6)", "BAT-24"])
        pp = skill in PROTECTION_PENALTY or skill.split("_")[0] in PROTECTION_PENALTY
        if pp:
            for _ in range(self.protection_penalty(a)):
                out.append(["Protection penalty (per 6)", "BAT-17"])
        if a.has("shaken") and (attack or pp):
            out.append(["shaken", "BAT-56"])
        return out

    def _test(self, session, a: Actor, skill: str, difficulty: int, rule: str, purpose: str, pos=(), neg=(),
              major: bool = False, attack: bool = False, level: int | None = None) -> dict:
        lv = self.attr(a, skill) if level is None else level
        negs = list(neg) + self.negatives(a, skill, attack)
        ev = bd.test(session, a.id, skill, lv, difficulty, list(pos), negs, rule, purpose, self.options)
        t = session.state.turn
        if major and t.get("test_die") is None and self.combat(session):
            t["test_die"] = ev["kept"]                                # BAT-08/09 read this die
            t["test_rule"] = rule
        return ev

    # ================================================================================ the baton
    def _new_turn(self, aid):
        return {"actor": aid, "major": None, "minor": None, "moved_m": 0.0, "move_used": False, "careful": False,
                "extra_m": 0.0, "test_die": None, "test_rule": None, "straight_m": 0.0, "last": None,
                "fell_m": 0.0}

    def _give_baton(self, session, to: str, rule: str, kept: bool, how: str, guard: int = 0) -> None:
        st = session.state
        d = st.data
        a = st.actors[to]
        new_side = a.side != d.get("side")
        if new_side:
            d["turn_no"] += 1
            st.round = d["turn_no"]
            d["side"] = a.side
            d["acted_turn"] = []
            session.emit({"type": "side_turn", "side": a.side, "turn": d["turn_no"], "rule": "BAT-10"})
            self._side_turn_starts(session, a.side)
            if not self.combat(session) or st.over:
                return
            if not self._can_hold(a, session):       # the effects just killed it: the side's first able character
                alt = self._prefer(session, [o for o in st.actors.values() if o.side == a.side and self._can_hold(o, session)])
                if not alt:
                    d["holder"] = None
                    self._check_over(session, auto=False)
                    if self.combat(session) and not st.over:     # the whole side is down: back to the others
                        nxt = self._prefer(session, [o for o in st.actors.values() if o.side != a.side and self._can_hold(o, session)])
                        if nxt is not None and guard < 8:
                            self._give_baton(session, nxt.id, "BAT-09", False, "auto", guard + 1)
                    return
                a = alt
                to = a.id
        d["holder"] = to
        st.turn_index = st.order.index(to)
        st.turn = self._new_turn(to)
        d["activations"] += 1
        if to not in d["acted"]:
            d["acted"].append(to)
        d["acted_turn"].append(to)
        if a.data["surprised"]:
            a.data["surprised"] = False
        session.emit({"type": "baton", "to": to, "side": a.side, "kept": kept, "how": how, "turn": d["turn_no"],
                      "rule": rule})
        aerial.upkeep_at_start(session, self._body(session, a))   # only with the option upkeep = "start_of_turn"
        if a.has("confused") and self.opt("auto_confusion") and guard < 8:
            self._confused_activation(session, a, guard)

    def _side_turn_starts(self, session, side: str) -> None:
        """BAT-11: per-turn effects tick when the initiative returns to their target's side; "until its next turn"
        effects end."""
        st = session.state
        for a in st.actors.values():
            if a.side != side:
                continue
            for c in list(a.conditions):
                srcs = a.conditions.get(c, [])
                if "until_next_turn" in srcs:
                    self.remove_condition(session, a, c, "BAT-11", "until_next_turn")
        keep = []
        for ef in st.data["effects"]:
            t = st.actors.get(ef["target"])
            if t is None or t.dead:
                continue
            if t.side != side or ef.get("per") != "turn":
                keep.append(ef)
                continue
            self._tick_effect(session, t, ef)
            if ef.get("turns") is not None:
                ef["turns"] -= 1
                if ef["turns"] <= 0:
                    self._end_effect(session, t, ef, "its turns have passed")
                    continue
            keep.append(ef)
        st.data["effects"] = [e for e in keep if not e.get("ended")]
        st.data["opportunity"] = [o for o in st.data["opportunity"] if o["side"] != side]
        self._check_over(session, auto=False)

    def _tick_effect(self, session, t: Actor, ef: dict) -> None:
        kind = ef["kind"]
        session.emit({"type": "effect_tick", "who": t.id, "effect": kind, "id": ef["id"], "rule": "BAT-11"})
        if kind == "burning":                                           # BAT-50
            w = next((w for w in t.data["wounds"] if w["id"] == ef["wound"]), None)
            if w is not None and ef["growth"]:
                w["severity"] += ef["growth"]
                session.emit({"type": "wound_worsens", "who": t.id, "wound": w["id"], "by": ef["growth"],
                              "severity": w["severity"], "rule": "BAT-50"})
                self._sync_life(t)
                self._maybe_die(session, t, "BAT-50")
        elif kind in ("inoculant", "neurotoxic"):                       # BAT-53
            (r,) = session.roll("poison", 3, who=t.id, rule="BAT-53", purpose=f"{kind} poison, fatigue per turn")
            self.apply_damage(session, t, r, "fatigue", None, "BAT-53")

    def _end_effect(self, session, t: Actor, ef: dict, why: str) -> None:
        ef["ended"] = True
        for c in ef.get("conditions", []):
            self.remove_condition(session, t, c, "BAT-11", f"effect:{ef['id']}")
        session.emit({"type": "effect_end", "who": t.id, "effect": ef["kind"], "id": ef["id"], "why": why, "rule": "BAT-11"})

    def _add_effect(self, session, t: Actor, kind: str, per: str, turns=None, **kw) -> dict:
        d = session.state.data
        ef = {"id": d["next_effect"], "target": t.id, "kind": kind, "per": per, "turns": turns, **kw}
        d["next_effect"] += 1
        d["effects"].append(ef)
        for c in kw.get("conditions", []):
            self.add_condition(session, t, c, CONDITIONS.get(c, "BAT-53"), f"effect:{ef['id']}")
        return ef

    def _prefer(self, session, cands: list) -> Actor | None:
        if not cands:
            return None
        acted = set(session.state.data["acted"])
        fresh = [c for c in cands if c.id not in acted]
        return (fresh or cands)[0]

    def pass_targets(self, session, a: Actor) -> tuple[list, bool, str]:
        """(allowed ids, kept, rule) for the holder's pass now (BAT-08, BAT-09, BAT-58)."""
        st = session.state
        t = st.turn
        die = t.get("test_die")
        confused = a.has("confused")
        kept = confused or (die is not None and die % 2 == 0)
        rule = "BAT-58" if confused else ("BAT-08" if kept else "BAT-09")
        others = [o for o in st.actors.values() if o.id != a.id and self._can_hold(o, session)]
        allies = [o for o in others if o.side == a.side]
        foes = [o for o in others if o.side != a.side]
        if kept:
            if confused:
                fresh_turn = [o for o in allies if o.id not in st.data["acted_turn"]]
                allies = fresh_turn
            if not allies:
                if not confused and self.opt("lone_keeps"):
                    return [a.id], True, "BAT-08"
                kept = False
                rule = "BAT-09"
            else:
                conf = [o for o in allies if o.has("confused") and o.id not in st.data["acted_turn"]]
                if conf:
                    return [o.id for o in conf], True, "BAT-58"
                pool = allies
                if self.opt("keep_prefers") == "turn":
                    fresh = [o for o in allies if o.id not in st.data["acted_turn"]]
                else:
                    fresh = [o for o in allies if o.id not in st.data["acted"]]
                return [o.id for o in (fresh or pool)], True, rule
        conf = [o for o in foes if o.has("confused")]
        return [o.id for o in (conf or foes)], False, rule

    def _end_activation(self, session, a: Actor) -> None:
        """AIR-08 at the end of the character's activation: a flyer spends its minor action to stay up."""
        if session.state.turn.get("upkeep_paid"):
            return                                              # paid when the activation began (option)
        if a.data.get("mounted_on"):
            m = session.state.actors[a.data["mounted_on"]]
            aerial.upkeep(session, m)
        else:
            aerial.upkeep(session, a)

    def _do_pass(self, session, a: Actor, to: str, kept: bool, rule: str, how="pass") -> None:
        self._end_activation(session, a)
        st = session.state
        if st.over or not self.combat(session):
            return
        tgt = st.actors[to]
        if not self._can_hold(tgt, session):
            self._auto_pass(session, a)
            return
        session.emit({"type": "pass", "who": a.id, "to": to, "kept": kept, "rule": rule,
                      "die": st.turn.get("test_die")})
        self._give_baton(session, to, rule, kept, how)

    def _auto_pass(self, session, a: Actor, guard: int = 0) -> None:
        """The holder cannot pass (dead, a statue): the baton goes to the other side (BAT-09)."""
        st = session.state
        foes = [o for o in st.actors.values() if o.side != a.side and self._can_hold(o, session)]
        nxt = self._prefer(session, foes)
        if nxt is None:
            self._check_over(session)
            return
        session.emit({"type": "pass", "who": a.id, "to": nxt.id, "kept": False, "rule": "BAT-09", "auto": True,
                      "reason": f"{a.name} cannot act"})
        self._give_baton(session, nxt.id, "BAT-09", False, "auto", guard)

    def _confused_activation(self, session, a: Actor, guard: int) -> None:
        """BAT-58: 1-3 moves randomly, 4-5 attacks a random character in reach, 6 does nothing; then it passes to
        an ally."""
        (r,) = session.roll("confusion", 6, who=a.id, rule="BAT-58", purpose="confused")
        if r <= 3:
            ok, _, _ = self.can_move(session, a)
            body = self._body(session, a)
            dests = []
            if ok:
                rr = aerial.reach(session, body, fly=body.can_fly and not body.has("prone"))
                dests = sorted(rr.destinations())
            plans = []
            for dd in dests:
                try:
                    plans.append(self._check_move(session, a, {"to": list(dd)}))
                except Illegal:
                    continue
            if plans:
                (k,) = session.roll("confusion_target", len(plans), who=a.id, rule="BAT-58", purpose="random destination")
                session.emit({"type": "confused", "who": a.id, "result": r, "does": "moves randomly", "rule": "BAT-58"})
                self._apply_move(session, a, {"to": list(plans[k - 1]["path"][-1])}, plans[k - 1])
            else:
                session.emit({"type": "confused", "who": a.id, "result": r, "does": "cannot move", "rule": "BAT-58"})
        elif r <= 5:
            w = self.melee_weapon(a)
            pool = [o for o in session.state.actors.values() if o.id != a.id and self._able(o) and w
                    and self.in_reach(session, a, o, w)] if w else []
            if pool:
                (k,) = session.roll("confusion_target", len(pool), who=a.id, rule="BAT-58", purpose="random target")
                t = pool[k - 1]
                session.emit({"type": "confused", "who": a.id, "result": r, "does": f"attacks {t.id}", "rule": "BAT-58"})
                session.state.turn["major"] = "attack"
                self._resolve_attack(session, a, t, w, {"major": True})
            else:
                session.emit({"type": "confused", "who": a.id, "result": r, "does": "nobody in reach", "rule": "BAT-58"})
        else:
            session.emit({"type": "confused", "who": a.id, "result": r, "does": "nothing", "rule": "BAT-58"})
        self._after(session)
        st = session.state
        if st.over or not self.combat(session) or st.data["holder"] != a.id:
            return
        if not self._can_hold(a, session):
            self._auto_pass(session, a, guard + 1)
            return
        ids, kept, rule = self.pass_targets(session, a)
        ids = [i for i in ids if i != a.id] or ids
        if not ids:
            return
        self._end_activation(session, a)
        if st.over or not self.combat(session):
            return
        nxt = self._prefer(session, [st.actors[i] for i in ids])
        session.emit({"type": "pass", "who": a.id, "to": nxt.id, "kept": kept, "rule": "BAT-58", "auto": True})
        if nxt.id == a.id:
            st.turn = self._new_turn(a.id)
            return
        self._give_baton(session, nxt.id, "BAT-58", kept, "confused", guard + 1)

    def _check_over(self, session, auto: bool = True) -> None:
        st = session.state
        if st.over or not self.combat(session):
            return
        sides = self._able_sides(session)
        if len(sides) > 1:
            h = self.holder(session)
            if auto and h is not None and not self._can_hold(h, session):
                self._auto_pass(session, h)
            return
        st.data["combat"] = False
        st.winner = next(iter(sides)) if sides else None
        for a in st.actors.values():                    # BAT-19: Protection fully restored after combat
            if a.data["protection"] != a.data["protection_max"]:
                a.data["protection"] = a.data["protection_max"]
                session.emit({"type": "protection_restored", "who": a.id, "protection": a.data["protection"],
                              "rule": "BAT-19"})
            for c in list(a.conditions):
                if "until_next_turn" in a.conditions.get(c, []):
                    self.remove_condition(session, a, c, "BAT-11", "until_next_turn")
        session.emit({"type": "combat_over", "winner": st.winner, "rule": "BAT-10"})
        st.data["holder"] = None
        if self.opt("after_combat") != "continue":
            st.over = True

    ECONOMY_KEYS = ("major", "minor")

    def invariants(self, session) -> list[str]:
        """Life = max Life - wounds (BAT-26), 0 <= Vigor <= Life (BAT-20), Protection within its maximum, the dead
        at 0 Life (or statues); exactly one side holds the baton and the holder can act; a character gets the
        baton twice in a side's turn only after a kept pass (BAT-08)."""
        bad = []
        st = session.state
        for a in st.actors.values():
            d = a.data
            if a.hp != max(0, d["max_life"] - sum(w["severity"] for w in d["wounds"])):
                bad.append(f"{a.id}: Life {a.hp} is not max Life - wounds (BAT-26)")
            if a.max_hp != d["max_life"]:
                bad.append(f"{a.id}: max_hp {a.max_hp} != max Life {d['max_life']}")
            if not 0 <= d["vigor"] <= a.hp:
                bad.append(f"{a.id}: Vigor {d['vigor']} outside [0, Life {a.hp}] (BAT-20)")
            if not 0 <= d["protection"] <= d["protection_max"]:
                bad.append(f"{a.id}: Protection {d['protection']} outside [0, {d['protection_max']}]")
            if a.dead and not (a.hp == 0 or a.has("petrified")):
                bad.append(f"{a.id}: dead with {a.hp} Life")
        d = st.data
        if d["combat"] and not st.over:
            h = st.actors[d["holder"]]
            if st.current != h.id or d["side"] != h.side:
                bad.append(f"the holder {h.id} is not the current character / its side ({st.current}, {d['side']})")
            if h.dead or h.has("petrified"):
                bad.append(f"the holder {h.id} cannot act")
        elif d["holder"] is not None:
            bad.append(f"out of combat but {d['holder']} holds the baton")
        got: set = set()
        for e in session.events:
            if e["type"] == "side_turn":
                got = set()
            elif e["type"] == "baton":
                if e["to"] in got and not e["kept"]:
                    bad.append(f"{e['to']} got the baton twice in one turn without a kept pass (BAT-08)")
                got.add(e["to"])
        return bad
    TURN_MARKS_SHORT = {"holds the baton": "baton", "acted this turn": "acted", "acted": "done", "has not acted": "ready"}

    def hud_rows(self, session, a: Actor) -> list[str]:
        """Life is the HP; Vigor and Protection absorb damage first (BAT-17..26)."""
        data = a.data or {}
        wounds = data.get("wounds") or []
        return [f"Life {a.hp}/{a.max_hp}   Vigor {data.get('vigor')}/{data.get('max_vigor')}",
                f"Protection {data.get('protection')}/{data.get('protection_max')}   wounds {len(wounds)}"]

    def turn_title(self, session) -> str | None:
        st = session.state
        holder = st.actors.get(st.data.get("holder")) if isinstance(st.data, dict) else None
        return f"Baton: {holder.side} side" if holder is not None else "Baton"

    def turn_marks(self, session) -> dict:
        """For the window's turn panel: who holds the baton, who has acted in this turn / in this combat."""
        d = session.state.data
        out = {}
        for aid, a in session.state.actors.items():
            if a.dead:
                continue
            if aid == d.get("holder"):
                out[aid] = "holds the baton"
            elif aid in d.get("acted_turn", []):
                out[aid] = "acted this turn"
            elif aid in d.get("acted", []):
                out[aid] = "acted"
            elif d.get("combat"):
                out[aid] = "has not acted"
        return out

    # ================================================================================ aerial hooks
    def _body(self, session, a: Actor) -> Actor:
        """The body that moves for ``a``: its mount while it rides (BAT-42)."""
        m = a.data.get("mounted_on")
        return session.state.actors[m] if m else a

    def _turn_of(self, session, body: Actor) -> dict | None:
        """The activation whose movement ``body`` uses: the holder's own, or its mount's."""
        h = self.holder(session)
        if h is None:
            return None
        if body.id == h.id or h.data.get("mounted_on") == body.id:
            return session.state.turn
        return None

    def movement_left(self, session, a, flying):
        base = float(a.data["fly_speed_m"] if flying and a.can_fly and a.data["fly_speed_m"] else a.data["speed_m"])
        if a.has("prone"):
            base /= 2.0                                              # BAT-57
        if not self.combat(session):
            return base
        t = self._turn_of(session, a)
        if t is None:
            return 0.0
        if t["careful"]:
            base /= 2.0                                              # BAT-39
        budget = (0.0 if t["move_used"] else base) + t["extra_m"]
        return max(0.0, budget - t["moved_m"])

    def takeoff_cost(self, session, a):
        return float(a.data["fly_speed_m"] or a.data["speed_m"]) / 2.0   # AIR-06: half its movement

    def spend_movement(self, session, a, metres):
        t = self._turn_of(session, a)
        if t is not None:
            t["moved_m"] = round(t["moved_m"] + metres, 6)

    def upkeep_available(self, session, a):
        t = self._turn_of(session, a)
        if t is None:
            return True
        if t["minor"] is not None:
            return False
        h = self.holder(session)
        if h is not None and h.has("slow") and (t["major"] or t["moved_m"] > 0 or t["move_used"]):
            return False                                             # BAT-60: only one of the three
        return True

    def spend_upkeep(self, session, a):
        t = self._turn_of(session, a)
        if t is not None:
            t["minor"] = "stay aloft"

    def fall_reason(self, session, a):
        if a.data.get("mounted_on"):
            return None                                              # its mount carries it (BAT-42)
        if a.dead:
            return ("dead", "BAT-25")
        for c in ("prone", "paralyzed", "petrified", "stuck"):
            if a.has(c):
                return (c, CONDITIONS[c])
        if a.has("grappled"):
            for g in a.conditions.get("grappled", []):
                o = session.state.actors.get(g)
                if o is not None and not o.flying:
                    return (f"grappled by {o.name}, who is not flying", "BAT-54")
        return None

    def knock_prone(self, session, a, rule):
        if not a.dead:
            self.add_condition(session, a, "prone", rule)

    def can_move(self, session, a):
        for c in ("petrified", "paralyzed", "stuck"):
            if a.has(c):
                return False, f"{a.name} is {c}", CONDITIONS[c]
        return True, "", ""

    def fall_damage(self, session, a, layers):
        """AIR-12 vs BAT-47 (option ``air12_vs_bat47``): with "bat47" a fall to the ground is a wound of 1 per
        1.5 m fallen, halved (rounded up) by an Agility test against 7 + severity."""
        if self.opt("air12_vs_bat47") != "bat47":
            return None
        sev = self.fall_severity(layers)
        if sev <= 0:
            return 0, "BAT-47"
        ev = self._test(session, a, "agility", 7 + sev, "BAT-47", f"Agility to halve a fall wound of {sev}")
        if ev["success"]:
            sev = (sev + 1) // 2
        return sev, "BAT-47"

    def fall_severity(self, layers: int) -> int:
        return int(math.floor(layers * 1.0 / 1.5 + 1e-9))

    # ================================================================================ damage
    def apply_damage(self, session, a: Actor, amount: int, dtype: str, source, rule: str, critical: bool = False) -> int:
        """Protection -> Vigor -> Life (BAT-16..26). Direct damage (necrotic, fire, falls, caustic poison) skips
        Protection and Vigor; fatigue skips Protection. Returns the Life lost."""
        if a.dead or amount <= 0:
            return 0
        d = a.data
        left = int(amount)
        took_p = took_v = 0
        if dtype not in DIRECT and dtype not in FATIGUE:
            took_p = min(d["protection"], left)
            d["protection"] -= took_p
            left -= took_p
        if dtype not in DIRECT:
            took_v = min(d["vigor"], left)
            d["vigor"] -= took_v
            left -= took_v
        wound = None
        if left > 0:                                                    # BAT-23, BAT-26
            wound = {"id": d["next_wound"], "severity": left, "type": dtype, "treated": False,
                     "necrotic": dtype == "necrotic", "recovery": None, "category": self.category(left)}
            d["next_wound"] += 1
            d["wounds"].append(wound)
        self._sync_life(a)
        ev = {"type": "damage", "who": a.id, "amount": int(amount), "damage_type": dtype, "protection_absorbed": took_p,
              "vigor_absorbed": took_v, "wound": wound["severity"] if wound else 0, "protection": d["protection"],
              "vigor": d["vigor"], "life": a.hp, "rule": rule, "layers_rule": "BAT-16+BAT-20+BAT-23"}
        if source:
            ev["source"] = source
        if critical:
            ev["critical"] = True
        if wound:
            ev["wound_category"] = wound["category"]
        session.emit(ev)
        if took_p and d["protection"] == 0:
            session.emit({"type": "unprotected", "who": a.id, "rule": "BAT-18"})
        if took_v and d["vigor"] == 0:
            session.emit({"type": "exhausted", "who": a.id, "rule": "BAT-21"})
        self._maybe_die(session, a, rule)
        if not a.dead:
            self._ride_check(session, a, int(amount))
        return left

    def _maybe_die(self, session, a: Actor, rule: str) -> None:
        if a.hp <= 0 and not a.dead:
            a.dead = True
            session.emit({"type": "death", "who": a.id, "rule": "BAT-25", "cause": rule,
                          "reason": f"Life 0 ({sum(w['severity'] for w in a.data['wounds'])} in wounds, {rule})"})
            for o in session.state.actors.values():                     # a grapple ends with the grabber
                if a.id in o.conditions.get("grappled", []) or a.id in o.conditions.get("grappling", []):
                    self._release(session, a, o)
            if a.data.get("rider"):
                r = session.state.actors[a.data["rider"]]
                self._throw_rider(session, r, "its mount died")
            if a.data.get("mounted_on"):
                m = session.state.actors[a.data["mounted_on"]]
                a.data["mounted_on"] = None
                m.data["rider"] = None
                self._place_beside(session, a, m)
            aerial.check_grounded(session, a)

    def _ride_check(self, session, a: Actor, amount: int) -> None:
        """BAT-42: when rider or mount takes damage the rider tests Ride against 7 + the damage or is thrown."""
        st = session.state
        rider = a if a.data.get("mounted_on") else (st.actors.get(a.data["rider"]) if a.data.get("rider") else None)
        if rider is None or rider.dead or not rider.data.get("mounted_on"):
            return
        mount = st.actors[rider.data["mounted_on"]]
        skill = f"ride_{mount.kind}" if mount.kind and f"ride_{mount.kind}" in rider.data["skills"] else "ride"
        ev = self._test(session, rider, skill, 7 + amount, "BAT-42", f"stay on {mount.name} after {amount} damage")
        if not ev["success"]:
            self._throw_rider(session, rider, "failed the Ride test")

    def _place_beside(self, session, r: Actor, m: Actor) -> None:
        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)):
            for k in (1, 2):
                x, y = m.x + dx * k * max(1, m.footprint if dx > 0 or dy > 0 else 1), m.y + dy * k * max(1, m.footprint if dy > 0 else 1)
                if aerial.body_fits(session, r, x, y, m.layer) and not self._occupied(session, r, (x, y, m.layer)):
                    r.x, r.y, r.layer = x, y, m.layer
                    return

    def _occupied(self, session, a: Actor, at) -> bool:
        return any(o.id != a.id and not o.dead and not o.data.get("mounted_on") and aerial._overlap(a, at, o)
                   for o in session.state.actors.values())

    def _throw_rider(self, session, r: Actor, why: str) -> None:
        m = session.state.actors[r.data["mounted_on"]]
        r.data["mounted_on"] = None
        m.data["rider"] = None
        self._place_beside(session, r, m)
        session.emit({"type": "thrown", "who": r.id, "mount": m.id, "why": why, "at": list(r.pos), "rule": "BAT-42"})
        if not aerial.is_supported(session, r) and not r.can_fly:
            r.flying = True
            aerial.fall(session, r, None, "BAT-42", "thrown from its mount")
        else:
            r.flying = r.can_fly and not aerial.is_supported(session, r)
            if not r.flying:
                self.knock_prone(session, r, "BAT-42")

    def _release(self, session, a: Actor, b: Actor) -> None:
        """End a grapple between a and b (either way round)."""
        for g, t in ((a, b), (b, a)):
            if t.id in g.conditions.get("grappling", []):
                self.remove_condition(session, g, "grappling", "BAT-55", t.id)
                self.remove_condition(session, g, "overloaded", "BAT-55", f"grab:{t.id}")
                self.remove_condition(session, t, "grappled", "BAT-54", g.id)
                self.remove_condition(session, t, "overloaded", "BAT-54", f"grab:{g.id}")
                self.remove_condition(session, t, "stuck", "BAT-54", f"grab:{g.id}")
                session.emit({"type": "grapple_end", "grabber": g.id, "target": t.id, "rule": "BAT-34"})

    def _check_grapples(self, session) -> None:
        st = session.state
        for g in st.actors.values():
            for tid in list(g.conditions.get("grappling", [])):
                t = st.actors[tid]
                if g.dead or t.dead or g.has("petrified") or not self.in_reach(session, g, t, {"reach_m": g.data["reach_m"]}):
                    self._release(session, g, t)

    # ================================================================================ actions
    _SPECS: dict | None = None

    def action_specs(self):
        if Baton._SPECS is None:
            Baton._SPECS = self._build_specs()
        return Baton._SPECS

    def _build_specs(self):
        P = Param
        tgt = P("id", True, help="the character")
        return {
            "pass": {"to": P("id", True, help="who gets the baton")},
            "move": {"to": P("pos", True, help="the destination [x, y, layer]"),
                     "careful": P("bool", default=False, help="leave reach without provoking, at half movement")},
            "stand": {},
            "drop": {"attack": P("id", help="attack this character at the end of the fall (BAT-48)"),
                     "weapon": P("str"), "defence": P("str", choices=("best", "dodge", "shield", "defence", "none"))},
            "dismount": {"to": P("pos")},
            "attack": {"target": tgt, "weapon": P("str"), "crit": P("str", choices=("damage", "destiny"), default="damage"),
                       "defence": P("str", choices=("best", "dodge", "shield", "defence", "none"))},
            "charge": {"target": tgt, "weapon": P("str"), "crit": P("str", choices=("damage", "destiny"), default="damage"),
                       "defence": P("str", choices=("best", "dodge", "shield", "defence", "none"))},
            "create_opportunity": {"skill": P("str", True, help="the skill used (intimidate, perform, ...)"),
                                   "target": P("id"), "difficulty": P("int", default=8),
                                   "effect": P("str", choices=("advantage", "expose", "shake"), default="advantage")},
            "disarm": {"target": tgt, "weapon": P("str")},
            "dash": {},
            "grab": {"target": tgt}, "trip": {"target": tgt}, "push": {"target": tgt},
            "break_free": {},
            "resist_poison": {},
            "extinguish": {},
            "take_item": {"item": P("str", True), "from": P("str", choices=("pocket", "backpack"), default="pocket")},
            "use_power": {"kind": P("str", True, choices=("ring", "item_of_power", "miracle")), "target": P("id")},
            "equip": {"weapon": P("str", True), "hand": P("str", choices=("main", "off"), default="main")},
            "stow": {"weapon": P("str", True)},
            "drop_item": {"item": P("str", True)},
            "pick_up": {"item": P("str", True)},
            "drink": {"potion": P("str", True)},
            "shout": {"text": P("str")},
            # out of combat
            "rest": {"kind": P("str", True, choices=("short", "long")), "wound": P("int")},
            "treat": {"target": tgt, "wound": P("int", True), "kit": P("str", choices=("bandage", "splint"))},
            "wait": {"hours": P("int", default=1)},
            "day": {"days": P("int", default=1)},
            # the game master's tools (actor = "gm")
            "damage": {"target": tgt, "amount": P("int", True), "type": P("str", default="blunt")},
            "condition": {"target": tgt, "add": P("str"), "remove": P("str"), "turns": P("int")},
            "poison": {"target": tgt, "kind": P("str", True, choices=POISONS), "potency": P("int", True)},
            "fire": {"target": tgt, "source": P("str", True), "turns": P("int")},
            "breath": {"target": tgt, "minutes": P("int", True)},
        }

    def check(self, session: Session, act: dict):
        name = act["action"]
        aid = act["actor"]
        if name in GM_ACTIONS:
            if aid != "gm":
                raise Illegal(f"{name} is a game master's tool: use actor = \"gm\"", "", "actor")
            return self._check_gm(session, act)
        if name in ANYONE_ACTIONS:
            return getattr(self, f"_check_{name}")(session, None if aid == "gm" else session.state.actors[aid], act)
        if aid == "gm":
            raise Illegal(f"the game master cannot {name}; characters act when they hold the baton", "BAT-01", "actor")
        a = session.state.actors[aid]
        if a.dead:
            raise Illegal(f"{a.name} is dead", "BAT-25", "actor")
        if a.has("petrified"):
            raise Illegal(f"{a.name} is petrified: a stone statue does nothing", "BAT-62", "actor")
        if not self.combat(session):
            if name not in OUT_OF_COMBAT:
                raise Illegal(f"{name} is a combat action and no combat is going on", "BAT-01", "action")
            return getattr(self, f"_check_{name}")(session, a, act)
        if name in ("rest", "treat"):
            raise Illegal(f"no {name} during combat", "BAT-30" if name == "rest" else "BAT-29", "action")
        h = self.holder(session)
        if aid != h.id:
            if h.data.get("mounted_on") == aid and name not in ("pass", "move", "stand", "dismount", "drop"):
                pass                                     # BAT-42: the mount acts with its rider's actions
            else:
                raise Illegal(f"{h.name} holds the baton, not {a.name}", "BAT-01", "actor")
        if a.has("confused") and self.opt("auto_confusion") and name != "pass":
            raise Illegal(f"{a.name} is confused: it acts at random and passes to an ally", "BAT-58", "action")
        return getattr(self, f"_check_{name}")(session, a, act)

    def apply(self, session: Session, act: dict, plan) -> None:
        name = act["action"]
        if name in GM_ACTIONS:
            self._apply_gm(session, act, plan)
        elif name in ANYONE_ACTIONS:
            getattr(self, f"_apply_{name}")(session, None if act["actor"] == "gm" else session.state.actors[act["actor"]], act, plan)
        else:
            a = session.state.actors[act["actor"]]
            getattr(self, f"_apply_{name}")(session, a, act, plan)
        self._after(session)

    def _after(self, session) -> None:
        aerial.check_all_grounded(session)
        self._check_grapples(session)
        self._check_over(session)

    # -- action economy ------------------------------------------------------------------------------
    def _slot(self, session, a: Actor, slot: str, what: str) -> None:
        """Raise unless the holder's ``slot`` (major / minor / movement) is free (BAT-03, BAT-60)."""
        if not self.combat(session):
            return
        t = session.state.turn
        h = self.holder(session)
        rule = {"major": "BAT-04", "minor": "BAT-05", "movement": "BAT-06"}[slot]
        if slot in ("major", "minor") and t[slot] is not None:
            raise Illegal(f"{h.name} has already used its {slot} action ({t[slot]}); {what} takes the {slot} action", rule)
        if slot == "movement" and (t["move_used"] or t["moved_m"] > 0) and what != "move":
            raise Illegal(f"{h.name} has already used its movement; {what} takes the movement", rule)
        if h.has("slow"):
            used = [k for k in ("major", "minor") if t[k] is not None] + (["movement"] if t["moved_m"] > 0 or t["move_used"] else [])
            if used and slot not in used:
                raise Illegal(f"{h.name} is slow: only one of major action, minor action or movement ({used[0]} used)", "BAT-60")

    def _use(self, session, slot: str, what: str) -> None:
        if self.combat(session):
            session.state.turn[slot] = what

    def _needs_movement(self, session, a: Actor, what: str) -> None:
        ok, why, rule = self.can_move(session, self._body(session, a))
        if not ok:
            raise Illegal(f"{why}: cannot {what} (it needs a movement)", rule)

    def _target(self, session, a: Actor, tid: str, key="target", foe=False) -> Actor:
        t = session.actor(tid, key)
        if t.dead:
            raise Illegal(f"{t.name} is dead", "BAT-25", key)
        if t.id == a.id:
            raise Illegal(f"{a.name} cannot target itself", "", key)
        if t.has("petrified"):
            raise Illegal(f"{t.name} is petrified (a stone statue)", "BAT-62", key)
        return t

    # -- pass -----------------------------------------------------------------------------------------
    def _check_pass(self, session, a, act):
        to = act["to"]
        t = session.actor(to, "to")
        ids, kept, rule = self.pass_targets(session, a)
        if to in ids:
            return {"to": to, "kept": kept, "rule": rule}
        die = session.state.turn.get("test_die")
        if not self._can_hold(t, session):
            why = "dead" if t.dead else ("petrified" if t.has("petrified") else f"a mount: it acts with its rider")
            raise Illegal(f"{t.name} cannot take the baton: {why}", "BAT-42" if t.data.get("rider") else "BAT-25", "to")
        if rule == "BAT-58":
            raise Illegal(f"must pass to {', '.join(ids)} (a confused character acts before its allies and always passes to an ally)", "BAT-58", "to")
        if kept:
            if t.side != a.side:
                raise Illegal(f"the test die was {die} (even): {a.name}'s side keeps the initiative and passes it to an ally "
                              f"({', '.join(ids)}), not to {t.name}", "BAT-08", "to")
            if t.id == a.id:
                raise Illegal(f"{a.name} must pass the baton to another character ({', '.join(ids)})", "BAT-08", "to")
            raise Illegal(f"{t.name} has already acted; pass to an ally who has not yet ({', '.join(ids)})", "BAT-08", "to")
        why = "no skill test in its major action" if die is None else f"the test die was {die} (odd)"
        if not ids:
            raise Illegal("nobody on the other side can take the baton", "BAT-09", "to")
        raise Illegal(f"{why}: the initiative goes to the opponents' side ({', '.join(ids)}), not to {t.name}", "BAT-09", "to")

    def _apply_pass(self, session, a, act, plan):
        if plan["to"] == a.id:
            self._end_activation(session, a)
            session.emit({"type": "pass", "who": a.id, "to": a.id, "kept": True, "rule": "BAT-08",
                          "die": session.state.turn.get("test_die"), "note": "no other ally can act"})
            if not session.state.over and self.combat(session) and self._can_hold(a, session):
                self._give_baton(session, a.id, "BAT-08", True, "kept")
            return
        self._do_pass(session, a, plan["to"], plan["kept"], plan["rule"])

    # -- movement --------------------------------------------------------------------------------------
    def _check_move(self, session, a, act):
        to = tuple(act["to"])
        body = self._body(session, a)
        if a.data.get("rider") and self.combat(session):
            raise Illegal(f"{a.name} carries {session.state.actors[a.data['rider']].name}: the rider moves it", "BAT-42", "actor")
        self._needs_movement(session, a, "move")
        self._slot(session, a, "movement", "move")
        if to == body.pos:
            raise Illegal(f"{body.name} is already at {list(to)}", "BAT-06", "to")
        t = session.state.turn
        if self.combat(session) and t["move_used"] and t["extra_m"] <= t["moved_m"]:
            raise Illegal(f"{a.name} has used its movement ({t['last'] or 'standing up'})", "BAT-06", "to")
        careful = bool(act.get("careful")) or (self.combat(session) and t["careful"])
        fly = body.can_fly and not body.has("prone")
        left = self.movement_left(session, body, fly)
        if careful and self.combat(session) and not t["careful"]:
            base = self.movement_left(session, body, fly) + t["moved_m"] - t["extra_m"]
            left = base / 2.0 + t["extra_m"] - t["moved_m"]
            if left <= 0:
                raise Illegal(f"{body.name} has already moved {t['moved_m']:g} m: half its movement is spent", "BAT-39", "careful")
        if a.has("grappled"):
            for g in a.conditions["grappled"]:
                o = session.state.actors[g]
                if not in_melee_reach(body.body().moved(*to), o.body(), self.reach_of(o, {"reach_m": o.data["reach_m"]}), session.world.cell_m):
                    raise Illegal(f"{a.name} is grappled by {o.name}: it cannot move out of its reach (break free first)", "BAT-54", "to")
        r = aerial.reach(session, body, budget_m=left, fly=fly)
        if not r.can_end(*to):
            e = aerial.explain_unreachable(session, body, to, r, fly)
            e.path = "to"
            if careful and "movement left" in e.reason:
                e = Illegal(e.reason.rsplit(";", 1)[0] + f"; {body.name} has {max(left, 0):g} m left at half movement "
                            "(leaving reach without provoking)", "BAT-39", "to")
            raise e
        path = r.path(*to)
        cost = r.cost_cm(*to) / 100.0
        costs = [r.cost_cm(*p) / 100.0 for p in path]
        return {"path": path, "cost": cost, "costs": costs, "careful": careful, "body": body.id}

    def _terrain_at(self, session, body: Actor, x, y, z) -> str | None:
        w = session.world
        mats = w.materials
        X, Y, Z = w.size
        for i in range(body.footprint):
            for j in range(body.footprint):
                for zz in (z, z - 1):
                    if 0 <= x + i < X and 0 <= y + j < Y and 0 <= zz < Z:
                        m = mats[int(w.voxels[zz, y + j, x + i])]
                        if m.terrain and (zz == z - 1 or not m.solid):
                            return m.terrain
        return None

    def _apply_move(self, session, a, act, plan):
        st = session.state
        body = st.actors[plan["body"]]
        path, costs = plan["path"], plan["costs"]
        t = st.turn
        if plan["careful"] and self.combat(session) and not t["careful"]:
            t["careful"] = True
            session.emit({"type": "careful", "who": a.id, "rule": "BAT-39", "note": "half movement, no opportunity attacks"})
        start = body.pos
        # BAT-38: leaving an enemy's reach lets it attack at once (a counterattack)
        if not plan["careful"] and self.combat(session) and self.opt("opportunity_attacks"):
            prone0 = (a.has("prone"), body.has("prone"), body.flying, a.data.get("mounted_on"))

            def stopped():
                return (a.dead or body.dead or body.pos != start or not self.can_move(session, body)[0]
                        or (a.has("prone"), body.has("prone"), body.flying, a.data.get("mounted_on")) != prone0)
            provokers = self._provokers(session, body, path)
            for e in provokers:
                if stopped():
                    break
                w = self.melee_weapon(e)
                session.emit({"type": "opportunity_attack", "who": e.id, "target": a.id, "rule": "BAT-38"})
                self._resolve_attack(session, e, a, w, {"counter": True, "rule": "BAT-38"})
            if provokers and stopped():
                session.emit({"type": "move_interrupted", "who": a.id, "at": list(body.pos), "rule": "BAT-38"})
                return
        # BAT-46 / BAT-64: difficult terrain along the ground part of the path
        stop = len(path) - 1
        kinds = []
        overloaded = body.has("overloaded") or a.has("overloaded")
        for i, p in enumerate(path[1:], 1):
            if body.can_fly and not aerial.is_supported(session, body, *p):
                kinds.append(None)
                continue
            kinds.append(self._terrain_at(session, body, *p))
        if overloaded:
            kinds = ["exhausting"] * (len(path) - 1)
        n_diff = sum(1 for k in kinds if k)
        failed = False
        if n_diff:
            metres = n_diff * session.world.cell_m
            diff = 7 + int(math.ceil(metres / 1.5 - 1e-9))
            skill, _ = self.best(a, "athletics", "agility")
            ev = self._test(session, a, skill, diff, "BAT-64" if overloaded else "BAT-46",
                            f"cross {metres:g} m of difficult terrain")
            failed = not ev["success"]
            if failed:
                for i, k in enumerate(kinds, 1):
                    if k in ("slippery", "trapping"):
                        stop = i
                        break
        end = path[stop]
        carried_from = body.pos
        body.x, body.y, body.layer = end
        if body.can_fly:
            body.flying = not aerial.is_supported(session, body)
        aerial._carry_rider(session, body)
        spent = costs[stop]
        self.spend_movement(session, body, spent)
        dx, dy, dz = end[0] - path[0][0], end[1] - path[0][1], end[2] - path[0][2]
        cells = max(abs(dx), abs(dy))
        on_line = dz == 0 and (dx == 0 or dy == 0 or abs(dx) == abs(dy))
        straight = cells * session.world.cell_m if on_line and abs(spent - cells * session.world.cell_m) < 1e-6 else 0.0
        if self.combat(session):
            t["last"] = "move"
            t["straight_m"] = round(straight, 4)
        b = aerial.path_breakdown(session, body, path[:stop + 1])
        session.emit({"type": "move", "who": body.id, "by": a.id, "from": list(path[0]), "to": list(end),
                      "path": [list(p) for p in path[:stop + 1]], "cost_m": round(spent, 4), "flying": body.flying,
                      "takeoffs": b["takeoffs"], "layers_up": b["layers_up"], "layers_down": b["layers_down"],
                      "straight_m": round(straight, 4), "rule": "BAT-06+AIR-09",
                      "left_m": round(self.movement_left(session, body, body.can_fly), 4)})
        # dragging a smaller grappled character (BAT-55)
        for tid in list(body.conditions.get("grappling", [])):
            g = st.actors[tid]
            if self.size_cmp(body, g) > 0 and len(path[:stop + 1]) >= 2 and not g.data.get("mounted_on"):
                px, py, pz = path[stop - 1]
                if (aerial.body_fits(session, g, px, py, pz) and not self._occupied(session, g, (px, py, pz))
                        and (g.flying or aerial.is_supported(session, g, px, py, pz))):
                    g.x, g.y, g.layer = px, py, pz
                    aerial._carry_rider(session, g)
                    session.emit({"type": "dragged", "who": g.id, "by": body.id, "to": [px, py, pz], "rule": "BAT-55"})
        if failed:
            cell = session.world.cell_m
            crossed = kinds[:stop]
            if stop < len(path) - 1 or (kinds and kinds[stop - 1] in ("slippery", "trapping")):
                k = kinds[stop - 1]
                if k == "slippery":
                    self.knock_prone(session, a, "BAT-46")
                elif k == "trapping":
                    self.add_condition(session, body, "stuck", "BAT-46", "terrain")
                    body.data["stuck_difficulty"] = 7 + n_diff
            dang = sum(1 for k in crossed if k == "dangerous")
            if dang:
                self.apply_damage(session, a, int(dang * cell / 1.5 + 1e-9), "dangerous", None, "BAT-46")
            exh = sum(1 for k in crossed if k == "exhausting") * cell
            if int(exh / 3.0 + 1e-9):
                self.apply_damage(session, a, int(exh / 3.0 + 1e-9), "fatigue", None, "BAT-64" if overloaded else "BAT-46")
        self._check_grapples(session)
        # BAT-41: leaving total cover exposes it to an immediate ranged attack
        if self.combat(session) and self.opt("cover_exposure") and not a.dead:
            for e in st.actors.values():
                if e.side == a.side or not self._able(e) or e.data.get("rider") and False:
                    continue
                rw = next((w for w in self.equipped(e) if not self.is_melee(w)), None)
                if rw is None or a.dead:
                    continue
                if distance_m(e.body(), body.body(), session.world.cell_m) > rw["range_m"]:
                    continue
                if self.cover(session, e, body, t_at=carried_from).level == "total" and self.cover(session, e, body).level != "total":
                    session.emit({"type": "exposed_leaving_cover", "who": a.id, "by": e.id, "rule": "BAT-41"})
                    self._resolve_attack(session, e, a, rw, {"counter": True, "rule": "BAT-41"})

    def _provokers(self, session, body: Actor, path) -> list:
        out = []
        for e in session.state.actors.values():
            if e.side == body.side or not self._able(e) or e.id == body.id:
                continue
            rider = body.data.get("rider")
            if rider and e.id == rider:
                continue
            w = self.melee_weapon(e)
            if w is None:
                continue
            if not self.in_reach(session, e, body, w):
                continue
            if any(not in_melee_reach(e.body(), body.body().moved(*p), self.reach_of(e, w), session.world.cell_m) for p in path[1:]):
                out.append(e)
        return out

    def _check_stand(self, session, a, act):
        if not a.has("prone"):
            raise Illegal(f"{a.name} is not prone", "BAT-06")
        self._needs_movement(session, a, "stand up")
        self._slot(session, a, "movement", "standing up")
        return {}

    def _apply_stand(self, session, a, act, plan):
        if self.combat(session):
            session.state.turn["move_used"] = True
            session.state.turn["last"] = "stand"
        self.remove_condition(session, a, "prone", "BAT-06")

    def _check_drop(self, session, a, act):
        body = self._body(session, a)
        self._needs_movement(session, a, "drop")
        self._slot(session, a, "movement", "dropping down")
        ground = aerial.support_below(session, body)
        if ground >= body.layer:
            raise Illegal(f"{body.name} is standing on the ground: there is nowhere to drop", "BAT-47")
        if self._occupied(session, body, (body.x, body.y, ground)):
            raise Illegal(f"someone is right below {body.name}", "BAT-47")
        plan = {"ground": ground, "layers": body.layer - ground}
        if act.get("attack"):
            self._slot(session, a, "major", "a falling attack")
            t = self._target(session, a, act["attack"], "attack")
            w = self._pick_weapon(a, act.get("weapon"), "weapon")
            if not self.is_melee(w):
                raise Illegal("a falling attack is a melee attack", "BAT-48", "weapon")
            if not in_melee_reach(body.body().moved(body.x, body.y, ground), t.body(), self.reach_of(a, w), session.world.cell_m):
                raise Illegal(f"{t.name} is not within reach of where {a.name} lands", "BAT-48", "attack")
            plan.update({"target": t.id, "weapon": w["name"]})
        return plan

    def _apply_drop(self, session, a, act, plan):
        """BAT-47/BAT-48: drop to the surface below; with ``attack`` the attack at the end of the fall gains +1 on
        the damage scale per 1.5 m and its roll replaces the Agility test."""
        body = self._body(session, a)
        st = session.state
        if self.combat(session):
            st.turn["move_used"] = True
        start = body.layer
        body.layer = plan["ground"]
        body.flying = False
        aerial._carry_rider(session, body)
        sev = self.fall_severity(plan["layers"])
        session.emit({"type": "fall", "who": body.id, "from": start, "to": plan["ground"], "layers": plan["layers"],
                      "cause": "dropped", "rule": "BAT-47", "damage": sev, "damage_rule": "BAT-47"})
        if plan.get("target"):
            t = st.actors[plan["target"]]
            w = self._pick_weapon(a, plan["weapon"])
            steps = self.fall_severity(plan["layers"])
            self._use(session, "major", "falling attack")
            ev = self._resolve_attack(session, a, t, w, {"major": True, "scale": steps, "rule": "BAT-48",
                                                         "crit": act.get("crit", "damage"), "defence": act.get("defence")})
            if sev and ev is not None and ev["total"] >= 7 + sev:
                sev = (sev + 1) // 2
                session.emit({"type": "fall_halved", "who": a.id, "by": "the attack roll", "severity": sev, "rule": "BAT-48"})
            if sev:
                self.apply_damage(session, a, sev, "falling", None, "BAT-47")
        else:
            if sev:
                ev = self._test(session, a, "agility", 7 + sev, "BAT-47", f"Agility to halve a fall wound of {sev}")
                if ev["success"]:
                    sev = (sev + 1) // 2
                self.apply_damage(session, a, sev, "falling", None, "BAT-47")
        if self.combat(session):
            st.turn["fell_m"] = float(plan["layers"])

    def _check_dismount(self, session, a, act):
        if not a.data.get("mounted_on"):
            raise Illegal(f"{a.name} is not riding", "BAT-42")
        self._slot(session, a, "movement", "dismounting")
        m = session.state.actors[a.data["mounted_on"]]
        to = tuple(act["to"]) if act.get("to") else None
        if to is None:
            for dx, dy in DIRS8:
                p = (m.x + dx * (m.footprint if dx > 0 else 1), m.y + dy * (m.footprint if dy > 0 else 1), m.layer)
                if aerial.body_fits(session, a, *p) and not self._occupied(session, a, p) and (a.can_fly or aerial.is_supported(session, a, *p)):
                    to = p
                    break
        if to is None:
            raise Illegal(f"no free space beside {m.name} to dismount", "BAT-42", "to")
        if not aerial.body_fits(session, a, *to) or self._occupied(session, a, to):
            raise Illegal(f"{list(to)} is not free", "BAT-42", "to")
        from engine.world.geometry import cell_gap
        if cell_gap(a.body().moved(*to), m.body()) > 1 or abs(to[2] - m.layer) > 1:
            raise Illegal(f"{list(to)} is not beside {m.name}", "BAT-42", "to")
        if not a.can_fly and not aerial.is_supported(session, a, *to):
            raise Illegal(f"{list(to)} is in the air and {a.name} cannot fly", "AIR-01", "to")
        return {"to": to}

    def _apply_dismount(self, session, a, act, plan):
        m = session.state.actors[a.data["mounted_on"]]
        a.data["mounted_on"] = None
        m.data["rider"] = None
        a.x, a.y, a.layer = plan["to"]
        a.flying = a.can_fly and not aerial.is_supported(session, a)
        if self.combat(session):
            session.state.turn["move_used"] = True
        session.emit({"type": "dismount", "who": a.id, "mount": m.id, "to": list(plan["to"]), "rule": "BAT-42"})

    # -- attacks ---------------------------------------------------------------------------------------
    def _pick_weapon(self, a: Actor, name: str | None, key="weapon") -> dict:
        if name is None:
            return self.main_weapon(a)
        for w in a.data["weapons"]:
            if w["name"] == name:
                if name != "unarmed" and name not in a.data["equipped"] and a.data.get("pc", True) and self._hands_matter(a):
                    raise Illegal(f"{a.name} does not hold its {name} (equip it: a minor action)", "BAT-05", key)
                return w
        raise Illegal(f"{a.name} has no {name}; its weapons: {', '.join(w['name'] for w in a.data['weapons'])}", "BAT-12", key)

    def _hands_matter(self, a: Actor) -> bool:
        return True

    def _attack_plan(self, session, a: Actor, t: Actor, w: dict, key="target") -> dict:
        cell = session.world.cell_m
        if self.is_melee(w):
            if not self.in_reach(session, a, t, w):
                raise Illegal(f"{t.name} is not within reach of {a.name}'s {w['name']} "
                              f"({distance_m(a.body(), t.body(), cell):.1f} m away, {abs(a.layer - t.layer)} layers apart)",
                              "BAT-12", key)
            return {"melee": True}
        d = distance_m(a.body(), t.body(), cell)
        if d > w["range_m"] + 1e-9:
            raise Illegal(f"{t.name} is {d:.1f} m away; {a.name}'s {w['name']} reaches {w['range_m']:g} m", "BAT-12", key)
        c = self.cover(session, a, t)
        if c.level == "total":
            raise Illegal(f"{t.name} is behind total cover from {a.name}: a ranged attack needs line of sight", "BAT-41", key)
        return {"melee": False, "cover": c.level, "blocked_fraction": round(c.blocked_fraction, 4)}

    def _check_attack(self, session, a, act, charge=False):
        self._slot(session, a, "major", "charging" if charge else "attacking")
        t = self._target(session, a, act["target"])
        w = self._pick_weapon(a, act.get("weapon"))
        if charge:
            self._needs_movement(session, a, "charge")
            tt = session.state.turn
            if tt["last"] != "move":
                raise Illegal(f"a charge is an attack at the end of a move; {a.name} has not just moved", "BAT-35")
            if tt["straight_m"] < 3.0 - 1e-9:
                raise Illegal(f"{a.name} moved {tt['straight_m']:g} m in a straight line; a charge gains +1 damage per 3 m",
                              "BAT-35")
            if not self.is_melee(w):
                raise Illegal("a charge is a melee attack", "BAT-35", "weapon")
        plan = self._attack_plan(session, a, t, w)
        plan.update({"target": t.id, "weapon": w["name"]})
        if charge:
            plan["scale"] = int(session.state.turn["straight_m"] // 3.0 + 1e-9)
        return plan

    def _check_charge(self, session, a, act):
        return self._check_attack(session, a, act, charge=True)

    def _apply_attack(self, session, a, act, plan, charge=False):
        t = session.state.actors[plan["target"]]
        w = self._pick_weapon(a, plan["weapon"])
        self._use(session, "major", "charge" if charge else "attack")
        if self.combat(session):
            session.state.turn["last"] = "attack"
        self._resolve_attack(session, a, t, w, {"major": True, "scale": plan.get("scale", 0), "charge": charge,
                                                 "crit": act.get("crit", "damage"), "defence": act.get("defence")})

    def _apply_charge(self, session, a, act, plan):
        self._apply_attack(session, a, act, plan, charge=True)
        if not a.dead:
            self.add_condition(session, a, "exposed", "BAT-35", "until_next_turn")

    def attack_chances(self, session, a: Actor, t: Actor, w: dict, melee: bool) -> tuple[list, list]:
        pos, neg = [], []
        pos += self.exposed_to(session, t, a)                                    # BAT-59
        if self.unaware(session, t):
            pos.append(["sneak attack: unaware target", "BAT-37"])
        if a.data.get("mounted_on"):
            pos.append(["mounted: elevated position", "BAT-42"])                  # BAT-42 -> BAT-44
        elif not self.opt("air17_overrides_elevation") and a.layer - t.layer >= int(self.opt("elevation_layers")):
            pos.append(["elevated position", "BAT-44"])
        if self._outnumbered(session, a, t):
            pos.append(["numerical advantage", "BAT-45"])
        for o in session.state.data["opportunity"]:
            if o["target"] == t.id and o["side"] == a.side and not o.get("used"):
                pos.append(["opportunity created", "BAT-15"])
                break
        if not melee:
            c = self.cover(session, a, t)
            if c.level == "partial":
                neg.append(["partial cover", "BAT-40"])
        return pos, neg

    def _outnumbered(self, session, a: Actor, t: Actor) -> bool:
        for o in session.state.actors.values():
            if o.id in (a.id, t.id) or o.side == t.side or not self._able(o) or o.data.get("rider") and False:
                continue
            w = self.melee_weapon(o)
            if w is not None and self.in_reach(session, o, t, w):
                return True
        return False

    def defence_of(self, session, t: Actor, melee: bool, choice: str | None) -> tuple[str, int]:
        """BAT-14: Dodge against melee, Shield (with a shield) against any physical attack; creatures' Defence;
        a rider adds its mount's Defence (BAT-42)."""
        choice = choice or t.data["defence"] or "best"
        opts = []
        if melee:
            opts.append(("dodge", self.attr(t, "dodge")))
        if t.data["has_shield"]:
            opts.append(("shield", self.attr(t, "shield")))
        if "defence" in t.data["skills"]:
            opts.append(("defence", self.attr(t, "defence")))
        if choice == "none" or not opts:
            name, v = "none", 0
        elif choice == "best":
            name, v = max(opts, key=lambda o: o[1])
        else:
            got = [o for o in opts if o[0] == choice]
            name, v = got[0] if got else max(opts, key=lambda o: o[1])
        if t.data.get("mounted_on"):
            m = session.state.actors[t.data["mounted_on"]]
            v += self.attr(m, "defence")
            name += "+mount"
        return name, max(0, v)

    def _resolve_attack(self, session, a: Actor, t: Actor, w: dict, ctx: dict) -> dict | None:
        """One attack (BAT-12): the test, the damage with the scale, criticals, sneak attacks, two weapons, the
        fall roll of a flyer hit (AIR-11), the counterattack (BAT-13)."""
        if a.dead or t.dead:
            return None
        melee = self.is_melee(w)
        counter = ctx.get("counter", False)
        rule = ctx.get("rule", "BAT-12")
        pos, neg = self.attack_chances(session, a, t, w, melee)
        sneak = self.unaware(session, t)
        helpless = t.has("helpless")
        dname, dval = self.defence_of(session, t, melee, ctx.get("defence"))
        difficulty = int(self.opt("base_difficulty")) + dval
        if sneak and not melee:
            difficulty, dname = 7, "none (sneak attack)"                          # BAT-37 ranged
        skill, lv = self.weapon_skill(a, w)
        if helpless:                                                               # BAT-37 totally helpless
            ev = {"success": True, "critical": True, "kept": 12, "total": 12 + lv, "level": 1, "auto": True}
            session.emit({"type": "test", "who": a.id, "skill": skill, "auto": True, "success": True,
                          "critical": True, "rule": "BAT-37", "purpose": "attack against a helpless target",
                          "difficulty": difficulty})
            if ctx.get("major") and self.combat(session) and session.state.turn.get("test_die") is None:
                pass    # no die rolled: the side loses the initiative (BAT-09)
        else:
            ev = self._test(session, a, skill, difficulty, rule, f"attack {t.id} with {w['name']}", pos, neg,
                            major=ctx.get("major", False), attack=True, level=lv)
        cov = self.cover(session, a, t).level if not melee else "none"
        rules = sorted({r for _, r in pos + neg} | {rule})
        session.emit({"type": "attack", "who": a.id, "target": t.id, "weapon": w["name"], "melee": melee,
                      "counter": counter, "defence": dname, "difficulty": difficulty, "hit": bool(ev["success"]),
                      "critical": bool(ev["critical"]), "roll": ev["kept"], "bonus": lv, "total": ev["total"],
                      "ac": difficulty, "cover": cov, "cover_bonus": 0, "level": ev["level"],
                      "advantage": [p[0] for p in pos], "disadvantage": [n[0] for n in neg] if helpless else
                      [n[0] for n in neg + self.negatives(a, skill, True)], "rules": rules, "rule": rule})
        for o in session.state.data["opportunity"]:
            if o["target"] == t.id and o["side"] == a.side and not o.get("used"):
                o["used"] = True
                break
        second = None
        eq = self.equipped(a)
        if not counter and len(eq) == 2 and all(x["name"] != "shield" for x in eq) and w is eq[0]:
            second = eq[1]                                                        # BAT-43
            if any(x["size"] in ("medium", "large") for x in eq):
                self.add_condition(session, a, "exposed", "BAT-43", "until_next_turn")
        if not ev["success"]:
            session.emit({"type": "miss", "who": a.id, "target": t.id, "rule": rule})
        else:
            expr = bd.shift(w["damage"], int(ctx.get("scale", 0)), self.opt("damage_scale"))
            rolls = session.roll("damage", *self._dice(expr), who=a.id, rule=rule, purpose=f"{w['name']} damage") \
                if bd.parse(expr)[0] and not helpless else []
            n, sides, bonus = bd.parse(expr)
            base = sum(rolls) + bonus
            crit = ev["critical"] or sneak or helpless or (t.data["undead"] and w.get("type") == "divine")
            why_crit = "critical success" if ev["critical"] else ("sneak attack" if sneak else ("helpless" if helpless else "divine vs undead"))
            if helpless:
                base = bd.maximum(expr)
            extra = 0
            if crit:
                pc = a.data["pc"]
                if pc and ctx.get("crit") == "destiny" and ev["critical"] and not sneak and not helpless:
                    d = session.state.data["destiny"]
                    d[a.side] = d.get(a.side, 0) + 1
                    session.emit({"type": "destiny", "side": a.side, "who": a.id, "points": d[a.side], "rule": "BAT-36"})
                else:
                    extra = bd.maximum(expr)                                      # BAT-36
            phys = a.data["attributes"].get("physique", 0) if (self.opt("physique_bonus") and w["size"] in ("medium", "large")) else 0
            sec = 0
            if second is not None:
                (sn, ss, sb) = bd.parse(second["damage"])
                srolls = session.roll("damage", ss, sn, who=a.id, rule="BAT-43", purpose=f"second weapon {second['name']}") if sn else []
                sec = sum(srolls) + sb
            total = max(0, base + extra + phys + sec)
            session.emit({"type": "hit", "who": a.id, "target": t.id, "damage": total, "dice": expr, "rolled": base,
                          "critical_extra": extra, "physique_bonus": phys, "second_weapon": sec,
                          "scale_steps": int(ctx.get("scale", 0)), "critical": crit,
                          **({"critical_why": why_crit} if crit else {}), "rule": rule})
            was_flying = t.flying
            self.apply_damage(session, t, total, w.get("type", "blunt"), a.id, rule, critical=crit)
            if was_flying and t.flying and not t.dead:
                aerial.fall_roll(session, t)                                      # AIR-11: a successful attack
        # BAT-13: a counterattack never triggers another
        if (not counter and not t.dead and not a.dead and t.data["counterattack"] and self._able(t)
                and not t.has("paralyzed")):
            tw = self.melee_weapon(t)
            if tw is not None and self.in_reach(session, t, a, tw):
                session.emit({"type": "counterattack", "who": t.id, "target": a.id, "rule": "BAT-13"})
                self._resolve_attack(session, t, a, tw, {"counter": True, "rule": "BAT-13"})
        return ev

    def _dice(self, expr):
        n, sides, _ = bd.parse(expr)
        return sides, n

    # -- other major actions ------------------------------------------------------------------------------
    def _check_create_opportunity(self, session, a, act):
        self._slot(session, a, "major", "creating an opportunity")
        if act.get("effect") in ("expose", "shake", "advantage") and act.get("effect") != "advantage" and not act.get("target"):
            raise Illegal("name the target of the effect", "BAT-15", "target")
        if act.get("target"):
            self._target(session, a, act["target"])
        if not 2 <= act["difficulty"] <= 30:
            raise Illegal("a difficulty between 2 and 30", "BAT-15", "difficulty")
        return {}

    def _apply_create_opportunity(self, session, a, act, plan):
        self._use(session, "major", "create opportunity")
        ev = self._test(session, a, act["skill"], act["difficulty"], "BAT-15", f"create an opportunity ({act['effect']})",
                        major=True)
        if not ev["success"]:
            return
        tid = act.get("target")
        eff = act["effect"]
        if eff == "advantage" and tid:
            session.state.data["opportunity"].append({"target": tid, "side": a.side, "by": a.id})
            session.emit({"type": "opportunity", "who": a.id, "target": tid, "effect": "next attack by an ally gets a positive chance", "rule": "BAT-15"})
        elif eff == "expose":
            self.add_condition(session, session.state.actors[tid], "exposed", "BAT-15", "until_next_turn")
        elif eff == "shake":
            self.add_condition(session, session.state.actors[tid], "shaken", "BAT-15", "until_next_turn")

    def _check_disarm(self, session, a, act):
        self._slot(session, a, "major", "disarming")
        t = self._target(session, a, act["target"])
        w = self._pick_weapon(a, act.get("weapon"))
        if not self.is_melee(w):
            raise Illegal("disarming takes a melee weapon", "BAT-32", "weapon")
        self._attack_plan(session, a, t, w)
        held = [x for x in self.equipped(t) if x["name"] not in ("unarmed",)]
        natural = {"claws", "talons", "bite"}
        held = [x for x in held if x["name"] not in natural]
        if not held:
            raise Illegal(f"{t.name} holds no weapon", "BAT-32", "target")
        return {"target": t.id, "weapon": w["name"], "theirs": held[0]["name"]}

    def _apply_disarm(self, session, a, act, plan):
        self._use(session, "major", "disarm")
        t = session.state.actors[plan["target"]]
        w = self._pick_weapon(a, plan["weapon"])
        theirs = next(x for x in t.data["weapons"] if x["name"] == plan["theirs"])
        skill, lv = self.weapon_skill(a, w)
        _, tv = self.weapon_skill(t, theirs)
        ev = self._test(session, a, skill, 7 + tv, "BAT-32", f"disarm {t.id}", major=True, attack=True, level=lv)
        if not ev["success"]:
            return
        (k,) = session.roll("direction", 8, who=a.id, rule="BAT-32", purpose="where the weapon lands")
        dx, dy = DIRS8[k - 1]
        X, Y, Z = session.world.size
        x, y = t.x, t.y
        for _ in range(ev["level"]):
            nx, ny = x + dx, y + dy
            if not (0 <= nx < X and 0 <= ny < Y) or session.world.is_solid(nx, ny, max(t.layer, 0)):
                break
            x, y = nx, ny
        z = session.world.support_layer(x, y, t.layer)
        t.data["equipped"] = [e for e in t.data["equipped"] if e != theirs["name"]]
        t.data["weapons"] = [x_ for x_ in t.data["weapons"] if x_ is not theirs]
        item = {"name": theirs["name"], "weapon": theirs, "at": [x, y, z]}
        session.state.data["ground_items"].append(item)
        session.emit({"type": "disarmed", "who": t.id, "by": a.id, "weapon": theirs["name"], "lands": [x, y, z],
                      "direction": [dx, dy], "cells": max(abs(x - t.x), abs(y - t.y)), "rule": "BAT-32"})

    def _check_dash(self, session, a, act):
        self._slot(session, a, "major", "dashing")
        self._needs_movement(session, a, "dash")
        body = self._body(session, a)
        left = self.movement_left(session, body, body.flying)
        if left >= session.world.cell_m - 1e-9:
            raise Illegal(f"{a.name} still has {left:g} m of movement: dash after using all of it", "BAT-33")
        return {}

    def _apply_dash(self, session, a, act, plan):
        self._use(session, "major", "dash")
        skill, _ = self.best(a, "athletics", "agility")
        ev = self._test(session, a, skill, 8, "BAT-33", "dash beyond its movement", major=True)
        if ev["success"]:
            m = 1.5 * ev["level"]
            session.state.turn["extra_m"] += m
            session.emit({"type": "dash", "who": a.id, "extra_m": m, "rule": "BAT-33"})
        else:
            self.add_condition(session, a, "exposed", "BAT-33", "until_next_turn")

    def _check_grab(self, session, a, act):
        self._slot(session, a, "major", act["action"])
        t = self._target(session, a, act["target"])
        if not self.in_reach(session, a, t, {"reach_m": a.data["reach_m"]}):
            raise Illegal(f"{t.name} is not within reach", "BAT-34", "target")
        if act["action"] == "grab" and a.id in t.conditions.get("grappled", []):
            raise Illegal(f"{a.name} already grapples {t.name}", "BAT-34", "target")
        return {"target": t.id}

    _check_trip = _check_grab
    _check_push = _check_grab

    def _manoeuvre(self, session, a, t, what) -> dict:
        self._use(session, "major", what)
        skill, _ = self.best(a, "physique", "fight_unarmed")
        _, dv = self.best(t, "physique", "fight_unarmed", "dodge")
        return self._test(session, a, skill, 7 + dv, "BAT-34", f"{what} {t.id}", major=True)

    def _apply_grab(self, session, a, act, plan):
        t = session.state.actors[plan["target"]]
        ev = self._manoeuvre(session, a, t, "grab")
        if not ev["success"]:
            return
        self.add_condition(session, t, "grappled", "BAT-54", a.id)
        self.add_condition(session, a, "grappling", "BAT-55", t.id)
        c = self.size_cmp(a, t)
        if c == 0:
            self.add_condition(session, t, "overloaded", "BAT-54", f"grab:{a.id}")
            self.add_condition(session, a, "overloaded", "BAT-55", f"grab:{t.id}")
        elif c > 0:
            self.add_condition(session, t, "stuck", "BAT-54", f"grab:{a.id}")
        aerial.check_grounded(session, t)

    def _apply_trip(self, session, a, act, plan):
        t = session.state.actors[plan["target"]]
        ev = self._manoeuvre(session, a, t, "trip")
        if ev["success"]:
            self.knock_prone(session, t, "BAT-34")

    def _apply_push(self, session, a, act, plan):
        t = session.state.actors[plan["target"]]
        ev = self._manoeuvre(session, a, t, "push")
        if not ev["success"]:
            return
        cells = ev["level"] // 2
        if t.data.get("mounted_on") and cells:
            self._throw_rider(session, t, "pushed off its mount")          # BAT-42 "derrubado"
            return
        dx = (t.x > a.x) - (t.x < a.x)
        dy = (t.y > a.y) - (t.y < a.y)
        if dx == dy == 0:
            dx = 1
        moved = 0
        for _ in range(cells):
            nx, ny = t.x + dx, t.y + dy
            if not aerial.body_fits(session, t, nx, ny, t.layer) or self._occupied(session, t, (nx, ny, t.layer)):
                break
            t.x, t.y = nx, ny
            moved += 1
        aerial._carry_rider(session, t)
        session.emit({"type": "pushed", "who": t.id, "by": a.id, "cells": moved, "metres": moved * session.world.cell_m,
                      "to": list(t.pos), "rule": "BAT-34"})
        if not t.flying and not aerial.is_supported(session, t):
            t.flying = True
            aerial.fall(session, t, None, "BAT-34", "pushed off the edge")

    def _check_break_free(self, session, a, act):
        self._slot(session, a, "major", "breaking free")
        if not a.has("grappled") and not a.has("stuck"):
            raise Illegal(f"{a.name} is neither grappled nor stuck", "BAT-63")
        return {}

    def _apply_break_free(self, session, a, act, plan):
        self._use(session, "major", "break free")
        st = session.state
        if a.has("grappled"):
            g = st.actors[a.conditions["grappled"][0]]
            _, gv = self.best(g, "physique", "fight_unarmed")
            ev = self._test(session, a, "physique", 7 + gv, "BAT-34", f"break free of {g.id}", major=True)
            if ev["success"]:
                self._release(session, g, a)
        else:
            diff = int(a.data.get("stuck_difficulty", 8))
            skill, _ = self.best(a, "physique", "athletics")
            ev = self._test(session, a, skill, diff, "BAT-63", "break free", major=True)
            if ev["success"]:
                a.conditions.pop("stuck", None)
                session.emit({"type": "condition", "who": a.id, "condition": "stuck", "added": False, "rule": "BAT-63"})

    def _check_resist_poison(self, session, a, act):
        self._slot(session, a, "major", "resisting the poison")
        if not self._poison_effect(session, a):
            raise Illegal(f"{a.name} suffers no lasting poison", "BAT-53")
        return {}

    def _poison_effect(self, session, a):
        return next((e for e in session.state.data["effects"] if e["target"] == a.id and e["kind"] in ("inoculant", "neurotoxic")), None)

    def _apply_resist_poison(self, session, a, act, plan):
        self._use(session, "major", "resist poison")
        ef = self._poison_effect(session, a)
        ev = self._test(session, a, "physique", 7 + ef["potency"], "BAT-53", f"resist the {ef['kind']} poison", major=True)
        if ev["success"]:
            self._end_effect(session, a, ef, "resisted")
            session.state.data["effects"] = [e for e in session.state.data["effects"] if not e.get("ended")]

    def _check_extinguish(self, session, a, act):
        self._slot(session, a, "major", "putting out the fire")
        if not any(e["target"] == a.id and e["kind"] == "burning" for e in session.state.data["effects"]):
            raise Illegal(f"{a.name} is not burning", "BAT-50")
        return {}

    def _apply_extinguish(self, session, a, act, plan):
        self._use(session, "major", "extinguish")
        for e in session.state.data["effects"]:
            if e["target"] == a.id and e["kind"] == "burning":
                self._end_effect(session, a, e, "put out")
        session.state.data["effects"] = [e for e in session.state.data["effects"] if not e.get("ended")]

    def _check_take_item(self, session, a, act):
        slot = "major" if act["from"] == "backpack" else "minor"
        self._slot(session, a, slot, f"taking an item from the {act['from']}")
        if a.data["items"].get(act["item"], 0) <= 0:
            raise Illegal(f"{a.name} carries no {act['item']}", "BAT-04" if slot == "major" else "BAT-05", "item")
        return {"slot": slot}

    def _apply_take_item(self, session, a, act, plan):
        self._use(session, plan["slot"], f"take {act['item']}")
        a.data.setdefault("in_hand", [])
        session.emit({"type": "take_item", "who": a.id, "item": act["item"], "from": act["from"],
                      "rule": "BAT-04" if plan["slot"] == "major" else "BAT-05"})

    def _check_use_power(self, session, a, act):
        slot = "major" if act["kind"] == "ring" else "minor"
        self._slot(session, a, slot, f"activating a {act['kind']}")
        return {"slot": slot}

    def _apply_use_power(self, session, a, act, plan):
        self._use(session, plan["slot"], act["kind"])
        session.emit({"type": "use_power", "who": a.id, "kind": act["kind"], "target": act.get("target"),
                      "rule": "BAT-04" if plan["slot"] == "major" else "BAT-05",
                      "note": "the effect is the table's: the document gives no powers"})

    # -- minor actions ---------------------------------------------------------------------------------
    def _check_equip(self, session, a, act):
        self._slot(session, a, "minor", "equipping a weapon")
        name = act["weapon"]
        if name != "shield" and not any(w["name"] == name for w in a.data["weapons"]):
            raise Illegal(f"{a.name} has no {name}", "BAT-05", "weapon")
        if name in a.data["equipped"]:
            raise Illegal(f"{a.name} already holds its {name}", "BAT-05", "weapon")
        return {}

    def _apply_equip(self, session, a, act, plan):
        self._use(session, "minor", "equip")
        eq = [e for e in a.data["equipped"] if e != "unarmed"]
        if act["hand"] == "main":
            eq = [act["weapon"]] + eq[1:2]
        else:
            eq = (eq[:1] or ["unarmed"]) + [act["weapon"]]
        a.data["equipped"] = eq
        session.emit({"type": "equip", "who": a.id, "weapon": act["weapon"], "hand": act["hand"], "rule": "BAT-05"})

    def _check_stow(self, session, a, act):
        self._slot(session, a, "minor", "stowing a weapon")
        if act["weapon"] not in a.data["equipped"]:
            raise Illegal(f"{a.name} does not hold a {act['weapon']}", "BAT-05", "weapon")
        return {}

    def _apply_stow(self, session, a, act, plan):
        self._use(session, "minor", "stow")
        a.data["equipped"] = [e for e in a.data["equipped"] if e != act["weapon"]]
        session.emit({"type": "stow", "who": a.id, "weapon": act["weapon"], "rule": "BAT-05"})

    def _check_drop_item(self, session, a, act):
        self._slot(session, a, "minor", "dropping an item")
        if act["item"] not in a.data["equipped"]:
            raise Illegal(f"{a.name} holds no {act['item']}", "BAT-05", "item")
        return {}

    def _apply_drop_item(self, session, a, act, plan):
        self._use(session, "minor", "drop item")
        w = next(x for x in a.data["weapons"] if x["name"] == act["item"])
        a.data["equipped"] = [e for e in a.data["equipped"] if e != act["item"]]
        a.data["weapons"] = [x for x in a.data["weapons"] if x is not w]
        z = session.world.support_layer(a.x, a.y, a.layer)
        session.state.data["ground_items"].append({"name": w["name"], "weapon": w, "at": [a.x, a.y, z]})
        session.emit({"type": "drop_item", "who": a.id, "item": w["name"], "at": [a.x, a.y, z], "rule": "BAT-05"})

    def _ground_item(self, session, a, name):
        from engine.world.geometry import Body, cell_gap
        for i, it in enumerate(session.state.data["ground_items"]):
            if it["name"] == name and cell_gap(a.body(), Body(it["at"][0], it["at"][1], it["at"][2], 1, 1, 0.5)) <= 1 \
                    and abs(it["at"][2] - a.layer) <= 1:
                return i
        return None

    def _check_pick_up(self, session, a, act):
        self._slot(session, a, "minor", "picking up an item")
        if self._ground_item(session, a, act["item"]) is None:
            raise Illegal(f"no {act['item']} on the ground within reach of {a.name}", "BAT-05", "item")
        return {}

    def _apply_pick_up(self, session, a, act, plan):
        self._use(session, "minor", "pick up")
        i = self._ground_item(session, a, act["item"])
        it = session.state.data["ground_items"].pop(i)
        a.data["weapons"].insert(0, it["weapon"])
        a.data["equipped"] = [it["name"]] + [e for e in a.data["equipped"] if e != "unarmed"][:1]
        session.emit({"type": "pick_up", "who": a.id, "item": it["name"], "rule": "BAT-05"})

    def _check_drink(self, session, a, act):
        self._slot(session, a, "minor", "drinking a potion")
        p = act["potion"]
        if p not in POTIONS:
            raise Illegal(f"unknown potion {p!r}; one of {', '.join(POTIONS)}", "BAT-05", "potion")
        if a.data["items"].get(f"potion_{p}", 0) <= 0:
            raise Illegal(f"{a.name} has no potion_{p}", "BAT-05", "potion")
        return {}

    def _apply_drink(self, session, a, act, plan):
        self._use(session, "minor", "drink")
        p = act["potion"]
        a.data["items"][f"potion_{p}"] -= 1
        eff = POTIONS[p]
        session.emit({"type": "drink", "who": a.id, "potion": p, "rule": "BAT-05"})
        if "heal_wound" in eff and a.data["wounds"]:
            n, s, b = bd.parse(eff["heal_wound"])
            r = sum(session.roll("heal", s, n, who=a.id, rule="BAT-51", purpose="healing potion")) + b
            w = max(a.data["wounds"], key=lambda w: (w["severity"], -w["id"]))
            w["severity"] -= r
            session.emit({"type": "wound_healed", "who": a.id, "wound": w["id"], "by": r, "magical": True, "rule": "BAT-51"})
            a.data["wounds"] = [x for x in a.data["wounds"] if x["severity"] > 0]
            self._sync_life(a)
        if "vigor" in eff:
            n, s, b = bd.parse(eff["vigor"])
            r = sum(session.roll("heal", s, n, who=a.id, rule="BAT-20", purpose="vigor potion")) + b
            a.data["vigor"] = min(a.data["max_vigor"], a.data["vigor"] + r)
        if eff.get("cure_poison"):
            for e in session.state.data["effects"]:
                if e["target"] == a.id and e["kind"] in POISONS:
                    self._end_effect(session, a, e, "antidote")
            session.state.data["effects"] = [e for e in session.state.data["effects"] if not e.get("ended")]

    def _check_shout(self, session, a, act):
        self._slot(session, a, "minor", "shouting a command")
        return {}

    def _apply_shout(self, session, a, act, plan):
        self._use(session, "minor", "shout")
        session.emit({"type": "shout", "who": a.id, "text": act.get("text", ""), "rule": "BAT-05"})

    # -- out of combat: rest, treatment, days ---------------------------------------------------------
    def _check_rest(self, session, a, act):
        d = session.state.data
        if act["kind"] == "short":
            period = d["hour"] // 6
            if a.data["short_rest_period"] == period:
                raise Illegal(f"{a.name} has already rested this period of the day", "BAT-30")
            if act.get("wound") is not None:
                raise Illegal("a wound is recovered during a long rest", "BAT-28", "wound")
            return {}
        day = d["hour"] // 24
        if a.data["long_rest_day"] == day:
            raise Illegal(f"{a.name} has already had its long rest today", "BAT-31")
        wi = act.get("wound")
        if wi is not None:
            w = self._wound(a, wi)
            if w["necrotic"]:
                raise Illegal(f"wound {wi} is necrotic: it never recovers naturally (magic only)", "BAT-51", "wound")
        return {}

    def _wound(self, a: Actor, wid: int, key="wound") -> dict:
        w = next((w for w in a.data["wounds"] if w["id"] == wid), None)
        if w is None:
            ids = ", ".join(str(w["id"]) for w in a.data["wounds"]) or "none"
            raise Illegal(f"{a.name} has no wound {wid} (its wounds: {ids})", "BAT-26", key)
        return w

    def _apply_rest(self, session, a, act, plan):
        d = session.state.data
        if act["kind"] == "short":
            a.data["short_rest_period"] = d["hour"] // 6
            (r,) = session.roll("rest", 6, who=a.id, rule="BAT-30", purpose="short rest")
            gain = max(0, r + a.data["attributes"].get("physique", 0))
            before = a.data["vigor"]
            a.data["vigor"] = min(a.data["max_vigor"], a.data["vigor"] + gain)
            session.emit({"type": "rest", "who": a.id, "kind": "short", "vigor": a.data["vigor"],
                          "gained": a.data["vigor"] - before, "rule": "BAT-30"})
            return
        a.data["long_rest_day"] = d["hour"] // 24
        a.data["vigor"] = a.data["max_vigor"]
        session.emit({"type": "rest", "who": a.id, "kind": "long", "vigor": a.data["vigor"], "rule": "BAT-31"})
        if act.get("wound") is not None:
            w = self._wound(a, act["wound"])
            ev = self._test(session, a, "physique", 7 + w["severity"], "BAT-28", f"recover wound {w['id']}")
            w["recovery"] = "success" if ev["success"] else "failure"

    def _check_treat(self, session, a, act):
        t = session.actor(act["target"], "target")
        if t.dead:
            raise Illegal(f"{t.name} is dead", "BAT-25", "target")
        from engine.world.geometry import cell_gap
        if t.id != a.id and (cell_gap(a.body(), t.body()) > 1 or abs(a.layer - t.layer) > 1):
            raise Illegal(f"{t.name} is not beside {a.name}", "BAT-29", "target")
        w = self._wound(t, act["wound"])
        if w["necrotic"]:
            raise Illegal("a necrotic wound needs magic, not a bandage", "BAT-51", "wound")
        if w["treated"]:
            raise Illegal(f"wound {w['id']} is already treated", "BAT-29", "wound")
        need = "splint" if w["type"] in ("blunt", "falling") else "bandage"
        kit = act.get("kit") or need
        if kit != need:
            raise Illegal(f"a {w['type']} wound needs a {need}, not a {kit}", "BAT-29", "kit")
        if a.data["items"].get(kit, 0) <= 0:
            raise Illegal(f"{a.name} has no {kit}", "BAT-29", "kit")
        return {"kit": kit}

    def _apply_treat(self, session, a, act, plan):
        t = session.state.actors[act["target"]]
        w = self._wound(t, act["wound"])
        a.data["items"][plan["kit"]] -= 1
        ev = self._test(session, a, "treat_wounds", 7 + w["severity"], "BAT-29", f"treat wound {w['id']} of {t.id}")
        if ev["success"]:
            w["treated"] = True
        session.emit({"type": "treat", "who": a.id, "target": t.id, "wound": w["id"], "kit": plan["kit"],
                      "success": ev["success"], "rule": "BAT-29"})

    def _check_wait(self, session, a, act):
        if self.combat(session):
            raise Illegal("time does not pass in hours during combat", "BAT-10")
        if not 1 <= act["hours"] <= 72:
            raise Illegal("1 to 72 hours", "", "hours")
        return {}

    def _apply_wait(self, session, a, act, plan):
        d = session.state.data
        for _ in range(act["hours"]):
            d["hour"] += 1
            self._hourly(session)
        session.emit({"type": "time", "hour": d["hour"], "day": d["hour"] // 24, "period": (d["hour"] % 24) // 6})

    def _hourly(self, session) -> None:
        st = session.state
        h = st.data["hour"]
        for ef in st.data["effects"]:
            if ef.get("per") != "hour" or ef.get("ended"):
                continue
            t = st.actors[ef["target"]]
            if h >= ef["at_hour"]:
                if ef["kind"] == "latent" and not t.dead:                  # BAT-53
                    n, s, b = bd.parse(ef["dice"])
                    r = sum(session.roll("poison", s, n, who=t.id, rule="BAT-53", purpose="latent poison")) + b
                    self.apply_damage(session, t, r, "latent", None, "BAT-53")
                self._end_effect(session, t, ef, "its hours have passed")
        st.data["effects"] = [e for e in st.data["effects"] if not e.get("ended")]

    def _check_day(self, session, a, act):
        if self.combat(session):
            raise Illegal("days do not pass during combat", "BAT-27")
        if not 1 <= act["days"] <= 30:
            raise Illegal("1 to 30 days", "", "days")
        return {}

    def _apply_day(self, session, a, act, plan):
        """BAT-27/28/29: at the end of each day light wounds stay, moderate +1, grave +2; a treated wound evolves
        as one category lower; the long rest's recovery test replaces the change."""
        st = session.state
        for _ in range(act["days"]):
            for t in st.actors.values():
                if t.dead:
                    continue
                for w in t.data["wounds"]:
                    cat = w["category"]
                    evolve = cat
                    if w["treated"]:
                        evolve = {"grave": "moderate", "moderate": "light", "light": "light"}[cat]
                    rec = w.get("recovery")
                    if rec == "success":
                        delta = {"light": -1, "moderate": -1, "grave": 0}[evolve]
                    else:
                        delta = {"light": 0, "moderate": 1, "grave": 2}[evolve]
                    w["recovery"] = None
                    if delta:
                        w["severity"] += delta
                    session.emit({"type": "wound_day", "who": t.id, "wound": w["id"], "category": cat,
                                  "evolves_as": evolve, "recovered": rec == "success", "change": delta,
                                  "severity": w["severity"], "rule": "BAT-28" if rec else "BAT-27"})
                t.data["wounds"] = [w for w in t.data["wounds"] if w["severity"] > 0]
                self._sync_life(t)
                self._maybe_die(session, t, "BAT-27")
            d = st.data
            d["hour"] = (d["hour"] // 24 + 1) * 24 + 8
            self._hourly(session)
            session.emit({"type": "day", "day": d["hour"] // 24, "rule": "BAT-27"})

    # -- the game master's tools ------------------------------------------------------------------------
    def _check_gm(self, session, act):
        t = session.actor(act["target"], "target")
        k = act["action"]
        if t.dead:
            raise Illegal(f"{t.name} is dead", "BAT-25", "target")
        if k == "condition":
            if not act.get("add") and not act.get("remove"):
                raise Illegal("give add = NAME or remove = NAME", "", "add")
            for key in ("add", "remove"):
                c = act.get(key)
                if c and c not in CONDITIONS:
                    raise Illegal(f"unknown condition {c!r}; one of {', '.join(sorted(CONDITIONS))}", "", key)
        elif k == "damage":
            if act["amount"] < 0:
                raise Illegal("amount must not be negative", "", "amount")
        elif k == "poison":
            if not 0 <= act["potency"] <= 20:
                raise Illegal("potency 0..20", "BAT-53", "potency")
        elif k == "fire":
            src = dict(FIRE_SOURCES)
            src.update({k2: tuple(v) for k2, v in (self.opt("fire_sources") or {}).items()})
            if act["source"] not in src:
                raise Illegal(f"unknown heat source {act['source']!r}; one of {', '.join(sorted(src))}", "BAT-50", "source")
            return {"fire": src[act["source"]]}
        elif k == "breath":
            if not 0 <= act["minutes"] <= 600:
                raise Illegal("0..600 minutes", "BAT-49", "minutes")
        return {}

    def _apply_gm(self, session, act, plan):
        st = session.state
        t = st.actors[act["target"]]
        k = act["action"]
        if k == "damage":
            typ = act.get("type", "blunt")
            rule = {"necrotic": "BAT-51", "divine": "BAT-52", "fatigue": "BAT-21"}.get(typ, "BAT-23")
            amount = act["amount"]
            if typ == "divine" and t.data["undead"]:
                session.emit({"type": "critical", "who": t.id, "why": "divine damage against undead", "rule": "BAT-52"})
            self.apply_damage(session, t, amount, typ, "gm", rule)
        elif k == "condition":
            if act.get("add"):
                c = act["add"]
                if act.get("turns"):
                    self._add_effect(session, t, c, "turn", turns=act["turns"], conditions=[c])
                else:
                    self.add_condition(session, t, c, CONDITIONS[c])
            if act.get("remove"):
                c = act["remove"]
                t.conditions.pop(c, None)
                session.emit({"type": "condition", "who": t.id, "condition": c, "added": False, "rule": CONDITIONS[c]})
        elif k == "poison":
            self._poison(session, t, act["kind"], act["potency"])
        elif k == "fire":
            base, growth = plan["fire"]
            self.apply_damage(session, t, base, "fire", "gm", "BAT-50")
            w = t.data["wounds"][-1] if t.data["wounds"] and t.data["wounds"][-1]["type"] == "fire" else None
            if w is not None and not t.dead:
                self._add_effect(session, t, "burning", "turn", turns=act.get("turns"), wound=w["id"], growth=growth,
                                 source=act["source"])
        elif k == "breath":
            phys = max(0, t.data["attributes"].get("physique", 0))
            before = t.data["breath_min"]
            t.data["breath_min"] = before + act["minutes"]
            over = max(0, t.data["breath_min"] - max(before, phys))
            session.emit({"type": "breath", "who": t.id, "minutes": t.data["breath_min"], "can_hold": phys, "rule": "BAT-49"})
            for _ in range(over):
                if t.dead:
                    break
                (r,) = session.roll("breath", 6, who=t.id, rule="BAT-49", purpose="a minute without air")
                self.apply_damage(session, t, r, "fatigue", None, "BAT-49")
            if act["minutes"] == 0:
                t.data["breath_min"] = 0

    def _poison(self, session, t: Actor, kind: str, potency: int) -> None:
        """BAT-53: Physique against 7 + potency; success = the partial effect, failure = the total."""
        ev = self._test(session, t, "physique", 7 + potency, "BAT-53", f"resist a {kind} poison")
        total = not ev["success"]
        session.emit({"type": "poisoned", "who": t.id, "kind": kind, "effect": "total" if total else "partial", "rule": "BAT-53"})
        d = session.state.data

        def roll(expr, purpose):
            n, s, b = bd.parse(expr)
            return sum(session.roll("poison", s, n, who=t.id, rule="BAT-53", purpose=purpose)) + b

        if kind == "hallucinogenic":
            (h,) = session.roll("poison_hours", 3, who=t.id, rule="BAT-53", purpose="hours")
            conds = ["hallucinating"] + (["confused"] if total else [])
            self._add_effect(session, t, kind, "hour", at_hour=d["hour"] + h, conditions=conds, potency=potency)
        elif kind == "caustic":
            self.apply_damage(session, t, roll("2d6" if total else "2d3", "caustic poison"), "caustic", None, "BAT-53")
        elif kind == "inoculant":
            self.apply_damage(session, t, roll("1d6", "inoculant poison"), "fatigue", None, "BAT-53")
            if total and not t.dead:
                self._add_effect(session, t, kind, "turn", potency=potency)
        elif kind == "neurotoxic":
            self._add_effect(session, t, kind, "turn", potency=potency, conditions=["paralyzed" if total else "slow"])
        elif kind == "latent":
            (h,) = session.roll("poison_hours", 6, who=t.id, rule="BAT-53", purpose="hours before it strikes")
            self._add_effect(session, t, kind, "hour", at_hour=d["hour"] + h, dice="2d6" if total else "2d3", potency=potency)

    # ================================================================================ menus and previews
    def legal_actions(self, session, a: Actor) -> list[dict]:
        st = session.state
        out = []
        cands = []
        if not self.combat(session):
            cands += [{"actor": a.id, "action": "rest", "kind": "short"}, {"actor": a.id, "action": "rest", "kind": "long"}]
            for w in a.data["wounds"]:
                cands.append({"actor": a.id, "action": "treat", "target": a.id, "wound": w["id"]})
            cands += [{"actor": a.id, "action": "wait", "hours": 1}, {"actor": a.id, "action": "day"}]
        else:
            h = self.holder(session)
            if h is None or a.id != h.id:
                return []
            ids, _, _ = self.pass_targets(session, a)
            for i in ids:
                cands.append({"actor": a.id, "action": "pass", "to": i})
            body = self._body(session, a)
            if self.can_move(session, body)[0]:
                fly = body.can_fly and not body.has("prone")
                left = self.movement_left(session, body, fly)
                if left > 0 and not a.has("confused"):
                    r = aerial.reach(session, body, budget_m=left, fly=fly)
                    dests = r.destinations()
                    step = max(1, len(dests) // 10)
                    for dd in dests[::step]:
                        cands.append({"actor": a.id, "action": "move", "to": list(dd)})
                    if dests:
                        cands.append({"actor": a.id, "action": "move", "to": list(dests[-1]), "careful": True})
            foes = [o for o in st.actors.values() if o.side != a.side and self._able(o)]
            actors = [a] + ([st.actors[a.data["mounted_on"]]] if a.data.get("mounted_on") else [])
            for who in actors:
                for t in foes:
                    for w in self.equipped(who) or [self.main_weapon(who)]:
                        cands.append({"actor": who.id, "action": "attack", "target": t.id, "weapon": w["name"]})
                        cands.append({"actor": who.id, "action": "charge", "target": t.id, "weapon": w["name"]})
            for t in foes:
                for k in ("grab", "trip", "push", "disarm"):
                    cands.append({"actor": a.id, "action": k, "target": t.id})
                cands.append({"actor": a.id, "action": "create_opportunity", "skill": "intimidate", "target": t.id,
                              "effect": "shake"})
            cands += [{"actor": a.id, "action": k} for k in ("stand", "dash", "break_free", "resist_poison", "extinguish",
                                                              "dismount", "drop")]
            cands.append({"actor": a.id, "action": "shout"})
            for w in a.data["weapons"]:
                cands.append({"actor": a.id, "action": "equip", "weapon": w["name"]})
            for p in POTIONS:
                cands.append({"actor": a.id, "action": "drink", "potion": p})
            for it in st.data["ground_items"]:
                cands.append({"actor": a.id, "action": "pick_up", "item": it["name"]})
        return out + self.keep_legal(session, cands, session.check)

    def preview(self, session, act: dict) -> dict:
        a = session.state.actors.get(act["actor"])
        plan, refused = self.checked_plan(session, act)
        if refused:
            return refused
        out = {"action": act["action"], "legal": True}
        if act["action"] == "move":
            body = session.state.actors[plan["body"]]
            b = aerial.path_breakdown(session, body, plan["path"])
            ends_aloft = body.can_fly and not aerial.is_supported(session, body, *plan["path"][-1])
            out.update({"path": [list(p) for p in plan["path"]], "cost_m": plan["cost"], **b, "ends_aloft": ends_aloft,
                        "minor_action_needed": ends_aloft, "minor_action_available": self.upkeep_available(session, body),
                        "provokes": [e.id for e in self._provokers(session, body, plan["path"])] if not plan["careful"] else []})
        elif act["action"] in ("attack", "charge"):
            t = session.state.actors[plan["target"]]
            w = self._pick_weapon(a, plan["weapon"])
            pos, neg = self.attack_chances(session, a, t, w, plan["melee"])
            neg = neg + self.negatives(a, "attack", True)
            dname, dval = self.defence_of(session, t, plan["melee"], act.get("defence"))
            diff = int(self.opt("base_difficulty")) + dval
            _, lv = self.weapon_skill(a, w)
            net = max(-3, min(3, len(pos) - len(neg)))
            need = diff - lv
            p1 = min(1.0, max(1 / 12, (13 - max(need, 1)) / 12.0)) if need <= 12 else 1 / 12
            p = 1 - (1 - p1) ** (1 + net) if net > 0 else (p1 ** (1 - net) if net < 0 else p1)
            out.update({"target": t.id, "weapon": w["name"], "melee": plan["melee"], "cover": plan.get("cover", "none"),
                        "difficulty": diff, "defence": dname, "skill_level": lv, "positive": pos, "negative": neg,
                        "chances": net, "hit_chance": round(p, 4), "height": "no bonus for height (AIR-17)",
                        "fall_roll_on_hit": t.flying})
        elif act["action"] == "pass":
            out.update({"kept": plan["kept"], "rule": plan["rule"]})
        return out
