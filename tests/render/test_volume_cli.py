"""`aerie cover` and `aerie threat` as a user runs them: the files' contracts, the answers, and bad input (one
clear line, exit 2, nothing written)."""

import json
import os
from pathlib import Path

import numpy as np
import pytest

from engine.cli import main
from engine.world.cover import cover_between
from engine.world.geometry import Body
from engine.scene import load_scene

ROOT = Path(__file__).resolve().parents[2]
ROOF = str(ROOT / "scenes" / "air_rooftop.toml")


def run(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.unit
def test_cover_npy_is_the_blocked_fraction_volume(capsys, tmp_path):
    scene = load_scene(ROOF)
    ch = scene.characters[0]
    out = tmp_path / "c.npy"
    rc, so, err = run(capsys, "cover", ROOF, "--from", ch.id, "-o", out, "--json")
    assert rc == 0, err
    s = json.loads(so)
    vol = np.load(out)
    X, Y, Z = scene.world.size
    assert vol.dtype == np.float32 and vol.shape == (Z, Y, X) and s["shape"] == [Z, Y, X]
    assert s["cells"] == int((~np.isnan(vol)).sum()) and s["backend"] and s["time_s"] >= 0
    solid = scene.world.solid()
    assert np.isnan(vol[solid]).all()
    rng = np.random.default_rng(0)
    zz, yy, xx = np.nonzero(~np.isnan(vol))
    for i in rng.choice(len(xx), 40, replace=False):
        r = cover_between(scene.world, Body.of(ch), Body(int(xx[i]), int(yy[i]), int(zz[i])))
        assert np.float32(r.blocked_fraction) == vol[zz[i], yy[i], xx[i]]
    # the CPU backend writes the same file
    out2 = tmp_path / "c2.npy"
    rc, so, err = run(capsys, "cover", ROOF, "--from", ch.id, "-o", out2, "--backend", "cpu", "--json")
    assert rc == 0 and json.loads(so)["backend"].startswith("CPU")
    assert np.array_equal(np.load(out2), vol, equal_nan=True)


@pytest.mark.unit
def test_cover_layer_png_and_npy(capsys, tmp_path):
    from PIL import Image

    scene = load_scene(ROOF)
    ch = scene.characters[0]
    rc, so, err = run(capsys, "cover", ROOF, "--from", ch.id, "--layer", 3, "-o", tmp_path / "c.png")
    assert rc == 0, err
    assert "wrote" in so and "sight lines" in so
    img = Image.open(tmp_path / "c.png")
    assert img.size[0] >= scene.world.size[0] * 2
    rc, so, err = run(capsys, "cover", ROOF, "--from", ch.id, "--layer", 3, "-o", tmp_path / "c.npy")
    assert rc == 0 and np.load(tmp_path / "c.npy").shape == (1,) + scene.world.voxels.shape[1:]


@pytest.mark.gl
def test_cover_and_threat_3d_views_draw_the_cells_in_place(capsys, tmp_path):
    """--view 3d: cubes at the cells (with --layer: that layer's only); the same view without the cubes' colours
    would be the plain scene, so the level colours must be there, more of them for the whole volume."""
    from PIL import Image

    from engine.render.volume_cli import LEVEL_COLOURS

    scene = load_scene(ROOF)
    ch = scene.characters[0]

    def level_px(path, rgb):
        a = np.asarray(Image.open(path).convert("RGB")).astype(int)
        # a lit cube face is the colour times 0.55 .. 1.2: the same hue, so test the channel ratios
        r, g, b = (a[..., i] + 1 for i in range(3))
        want = np.array(rgb, dtype=float) + 1
        return int(((np.abs(r / g - want[0] / want[1]) < 0.12) & (np.abs(g / b - want[1] / want[2]) < 0.25)
                    & (a.max(axis=2) > 60)).sum())

    rc, so, err = run(capsys, "cover", ROOF, "--from", ch.id, "--view", "3d", "-o", tmp_path / "all.png", "--json")
    assert rc == 0, err
    assert Image.open(tmp_path / "all.png").size == (1280, 720)
    levels = json.loads(so)["levels"]
    rc, so, err = run(capsys, "cover", ROOF, "--from", ch.id, "--layer", 3, "--view", "3d", "-o", tmp_path / "l3.png")
    assert rc == 0, err
    half = LEVEL_COLOURS["half"]
    if levels.get("half", 0) > 20:
        assert level_px(tmp_path / "all.png", half) > level_px(tmp_path / "l3.png", half) > 0
    rc, so, err = run(capsys, "threat", ROOF, "--side", ch.side, "--view", "3d", "-o", tmp_path / "t.png", "--json")
    assert rc == 0, err
    if json.loads(so)["safe_cells"] > 20:
        assert level_px(tmp_path / "t.png", (70, 200, 90)) > 200


@pytest.mark.unit
def test_threat_npz_counts_enemies_and_more_after_they_move(capsys, tmp_path):
    scene = load_scene(ROOF)
    side = scene.characters[0].side
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    rc, so, err = run(capsys, "threat", ROOF, "--side", side, "-o", a, "--json")
    assert rc == 0, err
    s = json.loads(so)
    d = np.load(a)
    X, Y, Z = scene.world.size
    enemies = [c.id for c in scene.characters if c.side != side]
    assert sorted(d["enemies"]) == sorted(enemies)
    assert d["count"].shape == (Z, Y, X) and d["fraction"].shape == (len(enemies), Z, Y, X)
    assert not np.isfinite(d["fraction"][:, d["count"] == -1]).any()
    assert d["count"].max() <= len(enemies) and s["cells"] == int((d["count"] >= 0).sum())
    # an enemy attacks where its fraction is finite: count is the number of those
    assert np.array_equal(np.where(d["count"] >= 0, np.isfinite(d["fraction"]).sum(axis=0), -1), d["count"])
    rc, so, err = run(capsys, "threat", ROOF, "--side", side, "--after-move", "-o", b, "--json")
    assert rc == 0, err
    m = np.load(b)
    assert json.loads(so)["after_move"] is True
    assert (m["count"] >= d["count"]).all() and (m["count"] > d["count"]).any()
    # moving first never leaves a body more cover against that enemy
    both = np.isfinite(d["fraction"])
    assert (m["fraction"][both] <= d["fraction"][both]).all()


@pytest.mark.unit
def test_threat_layer_png(capsys, tmp_path):
    scene = load_scene(ROOF)
    rc, so, err = run(capsys, "threat", ROOF, "--side", scene.characters[0].side, "--layer", 2, "-o", tmp_path / "t.png")
    assert rc == 0, err
    assert (tmp_path / "t.png").stat().st_size > 1000


@pytest.mark.parametrize("argv, words", [
    (["cover", ROOF, "--from", "nobody", "-o", "{tmp}/x.npy"], ["--from nobody", "no character"]),
    (["threat", ROOF, "--side", "purple", "-o", "{tmp}/x.npz"], ["--side purple", "no such side"]),
    (["cover", ROOF, "--from", "@first", "--layer", "99", "-o", "{tmp}/x.npy"], ["--layer 99", "outside"]),
    (["threat", ROOF, "--side", "@side", "--layer", "-1", "-o", "{tmp}/x.npz"], ["--layer -1", "outside"]),
    (["cover", ROOF, "--from", "@first", "-o", "{tmp}/no/such/dir/x.npy"], ["cannot write"]),
    (["threat", ROOF, "--side", "@side", "-o", "{tmp}/x.txt"], ["must end in"]),
    (["cover", ROOF, "--from", "@first", "-o", "{tmp}"], ["must end in"]),
    (["cover", ROOF, "--from", "@first", "-o", "{tmp}/a_file/x.npy"], ["cannot write", "not a folder"]),
    (["cover", ROOF, "--from", "@first", "--view", "top", "-o", "{tmp}/x.png"], ["--view top", "--layer"]),
    (["threat", ROOF, "--side", "@side", "--view", "3d", "-o", "{tmp}/x.npz"], ["--view", "not a .png"]),
])
@pytest.mark.unit
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, argv, words):
    scene = load_scene(ROOF)
    sub = {"@first": scene.characters[0].id, "@side": scene.characters[0].side}
    (tmp_path / "a_file").write_text("")
    argv = [sub.get(a, a).replace("{tmp}", str(tmp_path)) for a in argv]
    rc, so, err = run(capsys, *argv)
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    for w in words:
        assert w in lines[0]
    assert not list(tmp_path.glob("*.np*")) and not list(tmp_path.glob("*.png"))


