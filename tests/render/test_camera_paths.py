"""Camera paths (issue 42): named paths, the smooth spline and its speed profile, character targets, walls.
Pure numpy: engine/render/camera.py and camerapath.py over scenes parsed from TOML."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from engine.errors import SceneError
from engine.render.camera import Key, Path as CamPath, scene_path
from engine.render.camerapath import Track, keep_out
from engine.render.state import RenderState
from engine.rules.saves import scene_hash
from engine.scene import load_scene, parse_scene

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]
BEFORE = json.loads((ROOT / "tests/render/data/showcase_flythrough_before.json").read_text())

BASE = """
version = 1
name = "paths"
ruleset = "dnd5e"
[map]
size = [20, 20, 12]
cell_m = 1.5
[[map.fill]]
material = "stone"
from = [8, 0, 0]
to = [9, 19, 9]
[[characters]]
id = "a"
name = "Anna (scout)"
at = [2, 2, 0]
max_hp = 10
ac = 12
speed_m = 9
[[characters]]
id = "b"
at = [16, 16, 4]
flying = true
max_hp = 10
ac = 12
speed_m = 9
fly_speed_m = 12
"""


def scene(extra: str):
    return parse_scene(BASE + extra, "t.toml")


def key(t, pos, look, **kw) -> str:
    more = "".join(f"{k} = {json.dumps(v)}\n" for k, v in kw.items())
    return f"[[flythrough]]\nt = {t}\nposition = {list(pos)}\nlook_at = {json.dumps(look)}\n{more}"


# -- scenes before issue 42 ------------------------------------------------------------------------------------
def test_showcase_default_path_keeps_its_timing_and_end_points():
    """The showcase's keys (written before paths had names) against the camera main's code drew (sampled then,
    tests/render/data): same duration, the same camera at every key's time, same start and end."""
    sc = load_scene("showcase")
    p = scene_path(sc, [], world=sc.world)
    assert p.duration == BEFORE["duration"] == 12.0
    keys = {k.t for k in sc.spec.flythrough}
    assert keys == {0.0, 4.0, 8.0, 12.0}
    for s in BEFORE["samples"]:
        if s["t"] in keys or s["t"] > 12.0:
            cam = p.at(s["t"])
            assert np.allclose(cam.position, s["position"], atol=1e-9), s["t"]
            assert np.allclose(cam.look_at, s["look_at"], atol=1e-9), s["t"]
            assert cam.fov == s["fov"]
    # and a key between is now on a curve, not the old straight line (the spline is really used)
    mid = [s for s in BEFORE["samples"] if s["t"] == 6.0][0]
    assert np.linalg.norm(np.subtract(p.at(6.0).position, mid["position"])) > 1.0


def test_linear_curve_is_the_old_straight_path_exactly():
    """curve = "linear" on every key gives every sample of the old path (main's code, all 126 samples)."""
    sc = load_scene("showcase")
    p = scene_path(sc, [])
    lin = CamPath([Key(k.t, k.position, k.look_at, k.easing, k.fov, "linear") for k in p.keys])
    for s in BEFORE["samples"]:
        cam = lin.at(s["t"])
        assert np.allclose(cam.position, s["position"], atol=1e-9) and np.allclose(cam.look_at, s["look_at"], atol=1e-9)


def test_named_keys_do_not_change_the_content_hash():
    sc = load_scene("showcase")
    assert set(sc.flypaths) >= {"default", "rider", "knight"}
    bare = (ROOT / "scenes/showcase.toml").read_text().split("# Named camera paths")[0]
    assert scene_hash(parse_scene(bare, "s.toml", ROOT / "scenes")) == scene_hash(sc)


# -- smooth paths ----------------------------------------------------------------------------------------------
def _velocities(path, t, h=1e-3):
    a, b, c = (np.array(path.at(x).position) for x in (t - h, t, t + h))
    return (b - a) / h, (c - b) / h


def test_no_velocity_jump_at_an_inner_key():
    sc = scene(key(0, (0, 0, 20), (15, 15, 0), easing="linear") + key(3, (25, 5, 25), (15, 15, 0), easing="linear")
               + key(5, (28, 28, 18), (15, 15, 0), easing="linear") + key(9, (0, 28, 22), (15, 15, 0), easing="ease-out"))
    p = scene_path(sc, [])
    for t in (3.0, 5.0):
        vl, vr = _velocities(p, t)
        assert np.linalg.norm(vl) > 3.0                       # it passes through at speed, it does not stop
        assert np.linalg.norm(vl - vr) < 0.02 * np.linalg.norm(vl), (t, vl, vr)
        # the look-at too: a fixed one here; the field of view likewise (constant)
    # the old straight path (curve = "linear") does jump there: the test tells them apart
    lin = CamPath([Key(k.t, k.position, k.look_at, k.easing, k.fov, "linear") for k in p.keys])
    vl, vr = _velocities(lin, 3.0)
    assert np.linalg.norm(vl - vr) > 0.3 * np.linalg.norm(vl)


