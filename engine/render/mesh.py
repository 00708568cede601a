"""Voxel meshing in pure numpy: naive, face-culled and greedy quads, per chunk. No GL here.

Conventions
-----------
* Voxel units: x, y in cells, z in layers. The GPU scales x and y by ``cell_m``.
* The ground below altitude 0 is a solid slab one layer thick (``GROUND`` material id, one past the map's
  255 ids), so its top face at altitude 0 and its edge at the map border are meshed like any voxel face.
* Opaque voxels are every non-air material that is not translucent. An opaque face is drawn where the
  neighbour is not opaque; a translucent face (glass, water) where the neighbour is air or another
  translucent material. Translucent faces go to a separate mesh drawn after the opaque one.
* Faces are merged into quads by material only: light (ambient occlusion, sun) lives in a per-chunk light map
  with a texel per voxel face (engine/render/lightmap.py), so it never splits a merge (docs/renderer.md).
* Chunks are ``CHUNK`` x ``CHUNK`` columns, the map's full height. Quads never cross a chunk border, so a
  changed box re-meshes only the chunks it (plus its one-voxel rim) touches.

Vertex format (12 bytes): uint16 x, y, z + 1 (voxel units; z is shifted so the ground's bottom is 0),
uint16 ``face | material << 3`` where ``face`` is 0..5 = -x, +x, -y, +y, -z, +z, and uint16 s, t: the
corner's texel coordinates in its chunk's light map (engine/render/lightmap.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from engine.render.lightmap import Lightmap, layout
from engine.world.grid import World

CHUNK = 32
GROUND = 256          # the slab under the map; its colour is the renderer's ground colour
FACES = ((0, -1), (0, 1), (1, -1), (1, 1), (2, -1), (2, 1))   # (axis x=0 y=1 z=2, sign), index = face id


def material_luts(materials) -> tuple[np.ndarray, np.ndarray]:
    """(opaque, translucent) bool [512] over material ids, air and unused ids False, GROUND opaque."""
    opaque = np.zeros(512, dtype=bool)
    transl = np.zeros(512, dtype=bool)
    for i, m in enumerate(materials):
        if i == 0:
            continue
        if m.translucent:
            transl[i] = True
        else:
            opaque[i] = True
    opaque[GROUND] = True
    return opaque, transl


def _extended(voxels: np.ndarray, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
    """uint16 [Z+2, y1-y0+2, x1-x0+2]: the region with a one-voxel rim (neighbour voxels, air outside the map),
    the ground slab as layer 0 and air above the top. Layer k of the result is map layer k-1."""
    Z, Y, X = voxels.shape
    out = np.zeros((Z + 2, y1 - y0 + 2, x1 - x0 + 2), dtype=np.uint16)
    ya, yb, xa, xb = max(y0 - 1, 0), min(y1 + 1, Y), max(x0 - 1, 0), min(x1 + 1, X)
    out[1:Z + 1, ya - (y0 - 1):yb - (y0 - 1), xa - (x0 - 1):xb - (x0 - 1)] = voxels[:, ya:yb, xa:xb]
    # the ground slab exists only under the map itself
    out[0, ya - (y0 - 1):yb - (y0 - 1), xa - (x0 - 1):xb - (x0 - 1)] = GROUND
    return out


def _face_keys(ext: np.ndarray, opaque: np.ndarray, transl: np.ndarray, face: int) -> np.ndarray:
    """Material id of each visible face of direction ``face`` for the core of ``ext`` (0 = no face).
    Shape [Z+1, Yr, Xr]: the ground layer plus the map layers (the air layer on top has no faces)."""
    zs = ext.shape[0] - 1
    core = ext[0:zs, 1:-1, 1:-1]
    if face == 0:
        nb = ext[0:zs, 1:-1, 0:-2]
    elif face == 1:
        nb = ext[0:zs, 1:-1, 2:]
    elif face == 2:
        nb = ext[0:zs, 0:-2, 1:-1]
    elif face == 3:
        nb = ext[0:zs, 2:, 1:-1]
    elif face == 4:           # below the ground slab is more earth: never visible
        nb = np.empty_like(core)
        nb[0] = GROUND
        nb[1:] = ext[0:zs - 1, 1:-1, 1:-1]
    else:
        nb = ext[1:zs + 1, 1:-1, 1:-1]
    o_nb = opaque[nb]
    vis = (opaque[core] & ~o_nb) | (transl[core] & ~o_nb & (nb != core))
    return np.where(vis, core, 0).astype(np.uint16)


@dataclass
class Quads:
    """Merged faces: per quad its face id, the plane position along the face axis and the rectangle on the
    two other axes (voxel units in the extended z, i.e. map layer + 1), and its material."""
    face: np.ndarray      # uint8 [N]
    plane: np.ndarray     # int32 [N]
    u0: np.ndarray        # int32 [N]   first in-plane axis (see _AXES)
    u1: np.ndarray
    v0: np.ndarray        # second in-plane axis
    v1: np.ndarray
    mat: np.ndarray       # uint16 [N]

    def __len__(self):
        return len(self.face)

    @staticmethod
    def concat(parts) -> "Quads":
        parts = [p for p in parts if len(p)]
        if not parts:
            e = np.zeros(0, np.int32)
            return Quads(e.astype(np.uint8), e, e, e, e, e, e.astype(np.uint16))
        return Quads(*(np.concatenate([getattr(p, f) for p in parts]) for f in
                       ("face", "plane", "u0", "u1", "v0", "v1", "mat")))

    def select(self, mask) -> "Quads":
        return Quads(*(getattr(self, f)[mask] for f in ("face", "plane", "u0", "u1", "v0", "v1", "mat")))


# For a face axis: the (row, column) world axes of the slices we merge in, as numpy axes of [z, y, x].
# axis x (npax 2): slices along x, rows = z, cols = y; axis y: rows = z, cols = x; axis z: rows = y, cols = x
_SLICE_ORDER = {0: (2, 0, 1), 1: (1, 0, 2), 2: (0, 1, 2)}   # transpose of [z,y,x] to [slice, row, col]


def _merge(keys: np.ndarray, row_block: int | None, col_block: int | None, col_origin: int, row_origin: int,
           greedy: bool = True):
    """Merge equal keys of a [S, R, C] array into rectangles. Returns (s, r0, r1, c0, c1, key) arrays
    (half-open). Runs along C split at chunk borders (``col_block``), rows merge only within a row block."""
    S, R, C = keys.shape
    if keys.size == 0:
        e = np.zeros(0, np.int64)
        return e, e, e, e, e, e
    k = keys
    prev = np.empty_like(k)
    prev[..., 0] = 0
    prev[..., 1:] = k[..., :-1]
    start = (k != 0) & (k != prev)
    nxt = np.empty_like(k)
    nxt[..., -1] = 0
    nxt[..., :-1] = k[..., 1:]
    end = (k != 0) & (k != nxt)
    if col_block:
        cidx = np.arange(C) + col_origin
        border_start = (cidx % col_block == 0)
        border_end = ((cidx + 1) % col_block == 0)
        start |= (k != 0) & border_start
        end |= (k != 0) & border_end
    if not greedy:   # one quad per face (the face-culled mesh)
        s, r, c = np.nonzero(k)
        return s, r, r + 1, c, c + 1, k[s, r, c]
    fs = np.flatnonzero(start)
    fe = np.flatnonzero(end)
    key = k.ravel()[fs]
    s, rem = np.divmod(fs, R * C)
    r, c0 = np.divmod(rem, C)
    c1 = fe % C + 1
    if len(fs) == 0:
        return s, r, r, c0, c1, key
    # merge runs of identical (s, c0, c1, key) in consecutive rows (within a row block)
    rb = (r + row_origin) // row_block if row_block else np.zeros_like(r)
    order = np.lexsort((r, key, c1, c0, rb, s))
    s_, r_, c0_, c1_, k_, rb_ = s[order], r[order], c0[order], c1[order], key[order], rb[order]
    same = np.zeros(len(order), dtype=bool)
    same[1:] = ((s_[1:] == s_[:-1]) & (c0_[1:] == c0_[:-1]) & (c1_[1:] == c1_[:-1]) & (k_[1:] == k_[:-1])
                & (rb_[1:] == rb_[:-1]) & (r_[1:] == r_[:-1] + 1))
    first = np.flatnonzero(~same)
    last = np.append(first[1:] - 1, len(order) - 1)
    rects = [s_[first], r_[first], r_[last] + 1, c0_[first], c1_[first], k_[first]]
    # then merge neighbouring rectangles of equal extent, alternately along columns and rows, to a fixed point
    blocks = (row_block, row_origin, col_block, col_origin)
    n = len(first)
    for it in range(8):
        rects = _merge_pass(rects, along_cols=(it % 2 == 0), blocks=blocks)
        if it % 2 == 1:
            if len(rects[0]) == n:
                break
            n = len(rects[0])
    return tuple(rects)


def _merge_pass(rects, along_cols: bool, blocks):
    """One pass: join rectangles that share their extent across the merge axis and touch along it."""
    s, r0, r1, c0, c1, k = rects
    row_block, row_origin, col_block, col_origin = blocks
    if along_cols:
        a0, a1, b0, b1, blk, org = c0, c1, r0, r1, col_block, col_origin
    else:
        a0, a1, b0, b1, blk, org = r0, r1, c0, c1, row_block, row_origin
    bl = (a0 + org) // blk if blk else np.zeros_like(a0)
    order = np.lexsort((a0, bl, b1, b0, k, s))
    s, a0, a1, b0, b1, k, bl = (x[order] for x in (s, a0, a1, b0, b1, k, bl))
    same = np.zeros(len(s), dtype=bool)
    same[1:] = ((s[1:] == s[:-1]) & (k[1:] == k[:-1]) & (b0[1:] == b0[:-1]) & (b1[1:] == b1[:-1])
                & (bl[1:] == bl[:-1]) & (a0[1:] == a1[:-1]))
    first = np.flatnonzero(~same)
    last = np.append(first[1:] - 1, len(s) - 1)
    s, k, b0, b1, na0, na1 = s[first], k[first], b0[first], b1[first], a0[first], a1[last]
    if along_cols:
        return [s, b0, b1, na0, na1, k]
    return [s, na0, na1, b0, b1, k]


def mesh_region(voxels: np.ndarray, materials, x0: int = 0, y0: int = 0, x1: int | None = None,
                y1: int | None = None, mode: str = "greedy", luts=None, chunk: int = CHUNK) -> tuple[Quads, Quads]:
    """Mesh the columns [x0, x1) x [y0, y1) of a map. Returns (opaque quads, translucent quads), with quads
    split at chunk borders. ``mode``: "greedy" merges, "culled" is one quad per visible face."""
    Z, Y, X = voxels.shape
    x1 = X if x1 is None else x1
    y1 = Y if y1 is None else y1
    opaque, transl = luts or material_luts(materials)
    ext = _extended(voxels, x0, y0, x1, y1)
    out_o, out_t = [], []
    for face in range(6):
        keys = _face_keys(ext, opaque, transl, face)   # [Z+1, Yr, Xr] in extended z (0 = ground)
        axis, sign = FACES[face]
        npax = 2 - axis
        order = _SLICE_ORDER[axis]
        kt = np.ascontiguousarray(keys.transpose(order))
        # chunk borders: columns/rows along x or y split at CHUNK (z never splits)
        axis_origin = {0: 0, 1: y0, 2: x0}           # numpy axis -> map origin of the region
        row_ax, col_ax = order[1], order[2]
        row_block = chunk if row_ax != 0 else None
        col_block = chunk if col_ax != 0 else None
        s, r0, r1, c0, c1, key = _merge(kt, row_block, col_block, axis_origin[col_ax], axis_origin[row_ax],
                                        greedy=(mode == "greedy"))
        plane = s + axis_origin[npax] + (1 if sign > 0 else 0)
        # in-plane axes named u = row axis, v = col axis; convert to map coordinates
        u0, u1 = r0 + axis_origin[row_ax], r1 + axis_origin[row_ax]
        v0, v1 = c0 + axis_origin[col_ax], c1 + axis_origin[col_ax]
        q = Quads(np.full(len(s), face, np.uint8), plane.astype(np.int32), u0.astype(np.int32),
                  u1.astype(np.int32), v0.astype(np.int32), v1.astype(np.int32), key.astype(np.uint16))
        tmask = transl[q.mat]
        out_o.append(q.select(~tmask))
        out_t.append(q.select(tmask))
    return Quads.concat(out_o), Quads.concat(out_t)


def quad_corners(q: Quads) -> np.ndarray:
    """int32 [N, 4, 3] corner positions (x, y, z_ext) of each quad, counter-clockwise seen from outside."""
    n = len(q)
    out = np.zeros((n, 4, 3), dtype=np.int32)
    for face in range(6):
        m = q.face == face
        if not m.any():
            continue
        axis, sign = FACES[face]
        order = _SLICE_ORDER[axis]
        row_world = 2 - order[1]   # world axis index (x=0, y=1, z=2) of rows
        col_world = 2 - order[2]
        p = q.plane[m]
        u0, u1, v0, v1 = q.u0[m], q.u1[m], q.v0[m], q.v1[m]
        corners = [(u0, v0), (u0, v1), (u1, v1), (u1, v0)]
        c = np.zeros((m.sum(), 4, 3), dtype=np.int32)
        for i, (uu, vv) in enumerate(corners):
            c[:, i, axis] = p
            c[:, i, row_world] = uu
            c[:, i, col_world] = vv
        # orientation: (c1 - c0) x (c3 - c0) must point along the face normal
        e1 = np.zeros(3)
        e1[col_world] = 1
        e2 = np.zeros(3)
        e2[row_world] = 1
        nrm = np.cross(e1, e2)
        if nrm[axis] * sign < 0:
            c = c[:, ::-1, :]
        out[m] = c
    return out


VERTEX_COMPONENTS = 6


def pack_vertices(q: Quads, corners: np.ndarray | None = None, uv: np.ndarray | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(vertices uint16 [N*4, 6], indices uint32 [N*6]) for a quad list (``corners`` overrides its corners;
    ``uv``: light-map texel coordinates [N, 4, 2], zero when not given)."""
    n = len(q)
    c = quad_corners(q) if corners is None else corners
    v = np.zeros((n, 4, VERTEX_COMPONENTS), dtype=np.uint16)
    v[..., :3] = c
    v[..., 3] = (q.face.astype(np.uint16) | (q.mat.astype(np.uint16) << 3))[:, None]
    if uv is not None:
        v[..., 4:6] = uv
    base = (np.arange(n, dtype=np.uint32) * 4)[:, None]
    idx = (base + np.array([0, 1, 2, 0, 2, 3], dtype=np.uint32)).reshape(-1)
    return v.reshape(-1, VERTEX_COMPONENTS), idx


