"""MagicaVoxel .vox reader and writer: round trips, hand-assembled files, hostile files, fuzzing."""

from __future__ import annotations

import random
import struct
import time
import tracemalloc

import numpy as np
import pytest

from engine.errors import VoxError
from engine.world import vox
from engine.world.vox import DEFAULT_PALETTE, VoxModel, read_vox, vox_bytes, write_vox
from tiers import sample

pytestmark = pytest.mark.unit

NAME = "maps/yard.vox"


# -- hand assembly -----------------------------------------------------------------------------------------------

def i32(*values: int) -> bytes:
    return struct.pack(f"<{len(values)}i", *values)


def chunk(cid: bytes, content: bytes = b"", children: bytes = b"") -> bytes:
    return cid + i32(len(content), len(children)) + content + children


def string(s: str) -> bytes:
    return i32(len(s)) + s.encode()


def dict_(d: dict[str, str] | None = None) -> bytes:
    d = d or {}
    return i32(len(d)) + b"".join(string(k) + string(v) for k, v in d.items())


def size(x: int, y: int, z: int) -> bytes:
    return chunk(b"SIZE", i32(x, y, z))


def xyzi(voxels: list[tuple[int, int, int, int]]) -> bytes:
    return chunk(b"XYZI", i32(len(voxels)) + bytes(b for v in voxels for b in v))


def ntrn(node: int, child: int, t: str | None = None, r: str | None = None, layer: int = 0) -> bytes:
    frame = {}
    if t is not None:
        frame["_t"] = t
    if r is not None:
        frame["_r"] = r
    return chunk(b"nTRN", i32(node) + dict_() + i32(child, -1, layer, 1) + dict_(frame))


def ngrp(node: int, children: list[int]) -> bytes:
    return chunk(b"nGRP", i32(node) + dict_() + i32(len(children), *children))


def nshp(node: int, model: int) -> bytes:
    return chunk(b"nSHP", i32(node) + dict_() + i32(1, model) + dict_())


def vox_file(*children: bytes, version: int = 200) -> bytes:
    return b"VOX " + i32(version) + chunk(b"MAIN", b"", b"".join(children))


def rgba(palette: np.ndarray) -> bytes:
    """RGBA chunk for a (256, 4) palette indexed by colour index (file entry i is colour index i + 1)."""
    return chunk(b"RGBA", np.concatenate([palette[1:], palette[:1]]).astype(np.uint8).tobytes())


def random_palette(seed: int = 1) -> np.ndarray:
    palette = np.random.default_rng(seed).integers(0, 256, (256, 4), dtype=np.uint8)
    palette[0] = 0
    return palette


def scene_two_models() -> bytes:
    """Version 200: a 3x3x3 model centred at (0, 0, 1), a 2x2x2 one at (5, 0, 1), plus the usual extras."""
    return vox_file(
        size(3, 3, 3), xyzi([(0, 0, 0, 1), (2, 2, 2, 2)]),
        size(2, 2, 2), xyzi([(1, 1, 1, 3), (0, 0, 0, 4)]),
        ntrn(0, 1, layer=-1), ngrp(1, [2, 4]),
        ntrn(2, 3, t="0 0 1"), nshp(3, 0),
        ntrn(4, 5, t="5 0 1"), nshp(5, 1),
        chunk(b"LAYR", i32(0) + dict_({"_name": "ground"}) + i32(-1)),
        rgba(random_palette()),
        chunk(b"MATL", i32(1) + dict_({"_type": "_metal", "_weight": "0.5", "_rough": "0.1"})),
        chunk(b"rOBJ", dict_({"_type": "_bloom", "_mix": "0.5"})),
    )


def assert_vox_error(data: bytes, *words: str, **kwargs) -> VoxError:
    with pytest.raises(VoxError) as info:
        read_vox(data, name=NAME, **kwargs)
    message = str(info.value)
    assert message.startswith(NAME + ": "), message
    for word in words:
        assert word in message, message
    return info.value


