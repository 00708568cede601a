"""Meshing without GL: greedy quads cover exactly the face-culled faces, never cross chunks, and a changed box
re-meshes only its chunks."""

from __future__ import annotations

import numpy as np
import pytest

from engine.render.mesh import CHUNK, VERTEX_COMPONENTS, ChunkedMesh, mesh_region, quad_corners, triangle_counts
from engine.world.grid import World
from engine.world.materials import AIR, BUILTIN_MATERIALS

pytestmark = pytest.mark.unit
MATS = (AIR,) + tuple(BUILTIN_MATERIALS.values())
IDS = {m.name: i for i, m in enumerate(MATS)}


def random_world(seed=0, size=(40, 36, 10)):
    rng = np.random.default_rng(seed)
    X, Y, Z = size
    v = np.zeros((Z, Y, X), np.uint8)
    for _ in range(40):
        x0, y0 = rng.integers(0, X - 4), rng.integers(0, Y - 4)
        w, d, h = rng.integers(1, 9), rng.integers(1, 9), rng.integers(1, Z)
        v[0:h, y0:y0 + d, x0:x0 + w] = rng.choice([IDS["stone"], IDS["brick"], IDS["glass"], IDS["foliage"]])
    v[rng.random(v.shape) < 0.02] = IDS["wood"]
    return World(v, MATS, 1.5)


def face_area(q):
    return (q.u1 - q.u0) * (q.v1 - q.v0)


def per_face_material(q):
    out = {}
    for f, m, a in zip(q.face.tolist(), q.mat.tolist(), face_area(q).tolist()):
        out[(f, m)] = out.get((f, m), 0) + a
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_greedy_covers_exactly_the_culled_faces(seed):
    w = random_world(seed)
    co, ct = mesh_region(w.voxels, w.materials, mode="culled")
    go, gt = mesh_region(w.voxels, w.materials, mode="greedy")
    assert per_face_material(co) == per_face_material(go)
    assert per_face_material(ct) == per_face_material(gt)
    assert len(go) < len(co)
    # and the quads do not overlap: rasterise every greedy quad into its unit faces
    cells = set()
    for q in (go, gt):
        for f, p, u0, u1, v0, v1 in zip(q.face, q.plane, q.u0, q.u1, q.v0, q.v1):
            for u in range(u0, u1):
                for v in range(v0, v1):
                    key = (int(f), int(p), u, v)
                    assert key not in cells
                    cells.add(key)
    assert len(cells) == len(co) + len(ct)


def test_a_lone_voxel_has_six_faces_and_the_ground_one_quad():
    v = np.zeros((3, 4, 4), np.uint8)
    v[1, 1, 1] = IDS["stone"]
    o, t = mesh_region(v, MATS)
    stone = o.select(o.mat == IDS["stone"])
    assert sorted(stone.face.tolist()) == [0, 1, 2, 3, 4, 5]
    ground_top = o.select((o.mat == 256) & (o.face == 5))
    assert len(ground_top) == 1 and face_area(ground_top)[0] == 16
    c = quad_corners(stone)
    # counter-clockwise seen from outside: the normal from the corners points along the face direction
    normals = np.cross(c[:, 1] - c[:, 0], c[:, 3] - c[:, 0])
    expect = {0: (-1, 0, 0), 1: (1, 0, 0), 2: (0, -1, 0), 3: (0, 1, 0), 4: (0, 0, -1), 5: (0, 0, 1)}
    for f, n in zip(stone.face.tolist(), normals):
        assert tuple(np.sign(n).astype(int)) == expect[f]