@pytest.mark.unit
def test_unwritable_output_leaves_nothing(capsys, tmp_path):
    import os

    d = tmp_path / "ro"
    d.mkdir()
    os.chmod(d, 0o500)
    try:
        if os.access(d, os.W_OK):
            pytest.skip("running as a user who can write anywhere (root)")
        rc, so, err = run(capsys, "cover", ROOF, "--from", load_scene(ROOF).characters[0].id, "-o", d / "x.npy")
        assert rc == 2 and "cannot write" in err and len(err.strip().splitlines()) == 1
    finally:
        os.chmod(d, 0o700)


@pytest.mark.unit
@pytest.mark.parametrize("cmd", ["cover", "threat"])
def test_a_folder_that_cannot_hold_a_new_file_is_one_line(capsys, cmd):
    """/proc exists and passes the permission test even for root, yet no file can be made there: the temporary
    file beside the output failed outside the error handling (a traceback, found by fuzzing)."""
    if not os.path.isdir("/proc/self"):
        pytest.skip("no /proc here")
    scene = load_scene(ROOF)
    who = ["--from", scene.characters[0].id] if cmd == "cover" else ["--side", scene.characters[0].side]
    rc, so, err = run(capsys, cmd, ROOF, *who, "--backend", "cpu", "-o", f"/proc/aerie-{cmd}.png")
    assert rc == 2 and "cannot write" in err and len(err.strip().splitlines()) == 1, err
