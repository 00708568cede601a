"""What is drawn besides terrain and models, as plain geometry (pure numpy, no GL): altitude markers (drop lines,
rings, shadows, labels) and the rule overlays.

Every overlay calls the same functions the rules call (engine.world.cover, engine.world.geometry and the rules
core's movement), and only converts their answers to metres for drawing; nothing here decides sight or reach.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from engine.errors import AerieError
from engine.render.state import CharView, RenderState, side_colour
from engine.rules.registry import cover_levels
from engine.world.cover import cover_between
from engine.world.volumes import cover_map
from engine.world.geometry import Body, engaged, in_melee_reach, melee_cells, melee_layer_reach

CLEAR = (60, 220, 90, 255)
BLOCKED = (235, 50, 40, 255)
WHITE = (255, 255, 255, 255)
ENGAGE = (255, 210, 40, 255)

OVERLAY_FORMS = "sightlines:A:B, grid:LAYER, engagement, reach:ID, movement:ID, cover:ID:LAYER"


@dataclass
class Label:
    pos: tuple[float, float, float]      # metres; the label's bottom centre is drawn here
    text: str
    fg: tuple[int, int, int, int] = WHITE
    bg: tuple[int, int, int, int] = (30, 30, 36, 200)
    size: int = 0                        # 0 = the renderer's default
    offset_px: tuple[float, float] = (0.0, 0.0)
    scale: float = 1.0                   # times the default size (when size is 0)


@dataclass
class Prims:
    """Lines (segments), triangles and labels in world metres, RGBA 0..255."""
    lines: list = field(default_factory=list)        # (p0, p1, rgba)
    xray: list = field(default_factory=list)         # lines also drawn faintly through walls
    tris: list = field(default_factory=list)         # (p0, p1, p2, rgba)
    labels: list = field(default_factory=list)
    cells: list = field(default_factory=list)        # float32 [N, 8] arrays: small cubes (centre xyz, half size, rgba)

    def line(self, a, b, c, xray=False):
        (self.xray if xray else self.lines).append((tuple(a), tuple(b), tuple(c)))

    def tri(self, a, b, c, col):
        self.tris.append((tuple(a), tuple(b), tuple(c), tuple(col)))

    def quad(self, a, b, c, d, col):
        self.tri(a, b, c, col)
        self.tri(a, c, d, col)

    def box_wire(self, lo, hi, col, xray=False):
        x0, y0, z0 = lo
        x1, y1, z1 = hi
        pts = [(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0), (x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]
        for i, j in ((0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4), (0, 4), (1, 5), (2, 6), (3, 7)):
            self.line(pts[i], pts[j], col, xray)

    def ring(self, centre, r_in, r_out, col, n=32):
        cx, cy, z = centre
        for i in range(n):
            a0, a1 = 2 * math.pi * i / n, 2 * math.pi * (i + 1) / n
            p = [(cx + r * math.cos(a), cy + r * math.sin(a), z) for r, a in ((r_in, a0), (r_out, a0), (r_out, a1), (r_in, a1))]
            self.quad(*p, col)

    def disc(self, centre, r, col, n=24):
        cx, cy, z = centre
        for i in range(n):
            a0, a1 = 2 * math.pi * i / n, 2 * math.pi * (i + 1) / n
            self.tri((cx, cy, z), (cx + r * math.cos(a0), cy + r * math.sin(a0), z),
                     (cx + r * math.cos(a1), cy + r * math.sin(a1), z), col)

    def extend(self, other: "Prims"):
        self.lines += other.lines
        self.xray += other.xray
        self.tris += other.tris
        self.labels += other.labels
        self.cells += other.cells

    def cubes(self, centres, half, rgba):
        """Small opaque cubes at ``centres`` [N, 3] (metres), ``half`` their half size (metres), ``rgba``
        [N, 4] or one colour (0..255), drawn instanced by the renderer (the 3D view of a volume)."""
        c = np.asarray(centres, dtype=np.float32).reshape(-1, 3)
        a = np.empty((len(c), 8), np.float32)
        a[:, :3] = c
        a[:, 3] = half
        a[:, 4:] = np.broadcast_to(np.asarray(rgba, dtype=np.float32).reshape(-1, 4), (len(c), 4)) / 255.0
        if len(a):
            self.cells.append(a)

    def cell_array(self) -> np.ndarray:
        return np.concatenate(self.cells) if self.cells else np.zeros((0, 8), np.float32)

    # -- arrays for upload ---------------------------------------------------------------------------------
    @staticmethod
    def _line_array(lines) -> np.ndarray:
        if not lines:
            return np.zeros((0, 7), np.float32)
        a = np.array([(*p0, *c, *p1, *c) for p0, p1, c in lines], dtype=np.float32).reshape(-1, 7)
        a[:, 3:] /= 255.0
        return a

    def line_array(self) -> np.ndarray:
        return self._line_array(self.lines)

    def xray_array(self) -> np.ndarray:
        return self._line_array(self.xray)

    def tri_array(self) -> np.ndarray:
        if not self.tris:
            return np.zeros((0, 7), np.float32)
        a = np.array([(*p0, *c, *p1, *c, *p2, *c) for p0, p1, p2, c in self.tris], dtype=np.float32).reshape(-1, 7)
        a[:, 3:] /= 255.0
        return a


class BakedPrims(Prims):
    """Prims that are not changed any more, their upload arrays made once and kept: the frame loop keeps the
    overlays while only the camera moves, and a moving camera draws them again in every frame."""

    def __init__(self, pr: Prims):
        super().__init__(list(pr.lines), list(pr.xray), list(pr.tris), list(pr.labels), list(pr.cells))
        self._arrays: dict[str, np.ndarray] = {}

    def _kept(self, name, make) -> np.ndarray:
        a = self._arrays.get(name)
        if a is None:
            a = self._arrays[name] = make()
            a.flags.writeable = False
        return a

    def line_array(self) -> np.ndarray:
        return self._kept("lines", super().line_array)

    def xray_array(self) -> np.ndarray:
        return self._kept("xray", super().xray_array)

    def tri_array(self) -> np.ndarray:
        return self._kept("tris", super().tri_array)

    def cell_array(self) -> np.ndarray:
        return self._kept("cells", super().cell_array)


def rgba(c, a=255):
    return (int(c[0]), int(c[1]), int(c[2]), a)


# -- altitude markers -------------------------------------------------------------------------------------------
def surface_below(world, c: CharView) -> int:
    """The layer of the surface under a character's footprint: where it would land (the rules' support_layer),
    the highest over the footprint's cells."""
    x, y, layer = c.cell
    best = 0
    for j in range(c.footprint):
        for i in range(c.footprint):
            best = max(best, world.support_layer(x + i, y + j, max(layer, 0)))
    return best


