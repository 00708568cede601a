"""Light maps for greedy quads, in pure numpy: where each quad's light lives in a small 2D texture (the layout,
fixed when a chunk is meshed) and what the texels hold (the fill, redone whenever the light volume changes).

Why: the terrain used to look its light up per pixel in a 3D texture (engine/render/lighting.py), half a voxel in
front of the face. There the lookup lands on voxel centres along the normal, so the trilinear filter is really a
bilinear one over the plane in front of the face; llvmpipe still pays for eight texels and a 3D address per pixel.
A light map holds exactly those in-plane values, one texel per voxel face plus a one-texel rim of the neighbours
(so bilinear filtering blends across quad edges as the volume did), and the fragment shader does one 2D fetch.
The texels hold the lighting already combined (ambient and sun terms, height tint), so the shader's work is a
multiply-add. Geometry never depends on light: a changed voxel re-meshes its chunk only; relighting rewrites
texels.

Texel units: one voxel face for full-detail chunks; one coarse cell (``scale`` voxels) for the coarse levels of
distant chunks, sampled at the fine voxel at the cell's centre, ``scale`` - 1 voxels further out along the normal
(in front of the coarse block, as the fine faces behind it may be buried).

Layout of one quad of n_b x n_c texels (b, c = the two in-plane world axes, in x, y, z order): a rectangle of
(n_b + 2) x (n_c + 2) texels at (ox, oy) in its chunk's map, atlas x along b. Texel (i, j) samples the voxel at
in-plane b = lo_b + (i - 1) * scale + scale // 2 (likewise c), so a point at in-plane coordinate B maps to texel
coordinate ox + 1 + (B - lo_b) / scale: the quad's corners land on whole texel coordinates, stored per vertex.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

WIDTH = 256                 # texels; grows for a chunk whose quads are wider (a wall taller than 254 layers)
MAX_HEIGHT = 4096           # texels; past this a chunk's map gets wider rather than taller
MAX_SIDE = 16384            # GL_MAX_TEXTURE_SIZE of llvmpipe (and the common minimum of desktop GPUs)
# face id -> (axis, sign), as in engine.render.mesh.FACES; in-plane axes b < c
_AXIS = np.array([0, 0, 1, 1, 2, 2])
_SIGN = np.array([-1, 1, -1, 1, -1, 1])
_B = np.array([1, 1, 0, 0, 0, 0])
_C = np.array([2, 2, 2, 2, 1, 1])
_NORMALS = np.array([[-1, 0, 0], [1, 0, 0], [0, -1, 0], [0, 1, 0], [0, 0, -1], [0, 0, 1]], dtype=np.float64)

# The lit colour of a terrain pixel is material * (AMBIENT_COLOUR * texel.r + SUN_COLOUR * texel.g)
# (shaders/terrain.frag); the fill computes r and g from the light volume (lighting.py's R, G, B channels).
AMBIENT_COLOUR = (0.50, 0.54, 0.62)
SUN_COLOUR = (1.0, 0.95, 0.85)


@dataclass
class Lightmap:
    """Where the quads of one chunk (or one coarse level of it) keep their light. Per quad: face id, the plane
    coordinate, the in-plane box [lo, hi) in voxel units (x, y, extended z = map layer + 1) and the atlas
    origin; ``scale`` voxels per texel."""
    width: int
    height: int
    scale: int
    face: np.ndarray     # uint8 [N]
    lo: np.ndarray       # int32 [N, 3]
    hi: np.ndarray       # int32 [N, 3]
    ox: np.ndarray       # int32 [N]
    oy: np.ndarray       # int32 [N]

    @property
    def texels(self) -> int:
        return self.width * self.height


def layout(face: np.ndarray, corners: np.ndarray, scale: int = 1, width: int = WIDTH) -> tuple[Lightmap, np.ndarray]:
    """Shelf-pack one rectangle per quad. ``corners``: int [N, 4, 3] (x, y, extended z, voxel units), as
    engine.render.mesh.quad_corners gives them. Returns the light map and the texel coordinates (uint16 [N, 4, 2])
    of every corner. Deterministic for a given set of quads, whatever their order."""
    face = np.asarray(face, dtype=np.int64)
    corners = np.asarray(corners, dtype=np.int64)
    n = len(face)
    lo = corners.min(axis=1)
    hi = corners.max(axis=1)
    b, c = _B[face], _C[face]
    rows = np.arange(n)
    nb = (hi[rows, b] - lo[rows, b]) // scale
    nc = (hi[rows, c] - lo[rows, c]) // scale
    w, h = nb + 2, nc + 2
    width = max(width, int(w.max()) if n else 0)
    # a chunk of many small quads (a 3D checkerboard has 786,432 faces in 32 x 32 x 256) would outgrow the
    # texture height limit (16384 here): widen the map towards a square instead
    total = int((w * h).sum())
    if total > width * MAX_HEIGHT // 2:
        width = min(max(width, 1 << int(np.ceil(np.log2(np.sqrt(total) * 1.25)))), MAX_SIDE)
    # tallest first, then a full key so that the same quads always get the same places
    a = _AXIS[face]
    order = np.lexsort((lo[:, 2], lo[:, 1], lo[:, 0], lo[rows, a], face, -w, -h))
    ws, hs = w[order], h[order]
    ox_s = np.zeros(n, np.int64)
    oy_s = np.zeros(n, np.int64)
    cum = np.concatenate(([0], np.cumsum(ws)))
    i, y = 0, 0
    while i < n:             # one shelf per step: as many rectangles as fit in the width
        j = int(np.searchsorted(cum, cum[i] + width, side="right")) - 1
        j = max(j, i + 1)
        ox_s[i:j] = cum[i:j] - cum[i]
        oy_s[i:j] = y
        y += int(hs[i])
        i = j
    ox = np.empty(n, np.int64)
    oy = np.empty(n, np.int64)
    ox[order] = ox_s
    oy[order] = oy_s
    lm = Lightmap(int(width), max(int(y), 1), int(scale), face.astype(np.uint8), lo.astype(np.int32),
                  hi.astype(np.int32), ox.astype(np.int32), oy.astype(np.int32))
    uv = np.empty((n, 4, 2), np.uint16)
    if n:
        cb = corners[rows[:, None], np.arange(4)[None, :], b[:, None]]
        cc = corners[rows[:, None], np.arange(4)[None, :], c[:, None]]
        uv[..., 0] = ox[:, None] + 1 + (cb - lo[rows, b][:, None]) // scale
        uv[..., 1] = oy[:, None] + 1 + (cc - lo[rows, c][:, None]) // scale
    return lm, uv


def _texel_voxels(lm: Lightmap):
    """For every texel of every quad: (flat texel index, voxel x, y, map z, face, tint height)."""
    n = len(lm.face)
    face = lm.face.astype(np.int64)
    rows = np.arange(n)
    b, c, a = _B[face], _C[face], _AXIS[face]
    s = lm.scale
    nb = (lm.hi[rows, b] - lm.lo[rows, b]) // s + 2
    nc = (lm.hi[rows, c] - lm.lo[rows, c]) // s + 2
    count = nb * nc
    q = np.repeat(rows, count)                        # quad of each texel
    start = np.concatenate(([0], np.cumsum(count)[:-1]))
    k = np.arange(int(count.sum())) - start[q]        # texel index inside its rectangle
    j, i = np.divmod(k, nb[q])
    tex = (lm.oy[q] + j) * lm.width + (lm.ox[q] + i)
    pos = np.empty((len(q), 3), np.int64)
    pb = lm.lo[q, b[q]] + (i - 1) * s + s // 2
    pc = lm.lo[q, c[q]] + (j - 1) * s + s // 2
    plane = lm.lo[q, a[q]]
    sign = _SIGN[face][q]
    pa = np.where(sign > 0, plane + (s - 1), plane - s)    # the voxel in front of the face (of the coarse block)
    r = np.arange(len(q))
    pos[r, b[q]] = pb
    pos[r, c[q]] = pc
    pos[r, a[q]] = pa
    pos[:, 2] -= 1                                    # extended z -> map layer
    f = face[q]
    # the height the tint uses: the face's own height for floors and ceilings, the sampled voxel's centre on walls
    zt = np.where(a[q] == 2, (plane - 1).astype(np.float64), pos[:, 2] + 0.5)
    return tex, pos, f, zt


def fill(lm: Lightmap, volume: np.ndarray, sun, map_layers: int) -> np.ndarray:
    """uint8 [height, width, 4] (RGBA: ambient, direct, 0, 0; four channels because llvmpipe filters RGBA8
    fastest): the light of every texel from a light volume (uint8 [Z+1, Y, X, 4], as
    engine.render.lighting.light_volume makes it; outside it: nothing occupied, full sun). ``sun``: unit vector
    towards the sun (the faces' sun angle); ``map_layers``: Z, for the height tint."""
    out = np.zeros((lm.height, lm.width, 4), np.uint8)
    if len(lm.face) == 0:
        return out
    tex, pos, f, zt = _texel_voxels(lm)
    Zv, Y, X = volume.shape[:3]
    inside = ((pos[:, 0] >= 0) & (pos[:, 0] < X) & (pos[:, 1] >= 0) & (pos[:, 1] < Y)
              & (pos[:, 2] >= 0) & (pos[:, 2] < Zv))
    L = np.empty((len(tex), 3), np.float32)
    L[:] = (0.0, 1.0, 0.0)
    v = volume[pos[inside, 2], pos[inside, 1], pos[inside, 0], :3]
    L[inside] = v.astype(np.float32) / 255.0
    out.reshape(-1, 4)[tex, :2] = texel_light(L, f, zt, sun, map_layers)
    return out


def texel_light(L: np.ndarray, face: np.ndarray, height: np.ndarray, sun, map_layers: int) -> np.ndarray:
    """uint8 [N, 2] (ambient, direct) for light-volume samples ``L`` (float [N, 3] in 0..1: occupancy, sun
    visibility, broad occupancy) on faces ``face`` at heights ``height`` (map layers, for the tint)."""
    n = _NORMALS[face]
    ao = np.clip(1.0 - 0.75 * L[:, 0] - 0.55 * L[:, 2], 0.25, 1.0)    # edges, inner corners, narrow streets
    sunlit = np.maximum(n @ np.asarray(sun, dtype=np.float64), 0.0)
    sky = 0.55 + 0.25 * n[:, 2]                                         # more sky light from above
    tint = 0.88 + 0.24 * np.clip(height / max(map_layers, 1), 0.0, 1.0)  # brighter with height
    ambient = sky * ao * tint
    direct = 0.75 * sunlit * L[:, 1] * (0.6 + 0.4 * ao) * tint
    out = np.empty((len(L), 2), np.uint8)
    out[:, 0] = np.clip(ambient * 255.0 + 0.5, 0, 255).astype(np.uint8)
    out[:, 1] = np.clip(direct * 255.0 + 0.5, 0, 255).astype(np.uint8)
    return out
