"""SRD-30 Talons that carry: a creature that holds another with a stat block's grapple (SRD-19: the roc's Talons,
"the target is grappled (escape DC 19)") carries it along when it moves -- up into the air too -- and a creature
carried aloft that is let go falls by AIR's rules.

The SRD (Grappled condition / Grappling, "Moving a Grappled Creature"): "When you move, you can drag or carry the
grappled creature with you, but your speed is halved, unless the creature is two or more sizes smaller than you."
AIR-10 (a flyer grappled by a flyer is held aloft: "Agarrado por quem não voa" is what grounds) and AIR-12 (a body
over nothing falls to the support below: 5% of its max HP a layer above the first, Prone).

Decision: a creature held by an SRD-19 grapple and two or more sizes smaller than its grappler is carried: after
each of the grappler's moves it is set in the nearest free place hanging under the grappler's body (centred under
it, else beside it one ring at a time, within the grappler's reach), with a ``carried`` event. A creature less than
two sizes smaller is not carried (the halved speed is not played): it stays, and the grapple ends when it is out of
reach (DND-47), as before. A carried walker hangs in the air without flying (it owes no upkeep: it is held); when the
grapple ends -- the grappler lets go (``let_go``, no action: "You can release the target whenever you like"), the
creature escapes, the grappler dies or is incapacitated -- a walker over nothing falls straight down (AIR-12: its
damage and Prone, rule AIR-12, cause naming SRD-30); a flyer let go flies on.
"""

from __future__ import annotations

from engine.rules import aerial
from engine.rules.dnd5e import conditions, text
from engine.rules.dnd5e.conditions import MOVED, RELEASED
from engine.rules.dnd5e.data import SIZES
from engine.world.geometry import in_melee_reach

RULE = "SRD-30"

text.EVENT_LINES.update({
    "carried": text._did(lambda s, e: f"is carried by {e['by']} to {e['to']}"),
    "let_go": text._did(lambda s, e: f"lets go of {e['target']}"),
})


def carried_by(session, a) -> list:
    """The creatures ``a`` holds with a stat block's grapple and can carry (two or more sizes smaller)."""
    out = []
    for o in session.state.actors.values():
        g = o.data.get("srd_grapple")
        if (g and g["by"] == a.id and a.id in o.conditions.get("grappled", []) and not o.dead
                and SIZES.index(a.size) - SIZES.index(o.size) >= 2):
            out.append(o)
    return out


def _reach(rs, a) -> float:
    return max(rs.melee_reach(a, w) for w in a.data["weapons"])


def hanging_place(rs, session, a, t):
    """The nearest free place for ``t`` under ``a``'s body (centred below it, then rings beside it, from the
    lowest layer up to a's feet), within a's reach; None when there is none."""
    cx = a.x + (a.footprint - t.footprint) // 2
    cy = a.y + (a.footprint - t.footprint) // 2
    top = a.layer
    low = max(0, a.layer - t.height_layers)
    reach, cell = _reach(rs, a), session.world.cell_m
    for d in range(0, a.footprint + 2):
        ring = [(0, 0)] if d == 0 else aerial._ring(d)
        for z in range(low, top + 1):
            for dx, dy in ring:
                at = (cx + dx, cy + dy, z)
                if not aerial.body_fits(session, t, *at) or aerial.body_in_the_way(session, t, at) not in (None,):
                    continue
                if aerial._overlap(t, at, a) or not in_melee_reach(a.body(), t.body().moved(*at), reach, cell):
                    continue
                return at
    return None


@MOVED.rule(RULE)
def carry_load(rs, session, a):
    """After ``a`` moved: each creature it carries hangs under it."""
    for t in carried_by(session, a):
        at = hanging_place(rs, session, a, t)
        if at is None or at == t.pos:
            continue
        t.x, t.y, t.layer = at
        if t.can_fly:
            t.flying = not aerial.is_supported(session, t)
        t.data["carried_by"] = a.id
        session.emit({"type": "carried", "who": t.id, "by": a.id, "to": list(at),
                      "aloft": not aerial.is_supported(session, t), "rule": RULE})


@RELEASED.rule(RULE)
def dropped_aloft(rs, session, t, grappler):
    """A carried creature let go: over nothing, a walker falls (AIR-12); a flyer flies on."""
    if t.data.pop("carried_by", None) is None or t.dead:
        return
    if t.flying or t.can_fly and not t.has("prone") and not conditions.incapacitated(rs, t):
        t.flying = not aerial.is_supported(session, t)
        return
    aerial.fall_if_unsupported(session, t, "AIR-12", f"let go aloft by {grappler.name} (SRD-30)")


def let_go(rs, session, a, t) -> None:
    """``a`` releases ``t`` ("You can release the target whenever you like (no action required)")."""
    session.emit({"type": "let_go", "who": a.id, "target": t.id, "rule": RULE})
    conditions.release(rs, session, t, a, RULE, f"let go by {a.name}")
