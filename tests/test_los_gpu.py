"""Parity: the GLSL compute kernel and the numpy traversal give the same answer, and the same loop count, on
every ray (tie-heavy end points on a 1/4-voxel grid included)."""

import numpy as np
import pytest

from engine.world.los import clamp_points, distance_field, quantize, trace_fixed

pytestmark = pytest.mark.gl


@pytest.fixture(scope="module")
def ctx():
    moderngl = pytest.importorskip("moderngl")
    try:
        c = moderngl.create_standalone_context(backend="egl", require=430)
    except Exception as e:  # pragma: no cover - only where EGL is missing
        pytest.skip(f"no headless OpenGL 4.3 context: {e}")
    if "GL_ARB_gpu_shader_int64" not in c.extensions:
        pytest.skip("the GL driver lacks GL_ARB_gpu_shader_int64")
    yield c
    c.release()


def _case(rng, grid):
    X, Y, Z = (int(v) for v in rng.integers(5, 40, 3))
    blk = rng.random((Z, Y, X)) < rng.uniform(0.02, 0.3)
    n = 4000
    hi = np.array([X, Y, Z], dtype=np.float64)
    a = rng.random((n, 3)) * hi
    b = rng.random((n, 3)) * hi
    if grid:                        # end points on a quarter-voxel grid: many rays pass exactly through edges
        a, b = np.floor(a * 4) / 4, np.floor(b * 4) / 4
    size = (X, Y, Z)
    return blk, size, clamp_points(quantize(a), size), clamp_points(quantize(b), size)


@pytest.mark.parametrize("grid", [False, True])
def test_gpu_kernel_matches_numpy_bit_for_bit(ctx, grid):
    from engine.render.los_gpu import GpuTracer

    rng = np.random.default_rng(7 + grid)
    for _ in range(6):
        blk, size, q0, q1 = _case(rng, grid)
        dist = distance_field(blk).ravel()
        cpu_blocked, cpu_steps = trace_fixed(dist, size, q0, q1, return_steps=True)
        gpu = GpuTracer(ctx, dist, size)
        gpu_blocked, gpu_steps = gpu.trace(q0, q1)
        gpu.release()
        assert np.array_equal(cpu_blocked, gpu_blocked)
        assert np.array_equal(cpu_steps, gpu_steps)
        assert 0 < cpu_blocked.mean() < 1


def test_every_compute_shader_compiles(ctx):
    from engine.render.shaders import SHADER_DIR

    comps = sorted(SHADER_DIR.glob("*.comp"))
    assert comps
    for p in comps:
        ctx.compute_shader(p.read_text()).release()


def test_a_break_uploads_only_the_changed_part_of_the_field_and_the_gpu_still_matches(ctx):
    from engine.render.los_gpu import GpuTracer
    from engine.world.grid import World
    from engine.world.materials import AIR, BUILTIN_MATERIALS

    rng = np.random.default_rng(11)
    X, Y, Z = 80, 60, 10
    stone = 1 + list(BUILTIN_MATERIALS).index("stone")
    w = World((rng.random((Z, Y, X)) < 0.08).astype(np.uint8) * stone, (AIR,) + tuple(BUILTIN_MATERIALS.values()))
    gpu = GpuTracer.for_world(ctx, w)
    q0 = clamp_points(quantize(rng.random((3000, 3)) * [X, Y, Z]), (X, Y, Z))
    q1 = clamp_points(quantize(rng.random((3000, 3)) * [X, Y, Z]), (X, Y, Z))
    for lo, hi, m in (((10, 10, 0), (14, 12, 4), 0), ((60, 40, 2), (60, 40, 2), stone), ((0, 0, 0), (79, 1, 9), 0)):
        box = w.set_voxels(lo, hi, m)
        region = gpu.world_changed(w, box)
        if lo == hi:                                     # one voxel: a 33 x 33 x 10 block of the 80 x 60 x 10 field
            assert region == (44, 24, 0, 33, 33, 10)
        cpu_blocked, cpu_steps = trace_fixed(w.los_distance(), (X, Y, Z), q0, q1, return_steps=True)
        gpu_blocked, gpu_steps = gpu.trace(q0, q1)
        assert np.array_equal(cpu_blocked, gpu_blocked) and np.array_equal(cpu_steps, gpu_steps)
    gpu.release()
