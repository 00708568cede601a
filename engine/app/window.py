"""The sandbox window (pyglet): input -> :class:`engine.app.controller.Controller`, the picture through the one
renderer (:class:`engine.render.renderer.Renderer`) into the window's framebuffer, the HUD on top.

The window is a shell: each input event goes to the top mode of a stack (:mod:`engine.app.modes`), each HUD
panel is a section (:mod:`engine.app.sections`), what the window shows besides the rules' state is one view state
(:mod:`engine.app.viewstate`), the frame loop and its workers are :mod:`engine.app.frame` and
:mod:`engine.app.jobs`, the overlays' primitives :mod:`engine.app.scene_prims`, the test-state hook
:mod:`engine.app.teststate`.

Slow work -- the rules' preview of an action (path search, cover), the movement range -- runs in a worker thread;
the window keeps drawing and shows "computing..." until the answer is there. The session is only changed on the
main thread, and only while no worker reads it (a confirm or undo asked for meanwhile waits for the worker).

Test hooks (environment): ``AERIE_TEST_STATE=FILE`` (see :mod:`engine.app.teststate`); ``AERIE_SCREENSHOT_DIR`` --
where F12 writes PNGs (default: the current folder).
"""

from __future__ import annotations

import functools
import os
import time
from pathlib import Path

import numpy as np
import pyglet
from pyglet.window import key

from engine.app import fog
from engine.app import frame as F
from engine.app import hud as H
from engine.app import pointing
from engine.app import recovery
from engine.app.seats import Seats
from engine.app import panels, sections
from engine.app import storeys
from engine.app import teststate
from engine.app import token_layer
from engine.app.camera_control import CameraControl
from engine.app.controller import Controller
from engine.app.gmtable import gm_views
from engine.app.hud import fit_text
from engine.app.intents import Intent, SaveFirst
from engine.app.jobs import Workers
from engine.app.mirror import follow
from engine.app.twowindows import HeldKeys, own_context
from engine.app.modes.base import ModeStack
from engine.app.modes.main import KEYMAP, OVERLAYS, MainMode, help_rows   # noqa: F401 - re-exported
from engine.app.modes.mirror import MirrorMode
from engine.app.modes.question import sync as sync_modes
from engine.app.perform import perform
from engine.app.picking import Picker
from engine.app.table import Table, table_of
from engine.app.viewstate import PlayerFilter, ViewState
from engine.render.events import build_step
from engine.rules.events import Hurting
from engine.render.renderer import Renderer
from engine.render.state import from_session
from engine.units import scene_units

ANIM_S = F.ANIM_S
HOLD_S = 1.3           # a step with a fall or damage stays on screen this long after the motion (its numbers rise)
TOAST_S = 3.0
BINDINGS = help_rows()


def _safe(fn):
    """Neither an input handler nor a frame takes the window down: an unexpected error is printed once, shown in
    red, and the GM's work saved to a recovery file (engine/app/recovery.py)."""
    @functools.wraps(fn)
    def run(self, *a, **kw):
        try:
            own_context(self)
            return fn(self, *a, **kw)
        except Exception as e:   # noqa: BLE001 - the table's game must survive a bug in one handler or frame
            recovery.frame_error(self, fn.__name__, e)
            return pyglet.event.EVENT_HANDLED
    return run


def _gl_config():
    try:
        return pyglet.gl.Config(double_buffer=True, depth_size=24, major_version=3, minor_version=3,
                                forward_compatible=True)
    except Exception:   # noqa: BLE001 - fall back to pyglet's default config
        return None


