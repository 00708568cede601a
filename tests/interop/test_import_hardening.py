"""aerie import, second hostile sweep: all or nothing (every output checked before any is written, a failed
rename puts back what was there), no output onto an input, file names over 255 bytes, hostile numbers in Foundry
tiles, drawings, grids and elevations, many walls, large palette images. Each is one line naming the file (and
the key), exit 2, the inputs and any old outputs byte for byte as they were."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
from pathlib import Path

import pytest
from PIL import Image

from test_interop import foundry_scene, map_image, uvtt

pytestmark = pytest.mark.unit

KEEP = map_image(1000, 800, "WEBP")


def _run(*argv) -> tuple[int, list[str]]:
    """``aerie import ARGV`` in this process: (exit status, stderr lines that are not warnings)."""
    from engine.cli import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = main(["import", *map(str, argv)])
    assert "Traceback" not in err.getvalue(), err.getvalue()
    return rc, [ln for ln in err.getvalue().splitlines() if not ln.startswith("warning: ")]


def _digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.md5(p.read_bytes()).hexdigest() if p.is_file() else "folder"
            for p in sorted(folder.iterdir())}


def _refused(tmp: Path, *argv, says=()) -> str:
    """Exit 2, one line holding each of ``says``, and the folder exactly as it was (no file new or changed)."""
    before = _digests(tmp)
    rc, lines = _run(*argv)
    assert rc == 2 and len(lines) == 1, (rc, lines)
    for s in says:
        assert s in lines[0], lines[0]
    assert _digests(tmp) == before
    return lines[0]


def _write(tmp: Path, name: str, doc) -> Path:
    p = tmp / name
    p.write_text(json.dumps(doc, allow_nan=True))
    return p


# --- 1: all or nothing --------------------------------------------------------------------------------------------
def test_a_folder_where_the_scene_goes_leaves_the_old_image_alone(tmp_path):
    """The image used to be renamed into place before the scene's rename failed (the scene name a folder)."""
    (tmp_path / "keep.webp").write_bytes(KEEP)
    src = _write(tmp_path, "m.json", foundry_scene())
    (tmp_path / "scene.toml").mkdir()
    (tmp_path / "scene.map.webp").write_bytes(b"OLD IMAGE")
    _refused(tmp_path, src, "-o", tmp_path / "scene.toml", says=("scene.toml is a folder",))


def test_a_failed_rename_puts_back_the_files_already_replaced(tmp_path, monkeypatch):
    """The last step (the scene's rename) fails: the image renamed before it is put back, no temporary is left."""
    import engine.interop.build as build

    (tmp_path / "keep.webp").write_bytes(KEEP)
    src = _write(tmp_path, "m.json", foundry_scene())
    (tmp_path / "scene.toml").write_text("OLD SCENE\n")
    (tmp_path / "scene.map.webp").write_bytes(b"OLD IMAGE")
    real = os.replace

    def replace(a, b):
        if str(b).endswith("scene.toml"):
            raise OSError(28, "No space left on device")
        return real(a, b)

    monkeypatch.setattr(build.os, "replace", replace)
    _refused(tmp_path, src, "-o", tmp_path / "scene.toml", says=("cannot write: No space left on device",))


def test_a_whole_import_still_replaces_both(tmp_path):
    (tmp_path / "keep.webp").write_bytes(KEEP)
    src = _write(tmp_path, "m.json", foundry_scene())
    (tmp_path / "scene.toml").write_text("OLD SCENE\n")
    (tmp_path / "scene.map.webp").write_bytes(b"OLD IMAGE")
    assert _run(src, "-o", tmp_path / "scene.toml") == (0, [])
    assert (tmp_path / "scene.map.webp").read_bytes() == KEEP
    assert (tmp_path / "scene.toml").read_text().startswith("# Imported by")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.webp", "m.json", "scene.map.webp", "scene.toml"]


# --- 2: no output onto an input -----------------------------------------------------------------------------------
def test_the_scene_onto_the_map_file(tmp_path):
    (tmp_path / "keep.webp").write_bytes(KEEP)
    src = _write(tmp_path, "m.toml", foundry_scene())           # a Foundry scene saved under a .toml name
    _refused(tmp_path, src, "-o", src, says=("-o ", "would overwrite the map file", "an input of this import"))


def test_the_ground_image_onto_the_background_it_was_read_from(tmp_path):
    Image.new("RGB", (100, 80), (10, 200, 10)).save(tmp_path / "s.map.png")
    d = foundry_scene()
    d["background"]["src"] = "s.map.png"
    src = _write(tmp_path, "m.json", d)
    _refused(tmp_path, src, "-o", tmp_path / "s.toml", says=("m.json: background.src", "an input of this import"))