def test_look_at_is_eased_without_a_snap():
    sc = scene(key(0, (0, 0, 20), (5, 5, 0), easing="linear") + key(4, (20, 0, 20), (25, 5, 0), easing="linear")
               + key(8, (28, 20, 20), (25, 25, 0), easing="ease-out"))
    p = scene_path(sc, [])
    h = 1e-3
    la = [np.array(p.at(x).look_at) for x in (4 - h, 4, 4 + h)]
    vl, vr = (la[1] - la[0]) / h, (la[2] - la[1]) / h
    assert np.linalg.norm(vl) > 1.0 and np.linalg.norm(vl - vr) < 0.02 * np.linalg.norm(vl)


def test_centripetal_spline_does_not_loop_back_on_a_sharp_turn():
    """Keys close together then far apart: a uniform Catmull-Rom runs backwards between the close keys (a loop);
    the centripetal one moves forward along x throughout and stays near the keys."""
    pts = np.array([[0, 0, 0], [1, 0.2, 0], [1.2, 0, 0], [10, 0, 0]], dtype=float)
    tr = Track([0, 1, 2, 3], pts, ["linear"] * 4, ["smooth"] * 4)
    xs = np.array([tr.at(t) for t in np.linspace(0, 3, 601)])
    assert xs[:, 0].min() >= -1e-9 and xs[:, 0].max() <= 10 + 1e-9
    assert np.abs(xs[:, 1]).max() <= 0.25
    assert (np.diff(xs[:, 0]) >= -1e-6).all()
    u = np.linspace(0, 1, 101)[:, None]          # the uniform spline's middle segment, for contrast
    m1, m2 = (pts[2] - pts[0]) / 2, (pts[3] - pts[1]) / 2
    uni = ((2 * u**3 - 3 * u**2 + 1) * pts[1] + (u**3 - 2 * u**2 + u) * m1 + (-2 * u**3 + 3 * u**2) * pts[2]
           + (u**3 - u**2) * m2)
    assert (np.diff(uni[:, 0]) < -1e-3).any()


def test_ease_stops_at_the_key_and_constant_speed_is_one_speed():
    keys = key(0, (0, 0, 20), (15, 15, 0)) + key(2, (6, 0, 20), (15, 15, 0)) + key(10, (26, 20, 20), (15, 15, 0))
    p = scene_path(scene(keys), [])
    vl, vr = _velocities(p, 2.0)
    assert np.linalg.norm(vl) < 0.05 and np.linalg.norm(vr) < 0.05      # "ease": the camera stops at the key
    c = scene_path(scene(keys.replace("t = 0\n", 't = 0\nspeed = "constant"\n', 1)), [])
    ts = np.linspace(0.05, 9.95, 200)
    sp = [np.linalg.norm(np.subtract(c.at(t + 0.01).position, c.at(t).position)) / 0.01 for t in ts]
    assert c.duration == 10 and max(sp) / min(sp) < 1.05
    assert np.allclose(c.at(10).position, (26, 20, 20)) and np.allclose(c.at(0).position, (0, 0, 20))


# -- targets -----------------------------------------------------------------------------------------------------
def test_follow_and_look_at_a_character_track_it_as_it_moves():
    sc = scene('[[flythrough]]\nt = 0\nfollow = "b"\noffset = [0.0, -8.0, 4.0]\n'
               '[[flythrough]]\nt = 5\nposition = [1.0, 1.0, 15.0]\nlook_at = "a"\n')
    p = scene_path(sc, [], world=sc.world)
    chars = RenderState.from_scene(sc).characters
    from engine.render.camera import char_points

    where = char_points(sc.world, chars)
    b = where["b"]
    cam = p.at(0.0, where)
    assert np.allclose(cam.position, b + (0, -8, 4)) and np.allclose(cam.look_at, b)
    moved = dict(where, b=b + (3.0, 2.0, 1.0))
    cam = p.at(0.0, moved)
    assert np.allclose(cam.position, moved["b"] + (0, -8, 4)) and np.allclose(cam.look_at, moved["b"])
    assert np.allclose(p.at(5.0, where).look_at, where["a"])


def test_orbit_circles_the_character_at_its_radius():
    sc = scene('[[flythrough]]\nt = 0\norbit = "b"\nradius = 10.0\nheight = 5.0\nturn = 180.0\nseconds = 6.0\n')
    p = scene_path(sc, [])
    from engine.render.camera import char_points

    where = char_points(sc.world, RenderState.from_scene(sc).characters)
    c = where["b"]
    for t in np.linspace(0, 6, 25):
        cam = p.at(t, where)
        d = np.array(cam.position) - c
        assert abs(np.hypot(d[0], d[1]) - 10.0) < 0.35 and abs(d[2] - 5.0) < 1e-6
        assert np.allclose(cam.look_at, c)
    assert np.allclose(np.array(p.at(0, where).position) - c, (0, -10, 5), atol=1e-6)   # start 0: from the south
    assert np.allclose(np.array(p.at(6, where).position) - c, (0, 10, 5), atol=1e-6)    # half a turn: the north


