"""``[[flythrough]]`` keys as named camera paths (issue 42).

A key belongs to the path its ``path = "NAME"`` names; a key without one belongs to the default path (``default``),
so scenes written before paths had names read as one path, unchanged. Beside ``t``, ``position``, ``look_at`` and
``easing`` a key may hold:

* ``fov`` (degrees), ``curve = "smooth" | "linear"`` (the shape of the move *into* this key),
* ``look_at = "CHARID"``: look at a character's body centre (it moves in a replay),
* ``follow = "CHARID"`` with ``offset = [dx, dy, dz]`` (metres, default ``[0, -10, 6]``): the camera stays at
  that offset from the character and looks at it (or at its own ``look_at``),
* ``orbit = "CHARID"`` with ``radius`` (m), ``turn`` (degrees), ``seconds``, ``height`` (m above the body centre)
  and ``start`` (degrees: 0 = from the south, 90 = from the east): circle the character from ``t`` to
  ``t + seconds``,
* ``speed = "constant"`` on the first key of a path: the whole path at one speed (keys re-timed by distance).

Only keys that use none of these stay in the typed spec (so the content hash of older scenes does not change,
engine.rules.saves.scene_hash); all keys, in file order, are :class:`FlyKey` in ``Scene.flypaths``.
"""

from __future__ import annotations

import re
from typing import Literal

from engine.errors import AerieError, SceneError
from engine.world.scene import Vec3f, check_view
from engine.world.spec import Strict as _Strict, convert as _convert

DEFAULT_PATH = "default"
OLD_KEYS = {"t", "position", "look_at", "easing"}
OLD_EASINGS = {"linear", "ease", "ease-in", "ease-out", "hold"}
EASINGS = ("ease", "linear", "ease-in", "ease-out", "hold")
PATH_NAME = r"[A-Za-z0-9_\- ]{1,64}"
FOLLOW_OFFSET = (0.0, -10.0, 6.0)


class FlyKey(_Strict, frozen=True):
    t: float
    position: Vec3f | None = None
    look_at: Vec3f | str | None = None
    easing: Literal["linear", "ease", "ease-in", "ease-out", "hold"] = "ease"
    path: str = DEFAULT_PATH
    fov: float | None = None
    curve: Literal["smooth", "linear"] = "smooth"
    follow: str | None = None
    offset: Vec3f | None = None
    orbit: str | None = None
    radius: float = 12.0
    turn: float = 360.0
    seconds: float = 8.0
    height: float = 6.0
    start: float = 0.0
    speed: Literal["eased", "constant"] = "eased"


def is_old(raw) -> bool:
    """A key as scenes before issue 42 wrote them (it stays in the typed spec and its content hash)."""
    return (isinstance(raw, dict) and set(raw) <= OLD_KEYS and not isinstance(raw.get("look_at"), str)
            and raw.get("easing", "ease") in OLD_EASINGS)


def split(data: dict, file: str) -> tuple[dict, list]:
    """(data with only the old-form keys in ``flythrough``, every key as written). Every key is type-checked here
    first, so an error names its place in the file, not in the old-form subset."""
    raw = data.get("flythrough") if isinstance(data, dict) else None
    if not isinstance(raw, list) or all(is_old(k) for k in raw):
        return data, list(raw) if isinstance(raw, list) else []
    for i, r in enumerate(raw):
        _convert(r, FlyKey, file, f"flythrough[{i}]")
    return dict(data, flythrough=[k for k in raw if is_old(k)]), list(raw)


