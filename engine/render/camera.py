"""Cameras in world metres (x east, y north, z up): scene cameras, orbits, a default framing, fly-through paths.
Pure numpy."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.errors import AerieError
from engine.render.camerapath import Track, ease as ease, keep_out
from engine.render.state import RenderState
from engine.scene.flypaths import FOLLOW_OFFSET, choose


def point3(v) -> tuple[float, float, float]:
    """A point of three floats from any 3-sequence (a numpy row, a scene's list), the shape Camera and Key hold."""
    x, y, z = v
    return (float(x), float(y), float(z))


@dataclass(frozen=True)
class Camera:
    position: tuple[float, float, float]
    look_at: tuple[float, float, float]
    fov: float = 50.0            # vertical, degrees
    near: float = 0.5
    far: float = 3000.0

    def view(self) -> np.ndarray:
        eye = np.array(self.position, dtype=np.float64)
        f = np.array(self.look_at, dtype=np.float64) - eye
        n = np.linalg.norm(f)
        f = f / n if n > 1e-9 else np.array([0.0, 1.0, 0.0])
        up = np.array([0.0, 0.0, 1.0])
        if abs(f @ up) > 0.999:      # looking straight down or up: north is up on screen
            up = np.array([0.0, 1.0, 0.0])
        s = np.cross(f, up)
        s /= np.linalg.norm(s)
        u = np.cross(s, f)
        m = np.identity(4)
        m[0, :3], m[1, :3], m[2, :3] = s, u, -f
        m[:3, 3] = -m[:3, :3] @ eye
        return m

    def projection(self, aspect: float) -> np.ndarray:
        t = 1.0 / math.tan(math.radians(self.fov) / 2)
        n, f = self.near, self.far
        m = np.zeros((4, 4))
        m[0, 0] = t / aspect
        m[1, 1] = t
        m[2, 2] = (f + n) / (n - f)
        m[2, 3] = 2 * f * n / (n - f)
        m[3, 2] = -1.0
        return m

    def view_projection(self, size) -> np.ndarray:
        w, h = size
        return self.projection(w / h) @ self.view()

    def project(self, points, size) -> np.ndarray:
        """World points [N, 3] -> pixel coordinates [N, 3] (x right, y down from the top left, depth w);
        depth <= 0 means behind the camera."""
        p = np.atleast_2d(np.asarray(points, dtype=np.float64))
        w, h = size
        clip = np.c_[p, np.ones(len(p))] @ self.view_projection(size).T
        ww = clip[:, 3]
        safe = np.where(np.abs(ww) < 1e-9, 1e-9, ww)
        x = (clip[:, 0] / safe * 0.5 + 0.5) * w
        y = (1 - (clip[:, 1] / safe * 0.5 + 0.5)) * h
        return np.c_[x, y, ww]


def gl_matrix(m: np.ndarray) -> bytes:
    """A row-major numpy matrix as the column-major float32 bytes GL uniforms take."""
    return np.ascontiguousarray(m.T, dtype=np.float32).tobytes()


def map_extent(world) -> tuple[np.ndarray, np.ndarray]:
    X, Y, Z = world.size
    return np.zeros(3), np.array([X * world.cell_m, Y * world.cell_m, float(Z)])


def action_points(world, chars) -> np.ndarray:
    """Centres of the characters' bodies in metres (feet + half height)."""
    pts = [((c.x + c.footprint / 2) * world.cell_m, (c.y + c.footprint / 2) * world.cell_m,
            c.layer + c.height_layers / 2) for c in chars]
    return np.array(pts, dtype=np.float64).reshape(-1, 3)


def focus(world, chars) -> tuple[np.ndarray, float]:
    """The point to look at and a radius that holds the action: the characters' bounding box, at least a fifth of
    the map; the map centre when there are no characters."""
    lo, hi = map_extent(world)
    pts = action_points(world, chars)
    if len(pts):
        a, b = pts.min(axis=0), pts.max(axis=0)
        c = (a + b) / 2
        r = max(float(np.linalg.norm(b - a)) / 2 + 3.0, 10.0)
    else:
        c = (lo + hi) / 2
        c[2] = 0.0
        r = float(np.linalg.norm(hi[:2] - lo[:2])) / 2
    return c, float(r)


def orbit_camera(world, chars, azimuth_deg: float, elevation_deg: float = 38.0, fov: float = 45.0,
                 distance_scale: float = 1.0) -> Camera:
    """A camera on a circle around the action at this azimuth (0 = from the south looking north, 90 = from the
    east), high enough to see over walls, far enough that the action fits."""
    c, r = focus(world, chars)
    d = r / math.sin(math.radians(fov) / 2) * 0.95 * distance_scale
    az, el = math.radians(azimuth_deg), math.radians(elevation_deg)
    off = np.array([math.sin(az) * math.cos(el), -math.cos(az) * math.cos(el), math.sin(el)]) * d
    return Camera(point3(c + off), point3(c), fov)


def default_camera(world, chars) -> Camera:
    """From the south-south-east, 38 degrees up: shadows fall towards the viewer's side, heights read well."""
    return orbit_camera(world, chars, azimuth_deg=25.0)


def scene_camera(scene, name: str) -> Camera:
    for cam in scene.spec.cameras:
        if cam.name == name:
            return Camera(point3(cam.position), point3(cam.look_at), float(cam.fov))
    names = ", ".join(c.name for c in scene.spec.cameras) or "none"
    raise AerieError(f"{scene.path}: no camera {name!r} (cameras: {names})")


# -- fly-throughs --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Key:
    """One keyframe. ``position`` / ``look_at`` are metres; ``follow`` (a character id) puts the eye at the
    character's body centre + ``offset`` and ``look_target`` (a character id) aims at its body centre, both read
    at the moment drawn. ``curve``: the shape of the move into this key (``smooth`` spline or ``linear``)."""
    t: float
    position: tuple[float, float, float]
    look_at: tuple[float, float, float]
    easing: str = "ease"
    fov: float = 50.0
    curve: str = "linear"
    follow: str | None = None
    offset: tuple[float, float, float] = (0.0, 0.0, 0.0)
    look_target: str | None = None


def char_points(world, chars) -> dict[str, np.ndarray]:
    """Body centres (metres) by character id: what follow and look-at keys aim at."""
    return {c.id: p for c, p in zip(chars, action_points(world, chars))}


class Path:
    """Camera at time t from keyframes (engine/render/camerapath.py: a smooth spline walked with the keys' easing
    as its speed profile; ``curve = "linear"`` keys move straight, as every path did before issue 42: there
    between key i and i+1 the easing of key i+1 shapes the move, "hold" stays at key i until key i+1's time, then
    cuts). ``world``: keep the eye out of solid voxels (pulled towards the look-at)."""

    def __init__(self, keys: list[Key], constant_speed: bool = False, world=None, name: str = "default"):
        if not keys:
            raise ValueError("a camera path needs at least one keyframe")
        self.keys = sorted(keys, key=lambda k: k.t)
        self.constant = constant_speed
        self.world = world
        self.name = name
        self.live = any(k.follow or k.look_target for k in self.keys)
        self._fixed = None if self.live else self._tracks(None)

    @property
    def duration(self) -> float:
        return self.keys[-1].t

    def _tracks(self, where):
        ks = self.keys
        pos, look = [], []
        for k in ks:
            if k.follow is not None and where is not None and k.follow in where:
                pos.append(np.asarray(where[k.follow], float) + np.asarray(k.offset, float))
            else:
                pos.append(np.asarray(k.position, float))
            if k.look_target is not None and where is not None and k.look_target in where:
                look.append(np.asarray(where[k.look_target], float))
            else:
                look.append(np.asarray(k.look_at, float))
        times = [k.t for k in ks]
        eas = [k.easing for k in ks]
        cur = [k.curve for k in ks]
        p = Track(times, pos, eas, cur, self.constant)
        # the look-at and fov move on the position's timing (re-timed keys under constant speed), eased the same way
        la = Track(p.t, look, eas, cur)
        fv = Track(p.t, [[k.fov] for k in ks], eas, cur)
        return p, la, fv

    def at(self, t: float, where: dict | None = None) -> Camera:
        p, la, fv = self._fixed if self._fixed is not None else self._tracks(where)
        eye, at = p.at(t), la.at(t)
        if self.world is not None:
            eye = keep_out(self.world, eye, at)
        if float(np.linalg.norm(eye - at)) < 1e-6:
            at = at + np.array([0.0, 1e-3, 0.0])
        return Camera(point3(eye), point3(at), float(fv.at(t)[0]))


def keys_of(flykeys, world, chars) -> tuple[list[Key], bool]:
    """engine.scene.flypaths.FlyKey -> Keys (an orbit key becomes follow keys around its character); and whether
    the path runs at constant speed."""
    pts = char_points(world, chars)
    out: list[Key] = []
    for k in flykeys:
        fov = float(k.fov) if k.fov is not None else 50.0
        target = k.look_at if isinstance(k.look_at, str) else None
        fixed_look = point3(k.look_at) if k.look_at is not None and target is None else None
        if k.orbit is not None:
            c = pts.get(k.orbit, np.zeros(3))
            n = max(4, int(math.ceil(abs(k.turn) / 30.0)))
            for j in range(n + 1):
                az = math.radians(k.start + k.turn * j / n)
                off = (math.sin(az) * k.radius, -math.cos(az) * k.radius, k.height)
                easing = k.easing if j == 0 else "linear"
                out.append(Key(float(k.t + k.seconds * j / n), point3(c + off), fixed_look or point3(c), easing, fov,
                               k.curve if j == 0 else "smooth", k.orbit, off, target or (None if fixed_look else k.orbit)))
            continue
        if k.follow is not None:
            c = pts.get(k.follow, np.zeros(3))
            off = k.offset if k.offset is not None else FOLLOW_OFFSET
            out.append(Key(float(k.t), point3(c + np.asarray(off)), fixed_look or point3(c), k.easing, fov, k.curve,
                           k.follow, point3(off), target or (None if fixed_look else k.follow)))
            continue
        look = fixed_look or point3(pts.get(target or "", np.zeros(3)))
        out.append(Key(float(k.t), point3(k.position), look, k.easing, fov, k.curve, None, (0.0, 0.0, 0.0), target))
    return out, bool(flykeys) and flykeys[0].speed == "constant"


def scene_path(scene, chars, seconds: float | None = None, name: str | None = None, world=None) -> Path:
    """The scene's fly-through (the default path, or the path ``name``; an unknown name is one line listing the
    names), or an automatic orbit around the action when it has none."""
    keys = choose(scene, name)
    if keys:
        ks, constant = keys_of(keys, scene.world, chars if chars else scene_chars(scene))
        return Path(ks, constant, world, keys[0].path)
    return orbit_path(scene.world, chars, seconds or 10.0)


def scene_chars(scene) -> list:
    return list(RenderState.from_scene(scene).characters)


def orbit_path(world, chars, seconds: float, start_deg: float = 25.0, turn_deg: float = 360.0) -> Path:
    n = max(8, int(seconds * 4))
    keys = []
    for i in range(n + 1):
        cam = orbit_camera(world, chars, start_deg + turn_deg * i / n, elevation_deg=35.0 + 8 * math.sin(i / n * math.pi))
        keys.append(Key(seconds * i / n, cam.position, cam.look_at, "linear", cam.fov))
    return Path(keys)
