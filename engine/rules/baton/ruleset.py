"""The baton ruleset plug-in ("Combate", BAT-00 to BAT-64) with the aerial module (AIR-*).

The initiative is a baton: its holder (``state.data["holder"]``, also ``state.current``) takes one major action,
one minor action and one movement in any order, then must ``pass`` it (BAT-08/09). Damage runs through
Protection, then Vigor, then Life as wounds (BAT-16..26). Decisions on the document's gaps are in docs/baton.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, cast

from engine.rules import aerial, riding
from engine.rules.baton import baton_order, choices, health, setup, skills, slots, turns
from engine.rules.actions import import_all
from engine.rules.baton.actions import ACTIONS
from engine.rules.baton.actions import attacks, downtime, minor, objects, turn  # noqa: F401  (the shipped ones register)
from engine.rules.baton import listing
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
)
from engine.rules.baton.text import EVENT_LINES
from engine.rules.baton.events import EVENTS as BATON_EVENTS
from engine.rules.core import Actor, Illegal
from engine.rules.baton.options import SPECS as OPTION_SPECS
from engine.rules.ruleset import Ruleset, check_mounts_at_start


import_all("engine.rules.baton.actions")      # any other module of the package too: a new file needs no import

if TYPE_CHECKING:
    from engine.rules.session import Session


class Baton(Ruleset):
    name = "baton"
    upkeep_name = "minor action"
    EVENTS = BATON_EVENTS         # its event types, declared (engine/rules/baton/events.py)
    EVENT_LINES = EVENT_LINES     # how its events read in the runner's log (and each action's own LINES)
    GM_ACTIONS = GM_ACTIONS                           # the GM's tools (damage, condition, poison, fire, breath)
    OPTION_SPECS = OPTION_SPECS              # baton/options.py: each key's type, range or choices
    TURN_END_ACTIONS: ClassVar[tuple] = ("pass",)     # BAT-08: after acting the character passes the initiative
    GM_SET: ClassVar[list] = health.GM_SET            # what follows from a number the GM sets (engine/rules/gm.py)
    hp_label = "Life"                                 # BAT-22: a character's hit points are its Life
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
        "drop_prone": True,                      # AIR-12: a deliberate drop (BAT-47/48) to the surface leaves it prone
        "air17_overrides_elevation": True,       # height alone gives no positive chance (AIR-17 over BAT-44)
        "elevation_layers": 2,                   # with the option off: feet this many layers above the target
        "keep_prefers": "combat",                # BAT-08 "que ainda não agiram no combate" | "turn"
        "lone_keeps": True,                      # BAT-08 with no other ally able to act: it keeps the baton
        "after_combat": "over",                  # "over" ends the session | "continue" (rest, treat, days)
        "default_speed_m": 9.0,
        "opportunity_attacks": True,             # BAT-38
        "opportunity_lasts": "creator_turn",     # BAT-15: a created exposed/shaken ends as the creator's side gets it back
        "hallucination_tests": "reality",        # BAT-53 "discernir a realidade": perception tests | "all"
        "unarmed_opportunity": False,            # BAT-38 "empunhando uma arma corpo a corpo": bare hands do not
        "cover_exposure": True,                  # BAT-41 leaving total cover
        "fire_sources": {},                      # BAT-50 extra or replaced sources: {name = [base, growth]}
        "auto_confusion": True,                  # BAT-58 the engine plays a confused character's activation
        "confused_pass": "any_ally",             # BAT-58 "sempre passa ... para um aliado": an ally who has acted in
                                                 # this turn too when none is fresh | "fresh_ally" (else the opponents)
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

    # ================================================================================ characters, health, the table
    def make_actor(self, session: Session, ch) -> Actor:
        return setup.make_actor(self, session, ch)

    def apply_damage(self, session, a: Actor, amount: int, dtype: str, source, rule: str, critical: bool = False) -> int:
        return health.apply_damage(self, session, a, amount, dtype, source, rule, critical)

    def hud_rows(self, session, a: Actor) -> list[str]:
        return health.hud_rows(self, session, a)

    def health_brief(self, session, a: Actor) -> str:
        return health.health_brief(self, session, a)

    def table_question(self, session):
        return choices.table_question(self, session)

    def gm_statement(self, session, action: dict):
        return choices.gm_statement(self, session, action)

    def check_scene(self, session: Session) -> None:
        check_mounts_at_start(session)
        if len(baton_order.able_sides(self, session)) >= 2:
            baton_order.first_holder(self, session)     # BAT-02: who may start (initiative_starts)

    def start(self, session: Session) -> None:
        st = session.state
        actors = st.actors
        check_mounts_at_start(session)
        for a in actors.values():
            m = a.data.pop("mount_at_start", None)
            if m:
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
        first = baton_order.first_holder(self, session)     # a confused one of the side first (BAT-58)
        st.data["combat"] = True
        session.emit({"type": "combat_start", "sides": sorted(sides), "rule": "BAT-01"})
        rule = "BAT-58" if st.actors[first].has("confused") else "BAT-02"
        baton_order.give_baton(self, session, first, rule, kept=False, how="starts")



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


    def movement_left(self, session, a, flying):
        base = float(self._air_speed(a) if flying and a.can_fly else a.data["speed_m"])
        if a.has("prone"):
            base /= 2.0                                              # BAT-57
        if not baton_order.in_combat(self, session):
            return base
        t = slots.turn_of(self, session, a)
        if t is None:
            return 0.0
        if t["careful"]:
            base /= 2.0                                              # BAT-39
        budget = (0.0 if t["move_used"] else base) + t["extra_m"]
        return max(0.0, budget - t["moved_m"])

    def _air_speed(self, a) -> float:
        """AIR-09 "quem voa se move no ar com a mesma velocidade que tem no solo": the ground speed (BAT-06's
        movement), or its own fly speed under ``air_speed = "fly_speed"``."""
        if self.opt("air_speed") == "fly_speed" and a.data["fly_speed_m"]:
            return float(a.data["fly_speed_m"])
        return float(a.data["speed_m"])

    def takeoff_cost(self, session, a):
        return self._air_speed(a) / 2.0          # AIR-06: half its movement, of the speed it flies at (AIR-09)

    def spend_movement(self, session, a, metres):
        t = slots.turn_of(self, session, a)
        if t is not None:
            t["moved_m"] = round(t["moved_m"] + metres, 6)

    def upkeep_available(self, session, a):
        t = slots.turn_of(self, session, a)
        if t is None:
            return True
        if t["minor"] is not None:
            return False
        h = baton_order.holder(self, session)
        # BAT-60: slow -> only one of the three
        return not (h is not None and h.has("slow") and (t["major"] or t["moved_m"] > 0 or t["move_used"]))

    def spend_upkeep(self, session, a):
        t = slots.turn_of(self, session, a)
        if t is not None:
            t["minor"] = "stay aloft"

    def fall_reason(self, session, a):
        if riding.rides(a):
            return None                                              # its mount carries it (BAT-42)
        return turns.FALL_TRIGGERS.first(self, session, a)

    def knock_prone(self, session, a, rule):
        if not a.dead:
            skills.add_condition(self, session, a, "prone", rule)

    def can_move(self, session, a):
        c = skills.tagged(self, a, "speed_zero")
        if c:
            return False, f"{a.name} is {c}", CONDITIONS[c]
        return True, "", ""

    def fall_damage(self, session, a, layers):
        """AIR-12 vs BAT-47 (option ``air12_vs_bat47``): with "bat47" a fall to the ground is a wound of 1 per
        1.5 m fallen, halved (rounded up) by an Agility test against 7 + severity."""
        if self.opt("air12_vs_bat47") != "bat47":
            return None
        sev = health.fall_severity(self, layers)
        if sev <= 0:
            return 0, "BAT-47"
        ev = skills.skill_test(self, session, a, "agility", 7 + sev, "BAT-47", f"Agility to halve a fall wound of {sev}",
                               roll_name="agility")     # its own die: ``test`` is the attack's (issue 40 item 11)
        if ev["success"]:
            sev = (sev + 1) // 2
        return sev, "BAT-47"


    def check(self, session: Session, act: dict):
        name = act["action"]
        aid = act["actor"]
        if name in GM_ACTIONS:
            if aid != "gm":
                raise Illegal(f"{name} is a game master's tool: use actor = \"gm\"", "", "actor")
            return self.ACTIONS[name].check(self, session, act)
        if name in ANYONE_ACTIONS:
            return self.ACTIONS[name].check(self, session, None if aid == "gm" else session.state.actors[aid], act)
        if aid == "gm":
            raise Illegal(f"the game master cannot {name}; characters act when they hold the baton", "BAT-01", "actor")
        a = session.state.actors[aid]
        if a.dead:
            raise Illegal(f"{a.name} is dead", "BAT-25", "actor")
        if a.has("petrified"):
            raise Illegal(f"{a.name} is petrified: a stone statue does nothing", "BAT-62", "actor")
        if not baton_order.in_combat(self, session):
            if name not in OUT_OF_COMBAT:
                raise Illegal(f"{name} is a combat action and no combat is going on", "BAT-01", "action")
            return self.ACTIONS[name].check(self, session, a, act)
        if name in ("rest", "treat"):
            raise Illegal(f"no {name} during combat", "BAT-30" if name == "rest" else "BAT-29", "action")
        h = cast(Actor, baton_order.holder(self, session))      # in combat someone holds the baton
        if aid != h.id:
            if riding.mount_id(h) == aid and name not in ("pass", "move", "stand", "dismount", "drop"):
                pass                                     # BAT-42: the mount acts with its rider's actions
            else:
                raise Illegal(f"{h.name} holds the baton, not {a.name}", "BAT-01", "actor")
        if a.has("confused") and self.opt("auto_confusion") and name != "pass":
            raise Illegal(f"{a.name} is confused: it acts at random and passes to an ally", "BAT-58", "action")
        if act.get("counter_crit") is not None:
            choices.check_counter_crit(self, session, act)              # BAT-36 for the answers it sets off
        return self.ACTIONS[name].check(self, session, a, act)

    def apply(self, session: Session, act: dict, plan) -> None:
        name = act["action"]
        if name in GM_ACTIONS:
            self.ACTIONS[name].apply(self, session, act, plan)
        elif name in ANYONE_ACTIONS:
            self.ACTIONS[name].apply(self, session, None if act["actor"] == "gm" else session.state.actors[act["actor"]], act, plan)
        else:
            a = session.state.actors[act["actor"]]
            self.ACTIONS[name].apply(self, session, a, act, plan)
        baton_order.after_action(self, session)


    # -- action economy ------------------------------------------------------------------------------




    # ================================================================================ menus and previews
    def legal_actions_of(self, session, a: Actor, kinds) -> Sequence[dict]:
        return listing.legal_actions(self, session, a, kinds)

    @staticmethod
    def move_preview_lines(pv: dict) -> list[str]:
        out = []
        if pv.get("minor_action_needed"):
            out.append("minor action needed to stay aloft (AIR-08): "
                       + ("available" if pv.get("minor_action_available") else "ALREADY USED"))
        if pv.get("exposed_to"):
            out.append("leaves total cover: an immediate shot from " + ", ".join(map(str, pv["exposed_to"])) + " (BAT-41)")
        return out

    def preview(self, session, act: dict) -> dict:
        """Its unit's preview (``Ruleset.preview``), and for any legal action the choices it leaves open."""
        out = super().preview(session, act)
        if not out["legal"]:
            return out
        a = session.state.actors.get(act["actor"])
        ch = choices.choices_of(self, session, a, act) if a is not None else {}
        if ch:
            out["choices"] = ch
            out["lines"] = out.get("lines", []) + [
                f"choice {k} ({v['rule']}{', the defender' if k == 'defence' else ''}; default {v['default']}, "
                f"now {v['chosen']}): "
                + "; ".join(f"{o} = {d}" for o, d in v["options"].items()) for k, v in ch.items()]
        return out



#: the action table: name -> unit, every class of engine/rules/baton/actions (and baton/choices.py) registered
#: there (``@action``)
Baton.ACTIONS = ACTIONS
