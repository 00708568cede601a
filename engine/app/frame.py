"""The frame loop: the per-tick work (workers' results in, deferred actions, free fly, the camera's glide,
animations, the jobs this frame needs) and the drawing of a frame -- skipped when nothing on screen would change;
the 3D view drawn into an offscreen target and only redrawn when something in it changed; while the camera moves
and full resolution measures slower than 30 fps here, moving frames at 70% scale, stretched (the HUD stays
sharp). ``AERIE_FULL_RES=1``: never scaled."""

from __future__ import annotations

import json
import os
import time
from typing import TYPE_CHECKING

import numpy as np

from engine.app import maps
from engine.app import scene_prims as SP
from engine.app.fog import fog_prims
from engine.errors import AerieError
from engine.app import spellarea
from engine.app.twowindows import players_screen
from engine.render import overlays as ov
from engine.render.events import effects, frame_state
from engine.render.renderer import DrawOptions

if TYPE_CHECKING:
    from engine.render.context import ViewTarget

ANIM_S = float(os.environ.get("AERIE_ANIM_S", "1.2"))


class FrameLoop:
    def __init__(self, win) -> None:
        self.win = win
        self.redraws = 0
        self.scaled = 0
        self.skipped = 0
        self.adaptive = os.environ.get("AERIE_FULL_RES", "") not in ("1", "yes", "true")
        self.motion_scale = 0.7
        self.target: ViewTarget | None = None   # the 3D view's offscreen target, at the framebuffer's size
        self.small_target = None
        self.view_scale: float | str = 1.0
        self.last_cam = None
        self.prev_full: float | None = None
        self.full_dt: float | None = None
        self.scene_key: tuple | None = None
        self.drawn_key: tuple | None = None
        self.force = True
        self.prims_key: tuple | None = None
        self.prims: tuple | None = None      # (overlays as ov.BakedPrims, notes, the tags for the token layer)

    def fit_target(self) -> None:
        """The 3D view is drawn into an offscreen target and copied to the window; when nothing in the 3D view
        changed since the last frame (camera, state, overlays, cursor) the copy is all a frame costs. Made anew
        when the framebuffer's size changed."""
        win = self.win
        size = tuple(win.get_framebuffer_size())
        if self.target is not None:
            if self.target.size == size:
                return
            self.target.release()
        self.target = win.rc.target(size)
        win.rc.size = size
        self.scene_key = None

    # -- adaptive resolution while the camera moves ---------------------------------------------------------------
    def small(self, scale):
        """The reduced-resolution target for frames drawn while the camera moves (shown stretched)."""
        W, Hh = self.target.size
        size = (max(int(W * scale), 16), max(int(Hh * scale), 16))
        if self.small_target is None or self.small_target.size != size:
            if self.small_target is not None:
                self.small_target.release()
            self.small_target = self.win.rc.target(size, sampled=True)
        return self.small_target

    def track(self, scale) -> None:
        """Frame intervals of consecutive full-resolution 3D redraws: the evidence for drawing moving frames at
        reduced resolution (only when full resolution is slower than 30 fps here)."""
        now = time.perf_counter()
        if scale == 1.0 and self.prev_full is not None and now - self.prev_full < 0.5:
            dt = now - self.prev_full
            self.full_dt = dt if self.full_dt is None else 0.8 * self.full_dt + 0.2 * dt
        self.prev_full = now if scale == 1.0 else None

    def recently_hovered(self) -> bool:
        return time.perf_counter() - self.win.hover_t < 0.2

    def recently_resized(self) -> bool:
        """Within half a second of a resize (issue 40 item 4): the X server and the GL driver take the new size in
        their own time, and the one frame drawn at once went to the old-sized drawable -- shifted by the change of
        height, the bottom cut and the old frame's top left standing until the next change of state."""
        return time.perf_counter() - getattr(self.win, "resized_t", -1e9) < 0.5

    def full_slow(self) -> bool:
        return self.full_dt is not None and self.full_dt > 1 / 30.0

    # -- skipping frames ------------------------------------------------------------------------------------------
    def frame_key(self) -> tuple:
        win = self.win
        ctl = win.ctl
        return (win.camctl.camera(), ctl.version, ctl.msg_version, ctl.state_version, ctl.hover, ctl.cursor_layer,
                win.vstate.version, win.modes.key(), win.camctl.mode, win.size_px, win.jobs.key(), len(win.anims),
                win.anim_t)

    def draw(self, dt) -> None:
        """pyglet's redraw: skipped when nothing on screen would change (the last frame stays up). on_draw is
        called directly, not queued as an event, so the flip always shows the frame just drawn."""
        win = self.win
        still = not self.force and not win.shot_pending and self.frame_key() == self.drawn_key
        settled = self.view_scale in (1.0, "direct") and not self.recently_hovered() and not self.recently_resized()
        # while the pointer is still moving over the map, a frame with nothing new is the one already up: the still,
        # full-resolution frame into the cache is drawn once the hovering stops, not at every tick until then (on
        # llvmpipe a hover used to cost a dozen identical 3D redraws)
        hovering = self.recently_hovered() and not self.recently_resized()
        if still and (settled or hovering):
            self.skipped += 1
            return
        win.switch_to()
        win.on_draw()
        win.flip()

    # -- the 3D view ------------------------------------------------------------------------------------------------
    def animated(self, rs, keep=None):
        """The render state and effects of the step being animated (the state itself when none is); ``keep``: the
        characters drawn (the player view's ``shows``) -- the effects too come from those alone, so an attack by
        someone the side cannot see draws no line from where it is."""
        win = self.win
        if not win.anims:
            win.follow_anim = None
            return _kept(rs, keep), ov.Prims()
        anim = win.anims[0]
        u = min(win.anim_t / ANIM_S, 1.0)
        rs, _fx, _hud = frame_state(anim, u)
        rs = _kept(rs, keep)
        fx = effects(win.scene.world, anim, rs, u)
        if win.camctl.mode == "follow" and win.ctl.selected:
            try:                      # follow the character along its animated path (a fall, a flight)
                c = rs.get(win.ctl.selected)
                cm = win.scene.world.cell_m
                win.follow_anim = ((c.x + c.footprint / 2) * cm, (c.y + c.footprint / 2) * cm,
                                   c.layer + c.height_layers / 2)
            except KeyError:
                win.follow_anim = None
        return rs, fx

    def view_key(self, cam, scale) -> tuple:
        win = self.win
        ctl = win.ctl
        return (cam, scale, ctl.state_version, ctl.version, ctl.hover, ctl.cursor_layer, win.vstate.version,
                win.jobs.key()[0], bool(win.anims), win.anim_t if win.anims else 0)

    def overlays(self, key3d, rs, fx) -> tuple:
        """The 3D view's overlays and notes, and the tags they give the token layer (``win.table_tags``): made
        again only when something but the camera changed (they do not depend on it), so an orbit uploads the same
        arrays without rebuilding them in every frame."""
        win = self.win
        pkey = (key3d[2:], tuple(rs.characters), rs.turn)
        if self.prims is None or pkey != self.prims_key or self.scene_key is None:
            prims, notes = SP.overlay_prims(win, rs)
            prims.extend(SP.ghost_prims(win, rs))
            prims.extend(SP.table_prims(win, rs))
            pf = win.player_view()
            if not pf.gm:           # the player view: what the side saw and does not see now, dimmed (fog.py)
                prims.extend(fog_prims(win.ctl.fog, pf.side, pf.shows, win.ctl.state.actors, win.scene.world.cell_m))
            prims.extend(spellarea.prims(win, rs, players_screen(win)))     # spell areas: aimed, lasting
            if win.vstate.campath is not None:      # Ctrl+P: the camera path being made
                prims.extend(win.vstate.campath)
            # the overlays' labels join the names in the token layer (one layout: none hides another)
            win.table_tags += [(lb.pos, lb.text, lb.bg if lb.bg[3] else (20, 20, 24, 220)) for lb in prims.labels]
            prims.labels = []
            prims.extend(fx)
            self.prims_key, self.prims = pkey, (ov.BakedPrims(prims), notes, list(win.table_tags))
        prims, notes, tags = self.prims
        win.table_tags = list(tags)
        return prims, notes

    def draw_view(self, cam, rs, fx) -> None:
        """The 3D view into the cache (or straight to the window while the camera moves at full resolution)."""
        win = self.win
        assert self.target is not None            # made with the window (fit_target)
        moving = (self.last_cam is not None and cam != self.last_cam) or self.recently_hovered()
        self.last_cam = cam
        scale = self.motion_scale if (moving and self.adaptive and self.full_slow()) else 1.0
        key3d = self.view_key(cam, scale)
        if key3d != self.scene_key:
            prims, notes = self.overlays(key3d, rs, fx)
            # a moving frame at full resolution goes straight to the window (no copy; the next still frame redraws
            # into the cache), a reduced one into the small buffer, a still one into the cache
            direct = moving and scale == 1.0
            into = None if direct else self.small(scale) if scale != 1.0 else self.target
            with win.rc.drawing_into(into, self.target.size):
                win.renderer.draw(cam, rs, prims, DrawOptions(labels=False, units=win.vstate.units))
            self.scene_key = ("direct",) if direct else key3d
            self.view_scale = "direct" if direct else scale
            win.notes = notes
            self.redraws += 1
            self.scaled += scale != 1.0
            self.track(1.0 if direct else scale)
        else:
            self.track(None)
        if self.view_scale == 1.0:
            win.rc.show(self.target, self.target.size)
        elif self.view_scale != "direct":
            win.rc.show(self.small(self.view_scale), self.target.size)


