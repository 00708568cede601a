"""The camera-path mode (Ctrl+P, issue 42): make a fly-through by flying the camera and pressing Enter.

Each key is the current view (eye, look-at, field of view) at a time; the path (engine/render/camera.py: the same
spline, easing and wall rule as ``aerie flythrough``) is drawn in the 3D view with its keys as markers and the
camera's frustum at the selected key. Keys: Enter add a key at the current view (after the selected one, 2 s
later), R replace the selected key with the current view, Delete remove it, Tab / Shift+Tab select the next /
previous key, J jump the view to it, [ / ] move it earlier / later in the order, - / = its time 0.5 s less / more
(Shift: 0.1 s; the keys after it move with it), Z its easing, P play the path, , / . scrub back / on 0.25 s
(Shift: 1 s), F9 a still of the preview at the scrub time (what the video shows then), N name the path, F5 save
the path into the scene file as ``path = "NAME"``, F6 render it in the background to a video next to the scene, Ctrl+P leave.
Keys it does not use pass to the main mode, so the camera flies as always (F, WASD, drag, wheel).
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from pyglet.window import key

from engine.app.camera_control import Pose
from engine.app.modes.base import PASS, POP, Mode
from engine.render import overlays as ov
from engine.render.camera import Camera, Key, Path as CamPath, point3
from engine.render.camerapath import keep_out
from engine.scene.flypaths import EASINGS, PATH_NAME

if TYPE_CHECKING:
    from engine.app.table import Table

STEP_S = 2.0                        # a new key comes this long after the selected one
PREVIEW_SIZE = (640, 360)           # F9's still (the size `aerie flythrough --size 640x360` renders)
PATH_COL, KEY_COL, SEL_COL, WARN_COL = (255, 214, 64, 255), (255, 255, 255, 255), (255, 120, 40, 255), (230, 40, 40, 255)


def _r(v, nd=3):
    return [round(float(x), nd) for x in v]


class CameraPath(Mode):
    name = "camera path"

    def __init__(self, path_name: str = "window") -> None:
        self.path_name = path_name
        self.keys: list[dict] = []       # {t, position, look_at, fov, easing}, times rising
        self.sel = -1
        self.t = 0.0                     # the scrub time
        self.saved = True
        self.render_job: dict | None = None
        self.last_still: str | None = None
        self.naming: str | None = None   # N: the name being typed
        self._skip = False

    # -- the mode's life ----------------------------------------------------------------------------------------
    def enter(self, table: Table) -> None:
        keys = (getattr(table.scene, "flypaths", {}) or {}).get(self.path_name, ())
        if keys and all(k.position is not None and not isinstance(k.look_at, str) for k in keys):
            self.keys = [{"t": float(k.t), "position": list(k.position), "look_at": list(k.look_at),
                          "fov": float(k.fov) if k.fov is not None else 50.0, "easing": k.easing} for k in keys]
            self.sel = len(self.keys) - 1
        elif keys:                      # that name holds follow / orbit keys: make a new path beside it
            names = set(table.scene.flypaths)
            self.path_name = next(f"window {i}" for i in range(2, 999) if f"window {i}" not in names)
        self.show(table)
        table.say(f"camera path {self.path_name!r}: fly the camera, Enter adds a key at the view (F1: keys)")

    def leave(self, table: Table) -> None:
        table.vstate.campath = None
        if table.camctl.mode == "flythrough":
            table.camctl.set_mode("orbit")

    # -- the path -----------------------------------------------------------------------------------------------
    def path(self, world=None) -> CamPath | None:
        if not self.keys:
            return None
        return CamPath([Key(k["t"], point3(k["position"]), point3(k["look_at"]), k["easing"], k["fov"], "smooth")
                        for k in self.keys], world=world, name=self.path_name)

    def duration(self) -> float:
        return self.keys[-1]["t"] if self.keys else 0.0

    def view_key(self, table: Table) -> dict:
        cam = table.camctl.camera()
        return {"position": _r(cam.position), "look_at": _r(cam.look_at), "fov": round(float(cam.fov), 2)}

    def inside_wall(self, table: Table, k) -> bool:
        return not np.allclose(keep_out(table.scene.world, k["position"], k["look_at"]), k["position"])

    def show(self, table: Table) -> None:
        """The path, its keys and the selected key's frustum as 3D lines (not while previewing: the view is then
        what the video shows)."""
        if table.camctl.mode == "flythrough" or not self.keys:
            table.vstate.campath = None
            return
        pr = ov.Prims()
        p = self.path(table.scene.world)
        if p is not None and len(self.keys) > 1:
            ts = np.linspace(0.0, p.duration, max(2, int(p.duration * 10) + 1))
            pts = [np.array(p.at(float(t)).position) for t in ts]
            for a, b in zip(pts, pts[1:]):
                pr.line(a, b, PATH_COL)
        for i, k in enumerate(self.keys):
            e = np.array(k["position"], float)
            col = WARN_COL if self.inside_wall(table, k) else SEL_COL if i == self.sel else KEY_COL
            s = 1.2 if i == self.sel else 0.8          # metres: seen from a map-wide view too
            pr.box_wire(e - s, e + s, col)
            if i == self.sel:
                self._frustum(pr, k)
        table.vstate.campath = pr

    def _frustum(self, pr, k) -> None:
        cam = Camera(point3(k["position"]), point3(k["look_at"]), float(k["fov"]))
        view = cam.view()
        right, up, back = view[0, :3], view[1, :3], view[2, :3]
        eye = np.array(k["position"], float)
        d = 8.0
        h = math.tan(math.radians(k["fov"]) / 2) * d
        w = h * 16 / 9
        c = eye - back * d
        corners = [c + right * sx * w + up * sy * h for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        for j, q in enumerate(corners):
            pr.line(eye, q, SEL_COL)
            pr.line(q, corners[(j + 1) % 4], SEL_COL)
        pr.line(eye, np.array(k["look_at"], float), (255, 120, 40, 110))

    def changed(self, table: Table, text: str) -> None:
        self.saved = False
        self.show(table)
        table.say(text, toast=False)

    # -- keys ---------------------------------------------------------------------------------------------------
    def on_text(self, table: Table, text: str):
        if self.naming is None:
            return PASS
        if self._skip:                   # the N that opened the line arrives as text too
            self._skip = False
            if text.lower() == "n":
                return None
        if text.isprintable() and text not in "\r\n" and len(self.naming) < 64:
            self.naming += text
        return None

    def _name_key(self, table: Table, symbol: int):
        if symbol in (key.ENTER, key.RETURN):
            name = self.naming.strip() if self.naming else ""
            if not re.fullmatch(PATH_NAME, name):
                table.say(f"{name!r} is not a path name (letters, digits, spaces, _ and -)", "error")
                return None
            self.naming, self.path_name, self.saved = None, name, False
            table.say(f"the path is now {name!r} (F5 saves it under that name)", toast=False)
        elif symbol == key.ESCAPE:
            self.naming = None
        elif symbol == key.BACKSPACE and self.naming:
            self.naming = self.naming[:-1]
        return None

    def on_key(self, table: Table, symbol: int, modifiers: int):
        if self.naming is not None:
            return self._name_key(table, symbol)
        ctrl = bool(modifiers & (key.MOD_CTRL | key.MOD_COMMAND))
        shift = bool(modifiers & key.MOD_SHIFT)
        if symbol == key.P and ctrl:
            table.say(f"camera path mode off{'' if self.saved else ' (the path is not saved)'}")
            return POP
        if ctrl:
            return PASS
        if symbol == key.ESCAPE and table.camctl.mode == "flythrough":
            table.camctl.set_mode("orbit")
            self.show(table)
            return None
        fn = {key.ENTER: self.add, key.RETURN: self.add, key.R: self.replace, key.DELETE: self.delete,
              key.BACKSPACE: self.delete, key.TAB: self.select, key.J: self.jump, key.BRACKETLEFT: self.reorder,
              key.BRACKETRIGHT: self.reorder, key.MINUS: self.retime, key.EQUAL: self.retime, key.PLUS: self.retime,
              key.Z: self.easing, key.P: self.play, key.COMMA: self.scrub, key.PERIOD: self.scrub,
              key.LESS: self.scrub, key.GREATER: self.scrub,
              key.F9: self.still, key.F5: self.save, key.F6: self.render, key.N: self.rename}.get(symbol)
        if fn is None:
            return PASS
        fn(table, symbol, shift)
        return None

    def rename(self, table: Table, symbol=None, shift=False) -> None:
        self.naming, self._skip = "", True

    def add(self, table: Table, symbol=None, shift=False) -> None:
        k = self.view_key(table)
        if not self.keys:
            k.update(t=0.0, easing="ease")
            self.keys, self.sel = [k], 0
        else:
            i = self.sel + 1
            t = round(self.keys[self.sel]["t"] + STEP_S, 3)
            for later in self.keys[i:]:
                later["t"] = round(later["t"] + STEP_S, 3)
            k.update(t=t, easing="ease")
            self.keys.insert(i, k)
            self.sel = i
        warn = "  (inside a wall: the camera will be pulled towards its look-at)" if self.inside_wall(table, k) else ""
        self.changed(table, f"key {self.sel + 1}/{len(self.keys)} added at {k['t']:g} s{warn}")

    def replace(self, table: Table, symbol=None, shift=False) -> None:
        if self.sel < 0:
            return
        k = self.keys[self.sel]
        k.update(self.view_key(table))
        self.changed(table, f"key {self.sel + 1} replaced with the current view")

    def delete(self, table: Table, symbol=None, shift=False) -> None:
        if self.sel < 0:
            return
        self.keys.pop(self.sel)
        if self.keys and self.sel == 0:
            t0 = self.keys[0]["t"]
            for k in self.keys:
                k["t"] = round(k["t"] - t0, 3)
        self.sel = min(self.sel, len(self.keys) - 1)
        self.changed(table, f"key deleted; {len(self.keys)} left")

    def select(self, table: Table, symbol=None, shift=False) -> None:
        if self.keys:
            self.sel = (self.sel + (-1 if shift else 1)) % len(self.keys)
            self.show(table)
            k = self.keys[self.sel]
            table.say(f"key {self.sel + 1}/{len(self.keys)}: {k['t']:g} s, {k['easing']} (J: go there)", toast=False)

    def jump(self, table: Table, symbol=None, shift=False) -> None:
        if self.sel >= 0:
            k = self.keys[self.sel]
            table.camctl.mode = "orbit"
            table.camctl.goal = Pose.from_camera(Camera(point3(k["position"]), point3(k["look_at"]), float(k["fov"])))
            self.t = k["t"]
            self.show(table)

    def reorder(self, table: Table, symbol=None, shift=False) -> None:
        j = self.sel + (-1 if symbol == key.BRACKETLEFT else 1)
        if self.sel < 0 or not 0 <= j < len(self.keys):
            return
        a, b = self.keys[self.sel], self.keys[j]
        views = ("position", "look_at", "fov")          # the views swap places; the times stay in order
        for f in views:
            a[f], b[f] = b[f], a[f]
        self.sel = j
        self.changed(table, f"key moved to place {j + 1}")

    def retime(self, table: Table, symbol=None, shift=False) -> None:
        if self.sel <= 0:
            table.say("the first key is at 0 s; select a later key to change its time", toast=False)
            return
        d = (0.1 if shift else 0.5) * (-1 if symbol == key.MINUS else 1)
        gap = self.keys[self.sel]["t"] - self.keys[self.sel - 1]["t"]
        d = max(d, 0.1 - gap)
        for k in self.keys[self.sel:]:
            k["t"] = round(k["t"] + d, 3)
        self.changed(table, f"key {self.sel + 1} at {self.keys[self.sel]['t']:g} s")

    def easing(self, table: Table, symbol=None, shift=False) -> None:
        if self.sel >= 0:
            k = self.keys[self.sel]
            k["easing"] = EASINGS[(EASINGS.index(k["easing"]) + 1) % len(EASINGS)]
            self.changed(table, f"key {self.sel + 1}: easing {k['easing']} (the move into it)")

    def play(self, table: Table, symbol=None, shift=False) -> None:
        p = self.path(table.scene.world)
        if p is None:
            table.say("no keys yet: Enter adds one at the current view", "error")
            return
        start = self.t if 0 < self.t < p.duration else 0.0
        table.camctl.play(p, start)
        table.vstate.campath = None
        table.say(f"playing {self.path_name!r} ({p.duration:g} s; Esc stops)", toast=False)

    def scrub(self, table: Table, symbol=None, shift=False) -> None:
        p = self.path(table.scene.world)
        if p is None:
            return
        big = shift or symbol in (key.LESS, key.GREATER)        # Shift+, arrives as < on some keyboards
        step = (1.0 if big else 0.25) * (-1 if symbol in (key.COMMA, key.LESS) else 1)
        self.t = float(min(max(self.t + step, 0.0), p.duration))
        table.camctl.show_path_at(p, self.t)
        table.vstate.campath = None
        table.say(f"{self.path_name!r} at {self.t:g} / {p.duration:g} s", toast=False)

    def set_time(self, table: Table, t: float) -> None:
        """Hold the preview at time t (scrubbing to a time)."""
        p = self.path(table.scene.world)
        if p is not None:
            self.t = float(min(max(t, 0.0), p.duration))
            table.camctl.show_path_at(p, self.t)
            table.vstate.campath = None

    # -- outputs ------------------------------------------------------------------------------------------------
    def preview_frame(self, table: Table, t: float, size=PREVIEW_SIZE) -> np.ndarray:
        """The frame the video shows at time t: this path's camera, the scene as placed, the video's options,
        drawn by the window's renderer into an offscreen target."""
        from engine.render.camera import char_points
        from engine.render.commands import flythrough_options
        from engine.render.state import RenderState
        from engine.units import scene_units

        p = self.path(table.scene.world)
        assert p is not None, "a preview needs keys"
        assert table.offscreen is not None, "a preview needs the window's renderer"
        state = RenderState.from_scene(table.scene)
        cam = p.at(t, char_points(table.scene.world, state.characters))
        return table.offscreen(cam, state, flythrough_options(table.scene, scene_units(table.scene)), size)

    def still(self, table: Table, symbol=None, shift=False) -> None:
        from PIL import Image

        from engine.outputs import atomic_path

        if not self.keys:
            return
        img = self.preview_frame(table, self.t)
        table.shot_dir.mkdir(parents=True, exist_ok=True)
        out = table.shot_dir / f"path-{_slug(self.path_name)}-{self.t:07.3f}s.png"
        with atomic_path(out, "the still") as tmp:
            Image.fromarray(img).save(tmp, format="PNG")
        self.last_still = str(out)
        table.say(f"preview still at {self.t:g} s: {out}", toast=False)

    def save(self, table: Table, symbol=None, shift=False) -> None:
        from engine.app.pathsave import save_path
        from engine.errors import AerieError

        src = getattr(table.scene, "source", None)
        if not src:
            table.say("this scene has no file to save the path into", "error")
            return
        try:
            save_path(src, self.path_name, [dict(k) for k in self.keys])
        except AerieError as e:
            table.say(str(e), "error")
            return
        self.saved = True
        table.say(f"saved path {self.path_name!r} ({len(self.keys)} keys, {self.duration():g} s) into {src}")

    def render(self, table: Table, symbol=None, shift=False) -> None:
        """The video of the saved path, made by ``aerie flythrough`` in a process of its own (the table stays
        usable), next to the scene; it refuses to replace any of the scene's inputs."""
        from engine.scene import scene_inputs

        src = getattr(table.scene, "source", None)
        if self.render_job is not None and self.render_job["proc"].poll() is None:
            table.say(f"already rendering {self.render_job['out'].name} ({self.render_job['progress']})", toast=False)
            return
        if not src or not self.saved or not self.keys:
            table.say("save the path first (F5): the video is made from the scene file", "error")
            return
        out = Path(src).with_name(f"{Path(src).stem}-{_slug(self.path_name)}.mp4")
        if out.resolve() in {Path(p).resolve() for p in scene_inputs(table.scene)}:
            table.say(f"{out} is one of the scene's inputs: not overwritten", "error")
            return
        cmd = [sys.executable, "-m", "engine", "flythrough", src, "--path", self.path_name, "-o", str(out)]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=dict(os.environ))
        job = {"proc": proc, "out": out, "progress": "starting", "error": None}
        self.render_job = job

        def watch():
            assert proc.stderr is not None
            lines = []
            for line in proc.stderr:
                lines.append(line.strip())
                m = re.search(r"(\d+)%", line)
                if m:
                    job["progress"] = f"{m.group(1)}%"
            proc.wait()
            job["progress"] = "done" if proc.returncode == 0 else "failed"
            if proc.returncode:
                job["error"] = lines[-1] if lines else f"exit status {proc.returncode}"

        threading.Thread(target=watch, daemon=True, name="aerie-path-render").start()
        table.say(f"rendering {out.name} in the background (the table stays usable)", toast=False)

    # -- what shows ---------------------------------------------------------------------------------------------
    def status(self, table: Table):
        if self.naming is not None:
            return f"name of the camera path: {self.naming}_   (Enter: use it, Esc: keep {self.path_name!r})", "info"
        if self.keys and table.camctl.mode != "flythrough" and table.vstate.campath is None:
            self.show(table)               # a play that ended: the path shows again
        n = len(self.keys)
        head = f"camera path {self.path_name!r}{'' if self.saved else '*'}: {n} key{'s' * (n != 1)}, " \
               f"{self.duration():g} s"
        if self.sel >= 0:
            k = self.keys[self.sel]
            head += f" · key {self.sel + 1} at {k['t']:g} s, {k['easing']}"
            if self.inside_wall(table, k):
                head += " · INSIDE A WALL (pulled towards its look-at)"
        if self.render_job is not None:
            j = self.render_job
            head += f" · video {j['out'].name}: {j['progress']}" + (f" ({j['error']})" if j["error"] else "")
        return (head + " · Enter add, R replace, Del delete, Tab select, J go to, [ ] order, -/= time, Z easing, "
                "P play, ,/. scrub, F9 still, N name, F5 save, F6 video, Ctrl+P leave"), "info"

    def view(self) -> dict:
        """For the test-state hook."""
        return {"name": self.path_name, "keys": [dict(k) for k in self.keys], "selected": self.sel, "t": self.t,
                "saved": self.saved, "still": self.last_still,
                "render": None if self.render_job is None else {"out": str(self.render_job["out"]),
                                                                 "progress": self.render_job["progress"],
                                                                 "error": self.render_job["error"]}}

    def key(self) -> tuple:
        j = self.render_job
        return (self.name, self.path_name, self.naming, len(self.keys), self.sel, self.t, self.saved,
                j["progress"] if j else None,
                tuple(tuple(k["position"]) + (k["t"], k["easing"]) for k in self.keys))


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "_", name)