def feet_centre(world, c: CharView) -> tuple[float, float, float]:
    return ((c.x + c.footprint / 2) * world.cell_m, (c.y + c.footprint / 2) * world.cell_m, float(c.layer))


def drop_line(world, c: CharView):
    """(top, bottom) in metres: from the feet straight down to the surface below, or None when standing on it."""
    fx, fy, fz = feet_centre(world, c)
    s = surface_below(world, c)
    if c.layer - s < 0.05:
        return None
    return (fx, fy, fz), (fx, fy, float(s))


def short_name(c) -> str:
    """The name a table uses (as the window's tokens): the scene's name without its parenthesised note
    ("Brann (archer behind the wall)" -> "Brann"), else the id."""
    return (getattr(c, "name", "") or c.id).split(" (")[0].strip() or c.id


def label_text(c: CharView) -> str:
    text = f"{short_name(c)}  layer {c.cell[2]}"
    if c.flying and not c.down:
        text += " fly"
    for cond in ("dead", "unconscious", "prone"):
        if cond in c.conditions:
            text += f" {cond}"
            break
    return text


def hidden_from(world, eye_m, points_m) -> np.ndarray:
    """bool [N]: the terrain's sight-blocking voxels cut the straight line from the camera to each point (both
    in metres). Used to dim the labels of characters the camera cannot see; uses the exact voxel traversal."""
    from engine.world import los

    pts = np.atleast_2d(np.asarray(points_m, dtype=np.float64))
    out = np.zeros(len(pts), dtype=bool)
    if not len(pts):
        return out
    cm = world.cell_m
    X, Y, Z = world.size
    scale = np.array([1 / cm, 1 / cm, 1.0])
    e = np.asarray(eye_m, dtype=np.float64) * scale
    q = pts * scale
    hi = np.array([X, Y, Z], dtype=np.float64) - 1e-6
    p0s, p1s, idx = [], [], []
    for i, p in enumerate(q):
        d = p - e
        t0, t1 = 0.0, 1.0
        for a in range(3):             # clip the segment to the map box (slabs)
            if abs(d[a]) < 1e-12:
                if not 0 <= e[a] <= hi[a]:
                    t0, t1 = 1.0, 0.0
                continue
            ta, tb = (0 - e[a]) / d[a], (hi[a] - e[a]) / d[a]
            t0, t1 = max(t0, min(ta, tb)), min(t1, max(ta, tb))
        if t0 < t1:
            p0s.append(e + d * t0)
            p1s.append(e + d * t1)
            idx.append(i)
    if idx:
        out[np.array(idx)] = los.trace(world, np.array(p0s), np.array(p1s))
    return out


