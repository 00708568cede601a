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


def cmd_play(args) -> int:
    if not has_display():
        print(NO_DISPLAY, file=sys.stderr)
        return 2
    from engine.scene import load_scene

    scene = load_scene(args.scene)
    serve = getattr(args, "serve", None)
    if serve is not None:                     # bad address or missing extra: one line before any window opens
        from engine.serve import parse_address, require

        parse_address(serve)
        require()
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
    server = None
    if serve is not None:                     # the players' pages (engine/serve/window.py), stopped with the window
        from engine.serve.window import start

        try:
            server = start(win, serve, bool(getattr(args, "approve", False)))
        except AerieError:
            win.close()
            raise
    win.write_state()
    try:
        pyglet.app.run(1 / 60.0)
    finally:
        if server is not None:
            server.stop()
    return 0