def _kept(rs, keep):
    return rs if keep is None else type(rs)([c for c in rs.characters if keep(c.id)])


# -- the per-tick work --------------------------------------------------------------------------------------------
def advance(win, dt) -> None:
    """The step being animated moves on; the next one once it is done (never more than two waiting)."""
    if win.anims:
        win.anim_t += dt
        if win.anim_t >= getattr(win.anims[0], "duration", ANIM_S) or len(win.anims) > 2:
            win.anims.pop(0)
            win.anim_t = 0.0
            win.changed()


def tick(win, dt) -> None:
    from pyglet.window import key

    if win.jobs.collect():
        win.sections.hud_key = None
    if win.deferred and not win.jobs.busy():
        todo, win.deferred = win.deferred, []
        for fn, a in todo:
            win.apply(fn, *a)
        win.write_state()
    cc = win.camctl
    if cc.mode == "fly":
        k = win.keys
        fast = 3.0 if (k[key.LSHIFT] or k[key.RSHIFT]) else 1.0
        v = np.array([(k[key.D]) - (k[key.A]), (k[key.W]) - (k[key.S]), (k[key.E]) - (k[key.Q])], dtype=float)
        if v.any():
            cc.move(v, dt, 14.0 * fast)
    if cc.mode == "follow" and win.ctl.selected in win.ctl.state.actors:
        from engine.app.pointing import centre

        cc.follow(win.follow_anim or centre(win, win.ctl.selected))
    cc.update(dt)
    advance(win, dt)
    if win.toast is not None and time.perf_counter() > win.toast[1]:
        win.toast = None
        win.changed()
    schedule_jobs(win)


