"""Light maps without GL: every quad's rectangle is its own, and sampling a quad's light map anywhere on the quad
gives the light of the voxels in front of the face, bilinearly blended over voxel centres, as the per-pixel lookup
in the 3D light volume did (engine/render/lightmap.py)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.render.lighting import light_volume
from engine.render.lightmap import _B, _C, _AXIS, _SIGN, fill, layout, texel_light
from engine.render.mesh import ChunkedMesh, mesh_region, quad_corners
from test_render_mesh import MATS, random_world

MATS_AIR, MATS_STONE = MATS[0], next(m for m in MATS if m.name == "stone")

pytestmark = pytest.mark.unit
SUN = np.array([-0.45, -0.35, 0.82]) / np.linalg.norm([-0.45, -0.35, 0.82])


def parts(cm):
    """(light map, vertices) of every chunk part, the coarse levels included."""
    for ch in cm.chunks.values():
        verts = np.concatenate([ch.opaque[0], ch.translucent[0]])
        yield ch.lightmap, verts
    for store in cm.lod_chunks.values():
        for ch in store.values():
            yield ch.lightmap, ch.opaque[0]


@pytest.mark.parametrize("seed", [0, 1])
def test_rectangles_never_overlap_and_stay_inside(seed):
    cm = ChunkedMesh(random_world(seed, size=(70, 40, 12)), lods=(2, 4))
    for lm, _ in parts(cm):
        used = np.zeros((lm.height, lm.width), np.int32)
        rows = np.arange(len(lm.face))
        face = lm.face.astype(int)
        w = (lm.hi[rows, _B[face]] - lm.lo[rows, _B[face]]) // lm.scale + 2
        h = (lm.hi[rows, _C[face]] - lm.lo[rows, _C[face]]) // lm.scale + 2
        for x, y, a, b in zip(lm.ox, lm.oy, w, h):
            assert 0 <= x and x + a <= lm.width and 0 <= y and y + b <= lm.height
            used[y:y + b, x:x + a] += 1
        assert used.max() <= 1


def test_the_same_quads_get_the_same_places_in_any_order():
    w = random_world(2)
    q = mesh_region(w.voxels, w.materials, 0, 0, 32, 32)[0]
    co = quad_corners(q)
    perm = np.random.default_rng(0).permutation(len(q))
    a, uva = layout(q.face, co)
    b, uvb = layout(q.face[perm], co[perm])
    assert len(q) > 50 and np.array_equal(uva[perm], uvb) and (a.width, a.height) == (b.width, b.height)


def _bilinear(img, s, t):
    """GL's bilinear filter with clamp-to-edge at texel coordinates (s, t) (not normalised)."""
    H, W = img.shape[:2]
    x, y = s - 0.5, t - 0.5
    x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
    fx, fy = (x - x0)[:, None], (y - y0)[:, None]

    def at(xx, yy):
        return img[np.clip(yy, 0, H - 1), np.clip(xx, 0, W - 1)].astype(np.float64)

    return ((1 - fx) * (1 - fy) * at(x0, y0) + fx * (1 - fy) * at(x0 + 1, y0)
            + (1 - fx) * fy * at(x0, y0 + 1) + fx * fy * at(x0 + 1, y0 + 1))


def _reference(vol, face, lo, point, scale, Z):
    """The light at a point of a face straight from the volume: the face's sample points (centres of its cells,
    in front of it) around the point, blended bilinearly. Geometry-side code, independent of the texel walk."""
    X, Y = vol.shape[2], vol.shape[1]
    a, b, c, sign = _AXIS[face], _B[face], _C[face], _SIGN[face]
    tb = (point[b] - lo[b]) / scale - 0.5
    tc = (point[c] - lo[c]) / scale - 0.5
    kb, kc = int(np.floor(tb)), int(np.floor(tc))
    fb, fc = tb - kb, tc - kc
    acc = np.zeros(2)
    for db, wb in ((0, 1 - fb), (1, fb)):
        for dc, wc in ((0, 1 - fc), (1, fc)):
            v = np.zeros(3, np.int64)
            v[b] = lo[b] + (kb + db) * scale + scale // 2
            v[c] = lo[c] + (kc + dc) * scale + scale // 2
            v[a] = lo[a] + (scale - 1) if sign > 0 else lo[a] - scale
            x, y, z = v[0], v[1], v[2] - 1
            inside = 0 <= x < X and 0 <= y < Y and 0 <= z < vol.shape[0]
            L = vol[z, y, x, :3] / 255.0 if inside else np.array([0.0, 1.0, 0.0])
            height = (lo[2] - 1.0) if a == 2 else z + 0.5
            acc += wb * wc * texel_light(L[None].astype(np.float32), np.array([face]), np.array([height]), SUN, Z)[0]
    return acc


@pytest.mark.parametrize("seed", [0, 3])
def test_sampling_a_quad_gives_the_light_in_front_of_it(seed):
    w = random_world(seed, size=(70, 40, 12))
    cm = ChunkedMesh(w, lods=(2, 4))
    vol = light_volume(w, SUN)
    rng = np.random.default_rng(seed)
    checked = 0
    for lm, verts in parts(cm):
        img = fill(lm, vol, SUN, w.size[2])[..., :2]
        quads = verts.reshape(-1, 4, verts.shape[1]).astype(np.int64)
        for qi in rng.choice(len(quads), size=min(len(quads), 25), replace=False):
            q = quads[qi]
            face = int(q[0, 3] & 7)
            corners, uv = q[:, :3], q[:, 4:6]
            lo, hi = corners.min(axis=0), corners.max(axis=0)
            for _ in range(4):
                r = rng.random(3)
                point = lo + r * (hi - lo)
                # the texel coordinates are affine over the rectangle: interpolate them from the corners
                b, c = _B[face], _C[face]
                s = uv[:, 0].min() + (point[b] - lo[b]) / lm.scale
                t = uv[:, 1].min() + (point[c] - lo[c]) / lm.scale
                got = _bilinear(img, np.array([s]), np.array([t]))[0]
                want = _reference(vol, face, lo, point, lm.scale, w.size[2])
                assert np.abs(got - want).max() <= 1.0, (face, lo, hi, point, lm.scale, got, want)
                checked += 1
    assert checked > 200


def test_a_checkerboard_chunk_still_fits_a_texture():
    """The worst chunk: every voxel of 32 x 32 x 256 alternating, every face its own quad."""
    from engine.render.lightmap import MAX_SIDE

    v = np.zeros((256, 32, 32), np.uint8)
    z, y, x = np.indices(v.shape)
    v[(x + y + z) % 2 == 0] = 1
    q = mesh_region(v, (MATS_AIR, MATS_STONE), 0, 0, 32, 32)[0]
    lm, uv = layout(q.face, quad_corners(q))
    assert len(q) > 700_000
    assert lm.width <= MAX_SIDE and lm.height <= MAX_SIDE and lm.texels >= 9 * len(q)
    assert uv[..., 0].max() < lm.width and uv[..., 1].max() < lm.height
