"""The D&D 5e ruleset plug-in: initiative, turns, the action economy, attacks, spells, damage, dying, conditions.

Rule IDs are those of ``../shared/rules/CATALOGUE.md``; decisions on gaps are in ``docs/rules-core.md``.
"""

from __future__ import annotations

import math

from engine.errors import SceneError
from engine.rules import aerial
from engine.rules.actions import Param
from engine.rules.core import Actor, Illegal, Session
from engine.rules.dnd5e.data import (ATTACKED_WITH_ADVANTAGE, AUTO_FAIL_STR_DEX, CONDITION_RULE, CONDITIONS,
                                     INCAPACITATING, SIZES, SPEED_ZERO, SPELLS, STATBLOCKS, UNDERWATER_MELEE_OK,
                                     UNDERWATER_RANGED_OK, WEAPONS)
from engine.rules.ruleset import Ruleset
from engine.world.cover import cover_between
from engine.world.geometry import Body, distance_m, engaged, in_melee_reach

SKILL_ABILITY = {"athletics": "str", "acrobatics": "dex", "stealth": "dex", "sleight_of_hand": "dex",
                 "perception": "wis", "medicine": "wis", "insight": "wis", "survival": "wis",
                 "investigation": "int", "arcana": "int", "intimidation": "cha", "persuasion": "cha"}
ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
OBJECTS = {"potion_of_healing": {"heal": "2d4", "bonus": 2, "range_m": 1.5}}


def mod(score: int) -> int:
    return (int(score) - 10) // 2


def dice_spec(text: str) -> tuple[int, int]:
    n, _, s = text.partition("d")
    return int(n or 1), int(s)


