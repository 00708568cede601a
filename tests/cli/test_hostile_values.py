"""What a second sweep from outside the suite found (session 9), each once a traceback or a hang: integers of
thousands of digits and deep nesting reaching parsers that caught only their own error, a file name over 255 bytes
reaching ``Path.exists``, and the window's file picker reading FIFOs and junk saves unbounded."""

import json
import os

import pytest

pytestmark = pytest.mark.unit

BIG = "1" * 5000


def one_line(r, *needles):
    err = r.stderr.strip()
    assert r.returncode == 2 and "Traceback" not in r.stderr and len(err.splitlines()) == 1, (r.returncode, r.stderr)
    for n in needles:
        assert n in err, err


def test_an_imported_map_with_a_5000_digit_integer(aerie, tmp_path):
    f = tmp_path / "m.dd2vtt"
    f.write_text('{"format": 0.3, "resolution": {"map_size": {"x": ' + BIG + ', "y": 4}}}')
    out = tmp_path / "o" / "scene.toml"
    out.parent.mkdir()
    one_line(aerie("import", f, "-o", out), "m.dd2vtt", "cannot be read")
    assert not out.exists()


@pytest.mark.parametrize("value,needle", [(BIG, "cannot be read"), ("[" * 600 + "]" * 600, "nested too deep")],
                         ids=["5000 digits", "nested"])
def test_simulate_set_values_that_tomllib_cannot_read(aerie, value, needle):
    one_line(aerie("simulate", "air_fall_table", "--runs", "2", "--workers", "1", "--set", f"diagonal={value}"),
             "--set diagonal", needle)


def test_import_characters_file_with_a_5000_digit_integer(aerie, tmp_path):
    src = tmp_path / "m.dd2vtt"
    src.write_text(json.dumps({"format": 0.3, "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 4, "y": 4},
                                                             "pixels_per_grid": 10}, "line_of_sight": [], "portals": []}))
    chars = tmp_path / "c.toml"
    chars.write_text(f"[characters.Goblin]\nhp = {BIG}\n")
    out = tmp_path / "scene.toml"
    one_line(aerie("import", src, "-o", out, "--characters", chars, "--no-image"), "c.toml")
    assert not out.exists()


@pytest.mark.parametrize("dice", [f"2d{BIG}", f"{BIG}d6", BIG], ids=["sides", "count", "constant"])
def test_gm_roll_with_a_number_of_thousands_of_digits(aerie, tmp_path, dice):
    f = tmp_path / "a.json"
    f.write_text(json.dumps([{"actor": "gm", "action": "gm_roll", "dice": dice}]))
    one_line(aerie("run", "objects_locked_doors", "--actions", f), "script[0].dice", "at most 6 digits")


@pytest.mark.parametrize("args", [["check", "X.toml"], ["render", "air_fall_table", "-o", "X.png", "--size", "16x16"],
                                  ["run", "air_fall_table", "--log", "X.jsonl"]], ids=["check", "render", "run --log"])
def test_a_file_name_over_255_bytes_is_one_line(aerie, tmp_path, args):
    long = "x" * 300
    r = aerie(*[a.replace("X", long) for a in args], cwd=tmp_path)
    one_line(r, "too long")


def test_exists_says_no_as_path_exists_does_and_one_line_where_it_raised(tmp_path):
    from engine.errors import AerieError
    from engine.inputs import exists

    (tmp_path / "f").write_text("x")
    assert exists(tmp_path / "f") and exists(tmp_path) and not exists(tmp_path / "none")
    assert not exists(tmp_path / "f" / "under_a_file")          # ENOTDIR: Path.exists says False too
    with pytest.raises(AerieError, match="^--keep-logs: File name too long$"):
        exists(tmp_path / ("x" * 300), "--keep-logs")
    with pytest.raises(AerieError, match="NUL"):
        exists("a\x00b")


def test_the_pickers_labels_and_scene_test_take_junk_and_fifos(tmp_path):
    from engine.app.files import label, looks_like_scene

    (tmp_path / "n.save.json").write_text('{"actions": 5}')
    (tmp_path / "deep.save.json").write_text("[" * 100000 + "]" * 100000)
    assert label(tmp_path / "n.save.json").startswith("saved game: ?, 0 action(s)")
    assert label(tmp_path / "deep.save.json") == "deep.save.json"
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "f.save.json")
        os.mkfifo(tmp_path / "f.toml")
        assert label(tmp_path / "f.save.json") == "f.save.json"         # it hung, reading the FIFO
        assert looks_like_scene(tmp_path / "f.toml") is False
