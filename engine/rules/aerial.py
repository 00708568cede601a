"""The aerial module (AIR-01 to AIR-12), on top of any ruleset.

It calls the ruleset only through the hooks of :class:`engine.rules.ruleset.Ruleset` (movement left, take-off
cost, the upkeep resource, fall reasons, the damage path, prone), so the same code flies the characters of every ruleset.

Movement (AIR-06, AIR-07, AIR-09): the cheapest path over nodes (cell x, cell y, layer) where the body fits
(no solid voxel in its footprint x height). Edges go to the 26 neighbours: a horizontal step (straight or
diagonal) costs one cell (``cell_m``, 1.5 m; option ``diagonal = "5e"``; ``"euclidean"`` makes diagonals
cost cell_m * sqrt 2, ``"5-10-5"`` one cell then two, alternately), climbing a layer costs 4 m and descending one 2 m (``climb_m``/``descend_m`` options);
a step that does both pays both. Walkers only use supported nodes (layer 0, or a solid voxel under the
footprint) and change at most one layer per step (a stair or a kerb; no jumping down). A flyer may also enter
unsupported nodes; leaving support into the air costs the take-off (AIR-06: half its movement) each time.
Costs are integer centimetres so equal paths compare exactly. The search is a vectorised Bellman-Ford
relaxation (numpy) over the box the budget can reach, cached per actor position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import itertools
import math


from engine.rules import riding
from engine.rules.core import Actor, Illegal
from engine.rules.pathing import (  # noqa: F401  (re-exported: the rulesets call aerial.reach, aerial.Reach...)
    cm,
    climb_cost,
    body_masks,
    is_supported,
    support_below,
    body_fits,
    Reach,
    _back_steps,
    _slices,
    reach,
    _scan_shift,
    _relax_flat,
    _rides,
    SHARES,
    INF,
)

if TYPE_CHECKING:
    from engine.rules.session import Session


FALL_TABLE = ((2, 0), (4, 1), (6, 2), (8, 3), (10, None))   # AIR-11: d10 result up to -> layers (None: ground)


def move_preview(session: Session, a: Actor, path) -> dict:
    """The shared part of a move's preview: the path, its metres by kind (``path_breakdown``) and whether it ends
    in the air (then the upkeep is owed, AIR-08)."""
    ends_aloft = a.can_fly and not is_supported(session, a, *path[-1])
    return {"path": [list(p) for p in path], **path_breakdown(session, a, path), "ends_aloft": ends_aloft}


def path_breakdown(session: Session, a: Actor, path) -> dict:
    """Metres by kind along a path, and whether it takes off / lands (for messages and previews)."""
    opts = session.options
    cell_m = session.world.cell_m
    climb, descend = climb_cost(session, a, a.flying), float(opts.get("descend_m", 2.0))
    out = {"horizontal_m": 0.0, "climb_m": 0.0, "descend_m": 0.0, "takeoff_m": 0.0, "takeoffs": 0,
           "layers_up": 0, "layers_down": 0, "lands": False}
    prev_sup = is_supported(session, a, *path[0]) if path else True
    mode = opts.get("diagonal", "5e")
    diagonals = 0
    for (x0, y0, z0), (x1, y1, z1) in itertools.pairwise(path):
        if (x0, y0) != (x1, y1):
            if x0 != x1 and y0 != y1:
                diagonals += 1
                k = math.sqrt(2) if mode == "euclidean" else (2 if mode == "5-10-5" and diagonals % 2 == 0 else 1)
            else:
                k = 1
            out["horizontal_m"] += cell_m * k
        if z1 > z0:
            out["climb_m"] += climb
            out["layers_up"] += 1
        elif z1 < z0:
            out["descend_m"] += descend
            out["layers_down"] += 1
        s = is_supported(session, a, x1, y1, z1)
        if prev_sup and not s:
            out["takeoff_m"] += session.ruleset.takeoff_cost(session, a)
            out["takeoffs"] += 1
        prev_sup = s
    out["lands"] = bool(path) and is_supported(session, a, *path[-1]) and not is_supported(session, a, *path[0]) if path else False
    return out


def explain_unreachable(session: Session, a: Actor, to, r: Reach, fly: bool) -> Illegal:
    """Why a destination cannot be reached: the rule and the numbers (the cost is computed without budget)."""
    x, y, z = to
    X, Y, Z = session.world.size
    name = a.name
    if not (0 <= x < X and 0 <= y < Y and 0 <= z < Z):
        return Illegal(f"{list(to)} is outside the map ({X} x {Y} cells, {Z} layers)", "AIR-02")
    if not body_fits(session, a, x, y, z):
        return Illegal(f"{name} does not fit at {list(to)}: a solid voxel is in the way", "AIR-02")
    if not fly and not is_supported(session, a, x, y, z):
        return Illegal(f"{name} cannot fly; {list(to)} is in the air (nothing under the feet)", "AIR-01")
    for o in session.state.actors.values():
        if o.id != a.id and not o.dead and not _rides(o) and _overlap(a, (x, y, z), o) \
                and not (SHARES and shares(a, o)):
            return Illegal(f"{list(to)} is occupied by {o.name}", session.ruleset.occupied_rule)
    left = session.ruleset.movement_left(session, a, fly)
    free = reach(session, a, budget_m=left + 200.0, fly=fly)
    c = free.cost_cm(x, y, z)
    if c is None or not free.endable[free._local(x, y, z)]:
        return Illegal(f"{name} has no path to {list(to)} (walls, hostile creatures or, walking, no stairs)",
                       "AIR-07")
    p = free.path(x, y, z)
    b = path_breakdown(session, a, p)
    bits = []
    rule = "AIR-09" if fly else session.ruleset.walk_rule
    if b["takeoffs"]:
        bits.append(f"taking off costs {b['takeoff_m']:g} m (AIR-06)")
        rule = "AIR-06"
    if b["layers_up"]:
        bits.append(f"climbing {b['layers_up']} layer{'s' if b['layers_up'] != 1 else ''} costs {b['climb_m']:g} m")
        rule = "AIR-07"
    if b["layers_down"]:
        bits.append(f"descending {b['layers_down']} layer{'s' if b['layers_down'] != 1 else ''} costs {b['descend_m']:g} m")
        rule = "AIR-07" if rule in ("AIR-09", session.ruleset.walk_rule) else rule
    if b["horizontal_m"]:
        bits.append(f"{b['horizontal_m']:g} m across")
    what = "; ".join(bits) if bits else "the path"
    what = what[0].upper() + what[1:]
    total = f": {c / 100:g} m in all" if len(bits) > 1 else ""
    return Illegal(f"{what}{total}; {name} has {max(left, 0):g} m of movement left", rule)


def _overlap(a: Actor, at, o: Actor) -> bool:
    x, y, z = at
    return (x < o.x + o.footprint and o.x < x + a.footprint and y < o.y + o.footprint and o.y < y + a.footprint
            and z < o.layer + o.height_layers and o.layer < z + a.height_layers)


def slide(session: Session, t: Actor, dx: int, dy: int, cells: int, occupied) -> int:
    """Forced movement (a shove, a push): ``t`` slides by (dx, dy) one cell at a time, at most ``cells``, and
    stops before a cell its body does not fit in or that ``occupied((x, y, layer))`` says is taken; its rider
    comes along. Returns the cells moved. Then :func:`fall_if_unsupported` (pushed off an edge)."""
    moved = 0
    for _ in range(cells):
        nx, ny = t.x + dx, t.y + dy
        if (dx, dy) == (0, 0) or not body_fits(session, t, nx, ny, t.layer) or occupied((nx, ny, t.layer)):
            break
        t.x, t.y = nx, ny
        moved += 1
    _carry_rider(session, t)
    return moved


def fall_if_unsupported(session: Session, t: Actor, rule: str, cause: str) -> None:
    """A walker moved over nothing (pushed off a roof) falls (AIR-12)."""
    if not t.flying and not is_supported(session, t):
        t.flying = True
        fall(session, t, None, rule, cause)


# ---------------------------------------------------------------------------------------------------------
#: how far (cells, Chebyshev) a falling body looks for a free place when someone is where it would stop
LANDING_RADIUS = 8


def shares(a: Actor, o: Actor) -> bool:
    """``a``'s body may be in ``o``'s space (pathing ``SHARES``: 5e's swarms and Air Form, SRD-41)."""
    return any(fn(a, o) for fn in SHARES)


def body_in_the_way(session: Session, a: Actor, at) -> Actor | None:
    """The living character whose body ``a`` would overlap at ``at`` (riders ride their mount's body: not them)."""
    for o in session.state.actors.values():
        if o.id != a.id and not o.dead and not _rides(o) and _overlap(a, at, o) and not (SHARES and shares(a, o)):
            return o
    return None


def _ring(d: int):
    return sorted(((dx, dy) for dx in range(-d, d + 1) for dy in range(-d, d + 1) if max(abs(dx), abs(dy)) == d),
                  key=lambda c: (abs(c[0]) + abs(c[1]), c[1], c[0]))


def landing_place(session: Session, a: Actor, layer: int, aloft: bool):
    """Where a falling body ends when another character's body is where it would stop (the documents are
    silent; docs/rules.md AIR-12): the nearest cell (rings of growing Chebyshev distance) where its body fits
    and no one is -- in the air at the same ``layer`` for a descent that stays aloft (AIR-11's layers are kept),
    else on the surface of that cell at or below its feet. Returns (x, y, layer, who was in the way) or None
    when the place is free (or no free place is near)."""
    o = body_in_the_way(session, a, (a.x, a.y, layer))
    if o is None:
        return None
    w = session.world
    for d in range(1, LANDING_RADIUS + 1):
        for dx, dy in _ring(d):
            x, y = a.x + dx, a.y + dy
            z = layer if aloft else max(w.support_layer(x + i, y + j, a.layer)
                                        for i in range(a.footprint) for j in range(a.footprint))
            if not body_fits(session, a, x, y, z) or body_in_the_way(session, a, (x, y, z)) is not None:
                continue
            if aloft and is_supported(session, a, x, y, z):
                continue
            return x, y, z, o
    return None


#: fn(session, actor, layers, rule, cause) -> True when it handles the fall itself (Feather Fall, SPL-02)
FALL_HOOKS: list = []
#: fn(session, actor) -> True when the actor owes no upkeep to stay aloft (Levitate, a slow Feather Fall)
UPKEEP_EXEMPT: list = []


def fall(session: Session, a: Actor, layers: int | None, rule: str, cause: str) -> None:
    """Drop ``layers`` layers (None: straight to the support below). Reaching support ends the flight:
    AIR-12 damage (5% of max HP per layer above the first, at most 50%) through the ruleset's damage path,
    and Prone. Stopping in the air deals nothing. A body never ends inside another character's: it ends in the
    nearest free place instead (:func:`landing_place`; the event's ``beside`` names who was in the way)."""
    if not a.flying and layers is None and a.layer == support_below(session, a):
        return
    if any(h(session, a, layers, rule, cause) for h in FALL_HOOKS):
        return
    ground = support_below(session, a)
    start = a.layer
    target = ground if layers is None else max(ground, a.layer - layers)
    aloft = target > ground
    aside = landing_place(session, a, target, aloft)
    if aside is not None:
        a.x, a.y, target, o = aside
        ground = ground if aloft else target            # the surface of the cell it lands in
        aside = {"beside": o.id, "at": [a.x, a.y, target]}
    if target > ground:
        a.layer = target
        session.emit({"type": "descend", "who": a.id, "from": start, "to": target, "layers": start - target,
                      "cause": cause, "rule": rule, "damage": 0, "note": "no damage without reaching the ground (AIR-12)",
                      **(aside or {})})
        _carry_rider(session, a)
        return
    a.layer = ground
    a.flying = False
    n = start - ground
    dmg, pct, drule = fall_damage(session, a, n)
    session.emit({"type": "fall", "who": a.id, "from": start, "to": ground, "layers": n, "cause": cause,
                  "rule": rule, "percent": pct, "damage": dmg, "damage_rule": drule, **(aside or {})})
    _carry_rider(session, a)
    riders = _riders(session, a)
    if dmg > 0:
        session.ruleset.apply_damage(session, a, dmg, session.ruleset.fall_type(session), None, drule)
    for rider in riders:            # the rider took the same fall; then the mount's Prone applies to it
        fall_rider(session, rider, n, ground)
    if not a.dead:
        session.ruleset.knock_prone(session, a, "AIR-12")


def _riders(session, a):
    return riding.riders(session, a)


def _carry_rider(session, a):
    for o in _riders(session, a):
        o.x, o.y, o.layer = a.x, a.y, a.layer
        o.flying = a.flying


def fall_damage(session, a, layers: int) -> tuple[int, int | None, str]:
    """Damage for reaching the ground after falling ``layers`` layers: the ruleset's own fall rule when it has
    one, else AIR-12: 5% of max HP per layer above the first, capped (50%), rounded by
    the ``fall_damage_rounding`` option. Returns (damage, percent or None, rule)."""
    own = session.ruleset.fall_damage(session, a, layers)
    if own is not None:
        dmg, rule = own
        return dmg, None, rule
    pct = min(5 * max(layers - 1, 0), int(session.options.get("fall_cap_percent", 50)))
    raw = a.max_hp * pct / 100.0
    rounding = session.options.get("fall_damage_rounding", "down")
    if rounding == "down":
        dmg = math.floor(raw + 1e-9)
    elif rounding == "up":
        dmg = math.ceil(raw - 1e-9)
    else:
        dmg = math.floor(raw + 0.5)
    return dmg, pct, "AIR-12"


def fall_rider(session, rider, layers, ground):
    """A rider whose flying mount reached the ground falling: it took the same fall, through the same rule."""
    dmg, pct, drule = fall_damage(session, rider, layers)
    session.emit({"type": "fall", "who": rider.id, "from": ground + layers, "to": ground, "layers": layers,
                  "cause": "its mount fell", "rule": drule, "percent": pct, "damage": dmg, "damage_rule": drule})
    if dmg > 0:
        session.ruleset.apply_damage(session, rider, dmg, session.ruleset.fall_type(session), None, drule)


def fall_roll(session: Session, a: Actor, rule: str = "AIR-11") -> None:
    """AIR-11: a flyer hit by an attack rolls 1d10 and may descend or fall."""
    if not a.flying or a.dead or riding.rides(a):
        return      # a rider is kept aloft by its mount: the mount rolls when it is hit (docs/rules-core.md)
    (r,) = session.roll("fall", 10, who=a.id, rule="AIR-11", purpose="fall roll after a hit")
    layers = next(n for top, n in FALL_TABLE if r <= top)
    if layers == 0:
        session.emit({"type": "fall_roll", "who": a.id, "result": r, "outcome": "nothing", "rule": "AIR-11"})
        return
    session.emit({"type": "fall_roll", "who": a.id, "result": r,
                  "outcome": "falls to the ground" if layers is None else f"descends {layers} layer{'s' if layers > 1 else ''}",
                  "rule": "AIR-11"})
    fall(session, a, layers, "AIR-11", f"fall roll {r}")


def check_grounded(session: Session, a: Actor) -> None:
    """AIR-10: a flyer that became unable to fly falls now."""
    if a.flying:
        why = session.ruleset.fall_reason(session, a)
        if why:
            reason, rule = why
            session.emit({"type": "flight_lost", "who": a.id, "reason": reason, "rule": "AIR-10", "because": rule})
            fall(session, a, None, "AIR-10", reason)


def check_all_grounded(session: Session) -> None:
    for a in list(session.state.actors.values()):
        check_grounded(session, a)


def upkeep_at_start(session: Session, a: Actor) -> None:
    """AIR-08, option ``upkeep = "start_of_turn"``: a character that starts its turn aloft spends the upkeep
    resource at once (it spends this turn in the air even if it lands), or falls (AIR-10)."""
    if session.options.get("upkeep", "end_of_turn") != "start_of_turn":
        return
    if not a.flying or a.dead or riding.rides(a):
        return
    upkeep(session, a, when="started its turn aloft")
    session.state.turn["upkeep_paid"] = True


def upkeep(session: Session, a: Actor, when: str = "ended its turn aloft") -> None:
    """AIR-08 at the end of the actor's turn: still aloft -> spend the upkeep resource, or fall (AIR-10)."""
    if not a.flying or a.dead:
        return
    if riding.rides(a):
        return   # the mount keeps it aloft
    if any(f(session, a) for f in UPKEEP_EXEMPT):
        return
    if session.state.turn.get("upkeep_paid") and session.state.turn.get("actor") == a.id:
        return   # paid at the start of this turn
    rs = session.ruleset
    if rs.upkeep_available(session, a):
        rs.spend_upkeep(session, a)
        session.emit({"type": "upkeep", "who": a.id, "spent": rs.upkeep_name, "rule": "AIR-08"})
    else:
        session.emit({"type": "flight_lost", "who": a.id, "reason": f"{when} without a {rs.upkeep_name} to stay up",
                      "rule": "AIR-10", "because": "AIR-08"})
        fall(session, a, None, "AIR-10", f"no {rs.upkeep_name} left to stay aloft")