def test_quads_never_cross_chunk_borders():
    w = World(np.full((2, 70, 70), IDS["stone"], np.uint8), MATS, 1.5)
    o, _ = mesh_region(w.voxels, w.materials)
    c = quad_corners(o)
    mn, mx = c.min(axis=1), c.max(axis=1)
    for ax in (0, 1):
        spans = mx[:, ax] > mn[:, ax]
        assert ((mx[spans, ax] - 1) // CHUNK == mn[spans, ax] // CHUNK).all()


def test_changed_box_remeshes_only_its_chunks_and_matches_a_full_mesh():
    w = random_world(3, size=(80, 70, 8))
    cm = ChunkedMesh(w)
    box = w.set_voxels((32, 10, 0), (33, 12, 5), IDS["brick"])   # its rim (x = 31) reaches chunk 0
    keys = cm.update(box)
    assert sorted(keys) == [(0, 0), (1, 0)]
    box = w.set_voxels((50, 50, 2), (50, 50, 2), IDS["stone"])
    assert cm.update(box) == [(1, 1)]
    fresh = ChunkedMesh(w)
    for k, ch in fresh.chunks.items():
        got = cm.chunks[k]
        for part in ("opaque", "translucent"):
            a, b = getattr(ch, part)[0], getattr(got, part)[0]
            assert sorted(map(tuple, a.reshape(-1, 4 * VERTEX_COMPONENTS).tolist())) == sorted(map(tuple, b.reshape(-1, 4 * VERTEX_COMPONENTS).tolist()))


def test_greedy_is_at_most_15_percent_of_culled_on_the_showcase_town():
    from engine.world.mapgen import town_square

    w = town_square()
    tc = triangle_counts(w.voxels, w.materials)
    assert tc["greedy"] <= 0.15 * tc["culled"], tc
    assert tc["culled"] < tc["naive"]


def test_coarse_levels_keep_blocks_where_they_are():
    from engine.render.mesh import downsample, lod_quads

    v = np.zeros((8, 16, 16), np.uint8)
    v[0:4, 4:8, 8:12] = IDS["stone"]
    v[2, 12, 2] = IDS["brick"]                         # a lone voxel: less than half of its 2 x 2 x 2 block
    c = downsample(v, MATS, 2)
    assert c.shape == (4, 8, 8) and c[0:2, 2:4, 4:6].all() and c.sum() == 8 * IDS["stone"]
    for f in (2, 4):
        q, corners = lod_quads(v, MATS, f, 0, 0, 16, 16)
        stone = corners[q.mat == IDS["stone"]]
        lo, hi = stone.reshape(-1, 3).min(axis=0), stone.reshape(-1, 3).max(axis=0)
        assert tuple(lo) == (8, 4, 1) and tuple(hi) == (12, 8, 5)       # x, y and extended z (layer + 1)
        assert len(q.select(q.mat == IDS["stone"])) == 5      # it stands on the ground: no bottom face


def test_chunked_mesh_keeps_coarse_levels_per_chunk():
    w = random_world(4, size=(70, 40, 8))
    cm = ChunkedMesh(w, lods=(2, 4))
    assert set(cm.lod_chunks) == {2, 4} and set(cm.lod_chunks[2]) == set(cm.chunks)
    assert 0 < sum(c.triangles for c in cm.lod_chunks[4].values()) < sum(c.triangles for c in cm.lod_chunks[2].values()) < cm.triangles
    box = w.set_voxels((1, 1, 0), (1, 1, 3), IDS["stone"])
    assert cm.update(box) == [(0, 0)]
    box = w.set_voxels((40, 20, 0), (42, 23, 6), IDS["brick"])      # a chunk that is not at the map's corner
    assert cm.update(box) == [(1, 0)]
    fresh = ChunkedMesh(w, lods=(2, 4))
    for f in (2, 4):
        for k, ch in fresh.lod_chunks[f].items():
            assert np.array_equal(ch.opaque[0], cm.lod_chunks[f][k].opaque[0]), (f, k)


def test_greedy_is_at_most_15_percent_of_culled_on_every_shipped_scene():
    from pathlib import Path

    from engine.errors import AerieError
    from engine.scene import load_scene

    scenes = sorted((Path(__file__).resolve().parents[2] / "scenes").glob("*.toml"))
    checked = 0
    for p in scenes:
        try:
            s = load_scene(p)
        except AerieError:
            continue            # a scene another test is about; its own tests report it
        tc = triangle_counts(s.world.voxels, s.world.materials)
        assert tc["greedy"] <= 0.15 * tc["culled"], (p.name, tc)
        checked += 1
    assert checked >= 1
