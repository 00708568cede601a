"""The baton ruleset plug-in ("Combate", BAT-00 to BAT-64) with the aerial module (AIR-*).

The initiative is a baton: its holder (``state.data["holder"]``, also ``state.current``) takes one major action,
one minor action and one movement in any order, then must ``pass`` it (BAT-08/09). Damage runs through
Protection, then Vigor, then Life as wounds (BAT-16..26). Decisions on the document's gaps are in docs/baton.md.
"""

from __future__ import annotations

import math
from typing import ClassVar, cast

from engine.errors import SceneError
from engine.rules.baton import combat
from engine.rules.baton import baton_order
from engine.rules import riding
from engine.rules import aerial
from engine.rules.actions import Param
from engine.rules.baton import turns
from engine.rules.baton.actions.attacks import (
    Attack,
    BreakFree,
    Charge,
    CreateOpportunity,
    Disarm,
    Grab,
    Push,
    Trip,
)
from engine.rules.baton.actions.downtime import Day, Gm, Rest, Treat, Wait
from engine.rules.baton.actions.objects import EVENT_LINES as OBJECT_LINES
from engine.rules.baton.actions.objects import Manipulate, object_candidates, object_opens
from engine.rules.baton.actions.minor import (
    Drink,
    DropItem,
    Equip,
    Extinguish,
    PickUp,
    ResistPoison,
    Shout,
    Stow,
    TakeItem,
    UsePower,
)
from engine.rules.baton.actions.turn import Dash, Dismount, Drop, Move, Pass, Stand
from engine.rules.baton.baton_order import BatonOrder
from engine.rules.baton.combat import Combat
from engine.rules.baton.common import (  # noqa: F401
    ANYONE_ACTIONS,
    CONDITIONS,
    DIRECT,
    DIRS8,
    FATIGUE,
    GM_ACTIONS,
    MAJOR,
    MINOR,
    NEEDS_MOVEMENT,
    OUT_OF_COMBAT,
    PROTECTION_PENALTY,
    _rule_of,
)
from engine.rules.baton.data import (
    DAMAGE_SCALE,
    POISONS,
    POTIONS,
)
from engine.rules.baton.choices import Choices, OpenWith
from engine.rules.baton.health import Health
from engine.rules.baton.mounts import Mounts
from engine.rules.baton.setup import Setup
from engine.rules.baton.skills import Skills
from engine.rules.baton.text import EVENT_LINES
from engine.rules.core import Actor, Illegal, Session
from engine.rules.ruleset import Ruleset


