"""Areas of effect in true 3D, in metres: sphere, cube, cone, line, cylinder (the SRD's five shapes).

Data-driven and independent of spells: an :class:`Area` is a shape, a size and an origin (and a direction for the
shapes that point), made by :func:`make` from a plain dict (``{"shape": "line", "size_m": 30, "width_m": 1.5}``).
A spell's area, a breath weapon's or a lasting cloud's go through the same arithmetic.

Coordinates are metres: x = cell x * cell_m, y = cell y * cell_m, z = the layer (a layer is 1 m, AIR-02). A body is
caught when any of its sample points (the centre of each cell of its footprint, at the middle of each layer of its
height) is inside the area -- the SRD's "a creature in the area". Which of the caught ones the area reaches through
walls is the caller's question (total cover from the point of origin, ``engine.rules.dnd5e.sight``).

Sizes as the SRD gives them: a sphere's and a cylinder's radius, a cube's edge, a cone's length (its width at any
point equals the distance from the origin: half-angle atan(1/2)), a line's length (its width ``width_m``, 1.5 m by
default).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SHAPES = ("sphere", "cube", "cone", "line", "cylinder")
CONE_HALF_ANGLE = math.atan(0.5)        # the SRD's cone: as wide as it is far from its origin
EPS = 1e-9

Vec = tuple[float, float, float]


@dataclass(frozen=True)
class Area:
    shape: str
    size_m: float
    origin: Vec                      # a sphere's / cube's centre, a cylinder's base centre, a cone's or line's apex
    direction: Vec = (1.0, 0.0, 0.0)  # unit vector: where a cone, line (or a caster's cube) points
    width_m: float = 1.5             # a line's width
    height_m: float | None = None    # a cylinder's height (default: its diameter)


def _unit(v: Vec) -> Vec:
    n = math.sqrt(sum(c * c for c in v))
    return (1.0, 0.0, 0.0) if n < EPS else (v[0] / n, v[1] / n, v[2] / n)


def make(spec: dict, origin: Vec, toward: Vec | None = None) -> Area:
    """An area from data: ``spec`` has ``shape`` and ``size_m`` (and ``width_m``, ``height_m``); ``toward`` a point
    the cone / line points at. Raises ValueError naming the bad key."""
    shape = spec.get("shape")
    if shape not in SHAPES:
        raise ValueError(f"area.shape: {shape!r} is not one of {', '.join(SHAPES)}")
    size = float(spec.get("size_m", 0))
    if not size > 0:
        raise ValueError("area.size_m: must be above 0")
    d = (1.0, 0.0, 0.0)
    if toward is not None:
        d = _unit((toward[0] - origin[0], toward[1] - origin[1], toward[2] - origin[2]))
    return Area(shape, size, tuple(float(c) for c in origin), d, float(spec.get("width_m") or 1.5),  # type: ignore[arg-type]
                None if spec.get("height_m") is None else float(spec["height_m"]))


def contains(area: Area, p: Vec) -> bool:
    """Whether the point ``p`` (metres) is inside ``area``."""
    ox, oy, oz = area.origin
    v = (p[0] - ox, p[1] - oy, p[2] - oz)
    s = area.size_m
    if area.shape == "sphere":
        return v[0] ** 2 + v[1] ** 2 + v[2] ** 2 <= s * s + EPS
    if area.shape == "cube":
        h = s / 2
        return all(abs(c) <= h + EPS for c in v)
    if area.shape == "cylinder":
        hgt = area.height_m if area.height_m is not None else 2 * s
        return v[0] ** 2 + v[1] ** 2 <= s * s + EPS and -EPS <= v[2] <= hgt + EPS
    d = area.direction
    along = v[0] * d[0] + v[1] * d[1] + v[2] * d[2]
    if along < -EPS or along > s + EPS:
        return False
    across2 = max(0.0, v[0] ** 2 + v[1] ** 2 + v[2] ** 2 - along * along)
    if area.shape == "line":
        return across2 <= (area.width_m / 2) ** 2 + EPS
    # cone: within the half-angle (width at distance t equals t: radius t/2)
    return across2 <= (along / 2) ** 2 + EPS


def cell_centre(x: float, y: float, layer: float, cell_m: float) -> Vec:
    """The centre of grid cell (x, y) at the middle of ``layer``, in metres."""
    return ((x + 0.5) * cell_m, (y + 0.5) * cell_m, layer + 0.5)


def body_points(x: int, y: int, layer: int, footprint: int, height_layers: int, cell_m: float) -> list[Vec]:
    """The sample points of a body: each footprint cell's centre at the middle of each layer it fills."""
    return [cell_centre(x + i, y + j, layer + k, cell_m)
            for i in range(footprint) for j in range(footprint) for k in range(max(1, height_layers))]


def catches(area: Area, body, cell_m: float) -> bool:
    """Whether any part of ``body`` (anything with x, y, layer, footprint, height_layers) is inside ``area``."""
    return any(contains(area, p) for p in body_points(body.x, body.y, body.layer, body.footprint,
                                                       body.height_layers, cell_m))


def origin_cell(area: Area, cell_m: float) -> tuple[float, float, float]:
    """The origin in grid units (cells, cells, layers): the eye point the sight functions take."""
    ox, oy, oz = area.origin
    return (ox / cell_m, oy / cell_m, oz)


def cells(area: Area, size: tuple[int, int, int], cell_m: float) -> list[tuple[int, int, int]]:
    """The grid cells (x, y, layer) whose centres are inside ``area``, within a world of ``size`` (for drawing it or
    making it lasting state)."""
    r = area.size_m + (area.height_m or 0) + area.width_m
    ox, oy, oz = area.origin
    x0, x1 = max(0, int((ox - r) / cell_m) - 1), min(size[0], int((ox + r) / cell_m) + 2)
    y0, y1 = max(0, int((oy - r) / cell_m) - 1), min(size[1], int((oy + r) / cell_m) + 2)
    z0, z1 = max(0, int(oz - r) - 1), min(size[2], int(oz + r) + 2)
    return [(x, y, z) for x in range(x0, x1) for y in range(y0, y1) for z in range(z0, z1)
            if contains(area, cell_centre(x, y, z, cell_m))]
