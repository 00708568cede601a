"""The baton ruleset plug-in ("Combate", BAT-00 to BAT-64) with the aerial module (AIR-*).

The initiative is a baton: its holder (``state.data["holder"]``, also ``state.current``) takes one major action,
one minor action and one movement in any order, then must ``pass`` it (BAT-08/09). Damage runs through
Protection, then Vigor, then Life as wounds (BAT-16..26). Decisions on the document's gaps are in docs/baton.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from engine.rules import aerial, riding
from engine.rules.baton import baton_order, choices, combat, health, leave_cover, mounts, setup, skills, slots, specs, turns
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
from engine.rules.baton.actions.objects import EVENT_LINES as OBJECT_LINES
from engine.rules.baton.actions.objects import Manipulate, object_candidates, object_opens
from engine.rules.baton.actions.turn import Dash, Dismount, Drop, Move, Pass, Stand
from engine.rules.baton.choices import OpenWith
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
    POTIONS,
)
from engine.rules.baton.text import EVENT_LINES
from engine.rules.core import Actor, Illegal
from engine.rules.baton.options import SPECS as OPTION_SPECS
from engine.rules.ruleset import Ruleset, check_mounts_at_start

if TYPE_CHECKING:
    from engine.rules.session import Session


class Baton(Ruleset):
    name = "baton"
    upkeep_name = "minor action"
    EVENT_LINES = {**EVENT_LINES, **OBJECT_LINES}     # how its events read in the runner's log
    GM_ACTIONS = GM_ACTIONS                           # the GM's tools (damage, condition, poison, fire, breath)
    OPTION_SPECS = OPTION_SPECS              # baton/options.py: each key's type, range or choices
    TURN_END_ACTIONS: ClassVar[tuple] = ("pass",)     # BAT-08: after acting the character passes the initiative
    GM_SET: ClassVar[list] = health.GM_SET            # what follows from a number the GM sets (engine/rules/gm.py)
    HOTKEY_ACTIONS: ClassVar[tuple] = ("move", "attack", "pass", "charge", "drop", "create_opportunity", "stand",
                                       "dash", "equip", "shout")     # the window's 1..9, 0: one key per action kind
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
    _SPECS: dict | None = None

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
        first = baton_order.first_holder(self, session)
        st.data["combat"] = True
        session.emit({"type": "combat_start", "sides": sorted(sides), "rule": "BAT-01"})
        baton_order.give_baton(self, session, first, "BAT-02", kept=False, how="starts")



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
        base = float(a.data["fly_speed_m"] if flying and a.can_fly and a.data["fly_speed_m"] else a.data["speed_m"])
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

    def takeoff_cost(self, session, a):
        return float(a.data["fly_speed_m"] or a.data["speed_m"]) / 2.0   # AIR-06: half its movement

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
        ev = skills.skill_test(self, session, a, "agility", 7 + sev, "BAT-47", f"Agility to halve a fall wound of {sev}")
        if ev["success"]:
            sev = (sev + 1) // 2
        return sev, "BAT-47"


    def action_specs(self):
        if Baton._SPECS is None:
            Baton._SPECS = specs.build_specs()
        return Baton._SPECS


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
        baton_order.after_action(self, session)


    # -- action economy ------------------------------------------------------------------------------




    # ================================================================================ menus and previews
    def legal_actions(self, session, a: Actor) -> list[dict]:
        st = session.state
        out: list = []
        cands: list = []
        if not baton_order.in_combat(self, session):
            cands += [{"actor": a.id, "action": "rest", "kind": "short"}, {"actor": a.id, "action": "rest", "kind": "long"}]
            for w in a.data["wounds"]:
                cands.append({"actor": a.id, "action": "treat", "target": a.id, "wound": w["id"]})
            cands += [{"actor": a.id, "action": "wait", "hours": 1}, {"actor": a.id, "action": "day"}]
        else:
            h = baton_order.holder(self, session)
            if h is None or a.id != h.id:
                return []
            ids, _, _ = baton_order.pass_targets(self, session, a)
            for i in ids:
                cands.append({"actor": a.id, "action": "pass", "to": i})
            cands += [{"actor": a.id, "action": "open_with", "to": i} for i in choices.opening_candidates(self, session)]
            body = mounts.body_of(self, session, a)
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
            foes = [o for o in st.actors.values() if o.side != a.side and baton_order.able(self, o)]
            actors = [a] + ([st.actors[a.data["mounted_on"]]] if a.data.get("mounted_on") else [])
            for who in actors:
                for t in foes:
                    for w in combat.equipped(self, who) or [combat.main_weapon(self, who)]:
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
        return out + self.keep_legal(session, choices.choice_variants(self, session, cands), session.check)

    @staticmethod
    def move_preview_lines(pv: dict) -> list[str]:
        out = []
        if pv.get("minor_action_needed"):
            out.append("minor action needed to stay aloft (AIR-08): "
                       + ("available" if pv.get("minor_action_available") else "ALREADY USED"))
        if pv.get("exposed_to"):
            out.append("leaves total cover: an immediate shot from " + ", ".join(map(str, pv["exposed_to"])) + " (BAT-41)")
        return out

    def damage_on_hit(self, session, action: dict) -> float | None:
        plan, refused = self.checked_plan(session, action)
        if refused or action.get("action") not in ("attack", "charge") or plan.get("object") or "weapon" not in plan:
            return None
        return combat.mean_hit_damage(self, session.state.actors[action["actor"]], plan)

    def preview_legal(self, session, act: dict, plan, out: dict) -> dict:
        a = session.state.actors.get(act["actor"])
        if act["action"] == "move":
            body = session.state.actors[plan["body"]]
            out.update(aerial.move_preview(session, body, plan["path"]))
            ends_aloft = out["ends_aloft"]
            out.update({"cost_m": plan["cost"],
                        "minor_action_needed": ends_aloft, "minor_action_available": self.upkeep_available(session, body),
                        "provokes": [e.id for e in combat.provokers(self, session, body, plan["path"])] if not plan["careful"] else [],
                        # BAT-41: who shoots it at once as it leaves their total cover (the move's own test)
                        "exposed_to": leave_cover.shooters(self, session, a, body, plan["path"][-1])})
        elif act["action"] == "attack" and plan.get("object"):
            out.update({k: plan[k] for k in ("target", "voxel", "weapon", "melee", "cover", "difficulty", "hp", "max_hp")})
            out["object"] = True
            out["opens"] = object_opens(self, session, a, plan)
        elif act["action"] in ("attack", "charge"):
            out.update(combat.attack_preview(self, session, a, act, plan))
        elif act["action"] == "pass":
            ids, kept, rule = baton_order.pass_targets(self, session, a)
            out.update({"kept": plan["kept"], "rule": plan["rule"], "may_receive": ids,
                        "lines": combat.pass_lines(self, session, a, ids, plan)})
        ch = choices.choices_of(self, session, a, act) if a is not None else {}
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
