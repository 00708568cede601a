"""SRD-20 Wing Attack (Costs 2 Actions): "The dragon beats its wings. Each creature within 10 ft. of the dragon must
succeed on a DC 22 Dexterity saving throw or take 15 (2d6 + 8) bludgeoning damage and be knocked prone. The dragon
can then fly up to half its flying speed."

The legendary option (srd_blocks.legendary_option, ``then_fly``) is SRD-15's save around the creature -- every
creature in the 10 ft. sphere around its body in 3D, a flyer above or below it included; knocked prone, a flyer falls
(AIR-10, AIR-12) -- and then this module's move:

- **how far**: half its speed in the air, as AIR-09 reads a flyer's speed (its ground speed; ``air_speed =
  "fly_speed"``: its fly speed), paid with the aerial costs (AIR-06 take-off, AIR-07 layers): a dragon on the ground
  spends the half on the take-off (AIR-06 costs half its movement) and rises no farther; one aloft flies it;
- **whether and where** (its policy; the GM's own choice is not offered yet, as SRD-15's): it flies only when a foe
  that still stands (not prone, not incapacitated) has it in melee reach; then to the cell, within the half, farthest
  from the nearest such foe (ties: the cheaper path, then the first cell);
- **opportunity attacks**: the move is a move: leaving a foe's reach provokes (DND-28, AIR-05), and a hit that
  stops it ends the move (as Move does). It spends none of the creature's own movement (the legendary action is not
  its turn).
"""

from __future__ import annotations

from engine.rules import aerial
from engine.rules.dnd5e import attacks, conditions, figures
from engine.rules.dnd5e.srd_sheet import dice_parts
from engine.world.geometry import distance_m, in_melee_reach


def _standing_foes(rs, session, a):
    return [o for o in session.state.actors.values()
            if not o.dead and o.hp > 0 and conditions.hostile(rs, a, o) and not o.has("prone")
            and not conditions.incapacitated(rs, o)]


def _threatened_by(rs, session, a, foes) -> list:
    cell = session.world.cell_m
    out = []
    for o in foes:
        w, reach = attacks.oa_weapon(rs, o)
        if w is not None and in_melee_reach(o.body(), a.body(), reach, cell):
            out.append(o)
    return out


def budget_m(rs, session, a) -> float:
    """Half its speed in the air (AIR-09 as the rules read it; not its turn: its whole speed)."""
    return round(rs.movement_left(session, a, True) / 2.0, 4)


def destination(rs, session, a):
    """(reach map, cell) of the policy's flight, or None when it stays."""
    if not a.can_fly or a.has("prone") or conditions.speed_zero(rs, a) or a.dead or a.hp == 0:
        return None
    near = _threatened_by(rs, session, a, _standing_foes(rs, session, a))
    if not near:
        return None
    r = aerial.reach(session, a, budget_m=budget_m(rs, session, a), fly=True)
    cell = session.world.cell_m
    body = a.body()
    best, key = None, None
    for to in r.destination_cells().tolist():
        to = tuple(to)
        if not r.can_end(*to):
            continue
        k = (-min(distance_m(body.moved(*to), o.body(), cell) for o in near), r.cost_cm(*to))
        if key is None or k < key:
            best, key = to, k
    if best is None or -key[0] <= min(distance_m(body, o.body(), cell) for o in near) + 1e-9:
        return None          # nowhere farther from them than where it is
    return r, best


def fly_after(rs, session, a, option: str) -> None:
    """"The dragon can then fly up to half its flying speed." -- the policy's flight, move by move, with the
    opportunity attacks it provokes."""
    found = destination(rs, session, a)
    if found is None:
        return
    r, to = found
    path = r.path(*to)
    costs = [r.cost_cm(*p) / 100.0 for p in path]
    session.emit({"type": "wing_flight", "who": a.id, "option": option, "to": list(to),
                  "budget_m": budget_m(rs, session, a), "rule": "SRD-20"})
    seg = [0]
    left0 = budget_m(rs, session, a)

    def flush(i, note):
        attacks.emit_move(rs, session, a, path[seg[0]:i + 1], costs[i] - costs[seg[0]], left0 - costs[i], note)
        seg[0] = i

    stopped = None
    for i in range(len(path) - 1):
        provoked = attacks.opportunity_attacks(rs, session, a, path[i], path[i + 1],
                                               before=lambda i=i: flush(i, "stops before leaving a reach"))
        if provoked and (a.pos != path[i] or conditions.speed_zero(rs, a) or a.has("prone") or a.dead or a.hp == 0):
            stopped = i
            break
        a.x, a.y, a.layer = path[i + 1]
        a.flying = not aerial.is_supported(session, a)
        aerial._carry_rider(session, a)
    if stopped is None:
        flush(len(path) - 1, None)
    else:
        session.emit({"type": "move_stopped", "who": a.id, "at": list(a.pos), "rule": "DND-28"})
    conditions.check_grapples(rs, session)


def expected(opt) -> float:
    """The average of an option's damage dice (for the policy's choice)."""
    total = 0.0
    for d in opt.get("damage", ()):
        n, s, b = dice_parts(d["dice"])
        total += n * (s + 1) / 2.0 + b
    return total


def _attack_average(rs, a, w) -> float:
    n, s, _ = dice_parts(w["damage"])
    extra = sum(expected({"damage": [{"dice": x["damage"] + (f"+{x['bonus']}" if x.get("bonus") else "")}]})
                for x in w.get("extra", ()))
    return n * (s + 1) / 2.0 + figures.damage_modifier(rs, a, w, {"melee": rs.is_melee(w)}) + extra


def ordered(rs, session, a, options: list, points: int, foes_in) -> list:
    """SRD-15's policy with SRD-20: the options in the block's order, a Wing Attack first when its average damage on
    every foe it catches beats the average of the attack options the same points buy (two tail attacks for 2
    points): three foes around an adult red dragon (15 each, 45) beat two tail attacks (17 each, 34), two do not."""
    wings = [o for o in options if o.get("then_fly") and o["cost"] <= points]
    if not wings:
        return options
    weapons = {w["name"]: w for w in a.data["weapons"] if isinstance(w, dict)}
    per_point = max((_attack_average(rs, a, weapons[o["weapon"]]) / o["cost"]
                     for o in options if o["kind"] == "attack" and o["weapon"] in weapons), default=0.0)
    first = [o for o in wings if expected(o) * foes_in(o) > per_point * o["cost"]]
    return first + [o for o in options if o not in first]
