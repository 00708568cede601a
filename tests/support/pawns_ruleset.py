"""A small test-only ruleset, "pawns", that proves the plug-in interface (issue 10): it registers itself through
the registry (``RULESET``; tests/conftest.py names this module in ``AERIE_RULESETS``) and works with the API test,
the runner, ``aerie query`` and a headless render without an edit to any shared file.

Rules (IDs PWN-1..5):
* PWN-1 initiative: every pawn rolls a d6 + its ``quickness``; highest first, ties by id; the order is fixed.
* PWN-2 a turn: one ``move`` (up to ``speed_m``; flyers use the aerial layer's costs, AIR-06..09) and one
  ``strike``, in any order, then ``end_turn``.
* PWN-3 strike: an engaged (AIR-04) enemy; a d6 of 4 or more hits (a dazed target: 3 or more); 1 damage, 2 on a 6.
* PWN-4 a 6 leaves the target ``dazed`` until the end of its next turn: speed 0 (a dazed flyer falls, AIR-10).
* PWN-5 a pawn at 0 HP is out (dead); the last side standing wins.
Staying aloft costs the turn's strike (AIR-08, paid at the end of the turn when still unspent).
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from engine.rules import aerial
from engine.rules.actions import Param
from engine.rules.core import Actor, Illegal
from engine.rules.events import CORE_EVENTS, Attacking, Event, Hurting, Moving, table
from engine.rules.registry import RulesetInfo
from engine.rules.ruleset import Ruleset
from engine.world.geometry import engaged


class PawnStats(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    hp: int = 4
    speed_m: float = 6.0
    fly_speed_m: float | None = None
    quickness: int = 0


# -- its events, declared (engine/rules/events.py): the core's plus these, in this module, no shared edit
class PawnOrder(Event, tag="pawn_order", frozen=True):
    """An initiative roll (PWN-1)."""
    ACTED_ON = ""
    who: str
    roll: int
    quickness: int
    rule: str


class Round(Event, tag="round", frozen=True):
    """A new round; the first names the order (PWN-1)."""
    SUBJECT = ACTED_ON = ""
    round: int
    order: list | None = None
    rule: str | None = None


class Turn(Event, tag="turn", frozen=True):
    """A pawn's turn starts."""
    ACTED_ON = ""
    who: str
    round: int


class TurnSkipped(Event, tag="turn_skipped", frozen=True):
    """An out pawn's turn passes (PWN-5)."""
    ACTED_ON = ""
    who: str
    reason: str
    rule: str


class EndTurn(Event, tag="end_turn", frozen=True):
    """``end_turn``."""
    ACTED_ON = ""
    who: str


class Condition(Event, tag="condition", frozen=True):
    """``dazed`` gained or lost (PWN-4)."""
    ACTED_ON = ""
    who: str
    condition: str
    added: bool
    rule: str


class Move(Moving, tag="move", kw_only=True, frozen=True):
    """A move along its path (PWN-2, the aerial costs)."""
    from_: list = msgspec.field(name="from")
    path: list
    cost_m: float
    takeoffs: int
    layers_up: int
    layers_down: int
    flying: bool
    left_m: float
    rule: str


class Strike(Attacking, tag="strike", kw_only=True, frozen=True):
    """A strike's d6 against what it needs (PWN-3)."""
    roll: int
    needs: int
    hit: bool
    rule: str


class Damage(Hurting, tag="damage", kw_only=True, frozen=True):
    """Hit points lost."""
    damage_type: str
    rule: str


class Death(Event, tag="death", frozen=True):
    """A pawn is out (PWN-5)."""
    ACTED_ON = ""
    who: str
    reason: str
    rule: str


class CombatOver(Event, tag="combat_over", frozen=True):
    """The last side standing (PWN-5)."""
    SUBJECT = ACTED_ON = ""
    winner: str | None
    rule: str


