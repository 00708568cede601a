"""Cameras in world metres (x east, y north, z up): scene cameras, orbits, a default framing, fly-through paths.
Pure numpy."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.errors import AerieError


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
def ease(kind: str, t: float) -> float:
    t = min(max(t, 0.0), 1.0)
    if kind == "linear":
        return t
    if kind == "ease-in":
        return t * t
    if kind == "ease-out":
        return 1 - (1 - t) * (1 - t)
    if kind == "hold":
        return 0.0
    return t * t * (3 - 2 * t)   # "ease": smoothstep


@dataclass(frozen=True)
class Key:
    t: float
    position: tuple[float, float, float]
    look_at: tuple[float, float, float]
    easing: str = "ease"
    fov: float = 50.0


class Path:
    """Camera at time t from keyframes. Between key i and i+1 the easing of key i+1 shapes the move ("hold"
    stays at key i until key i+1's time, then cuts)."""

    def __init__(self, keys: list[Key]):
        if not keys:
            raise ValueError("a camera path needs at least one keyframe")
        self.keys = sorted(keys, key=lambda k: k.t)

    @property
    def duration(self) -> float:
        return self.keys[-1].t

    def at(self, t: float) -> Camera:
        ks = self.keys
        if t <= ks[0].t:
            k = ks[0]
            return Camera(k.position, k.look_at, k.fov)
        for a, b in zip(ks, ks[1:]):
            if t <= b.t:
                u = ease(b.easing, (t - a.t) / max(b.t - a.t, 1e-9))
                p = np.array(a.position) + (np.array(b.position) - np.array(a.position)) * u
                la = np.array(a.look_at) + (np.array(b.look_at) - np.array(a.look_at)) * u
                fov = a.fov + (b.fov - a.fov) * u
                return Camera(point3(p), point3(la), float(fov))
        k = ks[-1]
        return Camera(k.position, k.look_at, k.fov)


def scene_path(scene, chars, seconds: float | None = None) -> Path:
    """The scene's fly-through keyframes, or an automatic orbit around the action when it has none."""
    if scene.spec.flythrough:
        return Path([Key(float(k.t), point3(k.position), point3(k.look_at), k.easing)
                     for k in scene.spec.flythrough])
    return orbit_path(scene.world, chars, seconds or 10.0)


def orbit_path(world, chars, seconds: float, start_deg: float = 25.0, turn_deg: float = 360.0) -> Path:
    n = max(8, int(seconds * 4))
    keys = []
    for i in range(n + 1):
        cam = orbit_camera(world, chars, start_deg + turn_deg * i / n, elevation_deg=35.0 + 8 * math.sin(i / n * math.pi))
        keys.append(Key(seconds * i / n, cam.position, cam.look_at, "linear", cam.fov))
    return Path(keys)
