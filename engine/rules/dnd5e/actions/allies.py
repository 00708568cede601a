"""Dnd5e actions that aid an ally: help (DND-18), stabilize (DND-05); each one unit (``check`` -> plan, ``apply``)."""

from __future__ import annotations

from engine.rules.actions import Param, Unit
from engine.rules.core import Illegal
from engine.rules.dnd5e import common, conditions, damage, feats
from engine.rules.dnd5e.actions import action
from engine.rules.dnd5e.actions.standard import _action_on
from engine.world.geometry import engaged

P = Param


@action
class Help(Unit):
    name = "help"
    place = 8
    hotkey = "7"
    groups = {"on_foe": 3, "on_friend": 2}
    spends_action = True
    PARAMS = {"target": P("id", True, help="the ally helped"),
              "against": P("id", help="the enemy the ally attacks (none: help with a task, its next ability check)")}

    @staticmethod
    def candidates(rs, session, a, ctx, t):
        """Its action unused: a foe next to it -- help each friend attack it; a friend (the listing's friend group) --
        help it with a task (DND-18 l. 343, no distance)."""
        if ctx.turn["action"]:
            return []
        if any(t is f for f in ctx.friends):
            return [{"actor": a.id, "action": "help", "target": t.id}]
        if not engaged(ctx.ab, t.body()):
            return []
        return [{"actor": a.id, "action": "help", "target": f.id, "against": t.id} for f in ctx.friends]

    @staticmethod
    def check(rs, session, a, act):
        ally = _action_on(rs, session, a, act, "Help", "DND-18")
        if ally.id == a.id or conditions.hostile(rs, a, ally):
            raise Illegal(f"{ally.name} is not an ally of {a.name}", "DND-18", "target")
        if not act.get("against"):
            # l. 343 "Pomagasz innej istocie w wykonywanym przez nią zadaniu co daje jej ułatwienie": help with a task
            # (no distance: the 1.5 m is the attack's, l. 344); advantage on its next ability check (check_d20)
            return {"ally": ally.id, "target": None}
        foe = common.living_target(rs, session, a, act["against"], "against")
        if not conditions.hostile(rs, a, foe):
            raise Illegal(f"{foe.name} is not an enemy", "DND-18", "against")
        if not engaged(a.body(), foe.body()):
            raise Illegal(f"{a.name} must be within 1.5 m of {foe.name} to help attack it", "DND-18", "against")
        return {"ally": ally.id, "target": foe.id}

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.state.turn["action"] = True
        session.state.data.setdefault("help", []).append({"ally": plan["ally"], "target": plan["target"], "helper": a.id})
        session.emit({"type": "help", "who": a.id, "ally": plan["ally"], "target": plan["target"], "rule": "DND-18",
                      **({} if plan["target"] else {"task": True})})


@action
class Stabilize(Unit):
    name = "stabilize"
    place = 19
    groups = {"on_friend": 0}
    spends_action = True
    PARAMS = {"target": P("id", True)}

    @staticmethod
    def candidates(rs, session, a, ctx, f):
        """A dying friend."""
        return [{"actor": a.id, "action": "stabilize", "target": f.id}] if f.hp == 0 and not f.data["stable"] else []

    @staticmethod
    def check(rs, session, a, act):
        t = _action_on(rs, session, a, act, "stabilising", "DND-05")
        if t.hp > 0 or t.data["stable"]:
            raise Illegal(f"{t.name} is not dying", "DND-05", "target")
        if not engaged(a.body(), t.body()):
            raise Illegal(f"{t.name} is not within 1.5 m", "DND-05", "target")
        return {"target": t.id}

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.state.turn["action"] = True
        t = session.state.actors[plan["target"]]
        total = conditions.check_roll(rs, session, a, "medicine", "check", "DND-05", "Medicine DC 10")
        ok = total >= 10
        if ok:
            t.data["stable"] = True
        kit = healers_kit_used(a)
        session.emit({"type": "stabilize", "who": a.id, "target": t.id, "total": total, "success": ok, "rule": "DND-05",
                      **({"healers_kit": True} if kit else {})})
        if ok and kit:
            damage.heal(rs, session, t, 1, "DND-F36")      # DND-F36 Healer: a healer's kit also restores 1 HP


def healers_kit_used(a) -> bool:
    """DND-F36 l. 273 "Gdy wykorzystujesz torbę lekarską aby ustabilizować umierającą istotę": a Healer carrying a
    kit stabilises with it, and that spends one use (one ``healers_kit`` in ``items``, as ``use`` spends one to
    tend, l. 274 "wykorzystać jedno użycie torby lekarskiej"), whatever the Medicine check gives."""
    if not feats.has(a, "healer") or "healers_kit" not in a.data["items"]:
        return False
    a.data["items"].remove("healers_kit")
    return True
