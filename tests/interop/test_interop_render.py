"""The imported map rendered (EGL): the floor shows the map's image, the walls stand on it where the file puts
them, and a scene without the key draws as before (the goldens in test_render_gl.py)."""

import numpy as np
import pytest
from PIL import Image

from gl_render import require_egl

pytestmark = pytest.mark.gl


@pytest.fixture(scope="module")
def egl():
    require_egl()


def test_the_floor_shows_the_map_and_the_walls_stand_on_it(egl, aerie, tmp_path):
    from engine.render.camera import scene_camera
    from engine.scene import load_scene
    from test_interop import uvtt, write

    src = write(tmp_path, "room.dd2vtt", uvtt())
    out = tmp_path / "o"
    out.mkdir()
    assert aerie("import", src, "-o", out / "room.toml").returncode == 0
    assert aerie("import", src, "-o", out / "plain.toml", "--no-image").returncode == 0
    size = (400, 400)
    for name in ("room", "plain"):
        r = aerie("render", out / f"{name}.toml", "-o", out / f"{name}.png", "--camera", "top", "--size", "400x400")
        assert r.returncode == 0, r.stderr
    img = np.asarray(Image.open(out / "room.png").convert("RGB")).astype(int)
    plain = np.asarray(Image.open(out / "plain.png").convert("RGB")).astype(int)
    scene = load_scene(out / "room.toml")
    cam = scene_camera(scene, "top")
    cm = scene.world.cell_m

    def px(x, y, z=0.0):                     # metres -> pixel (row, col)
        sx, sy, _ = cam.project([(x, y, z)], size)[0]
        return int(sy), int(sx)

    def red(p):
        return p[0] > 50 and p[0] > 2 * p[1]   # lit or in a wall's shadow

    # floor inside the room, north-west quarter of the image (cells x 2..4, y 5..8): red; south-east: sand
    nw = [img[px((x + 0.5) * cm, (y + 0.5) * cm)] for x in (2, 3) for y in (7, 8)]
    se = [img[px((x + 0.5) * cm, (y + 0.5) * cm)] for x in (6, 7) for y in (2, 3)]
    assert all(red(p) for p in nw), nw
    assert all(not red(p) and p[1] > 0.8 * p[0] for p in se), se
    # without the image the same pixels are the plain ground colour, never red
    assert not any(red(plain[px((x + 0.5) * cm, (y + 0.5) * cm)]) for x in (2, 3) for y in (7, 8))
    # the west wall's top (cell x 1, 3 m up) is stone grey, not the image
    for y in (2, 3, 7):
        p = img[px(1.5 * cm, (y + 0.5) * cm, 3.0)]
        assert abs(p[0] - p[1]) < 25 and abs(p[1] - p[2]) < 25 and p[0] > 60, (y, p)


def test_each_storey_shows_its_image_and_the_cut_opens_the_house(egl, aerie, tmp_path):
    """A v12 tower (test_interop_storeys): the upper floor shows its tile's image (blue) from above; the house's
    tops are walls and floor, not the ground's sand; with ``--cut-above 1`` the upper floor is gone and the ground
    storey's floor (the sand background) shows inside the house."""
    from engine.render.camera import scene_camera
    from engine.scene import load_scene
    from test_interop_storeys import imported, scene_modern

    s, _, _ = imported(aerie, tmp_path, "tower", scene_modern("12.331"))
    out = tmp_path / "tower.toml"
    pics = {}
    for name, flags in (("whole", ()), ("cut", ("--cut-above", "1"))):
        r = aerie("render", out, "-o", tmp_path / f"{name}.png", "--camera", "top", "--size", "400x400", *flags)
        assert r.returncode == 0, r.stderr
        pics[name] = np.asarray(Image.open(tmp_path / f"{name}.png").convert("RGB")).astype(int)
    cam = scene_camera(load_scene(out), "top")
    cm = s.world.cell_m

    def px(x, y, z):
        sx, sy, _ = cam.project([((x + 0.5) * cm, (y + 0.5) * cm, z)], (400, 400))[0]
        return int(sy), int(sx)

    inside = [(7, 3), (7, 7), (7, 5)]                                    # away from the labels
    blue = [pics["whole"][px(x, y, 3.0)] for x, y in inside]           # the upper floor's top, 3 m up
    assert all(p[2] > 1.5 * p[0] and p[2] > 60 for p in blue), blue
    sand = [pics["cut"][px(x, y, 0.0)] for x, y in inside]               # cut: the ground storey's floor
    assert all(p[0] > p[2] and p[1] > p[2] for p in sand), sand
    assert aerie("render", out, "-o", tmp_path / "x.png", "--cut-above", "99").returncode == 2
