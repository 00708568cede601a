"""`aerie bench window`: frames per second of the real window (pyglet, the one renderer, the HUD) on the showcase
at 1280 x 720 with every overlay on (the 3D threat view, J, in a scenario of its own), the tokens (names, HP bars, condition icons) and an attack being previewed;
the orbit is measured in the GM's view and in a player view. Needs a display: run it under Xvfb with
``xvfb-run -a -s "-screen 0 1600x900x24" aerie bench window``. A benchmark, not a test: figures go to
docs/performance.md ("Window")."""

from __future__ import annotations

import statistics
import sys
import time
from engine.resources import resource_dir

SHOWCASE = resource_dir("scenes") / "showcase.toml"


class _Bench:
    """The window on the showcase, an attack composed, every overlay but the 3D volume on."""

    def __init__(self, args) -> None:
        import pyglet

        pyglet.options["shadow_window"] = False
        pyglet.options["debug_gl"] = False
        from engine.app.window import OVERLAYS, PlayWindow
        from engine.scene import load_scene

        self.pyglet = pyglet
        self.args = args
        self.scene = scene = load_scene(SHOWCASE)
        self.size = (1280, 720)
        self.win = win = PlayWindow(scene, getattr(args, "seed", None), self.size,
                                    overlays_on=[n for n, _k, _d in OVERLAYS if n != "volume"])
        self.ctl = ctl = win.ctl
        # play on (ending turns) to the first character who can attack, and compose that attack: the preview
        # panel, sight lines to the target, the attacker's cover map and movement range, all overlays
        for _ in range(len(ctl.state.order) + 1):
            if any(b["action"] == "attack" for b in ctl.buttons()):
                break
            ctl.step({"actor": ctl.session.current, "action": "end_turn"})
            ctl.select_current()
            win._rebuild_log()
        if any(b["action"] == "attack" for b in ctl.buttons()):
            ctl.choose("attack")
            if ctl.action() is None:
                from engine.app.pointing import next_target

                next_target(win)
        ctl.hover = ctl.actor(ctl.selected).pos if ctl.selected else None
        ctl.set_layer(ctl.actor(ctl.selected).layer if ctl.selected else 0)
        self.n = 15 if args.quick else 300
        # wait for the worker's first answers (cover map, movement, preview) so the frames measured draw everything
        t0 = time.perf_counter()
        while (win.jobs.busy() or win.jobs.jobs or not win.jobs.results) and time.perf_counter() - t0 < 60:
            self.frame()
        self.t_ready = time.perf_counter() - t0
        for _ in range(10):
            self.frame()
        self.side = next(iter(ctl.state.actors.values())).side

    def frame(self, dt=1 / 60) -> None:
        win = self.win
        win.dispatch_events()
        self.pyglet.clock.tick()
        win.tick(dt)
        win.draw(dt)          # what pyglet's loop calls: on_draw and flip, or nothing when nothing changed
        win.rc.finish()

    def measure(self, before_frame):
        """n frames; returns (drawn-frame times sorted, frames drawn, 3D redraws, of them scaled, skipped)."""
        win, lp = self.win, self.win.loop
        times, drew = [], []
        r0, s0, k0 = lp.redraws, lp.scaled, lp.skipped
        for i in range(self.n):
            before_frame(i)
            f0 = win.frames
            t = time.perf_counter()
            self.frame()
            times.append(time.perf_counter() - t)
            drew.append(win.frames > f0)
        drawn = sorted(t for t, d in zip(times, drew) if d)
        return drawn, sorted(times), lp.redraws - r0, lp.scaled - s0, lp.skipped - k0

    # -- the scenarios' set-ups ---------------------------------------------------------------------------------
    def orbit(self, i) -> None:
        self.win.camctl.orbit(2.0, 0.0)

    def full_res(self, on):
        self.win.loop.adaptive = not on
        self.win.loop.full_dt = None

    def player_view(self, on):
        self.win.vstate.player_side = self.side if on else None
        self.full_res(True)

    def forced_small(self) -> None:
        """As on a machine where full resolution measured under 30 fps: every moving frame drawn at 70% scale
        into a small target and stretched to the window."""
        self.win.loop.adaptive = True
        self.win.loop.full_dt = 1.0

    def volume(self, on):
        self.win.vstate.set_overlay("volume", on)
        self.win.vstate.volume_mode = "exposed"      # the whole volume, as before J's first view became the reach
        t = time.perf_counter()
        while on and not self.win.drawn_maps.get("volume") and time.perf_counter() - t < 30:
            self.frame()

    def scenarios(self) -> list:
        win = self.win
        W, Hh = win.get_framebuffer_size()
        pv = self.player_view
        sc = [
            # the worst case: the camera moves every frame (an orbit drag), so every frame draws the whole 3D view
            ("camera orbiting, 3D view at full resolution in every frame", self.orbit, lambda: pv(False)),
            # the same with the players' screen: only what the side sees (sight lines cached per rules state)
            (f"camera orbiting, player view of side {self.side}, full resolution", self.orbit, lambda: pv(True)),
            ("camera orbiting, adaptive (moving frames at 70% scale when full resolution is under 30 fps here)",
             self.orbit, lambda: (pv(False), self.full_res(False))),
            ("camera orbiting, reduced resolution forced (as where full resolution is under 30 fps)", self.orbit,
             self.forced_small),
            # the cursor sweeping over the map: picking every frame, the ghost / cell box redrawn when the cell
            # changes
            ("cursor sweeping the map (picking every frame, adaptive)",
             lambda i: win.on_mouse_motion(int(W * (0.3 + 0.4 * (i % 60) / 60)), int(Hh * 0.45), 4, 0),
             lambda: self.full_res(False)),
            # the HUD changes (a message, the hovered cell's text) over a still 3D view: a copy of the cached view
            ("HUD changing over a still view", lambda i: (win.ctl.say(f"message {i}"), win.changed()), lambda: None),
            # reading the panels: nothing moves, nothing is drawn
            ("idle (nothing changes)", lambda i: None, lambda: None),
            # the 3D view of the threat volume (J) on top of everything: its cubes drawn instanced in every frame
            ("camera orbiting with the 3D threat volume on (J), full resolution", self.orbit,
             lambda: (pv(False), self.volume(True))),
        ]
        vol_setup = sc[-1][2]
        return [(nm, f, (lambda st=st: (self.volume(False), st())) if st is not vol_setup else st)
                for nm, f, st in sc]

    def run_scenarios(self, rounds) -> list[str]:
        scenarios = self.scenarios()
        n = self.n
        runs: dict[str, list] = {name: [] for name, _f, _s in scenarios}
        for _r in range(rounds):       # interleaved rounds: a burst of load elsewhere on the machine hits one round
            for name, before, setup in scenarios:
                setup()
                runs[name].append(self.measure(before))
        results = []
        for name, _f, _s in scenarios:
            rs = runs[name]
            if not any(r[0] for r in rs):
                med = statistics.median(rs[0][1])
                results.append(f"{name}: nothing to draw in {n} of {n} frames (each costs {med * 1000:.2f} ms: "
                               "events and a check)")
                continue
            meds = [statistics.median(r[0]) for r in rs if r[0]]
            best = min(range(len(rs)), key=lambda i: statistics.median(rs[i][0]) if rs[i][0] else 1e9)
            drawn, _all, redrawn, scaled, skipped = rs[best]
            med = statistics.median(drawn)
            p95 = drawn[max(int(len(drawn) * 0.95) - 1, 0)]
            results.append(
                f"{name}: drawn frames median {med * 1000:.1f} ms ({1 / med:.1f} fps), p95 {p95 * 1000:.1f} ms "
                f"({1 / p95:.1f} fps); 3D view redrawn in {redrawn} of {n} frames"
                + (f", {scaled} at reduced scale" if scaled else "")
                + (f"; {skipped} skipped (nothing changed on screen)" if skipped else "")
                + (f" [best of {rounds}; medians " + ", ".join(f"{m * 1000:.1f}" for m in meds) + " ms]"
                   if rounds > 1 else ""))
        return results

    def header(self) -> None:
        import os

        from engine.app.scene_prims import overlay_prims

        win, ctl, scene, size = self.win, self.ctl, self.scene, self.size
        on = [k for k, v in win.vstate.on.items() if v]
        prims, notes = overlay_prims(win, win.render_state())
        info = win.rc.info
        print(f"window {size[0]}x{size[1]}, {scene.name} ({scene.world.size[0]} x {scene.world.size[1]} x "
              f"{scene.world.size[2]}), GL: {info.get('GL_RENDERER')}")
        print(f"overlays on: {', '.join(on)}; composing: {ctl.action() and ctl.action().get('action')} "
              f"-> {ctl.action() and ctl.action().get('target')}; overlay geometry: {len(prims.lines)} lines, "
              f"{len(prims.xray)} x-ray lines, {len(prims.tris)} triangles, {len(prims.labels)} labels"
              + (f"; notes: {notes}" if notes else ""))
        print(f"worker answers (preview, cover map, movement) ready after {self.t_ready:.2f} s while the window "
              "kept drawing")
        print(f"tokens over the models: {len(win.token_boxes)} (names, HP bars, condition icons); labels on")
        print(f"machine: {os.cpu_count()} cores, load average {' '.join(open('/proc/loadavg').read().split()[:3])} "
              "(other work on the machine slows llvmpipe: the figures are the best of interleaved rounds)")

    def one_action(self, with_volume, lat, lat_v, vol) -> None:
        """An end of turn through the window's own path; the frames until one shows the new state's maps."""
        win, ctl = self.win, self.ctl
        act = {"actor": ctl.session.current, "action": "end_turn"}
        sv0 = ctl.state_version
        win.do(ctl.step, act)
        win.do(ctl.select_current)
        win.jobs.map_wait_s = 0.0
        t, frames, done = time.perf_counter(), 0, None
        while time.perf_counter() - t < 30:
            f0 = win.frames
            self.frame()
            if ctl.state_version == sv0:
                continue                       # not applied yet (deferred behind the worker)
            frames += win.frames > f0
            k = (ctl.state_version, ctl.selected, ctl.cursor_layer)
            if done is None and win.drawn_maps.get("cover") == k and win.drawn_maps.get("threat") == k:
                done = (time.perf_counter() - t, frames, win.jobs.map_wait_s)
                (lat_v if with_volume else lat).append(done)
            if done is not None and (not with_volume or
                                     win.drawn_maps.get("volume") == (k[0], k[1], win.vstate.volume_mode)):
                if with_volume:
                    vol.append((time.perf_counter() - t, frames))
                break

    def latency(self) -> None:
        # after an action (end of turn: a new state, through the window's own path: applied at once, or at the
        # next tick when the worker is reading the session), the frames drawn until one shows the cover and
        # threat maps of the new state (1: the first frame drawn after the action shows them)
        lat: list = []
        vol: list = []
        lat_v: list = []
        for with_volume in (False, True):     # the cover and threat maps alone, then with the 3D volume on too
            self.win.vstate.set_overlay("volume", with_volume)
            for _ in range(2 if self.args.quick else 8):
                self.one_action(with_volume, lat, lat_v, vol)
        self.win.vstate.set_overlay("volume", False)
        fr = sorted(f for _t, f, _a in lat)
        ms = sorted(t for t, _f, _a in lat)
        print(f"after an action, frames drawn until one shows the cover and threat maps of the new state: median "
              f"{statistics.median(fr):g}, worst {fr[-1]} (1 = the first frame after the action); from the action "
              f"to that frame median {statistics.median(ms) * 1000:.0f} ms, worst {ms[-1] * 1000:.0f} ms, of it the "
              f"frame waiting for the maps median {statistics.median(w for _t, _f, w in lat) * 1000:.0f} ms (all: "
              + ", ".join(f"{t * 1000:.0f} ms/{f}" for t, f, _a in lat) + ")")
        if lat_v:
            fv = sorted(f for _t, f, _a in lat_v)
            print(f"the same with the 3D threat volume on: the cover and threat maps in frame median "
                  f"{statistics.median(fv):g}, worst {fv[-1]} (all: "
                  + ", ".join(f"{t * 1000:.0f} ms/{f}" for t, f, _a in lat_v) + ")")
        if vol:
            vf = sorted(f for _t, f in vol)
            print(f"after an action, frames drawn until one shows the 3D threat volume of the new state (computed "
                  f"while the window draws): median {statistics.median(vf):g}, worst {vf[-1]}; median "
                  f"{statistics.median(t for t, _f in vol) * 1000:.0f} ms (all: "
                  + ", ".join(f"{t * 1000:.0f} ms/{f}" for t, f in vol) + ")")


def bench_window(args) -> int:
    from engine.app.commands import has_display

    if not has_display():
        print("aerie bench window: no display; run it under a virtual one: "
              "xvfb-run -a -s \"-screen 0 1600x900x24\" aerie bench window", file=sys.stderr)
        return 2
    b = _Bench(args)
    results = b.run_scenarios(1 if args.quick else 3)
    b.win.loop.adaptive = True
    b.volume(False)
    b.header()
    for line in results:
        print(f"{b.n} frames, {line}")
    b.latency()
    b.win.close()
    return 0
