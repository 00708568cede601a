"""An output may never replace a file its own command reads (README "outputs"): the scene file, its map.vox, its
ground and floor images, a shipped asset, the actions file, a --vs scene. Each case: one line naming the argument
and the file, exit 2, the input byte for byte as it was. Also: every simulate argument checked before anything is
written, names over 255 bytes, and an [[expect]] past the script's end (bad input, not passed silently)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from engine.cli import main
from engine.errors import AerieError

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]
LONG = "a" * 300

SCENE = '''name = "t"
ruleset = "dnd5e"
seed = 3
[map]
size = [12, 10, 8]
vox = "map.vox"
ground_image = "ground.png"
floor_images = [{ layer = 2, image = "floor.png" }]
[[characters]]
id = "a"
side = "red"
at = [1, 1, 2]
initiative = 20
weapons = ["longsword"]
[[characters]]
id = "b"
side = "blue"
at = [5, 5, 2]
weapons = ["longsword"]
'''
SCRIPT = '''
[[script]]
actor = "a"
action = "end_turn"
'''


def _vox(path: Path) -> None:
    """A 12 x 10 x 2 MagicaVoxel model: a stone slab the characters stand on."""
    import numpy as np

    from engine.world.vox import write_vox

    write_vox(path, np.ones((2, 10, 12), dtype=np.uint8))


@pytest.fixture
def scene(tmp_path):
    """A scene in tmp_path that reads map.vox, ground.png and floor.png (and has a one-step script)."""
    from PIL import Image

    _vox(tmp_path / "map.vox")
    Image.new("RGB", (16, 16), (200, 10, 10)).save(tmp_path / "ground.png")
    Image.new("RGB", (16, 16), (10, 200, 10)).save(tmp_path / "floor.png")
    p = tmp_path / "s.toml"
    p.write_text(SCENE + SCRIPT)
    return p


def digest(p: Path) -> str:
    return hashlib.md5(p.read_bytes()).hexdigest()


def cli(capsys, *args):
    capsys.readouterr()
    rc = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return rc, out, err


def refused(capsys, argv, protected: Path, *words):
    """``aerie ARGV`` is one line naming ``words``, exit 2, and ``protected`` is unchanged."""
    before = digest(protected)
    rc, _, err = cli(capsys, *argv)
    lines = [line for line in err.strip().splitlines() if " frames, " not in line]     # a progress bar
    assert rc == 2 and len(lines) == 1 and "Traceback" not in err, err
    for w in words:
        assert w in lines[0], err
    assert digest(protected) == before
    return lines[0]


def test_the_scene_inputs_are_every_file_it_reads(scene):
    from engine.scene import load_scene, scene_inputs

    got = scene_inputs(load_scene(scene))
    d = scene.parent.resolve()
    assert got[:4] == (scene.resolve(), d / "map.vox", d / "ground.png", d / "floor.png")
    assert ROOT / "assets" / "statblocks" / "dnd5e.toml" in got
    assert ROOT / "assets" / "models" / "generic.glb" in got
    shipped = scene_inputs(load_scene("showcase"))      # by name: the shipped file and its @assets map
    assert ROOT / "scenes" / "showcase.toml" in shipped and ROOT / "assets" / "maps" / "town_square.vox" in shipped


@pytest.mark.parametrize("name", ["map.vox", "ground.png", "floor.png", "s.toml"])
def test_run_log_never_replaces_a_file_the_scene_reads(capsys, scene, name):
    """The reproducer: `aerie run showcase.toml --log town_square.vox` replaced the map with a log (exit 0)."""
    target = scene.parent / name
    refused(capsys, ["run", scene, "--log", target], target, "--log", name, "input")


def test_run_log_never_replaces_a_shipped_file_of_a_scene_named_by_name(capsys, tmp_path):
    """`aerie run showcase --log .../scenes/showcase.toml`: the name resolved to the shipped file, unprotected. Here
    through a link, so a regression replaces the link, never the shipped file."""
    for shipped in (ROOT / "scenes" / "showcase.toml", ROOT / "assets" / "maps" / "town_square.vox"):
        link = tmp_path / (shipped.stem + ".jsonl")
        link.symlink_to(shipped)
        refused(capsys, ["run", "showcase", "--log", link], shipped, "--log", "input")
        assert link.is_symlink()


def test_run_log_never_replaces_the_actions_file(capsys, scene):
    acts = scene.parent / "acts.json"
    acts.write_text(json.dumps([{"actor": "a", "action": "end_turn"}]))
    refused(capsys, ["run", scene, "--actions", acts, "--log", acts], acts, "--log", "acts.json", "input")


def test_export_never_replaces_a_file_the_scene_reads(capsys, scene):
    """A scene file ending in .glb (or a shipped model, which the export reads) was replaced by the export."""
    glb = scene.parent / "s.glb"
    glb.write_text(scene.read_text())
    refused(capsys, ["export", glb, "-o", glb], glb, "-o", "s.glb", "input")


@pytest.mark.parametrize("cmd", ["cover", "threat"])
def test_cover_and_threat_never_replace_an_image_the_scene_reads(capsys, scene, cmd):
    who = ["--from", "a"] if cmd == "cover" else ["--side", "red"]
    for name in ("ground.png", "floor.png"):
        target = scene.parent / name
        refused(capsys, [cmd, scene, *who, "--layer", "2", "--backend", "cpu", "-o", target], target, "-o", name,
                "input")


def test_render_never_replaces_the_ground_image(capsys, scene):
    target = scene.parent / "ground.png"
    refused(capsys, ["render", scene, "-o", target, "--size", "64x48"], target, "-o", "ground.png", "input")


@pytest.mark.parametrize("cmd", ["flythrough", "replay"])
def test_videos_never_replace_an_image_the_scene_reads(capsys, scene, cmd):
    """The ground image is checked by its content (PNG), not its name: one named g.gif is a .gif output's target."""
    (scene.parent / "ground.png").rename(scene.parent / "g.gif")
    scene.write_text(scene.read_text().replace('ground_image = "ground.png"', 'ground_image = "g.gif"'))
    target = scene.parent / "g.gif"
    refused(capsys, [cmd, scene, "-o", target, "--size", "64x48", "--fps", "2"], target, "-o", "g.gif", "input")


