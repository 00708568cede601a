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


# -- the line-of-sight grid (shaders/los_grid.comp, engine/render/los_grid.py) -----------------------------------
from pathlib import Path  # noqa: E402

from engine.world.geometry import Body  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _grid_world(rng, lo=5, hi=24, density=None):
    from test_volumes import random_world

    return random_world(rng, lo, hi, density)


@pytest.fixture(params=["int64", "double", "i32"])
def arith(request):
    import engine.render.los_grid as lg

    old = lg.ARITH
    lg.ARITH = request.param
    yield request.param
    lg.ARITH = old


@pytest.mark.parametrize("grid", [False, True])
def test_grid_kernel_segments_match_the_engine(ctx, arith, grid):
    from engine.render.los_grid import GridTracer

    rng = np.random.default_rng(31 + grid)
    for _ in range(5):
        w = _grid_world(rng)
        X, Y, Z = size = w.size
        n = 20000
        a = rng.random((n, 3)) * size
        b = rng.random((n, 3)) * size
        if grid:
            a, b = np.floor(a * 4) / 4, np.floor(b * 4) / 4
        q0, q1 = clamp_points(quantize(a), size), clamp_points(quantize(b), size)
        want = trace_fixed(w.los_distance(), size, q0, q1)
        t = GridTracer(ctx, w)
        got = t.trace(q0, q1)
        t.release()
        assert int((got != want).sum()) == 0
        assert 0 < want.mean() < 1


def test_grid_kernel_large_batch_on_the_town(ctx):
    from engine.render.los_grid import GridTracer
    from engine.world.mapgen import town

    rng = np.random.default_rng(2)
    w = town((96, 80, 24), seed=4)
    size = w.size
    n = 300_000
    q0 = clamp_points(quantize(rng.random((n, 3)) * size), size)
    q1 = clamp_points(quantize(rng.random((n, 3)) * size), size)
    t = GridTracer(ctx, w)
    got = t.trace(q0, q1)
    t.release()
    assert int((got != trace_fixed(w.los_distance(), size, q0, q1)).sum()) == 0


def test_grid_kernel_cover_volumes_match_the_cpu(ctx, arith):
    from engine.render.los_grid import GridTracer
    from engine.world.volumes import NO_BODY, cover_counts_cpu, free_cells

    rng = np.random.default_rng(41)
    for i in range(4):
        w = _grid_world(rng, 6, 20)
        X, Y, Z = w.size
        free = free_cells(w)
        zz, yy, xx = np.nonzero(free)
        j = int(rng.integers(len(xx)))
        f = 1 + (i % 2)
        att = Body(min(int(xx[j]), X - f), min(int(yy[j]), Y - f), int(zz[j]), f, 2, float(rng.uniform(0.5, 2.5)))
        t = GridTracer(ctx, w)
        got = t.cell_counts([att], range(Z))
        t.release()
        want = cover_counts_cpu(w, att)
        assert int((got != want).sum()) == 0
        assert 0 < np.mean(want[want != NO_BODY] > 0) < 1


def test_grid_kernel_threat_volumes_match_the_cpu(ctx):
    from engine.render.los_grid import GridTracer
    from engine.world.volumes import NO_ATTACK, Weapons, threat_counts_cpu
    from test_volumes import free_body

    rng = np.random.default_rng(43)
    for i in range(4):
        w = _grid_world(rng, 8, 18, density=0.1)
        places = [free_body(rng, w, 1 + (k % 2 if i == 3 else 0)) for k in range(1 + 3 * (i % 2))]
        weapons = [Weapons(1.5, None), Weapons(3.0, 9.0), Weapons(None, 12.0), Weapons(1.5, 6.0)][i]
        t = GridTracer(ctx, w)
        got = t.cell_counts(places, range(w.size[2]), weapons=weapons)
        t.release()
        want = threat_counts_cpu(w, [(places, weapons)])[0]
        assert int((got != want).sum()) == 0
        assert (want == NO_ATTACK).any() and (want < NO_ATTACK).any()


def test_grid_kernel_follows_edits(ctx):
    from engine.render.los_grid import GridTracer
    from engine.world.volumes import cover_counts_cpu

    rng = np.random.default_rng(47)
    w = _grid_world(rng, 10, 16, density=0.05)
    att = Body(1, 1, 1)
    w.voxels[:4, :3, :3] = 0
    w.set_voxels((0, 0, 0), (2, 2, 0), 0)
    t = GridTracer(ctx, w)
    t.cell_counts([att], range(w.size[2]))
    w.set_voxels((3, 0, 0), (3, w.size[1] - 1, w.size[2] - 1), 1)     # a wall east of the attacker
    got = t.cell_counts([att], range(w.size[2]))
    assert np.array_equal(got, cover_counts_cpu(w, att))
    w.voxels[:, :, 3] = 0                                         # by hand, as engine/bench.py does
    w._luts.clear()
    got = t.cell_counts([att], range(w.size[2]))
    t.release()
    assert np.array_equal(got, cover_counts_cpu(w, att))


