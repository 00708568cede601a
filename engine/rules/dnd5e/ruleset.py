"""The D&D 5e ruleset plug-in: initiative, turns, the action economy, attacks, spells, damage, dying, conditions.

Rule IDs are those of ``../shared/rules/CATALOGUE.md``; decisions on gaps are in ``docs/rules-core.md``.
"""

from __future__ import annotations

from typing import ClassVar, cast

from engine.errors import SceneError
from engine.rules import aerial
from engine.rules.actions import Param
from engine.rules.core import Actor, Illegal, Session
from engine.rules.dnd5e.actions.contact import Dismount, Escape, Grapple, Mount, Shove
from engine.rules.dnd5e.actions.magic import Cast, Gm
from engine.rules.dnd5e.actions.objects import EVENT_LINES as OBJECT_LINES
from engine.rules.dnd5e.actions.objects import ForceLock, PickLock, object_candidates, preview_object_attack
from engine.rules.dnd5e.actions.policy import ReactionPolicy
from engine.rules.dnd5e.actions.standard import (
    Attack,
    Dash,
    Disengage,
    Dodge,
    EndTurn,
    Help,
    Hide,
    Move,
    Ready,
    Search,
    Stabilize,
    Stand,
    Use,
)
from engine.rules.dnd5e.attacks import Attacks
from engine.rules.dnd5e.common import ABILITIES, OBJECTS, SKILL_ABILITY, dice_spec, mod  # noqa: F401
from engine.rules.dnd5e.conditions import Conditions
from engine.rules.dnd5e import feats
from engine.rules.dnd5e.damage import Damage
from engine.rules.dnd5e.data import (
    CONDITION_RULE,
    CONDITIONS,
    GROUNDING_TEXT,
    SPELLS,
    STATBLOCKS,
    WEAPONS,
)
from engine.rules.dnd5e.mounts import Mounts
from engine.rules.dnd5e.text import EVENT_LINES
from engine.rules.ruleset import Ruleset
from engine.world.geometry import engaged, in_melee_reach


