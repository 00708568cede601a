"""SRD-58 A legendary gaze on one creature: "Frightening Gaze (Costs 2 Actions). The lich fixes its gaze on one
creature it can see within 10 feet of it. The target must succeed on a DC 18 Wisdom saving throw against this magic or
become frightened for 1 minute. The frightened target can repeat the saving throw at the end of each of its turns,
ending the effect on itself on a success. If a target's saving throw is successful or the effect ends for it, the
target is immune to the lich's gaze for the next 24 hours." and "Blinding Gaze (Costs 3 Actions). The solar targets
one creature it can see within 30 ft. of it. If the target can see it, the target must succeed on a DC 15
Constitution saving throw or be blinded until magic such as the lesser restoration spell removes the blindness."

The legendary option's ``gaze`` = {range_m, sees_it, immune_after} (srd_rider_text.gaze): its target is the nearest
foe it sees within the range (measured body to body) -- one that sees it where written, one not immune to its gaze;
SRD-15's save, the condition, its repeated save where written. ``immune_after``: whether it saves or not, the lich
does not gaze at it again (a success or the effect's end makes it immune for 24 hours; while it is still frightened
a second gaze gains nothing): the sheet's ``gaze_immune``. The solar's blindness lasts (lesser restoration is not
castable in the sandbox). "against this magic": Magic Resistance (SRD-10) gives advantage.
"""

from __future__ import annotations

from engine.rules.dnd5e import conditions
from engine.rules.dnd5e.srd_sheet import has
from engine.world.geometry import distance_m

RULE = "SRD-58"


def target(rs, session, a, opt: dict) -> list[str]:
    """The one creature the gaze falls on ([] when none fits)."""
    g = opt["gaze"]
    cell = session.world.cell_m
    fits = []
    for t in session.state.actors.values():
        if t.id == a.id or t.dead or t.hp == 0 or not conditions.hostile(rs, a, t):
            continue
        if a.id in (t.data.get("gaze_immune") or ()):
            continue
        d = distance_m(a.body(), t.body(), cell)
        if d > float(g["range_m"]) + 1e-9 or not rs.sees(session, a, t):
            continue
        if g.get("sees_it") and not rs.sees(session, t, a):
            continue
        fits.append((d, t.id))
    return [min(fits)[1]] if fits else []


def advantage(t, opt: dict) -> str | None:
    return "Magic Resistance (SRD-10)" if opt.get("magic") and has(t, "magic resistance") else None


def after_save(session, a, t, opt: dict) -> None:
    if opt["gaze"].get("immune_after") and a.id not in (t.data.get("gaze_immune") or ()):
        t.data.setdefault("gaze_immune", []).append(a.id)
        session.emit({"type": "gaze_immune", "who": t.id, "by": a.id, "rule": RULE})
