"""`aerie play SCENE [--seed N] [--size WxH]`: open the sandbox window."""

from __future__ import annotations

import os
import sys

from engine.errors import AerieError

NO_DISPLAY = ("aerie play: no display (DISPLAY is not set): the window needs one; render instead with "
              "`aerie render SCENE -o still.png` or `aerie flythrough SCENE -o tour.mp4` "
              "(or run it under a virtual display: xvfb-run -a aerie play SCENE)")


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def cmd_play(args, opened=None) -> int:
    """``opened(win)``: called once the window is made, before its loop; what it returns is called when the loop
    ends (``aerie play --serve`` starts and stops the players' server so: engine/serve/window.py)."""
    if not has_display():
        print(NO_DISPLAY, file=sys.stderr)
        return 2
    from engine.scene import load_scene

    scene = load_scene(args.scene)
    try:
        import pyglet

        pyglet.options["shadow_window"] = False
        pyglet.options["debug_gl"] = False      # no glGetError after every pyglet call: the renderer is moderngl
        from engine.app.window import PlayWindow

        win = PlayWindow(scene, getattr(args, "seed", None), tuple(getattr(args, "size", (1280, 720))))
    except AerieError:
        raise
    except Exception as e:   # noqa: BLE001 - a display that will not give us a GL 3.3 window
        raise AerieError(f"aerie play: cannot open a window on {os.environ.get('DISPLAY')}: {e}") from None
    if getattr(args, "units", None):                         # display only (engine/units.py): over the scene's
        win.units_flag = win.vstate.units = args.units
    stop = None
    if opened is not None:
        try:
            stop = opened(win)
        except AerieError:
            win.close()
            raise
    win.write_state()
    try:
        pyglet.app.run(1 / 60.0)
    finally:
        if stop is not None:
            stop()
    return 0
