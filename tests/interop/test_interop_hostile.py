"""aerie import on hostile input: one line on stderr naming the file and the key, exit 2, no traceback, no hang,
nothing written. (Fuzz findings F_import_*: size values, keys TOML cannot write bare, TOML dates, FIFOs and
devices for the map and --characters, --thickness past the map.)"""

import json
import os
import tomllib
from pathlib import Path

import numpy as np
import pytest

from engine.interop.raster import dilate
from test_interop import foundry_scene, uvtt

pytestmark = pytest.mark.unit

TIMEOUT = 60            # a FIFO read would block forever: the test fails on the timeout instead of hanging


def _write(tmp_path: Path, name: str, data) -> Path:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return p


def _refused(aerie, tmp_path: Path, src, *flags, expect=()) -> str:
    """Import ``src``: exit 2, exactly one stderr line (containing each of ``expect``), no traceback, and the
    output folder left empty."""
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    r = aerie("import", src, "-o", out / "scene.toml", *flags, timeout=TIMEOUT)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    for e in expect:
        assert e in lines[0], lines[0]
    assert list(out.iterdir()) == [], list(out.iterdir())
    return lines[0]


def _flagged(tmp_path: Path, aerie_flags: dict, name="m.json") -> Path:
    d = foundry_scene()
    d["tokens"][0]["flags"] = {"aerie": aerie_flags}
    return _write(tmp_path, name, d)


# --- F_import_size_unhashable -------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [[1], {"a": 1}, 3, ""])
def test_a_size_that_is_not_a_size_name(aerie, tmp_path, size):
    _refused(aerie, tmp_path, _flagged(tmp_path, {"size": size}), "--no-image",
             expect=("m.json: tokens[0].flags.aerie.size: ", "is not a size"))


@pytest.mark.parametrize("size", ["[1]", "{ a = 1 }", "2"])
def test_a_characters_size_that_is_not_a_size_name(aerie, tmp_path, size):
    src = _write(tmp_path, "m.json", foundry_scene())
    chars = _write(tmp_path, "chars.toml", f"[characters.Goblin]\nsize = {size}\n")
    _refused(aerie, tmp_path, src, "--no-image", "--characters", chars,
             expect=("chars.toml: characters.Goblin.size: ", "is not a size"))


# --- F_import_unquoted_key ----------------------------------------------------------------------------------------
KEYS = ["a b", "é", "a.b", "x\n[[characters]]\nid = 'evil'", "q\"uote", "back\\slash", "tab\tkey", "del\x7f"]


@pytest.mark.parametrize("key", KEYS)
def test_toml_key_round_trips(key):
    from engine.interop.common import toml_key

    assert tomllib.loads(f"{toml_key(key)} = 1\n") == {key: 1}
    assert toml_key("kind") == "kind" and toml_key("hp-max_2") == "hp-max_2"


@pytest.mark.parametrize("key", KEYS + [""])
def test_a_flags_key_toml_cannot_write_bare(aerie, tmp_path, key):
    _refused(aerie, tmp_path, _flagged(tmp_path, {key: 1}), "--no-image", expect=("m.json: tokens[0].flags.aerie",))


@pytest.mark.parametrize("key", ["a b", "é", "a.b", ""])
def test_a_characters_key_toml_cannot_write_bare(aerie, tmp_path, key):
    src = _write(tmp_path, "m.json", foundry_scene())
    chars = _write(tmp_path, "chars.toml", f"[characters.Goblin]\n{json.dumps(key, ensure_ascii=False)} = 1\n")
    _refused(aerie, tmp_path, src, "--no-image", "--characters", chars, expect=("chars.toml: characters.Goblin",))


def test_a_known_characters_key_still_imports(aerie, tmp_path):
    src = _write(tmp_path, "m.json", foundry_scene())
    chars = _write(tmp_path, "chars.toml", '[characters."Goblin"]\nkind = "harpy"\nsize = "small"\n')
    r = aerie("import", src, "-o", tmp_path / "s.toml", "--no-image", "--characters", chars, timeout=TIMEOUT)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    goblin = tomllib.loads((tmp_path / "s.toml").read_text())["characters"][0]
    assert goblin["name"] == "Goblin" and goblin["kind"] == "harpy" and goblin["size"] == "small"


