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
    (tmp_path / "chars.toml").write_text('[characters.Goblin]\nkind = "goblin"\n')
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