# -- writer and round trip ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("version", [150, 200])
def test_round_trip_through_a_file(tmp_path, version):
    rng = np.random.default_rng(7)
    voxels = rng.integers(1, 256, (6, 9, 11), dtype=np.uint8) * (rng.random((6, 9, 11)) < 0.3)
    voxels[:, :, -1] = 0                    # empty borders must survive: the grid size is the model SIZE
    palette = random_palette()
    path = tmp_path / "model.vox"
    write_vox(path, voxels, palette, version=version)
    model = read_vox(path)
    assert isinstance(model, VoxModel)
    assert model.size == (11, 9, 6)
    assert model.voxels.dtype == np.uint8 and model.voxels.flags.c_contiguous
    np.testing.assert_array_equal(model.voxels, voxels)
    np.testing.assert_array_equal(model.palette[1:], palette[1:])
    assert model.palette.shape == (256, 4) and model.palette.dtype == np.uint8


def test_round_trip_in_memory_default_palette():
    voxels = np.zeros((3, 4, 5), np.uint8)
    voxels[0, 0, 0] = 1
    voxels[2, 3, 4] = 255
    model = read_vox(vox_bytes(voxels))
    np.testing.assert_array_equal(model.voxels, voxels)
    np.testing.assert_array_equal(model.palette, DEFAULT_PALETTE)


