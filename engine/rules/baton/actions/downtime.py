"""Baton actions rest, treat, wait, day, gm: each one unit (``check`` -> plan, ``apply``),
dispatched by ``Baton.ACTIONS``. ``rs`` is the ruleset."""

from __future__ import annotations

from engine.rules import gm
from engine.rules.baton import baton_order, health, skills
from engine.rules.baton.common import CONDITIONS
from engine.rules.baton.data import FIRE_SOURCES, POISONS
from engine.rules.actions import Param, Unit
from engine.rules.baton.actions import action
from engine.rules.core import Illegal
from engine.world.geometry import cell_gap

P = Param


class _TimePasses(Unit):
    """Wait and day: time passes out of combat only (``rule``), 1 to ``most`` of the ``unit``."""
    name = unit = rule = ""
    most = 0

    @classmethod
    def check(cls, rs, session, a, act):
        if baton_order.in_combat(rs, session):
            raise Illegal(f"{'time does not pass in hours' if cls.unit == 'hours' else 'days do not pass'} during combat",
                          cls.rule)
        if not 1 <= act[cls.unit] <= cls.most:
            raise Illegal(f"1 to {cls.most} {cls.unit}", "", cls.unit)
        return {}


@action
class Rest(Unit):
    name = "rest"
    place = 26
    groups = {"out_of_combat": 0}
    PARAMS = {"kind": P("str", True, choices=("short", "long")), "wound": P("int")}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "rest", "kind": "short"}, {"actor": a.id, "action": "rest", "kind": "long"}]

    @staticmethod
    def check(rs, session, a, act):
        d = session.state.data
        if act["kind"] == "short":
            period = d["hour"] // 6
            if a.data["short_rest_period"] == period:
                raise Illegal(f"{a.name} has already rested this period of the day", "BAT-30")
            if act.get("wound") is not None:
                raise Illegal("a wound is recovered during a long rest", "BAT-28", "wound")
            return {}
        day = d["hour"] // 24
        if a.data["long_rest_day"] == day:
            raise Illegal(f"{a.name} has already had its long rest today", "BAT-31")
        wi = act.get("wound")
        if wi is not None:
            w = health.find_wound(rs, a, wi)
            if w["necrotic"]:
                raise Illegal(f"wound {wi} is necrotic: it never recovers naturally (magic only)", "BAT-51", "wound")
        return {}

    @staticmethod
    def apply(rs, session, a, act, plan):
        d = session.state.data
        if act["kind"] == "short":
            a.data["short_rest_period"] = d["hour"] // 6
            (r,) = session.roll("rest", 6, who=a.id, rule="BAT-30", purpose="short rest")
            gain = max(0, r + a.data["attributes"].get("physique", 0))
            before = a.data["vigor"]
            a.data["vigor"] = min(a.data["max_vigor"], a.data["vigor"] + gain)
            session.emit({"type": "rest", "who": a.id, "kind": "short", "vigor": a.data["vigor"],
                          "gained": a.data["vigor"] - before, "rule": "BAT-30"})
            return
        a.data["long_rest_day"] = d["hour"] // 24
        a.data["vigor"] = a.data["max_vigor"]
        session.emit({"type": "rest", "who": a.id, "kind": "long", "vigor": a.data["vigor"], "rule": "BAT-31"})
        if act.get("wound") is not None:
            w = health.find_wound(rs, a, act["wound"])
            ev = skills.skill_test(rs, session, a, "physique", 7 + w["severity"], "BAT-28", f"recover wound {w['id']}")
            w["recovery"] = "success" if ev["success"] else "failure"


