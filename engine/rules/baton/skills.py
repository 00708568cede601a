"""Baton skill tests and chances: attributes, penalties, exposure (BAT-00, BAT-17, BAT-24, BAT-37, BAT-56, BAT-59)."""

from __future__ import annotations

from engine.rules import aerial, riding
from engine.rules.baton.initiative import in_combat
from engine.rules.baton.upcalls import COMBAT, MOUNT
from engine.rules.baton import dice as bd
from engine.rules.baton.common import CONDITION_TAGS, PROTECTION_PENALTY, REALITY_SKILLS
from engine.rules.baton.data import SIZES
from engine.rules.core import Actor


def attr(rs, a: Actor, name: str) -> int:
    if name in a.data["attributes"]:
        return int(a.data["attributes"][name])
    return int(a.data["skills"].get(name, 0))


def best(rs, a: Actor, *names) -> tuple[str, int]:
    vals = [(attr(rs, a, n), -i, n) for i, n in enumerate(names)]
    v, _, n = max(vals)
    return n, v


def weapon_skill(rs, a: Actor, w: dict) -> tuple[str, int]:
    name = w.get("skill") or f"fight_{w['name']}"
    return name, attr(rs, a, name)


def tagged(rs, a: Actor, tag: str) -> str | None:
    """The first of the actor's conditions that carries ``tag`` (common.CONDITION_TAGS), or None."""
    for c in CONDITION_TAGS[tag]:
        if c in a.conditions:
            return c
    return None


def add_condition(rs, session, a: Actor, name: str, rule: str, source: str | None = None) -> None:
    if name == "prone" and riding.rides(a) and not a.dead:
        MOUNT.throw_rider(rs, session, a, f"knocked prone ({rule})")     # a prone rider is off its mount (BAT-42)
        return
    new = name not in a.conditions
    srcs = set(a.conditions.get(name, []))
    if source:
        srcs.add(source)
    a.conditions[name] = sorted(srcs)
    if new:
        session.emit({"type": "condition", "who": a.id, "condition": name, "added": True, "rule": rule,
                      **({"source": source} if source else {})})
        if name in CONDITION_TAGS["grounds_flyer"]:
            aerial.check_grounded(session, a)


def remove_condition(rs, session, a: Actor, name: str, rule: str, source: str | None = None) -> None:
    if name not in a.conditions:
        return
    if source is not None:
        srcs = [s for s in a.conditions[name] if s != source]
        if srcs or source not in a.conditions[name] and a.conditions[name]:
            a.conditions[name] = srcs
            if srcs:
                return
    a.conditions.pop(name, None)
    session.emit({"type": "condition", "who": a.id, "condition": name, "added": False, "rule": rule})


def skill_test(rs, session, a: Actor, skill: str, difficulty: int, rule: str, purpose: str, pos=(), neg=(),
          major: bool = False, attack: bool = False, level: int | None = None, auto: bool = False,
          roll_name: str = "test") -> dict:
    """``roll_name``: the dice's name (what ``rolls`` and the window's R fill): ``test``, or a name of its own where
    one step rolls two tests (the faller's Agility test after an attack: ``agility``)."""
    lv = attr(rs, a, skill) if level is None else level
    negs = list(neg) + negatives(rs, a, skill, attack)
    ev = bd.test(session, a.id, skill, lv, difficulty, list(pos), negs, rule, purpose, rs.options, roll_name, auto=auto)
    t = session.state.turn
    if major and t.get("test_die") is None and in_combat(rs, session):
        t["test_die"] = ev["kept"]                                # BAT-08/09 read this die
        t["test_rule"] = rule
    return ev


def release(rs, session, a: Actor, b: Actor) -> None:
    """End a grapple between a and b (either way round)."""
    for g, t in ((a, b), (b, a)):
        if t.id in g.conditions.get("grappling", []):
            remove_condition(rs, session, g, "grappling", "BAT-55", t.id)
            remove_condition(rs, session, g, "overloaded", "BAT-55", f"grab:{t.id}")
            remove_condition(rs, session, t, "grappled", "BAT-54", g.id)
            remove_condition(rs, session, t, "overloaded", "BAT-54", f"grab:{g.id}")
            remove_condition(rs, session, t, "stuck", "BAT-54", f"grab:{g.id}")
            session.emit({"type": "grapple_end", "grabber": g.id, "target": t.id, "rule": "BAT-34"})


def check_grapples(rs, session) -> None:
    st = session.state
    for g in st.actors.values():
        for tid in list(g.conditions.get("grappling", [])):
            t = st.actors.get(tid)
            if t is None:            # a GM-given condition (its source "gm"): it lasts until the GM removes it
                continue
            if g.dead or t.dead or g.has("petrified") or not COMBAT.in_reach(rs, session, g, t, {"reach_m": g.data["reach_m"]}):
                release(rs, session, g, t)


def size_cmp(rs, a: Actor, b: Actor) -> int:
    return SIZES.index(a.size) - SIZES.index(b.size)


def wound_category(rs, severity: int) -> str:
    if severity <= int(rs.opt("wound_light_max")):
        return "light"
    if severity <= int(rs.opt("wound_moderate_max")):
        return "moderate"
    return "grave"


def exposed_to(rs, session, t: Actor, attacker: Actor) -> list:
    """BAT-59 sources that give ``attacker`` a positive chance against ``t``."""
    out = []
    if t.has("exposed"):
        out.append(["exposed", "BAT-59"])
    if t.has("prone"):
        out.append(["prone: exposed", "BAT-57"])
    if t.has("grappled"):
        out.append(["grappled: exposed", "BAT-54"])
    if t.has("grappling") and attacker.id not in t.conditions.get("grappling", []):
        out.append(["grappling: exposed", "BAT-55"])
    return out[:1] if session.options.get("exposed_counts_once", True) else out


def unaware(rs, session, t: Actor) -> bool:
    return t.has("unaware") or (t.data["surprised"] and t.id not in session.state.data["acted"])


def life_penalty(rs, a: Actor) -> int:
    return (a.data["max_life"] - a.hp) // 6                       # BAT-24


def protection_penalty(rs, a: Actor) -> int:
    p = a.data["protection_max"] if rs.opt("protection_penalty") == "worn" else a.data["protection"]
    return p // 6                                                 # BAT-17


def negatives(rs, a: Actor, skill: str, attack: bool = False) -> list:
    out = []
    for _ in range(life_penalty(rs, a)):
        out.append(["Life lost (per 6)", "BAT-24"])
    pp = skill in PROTECTION_PENALTY or skill.split("_")[0] in PROTECTION_PENALTY
    if pp:
        for _ in range(protection_penalty(rs, a)):
            out.append(["Protection penalty (per 6)", "BAT-17"])
    if a.has("shaken") and (attack or pp):
        out.append(["shaken", "BAT-56"])
    if hallucination_counts(rs, a, skill):
        out.append(["hallucinating", "BAT-53"])
    return out


def hallucination_counts(rs, a: Actor, skill: str) -> bool:
    """BAT-53 hallucinogenic poison: "uma chance negativa em qualquer teste relacionado a discernir a realidade" --
    the tests of ``REALITY_SKILLS`` (perception); option ``hallucination_tests = "all"``: every test."""
    if not a.has("hallucinating"):
        return False
    return rs.opt("hallucination_tests") == "all" or skill in REALITY_SKILLS


def dice_of(rs, expr):
    n, sides, _ = bd.parse(expr)
    return sides, n
