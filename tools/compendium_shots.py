"""Issue 44's and 39's stills at 1280 x 720 (docs/window.md): the GM's compendium (Ctrl+B) searching "dragon" over
the showcase, and a Fireball aimed from the cast menu (its sphere drawn in 3D, the harpies it catches ringed).
The window's own code, a scripted state per shot. ``xvfb-run -a -s "-screen 0 1920x1080x24" python
tools/compendium_shots.py [compendium|fireball]``."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pyglet

pyglet.options["shadow_window"] = False

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402
from pyglet.window import key  # noqa: E402

from engine.app.window import PlayWindow  # noqa: E402
from engine.scene import load_scene  # noqa: E402
sys.path.insert(0, str(ROOT / "tools"))
from table_shots import frames  # noqa: E402


def wait_jobs(win, n=200):
    """Frames until the workers' previews are in (the area and who it catches come from the rules' preview)."""
    import time

    for _ in range(n):
        frames(win, 2)
        if not win.jobs.busy():
            frames(win, 4)
            if not win.jobs.busy():
                return
        time.sleep(0.05)


def compendium(win):
    """Ctrl+B over the showcase, the cursor on a cell of the square; "dragon" typed, then Down to the adult red
    dragon (its stat block names what the rules leave out, and why)."""
    win.ctl.hover = (30, 30, 0)
    win.modes.dispatch(win.table, "on_key", key.B, key.MOD_CTRL)
    for ch in "dragon":
        win.modes.dispatch(win.table, "on_text", ch)
    for _ in range(8):
        win.modes.dispatch(win.table, "on_key", key.DOWN, 0)


def fireball(win):
    """The mage casts: Fireball picked in the cast menu, aimed at a cell between the harpies."""
    from engine.app import areaspell
    from engine.app.sections.castmenu import pick

    ctl = win.ctl
    ctl.select_current()
    ctl.choose("cast")
    pick(ctl, "fireball")
    areaspell.aim_at(ctl, "at", [12, 5, 5])
    ctl.hover = (12, 5, 5)
    wait_jobs(win)


def breath(win):
    """A young red dragon (srd =) at the mage's side of the field breathes fire at the mage: the action bar's
    creature action, and under the selected panel its recharge state, spent."""
    ctl = win.ctl
    act = next(v for v in ctl.legal() if v["action"] == "creature_action")
    win.apply(ctl.step, act)
    ctl.select("drake")
    wait_jobs(win)


DRAKE = ('[[characters]]\nid = "drake"\nsrd = "young-red-dragon"\nside = "sky"\nat = [5, 10, 0]\ninitiative = 30\n\n'
         '[[characters]]\nid = "mage"')


SHOTS = {"compendium": (compendium, "showcase.toml"), "fireball": (fireball, "dnd_spells_vs_flyers.toml"),
         "breath": (breath, "dnd_spells_vs_flyers.toml")}


def shot(name, size=(1280, 720)):
    setup, scene = SHOTS[name]
    path = ROOT / "scenes" / scene
    if name == "breath":                 # the scene with a dragon in it, beside the others (a temporary file)
        import tempfile

        path = Path(tempfile.mkdtemp()) / "drake.toml"
        path.write_text((ROOT / "scenes" / scene).read_text().replace('[[characters]]\nid = "mage"', DRAKE, 1))
    win = PlayWindow(load_scene(str(path)), 7, size)
    setup(win)
    frames(win)
    wait_jobs(win)
    win.switch_to()
    win.on_draw()
    out = ROOT / "docs" / "images" / f"window_{name}_{size[0]}x{size[1]}.png"
    Image.fromarray(np.ascontiguousarray(win.grab())).save(out, format="PNG", optimize=True)
    win.flip()
    win.quit()
    print(out)


if __name__ == "__main__":
    import os

    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT / "tools"))
    for name in sys.argv[1:] or SHOTS:
        shot(name)
