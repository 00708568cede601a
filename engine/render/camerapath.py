"""Smooth camera paths (issue 42): a centripetal Catmull-Rom spline through the keys, walked with a speed profile
in time, and a camera kept out of solid voxels. Pure numpy.

* **Shape**: each segment is the centripetal (alpha = 0.5) Catmull-Rom curve of its four neighbouring keys
  (Barry-Goldman): it passes through every key, has no cusps or loops, and its tangent direction is continuous at
  the keys. The ends get a mirrored phantom key. A key with ``curve = "linear"`` makes the move into it straight.
* **Speed**: along each segment the distance travelled is a cubic in time from 0 to the segment's length, with the
  speed at both ends chosen from the easing: a key's easing shapes the move *into* it as before -- ``ease`` starts
  and ends slowly (the camera stops at the key), ``ease-in`` starts slowly, ``ease-out`` ends slowly, ``linear``
  passes through; where the camera passes through a key its speed there is the same on both sides (the mean of
  the two segments' average speeds, limited so distance never runs backwards). Tangent direction and speed both
  continuous: no velocity jump at an inner key. ``hold`` stays at the earlier key and cuts at the later one's time.
* **Constant speed** (``speed = "constant"``): the keys are re-timed by distance along the curve and every segment
  moves at the one speed.
* The look-at and the field of view are tracks of their own, eased in the same way (no snap at a key).
"""

from __future__ import annotations

import math

import numpy as np

SLOW_START = {"ease", "ease-in"}
SLOW_END = {"ease", "ease-out"}
TABLE = 48              # samples per segment for arc length


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


def _knots(p: np.ndarray) -> np.ndarray:
    """Centripetal knot spacing for the four points of a segment (0, t1, t2, t3)."""
    d = np.linalg.norm(np.diff(p, axis=0), axis=1) ** 0.5
    d = np.maximum(d, 1e-4)
    return np.concatenate([[0.0], np.cumsum(d)])


def _cr(p: np.ndarray, tk: np.ndarray, tau: np.ndarray) -> np.ndarray:
    """Barry-Goldman evaluation of a centripetal Catmull-Rom segment at parameters ``tau`` in [tk[1], tk[2]]."""
    t0, t1, t2, t3 = tk
    u = tau[:, None]
    a1 = (t1 - u) / (t1 - t0) * p[0] + (u - t0) / (t1 - t0) * p[1]
    a2 = (t2 - u) / (t2 - t1) * p[1] + (u - t1) / (t2 - t1) * p[2]
    a3 = (t3 - u) / (t3 - t2) * p[2] + (u - t2) / (t3 - t2) * p[3]
    b1 = (t2 - u) / (t2 - t0) * a1 + (u - t0) / (t2 - t0) * a2
    b2 = (t3 - u) / (t3 - t1) * a2 + (u - t1) / (t3 - t1) * a3
    return (t2 - u) / (t2 - t1) * b1 + (u - t1) / (t2 - t1) * b2