def labels_hidden(world, state: RenderState, eye) -> np.ndarray:
    """bool per character: the terrain hides its head from a camera at ``eye`` (metres)."""
    if eye is None or not state.characters:
        return np.zeros(len(state.characters), dtype=bool)
    heads = [(*feet_centre(world, c)[:2], c.layer + (0.5 if c.lying else c.height_layers * 0.75))
             for c in state.characters]
    return hidden_from(world, eye, heads)


def character_markers(world, state: RenderState, labels=True, drop_lines=True, rings=True, eye=None,
                      hidden=None) -> Prims:
    """Rings, shadows, drop lines, labels and death crosses. With the camera's ``eye`` (metres), the labels of
    characters the terrain hides from it are dimmed (or pass ``hidden``, from labels_hidden)."""
    pr = Prims()
    if hidden is None:
        hidden = labels_hidden(world, state, eye) if labels else np.zeros(len(state.characters), dtype=bool)
    for c, hid in zip(state.characters, hidden):
        col = side_colour(c.side)
        fx, fy, fz = feet_centre(world, c)
        s = surface_below(world, c)
        r = c.footprint * world.cell_m * 0.42
        if rings:
            z = s + 0.04
            airborne = c.layer - s >= 0.05
            if airborne:   # a soft shadow right under it, then its ring
                pr.disc((fx, fy, z - 0.01), r * 0.9, (0, 0, 0, 110))
                pr.ring((fx, fy, z), r * 0.78, r, rgba(col, 235))
                # a tick ring every 5 layers up the drop line helps count height
                for k in range(5, int(c.layer - s), 5):
                    pr.ring((fx, fy, s + k), r * 0.25, r * 0.34, rgba(col, 200), n=16)
            else:
                pr.ring((fx, fy, z), r * 0.8, r, rgba(col, 235))
        if drop_lines:
            dl = drop_line(world, c)
            if dl is not None:
                pr.line(dl[0], dl[1], rgba(col), xray=True)
        if labels:
            top = c.layer + (0.6 if c.lying else c.height_layers) + 0.25
            bg = rgba([v * 0.55 for v in col], 215) if not c.down else (40, 40, 40, 215)
            fg = WHITE
            if hid:    # the camera cannot see it: a faint label
                bg, fg = (bg[0], bg[1], bg[2], 110), (255, 255, 255, 150)
            pr.labels.append(Label((fx, fy, top), label_text(c), fg, bg))
        if c.dead:   # a red cross over the body
            h = c.layer + 0.5
            d = r * 0.8
            pr.line((fx - d, fy - d, h), (fx + d, fy + d, h), (230, 30, 30, 255))
            pr.line((fx - d, fy + d, h), (fx + d, fy - d, h), (230, 30, 30, 255))
    return pr


# -- rule overlays ----------------------------------------------------------------------------------------------
def _char(scene, state: RenderState, cid: str, overlay: str) -> CharView:
    try:
        return state.get(cid)
    except KeyError:
        ids = ", ".join(c.id for c in state.characters) or "none"
        raise AerieError(f"overlay {overlay!r}: no character {cid!r} (characters: {ids})") from None


def _to_m(world, p):
    return (p[0] * world.cell_m, p[1] * world.cell_m, p[2])


def sightlines(scene, state, a: CharView, b: CharView, world=None) -> Prims:
    """``world``: the voxels the lines are traced through -- a session's, with the walls broken in play (the
    scene's map as loaded when None)."""
    world = scene.world if world is None else world
    res = cover_between(world, a.body, b.body, cover_levels(scene.ruleset), scene.spec.options.get("cover_thresholds"))
    pr = Prims()
    eye = _to_m(world, res.eye)
    for s, blocked in zip(res.samples, res.blocked):
        pr.line(eye, _to_m(world, s), BLOCKED if blocked else CLEAR, xray=True)
    n_b = sum(res.blocked)
    top = b.layer + b.height_layers + 0.25
    fx, fy, _ = feet_centre(world, b)
    pr.labels.append(Label((fx, fy, top), f"cover: {res.level} ({n_b}/{len(res.blocked)} blocked)",
                           WHITE, (120, 20, 20, 220) if n_b else (20, 100, 40, 220), offset_px=(0, -26)))
    return pr


