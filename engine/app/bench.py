"""`aerie bench window`: frames per second of the real window (pyglet, the one renderer, the HUD) on the showcase
at 1280 x 720 with every overlay on and an attack being previewed. Needs a display: run it under Xvfb with
``xvfb-run -a -s "-screen 0 1600x900x24" aerie bench window``. A benchmark, not a test: figures go to
docs/performance.md ("Window")."""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

SHOWCASE = Path(__file__).resolve().parents[2] / "scenes" / "showcase.toml"


def bench_window(args) -> int:
    from engine.app.commands import has_display

    if not has_display():
        print("aerie bench window: no display; run it under a virtual one: "
              "xvfb-run -a -s \"-screen 0 1600x900x24\" aerie bench window", file=sys.stderr)
        return 2
    import pyglet

    pyglet.options["shadow_window"] = False
    pyglet.options["debug_gl"] = False
    from engine.app.window import OVERLAYS, PlayWindow
    from engine.world.scene import load_scene

    scene = load_scene(SHOWCASE)
    size = (1280, 720)
    win = PlayWindow(scene, getattr(args, "seed", None), size, overlays_on=[n for n, _k, _d in OVERLAYS])
    ctl = win.ctl
    # an attack being composed: the preview panel, sight lines to the target, the cover map of the attacker
    for b in ctl.buttons():
        if b["action"] == "attack":
            ctl.choose("attack")
            break
    win.next_target()
    win.ctl.hover = ctl.actor(ctl.selected).pos if ctl.selected else None
    n = 40 if args.quick else 300
    warm = 10

    def frame(dt=1 / 60):
        win.dispatch_events()
        pyglet.clock.tick()
        win.tick(dt)
        win.switch_to()
        win.on_draw()
        win.rc.ctx.finish()
        win.flip()

    # wait for the worker's first answers (cover map, movement, preview) so the frames measured draw everything
    t0 = time.perf_counter()
    while (win.busy() or not win._results) and time.perf_counter() - t0 < 60:
        frame()
    t_ready = time.perf_counter() - t0
    for _ in range(warm):
        frame()
    times = []
    turn = 0.0
    for i in range(n):
        # keep the camera moving (an orbit drag every frame), as a user would
        win.camctl.orbit(2.0, 0.0)
        t = time.perf_counter()
        frame()
        times.append(time.perf_counter() - t)
        turn += 2.0
    times.sort()
    med = statistics.median(times)
    p95 = times[int(len(times) * 0.95) - 1]
    on = [k for k, v in win.on.items() if v]
    prims, notes = win.overlay_prims(win.render_state())
    info = win.rc.ctx.info
    print(f"window {size[0]}x{size[1]}, {scene.name} ({scene.world.size[0]} x {scene.world.size[1]} x "
          f"{scene.world.size[2]}), GL: {info.get('GL_RENDERER')}")
    print(f"overlays on: {', '.join(on)}; composing: {ctl.action() and ctl.action().get('action')} "
          f"-> {ctl.action() and ctl.action().get('target')}; overlay geometry: {len(prims.lines)} lines, "
          f"{len(prims.xray)} x-ray lines, {len(prims.tris)} triangles, {len(prims.labels)} labels"
          + (f"; notes: {notes}" if notes else ""))
    print(f"worker answers (preview, cover map, movement) ready after {t_ready:.2f} s while the window kept drawing")
    print(f"{n} frames with the camera orbiting: median {med * 1000:.1f} ms ({1 / med:.1f} fps), "
          f"p95 {p95 * 1000:.1f} ms ({1 / p95:.1f} fps)")
    win.close()
    return 0
