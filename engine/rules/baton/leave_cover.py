"""BAT-41 for ``legal_actions``: the enemies who would shoot a mover as it leaves their total cover, so that a
move is also offered with them in ``declined`` (the variant where they let it go). The same test as the move's own
(engine/rules/baton/actions/turn.py, "leaving total cover"): an able enemy with a ranged weapon equipped, in range of
where the mover ends, which has total cover from it now and not there."""

from __future__ import annotations

from engine.rules.baton import baton_order, combat
from engine.world.geometry import distance_m


def shooters(rs, session, a, body, end) -> list[str]:
    if not baton_order.in_combat(rs, session) or not rs.opt("cover_exposure"):
        return []
    out = []
    for e in session.state.actors.values():
        if e.side == a.side or not combat.can_counter(rs, e):
            continue
        rw = next((w for w in combat.equipped(rs, e) if not combat.is_melee(rs, w)), None)
        if rw is None or combat.cover(rs, session, e, body).level != "total":
            continue
        if distance_m(e.body(), body.body().moved(*end), session.world.cell_m) > rw["range_m"]:
            continue
        if combat.cover(rs, session, e, body, t_at=tuple(end)).level != "total":
            out.append(e.id)
    return out
