"""Camera controllers for the window: orbit / pan / zoom, free fly, follow, snap to the scene's cameras and play its
fly-through. Pure numpy (no pyglet, no GL) so it is tested without a display.

Everything is in world metres (x east, y north, z up). The controller keeps a *goal* and a *current* camera and
eases the current one towards the goal every frame (``update(dt)``), so snaps and follows glide instead of cutting.
The eye is kept at least ``CLEARANCE`` m above the terrain under it (the world's heightmap) and inside a box a
little larger than the map: the camera is never inside terrain.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.render.camera import Camera, char_points, default_camera, orbit_path, point3, scene_camera, scene_path

CLEARANCE = 0.6
MIN_DIST, MAX_DIST = 2.0, 400.0
MIN_PITCH, MAX_PITCH = -89.0, 89.0


def _dir(yaw: float, pitch: float) -> np.ndarray:
    """Unit view direction: yaw 0 looks north (+y), 90 east; pitch positive looks up."""
    y, p = math.radians(yaw), math.radians(pitch)
    return np.array([math.sin(y) * math.cos(p), math.cos(y) * math.cos(p), math.sin(p)])


def _angles(d) -> tuple[float, float]:
    d = np.asarray(d, dtype=np.float64)
    n = np.linalg.norm(d)
    if n < 1e-9:
        return 0.0, -45.0
    d = d / n
    return math.degrees(math.atan2(d[0], d[1])), math.degrees(math.asin(max(-1.0, min(1.0, d[2]))))


def _wrap(a: float) -> float:
    return (a + 180.0) % 360.0 - 180.0


@dataclass
class Pose:
    """A camera as target + yaw/pitch/distance (orbit form); free fly uses the same with the eye as anchor."""
    target: np.ndarray
    yaw: float
    pitch: float
    dist: float
    fov: float = 50.0

    @property
    def eye(self) -> np.ndarray:
        return self.target - _dir(self.yaw, self.pitch) * self.dist

    def camera(self) -> Camera:
        return Camera(point3(self.eye), point3(self.target), float(self.fov))

    def copy(self) -> "Pose":
        return Pose(self.target.copy(), self.yaw, self.pitch, self.dist, self.fov)

    @classmethod
    def from_camera(cls, cam: Camera) -> "Pose":
        eye, at = np.array(cam.position, float), np.array(cam.look_at, float)
        yaw, pitch = _angles(at - eye)
        return cls(at, yaw, pitch, max(float(np.linalg.norm(at - eye)), MIN_DIST), float(cam.fov))


class CameraControl:
    """Modes: ``orbit`` (default), ``fly`` (WASD/QE + mouse look), ``follow`` (orbit around the selected character),
    ``flythrough`` (the scene's keyframes). ``snap(name)`` glides to a named scene camera in orbit mode."""

    def __init__(self, scene, characters=()):
        self.scene = scene
        self.world = scene.world
        X, Y, Z = self.world.size
        cm = self.world.cell_m
        self.extent = np.array([X * cm, Y * cm, float(Z)])
        self.height = self.world.heightmap().astype(np.float64)       # [Y, X] layer one stands on
        self.home = Pose.from_camera(default_camera(self.world, list(characters)))
        self.goal = self.home.copy()
        self.cur = self.home.copy()
        self.mode = "orbit"
        self.follow_point: np.ndarray | None = None
        self.fly_t = 0.0
        self._path = None
        self.names = [c.name for c in scene.spec.cameras]
        self._snap_i = -1
        self.smooth = 12.0          # 1/s: how fast current follows goal
        self.view_name: str | None = None      # the named view glided to (a scene camera, home, top) until moved
        self.path_name: str | None = None      # the scene's camera path P plays (None: the default one)
        self._path_chosen = False
        self.paused = False                    # a path held at fly_t (scrubbing in the camera-path mode)
        self.fly_cam: Camera | None = None      # the path's camera at fly_t, exactly as `aerie flythrough` draws it
        self.where = char_points(self.world, list(characters))   # body centres for follow / look-at keys

    # -- the terrain -------------------------------------------------------------------------------------------
    def ground_at(self, x_m: float, y_m: float, margin: float = 0.5) -> float:
        """Highest surface (metres) under a point and the cells within ``margin`` m of it (so the near plane does not
        cut into a wall the eye stands right next to)."""
        cm = self.world.cell_m
        Y, X = self.height.shape
        x0, x1 = int(math.floor((x_m - margin) / cm)), int(math.floor((x_m + margin) / cm)) + 1
        y0, y1 = int(math.floor((y_m - margin) / cm)), int(math.floor((y_m + margin) / cm)) + 1
        x0, x1, y0, y1 = max(x0, 0), min(x1, X), max(y0, 0), min(y1, Y)
        if x0 >= x1 or y0 >= y1:
            return 0.0
        return float(self.height[y0:y1, x0:x1].max())

    def clamp_eye(self, eye: np.ndarray) -> np.ndarray:
        margin = 60.0
        e = np.array(eye, dtype=np.float64)
        e[0] = min(max(e[0], -margin), self.extent[0] + margin)
        e[1] = min(max(e[1], -margin), self.extent[1] + margin)
        e[2] = min(max(e[2], self.ground_at(e[0], e[1]) + CLEARANCE), self.extent[2] + 250.0)
        return e

    def _fix(self, pose: Pose) -> Pose:
        """Keep the eye out of the terrain: in orbit form, shorten the arm or raise the target if needed."""
        eye = pose.eye
        safe = self.clamp_eye(eye)
        if np.allclose(safe, eye):
            return pose
        # raise the pitch until the eye clears, keeping the distance (looking more from above reads well)
        p = pose.copy()
        for _ in range(40):
            if p.pitch <= -88.0:
                break
            p.pitch = max(p.pitch - 3.0, -88.0)
            if np.allclose(self.clamp_eye(p.eye), p.eye):
                return p
        # still inside (under an overhang): move the target up to the safe eye height difference
        p.target = p.target + (safe - eye)
        return p

    # -- inputs ------------------------------------------------------------------------------------------------
    def orbit(self, dx_px: float, dy_px: float):
        self.view_name = None
        if self.mode == "flythrough":
            self.mode = "orbit"
        if self.mode == "fly":
            self.look(dx_px, dy_px)
            return
        self.goal.yaw = self.goal.yaw + dx_px * 0.3
        self.goal.pitch = min(max(self.goal.pitch - dy_px * 0.3, MIN_PITCH + 1), -2.0)
        self.goal = self._fix(self.goal)

    def pan(self, dx_px: float, dy_px: float):
        self.view_name = None
        if self.mode in ("flythrough", "follow"):
            self.mode = "orbit"
        scale = self.goal.dist * 0.0018
        y = math.radians(self.goal.yaw)
        right = np.array([math.cos(y), -math.sin(y), 0.0])
        fwd = np.array([math.sin(y), math.cos(y), 0.0])
        self.goal.target = self.goal.target - right * dx_px * scale + fwd * dy_px * scale
        lo, hi = np.zeros(3), self.extent
        self.goal.target = np.clip(self.goal.target, lo - 10, hi + 10)
        self.goal = self._fix(self.goal)

    def zoom(self, steps: float):
        self.view_name = None
        if self.mode == "flythrough":
            self.mode = "orbit"
        if self.mode == "fly":
            self.move(np.array([0.0, steps * 2.0, 0.0]), 1.0)
            return
        self.goal.dist = float(min(max(self.goal.dist * (0.88 ** steps), MIN_DIST), MAX_DIST))
        self.goal = self._fix(self.goal)

    def look(self, dx_px: float, dy_px: float):
        """Mouse look (free fly): turn the view about the eye."""
        eye = self.goal.eye
        self.goal.yaw = self.goal.yaw + dx_px * 0.25
        self.goal.pitch = min(max(self.goal.pitch + dy_px * 0.25, MIN_PITCH), MAX_PITCH)
        self.goal.dist = 8.0
        self.goal.target = eye + _dir(self.goal.yaw, self.goal.pitch) * self.goal.dist

    def move(self, local: np.ndarray, dt: float, speed: float = 14.0):
        """Free fly: local = (right, forward, up) in -1..1; forward follows the view, up is world up."""
        eye = self.goal.eye
        d = _dir(self.goal.yaw, self.goal.pitch)
        y = math.radians(self.goal.yaw)
        right = np.array([math.cos(y), -math.sin(y), 0.0])
        v = right * local[0] + d * local[1] + np.array([0.0, 0.0, 1.0]) * local[2]
        new_eye = self.clamp_eye(eye + v * speed * dt)
        self.goal.target = new_eye + d * self.goal.dist
        self.cur.target = self.cur.target + (new_eye - eye)      # flying is direct, not eased

    def set_mode(self, mode: str):
        if mode == "fly" and self.mode != "fly":
            eye = self.goal.eye
            self.goal.dist = 8.0
            self.goal.target = eye + _dir(self.goal.yaw, self.goal.pitch) * 8.0
        if mode == "orbit" and self.mode == "fly":
            # orbit around the point the view rests on, a comfortable distance ahead
            eye = self.goal.eye
            self.goal.dist = 30.0
            self.goal.target = eye + _dir(self.goal.yaw, self.goal.pitch) * 30.0
        if mode == "flythrough":
            chars: list = []
            if self._path is None or not self._path_chosen:
                self._path = (scene_path(self.scene, chars, name=self.path_name, world=self.world)
                              if getattr(self.scene, "flypaths", None) else None)
            if self._path is None:
                self._path = orbit_path(self.world, [], 12.0)
            self._path_chosen = False
            self.paused = False
            self.fly_t = 0.0
            self.fly_cam = self._path.at(0.0, self.where)
        self.mode = mode

    def play(self, path, start: float = 0.0):
        """Play this camera path (engine.render.camera.Path) from ``start`` seconds: the camera-path mode's P."""
        self._path, self._path_chosen = path, True
        self.set_mode("flythrough")
        self.fly_t = start
        self.fly_cam = path.at(start, self.where)

    def show_path_at(self, path, t: float):
        """Hold the view at time t of a path (scrubbing): the same camera ``aerie flythrough`` draws then."""
        self._path, self._path_chosen = path, True
        self.mode = "flythrough"
        self.paused = True
        self.fly_t = t
        self.fly_cam = path.at(t, self.where)
        pose = Pose.from_camera(self.fly_cam)
        self.cur, self.goal = pose, pose.copy()

    def follow(self, point_m):
        """Follow mode's target: the selected character's body centre (metres); None stops following."""
        self.follow_point = None if point_m is None else np.array(point_m, dtype=np.float64)

    def snap(self, name: str | None = None) -> str:
        """Glide to a named scene camera (None: the next one, then home). Returns the name used."""
        if name is None:
            seq = self.names + ["home"]
            self._snap_i = (self._snap_i + 1) % len(seq)
            name = seq[self._snap_i]
        self.mode = "orbit"
        pose = self.home.copy() if name == "home" else Pose.from_camera(scene_camera(self.scene, name))
        self.goal = self._fix(pose)
        self.view_name = name
        return name

    def home_view(self):
        self.mode = "orbit"
        self.goal = self.home.copy()
        self.view_name = "home"

    def top_view(self):
        """Straight down over the whole map, north up (issue 23 item 8: no top-view key)."""
        self.mode = "orbit"
        X, Y, _Z = self.extent
        top = float(self.height.max()) if self.height.size else 0.0
        dist = float(min(max(X, Y) * 1.15 + top, MAX_DIST))
        self.goal = self._fix(Pose(np.array([X / 2, Y / 2, top]), 0.0, MIN_PITCH + 1, dist, self.goal.fov))
        self.view_name = "top view"

    # -- per frame ---------------------------------------------------------------------------------------------
    def update(self, dt: float) -> bool:
        """Advance smoothing / playback by dt seconds. Returns True while the camera is still moving."""
        if self.mode == "flythrough" and self._path is not None:
            if not self.paused:
                self.fly_t = min(self.fly_t + dt, self._path.duration)
            self.fly_cam = self._path.at(self.fly_t, self.where)
            pose = Pose.from_camera(self.fly_cam)
            self.cur, self.goal = pose, pose.copy()
            if self.fly_t >= self._path.duration and not self.paused:
                self.mode = "orbit"
                self.cur, self.goal = self._fix(pose), self._fix(pose.copy())
            return True
        if self.mode == "follow" and self.follow_point is not None:
            self.goal.target = self.follow_point.copy()
            self.goal = self._fix(self.goal)
        k = 1.0 - math.exp(-self.smooth * max(dt, 0.0))
        c, g = self.cur, self.goal
        moving = False
        new_t = c.target + (g.target - c.target) * k
        dyaw = _wrap(g.yaw - c.yaw)
        new = Pose(new_t, c.yaw + dyaw * k, c.pitch + (g.pitch - c.pitch) * k,
                   c.dist + (g.dist - c.dist) * k, c.fov + (g.fov - c.fov) * k)
        if (np.linalg.norm(g.target - new.target) < 1e-3 and abs(_wrap(g.yaw - new.yaw)) < 1e-3
                and abs(g.pitch - new.pitch) < 1e-3 and abs(g.dist - new.dist) < 1e-3):
            new = g.copy()
        else:
            moving = True
        self.cur = self._fix(new) if self.mode != "fly" else new
        return moving

    def camera(self) -> Camera:
        if self.mode == "flythrough" and self.fly_cam is not None:
            return self.fly_cam          # the path's own camera (kept out of walls by the path, as in the video)
        cam = self.cur.camera()
        eye = self.clamp_eye(np.array(cam.position))
        if not np.allclose(eye, cam.position):
            cam = Camera(point3(eye), cam.look_at, cam.fov)
        return cam

    def describe(self) -> str:
        if self.mode == "flythrough" and self._path is not None:
            return f"fly-through {self.fly_t:4.1f}/{self._path.duration:.0f} s"
        if self.mode == "orbit" and self.view_name:
            return f"{self.view_name} (orbit)"        # the named camera glided to (issue 23 item 8)
        return {"orbit": "orbit", "fly": "free fly (WASD, Q/E, mouse look)", "follow": "follow"}.get(self.mode, self.mode)
