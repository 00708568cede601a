"""The test-state hook: ``AERIE_TEST_STATE=FILE`` -- after every change the window rewrites FILE with the core's
state, the window's choices, the camera and where things are on screen, the scene file, seed and actions (JSON),
so tests driving the window with real X input can check the rules' state and replay the game. Written atomically,
and only when it changed; the players' screen (F4) writes FILE.players."""

from __future__ import annotations

import json
import os

from engine.app import scene_prims as SP
from engine.app.greyed import greyed
from engine.app.modes.prompts import Chooser, YesNo
from engine.app.sections.captions import moving_boxes
from engine.app.token_layer import token_max_px


def screen_points(win) -> dict:
    cam = win.camctl.camera()
    rs = win.render_state()
    cm = win.scene.world.cell_m
    out = {}
    for c in rs.characters:
        p = ((c.x + c.footprint / 2) * cm, (c.y + c.footprint / 2) * cm, c.layer + c.height_layers * 0.5)
        x, y, w = cam.project([p], win.size_px)[0]
        fx, fy, fw = cam.project([(p[0], p[1], c.layer + 0.06)], win.size_px)[0]
        out[c.id] = [float(x), float(y), bool(w > 0), float(fx), float(fy)]
    return out


def window_state(win) -> dict:
    cam = win.camctl.camera()
    view = win.vstate
    ch = win.modes.find(Chooser)
    yn = win.modes.find(YesNo)
    return {
        "size": list(win.size_px), "frames": win.frames, "fps": win.fps,
        "camera": {"position": list(cam.position), "look_at": list(cam.look_at), "fov": cam.fov,
                   "mode": win.camctl.mode},
        "overlays": view.on, "help": view.help, "busy": win.jobs.busy(), "animating": bool(win.anims),
        "buttons": [{"x0": r[0], "y0": r[1], "x1": r[2], "y1": r[3], "id": list(r[4])} for r in win.hud.rects],
        "screen": screen_points(win), "last_screenshot": win.last_shot,
        "panels": {k: list(v) for k, v in win.panels.items()},
        "blocks": [list(b) for b in win.hud.blocks], "texts": [list(t) for t in win.hud.texts],
        "tags": [t[4] for t in win.tok.texts],       # the token layer's texts: names and the overlays' 3D tags
        "tokens": win.token_boxes, "token_max_px": token_max_px(win), "floaters": win.floaters,
        "log": win.log_view, "toast": win.toast[0] if win.toast else None,
        "prompt": yn.text if yn else None, "chooser": ch.view() if ch else None,
        "banner": win.banner_box if win.anims else None,
        "moving": moving_boxes(win.anims, win.camctl, win.scene.world.cell_m, win.size_px),
        "hud_turn": win.panel_rows.get("turn"), "player_side": view.player_side,
        "visible": sorted(win.player_view().seen or ()) if view.player_side is not None else None,
        "ruler": SP.ruler_info(win) if view.ruler else None, "template": view.template,
        "inside": SP.template_inside(win) if view.template else None,
        "greyed": greyed(win), "compact": win.compact(),
        "campath": _campath(win), "compendium": _compendium(win),
        "maps": {"state_version": win.ctl.state_version, "volume_mode": view.volume_mode,
                 "drawn": {n: list(k) for n, k in win.drawn_maps.items()},
                 "volume": win.volume_info, "jobs": sorted(win.jobs.jobs)},
    }


def _compendium(win):
    from engine.app.modes.compendium import Compendium

    m = win.modes.find(Compendium)
    return m.view() if m is not None else None


def _campath(win):
    from engine.app.modes.campath import CameraPath

    m = win.modes.find(CameraPath)
    return m.view() if m is not None else None


def state_path(mirror_of=None) -> str | None:
    """``$AERIE_TEST_STATE`` for the GM's window; the players' screen (F4) writes its own, FILE.players."""
    p = os.environ.get("AERIE_TEST_STATE")
    return p + ".players" if p and mirror_of is not None else p


def write_state(win) -> None:
    if not win.test_state:
        return
    snap = win.ctl.snapshot()
    act = win.ctl.action()
    pv = None
    if act is not None:
        ok, res = win.jobs.result("preview", (win.ctl.state_version, json.dumps(act, sort_keys=True)))
        pv = res if ok and not isinstance(res, Exception) else None
    snap.update({"window": window_state(win), "preview": pv})
    text = json.dumps(snap, sort_keys=True, default=str)
    if text == win.state_written:
        return
    win.state_written = text
    tmp = win.test_state + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, win.test_state)
