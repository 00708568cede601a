"""The D&D 5e ruleset plug-in: initiative, turns, the action economy, attacks, spells, damage, dying, conditions.

Rule IDs are those of ``../shared/rules/CATALOGUE.md``; decisions on gaps are in ``docs/rules-core.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, cast

from engine.rules.dnd5e import conditions
from engine.rules.dnd5e import mounts
from engine.rules import riding
from engine.rules import aerial
from engine.rules.actions import Param
from engine.rules.core import Actor, Illegal
from engine.rules.dnd5e.actions.contact import Dismount, Escape, Grapple, Mount, Shove
from engine.rules.dnd5e.actions.magic import Cast, Gm
from engine.rules.dnd5e.actions.objects import EVENT_LINES as OBJECT_LINES
from engine.rules.dnd5e.actions.objects import ForceLock, OpenDoor, PickLock, preview_object_attack
from engine.rules.dnd5e.actions.policy import ReactionPolicy
from engine.rules.dnd5e.actions.rest import EVENT_LINES as REST_LINES
from engine.rules.dnd5e.actions.rest import SecretDoor, ShortRest, Trap
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
from engine.rules.dnd5e import attacks, damage
from engine.rules.dnd5e.common import ABILITIES, OBJECTS, SKILL_ABILITY, dice_spec, mod  # noqa: F401
from engine.rules.dnd5e import concentration, feats, gear, loading
from engine.rules.dnd5e.data import (
    CONDITIONS,
    SPELLS,
)
from engine.rules.dnd5e import turns
from engine.rules.dnd5e import listing, sheet
from engine.rules.dnd5e.text import EVENT_LINES
from engine.rules.dnd5e.options import SPECS as OPTION_SPECS
from engine.rules.options import defaults
from engine.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from engine.rules.session import Session


class Dnd5e(Ruleset):
    name = "dnd5e"
    upkeep_name = "bonus action"
    HIT_ROLL = "d20 {bonus:+d} vs AC {target}"
    EVENT_LINES = {**EVENT_LINES, **OBJECT_LINES, **REST_LINES}     # how its events read in the runner's log
    occupied_rule = "DND-11"
    walk_rule = "DND-11"          # a walker's over-long move: the movement rule, not the flight rule
    fall_damage_type = "bludgeoning"   # 5e: falling damage is bludgeoning (resistance and immunity apply)
    #: the options, declared once in dnd5e/options.py (type, choices, default, the rule each reads)
    OPTION_SPECS = OPTION_SPECS
    DEFAULT_OPTIONS: ClassVar[dict] = defaults(OPTION_SPECS)
    GM_SET: ClassVar[list] = damage.GM_SET     # what follows from a number the GM sets (engine/rules/gm.py)
    CLIMB_COST: ClassVar[list] = feats.CLIMB_COST     # AIR-07's climb, less for a walking Athlete (DND-F04)
    HOTKEY_ACTIONS: ClassVar[tuple] = ("move", "attack", "dash", "dodge", "disengage", "cast", "help", "hide", "stand",
                                       "end_turn")     # the window's 1..9, 0: one key per action kind

    # ------------------------------------------------------------------------------------------ turn structure
    ECONOMY_KEYS = ("action", "bonus")
    CONDITIONS = CONDITIONS
    GM_ACTIONS = ("condition", "damage", "heal", "temp_hp", "inspire", "short_rest", "trap", "secret_door")
    REACTIONS = feats.REACTIONS      # the names an action's ``reactions`` table may answer (engine/rules/choices.py)
    CONTROLLED_MOUNT_ACTIONS = ("move", "dash", "disengage", "dodge", "end_turn")
    #: actions whose check opens with ``need_action``: not offered once the action is used (a listing prefilter;
    #: tests/test_legal_compact.py keeps this list true to the checks)
    NEEDS_ACTION = frozenset(("dash", "disengage", "dodge", "hide", "search", "ready", "help", "stabilize", "use", "escape"))

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
        return rows + gear.panel_rows(self, a)

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
        return turns.FALL_TRIGGERS.first(self, session, a)

    def apply_damage(self, session, a: Actor, amount: int, dtype: str, source, rule: str, critical: bool = False,
                     knock_out: bool = False) -> int:
        return damage.apply_damage(self, session, a, amount, dtype, source, rule, critical, knock_out)

    def knock_prone(self, session, a, rule):
        conditions.add_condition(self, session, a, "prone", rule)

    # ------------------------------------------------------------------------------------------ actions
    def action_specs(self):
        specs = type(self).__dict__.get("_SPECS")
        if specs is None:
            specs = make_specs(self)
            type(self)._SPECS = specs
        return specs

    def check(self, session: Session, act: dict):
        name = act["action"]
        aid = act["actor"]
        if name in self.GM_ACTIONS:
            if aid != "gm":
                raise Illegal(f"{name} is a game master's tool: use actor = \"gm\"", "", "actor")
            return self.ACTIONS.get(name, self.ACTIONS["gm"]).check(self, session, act)
        if aid == "gm":
            raise Illegal(f"the game master cannot {name}; characters act on their turns", "DND-10", "actor")
        a = session.state.actors[aid]
        cur = cast(str, session.current)
        if aid != cur:
            raise Illegal(f"it is {session.state.actors[cur].name}'s turn, not {a.name}'s", "DND-10", "actor")
        refused = turns.actor_refusal(self, a, name)
        if refused is not None:
            raise refused
        return self.ACTIONS[name].check(self, session, a, act)

    def apply(self, session: Session, act: dict, plan) -> None:
        name = act["action"]
        if name in self.GM_ACTIONS:
            self.ACTIONS.get(name, self.ACTIONS["gm"]).apply(self, session, act, plan)
        else:
            a = session.state.actors[act["actor"]]
            self.ACTIONS[name].apply(self, session, a, act, plan)
        aerial.check_all_grounded(session)
        conditions.check_grapples(self, session)
        turns.check_over(self, session)

    # ------------------------------------------------------------------------------------------ menus and previews
    def legal_actions(self, session, a: Actor) -> Sequence[dict]:
        return listing.legal_actions(self, session, a)

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

    def damage_on_hit(self, session, action: dict) -> float | None:
        plan, refused = self.checked_plan(session, action)
        if refused or action.get("action") != "attack" or plan.get("object") or "weapon" not in plan:
            return None
        return attacks.mean_hit_damage(self, session.state.actors[action["actor"]], plan)

    def preview_legal(self, session, act: dict, plan, out: dict) -> dict:
        a = session.state.actors.get(act["actor"])
        if act["action"] == "move":
            path = plan["path"]
            fly = a.can_fly and not plan["crawl"]
            out.update(aerial.move_preview(session, a, path))
            ends_aloft = out["ends_aloft"]
            out.update({"cost_m": plan["costs"][-1],
                        "left_after_m": round(self.movement_left(session, a, fly) - plan["costs"][-1], 4),
                        "bonus_action_needed": ends_aloft,
                        "bonus_action_available": self.upkeep_available(session, a),
                        "falls_at_end_of_turn": ends_aloft and not self.upkeep_available(session, a),
                        "provokes": attacks.would_provoke(self, session, a, path)})
        elif act["action"] == "attack" and plan.get("object"):
            out.update(preview_object_attack(self, session, a, plan))
        elif act["action"] == "attack":
            t = session.state.actors[plan["target"]]
            adv, dis = attacks.attack_sources(self, session, a, t, plan)
            bonus = attacks.attack_bonus(self, a, plan["weapon"], plan["melee"])
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
            notes = attack_notes(self, session, a, t, plan)
            if notes:
                out["notes"] = notes
            if "weapon_profs" in a.data and not gear.proficient_weapon(a, plan["weapon"]):
                out["not_proficient"] = f"{a.name} is not proficient with the {plan['weapon']['name']}: no proficiency bonus"
        elif act["action"] == "cast":
            sp = SPELLS[plan["spell"]]
            cmod = conditions.ab(self, a, a.data["casting"])
            out.update({"spell": plan["spell"], "kind": sp["kind"], "targets": plan["targets"],
                        "level": sp["level"], "casting_time": sp["time"]})
            if sp.get("concentration"):
                out["concentration"] = concentration.cast_note(a, plan["spell"])
            if sp["kind"] == "save":
                out.update({"save": sp["save"], "dc": 8 + a.data["prof"] + cmod})
            elif sp["kind"] == "attack":
                out["to_hit_bonus"] = cmod + a.data["prof"]
        elif act["action"] == "ready" and plan.get("spell"):
            out.update({"spell": plan["spell"], "concentration": concentration.cast_note(a, plan["spell"], readied=True)})
        elif act["action"] in ("grapple", "shove"):
            t = session.state.actors[plan["target"]]
            out.update({"target": t.id, "your_bonus": conditions.skill_bonus(self, a, "athletics"),
                        "their_bonus": max(conditions.skill_bonus(self, t, "athletics"), conditions.skill_bonus(self, t, "acrobatics")),
                        "grounds_a_flyer": bool(t.flying and (act["action"] == "shove" and act.get("mode", "prone") == "prone"
                                                              or act["action"] == "grapple" and not a.flying))})
        return out


def attack_notes(rs, session, a, t, plan) -> list[str]:
    """The attack preview's lines on loading (DND-F28) and on the target's concentration (DND-21, F40)."""
    out = []
    w = plan["weapon"]
    if "loading" in w["properties"]:
        out.append(loading.preview_note(a, w, session.state.turn))
    if t.data.get("concentration"):
        out.append(concentration.preview_note(rs, session, t, a))
    return [n for n in out if n]


def make_specs(rs):
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
        "open_door": {"target": P("id", True, help="the door (an object with door = true), not locked")},
        "dash": {}, "disengage": {}, "dodge": {},
        "help": {"target": P("id", True, help="the ally helped"), "against": P("id", help="the enemy the ally attacks")},
        "hide": {}, "search": {},
        "ready": {"target": P("id"), "weapon": P("str"), "trigger": P("str", choices=("enters_reach",), default="enters_reach"),
                  "spell": P("str", help="ready a spell of one action's casting time, held by concentration (DND-20)")},
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
        "short_rest": {"target": P("id", True, help="the character the game master rules has rested an hour"),
                       "dice": P("int", help="hit dice to spend (default 1)")},
        "trap": {"target": P("id", True, help="the character the trap goes off on"),
                 "save": P("str", choices=("str", "dex", "con", "int", "wis", "cha"), default="dex"),
                 "dc": P("int", default=15), "damage": P("str", default="2d10", help="dice like 2d10 (named trap)"),
                 "type": P("str", default="piercing"), "half": P("bool", default=True, help="half damage on a save (false: none)")},
        "secret_door": {"target": P("id", True, help="the character who may find it"), "dc": P("int", default=15),
                        "skill": P("str", choices=("perception", "investigation"), default="perception"),
                        "active": P("bool", default=False, help="the character searches (a check), not its passive score"),
                        "door": P("id", help="the secret door object found on a success (then it can be opened)")},
    }
    return specs


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
    "open_door": OpenDoor,
    "reaction_policy": ReactionPolicy,
    "short_rest": ShortRest,
    "trap": Trap,
    "secret_door": SecretDoor,
    "gm": Gm,
}
