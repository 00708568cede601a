"""The heavily obscured voxels (a Fog Cloud's, a Darkness's: SPL-10, ``World.obscured``) drawn as a translucent
volume: the faces between an obscured voxel and one that is not, as triangles for the flat program (position in
metres, RGBA 0..1), drawn with the overlays' translucent shapes (depth-tested, no depth writes)."""

from __future__ import annotations

import numpy as np

#: the fog's colour and opacity (each face; a line of sight through the volume meets two)
FOG_RGBA = (0.86, 0.88, 0.90, 0.42)


def fog_tris(world, below: int | None = None) -> np.ndarray:
    """float32 [N, 7]: the obscured volume's boundary faces as triangles (x, y, z in metres, r, g, b, a); layers at
    or above ``below`` left out (a cut). Empty without obscured voxels."""
    ob = world.obscured
    if ob is None:
        return np.zeros((0, 7), dtype=np.float32)
    if below is not None:
        ob = ob.copy()
        ob[max(below, 0):] = False
    Z, Y, X = ob.shape
    pad = np.zeros((Z + 2, Y + 2, X + 2), dtype=bool)
    pad[1:-1, 1:-1, 1:-1] = ob
    cm = float(world.cell_m)
    scale = np.array([cm, cm, 1.0])
    quads = []
    for axis in range(3):                       # axis 0: x, 1: y, 2: z (the array's axes are z, y, x)
        arr_axis = 2 - axis
        for sgn in (-1, 1):
            nb = np.roll(pad, -sgn, axis=arr_axis)
            face = pad & ~nb
            zz, yy, xx = np.nonzero(face[1:-1, 1:-1, 1:-1])
            if not len(xx):
                continue
            base = np.stack([xx, yy, zz], axis=1).astype(np.float64)
            u, v = (axis + 1) % 3, (axis + 2) % 3
            off = np.zeros(3)
            off[axis] = 1.0 if sgn > 0 else 0.0
            corners = []
            for du, dv in ((0, 0), (1, 0), (1, 1), (0, 1)):
                c = off.copy()
                c[u], c[v] = du, dv
                corners.append(c)
            q = np.stack([base + c for c in corners], axis=1)          # [F, 4, 3]
            quads.append(q[:, [0, 1, 2, 0, 2, 3]])                     # two triangles a face
    if not quads:
        return np.zeros((0, 7), dtype=np.float32)
    tri = np.concatenate(quads).reshape(-1, 3) * scale
    out = np.empty((len(tri), 7), dtype=np.float32)
    out[:, :3] = tri
    out[:, 3:] = FOG_RGBA
    return out
