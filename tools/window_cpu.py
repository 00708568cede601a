"""CPU and wall time per frame of the real window: the showcase, every overlay but the 3D volume, an attack being
composed; 150 HUD frames (a message changes every frame), 150 orbit frames, 150 orbit frames at reduced resolution
forced (70% scale, stretched: ``aerie bench window``'s "reduced resolution forced") and 150 with adaptive resolution
(full resolution measured first). Process CPU time counts llvmpipe's
drawing (its threads are this process's) and is disturbed less by the machine's load than wall time.

Run it under Xvfb from a checkout, old or new (it runs unchanged in the window from before its rebuild):
``PYTHONPATH=$PWD xvfb-run -a -s "-screen 0 1600x900x24" python /path/to/tools/window_cpu.py``; alternate two
checkouts for a pair (docs/performance.md, "This round")."""

from __future__ import annotations

import time


def main() -> int:
    import pyglet

    pyglet.options["shadow_window"] = False
    pyglet.options["debug_gl"] = False
    from engine.app.window import OVERLAYS, PlayWindow
    from engine.resources import resource_dir

    try:
        from engine.scene import load_scene
    except ImportError:                                  # the checkouts before engine/scene
        from engine.world.scene import load_scene  # type: ignore[no-redef]
    scene = load_scene(resource_dir("scenes") / "showcase.toml")
    win = PlayWindow(scene, None, (1280, 720), overlays_on=[n for n, _k, _d in OVERLAYS if n != "volume"])
    ctl = win.ctl
    for _ in range(len(ctl.state.order) + 1):            # on to the first character who can attack
        if any(b["action"] == "attack" for b in ctl.buttons()):
            break
        ctl.step({"actor": ctl.session.current, "action": "end_turn"})
        ctl.select_current()
        win._rebuild_log()
    ctl.choose("attack")
    if ctl.action() is None:
        if hasattr(win, "next_target"):
            win.next_target()
        else:
            from engine.app.pointing import next_target
            next_target(win)
    ctl.hover = ctl.actor(ctl.selected).pos
    ctl.set_layer(ctl.actor(ctl.selected).layer)

    def frame(dt=1 / 60):
        win.dispatch_events()
        pyglet.clock.tick()
        win.tick(dt)
        win.draw(dt)
        win.rc.finish()

    def hud(n):
        for i in range(n):
            win.ctl.say(f"message {i}")
            win.changed()
            frame()

    def orbit(n):
        for _ in range(n):
            win.camctl.orbit(2.0, 0.0)
            frame()

    def scaled(full_dt):
        """Adaptive resolution on, as the bench's scenarios set it (the window before its rebuild kept these on
        itself): full_dt 1.0 forces every moving frame to 70% scale, None measures full resolution first."""
        loop = getattr(win, "loop", None)
        if loop is not None and hasattr(loop, "full_dt"):
            loop.adaptive, loop.full_dt = True, full_dt
        else:
            win.adaptive, win._full_dt = True, full_dt

    def small(n):
        scaled(1.0)
        orbit(n)

    def adaptive(n):
        scaled(None)
        orbit(n)

    for _ in range(200):                                 # the workers' first answers (cover map, preview) arrive
        frame()
        time.sleep(0.01)
    out = []
    for name, fn in (("hud", hud), ("orbit", orbit), ("reduced", small), ("adaptive", adaptive)):
        fn(20)
        c0, t0 = time.process_time(), time.perf_counter()
        fn(150)
        c1, t1 = time.process_time(), time.perf_counter()
        out.append(f"{name} cpu {1000 * (c1 - c0) / 150:.2f} ms wall {1000 * (t1 - t0) / 150:.2f} ms")
    print(" | ".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
