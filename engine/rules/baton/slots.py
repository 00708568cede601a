"""The holder's action economy: one major action, one minor action, one movement (BAT-03..07, BAT-60), and
the checks every action unit shares (a target that can be targeted, a body that can move)."""

from __future__ import annotations

from typing import cast

from engine.rules import riding
from engine.rules.baton import initiative, mounts
from engine.rules.core import Actor, Illegal


def turn_of(rs, session, body: Actor) -> dict | None:
    """The activation whose movement ``body`` uses: the holder's own, or its mount's."""
    h = initiative.holder(rs, session)
    if h is None:
        return None
    if body.id == h.id or riding.rides_on(h, body):
        return session.state.turn
    return None


#: the rule of each part of an activation
SLOT_RULES = {"major": "BAT-04", "minor": "BAT-05", "movement": "BAT-06"}


def check_slot(rs, session, a: Actor, slot: str, what: str) -> None:
    """Raise unless the holder's ``slot`` (major / minor / movement) is free (BAT-03, BAT-60)."""
    if not initiative.in_combat(rs, session):
        return
    t = session.state.turn
    h = cast(Actor, initiative.holder(rs, session))
    rule = SLOT_RULES[slot]
    if slot in ("major", "minor") and t[slot] is not None:
        raise Illegal(f"{h.name} has already used its {slot} action ({t[slot]}); {what} takes the {slot} action", rule)
    if slot == "movement" and (t["move_used"] or t["moved_m"] > 0) and what != "move":
        raise Illegal(f"{h.name} has already used its movement; {what} takes the movement", rule)
    if h.has("slow"):
        used = [k for k in ("major", "minor") if t[k] is not None] + (["movement"] if t["moved_m"] > 0 or t["move_used"] else [])
        if used and slot not in used:
            raise Illegal(f"{h.name} is slow: only one of major action, minor action or movement ({used[0]} used)", "BAT-60")


def use_slot(rs, session, slot: str, what: str) -> None:
    if initiative.in_combat(rs, session):
        session.state.turn[slot] = what


def needs_movement(rs, session, a: Actor, what: str) -> None:
    ok, why, rule = rs.can_move(session, mounts.body_of(rs, session, a))
    if not ok:
        raise Illegal(f"{why}: cannot {what} (it needs a movement)", rule)


def check_target(rs, session, a: Actor, tid: str, key="target", foe=False) -> Actor:
    t = session.actor(tid, key)
    if t.dead:
        raise Illegal(f"{t.name} is dead", "BAT-25", key)
    if t.id == a.id:
        raise Illegal(f"{a.name} cannot target itself", "", key)
    if t.has("petrified"):
        raise Illegal(f"{t.name} is petrified (a stone statue)", "BAT-62", key)
    return t