class Dnd5e(Conditions, Damage, Attacks, Mounts, Ruleset):
    name = "dnd5e"
    upkeep_name = "bonus action"
    EVENT_LINES = {**EVENT_LINES, **OBJECT_LINES}     # how its events read in the runner's log
    occupied_rule = "DND-11"
    walk_rule = "DND-11"          # a walker's over-long move: the movement rule, not the flight rule
    fall_damage_type = "bludgeoning"   # 5e: falling damage is bludgeoning (resistance and immunity apply)
    DEFAULT_OPTIONS: ClassVar[dict] = {
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
        "air_speed": "ground",            # AIR-09: in the air at the ground speed; "fly_speed": 5e's separate fly speed
        "temp_hp_at_zero": "absorb",      # DND-35: temporary HP absorb damage at 0 HP before a death-save failure
        "stable_damage": "restart",       # DND-05: damage to a stable creature restarts its death saves from zero
        "frightened_move": "always",      # DND-49: never willingly closer to the source; "in_sight": only while seen
        "incapacitated_flyer": "falls_now",  # AIR-10: loses its bonus action -> falls at once; "end_of_turn"
        "fall_damage_type": "bludgeoning",   # 5e falling damage; "untyped": no resistance applies (old reading)
        "dodge_unseen": "disadvantage",   # DND-24 the document: every attack; "needs_sight": 5e's "if it can see"
    }

    CHOICES: ClassVar[dict] = {"diagonal": ("5e", "euclidean", "5-10-5"), "fall_damage_rounding": ("down", "up", "nearest"),
               "fall_roll_on": ("hit",), "nat20_death_save": ("two_successes", "regain_1hp"),
               "prone_ranged": ("disadvantage", "none"), "grounding_grappler": ("not_flying", "can_fly"),
               "temp_hp": ("keep_higher", "replace"), "sneak_attack_per": ("round", "turn"),
               "upkeep": ("end_of_turn", "start_of_turn"), "mount_oa_target": ("mount", "rider"),
               "air_speed": ("ground", "fly_speed"), "temp_hp_at_zero": ("absorb", "failure_first"),
               "stable_damage": ("restart", "keep_counts"), "frightened_move": ("always", "in_sight"),
               "incapacitated_flyer": ("falls_now", "end_of_turn"), "fall_damage_type": ("bludgeoning", "untyped"),
               "dodge_unseen": ("disadvantage", "needs_sight")}
    # ------------------------------------------------------------------------------------------ turn structure
    ECONOMY_KEYS = ("action", "bonus")
    GM_ACTIONS = ("condition", "damage", "heal", "temp_hp", "inspire")
    REACTIONS = feats.REACTIONS      # the names an action's ``reactions`` table may answer (engine/rules/choices.py)
    CONTROLLED_MOUNT_ACTIONS = ("move", "dash", "disengage", "dodge", "end_turn")


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

        abilities: dict = {k: 10 for k in ABILITIES}
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
        featdata = None
        if raw["feats"] or raw["feat_choices"] or raw["reactions"]:     # DND-F00: increases before anything derived
            featdata = feats.setup(raw["feats"], raw["feat_choices"], raw["reactions"], abilities,
                                   list(pick("spells", []) or []), file, key)
        for f, lo in (("speed_m", 0), ("fly_speed_m", 0), ("swim_speed_m", 0), ("reach_m", 0.5), ("attacks", 1)):
            v = raw.get(f)
            if v is not None and (v < lo or v > 1000):
                raise SceneError(file, f"{key}.{f}", f"must be between {lo} and 1000")
        max_hp = pick("max_hp")
        if max_hp is None:
            max_hp = max(1, 8 + mod(abilities["con"]) + (level - 1) * (5 + mod(abilities["con"])))
        if max_hp < 1:
            raise SceneError(file, f"{key}.max_hp", "must be at least 1")
        if featdata and "tough" in featdata["feats"]:
            max_hp += 2 * level                           # DND-F34 Tough
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
        conds = self.scene_conditions(raw["conditions"], CONDITIONS, file, key)
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
        if featdata:
            data.update(featdata)
            data["public"] = ["feats"]
            if feats.has_raw(featdata, "mobile"):
                data["speed_m"] += 3.0                    # DND-F27 Mobile
            if feats.has_raw(featdata, "dual_wielder") and sum(1 for w in weapons if self.is_melee(w)) >= 2:
                data["ac"] += 1                           # DND-F24 Dual Wielder
            if feats.has_raw(featdata, "resilient"):
                ab = featdata["feat_increases"]["resilient"]
                if ab not in data["saves"]:
                    data["saves"].append(ab)              # DND-F25 Resilient
            if feats.has_raw(featdata, "tavern_brawler"):
                for w in weapons:
                    if w["name"] == "unarmed":
                        w["damage"] = "1d4"               # DND-F39 Tavern Brawler
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
                total = die + mod(a.data["abilities"]["dex"]) + (5 if feats.has(a, "alert") else 0)   # DND-F10
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

    def alive_sides(self, session) -> set:
        return {a.side for a in session.state.actors.values() if not a.dead and a.hp > 0}

    def invariants(self, session) -> list[str]:
        bad = [f"{a.id} is dead with {a.hp} HP" for a in session.state.actors.values() if a.dead and a.hp != 0]
        for a in session.state.actors.values():
            if a.data.get("feats") is not None and not 0 <= a.data["luck"] <= 3:
                bad.append(f"{a.id} has {a.data['luck']} luck points")
            if a.data.get("speed_zero_by") and session.state.turn.get("actor") is None:
                bad.append(f"{a.id} keeps a Sentinel's speed 0 outside a turn")
        return bad

    @classmethod
    def query_notes(cls, scene, a, b, result: dict) -> list[dict]:
        return feats.query_notes(a, b, result)

    def hud_rows(self, session, a: Actor) -> list[str]:
        ac = (a.data or {}).get("ac")
        rows = [f"HP {a.hp}/{a.max_hp}" + (f" (+{a.temp_hp} temp)" if a.temp_hp else "") +
                (f"   AC {ac}" if ac is not None else "")]
        if (a.data or {}).get("feats"):
            rows += feats.panel_rows(a)
        return rows

    @staticmethod
    def move_preview_lines(pv: dict) -> list[str]:
        if pv.get("bonus_action_needed"):
            avail = pv.get("bonus_action_available")
            return ["bonus action needed to stay aloft (AIR-08): " + ("available" if avail else "ALREADY USED")]
        if "bonus_action_needed" in pv:
            return ["no bonus action needed for flight this turn (AIR-08)"]
        return []

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
            for o in st.actors.values():                        # DND-F37: "for the rest of the turn"
                if o.data.get("speed_zero_by"):
                    o.data.pop("speed_zero_by")
            st.data["help"] = [h for h in st.data.get("help", []) if h["helper"] != a.id]   # DND-18
            if self.opt("sneak_attack_per") == "turn":
                a.data["sneak_round"] = -1
            if not a.dead and a.hp == 0 and not a.data["stable"]:
                self._death_save(session, a)
            if self.can_act(a):
                aerial.upkeep_at_start(session, a)              # option upkeep = "start_of_turn" (AIR-08)
                return
            why = "is dead" if a.dead else ("is " + cast(str, self.tagged(a, "incapacitated")))
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
        base = a.data["speed_m"]           # AIR-09: in the air at the ground speed
        if flying and a.data["fly_speed_m"] is not None and self.opt("air_speed") == "fly_speed":
            base = a.data["fly_speed_m"]
        t = session.state.turn
        if t.get("actor") != a.id:
            return base        # not its turn: what it will have when its turn starts (for overlays)
        return base * (1 + t["dash"]) - t["moved_m"]

    def takeoff_cost(self, session, a):
        if self.opt("air_speed") == "fly_speed":
            return (a.data["fly_speed_m"] or a.data["speed_m"]) / 2.0
        return a.data["speed_m"] / 2.0     # AIR-06: half its movement (AIR-09: its ground speed)

    def spend_movement(self, session, a, metres):
        session.state.turn["moved_m"] = round(session.state.turn["moved_m"] + metres, 4)

    def upkeep_available(self, session, a):
        t = session.state.turn
        return t.get("actor") == a.id and not t["bonus"] and not self.incapacitated(a)

    def spend_upkeep(self, session, a):
        session.state.turn["bonus"] = True

    def fall_type(self, session):
        return "bludgeoning" if self.opt("fall_damage_type") == "bludgeoning" else "falling"

    def fall_reason(self, session, a):
        if a.data.get("mounted_on"):
            return None
        if a.dead:
            return (f"{a.name} is dead", "DND-01")
        c = self.tagged(a, "grounds_flyer")
        if c:
            return (f"{a.name} {GROUNDING_TEXT[c]}", CONDITION_RULE[c])
        if a.hp == 0:
            return (f"{a.name} is dying", "DND-02")
        if a.has("incapacitated") and self.opt("incapacitated_flyer") == "falls_now":
            return (f"{a.name} is incapacitated: it loses its bonus action", "AIR-10")
        if a.data.get("speed_zero_by"):
            return (f"{a.name}'s speed is 0 (Sentinel): a flyer that loses its movement falls", "DND-F37")
        if "grappled" in a.conditions:
            for gid in a.conditions["grappled"]:
                g = session.state.actors.get(gid)
                holds_down = g is None or (not g.flying if self.opt("grounding_grappler") == "not_flying" else not g.can_fly)
                if holds_down:
                    return (f"{a.name} is grappled by {g.name if g else gid}, who does not fly", "DND-47")
        return None

    def knock_prone(self, session, a, rule):
        self.add_condition(session, a, "prone", rule)

    # ------------------------------------------------------------------------------------------ actions
    def action_specs(self):
        specs = type(self).__dict__.get("_SPECS")
        if specs is None:
            specs = self._make_specs()
            type(self)._SPECS = specs
        return specs

    def _make_specs(self):
        P = Param
        specs = {
            "move": {"to": P("pos", True, help="the destination [x, y, layer]")},
            "attack": {"target": P("id", help="a character or object id"), "weapon": P("str"),
                       "bonus": P("bool", default=False), "knock_out": P("bool", default=False),
                       "voxel": P("pos", help="a voxel [x, y, z] to attack (DND-40)"),
                       "power_attack": P("bool", help="-5 to hit, +10 damage (Great Weapon Master, Sharpshooter)"),
                       "lucky": P("bool", help="spend a luck point: one more d20, named luck (Lucky)"),
                       "savage": P("bool", help="reroll the melee damage once a turn, keep the higher (Savage Attacker)"),
                       "manoeuvre": P("str", choices=("trip", "pushing", "precision"),
                                      help="spend the superiority die (Martial Adept): trip, pushing, precision"),
                       "bonus_from": P("str", choices=("two_weapon", "great_weapon_master", "polearm_master",
                                                       "crossbow_expert", "charger"),
                                       help="what allows the bonus-action attack (default: the first that applies)")},
            "pick_lock": {"target": P("id", True, help="the locked object")},
            "force_lock": {"target": P("id", True, help="the locked object")},
            "dash": {}, "disengage": {}, "dodge": {},
            "help": {"target": P("id", True, help="the ally helped"), "against": P("id", help="the enemy the ally attacks")},
            "hide": {}, "search": {},
            "ready": {"target": P("id"), "weapon": P("str"), "trigger": P("str", choices=("enters_reach",), default="enters_reach")},
            "use": {"object": P("str", True), "target": P("id")},
            "cast": {"spell": P("str", True), "target": P("id"), "at": P("pos")},
            "grapple": {"target": P("id", True), "bonus": P("bool", help="as a bonus action (Tavern Brawler after an unarmed hit)"),
                        "pin": P("bool", help="Grappler: pin the creature it grapples (both restrained)")},
            "escape": {},
            "shove": {"target": P("id", True), "mode": P("str", choices=("prone", "push"), default="prone"),
                      "bonus": P("bool", help="as a bonus action (Shield Master after the Attack action, Charger after Dash)")},
            "stand": {},
            "stabilize": {"target": P("id", True)},
            "mount": {"target": P("id", True)},
            "dismount": {"to": P("pos")},
            "reaction_policy": {"reaction": P("str", True, choices=feats.REACTIONS), "take": P("bool", True)},
            "end_turn": {"stay_aloft": P("bool", help="false: do not spend the bonus action on staying aloft, and fall (AIR-10)")},
            # the game master's tools (actor = "gm"), for tables and demos
            "condition": {"target": P("id", True), "add": P("str"), "remove": P("str"), "source": P("id")},
            "damage": {"target": P("id", True), "amount": P("int", True), "type": P("str", default="bludgeoning")},
            "heal": {"target": P("id", True), "amount": P("int", True)},
            "temp_hp": {"target": P("id", True), "amount": P("int", True)},
            "inspire": {"target": P("id", True, help="the Inspiring Leader whose 10-minute speech the game master rules took place")},
        }
        return specs

    def check(self, session: Session, act: dict):
        name = act["action"]
        aid = act["actor"]
        if name in self.GM_ACTIONS:
            if aid != "gm":
                raise Illegal(f"{name} is a game master's tool: use actor = \"gm\"", "", "actor")
            return self.ACTIONS["gm"].check(self, session, act)
        if aid == "gm":
            raise Illegal(f"the game master cannot {name}; characters act on their turns", "DND-10", "actor")
        a = session.state.actors[aid]
        cur = cast(str, session.current)
        if aid != cur:
            raise Illegal(f"it is {session.state.actors[cur].name}'s turn, not {a.name}'s", "DND-10", "actor")
        if a.data["controlled_mount"] and a.data["rider"] and name not in self.CONTROLLED_MOUNT_ACTIONS:
            raise Illegal(f"{a.name} is a controlled mount: it may only move, Dash, Disengage or Dodge", "DND-36", "action")
        if name != "end_turn" and self.incapacitated(a):
            c = cast(str, self.tagged(a, "incapacitated")) if not a.dead else "dead"
            raise Illegal(f"{a.name} is {c} and can take no actions", CONDITION_RULE.get(c, "DND-43"), "action")
        return self.ACTIONS[name].check(self, session, a, act)

    def apply(self, session: Session, act: dict, plan) -> None:
        name = act["action"]
        if name in self.GM_ACTIONS:
            self.ACTIONS["gm"].apply(self, session, act, plan)
        else:
            a = session.state.actors[act["actor"]]
            self.ACTIONS[name].apply(self, session, a, act, plan)
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

    # ------------------------------------------------------------------------------------------ menus and previews
    def legal_actions(self, session, a: Actor) -> list[dict]:
        if a.id != session.current:
            return []
        out: list[dict] = [{"actor": a.id, "action": "end_turn"}]
        cands: list[dict] = []
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
        obj = []
        if session.state.objects and not self.incapacitated(a) and not (a.data["controlled_mount"] and a.data["rider"]):
            obj = object_candidates(self, session, a)             # DND-39 / DND-40
        if a.flying and not a.data.get("mounted_on"):
            out.append({"actor": a.id, "action": "end_turn", "stay_aloft": False})     # AIR-10: the player's choice
        if a.data.get("feats") and not self.incapacitated(a):
            legal = self.keep_legal(session, cands)
            # the options of an attack already found legal (power attack, luck, savage, a manoeuvre) are legal when
            # their own condition holds (checked in feats.attack_variants, as Attack.check does); the rest is checked
            return out + legal + feats.attack_variants(self, session, a, legal) + \
                self.keep_legal(session, feats.legal_choices(self, session, a, cands)) + self.keep_legal(session, obj)
        cands += obj
        return out + self.keep_legal(session, cands)

    def choice_lines(self, session, action: dict) -> list[str]:
        """AIR-08 / AIR-10: a flyer ending its turn aloft spends its bonus action, or chooses not to and falls."""
        a = session.state.actors.get(action.get("actor"))
        if action.get("action") != "end_turn" or a is None or not a.flying or a.data.get("mounted_on"):
            return []
        up = self.upkeep_available(session, a)
        drop = a.layer - aerial.support_below(session, a)
        if action.get("stay_aloft") is False or not up:
            return [("chosen: do not spend the bonus action to stay aloft" if up else "no bonus action left to stay "
                     "aloft") + f": falls {drop} layer(s) (AIR-10)", "Tab: the other choice" if up else
                    "land first (AIR-08: a landing owes nothing)"]
        return ["stays aloft: the bonus action is spent on flying (AIR-08)", "Tab: do not spend it, and fall (AIR-10)"]

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
        elif act["action"] == "attack" and plan.get("object"):
            out.update(preview_object_attack(self, session, a, plan))
        elif act["action"] == "attack":
            t = session.state.actors[plan["target"]]
            adv, dis = self.attack_sources(session, a, t, plan)
            bonus = self.attack_bonus(a, plan["weapon"], plan["melee"])
            mods = feats.attack_mods(self, session, a, t, plan, act)
            bonus += sum(m["to_hit"] for m in mods)
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
            if a.data.get("feats") or t.data.get("feats"):
                out["feats"] = feats.preview_lines(self, session, a, t, plan, act, mods)
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



#: the action table: name -> unit (``check(rs, session, actor, action) -> plan``, ``apply(rs, session, actor, action, plan)``)
Dnd5e.ACTIONS = {
    "move": Move,
    "attack": Attack,
    "dash": Dash,
    "disengage": Disengage,
    "dodge": Dodge,
    "help": Help,
    "hide": Hide,
    "search": Search,
    "ready": Ready,
    "use": Use,
    "stand": Stand,
    "stabilize": Stabilize,
    "end_turn": EndTurn,
    "grapple": Grapple,
    "escape": Escape,
    "shove": Shove,
    "mount": Mount,
    "dismount": Dismount,
    "cast": Cast,
    "pick_lock": PickLock,
    "force_lock": ForceLock,
    "reaction_policy": ReactionPolicy,
    "gm": Gm,
}