class PlayWindow(pyglet.window.Window):
    def __init__(self, scene, seed=None, size=(1280, 720), *, visible=True, overlays_on=(), vsync=False,
                 mirror_of=None, side=None):
        # made hidden and shown once whole: under pyglet.app.run a window dispatches its first resize and expose from
        # inside its constructor (the players' screen, F4, opened from a key), before any of the state they use
        kw = dict(width=size[0], height=size[1], caption=f"Aerie - {scene.name}", resizable=True, vsync=vsync,
                  visible=False)
        try:
            super().__init__(config=_gl_config(), **kw)
        except pyglet.window.NoSuchConfigException:
            super().__init__(**kw)
        from engine.render.context import RenderContext

        self.scene = scene
        self.set_location(0, 0)
        self.rc = RenderContext.from_current(self.get_framebuffer_size())
        self.loop = F.FrameLoop(self)
        self.loop.fit_target()
        self.gm = mirror_of                      # the GM's window when this one is the players' screen (F4)
        self.mirror = None                       # the players' screen of this GM's window
        self.ctl = mirror_of.ctl if mirror_of else Controller(scene, seed)
        self.ctl.set_ask(True)                   # the players' choices are asked at their moment (a prompt panel)
        self.vstate = ViewState(overlays_on)
        self.units_flag: str | None = None       # --units: overrides every scene's [view] units for the session
        self.vstate.units = scene_units(scene)   # the scene's [view] units, else its ruleset's (engine/units.py)
        self.modes = ModeStack(MirrorMode() if mirror_of else MainMode())
        self.sections = panels.Panels(sections.default(), help_rows)      # given a table, never the window
        self.jobs = mirror_of.jobs if mirror_of else Workers()      # one session, one lock
        self.keys = key.KeyStateHandler()
        self.push_handlers(self.keys)
        self.push_handlers(HeldKeys(self))       # a frame of its own: one frame keeps one handler per event
        self._reset_world()
        self.seats = Seats(self.vstate)          # whose view is up (F3), its player filter, the hotseat
        self.token_boxes: dict = {}
        self.tok_key = None
        self.table_tags: list = []
        self.floaters: list = []
        self.toast = None                        # (text, until, kind): a key's effect, said on screen
        self.log_view: dict = {}
        self.banner_box = None
        self.panels: dict = {}
        self.panel_rows: dict = {}
        self.notes: list = []
        self.saved_actions: list = []            # the actions as last saved / opened: more is unsaved work
        self.save_to: Path | None = None         # Ctrl+Shift+S's name: where Ctrl+S saves from then on
        self.drawn_maps: dict = {}               # overlay name -> the job key of the map last drawn
        self.volume_info = None
        self.maps_world_cache: tuple = (None, None)
        self.mouse = (0, 0)                      # top-left origin pixels
        self.drag = None
        self.hover_t = 0.0
        self.anims: list = []
        self.anim_t = 0.0
        self.follow_anim = None
        self.log_lines: list = []
        self.frames = 0
        self.frame_times: list[float] = []
        self.fps = 0.0
        self._last = time.perf_counter()
        self.deferred: list = []                 # actions waiting for the worker to finish
        self.test_state = teststate.state_path(mirror_of)
        self.shot_dir = Path(os.environ.get("AERIE_SCREENSHOT_DIR", "."))
        self.last_shot = None
        self.state_written = None
        self.shot_pending = False
        self.last_error: tuple | None = None
        self.recovered_at = 0                    # the number of actions last saved to the recovery file
        self._rebuild_log()
        if mirror_of is None:
            recovery.offer(self)
        else:
            self.vstate.player_side = side
            self.set_caption(f"Aerie - the players' screen: side {side}")
        pyglet.clock.schedule_interval(self.tick, 1 / 60.0)
        if visible:
            self.set_visible(True)

    def _reset_world(self):
        """The renderer, HUD layers, camera and picker of the current scene."""
        from engine.render.rules_bridge import display_world

        self.renderer = Renderer(self.rc, display_world(self.scene.world))   # follows the session's voxels
        fog.update(self.ctl, self.vstate.hidden)      # what each side sees at the start (fog of war, fog.py)
        fit_text(self, fresh=True)     # self.hud, .big (captions), .tok (names, bars, icons over the models)
        self.camctl = CameraControl(self.scene, from_session(self.scene, self.ctl.session).characters)
        self.picker = Picker(self.renderer.world)
        self.ov_cache: dict = {}
        self.rs_cache = None
        self.loop.scene_key = None

    # ================================================================================================ helpers
    @property
    def table(self) -> Table:
        """What the modes are handed: the controller, view state, camera, ... (engine/app/table.py)."""
        return table_of(self)

    def perform(self, intent: Intent):
        """What a mode asked of the window (engine/app/perform.py, the one place that performs it)."""
        return perform(self, intent)

    @property
    def size_px(self):
        return self.get_framebuffer_size()

    def compact(self) -> bool:
        """A small window: panels folded to their titles, the event log to its newest lines."""
        W, Hh = self.size_px
        return self.vstate.fold or W < 900 or Hh < 500

    def name(self, cid) -> str:
        from engine.app.tokens import short_name

        a = self.ctl.state.actors.get(cid) if isinstance(cid, str) else None
        return short_name(a) if a is not None else str(cid)

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

    def player_view(self) -> PlayerFilter:
        """The one filter of what the side on screen may see (the GM: everything; engine/app/seats.py)."""
        return self.seats.view(self.ctl)

    def hud_state(self):
        """The rules state the panels show: while a step animates, the state before it (the turn order and the
        hit points change when the motion on screen is over, not before)."""
        if self.anims and getattr(self.anims[0], "hud_before", None) is not None:
            return self.anims[0].hud_before
        return self.ctl.state

    def render_state(self):
        storeys.apply_cut(self, Picker)
        sv = self.ctl.state_version
        if self.rs_cache is None or self.rs_cache[0] != (sv, id(self.ctl.session)):
            from engine.render.rules_bridge import sync_display_world

            r = self.renderer
            for box in sync_display_world(r.full_world, self.ctl.session):   # broken objects, undone breaks
                if r.cut_above is None:
                    r.world_changed(box)
                else:                        # the cut copy is taken again from the synced world
                    r.set_cut_above(r.cut_above)
                self.picker = Picker(r.world)
            self.rs_cache = ((sv, id(self.ctl.session)), gm_views(self.ctl, from_session(self.scene, self.ctl.session)))
        return self.rs_cache[1]

    def _rebuild_log(self):
        from engine.app.logtext import log_entries    # the lines themselves are pure (tests read them)

        col = {"dim": H.DIM, "action": (150, 200, 255, 255), "accent": H.ACCENT, "bad": H.BAD, "fg": H.FG}
        self.log_lines = [(e[0], col[e[1]], *e[2:]) for e in log_entries(self.ctl.session)]
        self.vstate.log_scroll = 0

    # ================================================================================================ actions
    def do(self, fn, *a):
        """Run a session-changing controller call now, or as soon as no worker reads the session."""
        if self.jobs.busy():
            self.deferred.append((fn, a))
            return
        self.apply(fn, *a)

    def apply(self, fn, *a):
        with self.jobs.session_lock:     # never while the worker reads the session (it is idle here: a formality)
            return self._apply_locked(fn, *a)

    def _apply_locked(self, fn, *a):
        s_before, sv, last = self.ctl.session, self.ctl.state_version, self.ctl.last_step
        before = self.render_state()
        res = fn(*a)
        self.seats.hotseat(self.ctl, self.say)
        if self.ctl.session is not s_before or self.ctl.state_version != sv:
            fog.update(self.ctl, self.vstate.hidden)      # what each side has seen, remembered
            after = self.render_state()
            # what Controller.step returned, when ``fn`` took a step (it keeps it as ``last_step``)
            step = self.ctl.last_step if self.ctl.last_step is not last else None
            if step is not None and (fn in (self.ctl.confirm, self.ctl.redo, self.ctl.step, self.ctl.answer)
                                     or getattr(fn, "animates", False)):
                anim = build_step(before, after, step.events)
                anim.hud_before = step.before        # the session's own snapshot of the state before the step
                # a GM's action (its captions are the GM's: the players' view never shows them)
                anim.gm = any(e.get("type") == "action" and (e.get("action") or {}).get("actor") == "gm"
                              for e in step.log)
                hurt = any(isinstance(e, Hurting) for e in step.events)
                anim.duration = ANIM_S + (HOLD_S if (anim.falls or hurt) else 0.0)
                self.anims.append(anim)
            else:
                self.anims.clear()
            if self.mirror is not None:   # the players' screen plays the same step (what its side sees of it)
                self.mirror.anims[:] = [a for a in self.anims if not getattr(a, "gm", False)]
                self.mirror.anim_t = self.anim_t
                self.mirror.changed()
            self._rebuild_log()
            self.jobs.results.clear()
        sync_modes(self.table)
        self.changed()
        return res

    def changed(self):
        self.sections.hud_key = None
        self.loop.force = True

    def set_controller(self, ctl):
        """Another scene: its world, renderer, camera and picker."""
        own_context(self)            # the new renderer's GL objects in this window's context (F4's two windows)
        self.ctl = ctl
        ctl.set_ask(True)
        if ctl.scene is not self.scene:
            self.scene = ctl.scene
            self._reset_world()
            self.set_caption(f"Aerie - {self.scene.name}")
            self.vstate.units = self.units_flag or scene_units(self.scene)
            # the view's choices that name the old map or its characters do not carry over: a storey cut above
            # the new map's top raised in every frame, a hidden id or a player side may be another's. The players'
            # screen (F4) never falls back to the GM's view (everything): it shows the new scene's first side
            self.vstate.cut_above = None
            self.vstate.hidden = frozenset()
            sides = list(dict.fromkeys(a.side for a in self.ctl.state.actors.values()))
            if self.vstate.player_side not in sides:
                self.vstate.player_side = (sides[0] if sides else None) if self.gm is not None else None
        fog.update(ctl, self.vstate.hidden)
        self.saved_actions = list(ctl.session.actions)
        self.save_to = None
        self.rs_cache = None
        self.ov_cache.clear()
        self.jobs.results.clear()
        self.loop.scene_key = None
        self.tok_key = None
        self.anims.clear()
        self.vstate.ruler = None
        self._rebuild_log()
        sync_modes(self.table)
        self.changed()

    # ================================================================================================ input
    @_safe
    def on_expose(self):
        self.loop.force = True

    @_safe
    def on_resize(self, width, height):
        self.resized_t = time.perf_counter()     # frames are drawn for a moment after (FrameLoop.recently_resized)
        self.loop.fit_target()
        fit_text(self)
        self.changed()
        return pyglet.event.EVENT_HANDLED

    def _after_input(self):
        sync_modes(self.table)
        self.changed()
        self.write_state()
        return pyglet.event.EVENT_HANDLED

    @_safe
    def on_mouse_motion(self, x, y, dx, dy):
        self.mouse = (x, self.height - y)
        if self.gm is None:           # the players' screen points at nothing: the cursor and a move's ghost are the GM's
            pointing.hover(self)

    @_safe
    def on_mouse_press(self, x, y, button, modifiers):
        self.mouse = (x, self.height - y)
        over = self.sections.over(self, *self.mouse) is not None
        self.drag = {"button": button, "start": self.mouse, "moved": 0.0, "hud": over,
                     "ident": self.hud.hit(*self.mouse) if over else None}
        self.modes.dispatch(self.table, "on_press", button, modifiers, over)

    @_safe
    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers):
        self.mouse = (x, self.height - y)
        if self.drag is not None:
            self.drag["moved"] += abs(dx) + abs(dy)
        if self.drag is None or self.drag["moved"] < 4 or self.drag.get("hud"):
            return
        self.modes.dispatch(self.table, "on_drag", dx, dy, buttons)

    @_safe
    def on_mouse_release(self, x, y, button, modifiers):
        self.mouse = (x, self.height - y)
        d, self.drag = self.drag, None
        if d is not None and d["hud"] and d["moved"] >= 4:      # a drag across the HUD: the section's (a row)
            if self.sections.drop(self, d["ident"], self.hud.hit(*self.mouse)):
                self._after_input()
            return
        self.modes.dispatch(self.table, "on_release", d, button)

    def click(self, px, py):
        """A left click: the HUD's section under it, else the top mode's map click."""
        if not self.sections.click(self, px, py):
            hit = pointing.pick(self)
            self.modes.dispatch(self.table, "on_click", hit)
        self._after_input()

    @_safe
    def on_mouse_scroll(self, x, y, scroll_x, scroll_y):
        self.mouse = (x, self.height - y)
        if not self.sections.scroll(self, self.mouse[0], self.mouse[1], scroll_y):    # the panels' wheel first
            ctrl = bool(self.keys[key.LCTRL] or self.keys[key.RCTRL])
            shift = bool(self.keys[key.LSHIFT] or self.keys[key.RSHIFT])
            self.modes.dispatch(self.table, "on_scroll", scroll_y, ctrl, shift)
        self._after_input()

    @_safe
    def on_text(self, text):
        self.modes.dispatch(self.table, "on_text", text)

    @_safe
    def on_key_press(self, symbol, modifiers):
        self.modes.dispatch(self.table, "on_key", symbol, modifiers)
        if getattr(self, "_quitting", False):          # the key closed this window (F4 on the players' screen)
            return pyglet.event.EVENT_HANDLED
        return self._after_input()

    # ================================================================================================ per frame
    @_safe
    def tick(self, dt):
        if self.gm is not None:                 # the players' screen: the GM's window runs the game
            follow(self)
            self.camctl.update(dt)
            F.advance(self, dt)
            if self.ctl.state_version != getattr(self, "_seen_sv", None):
                self._seen_sv = self.ctl.state_version
                self._rebuild_log()
                self.changed()
            return
        F.tick(self, dt)

    def draw(self, dt):
        self.loop.draw(dt)

    @_safe
    def on_draw(self):
        t0 = time.perf_counter()
        pf = self.player_view()       # the player view: only what their side sees, and the effects of only that
        rs, fx = self.loop.animated(self.render_state(), None if pf.gm else pf.shows)
        if self.vstate.cut_above is not None:      # I: the characters on the storeys cut away are not drawn
            from engine.render.commands import cut_state

            rs = cut_state(rs, self.vstate.cut_above)
        self.floaters = [lb.text for lb in fx.labels]
        cam = self.camctl.camera()
        self.loop.draw_view(cam, rs, fx)
        self.rc.use_screen(self.size_px)
        token_layer.draw_tokens(self, cam, rs)
        self.sections.draw(self)
        if self.shot_pending:
            self.shot_pending = False
            self.screenshot()
        self.frames += 1
        self.loop.drawn_key = self.loop.frame_key()
        self.loop.force = False
        if self.jobs.fresh or self.test_state:
            self.jobs.fresh = False
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

    # ================================================================================================ output
    def grab(self) -> np.ndarray:
        """The frame just drawn (3D view and HUD), uint8 [H, W, 3], top row first. Call before flip()."""
        return self.rc.read_screen(self.size_px)

    def screenshot(self, path=None) -> Path:
        from PIL import Image

        from engine.outputs import atomic_path

        img = self.grab()
        if path is None:
            self.shot_dir.mkdir(parents=True, exist_ok=True)
            path = self.shot_dir / f"aerie-{time.strftime('%Y%m%d-%H%M%S')}-{self.frames:05d}.png"
        with atomic_path(Path(path), "the screenshot") as tmp:
            Image.fromarray(np.ascontiguousarray(img)).save(tmp, format="PNG")
        self.last_shot = str(path)
        self.ctl.say(f"screenshot: {path}")
        self.write_state()
        return Path(path)

    def write_state(self):
        teststate.write_state(self)

    def quit(self):
        if getattr(self, "_quitting", False):
            return
        self._quitting = True
        pyglet.clock.unschedule(self.tick)
        if self.gm is not None:                 # the players' screen closes alone
            self.gm.mirror = None
            self.rc.clear_error()
            try:
                self.close()
            except Exception:   # noqa: BLE001 - tearing down its GL context must not take the GM's window down
                pass
            self.gm.switch_to()
            return
        if self.mirror is not None:
            self.mirror.quit()
        self.jobs.shutdown()
        self.rc.clear_error()          # a pending GL error would make pyglet's teardown raise it
        try:
            self.close()
        except Exception:   # noqa: BLE001 - tearing down a GL context on exit must not print a traceback
            pass
        pyglet.app.exit()

    def on_close(self):
        if self.gm is None:                     # the GM's window: unsaved work asks "save first?" (prompts.py)
            self.perform(SaveFirst("close the window", self.quit))
        else:
            self.quit()
        return pyglet.event.EVENT_HANDLED