def grid(scene, layer: int) -> Prims:
    world = scene.world
    X, Y, Z = world.size
    if not 0 <= layer <= Z:
        raise AerieError(f"overlay 'grid:{layer}': layer {layer} is outside the map's 0..{Z}")
    cm = world.cell_m
    pr = Prims()
    z = float(layer) + 0.02
    col = (255, 255, 255, 150)
    for x in range(X + 1):
        pr.line((x * cm, 0, z), (x * cm, Y * cm, z), col)
    for y in range(Y + 1):
        pr.line((0, y * cm, z), (X * cm, y * cm, z), col)
    pr.quad((0, 0, z), (X * cm, 0, z), (X * cm, Y * cm, z), (0, Y * cm, z), (120, 180, 255, 40))
    pr.labels.append(Label((0.0, 0.0, z), f"layer {layer}", WHITE, (40, 70, 140, 220)))
    return pr


def _zone_box(world, b: Body, cells: int, layers_down: int, layers_up: int, col, pr: Prims):
    cm = world.cell_m
    lo = ((b.x - cells) * cm, (b.y - cells) * cm, max(b.layer - layers_down, 0))
    hi = ((b.x + b.footprint + cells) * cm, (b.y + b.footprint + cells) * cm, b.layer + layers_up + 1)
    pr.box_wire(lo, hi, col)


def engagement(scene, state) -> Prims:
    """AIR-04 zones: neighbouring cells, feet one layer below to one layer above; links between engaged foes."""
    world = scene.world
    pr = Prims()
    chars = [c for c in state.characters if not c.dead]
    for c in chars:
        _zone_box(world, c.body, 1, 1, 1, rgba(side_colour(c.side), 170), pr)
    for i, a in enumerate(chars):
        for b in chars[i + 1:]:
            if a.side != b.side and engaged(a.body, b.body):
                pa, pb = feet_centre(world, a), feet_centre(world, b)
                pa = (pa[0], pa[1], pa[2] + a.height_layers * 0.5)
                pb = (pb[0], pb[1], pb[2] + b.height_layers * 0.5)
                pr.line(pa, pb, ENGAGE, xray=True)
                mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2, (pa[2] + pb[2]) / 2)
                pr.labels.append(Label(mid, "engaged", (20, 20, 20, 255), (255, 210, 40, 230)))
    return pr


def _reach_m(scene, c: CharView) -> float:
    try:
        st = scene.character(c.id).stats
    except KeyError:
        st = None
    r = getattr(st, "reach_m", None) if st is not None else None
    return float(r) if r else 1.5


def reach(scene, state, c: CharView) -> Prims:
    """AIR-05: the cells and layers a melee attack reaches, and lines to the characters within it."""
    world = scene.world
    pr = Prims()
    r_m = _reach_m(scene, c)
    b = c.body
    cells, layers = melee_cells(r_m, world.cell_m), melee_layer_reach(r_m)
    col = rgba(side_colour(c.side), 220)
    _zone_box(world, b, cells, layers, layers, col, pr)
    fx, fy, _ = feet_centre(world, c)
    pr.labels.append(Label((fx, fy, b.layer + layers + 1.3), f"reach {r_m:g} m: {cells} cell(s), {layers} layers",
                           WHITE, rgba([v * 0.55 for v in col], 220)))
    for o in state.characters:
        if o.id != c.id and in_melee_reach(b, o.body, r_m, world.cell_m):
            pa, pb = feet_centre(world, c), feet_centre(world, o)
            pr.line((pa[0], pa[1], pa[2] + 1), (pb[0], pb[1], pb[2] + o.height_layers * 0.5), ENGAGE, xray=True)
    return pr


def cover_cells(scene, state, c: CharView, layer: int) -> Prims:
    """The blocked fraction from this character's eye for a standard body at every cell of one layer."""
    world = scene.world
    X, Y, Z = world.size
    if not 0 <= layer < Z:
        raise AerieError(f"overlay 'cover:{c.id}:{layer}': layer {layer} is outside the map's 0..{Z - 1}")
    frac = cover_map(world, c.body, layer)
    cm = world.cell_m
    pr = Prims()
    z = layer + 0.05
    ys, xs = np.nonzero(~np.isnan(frac))
    for x, y in zip(xs.tolist(), ys.tolist()):
        f = float(frac[y, x])
        col = (int(60 + 180 * f), int(200 - 150 * f), 60, 120)
        e = 0.06 * cm
        pr.quad((x * cm + e, y * cm + e, z), ((x + 1) * cm - e, y * cm + e, z), ((x + 1) * cm - e, (y + 1) * cm - e, z),
                (x * cm + e, (y + 1) * cm - e, z), col)
    fx, fy, _ = feet_centre(world, c)
    pr.labels.append(Label((fx, fy, c.layer + c.height_layers + 0.3), f"cover from {c.id} at layer {layer}",
                           WHITE, (40, 40, 40, 220), offset_px=(0, -26)))
    return pr


