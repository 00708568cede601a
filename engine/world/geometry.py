"""Distances and engagement across layers (AIR-02, AIR-03, AIR-04, AIR-05). Pure functions."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Body:
    """Where a character is and how big: the geometry the line of sight and the rules need."""
    x: int
    y: int
    layer: int
    footprint: int = 1          # cells per side
    height_layers: int = 2
    eye_m: float = 1.6

    @property
    def centre(self) -> tuple[float, float]:
        """Centre of the footprint, in cells."""
        return (self.x + self.footprint / 2, self.y + self.footprint / 2)

    def moved(self, x: int, y: int, layer: int) -> "Body":
        return Body(x, y, layer, self.footprint, self.height_layers, self.eye_m)

    @classmethod
    def of(cls, character, at=None) -> "Body":
        x, y, layer = at if at is not None else character.at
        return cls(x, y, layer, character.footprint, character.height_layers, character.eye_m)


def distance_m(a: Body, b: Body, cell_m: float) -> float:
    """AIR-03: the straight line between the footprints' centres and the feet altitudes, in metres."""
    (ax, ay), (bx, by) = a.centre, b.centre
    return math.sqrt(((bx - ax) * cell_m) ** 2 + ((by - ay) * cell_m) ** 2 + float(b.layer - a.layer) ** 2)


def cell_gap(a: Body, b: Body) -> int:
    """Chebyshev gap in cells between two footprints: 0 when they overlap in plan, 1 when neighbouring."""
    gx = max(0, b.x - (a.x + a.footprint - 1), a.x - (b.x + b.footprint - 1))
    gy = max(0, b.y - (a.y + a.footprint - 1), a.y - (b.y + b.footprint - 1))
    return max(gx, gy)


def layers_apart(a: Body, b: Body) -> int:
    return abs(a.layer - b.layer)


def engaged(a: Body, b: Body) -> bool:
    """AIR-04: a neighbouring cell, on the same layer or one layer directly above or below."""
    return cell_gap(a, b) <= 1 and layers_apart(a, b) <= 1


def melee_layer_reach(reach_m: float, base_reach_m: float = 1.5) -> int:
    """AIR-05: layers of difference a melee attack reaches. Normal reach reaches up to 2 layers apart ("from three
    layers of difference a melee attack no longer reaches"); each whole extra metre of reach adds one layer."""
    extra = max(0.0, reach_m - base_reach_m)
    return 2 + int(math.floor(extra + 1e-9))


def melee_cells(reach_m: float, cell_m: float) -> int:
    """Horizontal reach in cells: 1.5 m reaches the neighbouring cell, 3 m two cells (at least 1)."""
    return max(1, int(math.floor(reach_m / cell_m + 1e-9)))


def in_melee_reach(a: Body, b: Body, reach_m: float, cell_m: float) -> bool:
    """AIR-05 with the horizontal reach: within reach in cells and within the layer reach."""
    return cell_gap(a, b) <= melee_cells(reach_m, cell_m) and layers_apart(a, b) <= melee_layer_reach(reach_m)
