"""The shape shared by the actions a creature takes on itself or on one creature within 1.5 m that bears a mark in
its sheet data (a fire to douse, SRD-56; an infernal wound to stanch, SRD-46): offered only while someone on the
table bears it, listed on each friend who does, checked (the action unused, the mark there, the reach) and applied
by the rule's own function. Each such action is a subclass naming the mark, its rule and its words."""

from __future__ import annotations

from engine.rules.actions import Unit
from engine.rules.core import Illegal
from engine.rules.dnd5e.actions.standard import _action_on
from engine.world.geometry import engaged


class OnOneNear(Unit):
    #: the key of a creature's data that marks it (a non-empty value: it bears the mark)
    mark = ""
    #: the rule ID the refusals name
    rule = ""
    #: the action as a refusal names it ("dousing a fire"), and what a target without the mark lacks ("is not burning")
    doing = lacks = ""
    groups = {"on_friend": 0}
    spends_action = True

    @classmethod
    def offered(cls, rs, session, a) -> bool:
        """Only while someone on the table bears the mark: otherwise it is no one's action, not a button greyed out
        on every sheet."""
        return any(x.data.get(cls.mark) for x in session.state.actors.values())

    @classmethod
    def candidates(cls, rs, session, a, ctx, f):
        return [{"actor": a.id, "action": cls.name, "target": f.id}] if f.data.get(cls.mark) else []

    @classmethod
    def check(cls, rs, session, a, act):
        t = _action_on(rs, session, a, act, cls.doing, cls.rule)
        if not t.data.get(cls.mark):
            raise Illegal(f"{t.name} {cls.lacks}", cls.rule, "target")
        if t.id != a.id and not engaged(a.body(), t.body()):
            raise Illegal(f"{t.name} is not within 1.5 m", cls.rule, "target")
        return {"target": t.id}

    @classmethod
    def apply(cls, rs, session, a, act, plan):
        session.state.turn["action"] = True
        cls.tend(rs, session, a, session.state.actors[plan["target"]])

    @staticmethod
    def tend(rs, session, a, t) -> None:
        """What the action does to ``t`` (the rule's own function)."""
        raise NotImplementedError