def test_the_composed_ground_onto_a_tile_image(tmp_path):
    """The ground composed of tiles is a new PNG: it would have replaced the tile's own image."""
    Image.new("RGB", (100, 80), (10, 200, 10)).save(tmp_path / "t.map.png")
    d = foundry_scene()
    del d["background"]
    d["tiles"] = [{"x": 300, "y": 200, "width": 1000, "height": 800, "img": "t.map.png"}]
    src = _write(tmp_path, "m.json", d)
    _refused(tmp_path, src, "-o", tmp_path / "t.toml", says=("m.json: tiles[0].img", "an input of this import"))


def test_the_uvtt_image_onto_the_image_flag(tmp_path):
    src = _write(tmp_path, "u.dd2vtt", uvtt())
    (tmp_path / "u.map.png").write_bytes(map_image(200, 200))
    _refused(tmp_path, src, "--image", tmp_path / "u.map.png", "-o", tmp_path / "u.toml",
             says=("would overwrite --image",))


def test_the_uvtt_embedded_image_onto_the_map_file_itself(tmp_path):
    """A UVTT map saved as u.map.png (read by content): its embedded PNG would be written over it."""
    src = _write(tmp_path, "u.map.png", uvtt())
    _refused(tmp_path, src, "-o", tmp_path / "u.toml", says=("would overwrite the map file",))


def test_the_scene_onto_the_characters_file(tmp_path):
    (tmp_path / "keep.webp").write_bytes(KEEP)
    src = _write(tmp_path, "m.json", foundry_scene())
    (tmp_path / "chars.toml").write_text('[characters.Guard]\nkind = "guard"\n')
    _refused(tmp_path, src, "--characters", tmp_path / "chars.toml", "-o", tmp_path / "chars.toml",
             says=("would overwrite --characters",))


def test_the_scene_onto_a_link_to_the_map(tmp_path):
    (tmp_path / "keep.webp").write_bytes(KEEP)
    src = _write(tmp_path, "m.json", foundry_scene())
    (tmp_path / "link.toml").symlink_to("m.json")
    _refused(tmp_path, src, "-o", tmp_path / "link.toml", says=("would overwrite the map file",))


# --- 4: names over 255 bytes --------------------------------------------------------------------------------------
LONG = "a" * 300


@pytest.mark.parametrize("where, says", [
    ("o", ("-o ", "the scene would have a file name of 305 bytes")),
    ("stem", ("-o ", "the image it writes beside the scene", "259 bytes")),
    ("folder", ("-o ", "the folder", "File name too long")),
    ("map", ("cannot read: File name too long",)),
    ("image", ("--image ", "File name too long")),
    ("background", ("m.json: background.src: the image path", "File name too long")),
])
def test_a_name_over_255_bytes(tmp_path, monkeypatch, where, says):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "keep.webp").write_bytes(KEEP)
    d = foundry_scene()
    if where == "background":
        d["background"]["src"] = LONG + ".webp"
    _write(tmp_path, "m.json", d)
    argv = {"o": ["m.json", "-o", LONG + ".toml"], "stem": ["m.json", "-o", "b" * 250 + ".toml"],
            "folder": ["m.json", "-o", LONG + "/x.toml"], "map": [LONG + ".json", "-o", "x.toml"],
            "image": ["m.json", "--image", LONG + ".png", "-o", "x.toml"],
            "background": ["m.json", "-o", "x.toml"]}[where]
    _refused(tmp_path, *argv, says=says)


# --- 3: hostile numbers in a Foundry scene ------------------------------------------------------------------------
def _tiled(**tile) -> dict:
    d = foundry_scene()
    del d["background"]
    d["tiles"] = [dict({"x": 300, "y": 200, "width": 1000, "height": 800, "img": "keep.webp"}, **tile)]
    return d


def _drawn(**drawing) -> dict:
    d = foundry_scene()
    d["drawings"] = [dict({"x": 500, "y": 400, "width": 200, "height": 100,
                           "flags": {"levels": {"drawingMode": 1, "rangeBottom": 10, "rangeTop": 20}}}, **drawing)]
    return d


def _with(path, value, doc=None):
    d = doc or foundry_scene()
    *head, last = path
    o = d
    for k in head:
        o = o[k]
    o[last] = value
    return d


