"""Stills and GIFs of the real window, made with the window's own code (the same PlayWindow, renderer, HUD and
screenshot function as ``aerie play``), for the README and bug reports. Needs a display (Xvfb is fine)::

    xvfb-run -a -s "-screen 0 1600x900x24" python -m engine.app.capture scenes/showcase.toml \\
        --actions docs/images/window_actions.json --compose '{"action": "attack", "target": "harpy_low"}' \\
        --overlay sightlines --camera square -o docs/images/window.png

    xvfb-run -a -s "-screen 0 1600x900x24" python -m engine.app.capture scenes/showcase.toml \\
        --actions docs/images/fall_actions.json --gif docs/images/fall.gif --size 960x540

``--actions`` are played through the controller one by one (the last one animated); ``--compose`` leaves an
action being composed with its preview; ``--gif`` records the last action's animation from the window.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np


class BadArgument(Exception):
    """A flag this tool cannot use: one line, exit status 2."""


def json_arg(flag: str, text: str):
    """``--actions`` / ``--compose`` / ``--answers``: inline JSON, or the path of a file holding it."""
    src = text
    if not text.lstrip().startswith(("[", "{", '"')) and not Path(text).is_file():
        raise BadArgument(f"{flag} {text}: no such file (or give the JSON inline)")
    if not text.lstrip().startswith(("[", "{", '"')):
        try:
            src = Path(text).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise BadArgument(f"{flag} {text}: cannot read it ({e.__class__.__name__})") from None
    try:
        return json.loads(src)
    except ValueError as e:
        raise BadArgument(f"{flag}: not JSON (inline, or a file that exists): {e}") from None


def main(argv=None) -> int:
    from engine.errors import AerieError, one_line

    try:
        return _main(argv)
    except (BadArgument, AerieError) as e:
        print(one_line(f"capture: {e}"), file=sys.stderr)
        return 2


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m engine.app.capture")
    p.add_argument("scene")
    p.add_argument("--seed", type=int)
    p.add_argument("--size", default="1280x720")
    p.add_argument("--actions", help="JSON list of actions to play first")
    p.add_argument("--compose", help="JSON action to leave composed (its preview on screen)")
    p.add_argument("--overlay", default="", help="comma-separated: grid, engagement, sightlines, cover, movement, "
                   "threat, volume (the 3D threat view)")
    p.add_argument("--volume", choices=("reach", "exposed", "safe"), default="reach",
                   help="the 3D threat view's cells (with --overlay volume)")
    p.add_argument("--camera", help="a scene camera to snap to")
    p.add_argument("--select", help="the character to select at the end")
    p.add_argument("--zoom", type=float, default=0.0, help="zoom steps (mouse wheel clicks; negative: out)")
    p.add_argument("--orbit", type=float, default=0.0, help="turn the camera by this many degrees")
    p.add_argument("--layer", type=int, help="cursor altitude")
    p.add_argument("-o", "--output", help="PNG still")
    p.add_argument("--gif", help="GIF of the last action's animation")
    p.add_argument("--fps", type=int, default=12)
    p.add_argument("--look-at", dest="look_at", help="point the camera at this character's column (from its feet "
                   "to the ground), DIST metres away: ID or ID:DIST")
    p.add_argument("--crop", help="X,Y,W,H: keep this part of each GIF frame")
    p.add_argument("--ruler", help="FROM,TO: the 3D ruler between two characters (ids) or cells (x:y:layer)")
    p.add_argument("--template", help="SHAPE[:SIZE_M]: an area template (sphere, cone, line, cube) at --hover")
    p.add_argument("--hover", help="X,Y,LAYER: the cell under the cursor")
    p.add_argument("--player", help="SIDE: the player view of that side (what it sees by true 3D sight lines)")
    p.add_argument("--storeys-down", dest="storeys_down", type=int, default=0,
                   help="N: press , N times (the storey cut: the storeys above cut away)")
    p.add_argument("--fold", action="store_true", help="fold the side panels (F2)")
    p.add_argument("--units", choices=("m", "ft"),
                   help="distances in metres or feet (Ctrl+U; default: the scene's [view] units, else metres)")
    p.add_argument("--keys-help", dest="keys_help", action="store_true", help="F1's help over the window")
    p.add_argument("--token-hud", dest="token_hud", help="ID: that character's token HUD open (a right click)")
    p.add_argument("--answers", help="JSON list: the answers (option values, in order) to the players' questions the "
                   "actions raise; a question beyond them takes its default")
    p.add_argument("--error", help="TEXT: an internal error in a frame, as the window says it (and saves the work)")
    p.add_argument("--recovery-offer", dest="recovery_offer", action="store_true",
                   help="the work saved to the recovery file, and the next start's offer to load it")
    p.add_argument("--save-first", dest="save_first", action="store_true",
                   help="Ctrl+Q with unsaved work: the save-first prompt")
    p.add_argument("--outlook", help="how does this end?: 'setup' (the panel, to choose) or 'run', with SIDE=POLICY,"
                   "... (e.g. run,red=cautious)")
    p.add_argument("--prompt", action="store_true", help="leave the last action's next question open on screen")
    p.add_argument("--picker", choices=("open", "choose"), help="Ctrl+O's picker: open it, or open it and choose "
                   "its first entry (the unsaved-work prompt when there is unsaved work)")
    return p


def _check_outputs(a, scene) -> None:
    """-o and --gif, checked once the scene is read and before the window opens: neither may replace a file the
    capture reads (the scene's files, an actions or compose file)."""
    from engine.outputs import check_output_path
    from engine.scene import scene_inputs

    inputs = scene_inputs(scene) + tuple(t for t in (a.actions, a.compose) if t)     # inline JSON is no file: skipped
    for path, exts, what in ((a.output, (".png",), "-o"), (a.gif, (".gif",), "--gif")):
        if path:
            check_output_path(path, exts, inputs, what=what)


class _Shot:
    """The window opened for a still or a GIF, and its frame loop."""

    def __init__(self, a) -> None:
        import pyglet

        pyglet.options["shadow_window"] = False
        pyglet.options["debug_gl"] = False
        from engine.app.window import PlayWindow
        from engine.scene import load_scene

        try:
            w, h = (int(v) for v in a.size.lower().split("x"))
        except ValueError:
            raise BadArgument(f"--size {a.size}: WIDTHxHEIGHT, e.g. 1280x720") from None
        self.scene = scene = load_scene(a.scene)
        _check_outputs(a, scene)
        self.win = PlayWindow(scene, a.seed, (w, h), overlays_on=[o.strip() for o in a.overlay.split(",") if o.strip()])
        self.win.vstate.volume_mode = a.volume

    def frame(self, dt=1 / 30, grab=False):
        win = self.win
        win.dispatch_events()
        win.tick(dt)
        win.switch_to()
        win.on_draw()
        img = win.grab() if grab else None
        win.flip()
        return img

    def settle(self, limit=20.0) -> None:
        win = self.win
        t0 = time.perf_counter()
        for _ in range(5):
            self.frame()
        while time.perf_counter() - t0 < limit:
            before = win.camctl.camera()
            self.frame()
            if not win.jobs.busy() and not win.jobs.jobs and not win.anims and win.camctl.camera() == before:
                break
        for _ in range(3):
            self.frame()


def _camera(a, shot) -> None:
    win, scene = shot.win, shot.scene
    if a.camera:
        win.camctl.snap(a.camera)
    if a.look_at:
        import numpy as _np

        cid, _, dist = a.look_at.partition(":")
        act = win.ctl.actor(cid)
        cm = scene.world.cell_m
        g = win.camctl.goal
        g.target = _np.array([(act.x + act.footprint / 2) * cm, (act.y + act.footprint / 2) * cm, act.layer / 2 + 1])
        g.dist = float(dist or 25.0)
        win.camctl.goal = win.camctl._fix(g)
    if a.zoom:
        win.camctl.zoom(a.zoom)
    if a.orbit:
        win.camctl.orbit(a.orbit / 0.3, 0.0)


def _play(a, shot) -> tuple[int, list]:
    """The actions, one by one through the window (the players' questions answered from --answers); the last
    one's animation recorded for --gif. (exit status, GIF frames)."""
    from engine.app.frame import ANIM_S

    win = shot.win
    ctl = win.ctl
    actions = json_arg("--actions", a.actions) if a.actions else []
    answers = list(json_arg("--answers", a.answers)) if a.answers else []
    if not isinstance(actions, list) or not all(isinstance(x, dict) for x in actions):
        raise BadArgument("--actions: a JSON list of actions (objects)")
    frames: list = []
    for i, act in enumerate(actions):
        last = i == len(actions) - 1
        if last and a.gif:
            shot.settle()
            for _ in range(int(a.fps * 0.6)):
                frames.append(shot.frame(1 / a.fps, grab=True))
        ev = win.apply(ctl.step, act)
        while ev is None and ctl.question is not None:       # a player's choice (engine/rules/choices.py)
            opts = list(ctl.question["point"].options)
            if answers:
                v = answers.pop(0)
                if v not in opts:
                    print(f"capture: answer {v!r} is not one of {opts} ({ctl.question['point'].key})", file=sys.stderr)
                    return 2, frames
                ev = win.apply(ctl.answer, opts.index(v))
            elif last and a.prompt:
                break
            else:
                ev = win.apply(ctl.answer)
        if ev is None and ctl.question is not None:
            break
        if ev is None:
            print(f"capture: action {i} refused: {ctl.message[0]}", file=sys.stderr)
            return 2, frames
        if last and a.gif:
            for _ in range(int(a.fps * (ANIM_S + 1.6))):
                frames.append(shot.frame(1 / a.fps, grab=True))
        else:
            win.anims.clear()
    return 0, frames


def _compose(a, ctl) -> None:
    from engine.app import areaspell

    if a.select:
        ctl.select(a.select)
    if not a.compose:
        return
    c = json_arg("--compose", a.compose)
    if not isinstance(c, dict) or not isinstance(c.get("action"), str):
        raise BadArgument('--compose: a JSON action (an object with "action")')
    if c.get("actor") in ctl.state.actors:     # composed for that character (else the selected one)
        ctl.select(c.pop("actor"))
    ctl.choose(c.pop("action"))
    for k, v in c.items():
        kind = dict(ctl.pending.needs).get(k) if ctl.pending is not None else None
        if kind == "pos":                    # a position (a move's to): the destination on the map
            ctl.set_destination(v)
            ctl.hover = tuple(v)
        elif kind is not None:               # a character (a pass to someone, a target): chosen by a click
            ctl.choose_param(k, v)
        elif ctl.pending is not None and k == areaspell.point_param(ctl):   # a spell's point: as a click sets it
            areaspell.aim_at(ctl, k, v)
        elif ctl.pending is not None:
            ctl.pending.params[k] = v


def _table(a, win) -> None:
    """The GM's tools for a still: the cursor, the ruler, a template, the player view, folds, the picker."""
    from engine.app.modes.prompts import open_chosen
    from engine.app.perform import open_chooser
    from engine.app.modes.tools import Ruler, Template
    from engine.app.scene_prims import ruler_info

    ctl = win.ctl
    if a.layer is not None:
        ctl.set_layer(a.layer)
    if a.hover:
        ctl.hover = tuple(int(v) for v in a.hover.split(","))
    if a.ruler:
        ends = []
        for end in a.ruler.split(","):
            if end in ctl.state.actors:
                ends.append({"char": end, "cell": list(ctl.actor(end).pos)})
            else:
                ends.append({"char": None, "cell": [int(v) for v in end.split(":")]})
        win.modes.push(win.table, Ruler())
        win.vstate.ruler = {"a": ends[0], "b": ends[1]}
        ruler_info(win)
    if a.template:
        shape, _, size = a.template.partition(":")
        win.modes.push(win.table, Template(shape, float(size or 6.0)))
    if a.player:
        win.vstate.player_side = a.player
    if a.fold:
        win.vstate.fold = True
    if a.units:
        win.units_flag = win.vstate.units = a.units
    if a.storeys_down:
        from engine.app import storeys

        for _ in range(a.storeys_down):
            win.vstate.cut_above = storeys.step(win.scene.world, win.vstate.cut_above, -1)
    if a.keys_help:
        win.vstate.help = True
    if a.token_hud:
        from types import SimpleNamespace

        from engine.app.modes.tokenhud import open_at

        open_at(win.table, {"char": SimpleNamespace(char=a.token_hud), "cell": None})
    if a.picker:
        open_chooser(win)
        if a.picker == "choose":
            open_chosen(win.table)


def _asides(a, shot) -> None:
    """The error caption, the recovery offer, the save-first prompt, the outlook panel (docs/window.md's stills)."""
    win = shot.win
    if a.error:
        from engine.app import recovery

        recovery.frame_error(win, "on_draw", KeyError(a.error))
    if a.recovery_offer:
        from engine.app import recovery

        recovery.save_recovery(win)
        recovery.offer(win)
    if a.save_first:
        from engine.app.intents import SaveFirst

        win.perform(SaveFirst("quit", lambda: None))
    if a.outlook:
        from engine.app import outlook as OL

        o = OL.outlook(win)
        bits = a.outlook.split(",")
        for b in bits[1:]:
            side, _, pol = b.partition("=")
            o.sides[side] = pol
        o.shown = o.setup = True
        if bits[0] == "run":
            OL.start(win)
            t0 = time.perf_counter()
            while o.running() and time.perf_counter() - t0 < 300:
                shot.frame()
                time.sleep(0.05)
            shot.frame()


def _outputs(a, shot, frames) -> None:
    from engine.app.scene_prims import ruler_info

    win = shot.win
    shot.settle()
    if a.ruler:                      # the path cost comes from the worker
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 30 and not isinstance((ruler_info(win) or {}).get("path"), dict):
            shot.frame()
        shot.settle()
    if a.output:
        out = win.screenshot(Path(a.output))
        print(f"wrote {out}")
    if a.gif and frames:
        from PIL import Image

        if a.crop:
            x, y, cw, ch = (int(v) for v in a.crop.split(","))
            frames = [f[y:y + ch, x:x + cw] for f in frames]
        imgs = [Image.fromarray(np.ascontiguousarray(f)).convert("P", palette=Image.ADAPTIVE, colors=160)  # type: ignore[attr-defined]
                for f in frames]
        from engine.outputs import atomic_path

        with atomic_path(Path(a.gif), "the GIF") as tmp:     # whole or not at all, as every output
            imgs[0].save(tmp, format="GIF", save_all=True, append_images=imgs[1:], duration=int(1000 / a.fps),
                         loop=0, optimize=True)
        print(f"wrote {a.gif} ({len(frames)} frames)")


def _main(argv=None) -> int:
    a = parser().parse_args(argv)
    from engine.app.commands import has_display

    if not has_display():
        raise BadArgument("no display to open the window on: run it under xvfb-run -a (see this module's text)")
    shot = _Shot(a)
    _camera(a, shot)
    rc, frames = _play(a, shot)
    if rc:
        return rc
    _compose(a, shot.win.ctl)
    _table(a, shot.win)
    _asides(a, shot)
    _outputs(a, shot, frames)
    shot.win.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