EVENTS = table(CORE_EVENTS, [PawnOrder, Round, Turn, TurnSkipped, EndTurn, Condition, Move, Strike, Damage, Death, CombatOver])


#: conditions as data: what each does, by tag (code asks for the tag)
CONDITIONS = {"dazed": {"tags": ("speed_zero", "grounds_flyer"), "rule": "PWN-4"}}


def _tagged(a: Actor, tag: str):
    for c in a.conditions:
        if tag in CONDITIONS.get(c, {}).get("tags", ()):
            return c
    return None


def _line(text):
    return lambda session, e, n, r: text(e, n) + r


# -- the turn order and the actions: functions taking the ruleset (rs), named in Pawns.ACTIONS --------------
def begin_turn(rs, session, guard: int) -> None:
    st = session.state
    a = st.actors[st.current]
    st.turn = {"actor": a.id, "moved_m": 0.0, "struck": False}
    if a.dead and guard < len(st.order):
        session.emit({"type": "turn_skipped", "who": a.id, "reason": f"{a.name} is out", "rule": "PWN-5"})
        advance(rs, session, guard + 1)
        return
    if "dazed" in a.conditions:
        a.conditions["dazed"] = []                 # its next turn has come: the daze ends with it
    session.emit({"type": "turn", "who": a.id, "round": st.round})
    aerial.upkeep_at_start(session, a)



def advance(rs, session, guard: int = 0) -> None:
    st = session.state
    st.turn_index += 1
    if st.turn_index % len(st.order) == 0:
        st.round += 1
        session.emit({"type": "round", "round": st.round})
    begin_turn(rs, session, guard)



def check_end_turn(rs, session, a, act):
    return {}



def apply_end_turn(rs, session, a, act, plan):
    aerial.upkeep(session, a)
    session.emit({"type": "end_turn", "who": a.id})
    if a.conditions.get("dazed") == []:          # PWN-4: dazed until the end of its next turn
        del a.conditions["dazed"]
        session.emit({"type": "condition", "who": a.id, "condition": "dazed", "added": False, "rule": "PWN-4"})
    advance(rs, session)



def check_move(rs, session, a, act):
    to = tuple(act["to"])
    c = _tagged(a, "speed_zero")
    if c:
        raise Illegal(f"{a.name} is {c}: it cannot move", CONDITIONS[c]["rule"], "to")
    if to == a.pos:
        raise Illegal(f"{a.name} is already at {list(to)}", "PWN-2", "to")
    r = aerial.reach(session, a, budget_m=rs.movement_left(session, a, a.can_fly), fly=a.can_fly)
    if not r.can_end(*to):
        e = aerial.explain_unreachable(session, a, to, r, a.can_fly)
        e.path = "to"
        raise e
    path = r.path(*to)
    return {"path": path, "cost_m": r.cost_cm(*to) / 100.0}



def apply_move(rs, session, a, act, plan):
    path = plan["path"]
    for p in path[1:]:
        a.x, a.y, a.layer = p
        if a.can_fly:
            a.flying = not aerial.is_supported(session, a)
    rs.spend_movement(session, a, plan["cost_m"])
    b = aerial.path_breakdown(session, a, path)
    session.emit({"type": "move", "who": a.id, "from": list(path[0]), "to": list(path[-1]),
                  "path": [list(p) for p in path], "cost_m": plan["cost_m"], "takeoffs": b["takeoffs"],
                  "layers_up": b["layers_up"], "layers_down": b["layers_down"], "flying": a.flying,
                  "left_m": rs.movement_left(session, a, a.can_fly), "rule": "PWN-2"})



def check_strike(rs, session, a, act):
    t = session.actor(act["target"], "target")
    if session.state.turn["struck"]:
        raise Illegal(f"{a.name} has struck this turn", "PWN-2")
    if t.side == a.side or t.dead:
        raise Illegal(f"{t.name} is not a standing enemy", "PWN-3", "target")
    if not engaged(a.body(), t.body()):
        raise Illegal(f"{t.name} is not engaged with {a.name}", "AIR-04", "target")
    return {"target": t.id, "needs": 3 if "dazed" in t.conditions else 4}