HUGE = [
    (_tiled(x=1e308), "tiles[0].x: the tile's edge at 1e+308 px is far outside the canvas"),
    (_tiled(y=-1e308), "tiles[0].y: the tile's edge at -1e+308 px"),
    (_tiled(width=1e308), "tiles[0].width: the tile's far edge"),
    (_tiled(height=1e308), "tiles[0].height: the tile's far edge"),
    (_tiled(width=-5), "tiles[0].width: -5 must be above 0"),
    (_tiled(elevation=float("inf")), "tiles[0].elevation: inf is not a number"),
    (_tiled(elevation=float("nan")), "tiles[0].elevation: nan is not a number"),
    (_tiled(elevation=-1e308), "tiles[0].elevation: -3e+307 m is below the deepest basement"),
    (_tiled(flags={"levels": {"rangeBottom": -1e308}}), "tiles[0].flags.levels.rangeBottom: -3e+307 m is below"),
    (_drawn(x=-1e308), "drawings[0].x: the drawing's edge at -1e+308 px"),
    (_drawn(width=1e308), "drawings[0].width: the drawing's edge at 1e+308 px"),
    (_with(("grid", "size"), 1e-300, _drawn()), "width: the map is 1e+303 x 8e+302 cells, over the cap of 1024"),
    (_with(("grid", "size"), 0.001, _drawn()), "width: the map is 1e+06 x 800000 cells, over the cap of 1024"),
    (_with(("grid",), 1, _with(("width",), 1e6)), "width: the map is 1e+06 x 800 cells"),
    (_with(("grid",), 0), "grid: 0 must be above 0"),
    (_with(("width",), 1e308), "width: the map is 1e+306 x 8 cells"),
    (_with(("walls", 0, "flags"), {"wall-height": {"bottom": -1e308}}),
     'walls[0].flags["wall-height"].bottom: -3e+307 m is below the deepest basement'),
    (_with(("walls", 0, "c"), [1e308, 1e308, -1e308, 0]), "walls[0].c: point (1e+308, 1e+308) px is outside the canvas"),
    (_with(("tokens", 0, "elevation"), -1e308), "tokens[0].elevation: -3e+307 m is below the deepest basement"),
    (_with(("grid", "distance"), 0.001, _with(("tokens", 0, "elevation"), 1e308)),
     "tokens[0].elevation: inf m is out of range"),
]


@pytest.mark.parametrize("doc, says", HUGE, ids=[s.split(":")[0] + f"-{i}" for i, (_, s) in enumerate(HUGE)])
def test_a_hostile_number_is_one_line_naming_its_key(tmp_path, doc, says):
    (tmp_path / "keep.webp").write_bytes(KEEP)
    src = _write(tmp_path, "scene.json", doc)
    _refused(tmp_path, src, "-o", tmp_path / "out.toml", says=(f"scene.json: {says}",))


def test_a_tile_partly_off_the_scene_is_cut_not_scaled_whole(tmp_path):
    """A tile twice the scene's size, half of it beyond the canvas: imported; the part shown is its image's."""
    Image.new("RGB", (400, 400), (200, 20, 20)).save(tmp_path / "red.png")
    d = _tiled(x=-700, y=-600, width=2000, height=1600, img="red.png")
    src = _write(tmp_path, "scene.json", d)
    assert _run(src, "-o", tmp_path / "out.toml") == (0, [])
    with Image.open(tmp_path / "out.map.png") as im:
        assert im.convert("RGB").getpixel((500, 400)) == (200, 20, 20)


# --- 6: large images: the header checked before decoding, no whole-size RGBA copies -------------------------------
def _palette_bomb(w: int, h: int) -> bytes:
    """A 1-bit palette PNG of w x h pixels, all one colour: a few KB that decode to w x h bytes."""
    import struct
    import zlib

    def chunk(t, data):
        return struct.pack(">I", len(data)) + t + data + struct.pack(">I", zlib.crc32(t + data) & 0xFFFFFFFF)

    z = zlib.compressobj(9)
    row = b"\x00" * (1 + (w + 7) // 8)
    idat = b"".join(z.compress(row) for _ in range(h)) + z.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 1, 3, 0, 0, 0))
            + chunk(b"PLTE", b"\x50\x90\x30\xff\xff\xff") + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def test_an_image_over_the_pixel_cap_is_refused_from_its_header(tmp_path):
    d = uvtt()
    d["image"] = "bomb.png"
    (tmp_path / "bomb.png").write_bytes(_palette_bomb(16384, 16384))      # 32 KB, 268 Mpx
    src = _write(tmp_path, "u.dd2vtt", d)
    _refused(tmp_path, src, "-o", tmp_path / "u.toml",
             says=("u.dd2vtt: image: the image is 16384 x 16384 pixels, over the cap",))