@action
class Treat(Unit):
    name = "treat"
    place = 27
    groups = {"out_of_combat": 1}
    PARAMS = {"target": P("id", True, help="the character"), "wound": P("int", True), "kit": P("str", choices=("bandage", "splint"))}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "treat", "target": a.id, "wound": w["id"]} for w in a.data["wounds"]]

    @staticmethod
    def check(rs, session, a, act):
        t = session.actor(act["target"], "target")
        if t.dead:
            raise Illegal(f"{t.name} is dead", "BAT-25", "target")
        if t.id != a.id and (cell_gap(a.body(), t.body()) > 1 or abs(a.layer - t.layer) > 1):
            raise Illegal(f"{t.name} is not beside {a.name}", "BAT-29", "target")
        w = health.find_wound(rs, t, act["wound"])
        if w["necrotic"]:
            raise Illegal("a necrotic wound needs magic, not a bandage", "BAT-51", "wound")
        if w["treated"]:
            raise Illegal(f"wound {w['id']} is already treated", "BAT-29", "wound")
        need = "splint" if w["type"] in ("blunt", "falling") else "bandage"
        kit = act.get("kit") or need
        if kit != need:
            raise Illegal(f"a {w['type']} wound needs a {need}, not a {kit}", "BAT-29", "kit")
        if a.data["items"].get(kit, 0) <= 0:
            raise Illegal(f"{a.name} has no {kit}", "BAT-29", "kit")
        return {"kit": kit}

    @staticmethod
    def apply(rs, session, a, act, plan):
        t = session.state.actors[act["target"]]
        w = health.find_wound(rs, t, act["wound"])
        a.data["items"][plan["kit"]] -= 1
        ev = skills.skill_test(rs, session, a, "treat_wounds", 7 + w["severity"], "BAT-29", f"treat wound {w['id']} of {t.id}")
        if ev["success"]:
            w["treated"] = True
        session.emit({"type": "treat", "who": a.id, "target": t.id, "wound": w["id"], "kit": plan["kit"],
                      "success": ev["success"], "rule": "BAT-29"})


