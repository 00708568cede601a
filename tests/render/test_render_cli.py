"""The render commands end to end through the real CLI: stills, videos, replays and their one-line errors."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.gl

SCENE = """
version = 1
name = "cli yard"
ruleset = "dnd5e"
initiative_starts = "archer"

[map]
size = [16, 12, 8]

[[map.fill]]
material = "stone"
from = [8, 0, 0]
to = [8, 11, 2]

[[characters]]
id = "archer"
side = "red"
kind = "archer"
at = [4, 6, 0]
max_hp = 11
speed_m = 9
weapons = ["longbow"]

[[characters]]
id = "harpy"
side = "blue"
kind = "harpy"
flying = true
at = [12, 6, 6]
max_hp = 20
fly_speed_m = 12
weapons = ["claws"]

[[cameras]]
name = "side"
position = [12.0, -15.0, 6.0]
look_at = [12.0, 9.0, 3.0]

[[script]]
actor = "archer"
action = "move"
to = [5, 8, 0]

[[script]]
actor = "archer"
action = "end_turn"
"""


@pytest.fixture
def scene(tmp_path):
    p = tmp_path / "yard.toml"
    p.write_text(SCENE)
    return p


def test_render_still_with_camera_and_overlays(aerie, scene, tmp_path):
    from PIL import Image

    out = tmp_path / "a.png"
    r = aerie("render", scene, "-o", out, "--size", "200x120", "--camera", "side",
              "--overlay", "sightlines:archer:harpy", "--overlay", "grid:3")
    assert r.returncode == 0, r.stderr
    img = np.asarray(Image.open(out))
    assert img.shape == (120, 200, 3) and img.std() > 10


def test_render_orbit_and_step(aerie, scene, tmp_path):
    r = aerie("render", scene, "-o", tmp_path / "b.png", "--size", "96x64", "--orbit", "135")
    assert r.returncode == 0, r.stderr
    r = aerie("render", scene, "-o", tmp_path / "c.png", "--size", "96x64", "--step", "1")
    assert r.returncode == 0, r.stderr
    r = aerie("render", scene, "-o", tmp_path / "d.png", "--size", "96x64", "--step", "5")
    assert r.returncode == 2 and "only 2 step" in r.stderr


@pytest.mark.parametrize("args, message", [
    (["-o", "x.jpg"], "must end in .png"),
    (["-o", "PNG_DIR/missing/x.png"], "does not exist"),
    (["-o", "x.png", "--camera", "nope"], "no camera 'nope' (cameras: side)"),
    (["-o", "x.png", "--overlay", "bogus:1"], "unknown overlay"),
    (["-o", "x.png", "--overlay", "reach:nobody"], "no character 'nobody'"),
])
def test_render_errors_are_one_line(aerie, scene, tmp_path, args, message):
    args = [str(a).replace("PNG_DIR", str(tmp_path)) if isinstance(a, str) else a for a in args]
    args = [str(tmp_path / a) if a in ("x.jpg", "x.png") else a for a in args]
    r = aerie("render", scene, *args, "--size", "64x48")
    assert r.returncode == 2
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_flythrough_gif_and_mp4(aerie, scene, tmp_path):
    import imageio.v3 as iio

    r = aerie("flythrough", scene, "-o", tmp_path / "f.gif", "--seconds", "1", "--fps", "6", "--size", "96x64")
    assert r.returncode == 0, r.stderr
    assert iio.imread(tmp_path / "f.gif", index=None).shape[0] == 6
    r = aerie("flythrough", scene, "-o", tmp_path / "f.mp4", "--seconds", "1", "--fps", "10", "--size", "96x64")
    assert r.returncode == 0, r.stderr
    assert "frames" in r.stderr        # the progress bar
    assert iio.imread(tmp_path / "f.mp4", index=None).shape == (10, 64, 96, 3)
    r = aerie("flythrough", scene, "-o", tmp_path / "f.avi")
    assert r.returncode == 2 and ".mp4 or .gif" in r.stderr


def test_replay_animates_the_script(aerie, scene, tmp_path):
    import imageio.v3 as iio

    r = aerie("replay", scene, "-o", tmp_path / "r.mp4", "--fps", "5", "--size", "96x64")
    assert r.returncode == 0, r.stderr
    frames = iio.imread(tmp_path / "r.mp4", index=None)
    assert len(frames) == 5 + 2 * 8 + 5


@pytest.mark.slow
def test_bench_render_quick_reports_every_figure(aerie):
    r = aerie("bench", "render", "--quick", "--breakdown")
    assert r.returncode == 0, r.stderr
    for what in ("shipped maps", "naive", "face-culled", "greedy", "meshing", "light maps", "median frame", "CPU", "best of 3",
                 "terrain in one unlit grey", "no terrain"):
        assert what in r.stdout


def test_video_memory_does_not_grow_with_length(scene, tmp_path):
    """Frames stream to the encoder: Python's peak allocation for 80 frames is that for 20 (a list of frames would
    add 230 KB a frame at 320 x 240, 14 MB more)."""
    import argparse
    import tracemalloc

    from engine.render.commands import cmd_flythrough

    peaks = {}
    for seconds in (1, 1, 4):        # the first run warms up imports and caches; the next two are compared
        args = argparse.Namespace(scene=str(scene), output=str(tmp_path / f"m{seconds}.mp4"), seconds=float(seconds),
                                  fps=20, size=(320, 240))
        tracemalloc.start()
        assert cmd_flythrough(args) == 0
        peaks[seconds] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peaks[4] < peaks[1] + 3 * 1024 * 1024, peaks
