"""The camera-path mode (Ctrl+P, issue 42) without a display: keys from the camera, edits, the path drawn, the save
into the scene file (the rest of the file kept byte for byte) and what that file then plays."""

from __future__ import annotations


import numpy as np
import pytest

import pyglet

pyglet.options["shadow_window"] = False

from pyglet.window import key  # noqa: E402

from engine.app.modes.campath import CameraPath  # noqa: E402
from engine.app.pathsave import save_path, without_path  # noqa: E402
from engine.errors import AerieError  # noqa: E402
from engine.render.camera import scene_path  # noqa: E402
from engine.resources import shipped_scene  # noqa: E402
from engine.scene import load_scene  # noqa: E402

from test_window_modes import FakeWin  # noqa: E402


@pytest.fixture
def win(tmp_path):
    src = shipped_scene("showcase")          # without its own "window" path: the mode starts a new one
    (tmp_path / "showcase.toml").write_text(without_path(src.read_text(), "window"))
    w = FakeWin()
    w.scene = load_scene(str(tmp_path / "showcase.toml"))
    from engine.app.camera_control import CameraControl

    w.camctl = CameraControl(w.scene, [])
    w.shot_dir = tmp_path / "shots"
    return w


def _fly_to(win, eye, look):
    from engine.app.camera_control import Pose
    from engine.render.camera import Camera

    pose = Pose.from_camera(Camera(tuple(eye), tuple(look), 50.0))
    win.camctl.mode = "orbit"
    win.camctl.goal, win.camctl.cur = pose, pose.copy()


@pytest.mark.unit
def test_keys_from_the_view_edit_and_save(win, tmp_path):
    win.key(key.P, key.MOD_CTRL)
    m = win.modes.top
    assert isinstance(m, CameraPath) and m.keys == []
    views = [((10, 10, 30), (48, 48, 4)), ((30, 5, 25), (48, 48, 4)), ((60, 20, 28), (48, 48, 4)),
             ((80, 60, 35), (48, 48, 4))]
    for eye, look in views:
        _fly_to(win, eye, look)
        win.key(key.ENTER)
    assert [k["t"] for k in m.keys] == [0, 2, 4, 6]
    assert np.allclose(m.keys[2]["position"], (60, 20, 28), atol=1e-3) and m.keys[2]["fov"] == 50.0
    pr = win.vstate.campath
    assert pr is not None and len(pr.lines) > 60            # the path and the selected key's frustum
    win.key(key.TAB, key.MOD_SHIFT)                         # select key 3
    win.key(key.EQUAL)                                      # its time +0.5 s: the keys after it move too
    assert [k["t"] for k in m.keys] == [0, 2, 4.5, 6.5]
    win.key(key.Z)                                          # easing: ease -> linear
    assert m.keys[2]["easing"] == "linear"
    win.key(key.BRACKETLEFT)                                # reorder: its view goes before key 2
    assert m.sel == 1 and np.allclose(m.keys[1]["position"], (60, 20, 28), atol=1e-3)
    assert [k["t"] for k in m.keys] == [0, 2, 4.5, 6.5]
    win.key(key.BRACKETRIGHT)
    _fly_to(win, (62, 22, 29), (48, 48, 4))
    win.key(key.R)                                          # replace with the current view
    assert np.allclose(m.keys[2]["position"], (62, 22, 29), atol=1e-3)
    win.key(key.DELETE)
    assert len(m.keys) == 3 and not m.saved
    win.key(key.PERIOD)                                     # scrub: the view holds the path's camera at 0.25 s
    assert win.camctl.mode == "flythrough" and win.camctl.paused
    assert win.camctl.camera() == m.path(win.scene.world).at(0.25)
    before = (tmp_path / "showcase.toml").read_text()
    win.key(key.F5)
    assert m.saved, win.said
    after = (tmp_path / "showcase.toml").read_text()
    assert after.startswith(before.rstrip("\n"))             # the rest of the file kept as it was, comments too
    sc = load_scene(str(tmp_path / "showcase.toml"))
    saved = scene_path(sc, [], name="window", world=sc.world)
    mine = m.path(win.scene.world)
    for t in np.linspace(0, mine.duration, 17):
        assert saved.at(t) == mine.at(t)
    # saved again after an edit: the old keys of the path are replaced, not added to
    win.key(key.ENTER)
    win.key(key.F5)
    sc = load_scene(str(tmp_path / "showcase.toml"))
    assert len(sc.flypaths["window"]) == 4 and set(sc.flypaths) == {"default", "rider", "knight", "window"}
    # N names it: typed on the bottom line (the N itself is not part of the name), saved beside the old one
    win.key(key.N, text="n")
    win.type("low pass")
    assert m.status(win.table)[0].startswith("name of the camera path: low pass_")
    win.key(key.ENTER)
    assert m.path_name == "low pass" and not m.saved
    win.key(key.N, text="n")
    win.type("a/b")
    win.key(key.ENTER)                                      # not a name: refused, still typing
    assert m.naming == "a/b" and m.path_name == "low pass"
    win.key(key.ESCAPE)
    win.key(key.F5)
    sc = load_scene(str(tmp_path / "showcase.toml"))
    assert len(sc.flypaths["low pass"]) == 4 and len(sc.flypaths["window"]) == 4
    win.key(key.P, key.MOD_CTRL)
    assert not isinstance(win.modes.top, CameraPath) and win.vstate.campath is None


