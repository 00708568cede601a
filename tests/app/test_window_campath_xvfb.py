"""Issue 42 under Xvfb with real X input: five keyframes recorded by moving the camera and pressing Enter in the
camera-path mode, saved into the scene (F5), and `aerie flythrough --path` of that file renders the frames the
window previews (F9) at the same times, within the renderer's golden tolerance."""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
import pytest

from engine.app.pathsave import without_path
from engine.resources import shipped_scene

from test_window import App, display  # noqa: F401  (the display fixture)

pytestmark = [pytest.mark.window, pytest.mark.slow]

MEAN_TOL, PIXEL_TOL, FRACTION_TOL = 1.5, 32, 0.005        # tests/render/test_render_gl.py's golden tolerance


def _cp(st):
    return st["window"]["campath"]


def test_five_keys_made_in_the_window_render_as_previewed(display, tmp_path):
    from PIL import Image

    scene = tmp_path / "showcase.toml"
    scene.write_text(without_path(shipped_scene("showcase").read_text(), "window"))    # a new path, not its own
    app = App(display, scene, tmp_path)
    try:
        app.idle()
        app.key("ctrl+p")
        app.wait(lambda s: _cp(s) is not None, 10, "the camera-path mode")
        eyes = []
        for i in range(5):
            if i:                                  # move the camera: orbit with a drag, zoom with the wheel
                app.move(640, 120)
                app.xdo("mousedown", "1")
                for _ in range(6):
                    app.xdo("mousemove_relative", "--", "25", "4")
                    time.sleep(0.03)
                app.xdo("mouseup", "1")
                app.xdo("click", "4" if i % 2 else "5")
            time.sleep(0.8)                        # the camera glides to where the input sent it
            st = app.idle()
            eye = st["window"]["camera"]["position"]
            app.key("Return")
            st = app.wait(lambda s, n=i + 1: len(_cp(s)["keys"]) == n, 10, f"key {i + 1}")
            k = _cp(st)["keys"][i]
            assert np.allclose(k["position"], eye, atol=0.5) and k["t"] == 2.0 * i     # the view, when Enter came
            assert all(np.linalg.norm(np.subtract(k["position"], e)) > 1.0 for e in eyes), "the camera did not move"
            eyes.append(k["position"])
        app.key("F5")
        st = app.wait(lambda s: _cp(s)["saved"], 20, "the save")
        assert 'path = "window"' in scene.read_text()
        # the preview at a few times: scrub with . (0.25 s; the last past the end stays at 8 s), F9 writes the previewed frame
        stills = {}
        for presses, t in ((["period"] * 2, 0.5), (["period"] * 12, 3.5), (["period"] * 11, 6.25),
                           (["period"] * 8, 8.0)):
            app.key(*presses)
            app.wait(lambda s, t=t: abs(_cp(s)["t"] - t) < 1e-9, 10, f"the scrub to {t} s")
            before = _cp(app.state())["still"]
            app.key("F9")
            st = app.wait(lambda s, b=before: _cp(s)["still"] not in (None, b), 30, f"the still at {t} s")
            stills[t] = _cp(st)["still"]
        assert st["window"]["camera"]["mode"] == "flythrough"      # the view holds the path's camera
    finally:
        app.close()
    for t, still in stills.items():
        out = tmp_path / f"cli-{t}.png"
        r = subprocess.run([sys.executable, "-m", "engine", "flythrough", str(scene), "--path", "window", "--at",
                            str(t), "--size", "640x360", "-o", str(out)], capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        a = np.asarray(Image.open(still).convert("RGB")).astype(int)
        b = np.asarray(Image.open(out).convert("RGB")).astype(int)
        d = np.abs(a - b)
        mean, frac = d.mean(), (d.max(axis=2) > PIXEL_TOL).mean()
        assert mean <= MEAN_TOL and frac <= FRACTION_TOL, (t, mean, frac)
        # and the frames are of different views (the comparison is not of one picture)
        assert a.std() > 10
    imgs = [np.asarray(Image.open(stills[t]).convert("RGB")).astype(int) for t in sorted(stills)]
    assert all(np.abs(x - y).mean() > 5 for x, y in zip(imgs, imgs[1:]))
