"""The imported map rendered (EGL): the floor shows the map's image, the walls stand on it where the file puts
them, and a scene without the key draws as before (the goldens in test_render_gl.py)."""

import numpy as np
import pytest
from PIL import Image

pytestmark = pytest.mark.gl


@pytest.fixture(scope="module")
def egl():
    moderngl = pytest.importorskip("moderngl")
    try:
        ctx = moderngl.create_standalone_context(backend="egl", require=330)
    except Exception as e:  # noqa: BLE001
        pytest.skip(f"EGL is not available here: {e}")
    ctx.release()


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
