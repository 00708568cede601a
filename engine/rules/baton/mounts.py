"""Baton mounts and riders (BAT-42)."""

from __future__ import annotations

from engine.rules.baton.upcalls import MOUNT
from engine.rules import aerial, riding
from engine.rules.baton import skills
from engine.rules.core import Actor


def occupied(rs, session, a: Actor, at) -> bool:
    return any(o.id != a.id and not o.dead and not riding.rides(o) and aerial._overlap(a, at, o)
               for o in session.state.actors.values())


def ride_check(rs, session, a: Actor, amount: int) -> None:
    """BAT-42: when rider or mount takes damage the rider tests Ride against 7 + the damage or is thrown."""
    rider = a if riding.rides(a) else (session.state.actors.get(riding.rider_id(a)) if riding.carries(a) else None)
    if rider is None or rider.dead or not riding.rides(rider):
        return
    mount = riding.mount_of(session, rider)
    skill = f"ride_{mount.kind}" if mount.kind and f"ride_{mount.kind}" in rider.data["skills"] else "ride"
    ev = skills.skill_test(rs, session, rider, skill, 7 + amount, "BAT-42", f"stay on {mount.name} after {amount} damage")
    if not ev["success"]:
        throw_rider(rs, session, rider, "failed the Ride test")


def place_beside(rs, session, r: Actor, m: Actor) -> None:
    for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)):
        for k in (1, 2):
            x, y = m.x + dx * k * max(1, m.footprint if dx > 0 or dy > 0 else 1), m.y + dy * k * max(1, m.footprint if dy > 0 else 1)
            if aerial.body_fits(session, r, x, y, m.layer) and not occupied(rs, session, r, (x, y, m.layer)):
                r.x, r.y, r.layer = x, y, m.layer
                return


def throw_rider(rs, session, r: Actor, why: str) -> None:
    m = riding.unseat(session, r)
    place_beside(rs, session, r, m)
    session.emit({"type": "thrown", "who": r.id, "mount": m.id, "why": why, "at": list(r.pos), "rule": "BAT-42"})
    if not aerial.is_supported(session, r) and not r.can_fly:
        r.flying = True
        aerial.fall(session, r, None, "BAT-42", "thrown from its mount")
    else:
        r.flying = r.can_fly and not aerial.is_supported(session, r)
        if not r.flying:
            rs.knock_prone(session, r, "BAT-42")


def body_of(rs, session, a: Actor) -> Actor:
    """The body that moves for ``a``: its mount while it rides (BAT-42)."""
    return riding.mount_of(session, a) if riding.rides(a) else a


MOUNT.provide(throw_rider)