def movement(scene, state, c: CharView, session=None) -> Prims:
    """Where the character can end its move this turn and what it costs, from the rules core's own reach map.

    Drawn as a map: each reachable column once, at the reachable layer nearest the character's (so a flyer's
    range is a slice at its altitude, a walker's follows the floors it can reach), tinted from light (cheap) to
    dark (all its movement); for a flyer, ticks up and down its own column label what climbing and diving cost."""
    from engine.render import rules_bridge

    world = scene.world
    costs = rules_bridge.movement_costs(scene, state, c, session)     # {(x, y, layer): metres}
    pr = Prims()
    cm = world.cell_m
    x0, y0, layer0 = c.cell
    if not costs:
        fx, fy, _ = feet_centre(world, c)
        pr.labels.append(Label((fx, fy, c.layer + c.height_layers + 0.3), "cannot move", WHITE, (90, 30, 30, 220),
                               offset_px=(0, -26)))
        return pr
    top = max(costs.values()) or 1.0
    best: dict = {}
    for (x, y, z), m in costs.items():
        k = (x, y)
        cur = best.get(k)
        if cur is None or (abs(z - layer0), m) < (abs(cur[0] - layer0), cur[1]):
            best[k] = (z, m)
    col_side = side_colour(c.side)
    e = 0.08 * cm
    for (x, y), (z, m) in best.items():
        f = m / top
        shade = 1.0 - 0.6 * f
        r, g, b = (min(int(v * shade + 90 * (1 - f)), 255) for v in col_side[:3])
        col = (r, g, b, 110)
        zz = z + 0.04
        pr.quad((x * cm + e, y * cm + e, zz), ((x + 1) * cm - e, y * cm + e, zz),
                ((x + 1) * cm - e, (y + 1) * cm - e, zz), (x * cm + e, (y + 1) * cm - e, zz), col)
    fx, fy, _ = feet_centre(world, c)
    if c.flying:
        col_costs = sorted((z, m) for (x, y, z), m in costs.items() if (x, y) == (x0, y0) and z != layer0)
        for z, m in col_costs:
            pr.ring((fx, fy, z + 0.02), c.footprint * cm * 0.2, c.footprint * cm * 0.3, rgba(col_side, 200), n=12)
        ends = [zm for zm in col_costs if zm[0] in (min(z for z, _ in col_costs), max(z for z, _ in col_costs))]
        for z, m in ends if col_costs else ():
            pr.labels.append(Label((fx, fy, z + 0.1), f"L{z}: {m:g} m", WHITE, (30, 30, 60, 210), offset_px=(0, 0)))
    pr.labels.append(Label((fx, fy, c.layer + c.height_layers + 0.3), f"move: up to {top:g} m", WHITE,
                           (30, 30, 60, 220), offset_px=(0, -26)))
    return pr


def build_overlays(scene, state: RenderState, specs, session=None) -> Prims:
    """Parse overlay strings (``sightlines:A:B`` ...) into geometry. Unknown forms and ids are user errors."""
    pr = Prims()
    for spec in specs or ():
        parts = spec.split(":")
        name = parts[0].strip().lower()
        try:
            if name == "sightlines" and len(parts) == 3:
                pr.extend(sightlines(scene, state, _char(scene, state, parts[1], spec), _char(scene, state, parts[2], spec)))
            elif name == "grid" and len(parts) in (1, 2):
                pr.extend(grid(scene, int(parts[1]) if len(parts) == 2 else 0))
            elif name == "engagement" and len(parts) == 1:
                pr.extend(engagement(scene, state))
            elif name == "reach" and len(parts) == 2:
                pr.extend(reach(scene, state, _char(scene, state, parts[1], spec)))
            elif name == "movement" and len(parts) == 2:
                pr.extend(movement(scene, state, _char(scene, state, parts[1], spec), session))
            elif name == "cover" and len(parts) == 3:
                pr.extend(cover_cells(scene, state, _char(scene, state, parts[1], spec), int(parts[2])))
            else:
                raise AerieError(f"unknown overlay {spec!r}; use one of: {OVERLAY_FORMS}")
        except ValueError:
            raise AerieError(f"overlay {spec!r}: the layer must be a whole number ({OVERLAY_FORMS})") from None
    return pr
