"""The renderer draws a lasting area's heavily obscured voxels as a translucent volume: the pixels where the fog
hangs change (paler), and the grass and the sky behind it still show through (not one flat colour)."""

from __future__ import annotations

import numpy as np
import pytest

from gl_render import frame, gl_fixture

pytestmark = pytest.mark.gl

SIZE = (160, 120)
rc = gl_fixture(SIZE, name="rc")


def test_a_fog_cloud_is_drawn_translucent_over_the_terrain(rc):
    from engine.render.camera import Camera
    from engine.render.renderer import DrawOptions
    from engine.world.grid import World
    from engine.world.materials import AIR, BUILTIN_MATERIALS

    w = World.empty((16, 16, 12), (AIR, BUILTIN_MATERIALS["grass"], BUILTIN_MATERIALS["brick"]))
    w.voxels[0] = 1
    w.voxels[1:8, 2:14, 12:14] = 2                       # a brick wall to the right of the fog
    cam = Camera((12.0, -14.0, 9.0), (12.0, 12.0, 5.0), 50.0)
    opts = DrawOptions(hud=())
    plain, _ = frame(rc, w, cam, opts=opts, shadows=False)
    fog = np.zeros(w.voxels.shape, dtype=bool)
    fog[3:9, 5:11, 5:11] = True                           # a 6-voxel cube of fog in the air, before the wall
    w.set_obscured(fog)
    foggy, _ = frame(rc, w, cam, opts=opts, shadows=False)
    diff = np.abs(foggy[..., :3].astype(int) - plain[..., :3].astype(int)).sum(axis=2)
    changed = diff > 12
    assert 0.03 < changed.mean() < 0.6                    # the fog covers part of the view, not all of it
    ys, xs = np.nonzero(changed)
    region_plain = plain[ys, xs, :3].astype(int)
    region_fog = foggy[ys, xs, :3].astype(int)
    assert region_fog.mean() > region_plain.mean()        # paler where the fog hangs
    assert region_fog.std() > 2                           # and the scene behind shows through: not one flat colour