def parse(raw: list, char_ids, file: str) -> dict[str, tuple[FlyKey, ...]]:
    """Every key checked (one line naming ``flythrough[i].KEY``); the paths by name, keys in file order."""
    ids = list(char_ids)
    known = set(ids)
    listed = ", ".join(ids) or "none"
    if len(raw) > 10_000:
        raise SceneError(file, "flythrough", "at most 10,000 keyframes")
    paths: dict[str, list[tuple[int, FlyKey]]] = {}
    for i, r in enumerate(raw):
        key = f"flythrough[{i}]"
        k = _convert(r, FlyKey, file, key)
        if not re.fullmatch(PATH_NAME, k.path) or k.path.strip() != k.path:
            raise SceneError(file, f"{key}.path", f"{k.path!r} is not a path name (1 to 64 letters, digits, spaces, "
                                                  "_ and -)")
        modes = [m for m in ("position", "follow", "orbit") if getattr(k, m) is not None]
        if len(modes) != 1:
            raise SceneError(file, key, "a key needs exactly one of position, follow or orbit"
                             + (f" (it has {', '.join(modes)})" if modes else ""))
        for f in ("follow", "orbit") + (("look_at",) if isinstance(k.look_at, str) else ()):
            v = getattr(k, f)
            if v is not None and v not in known:
                raise SceneError(file, f"{key}.{f}", f"no character {v!r} (characters: {listed})")
        if k.position is not None and k.look_at is None:
            raise SceneError(file, f"{key}.look_at", "required key is missing (a point or a character id)")
        if k.position is not None and not isinstance(k.look_at, str):
            check_view(k.position, k.look_at, file, key)
        for f in ("offset",) + (("look_at",) if isinstance(k.look_at, tuple) else ()):
            v = getattr(k, f)
            if v is not None and any(abs(c) > 1e6 for c in v):
                raise SceneError(file, f"{key}.{f}", f"{list(v)} is more than 1,000 km from the map")
        if k.offset is not None and k.follow is None:
            raise SceneError(file, f"{key}.offset", "only a follow key has an offset")
        if k.fov is not None and not 1.0 <= k.fov <= 170.0:
            raise SceneError(file, f"{key}.fov", f"field of view {k.fov:g} is outside 1..170 degrees")
        if k.orbit is not None:
            if not 0.5 <= k.radius <= 10_000:
                raise SceneError(file, f"{key}.radius", "must be between 0.5 and 10,000 m")
            if not 0.1 <= k.seconds <= 3600:
                raise SceneError(file, f"{key}.seconds", "must be between 0.1 and 3600 s")
            if not abs(k.turn) <= 36_000 or not abs(k.height) <= 10_000 or not abs(k.start) <= 36_000:
                raise SceneError(file, f"{key}.turn", "turn, start (degrees) and height (m) must be sane numbers")
        paths.setdefault(k.path, []).append((i, k))
    for name, keys in paths.items():
        last = -1.0
        for n, (i, k) in enumerate(keys):
            if k.t < 0 or k.t <= last or k.t > 3600:
                where = "" if name == DEFAULT_PATH else f" of path {name!r}"
                raise SceneError(file, f"flythrough[{i}].t", f"keyframe times{where} must start at 0 or later, "
                                                             f"increase and stay within 3600 s (after {last:g} s)"
                                 if last >= 0 else f"keyframe times{where} must start at 0 or later, increase and "
                                                   "stay within 3600 s")
            if k.speed == "constant" and n:
                raise SceneError(file, f"flythrough[{i}].speed", "speed is set on the first key of a path")
            last = k.t + (k.seconds if k.orbit is not None else 0.0)
    return {name: tuple(k for _, k in keys) for name, keys in paths.items()}


def path_names(scene) -> list[str]:
    return list(getattr(scene, "flypaths", {}) or {})


def choose(scene, name: str | None) -> tuple[FlyKey, ...] | None:
    """The keys of a named path (None: the default path, or the only path); an unknown name is one line listing
    the names."""
    paths = getattr(scene, "flypaths", {}) or {}
    if name is None:
        if DEFAULT_PATH in paths:
            return paths[DEFAULT_PATH]
        return next(iter(paths.values())) if len(paths) == 1 else (None if not paths else paths[next(iter(paths))])
    if name not in paths:
        names = ", ".join(paths) or "none (the scene has no [[flythrough]] keys)"
        raise AerieError(f"{scene.path}: no fly-through path {name!r} (paths: {names})")
    return paths[name]