def test_a_lone_surrogate_in_the_map(aerie, tmp_path):
    d = foundry_scene()
    d["tokens"][0]["flags"] = {"aerie": {"kind": "x"}}
    text = json.dumps(d).replace('"kind": "x"', '"kind": "\\ud800"')
    _refused(aerie, tmp_path, _write(tmp_path, "m.json", text), "--no-image",
             expect=("m.json: tokens[0].flags.aerie.kind: ", "surrogate"))
    text = json.dumps(foundry_scene()).replace('"Goblin"', '"Gob\\udc00lin"')
    _refused(aerie, tmp_path, _write(tmp_path, "n.json", text), "--no-image",
             expect=("n.json: tokens[0].name: ", "surrogate"))


def test_a_map_nested_too_deep(aerie, tmp_path):
    _refused(aerie, tmp_path, _write(tmp_path, "deep.json", "[" * 100_000 + "]" * 100_000),
             expect=("deep.json: ", "nested too deep"))


# --- F_import_characters_date -------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["1979-05-27", "07:32:00", "1979-05-27T07:32:00Z", "[1979-05-27]",
                                   "{ when = 1979-05-27 }"])
def test_a_characters_date(aerie, tmp_path, value):
    src = _write(tmp_path, "m.json", foundry_scene())
    chars = _write(tmp_path, "c9.toml", f"[characters.Goblin]\nname = {value}\n")
    _refused(aerie, tmp_path, src, "--no-image", "--characters", chars,
             expect=("c9.toml: characters.Goblin.name", "dates and times"))


# --- F_import_characters_fifo, F_import_map_fifo ------------------------------------------------------------------
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_characters_from_a_fifo_or_a_device(aerie, tmp_path):
    src = _write(tmp_path, "m.json", foundry_scene())
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    _refused(aerie, tmp_path, src, "--no-image", "--characters", fifo, expect=("fifo.toml: is a FIFO",))
    if Path("/dev/zero").exists():
        _refused(aerie, tmp_path, src, "--no-image", "--characters", "/dev/zero",
                 expect=("/dev/zero: is a device",))
    _refused(aerie, tmp_path, src, "--no-image", "--characters", tmp_path, expect=("is a folder",))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_map_that_is_a_fifo_or_a_device(aerie, tmp_path):
    fifo = tmp_path / "map.json"
    os.mkfifo(fifo)
    _refused(aerie, tmp_path, fifo, expect=("map.json: is a FIFO",))
    if Path("/dev/zero").exists():
        _refused(aerie, tmp_path, "/dev/zero", expect=("/dev/zero: is a device",))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_an_image_that_is_a_fifo(aerie, tmp_path):
    src = _write(tmp_path, "m.json", foundry_scene())
    os.mkfifo(tmp_path / "img.png")
    r = aerie("import", src, "-o", tmp_path / "out.toml", "--image", tmp_path / "img.png", timeout=TIMEOUT)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
    assert not (tmp_path / "out.toml").exists()


# --- F_import_thickness -------------------------------------------------------------------------------------------
def _brute(mask: np.ndarray, t: int) -> np.ndarray:
    lo, hi = -(t // 2), (t - 1) // 2
    out = mask.copy()
    for y, x in np.argwhere(mask):
        out[max(0, y + lo):max(0, y + hi + 1), max(0, x + lo):max(0, x + hi + 1)] = True
    return out


def test_dilate_clips_a_thickness_past_the_map():
    rng = np.random.default_rng(7)
    for _ in range(200):
        Y, X = (int(v) for v in rng.integers(1, 12, 2))
        t = int(rng.integers(1, 40))
        m = rng.random((Y, X)) < 0.15
        assert np.array_equal(dilate(m, t), _brute(m, t) if t > 1 else m), (Y, X, t)


def test_thickness_past_the_map_and_over_the_cap(aerie, tmp_path):
    src = _write(tmp_path, "room.dd2vtt", uvtt())
    r = aerie("import", src, "-o", tmp_path / "thick.toml", "--thickness", "50", timeout=TIMEOUT)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert (tmp_path / "thick.toml").is_file()
    for n in ("65", "1000000000"):
        out = tmp_path / f"t{n}"
        out.mkdir()
        r = aerie("import", src, "-o", out / "scene.toml", "--thickness", n, timeout=TIMEOUT)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert len(r.stderr.splitlines()) == 1 and "--thickness" in r.stderr and "at most 64" in r.stderr, r.stderr
        assert list(out.iterdir()) == []
