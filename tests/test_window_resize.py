"""Issue 23 item 7: labels are laid out again after a resize. The HUD's, the captions' and the token labels'
font sizes are chosen for the window's size; a window opened large and made small (or the other way) must get
the sizes a window opened at its new size gets, and the token labels laid out again at them."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_window import display  # noqa: F401  (the display fixture)

ROOT = Path(__file__).resolve().parents[1]

RESIZE = r'''
import json, sys
import pyglet
pyglet.options["shadow_window"] = False
from engine.app.window import PlayWindow
from engine.scene import load_scene
scene = load_scene(sys.argv[1])
def frames(w, n=3):
    for _ in range(n):
        w.dispatch_events(); w.tick(1/30); w.switch_to(); w.on_draw(); w.flip()
def fonts(w):
    return [w.hud.px, w.big.px, w.tok.px]
out = {}
for a, b in (((1280, 720), (640, 360)), ((640, 360), (1280, 720))):
    fresh = PlayWindow(scene, 7, b)
    frames(fresh)
    want = fonts(fresh)
    fresh.quit()
    w = PlayWindow(scene, 7, a)
    frames(w)
    before = fonts(w)
    w.set_size(*b)
    frames(w)
    w.on_resize(*b)                      # as pyglet sends it (the X server may have sent it already)
    frames(w)
    out[f"{a[0]}->{b[0]}"] = {"before": before, "after": fonts(w), "fresh": want}
    w.quit()
print("RESULT " + json.dumps(out))
'''


@pytest.mark.window
def test_item7_a_resized_window_lays_its_labels_out_at_the_new_sizes(display, tmp_path):  # noqa: F811
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, DISPLAY=display, AERIE_SAVE=str(tmp_path / "game.save.json"),
               PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, "-c", RESIZE, str(ROOT / "scenes" / "showcase.toml")], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=240)
    line = next((x for x in r.stdout.splitlines() if x.startswith("RESULT ")), None)
    assert line, (r.returncode, r.stdout[-2000:], r.stderr[-3000:])
    out = json.loads(line[7:])
    for way, got in out.items():
        assert got["before"] != got["fresh"], (way, got)      # the sizes differ: the resize has something to do
        assert got["after"] == got["fresh"], (way, got)
    assert "Traceback" not in r.stderr, r.stderr[-2000:]