def _centre_eye(win, a):
    cm = win.scene.world.cell_m
    return ((a.x + a.footprint / 2) * cm, (a.y + a.footprint / 2) * cm, a.layer + a.height_layers + 0.4)


def schedule_jobs(win) -> None:
    ctl = win.ctl
    jobs = win.jobs
    on = win.vstate.on
    sv = ctl.state_version
    act = ctl.action()
    if act is not None:
        k = (sv, json.dumps(act, sort_keys=True))
        jobs.submit("preview", k, lambda a=act, c=ctl: c.preview_of(a))
    sel = ctl.selected
    if sel and sel in ctl.state.actors:
        a = ctl.state.actors[sel]
        layer = ctl.cursor_layer
        if on["cover"]:
            jobs.submit("cover", (sv, sel, layer), lambda b=a.body(), at=_centre_eye(win, a), w=maps_world(win):
                        maps.cover_prims(win.scene, b, layer, at, world=w)[0], maps=True)
        if on["threat"] and jobs.wanted("threat", (sv, sel, layer)):
            enemies = maps.threat_enemies(ctl.session, a.side)        # read here, on the main thread
            jobs.submit("threat", (sv, sel, layer), lambda side=a.side, e=enemies, w=maps_world(win):
                        maps.threat_prims(win.scene, None, side, layer, enemies=e, world=w)[0], maps=True)
        vk = (sv, sel, win.vstate.volume_mode)
        if on["volume"] and jobs.wanted("volume", vk):
            enemies = maps.threat_enemies(ctl.session, a.side)
            reach = reach_of(win, sel) if vk[2] == "reach" else None     # read here, on the main thread
            jobs.submit("volume", vk, lambda side=a.side, e=enemies, at=_centre_eye(win, a), w=maps_world(win):
                        volume_job(win, vk, e, side, at, w, reach), maps=True)
        if on["movement"]:
            rs = win.render_state()
            sess = ctl.session
            cv = next((c for c in rs.characters if c.id == sel), None)
            if cv is not None:
                jobs.submit("movement", (sv, sel), lambda c=cv, rs=rs, s=sess: movement_costs(win, rs, c, s))
    if jobs.wait_maps():
        win.sections.hud_key = None


def maps_world(win):
    """The voxels the cover and threat maps read (on the map thread): the session's own, with the walls broken
    in play -- as a copy made here on the main thread whenever the session's changes, so a step that breaks a
    wall while a map is being worked out never shows the map half an edit."""
    w = win.ctl.session.world
    if w is win.scene.world:                  # never edited in place (a session copies it before a break)
        return w
    key = (id(w), w.revision)
    if win.maps_world_cache[0] != key:
        from engine.render.rules_bridge import display_world

        win.maps_world_cache = (key, display_world(w))
    return win.maps_world_cache[1]


def reach_of(win, cid) -> dict:
    """{(x, y, layer): metres}: where ``cid`` could end its move this turn (the rules' reach map), for the 3D threat
    view's first mode; nothing when the rules say it cannot move."""
    cv = next((c for c in win.render_state().characters if c.id == cid), None)
    if cv is None:
        return {}
    try:
        return movement_costs(win, win.render_state(), cv, win.ctl.session)
    except AerieError:
        return {}


def volume_job(win, k, enemies, side, at, world=None, reach=None):
    """The 3D threat view (map thread): its cubes; what it counted kept for the test state and the legend."""
    pr, info = maps.volume_prims(win.scene, enemies, side, k[2], at, world=world, reach=reach)
    win.volume_info = dict(info, key=list(k))
    return pr


def movement_costs(win, rs, c, session):
    from engine.render import rules_bridge

    return rules_bridge.movement_costs(win.scene, rs, c, session)
