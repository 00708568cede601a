"""Procedural town maps: the showcase's town square, and larger towns for benchmarks. Deterministic per seed."""

from __future__ import annotations

import numpy as np

from engine.world.grid import World
from engine.world.materials import AIR, BUILTIN_MATERIALS


def _ids():
    names = list(BUILTIN_MATERIALS)
    return {n: i + 1 for i, n in enumerate(names)}, (AIR,) + tuple(BUILTIN_MATERIALS[n] for n in names)


def _house(v, ids, rng, x0, y0, w, d, h, roof_mat="roof", wall_mat=None):
    """A house: walls with windows (glass), a floor at its top, a stepped pitched roof along x."""
    Z = v.shape[0]
    wall = ids[wall_mat or rng.choice(["plaster", "brick", "stone", "wood"])]
    h = min(h, Z - 3)
    v[0:h, y0:y0 + d, x0:x0 + w] = wall
    # windows on the long sides every other cell, one layer above each floor
    for z in range(1, h - 1, 3):
        for x in range(x0 + 1, x0 + w - 1, 2):
            v[z, y0, x] = ids["glass"]
            v[z, y0 + d - 1, x] = ids["glass"]
    # a pitched roof along x: each layer up steps in by one cell from both long sides
    r = ids[roof_mat]
    for k in range((d + 1) // 2):
        z = h + k
        if z >= Z:
            break
        v[z, y0 + k:y0 + d - k, x0:x0 + w] = r


def _flat_roof(v, ids, x0, y0, w, d, h, mat="stone", parapet=True):
    Z = v.shape[0]
    h = min(h, Z - 2)
    v[0:h, y0:y0 + d, x0:x0 + w] = ids[mat]
    if parapet:   # a 1 m low wall around the roof: cover for archers up there
        v[h, y0, x0:x0 + w] = ids["stone"]
        v[h, y0 + d - 1, x0:x0 + w] = ids["stone"]
        v[h, y0:y0 + d, x0] = ids["stone"]
        v[h, y0:y0 + d, x0 + w - 1] = ids["stone"]


def _tree(v, ids, x, y, h):
    Z, Y, X = v.shape
    h = min(h, Z - 3)
    v[0:h, y, x] = ids["wood"]
    for dz in range(-1, 2):
        for dy in range(-1, 2):
            for dx in range(-1, 2):
                if abs(dx) + abs(dy) + abs(dz) <= 2:
                    zz, yy, xx = h + dz, y + dy, x + dx
                    if 0 <= zz < Z and 0 <= yy < Y and 0 <= xx < X and v[zz, yy, xx] == 0:
                        v[zz, yy, xx] = ids["foliage"]


def town_square(size=(64, 64, 24), seed: int = 7) -> World:
    """The showcase: a paved square with a bell tower, a well, low walls and trees, ringed by houses of several
    heights (pitched roofs and flat roofs with parapets)."""
    X, Y, Z = size
    ids, mats = _ids()
    rng = np.random.default_rng(seed)
    v = np.zeros((Z, Y, X), dtype=np.uint8)
    cx, cy = X // 2, Y // 2
    # houses around the square, leaving streets
    plaza = (cx - 14, cy - 12, cx + 14, cy + 12)
    for (x0, y0, w, d, h, kind) in [
        (cx - 24, cy - 22, 9, 7, 6, "pitched"), (cx - 12, cy - 23, 8, 8, 9, "flat"),
        (cx + 1, cy - 22, 10, 7, 5, "pitched"), (cx + 14, cy - 23, 8, 9, 11, "flat"),
        (cx - 25, cy - 8, 8, 10, 8, "pitched"), (cx + 17, cy - 8, 7, 12, 7, "pitched"),
        (cx - 25, cy + 6, 9, 9, 4, "flat"), (cx + 16, cy + 7, 9, 8, 10, "pitched"),
        (cx - 12, cy + 15, 9, 8, 7, "pitched"), (cx + 1, cy + 16, 8, 8, 5, "flat"),
        (cx - 24, cy + 17, 8, 6, 3, "pitched"), (cx + 13, cy + 18, 9, 6, 6, "flat"),
    ]:
        if x0 < 0 or y0 < 0 or x0 + w > X or y0 + d > Y:
            continue
        if kind == "pitched":
            _house(v, ids, rng, x0, y0, w, d, h)
        else:
            _flat_roof(v, ids, x0, y0, w, d, h, mat=str(rng.choice(["stone", "brick", "plaster"])))
    # the bell tower: 4 x 4, 16 m, open belfry with corner pillars and a spire
    tx, ty = cx + 6, cy - 9
    top = min(16, Z - 6)
    v[0:top, ty:ty + 4, tx:tx + 4] = ids["stone"]
    for px, py in ((0, 0), (3, 0), (0, 3), (3, 3)):
        v[top:top + 3, ty + py, tx + px] = ids["stone"]
    v[top + 3, ty:ty + 4, tx:tx + 4] = ids["slate"]
    v[top + 4, ty + 1:ty + 3, tx + 1:tx + 3] = ids["slate"]
    v[top + 1, ty + 1:ty + 3, tx + 1:tx + 3] = ids["metal"]          # the bell
    # the plaza: low walls (1 m) and a well
    x0, y0, x1, y1 = plaza
    v[0, cy + 2, cx - 10:cx - 3] = ids["stone"]                        # a low wall west of centre
    v[0, cy - 4:cy + 1, cx + 3] = ids["stone"]                         # a low wall east of centre
    v[0:2, cy + 7, cx - 2:cx + 5] = ids["brick"]                       # a 2 m wall
    v[0, cy - 1:cy + 2, cx - 1:cx + 2] = ids["stone"]                  # the well
    v[0, cy, cx] = ids["water"]
    for (x, y, h) in [(x0 + 2, y0 + 2, 5), (x1 - 3, y0 + 3, 6), (x0 + 3, y1 - 3, 4), (x1 - 2, y1 - 2, 5),
                      (cx - 8, cy - 8, 6)]:
        if 1 <= x < X - 1 and 1 <= y < Y - 1:
            _tree(v, ids, x, y, h)
    return World(v, mats, 1.5)


def town(size=(128, 128, 32), seed: int = 1) -> World:
    """A larger town for benchmarks: blocks of houses of mixed heights on a street grid, towers and trees."""
    X, Y, Z = size
    ids, mats = _ids()
    rng = np.random.default_rng(seed)
    v = np.zeros((Z, Y, X), dtype=np.uint8)
    block = 20
    for by in range(0, Y - 4, block):
        for bx in range(0, X - 4, block):
            r = rng.random()
            if r < 0.12:                       # a little square with trees
                for _ in range(4):
                    tx, ty = bx + int(rng.integers(3, block - 3)), by + int(rng.integers(3, block - 3))
                    if tx < X - 1 and ty < Y - 1:
                        _tree(v, ids, int(tx), int(ty), int(rng.integers(4, 8)))
                continue
            for (ox, oy) in ((2, 2), (10, 2), (2, 10), (10, 10)):
                w, d = int(rng.integers(5, 8)), int(rng.integers(5, 8))
                x0, y0 = bx + ox, by + oy
                if x0 + w > X or y0 + d > Y:
                    continue
                h = int(rng.integers(3, min(14, Z - 6)))
                if rng.random() < 0.6:
                    _house(v, ids, rng, x0, y0, w, d, h)
                else:
                    _flat_roof(v, ids, x0, y0, w, d, h)
            if rng.random() < 0.15:
                tx, ty = bx + 8, by + 8
                top = min(int(rng.integers(14, 24)), Z - 2)
                if tx + 3 <= X and ty + 3 <= Y:
                    v[0:top, ty:ty + 3, tx:tx + 3] = ids["stone"]
            # low walls along the street
            if by + block < Y:
                v[0, by + block - 1, bx + 1:min(X, bx + block - 2)] = ids["stone"]
    return World(v, mats, 1.5)


def world_palette(world: World) -> np.ndarray:
    """A .vox palette whose colour index i is material id i's colour (so reading it back maps colours to the
    same materials)."""
    pal = np.zeros((256, 4), dtype=np.uint8)
    pal[:, 3] = 255
    for i, m in enumerate(world.materials):
        if i:
            pal[i, :3] = m.color
    return pal


def main() -> None:
    """Regenerate the shipped maps: `python -m engine.world.mapgen`."""
    from engine.world.scene import ASSETS_DIR
    from engine.world.vox import write_vox

    w = town_square()
    path = ASSETS_DIR / "maps" / "town_square.vox"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_vox(path, w.voxels, world_palette(w))
    print(f"wrote {path} ({w.size[0]} x {w.size[1]} x {w.size[2]})")


if __name__ == "__main__":
    main()


def air_points(rng, blocking, n):
    """``n`` random points (voxel units, float [n, 3]) in voxels that do not block sight: a benchmark's rays."""
    Z, Y, X = blocking.shape
    out = np.empty((0, 3))
    while len(out) < n:
        p = rng.random((n, 3)) * [X, Y, Z]
        i = p.astype(int)
        out = np.concatenate([out, p[~blocking[i[:, 2], i[:, 1], i[:, 0]]]])
    return out[:n]