class Dnd5e(Ruleset):
    name = "dnd5e"
    upkeep_name = "bonus action"
    DEFAULT_OPTIONS = {
        "diagonal": "5e",                 # every horizontal step, diagonal or not, costs one cell (1.5 m)
        "climb_m": 4.0, "descend_m": 2.0,  # AIR-07
        "fall_damage_rounding": "down",    # AIR-12: 5% of max HP, rounded down
        "fall_cap_percent": 50,
        "fall_roll_on": "hit",            # AIR-11 "Graze or better": any hit (5e has no graze)
        "nat20_death_save": "two_successes",   # DND-03 as the document says; "regain_1hp" = official 5e
        "prone_ranged": "disadvantage",   # DND-48: attacks from beyond 1.5 m at a prone target (official 5e)
        "grounding_grappler": "not_flying",  # AIR-10 "grappled by a non-flyer": a grappler not aloft now
        "half_cover_dex_saves": True,
        "temp_hp": "keep_higher",         # DND-35: new temporary HP replace the old only when higher
        "monsters_die_at_0": True,        # pc = false creatures die at 0 HP
        "sneak_attack_per": "round",      # DND-38: "once per round"
        "creatures_give_cover": True,     # DND-32: another creature in the way is half cover (the document's example)
        "mount_oa_target": "mount",       # DND-36: an opportunity attack provoked by a mount hits the mount or the rider
        "upkeep": "end_of_turn",          # AIR-08: paid at the end of a turn aloft; "start_of_turn": on starting one aloft
    }

    CHOICES = {"diagonal": ("5e", "euclidean", "5-10-5"), "fall_damage_rounding": ("down", "up", "nearest"),
               "fall_roll_on": ("hit",), "nat20_death_save": ("two_successes", "regain_1hp"),
               "prone_ranged": ("disadvantage", "none"), "grounding_grappler": ("not_flying", "can_fly"),
               "temp_hp": ("keep_higher", "replace"), "sneak_attack_per": ("round", "turn"),
               "upkeep": ("end_of_turn", "start_of_turn"), "mount_oa_target": ("mount", "rider")}

    def __init__(self, options=None):
        super().__init__(options)
        from engine.errors import AerieError
        for k, choices in self.CHOICES.items():
            if self.options.get(k) not in choices:
                raise AerieError(f"options.{k}: {self.options.get(k)!r} is not one of {', '.join(choices)}")
        for k in ("climb_m", "descend_m", "fall_cap_percent"):
            v = self.options.get(k)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                raise AerieError(f"options.{k}: must be a number >= 0, got {v!r}")
        for k in ("half_cover_dex_saves", "monsters_die_at_0", "creatures_give_cover"):
            if not isinstance(self.options.get(k), bool):
                raise AerieError(f"options.{k}: must be true or false")

    # ------------------------------------------------------------------------------------------ setup
    def make_actor(self, session: Session, ch) -> Actor:
        st = ch.stats
        idx = session.scene.characters.index(ch)
        key = f"characters[{idx}]"
        file = session.scene.path
        base = {}
        if ch.kind is not None:
            if ch.kind in STATBLOCKS:
                base = STATBLOCKS[ch.kind]
            elif ch.kind not in ("", "custom"):
                base = {}
        raw = {f: getattr(st, f) for f in st.__struct_fields__}
        given = set(ch.raw)

        def pick(f, default=None):
            if f in given:
                return raw[f]
            if f in base:
                return base[f]
            return default if raw.get(f) in (None, [], {}) else raw[f]

        abilities = {k: 10 for k in ABILITIES}
        abilities.update(base.get("abilities", {}))
        for k, v in (raw["abilities"] or {}).items():
            if k not in ABILITIES:
                raise SceneError(file, f"{key}.abilities.{k}", f"unknown ability; one of {', '.join(ABILITIES)}")
            if not 1 <= v <= 30:
                raise SceneError(file, f"{key}.abilities.{k}", "an ability score is 1..30")
            abilities[k] = v
        level = int(pick("level", 1))
        if not 1 <= level <= 30:
            raise SceneError(file, f"{key}.level", "a level is 1..30")
        for f, lo in (("speed_m", 0), ("fly_speed_m", 0), ("swim_speed_m", 0), ("reach_m", 0.5), ("attacks", 1)):
            v = raw.get(f)
            if v is not None and (v < lo or v > 1000):
                raise SceneError(file, f"{key}.{f}", f"must be between {lo} and 1000")
        max_hp = pick("max_hp")
        if max_hp is None:
            max_hp = max(1, 8 + mod(abilities["con"]) + (level - 1) * (5 + mod(abilities["con"])))
        if max_hp < 1:
            raise SceneError(file, f"{key}.max_hp", "must be at least 1")
        hp = raw["hp"] if raw["hp"] is not None else max_hp
        if not 0 <= hp <= max_hp:
            raise SceneError(file, f"{key}.hp", f"must be between 0 and max_hp ({max_hp})")
        speed = float(pick("speed_m", 9.0))
        fly = pick("fly_speed_m")
        if ch.flying and fly is None:
            fly = speed        # AIR-09: placed in the air without a fly speed: it flies at its ground speed
        weapons = []
        for j, w in enumerate(pick("weapons", []) or ["unarmed"]):
            weapons.append(self._weapon(w, file, f"{key}.weapons[{j}]"))
        spells = list(pick("spells", []) or [])
        for j, sp in enumerate(spells):
            if sp not in SPELLS:
                raise SceneError(file, f"{key}.spells[{j}]", f"unknown spell {sp!r}; known: {', '.join(sorted(SPELLS))}")
        conds = {}
        for j, c in enumerate(raw["conditions"]):
            name, _, src = str(c).partition(":")
            name = name.strip().lower()
            if name not in CONDITIONS:
                raise SceneError(file, f"{key}.conditions[{j}]", f"unknown condition {c!r}; one of {', '.join(CONDITIONS)}")
            conds.setdefault(name, [])
            if src:
                conds[name] = sorted(set(conds[name] + [src.strip()]))
        for j, s in enumerate(pick("saves", []) or []):
            if s not in ABILITIES:
                raise SceneError(file, f"{key}.saves[{j}]", f"unknown ability {s!r}")
        for k in (pick("skills", {}) or {}):
            if k not in SKILL_ABILITY:
                raise SceneError(file, f"{key}.skills.{k}", f"unknown skill; one of {', '.join(sorted(SKILL_ABILITY))}")
        pc = pick("pc")
        if pc is None:
            pc = True
        prof = raw["proficiency"] if raw["proficiency"] is not None else 2 + (level - 1) // 4
        casting = pick("spellcasting") or max(("int", "wis", "cha"), key=lambda k: (abilities[k], k == "int"))
        slots = pick("spell_slots")
        data = {
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
        if raw["invisible"]:
            conds.setdefault("invisible", [])
        a = Actor(ch.id, ch.side, ch.name, ch.kind, ch.size, ch.footprint, ch.height_layers, ch.eye_m,
                  ch.at[0], ch.at[1], ch.at[2], bool(ch.flying), fly is not None, int(hp), int(max_hp),
                  int(raw["temp_hp"]), conds, False, data)
        if a.flying and aerial.is_supported(session, a):
            a.flying = False     # at rest on a surface: landed
        if hp == 0 and "unconscious" not in conds:
            conds["unconscious"] = []
            conds.setdefault("prone", [])
        return a

    def _weapon(self, w, file, key) -> dict:
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
                if k not in ("name", "damage", "type", "properties", "range", "versatile", "reach_m", "to_hit", "damage_bonus"):
                    raise SceneError(file, f"{key}.{k}", "unknown weapon key")
                out[k] = v
            try:
                dice_spec(out["damage"])
            except ValueError:
                raise SceneError(file, f"{key}.damage", f"damage {out['damage']!r} is not like 2d6") from None
            return out
        raise SceneError(file, key, "a weapon is a name or a table")

    def start(self, session: Session) -> None:
        st = session.state
        actors = st.actors
        # mounts named in the scene (DND-36)
        for a in actors.values():
            m = a.data.pop("mount_at_start", None)
            if m:
                if m not in actors or m == a.id:
                    raise SceneError(session.scene.path, f"characters[{list(actors).index(a.id)}].mount", f"no character {m!r} to ride")
                self._do_mount(session, a, actors[m], quiet=True)
        rolls = {}
        for a in actors.values():
            if a.data["controlled_mount"] and a.data["rider"]:
                continue
            fixed = a.data["initiative"]
            if fixed is not None:
                total, die = int(fixed), None
            else:
                (die,) = session.roll("initiative", 20, who=a.id, rule="DND-10")
                total = die + mod(a.data["abilities"]["dex"])
            rolls[a.id] = total
            session.emit({"type": "initiative", "who": a.id, "total": total, "die": die, "fixed": fixed is not None,
                          "rule": "DND-10"})
        order = sorted(rolls, key=lambda i: (-rolls[i], -actors[i].data["abilities"]["dex"], i))
        for a in actors.values():   # a controlled mount acts on its rider's initiative, right after it (DND-36)
            if a.data["controlled_mount"] and a.data["rider"]:
                order.insert(order.index(a.data["rider"]) + 1, a.id)
        if session.scene.spec.initiative_starts:
            k = order.index(session.scene.spec.initiative_starts)
            order = order[k:] + order[:k]
        st.order = order
        st.round = 1
        st.data["sides"] = sorted({a.side for a in actors.values()})
        session.emit({"type": "round", "round": 1, "order": order, "rule": "DND-10"})
        self._begin_turn(session, 0)

    # ------------------------------------------------------------------------------------------ helpers
    def ab(self, a: Actor, k: str) -> int:
        return mod(a.data["abilities"][k])

    def skill(self, a: Actor, name: str) -> int:
        return self.ab(a, SKILL_ABILITY[name]) + a.data["prof"] * int(a.data["skills"].get(name, 0))

    def incapacitated(self, a: Actor) -> bool:
        return a.dead or any(c in a.conditions for c in INCAPACITATING)

    def hostile(self, a: Actor, b: Actor) -> bool:
        return a.side != b.side

    def cover(self, session: Session, a: Actor, b: Actor, eye=None):
        key = ("cover", a.x, a.y, a.layer, a.footprint, a.height_layers, a.eye_m, b.x, b.y, b.layer, b.footprint, b.height_layers, eye)
        c = session.cache.get(key)
        if c is None:
            c = cover_between(session.world, a.body(), b.body(), "dnd5e", session.options.get("cover_thresholds"), eye=eye)
            session.cache[key] = c
        return c

    def sees(self, session: Session, a: Actor, b: Actor) -> bool:
        """a can see b: not blinded, b not invisible nor hidden from a, some line of sight (AIR-15)."""
        if a.has("blinded") or b.has("invisible") or self.incapacitated(a) and a.has("unconscious"):
            return False
        if b.data["hidden"] is not None and self.hostile(a, b):
            return False
        return self.cover(session, a, b).visible

    def speed_zero(self, a: Actor) -> tuple[str, str] | None:
        for c in SPEED_ZERO:
            if c in a.conditions:
                return c, CONDITION_RULE[c]
        return None

    def melee_reach(self, a: Actor, w: dict) -> float:
        if "reach_m" in w:
            return float(w["reach_m"])
        return a.data["reach_m"] + (1.5 if "reach" in w["properties"] else 0.0)

    def is_melee(self, w) -> bool:
        return "ranged" not in w["properties"]

    def weapon(self, a: Actor, name: str | None, path="weapon") -> dict:
        ws = a.data["weapons"]
        if name is None:
            return ws[0]
        for w in ws:
            if w["name"] == name:
                return w
        raise Illegal(f"{a.name} has no {name}; its weapons: {', '.join(w['name'] for w in ws)}", "DND-16", path)

    def alive_sides(self, session) -> set:
        return {a.side for a in session.state.actors.values() if not a.dead and a.hp > 0}

    # ------------------------------------------------------------------------------------------ turn structure
    def _new_turn(self, aid):
        return {"actor": aid, "moved_m": 0.0, "action": False, "bonus": False, "attacks_left": 0, "dash": 0,
                "disengaged": False, "light_weapon": None, "bonus_spell": False, "action_spell": False}

    def can_act(self, a: Actor) -> bool:
        return not a.dead and not self.incapacitated(a)

    def _begin_turn(self, session: Session, guard: int) -> None:
        st = session.state
        for _ in range(4 * len(st.order) + 4):
            if st.over or st.current is None:       # a scene with no characters has no turns
                return
            a = st.actors[st.current]
            st.turn = self._new_turn(a.id)
            session.emit({"type": "turn", "who": a.id, "round": st.round, "rule": "DND-10"})
            a.data["reaction_used"] = False                     # DND-13
            a.data["dodging"] = False                           # DND-24 ends at the start of its next turn
            a.data["readied"] = None                            # DND-20
            st.data["help"] = [h for h in st.data.get("help", []) if h["helper"] != a.id]   # DND-18
            if self.opt("sneak_attack_per") == "turn":
                a.data["sneak_round"] = -1
            if not a.dead and a.hp == 0 and not a.data["stable"]:
                self._death_save(session, a)
            if self.can_act(a):
                aerial.upkeep_at_start(session, a)              # option upkeep = "start_of_turn" (AIR-08)
                return
            why = "is dead" if a.dead else ("is " + next(c for c in INCAPACITATING if c in a.conditions))
            session.emit({"type": "turn_skipped", "who": a.id, "reason": f"{a.name} {why}", "rule": "DND-43"})
            self._end_of_turn_effects(session, a)
            self._advance(session)
        st.over = True
        session.emit({"type": "combat_over", "winner": None, "reason": "nobody can act"})

    def _advance(self, session: Session) -> None:
        st = session.state
        st.turn_index += 1
        if st.turn_index % len(st.order) == 0:
            st.turn_index = 0
            st.round += 1
            session.emit({"type": "round", "round": st.round, "rule": "DND-10"})

    def _end_of_turn_effects(self, session: Session, a: Actor) -> None:
        aerial.upkeep(session, a)                                # AIR-08 / AIR-10
        for name, src in list(a.data.get("repeat_saves", {}).items()):
            if name not in a.conditions:
                a.data["repeat_saves"].pop(name)
                continue
            ok = self.saving_throw(session, a, src["save"], src["dc"], None, src["rule"], f"end of turn save against {src['spell']}")
            if ok:
                self.remove_condition(session, a, name, src["rule"])
                a.data["repeat_saves"].pop(name)

    def _check_over(self, session: Session) -> None:
        st = session.state
        if st.over or len(st.data.get("sides", [])) < 2:
            return
        sides = self.alive_sides(session)
        if len(sides) <= 1:
            st.over = True
            st.winner = next(iter(sides)) if sides else None
            session.emit({"type": "combat_over", "winner": st.winner})

    # ------------------------------------------------------------------------------------------ aerial hooks
    def movement_left(self, session, a, flying):
        if a.data.get("mounted_on"):
            return 0.0
        if self.speed_zero(a) or a.dead:
            return 0.0
        base = a.data["fly_speed_m"] if flying and a.data["fly_speed_m"] is not None else a.data["speed_m"]
        if flying and a.data["fly_speed_m"] is not None:
            base = max(base, a.data["speed_m"])
        t = session.state.turn
        if t.get("actor") != a.id:
            return base        # not its turn: what it will have when its turn starts (for overlays)
        return base * (1 + t["dash"]) - t["moved_m"]

    def takeoff_cost(self, session, a):
        return (a.data["fly_speed_m"] or a.data["speed_m"]) / 2.0     # AIR-06: half its movement

    def spend_movement(self, session, a, metres):
        session.state.turn["moved_m"] = round(session.state.turn["moved_m"] + metres, 4)

    def upkeep_available(self, session, a):
        t = session.state.turn
        return t.get("actor") == a.id and not t["bonus"] and not self.incapacitated(a)

    def spend_upkeep(self, session, a):
        session.state.turn["bonus"] = True

    def fall_reason(self, session, a):
        if a.data.get("mounted_on"):
            return None
        if a.dead:
            return (f"{a.name} is dead", "DND-01")
        for c, why in (("prone", "is Prone"), ("unconscious", "is unconscious"), ("stunned", "is stunned"),
                       ("paralyzed", "is paralyzed: it cannot move"), ("petrified", "is petrified: it cannot move"),
                       ("restrained", "is restrained: it loses its bonus action")):
            if c in a.conditions:
                return (f"{a.name} {why}", CONDITION_RULE[c])
        if a.hp == 0:
            return (f"{a.name} is dying", "DND-02")
        if "grappled" in a.conditions:
            for gid in a.conditions["grappled"]:
                g = session.state.actors.get(gid)
                holds_down = g is None or (not g.flying if self.opt("grounding_grappler") == "not_flying" else not g.can_fly)
                if holds_down:
                    return (f"{a.name} is grappled by {g.name if g else gid}, who does not fly", "DND-47")
        return None

    def knock_prone(self, session, a, rule):
        self.add_condition(session, a, "prone", rule)

    # ------------------------------------------------------------------------------------------ conditions
    def add_condition(self, session, a: Actor, name: str, rule: str, source: str | None = None) -> None:
        if name == "prone" and a.data.get("mounted_on") and "prone" not in a.conditions and not self.incapacitated(a):
            # DND-36: knocked prone while mounted -> Dexterity save DC 10 to stay in the saddle, else fall off prone
            if self.saving_throw(session, a, "dex", 10, None, "DND-36", "stay mounted"):
                return
        had = name in a.conditions
        srcs = set(a.conditions.get(name, []))
        if source:
            srcs.add(source)
        a.conditions[name] = sorted(srcs)
        if not had:
            session.emit({"type": "condition", "who": a.id, "condition": name, "added": True, "rule": rule,
                          **({"source": source} if source else {})})
        if name in INCAPACITATING:
            # DND-47: a grapple ends when the grappler is incapacitated
            for o in session.state.actors.values():
                if a.id in o.conditions.get("grappled", []):
                    self._release(session, o, a, "DND-47", f"{a.name} is {name}")
            a.data["dodging"] = False
        if name == "unconscious" and "prone" not in a.conditions:
            self.add_condition(session, a, "prone", "DND-41")    # falls prone
        if name == "prone" and a.data.get("mounted_on"):
            self._fall_off_mount(session, a, "DND-36")
        if name == "prone" and a.data.get("rider"):
            rider = session.state.actors[a.data["rider"]]
            self._mount_fell(session, rider, a)
        aerial.check_grounded(session, a)

    def remove_condition(self, session, a: Actor, name: str, rule: str) -> None:
        if name in a.conditions:
            a.conditions.pop(name)
            session.emit({"type": "condition", "who": a.id, "condition": name, "added": False, "rule": rule})

    def _release(self, session, target: Actor, grappler: Actor, rule: str, why: str) -> None:
        srcs = [s for s in target.conditions.get("grappled", []) if s != grappler.id]
        if "grappled" not in target.conditions or grappler.id not in target.conditions["grappled"]:
            return
        if srcs:
            target.conditions["grappled"] = srcs
            session.emit({"type": "grapple_ends", "who": target.id, "grappler": grappler.id, "reason": why, "rule": rule})
        else:
            session.emit({"type": "grapple_ends", "who": target.id, "grappler": grappler.id, "reason": why, "rule": rule})
            self.remove_condition(session, target, "grappled", rule)

    def _check_grapples(self, session) -> None:
        """DND-47: a grapple ends when the target is out of the grappler's reach."""
        acts = session.state.actors
        for t in acts.values():
            for gid in list(t.conditions.get("grappled", [])):
                g = acts.get(gid)
                if g is None:
                    continue
                if g.dead or self.incapacitated(g):
                    self._release(session, t, g, "DND-47", f"{g.name} is incapacitated")
                elif not in_melee_reach(g.body(), t.body(), max(self.melee_reach(g, w) for w in g.data["weapons"]), session.world.cell_m):
                    self._release(session, t, g, "DND-47", f"{t.name} is out of {g.name}'s reach")

    # ------------------------------------------------------------------------------------------ damage and dying
    def apply_damage(self, session, a: Actor, amount: int, dtype: str, source, rule: str, critical: bool = False,
                     knock_out: bool = False) -> int:
        if a.dead or amount <= 0:
            return 0
        d = a.data
        resist = set(d["resist"])
        if a.has("petrified"):
            resist.add(dtype)                        # DND-50
        if d["underwater"] and dtype == "fire":
            resist.add("fire")                       # DND-37
        notes = []
        if dtype in d["immune"]:
            amount, notes = 0, ["immune"]
        else:
            if dtype in resist:
                amount //= 2
                notes.append("resistance halves it (DND-33)")
            if dtype in d["vuln"]:
                amount *= 2
                notes.append("vulnerability doubles it (DND-33)")
        ev = {"type": "damage", "who": a.id, "amount": amount, "damage_type": dtype, "rule": rule}
        if source:
            ev["source"] = source
        if notes:
            ev["notes"] = notes
        session.emit(ev)
        if amount <= 0:
            return 0
        if a.hp == 0:                                # DND-04: damage at 0 HP
            if amount >= a.max_hp:
                self._die(session, a, "damage at 0 HP of at least its max HP", "DND-04")
                return 0
            d["stable"] = False
            fails = 2 if critical else 1
            d["death"]["failures"] += fails
            session.emit({"type": "death_save_failure", "who": a.id, "failures": d["death"]["failures"], "added": fails, "rule": "DND-04"})
            if d["death"]["failures"] >= 3:
                self._die(session, a, "three failed death saves", "DND-03")
            return 0
        if a.temp_hp:                                # DND-35: temporary HP are lost first
            used = min(a.temp_hp, amount)
            a.temp_hp -= used
            amount -= used
            session.emit({"type": "temp_hp_lost", "who": a.id, "amount": used, "left": a.temp_hp, "rule": "DND-35"})
        lost = min(a.hp, amount)
        over = amount - a.hp
        a.hp = max(0, a.hp - amount)
        session.emit({"type": "hp", "who": a.id, "hp": a.hp, "max_hp": a.max_hp})
        if a.hp == 0:
            if over >= a.max_hp:
                self._die(session, a, f"{over} damage left over is at least its max HP {a.max_hp}", "DND-01")
            elif not d["pc"] and self.opt("monsters_die_at_0") and not knock_out:
                self._die(session, a, "a monster dies at 0 HP", "DND-02")
            else:
                d["death"] = {"successes": 0, "failures": 0}
                d["stable"] = bool(knock_out)
                if knock_out:
                    session.emit({"type": "knocked_out", "who": a.id, "rule": "DND-34"})
                else:
                    session.emit({"type": "dying", "who": a.id, "rule": "DND-02"})
                self.add_condition(session, a, "unconscious", "DND-34" if knock_out else "DND-02")
        aerial.check_grounded(session, a)
        self._check_over(session)
        return lost

    def _die(self, session, a: Actor, why: str, rule: str) -> None:
        a.hp = 0
        a.dead = True
        a.temp_hp = 0
        session.emit({"type": "death", "who": a.id, "reason": why, "rule": rule})
        for o in session.state.actors.values():
            if a.id in o.conditions.get("grappled", []):
                self._release(session, o, a, "DND-47", f"{a.name} died")
        if a.data.get("rider"):
            self._mount_fell(session, session.state.actors[a.data["rider"]], a)
        aerial.check_grounded(session, a)
        self._check_over(session)

    def heal(self, session, a: Actor, amount: int, rule: str) -> None:
        if a.dead or amount <= 0:
            return
        was0 = a.hp == 0
        a.hp = min(a.max_hp, a.hp + amount)
        session.emit({"type": "heal", "who": a.id, "amount": amount, "hp": a.hp, "rule": rule})
        if was0:                                     # DND-02: regaining any HP ends unconsciousness
            a.data["death"] = {"successes": 0, "failures": 0}
            a.data["stable"] = False
            self.remove_condition(session, a, "unconscious", "DND-02")

    def give_temp_hp(self, session, a: Actor, amount: int, rule: str) -> None:
        if self.opt("temp_hp") == "keep_higher" and amount <= a.temp_hp:
            session.emit({"type": "temp_hp_declined", "who": a.id, "offered": amount, "kept": a.temp_hp, "rule": "DND-35"})
            return
        a.temp_hp = amount
        session.emit({"type": "temp_hp", "who": a.id, "temp_hp": amount, "rule": "DND-35"})

    def _death_save(self, session, a: Actor) -> None:
        (r,) = session.roll("death_save", 20, who=a.id, rule="DND-03")
        d = a.data["death"]
        if r == 20:
            if self.opt("nat20_death_save") == "regain_1hp":
                session.emit({"type": "death_save", "who": a.id, "result": r, "outcome": "natural 20: regains 1 HP", "rule": "DND-03"})
                self.heal(session, a, 1, "DND-03")
                return
            d["successes"] += 2
        elif r == 1:
            d["failures"] += 2
        elif r >= 10:
            d["successes"] += 1
        else:
            d["failures"] += 1
        session.emit({"type": "death_save", "who": a.id, "result": r, "successes": d["successes"], "failures": d["failures"], "rule": "DND-03"})
        if d["failures"] >= 3:
            self._die(session, a, "three failed death saves", "DND-03")
        elif d["successes"] >= 3:
            a.data["stable"] = True
            session.emit({"type": "stable", "who": a.id, "rule": "DND-03"})

    # ------------------------------------------------------------------------------------------ checks and saves
    def d20(self, session, name, who, adv: bool, dis: bool, rule: str, purpose: str) -> int:
        if adv and not dis:
            rs = session.roll(name, 20, 2, who=who, rule=rule, purpose=purpose + " (advantage)")
            return max(rs)
        if dis and not adv:
            rs = session.roll(name, 20, 2, who=who, rule=rule, purpose=purpose + " (disadvantage)")
            return min(rs)
        return session.roll(name, 20, 1, who=who, rule=rule, purpose=purpose)[0]

    def saving_throw(self, session, a: Actor, ability: str, dc: int, source_actor, rule: str, purpose: str,
                     cover_level: str = "none") -> bool:
        if ability in ("str", "dex"):
            for c in AUTO_FAIL_STR_DEX:
                if c in a.conditions:
                    session.emit({"type": "save", "who": a.id, "ability": ability, "dc": dc, "success": False,
                                  "auto_fail": c, "rule": CONDITION_RULE[c]})
                    return False
        adv = ability == "dex" and a.data["dodging"] and not self.incapacitated(a)          # DND-24
        dis = ability == "dex" and a.has("restrained")                                      # DND-52
        bonus = self.ab(a, ability) + (a.data["prof"] if ability in a.data["saves"] else 0)
        if ability == "dex":
            if cover_level == "three-quarters":
                bonus += 5
            elif cover_level == "half" and self.opt("half_cover_dex_saves"):
                bonus += 2
        r = self.d20(session, "save", a.id, adv, dis, rule, purpose)
        ok = r + bonus >= dc
        session.emit({"type": "save", "who": a.id, "ability": ability, "dc": dc, "roll": r, "total": r + bonus,
                      "success": ok, "rule": rule})
        return ok

    def check_roll(self, session, a: Actor, skill: str, name: str, rule: str, purpose: str) -> int:
        dis = a.has("poisoned") or (a.has("frightened") and self._fear_source_in_sight(session, a))   # DND-53, DND-49
        r = self.d20(session, name, a.id, False, dis, rule, purpose)
        total = r + self.skill(a, skill)
        session.emit({"type": "check", "who": a.id, "skill": skill, "roll": r, "total": total, "rule": rule})
        return total

    def _fear_source_in_sight(self, session, a: Actor) -> bool:
        for s in a.conditions.get("frightened", []):
            src = session.state.actors.get(s)
            if src is None or self.sees(session, a, src):
                return True
        return not a.conditions.get("frightened")

    # ------------------------------------------------------------------------------------------ actions
    def action_specs(self):
        specs = type(self).__dict__.get("_SPECS")
        if specs is None:
            specs = self._make_specs()
            type(self)._SPECS = specs
        return specs

    def _make_specs(self):
        P = Param
        return {
            "move": {"to": P("pos", True, help="the destination [x, y, layer]")},
            "attack": {"target": P("id", True), "weapon": P("str"), "bonus": P("bool", default=False),
                       "knock_out": P("bool", default=False)},
            "dash": {}, "disengage": {}, "dodge": {},
            "help": {"target": P("id", True, help="the ally helped"), "against": P("id", help="the enemy the ally attacks")},
            "hide": {}, "search": {},
            "ready": {"target": P("id"), "weapon": P("str"), "trigger": P("str", choices=("enters_reach",), default="enters_reach")},
            "use": {"object": P("str", True), "target": P("id")},
            "cast": {"spell": P("str", True), "target": P("id"), "at": P("pos")},
            "grapple": {"target": P("id", True)},
            "escape": {},
            "shove": {"target": P("id", True), "mode": P("str", choices=("prone", "push"), default="prone")},
            "stand": {},
            "stabilize": {"target": P("id", True)},
            "mount": {"target": P("id", True)},
            "dismount": {"to": P("pos")},
            "end_turn": {},
            # the game master's tools (actor = "gm"), for tables and demos
            "condition": {"target": P("id", True), "add": P("str"), "remove": P("str"), "source": P("id")},
            "damage": {"target": P("id", True), "amount": P("int", True), "type": P("str", default="bludgeoning")},
            "heal": {"target": P("id", True), "amount": P("int", True)},
            "temp_hp": {"target": P("id", True), "amount": P("int", True)},
        }

    GM_ACTIONS = ("condition", "damage", "heal", "temp_hp")
    CONTROLLED_MOUNT_ACTIONS = ("move", "dash", "disengage", "dodge", "end_turn")

    def check(self, session: Session, act: dict):
        name = act["action"]
        aid = act["actor"]
        if name in self.GM_ACTIONS:
            if aid != "gm":
                raise Illegal(f"{name} is a game master's tool: use actor = \"gm\"", "", "actor")
            return getattr(self, f"_check_gm")(session, act)
        if aid == "gm":
            raise Illegal(f"the game master cannot {name}; characters act on their turns", "DND-10", "actor")
        a = session.state.actors[aid]
        cur = session.current
        if aid != cur:
            raise Illegal(f"it is {session.state.actors[cur].name}'s turn, not {a.name}'s", "DND-10", "actor")
        if a.data["controlled_mount"] and a.data["rider"] and name not in self.CONTROLLED_MOUNT_ACTIONS:
            raise Illegal(f"{a.name} is a controlled mount: it may only move, Dash, Disengage or Dodge", "DND-36", "action")
        if name != "end_turn" and self.incapacitated(a):
            c = next(c for c in INCAPACITATING if c in a.conditions) if not a.dead else "dead"
            raise Illegal(f"{a.name} is {c} and can take no actions", CONDITION_RULE.get(c, "DND-43"), "action")
        return getattr(self, f"_check_{name}")(session, a, act)

    def apply(self, session: Session, act: dict, plan) -> None:
        name = act["action"]
        if name in self.GM_ACTIONS:
            self._apply_gm(session, act, plan)
        else:
            a = session.state.actors[act["actor"]]
            getattr(self, f"_apply_{name}")(session, a, act, plan)
        aerial.check_all_grounded(session)
        self._check_grapples(session)
        self._check_over(session)

    def _need_action(self, a: Actor, session, what: str, rule: str):
        if session.state.turn["action"]:
            raise Illegal(f"{a.name} has already used its action this turn; {what} takes an action", rule)

    def _target(self, session, a: Actor, tid: str, key="target") -> Actor:
        t = session.actor(tid, key)
        if t.dead:
            raise Illegal(f"{t.name} is dead", "DND-01", key)
        return t

    # -- move ----------------------------------------------------------------------------------------------------
    def _check_move(self, session, a, act):
        to = tuple(act["to"])
        if a.data["mounted_on"]:
            m = session.state.actors[a.data["mounted_on"]]
            raise Illegal(f"{a.name} rides {m.name}: the mount moves (or dismount first)", "DND-36", "to")
        sz = self.speed_zero(a)
        if sz:
            raise Illegal(f"{a.name} is {sz[0]}: its speed is 0", sz[1], "to")
        if to == a.pos:
            raise Illegal(f"{a.name} is already at {list(to)}", "DND-11", "to")
        crawl = a.has("prone")
        fly = a.can_fly and not crawl
        left = self.movement_left(session, a, fly)
        if crawl:
            left = left / 2.0          # DND-48: crawling costs double
        if a.has("frightened"):        # DND-49
            for s in a.conditions["frightened"]:
                src = session.state.actors.get(s)
                if src and self.sees(session, a, src):
                    here = distance_m(a.body(), src.body(), session.world.cell_m)
                    there = distance_m(a.body().moved(*to), src.body(), session.world.cell_m)
                    if there < here - 1e-9:
                        raise Illegal(f"{a.name} is frightened of {src.name} and cannot move closer to it", "DND-49", "to")
        r = aerial.reach(session, a, budget_m=left, fly=fly)
        if not r.can_end(*to):
            if crawl and a.can_fly and aerial.body_fits(session, a, *to) and not aerial.is_supported(session, a, *to):
                raise Illegal(f"{a.name} is prone: it must stand up before it can fly", "DND-48", "to")
            e = aerial.explain_unreachable(session, a, to, r, fly)
            if crawl and "movement left" in e.reason:
                e = Illegal(e.reason.replace(" of movement left", " of movement left, crawling at half speed (Prone, stand up first)"), "DND-48")
            e.path = "to"
            raise e
        path = r.path(*to)
        costs = [r.cost_cm(*p) / 100.0 * (2 if crawl else 1) for p in path]
        return {"path": path, "costs": costs, "crawl": crawl}

    def _apply_move(self, session, a, act, plan):
        path, costs = plan["path"], plan["costs"]
        t = session.state.turn
        left0 = self.movement_left(session, a, a.can_fly and not plan["crawl"])
        seg = [0]
        stopped = None
        # anyone who could possibly react (DND-28): hostile, able, reaction unused, armed for melee
        watchers = not t["disengaged"] and any(
            self.hostile(r, a) and not r.dead and not r.data["reaction_used"] and not self.incapacitated(r)
            and self._oa_weapon(r)[0] is not None for r in session.state.actors.values())

        def flush(i, note):      # the move so far, up to path[i], as one event
            self._emit_move(session, a, path[seg[0]:i + 1], costs[i] - costs[seg[0]], left0 - costs[i], note)
            seg[0] = i

        for i in range(len(path) - 1):
            nxt = path[i + 1]
            if watchers:
                provoked = self._opportunity_attacks(session, a, path[i], nxt,
                                                     before=lambda i=i: flush(i, "stops before leaving a reach"))
                if provoked and (a.pos != path[i] or self.speed_zero(a) or a.has("prone") or a.dead or a.hp == 0):
                    stopped = i
                    break
            a.x, a.y, a.layer = nxt
            if a.can_fly:
                a.flying = not aerial.is_supported(session, a)
            aerial._carry_rider(session, a)
        if stopped is None:
            flush(len(path) - 1, None)
            spent = costs[-1]
        else:
            spent = costs[stopped]
            session.emit({"type": "move_stopped", "who": a.id, "at": list(a.pos), "rule": "DND-28"})
        self.spend_movement(session, a, spent)
        if a.data["hidden"] is not None:
            self._maybe_revealed(session, a)
        self._check_grapples(session)
        self._readied_triggers(session, a)

    def _emit_move(self, session, a, path, cost, left, note):
        if len(path) < 2:
            return
        b = aerial.path_breakdown(session, a, path)
        rules = ["AIR-09"]
        if b["takeoffs"]:
            rules.append("AIR-06")
        if b["layers_up"] or b["layers_down"]:
            rules.append("AIR-07")
        ev = {"type": "move", "who": a.id, "from": list(path[0]), "to": list(path[-1]), "path": [list(p) for p in path],
              "cost_m": round(cost, 4), "takeoffs": b["takeoffs"], "layers_up": b["layers_up"],
              "layers_down": b["layers_down"], "flying": not aerial.is_supported(session, a, *path[-1]) if a.can_fly else False,
              "rule": "+".join(rules), "left_m": round(left, 4)}
        if note:
            ev["note"] = note
        session.emit(ev)

    def _opportunity_attacks(self, session, a: Actor, here, there, before=None) -> bool:
        """DND-28 with AIR-05 reach: hostile creatures whose reach a leaves between ``here`` and ``there``.
        ``before`` is called once, just before the first opportunity attack (to report the move so far)."""
        cell = session.world.cell_m
        bh = bt = None
        any_ = False
        for r in list(session.state.actors.values()):
            if r.id == a.id or not self.hostile(r, a) or r.dead or self.incapacitated(r) or r.data["reaction_used"]:
                continue
            if r.data["mounted_on"] == a.id or a.data.get("rider") == r.id:
                continue
            w, reach = self._oa_weapon(r)
            if w is None:
                continue
            rb = r.body()
            # cheap test first: far beyond its reach (in cells, with room for the largest footprints) at both ends
            lim = int(reach / cell) + 5
            if max(abs(rb.x - here[0]), abs(rb.y - here[1])) > lim and max(abs(rb.x - there[0]), abs(rb.y - there[1])) > lim:
                continue
            if bh is None:
                bh, bt = a.body().moved(*here), a.body().moved(*there)
            if in_melee_reach(rb, bh, reach, cell) and not in_melee_reach(rb, bt, reach, cell):
                a.x, a.y, a.layer = here
                aerial._carry_rider(session, a)
                victim = a
                if a.data.get("rider") and self.opt("mount_oa_target") == "rider":
                    victim = session.state.actors[a.data["rider"]]     # DND-36: the attacker's choice
                if not self.sees(session, r, victim):
                    continue
                try:
                    plan = self._attack_plan(session, r, victim, w, False)
                except Illegal:
                    continue          # e.g. charmed by the mover (DND-54)
                plan["kind"] = "reaction"
                r.data["reaction_used"] = True
                if before is not None and not any_:
                    before()
                session.emit({"type": "opportunity_attack", "who": r.id, "target": victim.id, "weapon": w["name"],
                              "rule": "DND-28", "reach_rule": "AIR-05"})
                self._resolve_attack(session, r, victim, plan, {})
                any_ = True
                if a.dead or a.hp == 0 or a.pos != here:
                    break
        return any_

    def geom(self, session, a: Actor) -> Body:
        """A rider occupies its mount's footprint (it reaches and is reached from any side of it, DND-36)."""
        m = a.data.get("mounted_on")
        if m:
            mt = session.state.actors[m]
            return Body(mt.x, mt.y, mt.layer, mt.footprint, max(mt.height_layers, a.height_layers), a.eye_m)
        return a.body()

    def _oa_weapon(self, r: Actor):
        """The melee weapon with the longest reach, and that reach (None, 0 without a melee weapon)."""
        best, reach = None, 0.0
        for w in r.data["weapons"]:
            if self.is_melee(w):
                rr = self.melee_reach(r, w)
                if best is None or rr > reach:
                    best, reach = w, rr
        return best, reach

    def _maybe_revealed(self, session, a: Actor) -> None:
        for o in session.state.actors.values():
            if self.hostile(o, a) and not o.dead and not self.incapacitated(o) and not o.has("blinded"):
                c = self.cover(session, o, a)
                if c.level == "none":
                    a.data["hidden"] = None
                    session.emit({"type": "revealed", "who": a.id, "by": o.id, "reason": "in plain sight", "rule": "DND-23"})
                    return

    # -- attack --------------------------------------------------------------------------------------------------
    def _attack_plan(self, session, a: Actor, t: Actor, w: dict, bonus: bool, reaction=False) -> dict:
        if t.id == a.id:
            raise Illegal(f"{a.name} cannot attack itself", "DND-16", "target")
        if t.id in a.conditions.get("charmed", []):
            raise Illegal(f"{a.name} is charmed by {t.name} and cannot attack it", "DND-54", "target")
        cell = session.world.cell_m
        ab, tb = self.geom(session, a), self.geom(session, t)
        dist = distance_m(ab, tb, cell)
        melee = self.is_melee(w)
        thrown = False
        if melee and not in_melee_reach(ab, tb, self.melee_reach(a, w), cell):
            if "thrown" in w["properties"] and w["range"]:
                melee, thrown = False, True
            else:
                lay = abs(a.layer - t.layer)
                raise Illegal(f"{t.name} is out of reach of {a.name}'s {w['name']} ({dist:.1f} m away, {lay} layer"
                              f"{'s' if lay != 1 else ''} apart; reach {self.melee_reach(a, w):g} m)", "AIR-05", "target")
        if not melee:
            lo, hi = w["range"]
            if dist > hi + 1e-9:
                raise Illegal(f"{t.name} is {dist:.1f} m away, beyond the {w['name']}'s long range of {hi:g} m", "AIR-03", "target")
            if a.data["underwater"] and dist > lo + 1e-9:
                raise Illegal(f"underwater a ranged attack beyond normal range ({lo:g} m) misses", "DND-37", "target")
        cov = self.cover(session, a, t)
        if cov.level == "total":
            raise Illegal(f"{t.name} has total cover from {a.name}: no line of sight", "DND-32", "target")
        level, by = cov.level, None
        if level == "none" and self.opt("creatures_give_cover"):
            by = self._creature_between(session, a, t)
            if by:
                level = "half"          # DND-32 (the document: "inna istota", another creature, is half cover)
        plan = {"target": t.id, "weapon": w, "melee": melee, "thrown": thrown, "distance_m": round(dist, 3),
                "cover": level, "blocked_fraction": cov.blocked_fraction, "kind": "bonus" if bonus else "action"}
        if by:
            plan["cover_by"] = by
        return plan

    def _creature_between(self, session, a: Actor, t: Actor) -> str | None:
        """A living creature whose body the line from a's eye to t's centre crosses (slab test, voxel units)."""
        ax, ay = a.body().centre
        p0 = (ax, ay, a.layer + a.eye_m)
        tx, ty = t.body().centre
        p1 = (tx, ty, t.layer + t.height_layers / 2.0)
        skip = {a.id, t.id, a.data.get("mounted_on"), a.data.get("rider"), t.data.get("mounted_on"), t.data.get("rider")}
        for o in session.state.actors.values():
            if o.id in skip or o.dead:
                continue
            lo = (o.x + 0.1, o.y + 0.1, o.layer + 0.1)
            hi = (o.x + o.footprint - 0.1, o.y + o.footprint - 0.1, o.layer + o.height_layers - 0.1)
            t0, t1 = 0.0, 1.0
            for k in range(3):
                d = p1[k] - p0[k]
                if abs(d) < 1e-12:
                    if not lo[k] <= p0[k] <= hi[k]:
                        break
                    continue
                u0, u1 = (lo[k] - p0[k]) / d, (hi[k] - p0[k]) / d
                if u0 > u1:
                    u0, u1 = u1, u0
                t0, t1 = max(t0, u0), min(t1, u1)
                if t0 > t1:
                    break
            else:
                return o.id
        return None

    def _check_attack(self, session, a, act):
        t = self._target(session, a, act["target"])
        w = self.weapon(a, act.get("weapon"))
        turn = session.state.turn
        if act.get("bonus"):
            if turn["bonus"]:
                raise Illegal(f"{a.name} has already used its bonus action this turn", "DND-12")
            if not turn["light_weapon"]:
                raise Illegal("the off-hand attack needs an attack with a light melee weapon first, with the Attack action", "DND-29")
            if "light" not in w["properties"] or not self.is_melee(w):
                raise Illegal(f"the off-hand attack needs a light melee weapon; {w['name']} is not", "DND-29", "weapon")
            n_light = sum(1 for x in a.data["weapons"] if "light" in x["properties"] and self.is_melee(x))
            if n_light < 2:
                raise Illegal(f"{a.name} holds no second light weapon for the other hand", "DND-29", "weapon")
        elif turn["attacks_left"] <= 0 and turn["action"]:
            raise Illegal(f"{a.name} has no attack left this turn (its action is used)", "DND-16")
        if act.get("knock_out") and not self.is_melee(w):
            raise Illegal("only a melee attack can knock a creature out", "DND-34", "knock_out")
        return self._attack_plan(session, a, t, w, bool(act.get("bonus")))

    def _use_attack(self, session, a):
        turn = session.state.turn
        if turn["attacks_left"] > 0:
            turn["attacks_left"] -= 1
        else:
            turn["action"] = True
            turn["attacks_left"] = a.data["attacks"] - 1

    def _apply_attack(self, session, a, act, plan):
        if plan["kind"] == "bonus":
            session.state.turn["bonus"] = True
        else:
            self._use_attack(session, a)
            if "light" in plan["weapon"]["properties"] and self.is_melee(plan["weapon"]):   # thrown too (DND-29)
                session.state.turn["light_weapon"] = plan["weapon"]["name"]
        t = session.state.actors[plan["target"]]
        self._resolve_attack(session, a, t, plan, act)

    def attack_sources(self, session, a: Actor, t: Actor, plan) -> tuple[list, list]:
        """Advantage and disadvantage sources (rule IDs), every source of the catalogue."""
        adv, dis = [], []
        cell = session.world.cell_m
        ranged = not plan["melee"]
        near = engaged(a.body(), t.body())
        if not self.sees(session, t, a) and not t.dead:
            adv.append(("the target cannot see the attacker", "DND-26"))
        if not self.sees(session, a, t):
            dis.append(("the attacker cannot see the target", "DND-26"))
        if a.has("invisible"):
            adv.append(("the attacker is invisible", "DND-42"))
        if t.has("invisible"):
            dis.append(("the target is invisible", "DND-42"))
        if ranged:
            for o in session.state.actors.values():
                if self.hostile(o, a) and not o.dead and not self.incapacitated(o) and engaged(o.body(), a.body()) \
                        and self.sees(session, o, a):
                    dis.append((f"ranged attack within 1.5 m of {o.name}", "DND-27"))
                    break
            w = plan["weapon"]
            if w.get("range") and plan["distance_m"] > w["range"][0] + 1e-9:
                dis.append(("beyond the weapon's normal range", "DND-16"))
        if a.has("prone"):
            dis.append(("the attacker is prone", "DND-48"))
        if t.has("prone"):
            if near and not ranged:
                adv.append(("the target is prone, attacker within 1.5 m", "DND-48"))
            elif near:
                adv.append(("the target is prone, attacker within 1.5 m", "DND-48"))
            elif self.opt("prone_ranged") == "disadvantage":
                dis.append(("the target is prone and the attacker farther than 1.5 m", "DND-48"))
        for c in ATTACKED_WITH_ADVANTAGE:
            if c in t.conditions and c != "blinded":
                adv.append((f"the target is {c}", CONDITION_RULE[c]))
        if t.has("blinded"):
            adv.append(("the target is blinded", "DND-46"))
        if a.has("blinded"):
            dis.append(("the attacker is blinded", "DND-46"))
        if a.has("restrained"):
            dis.append(("the attacker is restrained", "DND-52"))
        if a.has("poisoned"):
            dis.append(("the attacker is poisoned", "DND-53"))
        if a.has("frightened") and self._fear_source_in_sight(session, a):
            dis.append(("the attacker is frightened and sees the source", "DND-49"))
        if t.data["dodging"] and not self.incapacitated(t) and not self.speed_zero(t) and self.sees(session, t, a):
            dis.append(("the target is dodging", "DND-24"))
        for h in session.state.data.get("help", []):
            if h["ally"] == a.id and h["target"] == t.id:
                adv.append((f"helped by {h['helper']}", "DND-18"))
                break
        if a.data["underwater"] and not a.data["swim_speed_m"]:
            w = plan["weapon"]
            if plan["melee"] and w["name"] not in UNDERWATER_MELEE_OK:
                dis.append(("melee underwater without a swim speed", "DND-37"))
            if not plan["melee"] and w["name"] not in UNDERWATER_RANGED_OK:
                dis.append(("ranged attack underwater", "DND-37"))
        return adv, dis

    def attack_bonus(self, a: Actor, w: dict, melee: bool) -> int:
        if "to_hit" in w:
            return int(w["to_hit"])
        return self._dmg_mod(a, w, melee) + a.data["prof"]

    def _dmg_mod(self, a, w, melee):
        s, d = self.ab(a, "str"), self.ab(a, "dex")
        if "finesse" in w["properties"]:
            return max(s, d)
        if "ranged" in w["properties"]:
            return d
        return s

    def _resolve_attack(self, session, a: Actor, t: Actor, plan, act) -> None:
        w = plan["weapon"]
        if "cover" not in plan:
            p2 = self._attack_plan(session, a, t, w, False)
            p2["kind"] = plan.get("kind", "action")
            plan = p2
        adv, dis = self.attack_sources(session, a, t, plan)
        cover_bonus = {"half": 2, "three-quarters": 5}.get(plan["cover"], 0)
        ac = t.data["ac"] + cover_bonus
        bonus = self.attack_bonus(a, w, plan["melee"])
        r = self.d20(session, "attack", a.id, bool(adv), bool(dis), "DND-16", f"{w['name']} against {t.name}")
        total = r + bonus
        crit = r == 20
        hit = crit or (r != 1 and total >= ac)
        near = engaged(a.body(), t.body())
        if hit and near and (t.has("unconscious") or t.has("paralyzed")):
            crit = True                           # DND-41 / DND-51
        ev = {"type": "attack", "who": a.id, "target": t.id, "weapon": w["name"], "roll": r, "bonus": bonus,
              "total": total, "ac": t.data["ac"], "cover": plan["cover"], "cover_bonus": cover_bonus,
              "hit": hit, "critical": crit and hit, "advantage": [s for s, _ in adv], "disadvantage": [s for s, _ in dis],
              "rules": sorted({rid for _, rid in adv + dis} | {"DND-16", "DND-32", "AIR-17"}),
              "melee": plan["melee"], "kind": plan.get("kind", "action")}
        if plan.get("cover_by"):
            ev["cover_by"] = plan["cover_by"]
        if plan["melee"]:
            ev["reach_rule"] = "AIR-05"
        session.emit(ev)
        if a.data["hidden"] is not None:          # DND-26: attacking reveals the attacker
            a.data["hidden"] = None
            session.emit({"type": "revealed", "who": a.id, "reason": "attacked", "rule": "DND-26"})
        help_ = session.state.data.get("help", [])
        for h in help_:
            if h["ally"] == a.id and h["target"] == t.id:
                help_.remove(h)
                break
        if not hit:
            return
        n, s = dice_spec(w["damage"])
        if crit:
            n *= 2
        rolls = session.roll("damage", s, n, who=a.id, rule="DND-16") if n else []
        dmod = self._dmg_mod(a, w, plan["melee"]) + int(w.get("damage_bonus", 0))
        if plan.get("kind") == "bonus" and dmod > 0:
            dmod = 0                               # DND-29: no ability modifier unless negative
        amount = max(0, sum(rolls) + dmod)
        extra = []
        if a.data["sneak_attack"] and self._sneak_ok(session, a, t, w, plan, adv, dis):
            k = (a.data["level"] + 1) // 2
            sr = session.roll("sneak_attack", 6, k * (2 if crit else 1), who=a.id, rule="DND-38")
            amount += sum(sr)
            a.data["sneak_round"] = session.state.round
            extra.append("sneak attack")
        self.apply_damage(session, t, amount, w["type"], a.id, "DND-16", critical=crit,
                          knock_out=bool(act.get("knock_out")) and plan["melee"])
        if t.flying and not t.dead and self.opt("fall_roll_on") == "hit":
            aerial.fall_roll(session, t)           # AIR-11: every hit against a flyer

    def _sneak_ok(self, session, a, t, w, plan, adv, dis) -> bool:
        if a.data["sneak_round"] == session.state.round:
            return False
        if not ("finesse" in w["properties"] or not plan["melee"]):
            return False
        if adv and not dis:
            return True
        if dis:
            return False
        for o in session.state.actors.values():
            if o.id not in (a.id, t.id) and self.hostile(o, t) and not o.dead and not self.incapacitated(o) \
                    and engaged(o.body(), t.body()):
                return True
        return False

    # -- simple actions --------------------------------------------------------------------------------------------
    def _check_dash(self, session, a, act):
        self._need_action(a, session, "Dash", "DND-22")

    def _apply_dash(self, session, a, act, plan):
        t = session.state.turn
        t["action"] = True
        t["dash"] += 1
        session.emit({"type": "dash", "who": a.id, "movement_left_m": round(self.movement_left(session, a, a.can_fly), 4), "rule": "DND-22"})

    def _check_disengage(self, session, a, act):
        self._need_action(a, session, "Disengage", "DND-17")

    def _apply_disengage(self, session, a, act, plan):
        session.state.turn["action"] = True
        session.state.turn["disengaged"] = True
        session.emit({"type": "disengage", "who": a.id, "rule": "DND-17"})

    def _check_dodge(self, session, a, act):
        self._need_action(a, session, "Dodge", "DND-24")

    def _apply_dodge(self, session, a, act, plan):
        session.state.turn["action"] = True
        a.data["dodging"] = True
        session.emit({"type": "dodge", "who": a.id, "rule": "DND-24"})

    def _check_help(self, session, a, act):
        self._need_action(a, session, "Help", "DND-18")
        ally = self._target(session, a, act["target"])
        if ally.id == a.id or self.hostile(a, ally):
            raise Illegal(f"{ally.name} is not an ally of {a.name}", "DND-18", "target")
        if not act.get("against"):
            raise Illegal("name the enemy the ally will attack (against = ID)", "DND-18", "against")
        foe = self._target(session, a, act["against"], "against")
        if not self.hostile(a, foe):
            raise Illegal(f"{foe.name} is not an enemy", "DND-18", "against")
        if not engaged(a.body(), foe.body()):
            raise Illegal(f"{a.name} must be within 1.5 m of {foe.name} to help attack it", "DND-18", "against")
        return {"ally": ally.id, "target": foe.id}

    def _apply_help(self, session, a, act, plan):
        session.state.turn["action"] = True
        session.state.data.setdefault("help", []).append({"ally": plan["ally"], "target": plan["target"], "helper": a.id})
        session.emit({"type": "help", "who": a.id, "ally": plan["ally"], "target": plan["target"], "rule": "DND-18"})

    def _check_hide(self, session, a, act):
        self._need_action(a, session, "Hide", "DND-23")
        if a.has("invisible"):
            return {}
        for o in session.state.actors.values():
            if self.hostile(o, a) and not o.dead and not self.incapacitated(o) and not o.has("blinded"):
                if self.cover(session, o, a).level == "none":
                    raise Illegal(f"{a.name} is in plain sight of {o.name} (no cover): it cannot hide", "DND-23")
        return {}

    def _apply_hide(self, session, a, act, plan):
        session.state.turn["action"] = True
        total = self.check_roll(session, a, "stealth", "check", "DND-23", "Stealth to hide")
        a.data["hidden"] = total
        session.emit({"type": "hide", "who": a.id, "stealth": total, "rule": "DND-23"})

    def _check_search(self, session, a, act):
        self._need_action(a, session, "Search", "DND-19")

    def _apply_search(self, session, a, act, plan):
        session.state.turn["action"] = True
        total = self.check_roll(session, a, "perception", "check", "DND-19", "Perception to search")
        found = []
        for o in session.state.actors.values():
            if o.data["hidden"] is not None and self.hostile(a, o) and self.cover(session, a, o).visible:
                if total >= o.data["hidden"]:                     # DND-23: contested by active searchers
                    o.data["hidden"] = None
                    found.append(o.id)
                    session.emit({"type": "revealed", "who": o.id, "by": a.id, "reason": "found by a search", "rule": "DND-23"})
        session.emit({"type": "search", "who": a.id, "perception": total, "found": found, "rule": "DND-19"})

    def _check_ready(self, session, a, act):
        self._need_action(a, session, "Ready", "DND-20")
        w = self.weapon(a, act.get("weapon"))
        if act.get("target"):
            t = self._target(session, a, act["target"])
            if not self.hostile(a, t):
                raise Illegal(f"{t.name} is not an enemy", "DND-20", "target")
        return {"weapon": w["name"], "target": act.get("target")}

    def _apply_ready(self, session, a, act, plan):
        session.state.turn["action"] = True
        a.data["readied"] = {"weapon": plan["weapon"], "target": plan["target"], "trigger": "enters_reach"}
        session.emit({"type": "ready", "who": a.id, "weapon": plan["weapon"], "target": plan["target"],
                      "trigger": "a hostile creature ends a move within reach or range", "rule": "DND-20"})

    def _readied_triggers(self, session, mover: Actor) -> None:
        for r in list(session.state.actors.values()):
            rd = r.data.get("readied")
            if not rd or r.dead or self.incapacitated(r) or r.data["reaction_used"] or not self.hostile(r, mover):
                continue
            if mover.dead or (rd["target"] and rd["target"] != mover.id):
                continue
            w = self.weapon(r, rd["weapon"])
            try:
                plan = self._attack_plan(session, r, mover, w, False)
            except Illegal:
                continue
            r.data["reaction_used"] = True
            r.data["readied"] = None
            session.emit({"type": "readied_action", "who": r.id, "target": mover.id, "weapon": w["name"], "rule": "DND-20"})
            plan["kind"] = "reaction"
            self._resolve_attack(session, r, mover, plan, {})

    def _check_use(self, session, a, act):
        self._need_action(a, session, "Use an Object", "DND-25")
        obj = act["object"]
        if obj not in a.data["items"]:
            raise Illegal(f"{a.name} carries no {obj}; it carries: {', '.join(a.data['items']) or 'nothing'}", "DND-25", "object")
        t = a
        if act.get("target"):
            t = self._target(session, a, act["target"])
            if t.id != a.id and not engaged(a.body(), t.body()):
                raise Illegal(f"{t.name} is not within 1.5 m", "DND-25", "target")
        return {"object": obj, "target": t.id}

    def _apply_use(self, session, a, act, plan):
        session.state.turn["action"] = True
        obj = plan["object"]
        a.data["items"].remove(obj)
        session.emit({"type": "use", "who": a.id, "object": obj, "target": plan["target"], "rule": "DND-25"})
        info = OBJECTS.get(obj)
        if info and "heal" in info:
            n, s = dice_spec(info["heal"])
            amt = sum(session.roll("heal", s, n, who=a.id, rule="DND-25")) + info["bonus"]
            self.heal(session, session.state.actors[plan["target"]], amt, "DND-25")

    def _check_stand(self, session, a, act):
        if not a.has("prone"):
            raise Illegal(f"{a.name} is not prone", "DND-48")
        sz = self.speed_zero(a)
        if sz:
            raise Illegal(f"{a.name} is {sz[0]}: speed 0, it cannot stand up", sz[1])
        cost = a.data["speed_m"] / 2
        left = self.movement_left(session, a, False)
        if left + 1e-9 < cost:
            raise Illegal(f"standing up costs half the speed ({cost:g} m); {a.name} has {max(left, 0):g} m left", "DND-48")
        return {"cost": cost}

    def _apply_stand(self, session, a, act, plan):
        self.spend_movement(session, a, plan["cost"])
        self.remove_condition(session, a, "prone", "DND-48")
        session.emit({"type": "stand", "who": a.id, "cost_m": plan["cost"], "rule": "DND-48"})

    def _check_stabilize(self, session, a, act):
        self._need_action(a, session, "stabilising", "DND-05")
        t = self._target(session, a, act["target"])
        if t.hp > 0 or t.data["stable"]:
            raise Illegal(f"{t.name} is not dying", "DND-05", "target")
        if not engaged(a.body(), t.body()):
            raise Illegal(f"{t.name} is not within 1.5 m", "DND-05", "target")
        return {"target": t.id}

    def _apply_stabilize(self, session, a, act, plan):
        session.state.turn["action"] = True
        t = session.state.actors[plan["target"]]
        total = self.check_roll(session, a, "medicine", "check", "DND-05", "Medicine DC 10")
        ok = total >= 10
        if ok:
            t.data["stable"] = True
        session.emit({"type": "stabilize", "who": a.id, "target": t.id, "total": total, "success": ok, "rule": "DND-05"})

    def _check_end_turn(self, session, a, act):
        return {}

    def _apply_end_turn(self, session, a, act, plan):
        session.emit({"type": "end_turn", "who": a.id})
        self._end_of_turn_effects(session, a)
        self._check_over(session)
        self._advance(session)
        self._begin_turn(session, 0)

    # -- grapple, shove, escape ---------------------------------------------------------------------------------------
    def _contest_target(self, session, a, act, rule):
        t = self._target(session, a, act["target"])
        if t.id == a.id:
            raise Illegal(f"{a.name} cannot {act['action']} itself", rule, "target")
        turn = session.state.turn
        if turn["attacks_left"] <= 0 and turn["action"]:
            raise Illegal(f"a {act['action']} replaces an attack; {a.name} has none left this turn", rule)
        if SIZES.index(t.size) > SIZES.index(a.size) + 1:
            raise Illegal(f"{t.name} is more than one size larger than {a.name}", rule, "target")
        reach = max(self.melee_reach(a, w) for w in a.data["weapons"])
        if not in_melee_reach(a.body(), t.body(), reach, session.world.cell_m):
            raise Illegal(f"{t.name} is out of {a.name}'s reach", "AIR-05", "target")
        return t

    def _contest(self, session, a, t, rule) -> bool:
        if self.incapacitated(t):
            session.emit({"type": "contest", "who": a.id, "target": t.id, "automatic": True, "success": True, "rule": rule})
            return True
        ta = self.check_roll(session, a, "athletics", "check", rule, "Athletics")
        skill = max(("athletics", "acrobatics"), key=lambda s: self.skill(t, s))
        dis = t.has("poisoned")
        r = self.d20(session, "contest", t.id, False, dis, rule, skill.capitalize())
        tt = r + self.skill(t, skill)
        ok = ta > tt
        session.emit({"type": "contest", "who": a.id, "target": t.id, "attacker_total": ta, "defender_total": tt,
                      "defender_skill": skill, "success": ok, "rule": rule})
        return ok

    def _check_grapple(self, session, a, act):
        t = self._contest_target(session, a, act, "DND-30")
        if a.id in t.conditions.get("grappled", []):
            raise Illegal(f"{a.name} already grapples {t.name}", "DND-30", "target")
        return {"target": t.id}

    def _apply_grapple(self, session, a, act, plan):
        self._use_attack(session, a)
        t = session.state.actors[plan["target"]]
        if self._contest(session, a, t, "DND-30"):
            self.add_condition(session, t, "grappled", "DND-30", source=a.id)
            session.emit({"type": "grapple", "who": a.id, "target": t.id, "rule": "DND-30"})

    def _check_escape(self, session, a, act):
        self._need_action(a, session, "escaping a grapple", "DND-30")
        if not a.has("grappled"):
            raise Illegal(f"{a.name} is not grappled", "DND-30")
        return {}

    def _apply_escape(self, session, a, act, plan):
        session.state.turn["action"] = True
        gid = a.conditions["grappled"][0] if a.conditions["grappled"] else None
        g = session.state.actors.get(gid) if gid else None
        skill = max(("athletics", "acrobatics"), key=lambda s: self.skill(a, s))
        mine = self.check_roll(session, a, skill, "check", "DND-30", "escape")
        theirs = (self.d20(session, "contest", g.id, False, False, "DND-30", "Athletics") + self.skill(g, "athletics")) if g else 0
        ok = mine > theirs
        session.emit({"type": "escape", "who": a.id, "from": gid, "total": mine, "against": theirs, "success": ok, "rule": "DND-30"})
        if ok:
            if g:
                self._release(session, a, g, "DND-30", "escaped")
            else:
                self.remove_condition(session, a, "grappled", "DND-30")

    def _check_shove(self, session, a, act):
        t = self._contest_target(session, a, act, "DND-31")
        return {"target": t.id, "mode": act.get("mode", "prone")}

    def _apply_shove(self, session, a, act, plan):
        self._use_attack(session, a)
        t = session.state.actors[plan["target"]]
        if not self._contest(session, a, t, "DND-31"):
            return
        if plan["mode"] == "prone":
            session.emit({"type": "shove", "who": a.id, "target": t.id, "mode": "prone", "rule": "DND-31"})
            self.knock_prone(session, t, "DND-31")
            return
        if t.data.get("mounted_on"):
            # DND-36: moved against its will while mounted -> Dexterity save DC 10 or fall off, prone
            session.emit({"type": "shove", "who": a.id, "target": t.id, "mode": "push", "moved": False,
                          "reason": "mounted", "rule": "DND-31"})
            self._mount_moved_against_will(session, t, session.state.actors[t.data["mounted_on"]])
            return
        dx = (t.x > a.x) - (t.x < a.x)
        dy = (t.y > a.y) - (t.y < a.y)
        if dx == dy == 0:
            dx = 1
        nx, ny, nz = t.x + dx, t.y + dy, t.layer
        blocked = not aerial.body_fits(session, t, nx, ny, nz) or any(
            aerial._overlap(t, (nx, ny, nz), o) for o in session.state.actors.values() if o.id != t.id and not o.dead and not o.data.get("mounted_on"))
        if blocked:
            session.emit({"type": "shove", "who": a.id, "target": t.id, "mode": "push", "moved": False,
                          "reason": "no room behind", "rule": "DND-31"})
            return
        frm = t.pos
        t.x, t.y = nx, ny
        aerial._carry_rider(session, t)
        session.emit({"type": "shove", "who": a.id, "target": t.id, "mode": "push", "moved": True, "from": list(frm),
                      "to": list(t.pos), "rule": "DND-31", "note": "forced movement provokes no opportunity attack (DND-28)"})
        if t.data.get("rider"):
            self._mount_moved_against_will(session, session.state.actors[t.data["rider"]], t)
        if not t.flying and not aerial.is_supported(session, t):
            session.emit({"type": "pushed_off", "who": t.id, "rule": "AIR-12"})
            t.flying = True
            aerial.fall(session, t, None, "AIR-12", "pushed off an edge")

    # -- mounts (DND-36) -------------------------------------------------------------------------------------------------
    def _check_mount(self, session, a, act):
        m = self._target(session, a, act["target"])
        if m.id == a.id or self.hostile(a, m):
            raise Illegal(f"{m.name} is not a willing mount", "DND-36", "target")
        if a.data["mounted_on"] or m.data["rider"] or m.data["mounted_on"]:
            raise Illegal("already riding or ridden", "DND-36", "target")
        if SIZES.index(m.size) <= SIZES.index(a.size):
            raise Illegal(f"{m.name} must be larger than {a.name} to carry it", "DND-36", "target")
        if not engaged(a.body(), m.body()):
            raise Illegal(f"{m.name} is not within 1.5 m", "DND-36", "target")
        cost = a.data["speed_m"] / 2
        left = self.movement_left(session, a, False)
        if left + 1e-9 < cost:
            raise Illegal(f"mounting costs half the speed ({cost:g} m); {a.name} has {max(left, 0):g} m left", "DND-36")
        return {"mount": m.id, "cost": cost}

    def _do_mount(self, session, a, m, quiet=False):
        a.data["mounted_on"] = m.id
        m.data["rider"] = a.id
        a.x, a.y, a.layer = m.x, m.y, m.layer
        a.flying = m.flying
        if not quiet:
            session.emit({"type": "mount", "who": a.id, "mount": m.id, "rule": "DND-36"})

    def _apply_mount(self, session, a, act, plan):
        self.spend_movement(session, a, plan["cost"])
        m = session.state.actors[plan["mount"]]
        self._do_mount(session, a, m)
        st = session.state
        if m.data["controlled_mount"] and m.id in st.order and a.id in st.order:
            # DND-36: a controlled mount acts on its rider's initiative, right after it
            i = st.order.index(m.id)
            st.order.pop(i)
            if i < st.turn_index:
                st.turn_index -= 1
            st.order.insert(st.order.index(a.id) + 1, m.id)
            session.emit({"type": "initiative_moved", "who": m.id, "after": a.id, "order": list(st.order), "rule": "DND-36"})

    def _dismount_spot(self, session, a, m, prefer=None):
        cands = []
        for dy in range(-1, m.footprint + 1):
            for dx in range(-1, m.footprint + 1):
                x, y = m.x + dx, m.y + dy
                if 0 <= dx < m.footprint and 0 <= dy < m.footprint:
                    continue
                X, Y, Z = session.world.size
                if not (0 <= x < X and 0 <= y < Y):
                    continue
                z = session.world.support_layer(x, y, m.layer + 1) if not m.flying else m.layer
                if aerial.body_fits(session, a, x, y, z) and not any(
                        aerial._overlap(a, (x, y, z), o) for o in session.state.actors.values() if o.id not in (a.id, m.id) and not o.dead):
                    cands.append((x, y, z))
        if prefer and tuple(prefer) in cands:
            return tuple(prefer)
        return cands[0] if cands else None

    def _check_dismount(self, session, a, act):
        if not a.data["mounted_on"]:
            raise Illegal(f"{a.name} is not riding", "DND-36")
        m = session.state.actors[a.data["mounted_on"]]
        cost = a.data["speed_m"] / 2
        # a rider's own movement (its mount's is the mount's): speed x (1 + Dash) - metres already spent
        left = a.data["speed_m"] * (1 + session.state.turn["dash"]) - session.state.turn["moved_m"]
        if left + 1e-9 < cost:
            raise Illegal(f"dismounting costs half the speed ({cost:g} m); {a.name} has {max(left, 0):g} m left", "DND-36")
        spot = self._dismount_spot(session, a, m, act.get("to"))
        if spot is None:
            raise Illegal(f"no free space next to {m.name} to dismount into", "DND-36")
        if act.get("to") and tuple(act["to"]) != spot:
            raise Illegal(f"{list(act['to'])} is not a free space within 1.5 m of {m.name}", "DND-36", "to")
        return {"spot": spot, "cost": cost}

    def _apply_dismount(self, session, a, act, plan):
        m = session.state.actors[a.data["mounted_on"]]
        self.spend_movement(session, a, plan["cost"])
        a.data["mounted_on"] = None
        m.data["rider"] = None
        a.x, a.y, a.layer = plan["spot"]
        session.emit({"type": "dismount", "who": a.id, "mount": m.id, "to": list(a.pos), "rule": "DND-36"})
        self._after_unhorsed(session, a)

    def _after_unhorsed(self, session, a):
        supported = aerial.is_supported(session, a)
        if supported:
            a.flying = False
        elif a.can_fly and self.fall_reason(session, a) is None:
            a.flying = True
        else:
            a.flying = True
            aerial.fall(session, a, None, "AIR-10", "left its flying mount without flying")

    def _fall_off_mount(self, session, rider, rule):
        m = session.state.actors[rider.data["mounted_on"]]
        spot = self._dismount_spot(session, rider, m)
        rider.data["mounted_on"] = None
        m.data["rider"] = None
        if spot:
            rider.x, rider.y, rider.layer = spot
        session.emit({"type": "falls_off_mount", "who": rider.id, "mount": m.id, "to": list(rider.pos), "rule": rule})
        self._after_unhorsed(session, rider)
        if "prone" not in rider.conditions:
            self.add_condition(session, rider, "prone", rule)

    def _mount_fell(self, session, rider, m):
        """DND-36: the mount is knocked prone (or dies): the rider uses its reaction to land on its feet, else falls prone."""
        if rider.data.get("mounted_on") != m.id:
            return
        if not rider.data["reaction_used"] and not self.incapacitated(rider) and not m.flying:
            rider.data["reaction_used"] = True
            spot = self._dismount_spot(session, rider, m)
            rider.data["mounted_on"] = None
            m.data["rider"] = None
            if spot:
                rider.x, rider.y, rider.layer = spot
            session.emit({"type": "lands_on_feet", "who": rider.id, "mount": m.id, "to": list(rider.pos), "rule": "DND-36"})
            self._after_unhorsed(session, rider)
        else:
            self._fall_off_mount(session, rider, "DND-36")

    def _mount_moved_against_will(self, session, rider, m):
        if not self.saving_throw(session, rider, "dex", 10, None, "DND-36", "stay mounted"):
            self._fall_off_mount(session, rider, "DND-36")
        else:
            aerial._carry_rider(session, m)

    # -- spells (DND-21, DND-14) -----------------------------------------------------------------------------------------------
    def _check_cast(self, session, a, act):
        name = act["spell"]
        if name not in a.data["spells"]:
            raise Illegal(f"{a.name} does not know {name}; its spells: {', '.join(a.data['spells']) or 'none'}", "DND-21", "spell")
        sp = SPELLS[name]
        turn = session.state.turn
        if sp["time"] == "bonus":
            if turn["bonus"]:
                raise Illegal(f"{a.name} has already used its bonus action", "DND-12")
            if turn["action_spell"]:
                raise Illegal("after casting a spell with the action, the bonus-action spell is not allowed this turn", "DND-14")
        else:
            self._need_action(a, session, name, "DND-21")
            if turn["bonus_spell"] and sp["level"] > 0:
                raise Illegal("after a bonus-action spell the only other spell this turn may be a cantrip", "DND-14", "spell")
        slots = a.data["spell_slots"]
        if sp["level"] > 0 and slots is not None and slots.get(str(sp["level"]), 0) <= 0:
            raise Illegal(f"{a.name} has no level {sp['level']} spell slot left", "DND-21", "spell")
        cell = session.world.cell_m
        area = sp.get("area")
        plan = {"spell": name}
        if sp["kind"] == "temp_hp" or (area and area["shape"] == "self"):
            plan["targets"] = [a.id] if sp["kind"] == "temp_hp" else self._area_targets(session, a, sp, a.pos, None)
            return plan
        if area:
            if act.get("at") is None and not act.get("target"):
                raise Illegal(f"{name} needs a point (at = [x, y, layer]) or a target", "DND-21", "at")
            point = tuple(act["at"]) if act.get("at") is not None else session.actor(act["target"], "target").pos
            # a cone starts at the caster and points at ``at``/the target; a sphere's centre must be within range
            if area["shape"] != "cone" and distance_m(a.body(), a.body().moved(*point), cell) > sp["range_m"] + 1e-9:
                raise Illegal(f"{list(point)} is beyond {name}'s range of {sp['range_m']:g} m", "DND-21", "at")
            plan["targets"] = self._area_targets(session, a, sp, point, act.get("target"))
            plan["point"] = list(point)
            return plan
        if not act.get("target"):
            raise Illegal(f"{name} needs a target", "DND-21", "target")
        t = self._target(session, a, act["target"])
        d = distance_m(a.body(), t.body(), cell)
        if d > max(sp["range_m"], 1.5 if sp["range_m"] <= 1.5 else 0) + 1e-9 and not (sp["range_m"] <= 1.5 and engaged(a.body(), t.body())):
            raise Illegal(f"{t.name} is {d:.1f} m away, beyond {name}'s range of {sp['range_m']:g} m", "DND-21", "target")
        if t.id != a.id and self.cover(session, a, t).level == "total":
            raise Illegal(f"{t.name} has total cover from {a.name}", "DND-32", "target")
        if sp["kind"] in ("attack", "save", "auto") and t.id in a.conditions.get("charmed", []):
            raise Illegal(f"{a.name} is charmed by {t.name} and cannot harm it", "DND-54", "target")
        plan["targets"] = [t.id]
        return plan

    def _area_targets(self, session, a, sp, point, tid):
        cell = session.world.cell_m
        area = sp["area"]
        pb = Body(point[0], point[1], point[2])
        out = []
        for o in session.state.actors.values():
            if o.dead or (area["shape"] in ("self", "cone") and o.id == a.id):
                continue
            if area["shape"] == "cone":
                d = distance_m(a.body(), o.body(), cell)
                if d > area["length_m"] + 1e-9:
                    continue
                ax, ay = a.body().centre
                px, py = pb.centre
                ox, oy = o.body().centre
                v1 = ((px - ax) * cell, (py - ay) * cell, point[2] - a.layer)
                v2 = ((ox - ax) * cell, (oy - ay) * cell, o.layer - a.layer)
                n1 = math.sqrt(sum(c * c for c in v1)) or 1
                n2 = math.sqrt(sum(c * c for c in v2)) or 1
                if sum(x * y for x, y in zip(v1, v2)) / (n1 * n2) < math.cos(math.atan(0.5)) - 1e-9:
                    continue
            else:
                centre = a.body() if area["shape"] == "self" else pb
                if distance_m(centre, o.body(), cell) > area["radius_m"] + 1e-9:
                    continue
            # an area reaches what its point of origin can see: not through walls (total cover from the point)
            eye = (point[0] + 0.5, point[1] + 0.5, point[2] + 0.5) if area["shape"] == "sphere" else None
            if o.id != a.id and self.cover(session, a, o, eye=eye).level == "total":
                continue
            out.append(o.id)
        return out

    def _apply_cast(self, session, a, act, plan):
        sp = SPELLS[plan["spell"]]
        turn = session.state.turn
        if sp["time"] == "bonus":
            turn["bonus"] = True
            turn["bonus_spell"] = True
        else:
            turn["action"] = True
            if sp["level"] > 0:
                turn["action_spell"] = True
        if sp["level"] > 0 and a.data["spell_slots"] is not None:
            a.data["spell_slots"][str(sp["level"])] -= 1
        session.emit({"type": "cast", "who": a.id, "spell": plan["spell"], "targets": plan["targets"],
                      **({"at": plan["point"]} if "point" in plan else {}), "rule": "DND-21"})
        cmod = self.ab(a, a.data["casting"])
        dc = 8 + a.data["prof"] + cmod
        lvl = a.data["level"]
        n_scale = 1 + (lvl >= 5) + (lvl >= 11) + (lvl >= 17) if sp.get("scales") else 1
        kind = sp["kind"]
        if kind == "save" and sp.get("damage"):
            n, s = dice_spec(sp["damage"])
            dmg = sum(session.roll("damage", s, n * n_scale, who=a.id, rule="DND-21"))
        for tid in plan["targets"]:
            t = session.state.actors[tid]
            if t.dead:
                continue
            if kind == "attack":
                fake = {"weapon": {"name": plan["spell"], "damage": sp["damage"], "type": sp["type"], "properties": ["ranged"],
                                   "range": [sp["range_m"], sp["range_m"]], "to_hit": cmod + a.data["prof"]},
                        "melee": False, "thrown": False, "kind": "spell"}
                p = self._attack_plan(session, a, t, fake["weapon"], False)
                p["kind"] = "spell"
                w = dict(fake["weapon"])
                w["damage"] = f"{n_scale * dice_spec(sp['damage'])[0]}d{dice_spec(sp['damage'])[1]}"
                w["damage_bonus"] = -self._dmg_mod(a, w, False)       # spell attacks add no ability to damage
                p["weapon"] = w
                self._resolve_attack(session, a, t, p, {})
            elif kind == "auto":
                n, s = dice_spec(sp["damage"])
                total = 0
                for _ in range(sp.get("darts", 1)):
                    total += sum(session.roll("damage", s, n, who=a.id, rule="DND-21")) + sp.get("bonus", 0)
                self.apply_damage(session, t, total, sp["type"], a.id, "DND-21")
            elif kind == "heal":
                n, s = dice_spec(sp["heal"])
                self.heal(session, t, sum(session.roll("heal", s, n, who=a.id, rule="DND-21")) + cmod, "DND-21")
            elif kind == "temp_hp":
                n, s = dice_spec(sp["amount"])
                self.give_temp_hp(session, t, sum(session.roll("heal", s, n, who=a.id, rule="DND-35")) + sp.get("bonus", 0), "DND-35")
            elif kind == "save":
                cov = "none" if sp.get("ignores_cover") else self.cover(session, a, t).level
                ok = self.saving_throw(session, t, sp["save"], dc, a, "DND-21", plan["spell"], cover_level=cov)
                if sp.get("damage"):
                    amt = dmg if not ok else (dmg // 2 if sp.get("half") else 0)
                    if amt:
                        self.apply_damage(session, t, amt, sp["type"], a.id, "DND-21")
                if not ok and sp.get("condition") and not t.dead:
                    self.add_condition(session, t, sp["condition"], CONDITION_RULE[sp["condition"]], source=a.id)
                    if sp.get("repeat_save"):
                        t.data.setdefault("repeat_saves", {})[sp["condition"]] = {"save": sp["save"], "dc": dc, "spell": plan["spell"], "rule": "DND-21"}
                if not ok and sp.get("push_cells") and not t.dead:
                    self._push_from(session, a, t, sp["push_cells"])
                # no fall roll here: AIR-11 concerns attacks, and a failed save is not an attack hit

    def _push_from(self, session, a, t, cells):
        if t.data.get("mounted_on"):
            self._mount_moved_against_will(session, t, session.state.actors[t.data["mounted_on"]])
            return
        dx = (t.x > a.x) - (t.x < a.x)
        dy = (t.y > a.y) - (t.y < a.y)
        for _ in range(cells):
            nx, ny = t.x + dx, t.y + dy
            if (dx, dy) == (0, 0) or not aerial.body_fits(session, t, nx, ny, t.layer) or any(
                    aerial._overlap(t, (nx, ny, t.layer), o) for o in session.state.actors.values() if o.id != t.id and not o.dead):
                break
            t.x, t.y = nx, ny
        aerial._carry_rider(session, t)
        session.emit({"type": "pushed", "who": t.id, "to": list(t.pos), "rule": "DND-31"})
        if t.data.get("rider"):
            self._mount_moved_against_will(session, session.state.actors[t.data["rider"]], t)
        if not t.flying and not aerial.is_supported(session, t):
            t.flying = True
            aerial.fall(session, t, None, "AIR-12", "pushed off an edge")

    # -- GM tools -------------------------------------------------------------------------------------------------------------
    def _check_gm(self, session, act):
        t = session.actor(act["target"], "target")
        if act["action"] == "condition":
            if not act.get("add") and not act.get("remove"):
                raise Illegal("give add = NAME or remove = NAME", "", "add")
            for k in ("add", "remove"):
                c = act.get(k)
                if c and c not in CONDITIONS:
                    raise Illegal(f"unknown condition {c!r}; one of {', '.join(CONDITIONS)}", "", k)
            if act.get("source"):
                session.actor(act["source"], "source")
        elif act["amount"] < 0:
            raise Illegal("amount must not be negative", "", "amount")
        return {"target": t.id}

    def _apply_gm(self, session, act, plan):
        t = session.state.actors[plan["target"]]
        k = act["action"]
        if k == "condition":
            if act.get("add"):
                self.add_condition(session, t, act["add"], CONDITION_RULE[act["add"]], source=act.get("source"))
            if act.get("remove"):
                self.remove_condition(session, t, act["remove"], CONDITION_RULE[act["remove"]])
        elif k == "damage":
            self.apply_damage(session, t, act["amount"], act.get("type", "bludgeoning"), "gm", "DND-33")
        elif k == "heal":
            self.heal(session, t, act["amount"], "DND-02")
        elif k == "temp_hp":
            self.give_temp_hp(session, t, act["amount"], "DND-35")

    # ------------------------------------------------------------------------------------------ menus and previews
    def legal_actions(self, session, a: Actor) -> list[dict]:
        if a.id != session.current:
            return []
        out = [{"actor": a.id, "action": "end_turn"}]
        cands = []
        turn = session.state.turn
        if not self.incapacitated(a):
            if not (a.data["mounted_on"]) and not self.speed_zero(a):
                crawl = a.has("prone")
                fly = a.can_fly and not crawl
                left = self.movement_left(session, a, fly) / (2 if crawl else 1)
                if left > 0:
                    r = aerial.reach(session, a, budget_m=left, fly=fly)
                    for d in r.destinations():
                        out.append({"actor": a.id, "action": "move", "to": list(d)})
            mounted_ctl = a.data["controlled_mount"] and a.data["rider"]
            for k in ("dash", "disengage", "dodge"):
                cands.append({"actor": a.id, "action": k})
            if not mounted_ctl:
                others = [o for o in session.state.actors.values() if o.id != a.id and not o.dead]
                foes = [o for o in others if self.hostile(a, o)]
                friends = [o for o in others if not self.hostile(a, o)]
                can_attack = turn["attacks_left"] > 0 or not turn["action"]
                cell = session.world.cell_m
                ab = a.body()
                reach_any = max(self.melee_reach(a, w) for w in a.data["weapons"])
                for t in foes:
                    tb = t.body()
                    near = in_melee_reach(ab, tb, reach_any, cell)          # cheap prefilters; check() decides
                    adjacent = engaged(ab, tb)
                    for w in a.data["weapons"]:
                        if can_attack:
                            cands.append({"actor": a.id, "action": "attack", "target": t.id, "weapon": w["name"]})
                        if turn["light_weapon"] and not turn["bonus"]:
                            cands.append({"actor": a.id, "action": "attack", "target": t.id, "weapon": w["name"], "bonus": True})
                    if can_attack and near:
                        cands.append({"actor": a.id, "action": "grapple", "target": t.id})
                        cands.append({"actor": a.id, "action": "shove", "target": t.id, "mode": "prone"})
                        cands.append({"actor": a.id, "action": "shove", "target": t.id, "mode": "push"})
                    if adjacent and not turn["action"]:
                        for f in friends:
                            cands.append({"actor": a.id, "action": "help", "target": f.id, "against": t.id})
                for sp in a.data["spells"]:
                    info = SPELLS[sp]
                    if turn["action"] if info["time"] == "action" else turn["bonus"]:
                        continue
                    if info["kind"] == "temp_hp" or (info.get("area") and info["area"]["shape"] == "self"):
                        cands.append({"actor": a.id, "action": "cast", "spell": sp})
                    else:
                        pool = friends + [a] if info["kind"] == "heal" else foes
                        for t in pool:
                            cands.append({"actor": a.id, "action": "cast", "spell": sp, "target": t.id})
                for f in friends:
                    if f.hp == 0 and not f.data["stable"]:
                        cands.append({"actor": a.id, "action": "stabilize", "target": f.id})
                    cands.append({"actor": a.id, "action": "mount", "target": f.id})
                for it in sorted(set(a.data["items"])):
                    cands.append({"actor": a.id, "action": "use", "object": it})
                cands += [{"actor": a.id, "action": "hide"}, {"actor": a.id, "action": "search"},
                          {"actor": a.id, "action": "ready", "weapon": a.data["weapons"][0]["name"]},
                          {"actor": a.id, "action": "stand"}, {"actor": a.id, "action": "escape"},
                          {"actor": a.id, "action": "dismount"}]
        return out + self.keep_legal(session, cands)

    def preview(self, session, act: dict) -> dict:
        a = session.state.actors.get(act["actor"])
        plan, refused = self.checked_plan(session, act)
        if refused:
            return refused
        out = {"action": act["action"], "legal": True}
        if act["action"] == "move":
            path = plan["path"]
            b = aerial.path_breakdown(session, a, path)
            fly = a.can_fly and not plan["crawl"]
            ends_aloft = a.can_fly and not aerial.is_supported(session, a, *path[-1])
            out.update({"path": [list(p) for p in path], "cost_m": plan["costs"][-1],
                        "left_after_m": round(self.movement_left(session, a, fly) - plan["costs"][-1], 4), **b,
                        "ends_aloft": ends_aloft,
                        "bonus_action_needed": ends_aloft,
                        "bonus_action_available": self.upkeep_available(session, a),
                        "falls_at_end_of_turn": ends_aloft and not self.upkeep_available(session, a),
                        "provokes": self._would_provoke(session, a, path)})
        elif act["action"] == "attack":
            t = session.state.actors[plan["target"]]
            adv, dis = self.attack_sources(session, a, t, plan)
            bonus = self.attack_bonus(a, plan["weapon"], plan["melee"])
            ac = t.data["ac"] + {"half": 2, "three-quarters": 5}.get(plan["cover"], 0)
            need = max(2, min(20, ac - bonus))
            p1 = (21 - need) / 20.0
            p = 1 - (1 - p1) ** 2 if adv and not dis else (p1 * p1 if dis and not adv else p1)
            out.update({"target": t.id, "weapon": plan["weapon"]["name"], "melee": plan["melee"], "cover": plan["cover"],
                        "blocked_fraction": plan["blocked_fraction"], "distance_m": plan["distance_m"],
                        "advantage": [list(s) for s in adv], "disadvantage": [list(s) for s in dis],
                        "height": "no bonus to hit (AIR-17)", "to_hit_bonus": bonus, "target_ac": ac,
                        "hit_chance": round(p, 4), "target_flying": t.flying,
                        "fall_roll_on_hit": t.flying, "chance_fall_roll_moves_it": 0.8 if t.flying else 0.0})
        elif act["action"] == "cast":
            sp = SPELLS[plan["spell"]]
            cmod = self.ab(a, a.data["casting"])
            out.update({"spell": plan["spell"], "kind": sp["kind"], "targets": plan["targets"],
                        "level": sp["level"], "casting_time": sp["time"]})
            if sp["kind"] == "save":
                out.update({"save": sp["save"], "dc": 8 + a.data["prof"] + cmod})
            elif sp["kind"] == "attack":
                out["to_hit_bonus"] = cmod + a.data["prof"]
        elif act["action"] in ("grapple", "shove"):
            t = session.state.actors[plan["target"]]
            out.update({"target": t.id, "your_bonus": self.skill(a, "athletics"),
                        "their_bonus": max(self.skill(t, "athletics"), self.skill(t, "acrobatics")),
                        "grounds_a_flyer": bool(t.flying and (act["action"] == "shove" and act.get("mode", "prone") == "prone"
                                                              or act["action"] == "grapple" and not a.flying))})
        return out

    def _would_provoke(self, session, a, path) -> list:
        if session.state.turn["disengaged"]:
            return []
        cell = session.world.cell_m
        out = []
        for r in session.state.actors.values():
            if r.id == a.id or not self.hostile(r, a) or r.dead or self.incapacitated(r) or r.data["reaction_used"]:
                continue
            melee = [w for w in r.data["weapons"] if self.is_melee(w)]
            if not melee:
                continue
            reach = max(self.melee_reach(r, w) for w in melee)
            for p, q in zip(path, path[1:]):
                if in_melee_reach(r.body(), a.body().moved(*p), reach, cell) and not in_melee_reach(r.body(), a.body().moved(*q), reach, cell):
                    out.append(r.id)
                    break
        return out