def test_round_trip_of_a_full_256_cube_is_linear():
    """A full 256-cube (16.7 M voxels, the format's largest model; a 128-cube in `make test`) reads back equal, in
    time linear in the voxels: against a cube of half the side read in the same run (8 times fewer voxels) it takes
    well under the 64 times a quadratic reader would (the best of three each, a ratio and not a time: the machine is
    shared)."""
    rng = np.random.default_rng(3)
    side = sample(128, 256)
    voxels = rng.integers(0, 256, (side, side, side), dtype=np.uint8)
    small = voxels[:side // 2, :side // 2, :side // 2].copy()
    big_data, small_data = vox_bytes(voxels), vox_bytes(small)

    def best(data):
        times = []
        for _ in range(3):
            start = time.perf_counter()
            model = read_vox(data)
            times.append(time.perf_counter() - start)
        return min(times), model

    t_small, m_small = best(small_data)
    t_big, model = best(big_data)
    np.testing.assert_array_equal(model.voxels, voxels)
    np.testing.assert_array_equal(m_small.voxels, small)
    assert t_big / t_small < 24, (t_big, t_small)


def test_writer_version_layouts():
    voxels = np.ones((2, 2, 2), np.uint8)
    v200, v150 = vox_bytes(voxels), vox_bytes(voxels, version=150)
    assert v200[:8] == b"VOX " + i32(200) and v150[:8] == b"VOX " + i32(150)
    for cid in (b"nTRN", b"nGRP", b"nSHP"):
        assert cid in v200 and cid not in v150
    assert b"RGBA" in v200 and b"RGBA" in v150


def test_writer_rejects_bad_input(tmp_path):
    with pytest.raises(VoxError, match="257"):
        vox_bytes(np.zeros((1, 1, 257), np.uint8))
    with pytest.raises(ValueError):
        vox_bytes(np.zeros((2, 2), np.uint8))
    with pytest.raises(ValueError):
        vox_bytes(np.full((1, 1, 1), 300))
    with pytest.raises(ValueError):
        vox_bytes(np.ones((1, 1, 1), np.uint8), np.zeros((255, 4), np.uint8))
    with pytest.raises(ValueError):
        vox_bytes(np.ones((1, 1, 1), np.uint8), version=151)
    with pytest.raises(VoxError, match="cannot write"):
        write_vox(tmp_path / "missing" / "dir" / "x.vox", np.ones((1, 1, 1), np.uint8))


def test_default_palette_matches_the_spec():
    assert DEFAULT_PALETTE.shape == (256, 4) and DEFAULT_PALETTE.dtype == np.uint8
    assert DEFAULT_PALETTE[1].tolist() == [255, 255, 255, 255]        # 0xffffffff
    assert DEFAULT_PALETTE[2].tolist() == [255, 255, 204, 255]        # 0xffccffff: R, G, B, A bytes
    assert DEFAULT_PALETTE[255].tolist() == [17, 17, 17, 255]         # 0xff111111
    assert not DEFAULT_PALETTE.flags.writeable


# -- hand-assembled files ----------------------------------------------------------------------------------------

def test_version_150_without_scene_graph_uses_default_palette():
    data = vox_file(size(2, 3, 4), xyzi([(1, 2, 3, 9), (0, 0, 0, 1)]), version=150)
    model = read_vox(data)
    assert model.size == (2, 3, 4)
    assert model.voxels.shape == (4, 3, 2)
    assert model.voxels[3, 2, 1] == 9 and model.voxels[0, 0, 0] == 1
    assert np.count_nonzero(model.voxels) == 2
    np.testing.assert_array_equal(model.palette, DEFAULT_PALETTE)


def test_pack_chunk_two_models_share_the_origin_later_wins():
    data = vox_file(
        chunk(b"PACK", i32(2)),
        size(2, 2, 2), xyzi([(0, 0, 0, 5), (1, 1, 1, 6)]),
        size(3, 1, 1), xyzi([(0, 0, 0, 7), (2, 0, 0, 8)]),
        version=150,
    )
    model = read_vox(data)
    assert model.size == (3, 2, 2)
    assert model.voxels[0, 0, 0] == 7            # the second model overwrites the first
    assert model.voxels[1, 1, 1] == 6
    assert model.voxels[0, 0, 2] == 8


def test_unknown_chunks_are_skipped_with_their_children():
    junk = chunk(b"ZZZZ", b"\xff" * 13, chunk(b"XYZI", i32(99)) + chunk(b"SIZE", i32(-5, 0, 0)))
    data = vox_file(junk, size(1, 1, 1), chunk(b"NOTE", dict_({"a": "b"})), xyzi([(0, 0, 0, 3)]), junk,
                    version=150)
    model = read_vox(data)
    assert model.size == (1, 1, 1) and model.voxels[0, 0, 0] == 3


def test_two_models_placed_by_their_translations():
    model = read_vox(scene_two_models())
    # Model 0: 3^3 centred at (0, 0, 1), min corner (-1, -1, 0). Model 1: 2^3 at (5, 0, 1), min corner (4, -1, 0).
    # Combined box: (-1, -1, 0) .. (6, 2, 3), shifted to the origin.
    assert model.size == (7, 3, 3)
    assert model.voxels[0, 0, 0] == 1            # model 0 voxel (0, 0, 0)
    assert model.voxels[2, 2, 2] == 2            # model 0 voxel (2, 2, 2)
    assert model.voxels[1, 1, 6] == 3            # model 1 voxel (1, 1, 1) -> world (5, 0, 1) -> (6, 1, 1)
    assert model.voxels[0, 0, 5] == 4            # model 1 voxel (0, 0, 0) -> world (4, -1, 0) -> (5, 0, 0)
    assert np.count_nonzero(model.voxels) == 4
    np.testing.assert_array_equal(model.palette[1:], random_palette()[1:])


def test_translations_accumulate_down_nested_groups():
    data = vox_file(
        size(1, 1, 1), xyzi([(0, 0, 0, 1)]),
        size(1, 1, 1), xyzi([(0, 0, 0, 2)]),
        ntrn(0, 1), ngrp(1, [2, 6]),
        ntrn(2, 3, t="10 0 0"), ngrp(3, [4]), ntrn(4, 5, t="0 3 2"), nshp(5, 0),
        ntrn(6, 7, t="-1 0 0"), nshp(7, 1),
    )
    model = read_vox(data)
    # Model 0 at (10, 3, 2), model 1 at (-1, 0, 0).
    assert model.size == (12, 4, 3)
    assert model.voxels[2, 3, 11] == 1
    assert model.voxels[0, 0, 0] == 2


def test_scene_graph_leaves_out_models_no_shape_uses():
    data = vox_file(
        size(1, 1, 1), xyzi([(0, 0, 0, 1)]),
        size(4, 4, 4), xyzi([(3, 3, 3, 2)]),
        ntrn(0, 1), ngrp(1, [2]), ntrn(2, 3), nshp(3, 0),
    )
    model = read_vox(data)
    assert model.size == (1, 1, 1) and model.voxels[0, 0, 0] == 1


def test_rgba_chunk_maps_entry_i_to_colour_index_i_plus_1():
    entries = np.zeros((256, 4), np.uint8)
    entries[0] = (10, 20, 30, 255)               # file entry 0 -> colour index 1
    entries[254] = (1, 2, 3, 4)                  # file entry 254 -> colour index 255
    entries[255] = (9, 9, 9, 9)                  # no colour index
    data = vox_file(size(1, 1, 1), xyzi([(0, 0, 0, 1)]), chunk(b"RGBA", entries.tobytes()), version=150)
    model = read_vox(data)
    assert model.palette[1].tolist() == [10, 20, 30, 255]
    assert model.palette[255].tolist() == [1, 2, 3, 4]
    assert model.palette[0].tolist() == [0, 0, 0, 0]


def test_version_200_with_material_layer_and_render_chunks():
    data = vox_file(
        size(2, 2, 2), xyzi([(1, 0, 1, 4)]),
        ntrn(0, 1, layer=-1), ngrp(1, [2]), ntrn(2, 3, t="1 1 1"), nshp(3, 0),
        *[chunk(b"LAYR", i32(i) + dict_({"_name": f"L{i}", "_hidden": "0"}) + i32(-1)) for i in range(8)],
        rgba(DEFAULT_PALETTE),
        chunk(b"IMAP", bytes(range(256))),
        *[chunk(b"MATL", i32(i) + dict_({"_type": "_diffuse", "_ior": "0.3"})) for i in range(1, 256)],
        chunk(b"rOBJ", dict_({"_type": "_setting", "_ground": "1"})),
        chunk(b"rCAM", i32(0) + dict_({"_mode": "0", "_focus": "0 0 0"})),
        chunk(b"NOTE", i32(1) + string("hello")),
    )
    model = read_vox(data)
    assert model.size == (2, 2, 2) and model.voxels[1, 0, 1] == 4
    np.testing.assert_array_equal(model.palette, DEFAULT_PALETTE)


def test_other_versions_are_accepted_when_the_chunks_parse():
    model = read_vox(vox_file(size(1, 1, 1), xyzi([(0, 0, 0, 2)]), version=151))
    assert model.voxels[0, 0, 0] == 2


def test_colour_index_zero_in_xyzi_is_empty_and_erases_nothing():
    data = vox_file(size(1, 1, 1), xyzi([(0, 0, 0, 5)]), size(1, 1, 1), xyzi([(0, 0, 0, 0)]), version=150)
    assert read_vox(data).voxels[0, 0, 0] == 5


def _rotation_byte(rows: list[list[int]]) -> int:
    bits = 0
    for row, r in enumerate(rows):
        column = next(c for c in range(3) if r[c])
        if row < 2:
            bits |= column << (2 * row)
        if r[column] < 0:
            bits |= 1 << (4 + row)
    return bits


@pytest.mark.parametrize("rows", [
    [[1, 0, 0], [0, 1, 0], [0, 0, 1]],           # identity ("4")
    [[0, -1, 0], [1, 0, 0], [0, 0, 1]],          # 90 degrees about z
    [[-1, 0, 0], [0, -1, 0], [0, 0, 1]],         # 180 degrees about z
    [[0, 1, 0], [0, 0, -1], [-1, 0, 0]],         # the spec's example
    [[-1, 0, 0], [0, 1, 0], [0, 0, 1]],          # mirror in x
])
def test_rotations_are_applied_about_the_model_centre(rows):
    sx, sy, sz = 3, 4, 5
    rng = np.random.default_rng(11)
    local = rng.integers(1, 256, (sz, sy, sx), dtype=np.uint8)     # [z, y, x]
    points = [(x, y, z, int(local[z, y, x])) for z in range(sz) for y in range(sy) for x in range(sx)]
    r = _rotation_byte(rows)
    data = vox_file(size(sx, sy, sz), xyzi(points), ntrn(0, 1), ngrp(1, [2]),
                    ntrn(2, 3, t="7 -2 3", r=str(r)), nshp(3, 0))
    model = read_vox(data)

    # Reference: world = floor(R (i + 0.5 - floor(size / 2))) + t, per voxel, then shift to the minimum.
    R = np.array(rows)
    pivot = np.array([sx // 2, sy // 2, sz // 2])
    world = {}
    for x, y, z, c in points:
        w = np.floor(R @ (np.array([x, y, z]) + 0.5 - pivot)).astype(int) + np.array([7, -2, 3])
        world[tuple(w)] = c
    low = np.min(list(world), axis=0)
    high = np.max(list(world), axis=0) + 1
    assert model.size == tuple(int(v) for v in high - low)
    expected = np.zeros(tuple(int(v) for v in (high - low)[::-1]), np.uint8)
    for (wx, wy, wz), c in world.items():
        expected[wz - low[2], wy - low[1], wx - low[0]] = c
    np.testing.assert_array_equal(model.voxels, expected)
    if r == 4:
        np.testing.assert_array_equal(model.voxels, local)


def test_rotation_of_a_parent_turns_the_translation_of_its_child():
    # Parent: 90 degrees about z. Child translation (4, 0, 0) becomes (0, 4, 0).
    data = vox_file(
        size(1, 1, 1), xyzi([(0, 0, 0, 1)]), size(1, 1, 1), xyzi([(0, 0, 0, 2)]),
        ntrn(0, 1, r=str(_rotation_byte([[0, -1, 0], [1, 0, 0], [0, 0, 1]]))), ngrp(1, [2, 4]),
        ntrn(2, 3, t="4 0 0"), nshp(3, 0), ntrn(4, 5), nshp(5, 1),
    )
    model = read_vox(data)
    assert model.size == (1, 5, 1)
    assert model.voxels[0, 4, 0] == 1 and model.voxels[0, 0, 0] == 2


@pytest.mark.parametrize("r", ["0", "5", "15", "128", "-1", "x", ""])
def test_invalid_rotation(r):
    data = vox_file(size(1, 1, 1), xyzi([(0, 0, 0, 1)]), ntrn(0, 1), ngrp(1, [2]), ntrn(2, 3, r=r),
                    nshp(3, 0))
    assert_vox_error(data, "rotation")


@pytest.mark.parametrize("t", ["1 2", "1 2 3 4", "a b c", "1.5 0 0", "9" * 5000 + " 0 0"])
def test_unreadable_translation(t):
    data = vox_file(size(1, 1, 1), xyzi([(0, 0, 0, 1)]), ntrn(0, 1), ngrp(1, [2]), ntrn(2, 3, t=t),
                    nshp(3, 0))
    assert_vox_error(data, "translation")


# -- hostile files -----------------------------------------------------------------------------------------------

def test_missing_file_names_the_path(tmp_path):
    path = tmp_path / "nope.vox"
    with pytest.raises(VoxError) as info:
        read_vox(path)
    assert str(info.value).startswith(str(path) + ": ")


def test_error_names_the_path_by_default(tmp_path):
    path = tmp_path / "broken.vox"
    path.write_bytes(b"VOX " + i32(150))
    with pytest.raises(VoxError) as info:
        read_vox(str(path))
    assert str(info.value).startswith(str(path) + ": ")


def test_source_of_the_wrong_type():
    with pytest.raises(VoxError, match=f"^{NAME}: "):
        read_vox(12, name=NAME)


@pytest.mark.parametrize("data", [b"", b"VOX", b"VOX " + i32(150), b"VOX " + i32(150) + b"MAIN"])
def test_truncated_header(data):
    assert_vox_error(data)


def test_truncated_file():
    data = vox_bytes(np.ones((4, 4, 4), np.uint8))
    assert_vox_error(data[:-100], "past the end")


def test_wrong_magic():
    data = b"RIFF" + vox_bytes(np.ones((1, 1, 1), np.uint8))[4:]
    assert_vox_error(data, "not a MagicaVoxel file")


def test_first_chunk_is_not_main():
    assert_vox_error(b"VOX " + i32(150) + size(1, 1, 1), "MAIN")


def test_chunk_runs_past_its_parent():
    # The XYZI chunk claims more bytes than MAIN holds, although the file continues after MAIN.
    bad = size(1, 1, 1) + b"XYZI" + i32(100, 0) + i32(1) + bytes(4)
    data = b"VOX " + i32(150) + chunk(b"MAIN", b"", bad) + bytes(200)
    assert_vox_error(data, "'XYZI'", "past the end of MAIN")


def test_chunk_runs_past_the_file():
    data = b"VOX " + i32(150) + b"MAIN" + i32(0, 1_000_000) + size(1, 1, 1)
    assert_vox_error(data, "'MAIN'", "past the end of the file")


@pytest.mark.parametrize("sizes", [(-1, 0), (0, -12), (-2**31, -2**31)])
def test_negative_chunk_sizes(sizes):
    data = vox_file(size(1, 1, 1), b"XYZI" + i32(*sizes) + i32(1) + bytes(4))
    assert_vox_error(data, "negative size")


def test_negative_voxel_count():
    data = vox_file(size(1, 1, 1), chunk(b"XYZI", i32(-1) + bytes(4)))
    assert_vox_error(data, "XYZI chunk claims -1 voxels")


def test_voxel_count_larger_than_the_chunk():
    data = vox_file(size(4, 4, 4), chunk(b"XYZI", i32(1_000_000) + bytes(48)))
    error = assert_vox_error(data)
    assert str(error) == "maps/yard.vox: XYZI chunk claims 1000000 voxels but holds 12"


@pytest.mark.parametrize("voxel", [(4, 0, 0, 1), (0, 3, 0, 1), (0, 0, 2, 1), (255, 255, 255, 1)])
def test_voxel_outside_its_model(voxel):
    data = vox_file(size(4, 3, 2), xyzi([(0, 0, 0, 1), voxel]))
    assert_vox_error(data, "outside its model")


@pytest.mark.parametrize("dims", [(0, 1, 1), (1, 0, 1), (1, 1, 0), (-3, 1, 1)])
def test_empty_or_negative_model_size(dims):
    data = vox_file(size(*dims), xyzi([]))
    assert_vox_error(data, "model size")


def test_model_over_the_side_cap():
    data = vox_file(size(1025, 1, 1), xyzi([]))
    assert_vox_error(data, "model size 1025x1x1", "1024 per axis")
    data = vox_file(size(100, 1, 1), xyzi([]))
    assert_vox_error(data, "model size 100x1x1", max_side=64)


def test_model_over_the_voxel_cap():
    data = vox_file(size(10, 10, 10), xyzi([]))
    assert_vox_error(data, "10x10x10", "999 voxels", max_voxels=999)


def test_size_chunk_too_short():
    data = vox_file(chunk(b"SIZE", i32(1, 1)), xyzi([]))
    assert_vox_error(data, "SIZE chunk is too short")


def test_huge_size_is_refused_quickly_without_allocating():
    data = vox_file(size(100_000, 100_000, 100_000), xyzi([(0, 0, 0, 1)]))
    tracemalloc.start()
    try:
        assert_vox_error(data, "100000x100000x100000")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20               # refused before any grid is allocated (a memory bound, not a time)


def test_combined_grid_over_the_caps_is_refused_before_allocating():
    # Two small models, far apart: each is fine, the grid that holds both is not.
    data = vox_file(
        size(1, 1, 1), xyzi([(0, 0, 0, 1)]), size(1, 1, 1), xyzi([(0, 0, 0, 1)]),
        ntrn(0, 1), ngrp(1, [2, 4]), ntrn(2, 3, t="0 0 0"), nshp(3, 0),
        ntrn(4, 5, t="1000000000 1000000000 1000000000"), nshp(5, 1),
    )
    tracemalloc.start()
    try:
        assert_vox_error(data, "combined grid", "per axis")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20
    data = vox_file(
        size(100, 100, 1), xyzi([]), size(100, 100, 1), xyzi([]),
        ntrn(0, 1), ngrp(1, [2, 4]), ntrn(2, 3, t="0 0 0"), nshp(3, 0), ntrn(4, 5, t="0 0 9"), nshp(5, 1),
    )
    assert_vox_error(data, "combined grid 100x100x10", "voxels", max_voxels=50_000)


def test_many_shapes_of_one_big_model_are_refused_before_placing(monkeypatch):
    points = [(x, y, z, 1) for z in range(10) for y in range(10) for x in range(10)]
    shapes = 2_000
    chunks = [size(10, 10, 10), xyzi(points), ntrn(0, 1), ngrp(1, [2 * i + 2 for i in range(shapes)])]
    for i in range(shapes):
        chunks += [ntrn(2 * i + 2, 2 * i + 3, t=f"0 0 {i % 50}"), nshp(2 * i + 3, 0)]
    def no_grid(*a, **k):               # the refusal comes before any grid is allocated, let alone written
        raise AssertionError("a grid was allocated before the placements were counted")

    monkeypatch.setattr(vox.np, "zeros", no_grid)
    assert_vox_error(vox_file(*chunks), "places 2000000 voxels", max_voxels=100_000)


def test_xyzi_without_size():
    assert_vox_error(vox_file(xyzi([(0, 0, 0, 1)])), "no SIZE")


def test_size_without_xyzi():
    assert_vox_error(vox_file(size(1, 1, 1)), "no XYZI")
    assert_vox_error(vox_file(size(1, 1, 1), size(1, 1, 1), xyzi([])), "no XYZI")


def test_no_models():
    assert_vox_error(vox_file(rgba(DEFAULT_PALETTE)), "no models")
    assert_vox_error(b"VOX " + i32(150) + chunk(b"MAIN"), "no models")


def test_rgba_chunk_too_short():
    data = vox_file(size(1, 1, 1), xyzi([]), chunk(b"RGBA", bytes(1000)))
    assert_vox_error(data, "RGBA")


def test_deeply_nested_chunk_tree():
    nested = b""
    for _ in range(20_000):
        nested = chunk(b"DEEP", b"", nested)
    assert_vox_error(vox_file(nested), "no models")
    model = read_vox(vox_file(nested, size(1, 1, 1), xyzi([(0, 0, 0, 1)]), nested))
    assert model.voxels[0, 0, 0] == 1      # 20,000 levels deep: walked without recursion, no RecursionError


def test_too_many_chunks(monkeypatch):
    monkeypatch.setattr(vox, "_MAX_CHUNKS", 100)
    data = vox_file(*[chunk(b"JUNK")] * 101, size(1, 1, 1), xyzi([]))
    assert_vox_error(data, "more than 100 chunks")


def test_dict_string_with_an_absurd_length():
    bad_dict = i32(1) + i32(2**31 - 1) + b"_t"
    data = vox_file(size(1, 1, 1), xyzi([]), chunk(b"nTRN", i32(0) + bad_dict + i32(1, -1, 0, 1) + dict_()))
    assert_vox_error(data, "string of 2147483647 bytes")
    bad_dict = i32(1) + string("_name") + i32(-5)
    data = vox_file(size(1, 1, 1), xyzi([]), chunk(b"nGRP", i32(1) + bad_dict + i32(0)))
    assert_vox_error(data, "string of -5 bytes")


def test_dict_with_an_absurd_count():
    data = vox_file(size(1, 1, 1), xyzi([]), chunk(b"nSHP", i32(0) + i32(2**31 - 1) + bytes(64)))
    assert_vox_error(data, "dictionary entries")
    data = vox_file(size(1, 1, 1), xyzi([]), chunk(b"nSHP", i32(0) + i32(10_000) + bytes(80_000)))
    assert_vox_error(data, "dictionary of 10000 entries")


def test_group_with_an_absurd_child_count():
    data = vox_file(size(1, 1, 1), xyzi([]), chunk(b"nGRP", i32(0) + dict_() + i32(2**30)))
    assert_vox_error(data, "nGRP chunk claims 1073741824 children")
    data = vox_file(size(1, 1, 1), xyzi([]), ntrn(0, 1), chunk(b"nGRP", i32(1) + dict_() + i32(-3)))
    assert_vox_error(data, "negative children")


def test_transform_chunk_too_short():
    data = vox_file(size(1, 1, 1), xyzi([]), chunk(b"nTRN", i32(0) + dict_() + i32(1)))
    assert_vox_error(data, "nTRN chunk is too short")


def test_scene_graph_cycle():
    data = vox_file(size(1, 1, 1), xyzi([(0, 0, 0, 1)]), ntrn(0, 1), ngrp(1, [2]), ntrn(2, 0))
    assert_vox_error(data, "twice")


def test_scene_graph_shared_nodes_cannot_blow_up():
    # A chain of groups whose two children are the same node: 2^40 paths if followed naively.
    chunks = [size(1, 1, 1), xyzi([(0, 0, 0, 1)]), ntrn(0, 1)]
    chunks += [ngrp(i, [i + 1, i + 1]) for i in range(1, 41)]
    chunks += [nshp(41, 0)]
    assert_vox_error(vox_file(*chunks), "twice")


def test_scene_graph_long_chain_does_not_recurse():
    n = 20_000
    chunks = [size(1, 1, 1), xyzi([(0, 0, 0, 1)])]
    chunks += [ntrn(i, i + 1, t="1 0 0") for i in range(n)] + [nshp(n, 0)]
    model = read_vox(vox_file(*chunks))
    assert model.size == (1, 1, 1) and model.voxels[0, 0, 0] == 1


def test_scene_graph_missing_node():
    data = vox_file(size(1, 1, 1), xyzi([]), ntrn(0, 1), ngrp(1, [2, 77]), ntrn(2, 3), nshp(3, 0))
    assert_vox_error(data, "missing node 77")


def test_scene_graph_without_root():
    data = vox_file(size(1, 1, 1), xyzi([]), ntrn(5, 6), nshp(6, 0))
    assert_vox_error(data, "root")


def test_scene_graph_reused_node_id():
    data = vox_file(size(1, 1, 1), xyzi([]), ntrn(0, 1), ngrp(1, [2]), ntrn(2, 3), nshp(3, 0), nshp(3, 0))
    assert_vox_error(data, "reuses scene node id 3")


def test_shape_uses_a_missing_model():
    data = vox_file(size(1, 1, 1), xyzi([]), ntrn(0, 1), ngrp(1, [2]), ntrn(2, 3), nshp(3, 4))
    assert_vox_error(data, "model 4")


def test_scene_graph_places_nothing():
    data = vox_file(size(1, 1, 1), xyzi([]), ntrn(0, 1), ngrp(1, []))
    assert_vox_error(data, "places no models")


# -- fuzzing -----------------------------------------------------------------------------------------------------

def _read_or_vox_error(data: bytes) -> None:
    try:
        model = read_vox(data, name=NAME)
    except VoxError as e:
        assert str(e).startswith(NAME + ": "), str(e)
    else:
        assert model.voxels.dtype == np.uint8 and model.voxels.ndim == 3
        assert model.palette.shape == (256, 4)


def test_fuzz_truncations_and_mutations():
    base = scene_two_models()
    for cut in range(len(base)):
        _read_or_vox_error(base[:cut])
    rng = random.Random(1234)
    extremes = [0, 1, 0x7F, 0x80, 0xFF]
    for _ in range(4000):
        data = bytearray(base)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(data))
            kind = rng.random()
            if kind < 0.5:
                data[at] ^= 1 << rng.randrange(8)
            elif kind < 0.8:
                data[at] = rng.choice(extremes)
            else:                                # an extreme int32, e.g. in a size or count field
                data[at:at + 4] = struct.pack("<i", rng.choice([-1, -2**31, 2**31 - 1, 2**20, 256]))
        if rng.random() < 0.2:
            data = data[:rng.randrange(len(data))]
        _read_or_vox_error(bytes(data))