# Opaque quads are stored grouped by face in this order, so the faces a camera can see in a chunk (at most one of
# each pair, never -z from above) are mostly one or two contiguous index ranges.
FACE_ORDER = (0, 2, 5, 1, 3, 4)       # -x, -y, +z, +x, +y, -z


def _near_first(face: np.ndarray, plane: np.ndarray) -> np.ndarray:
    """A sort key putting, within one face direction, the faces furthest along their normal first: a camera sees
    a face direction only from that side, so those are in front (roofs before the ground under them for a +z
    face seen from above), and the depth test then rejects the hidden fragments before they are shaded."""
    sign = np.where(face % 2 == 1, 1, -1)
    return -sign * plane.astype(np.int64)


def sort_by_face(q: Quads) -> tuple[Quads, tuple]:
    rank = np.argsort(np.array(FACE_ORDER))[q.face]        # position of each quad's face in FACE_ORDER
    # ties broken by position: the same quads always come out in the same order, however they were meshed
    order = np.lexsort((q.v0, q.u0, _near_first(q.face, q.plane), rank))
    q = q.select(order)
    counts = np.bincount(rank, minlength=6)
    ranges, first = [], 0
    for i, f in enumerate(FACE_ORDER):
        ranges.append((f, first * 6, int(counts[i]) * 6))
        first += int(counts[i])
    return q, tuple(ranges)


