"""An independent oracle for the line of sight: the same segments cast with trimesh against the triangle mesh
of the same voxels. Used by the tests (float64 triangle intersector) and by `aerie bench los` (Embree)."""

from __future__ import annotations

from typing import Any

import numpy as np

# the six faces of a unit cube: (axis, side) -> 4 corners, counter-clockwise seen from outside
_FACES = {
    (0, 0): [(0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 1, 0)],
    (0, 1): [(1, 0, 0), (1, 1, 0), (1, 1, 1), (1, 0, 1)],
    (1, 0): [(0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1)],
    (1, 1): [(0, 1, 0), (0, 1, 1), (1, 1, 1), (1, 1, 0)],
    (2, 0): [(0, 0, 0), (0, 1, 0), (1, 1, 0), (1, 0, 0)],
    (2, 1): [(0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)],
}


def blocking_mesh(blocking: np.ndarray):
    """trimesh.Trimesh of the faces between blocking voxels and anything else, in voxel units (x, y, z).

    ``blocking`` is bool [Z, Y, X]."""
    import trimesh

    b = np.asarray(blocking, dtype=bool).transpose(2, 1, 0)        # -> [x, y, z]
    padded = np.pad(b, 1, constant_values=False)
    verts, faces = [], []
    base = 0
    for (axis, side), corners in _FACES.items():
        shift = [0, 0, 0]
        shift[axis] = 1 if side else -1
        neighbour = np.roll(padded, -shift[axis], axis=axis)[1:-1, 1:-1, 1:-1]
        cells = np.argwhere(b & ~neighbour)
        if not len(cells):
            continue
        c = np.asarray(corners, dtype=np.float64)
        v = (cells[:, None, :] + c[None, :, :]).reshape(-1, 3)
        n = len(cells)
        q = base + 4 * np.arange(n)[:, None]
        f = np.concatenate([q + [0, 1, 2], q + [0, 2, 3]])
        verts.append(v)
        faces.append(f)
        base += 4 * n
    if not verts:
        return trimesh.Trimesh(np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64), process=False)
    return trimesh.Trimesh(np.concatenate(verts), np.concatenate(faces), process=False)


def segments_blocked(mesh, p0: np.ndarray, p1: np.ndarray, *, engine: str = "float64", eps: float = 1e-6):
    """(blocked, grazing) per segment: blocked when the mesh is hit strictly between the end points; grazing
    when a hit lies within ``eps`` of either end point (the end point is on a face)."""
    from trimesh.ray import ray_triangle

    p0 = np.asarray(p0, dtype=np.float64)
    p1 = np.asarray(p1, dtype=np.float64)
    d = p1 - p0
    length = np.linalg.norm(d, axis=1)
    ok = length > 0
    dirs = np.zeros_like(d)
    dirs[ok] = d[ok] / length[ok, None]
    blocked = np.zeros(len(p0), dtype=bool)
    grazing = np.zeros(len(p0), dtype=bool)
    if len(mesh.faces) == 0 or not ok.any():
        return blocked, grazing
    inter: ray_triangle.RayMeshIntersector | Any
    if engine == "embree":
        from trimesh.ray import ray_pyembree

        inter = ray_pyembree.RayMeshIntersector(mesh)
    else:
        inter = ray_triangle.RayMeshIntersector(mesh)
    sel = np.flatnonzero(ok)
    locs, ray_idx, _ = inter.intersects_location(p0[sel], dirs[sel], multiple_hits=True)
    if len(ray_idx):
        rays = sel[ray_idx]
        dist = np.einsum("ij,ij->i", locs - p0[rays], dirs[rays])
        inside = (dist > eps) & (dist < length[rays] - eps)
        near_end = (np.abs(dist) <= eps) | (np.abs(dist - length[rays]) <= eps)
        np.logical_or.at(blocked, rays[inside], True)
        np.logical_or.at(grazing, rays[near_end], True)
    return blocked, grazing


def passes_near_edge(p0: np.ndarray, p1: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """True per segment when it passes within ``eps`` of a voxel edge or corner (or lies in a grid plane)."""
    p0 = np.asarray(p0, dtype=np.float64)
    p1 = np.asarray(p1, dtype=np.float64)
    out = np.zeros(len(p0), dtype=bool)
    for i in range(len(p0)):
        a, b = p0[i], p1[i]
        d = b - a
        for ax in range(3):
            if d[ax] == 0:
                if abs(a[ax] - round(a[ax])) <= eps:
                    out[i] = True        # runs inside a grid plane
                continue
            lo, hi = sorted((a[ax], b[ax]))
            ks = np.arange(np.ceil(lo - eps), np.floor(hi + eps) + 1)
            if not len(ks):
                continue
            t = (ks - a[ax]) / d[ax]
            pts = a[None, :] + t[:, None] * d[None, :]
            others = [o for o in range(3) if o != ax]
            frac = np.abs(pts[:, others] - np.round(pts[:, others]))
            if (frac <= eps).any():
                out[i] = True
                break
    return out