SHIPPED = sorted((ROOT / "scenes").glob("*.toml"))


def test_grid_kernel_volumes_on_the_shipped_maps_match_the_cpu(ctx):
    """(The CPU volume equals cover_between at every cell of these maps: tests/world/test_volumes.py.)"""
    from engine.render.los_grid import GridTracer
    from engine.scene import load_scene
    from engine.world.volumes import cover_counts_cpu

    for path in SHIPPED:
        scene = load_scene(path)
        ch = max(scene.characters, key=lambda c: c.at[2])
        att = Body.of(ch)
        t = GridTracer(ctx, scene.world)
        got = t.cell_counts([att], range(scene.world.size[2]))
        t.release()
        assert np.array_equal(got, cover_counts_cpu(scene.world, att)), path.name


def test_open_backend_falls_back_to_the_cpu_with_the_same_answers(ctx):
    from engine.render.los_grid import CpuBackend, open_backend
    from engine.scene import load_scene

    scene = load_scene(ROOT / "scenes" / "air_rooftop.toml")
    att = Body.of(scene.characters[0])
    cpu = open_backend(scene.world, "cpu")
    gpu = open_backend(scene.world, "gpu")
    assert isinstance(cpu, CpuBackend) and not isinstance(gpu, CpuBackend)
    Z = scene.world.size[2]
    assert np.array_equal(cpu.cell_counts([att], range(Z)), gpu.cell_counts([att], range(Z)))
    gpu.release()


def test_grid_kernel_refuses_end_points_outside_the_map(ctx):
    from engine.render.los_grid import GridTracer
    from engine.world.grid import World

    w = World.empty((6, 5, 4))
    t = GridTracer(ctx, w)
    inside = np.array([[0, 0, 0]]), np.array([[6 * 256 - 1, 5 * 256 - 1, 4 * 256 - 1]])
    assert not t.trace(*inside)[0]
    for bad in ([[6 * 256, 0, 0]], [[-1, 0, 0]], [[0, 0, 2 ** 33]], [[0, 2 ** 31 + 5, 0]]):
        with pytest.raises(ValueError):
            t.trace(np.array([[0, 0, 0]]), np.array(bad))
    t.release()


def test_grid_kernel_melee_after_a_move_in_tiles_matches_the_cpu(ctx):
    """Many places and melee only: the kernel runs in tiles with only the places that can reach each one."""
    import engine.render.los_grid as lg
    from engine.world.volumes import Weapons, threat_counts_cpu
    from test_volumes import free_body

    rng = np.random.default_rng(53)
    w = _grid_world(rng, 20, 36, density=0.06)
    places = [free_body(rng, w, 1 + (k % 3 == 0)) for k in range(lg.TILE_EYES + 8)]
    for weapons in (Weapons(1.5, None), Weapons(4.5, None)):
        t = lg.GridTracer(ctx, w)
        got = t.cell_counts(places, range(w.size[2]), weapons=weapons)
        t.release()
        assert np.array_equal(got, threat_counts_cpu(w, [(places, weapons)])[0])


def test_grid_kernel_chooses_32_bits_only_where_exact(ctx):
    import engine.render.los_grid as lg
    from engine.world.grid import World

    old = lg.ARITH                      # (the module's arith fixture may have set another one)
    lg.ARITH = "auto"
    try:
        assert lg.GridTracer(ctx, World.empty((128, 8, 8))).arith == "i32"
        assert lg.GridTracer(ctx, World.empty((129, 8, 8))).arith == "int64"
        lg.ARITH = "i32"
        with pytest.raises(ValueError):
            lg.GridTracer(ctx, World.empty((8, 8, 200)))
    finally:
        lg.ARITH = old


