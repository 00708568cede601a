"""The D&D 5e ruleset plug-in: initiative, turns, the action economy, attacks, spells, damage, dying, conditions.

Rule IDs are those of the rule catalogue (``CATALOGUE.md``; DND-* from the source document ``004_5d8774dfa45f46a9.txt``,
"D&D 5e Mechanika"); decisions on gaps are in ``docs/rules-core.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, cast

from engine.rules.dnd5e import conditions
from engine.rules.dnd5e import mounts
from engine.rules import riding
from engine.rules import aerial
from engine.rules.actions import import_all
from engine.rules.core import Actor, Illegal
from engine.rules.dnd5e.actions import ACTIONS
from engine.rules.dnd5e.actions import allies, contact, magic, objects, policy, rest, standard  # noqa: F401  (the shipped ones register)
from engine.rules.dnd5e import attacks, damage
from engine.rules.dnd5e.common import ABILITIES, OBJECTS, SKILL_ABILITY, dice_spec, mod  # noqa: F401
from engine.rules.dnd5e import concentration, feats
from engine.rules.dnd5e.data import CONDITIONS
from engine.rules.dnd5e import turns
from engine.rules.dnd5e import listing, sheet
from engine.rules.dnd5e import srd_traits
from engine.rules.dnd5e import srd_legendary  # noqa: F401  (its turn hooks register)
from engine.rules.dnd5e import srd_marks
from engine.rules.dnd5e import srd_lasting
from engine.rules.dnd5e import srd_burst  # noqa: F401  (its death hook registers)
from engine.rules.dnd5e import srd_riders  # noqa: F401  (its on-hit riders register, SRD-22..24)
from engine.rules.dnd5e import srd_burning, srd_drink  # noqa: F401  (their hit and turn hooks register, SRD-48, -56)
from engine.rules.dnd5e import srd_breaths  # its damage modifier and turn hooks register (SRD-25..29)
from engine.rules.dnd5e import srd_carry, srd_through, srd_traits2  # noqa: F401  (their hooks register: SRD-30..38)
from engine.rules.dnd5e import srd_auras, srd_swarm  # noqa: F401  (their hooks register: SRD-39..41)
from engine.rules.dnd5e import srd_engulf, srd_swallow  # noqa: F401  (their hooks register: SRD-43..45)
from engine.rules.dnd5e import srd_breath  # noqa: F401  (its hooks register: SRD-81..86)
from engine.rules.dnd5e import srd_consume, srd_wound  # noqa: F401  (their hooks register: SRD-46, -47, -59)
from engine.rules.dnd5e import srd_planes, srd_shapes  # noqa: F401  (their hooks register: SRD-89..96)
from engine.rules.dnd5e import srd_sight  # its hooks register: SRD-97..100
from engine.rules.dnd5e.text import EVENT_LINES
from engine.rules.dnd5e.events import EVENTS as DND_EVENTS
from engine.rules.dnd5e.options import SPECS as OPTION_SPECS
from engine.rules.options import defaults
from engine.rules.ruleset import Ruleset, check_mounts_at_start


import_all("engine.rules.dnd5e.actions")      # any other module of the package too: a new file needs no import

if TYPE_CHECKING:
    from engine.rules.session import Session


class Dnd5e(Ruleset):
    name = "dnd5e"
    upkeep_name = "bonus action"
    EVENTS = DND_EVENTS           # its event types, declared (engine/rules/dnd5e/events.py)
    HIT_ROLL = "d20 {bonus:+d} vs AC {target}"
    EVENT_LINES = EVENT_LINES     # how its events read in the runner's log (and each action's own LINES)
    occupied_rule = "DND-11"
    walk_rule = "DND-11"          # a walker's over-long move: the movement rule, not the flight rule
    fall_damage_type = "bludgeoning"   # 5e: falling damage is bludgeoning (resistance and immunity apply)
    #: the options, declared once in dnd5e/options.py (type, choices, default, the rule each reads)
    OPTION_SPECS = OPTION_SPECS
    DEFAULT_OPTIONS: ClassVar[dict] = defaults(OPTION_SPECS)
    GM_SET: ClassVar[list] = damage.GM_SET     # what follows from a number the GM sets (engine/rules/gm.py)
    CLIMB_COST: ClassVar[list] = feats.CLIMB_COST     # AIR-07's climb, less for a walking Athlete (DND-F04)

    # ------------------------------------------------------------------------------------------ turn structure
    ECONOMY_KEYS = ("action", "bonus")
    CONDITIONS = CONDITIONS
    GM_ACTIONS = ("condition", "damage", "heal", "temp_hp", "inspire", "short_rest", "trap", "secret_door")
    # Fog Cloud / Darkness to aim, lasting areas to keep out of (engine/sim/policies.py; srd_lasting.py)
    SIM_AIDS = {"obscuring_casts": srd_lasting.obscuring_casts, "harmful_cells": srd_lasting.harmful_cells,
                "unnoticed": srd_sight.unnoticed}          # a foe taken for an object (SRD-100): no one's target
    REACTIONS = feats.REACTIONS      # the names an action's ``reactions`` table may answer (engine/rules/choices.py)
    CONTROLLED_MOUNT_ACTIONS = ("move", "dash", "disengage", "dodge", "end_turn")

    # the interface whose rules live in the subject modules (``rs`` first, so they bind as methods): sight (the window
    # asks), melee weapons and their reach (``Ruleset.attack_reach``); the damage path (the aerial layer's hook) below
    sees = attacks.sees
    is_melee = attacks.is_melee
    melee_reach = attacks.melee_reach
    attack_reach = attacks.attack_reach        # its weapons' shape (properties, range = [normal, long])


    # ------------------------------------------------------------------------------------------ setup
    def make_actor(self, session: Session, ch) -> Actor:
        return sheet.make_actor(self, session, ch)

    def start(self, session: Session) -> None:
        st = session.state
        actors = st.actors
        self.check_scene(session)
        check_mounts_at_start(session)
        # mounts named in the scene (DND-36)
        for a in actors.values():
            m = a.data.pop("mount_at_start", None)
            if m:
                mounts.do_mount(self, session, a, actors[m], quiet=True)
        rolls = {}
        for a in actors.values():
            if a.data["controlled_mount"] and riding.carries(a):
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
            if a.data["controlled_mount"] and riding.carries(a):
                order.insert(order.index(a.data["rider"]) + 1, a.id)
        if session.scene.spec.initiative_starts:
            k = order.index(session.scene.spec.initiative_starts)
            order = order[k:] + order[:k]
        st.order = order
        st.round = 1
        st.data["sides"] = sorted({a.side for a in actors.values()})
        session.emit({"type": "round", "round": 1, "order": order, "rule": "DND-10"})
        turns.begin_turn(self, session, 0)

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
        if (a.data or {}).get("concentration"):
            rows.append(concentration.panel_row(a))
        return rows + sheet.gear_rows(self, a)

    @staticmethod
    def move_preview_lines(pv: dict) -> list[str]:
        if pv.get("bonus_action_needed"):
            avail = pv.get("bonus_action_available")
            return ["bonus action needed to stay aloft (AIR-08): " + ("available" if avail else "ALREADY USED")]
        if "bonus_action_needed" in pv:
            return ["no bonus action needed for flight this turn (AIR-08)"]
        return []

    # ------------------------------------------------------------------------------------------ aerial hooks
    def movement_left(self, session, a, flying):
        if riding.rides(a):
            return 0.0
        if conditions.speed_zero(self, a) or a.dead:
            return 0.0
        base = a.data["speed_m"]           # AIR-09: in the air at the ground speed
        if flying and a.data["fly_speed_m"] is not None and self.opt("air_speed") == "fly_speed":
            base = a.data["fly_speed_m"]
        if a.data.get("spell_marks"):
            base *= srd_marks.speed_factor(a)      # Slow (SPL-11)
        if a.data.get("slowed_breath"):
            base *= 0.5                            # SRD-27 Slowing Breath: "its speed is halved"
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
        return t.get("actor") == a.id and not t["bonus"] and not conditions.incapacitated(self, a)

    def spend_upkeep(self, session, a):
        session.state.turn["bonus"] = True

    def fall_type(self, session):
        return "bludgeoning" if self.opt("fall_damage_type") == "bludgeoning" else "falling"

    def fall_reason(self, session, a):
        if riding.rides(a):
            return None                                          # its mount keeps it up (DND-36)
        return srd_traits.hover_holds(session, a, turns.FALL_TRIGGERS.first(self, session, a))   # SRD-08

    def apply_damage(self, session, a: Actor, amount: int, dtype: str, source, rule: str, critical: bool = False,
                     knock_out: bool = False, weapon: dict | None = None) -> int:
        return damage.apply_damage(self, session, a, amount, dtype, source, rule, critical, knock_out, weapon)

    def knock_prone(self, session, a, rule):
        conditions.add_condition(self, session, a, "prone", rule)

    # ------------------------------------------------------------------------------------------ actions
    @listing.known_check
    def check(self, session: Session, act: dict):
        name = act["action"]
        aid = act["actor"]
        if name in self.GM_ACTIONS:
            if aid != "gm":
                raise Illegal(f"{name} is a game master's tool: use actor = \"gm\"", "", "actor")
            return self.ACTIONS[name].check(self, session, act)
        if aid == "gm":
            raise Illegal(f"the game master cannot {name}; characters act on their turns", "DND-10", "actor")
        a = session.state.actors[aid]
        cur = cast(str, session.current)
        if aid != cur:
            raise Illegal(f"it is {session.state.actors[cur].name}'s turn, not {a.name}'s", "DND-10", "actor")
        refused = turns.actor_refusal(self, a, name) or turns.target_refusal(self, session, a, act)
        if refused is not None:
            raise refused
        return self.ACTIONS[name].check(self, session, a, act)

    def apply(self, session: Session, act: dict, plan) -> None:
        name = act["action"]
        if name in self.GM_ACTIONS:
            self.ACTIONS[name].apply(self, session, act, plan)
        else:
            a = session.state.actors[act["actor"]]
            for fn in turns.BEFORE_ACTION:
                fn(self, session, a, act)
            self.ACTIONS[name].apply(self, session, a, act, plan)
            if a.data.get("slowed_breath") or a.data.get("one_action_only"):
                srd_breaths.one_of_action_or_bonus(self, session, a)      # SRD-27, SRD-79 (srd_lasting_actions)
        aerial.check_all_grounded(session)
        conditions.check_grapples(self, session)
        turns.check_over(self, session)

    # ------------------------------------------------------------------------------------------ menus and previews
    def legal_actions_of(self, session, a: Actor, kinds) -> Sequence[dict]:
        return listing.legal_actions(self, session, a, kinds)

    def choice_lines(self, session, action: dict) -> list[str]:
        """AIR-08 / AIR-10: a flyer ending its turn aloft spends its bonus action, or chooses not to and falls."""
        a = session.state.actors.get(action.get("actor"))
        if action.get("action") != "end_turn" or a is None or not a.flying or riding.rides(a):
            return []
        up = self.upkeep_available(session, a)
        drop = a.layer - aerial.support_below(session, a)
        if action.get("stay_aloft") is False or not up:
            return [("chosen: do not spend the bonus action to stay aloft" if up else "no bonus action left to stay "
                     "aloft") + f": falls {drop} layer(s) (AIR-10)", "Tab: the other choice" if up else
                    "land first (AIR-08: a landing owes nothing)"]
        return ["stays aloft: the bonus action is spent on flying (AIR-08)", "Tab: do not spend it, and fall (AIR-10)"]


#: the action table: name -> unit, every class of engine/rules/dnd5e/actions registered there (``@action``)
Dnd5e.ACTIONS = ACTIONS
