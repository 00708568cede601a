"""Rules events -> animation. The replay plays each scripted step over ``STEP_S`` seconds: characters glide from
their state before the step to their state after it (along the move's path when the event gives one; falls drop
with gravity), and the step's events show as effects: attack lines, floating damage numbers, a caption.

Events are the rules core's dicts (``type`` plus fields); this adapter reads them defensively (``actor``/``who``,
``target``, ``amount``/``damage``, ``path``), so a new event type only loses its effect, never the replay.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.render.overlays import Label, Prims, feet_centre
from engine.render.state import RenderState

STEP_S = 1.6
ATTACKS = ("attack", "hit", "miss", "shot", "melee", "ranged_attack")


@dataclass
class StepAnim:
    before: RenderState
    after: RenderState
    events: list
    caption: str = ""
    paths: dict = field(default_factory=dict)       # id -> [(x, y, layer), ...]
    falls: set = field(default_factory=set)


def _who(ev):
    return ev.get("actor") or ev.get("who") or ev.get("attacker") or ev.get("id")


def _describe(ev) -> str | None:
    t = ev.get("type", "")
    who, tgt = _who(ev), ev.get("target")
    if t in ("roll", "state", "upkeep", "turn", "end_turn", "hp", "initiative", "action"):
        return None
    if t == "attack":
        res = "hits" if ev.get("hit") else "misses"
        if ev.get("critical"):
            res = "crits"
        cover = ev.get("cover")
        return f"{who} {res} {tgt}" + (f" ({cover} cover)" if cover and cover != "none" else "")
    if t == "object_attack":
        return f"{who} {'hits' if ev.get('hit') else 'misses'} {tgt}"
    if t == "object_damage":
        return f"{tgt} takes {ev.get('dealt')} ({ev.get('hp')}/{ev.get('max_hp')} HP left)"
    if t == "object_destroyed":
        return f"{tgt} breaks"
    if t == "damage":
        return f"{who} takes {ev.get('amount')} {ev.get('damage_type', '')}".rstrip()
    if t == "move":
        to = ev.get("to")
        return f"{who} moves to layer {to[2]}" if isinstance(to, (list, tuple)) and len(to) == 3 else f"{who} moves"
    if t == "fall_roll":
        return f"{who} fall roll: {ev.get('outcome', ev.get('result'))}"
    bits = [str(who)] if who else []
    bits.append(t.replace("_", " "))
    if tgt:
        bits.append(str(tgt))
    amount = ev.get("amount")
    if isinstance(amount, (int, float)):
        bits.append(str(amount))
    if "layers" in ev:
        bits.append(f"{ev['layers']} layers")
    return " ".join(bits)


def build_step(before: RenderState, after: RenderState, events: list) -> StepAnim:
    paths, falls = {}, set()
    captions = []
    for ev in events:
        t = ev.get("type", "")
        who = _who(ev)
        if "path" in ev and who and isinstance(ev["path"], (list, tuple)) and ev["path"]:
            try:
                paths[who] = [tuple(float(v) for v in p) for p in ev["path"]]
            except (TypeError, ValueError):
                pass
        if t in ("fall", "fell", "falls") and who:
            falls.add(who)
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


def debris(world, ev: dict, u: float, fx: Prims) -> None:
    """An object breaking (``object_destroyed``): chunks of its material burst from each voxel and fall with
    gravity to the ground below, from the moment the damage lands to the end of the step."""
    if u < DAMAGE:
        return
    cm = world.cell_m
    rgb = next((tuple(m.color) for m in world.materials if m.name == ev.get("material")), (150, 140, 120))
    col = (*rgb, 255)
    dark = (*(int(c * 0.7) for c in rgb), 255)
    tau = (u - DAMAGE) / (1.0 - DAMAGE) * STEP_S * (1.0 - DAMAGE)        # seconds since the break
    n = 0
    for lo, hi in ev.get("voxels", ()):
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
        t = ev.get("type", "")
        if t == "object_destroyed":
            debris(world, ev, u, fx)
            continue
        if t == "object_attack" and ATTACK[0] <= u <= ATTACK[1] and isinstance(ev.get("voxel"), list):
            try:
                attacker = state.get(_who(ev))
            except KeyError:
                continue
            pa, v = feet_centre(world, attacker), ev["voxel"]
            col = (255, 230, 80, 255) if ev.get("hit") else (200, 200, 200, 255)
            fx.line((pa[0], pa[1], pa[2] + attacker.eye_m), ((v[0] + 0.5) * world.cell_m, (v[1] + 0.5) * world.cell_m, v[2] + 0.5),
                    col, xray=True)
            continue
        who, tgt = _who(ev), ev.get("target")
        try:
            a = state.get(who) if who else None
            b = state.get(tgt) if tgt else None
        except KeyError:
            continue
        if t in ATTACKS and a is not None and b is not None and ATTACK[0] <= u <= ATTACK[1]:
            pa, pb = feet_centre(world, a), feet_centre(world, b)
            hit = t != "miss" and ev.get("hit", True)
            col = (255, 230, 80, 255) if hit else (200, 200, 200, 255)
            fx.line((pa[0], pa[1], pa[2] + a.eye_m), (pb[0], pb[1], pb[2] + b.height_layers * 0.6), col, xray=True)
            if not hit:
                fx.labels.append(Label((pb[0], pb[1], b.layer + b.height_layers + 0.8), "miss", (230, 230, 230, 255),
                                       (30, 30, 30, 170), offset_px=(24, 0), scale=1.3))
        start = FALL[1] if ev.get("damage_type") == "falling" else DAMAGE    # falling damage when it lands
        if t in ("damage", "hurt") and start <= u:
            c = b or a
            amount = ev.get("amount", ev.get("damage"))
            if c is not None and amount is not None:
                fxm = feet_centre(world, c)
                rise = (u - start) * 2.0
                fx.labels.append(Label((fxm[0], fxm[1], c.layer + c.height_layers + 0.8 + rise), f"-{amount}",
                                       (255, 90, 70, 255), (20, 0, 0, 170), offset_px=(24, 0), scale=1.5))
    return fx
