"""A test-only ruleset, "drill": the pawns (tests/support/pawns_ruleset.py) with every action one unit (issue 25): each class
below registers itself in ``ACTIONS`` (``@action``) with its parameters, its candidates and its preview, and the
ruleset's spec table, legal-action listing and previews are the shared ones derived from them
(``engine.rules.ruleset.Ruleset``: nothing about the actions is written on the ruleset class but the dispatch).
tests/rules/test_action_units.py adds an action to it with one class and nothing else."""

from __future__ import annotations

from engine.rules.actions import ActionTable, Param, Unit
from engine.rules.core import Illegal
from engine.rules.registry import RulesetInfo
from engine.rules.ruleset import Ruleset

import pawns_ruleset as pawns
from pawns_ruleset import PawnStats, Pawns

ACTIONS = ActionTable(("end_turn", "move", "strike"))
action = ACTIONS.register


@action
class EndTurn(Unit):
    name = "end_turn"
    check = staticmethod(pawns.check_end_turn)
    apply = staticmethod(pawns.apply_end_turn)

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "end_turn"}]


@action
class Move(Unit):
    name = "move"
    PARAMS = {"to": Param("pos", True, help="the destination [x, y, layer]")}
    check = staticmethod(pawns.check_move)
    apply = staticmethod(pawns.apply_move)

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        if pawns._tagged(a, "speed_zero") or rs.movement_left(session, a, a.can_fly) <= 0:
            return []
        r = pawns.aerial.reach(session, a, budget_m=rs.movement_left(session, a, a.can_fly), fly=a.can_fly)
        return [{"actor": a.id, "action": "move", "to": list(d)} for d in r.destinations()]

    @staticmethod
    def preview(rs, session, a, act, plan):
        return {"cost_m": plan["cost_m"], "path": [list(p) for p in plan["path"]]}


@action
class Strike(Unit):
    name = "strike"
    PARAMS = {"target": Param("id", True, help="an engaged enemy")}
    check = staticmethod(pawns.check_strike)
    apply = staticmethod(pawns.apply_strike)

    @staticmethod
    def candidates(rs, session, a, ctx, t):
        return [{"actor": a.id, "action": "strike", "target": t.id}]

    @staticmethod
    def preview(rs, session, a, act, plan):
        return {"target": plan["target"], "needs": plan["needs"], "hit_chance": (7 - plan["needs"]) / 6}

    @staticmethod
    def damage_on_hit(rs, session, a, act, plan):
        return 1 + 1 / 6         # PWN-3: 1, 2 on a 6 (of the rolls that hit)


class Drill(Pawns):
    name = "drill"
    ACTIONS = ACTIONS
    LISTING = (("self", ("end_turn", "move")), ("foe", ("strike",)))
    # what the pawns write by hand, derived here from the units
    action_specs = Ruleset.action_specs
    legal_actions = Ruleset.legal_actions           # type: ignore[assignment]  # the pawns' narrower signature
    preview = Ruleset.preview                       # type: ignore[assignment]

    def check(self, session, act):
        a = session.actor(act["actor"], "actor")
        if a.id != session.current:
            raise Illegal(f"it is {session.current}'s turn, not {a.name}'s", "PWN-2", "actor")
        return self.ACTIONS[act["action"]].check(self, session, a, act)

    def apply(self, session, act, plan) -> None:
        a = session.state.actors[act["actor"]]
        self.ACTIONS[act["action"]].apply(self, session, a, act, plan)
        alive = {o.side for o in session.state.actors.values() if not o.dead}
        if len(alive) <= 1 and not session.state.over:
            session.state.over, session.state.winner = True, (alive.pop() if alive else None)
            session.emit({"type": "combat_over", "winner": session.state.winner, "rule": "PWN-5"})


RULESET = RulesetInfo(
    name="drill",
    title="Drill (test-only)",
    ruleset=Drill,
    schema=PawnStats,
    cover_levels=(("clear", 0.0), ("screened", 0.5), ("total", 1.0)),
    cover_rule="PWN-3",
)