# -- walls -------------------------------------------------------------------------------------------------------
def test_a_path_through_a_wall_is_pulled_towards_the_look_at():
    # a straight move through the stone wall (cells x 8-9, 10 m high) at 5 m up, looking at a point beyond it
    sc = scene(key(0, (4, 15, 5), (26, 15, 5), easing="linear", curve="linear")
               + key(4, (26, 15, 5), (28, 15, 5), easing="linear", curve="linear"))
    raw, kept = scene_path(sc, []), scene_path(sc, [], world=sc.world)
    solid = sc.world.solid()

    def inside(p):
        x, y, z = int(p[0] // 1.5), int(p[1] // 1.5), int(p[2])
        return bool(solid[z, y, x])

    ts = np.linspace(0, 4, 161)
    assert any(inside(raw.at(t).position) for t in ts)             # the spline itself does pass through it
    assert not any(inside(kept.at(t).position) for t in ts)
    moved = [t for t in ts if not np.allclose(raw.at(t).position, kept.at(t).position)]
    assert moved and all(np.linalg.norm(np.subtract(kept.at(t).position, raw.at(t).look_at))
                         < np.linalg.norm(np.subtract(raw.at(t).position, raw.at(t).look_at)) for t in moved)


def test_showcase_paths_stay_out_of_solid_voxels():
    sc = load_scene("showcase")
    w = sc.world
    solid, cm = w.solid(), w.cell_m
    Z, Y, X = solid.shape
    from engine.render.camera import char_points

    where = char_points(w, RenderState.from_scene(sc).characters)
    checked = 0
    for name in sc.flypaths:
        p = scene_path(sc, [], name=name, world=w)
        for t in np.arange(0, p.duration + 1e-9, 1 / 30):
            e = np.array(p.at(t, where).position)
            assert e[2] > 0.0, (name, t)
            x, y, z = int(e[0] // cm), int(e[1] // cm), int(np.floor(e[2]))
            if 0 <= x < X and 0 <= y < Y and 0 <= z < Z:
                assert not solid[z, y, x], (name, round(t, 3), e)
            checked += 1
    assert checked > 900


def test_keep_out_leaves_a_clear_eye_alone():
    sc = scene("")
    assert np.allclose(keep_out(sc.world, (3.0, 3.0, 5.0), (20.0, 20.0, 0.0)), (3.0, 3.0, 5.0))


# -- bad input -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("extra, where, words", [
    ('[[flythrough]]\nt = 0\nfollow = "nobody"\n', "flythrough[0].follow", "no character 'nobody' (characters: a, b)"),
    ('[[flythrough]]\nt = 0\nposition = [1.0, 1.0, 9.0]\nlook_at = "ghost"\n', "flythrough[0].look_at",
     "no character 'ghost'"),
    (key(0, (1, 1, 9), (5, 5, 0)) + key(0, (2, 1, 9), (5, 5, 0)), "flythrough[1].t", "increase"),
    (key(0, (1, 1, 9), (5, 5, 0), path="tour") + key(3, (2, 1, 9), (5, 5, 0), path="tour")
     + key(2, (2, 2, 9), (5, 5, 0), path="tour"), "flythrough[2].t", "of path 'tour'"),
    ('[[flythrough]]\nt = 0\norbit = "a"\nseconds = 5.0\n' + key(4, (2, 1, 9), (5, 5, 0)), "flythrough[1].t",
     "increase"),
    ('[[flythrough]]\nt = 0\nposition = [1.0, 1.0, 9.0]\nfollow = "a"\n', "flythrough[0]", "exactly one of"),
    (key(0, (1, 1, 9), (5, 5, 0), fov=200.0), "flythrough[0].fov", "outside 1..170"),
    (key(0, (1, 1, 9), (5, 5, 0), path="a/b"), "flythrough[0].path", "not a path name"),
    (key(0, (1, 1, 9), (5, 5, 0), path="p") + '[[flythrough]]\nt = 1\nposition = "up"\nlook_at = [5.0, 5.0, 0.0]\n',
     "flythrough[1].position", "Expected"),                # its own index, though the key before it has a path
])
def test_bad_keys_are_one_line(extra, where, words):
    with pytest.raises(SceneError) as e:
        scene(extra)
    msg = str(e.value)
    assert f"t.toml: {where}:" in msg and words in msg and "\n" not in msg


def test_paths_do_not_mix_their_times():
    """Two paths each start at 0: times rise within a path, not across the file."""
    sc = scene(key(0, (1, 1, 9), (5, 5, 0)) + key(4, (2, 1, 9), (5, 5, 0))
               + key(0, (1, 2, 9), (5, 5, 0), path="low") + key(2, (2, 2, 9), (5, 5, 0), path="low"))
    assert list(sc.flypaths) == ["default", "low"]
    assert scene_path(sc, [], name="low").duration == 2 and scene_path(sc, []).duration == 4
