"""Mounts and riders, written once for every ruleset (the bookkeeping only; what riding does is each ruleset's).

The link lives in ``Actor.data`` (so saves, replays and fingerprints see it): the rider's ``mounted_on`` is its
mount's id, the mount's ``rider`` its rider's id, both ``None`` when unlinked. Rulesets and the aerial layer read
and change it only through these functions: the rider shares its mount's position, is kept aloft by it and falls
with it (``engine.rules.aerial``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.rules.core import Actor, Illegal

if TYPE_CHECKING:
    from engine.rules.session import Session


def rides(a: Actor) -> bool:
    """Is ``a`` on a mount?"""
    return bool(a.data.get("mounted_on"))


def carries(m: Actor) -> bool:
    """Does ``m`` carry a rider?"""
    return bool(m.data.get("rider"))


def mount_of(session: Session, a: Actor) -> Actor:
    """The creature ``a`` rides (ask ``rides(a)`` first)."""
    return session.state.actors[a.data["mounted_on"]]


def rider_of(session: Session, m: Actor) -> Actor:
    """The creature riding ``m`` (ask ``carries(m)`` first)."""
    return session.state.actors[m.data["rider"]]


def linked(a: Actor, b: Actor) -> bool:
    """Is one of the two riding the other?"""
    return a.data.get("mounted_on") == b.id or a.data.get("rider") == b.id


def partners(a: Actor) -> set:
    """The ids ``a`` is linked to (its mount and its rider; ``None`` stands for the missing ones)."""
    return {a.data.get("mounted_on"), a.data.get("rider")}


def seat(rider: Actor, mount: Actor) -> None:
    """Link ``rider`` onto ``mount`` (the ruleset places it and says so)."""
    rider.data["mounted_on"] = mount.id
    mount.data["rider"] = rider.id


def unseat(session: Session, rider: Actor) -> Actor:
    """Break the link of ``rider`` with its mount; returns the mount (the ruleset places the rider and says so)."""
    m = session.state.actors[rider.data["mounted_on"]]
    rider.data["mounted_on"] = None
    m.data["rider"] = None
    return m


def rides_on(a: Actor, m: Actor) -> bool:
    """Is ``a`` riding ``m``?"""
    return a.data.get("mounted_on") == m.id


def mount_id(a: Actor) -> str | None:
    """The id of the creature ``a`` rides, or None."""
    return a.data.get("mounted_on")


def rider_id(m: Actor) -> str | None:
    """The id of the creature riding ``m``, or None."""
    return m.data.get("rider")


def riders(session: Session, m: Actor) -> list:
    """Every creature riding ``m`` (at most one by these functions; a scene could link more)."""
    return [o for o in session.state.actors.values() if o.data.get("mounted_on") == m.id]


def require_mount(session: Session, a: Actor, rule: str) -> Actor:
    """The mount of ``a`` for an action that needs it riding (dismounting); refused "X is not riding" (``rule``)."""
    if not rides(a):
        raise Illegal(f"{a.name} is not riding", rule)
    return mount_of(session, a)
