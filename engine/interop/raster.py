"""Segments to cells, and voxels to fill boxes. Pure Python and numpy.

A wall segment becomes the 4-connected run of cells it passes through (Amanatides-Woo), so closed outlines stay
closed to line of sight and movement (no diagonal gaps). A segment lying on a grid line is ambiguous between the
cells either side: every point is nudged by (+1e-4, +2e-4) cells, so such a wall takes the cells north and east
of its line, and its far end point's cell too (corners join). At one cell per grid square that is the coarseness
of the map; ``--cells-per-grid 2`` halves it.
"""

from __future__ import annotations

import math

import numpy as np

NUDGE = (1e-4, 2e-4)


def segment_cells(a, b, X: int, Y: int) -> list[tuple[int, int]]:
    """Cells (x, y) of the segment a -> b (cell units, inside 0..X, 0..Y), in order, 4-connected."""
    x0, y0 = min(max(a[0] + NUDGE[0], 0.0), X - 1e-6), min(max(a[1] + NUDGE[1], 0.0), Y - 1e-6)
    x1, y1 = min(max(b[0] + NUDGE[0], 0.0), X - 1e-6), min(max(b[1] + NUDGE[1], 0.0), Y - 1e-6)
    cx, cy = int(math.floor(x0)), int(math.floor(y0))
    ex, ey = int(math.floor(x1)), int(math.floor(y1))
    out = [(cx, cy)]
    dx, dy = x1 - x0, y1 - y0
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    tdx = abs(1.0 / dx) if dx else math.inf
    tdy = abs(1.0 / dy) if dy else math.inf
    tx = ((cx + 1 - x0) if dx > 0 else (x0 - cx)) * tdx if dx else math.inf
    ty = ((cy + 1 - y0) if dy > 0 else (y0 - cy)) * tdy if dy else math.inf
    n = abs(ex - cx) + abs(ey - cy)
    for _ in range(n):
        if tx <= ty:                 # ties: x first, then y on the next step (4-connected)
            cx += sx
            tx += tdx
        else:
            cy += sy
            ty += tdy
        out.append((cx, cy))
    return out


def dilate(mask: np.ndarray, thickness: int) -> np.ndarray:
    """A 2D mask [Y, X] grown to ``thickness`` cells: the extra cells go south and west first (the nudge put the
    wall north-east of its line, so a 2-cell wall straddles it). The square is grown one axis at a time, each
    offset clipped to the map (a thickness past the map's size fills what it reaches, no more)."""
    if thickness <= 1 or not mask.any():
        return mask
    lo, hi = -(thickness // 2), (thickness - 1) // 2
    ys, xs = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    y0, y1 = max(0, int(ys[0]) + lo), min(mask.shape[0], int(ys[-1]) + hi + 1)    # only the cells it can reach
    x0, x1 = max(0, int(xs[0]) + lo), min(mask.shape[1], int(xs[-1]) + hi + 1)
    out = mask.copy()
    out[y0:y1, x0:x1] = _grow(mask[y0:y1, x0:x1], lo, hi)
    return out


def _grow(mask: np.ndarray, lo: int, hi: int) -> np.ndarray:
    out = mask.copy()
    for axis in (0, 1):
        src, n = out.copy(), out.shape[axis]
        for o in range(max(lo, 1 - n), min(hi, n - 1) + 1):
            if o > 0:
                _at(out, axis, slice(o, n))[...] |= _at(src, axis, slice(0, n - o))
            elif o < 0:
                _at(out, axis, slice(0, n + o))[...] |= _at(src, axis, slice(-o, n))
    return out


def _at(a: np.ndarray, axis: int, s: slice) -> np.ndarray:
    return a[s] if axis == 0 else a[:, s]


def boxes(voxels: np.ndarray) -> list[tuple[int, tuple[int, int, int], tuple[int, int, int]]]:
    """Greedy boxes covering every non-zero voxel of ``voxels[z, y, x]`` exactly once, each of one value:
    [(value, (x0, y0, z0), (x1, y1, z1))] inclusive, in a fixed order (z, y, x of the first voxel)."""
    Z, Y, X = voxels.shape
    taken = np.zeros(voxels.shape, dtype=bool)
    out = []
    for z, y, x in np.argwhere(voxels):
        if taken[z, y, x]:
            continue
        v = voxels[z, y, x]
        x1 = x
        while x1 + 1 < X and voxels[z, y, x1 + 1] == v and not taken[z, y, x1 + 1]:
            x1 += 1
        y1 = y
        while y1 + 1 < Y and np.all(voxels[z, y1 + 1, x:x1 + 1] == v) and not taken[z, y1 + 1, x:x1 + 1].any():
            y1 += 1
        z1 = z
        while (z1 + 1 < Z and np.all(voxels[z1 + 1, y:y1 + 1, x:x1 + 1] == v)
               and not taken[z1 + 1, y:y1 + 1, x:x1 + 1].any()):
            z1 += 1
        taken[z:z1 + 1, y:y1 + 1, x:x1 + 1] = True
        out.append((int(v), (int(x), int(y), int(z)), (int(x1), int(y1), int(z1))))
    return out