class Baton(BatonOrder, Skills, Health, Combat, Setup, Mounts, Choices, Ruleset):
    name = "baton"
    upkeep_name = "minor action"
    EVENT_LINES = {**EVENT_LINES, **OBJECT_LINES}     # how its events read in the runner's log
    DEFAULT_OPTIONS: ClassVar[dict] = {
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
        "effect_turns": "through",               # BAT-11 an effect for N turns affects its target in each of the
                                                 # N turns of its side, ending when the Nth is lost | "on_return"
        "helpless_test": "roll",                 # BAT-37 + BAT-08: an attack on a helpless target rolls the die
                                                 # (for the baton) and always hits | "none" (no die: BAT-09)
    }
    ECONOMY_KEYS = ("major", "minor")
    CONDITIONS = CONDITIONS
    #: parameters that hold another character's choice (the defender's, the enemy letting a mover go): the window
    #: asks that character's player when the moment comes instead of offering them as the actor's variants
    OTHERS_CHOICES: ClassVar[tuple] = ("defence", "declined")
    TURN_MARKS_SHORT: ClassVar[dict] = {"holds the baton": "baton", "acted this turn": "acted", "acted": "done", "has not acted": "ready"}
    # ================================================================================ actions
    _SPECS: dict | None = None


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
                riding.seat(a, mt)
                a.x, a.y, a.layer, a.flying = mt.x, mt.y, mt.layer, mt.flying
        destiny: dict = {}
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
        sides = baton_order.able_sides(self, session)
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
        opp = [a for a in acts.values() if self._able(a) and a.side not in pc_sides and not riding.carries(a)]
        opp = [a for a in opp if not a.data["surprised"]] or opp
        return (opp or [a for a in acts.values() if self._able(a)])[0].id

    def _check_over(self, session, auto: bool = True) -> None:
        st = session.state
        if st.over or not self.combat(session):
            return
        sides = baton_order.able_sides(self, session)
        if len(sides) > 1:
            h = self.holder(session)
            if auto and h is not None and not self._can_hold(h, session):
                baton_order.auto_pass(self, session, h)
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

    def turn_title(self, session) -> str | None:
        st = session.state
        holder = st.actors.get(st.data.get("holder")) if isinstance(st.data, dict) else None
        return f"Baton: {holder.side} side" if holder is not None else "Baton"

    def turn_caption(self, session) -> str | None:
        """The top bar in the document's terms: a turn is the time a side keeps the initiative ("Turno")."""
        st = session.state
        holder = st.actors.get(st.data.get("holder")) if isinstance(st.data, dict) else None
        if holder is None:
            return None
        return f"turn {st.round}: the {holder.side} side has the initiative, {holder.name} holds the baton"

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
        return riding.mount_of(session, a) if riding.rides(a) else a

    def _turn_of(self, session, body: Actor) -> dict | None:
        """The activation whose movement ``body`` uses: the holder's own, or its mount's."""
        h = self.holder(session)
        if h is None:
            return None
        if body.id == h.id or riding.rides_on(h, body):
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
        # BAT-60: slow -> only one of the three
        return not (h is not None and h.has("slow") and (t["major"] or t["moved_m"] > 0 or t["move_used"]))

    def spend_upkeep(self, session, a):
        t = self._turn_of(session, a)
        if t is not None:
            t["minor"] = "stay aloft"

    def fall_reason(self, session, a):
        if riding.rides(a):
            return None                                              # its mount carries it (BAT-42)
        return turns.FALL_TRIGGERS.first(self, session, a)

    def knock_prone(self, session, a, rule):
        if not a.dead:
            self.add_condition(session, a, "prone", rule)

    def can_move(self, session, a):
        c = self.tagged(a, "speed_zero")
        if c:
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
        return math.floor(layers * 1.0 / 1.5 + 1e-9)

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
                     "careful": P("bool", default=False, help="leave reach without provoking, at half movement"),
                     "declined": P("any", help="enemies who let the mover go without their immediate attack (BAT-38, BAT-41)")},
            "stand": {},
            "drop": {"attack": P("id", help="attack this character at the end of the fall (BAT-48)"),
                     "weapon": P("str"), "defence": P("str", choices=("best", "dodge", "shield", "defence", "none")),
                     "crit": P("str", choices=("damage", "destiny"), default="damage"),
                     "fall_test": P("str", choices=("attack", "agility"), default="attack")},
            "dismount": {"to": P("pos")},
            "attack": {"target": P("id", help="a character or object id"), "weapon": P("str"),
                       "crit": P("str", choices=("damage", "destiny"), default="damage"),
                       "defence": P("str", choices=("best", "dodge", "shield", "defence", "none")),
                       "voxel": P("pos", help="a voxel [x, y, z] to attack (issue 14)")},
            "manipulate": {"target": P("id", True, help="the object to knock over (BAT-15)"), "skill": P("str"),
                           "difficulty": P("int")},
            "charge": {"target": tgt, "weapon": P("str"), "crit": P("str", choices=("damage", "destiny"), default="damage"),
                       "defence": P("str", choices=("best", "dodge", "shield", "defence", "none"))},
            "create_opportunity": {"skill": P("str", True, help="the skill used (intimidate, perform, ...)"),
                                   "target": P("id"), "difficulty": P("int", default=8),
                                   "effect": P("str", choices=("advantage", "expose", "shake", "stated"), default="advantage"),
                                   "text": P("str", help="the effect the GM states (effect = \"stated\")")},
            "open_with": {"to": P("id", True, help="the non-surprised PC the players choose to open the initiative (BAT-02)")},
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
            return self.ACTIONS["gm"].check(self, session, act)
        if name in ANYONE_ACTIONS:
            return self.ACTIONS[name].check(self, session, None if aid == "gm" else session.state.actors[aid], act)
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
            return self.ACTIONS[name].check(self, session, a, act)
        if name in ("rest", "treat"):
            raise Illegal(f"no {name} during combat", "BAT-30" if name == "rest" else "BAT-29", "action")
        h = cast(Actor, self.holder(session))      # in combat someone holds the baton
        if aid != h.id:
            if riding.mount_id(h) == aid and name not in ("pass", "move", "stand", "dismount", "drop"):
                pass                                     # BAT-42: the mount acts with its rider's actions
            else:
                raise Illegal(f"{h.name} holds the baton, not {a.name}", "BAT-01", "actor")
        if a.has("confused") and self.opt("auto_confusion") and name != "pass":
            raise Illegal(f"{a.name} is confused: it acts at random and passes to an ally", "BAT-58", "action")
        return self.ACTIONS[name].check(self, session, a, act)

    def apply(self, session: Session, act: dict, plan) -> None:
        name = act["action"]
        if name in GM_ACTIONS:
            self.ACTIONS["gm"].apply(self, session, act, plan)
        elif name in ANYONE_ACTIONS:
            self.ACTIONS[name].apply(self, session, None if act["actor"] == "gm" else session.state.actors[act["actor"]], act, plan)
        else:
            a = session.state.actors[act["actor"]]
            self.ACTIONS[name].apply(self, session, a, act, plan)
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
        h = cast(Actor, self.holder(session))
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

    # ================================================================================ menus and previews
    def legal_actions(self, session, a: Actor) -> list[dict]:
        st = session.state
        out: list = []
        cands: list = []
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
            cands += [{"actor": a.id, "action": "open_with", "to": i} for i in self.opening_candidates(session)]
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
            if st.objects:
                cands += object_candidates(self, session, a)         # issue 14: objects, BAT-12 / BAT-15
        return out + self.keep_legal(session, self.choice_variants(session, cands), session.check)

    def preview_legal(self, session, act: dict, plan, out: dict) -> dict:
        a = session.state.actors.get(act["actor"])
        if act["action"] == "move":
            body = session.state.actors[plan["body"]]
            out.update(aerial.move_preview(session, body, plan["path"]))
            ends_aloft = out["ends_aloft"]
            out.update({"cost_m": plan["cost"],
                        "minor_action_needed": ends_aloft, "minor_action_available": self.upkeep_available(session, body),
                        "provokes": [e.id for e in self._provokers(session, body, plan["path"])] if not plan["careful"] else []})
        elif act["action"] == "attack" and plan.get("object"):
            out.update({k: plan[k] for k in ("target", "voxel", "weapon", "melee", "cover", "difficulty", "hp", "max_hp")})
            out["object"] = True
            out["opens"] = object_opens(self, session, a, plan)
        elif act["action"] in ("attack", "charge"):
            out.update(combat.attack_preview(self, session, a, act, plan))
        elif act["action"] == "pass":
            ids, kept, rule = self.pass_targets(session, a)
            out.update({"kept": plan["kept"], "rule": plan["rule"], "may_receive": ids,
                        "lines": combat.pass_lines(self, session, a, ids, plan)})
        ch = self.choices_of(session, a, act) if a is not None else {}
        if ch:
            out["choices"] = ch
            out["lines"] = out.get("lines", []) + [
                f"choice {k} ({v['rule']}{', the defender' if k == 'defence' else ''}; default {v['default']}, "
                f"now {v['chosen']}): "
                + "; ".join(f"{o} = {d}" for o, d in v["options"].items()) for k, v in ch.items()]
        return out



#: the action table: name -> unit (``check(rs, session, actor, action) -> plan``, ``apply(rs, session, actor, action, plan)``)
Baton.ACTIONS = {
    "pass": Pass,
    "open_with": OpenWith,
    "move": Move,
    "stand": Stand,
    "drop": Drop,
    "dismount": Dismount,
    "attack": Attack,
    "charge": Charge,
    "create_opportunity": CreateOpportunity,
    "manipulate": Manipulate,
    "disarm": Disarm,
    "dash": Dash,
    "grab": Grab,
    "trip": Trip,
    "push": Push,
    "break_free": BreakFree,
    "resist_poison": ResistPoison,
    "extinguish": Extinguish,
    "take_item": TakeItem,
    "use_power": UsePower,
    "equip": Equip,
    "stow": Stow,
    "drop_item": DropItem,
    "pick_up": PickUp,
    "drink": Drink,
    "shout": Shout,
    "rest": Rest,
    "treat": Treat,
    "wait": Wait,
    "day": Day,
    "gm": Gm,
}
