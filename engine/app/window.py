"""The sandbox window (pyglet): input -> :class:`engine.app.controller.Controller`, the picture through the one
renderer (:class:`engine.render.renderer.Renderer`) into the window's framebuffer, the HUD on top.

Slow work -- the rules' preview of an action (path search, cover), the movement range -- runs in a worker thread;
the window keeps drawing and shows "computing..." until the answer is there. The cover and threat maps and the 3D
threat view run in a map thread of their own, and the frame after an action waits for the two maps (milliseconds). The session is only
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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pyglet
from pyglet.window import key, mouse

from engine.app import hud as H
from engine.app.camera_control import CameraControl
from engine.app import maps
from engine.app import tokens as T
from engine.app.controller import Controller, preview_lines
from engine.app.picking import Picker
from engine.render import overlays as ov
from engine.render.events import build_step, effects, frame_state
from engine.render.renderer import DrawOptions, Renderer
from engine.render.state import from_session, side_colour

ANIM_S = float(os.environ.get("AERIE_ANIM_S", "1.2"))
HOLD_S = 1.3           # a step with a fall or damage stays on screen this long after the motion (its numbers rise)
TOAST_S = 3.0
OVERLAYS = (("grid", key.G, "layer grid at the cursor's altitude"),
            ("engagement", key.X, "engagement (AIR-04) and the selected character's reach (AIR-05)"),
            ("sightlines", key.L, "sight lines from the selected character to its target / the hovered one"),
            ("cover", key.C, "cover map of the selected attacker at the cursor's layer"),
            ("movement", key.M, "where the selected character can move this turn, with costs"),
            ("threat", key.B, "threat map: enemies that could attack the selected character's side at the cursor's layer"),
            ("volume", key.J, "3D view of the threat volume: cubes in place at the cells enemies could attack the "
                              "selected character's side at (J again: the safe cells, then off)"))

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
    ("B", "threat map: enemies that could attack the selected's side there"),
    ("J", "3D threat volume: exposed cells, J: safe cells, J: off"),
    ("Table", ""),
    ("Ctrl+Z / Ctrl+Y", "undo / redo"),
    ("Ctrl+S / Ctrl+O", "save / open a scene or save (a picker)"),
    ("R", "enter a die result by hand: attack 17, Enter"),
    ("E", "GM: state what the composed action leaves to the GM (an open effect, its difficulty)"),
    ("; (semicolon)", "GM command: hp NAME 12, cond NAME +prone, place NAME x y layer, add ID like NAME at x y layer, remove NAME, order NAME after NAME, roll 2d6+3"),
    ("Alt+drag", "GM: drag a character to another cell (wheel: layer)"),
    ("U", "3D ruler: click two points or characters (AIR-03, AIR-07)"),
    ("Y", "area template: sphere, cone, line, cube, off (wheel: size)"),
    ("F2", "fold / unfold the side panels"),
    ("F3", "player view: what each side sees (true 3D sight lines)"),
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
        from engine.render.rules_bridge import display_world

        self.renderer = Renderer(self.rc, display_world(scene.world))   # follows the session's voxels (issue 14)
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
        self.ctl.set_ask(True)                   # the players' choices are asked at their moment (a prompt panel)
        self._hotseat_prev = None                # F3 view to return to once a question for another side is answered
        self.camctl = CameraControl(scene, from_session(scene, self.ctl.session).characters)
        self.picker = Picker(self.renderer.world)
        self.hud = H.Hud(self.renderer, px=self._hud_px(size))
        self.big = H.Hud(self.renderer, px=22 if size[1] >= 400 else 14)
        self.tok = H.Hud(self.renderer, px=12 if size[1] >= 400 else 10)     # names, bars, icons over the models
        self._tok_key = None
        self.token_boxes: dict = {}
        self.floaters: list = []
        self.log_scroll = 0                      # lines scrolled back from the newest
        self.prompt = None                       # a question waiting for y / n: {"text", "yes": callable}
        self.chooser = None                      # the open-file picker: {"paths": [...], "i": int}
        self.toast = None                        # (text, until): a key's effect, said on screen
        self.fold = False                        # F2: side panels folded
        self.player_side = None                  # F3: the side whose view is shown (None: the GM's, everything)
        self.ruler = None                        # U: {"a": point, "b": point}
        self.template = None                     # Y: {"shape", "size_m", "dir_deg"}
        self.gm_typing = None                    # ';': the GM command line
        self.stmt_typing = ""                    # E: the GM's words for a composed action (ctl.statement)
        self._stmt_skip = False
        self._gm_skip = False
        self.ruler_mode = False
        self.log_view = {}
        self.banner_box = None
        self._saved_actions = []                 # the actions as last saved / opened: more is unsaved work
        self.keys = key.KeyStateHandler()
        self.push_handlers(self.keys)
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="aerie-worker")
        # the cover and threat maps (and the 3D volume) in a thread of their own, on inputs taken from the session
        # here on the main thread: a map never waits behind a preview, and the frame after an action waits for
        # the maps of the new state (a few milliseconds on the GPU kernel) instead of drawing "computing..."
        self.map_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="aerie-maps")
        self._drawn_maps: dict = {}              # overlay name -> the job key of the map last drawn
        self.map_wait_s = 0.0
        self.volume_mode = "exposed"             # J: the 3D view's cells, "exposed" or "safe"
        self.volume_info = None
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

    @staticmethod
    def _hud_px(size):
        return 15 if size[1] >= 650 and size[0] >= 1000 else (12 if size[1] >= 400 else 10)

    def compact(self) -> bool:
        """A small window: panels folded to their titles, the event log to its newest lines."""
        W, Hh = self.size_px
        return self.fold or W < 900 or Hh < 500

    def name(self, cid) -> str:
        a = self.ctl.state.actors.get(cid) if isinstance(cid, str) else None
        return T.short_name(a) if a is not None else str(cid)

    def named(self, text: str) -> str:
        """Character ids in a line replaced by their names (the log, messages and labels all say names)."""
        from engine.app.logtext import namer

        acts = self.ctl.state.actors
        if getattr(self, "_name_pat_for", None) != tuple(acts):
            self._namer, self._name_pat_for = namer(acts), tuple(acts)
        return self._namer(text)

    def say(self, text, kind="info", toast=True):
        """A message in the message line and, for a key's effect, big on screen for a few seconds."""
        self.ctl.say(text, kind)
        if toast:
            self.toast = (text, time.perf_counter() + TOAST_S, kind)
        self.changed()

    def hud_state(self):
        """The rules state the panels show: while a step animates, the state before it (the turn order and the
        hit points change when the motion on screen is over, not before)."""
        if self.anims and getattr(self.anims[0], "hud_before", None) is not None:
            return self.anims[0].hud_before
        return self.ctl.state

    def render_state(self):
        sv = self.ctl.state_version
        if self._rs_cache is None or self._rs_cache[0] != (sv, id(self.ctl.session)):
            from engine.render.rules_bridge import sync_display_world

            for box in sync_display_world(self.renderer.world, self.ctl.session):   # broken objects, undone breaks
                self.renderer.world_changed(box)
                self.picker = Picker(self.renderer.world)
            self._rs_cache = ((sv, id(self.ctl.session)), self._views(from_session(self.scene, self.ctl.session)))
        return self._rs_cache[1]

    def _views(self, rs):
        """The render state of the session's characters: one the GM removed is gone, one the GM added looks like
        the scene character it copies (``gm_add``'s ``like``)."""
        from dataclasses import replace

        acts = self.ctl.state.actors
        keep = [c for c in rs.characters if c.id in acts]
        have = {c.id for c in keep}
        base = {c.id: c for c in rs.characters}
        likes = {e.get("who"): e.get("like") for e in self.ctl.session.events if e.get("type") == "gm" and e.get("what") == "add"}
        for aid, a in acts.items():
            if aid in have or likes.get(aid) not in base:
                continue
            keep.append(replace(base[likes[aid]], id=aid, name=a.name, side=a.side, x=float(a.x), y=float(a.y),
                                layer=float(a.layer), flying=a.flying, hp=a.hp, max_hp=a.max_hp,
                                conditions=tuple(sorted(a.conditions)) + (("dead",) if a.dead else ())))
        if len(keep) == len(rs.characters) and have == set(base):
            return rs
        return type(rs)(keep, turn=getattr(rs, "turn", None))

    def _rebuild_log(self):
        from engine.app.logtext import log_entries    # the lines themselves are pure (tests read them)

        col = {"dim": H.DIM, "action": (150, 200, 255, 255), "accent": H.ACCENT, "bad": H.BAD, "fg": H.FG}
        out = [(e[0], col[e[1]], *e[2:]) for e in log_entries(self.ctl.session)]
        self.log_lines = out
        self.log_scroll = 0

    def wanted(self, name: str, job_key) -> bool:
        """Is this job neither done nor running (so submit would start it)?"""
        if name in self._results and self._results[name][0] == job_key:
            return False
        cur = self._jobs.get(name)
        return cur is None or cur[0] != job_key

    def submit(self, name: str, job_key, fn, maps: bool = False):
        """Run fn() in the worker unless the same job (same key) is done or running. ``maps``: in the map thread,
        without the session lock (fn reads no session: its inputs were taken on the main thread)."""
        if not self.wanted(name, job_key):
            return
        if maps:
            self._jobs[name] = (job_key, self.map_pool.submit(fn))
            return

        def run():
            with self.session_lock:
                return fn()
        fut = self.pool.submit(run)
        self._jobs[name] = (job_key, fut)
        self._futures = [f for f in self._futures if not f.done()] + [fut]

    MAP_WAIT_S = 0.25     # the most a frame waits for the cover and threat maps of a new state or layer

    def _wait_maps(self, names=("cover", "threat")):
        """Wait (at most MAP_WAIT_S) for the maps this frame will draw, then collect them: the frame after an
        action or a layer change shows the new maps, not "computing..."."""
        t0 = time.perf_counter()
        end = t0 + self.MAP_WAIT_S
        waited = False
        for name in names:
            job = self._jobs.get(name)
            if job is None:
                continue
            waited = True
            try:
                job[1].result(timeout=max(0.0, end - time.perf_counter()))
            except Exception:   # noqa: BLE001 - a timeout (drawn when ready) or the job's error (_collect shows it)
                pass
        if waited:
            self.map_wait_s = time.perf_counter() - t0      # the last wait (aerie bench window reports it)
        self._collect()

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
        import pickle

        s_before = self.ctl.session
        before = self.render_state()
        n_events = len(s_before.events)
        state_before = pickle.loads(pickle.dumps(s_before.state, pickle.HIGHEST_PROTOCOL))
        res = fn(*a)
        self._hotseat()
        if self.ctl.session is not s_before or len(self.ctl.session.events) != n_events:
            after = self.render_state()
            if fn in (self.ctl.confirm, self.ctl.redo, self.ctl.step, self._gm_step_now, self.ctl.answer,
                      self.ctl.statement_enter):
                evs = self.ctl.session.events[n_events:]
                anim = build_step(before, after, evs)
                anim.hud_before = state_before
                hurt = any(e.get("type") == "damage" for e in evs)
                anim.duration = ANIM_S + (HOLD_S if (anim.falls or hurt) else 0.0)
                self.anims.append(anim)
            else:
                self.anims.clear()
            self._rebuild_log()
            self._results.clear()
        self.changed()
        return res

    def changed(self):
        self._hud_key = None
        self._force = True

    def _hotseat(self):
        """A question for a character of another side while the players' view (F3) shows one side: the screen
        passes to the chooser's side for the answer, and back afterwards."""
        qv = self.ctl.question_view()
        if qv is not None and self.player_side is not None and qv["side"] != self.player_side:
            if self._hotseat_prev is None:
                self._hotseat_prev = self.player_side
            self.player_side = qv["side"]
            self.say(f"pass the screen to side {qv['side']}: {qv['label']} chooses", toast=False)
        elif qv is None and self._hotseat_prev is not None:
            self.player_side, self._hotseat_prev = self._hotseat_prev, None

    def question_panel(self, W, Hh):
        """The prompt: who chooses (named, with the side), the question, the dice rolled so far, one row per
        option with what it does (a click or its number answers; Enter: the highlighted one; Esc: put aside)."""
        qv = self.ctl.question_view()
        hud = self.hud
        lh = hud.line + 6
        head = f"{qv['label']} choose{'' if qv['table'] else 's'}" + (f"  (side {qv['side']})" if qv["side"] else "") + (f"  {qv['rule']}" if qv["rule"] else "")
        lines = [(head, H.ACCENT)]
        if qv["question"]:
            lines.append((qv["question"], H.FG))
        if qv["rolled"]:
            lines.append(("rolled: " + ", ".join(qv["rolled"]), H.GOOD))
        first = len(lines)
        for i, o in enumerate(qv["options"]):
            mark = ">" if i == qv["pick"] else " "
            lines.append((f"{mark} {i + 1}  {o['label']}: {o['does']}" + ("  (default)" if o["default"] else ""),
                          H.FG if i == qv["pick"] else H.DIM))
        lines.append(("1-9 or click: choose   Up/Down, Enter: the highlighted   Esc: "
                      + ("leave it as it stands" if qv["table"] else "put the action aside"), H.DIM))
        w = min(max(hud.width(t) for t, _c in lines) + 40, W - 20)
        h = len(lines) * lh + 24
        x0, y0 = (W - w) / 2, max((Hh - h) / 2, 4)
        hud.box(x0 - 2, y0 - 2, x0 + w + 2, y0 + h + 2, (200, 170, 80, 255))
        hud.box(x0, y0, x0 + w, y0 + h, (10, 12, 18, 250))
        hud.block(x0, y0, x0 + w, y0 + h, "question")
        self.panels["question"] = (x0, y0, x0 + w, y0 + h)
        for i, (t, col) in enumerate(lines):
            yy = y0 + 12 + i * lh
            if i - first == qv["pick"] and 0 <= i - first < len(qv["options"]):
                hud.box(x0 + 8, yy - 3, x0 + w - 8, yy + lh - 5, (60, 70, 100, 230))
            hud.text(x0 + 20, yy, t, col, max_w=w - 40)
            if 0 <= i - first < len(qv["options"]):
                hud.rects.append((x0, yy - 2, x0 + w, yy + lh - 4, ("answer", i - first)))

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
        if self.hud.over(*self.mouse) is not None:
            return                      # over a panel: the map under it is not pointed at
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
        over = self.hud.over(*self.mouse) is not None
        self.drag = {"button": button, "start": self.mouse, "moved": 0.0, "hud": over, "gm": None}
        if button == mouse.LEFT and modifiers & key.MOD_ALT and not over:
            hit = self._pick()
            if hit["char"] is not None:          # GM: Alt+drag a character to another cell
                self.drag["gm"] = hit["char"].char
                self.say(f"GM: dragging {self.name(hit['char'].char)} - release on a cell (wheel: layer)")

    @_safe
    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers):
        self.mouse = (x, self.height - y)
        if self.drag is not None:
            self.drag["moved"] += abs(dx) + abs(dy)
        if self.drag is None or self.drag["moved"] < 4 or self.drag.get("hud"):
            return
        if self.drag.get("gm"):
            self._hover()
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
        if d is not None and d.get("gm"):
            self.gm_drop(d["gm"])
            return
        if d is None or d["moved"] >= 4 or button != mouse.LEFT:
            return
        self.click(*self.mouse)

    def gm_drop(self, cid):
        """The end of a GM drag: the character is placed on the cell under the cursor (a flyer at the cursor's
        layer when that is above the surface) -- a recorded gm_place action."""
        a = self.ctl.state.actors.get(cid)
        if a is None:
            return
        rs = self.render_state()
        hit = self.picker.pick(self.camctl.camera(), self.size_px, self.mouse[0], self.mouse[1], rs.characters,
                               self.ctl.cursor_layer if a.can_fly else None)
        if hit["cell"] is None:
            self.say("GM: no cell under the cursor", "error")
            return
        x, y, layer = hit["cell"].cell
        self.gm_step({"actor": "gm", "action": "gm_place", "target": cid, "to": [x, y, layer]})

    def gm_step(self, act):
        """A GM action, now or as soon as the worker is done reading the session."""
        self.do(self._gm_step_now, act)

    def _gm_step_now(self, act):
        before = len(self.ctl.session.actions)
        self.ctl.step(act)
        if len(self.ctl.session.actions) > before:
            ev = self.ctl.session.events[-1]
            what = str(act["action"]).replace("_", " ")
            self.say(self.named(ev.get("text", f"GM: {what} done")) + "  (Ctrl+Z undoes)")
        elif self.ctl.question is not None:        # a player's choice the GM's action met: asked first
            self._hotseat()
            self.say(self.ctl.message[0])
        else:
            self.say(self.ctl.message[0], "error")

    def click(self, px, py):
        ident = self.hud.over(px, py)
        if ident is not None:
            kind, val = ident
            if kind == "area":
                pass                       # a panel's background: never the map under it
            elif kind == "answer" and self.ctl.question is not None:
                self.do(self.ctl.answer, val)
            elif kind == "open" and self.chooser is not None:
                self.chooser["i"] = val
                self.open_chosen()
            elif kind == "greyed":
                g = next((g for g in self.greyed() if g["action"] == val), None)
                self.say(f"{val.replace('_', ' ')}: not now - {g['reason'] if g else 'not possible now'}", "error")
            elif kind == "action":
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
        if self.prompt is not None or self.chooser is not None or self.ctl.question is not None:
            return
        hit = self._pick()
        if self.ruler_mode:
            t = {"char": hit["char"].char if hit["char"] is not None else None,
                 "cell": list(hit["cell"].cell) if hit["cell"] is not None else None}
            if t["cell"] is None and t["char"] is None:
                return
            if t["cell"] is None:
                t["cell"] = list(self.ctl.actor(t["char"]).pos)
            if self.ruler is None or "b" in self.ruler:
                self.ruler = {"a": t}
                self.say("ruler: click the second point or character (U: ruler off)", toast=False)
            else:
                self.ruler["b"] = t
            self.changed()
            self.write_state()
            return
        if self._placing() and hit["cell"] is not None:
            # placing a move: the click sets the destination the hover previewed, even where a character stands
            # behind that point on screen (select another one with Esc first)
            x, y, _ = hit["cell"].cell
            self.ctl.set_destination((x, y, self._dest_layer(hit["cell"].cell)))
            self.ctl.hover = hit["cell"].cell
        elif hit["char"] is None and hit["terrain"] is not None and self.ctl.target_object_at(hit["terrain"].point):
            pass                          # an object chosen as the target (issue 14)
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
        over = self.hud.over(*self.mouse)
        if over is not None:                 # over a panel: the wheel is the panel's (the log scrolls)
            area = getattr(self, "log_view", {}).get("area")
            if area and area[0] <= self.mouse[0] <= area[2] and area[1] <= self.mouse[1] <= area[3]:
                self.log_scroll = max(0, self.log_scroll + (3 if scroll_y > 0 else -3))
            self.changed()
            self.write_state()
            return
        if self.drag is not None and self.drag.get("gm"):      # dragging a character: the wheel sets its layer
            self.ctl.change_layer(1 if scroll_y > 0 else -1)
            self.say(f"GM: drop {self.name(self.drag['gm'])} at layer {self.ctl.cursor_layer} (a flyer; a walker "
                     "lands on the surface)", toast=False)
            self.write_state()
            return
        if self.template is not None and mods:
            self.template["size_m"] = float(min(max(self.template["size_m"] + (1.5 if scroll_y > 0 else -1.5), 1.5), 60.0))
            self.changed()
            self.write_state()
            return
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
        elif self.ctl.statement is not None and text.isprintable() and text not in "\r\n":
            if self._stmt_skip:
                self._stmt_skip = False
                if text.lower() == "e":
                    return
            self.stmt_typing += text
            self.changed()
        elif self.gm_typing is not None and text.isprintable() and text not in "\r\n":
            if self._gm_skip:
                self._gm_skip = False
                if text == ";":
                    return
            self.gm_typing += text
            self.changed()

    @_safe
    def on_key_press(self, symbol, modifiers):
        ctrl = modifiers & (key.MOD_CTRL | key.MOD_COMMAND)
        shift = modifiers & key.MOD_SHIFT
        if self.prompt is not None:                 # a question: Y answers yes, N / Esc no; nothing else happens
            if symbol in (key.Y, key.ENTER, key.RETURN):
                fn, self.prompt = self.prompt["yes"], None
                fn()
            elif symbol in (key.N, key.ESCAPE):
                self.prompt = None
                self.say("kept the game as it is")
            self.changed()
            self.write_state()
            return pyglet.event.EVENT_HANDLED
        if self.ctl.question is not None and not ctrl:      # a player's choice: answer it (or put the action aside)
            n = len(self.ctl.question["point"].options)
            d = (symbol - key._1) if key._1 <= symbol <= key._9 else (symbol - key.NUM_1) if key.NUM_1 <= symbol <= key.NUM_9 else -1
            if 0 <= d < n:
                self.do(self.ctl.answer, d)
            elif symbol in (key.ENTER, key.RETURN):
                self.do(self.ctl.answer)
            elif symbol in (key.UP, key.DOWN):
                self.ctl.move_pick(1 if symbol == key.DOWN else -1)
            elif symbol == key.ESCAPE:
                self.ctl.drop_question()
                self._hotseat()
            elif symbol == key.F12:
                self._shot_pending = True
            self.changed()
            self.write_state()
            return pyglet.event.EVENT_HANDLED
        if self.chooser is not None:
            ch = self.chooser
            if symbol in (key.UP, key.DOWN):
                ch["i"] = (ch["i"] + (1 if symbol == key.DOWN else -1)) % max(len(ch["paths"]), 1)
            elif symbol in (key.ENTER, key.RETURN):
                self.open_chosen()
            elif symbol == key.ESCAPE:
                self.chooser = None
            self.changed()
            self.write_state()
            return pyglet.event.EVENT_HANDLED
        if self.ctl.statement is not None:          # E: the GM states the composed action's open words
            if symbol in (key.ENTER, key.RETURN):
                text, self.stmt_typing = self.stmt_typing, ""
                self.do(self.ctl.statement_enter, text)
            elif symbol == key.ESCAPE:
                self.ctl.statement, self.stmt_typing = None, ""
                self.say("the GM's statement was put aside")
            elif symbol == key.BACKSPACE:
                self.stmt_typing = self.stmt_typing[:-1]
            elif symbol == key.F12:
                self._shot_pending = True
            self.changed()
            self.write_state()
            return pyglet.event.EVENT_HANDLED
        if self.gm_typing is not None:
            if symbol in (key.ENTER, key.RETURN):
                text, self.gm_typing = self.gm_typing, None
                self.gm_command(text)
            elif symbol == key.ESCAPE:
                self.gm_typing = None
            elif symbol == key.BACKSPACE:
                self.gm_typing = self.gm_typing[:-1]
            elif symbol == key.F12:                # a screenshot of the line being typed
                self._shot_pending = True
            self.changed()
            self.write_state()
            return pyglet.event.EVENT_HANDLED
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
                self.do(lambda: self.say(f"Ctrl+Z: {self.named(self.ctl.message[0])} (Ctrl+Y redoes)"))
            elif symbol == key.Y or (symbol == key.Z and shift):
                self.do(self.ctl.redo)
                self.do(lambda: self.say(f"Ctrl+Y: {self.named(self.ctl.message[0])} (Ctrl+Z undoes)"))
            elif symbol == key.S:
                self.save()
            elif symbol == key.O:
                self.open_chooser()
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
            self.say("F: free fly - W A S D, Q down, E up, drag to look (F or Esc: back to orbit)"
                     if self.camctl.mode == "fly" else "F: orbit camera again")
        elif symbol == key.V:
            if self.camctl.mode == "follow":
                self.camctl.set_mode("orbit")
                self.say("V: follow off")
            elif self.ctl.selected:
                self.camctl.follow(self._centre(self.ctl.selected))
                self.camctl.set_mode("follow")
                self.say(f"V: the camera follows {self.name(self.ctl.selected)} (V: off)")
        elif symbol == key.K:
            if shift:
                self.camctl.home_view()
                self.say("Shift+K: home view")
            else:
                name = self.camctl.snap()
                self.say(f"K - camera: {name} (K: next, Shift+K: home)")
        elif symbol == key.P:
            self.camctl.set_mode("flythrough")
            self.say("P: the scene's fly-through (Esc stops it)")
        elif symbol == key.SEMICOLON:
            self.gm_typing = ""
            self._gm_skip = True
        elif symbol == key.E:
            if self.ctl.begin_statement():
                self.stmt_typing, self._stmt_skip = "", True
        elif symbol == key.U:
            self.ruler_mode = not self.ruler_mode
            self.ruler = None
            self.say("U: ruler - click two points or characters (U: off)" if self.ruler_mode else "U: ruler off")
        elif symbol == key.Y:
            shapes = self.TEMPLATES
            cur = self.template["shape"] if self.template else None
            i = shapes.index(cur) + 1 if cur in shapes else 0
            if i >= len(shapes):
                self.template = None
                self.say("Y: area template off")
            else:
                size = self.template["size_m"] if self.template else 6.0
                self.template = {"shape": shapes[i], "size_m": size}
                self.say(f"Y: {shapes[i]} template, {size:g} m, at the cursor (cone and line from the selected; "
                         "Ctrl+wheel: size; Y: next shape)")
        elif symbol == key.F2:
            self.fold = not self.fold
            self.say("F2: panels folded (F2: unfold)" if self.fold else "F2: panels unfolded")
        elif symbol == key.F3:
            self.cycle_player_view()
        elif symbol == key.J:                      # the 3D volume: exposed cells -> safe cells -> off
            if not self.on["volume"]:
                self.on["volume"], self.volume_mode = True, "exposed"
            elif self.volume_mode == "exposed":
                self.volume_mode = "safe"
            else:
                self.on["volume"] = False
            self.say("J: 3D threat view off" if not self.on["volume"] else
                     f"J: 3D threat view, the {self.volume_mode} cells (J: "
                     + ("the safe cells)" if self.volume_mode == "exposed" else "off)"))
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
                    self.say(f"{key.symbol_string(k)}: {name} overlay {'on' if self.on[name] else 'off'}")
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

        def snap(v):
            return (int(round(v[0])) if abs(v[0]) >= abs(v[1]) else 0, int(round(v[1])) if abs(v[1]) > abs(v[0]) else 0)

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
        from engine.outputs import write_text_output   # atomic, as every output

        write_text_output(log, "\n".join([dumps(e) for e in s.events] + [dumps(s.state.to_dict())]) + "\n", "the log")
        self._saved_actions = list(s.actions)
        self.say(f"saved {len(s.actions)} action(s) to {p} (event log: {log})")

    # -- opening scenes and saves ---------------------------------------------------------------------------------
    def unsaved(self) -> str:
        """What opening something else would throw away ("" when nothing)."""
        n = len(self.ctl.session.actions)
        saved = self._saved_actions
        new = n if self.ctl.session.actions[:len(saved)] != saved else n - len(saved)
        bits = []
        if new > 0 or len(saved) > n:
            bits.append(f"{max(new, 0)} unsaved action(s)")
        if self.ctl.redo_stack:
            bits.append(f"{len(self.ctl.redo_stack)} redo step(s)")
        return " and ".join(bits)

    def open_chooser(self):
        """Ctrl+O: a picker of the saves and scenes around (the default save first)."""
        paths = []
        sp = self.save_path()
        if sp.exists():
            paths.append(sp)
        here = Path(".")
        scene_dir = Path(self.scene.path).resolve().parent
        for d in dict.fromkeys([here.resolve(), scene_dir, Path("scenes").resolve()]):
            try:
                paths += sorted(p for p in d.glob("*.save.json") if p.resolve() != sp.resolve())
                paths += sorted(p for p in d.glob("*.toml") if self._looks_like_scene(p))
            except OSError:
                continue
        seen, out = set(), []
        for p in paths:
            r = p.resolve()
            if r not in seen:
                seen.add(r)
                out.append(p)
        if not out:
            self.say("Ctrl+O: no scene or saved game here", "error")
            return
        self.chooser = {"paths": [str(p) for p in out[:30]], "i": 0}
        self.say("Ctrl+O: choose a scene or a saved game (Up/Down, Enter; Esc: cancel)", toast=False)

    @staticmethod
    def _looks_like_scene(p: Path) -> bool:
        """A scene file has a [map] table (pyproject.toml and other TOML files are not offered)."""
        try:
            with open(p, encoding="utf-8", errors="replace") as f:
                head = f.read(65536)
        except OSError:
            return False
        return "[map]" in head

    def open_chosen(self):
        ch, self.chooser = self.chooser, None
        if not ch or not ch["paths"]:
            return
        path = Path(ch["paths"][ch["i"] % len(ch["paths"])])
        lost = self.unsaved()
        if lost:
            self.prompt = {"text": f"Open {path.name}? {lost} will be lost.", "yes": lambda: self.open_path(path)}
            self.say(f"Ctrl+O: {lost} would be lost - Y opens {path.name}, N keeps the game", toast=False)
            return
        self.open_path(path)

    def open_path(self, path: Path):
        if str(path).endswith(".toml"):
            from engine.errors import AerieError
            from engine.scene import load_scene

            try:
                scene = load_scene(str(path))
                ctl = Controller(scene)
            except AerieError as e:
                self.say(f"{path}: {e}", "error")
                return
            self.do(self._set_controller, ctl)
            self.say(f"opened scene {path}")
            return
        self.do(self._load_save, path)

    def _load_save(self, path):
        old_scene = self.ctl.scene
        if self.ctl.load(path):
            if self.ctl.scene is not old_scene:
                self._set_controller(self.ctl)
            self._saved_actions = list(self.ctl.session.actions)
            self.say(self.named(self.ctl.message[0]))
        else:
            self.say(self.ctl.message[0], "error")

    def _set_controller(self, ctl):
        """Another scene: its world, renderer, camera and picker."""
        self.ctl = ctl
        ctl.set_ask(True)
        if ctl.scene is not self.scene:
            self.scene = ctl.scene
            from engine.render.rules_bridge import display_world

            self.renderer = Renderer(self.rc, display_world(self.scene.world))   # follows the session's voxels
            self.hud = H.Hud(self.renderer, px=self._hud_px(self.size_px))
            self.big = H.Hud(self.renderer, px=self.big.px)
            self.tok = H.Hud(self.renderer, px=self.tok.px)
            self.camctl = CameraControl(self.scene, from_session(self.scene, ctl.session).characters)
            self.picker = Picker(self.renderer.world)
            self.set_caption(f"Aerie - {self.scene.name}")
        self._saved_actions = list(ctl.session.actions)
        self._rs_cache = None
        self._ov_cache.clear()
        self._results.clear()
        self._scene_key = None
        self._tok_key = None
        self.anims.clear()
        self.ruler = None
        self._rebuild_log()
        self.changed()

    # -- the GM's command line ---------------------------------------------------------------------------------------
    def gm_command(self, text: str):
        from engine.app.gmtext import parse

        try:
            act = parse(text, self.ctl.state)
        except ValueError as e:
            self.say(f"GM: {e}", "error")
            return
        if act is None:
            return
        self.gm_step(act)

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
            if self.anim_t >= getattr(self.anims[0], "duration", ANIM_S) or len(self.anims) > 2:
                self.anims.pop(0)
                self.anim_t = 0.0
                self.changed()
        if self.toast is not None and time.perf_counter() > self.toast[1]:
            self.toast = None
            self.changed()
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
                self.submit("cover", k, lambda b=a.body(), layer=layer, at=at, w=self.maps_world():
                            maps.cover_prims(self.scene, b, layer, at, world=w)[0], maps=True)
            if self.on["threat"] and self.wanted("threat", (sv, sel, ctl.cursor_layer)):
                layer = ctl.cursor_layer
                enemies = maps.threat_enemies(ctl.session, a.side)        # read here, on the main thread
                self.submit("threat", (sv, sel, layer), lambda side=a.side, layer=layer, e=enemies, w=self.maps_world():
                            maps.threat_prims(self.scene, None, side, layer, enemies=e, world=w)[0], maps=True)
            if self.on["volume"] and self.wanted("volume", (sv, sel, self.volume_mode)):
                enemies = maps.threat_enemies(ctl.session, a.side)
                cm = self.scene.world.cell_m
                at = ((a.x + a.footprint / 2) * cm, (a.y + a.footprint / 2) * cm, a.layer + a.height_layers + 0.4)
                self.submit("volume", (sv, sel, self.volume_mode), lambda k=(sv, sel, self.volume_mode), side=a.side,
                            e=enemies, at=at, w=self.maps_world(): self._volume_job(k, e, side, at, w), maps=True)
            if self.on["movement"]:
                k = (sv, sel)
                rs = self.render_state()
                sess = ctl.session
                self.submit("movement", k, lambda c=rs.get(sel), rs=rs, s=sess: self._movement_costs(rs, c, s))
        self._wait_maps()

    def maps_world(self):
        """The voxels the cover and threat maps read (on the map thread): the session's own, with the walls broken
        in play -- as a copy made here on the main thread whenever the session's changes, so a step that breaks
        a wall while a map is being worked out never shows the map half an edit."""
        w = self.ctl.session.world
        if w is self.scene.world:                  # never edited in place (a session copies it before a break)
            return w
        key = (id(w), w.revision)
        if getattr(self, "_maps_world_key", None) != key:
            from engine.render.rules_bridge import display_world

            self._maps_world_key, self._maps_world = key, display_world(w)
        return self._maps_world

    def _volume_job(self, k, enemies, side, at, world=None):
        """The 3D threat view (map thread): its cubes; what it counted kept for the test state."""
        pr, info = maps.volume_prims(self.scene, enemies, side, k[2], at, world=world)
        self.volume_info = dict(info, key=list(k))
        return pr

    def greyed(self) -> list[dict]:
        """The selected character's actions that are not legal now, each with the core's reason (worked out in the
        worker: one check per action with each possible target)."""
        ctl = self.ctl
        sel = ctl.selected
        if sel not in ctl.state.actors:
            return []
        k = (ctl.state_version, sel, id(ctl.session))
        self.submit("greyed", k, lambda: self._greyed_now(sel))
        ok, val = self.result("greyed", k)
        return val if ok and isinstance(val, list) else []

    def _greyed_now(self, sel) -> list[dict]:
        from engine.errors import AerieError
        from engine.rules.core import BadAction, Illegal

        s = self.ctl.session
        rs = s.ruleset
        gm_only = set(rs.GM_ACTIONS)
        legal = {a.get("action") for a in self.ctl.legal()}
        out = []
        others = [a.id for a in s.state.actors.values() if a.id != sel][:8]
        for name, spec in rs.action_specs().items():
            if name in legal or name in gm_only:
                continue
            base = {"actor": sel, "action": name}
            cands = [base]
            for k, p in spec.items():
                if p.required and p.kind == "id":
                    cands = [dict(c, **{k: o}) for c in cands for o in others]
                elif p.required and p.kind == "pos":
                    a = s.state.actors[sel]
                    cands = [dict(c, **{k: [a.x, a.y, a.layer]}) for c in cands]
                elif p.required and p.choices:
                    cands = [dict(c, **{k: p.choices[0]}) for c in cands]
            reason = None
            for c in cands[:8]:
                try:
                    s.check(c)
                except BadAction as e:
                    reason = reason or (f"needs {e.path}" if e.path else e.reason)
                    continue
                except Illegal as e:
                    reason = e.reason + (f" ({e.rule})" if e.rule and f"({e.rule})" not in e.reason else "")
                    break
                except AerieError as e:
                    reason = reason or str(e)
                    continue
            out.append({"action": name, "label": name.replace("_", " "), "reason": reason or "not possible now"})
        return out

    def hover_greyed(self) -> str:
        ident = self.hud.hit(*self.mouse)
        if ident and ident[0] == "greyed":
            g = next((g for g in self.greyed() if g["action"] == ident[1]), None)
            if g:
                return f"{g['label']}: not now - {g['reason']}"
        return ""

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
        for name in ("cover", "threat", "movement", "volume"):
            if self.on[name] and sel:
                k = ((sv, sel, ctl.cursor_layer) if name in ("cover", "threat") else
                     (sv, sel, self.volume_mode) if name == "volume" else (sv, sel))
                ok, val = self.result(name, k)
                if ok and isinstance(val, ov.Prims):
                    pr.extend(val)
                    self._drawn_maps[name] = k
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
        if self.player_side is not None:          # the players' screen: only what their side sees
            seen = self.visible_ids()
            rs = type(rs)([c for c in rs.characters if c.id in seen])
        self.floaters = [lb.text for lb in fx.labels]
        cam = self.camctl.camera()
        # moving: the camera moved since the last frame, or the cursor is crossing cells (the ghost follows it)
        moving = (self._last_cam is not None and cam != self._last_cam) or self._recently_hovered()
        self._last_cam = cam
        scale = self.motion_scale if (moving and self.adaptive and self._full_slow()) else 1.0
        key3d = (cam, scale, ctl.state_version, ctl.version, ctl.hover, ctl.cursor_layer, tuple(sorted(self.on.items())),
                 tuple((n, r[0]) for n, r in self._results.items()), bool(self.anims), self.anim_t if self.anims else 0,
                 self.player_side, json.dumps(self.ruler, default=str), json.dumps(self.template, default=str))
        if key3d != self._scene_key:
            prims, notes = self.overlay_prims(rs)
            prims.extend(self.ghost_prims(rs))
            prims.extend(self.table_prims(rs))
            # the overlays' labels join the names in the token layer (one layout: none hides another)
            self._table_tags += [(lb.pos, lb.text, lb.bg if lb.bg[3] else (20, 20, 24, 220)) for lb in prims.labels]
            prims.labels = []
            prims.extend(fx)
            # a moving frame at full resolution goes straight to the window (no copy; the next still frame redraws
            # into the cache), a reduced one into the small buffer, a still one into the cache
            direct = moving and scale == 1.0
            into = None if direct else self._small(scale) if scale != 1.0 else self._target
            with self.rc.drawing_into(into, self._target.size):
                self.renderer.draw(cam, rs, prims, DrawOptions(labels=False))
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
        self.draw_tokens(cam, rs)
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

    # ================================================================================================ tokens
    def draw_tokens(self, cam, rs):
        st = self.hud_state()
        k = (cam, self.ctl.state_version, tuple(self.size_px), self.anim_t if self.anims else None, self.player_side,
             id(st), tuple(c.id for c in rs.characters), tuple(t[1] for t in getattr(self, "_table_tags", ())),
             tuple(tuple(b[:4]) for b in self.hud.blocks))
        if k != self._tok_key:
            self._tok_key = k
            self.build_tokens(cam, rs, st)
        self.tok.draw(self.size_px)

    def token_max_px(self) -> float:
        return T.MAX_PX * self.size_px[1] / 720.0

    def build_tokens(self, cam, rs, st):
        """Names, bars and condition icons above the models (engine.app.tokens places them)."""
        tok = self.tok
        tok.begin()
        W, Hh = self.size_px
        cm = self.scene.world.cell_m
        s = self.ctl.session
        chars = [c for c in rs.characters if c.id in st.actors]
        pts = []
        for c in chars:
            fx, fy = (c.x + c.footprint / 2) * cm, (c.y + c.footprint / 2) * cm
            top = c.layer + (0.6 if c.lying else c.height_layers) + 0.1
            pts += [(fx, fy, top), (fx, fy, c.layer)]
        proj = cam.project(pts, (W, Hh)) if pts else []
        lh = tok.line
        items, info = [], {}
        for i, c in enumerate(chars):
            hx, hy, hw = proj[2 * i]
            fx_, fy_, fw = proj[2 * i + 1]
            if hw <= 0 or fw <= 0 or not (-50 < hx < W + 50 and -50 < hy < Hh + 50):
                continue
            a = st.actors[c.id]
            name = T.short_name(a)
            head = f"{name}  L{int(round(c.layer))}" + (" fly" if c.flying and not c.down else "")
            bars = T.bars(s, a)
            tags = T.condition_tags(a)
            tag_w = sum(tok.width(t) + 8 for t, _c in tags)
            wf = max(tok.width(head) + 10, 64, tag_w + 4)
            hf = lh + 4 + len(bars) * 5 + (lh + 2 if tags else 0) + 2
            half = max(5.0, abs(fy_ - hy) * 0.3 * c.footprint)
            model = (min(hx, fx_) - half, min(hy, fy_), max(hx, fx_) + half, max(hy, fy_))
            items.append({"id": c.id, "anchor": (hx, hy), "depth": hw, "full": (wf, hf),
                          "compact": (tok.width(name) + 10 + tag_w, lh + 4), "model": model})
            info[c.id] = (a, c, name, head, bars, tags)
        focus = {self.ctl.selected, self._sight_target()}
        for it in items:                     # the selected character and its target are placed first
            if it["id"] in focus:
                it["depth"] = -0.5
        tags = list(getattr(self, "_table_tags", ()))
        tproj = cam.project([t[0] for t in tags], (W, Hh)) if tags else []
        for j, ((_p, text, bg), (tx, ty, tw_)) in enumerate(zip(tags, tproj)):
            if tw_ <= 0:
                continue
            w_ = tok.width(text) + 10
            items.append({"id": f"_tag{j}", "anchor": (tx, ty), "depth": -1.0, "full": (w_, lh + 4), "compact": (w_, lh + 4),
                          "model": None})
            info[f"_tag{j}"] = (text, bg)
        panels = [b[:4] for b in self.hud.blocks if b[4] != "modal"]     # the HUD as last drawn
        places = T.layout(items, self.token_max_px(), bounds=(0, 0, W, Hh), avoid=panels)
        folded = {}
        for it, pl in zip(items, places):
            if pl["mode"] == "folded" and pl["into"] and not it["id"].startswith("_tag"):
                folded[pl["into"]] = folded.get(pl["into"], 0) + 1
        self.token_boxes = {}
        for it, pl in zip(items, places):
            if it["id"].startswith("_tag"):
                if pl["box"] is not None:
                    text, bg = info[it["id"]]
                    x0, y0, x1, y1 = pl["box"]
                    tok.box(x0, y0, x1, y1, bg)
                    tok.text(x0 + 5, y0 + 2, text, H.FG)
                continue
            a, c, name, head, bars, tags = info[it["id"]]
            rec = {"name": name, "anchor": list(it["anchor"]), "mode": pl["mode"], "box": pl["box"],
                   "bars": [list(b) for b in bars], "tags": [t for t, _c in tags], "model": list(it["model"])}
            self.token_boxes[it["id"]] = rec
            if pl["box"] is None:
                rec["into"] = pl.get("into")
                continue
            x0, y0, x1, y1 = pl["box"]
            col = side_colour(a.side)
            bg = (int(col[0] * 0.45), int(col[1] * 0.45), int(col[2] * 0.45), 215) if not a.dead else (40, 40, 40, 215)
            tok.box(x0, y0, x1, y1, bg)
            ax, ay = it["anchor"]
            if y1 < ay - 6:                       # moved up: a thin leader to its model
                lx = min(max(ax, x0 + 2), x1 - 2)
                tok.box(lx - 1, y1, lx + 1, ay - 2, (bg[0], bg[1], bg[2], 200))
            if pl["mode"] == "compact":          # a name tag, its condition icons kept
                xx = x0 + 5 + tok.text(x0 + 5, y0 + 2, name, H.FG) + 4
                for t, tc in tags:
                    tw = tok.width(t) + 6
                    tok.box(xx, y0 + 1, xx + tw, y1 - 1, (tc[0], tc[1], tc[2], 235))
                    tok.text(xx + 3, y0 + 2, t, (10, 10, 10, 255))
                    xx += tw + 2
            else:
                tok.text(x0 + 5, y0 + 2, head, H.FG)
                yy = y0 + lh + 4
                for label, v, mx in bars:
                    f = max(0.0, min(1.0, v / mx)) if mx else 0.0
                    tok.box(x0 + 4, yy, x1 - 4, yy + 4, (20, 20, 20, 230))
                    hpcol = (80, 210, 90, 255) if f > 0.5 else ((235, 190, 50, 255) if f > 0.25 else (230, 60, 50, 255))
                    if label.lower() not in ("hp", "life"):
                        hpcol = (90, 160, 240, 255) if "prot" in label.lower() else (210, 170, 240, 255)
                    tok.box(x0 + 4, yy, x0 + 4 + (x1 - x0 - 8) * f, yy + 4, hpcol)
                    yy += 5
                if tags:
                    xx = x0 + 4
                    yy += 1
                    for t, tc in tags:
                        tw = tok.width(t) + 6
                        tok.box(xx, yy, xx + tw, yy + lh + 1, (tc[0], tc[1], tc[2], 235))
                        tok.text(xx + 3, yy, t, (10, 10, 10, 255))
                        xx += tw + 2
            n = folded.get(it["id"])
            if n:
                t = f"+{n}"
                tok.box(x1 + 1, y0, x1 + tok.width(t) + 9, y0 + lh + 4, (30, 30, 36, 230))
                tok.text(x1 + 5, y0 + 2, t, H.ACCENT)
                rec["folded"] = n
        # damage numbers of the step on screen (falls included), held while the step's numbers are up
        tok.upload()

    def visible_ids(self) -> set:
        """The characters the player side sees: its own, and any another one of its members has a line of sight
        to -- the ruleset's own ``sees`` when it has one (the rules' test), else the world's 36 sight lines
        (engine.world.cover.cover_between, AIR-15)."""
        side = self.player_side
        k = (self.ctl.state_version, side, id(self.ctl.session))
        c = getattr(self, "_vis_cache", None)
        if c is not None and c[0] == k:
            return c[1]
        s = self.ctl.session
        acts = list(s.state.actors.values())
        viewers = [a for a in acts if a.side == side and not a.dead]
        sees = getattr(s.ruleset, "sees", None)
        out = {a.id for a in acts if a.side == side}
        for b in acts:
            if b.id in out:
                continue
            for a in viewers:
                try:
                    ok = sees(s, a, b) if callable(sees) else None
                except Exception:   # noqa: BLE001 - a ruleset's sees() that needs data this actor lacks
                    ok = None
                if ok is None:
                    from engine.rules.registry import cover_levels
                    from engine.world.cover import cover_between

                    ok = cover_between(s.world, a.body(), b.body(), cover_levels(s.scene.ruleset),
                                       s.options.get("cover_thresholds")).visible
                if ok:
                    out.add(b.id)
                    break
        self._vis_cache = (k, out)
        return out

    def cycle_player_view(self):
        sides = list(dict.fromkeys(a.side for a in self.ctl.state.actors.values()))
        if self.player_side is None:
            self.player_side = sides[0] if sides else None
        else:
            i = sides.index(self.player_side) if self.player_side in sides else -1
            self.player_side = sides[i + 1] if i + 1 < len(sides) else None
        if self.player_side is None:
            self.say("F3: game master's view (everything)")
        else:
            n = len(self.visible_ids())
            self.say(f"F3: player view of side {self.player_side}: {n} of {len(self.ctl.state.actors)} characters "
                     f"seen by true 3D sight lines (F3: next side)")

    # -- the ruler and area templates --------------------------------------------------------------------------
    def _point_of(self, target):
        """(metres point, Body, character id or None) of a ruler end: a character or a cell."""
        from engine.world.geometry import Body

        cm = self.scene.world.cell_m
        if target.get("char") in self.ctl.state.actors:
            a = self.ctl.state.actors[target["char"]]
            b = a.body()
            return ((a.x + a.footprint / 2) * cm, (a.y + a.footprint / 2) * cm, a.layer + 0.05), b, a.id
        x, y, layer = target["cell"]
        return ((x + 0.5) * cm, (y + 0.5) * cm, layer + 0.05), Body(x, y, layer, 1, 2, 1.6), None

    def ruler_info(self):
        """The ruler's figures: the straight distance with height (AIR-03) and, for the mover (the character at the
        first end, else the selected one standing there), the cost of the cheapest path to the second end (AIR-07:
        climbs and descents priced by the rules' own reach map)."""
        r = self.ruler
        if not r or "b" not in r:
            return None
        from engine.world.geometry import distance_m

        pa, ba, ida = self._point_of(r["a"])
        pb, bb, idb = self._point_of(r["b"])
        d = distance_m(ba, bb, self.scene.world.cell_m)
        mover = ida or (self.ctl.selected if self.ctl.selected in self.ctl.state.actors else None)
        key = (self.ctl.state_version, json.dumps(r, sort_keys=True), mover)
        info = {"straight_m": round(d, 2), "layers": int(bb.layer - ba.layer), "mover": mover, "key": key}
        if mover:
            self.submit("ruler", key, lambda: self._path_cost(mover, ba, bb, idb))
            ok, val = self.result("ruler", key)
            info["path"] = val if ok else "computing"
        return info

    def _path_cost(self, mover, ba, bb, idb):
        from dataclasses import replace

        from engine.rules.aerial import reach

        s = self.ctl.session
        a = s.state.actors[mover]
        probe = replace(a, x=ba.x, y=ba.y, layer=ba.layer)
        from engine.world.geometry import distance_m

        # a budget that covers any sensible detour: three times the straight line, plus room for a climb
        r = reach(s, probe, budget_m=3.0 * distance_m(ba, bb, s.world.cell_m) + 24.0)
        goals = [(bb.x, bb.y, bb.layer)]
        if idb is not None:            # to a character: the cheapest cell next to it (where a melee attack stands)
            t = s.state.actors[idb]
            goals = [(t.x + i, t.y + j, t.layer + k) for i in range(-a.footprint, t.footprint + 1)
                     for j in range(-a.footprint, t.footprint + 1) for k in (-1, 0, 1)]
        best = None
        for g in goals:
            loc = r._local(*g)
            c = r.cost_cm(*g) if loc is not None else None
            if c is None or (idb is not None and not r.endable[loc]):
                continue
            if best is None or c < best[0]:
                best = (c, g)
        if best is None:
            return {"reachable": False, "fly": r.fly}
        path = r.path(*best[1])
        return {"reachable": True, "cost_m": round(best[0] / 100.0, 2), "to": list(best[1]), "fly": r.fly,
                "path": [list(p) for p in path]}

    TEMPLATES = ("sphere", "cone", "line", "cube")

    def template_geometry(self):
        """(shape, origin metres, aim metres, size metres) of the area template, or None."""
        t = self.template
        if not t:
            return None
        cm = self.scene.world.cell_m
        cell = self.ctl.hover
        if cell is None:
            return None
        aim = ((cell[0] + 0.5) * cm, (cell[1] + 0.5) * cm, cell[2] + 0.5)
        sel = self.ctl.state.actors.get(self.ctl.selected) if self.ctl.selected else None
        if t["shape"] in ("cone", "line") and sel is not None:
            origin = ((sel.x + sel.footprint / 2) * cm, (sel.y + sel.footprint / 2) * cm, sel.layer + sel.eye_m)
        else:
            origin = aim
        return t["shape"], origin, aim, float(t["size_m"])

    def template_inside(self):
        """Who is inside the template: any of a body's 36 sample points (the points sight lines aim at) inside."""
        g = self.template_geometry()
        if g is None:
            return []
        from engine.world.cover import sample_points

        shape, o, aim, size = g
        cm = self.scene.world.cell_m
        o = np.array(o)
        d = np.array(aim) - o
        n = np.linalg.norm(d)
        u = d / n if n > 1e-9 else np.array([0.0, 1.0, 0.0])
        out = []
        for a in self.ctl.state.actors.values():
            if a.dead or (shape in ("cone", "line") and a.id == self.ctl.selected):
                continue
            p = sample_points(a.body()) * np.array([cm, cm, 1.0])
            v = p - o
            if shape == "sphere":
                ins = np.linalg.norm(v, axis=1) <= size
            elif shape == "cube":
                ins = (np.abs(v[:, 0]) <= size / 2) & (np.abs(v[:, 1]) <= size / 2) & (p[:, 2] >= aim[2] - 0.5) & (p[:, 2] <= aim[2] - 0.5 + size)
            else:
                along = v @ u
                perp = np.linalg.norm(v - np.outer(along, u), axis=1)
                if shape == "cone":       # 5e: the width at any point equals the distance from the point of origin
                    ins = (along >= 0) & (along <= size) & (perp <= along / 2)
                else:                     # a line 1.5 m wide
                    ins = (along >= 0) & (along <= size) & (perp <= 0.75)
            if ins.any():
                out.append(a.id)
        return out

    def table_prims(self, rs) -> ov.Prims:
        """The ruler and the area template in 3D; their figures go to the token layer as tags (laid out with the
        names, so none hides another)."""
        pr = ov.Prims()
        self._table_tags = []
        info = self.ruler_info() if self.ruler else None
        if self.ruler:
            pa = self._point_of(self.ruler["a"])[0]
            pr.ring((pa[0], pa[1], pa[2]), 0.25, 0.4, (120, 220, 255, 255))
            if info is not None:
                pb = self._point_of(self.ruler["b"])[0]
                pr.ring((pb[0], pb[1], pb[2]), 0.25, 0.4, (120, 220, 255, 255))
                pr.line(pa, pb, (120, 220, 255, 255), xray=True)
                path = info.get("path")
                if isinstance(path, dict) and path.get("path"):
                    cm = self.scene.world.cell_m
                    pts = [((p[0] + 0.5) * cm, (p[1] + 0.5) * cm, p[2] + 0.12) for p in path["path"]]
                    for p0, p1 in zip(pts, pts[1:]):
                        pr.line(p0, p1, (255, 170, 60, 255), xray=True)
                mid = tuple((x + y) / 2 for x, y in zip(pa, pb))
                self._table_tags.append((mid, self.ruler_text(info, short=True), (20, 60, 90, 235)))
        g = self.template_geometry()
        if g is not None:
            shape, o, aim, size = g
            col = (255, 120, 220, 255)
            if shape == "sphere":
                for k in range(-2, 3):
                    z = o[2] + size * k / 3
                    rr = math.sqrt(max(size * size - (z - o[2]) ** 2, 0.0))
                    pr.ring((o[0], o[1], z), max(rr - 0.08, 0.0), rr, col, n=48)
            elif shape == "cube":
                z0 = aim[2] - 0.5
                pr.box_wire((o[0] - size / 2, o[1] - size / 2, z0), (o[0] + size / 2, o[1] + size / 2, z0 + size), col, xray=True)
            else:
                d = np.array(aim) - np.array(o)
                n = np.linalg.norm(d)
                u = d / n if n > 1e-9 else np.array([0.0, 1.0, 0.0])
                side = np.cross(u, [0.0, 0.0, 1.0])
                if np.linalg.norm(side) < 1e-6:
                    side = np.array([1.0, 0.0, 0.0])
                side = side / np.linalg.norm(side)
                upv = np.cross(side, u)
                end = np.array(o) + u * size
                half = size / 2 if shape == "cone" else 0.75
                ring = []
                for k in range(24):
                    ang = 2 * math.pi * k / 24
                    ring.append(tuple(end + (side * math.cos(ang) + upv * math.sin(ang)) * half))
                for k in range(24):
                    pr.line(ring[k], ring[(k + 1) % 24], col, xray=True)
                    if k % 6 == 0:
                        pr.line(tuple(o) if shape == "cone" else tuple(np.array(o) + (np.array(ring[k]) - end)), ring[k], col, xray=True)
            who = self.template_inside()
            self._table_tags.append(((aim[0], aim[1], aim[2]), f"{shape} {size:g} m: " +
                                     (", ".join(self.name(i) for i in who) or "nobody inside"), (90, 30, 80, 235)))
        return pr

    def ruler_text(self, info, short=False) -> str:
        t = f"{info['straight_m']:.1f} m straight ({info['layers']:+d} layers, AIR-03)"
        path = info.get("path")
        if short:
            t = f"{info['straight_m']:.1f} m"
            if isinstance(path, dict):
                t += f", path {path['cost_m']:g} m" if path.get("reachable") else ", no path"
            return t
        if isinstance(path, dict):
            who = self.name(info["mover"])
            t += (f"; path {path['cost_m']:g} m for {who} (AIR-07)" if path.get("reachable")
                  else f"; {who} has no path there")
        elif path == "computing":
            t += "; path: computing..."
        return t

    # ================================================================================================ HUD
    def draw_hud(self, notes):
        ctl = self.ctl
        k = (ctl.version, ctl.msg_version, ctl.state_version, self.size_px, tuple(sorted(self.on.items())), self.help, self.typing,
             tuple(notes), self.camctl.mode,
             tuple((n, r[0]) for n, r in self._results.items()), tuple(self._jobs), ctl.hover,
             self.anims[0].caption if self.anims else None, len(self.anims), id(self.hud_state()), self.log_scroll,
             json.dumps([self.prompt and self.prompt["text"], self.chooser, self.ctl.question_view(), self.toast and self.toast[0], self.gm_typing, self.stmt_typing, self.ctl.statement_prompt(),
                         self.fold, self.player_side, self.ruler, self.template, self.ruler_mode], default=str),
             self.hover_greyed(), tuple(self.mouse) if self.anims else None)
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
        st = self.hud_state()
        lh = hud.line + 3
        small = self.compact()
        # -- top bar: whose turn and the camera mode always fit (the scene's name gives way first)
        bar_h = lh + 8
        hud.box(0, 0, W, bar_h, (12, 14, 20, 230))
        hud.block(0, 0, W, bar_h, "top bar")
        cur = st.current
        turn = f"round {st.round}, {self.name(cur)}'s turn" if cur in st.actors else ""
        if cur in st.actors and (said := s.ruleset.turn_caption(s)):
            turn = self.named(said)                  # the ruleset's own words for its turns
        if st.over:
            turn = f"fight over: {st.winner} won" if st.winner else "fight over"
        right = W - 6
        btns = (("help", "F1 help"), ("redo", "Ctrl+Y redo"), ("undo", "Ctrl+Z undo"))
        if W < 700:
            btns = (("help", "F1"), ("redo", "redo"), ("undo", "undo"))
        for ident, label in btns:
            right -= hud.button_width(label)
            hud.button(right, 0, label, (ident, None))
            right -= 4
        cam = self.camctl.describe()
        on = [n for n, v in self.on.items() if v]
        pieces = [(f"camera: {cam}", H.DIM), (turn, H.FG)]
        if self.player_side is not None:
            pieces.insert(0, (f"PLAYER VIEW: {self.player_side}", H.BAD))
        x = 8
        room = right - 12
        title = f"Aerie  {self.scene.name}"
        need = sum(hud.width(t) + 16 for t, _c in pieces)
        if x + hud.width(title) + 16 + need <= room:
            x += hud.text(x, 4, title, H.ACCENT) + 16
        for t, col in reversed(pieces):
            if not t:
                continue
            w = hud.width(t)
            if x + w > room:
                w = hud.text(x, 4, t, col, max_w=max(room - x, 10))
            else:
                hud.text(x, 4, t, col)
            x += w + 16
        if on and x + hud.width("overlays: " + ", ".join(on)) < room:
            hud.text(x, 4, "overlays: " + ", ".join(on), H.GOOD)

        # -- left: turn order, then the selected character
        pw = int(min(300, max(200, W * 0.22))) if not small else int(min(220, W * 0.45))
        y = bar_h + 6
        rows = []
        marks = s.ruleset.turn_marks(s)     # the ruleset's notes on the turn order (who has acted...)
        short = s.ruleset.TURN_MARKS_SHORT
        seen = self.visible_ids() if self.player_side is not None else None
        for cid in st.order:
            a = st.actors.get(cid)
            if a is None:
                continue
            if seen is not None and cid not in seen:
                continue
            mark = ">" if cid == cur else " "
            hp = s.ruleset.health_brief(s, a)      # the ruleset's own health figure
            where = f"L{a.layer}{' fly' if a.flying else ''}"
            if cid in marks:
                where = f"{short.get(marks[cid], marks[cid])} {where}"
            col = side_colour(a.side)
            col = (min(col[0] + 80, 255), min(col[1] + 80, 255), min(col[2] + 80, 255), 255)
            if a.dead:
                col = H.DIM
            rows.append((f"{mark} {T.short_name(a)}", col, f"{hp} {where}", cid))
        title = f"Turn order  (round {st.round})"
        if marks:
            title = s.ruleset.turn_title(s) or title      # a ruleset may title its own turn panel
        if small:      # folded: the title and whose turn it is
            rows = [r for r in rows if r[3] == cur][:1]
            title += "  (F2)"
        if not small and rows:
            # as wide as its longest row needs (a ruleset's health figures can be long), up to a third of the window
            need = max(hud.width(t) + hud.width(tail) for t, _c, tail, _id in rows) + 40
            pw = int(max(pw, min(need, W * 0.34)))
        ph = lh + 8 + len(rows) * lh + 6
        hud.box(8, y, 8 + pw, y + ph, H.BG)
        hud.block(8, y, 8 + pw, y + ph, "turn order")
        hud.box(8, y, 8 + pw, y + lh + 4, H.BG_TITLE)
        hud.text(16, y + 3, title, H.ACCENT, max_w=pw - 16)
        yy = y + lh + 8
        for text, col, tail, cid in rows:
            if cid == ctl.selected:
                hud.box(10, yy - 2, 6 + pw, yy + lh - 2, (70, 80, 110, 200))
            # the name keeps at least its own width up to 40% of the panel; a long tail (a ruleset's health figures,
            # life, a mark) is the one clipped, so a row never reads "> ." for its character
            name_w = min(hud.width(text), pw * 0.4)
            tw = min(hud.width(tail), pw - 28 - name_w)
            hud.text(16, yy, text, col, max_w=pw - tw - 28)
            if hud.width(tail) > tw:           # still too long: whole words dropped from its end, not half a word
                words = tail.split(" ")
                while len(words) > 1 and hud.width(" ".join(words) + "…") > tw:
                    words.pop()
                tail = " ".join(words) + ("…" if len(words) < len(tail.split(" ")) else "")
            hud.text(8 + pw - 8 - tw, yy, tail, H.FG, max_w=tw)
            hud.rects.append((8, yy - 2, 8 + pw, yy + lh - 2, ("select", cid)))
            yy += lh
        self.panels["turn"] = (8, y, 8 + pw, y + lh + 4, H.BG_TITLE)
        self.panel_rows = {"turn": [(r[0] + " " + r[2]) for r in rows]}
        y = yy + 8
        if ctl.selected in st.actors and not small:
            y = self.character_panel(8, y, pw, st.actors[ctl.selected]) + 8
        left_bottom = y

        # -- bottom: the actions (legal ones first; the others greyed, their reason on hover), message, hover
        bh = hud.line + 10
        items = [(b["label"], ("action", b["action"]), b["active"], True, b["hotkey"]) for b in ctl.buttons()]
        greyed = self.greyed()
        if not small:
            items += [(g["label"], ("greyed", g["action"]), False, False, "") for g in greyed]
        if ctl.pending is not None:
            cc = [("confirm", ("confirm", None), False, ctl.action() is not None, "Enter"),
                  ("cancel", ("cancel", None), False, True, "Esc")]
            items = cc + items if small else items + cc       # a small window: confirm / cancel first
        rows_b, row, x = [], [], 10        # buttons wrap onto more rows rather than run off the window
        max_rows = 1 if small else 3
        for it in items:
            w = hud.button_width(it[0], it[4]) + 6 + (12 if it[1][0] == "confirm" else 0)
            if row and x + w > W - 10:
                rows_b.append(row)
                row, x = [], 10
            row.append(it)
            x += w
        if row:
            rows_b.append(row)
        if len(rows_b) > max_rows:        # too many: the greyed ones give way first, then the last rows
            keep = [r for r in rows_b if any(i[1][0] in ("confirm", "cancel", "action") for i in r)]
            rows_b = (keep or rows_b)
            if len(rows_b) > max_rows and not small and ctl.pending is not None:
                rows_b = rows_b[:max_rows - 1] + rows_b[-1:]     # confirm / cancel are on the last row
            rows_b = rows_b[:max_rows]
        by = Hh - bh - 6 - (len(rows_b) - 1) * (bh + 4)
        for ri, row in enumerate(rows_b):
            x, y = 10, by + ri * (bh + 4)
            for label, ident, on_, enabled, hk in row:
                if ident[0] == "confirm":
                    x += 12
                x = hud.button(x, y, label, ident, on=on_, enabled=enabled, hotkey=hk) + 6
            hud.block(8, y - 2, x, y + bh + 2, "actions")
        if not ctl.buttons():
            who = self.name(ctl.selected) if ctl.selected else "nobody"
            hud.text(12, by - lh - 2, f"{who} has no action now" + (f" - it is {self.name(cur)}'s turn (Space selects)" if cur else ""),
                     H.DIM, max_w=W - 24)
        y2 = by - lh - 6 - (lh if not ctl.buttons() else 0)
        text, kind = ctl.message
        if self.typing is not None:
            text, kind = f"die result for the next action (e.g. attack 17; 'clear'): {self.typing}_", "info"
        if self.ctl.statement is not None:
            text, kind = f"{self.ctl.statement_prompt()}: {self.stmt_typing}_   (Enter: next, Esc: put it aside)", "info"
        if self.gm_typing is not None:
            text, kind = f"GM: {self.gm_typing}_   (hp NAME 12 | cond NAME +prone | place NAME x y layer | add ID like NAME at x y layer | remove NAME | order NAME after NAME | roll 2d6+3 | do NAME ACTION key=value)", "info"
        hov = self.hover_greyed()
        if hov and not text:
            text, kind = hov, "info"
        secret = []
        if self.player_side is not None:     # nothing on the players' screen names whom they cannot see
            seen = self.visible_ids()
            secret = [T.short_name(a) for a in st.actors.values() if a.id not in seen] + ["GM "]
            if any(n in self.named(text or "") for n in secret):
                text = ""
        rw = int(min(380, W * 0.28)) if not small else int(min(260, W * 0.4))
        room = W - rw - 30

        def lx(yy):          # status lines move right of the left panels where those reach down (small windows)
            return 8 if yy - 4 > left_bottom else 8 + pw + 12

        if by - 5 * (lh + 6) < left_bottom:
            room -= pw + 12
        room = max(room, 60)
        if text:
            for line in reversed(hud.wrap(self.named(text), room - 20)[:2 if small else 3]):
                x0 = lx(y2)
                w = min(hud.width(line) + 20, room)
                hud.box(x0, y2 - 4, x0 + w, y2 + lh + 2, (90, 24, 20, 235) if kind == "error" else (20, 40, 30, 230))
                hud.block(x0, y2 - 4, x0 + w, y2 + lh + 2, "message")
                hud.text(x0 + 10, y2, line, H.FG, max_w=w - 20)
                y2 -= lh + 6
            y2 -= 4
        info = self.named(ctl.cell_info(ctl.hover)) if not small else ""
        if any(n in info for n in secret):
            info = ""
        if info:
            for line in reversed(hud.wrap(info, room - 20)[:2]):
                x0 = lx(y2)
                w = min(hud.width(line) + 20, room)
                hud.box(x0, y2 - 4, x0 + w, y2 + lh + 2, H.BG)
                hud.block(x0, y2 - 4, x0 + w, y2 + lh + 2, "hover")
                hud.text(x0 + 10, y2, line, H.FG, max_w=w - 20)
                y2 -= lh + 6
            y2 -= 4
        if not small and y2 > left_bottom + 4:
            hud.text(lx(y2) + 4, y2, f"cursor altitude: layer {ctl.cursor_layer}   (PgUp/PgDn; wheel while placing)", H.DIM,
                     max_w=room)

        # -- right: the preview, the ruler / template, then the event log (the wheel scrolls it)
        rx = W - rw - 8
        ry = bar_h + 6
        if ctl.pending is not None and not small:
            ry = self.preview_panel(rx, ry, rw) + 6
        extra = []
        info = self.ruler_info() if self.ruler else None
        if self.ruler:
            extra.append(("Ruler (U): " + (self.ruler_text(info) if info else "click the second point"), (140, 220, 255, 255)))
        if self.template:
            who = self.template_inside()
            extra.append((f"Template (Y): {self.template['shape']} {self.template['size_m']:g} m (Ctrl+wheel: size) - inside: "
                          + (", ".join(self.name(i) for i in who) or "nobody"), (255, 150, 230, 255)))
        for n in notes + [e[0] for e in extra]:
            for line in hud.wrap(self.named(n), rw - 16)[:3]:
                hud.box(rx, ry, rx + rw, ry + lh + 4, (60, 50, 20, 220))
                hud.block(rx, ry, rx + rw, ry + lh + 4, "note")
                hud.text(rx + 8, ry + 2, line, H.FG, max_w=rw - 16)
                ry += lh + 4
            ry += 4
        log_bottom = by - 8
        max_lines = 3 if small else 8
        avail = max(1, min(int((log_bottom - ry - lh - 20) // lh), max_lines))
        lines = []
        hidden_names = []
        if self.player_side is not None:     # the players' screen: no GM edits, nothing about who they cannot see
            seen = self.visible_ids()
            hidden_names = [T.short_name(a) for a in st.actors.values() if a.id not in seen]
        for entry in self.log_lines:
            text_, col = entry[0], entry[1]
            if self.player_side is not None and ((len(entry) > 2 and entry[2] == "gm") or
                                                 any(n in text_ for n in hidden_names)):
                continue
            for i, part in enumerate(hud.wrap(text_, rw - 24)):
                lines.append(("  " + part if i else part, col))
        self.log_scroll = max(0, min(self.log_scroll, max(len(lines) - avail, 0)))
        end = len(lines) - self.log_scroll
        shown = lines[max(end - avail, 0):end]
        top = max(log_bottom - (lh + 8 + len(shown) * lh + 6), ry)
        if ry < log_bottom - lh - 10:
            ttl = f"Event log  ({len(s.events)} events)" + (f"  - {self.log_scroll} newer below" if self.log_scroll else "  (wheel: older)")
            hud.panel(rx, top, rw, ttl, shown)
            self.panels["log"] = (rx, top, rx + rw, top + lh + 4, H.BG_TITLE)
            self.log_view = {"first": shown[0][0] if shown else "", "last": shown[-1][0] if shown else "",
                             "scroll": self.log_scroll, "lines": len(lines), "area": [rx, top, rx + rw, log_bottom]}

        if self.anims and self.anims[0].caption:
            self.banner(self.named(self.anims[0].caption), bar_h, pw)
        if self.toast is not None and not (self.anims and self.anims[0].caption):
            t, _until, kind = self.toast
            tw = min(big.width(t) + 30, W - 20)
            bx = (W - tw) / 2
            y = bar_h + 8
            big.box(bx, y, bx + tw, y + big.line + 10, (90, 24, 20, 220) if kind == "error" else (20, 30, 50, 220))
            big.text(bx + 15, y + 5, t, H.FG, max_w=tw - 30)
        if self.ctl.question is not None:
            self.question_panel(W, Hh)
        if self.prompt is not None:
            self.modal([self.prompt["text"], "Y: yes      N or Esc: no"])
        if self.chooser is not None:
            ch = self.chooser
            lines = ["Open a scene or a saved game (Up/Down, Enter; Esc: cancel)"]
            lines += [("> " if i == ch["i"] else "  ") + str(pth) for i, pth in enumerate(ch["paths"])]
            self.modal(lines, click=True)
        if self.help:
            self.help_panel(W, Hh)
        hud.upload()
        big.upload()

    def modal(self, lines, click=False):
        hud = self.hud
        W, Hh = self.size_px
        lh = hud.line + 6
        w = min(max(hud.width(t) for t in lines) + 40, W - 20)
        h = len(lines) * lh + 24
        x0, y0 = (W - w) / 2, max((Hh - h) / 2, 4)
        hud.box(x0, y0, x0 + w, y0 + h, (10, 12, 18, 248))
        hud.block(0, 0, W, Hh, "modal")
        for i, t in enumerate(lines):
            hud.text(x0 + 20, y0 + 12 + i * lh, t, H.ACCENT if i == 0 else H.FG, max_w=w - 40)
            if click and i > 0:
                hud.rects.append((x0, y0 + 12 + i * lh - 2, x0 + w, y0 + 12 + (i + 1) * lh - 4, ("open", i - 1)))

    def banner(self, caption, bar_h, pw):
        """What is happening, big, while a step animates -- placed where it covers none of the characters that
        move in the step (a falling flyer stays in view): at the top, beside or below the movers; in small print
        when the big one fits nowhere."""
        W, Hh = self.size_px
        parts = [p.strip() for p in caption.split(";") if p.strip()][:4]
        if not parts:
            return
        movers = self.moving_boxes()
        for layer in (self.big, self.hud):
            cw = min(max(layer.width(p) for p in parts) + 40, W - 20)
            bh = len(parts) * (layer.line + 4) + 14
            xs = [max(pw + 24, (W - cw) / 2), (W - cw) / 2, 10, W - cw - 10]
            ys = [bar_h + 8, Hh * 0.55, Hh * 0.35]
            for m in movers:
                xs += [m[2] + 8, m[0] - 8 - cw]
                ys += [m[3] + 8, m[1] - 8 - bh]
            cands = [(x, y) for y in ys for x in xs
                     if 0 <= x and x + cw <= W and bar_h <= y and y + bh <= Hh - 40]
            panels = [b[:4] for b in self.hud.blocks if b[4] != "top bar"]
            got = None
            for avoid in (movers + panels, movers):      # over no panel if it can, over no mover ever
                got = next(((x, y) for x, y in cands
                            if not any(T._overlaps((x, y, x + cw, y + bh), m, 4.0) for m in avoid)), None)
                if got is not None:
                    break
            if got is not None:
                break
        if got is None:
            return                       # nowhere to put it without hiding the action: the log has it
        cx, cy = got
        self.banner_box = [cx, cy, cx + cw, cy + bh]
        layer.box(cx, cy, cx + cw, cy + bh, (12, 14, 20, 210))
        for i, part in enumerate(parts):
            layer.text(cx + 20, cy + 7 + i * (layer.line + 4), part, H.ACCENT if i == 0 else H.FG, max_w=cw - 40)

    def moving_boxes(self) -> list:
        """Screen boxes of the characters a step moves (from where they start to where they end, a fall's whole
        column) and of their labels."""
        if not self.anims:
            return []
        anim = self.anims[0]
        cam = self.camctl.camera()
        cm = self.scene.world.cell_m
        out = []
        for a in anim.after.characters:
            try:
                b = anim.before.get(a.id)
            except KeyError:
                continue
            if (a.x, a.y, a.layer) == (b.x, b.y, b.layer) and a.hp == b.hp:
                continue
            pts = []
            for c in (a, b):
                fx, fy = (c.x + c.footprint / 2) * cm, (c.y + c.footprint / 2) * cm
                pts += [(fx, fy, c.layer), (fx, fy, c.layer + c.height_layers + 1.5)]
            pr = [p for p in cam.project(pts, self.size_px) if p[2] > 0]
            if pr:
                xs, ys = [p[0] for p in pr], [p[1] for p in pr]
                out.append((min(xs) - 50, min(ys) - 20, max(xs) + 50, max(ys) + 10))
        return out

    def character_panel(self, x, y, w, a) -> float:
        hud, ctl = self.hud, self.ctl
        s = ctl.session
        rs = s.ruleset
        rows = []
        rows.append((f"{a.name}", H.FG))
        rows.append((f"{a.side} - {a.kind or a.size}  (id: {a.id})", H.DIM))
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
        rows.append((("it is their turn" if cur else f"waiting (it is {self.name(s.current)}'s turn)"), H.GOOD if cur else H.DIM))
        self.panels["selected"] = (x, y, x + w, y + hud.line + 7, H.BG_TITLE)
        return hud.panel(x, y, w, "Selected", rows)

    def preview_panel(self, x, y, w) -> float:
        hud, ctl = self.hud, self.ctl
        p = ctl.pending
        rows = []
        act = ctl.action()
        title = f"Preview: {self.name(ctl.selected)} - {p.name.replace('_', ' ')}"
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
                for line in preview_lines(pv, base_ac, ctl.session.ruleset) + ctl.choice_lines(act):
                    for i, part in enumerate(hud.wrap(line, w - 24)):
                        rows.append(("  " + part if i else part, H.FG))
        if ctl.forced:
            rows.append(("dice entered by hand: " + ", ".join(f"{k}={v}" for k, v in ctl.forced.items()), H.ACCENT))
        self.panels["preview"] = (x, y, x + w, y + hud.line + 7, col)
        rows = [(self.named(t), c) for t, c in rows]      # names, not ids, like everything on screen
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
        from engine.outputs import atomic_path

        with atomic_path(Path(path), "the screenshot") as tmp:
            Image.fromarray(np.ascontiguousarray(img)).save(tmp, format="PNG")
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
                       "panels": {k: list(v) for k, v in getattr(self, "panels", {}).items()},
                       "blocks": [list(b) for b in self.hud.blocks], "texts": [list(t) for t in self.hud.texts],
                       "tokens": self.token_boxes, "token_max_px": self.token_max_px(), "floaters": self.floaters,
                       "log": self.log_view, "toast": self.toast[0] if self.toast else None,
                       "prompt": self.prompt["text"] if self.prompt else None, "chooser": self.chooser,
                       "banner": self.banner_box if self.anims else None, "moving": self.moving_boxes(),
                       "hud_turn": getattr(self, "panel_rows", {}).get("turn"), "player_side": self.player_side,
                       "visible": sorted(self.visible_ids()) if self.player_side is not None else None,
                       "ruler": self.ruler_info() if self.ruler else None, "template": self.template,
                       "inside": self.template_inside() if self.template else None,
                       "greyed": self.greyed(), "compact": self.compact(),
                       "maps": {"state_version": self.ctl.state_version, "volume_mode": self.volume_mode,
                                "drawn": {n: list(k) for n, k in self._drawn_maps.items()},
                                "volume": self.volume_info, "jobs": sorted(self._jobs)}},
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
        self.map_pool.shutdown(wait=False, cancel_futures=True)
        self.rc.clear_error()          # a pending GL error would make pyglet's teardown raise it
        try:
            self.close()
        except Exception:   # noqa: BLE001 - tearing down a GL context on exit must not print a traceback
            pass
        pyglet.app.exit()

    def on_close(self):
        self.quit()
        return pyglet.event.EVENT_HANDLED
