"""D&D 5e mounts and forced movement (DND-31, DND-36): mounting, dismounting, falling off and being moved while
mounted (``push_from``) are module functions taking the ruleset as ``rs``; the link itself is ``engine.rules.riding``'s."""

from __future__ import annotations

from engine.rules import aerial, riding
from engine.rules.dnd5e import conditions
from engine.rules.dnd5e.upcalls import MOUNT


def push_from(rs, session, a, t, cells):
    if riding.rides(t):
        moved_against_will(rs, session, t, riding.mount_of(session, t))
        return
    dx = (t.x > a.x) - (t.x < a.x)
    dy = (t.y > a.y) - (t.y < a.y)
    aerial.slide(session, t, dx, dy, cells, lambda at: any(
        aerial._overlap(t, at, o) for o in session.state.actors.values() if o.id != t.id and not o.dead))
    session.emit({"type": "pushed", "who": t.id, "to": list(t.pos), "rule": "DND-31"})
    if riding.carries(t):
        moved_against_will(rs, session, riding.rider_of(session, t), t)
    aerial.fall_if_unsupported(session, t, "AIR-12", "pushed off an edge")


def do_mount(rs, session, a, m, quiet=False):
    riding.seat(a, m)
    a.x, a.y, a.layer = m.x, m.y, m.layer
    a.flying = m.flying
    if not quiet:
        session.emit({"type": "mount", "who": a.id, "mount": m.id, "rule": "DND-36"})


def dismount_spot(rs, session, a, m, prefer=None):
    cands = []
    for dy in range(-1, m.footprint + 1):
        for dx in range(-1, m.footprint + 1):
            x, y = m.x + dx, m.y + dy
            if 0 <= dx < m.footprint and 0 <= dy < m.footprint:
                continue
            X, Y, _Z = session.world.size
            if not (0 <= x < X and 0 <= y < Y):
                continue
            z = session.world.support_layer(x, y, m.layer + 1) if not m.flying else m.layer
            if aerial.body_fits(session, a, x, y, z) and not any(
                    aerial._overlap(a, (x, y, z), o) for o in session.state.actors.values() if o.id not in (a.id, m.id) and not o.dead):
                cands.append((x, y, z))
    if prefer and tuple(prefer) in cands:
        return tuple(prefer)
    return cands[0] if cands else None


def after_unhorsed(rs, session, a):
    supported = aerial.is_supported(session, a)
    if supported:
        a.flying = False
    elif a.can_fly and rs.fall_reason(session, a) is None:
        a.flying = True
    else:
        a.flying = True
        aerial.fall(session, a, None, "AIR-10", "left its flying mount without flying")


def leave_mount(rs, session, rider, m, event: str, rule: str) -> None:
    """The rider leaves its mount for the first free space beside it (if any), says so (``event``) and lands,
    flies or falls there."""
    spot = dismount_spot(rs, session, rider, m)
    riding.unseat(session, rider)
    if spot:
        rider.x, rider.y, rider.layer = spot
    session.emit({"type": event, "who": rider.id, "mount": m.id, "to": list(rider.pos), "rule": rule})
    after_unhorsed(rs, session, rider)


def fall_off_mount(rs, session, rider, rule):
    leave_mount(rs, session, rider, riding.mount_of(session, rider), "falls_off_mount", rule)
    if "prone" not in rider.conditions:
        conditions.add_condition(rs, session, rider, "prone", rule)


def mount_fell(rs, session, rider, m):
    """DND-36: the mount is knocked prone (or dies): the rider uses its reaction to land on its feet, else falls prone."""
    if not riding.rides_on(rider, m):
        return
    if not rider.data["reaction_used"] and not conditions.incapacitated(rs, rider) and not m.flying:
        rider.data["reaction_used"] = True
        leave_mount(rs, session, rider, m, "lands_on_feet", "DND-36")
    else:
        fall_off_mount(rs, session, rider, "DND-36")


def moved_against_will(rs, session, rider, m):
    if not conditions.saving_throw(rs, session, rider, "dex", 10, None, "DND-36", "stay mounted"):
        fall_off_mount(rs, session, rider, "DND-36")
    else:
        aerial._carry_rider(session, m)
        # no fall roll here: AIR-11 concerns attacks, and a failed save is not an attack hit


MOUNT.provide(fall_off_mount, mount_fell)
