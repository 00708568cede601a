"""Heavily obscured voxels (a Fog Cloud's, a Darkness's: SPL-10) block sight through the one arithmetic every
backend shares (``World.blocks_sight``): the numpy traversals, the cover between two bodies, the cover volume. They
block nothing else: no movement, no support, no free cell."""

from __future__ import annotations

import numpy as np
import pytest

from engine.world.cover import cover_between
from engine.world.geometry import Body
from engine.world.grid import World
from engine.world.los import _trace_plain, clamp_points, quantize, trace_crossings, trace_fixed, visited_voxels
from engine.world.materials import AIR, BUILTIN_MATERIALS
from engine.world.volumes import NO_BODY, cover_counts_cpu, free_cells, trace_octant, world_octant_fields
from test_volumes import random_world

pytestmark = pytest.mark.unit

A, B = Body(1, 5, 2), Body(14, 5, 2)


def fog_world():
    """An empty 16 x 10 x 8 map with a fog bank across x = 7..8, every y, layers 0..5."""
    w = World.empty((16, 10, 8), (AIR, BUILTIN_MATERIALS["stone"]))
    fog = np.zeros(w.voxels.shape, dtype=bool)
    fog[0:6, :, 7:9] = True
    return w, fog


def test_a_sight_line_through_fog_is_blocked_and_clears_with_it():
    w, fog = fog_world()
    p0, p1 = np.array([[1.5, 5.5, 3.5]]), np.array([[14.5, 5.5, 3.2]])
    assert not cover_between(w, A, B).blocked[0] and not trace_fixed(w.los_distance(), w.size,
                                                                     quantize(p0), quantize(p1))[0]
    rev = w.revision
    assert w.set_obscured(fog) and w.revision > rev and not w.set_obscured(fog.copy())
    q0, q1 = clamp_points(quantize(p0), w.size), clamp_points(quantize(p1), w.size)
    assert any(fog[z, y, x] for x, y, z in visited_voxels(w.size, q0[0], q1[0]))
    assert trace_fixed(w.los_distance(), w.size, q0, q1)[0]
    assert trace_crossings(w.los_distance(), w.size, q0, q1)[0]
    assert trace_octant(world_octant_fields(w), w.size, q0, q1)[0]
    res = cover_between(w, A, B)
    assert not res.visible and res.level == "total" and all(res.blocked)
    # over the fog bank (layer 6 and up) the line is clear
    assert cover_between(w, Body(1, 5, 6), Body(14, 5, 6)).visible
    assert w.set_obscured(None) and cover_between(w, A, B).visible


def test_obscured_voxels_block_no_movement_and_keep_after_an_edit():
    w, fog = fog_world()
    free = free_cells(w).copy()
    solid = w.solid().copy()
    w.set_obscured(fog)
    assert np.array_equal(free_cells(w), free) and np.array_equal(w.solid(), solid)
    assert not w.is_solid(7, 5, 1) and w.support_layer(7, 5, 4) == 0
    w.los_distance()
    w.set_voxels((12, 0, 0), (12, 9, 7), 1)               # a wall: the cached field is patched, fog and all
    from engine.world.los import distance_field

    assert np.array_equal(w.los_distance(), distance_field(w.sight_lut[w.voxels] | fog).ravel())


def test_the_traversals_agree_with_obscured_voxels():
    rng = np.random.default_rng(11)
    for _ in range(4):
        w = random_world(rng, 6, 14, density=0.05)
        fog = rng.random(w.voxels.shape) < 0.15
        w.set_obscured(fog)
        blk = (w.sight_lut[w.voxels] | fog).ravel()
        n = 3000
        q0 = clamp_points(quantize(rng.random((n, 3)) * w.size), w.size)
        q1 = clamp_points(quantize(rng.random((n, 3)) * w.size), w.size)
        want = _trace_plain(blk, q0, q1, w.size)
        assert np.array_equal(trace_fixed(w.los_distance(), w.size, q0, q1), want)
        assert np.array_equal(trace_octant(world_octant_fields(w), w.size, q0, q1), want)
        assert 0 < want.mean() < 1


def test_the_cover_volume_sees_the_fog():
    w, fog = fog_world()
    att = Body(1, 5, 2)
    before = cover_counts_cpu(w, att)
    w.set_obscured(fog)
    after = cover_counts_cpu(w, att)
    assert (before[2, :, 10:][before[2, :, 10:] != NO_BODY] == 0).all()
    behind = after[2, 3:8, 10:]
    assert (behind == 36).all()                           # every sight line to a body beyond the bank is cut
    assert np.array_equal(after[:, :, :7], before[:, :, :7])          # this side of the bank: as before
    high = Body(1, 5, 6)                                  # eye and targets over the bank (layers 6 and 7)
    assert np.array_equal(cover_counts_cpu(w, high, [6]), cover_counts_cpu(World(w.voxels, w.materials), high, [6]))