def sort_by_face_with(q: Quads, corners: np.ndarray):
    """sort_by_face for quads with explicit corners: ((quads, corners), ranges)."""
    rank = np.argsort(np.array(FACE_ORDER))[q.face]
    axis = np.array([0, 0, 1, 1, 2, 2])[q.face]
    plane = corners[np.arange(len(q)), 0, axis] if len(q) else np.zeros(0, np.int64)
    lo = corners.min(axis=1) if len(q) else np.zeros((0, 3), np.int64)
    order = np.lexsort((lo[:, 2], lo[:, 1], lo[:, 0], _near_first(q.face, plane), rank))
    counts = np.bincount(rank, minlength=6)
    ranges, first = [], 0
    for i, f in enumerate(FACE_ORDER):
        ranges.append((f, first * 6, int(counts[i]) * 6))
        first += int(counts[i])
    return (q.select(order), corners[order]), tuple(ranges)


def facing_faces(cam_vox, lo, hi) -> list[bool]:
    """Which face directions of a box [lo, hi] (voxel units) can face a camera at ``cam_vox``: a -x face at
    plane p faces the camera only if the camera's x < p, and so on."""
    x, y, z = cam_vox
    return [x < hi[0], x > lo[0], y < hi[1], y > lo[1], z < hi[2], z > lo[2]]


