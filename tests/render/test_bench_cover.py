"""`aerie bench cover` times each peer on its own native input: Open3D on a float32 ray tensor made before the
timing (an Open3D user holds float rays already), never on our fixed-point end points converted inside its figure."""

import numpy as np
import pytest

from engine.render.bench_cover import batch_peers

pytestmark = pytest.mark.unit


class _Open3D:
    """Stands in for bench_cover.Open3D and records which of its calls run when."""

    def __init__(self):
        self.calls = []

    def rays(self, q0, q1):
        self.calls.append("rays")
        return np.concatenate([q0, q1 - q0], axis=1).astype(np.float32)

    def occluded(self, rays):
        self.calls.append("occluded")
        return np.zeros(len(rays), dtype=bool)

    def cast(self, q0, q1):
        self.calls.append("cast")
        return self.occluded(self.rays(q0, q1))


def test_open3d_is_timed_on_a_ray_tensor_made_beforehand():
    q0 = np.zeros((5, 3), dtype=np.int64)
    q1 = np.ones((5, 3), dtype=np.int64)
    o3 = _Open3D()
    fns, t_rays = batch_peers(object(), o3, q0, q1)      # no kernel here: a backend without trace()
    assert set(fns) == {"open3d"} and t_rays >= 0.0
    made = list(o3.calls)
    assert made == ["rays"]                                 # the tensor is made once, before any timed call
    for _ in range(3):
        fns["open3d"]()
    assert o3.calls[len(made):] == ["occluded"] * 3         # the timed call only tests occlusion


def test_open3d_on_float_rays_agrees_with_open3d_on_the_fixed_point_segments():
    pytest.importorskip("open3d")
    from engine.render.bench_cover import Open3D
    from engine.world.los import FP

    blocking = np.zeros((4, 8, 8), dtype=bool)
    blocking[:, 3:5, :] = True                               # a wall across the map, y = 3..4
    o3 = Open3D(blocking)
    q0 = np.array([[1, 1, 1], [1, 1, 1], [6, 6, 2]], dtype=np.int64) * FP
    q1 = np.array([[1, 7, 1], [6, 2, 2], [1, 6, 2]], dtype=np.int64) * FP
    rays = o3.rays(q0, q1)
    assert rays.dtype == o3.o3d.core.float32 and tuple(rays.shape) == (3, 6)
    assert o3.occluded(rays).tolist() == [True, False, False]


def test_the_benchs_lasting_areas_are_the_rules_spheres():
    """``aerie bench cover --lasting``: its two areas are the voxels the rules obscure (SPL-10: ``areas.cells``)."""
    import numpy as np

    from engine.render.bench_cover import lasting_world
    from engine.rules.dnd5e import areas
    from engine.world.mapgen import town

    w = town((40, 36, 20), seed=3)
    X, Y, Z = w.size
    cm = w.cell_m
    want = np.zeros((Z, Y, X), dtype=bool)
    for r, (fx, fy, fz) in ((6.0, (0.5, 0.5, 0.6)), (4.5, (0.3, 0.65, 0.45))):
        for x, y, z in areas.cells(areas.make({"shape": "sphere", "size_m": r}, (X * fx * cm, Y * fy * cm, Z * fz)),
                                   w.size, cm):
            want[z, y, x] = True
    fog = lasting_world(w)
    assert np.array_equal(fog.obscured, want) and want.sum() > 100 and w.obscured is None