def test_a_large_palette_tile_under_the_cap_stays_within_memory(tmp_path):
    """12000 x 12000 px (144 Mpx, 20 KB) as a tile: converted whole to RGBA it took 1.4 GB; now it is thinned in
    its own mode first. Run under a 900 MiB address-space limit; Pillow's two-line bomb warning is not printed."""
    import resource
    import subprocess
    import sys

    (tmp_path / "bomb.png").write_bytes(_palette_bomb(12000, 12000))
    src = _write(tmp_path, "scene.json", _tiled(img="bomb.png"))

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (900 * 2**20, 900 * 2**20))

    r = subprocess.run([sys.executable, "-m", "engine", "import", str(src), "-o", str(tmp_path / "out.toml")],
                       capture_output=True, text=True, timeout=120, preexec_fn=limit,
                       cwd=Path(__file__).resolve().parents[2])
    assert r.returncode == 0 and r.stderr == "", r.stderr[-2000:]
    with Image.open(tmp_path / "out.map.png") as im:
        assert im.convert("RGB").getpixel((500, 400)) == (0x50, 0x90, 0x30)


# --- 5: many walls ------------------------------------------------------------------------------------------------
def _many_walls(n: int, size: int, length: float, seed: int = 1) -> dict:
    import random

    r = random.Random(seed)
    d = uvtt()
    d["resolution"]["map_size"] = {"x": size, "y": size}
    d["image"], d["portals"], d["objects_line_of_sight"] = "", [], []
    lines = []
    for _ in range(n):
        x, y = r.uniform(0, size - length), r.uniform(0, size - length)
        lines.append([{"x": x, "y": y}, {"x": x + length * r.random(), "y": y + length * r.random()}])
    d["line_of_sight"] = lines
    return d


def test_many_short_walls_cost_their_cells_not_the_map(tmp_path, monkeypatch):
    """20,000 short walls on a 512 x 512 map: each wall's work is the cells along it, not the map (it was a
    full-map mask a wall: 7.3 s to rasterise before, 0.13 s after, one run on the development machine). Counted, not
    timed: the cells of every mask dilated stay within a few cells a wall."""
    import engine.interop.build as build
    from engine.interop.commands import read_map

    seen = []
    real = build.dilate
    monkeypatch.setattr(build, "dilate", lambda mask, t: seen.append(mask.size) or real(mask, t))
    m = read_map(_write(tmp_path, "many.dd2vtt", _many_walls(20_000, 512, 2.0)), want_image=False)
    vox = build.rasterise(m, build.Options())[0]
    assert vox.any()
    assert sum(seen) < 20_000 * 64           # a full-map mask a wall: 20,000 x 262,144 cells


@pytest.mark.parametrize("thickness", [1, 2, 3, 6, 64])
def test_wall_cells_are_the_dilated_mask(thickness):
    """The cheap way (cells along the wall, grown in a box or by offsets) fills exactly what dilating a
    full-map mask did."""
    import random

    import numpy as np

    from engine.interop.build import wall_cells
    from engine.interop.raster import dilate, segment_cells

    r = random.Random(thickness)
    for _ in range(60):
        X, Y = r.randint(1, 90), r.randint(1, 90)
        a, b = (r.uniform(0, X), r.uniform(0, Y)), (r.uniform(0, X), r.uniform(0, Y))
        cells = segment_cells(a, b, X, Y)
        mask = np.zeros((Y, X), bool)
        for cx, cy in cells:
            mask[cy, cx] = True
        got = np.zeros((Y, X), bool)
        ys, xs = wall_cells(cells, X, Y, thickness)
        got[ys, xs] = True
        assert np.array_equal(got, dilate(mask, thickness)), (X, Y, a, b)


def test_walls_crossing_too_many_cells_are_refused_by_the_wall(tmp_path, monkeypatch):
    import engine.interop.build as build

    monkeypatch.setattr(build, "MAX_WALL_CELLS", 5_000)        # the real cap is 16 Mi cells: 68 MB of JSON
    src = _write(tmp_path, "many.dd2vtt", _many_walls(2_000, 100, 20.0))
    line = _refused(tmp_path, src, "-o", tmp_path / "out.toml",
                    says=("many.dd2vtt: line_of_sight[", "cells, over the cap of 5,000 cells of walls"))
    assert "2,000 wall segments" in line