def chunk_of(q: Quads, chunk: int = CHUNK) -> np.ndarray:
    """Chunk index (cx, cy) of each quad, packed as cy * 65536 + cx (quads never cross chunk borders)."""
    c = quad_corners(q)
    mn = c.min(axis=1)
    # a face belongs to the voxel behind it: a +x / +y face at plane p is the face of the voxel at p - 1
    mn[:, 0] -= (q.face == 1)
    mn[:, 1] -= (q.face == 3)
    return (mn[:, 1] // chunk) * 65536 + (mn[:, 0] // chunk)


def triangle_counts(voxels: np.ndarray, materials) -> dict:
    """Triangles of the naive mesh (12 per non-air voxel), the face-culled mesh and the greedy mesh."""
    naive = int(np.count_nonzero(voxels)) * 12
    co, ct = mesh_region(voxels, materials, mode="culled")
    go, gt = mesh_region(voxels, materials, mode="greedy")
    return {"naive": naive, "culled": 2 * (len(co) + len(ct)), "greedy": 2 * (len(go) + len(gt))}


def downsample(voxels: np.ndarray, materials, f: int) -> np.ndarray:
    """A coarse grid for distant chunks: each f x f x f block is opaque when at least half of it is, with the
    material of its highest opaque voxel (what one sees from above); translucent and air blocks are air."""
    Z, Y, X = voxels.shape
    Zc, Yc, Xc = -(-Z // f), -(-Y // f), -(-X // f)
    pad = np.zeros((Zc * f, Yc * f, Xc * f), np.uint8)
    pad[:Z, :Y, :X] = voxels
    opaque, _ = material_luts(materials)
    op = opaque[:256][pad]
    blocks = pad.reshape(Zc, f, Yc, f, Xc, f)
    ob = op.reshape(Zc, f, Yc, f, Xc, f)
    count = ob.sum(axis=(1, 3, 5))
    out = np.zeros((Zc, Yc, Xc), np.uint8)
    for dz in range(f - 1, -1, -1):
        for dy in range(f):
            for dx in range(f):
                cand = blocks[:, dz, :, dy, :, dx]
                take = (out == 0) & ob[:, dz, :, dy, :, dx]
                out[take] = cand[take]
    out[count * 2 < f ** 3] = 0
    return out


def lod_quads(voxels: np.ndarray, materials, f: int, x0: int, y0: int, x1: int, y1: int, luts=None):
    """Greedy quads of the coarse grid for the columns [x0, x1) x [y0, y1) (multiples of f), and their corners
    in map voxel units (fine x, y; extended z)."""
    # the coarse grid starts a whole chunk before the region (x0, y0 are chunk borders): mesh_region aligns its
    # chunk splits to the array's origin, so that origin must itself be a chunk border (a rim of f would shift
    # every split by one coarse cell, and an updated chunk would not match a full mesh)
    sx0, sy0 = max(x0 - CHUNK, 0), max(y0 - CHUNK, 0)
    coarse = downsample(voxels[:, sy0:y1 + f, sx0:x1 + f], materials, f)
    ox, oy = sx0 // f, sy0 // f
    q, _ = mesh_region(coarse, materials, x0 // f - ox, y0 // f - oy, -(-x1 // f) - ox, -(-y1 // f) - oy,
                       luts=luts, chunk=CHUNK // f)
    c = quad_corners(q).astype(np.int64)
    c[..., 0] = (c[..., 0] + ox) * f
    c[..., 1] = (c[..., 1] + oy) * f
    # the coarse ground slab would reach below the fine one (and wrap around in the uint16 vertices): stop it at
    # the bottom of the fine slab
    c[..., 2] = np.maximum((c[..., 2] - 1) * f + 1, 0)
    return q, c


@dataclass
class ChunkMesh:
    key: tuple[int, int]                 # chunk (cx, cy)
    opaque: tuple[np.ndarray, np.ndarray]
    translucent: tuple[np.ndarray, np.ndarray]
    bounds: tuple[tuple[float, float, float], tuple[float, float, float]]   # voxel units, map z
    version: int = 0
    face_ranges: tuple = ()              # opaque indices by face, in FACE_ORDER: ((face, first, count), ...)
    lightmap: Lightmap | None = None     # where the chunk's quads (opaque, then translucent) keep their light

    @property
    def triangles(self) -> int:
        return (len(self.opaque[1]) + len(self.translucent[1])) // 3


@dataclass
class ChunkedMesh:
    """The greedy mesh of a world, by chunk. ``update(box)`` re-meshes only the chunks a changed box touches and
    returns their keys; ``version`` counts updates so GPU buffers know what to re-upload."""
    world: World
    chunks: dict = field(default_factory=dict)
    version: int = 0
    lods: tuple = ()                      # coarse levels (e.g. (2, 4)) for distant chunks
    lod_chunks: dict = field(default_factory=dict)   # f -> {key: ChunkMesh} (opaque only)

    def __post_init__(self):
        self._luts = material_luts(self.world.materials)
        X, Y, _ = self.world.size
        self.remesh_columns(0, 0, X, Y)

    @property
    def triangles(self) -> int:
        return sum(c.triangles for c in self.chunks.values())

    def remesh_columns(self, x0, y0, x1, y1) -> list[tuple[int, int]]:
        """Re-mesh every chunk overlapping the columns [x0, x1) x [y0, y1) (aligned out to chunk borders)."""
        X, Y, Z = self.world.size
        cx0, cy0 = max(x0, 0) // CHUNK, max(y0, 0) // CHUNK
        cx1, cy1 = (min(x1, X) + CHUNK - 1) // CHUNK, (min(y1, Y) + CHUNK - 1) // CHUNK
        ax0, ay0 = cx0 * CHUNK, cy0 * CHUNK
        ax1, ay1 = min(cx1 * CHUNK, X), min(cy1 * CHUNK, Y)
        qo, qt = mesh_region(self.world.voxels, self.world.materials, ax0, ay0, ax1, ay1, luts=self._luts)
        ko, kt = chunk_of(qo), chunk_of(qt)
        self.version += 1
        keys = []
        for cy in range(cy0, cy1):
            for cx in range(cx0, cx1):
                k = cy * 65536 + cx
                so, st = qo.select(ko == k), qt.select(kt == k)
                bx0, by0 = cx * CHUNK, cy * CHUNK
                bx1, by1 = min(bx0 + CHUNK, X), min(by0 + CHUNK, Y)
                so, ranges = sort_by_face(so)
                co, ct = quad_corners(so), quad_corners(st)
                zmax = max([int(c[..., 2].max()) - 1 for c in (co, ct) if len(c)] + [0])
                lm, uv = layout(np.concatenate([so.face, st.face]), np.concatenate([co, ct]))
                self.chunks[(cx, cy)] = ChunkMesh((cx, cy), pack_vertices(so, co, uv[:len(so)]),
                                                  pack_vertices(st, ct, uv[len(so):]),
                                                  ((bx0, by0, -1.0), (bx1, by1, float(zmax))),
                                                  self.version, ranges, lm)
                keys.append((cx, cy))
        for f in self.lods:
            self._remesh_lod(f, cx0, cy0, cx1, cy1, ax0, ay0, ax1, ay1)
        return keys

    def _remesh_lod(self, f, cx0, cy0, cx1, cy1, ax0, ay0, ax1, ay1):
        X, Y, Z = self.world.size
        q, corners = lod_quads(self.world.voxels, self.world.materials, f, ax0, ay0, ax1, ay1, self._luts)
        mn = corners.min(axis=1)
        mn[:, 0] -= (q.face == 1) * f
        mn[:, 1] -= (q.face == 3) * f
        key = (mn[:, 1] // CHUNK) * 65536 + (mn[:, 0] // CHUNK)
        store = self.lod_chunks.setdefault(f, {})
        empty = Quads.concat([])
        for cy in range(cy0, cy1):
            for cx in range(cx0, cx1):
                m = key == cy * 65536 + cx
                (sq, sc), ranges = sort_by_face_with(q.select(m), corners[m])
                bx0, by0 = cx * CHUNK, cy * CHUNK
                bx1, by1 = min(bx0 + CHUNK, X), min(by0 + CHUNK, Y)
                lm, uv = layout(sq.face, sc, scale=f)
                store[(cx, cy)] = ChunkMesh((cx, cy), pack_vertices(sq, sc, uv), pack_vertices(empty),
                                            ((bx0, by0, -1.0), (bx1, by1, float(Z))), self.version, ranges, lm)

    def update(self, box) -> list[tuple[int, int]]:
        """A changed inclusive voxel box ((x0, y0, z0), (x1, y1, z1)) -> re-mesh the chunks it touches, counting
        its one-voxel rim (a neighbour's face appears or disappears). Returns the re-meshed chunk keys."""
        (x0, y0, _), (x1, y1, _) = box
        return self.remesh_columns(x0 - 1, y0 - 1, x1 + 2, y1 + 2)