@pytest.mark.parametrize("layout", [("xyz", 8), ("xyz", 4), ("xy", 4), ("x", 8), ("", 4)])
def test_grid_kernel_every_field_layout_gives_the_same_answers(ctx, layout):
    """The fields a variant reads (eight octants or fewer merged ones, bytes or 4-bit codes) change the jumps,
    never the answer: segments (tie-heavy end points on a quarter-voxel grid too) and cover volumes, both modes."""
    import engine.render.los_grid as lg
    from engine.world.volumes import cover_counts_cpu, free_cells

    old = dict(lg.FIELDS)
    lg.FIELDS = {"MODE_SEGMENTS": layout, "MODE_CELLS": layout}
    try:
        rng = np.random.default_rng(59)
        for i in range(3):
            w = _grid_world(rng, 6, 22)
            size = w.size
            n = 20000
            a, b = rng.random((n, 3)) * size, rng.random((n, 3)) * size
            if i == 1:
                a, b = np.floor(a * 4) / 4, np.floor(b * 4) / 4
            q0, q1 = clamp_points(quantize(a), size), clamp_points(quantize(b), size)
            free = free_cells(w)
            zz, yy, xx = np.nonzero(free)
            j = int(rng.integers(len(xx)))
            att = Body(int(xx[j]), int(yy[j]), int(zz[j]))
            t = lg.GridTracer(ctx, w)
            got = t.trace(q0, q1)
            vol = t.cell_counts([att], range(size[2]))
            t.release()
            assert int((got != trace_fixed(w.los_distance(), size, q0, q1)).sum()) == 0
            assert int((vol != cover_counts_cpu(w, att)).sum()) == 0
    finally:
        lg.FIELDS = old


def test_merged_fields_are_clear_cubes():
    """merge_octants: a value k of the merged field for a ray's signs is a clear cube of side k from the voxel in
    every direction the ray could go along the merged axes (what makes the jump safe)."""
    from engine.render.los_grid import merge_octants, pack_fields
    from engine.world.volumes import octant_fields

    rng = np.random.default_rng(61)
    blk = rng.random((5, 7, 9)) < 0.15
    oct8 = octant_fields(blk)
    merged, field_of = merge_octants(oct8, "xy")
    assert merged.shape == (4, blk.size) and field_of == (1, 2, 0)
    for o in range(8):
        slot = (o & 1) * field_of[0] + ((o >> 1) & 1) * field_of[1] + ((o >> 2) & 1) * field_of[2]
        assert (merged[slot] <= oct8[o]).all()
    assert np.array_equal(merge_octants(oct8, "xyz")[0], oct8)
    one, w1 = merge_octants(oct8, "")
    assert w1 == (0, 0, 0) and np.array_equal(one[0], oct8.min(axis=0))
    # 4-bit codes: the largest listed side not above the value, eight to a word, the first in the low bits
    words = np.frombuffer(pack_fields(np.array([[0, 1, 9, 15, 16, 27, 28, 200]], np.uint8), 4), np.uint32)
    codes = [(int(words[0]) >> (4 * i)) & 15 for i in range(8)]
    assert codes == [0, 1, 8, 11, 12, 14, 15, 15]


def test_obscured_voxels_block_alike_in_glsl_and_numpy(ctx):
    """A Fog Cloud's heavily obscured voxels (SPL-10) join the sight-blocking grid: the GLSL kernels' segments and
    cover volumes match numpy's with them, bit for bit, and a line through the fog is blocked on both."""
    from engine.render.los_gpu import GpuTracer
    from engine.render.los_grid import GridTracer
    from engine.world.volumes import cover_counts_cpu, free_cells

    rng = np.random.default_rng(53)
    w = _grid_world(rng, 10, 18, density=0.04)
    X, Y, Z = size = w.size
    fog = rng.random((Z, Y, X)) < 0.1
    fog[:, :, X // 2] = True                              # a fog wall across the map: x = X // 2, every y and layer
    w.set_obscured(fog)
    n = 6000
    q0 = clamp_points(quantize(rng.random((n, 3)) * size), size)
    q1 = clamp_points(quantize(rng.random((n, 3)) * size), size)
    want = trace_fixed(w.los_distance(), size, q0, q1)
    t = GridTracer(ctx, w)
    assert int((t.trace(q0, q1) != want).sum()) == 0
    g = GpuTracer.for_world(ctx, w)
    assert np.array_equal(g.trace(q0, q1)[0], want)
    g.release()
    across = (q0[:, 0] // 256 < X // 2) & (q1[:, 0] // 256 > X // 2)
    assert across.any() and want[across].all()            # every line across the fog wall is blocked
    free = free_cells(w)
    zz, yy, xx = np.nonzero(free[:, :, : X // 2 - 1])
    att = Body(int(xx[0]), int(yy[0]), int(zz[0]))
    got = t.cell_counts([att], range(Z))
    t.release()
    cpu = cover_counts_cpu(w, att)
    assert int((got != cpu).sum()) == 0
    beyond = cpu[:, :, X // 2 + 1:]
    assert (beyond[free[:, :, X // 2 + 1:]] == 36).all()  # no body beyond the wall is seen