def test_simulate_never_replaces_a_file_of_either_scene(capsys, scene, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    for f in ("map.vox", "ground.png", "floor.png"):
        (other / f).write_bytes((tmp_path / f).read_bytes())
    (other / "b.toml").write_text(SCENE.replace('ground_image = "ground.png"', 'ground_image = "g.png"'))
    (other / "ground.png").rename(other / "g.png")
    shot = other / "g.png"
    refused(capsys, ["simulate", scene, "--runs", 1, "--vs", other / "b.toml", "--report", shot], shot,
            "--report", "g.png", "input")


def test_simulate_checks_keep_logs_before_writing_anything(capsys, scene, tmp_path):
    """A --keep-logs folder that cannot take its files was refused after -o and --report were written."""
    logs = tmp_path / "logs"
    (logs / "replay.txt").mkdir(parents=True)           # where replay.txt goes: a folder
    rows, rep = tmp_path / "rows.csv", tmp_path / "rep.html"
    rc, _, err = cli(capsys, "simulate", scene, "--runs", 1, "--workers", 1, "-o", rows, "--report", rep,
                     "--keep-logs", logs)
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "--keep-logs" in err and "replay.txt" in err, err
    assert not rows.exists() and not rep.exists()
    (logs / "replay.txt").rmdir()
    (logs / "b").write_text("a file where the second variant's folder goes")
    rc, _, err = cli(capsys, "simulate", scene, "--runs", 1, "--workers", 1, "-o", rows, "--set",
                     "fall_roll_on=hit", "--keep-logs", logs)
    assert rc == 2 and "--keep-logs" in err and "not a folder" in err and not rows.exists(), err


def test_simulate_keep_logs_never_replace_an_input(capsys, scene, tmp_path):
    """The scene's map named fight_0.json in the --keep-logs folder: that fight's log would replace it."""
    (tmp_path / "map.vox").rename(tmp_path / "fight_0.json")
    scene.write_text(scene.read_text().replace('vox = "map.vox"', 'vox = "fight_0.json"'))
    refused(capsys, ["simulate", scene, "--runs", 1, "--workers", 1, "--keep-logs", tmp_path],
            tmp_path / "fight_0.json", "--keep-logs", "fight_0.json", "input")


@pytest.mark.parametrize("argv, word", [
    (["run", "{LONG}.toml", "--log", "x.jsonl"], "{LONG}.toml"),
    (["render", "{LONG}.toml", "-o", "x.png"], "{LONG}.toml"),
    (["flythrough", "{LONG}.toml", "-o", "x.gif"], "{LONG}.toml"),
    (["replay", "SCENE", "--actions", "{LONG}.json", "-o", "x.gif"], "{LONG}.json"),
    (["simulate", "SCENE", "--runs", "1", "--vs", "{LONG}.toml", "-o", "x.csv"], "{LONG}.toml"),
    (["simulate", "{LONG}.toml", "--runs", "1", "-o", "x.csv"], "{LONG}.toml"),
    (["run", "SCENE", "--log", "{LONG}.jsonl"], "--log {LONG}.jsonl"),
    (["render", "SCENE", "-o", "{LONG}.png"], "-o {LONG}.png"),
    (["export", "SCENE", "-o", "{LONG}.glb"], "-o {LONG}.glb"),
    (["cover", "SCENE", "--from", "a", "-o", "{LONG}.png"], "-o {LONG}.png"),
    (["threat", "SCENE", "--side", "red", "-o", "{LONG}.npz"], "-o {LONG}.npz"),
    (["simulate", "SCENE", "--runs", "1", "--report", "{LONG}.png"], "--report {LONG}.png"),
])
def test_a_name_over_255_bytes_is_one_line_naming_its_argument(capsys, scene, tmp_path, argv, word):
    """A long scene or actions name was blamed on -o; a long -o raised a traceback in cover and threat."""
    argv = [str(scene) if a == "SCENE" else a.replace("{LONG}", LONG) for a in argv]
    argv = [str(tmp_path / a) if a.startswith("x.") else a for a in argv]
    rc, _, err = cli(capsys, *argv)
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert word.replace("{LONG}", LONG) in err and "too long" in err, err
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("x.")]


