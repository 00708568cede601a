"""Baked terrain light in numpy: one RGBA8 volume, read in front of every face to fill the chunks' light maps
(engine/render/lightmap.py, bilinear over the voxel centres in the face's plane).

* R: occupancy (1 where a voxel is opaque). Blended over the four voxels nearest a point half a voxel in front of
  a face: wall bases and inner corners darken (ambient occlusion).
* G: sun visibility of each voxel centre, propagated down from the sky one layer at a time: a voxel is lit when
  it is not opaque and the voxel one layer up towards the sun is lit (the layers are sheared by whole cells so
  that k layers up lies round(k * d) cells towards the sun: no blur accumulates with height). The light maps'
  bilinear filtering softens the shadow edges over one voxel.
* B: the occupancy averaged over 3 x 3 x 3 voxels: a broader occlusion (open ground stays bright, a narrow street
  darkens).

The volume covers map layers 0..Z (one air layer above the map), [z, y, x] like the world's grid.
Below the map is solid ground: the ground's top face samples layer 0.
"""

from __future__ import annotations

import numpy as np


def opaque_lut(materials) -> np.ndarray:
    lut = np.zeros(256, np.float32)
    for i, m in enumerate(materials):
        if i and not m.translucent:
            lut[i] = 1.0
    return lut


def _shift_bilinear(a: np.ndarray, dx: float, dy: float, fill: float) -> np.ndarray:
    """a sampled at (x + dx, y + dy), bilinear, ``fill`` outside. a: [Y, X]."""
    ix, fx = int(np.floor(dx)), dx - np.floor(dx)
    iy, fy = int(np.floor(dy)), dy - np.floor(dy)
    Y, X = a.shape
    pad = max(abs(ix), abs(iy)) + 2
    p = np.full((Y + 2 * pad, X + 2 * pad), fill, dtype=a.dtype)
    p[pad:pad + Y, pad:pad + X] = a

    def at(ox, oy):
        return p[pad + oy:pad + oy + Y, pad + ox:pad + ox + X]

    return ((1 - fx) * (1 - fy) * at(ix, iy) + fx * (1 - fy) * at(ix + 1, iy)
            + (1 - fx) * fy * at(ix, iy + 1) + fx * fy * at(ix + 1, iy + 1))


def _shift_int(a: np.ndarray, dx: int, dy: int, fill: float) -> np.ndarray:
    """a sampled at (x + dx, y + dy), ``fill`` outside. a: [Y, X]."""
    if dx == 0 and dy == 0:
        return a
    Y, X = a.shape
    out = np.full_like(a, fill)
    xs, xd = (slice(dx, X), slice(0, X - dx)) if dx >= 0 else (slice(0, X + dx), slice(-dx, X))
    ys, yd = (slice(dy, Y), slice(0, Y - dy)) if dy >= 0 else (slice(0, Y + dy), slice(-dy, Y))
    out[yd, xd] = a[ys, xs]
    return out


def _box3(a: np.ndarray) -> np.ndarray:
    """Mean over a 3 x 3 x 3 neighbourhood (zero outside), separable."""
    out = a.copy()
    for axis in range(3):
        p = np.pad(out, [(1, 1) if i == axis else (0, 0) for i in range(3)])
        sl = [slice(None)] * 3
        acc = np.zeros_like(out)
        for k in range(3):
            sl[axis] = slice(k, k + out.shape[axis])
            acc += p[tuple(sl)]
        out = acc / 3.0
    return out


def light_volume(world, sun) -> np.ndarray:
    """uint8 [Z+1, Y, X, 4] (RGBA as above) for a sun direction (unit vector towards the sun, metres)."""
    X, Y, Z = world.size
    occ = np.zeros((Z + 1, Y, X), np.float32)
    occ[:Z] = opaque_lut(world.materials)[world.voxels]
    sun = np.asarray(sun, dtype=np.float64)
    # one layer up towards the sun moves sun.xy / sun.z metres horizontally
    dx = float(sun[0] / max(sun[2], 1e-3) / world.cell_m)
    dy = float(sun[1] / max(sun[2], 1e-3) / world.cell_m)
    # sheared propagation: layer z + 1 is shifted by whole cells so that k layers up lies round(k * d) cells
    # towards the sun; no blur accumulates, the texture's trilinear filtering softens the edges by one voxel
    vis = np.empty_like(occ)
    vis[Z] = 1.0
    cx = np.round(np.arange(Z + 1) * dx).astype(int)
    cy = np.round(np.arange(Z + 1) * dy).astype(int)
    for z in range(Z - 1, -1, -1):
        vis[z] = (1.0 - occ[z]) * _shift_int(vis[z + 1], int(cx[z + 1] - cx[z]), int(cy[z + 1] - cy[z]), 1.0)
    blur = _box3(occ)
    out = np.empty((Z + 1, Y, X, 4), np.uint8)
    out[..., 0] = (occ * 255).astype(np.uint8)
    out[..., 1] = np.clip(vis * 255 + 0.5, 0, 255).astype(np.uint8)
    out[..., 2] = np.clip(blur * 255 + 0.5, 0, 255).astype(np.uint8)
    out[..., 3] = 255
    return out
