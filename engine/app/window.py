"""The sandbox window (pyglet): input -> :class:`engine.app.controller.Controller`, the picture through the one
renderer (:class:`engine.render.renderer.Renderer`) into the window's framebuffer, the HUD on top.

Slow work -- the rules' preview of an action (path search, cover), the cover map, the movement range -- runs in a
worker thread; the window keeps drawing and shows "computing..." until the answer is there. The session is only
changed on the main thread, and only while no worker reads it (a confirm or undo asked for meanwhile waits for
the worker, a fraction of a second).

Test hooks (environment): ``AERIE_TEST_STATE=FILE`` -- after every change the window rewrites FILE with the core's
state, the window's choices, the camera and where things are on screen (JSON), so tests driving the window with
real X input can check the rules' state; ``AERIE_SCREENSHOT_DIR`` -- where F12 writes PNGs (default: the current
folder).
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pyglet
from pyglet.window import key, mouse

from engine.app import hud as H
from engine.app.camera_control import CameraControl
from engine.app import maps
from engine.app.controller import Controller, event_line, preview_lines
from engine.app.picking import Picker
from engine.render import overlays as ov
from engine.render.events import build_step, effects, frame_state
from engine.render.renderer import DrawOptions, Renderer
from engine.render.state import from_session, side_colour

ANIM_S = 1.2
OVERLAYS = (("grid", key.G, "layer grid at the cursor's altitude"),
            ("engagement", key.X, "engagement (AIR-04) and the selected character's reach (AIR-05)"),
            ("sightlines", key.L, "sight lines from the selected character to its target / the hovered one"),
            ("cover", key.C, "cover map of the selected attacker at the cursor's layer"),
            ("movement", key.M, "where the selected character can move this turn, with costs"))

BINDINGS = [
    ("Mouse", ""),
    ("left click", "select; while composing: target / destination"),
    ("left drag", "orbit the camera (free fly: look around)"),
    ("right / middle drag", "pan"),
    ("wheel", "zoom; while placing a move: the altitude"),
    ("Actions", ""),
    ("1 .. 9, 0", "the legal actions (the buttons)"),
    ("Enter / Esc", "confirm the previewed action / cancel it"),
    ("Tab", "next option (weapon, variant)"),
    ("T", "next possible target"),
    ("arrow keys", "move the cell cursor"),
    ("PgUp / PgDn, ] [", "cursor altitude (the ghost's layer)"),
    ("Space", "select whose turn it is"),
    ("N / Shift+N", "next / previous character"),
    ("Camera", ""),
    ("F", "free fly: W A S D, Q down, E up, drag to look"),
    ("V", "follow the selected character"),
    ("K / Shift+K", "next named scene camera / home view"),
    ("P", "play the scene's fly-through"),
    ("Overlays", ""),
    ("G", "layer grid at the cursor's altitude"),
    ("X", "engagement (AIR-04) and reach (AIR-05)"),
    ("L", "sight lines to the target / hovered / nearest"),
    ("C", "cover map of the selected, cursor's layer"),
    ("M", "movement range at the cursor's layer"),
    ("Table", ""),
    ("Ctrl+Z / Ctrl+Y", "undo / redo"),
    ("Ctrl+S / Ctrl+O", "save / load (SCENE.save.json)"),
    ("R", "enter a die result by hand: attack 17, Enter"),
    ("F12", "screenshot (PNG)"),
    ("F1 or H", "this help"),
    ("Ctrl+Q", "quit"),
]


def _safe(fn):
    """Input handlers never take the window down: an unexpected error is printed once and shown in red."""
    import functools
    import traceback

    @functools.wraps(fn)
    def run(self, *a, **kw):
        try:
            return fn(self, *a, **kw)
        except Exception as e:   # noqa: BLE001 - the table's game must survive a bug in one handler
            traceback.print_exc()
            self.ctl.say(f"internal error in {fn.__name__}: {type(e).__name__}: {e}", "error")
            self.changed()
            return pyglet.event.EVENT_HANDLED
    return run


class PlayWindow(pyglet.window.Window):
    def __init__(self, scene, seed=None, size=(1280, 720), *, visible=True, overlays_on=(), vsync=False):
        cfg = None
        try:
            cfg = pyglet.gl.Config(double_buffer=True, depth_size=24, major_version=3, minor_version=3,
                                   forward_compatible=True)
        except Exception:   # noqa: BLE001 - fall back to pyglet's default config
            cfg = None
        kw = dict(width=size[0], height=size[1], caption=f"Aerie - {scene.name}", resizable=True, vsync=vsync,
                  visible=visible)
        try:
            super().__init__(config=cfg, **kw)
        except pyglet.window.NoSuchConfigException:
            super().__init__(**kw)
        from engine.render.context import RenderContext

        self.scene = scene
        self.set_location(0, 0)
        self.rc = RenderContext.from_current(self.get_framebuffer_size())
        self._target = None
        self._make_target()
        self.renderer = Renderer(self.rc, scene.world)
        self._scene_key = None
        self.redraws = 0
        self.scaled = 0
        self.skipped = 0
        self._hover_t = 0.0
        self._force = True
        self._drawn_key = None
        # while the camera moves and full resolution cannot hold 30 fps here, the 3D view is drawn at this scale and
        # stretched (the HUD stays sharp); a still view is always drawn at full resolution. AERIE_FULL_RES=1: never.
        self.adaptive = os.environ.get("AERIE_FULL_RES", "") not in ("1", "yes", "true")
        self.motion_scale = 0.7
        self._small_target = None
        self._view_scale = 1.0
        self._last_cam = None
        self._prev_full = None
        self._full_dt = None
        self.ctl = Controller(scene, seed)
        self.camctl = CameraControl(scene, from_session(scene, self.ctl.session).characters)
        self.picker = Picker(scene.world)
        self.hud = H.Hud(self.renderer, px=15 if size[1] >= 650 else 12)
        self.big = H.Hud(self.renderer, px=22)
        self.keys = key.KeyStateHandler()
        self.push_handlers(self.keys)
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="aerie-worker")
        self.session_lock = threading.Lock()
        self.on = {n: (n in overlays_on) for n, _k, _d in OVERLAYS}
        self.help = False
        self.typing: str | None = None          # the die-entry prompt's text while it is open
        self._typing_skip = False
        self.mouse = (0, 0)                      # top-left origin pixels
        self.drag = None
        self.anims: list = []
        self.anim_t = 0.0
        self.log_lines: list[tuple[str, tuple]] = []
        self.frames = 0
        self.frame_times: list[float] = []
        self.fps = 0.0
        self._last = time.perf_counter()
        self._jobs: dict[str, tuple] = {}       # name -> (key, Future)
        self._futures: list = []
        self._results: dict[str, tuple] = {}    # name -> (key, value)
        self._deferred: list = []                # actions waiting for the worker to finish
        self._hud_key = None
        self._ov_cache: dict = {}
        self._rs_cache = None
        self.test_state = os.environ.get("AERIE_TEST_STATE")
        self.shot_dir = Path(os.environ.get("AERIE_SCREENSHOT_DIR", "."))
        self.last_shot = None
        self._state_written = None
        self._shot_pending = None
        self.panels = {}
        self._notes = []
        self._follow_anim = None
        self._rebuild_log()
        pyglet.clock.schedule_interval(self.tick, 1 / 60.0)

    # ================================================================================================ helpers
    @property
    def size_px(self):
        return self.get_framebuffer_size()

    def render_state(self):
        sv = self.ctl.state_version
        if self._rs_cache is None or self._rs_cache[0] != sv:
            self._rs_cache = (sv, from_session(self.scene, self.ctl.session))
        return self._rs_cache[1]

    def _rebuild_log(self):
        from engine.rules.runner import describe

        out = []
        s = self.ctl.session
        for e in s.events:
            t = e.get("type")
            if t == "session":
                out.append((f"{e.get('scene')}: seed {e.get('seed')}, {e.get('ruleset')}", H.DIM))
                continue
            if t == "action" and isinstance(e.get("action"), dict):
                a = e["action"]
                params = ", ".join(f"{k} {v}" for k, v in a.items() if k not in ("actor", "action", "rolls"))
                rolls = a.get("rolls")
                out.append((f"> {a.get('actor')}: {str(a.get('action')).replace('_', ' ')}" + (f" ({params})" if params else "")
                            + (f", dice by hand {rolls}" if rolls else ""), (150, 200, 255, 255)))
                continue
            if t == "roll":
                line = event_line(e)
                col = H.DIM
            else:
                try:
                    line = describe(s, e)
                except Exception:   # noqa: BLE001 - an event the runner's describer does not know
                    line = event_line(e)
                if line is None:
                    continue
                line = line.strip()
                t = e.get("type")
                col = H.ACCENT if t in ("round", "turn") else (H.BAD if t in ("damage", "fall", "condition") else H.FG)
            out.append((line, col))
        self.log_lines = out

    def submit(self, name: str, job_key, fn):
        """Run fn() in the worker unless the same job (same key) is done or running."""
        if name in self._results and self._results[name][0] == job_key:
            return
        cur = self._jobs.get(name)
        if cur is not None and cur[0] == job_key:
            return

        def run():
            with self.session_lock:
                return fn()
        fut = self.pool.submit(run)
        self._jobs[name] = (job_key, fut)
        self._futures = [f for f in self._futures if not f.done()] + [fut]

    def result(self, name: str, job_key):
        """(ready, value) of a job for this key."""
        r = self._results.get(name)
        if r is not None and r[0] == job_key:
            return True, r[1]
        return False, None

    def _collect(self):
        for name, (k, fut) in list(self._jobs.items()):
            if fut.done():
                try:
                    val = fut.result()
                except Exception as e:   # noqa: BLE001 - shown in the HUD, never a crash
                    val = e
                self._results[name] = (k, val)
                del self._jobs[name]
                self._hud_key = None
                self._fresh = True

    def busy(self) -> bool:
        """Is the worker reading the session (a current job, or one replaced by a newer request but still running)?"""
        return any(not f.done() for f in self._futures)

    # ================================================================================================ actions
    def do(self, fn, *a):
        """Run a session-changing controller call now, or as soon as no worker reads the session."""
        if self.busy():
            self._deferred.append((fn, a))
            return
        self._apply(fn, *a)

    def _apply(self, fn, *a):
        with self.session_lock:          # never while the worker reads the session (it is idle here: a formality)
            return self._apply_locked(fn, *a)

    def _apply_locked(self, fn, *a):
        s_before = self.ctl.session
        before = self.render_state()
        n_events = len(s_before.events)
        res = fn(*a)
        if self.ctl.session is not s_before or len(self.ctl.session.events) != n_events:
            after = self.render_state()
            if fn == self.ctl.confirm or fn == self.ctl.redo or fn == self.ctl.step:
                evs = self.ctl.session.events[n_events:]
                self.anims.append(build_step(before, after, evs))
            else:
                self.anims.clear()
            self._rebuild_log()
            self._results.clear()
        self.changed()
        return res

    def changed(self):
        self._hud_key = None
        self._force = True

    def _frame_key(self):
        ctl = self.ctl
        return (self.camctl.camera(), ctl.version, ctl.msg_version, ctl.state_version, ctl.hover, ctl.cursor_layer,
                tuple(sorted(self.on.items())), self.help, self.typing, self.camctl.mode, self.size_px,
                tuple((n, r[0]) for n, r in self._results.items()), tuple(self._jobs), len(self.anims), self.anim_t)

    def draw(self, dt):
        """pyglet's redraw: skipped when nothing on screen would change (the last frame stays up). on_draw is
        called directly, not queued as an event, so the flip always shows the frame just drawn."""
        settled = self._view_scale in (1.0, "direct") and not self._recently_hovered()
        if settled and not self._force and not self._shot_pending and self._frame_key() == self._drawn_key:
            self.skipped += 1
            return
        self.switch_to()
        self.on_draw()
        self.flip()

    def on_expose(self):
        self._force = True

    # ================================================================================================ input
    def _make_target(self):
        """The 3D view is drawn into an offscreen target and copied to the window; when nothing in the 3D view
        changed since the last frame (camera, state, overlays, cursor) the copy is all a frame costs."""
        size = tuple(self.get_framebuffer_size())
        if self._target is not None:
            if self._target.size == size:
                return
            self._target.release()
        self._target = self.rc.target(size)
        self.rc.size = size
        self._scene_key = None

    # -- adaptive resolution while the camera moves ------------------------------------------------------------------
    def _small(self, scale):
        """The reduced-resolution target for frames drawn while the camera moves (shown stretched)."""
        W, Hh = self._target.size
        size = (max(int(W * scale), 16), max(int(Hh * scale), 16))
        if self._small_target is None or self._small_target.size != size:
            if self._small_target is not None:
                self._small_target.release()
            self._small_target = self.rc.target(size, sampled=True)
        return self._small_target

    def _track(self, scale):
        """Frame intervals of consecutive full-resolution 3D redraws: the evidence for drawing moving frames at
        reduced resolution (only when full resolution is slower than 30 fps here)."""
        now = time.perf_counter()
        if scale == 1.0 and self._prev_full is not None and now - self._prev_full < 0.5:
            dt = now - self._prev_full
            self._full_dt = dt if self._full_dt is None else 0.8 * self._full_dt + 0.2 * dt
        self._prev_full = now if scale == 1.0 else None

    def _recently_hovered(self) -> bool:
        return time.perf_counter() - self._hover_t < 0.2

    def _full_slow(self) -> bool:
        return self._full_dt is not None and self._full_dt > 1 / 30.0

    def on_resize(self, width, height):
        self._make_target()
        self.changed()
        return pyglet.event.EVENT_HANDLED

    def _pick(self):
        rs = self.render_state()
        return self.picker.pick(self.camctl.camera(), self.size_px, self.mouse[0], self.mouse[1], rs.characters,
                                self.ctl.cursor_layer if self._placing() and self._flyer() else None)

    def _flyer(self) -> bool:
        a = self.ctl.state.actors.get(self.ctl.selected) if self.ctl.selected else None
        return a is not None and a.can_fly

    def _placing(self) -> bool:
        return self.ctl.pending is not None and "pos" in dict(self.ctl.pending.needs).values()

    @_safe
    def on_mouse_motion(self, x, y, dx, dy):
        self.mouse = (x, self.height - y)
        self._hover()

    def _hover(self):
        if self.hud.hit(*self.mouse) is not None:
            return
        hit = self._pick()
        cell = hit["cell"].cell if hit["cell"] is not None else None
        if hit["char"] is not None and not self._placing():
            a = self.ctl.state.actors.get(hit["char"].char)
            if a is not None:
                cell = a.pos
        if cell != self.ctl.hover:
            self._hover_t = time.perf_counter()
            self.ctl.hover = cell
            if self._placing() and cell is not None:
                x, y, _ = cell
                self.ctl.set_destination((x, y, self._dest_layer(cell)))
            self.changed()

    def _dest_layer(self, cell) -> int:
        """The destination layer: the cursor's altitude for a flyer, the surface for a walker."""
        x, y, layer = cell
        sel = self.ctl.selected
        a = self.ctl.state.actors.get(sel) if sel else None
        if a is not None and not a.can_fly:
            return layer                     # a walker: the surface the cursor is on
        return self.ctl.cursor_layer if self.ctl.cursor_layer > 0 or layer == 0 else layer

    @_safe
    def on_mouse_press(self, x, y, button, modifiers):
        self.mouse = (x, self.height - y)
        self.drag = {"button": button, "start": self.mouse, "moved": 0.0}

    @_safe
    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers):
        self.mouse = (x, self.height - y)
        if self.drag is not None:
            self.drag["moved"] += abs(dx) + abs(dy)
        if self.drag is None or self.drag["moved"] < 4:
            return
        if buttons & mouse.LEFT:
            if self.camctl.mode == "fly":
                self.camctl.look(dx, dy)
            else:
                self.camctl.orbit(dx, dy)
        elif buttons & (mouse.RIGHT | mouse.MIDDLE):
            self.camctl.pan(dx, dy)
        self.changed()

    @_safe
    def on_mouse_release(self, x, y, button, modifiers):
        self.mouse = (x, self.height - y)
        d, self.drag = self.drag, None
        if d is None or d["moved"] >= 4 or button != mouse.LEFT:
            return
        self.click(*self.mouse)

    def click(self, px, py):
        ident = self.hud.hit(px, py)
        if ident is not None:
            kind, val = ident
            if kind == "action":
                self.ctl.choose(val)
            elif kind == "confirm":
                self.do(self.ctl.confirm)
            elif kind == "cancel":
                self.ctl.cancel()
            elif kind == "select":
                self.ctl.select(val)
            elif kind == "overlay":
                self.on[val] = not self.on[val]
            elif kind == "undo":
                self.do(self.ctl.undo)
            elif kind == "redo":
                self.do(self.ctl.redo)
            elif kind == "help":
                self.help = not self.help
            self.changed()
            self.write_state()
            return
        hit = self._pick()
        if self._placing() and hit["cell"] is not None and (hit["char"] is None or
                                                          hit["char"].char == self.ctl.selected):
            x, y, _ = hit["cell"].cell
            self.ctl.set_destination((x, y, self._dest_layer(hit["cell"].cell)))
            self.ctl.hover = hit["cell"].cell
        elif hit["char"] is not None:
            self.ctl.select(hit["char"].char)
            if self.camctl.mode == "follow":
                self.camctl.follow(self._centre(hit["char"].char))
        self.changed()
        self.write_state()

    @_safe
    def on_mouse_scroll(self, x, y, scroll_x, scroll_y):
        self.mouse = (x, self.height - y)
        mods = self.keys[key.LCTRL] or self.keys[key.RCTRL]
        if (self._placing() or self.keys[key.LSHIFT] or self.keys[key.RSHIFT]) and not mods:
            self.ctl.change_layer(int(math.copysign(1, scroll_y)) if scroll_y else 0)
            self._hover()
            if self._placing() and self.ctl.hover is not None:
                hx, hy, _ = self.ctl.hover
                self.ctl.set_destination((hx, hy, self._dest_layer(self.ctl.hover)))
        else:
            self.camctl.zoom(scroll_y)
        self.changed()
        self.write_state()

    @_safe
    def on_text(self, text):
        if self._typing_skip:            # the R that opened the prompt arrives as text too
            self._typing_skip = False
            if text.lower() == "r":
                return
        if self.typing is not None and text.isprintable() and text not in "\r\n":
            self.typing += text
            self.changed()

    @_safe
    def on_key_press(self, symbol, modifiers):
        ctrl = modifiers & (key.MOD_CTRL | key.MOD_COMMAND)
        shift = modifiers & key.MOD_SHIFT
        if self.typing is not None:
            if symbol == key.F12:
                self._shot_pending = True
            elif symbol in (key.ENTER, key.RETURN):
                self.ctl.enter_roll(self.typing)
                self.typing = None
            elif symbol == key.ESCAPE:
                self.typing = None
            elif symbol == key.BACKSPACE:
                self.typing = self.typing[:-1]
            self.changed()
            self.write_state()
            return pyglet.event.EVENT_HANDLED
        if symbol == key.ESCAPE:
            if self.help:
                self.help = False
            elif self.ctl.pending is not None:
                self.ctl.cancel()
            elif self.camctl.mode in ("fly", "flythrough", "follow"):
                self.camctl.set_mode("orbit")
            self.changed()
            self.write_state()
            return pyglet.event.EVENT_HANDLED      # Esc never closes the window (Ctrl+Q does)
        if ctrl:
            if symbol == key.Z and not shift:
                self.do(self.ctl.undo)
            elif symbol == key.Y or (symbol == key.Z and shift):
                self.do(self.ctl.redo)
            elif symbol == key.S:
                self.save()
            elif symbol == key.O:
                self.do(self.ctl.load, self.save_path())
            elif symbol == key.Q:
                self.quit()
                return pyglet.event.EVENT_HANDLED
        elif self.camctl.mode == "fly" and symbol in (key.W, key.A, key.S, key.D, key.Q, key.E):
            pass                                   # held keys, read every frame
        elif symbol in (key.F1, key.H) or (symbol == key.SLASH and shift):
            self.help = not self.help
        elif symbol == key.F12:
            self._shot_pending = True
        elif symbol in (key.ENTER, key.RETURN):
            self.do(self.ctl.confirm)
        elif symbol == key.TAB:
            self.ctl.next_variant()
        elif symbol == key.T:
            self.next_target()
        elif symbol in (key.PAGEUP, key.BRACKETRIGHT):
            self.layer(+1)
        elif symbol in (key.PAGEDOWN, key.BRACKETLEFT):
            self.layer(-1)
        elif symbol in (key.LEFT, key.RIGHT, key.UP, key.DOWN):
            self.nudge_cursor(symbol)
        elif symbol == key.SPACE:
            self.ctl.select_current()
        elif symbol == key.N:
            self.ctl.cycle_selection(-1 if shift else 1)
        elif symbol == key.F:
            self.camctl.set_mode("orbit" if self.camctl.mode == "fly" else "fly")
        elif symbol == key.V:
            if self.camctl.mode == "follow":
                self.camctl.set_mode("orbit")
            elif self.ctl.selected:
                self.camctl.follow(self._centre(self.ctl.selected))
                self.camctl.set_mode("follow")
        elif symbol == key.K:
            if shift:
                self.camctl.home_view()
            else:
                name = self.camctl.snap()
                self.ctl.say(f"camera: {name}")
        elif symbol == key.P:
            self.camctl.set_mode("flythrough")
        elif symbol == key.R:
            self.typing = ""
            self._typing_skip = True
        elif key._0 <= symbol <= key._9 or key.NUM_0 <= symbol <= key.NUM_9:
            d = str((symbol - key._0) if symbol <= key._9 else (symbol - key.NUM_0))
            self.ctl.hotkey(d)
            if self._placing():
                # placing starts at the character itself, at its own altitude: PgUp twice = climb two layers
                a = self.ctl.state.actors.get(self.ctl.selected)
                if a is not None:
                    self.ctl.hover = a.pos
                    self.ctl.set_layer(a.layer)
            if self._placing() and self.ctl.hover is not None:
                hx, hy, _ = self.ctl.hover
                self.ctl.set_destination((hx, hy, self._dest_layer(self.ctl.hover)))
        else:
            for name, k, _d in OVERLAYS:
                if symbol == k:
                    self.on[name] = not self.on[name]
        self.changed()
        self.write_state()
        return pyglet.event.EVENT_HANDLED

    def layer(self, d):
        self.ctl.change_layer(d)
        if self._placing() and self.ctl.hover is not None and self._flyer():
            hx, hy, _ = self.ctl.hover
            self.ctl.hover = (hx, hy, self.ctl.cursor_layer)
            self.ctl.set_destination((hx, hy, self._dest_layer(self.ctl.hover)))

    def nudge_cursor(self, symbol):
        """Arrow keys move the cell cursor one cell in the direction the camera faces (up = away)."""
        cur = self.ctl.hover
        if cur is None:
            a = self.ctl.state.actors.get(self.ctl.selected) if self.ctl.selected else None
            cur = a.pos if a is not None else (0, 0, 0)
        yaw = math.radians(self.camctl.cur.yaw)
        fwd = (math.sin(yaw), math.cos(yaw))
        snap = lambda v: (int(round(v[0])) if abs(v[0]) >= abs(v[1]) else 0, int(round(v[1])) if abs(v[1]) > abs(v[0]) else 0)
        f = snap(fwd)
        r = (f[1], -f[0])
        d = {key.UP: f, key.DOWN: (-f[0], -f[1]), key.RIGHT: r, key.LEFT: (-r[0], -r[1])}[symbol]
        X, Y, _ = self.scene.world.size
        x = min(max(cur[0] + d[0], 0), X - 1)
        y = min(max(cur[1] + d[1], 0), Y - 1)
        cell = (x, y, self.ctl.cursor_layer if self._placing() else cur[2])
        if not self._placing():
            cell = (x, y, self.scene.world.support_layer(x, y, self.scene.world.size[2]))
        self.ctl.hover = cell
        if self._placing():
            self.ctl.set_destination((x, y, self._dest_layer(cell)))

    def next_target(self):
        p = self.ctl.pending
        if p is None:
            return
        k = next((k for k, kind in p.needs if kind == "id"), None)
        if k is None:
            return
        opts = []
        for v in p.variants:
            if k in v and v[k] not in opts:
                opts.append(v[k])
        if not opts:
            opts = [a for a in self.ctl.state.actors if a != self.ctl.selected]
        cur = p.params.get(k)
        i = opts.index(cur) if cur in opts else -1
        self.ctl.choose_param(k, opts[(i + 1) % len(opts)])

    def save(self):
        """Ctrl+S: the saved game, and next to it the event log in ``aerie run --log``'s format (events, then the
        final state, one JSON object a line)."""
        from engine.rules.core import dumps

        p = self.ctl.save(self.save_path())
        s = self.ctl.session
        log = p.with_suffix(".log.jsonl") if p.suffix == ".json" else Path(str(p) + ".log.jsonl")
        log.write_text("\n".join([dumps(e) for e in s.events] + [dumps(s.state.to_dict())]) + "\n", encoding="utf-8")
        self.ctl.say(f"saved {len(s.actions)} action(s) to {p} (event log: {log})")

    def save_path(self) -> Path:
        return Path(os.environ.get("AERIE_SAVE", Path(self.scene.path).stem + ".save.json"))

    def _centre(self, cid):
        a = self.ctl.state.actors[cid]
        cm = self.scene.world.cell_m
        return ((a.x + a.footprint / 2) * cm, (a.y + a.footprint / 2) * cm, a.layer + a.height_layers / 2)

    # ================================================================================================ per frame
    @_safe
    def tick(self, dt):
        self._collect()
        if self._deferred and not self.busy():
            todo, self._deferred = self._deferred, []
            for fn, a in todo:
                self._apply(fn, *a)
            self.write_state()
        if self.camctl.mode == "fly":
            fast = 3.0 if (self.keys[key.LSHIFT] or self.keys[key.RSHIFT]) else 1.0
            v = np.array([(self.keys[key.D]) - (self.keys[key.A]), (self.keys[key.W]) - (self.keys[key.S]),
                          (self.keys[key.E]) - (self.keys[key.Q])], dtype=float)
            if v.any():
                self.camctl.move(v, dt, 14.0 * fast)
        if self.camctl.mode == "follow" and self.ctl.selected in self.ctl.state.actors:
            self.camctl.follow(self._follow_anim or self._centre(self.ctl.selected))
        self.camctl.update(dt)
        if self.anims:
            self.anim_t += dt
            if self.anim_t >= ANIM_S or len(self.anims) > 2:
                self.anims.pop(0)
                self.anim_t = 0.0
        self._schedule_jobs()

    def _schedule_jobs(self):
        ctl = self.ctl
        sv = ctl.state_version
        act = ctl.action()
        if act is not None:
            k = (sv, json.dumps(act, sort_keys=True))
            self.submit("preview", k, lambda a=act, c=ctl: c.preview_of(a))
        sel = ctl.selected
        if sel and sel in ctl.state.actors:
            a = ctl.state.actors[sel]
            if self.on["cover"]:
                layer = ctl.cursor_layer
                k = (sv, sel, layer)
                cm = self.scene.world.cell_m
                at = ((a.x + a.footprint / 2) * cm, (a.y + a.footprint / 2) * cm, a.layer + a.height_layers + 0.4)
                self.submit("cover", k, lambda b=a.body(), layer=layer, at=at: maps.cover_prims(self.scene, b, layer, at)[0])
            if self.on["movement"]:
                k = (sv, sel)
                rs = self.render_state()
                sess = ctl.session
                self.submit("movement", k, lambda c=rs.get(sel), rs=rs, s=sess: self._movement_costs(rs, c, s))

    def _movement_costs(self, rs, c, session):
        from engine.render import rules_bridge

        return rules_bridge.movement_costs(self.scene, rs, c, session)

    def overlay_prims(self, rs):
        """The overlays that are on, cached until what they depend on changes."""
        ctl = self.ctl
        pr = ov.Prims()
        notes = []
        sv = ctl.state_version
        sel = ctl.selected if ctl.selected in ctl.state.actors else None

        def cached(name, k, fn):
            c = self._ov_cache.get(name)
            if c is None or c[0] != k:
                try:
                    c = (k, fn())
                except Exception as e:   # noqa: BLE001 - an overlay never takes the window down
                    c = (k, ov.Prims())
                    notes.append(f"{name}: {e}")
                self._ov_cache[name] = c
            return c[1]

        if self.on["grid"]:
            layer = ctl.cursor_layer
            X, Y, _ = self.scene.world.size
            c = ctl.hover[:2] if ctl.hover else (ctl.actor(sel).pos[:2] if sel else (X // 2, Y // 2))
            c = (int(c[0]) // 4 * 4, int(c[1]) // 4 * 4)       # the patch moves in steps, not with every cell
            pr.extend(cached("grid", (layer, c), lambda: self._grid(layer, c)))
        if self.on["engagement"]:
            pr.extend(cached("engagement", (sv, sel), lambda: self._engagement(rs, sel)))
        pending_tgt = None
        if ctl.pending is not None and sel:
            pending_tgt = next((v for k, v in ctl.pending.params.items()
                                if dict(ctl.pending.needs).get(k) == "id" and v in ctl.state.actors and v != sel), None)
        if (self.on["sightlines"] or pending_tgt) and sel:
            # composing an action against a target always shows the sight lines its cover comes from
            tgt = pending_tgt or self._sight_target()
            pr.extend(cached("sightlines", (sv, sel, tgt), lambda: self._sightlines(rs, sel, tgt)))
        for name in ("cover", "movement"):
            if self.on[name] and sel:
                k = (sv, sel, ctl.cursor_layer) if name == "cover" else (sv, sel)
                ok, val = self.result(name, k)
                if ok and isinstance(val, ov.Prims):
                    pr.extend(val)
                elif ok and isinstance(val, dict):
                    layer = ctl.cursor_layer
                    mv = cached("movement_layer", (k, layer), lambda: maps.movement_prims(self.scene, val, layer))
                    pr.extend(mv[0] if isinstance(mv, tuple) else mv)
                    n = mv[1] if isinstance(mv, tuple) else 0
                    notes.append(f"movement: {n} cell(s) reachable at layer {layer}")
                elif ok:
                    notes.append(f"{name}: {val}")
                else:
                    notes.append(f"{name} map: computing...")
        return pr, notes

    GRID_R = 10

    def _grid(self, layer, centre):
        """The layer grid at the cursor's altitude: a 21 x 21-cell patch around the cursor (the whole map's grid at
        altitude is unreadable clutter), with the layer written on it."""
        world = self.scene.world
        X, Y, Z = world.size
        cm = world.cell_m
        cx, cy = centre
        R = self.GRID_R
        x0, x1 = max(cx - R, 0), min(cx + R + 1, X)
        y0, y1 = max(cy - R, 0), min(cy + R + 1, Y)
        pr = ov.Prims()
        z = float(layer) + 0.03
        col = (255, 255, 255, 150)
        for x in range(x0, x1 + 1):
            pr.line((x * cm, y0 * cm, z), (x * cm, y1 * cm, z), col)
        for y in range(y0, y1 + 1):
            pr.line((x0 * cm, y * cm, z), (x1 * cm, y * cm, z), col)
        pr.labels.append(ov.Label((x0 * cm, y0 * cm, z), f"layer {layer} ({layer} m)", ov.WHITE, (40, 70, 140, 220)))
        return pr

    def _engagement(self, rs, sel):
        pr = ov.engagement(self.scene, rs)
        if sel:
            pr.extend(ov.reach(self.scene, rs, rs.get(sel)))
        return pr

    def _sight_target(self):
        p = self.ctl.pending
        if p is not None:
            for k, v in p.params.items():
                if isinstance(v, str) and v in self.ctl.state.actors:
                    return v
        if self.ctl.hover:
            who = self.ctl.who_at(*self.ctl.hover)
            if who and who[0] != self.ctl.selected:
                return who[0]
        return None

    def _sightlines(self, rs, sel, tgt):
        pr = ov.Prims()
        a = rs.get(sel)
        if tgt:
            targets = [tgt]
        else:   # no target chosen or hovered: the nearest two foes
            foes = [c for c in rs.characters if c.side != a.side and not c.dead]
            foes.sort(key=lambda c: (c.x - a.x) ** 2 + (c.y - a.y) ** 2 + (c.layer - a.layer) ** 2)
            targets = [c.id for c in foes[:2]]
        for t in targets:
            pr.extend(ov.sightlines(self.scene, rs, a, rs.get(t)))
        return pr

    def ghost_prims(self, rs) -> ov.Prims:
        """The cell cursor, the ghost at the destination layer with its drop line, and the previewed path."""
        pr = ov.Prims()
        world = self.scene.world
        cm = world.cell_m
        ctl = self.ctl
        sel = ctl.selected if ctl.selected in ctl.state.actors else None
        if ctl.hover is not None and not self._placing():
            x, y, layer = ctl.hover
            z = layer + 0.04
            pr.box_wire((x * cm, y * cm, z), ((x + 1) * cm, (y + 1) * cm, z + 0.05), (255, 255, 255, 230))
        act = ctl.action()
        if self._placing() and sel:
            a = ctl.state.actors[sel]
            dest = (act or {}).get("to") or (ctl.pending.params.get("to") if ctl.pending else None)
            if dest is None and ctl.hover is not None:
                dest = (ctl.hover[0], ctl.hover[1], ctl.cursor_layer)
            if dest is not None:
                x, y, layer = dest
                col = side_colour(a.side)
                ok, res = self.result("preview", (ctl.state_version, json.dumps(act, sort_keys=True))) if act else (False, None)
                legal = ok and isinstance(res, dict) and res.get("ok")
                edge = (120, 255, 140, 255) if legal else ((255, 90, 80, 255) if ok else (255, 255, 255, 220))
                lo = (x * cm + 0.08, y * cm + 0.08, float(layer))
                hi = ((x + a.footprint) * cm - 0.08, (y + a.footprint) * cm - 0.08, float(layer + a.height_layers))
                pr.box_wire(lo, hi, edge, xray=True)
                fill = (col[0], col[1], col[2], 70)
                x0, y0, z0 = lo
                x1, y1, z1 = hi
                for zz in (z0, z1):
                    pr.quad((x0, y0, zz), (x1, y0, zz), (x1, y1, zz), (x0, y1, zz), fill)
                pr.quad((x0, y0, z0), (x1, y0, z0), (x1, y0, z1), (x0, y0, z1), fill)
                pr.quad((x0, y1, z0), (x1, y1, z0), (x1, y1, z1), (x0, y1, z1), fill)
                pr.quad((x0, y0, z0), (x0, y1, z0), (x0, y1, z1), (x0, y0, z1), fill)
                pr.quad((x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1), fill)
                s = max(world.support_layer(x + i, y + j, layer) for i in range(a.footprint) for j in range(a.footprint))
                fx, fy = (x + a.footprint / 2) * cm, (y + a.footprint / 2) * cm
                if layer > s:
                    pr.line((fx, fy, float(layer)), (fx, fy, float(s) + 0.02), edge, xray=True)
                    pr.ring((fx, fy, s + 0.05), 0.3, 0.45, edge)
                pr.labels.append(ov.Label((fx, fy, layer + a.height_layers + 0.3), f"to ({x}, {y}) layer {layer}",
                                          ov.WHITE, (30, 60, 40, 220) if legal else (90, 30, 30, 220)))
                if ok and isinstance(res, dict):
                    path = (res.get("preview") or {}).get("path")
                    if isinstance(path, list) and len(path) > 1:
                        pts = [((p[0] + a.footprint / 2) * cm, (p[1] + a.footprint / 2) * cm, p[2] + 0.15) for p in path]
                        for p0, p1 in zip(pts, pts[1:]):
                            pr.line(p0, p1, (255, 230, 90, 255), xray=True)
        # the selected character: a bright ring at its feet
        if sel:
            c = rs.get(sel)
            fx, fy = (c.x + c.footprint / 2) * cm, (c.y + c.footprint / 2) * cm
            r = c.footprint * cm * 0.55
            pr.ring((fx, fy, c.layer + 0.06), r, r + 0.18, (255, 240, 120, 255))
        tgt = self._sight_target()
        if tgt and ctl.pending is not None:
            c = rs.get(tgt)
            fx, fy = (c.x + c.footprint / 2) * cm, (c.y + c.footprint / 2) * cm
            r = c.footprint * cm * 0.55
            pr.ring((fx, fy, c.layer + 0.06), r, r + 0.18, (255, 80, 60, 255))
        return pr

    def on_draw(self):
        t0 = time.perf_counter()
        ctl = self.ctl
        rs = self.render_state()
        fx = ov.Prims()
        if self.anims:
            anim = self.anims[0]
            u = min(self.anim_t / ANIM_S, 1.0)
            rs, _fx, _hud = frame_state(anim, u)
            fx = effects(self.scene.world, anim, rs, u)
            if self.camctl.mode == "follow" and ctl.selected:
                try:                      # follow the character along its animated path (a fall, a flight)
                    c = rs.get(ctl.selected)
                    cm = self.scene.world.cell_m
                    self._follow_anim = ((c.x + c.footprint / 2) * cm, (c.y + c.footprint / 2) * cm,
                                         c.layer + c.height_layers / 2)
                except KeyError:
                    self._follow_anim = None
        else:
            self._follow_anim = None
        cam = self.camctl.camera()
        # moving: the camera moved since the last frame, or the cursor is crossing cells (the ghost follows it)
        moving = (self._last_cam is not None and cam != self._last_cam) or self._recently_hovered()
        self._last_cam = cam
        scale = self.motion_scale if (moving and self.adaptive and self._full_slow()) else 1.0
        key3d = (cam, scale, ctl.state_version, ctl.version, ctl.hover, ctl.cursor_layer, tuple(sorted(self.on.items())),
                 tuple((n, r[0]) for n, r in self._results.items()), bool(self.anims), self.anim_t if self.anims else 0)
        if key3d != self._scene_key:
            prims, notes = self.overlay_prims(rs)
            prims.extend(self.ghost_prims(rs))
            prims.extend(fx)
            # a moving frame at full resolution goes straight to the window (no copy; the next still frame redraws
            # into the cache), a reduced one into the small buffer, a still one into the cache
            direct = moving and scale == 1.0
            into = None if direct else self._small(scale) if scale != 1.0 else self._target
            with self.rc.drawing_into(into, self._target.size):
                self.renderer.draw(cam, rs, prims, DrawOptions())
            self._scene_key = ("direct",) if direct else key3d
            self._view_scale = "direct" if direct else scale
            self._notes = notes
            self.redraws += 1
            self.scaled += scale != 1.0
            self._track(1.0 if direct else scale)
        else:
            self._track(None)
        if self._view_scale == "direct":
            pass
        elif self._view_scale == 1.0:
            self.rc.show(self._target, self._target.size)
        else:
            self.rc.show(self._small(self._view_scale), self._target.size)
        self.rc.use_screen(self.size_px)
        self.draw_hud(self._notes)
        if self._shot_pending:
            self._shot_pending = None
            self.screenshot()
        self.frames += 1
        self._drawn_key = self._frame_key()
        self._force = False
        if getattr(self, "_fresh", False) or self.test_state:
            self._fresh = False
            self.write_state()
        now = time.perf_counter()
        self.frame_times.append(now - t0)
        if len(self.frame_times) > 60:
            self.frame_times.pop(0)
        if self.frames % 15 == 0:
            dt = now - self._last
            self._last = now
            self.fps = 15 / dt if dt > 0 else 0.0
            self.write_state()

    # ================================================================================================ HUD
    def draw_hud(self, notes):
        ctl = self.ctl
        k = (ctl.version, ctl.msg_version, ctl.state_version, self.size_px, tuple(sorted(self.on.items())), self.help, self.typing,
             tuple(notes), self.camctl.mode,
             tuple((n, r[0]) for n, r in self._results.items()), tuple(self._jobs), ctl.hover,
             self.anims[0].caption if self.anims else None)
        if k != self._hud_key or self.camctl.mode == "flythrough":
            self._hud_key = k
            self.build_hud(notes)
        self.hud.draw(self.size_px)
        self.big.draw(self.size_px)

    def build_hud(self, notes):
        hud, big, ctl = self.hud, self.big, self.ctl
        hud.begin()
        big.begin()
        self.panels = {}
        W, Hh = self.size_px
        s = ctl.session
        st = s.state
        lh = hud.line + 3
        # -- top bar
        hud.box(0, 0, W, lh + 8, (12, 14, 20, 230))
        cur = st.current
        turn = f"round {st.round}, {st.actors[cur].name}'s turn" if cur in st.actors else ("fight over" if st.over else "")
        if st.over:
            turn = f"fight over: {st.winner} won" if st.winner else "fight over"
        x = 10
        x += hud.text(x, 4, f"Aerie  {self.scene.name}", H.ACCENT) + 20
        x += hud.text(x, 4, turn, H.FG) + 20
        cam = f"camera: {self.camctl.describe()}"
        on = [n for n, v in self.on.items() if v]
        ov_text = "overlays: " + (", ".join(on) or "none")
        if x + hud.width(cam) + hud.width(ov_text) + 40 < W - 360:
            x += hud.text(x, 4, cam, H.DIM) + 20
        right = W - 10
        for ident, label in (("help", "F1 help"), ("redo", "Ctrl+Y redo"), ("undo", "Ctrl+Z undo")):
            w = hud.width(label) + 16
            right -= w
            hud.button(right, 0, label, (ident, None))
            right -= 6
        if right - hud.width(ov_text) - 16 > x:
            hud.text(right - hud.width(ov_text) - 16, 4, ov_text, H.GOOD if on else H.DIM)

        # -- left: turn order, then the selected character
        y = lh + 16
        rows = []
        marks = s.ruleset.turn_marks(s)     # the ruleset's notes on the turn order (who has acted...)
        short = s.ruleset.TURN_MARKS_SHORT
        for i, cid in enumerate(st.order):
            a = st.actors[cid]
            mark = ">" if cid == cur else " "
            hp = s.ruleset.health_brief(s, a)      # the ruleset's own health figure
            where = f"L{a.layer}{' fly' if a.flying else ''}"
            if cid in marks:
                where = f"{short.get(marks[cid], marks[cid])} {where}"
            col = side_colour(a.side)
            col = (min(col[0] + 80, 255), min(col[1] + 80, 255), min(col[2] + 80, 255), 255)
            if a.dead:
                col = H.DIM
            rows.append((f"{mark} {a.name.split(' (')[0]}", col, f"{hp:>7} {where}", cid))
        pw = int(min(360, max(240, W * 0.28)))
        ph = lh + 8 + len(rows) * lh + 6
        hud.box(8, y, 8 + pw, y + ph, H.BG)
        hud.box(8, y, 8 + pw, y + lh + 4, H.BG_TITLE)
        title = f"Turn order  (round {st.round})"
        if marks:
            title = s.ruleset.turn_title(s) or title
        hud.text(16, y + 3, title, H.ACCENT)
        yy = y + lh + 8
        for text, col, tail, cid in rows:
            if cid == ctl.selected:
                hud.box(10, yy - 2, 6 + pw, yy + lh - 2, (70, 80, 110, 200))
            hud.text(16, yy, text, col, max_w=pw - hud.width(tail) - 28)
            hud.text(8 + pw - 8 - hud.width(tail), yy, tail, H.FG)
            hud.rects.append((8, yy - 2, 8 + pw, yy + lh - 2, ("select", cid)))
            yy += lh
        y = yy + 14
        if ctl.selected in st.actors:
            y = self.character_panel(8, y, pw, st.actors[ctl.selected]) + 10
        left_bottom = y

        # -- bottom: message, hover, buttons
        bh = hud.line + 10
        items = [(b["label"], ("action", b["action"]), b["active"], True, b["hotkey"]) for b in ctl.buttons()]
        if ctl.pending is not None:
            items += [("confirm", ("confirm", None), False, ctl.action() is not None, "Enter"),
                      ("cancel", ("cancel", None), False, True, "Esc")]
        rows, row, x = [], [], 10        # buttons wrap onto more rows rather than run off the window
        for it in items:
            w = hud.width(f"{it[4]}  {it[0]}" if it[4] else it[0]) + 16 + 6 + (12 if it[1][0] == "confirm" else 0)
            if row and x + w > W - 10:
                rows.append(row)
                row, x = [], 10
            row.append(it)
            x += w
        if row:
            rows.append(row)
        by = Hh - bh - 10 - (len(rows) - 1) * (bh + 6)
        for ri, row in enumerate(rows):
            x, y = 10, by + ri * (bh + 6)
            for label, ident, on_, enabled, hk in row:
                if ident[0] == "confirm":
                    x += 12
                x = hud.button(x, y, label, ident, on=on_, enabled=enabled, hotkey=hk) + 6
        if not ctl.buttons():
            who = ctl.selected or "nobody"
            hud.text(12, by + 5, f"{who} has no action now" + (f" - it is {cur}'s turn (Space selects)" if cur else ""), H.DIM)
        y2 = by - lh - 6
        text, kind = ctl.message
        if self.typing is not None:
            text, kind = f"die result for the next action (e.g. attack 17; 'clear'): {self.typing}_", "info"
        room = W - min(430, W // 3) - 30
        def lx(yy):          # status lines move right of the left panels where those reach down (small windows)
            return 8 if yy - 4 > left_bottom else 8 + pw + 12

        if by - 5 * (lh + 6) < left_bottom:
            room -= pw + 12

        if text:
            for line in reversed(hud.wrap(text, room - 20)[:3]):
                x0 = lx(y2)
                w = min(hud.width(line) + 20, room)
                hud.box(x0, y2 - 4, x0 + w, y2 + lh + 2, (90, 24, 20, 235) if kind == "error" else (20, 40, 30, 230))
                hud.text(x0 + 10, y2, line, H.FG, max_w=w - 20)
                y2 -= lh + 6
            y2 -= 4
        info = ctl.cell_info(ctl.hover)
        if info:
            for line in reversed(hud.wrap(info, room - 20)[:2]):
                x0 = lx(y2)
                w = min(hud.width(line) + 20, room)
                hud.box(x0, y2 - 4, x0 + w, y2 + lh + 2, H.BG)
                hud.text(x0 + 10, y2, line, H.FG, max_w=w - 20)
                y2 -= lh + 6
            y2 -= 4
        hud.text(lx(y2) + 4, y2, f"cursor altitude: layer {ctl.cursor_layer}   (PgUp/PgDn; wheel while placing)", H.DIM,
                 max_w=room)

        # -- right: the preview, then the event log
        rw = min(430, W // 3)
        rx = W - rw - 8
        ry = lh + 16
        if ctl.pending is not None:
            ry = self.preview_panel(rx, ry, rw) + 10
        for n in notes:
            hud.box(rx, ry, rx + rw, ry + lh + 4, (60, 50, 20, 220))
            hud.text(rx + 8, ry + 2, n, H.FG, max_w=rw - 16)
            ry += lh + 8
        log_bottom = by - 10
        avail = max(3, min(int((log_bottom - ry - lh - 20) // lh), 12))
        lines = []
        for text, col in self.log_lines:
            for i, part in enumerate(hud.wrap(text, rw - 24)):
                lines.append(("  " + part if i else part, col))
        lines = lines[-avail:]
        top = log_bottom - (lh + 8 + len(lines) * lh + 6)
        hud.panel(rx, max(top, ry), rw, f"Event log  ({len(s.events)} events, {len(s.actions)} actions)", lines)
        self.panels["log"] = (rx, max(top, ry), rx + rw, max(top, ry) + lh + 4, H.BG_TITLE)

        if self.anims and self.anims[0].caption:
            # what is happening, big, while the step animates (the log has the details)
            parts = [p.strip() for p in self.anims[0].caption.split(";") if p.strip()][:4]
            room = W - (pw + 24) - 12       # right of the left panels (no preview panel while a step animates)
            cw = min(max(big.width(p) for p in parts) + 40, room)
            cx = max(pw + 24, (W - cw) / 2)
            y = lh + 14
            big.box(cx, y, cx + cw, y + len(parts) * (big.line + 4) + 14, (12, 14, 20, 210))
            for i, part in enumerate(parts):
                big.text(cx + 20, y + 7 + i * (big.line + 4), part, H.ACCENT if i == 0 else H.FG, max_w=cw - 40)
        if self.help:
            self.help_panel(W, Hh)
        hud.upload()
        big.upload()

    def character_panel(self, x, y, w, a) -> float:
        hud, ctl = self.hud, self.ctl
        s = ctl.session
        rs = s.ruleset
        rows = []
        rows.append((f"{a.name}", H.FG))
        rows.append((f"{a.id} - {a.side} - {a.kind or a.size}", H.DIM))
        data = a.data or {}
        rows.extend((row, H.FG) for row in rs.hud_rows(s, a))     # the ruleset's own rows (hit points...)
        try:
            left = rs.movement_left(s, a, a.flying or a.can_fly)
            rows.append((f"movement left: {left:g} m", H.FG))
        except Exception:   # noqa: BLE001 - not this actor's turn, or a ruleset without the hook
            pass
        cur = s.current == a.id
        turn = s.state.turn if cur else {}
        used = rs.economy(s, a, turn)       # [(resource, used)] for this turn
        if used:
            rows.append((", ".join(f"{n} {'USED' if u else 'free'}" for n, u in used), H.FG))
        elif cur:
            try:
                rows.append((f"{rs.upkeep_name}: {'free' if rs.upkeep_available(s, a) else 'used'}", H.FG))
            except Exception:   # noqa: BLE001
                pass
        alt = f"layer {a.layer}"
        try:
            from engine.rules.aerial import support_below

            below = support_below(s, a)
            if a.layer > below:
                alt += f": {a.layer - below} m above the surface"
        except Exception:   # noqa: BLE001
            pass
        rows.append((("flying, " if a.flying else ("can fly, " if a.can_fly else "")) + alt, H.FG))
        conds = sorted(a.conditions)
        rows.append(("conditions: " + (", ".join(conds) if conds else "none"), H.BAD if conds else H.DIM))
        if a.dead:
            rows.append(("DEAD", H.BAD))
        rows.append((("it is their turn" if cur else f"waiting (it is {s.current}'s turn)"), H.GOOD if cur else H.DIM))
        self.panels["selected"] = (x, y, x + w, y + hud.line + 7, H.BG_TITLE)
        return hud.panel(x, y, w, "Selected", rows)

    def preview_panel(self, x, y, w) -> float:
        hud, ctl = self.hud, self.ctl
        p = ctl.pending
        rows = []
        act = ctl.action()
        title = f"Preview: {ctl.selected} - {p.name.replace('_', ' ')}"
        note = ctl.variant_note()
        if note:
            rows.append((note, H.DIM))
        for k, v in p.params.items():
            rows.append((f"{k}: {v}", H.FG))
        miss = ctl.missing()
        if miss:
            for m in miss:
                kind = dict(p.needs)[m]
                rows.append(((f"pick {m}: hover a cell, wheel/PgUp for altitude, click" if kind == "pos"
                              else f"pick {m}: click a character (T: next)"), H.ACCENT))
        col = H.BG_TITLE
        if act is not None:
            ok, res = self.result("preview", (ctl.state_version, json.dumps(act, sort_keys=True)))
            if not ok:
                rows.append(("computing...", H.DIM))
            elif isinstance(res, Exception):
                rows.append((f"preview failed: {res}", H.BAD))
            else:
                pv = res.get("preview") or {}
                if res.get("ok"):
                    col = (30, 90, 50, 245)
                    rows.append(("LEGAL - Enter to confirm", H.GOOD))
                else:
                    col = (120, 30, 26, 245)
                    reason = res.get("reason", "")
                    rule = res.get("rule")
                    for i, line in enumerate(hud.wrap("ILLEGAL: " + reason + (f" ({rule})" if rule and f"({rule})" not in reason else ""), w - 16)):
                        rows.append((line, H.BAD))
                    # the header says it already: the preview's own copy of the reason and rule would repeat it
                    pv = {k: v for k, v in pv.items()
                          if not (k == "reason" and v == reason) and not (k == "rule" and v == rule)}
                tgt = ctl.state.actors.get(pv.get("target")) if isinstance(pv.get("target"), str) else None
                base_ac = (tgt.data or {}).get("ac") if tgt is not None else None
                for line in preview_lines(pv, base_ac, ctl.session.ruleset):
                    for i, part in enumerate(hud.wrap(line, w - 24)):
                        rows.append(("  " + part if i else part, H.FG))
        if ctl.forced:
            rows.append(("dice entered by hand: " + ", ".join(f"{k}={v}" for k, v in ctl.forced.items()), H.ACCENT))
        self.panels["preview"] = (x, y, x + w, y + hud.line + 7, col)
        return hud.panel(x, y, w, title, rows, title_col=col)

    def help_panel(self, W, Hh):
        """Every binding, in two columns."""
        hud = self.hud
        lh = hud.line + 4
        half = (len(BINDINGS) + 1) // 2
        cut = next((i for i in range(half, len(BINDINGS)) if not BINDINGS[i][1]), half)
        cols = [BINDINGS[:cut], BINDINGS[cut:]]
        w = min(W - 40, 1160)
        cw = (w - 40) // 2
        kw = min(170, cw // 3)
        h = 50 + max(len(c) for c in cols) * lh
        x0, y0 = (W - w) // 2, max(34, (Hh - h) // 2)
        hud.box(x0, y0, x0 + w, y0 + h, (10, 12, 18, 245))
        hud.text(x0 + 16, y0 + 10, "Keys and mouse   (F1, H or Esc closes)", H.ACCENT)
        for ci, col in enumerate(cols):
            xx = x0 + 16 + ci * (cw + 10)
            yy = y0 + 16 + lh
            for k, d in col:
                if not d:
                    hud.text(xx, yy, k, H.ACCENT)
                else:
                    hud.text(xx + 10, yy, k, H.FG, max_w=kw - 14)
                    hud.text(xx + kw, yy, d, H.DIM, max_w=cw - kw - 4)
                yy += lh

    # ================================================================================================ output
    def grab(self) -> np.ndarray:
        """The frame just drawn (3D view and HUD), uint8 [H, W, 3], top row first. Call before flip()."""
        return self.rc.read_screen(self.size_px)

    def screenshot(self, path=None) -> Path:
        from PIL import Image

        img = self.grab()
        if path is None:
            self.shot_dir.mkdir(parents=True, exist_ok=True)
            path = self.shot_dir / f"aerie-{time.strftime('%Y%m%d-%H%M%S')}-{self.frames:05d}.png"
        Image.fromarray(np.ascontiguousarray(img)).save(path)
        self.last_shot = str(path)
        self.ctl.say(f"screenshot: {path}")
        self.write_state()
        return Path(path)

    def screen_points(self) -> dict:
        cam = self.camctl.camera()
        rs = self.render_state()
        cm = self.scene.world.cell_m
        out = {}
        for c in rs.characters:
            p = ((c.x + c.footprint / 2) * cm, (c.y + c.footprint / 2) * cm, c.layer + c.height_layers * 0.5)
            x, y, w = cam.project([p], self.size_px)[0]
            fx, fy, fw = cam.project([(p[0], p[1], c.layer + 0.06)], self.size_px)[0]
            out[c.id] = [float(x), float(y), bool(w > 0), float(fx), float(fy)]
        return out

    def write_state(self):
        if not self.test_state:
            return
        snap = self.ctl.snapshot()
        cam = self.camctl.camera()
        act = self.ctl.action()
        pv = None
        if act is not None:
            ok, res = self.result("preview", (self.ctl.state_version, json.dumps(act, sort_keys=True)))
            pv = res if ok and not isinstance(res, Exception) else None
        snap.update({
            "window": {"size": list(self.size_px), "frames": self.frames, "fps": self.fps,
                       "camera": {"position": list(cam.position), "look_at": list(cam.look_at), "fov": cam.fov,
                                  "mode": self.camctl.mode},
                       "overlays": self.on, "help": self.help, "busy": self.busy(), "animating": bool(self.anims),
                       "buttons": [{"x0": r[0], "y0": r[1], "x1": r[2], "y1": r[3], "id": list(r[4])}
                                   for r in self.hud.rects],
                       "screen": self.screen_points(), "last_screenshot": self.last_shot,
                       "panels": {k: list(v) for k, v in getattr(self, "panels", {}).items()}},
            "preview": pv,
        })
        text = json.dumps(snap, sort_keys=True, default=str)
        if text == self._state_written:
            return
        self._state_written = text
        tmp = self.test_state + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, self.test_state)

    def quit(self):
        if getattr(self, "_quitting", False):
            return
        self._quitting = True
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.rc.clear_error()          # a pending GL error would make pyglet's teardown raise it
        try:
            self.close()
        except Exception:   # noqa: BLE001 - tearing down a GL context on exit must not print a traceback
            pass
        pyglet.app.exit()

    def on_close(self):
        self.quit()
        return pyglet.event.EVENT_HANDLED
