"""The heavily obscured voxels' translucent volume (engine/render/fog.py): the faces between obscured and clear
voxels, in metres, cut with the terrain."""

from __future__ import annotations

import numpy as np
import pytest

from engine.render.fog import FOG_RGBA, fog_tris
from engine.world.grid import World

pytestmark = pytest.mark.unit


def test_the_fog_volume_is_the_boundary_of_the_obscured_voxels_in_metres():
    w = World.empty((6, 5, 4), cell_m=1.5)
    assert len(fog_tris(w)) == 0
    m = np.zeros((4, 5, 6), dtype=bool)
    m[1, 2, 3] = True
    w.set_obscured(m)
    one = fog_tris(w)
    assert one.shape == (6 * 6, 7)                        # a lone voxel: 6 faces, 2 triangles each
    assert one[:, 0].min() == 4.5 and one[:, 0].max() == 6.0 and one[:, 1].min() == 3.0 and one[:, 1].max() == 4.5
    assert one[:, 2].min() == 1.0 and one[:, 2].max() == 2.0
    assert np.allclose(one[:, 3:], FOG_RGBA)
    m[2, 2, 3] = True                                     # a second voxel on top: the shared face is inside
    w.set_obscured(m)
    assert len(fog_tris(w)) == 10 * 6
    assert len(fog_tris(w, below=2)) == 6 * 6             # a cut above layer 1 leaves the lower voxel alone
