"""Issue 40's stills of the GM's table, third round, at 1280 x 720 and 1920 x 1080 (docs/window.md): the window's
own code, a scripted state per shot. ``xvfb-run -a -s "-screen 0 1920x1080x24" python tools/table_shots.py``;
item 4's, once per screen size: ``xvfb-run -a -s "-screen 0 1280x720x24" python tools/table_shots.py players_screen``."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pyglet

pyglet.options["shadow_window"] = False

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from engine.app.gmline import gm_line  # noqa: E402
from engine.app.modes.prompts import Chooser  # noqa: E402
from engine.app.perform import open_chooser  # noqa: E402
from engine.app.window import PlayWindow  # noqa: E402
from engine.scene import load_scene  # noqa: E402

FIGHT = [  # a GM edit and its consequence, a table roll, then an attack: what red must not see of blue's numbers
    {"actor": "gm", "action": "gm_set", "target": "wall_archer", "key": "hp", "value": 0},
    {"actor": "gm", "action": "gm_set", "target": "wall_archer", "key": "hp", "value": 5},
    {"actor": "gm", "action": "gm_roll", "dice": "2d6+3", "label": "gust of wind"},
    {"actor": "harpy_low", "action": "move", "to": [33, 29, 3]},
    {"actor": "harpy_low", "action": "end_turn"},
    {"actor": "lookout", "action": "attack", "target": "harpy_low", "rolls": {"attack": 15, "damage": 5, "fall": 2}},
]
MISS = [{"actor": "harpy_low", "action": "end_turn"},       # Oda shoots far beyond the crossbow's normal range
        {"actor": "lookout", "action": "attack", "target": "ground_archer", "rolls": {"attack": [3, 2]}}]


def frames(win, n=8):
    for _ in range(n):
        win.dispatch_events()
        win.tick(1 / 30)
        win.switch_to()
        win.on_draw()
        win.flip()
    while win.anims:
        win.dispatch_events()
        win.tick(1 / 10)
        win.switch_to()
        win.on_draw()
        win.flip()


def shot(name, size, setup):
    scene = load_scene(str(ROOT / "scenes" / SCENES.get(name, "showcase.toml")))
    win = PlayWindow(scene, 7, size)
    setup(win)
    frames(win)
    win.switch_to()
    win.on_draw()
    out = ROOT / "docs" / "images" / f"window_{name}_{size[0]}x{size[1]}.png"
    Image.fromarray(np.ascontiguousarray(win.grab())).save(out, format="PNG", optimize=True)
    win.flip()
    win.quit()
    print(out)


def player(win):
    for a in FIGHT:
        win.apply(win.ctl.step, a)
    win.vstate.player_side = "red"          # Oda's side: Kestrel, hit, is an enemy
    win.vstate.log_scroll = 2
    win.ctl.select("lookout")


def miss(win):
    for a in MISS:
        win.apply(win.ctl.step, a)
    win.ctl.select("lookout")


def blocks(win):
    gm_line(win.ctl, "blocks")


def picker(win):
    open_chooser(win)
    ch = win.modes.find(Chooser)
    ch.filter("fall")


def words(win):
    """Item 5: a baton flyer's AIR-09 reading by its value, an undo said in words."""
    win.ctl.select("grif")
    win.apply(win.ctl.step, {"actor": "gm", "action": "gm_remove", "target": "h2"})
    win.apply(win.ctl.undo)


def add_here(win):
    """Item 7: ;add with the mouse over Sir Aldric: the wyvern (large) at the nearest free cell."""
    k = win.ctl.state.actors["knight"]
    win.ctl.hover = (k.x, k.y, k.layer)
    win.apply(gm_line, win.ctl, "add Rok wyvern side=red")
    win.ctl.select(next(a.id for a in win.ctl.state.actors.values() if a.name == "Rok"))


def templates(win):
    """Item 6: a sphere pinned on Brann by a click on him and kept (Enter), another kept on Vess."""
    from types import SimpleNamespace

    from pyglet.window import key

    win.modes.dispatch(win.table, "on_key", key.Y, 0)
    for cid in ("wall_archer", "ground_archer"):
        win.modes.dispatch(win.table, "on_click", {"cell": None, "char": SimpleNamespace(char=cid)})
        win.modes.dispatch(win.table, "on_key", key.ENTER, 0)
    win.ctl.hover = None


def volume_reach(win):
    """Item 10: J's first 3D threat view, the cells Brann could reach this turn (behind the low wall: a few safe),
    translucent, with its legend."""
    import time

    win.ctl.select("wall_archer")
    win.vstate.set_overlay("volume", True)
    win.vstate.volume_mode = "reach"
    t0 = time.perf_counter()
    while not win.drawn_maps.get("volume") and time.perf_counter() - t0 < 60:   # the map thread's cubes
        frames(win, 2)
        time.sleep(0.05)


def fog_memory(win):
    """Item 13: red's view after the GM moved Vess out of red's sight: where red last saw her, dimmed."""
    win.apply(gm_line, win.ctl, "place Vess 2 2 0")
    win.vstate.player_side = "red"
    win.ctl.select("roof_archer")


SHOTS = {"templates": templates, "volume_reach": volume_reach, "fog_memory": fog_memory, "add": add_here, "player_log": player, "log_miss": miss, "blocks": blocks, "picker_filter": picker, "words": words}
SCENES = {"words": "baton_skyfall.toml"}

def players_screen():
    """Item 4: F4 on one monitor, the GM's window full screen: the players' screen as the screen's right half. The
    two windows' own frames put where the X server has them, at the screen's size (run once per screen size)."""
    from pyglet.window import key

    scr = pyglet.display.get_display().get_default_screen()
    size = (scr.width, scr.height)
    gm = PlayWindow(load_scene(str(ROOT / "scenes" / "showcase.toml")), 7, size)
    frames(gm)
    gm.on_key_press(key.F4, 0)
    m = gm.mirror
    for _ in range(8):
        frames(gm, 1)
        frames(m, 1)
    canvas = Image.new("RGB", size)
    for w in (gm, m):                       # the players' screen over the GM's, as on the screen
        w.switch_to()
        w.on_draw()
        img = Image.fromarray(np.ascontiguousarray(w.grab()))
        w.flip()
        canvas.paste(img, w.get_location())
    out = ROOT / "docs" / "images" / f"window_players_screen_{size[0]}x{size[1]}.png"
    canvas.save(out, format="PNG", optimize=True)
    print(out, "players' screen at", m.get_location(), m.get_size())
    gm.on_key_press(key.F4, 0)
    frames(gm, 2)
    gm.quit()


if __name__ == "__main__":
    import os

    os.chdir(ROOT)
    if sys.argv[1:] == ["players_screen"]:
        players_screen()
        sys.exit(0)
    for name in sys.argv[1:] or SHOTS:
        for size in ((1280, 720), (1920, 1080)):
            shot(name, size, SHOTS[name])
