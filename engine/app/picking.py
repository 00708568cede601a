"""Picking: a ray from the mouse through the camera, against the voxels, the ground, the characters' boxes and the
horizontal plane of a chosen layer. Pure numpy.

Screen pixels have their origin at the top left (as the renderer's ``Camera.project``); pyglet's mouse has it at
the bottom left, the window converts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.render.camera import point3


@dataclass(frozen=True)
class Hit:
    kind: str                      # "terrain", "ground", "plane", "character"
    cell: tuple[int, int, int]     # (x, y, layer) the cursor designates: the cell stood on / at that layer
    point: tuple[float, float, float]
    t: float
    char: str | None = None


def ray(camera, size, px: float, py: float) -> tuple[np.ndarray, np.ndarray]:
    """(origin, unit direction) in world metres for a pixel (top-left origin)."""
    w, h = size
    inv = np.linalg.inv(camera.view_projection(size))
    nx, ny = px / w * 2 - 1, 1 - py / h * 2
    a = inv @ np.array([nx, ny, -1.0, 1.0])
    b = inv @ np.array([nx, ny, 1.0, 1.0])
    a, b = a[:3] / a[3], b[:3] / b[3]
    d = b - a
    return np.array(camera.position, dtype=np.float64), d / np.linalg.norm(d)


def _box_t(o, d, lo, hi):
    """Slab test: entry distance of the ray into an AABB, or None."""
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / np.where(np.abs(d) < 1e-12, 1e-12, d)
    t0 = (np.asarray(lo) - o) * inv
    t1 = (np.asarray(hi) - o) * inv
    tmin = np.minimum(t0, t1).max()
    tmax = np.maximum(t0, t1).min()
    if tmax < max(tmin, 0.0):
        return None
    return float(max(tmin, 0.0))


class Picker:
    def __init__(self, world):
        self.world = world
        self.solid = world.solid()                 # [Z, Y, X]
        X, Y, Z = world.size
        self.extent = np.array([X * world.cell_m, Y * world.cell_m, float(Z)])

    def terrain(self, o, d, max_t=2000.0) -> Hit | None:
        """First solid voxel or the ground (z = 0 inside the map) along the ray: marched in steps a fifth of the
        smallest voxel side (exact enough to pick a cell; a hit is refined to the entered face)."""
        cm = self.world.cell_m
        X, Y, Z = self.world.size
        t_in = _box_t(o, d, np.array([0.0, 0.0, 0.0]), self.extent + [0, 0, 0])
        best = None
        if t_in is not None:
            step = min(cm, 1.0) / 5
            t = np.arange(t_in, min(t_in + np.linalg.norm(self.extent) + 1.0, max_t), step)
            p = o[None, :] + d[None, :] * t[:, None]
            ix = np.floor(p[:, 0] / cm).astype(np.int64)
            iy = np.floor(p[:, 1] / cm).astype(np.int64)
            iz = np.floor(p[:, 2]).astype(np.int64)
            inside = (ix >= 0) & (ix < X) & (iy >= 0) & (iy < Y) & (iz >= 0) & (iz < Z)
            hit = np.zeros(len(t), dtype=bool)
            hit[inside] = self.solid[iz[inside], iy[inside], ix[inside]]
            k = np.flatnonzero(hit)
            if k.size:
                i = int(k[0])
                x, y, z = int(ix[i]), int(iy[i]), int(iz[i])
                pt = p[i]
                # which face did we enter through: the previous sample's voxel tells
                if i > 0:
                    px_, py_, pz_ = int(ix[i - 1]), int(iy[i - 1]), int(iz[i - 1])
                    if pz_ > z and (px_, py_) == (x, y):
                        return Hit("terrain", (x, y, z + 1), point3(pt), float(t[i]))
                    # a side face: the cell in front of it, on the surface under the hit (a wall seen through an
                    # open belfry designates the belfry's floor, never a cell in mid-air)
                    if (px_, py_) != (x, y) and pz_ == z:
                        return Hit("terrain", (px_, py_, self.world.support_layer(px_, py_, z + 1)),
                                   point3(pt), float(t[i]))
                return Hit("terrain", (x, y, z + 1), point3(pt), float(t[i]))
        # the ground plane
        if d[2] < -1e-9:
            tg = -o[2] / d[2]
            g = o + d * tg
            x, y = int(np.floor(g[0] / cm)), int(np.floor(g[1] / cm))
            if 0 <= x < X and 0 <= y < Y:
                best = Hit("ground", (x, y, 0), point3(g), float(tg))
        return best

    def plane(self, o, d, layer: int) -> Hit | None:
        """The ray against the horizontal plane at altitude ``layer`` m (the feet of a body at that layer)."""
        if abs(d[2]) < 1e-9:
            return None
        t = (layer - o[2]) / d[2]
        if t <= 0:
            return None
        p = o + d * t
        cm = self.world.cell_m
        X, Y, _ = self.world.size
        x, y = int(np.floor(p[0] / cm)), int(np.floor(p[1] / cm))
        if not (0 <= x < X and 0 <= y < Y):
            return None
        return Hit("plane", (x, y, int(layer)), point3(p), float(t))

    def characters(self, o, d, chars) -> Hit | None:
        """Nearest character box (CharView-like: x, y, layer, footprint, height_layers, id) hit by the ray."""
        cm = self.world.cell_m
        best = None
        for c in chars:
            lo = np.array([c.x * cm + 0.1, c.y * cm + 0.1, c.layer])
            hi = np.array([(c.x + c.footprint) * cm - 0.1, (c.y + c.footprint) * cm - 0.1,
                           c.layer + max(c.height_layers, 1)])
            t = _box_t(o, d, lo, hi)
            if t is not None and (best is None or t < best.t):
                p = o + d * t
                best = Hit("character", (int(round(c.x)), int(round(c.y)), int(round(c.layer))),
                           point3(p), t, c.id)
        return best

    def pick(self, camera, size, px, py, chars=(), layer: int | None = None) -> dict:
        """Everything under the cursor: ``{"char": Hit|None, "terrain": Hit|None, "cell": Hit|None}`` where
        ``cell`` is the cell designated: the plane at ``layer`` when given and not hidden behind terrain, else
        the terrain surface."""
        o, d = ray(camera, size, px, py)
        ch = self.characters(o, d, chars)
        te = self.terrain(o, d)
        cell = te
        if layer is not None and layer > 0:
            pl = self.plane(o, d, layer)
            if pl is not None and (te is None or pl.t <= te.t + 1e-6):
                cell = pl
        if ch is not None and te is not None and te.t < ch.t - 0.05:
            ch = None       # behind a wall
        return {"char": ch, "terrain": te, "cell": cell}