def test_an_output_name_near_the_limit_is_still_written(tmp_path):
    """The temporary name beside it is cut short: a 250-byte output name is a name the system accepts."""
    from engine.outputs import check_output_path, write_output

    out = tmp_path / ("b" * 246 + ".txt")
    write_output(check_output_path(out, what="-o"), b"whole")
    assert out.read_bytes() == b"whole"


def test_the_window_save_never_replaces_a_file_the_scene_reads(scene, tmp_path):
    """AERIE_SAVE (or a save-as name) naming the scene's map: refused before anything is written."""
    from engine.app import files
    from engine.scene import load_scene

    sc = load_scene(scene)

    class Ctl:
        def __init__(self):
            self.scene = sc

        def save(self, path):
            raise AssertionError(f"written: {path}")

    win = SimpleNamespace(ctl=Ctl(), scene=sc, save_to=None)
    for name in ("map.vox", "ground.png"):
        before = digest(tmp_path / name)
        with pytest.raises(AerieError, match="input"):
            files.save(win, tmp_path / name)
        assert digest(tmp_path / name) == before
    log_target = tmp_path / "x.json"                  # the event log beside it would be x.log.jsonl: the scene
    os.link(scene, tmp_path / "x.log.jsonl")
    with pytest.raises(AerieError, match="the event log"):
        files.save(win, log_target)


def test_an_expectation_past_the_last_step_is_bad_input(capsys, tmp_path):
    """It was never checked: `aerie run` passed (exit 0) whatever it said."""
    p = tmp_path / "e.toml"
    base = SCENE.replace('vox = "map.vox"\n', "").replace("ground_image", "# ").replace("floor_images", "# ")
    base = base.replace("at = [1, 1, 2]", "at = [1, 1, 0]").replace("at = [5, 5, 2]", "at = [5, 5, 0]")
    p.write_text(base + SCRIPT + '[[expect]]\nafter = 2\ncharacter = "a"\nhp = -999\n')
    for cmd in ("run", "check"):
        rc, _, err = cli(capsys, cmd, p)
        assert rc == 2 and len(err.strip().splitlines()) == 1, err
        assert "e.toml" in err and "expect[0].after" in err and "past the script's last step" in err, err
    acts = tmp_path / "acts.json"                    # an actions file: its expectations go with its own script
    acts.write_text(json.dumps({"script": [], "expect": [{"after": 1, "character": "a", "hp": -5}]}))
    p.write_text(base + SCRIPT)
    rc, _, err = cli(capsys, "run", p, "--actions", acts)
    assert rc == 2 and "acts.json" in err and "expect[0].after" in err, err
    # after = the number of steps: checked against the state the script ends in (here it fails: exit 1)
    p.write_text(base + SCRIPT + '[[expect]]\nafter = 1\ncharacter = "a"\nhp = -999\n')
    rc, _, err = cli(capsys, "run", p)
    assert rc == 1 and "expect[0] (after step 1)" in err, err


def test_play_itself_refuses_an_expectation_past_the_end(tmp_path):
    from engine.rules.runner import BadStep, play
    from engine.scene import load_scene

    sc = load_scene(ROOT / "scenes" / "air_fall_table.toml")
    _, problems = play(sc, None, [], [{"after": 1, "character": sc.characters[0].id, "hp": 1}])
    assert len(problems) == 1 and isinstance(problems[0], BadStep) and "expect[0].after" in problems[0]
