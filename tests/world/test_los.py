"""The exact traversal: tie rule, acceleration equal to the plain traversal, and the trimesh oracle."""

import numpy as np
import pytest
from tiers import sample

from engine.world.los import (FP, _trace_plain, clamp_points, distance_field, quantize, trace_fixed,
                              visited_voxels)
from engine.world.oracle import blocking_mesh, passes_near_edge, segments_blocked

pytestmark = pytest.mark.unit


def test_quantisation_is_round_half_up_in_256ths():
    q = quantize([[0.5, 1.0, 2.0 + 1 / 512]])
    assert q.tolist() == [[128, 256, 2 * 256 + 1]]
    assert FP == 256


def test_visits_every_voxel_the_segment_passes():
    size = (10, 10, 10)
    v = visited_voxels(size, quantize([0.5, 0.5, 0.5]), quantize([3.5, 1.5, 0.5]))
    # crosses x = 1 at y = 0.67, then x = 2 and y = 1 together (an edge: diagonal step), then x = 3
    assert v == [(0, 0, 0), (1, 0, 0), (2, 1, 0), (3, 1, 0)]


def test_tie_rule_diagonal_step_skips_the_side_voxels():
    size = (4, 4, 1)
    blk = np.zeros((1, 4, 4), dtype=bool)
    blk[0, 1, 0] = True      # the two voxels the exact diagonal only touches at an edge
    blk[0, 0, 1] = True
    dist = distance_field(blk).ravel()
    through_edge = trace_fixed(dist, size, quantize([[0.5, 0.5, 0.5]]), quantize([[1.5, 1.5, 0.5]]))
    assert not through_edge[0]
    slightly_off = trace_fixed(dist, size, quantize([[0.5, 0.5, 0.5]]), quantize([[1.5, 1.52, 0.5]]))
    assert slightly_off[0]


def test_start_on_a_plane_starts_in_the_voxel_it_moves_into():
    size = (4, 1, 1)
    blk = np.zeros((1, 1, 4), dtype=bool)
    blk[0, 0, 0] = True
    dist = distance_field(blk).ravel()
    # from x = 1.0 exactly moving +x: voxel 0 is never entered
    assert not trace_fixed(dist, size, quantize([[1.0, 0.5, 0.5]]), quantize([[3.5, 0.5, 0.5]]))[0]
    # moving -x from x = 1.0 enters voxel 0 at once
    assert trace_fixed(dist, size, quantize([[1.0, 0.5, 0.5]]), quantize([[0.5, 0.5, 0.5]]))[0]
    # ending exactly on the face of a blocking voxel does not enter it
    assert not trace_fixed(dist, size, quantize([[3.5, 0.5, 0.5]]), quantize([[1.0, 0.5, 0.5]]))[0]


def test_end_points_outside_the_map_are_refused():
    dist = distance_field(np.zeros((2, 2, 2), dtype=bool)).ravel()
    with pytest.raises(ValueError):
        trace_fixed(dist, (2, 2, 2), quantize([[0.5, 0.5, 0.5]]), quantize([[2.0, 0.5, 0.5]]))


def _random_map(rng, lo=6, hi=20):
    X, Y, Z = (int(v) for v in rng.integers(lo, hi, 3))
    blk = rng.random((Z, Y, X)) < rng.uniform(0.05, 0.35)
    return blk, (X, Y, Z)


def _air_segments(rng, blk, size, n):
    air = np.argwhere(~blk)[:, ::-1]               # (x, y, z)
    a = air[rng.integers(0, len(air), n)] + rng.random((n, 3))
    b = air[rng.integers(0, len(air), n)] + rng.random((n, 3))
    return clamp_points(quantize(a), size), clamp_points(quantize(b), size)


def test_distance_field_skipping_equals_the_plain_traversal():
    rng = np.random.default_rng(11)
    for _ in range(8):
        blk, size = _random_map(rng, 8, 40)
        q0, q1 = _air_segments(rng, blk, size, 3000)
        fast = trace_fixed(distance_field(blk).ravel(), size, q0, q1, threads=2, chunk=1000)
        plain = _trace_plain(blk.ravel(), q0, q1, size)
        assert np.array_equal(fast, plain)


def test_distance_field_is_the_chebyshev_distance():
    blk = np.zeros((5, 7, 9), dtype=bool)
    blk[2, 3, 4] = True
    d = distance_field(blk, cap=16)
    zz, yy, xx = np.indices(blk.shape)
    expect = np.maximum(np.maximum(abs(zz - 2), abs(yy - 3)), abs(xx - 4))
    assert np.array_equal(d, expect)


def test_against_the_trimesh_oracle_10000_rays():
    """10,000 random segments over random maps: 0 disagreements with trimesh (float64 triangles), except on
    segments that pass within 1e-6 of a voxel edge or corner, or end on a face (counted, and few)."""
    rng = np.random.default_rng(2026)
    total = mismatches = excluded = 0
    maps = sample(4, 10)        # 4,000 segments in `make test`, the 10,000 in `make slow`
    for _ in range(maps):
        blk, size = _random_map(rng)
        q0, q1 = _air_segments(rng, blk, size, 1000)
        mine = trace_fixed(distance_field(blk).ravel(), size, q0, q1)
        f0, f1 = q0 / FP, q1 / FP
        theirs, grazing = segments_blocked(blocking_mesh(blk), f0, f1)
        graze = grazing | passes_near_edge(f0, f1)
        mismatches += int(((mine != theirs) & ~graze).sum())
        excluded += int(graze.sum())
        total += len(q0)
    assert total == maps * 1000
    assert mismatches == 0
    assert excluded < total * 0.02


def test_oracle_mesh_is_watertight_faces_only():
    blk = np.zeros((3, 3, 3), dtype=bool)
    blk[1, 1, 1] = True
    blk[1, 1, 2] = True                 # two neighbours share a face: it is culled
    mesh = blocking_mesh(blk)
    assert len(mesh.faces) == 2 * 10