@action
class Wait(_TimePasses):
    name, unit, most, rule = "wait", "hours", 72, "BAT-10"
    place = 28
    groups = {"out_of_combat": 2}
    PARAMS = {"hours": P("int", default=1)}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "wait", "hours": 1}]

    @staticmethod
    def apply(rs, session, a, act, plan):
        d = session.state.data
        for _ in range(act["hours"]):
            d["hour"] += 1
            health.hourly(rs, session)
        session.emit({"type": "time", "hour": d["hour"], "day": d["hour"] // 24, "period": (d["hour"] % 24) // 6})


@action
class Day(_TimePasses):
    name, unit, most, rule = "day", "days", 30, "BAT-27"
    place = 29
    groups = {"out_of_combat": 3}
    PARAMS = {"days": P("int", default=1)}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "day"}]

    @staticmethod
    def apply(rs, session, a, act, plan):
        """BAT-27/28/29: at the end of each day light wounds stay, moderate +1, grave +2; a treated wound evolves
        as one category lower; the long rest's recovery test replaces the change."""
        st = session.state
        for _ in range(act["days"]):
            for t in st.actors.values():
                if t.dead:
                    continue
                for w in t.data["wounds"]:
                    cat = w["category"]
                    evolve = cat
                    if w["treated"]:
                        evolve = {"grave": "moderate", "moderate": "light", "light": "light"}[cat]
                    rec = w.get("recovery")
                    if rec == "success":
                        delta = {"light": -1, "moderate": -1, "grave": 0}[evolve]
                    else:
                        delta = {"light": 0, "moderate": 1, "grave": 2}[evolve]
                    w["recovery"] = None
                    if delta:
                        w["severity"] += delta
                    session.emit({"type": "wound_day", "who": t.id, "wound": w["id"], "category": cat,
                                  "evolves_as": evolve, "recovered": rec == "success", "change": delta,
                                  "severity": w["severity"], "rule": "BAT-28" if rec else "BAT-27"})
                t.data["wounds"] = [w for w in t.data["wounds"] if w["severity"] > 0]
                health.sync_life(rs, t)
                health.maybe_die(rs, session, t, "BAT-27")
            d = st.data
            d["hour"] = (d["hour"] // 24 + 1) * 24 + 8
            health.hourly(rs, session)
            session.emit({"type": "day", "day": d["hour"] // 24, "rule": "BAT-27"})


#: the longest per-turn effect a game master sets (a day of six-second turns is 14,400)
MAX_TURNS = 100_000


class Gm(Unit):
    name = "gm"


    # -- the game master's tools ------------------------------------------------------------------------
    @staticmethod
    def check(rs, session, act):
        t = session.actor(act["target"], "target")
        k = act["action"]
        if t.dead:
            raise Illegal(f"{t.name} is dead", "BAT-25", "target")
        if k in ("condition", "fire") and act.get("turns") is not None and not 1 <= act["turns"] <= MAX_TURNS:
            # a count of the target's turns (BAT-11): 0 or less would be an effect that never ticks down, or a
            # condition silently made lasting; leave turns out for that
            raise Illegal(f"turns must be 1..{MAX_TURNS} (leave it out for no limit)", "BAT-11", "turns")
        if k == "condition":
            gm.check_condition_tool(act, sorted(CONDITIONS))
        elif k == "damage":
            if act["amount"] < 0:
                raise Illegal("amount must not be negative", "", "amount")
        elif k == "poison":
            if not 0 <= act["potency"] <= 20:
                raise Illegal("potency 0..20", "BAT-53", "potency")
        elif k == "fire":
            src = dict(FIRE_SOURCES)
            src.update({k2: tuple(v) for k2, v in (rs.opt("fire_sources") or {}).items()})
            if act["source"] not in src:
                raise Illegal(f"unknown heat source {act['source']!r}; one of {', '.join(sorted(src))}", "BAT-50", "source")
            return {"fire": src[act["source"]]}
        elif k == "breath" and not 0 <= act["minutes"] <= 600:
            raise Illegal("0..600 minutes", "BAT-49", "minutes")
        return {}

    @staticmethod
    def apply(rs, session, act, plan):
        st = session.state
        t = st.actors[act["target"]]
        k = act["action"]
        if k == "damage":
            typ = act.get("type", "blunt")
            rule = {"necrotic": "BAT-51", "divine": "BAT-52", "fatigue": "BAT-21"}.get(typ, "BAT-23")
            amount = act["amount"]
            if typ == "divine" and t.data["undead"]:
                session.emit({"type": "critical", "who": t.id, "why": "divine damage against undead", "rule": "BAT-52"})
            rs.apply_damage(session, t, amount, typ, "gm", rule)
        elif k == "condition":
            if act.get("add"):
                c = act["add"]
                if act.get("turns"):
                    baton_order.add_effect(rs, session, t, c, "turn", turns=act["turns"], conditions=[c])
                else:
                    skills.add_condition(rs, session, t, c, CONDITIONS[c])
            if act.get("remove"):
                c = act["remove"]
                t.conditions.pop(c, None)
                session.emit({"type": "condition", "who": t.id, "condition": c, "added": False, "rule": CONDITIONS[c]})
        elif k == "poison":
            health.poison(rs, session, t, act["kind"], act["potency"])
        elif k == "fire":
            base, growth = plan["fire"]
            rs.apply_damage(session, t, base, "fire", "gm", "BAT-50")
            w = t.data["wounds"][-1] if t.data["wounds"] and t.data["wounds"][-1]["type"] == "fire" else None
            if w is not None and not t.dead:
                baton_order.add_effect(rs, session, t, "burning", "turn", turns=act.get("turns"), wound=w["id"], growth=growth,
                                 source=act["source"])
        elif k == "breath":
            phys = max(0, t.data["attributes"].get("physique", 0))
            before = t.data["breath_min"]
            t.data["breath_min"] = before + act["minutes"]
            over = max(0, t.data["breath_min"] - max(before, phys))
            session.emit({"type": "breath", "who": t.id, "minutes": t.data["breath_min"], "can_hold": phys, "rule": "BAT-49"})
            for _ in range(over):
                if t.dead:
                    break
                (r,) = session.roll("breath", 6, who=t.id, rule="BAT-49", purpose="a minute without air")
                rs.apply_damage(session, t, r, "fatigue", None, "BAT-49")
            if act["minutes"] == 0:
                t.data["breath_min"] = 0


@action
class Damage(Gm):
    name = "damage"
    place = 30
    PARAMS = {"target": P("id", True, help="the character"), "amount": P("int", True), "type": P("str", default="blunt")}


@action
class Condition(Gm):
    name = "condition"
    place = 31
    PARAMS = {"target": P("id", True, help="the character"), "add": P("str"), "remove": P("str"), "turns": P("int")}


@action
class Poison(Gm):
    name = "poison"
    place = 32
    PARAMS = {"target": P("id", True, help="the character"), "kind": P("str", True, choices=POISONS), "potency": P("int", True)}


@action
class Fire(Gm):
    name = "fire"
    place = 33
    PARAMS = {"target": P("id", True, help="the character"), "source": P("str", True), "turns": P("int")}


@action
class Breath(Gm):
    name = "breath"
    place = 34
    PARAMS = {"target": P("id", True, help="the character"), "minutes": P("int", True)}