class Track:
    """One quantity (a point, a look-at, a field of view as a 1-vector) through keyed values at rising times."""

    def __init__(self, times, values, easings, curves, constant: bool = False):
        self.v = np.asarray(values, dtype=np.float64).reshape(len(times), -1)
        self.t = np.asarray(times, dtype=np.float64)
        self.easings, self.curves = list(easings), list(curves)
        n = len(self.t)
        self.tables: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []   # (tau, cumulative length, points)
        self.quads: list = []             # per segment: (four control points, knots) of its spline, or None
        for i in range(n - 1):
            if self.curves[i + 1] == "linear" or self.easings[i + 1] == "hold":
                pts = np.linspace(self.v[i], self.v[i + 1], 2)
                tau = np.array([0.0, 1.0])
                self.quads.append(None)
            else:
                p0 = self.v[i - 1] if i > 0 else 2 * self.v[i] - self.v[i + 1]
                p3 = self.v[i + 2] if i + 2 < n else 2 * self.v[i + 1] - self.v[i]
                quad = np.stack([p0, self.v[i], self.v[i + 1], p3])
                tk = _knots(quad)
                tau = np.linspace(tk[1], tk[2], TABLE + 1)
                pts = _cr(quad, tk, tau)
                pts[0], pts[-1] = self.v[i], self.v[i + 1]
                self.quads.append((quad, tk))
            seg = np.r_[0.0, np.cumsum(np.linalg.norm(np.diff(pts, axis=0), axis=1))]
            self.tables.append((tau, seg, pts))
        self.lengths = np.array([tb[1][-1] for tb in self.tables])
        if constant and n > 1 and self.lengths.sum() > 1e-9:      # re-time by distance: one speed throughout
            cum = np.r_[0.0, np.cumsum(self.lengths)]
            self.t = self.t[0] + cum / cum[-1] * (self.t[-1] - self.t[0])
            self.t = np.maximum.accumulate(self.t + np.arange(n) * 1e-9)
        self.speeds = self._speeds(constant)

    def _speeds(self, constant: bool) -> np.ndarray:
        """The speed (units/s) at each key: 0 where the camera stops there, else the same on both sides."""
        n = len(self.t)
        if n < 2:
            return np.zeros(n)
        dt = np.maximum(np.diff(self.t), 1e-9)
        avg = self.lengths / dt
        if constant:
            total = self.lengths.sum() / max(self.t[-1] - self.t[0], 1e-9)
            return np.full(n, total)
        sp = np.zeros(n)
        for k in range(n):
            before = k - 1 if k > 0 else None           # segment index ending at key k
            after = k if k < n - 1 else None            # segment index starting at key k
            stop = ((before is not None and (self.easings[k] in SLOW_END or self.easings[k] == "hold"))
                    or (after is not None and (self.easings[k + 1] in SLOW_START or self.easings[k + 1] == "hold")))
            if stop:
                continue
            if before is not None and after is not None:
                if self.curves[k] == "linear" or self.curves[k + 1] == "linear":
                    continue                          # a corner: stop there rather than turn at speed
                a, b = avg[before], avg[after]
                sp[k] = min((a + b) / 2, 3 * a, 3 * b)
            else:
                sp[k] = avg[before if before is not None else after]
        return sp

    def at(self, t: float) -> np.ndarray:
        ts = self.t
        if len(ts) == 1 or t <= ts[0]:
            return self.v[0].copy()
        if t >= ts[-1]:
            return self.v[-1].copy()
        i = int(np.searchsorted(ts, t, side="right")) - 1
        i = min(max(i, 0), len(ts) - 2)
        e = self.easings[i + 1]
        if e == "hold":
            return self.v[i].copy()
        dt = max(ts[i + 1] - ts[i], 1e-9)
        x = (t - ts[i]) / dt
        tau, cum, pts = self.tables[i]
        L = cum[-1]
        if self.curves[i + 1] == "linear":            # the straight move of scenes before issue 42, eased as then
            return self.v[i] + (self.v[i + 1] - self.v[i]) * ease(e, x)
        if L < 1e-12:
            return self.v[i].copy()
        v0, v1 = self.speeds[i] * dt / L, self.speeds[i + 1] * dt / L      # in segment fractions per unit x
        h = x * x * (3 - 2 * x) + v0 * x * (1 - x) ** 2 - v1 * x * x * (1 - x)   # cubic Hermite 0 -> 1
        s = min(max(h, 0.0), 1.0) * L
        j = int(np.searchsorted(cum, s, side="right")) - 1
        j = min(max(j, 0), len(cum) - 2)
        seg = cum[j + 1] - cum[j]
        f = 0.0 if seg < 1e-12 else (s - cum[j]) / seg
        if self.quads[i] is None:
            return pts[j] + (pts[j + 1] - pts[j]) * f
        quad, tk = self.quads[i]      # on the curve itself (its true tangent), at the parameter of that distance
        return _cr(quad, tk, np.array([tau[j] + (tau[j + 1] - tau[j]) * f]))[0]


def keep_out(world, eye, look_at, margin: float = 0.3) -> np.ndarray:
    """The eye, pulled along the line towards the look-at until it and a small box around it are out of solid
    voxels and above the ground (as game cameras do); unchanged where it is already clear."""
    eye = np.asarray(eye, dtype=np.float64)
    at = np.asarray(look_at, dtype=np.float64)
    if not _blocked(world, eye, margin):
        return eye
    d = at - eye
    n = float(np.linalg.norm(d))
    if n < 1e-9:
        return eye
    steps = int(math.ceil(n / 0.1))
    for k in range(1, steps):
        p = eye + d * (k / steps)
        if not _blocked(world, p, margin):
            return p
    return eye


def _blocked(world, p, margin: float) -> bool:
    cm = world.cell_m
    X, Y, Z = world.size
    solid = world.solid()
    if p[2] - margin < 0.0 and 0 <= p[0] < X * cm and 0 <= p[1] < Y * cm:
        return True                                # under the ground
    for dx in (-margin, margin):
        for dy in (-margin, margin):
            for dz in (-margin, margin):
                x, y, z = int(math.floor((p[0] + dx) / cm)), int(math.floor((p[1] + dy) / cm)), int(math.floor(p[2] + dz))
                if 0 <= x < X and 0 <= y < Y and 0 <= z < Z and solid[z, y, x]:
                    return True
    return False