@pytest.mark.unit
def test_the_mode_opens_the_scenes_own_window_path():
    w = FakeWin()
    w.key(key.P, key.MOD_CTRL)
    m = w.modes.top
    assert len(m.keys) == 6 and m.duration() == 20.0 and m.saved and w.vstate.campath is not None


@pytest.mark.unit
def test_saving_never_loses_other_content(tmp_path):
    p = tmp_path / "s.toml"
    text = shipped_scene("showcase").read_text() + "\n# a note the GM wrote at the end\n"
    p.write_text(text)
    keys = [{"t": 0.0, "position": [1, 1, 30], "look_at": [40, 40, 0], "fov": 50.0, "easing": "ease"}]
    save_path(p, "rider", keys)                      # replaces the rider path's keys only
    new = p.read_text()
    assert "# a note the GM wrote at the end" in new and new.count('path = "rider"') == 1
    assert without_path(new, "rider").count("[[flythrough]]") == text.count("[[flythrough]]") - 2
    # a refused save writes nothing: a bad name, no keys, a key the scene would refuse
    for name, ks in (("a/b", keys), ("ok", []), ("ok", [dict(keys[0], fov=500.0)])):
        with pytest.raises(AerieError):
            save_path(p, name, ks)
        assert p.read_text() == new
    assert list(tmp_path.iterdir()) == [p]           # no temporary file left behind


@pytest.mark.unit
def test_a_key_inside_a_wall_is_flagged(win):
    win.key(key.P, key.MOD_CTRL)
    m = win.modes.top
    sc = win.scene
    solid = sc.world.solid()
    z, y, x = (int(v[0]) for v in np.nonzero(solid[3:, :, :]))
    m.keys = [{"t": 0.0, "position": [(x + 0.5) * 1.5, (y + 0.5) * 1.5, z + 3.5], "look_at": [48.0, 48.0, 40.0],
               "fov": 50.0, "easing": "ease"}]
    m.sel = 0
    assert m.inside_wall(win.table, m.keys[0]) and "INSIDE A WALL" in m.status(win.table)[0]


@pytest.mark.gl
@pytest.mark.slow
def test_f6_renders_the_saved_path_in_the_background(win, tmp_path):
    import time

    import imageio.v3 as iio

    win.key(key.P, key.MOD_CTRL)
    m = win.modes.top
    _fly_to(win, (10, 10, 30), (48, 48, 4))
    win.key(key.ENTER)
    _fly_to(win, (30, 5, 25), (48, 48, 4))
    win.key(key.ENTER)
    win.key(key.MINUS)
    win.key(key.MINUS)
    win.key(key.MINUS)                                      # 2 s -> 0.5 s: a short video
    assert [k["t"] for k in m.keys] == [0, 0.5]
    win.key(key.F6)
    assert m.render_job is None and "save the path first" in win.said[-1]
    win.key(key.F5)
    scene_text = (tmp_path / "showcase.toml").read_text()
    win.key(key.F6)
    job = m.render_job
    assert job is not None and job["out"] == tmp_path / "showcase-window.mp4"
    t0 = time.time()
    while job["progress"] not in ("done", "failed") and time.time() - t0 < 240:
        assert m.status(win.table)[0]                              # the table goes on meanwhile
        time.sleep(0.2)
    assert job["progress"] == "done", job
    assert iio.imread(job["out"], index=None).shape == (15, 720, 1280, 3)      # 0.5 s at 30 fps
    assert (tmp_path / "showcase.toml").read_text() == scene_text
