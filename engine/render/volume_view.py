"""Cover and threat volumes drawn in place (pure numpy + Prims): the cells of chosen classes as small cubes at the
cells (``cube_prims``: the 3D view of ``aerie cover/threat --view 3d`` and of the window's J), or as flat
rectangles a little above each layer's floor, merged along rows then stacked along y (``volume_prims``)."""

from __future__ import annotations

import numpy as np

from engine.render.overlays import Prims


def rectangles(classes: np.ndarray) -> list[tuple[int, int, int, int, int]]:
    """Equal non-negative classes of a [Y, X] int array as half-open rectangles (x0, y0, x1, y1, class)."""
    Y, X = classes.shape
    out = []
    open_runs: dict = {}
    for y in range(Y + 1):
        runs = set()
        if y < Y:
            row = classes[y]
            edges = np.flatnonzero(np.diff(row) != 0) + 1
            starts = np.concatenate([[0], edges])
            ends = np.concatenate([edges, [X]])
            for a, b in zip(starts.tolist(), ends.tolist()):
                c = int(row[a])
                if c >= 0:
                    runs.add((a, b, c))
        for k in list(open_runs):
            if k not in runs:
                out.append((k[0], open_runs.pop(k), k[1], y, k[2]))
        for k in runs:
            open_runs.setdefault(k, y)
    return out


def volume_prims(world, classes: np.ndarray, colours: dict, layers=None, lift: float = 0.05,
                 inset: float = 0.0) -> Prims:
    """Prims for the cells of ``classes`` [L, Y, X] whose class has a colour (RGBA) in ``colours``; ``layers``
    names the layer of each slice (default 0..L-1)."""
    cm = world.cell_m
    pr = Prims()
    layers = range(classes.shape[0]) if layers is None else layers
    for sl, z in zip(classes, layers):
        keep = np.where(np.isin(sl, list(colours)), sl, -1)
        if not (keep >= 0).any():
            continue
        h = z + lift
        for x0, y0, x1, y1, c in rectangles(keep):
            col = colours[c]
            pr.quad((x0 * cm + inset, y0 * cm + inset, h), (x1 * cm - inset, y0 * cm + inset, h),
                    (x1 * cm - inset, y1 * cm - inset, h), (x0 * cm + inset, y1 * cm - inset, h), col)
    return pr


def cube_prims(world, classes: np.ndarray, colours: dict, layers=None, max_cubes: int = 6000,
               alpha: int = 255) -> tuple[Prims, dict]:
    """A small cube at the centre of each cell of ``classes`` [L, Y, X] whose class has a colour (RGB or RGBA) in
    ``colours``; ``layers`` names the layer of each slice (default 0..L-1). Past ``max_cubes`` cells only every
    ``stride``-th cell along x, y and z is drawn (a lattice: the volume's shape stays readable). ``alpha`` under
    255: translucent cubes (the scene stays seen through them). Returns (prims, {"cells": cells of those classes,
    "drawn": cubes, "stride"})."""
    layers = np.arange(classes.shape[0]) if layers is None else np.asarray(list(layers))
    keep = np.isin(classes, list(colours))
    n = int(keep.sum())
    stride = 1
    while n // stride ** 3 > max_cubes:
        stride += 1
    if stride > 1:
        sub = np.zeros_like(keep)
        sub[layers % stride == 0, ::stride, ::stride] = True
        keep &= sub
    i, y, x = np.nonzero(keep)
    cm = world.cell_m
    centres = np.stack([(x + 0.5) * cm, (y + 0.5) * cm, layers[i] + 0.5], axis=1)
    table = np.zeros((max(colours) + 1, 4), np.float32)
    for c, col in colours.items():
        table[c] = tuple(col[:3]) + (alpha,)
    pr = Prims()
    pr.cubes(centres, 0.22 * min(cm, 1.0) * (1 + 0.35 * (stride - 1)), table[classes[i, y, x]])
    return pr, {"cells": n, "drawn": len(x), "stride": stride}
