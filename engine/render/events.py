"""Rules events -> animation. The replay plays each scripted step over ``STEP_S`` seconds: characters glide from
their state before the step to their state after it (along the move's path when the event gives one; falls drop
with gravity), and the step's events show as effects: attack lines, floating damage numbers, a caption.

Events are the rules' typed events (engine/rules/events.py: ``StepResult.events``); this adapter reads their fields
and the shapes every ruleset's events share (:class:`Attacking`, :class:`AttackingObject`, :class:`Hurting`,
:class:`Moving`, the core's falls and objects), and for any other type its roles (``subject``, ``acted_on``,
``quantity``), so a new event type only loses its effect, never the replay (an ``Undeclared`` one has no roles).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from engine.render.overlays import Label, Prims, feet_centre
from engine.render.state import RenderState
from engine.rules.events import (AnyEvent, Attacking, AttackingObject, Descend, Fall, FallRoll, Hurting, Moving,
                                 ObjectDamage, ObjectDestroyed)

STEP_S = 1.6
#: no caption: bookkeeping every step has
QUIET = ("roll", "state", "upkeep", "turn", "end_turn", "hp", "initiative", "action")


@dataclass
class StepAnim:
    before: RenderState
    after: RenderState
    events: list[AnyEvent]
    caption: str = ""
    paths: dict = field(default_factory=dict)       # id -> [(x, y, layer), ...]
    falls: set = field(default_factory=set)


def _describe(ev: AnyEvent) -> str | None:
    t = ev.type
    if t in QUIET:
        return None
    if isinstance(ev, Attacking) and t == "attack":
        res = "crits" if ev.critical else "hits" if ev.landed else "misses"
        return f"{ev.who} {res} {ev.target}" + (f" ({ev.cover} cover)" if ev.cover and ev.cover != "none" else "")
    if isinstance(ev, AttackingObject):
        return f"{ev.who} {'hits' if ev.hit else 'misses'} {ev.target}"
    if isinstance(ev, ObjectDamage):
        return f"{ev.target} takes {ev.dealt} ({ev.hp}/{ev.max_hp} HP left)"
    if isinstance(ev, ObjectDestroyed):
        return f"{ev.target} breaks"
    if isinstance(ev, Hurting):
        return f"{ev.who} takes {ev.amount} {ev.damage_type or ''}".rstrip()
    if isinstance(ev, Moving):
        return f"{ev.who} moves to layer {ev.to[2]}" if len(ev.to) == 3 else f"{ev.who} moves"
    if isinstance(ev, FallRoll):
        return f"{ev.who} fall roll: {ev.outcome}"
    who, tgt = ev.subject, ev.acted_on
    bits = [str(who)] if who else []
    bits.append(t.replace("_", " "))
    if tgt:
        bits.append(str(tgt))
    if ev.quantity is not None:
        bits.append(str(ev.quantity))
    if isinstance(ev, (Fall, Descend)) and ev.layers is not None:
        bits.append(f"{ev.layers} layers")
    return " ".join(bits)


def build_step(before: RenderState, after: RenderState, events: Sequence[AnyEvent]) -> StepAnim:
    """The animation of one step from its typed events (``StepResult.events``)."""
    paths, falls = {}, set()
    captions = []
    for ev in events:
        if isinstance(ev, Moving) and ev.path:
            try:
                paths[ev.who] = [tuple(float(v) for v in p) for p in ev.path]
            except (TypeError, ValueError):
                pass
        if isinstance(ev, Fall):
            falls.add(ev.who)
        d = _describe(ev)
        if d and d not in captions:
            captions.append(d)
    return StepAnim(before, after, list(events), "; ".join(captions[:4]), paths, falls)


def _lerp_path(path, u):
    if len(path) == 1:
        return path[0]
    seg = u * (len(path) - 1)
    i = min(int(seg), len(path) - 2)
    f = seg - i
    a, b = path[i], path[i + 1]
    return tuple(p + (q - p) * f for p, q in zip(a, b))


# The timeline of a step (fractions of STEP_S): moves glide over MOVE, attack lines show over ATTACK, damage numbers
# rise from DAMAGE on, a fall (after the hit that caused it) drops with gravity over FALL; the new conditions and
# hit points show once the motion is done.
MOVE = (0.0, 0.6)
ATTACK = (0.1, 0.55)
DAMAGE = 0.3
FALL = (0.5, 0.9)


def _phase(u, span):
    a, b = span
    return min(max((u - a) / (b - a), 0.0), 1.0)


def frame_state(anim: StepAnim, u: float) -> tuple[RenderState, Prims, list[str]]:
    """The state and the caption at fraction ``u`` (0..1) of a step (effects come from :func:`effects`)."""
    move_u = _phase(u, MOVE)
    chars = []
    for a in anim.after.characters:
        try:
            b = anim.before.get(a.id)
        except KeyError:
            chars.append(a)
            continue
        falling = a.id in anim.falls and b.x == a.x and b.y == a.y and b.layer != a.layer
        done = u >= (FALL[1] if falling else MOVE[1])
        src = a if done else replace(a, conditions=b.conditions, hp=b.hp, flying=b.flying)
        if (b.x, b.y, b.layer) == (a.x, a.y, a.layer):
            chars.append(src)
            continue
        if falling:
            g = _phase(u, FALL) ** 2                      # falls accelerate
            pos = (a.x, a.y, b.layer + (a.layer - b.layer) * g)
        elif a.id in anim.paths:
            pos = _lerp_path(anim.paths[a.id], move_u * move_u * (3 - 2 * move_u))
        else:
            sm = move_u * move_u * (3 - 2 * move_u)
            pos = (b.x + (a.x - b.x) * sm, b.y + (a.y - b.y) * sm, b.layer + (a.layer - b.layer) * sm)
        chars.append(src.at(*pos))
    state = RenderState(chars)
    return state, Prims(), [anim.caption] if anim.caption else []


def _unit(*k) -> float:
    """A deterministic pseudo-random number in [0, 1) from integers (debris that is the same in every replay)."""
    h = 2166136261
    for v in k:
        h = ((h ^ (int(v) & 0xFFFFFFFF)) * 16777619) & 0xFFFFFFFF
    return (h >> 8) / float(1 << 24)


DEBRIS_PER_VOXEL, DEBRIS_MAX_VOXELS = 5, 48


def debris(world, ev: ObjectDestroyed, u: float, fx: Prims) -> None:
    """An object breaking (``object_destroyed``): chunks of its material burst from each voxel and fall with
    gravity to the ground below, from the moment the damage lands to the end of the step."""
    if u < DAMAGE:
        return
    cm = world.cell_m
    rgb = next((tuple(m.color) for m in world.materials if m.name == ev.material), (150, 140, 120))
    col = (*rgb, 255)
    dark = (*(int(c * 0.7) for c in rgb), 255)
    tau = (u - DAMAGE) / (1.0 - DAMAGE) * STEP_S * (1.0 - DAMAGE)        # seconds since the break
    n = 0
    for lo, hi in ev.voxels or ():
        for z in range(lo[2], hi[2] + 1):
            for y in range(lo[1], hi[1] + 1):
                for x in range(lo[0], hi[0] + 1):
                    n += 1
                    if n > DEBRIS_MAX_VOXELS:
                        return
                    floor = world.support_layer(x, y, z + 1)
                    for k in range(DEBRIS_PER_VOXEL):
                        r = [_unit(x, y, z, k, j) for j in range(4)]
                        vx, vy = (r[0] - 0.5) * 2.4, (r[1] - 0.5) * 2.4        # m/s outwards
                        vz = 1.0 + 2.0 * r[2]
                        px = (x + 0.5) * cm + vx * tau
                        py = (y + 0.5) * cm + vy * tau
                        pz = max(float(floor), z + 0.5 + vz * tau - 4.9 * tau * tau)
                        s = 0.12 + 0.18 * r[3]
                        fx.quad((px - s, py - s, pz), (px + s, py - s, pz), (px + s, py + s, pz + s), (px - s, py + s, pz + s), col)
                        fx.tri((px - s, py - s, pz), (px + s, py - s, pz), (px, py, pz + 2 * s), dark)


def effects(world, anim: StepAnim, state: RenderState, u: float) -> Prims:
    """Attack lines while the attack resolves, damage numbers rising from the target, debris of what breaks."""
    fx = Prims()
    for ev in anim.events:
        if isinstance(ev, ObjectDestroyed):
            debris(world, ev, u, fx)
            continue
        if isinstance(ev, AttackingObject):
            if ATTACK[0] <= u <= ATTACK[1]:
                try:
                    attacker = state.get(ev.who)
                except KeyError:
                    continue
                pa, v = feet_centre(world, attacker), ev.voxel
                col = (255, 230, 80, 255) if ev.hit else (200, 200, 200, 255)
                fx.line((pa[0], pa[1], pa[2] + attacker.eye_m),
                        ((v[0] + 0.5) * world.cell_m, (v[1] + 0.5) * world.cell_m, v[2] + 0.5), col, xray=True)
            continue
        who, tgt = ev.subject, ev.acted_on
        try:
            a = state.get(who) if who else None
            b = state.get(tgt) if tgt else None
        except KeyError:
            continue
        if isinstance(ev, Attacking) and a is not None and b is not None and ATTACK[0] <= u <= ATTACK[1]:
            pa, pb = feet_centre(world, a), feet_centre(world, b)
            hit = ev.landed
            col = (255, 230, 80, 255) if hit else (200, 200, 200, 255)
            fx.line((pa[0], pa[1], pa[2] + a.eye_m), (pb[0], pb[1], pb[2] + b.height_layers * 0.6), col, xray=True)
            if not hit:
                fx.labels.append(Label((pb[0], pb[1], b.layer + b.height_layers + 0.8), "miss", (230, 230, 230, 255),
                                       (30, 30, 30, 170), offset_px=(24, 0), scale=1.3))
        start = FALL[1] if isinstance(ev, Hurting) and ev.damage_type == "falling" else DAMAGE    # when it lands
        if isinstance(ev, Hurting) and start <= u:
            c = b or a
            amount = ev.amount
            if c is not None:
                fxm = feet_centre(world, c)
                rise = (u - start) * 2.0
                fx.labels.append(Label((fxm[0], fxm[1], c.layer + c.height_layers + 0.8 + rise), f"-{amount}",
                                       (255, 90, 70, 255), (20, 0, 0, 170), offset_px=(24, 0), scale=1.5))
    return fx