def apply_strike(rs, session, a, act, plan):
    session.state.turn["struck"] = True
    t = session.state.actors[plan["target"]]
    roll = session.roll("attack", 6, who=a.id, rule="PWN-3")[0]
    hit = roll >= plan["needs"]
    session.emit({"type": "strike", "who": a.id, "target": t.id, "roll": roll, "needs": plan["needs"], "hit": hit,
                  "rule": "PWN-3"})
    if not hit:
        return
    rs.apply_damage(session, t, 2 if roll == 6 else 1, "blow", a.id, "PWN-3")
    if roll == 6 and not t.dead:
        t.conditions["dazed"] = ["fresh"]
        session.emit({"type": "condition", "who": t.id, "condition": "dazed", "added": True, "rule": "PWN-4"})
        aerial.check_grounded(session, t)
    elif t.flying:
        aerial.fall_roll(session, t)


class Pawns(Ruleset):
    name = "pawns"
    upkeep_name = "strike"
    EVENTS = EVENTS
    DEFAULT_OPTIONS: ClassVar[dict] = {}
    ECONOMY_KEYS = ("struck",)
    CONDITIONS = CONDITIONS
    EVENT_LINES = {
        "pawn_order": _line(lambda e, n: f"{n('who')} rolls {e['roll']} + {e['quickness']} for the order"),
        "strike": _line(lambda e, n: f"{n('who')} strikes {n('target')}: d6 {e['roll']} needs {e['needs']}: "
                                     f"{'hit' if e['hit'] else 'miss'}"),
    }

    # -- setup ------------------------------------------------------------------------------------------
    def make_actor(self, session, ch) -> Actor:
        st = ch.stats
        data = {"speed_m": float(st.speed_m), "fly_speed_m": st.fly_speed_m, "quickness": int(st.quickness)}
        a = Actor(ch.id, ch.side, ch.name, ch.kind, ch.size, ch.footprint, ch.height_layers, ch.eye_m,
                  ch.at[0], ch.at[1], ch.at[2], bool(ch.flying), st.fly_speed_m is not None, int(st.hp), int(st.hp),
                  0, {}, False, data)
        if a.flying and aerial.is_supported(session, a):
            a.flying = False
        return a

    def start(self, session) -> None:
        st = session.state
        rolls = {}
        for aid in sorted(st.actors):
            a = st.actors[aid]
            r = session.roll("initiative", 6, who=aid, rule="PWN-1")[0]
            rolls[aid] = r + a.data["quickness"]
            session.emit({"type": "pawn_order", "who": aid, "roll": r, "quickness": a.data["quickness"], "rule": "PWN-1"})
        st.order = sorted(st.actors, key=lambda i: (-rolls[i], i))
        st.round = 1
        session.emit({"type": "round", "round": 1, "order": list(st.order), "rule": "PWN-1"})
        begin_turn(self, session, 0)

    # -- actions ----------------------------------------------------------------------------------------
    def action_specs(self):
        return {"end_turn": {}, "move": {"to": Param("pos", True)}, "strike": {"target": Param("id", True)}}

    ACTIONS = {
        "end_turn": (check_end_turn, apply_end_turn),
        "move": (check_move, apply_move),
        "strike": (check_strike, apply_strike),
    }

    def check(self, session, act):
        a = session.actor(act["actor"], "actor")
        if a.id != session.current:
            raise Illegal(f"it is {session.current}'s turn, not {a.name}'s", "PWN-2", "actor")
        return self.ACTIONS[act["action"]][0](self, session, a, act)

    def apply(self, session, act, plan) -> None:
        a = session.state.actors[act["actor"]]
        self.ACTIONS[act["action"]][1](self, session, a, act, plan)
        alive = {o.side for o in session.state.actors.values() if not o.dead}
        if len(alive) <= 1 and not session.state.over:
            session.state.over, session.state.winner = True, (alive.pop() if alive else None)
            session.emit({"type": "combat_over", "winner": session.state.winner, "rule": "PWN-5"})

    def legal_actions(self, session, a: Actor) -> list[dict]:
        if a.id != session.current:
            return []
        out: list[dict] = [{"actor": a.id, "action": "end_turn"}]
        if not _tagged(a, "speed_zero") and self.movement_left(session, a, a.can_fly) > 0:
            r = aerial.reach(session, a, budget_m=self.movement_left(session, a, a.can_fly), fly=a.can_fly)
            out += [{"actor": a.id, "action": "move", "to": list(d)} for d in r.destinations()]
        for t in session.state.actors.values():
            out.append({"actor": a.id, "action": "strike", "target": t.id})
        return out[:1] + self.keep_legal(session, out[1:])

    def preview(self, session, act) -> dict:
        plan, refused = self.checked_plan(session, act)
        if refused:
            return refused
        out = {"action": act["action"], "legal": True}
        if act["action"] == "move":
            out.update(cost_m=plan["cost_m"], path=[list(p) for p in plan["path"]])
        elif act["action"] == "strike":
            out.update(target=plan["target"], needs=plan["needs"], hit_chance=(7 - plan["needs"]) / 6)
        return out

    # -- hooks the aerial layer calls -------------------------------------------------------------------
    def movement_left(self, session, a, flying):
        if a.dead or _tagged(a, "speed_zero") or session.state.turn.get("actor") != a.id:
            return 0.0
        base = a.data["fly_speed_m"] if flying and a.data["fly_speed_m"] else a.data["speed_m"]
        return max(0.0, base - session.state.turn["moved_m"])

    def takeoff_cost(self, session, a):
        return (a.data["fly_speed_m"] or a.data["speed_m"]) / 2.0

    def spend_movement(self, session, a, metres):
        session.state.turn["moved_m"] = round(session.state.turn["moved_m"] + metres, 4)

    def upkeep_available(self, session, a):
        t = session.state.turn
        return t.get("actor") == a.id and not t["struck"]

    def spend_upkeep(self, session, a):
        session.state.turn["struck"] = True

    def fall_reason(self, session, a):
        if a.dead:
            return (f"{a.name} is out", "PWN-5")
        c = _tagged(a, "grounds_flyer")
        return (f"{a.name} is {c}", CONDITIONS[c]["rule"]) if c else None

    def apply_damage(self, session, a, amount, dtype, source, rule, critical=False) -> int:
        lost = min(a.hp, int(amount))
        a.hp -= lost
        session.emit({"type": "damage", "who": a.id, "amount": lost, "damage_type": dtype, "rule": rule})
        if a.hp == 0 and not a.dead:
            a.dead = True
            session.emit({"type": "death", "who": a.id, "reason": "0 HP", "rule": "PWN-5"})
            aerial.check_grounded(session, a)
        return lost

    def knock_prone(self, session, a, rule):
        pass                 # pawns have no Prone

    def invariants(self, session) -> list[str]:
        bad = [f"{a.id}: out with {a.hp} HP" for a in session.state.actors.values() if a.dead != (a.hp == 0)]
        st = session.state
        if not st.over and st.current is not None and st.turn.get("actor") != st.current:
            bad.append(f"the turn is {st.turn.get('actor')}'s but {st.current} is current")
        return bad


RULESET = RulesetInfo(
    name="pawns",
    title="Pawns (test-only)",
    ruleset=Pawns,
    schema=PawnStats,
    cover_levels=(("clear", 0.0), ("screened", 0.5), ("total", 1.0)),
    cover_rule="PWN-3",
)
