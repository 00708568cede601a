"""SRD-43 Swallow, as the SRD 5.1 writes it (the sheet's ``srd_swallow``, engine/rules/dnd5e/srd_swallow_text.py):

    "Swallow. The behir makes one bite attack against a Medium or smaller target it is grappling. If the attack hits,
    the target is also swallowed, and the grapple ends. While swallowed, the target is blinded and restrained, it has
    total cover against attacks and other effects outside the behir, and it takes 21 (6d6) acid damage at the start
    of each of the behir's turns. A behir can have only one creature swallowed at a time. If the behir takes 30 damage
    or more on a single turn from the swallowed creature, the behir must succeed on a DC 14 Constitution saving throw
    at the end of that turn or regurgitate the creature, which falls prone in a space within 10 ft. of the behir. If
    the behir dies, a swallowed creature is no longer restrained by it and can escape from the corpse by using 15 ft.
    of movement, exiting prone." (the remorhaz's and the tarrasque's alike; the purple worm's Bite: "it must succeed
    on a DC 19 Dexterity saving throw or be swallowed by the worm")

A swallowed creature's sheet holds ``inside`` (the swallower's id): sight.total_cover gives it total cover against
all outside its swallower (and it against them: it attacks only the swallower, or another creature inside), the path
search lets the two bodies share a space (pathing ``SHARES``). It is set inside the swallower's body, and after each
move of the swallower it is set there again (``moved_inside``, on the ground or aloft, as SRD-30 carries a grappled
creature). Its blindness and restraint have the swallower as their source.
"""

from __future__ import annotations

from engine.rules import aerial, pathing
from engine.rules.dnd5e import attacks, conditions, text
from engine.rules.dnd5e.conditions import MOVED
from engine.rules.dnd5e.damage import DEATH, damage_modifier
from engine.rules.dnd5e.data import SIZES
from engine.rules.dnd5e.srd_sheet import dice_parts
from engine.rules.dnd5e.turns import TURN_END, TURN_START

RULE = "SRD-43"

text.EVENT_LINES.update({
    "swallowed": text._did(lambda s, e: f"is swallowed by {text._name(s, e['by'])}"),
    "regurgitated": text._did(lambda s, e: f"is regurgitated by {text._name(s, e['by'])} at {e['to']}"),
    "escapes_corpse": text._did(lambda s, e: f"escapes from the corpse of {text._name(s, e['by'])} to {e['to']}"),
    "moved_inside": text._did(lambda s, e: f"moves inside {text._name(s, e['by'])} to {e['to']}"),
    "absorbed": text._did(lambda s, e: f"is absorbed into {text._name(s, e['by'])}"),
})


def holder(session, t):
    """The creature ``t`` is inside (swallowed), or None."""
    by = t.data.get("inside")
    return session.state.actors.get(by) if by else None


def inside(session, a) -> list:
    """The creatures inside ``a``, in id order."""
    return sorted((o for o in session.state.actors.values() if o.data.get("inside") == a.id), key=lambda o: o.id)


def shares_inside(a, o) -> bool:
    """A swallowed body is in its swallower's space (and beside another swallowed one)."""
    ia, io = a.data.get("inside"), o.data.get("inside")
    return ia == o.id or io == a.id or (ia is not None and ia == io)


pathing.SHARES.append(shares_inside)


