"""Bad scene files and bad arguments: one clear line naming the file and the key path, exit 2, no traceback."""

import struct

import numpy as np
import pytest

from engine.world.vox import vox_bytes

pytestmark = pytest.mark.unit

BASE = '''name = "t"
ruleset = "dnd5e"
[map]
size = [20, 12, 10]
[[map.fill]]
material = "stone"
from = [8, 0, 0]
to = [8, 11, 2]
'''

ARCHER = '''[[characters]]
id = "archer"
side = "red"
at = [2, 5, 0]
'''


def check(aerie, tmp_path, text, name="bad.toml", extra_files=None):
    d = tmp_path / "scenes"
    d.mkdir(exist_ok=True)
    for rel, data in (extra_files or {}).items():
        p = d / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    f = d / name
    f.write_text(text) if isinstance(text, str) else f.write_bytes(text)
    r = aerie("check", f, cwd=tmp_path)
    return r


def assert_one_line_error(r, *needles):
    assert r.returncode == 2, (r.stdout, r.stderr)
    err = r.stderr.strip()
    assert "Traceback" not in r.stderr and len(err.splitlines()) == 1, r.stderr
    assert "scenes/bad.toml" in err, err
    for n in needles:
        assert n in err, err


CASES = {
    "wrong type in a vector": (BASE + ARCHER.replace("[2, 5, 0]", '["a", 5, 0]'), ["characters[0].at[0]", "int"]),
    "wrong type of a stat": (BASE + ARCHER + "ac = \"high\"\n", ["characters[0].ac"]),
    "unknown top-level key": ("colour = 3\n" + BASE, ["colour", "unknown key"]),
    "unknown map key": (BASE.replace("cell_m", "x") + "\n[map.extra]\n", ["map.extra", "unknown key"]),
    "unknown character key": (BASE + ARCHER + "speeed = 9\n", ["characters[0].speeed", "unknown key"]),
    "missing required key": (BASE + '[[characters]]\nside = "red"\nat = [1, 1, 0]\n', ["characters[0].id", "missing"]),
    "fill outside the map": (BASE.replace("to = [8, 11, 2]", "to = [8, 12, 2]"), ["map.fill[0].to", "y 12"]),
    "unknown material": (BASE.replace('material = "stone"', 'material = "cheese"'), ["map.fill[0].material", "cheese"]),
    "character outside the map": (BASE + ARCHER.replace("[2, 5, 0]", "[25, 5, 0]"), ["characters[0].at", "x 25"]),
    "layer above the map": (BASE + ARCHER + ARCHER.replace('"archer"', '"b"').replace("[2, 5, 0]", "[1, 1, 14]")
                            .replace('at = [1, 1, 14]', 'at = [1, 1, 14]\nflying = true'),
                            ["characters[1].at: layer 14 is above the map's 10 layers"]),
    "character inside a wall": (BASE + ARCHER.replace("[2, 5, 0]", "[8, 5, 1]"), ["characters[0].at", "inside solid stone"]),
    "non-flyer standing on nothing": (BASE + ARCHER.replace("[2, 5, 0]", "[2, 5, 4]"), ["characters[0].at", "not flying"]),
    "duplicate ids": (BASE + ARCHER + ARCHER.replace("[2, 5, 0]", "[3, 5, 0]"), ["characters[1].id", "duplicate"]),
    "map over the size cap": (BASE.replace("[20, 12, 10]", "[100000, 100000, 1000]"), ["map.size", "cap"]),
    "too many voxels": (BASE.replace("[20, 12, 10]", "[1024, 1024, 256]"), ["map.size", "cap"]),
    "zero size": (BASE.replace("[20, 12, 10]", "[0, 12, 10]"), ["map.size"]),
    "bad cell size": (BASE.replace("[map]", "[map]\ncell_m = -1"), ["map.cell_m"]),
    "unsupported version": ("version = 99\n" + BASE, ["version", "99"]),
    "unknown ruleset": (BASE.replace('"dnd5e"', '"chess"'), ["ruleset"]),
    "TOML syntax": (BASE + "[[characters]\n", ["TOML syntax error", "line"]),
    "escape through ..": (BASE.replace("[map]", '[map]\nvox = "../secret.vox"'), ["map.vox", "leaves the scene's folder"]),
    "absolute asset path": (BASE.replace("[map]", '[map]\nvox = "/etc/passwd"'), ["map.vox", "relative"]),
    "escape the assets folder": (BASE.replace("[map]", '[map]\nvox = "@assets/../../etc/x.vox"'), ["map.vox", "leaves"]),
    "missing vox": (BASE.replace("[map]", '[map]\nvox = "maps/none.vox"'), ["map.vox", "does not exist"]),
    "bad colour": (BASE + '[materials.moss]\ncolor = "green"\n', ["materials.moss.color"]),
    "bad terrain kind": (BASE + '[materials.moss]\ncolor = "#00ff00"\nterrain = "lava"\n', ["materials.moss.terrain"]),
    "unknown initiative_starts": (BASE + 'initiative_starts = "nobody"\n' + ARCHER, ["initiative_starts"]),
    # a voxel is one byte: more materials than 255 could not be stored (a fill of the 300th overflowed uint8)
    "too many materials": (BASE + "".join(f'[materials.m{i}]\ncolor = "#102030"\n' for i in range(300))
                           + '[[map.fill]]\nmaterial = "m299"\nfrom = [0, 0, 0]\nto = [1, 1, 0]\n',
                           ["materials", "at most 255"]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_scene(aerie, tmp_path, case):
    text, needles = CASES[case]
    if case == "unknown initiative_starts":
        text = text.replace('initiative_starts = "nobody"\n', "")
        text = 'initiative_starts = "nobody"\n' + text
    r = check(aerie, tmp_path, text)
    assert_one_line_error(r, *needles)


def test_not_utf8(aerie, tmp_path):
    r = check(aerie, tmp_path, b"name = \"\xff\xfe\"\n")
    assert_one_line_error(r, "UTF-8")


def test_missing_scene_file(aerie, tmp_path):
    r = aerie("check", "scenes/nothing_here.toml", cwd=tmp_path)
    assert r.returncode == 2 and "no such scene file" in r.stderr and "Traceback" not in r.stderr


def _vox_scene(vox_rel):
    return BASE.replace("[map]", f'[map]\nvox = "{vox_rel}"')


def test_truncated_vox(aerie, tmp_path):
    vox = np.zeros((4, 6, 5), dtype=np.uint8)
    vox[0, 1, 1] = 3
    data = vox_bytes(vox)
    r = check(aerie, tmp_path, _vox_scene("maps/yard.vox"), extra_files={"maps/yard.vox": data[: len(data) // 2]})
    assert_one_line_error(r, "map.vox", "yard.vox")


def test_hostile_vox_huge_size(aerie, tmp_path):
    def chunk(cid, content, children=b""):
        return cid + struct.pack("<ii", len(content), len(children)) + content + children
    body = chunk(b"SIZE", struct.pack("<iii", 100000, 100000, 100000)) + chunk(b"XYZI", struct.pack("<i", 0))
    data = b"VOX " + struct.pack("<i", 150) + chunk(b"MAIN", b"", body)
    r = check(aerie, tmp_path, _vox_scene("maps/huge.vox"), extra_files={"maps/huge.vox": data})
    assert_one_line_error(r, "map.vox", "huge.vox")


def test_vox_larger_than_the_map(aerie, tmp_path):
    vox = np.ones((4, 30, 5), dtype=np.uint8)
    r = check(aerie, tmp_path, _vox_scene("maps/big.vox"), extra_files={"maps/big.vox": vox_bytes(vox)})
    assert_one_line_error(r, "map.vox", "do not fit")


def test_vox_map_loads_with_colour_mapping(tmp_path):
    from engine.scene import load_scene

    vox = np.zeros((3, 12, 20), dtype=np.uint8)    # [z, y, x]
    vox[0:2, :, 4] = 7                              # a 2 m wall of colour 7
    vox[0, 0, 0] = 9
    pal = np.zeros((256, 4), dtype=np.uint8)
    pal[7] = (1, 2, 3, 255)
    pal[9] = (4, 5, 6, 255)
    d = tmp_path / "s"
    (d / "maps").mkdir(parents=True)
    (d / "maps" / "yard.vox").write_bytes(vox_bytes(vox, pal))
    (d / "yard.toml").write_text('name = "yard"\n[map]\nvox = "maps/yard.vox"\n[map.vox_materials]\n7 = "glass"\n'
                                 '[[characters]]\nid = "a"\nat = [1, 5, 0]\n')
    s = load_scene(d / "yard.toml")
    assert s.world.size == (20, 12, 3)             # size taken from the model
    w = s.world
    assert w.materials[w.at(4, 3, 1)].name == "glass"
    assert w.materials[w.at(0, 0, 0)].color == (4, 5, 6)
    assert w.at(5, 3, 0) == 0


def test_showcase_ships_a_vox_map(aerie):
    r = aerie("check", "scenes/showcase.toml")
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("args,needle", [
    (["query", "scenes/showcase.toml", "--from", "nobody", "--to", "knight"], "--from: no character 'nobody'"),
    (["query", "scenes/showcase.toml", "--from", "knight"], "required"),
    (["render", "scenes/showcase.toml", "-o", "x.png", "--size", "big"], "WIDTHxHEIGHT"),
    (["bench", "nothing"], "invalid choice"),
    # numpy's generators take no negative seed (a traceback from bench los, cover and render, found by fuzzing)
    (["bench", "los", "--quick", "--seed", "-1"], "--seed: '-1' must be at least 0"),
    (["frobnicate"], "invalid choice"),
    (["flythrough", "scenes/showcase.toml", "-o", "x.mp4", "--fps", "-3"], "must be positive"),
])
def test_bad_arguments(aerie, args, needle):
    r = aerie(*args)
    assert r.returncode == 2 and needle in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_ground_image_whose_pixels_cannot_be_decoded(aerie, tmp_path):
    """A truncated PNG: its header reads, so ``check`` passes; ``export`` (which reads the pixels) says so in one
    line naming the image, and writes nothing (it was a traceback from Pillow, found by fuzzing)."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(np.random.default_rng(1).integers(0, 255, (300, 300, 3), dtype=np.uint8)).save(buf, "PNG")
    data = buf.getvalue()
    text = BASE.replace("[map]", '[map]\nground_image = "ground.png"') + ARCHER
    assert check(aerie, tmp_path, text, extra_files={"ground.png": data[: len(data) // 2]}).returncode == 0
    out = tmp_path / "o.glb"
    r = aerie("export", tmp_path / "scenes" / "bad.toml", "-o", out)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1 and "ground.png" in err and "cannot be decoded" in err, err
    assert not out.exists()


def test_a_large_ground_image_within_the_cap_reads_without_pillows_warning(tmp_path):
    """Pillow's decompression-bomb guard warns (two lines on stderr) from 89 M pixels, under the scene's cap of
    16384 a side: the scene's images are opened with the guard at that cap."""
    import warnings

    from PIL import Image

    from engine.world.images import open_image

    p = tmp_path / "big.png"
    Image.new("L", (10000, 9000)).save(p)
    before = Image.MAX_IMAGE_PIXELS
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with open_image(p) as im:
            assert im.size == (10000, 9000)
    assert Image.MAX_IMAGE_PIXELS == before          # the guard is Pillow's own again afterwards


@pytest.mark.parametrize("fmt,mode", [("PNG", "RGB"), ("JPEG", "RGB"), ("PNG", "P"), ("PNG", "LA"), ("WEBP", "RGBA")])
def test_a_large_image_is_read_small_with_its_shape_and_colours(tmp_path, fmt, mode):
    """read_image(max_side) shrinks before it converts (a JPEG at decode, others by a whole factor first): the
    result is at most max_side a side, the image's proportions kept, its colours those of the whole image."""
    from PIL import Image

    from engine.world.images import read_image

    big = Image.new("RGB", (3001, 1200), (200, 40, 90))
    big.paste((10, 220, 30), (0, 0, 1500, 1200))                 # the west half green
    p = tmp_path / f"big.{fmt.lower()}"
    (big.convert(mode) if mode != "P" else big.quantize(4)).save(p, fmt)
    for want in ("RGB", "RGBA"):
        im = read_image(p, want, 500)
        assert im.mode == want and im.size == (500, 200), im.size
        west, east = im.getpixel((100, 100)), im.getpixel((400, 100))
        if mode != "LA":
            assert abs(west[1] - 220) < 12 and abs(east[0] - 200) < 12, (west, east)
        small = read_image(p, want, 4000)                          # under the limit: as it is
        assert small.size == (3001, 1200)


@pytest.mark.parametrize("content,needle", [
    ("5", "expected a list of actions"),
    ('{"script": 5}', "script: must be a list of actions"),
    ("[" * 100000 + "]" * 100000, "nested too deep"),
], ids=["a number", "script a number", "nested deep"])    # short ids: the test's id goes into the child's environment
def test_replay_reads_its_actions_file_as_run_does(aerie, tmp_path, content, needle):
    """``replay --actions`` had a reader of its own: these were tracebacks there (found by fuzzing) and one line
    through ``run --actions``; both read the file with ``runner.load_actions`` now."""
    f = tmp_path / "acts.json"
    f.write_text(content)
    for args in (["replay", "scenes/air_fall_table.toml", "-o", str(tmp_path / "r.gif"), "--size", "16x16"],
                 ["run", "scenes/air_fall_table.toml"]):
        r = aerie(*args, "--actions", str(f))
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1 and needle in r.stderr, r.stderr
    assert not (tmp_path / "r.gif").exists()


def _rider(cid, at, mount=None):
    return f'[[characters]]\nid = "{cid}"\nside = "red"\nat = {at}\n' + (f'mount = "{mount}"\n' if mount else "")


@pytest.mark.parametrize("riders,needle", [
    ([("archer", "[2, 5, 0]", "wyvern"), ("wyvern", "[2, 5, 0]", "archer")], "rides 'archer' itself"),
    ([("archer", "[2, 5, 0]", "wyvern"), ("wyvern", "[2, 5, 0]", None), ("lancer", "[5, 5, 0]", "wyvern")],
     "'wyvern' already carries 'archer'"),
])
def test_mounts_at_start_riding_each_other_or_shared_are_refused(aerie, tmp_path, riders, needle):
    """Two characters riding each other, or two riders on one mount, were accepted (found by fuzzing)."""
    r = check(aerie, tmp_path, BASE + "".join(_rider(*x) for x in riders))
    assert_one_line_error(r, ".mount", needle)
