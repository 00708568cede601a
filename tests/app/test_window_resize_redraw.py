"""Issue 40 item 4: after a resize the window (the GM's, and the players' screen of F4) lays out at once, not at the
next change of state. The one frame drawn at the resize went to the old-sized drawable: on screen it stood shifted
down by the change of height, its bottom (the action buttons) cut, the old frame's top left above it. The X
window's own pixels (xwd) are compared with the frame the window draws when asked."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from test_window import display  # noqa: F401  (the display fixture)

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r'''
import json, subprocess, sys, time
import numpy as np
import pyglet
pyglet.options["shadow_window"] = False
from pyglet.window import key
from engine.app.window import PlayWindow
from engine.scene import load_scene

def xwd(win):
    """The X window's pixels as the X server holds them, [H, W, 3]."""
    raw = subprocess.run(["xwd", "-silent", "-id", str(win._window)], capture_output=True, check=True).stdout
    h = np.frombuffer(raw[:100], ">u4")
    hsize, w, hh, order, bpp, bpl, ncol = int(h[0]), int(h[4]), int(h[5]), int(h[7]), int(h[11]), int(h[12]), int(h[19])
    n = bpp // 8                        # 3 or 4 bytes a pixel, blue first (LSB first) or last
    assert n in (3, 4), bpp
    px = np.frombuffer(raw[hsize + 12 * ncol:hsize + 12 * ncol + bpl * hh], np.uint8).reshape(hh, bpl)[:, :w * n]
    px = px.reshape(hh, w, n)
    return px[:, :, [2, 1, 0]] if order == 0 else px[:, :, [n - 3, n - 2, n - 1]]

gm = PlayWindow(load_scene(sys.argv[1]), 7, (1000, 640))
def pump(seconds):
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for w in [gm] + ([gm.mirror] if gm.mirror else []):
            w.switch_to(); w.dispatch_events(); w.tick(1 / 30); w.draw(1 / 30)    # pyglet's redraw: skipped when nothing changed
        time.sleep(0.02)
pump(1.0)
out = {}

def resized(name, w, size):
    subprocess.run(["xdotool", "windowsize", str(w._window), str(size[0]), str(size[1])], check=True)
    pump(1.5)
    seen = xwd(w).astype(int)
    w.switch_to(); w.on_draw()
    want = w.grab().astype(int)         # the frame it draws now, at its size
    w.flip()
    same = seen.shape == want.shape
    out[name] = {"size": list(w.get_size()), "shape": list(seen.shape[:2]),
                 "diff": float(np.abs(seen - want).mean()) if same else None}

resized("gm", gm, (900, 560))           # before F4: the players' screen opens over a part of it
gm.on_key_press(key.F4, 0)
pump(1.0)
resized("players", gm.mirror, (700, 480))
print("RESULT " + json.dumps(out), flush=True)
gm.on_key_press(key.F4, 0)
pump(0.2)
gm.quit()
'''


@pytest.mark.window
@pytest.mark.slow
def test_item4_a_resize_lays_the_window_out_at_once(display, tmp_path):  # noqa: F811
    import json
    import os
    import subprocess
    import sys

    if shutil.which("xwd") is None:
        pytest.skip("xwd not installed (apt-get install x11-apps)")
    env = dict(os.environ, DISPLAY=display, AERIE_SAVE=str(tmp_path / "game.save.json"),
               PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT / "scenes" / "showcase.toml")], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=240)
    line = next((x for x in r.stdout.splitlines() if x.startswith("RESULT ")), None)
    assert line, (r.returncode, r.stdout[-2000:], r.stderr[-3000:])
    out = json.loads(line[7:])
    assert out["gm"]["size"] == [900, 560] and out["players"]["size"] == [700, 480], out
    for name in ("gm", "players"):
        assert out[name]["shape"] == out[name]["size"][::-1], out
        assert out[name]["diff"] < 2.0, out          # on screen: the frame at the new size, not a shifted old one