def _spot(a, t) -> tuple[int, int, int]:
    """Where ``t`` is held in ``a``: centred in its footprint, at its feet."""
    return (a.x + max(0, a.footprint - t.footprint) // 2, a.y + max(0, a.footprint - t.footprint) // 2, a.layer)


def _drop(rs, session, t, name: str, src: str) -> None:
    """Remove ``name`` from ``t`` where ``src`` gave it (another source keeps it)."""
    srcs = t.conditions.get(name)
    if srcs is None or src not in srcs:
        return
    if len(srcs) > 1:
        t.conditions[name] = [s for s in srcs if s != src]
        return
    conditions.remove_condition(rs, session, t, name, RULE)


def swallow(rs, session, a, t) -> None:
    """``t`` is swallowed by ``a``: the grapple ends; blinded and restrained, inside ``a``."""
    if a.id in t.conditions.get("grappled", []):
        conditions.release(rs, session, t, a, RULE, f"swallowed by {a.name}")
    t.data["inside"] = a.id
    t.x, t.y, t.layer = _spot(a, t)
    t.flying = False                               # held inside: neither flying nor falling
    session.emit({"type": "swallowed", "who": t.id, "by": a.id, "at": [t.x, t.y, t.layer], "rule": RULE})
    for c in ("blinded", "restrained"):
        conditions.add_condition(rs, session, t, c, RULE, source=a.id)


def can_swallow(session, a, t) -> str | None:
    """Why ``a`` cannot swallow ``t`` now (its size, "only one creature swallowed at a time"), or None."""
    sw = a.data["srd_swallow"]
    if SIZES.index(t.size) > SIZES.index(sw["max_size"]):
        return f"{t.name} is {t.size}: {a.name} swallows a {sw['max_size'].capitalize()} or smaller creature"
    if sw.get("one") and inside(session, a):
        return f"{a.name} can have only one creature swallowed at a time"
    if t.data.get("inside"):
        return f"{t.name} is already swallowed"
    return None


def _worm_bite(rs, session, a, t, plan, hit) -> None:
    """The purple worm's Bite: "If the target is a Large or smaller creature, it must succeed on a DC 19 Dexterity
    saving throw or be swallowed by the worm.\""""
    sw = a.data.get("srd_swallow")
    if not hit or not sw or not sw.get("save") or plan.get("weapon", {}).get("name") != sw["weapon"] or t.dead \
            or a.dead or can_swallow(session, a, t):
        return
    sv = sw["save"]
    if not conditions.saving_throw(rs, session, t, sv["ability"], int(sv["dc"]), a, RULE, f"{a.name}'s swallow",
                                   sole_target=True):
        swallow(rs, session, a, t)


def _absorbed(rs, session, a, t, plan, hit) -> None:
    """The gibbering mouther's Bites: "If the target is killed by this damage, it is absorbed into the mouther." (a
    dead creature is no target: one dead after the hit died of it) -- its body is set inside the mouther."""
    sw = a.data.get("srd_swallow")
    if not hit or not sw or not sw.get("absorb") or plan.get("weapon", {}).get("name") != sw["weapon"] or not t.dead \
            or t.data.get("inside"):
        return
    t.data["inside"] = a.id
    t.x, t.y, t.layer = _spot(a, t)
    t.flying = False
    session.emit({"type": "absorbed", "who": t.id, "by": a.id, "rule": RULE})


attacks.ATTACK_MADE.append(_worm_bite)
attacks.ATTACK_MADE.append(_absorbed)


@TURN_START.rule(RULE)
def swallowed_acid(rs, session, a):
    """"it takes 21 (6d6) acid damage at the start of each of the behir's turns": one roll for each swallowed
    creature, recorded as dice."""
    sw = a.data.get("srd_swallow")
    if not sw or a.dead or sw.get("absorb"):
        return
    n, s, b = dice_parts(sw["dice"])
    for t in inside(session, a):
        if t.dead:
            continue
        amount = sum(session.roll("damage", s, n, who=a.id, rule=RULE, purpose=f"swallowed: {t.name}")) + b
        rs.apply_damage(session, t, amount, sw["type"], a.id, RULE)


@damage_modifier(RULE)
def hurt_from_inside(rs, session, a, dmg):
    """Counts the damage a swallower takes from a creature inside it this turn (changes nothing)."""
    if not a.data.get("srd_swallow") or not dmg["source"] or dmg["amount"] <= 0:
        return
    src = session.state.actors.get(dmg["source"]) if isinstance(dmg["source"], str) else None
    if src is None or src.data.get("inside") != a.id:
        return
    key = [session.state.round, session.state.turn.get("actor")]
    tally = a.data.get("swallow_hurt")
    if not tally or tally["turn"] != key:
        tally = a.data["swallow_hurt"] = {"turn": key, "amount": 0}
    tally["amount"] += int(dmg["amount"])


@TURN_END.rule(RULE)
def regurgitate_check(rs, session, actor):
    """"If the behir takes 30 damage or more on a single turn from the swallowed creature, the behir must succeed on a
    DC 14 Constitution saving throw at the end of that turn or regurgitate the creature\""""
    key = [session.state.round, actor.id]
    for a in sorted(session.state.actors.values(), key=lambda o: o.id):
        tally = a.data.get("swallow_hurt")
        if not tally:
            continue
        a.data.pop("swallow_hurt")
        sw = a.data.get("srd_swallow")
        if a.dead or not sw or tally["turn"] != key or tally["amount"] < int(sw["threshold"]) or not inside(session, a):
            continue
        if not conditions.saving_throw(rs, session, a, "con", int(sw["dc"]), None, RULE,
                                       f"keep down what it swallowed ({tally['amount']} damage from inside)"):
            regurgitate(rs, session, a)


def free_place(session, a, t, rings: int):
    """The nearest free place for ``t`` beside ``a``'s body (rings of cells around its footprint, at its feet's
    layer), or None."""
    for d in range(1, rings + 1):
        for z in (a.layer,):
            cells = sorted({(x, y) for x in range(a.x - d - t.footprint + 1, a.x + a.footprint + d)
                            for y in range(a.y - d - t.footprint + 1, a.y + a.footprint + d)},
                           key=lambda c: (abs(c[0] - a.x) + abs(c[1] - a.y), c[1], c[0]))
            for x, y in cells:
                at = (x, y, z)
                if aerial._overlap(t, at, a) or not aerial.body_fits(session, t, *at):
                    continue
                if aerial.body_in_the_way(session, t, at) is not None:
                    continue
                return at
    return None


def _out(rs, session, a, t, kind: str, rings: int) -> None:
    """``t`` leaves ``a`` for a free place beside it, prone; over nothing, it falls (AIR-12)."""
    at = free_place(session, a, t, rings) or _spot(a, t)
    t.data.pop("inside", None)
    t.x, t.y, t.layer = at
    session.emit({"type": kind, "who": t.id, "by": a.id, "to": list(at), "rule": RULE})
    for c in ("blinded", "restrained"):
        _drop(rs, session, t, c, a.id)
    if not t.dead:
        conditions.add_condition(rs, session, t, "prone", RULE)
        aerial.fall_if_unsupported(session, t, "AIR-12", f"{kind} by {a.name} aloft ({RULE})")


def regurgitate(rs, session, a) -> None:
    """"regurgitate all swallowed creatures, which fall prone in a space within 10 feet of the remorhaz\""""
    for t in inside(session, a):
        _out(rs, session, a, t, "regurgitated", 2)


def escape_corpse(rs, session, a, t) -> None:
    """"can escape from the corpse by using 15 ft. of movement, exiting prone\""""
    session.state.turn["moved_m"] = session.state.turn.get("moved_m", 0.0) + float(a.data["srd_swallow"]["escape_m"])
    _out(rs, session, a, t, "escapes_corpse", 2)


@DEATH.rule(RULE)
def swallower_dies(rs, session, a):
    """"If the behir dies, a swallowed creature is no longer restrained by it\""""
    for t in inside(session, a):
        _drop(rs, session, t, "restrained", a.id)


@MOVED.rule(RULE)
def moved_inside(rs, session, a):
    """After ``a`` moved: each creature inside it is where it is ("When the cube moves, the engulfed creature moves
    with it"; a swallowed one alike), aloft too."""
    held = sorted((o for o in session.state.actors.values() if o.data.get("held_in") == a.id), key=lambda o: o.id)
    for t in inside(session, a) + held:                 # swallowed (SRD-43), engulfed (SRD-44, -45)
        at = _spot(a, t)
        if at != t.pos:
            t.x, t.y, t.layer = at
            session.emit({"type": "moved_inside", "who": t.id, "by": a.id, "to": list(at), "rule": RULE})
