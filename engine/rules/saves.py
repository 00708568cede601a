"""Saved games and event logs: a versioned format that names its scene by content, loads from any folder and
refuses, in one line, anything damaged or stale.

A save (``Session.save()``, version 2) is a JSON object::

    {"type": "save", "version": 2, "scene": "scenes/x.toml", "scene_file": "/abs/path/scenes/x.toml",
     "scene_hash": "sha256:...", "seed": 3, "options": {...}, "actions": [...], "events": [...]}

* ``scene_hash`` is the SHA-256 of the scene's content as loaded: its validated keys (every character stat, the
  options, the script) and the voxels and materials of its map (so an edited ``.vox`` counts too). Comments and
  spacing do not count. Loading a save or replaying a log against a scene whose hash differs stops with
  ``the scene changed since this game was saved``: a changed ``max_hp``, AC or position never loads silently.
* ``scene_file`` is absolute; ``scene`` is the path as given. A save is found from any working folder: the absolute
  path first, then ``scene`` relative to the save file's folder, then to the working folder.
* ``Session.save()`` returns a snapshot: a deep copy, so changing it never changes the session (nor the reverse).
* An event log's first line (the ``session`` event) carries the same ``scene_hash`` (not the absolute path, so that
  the same game logs the same bytes from any folder; a log is replayed against the scene given, or ``scene``).

Every problem (not JSON, a truncated line, a missing key, a wrong type, an unknown version, a scene that moved or
changed, a replay that differs) is an :class:`~engine.errors.AerieError`: one line, exit 2.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from engine.errors import AerieError
import msgspec
from engine.rules.core import Illegal, dumps
from engine.inputs import SAVE_MAX_BYTES, read_text
from engine.outputs import write_output

SAVE_VERSION = 2
READABLE_VERSIONS = (1, 2)


def scene_hash(scene) -> str:
    """``sha256:<hex>`` of the scene's content (validated spec + map voxels + materials), cached on the scene."""
    cached = getattr(scene, "_content_hash", None)
    if cached:
        return cached

    h = hashlib.sha256()
    h.update(b"aerie-scene-1\0")
    h.update(json.dumps(msgspec.to_builtins(scene.spec), sort_keys=True, separators=(",", ":")).encode())
    w = scene.world
    h.update(repr((tuple(w.size), float(w.cell_m))).encode())
    h.update(json.dumps([msgspec.to_builtins(m) if hasattr(m, "__struct_fields__") else repr(m)
                         for m in w.materials]).encode())
    h.update(memoryview(w.voxels.tobytes()))
    out = "sha256:" + h.hexdigest()
    try:
        object.__setattr__(scene, "_content_hash", out)
    except (AttributeError, TypeError):
        pass
    return out


def scene_file(scene) -> str | None:
    src = getattr(scene, "source", None)
    return str(src) if src else None


def header(scene, with_file: bool = True) -> dict:
    """The fields a save (``with_file``) and a ``session`` event carry to name their scene. The event log leaves
    out the absolute path: the same scene, seed and actions give the same log byte for byte in any folder."""
    out = {"scene": scene.path, "scene_hash": scene_hash(scene)}
    f = scene_file(scene) if with_file else None
    if f:
        out["scene_file"] = f
    return out


def snapshot(obj):
    """A deep, JSON-identical copy (the save is the caller's to change)."""
    return json.loads(json.dumps(obj, sort_keys=True))


# ------------------------------------------------------------------------------------------------- reading
def _need(d: dict, key: str, types, what: str, where: str, optional=False):
    if key not in d:
        if optional:
            return None
        raise AerieError(f"{where}: {key}: required key is missing")
    v = d[key]
    if isinstance(v, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
        raise AerieError(f"{where}: {key}: must be {what}, got {v!r}")
    if not isinstance(v, types):
        raise AerieError(f"{where}: {key}: must be {what}, got {type(v).__name__}")
    return v


# How a save's scene file becomes a Scene: scenes are loaded a layer above the rules (engine/scene registers its
# load_scene here when it is imported), so the rules never import the loader that imports them.
SCENE_LOADER: list = []


def register_scene_loader(load) -> None:
    SCENE_LOADER[:] = [load]


def _find_scene(save: dict, base_dir, where: str):
    if not SCENE_LOADER:
        raise AerieError(f"{where}: no scene loader (import engine.scene, or pass the scene)")
    load_scene = SCENE_LOADER[0]
    tried = []
    f = save.get("scene_file")
    if isinstance(f, str) and f:
        tried.append(Path(f))
    rel = save["scene"]
    if base_dir is not None and not os.path.isabs(rel):
        tried.append(Path(base_dir) / rel)
    tried.append(Path(rel))
    for p in tried:
        if p.is_file():
            return load_scene(p)
    raise AerieError(f"{where}: scene {rel!r} not found (looked at {', '.join(str(p) for p in dict.fromkeys(tried))})")


def check_hash(scene, saved_hash, where: str) -> None:
    if saved_hash is None:
        return
    now = scene_hash(scene)
    if saved_hash != now:
        raise AerieError(f"{where}: the scene {scene.path} changed since this game was saved "
                         f"(content hash {saved_hash[:19]}..., now {now[:19]}...): its characters, options or map "
                         "differ; load it with the scene it was played on")


def load(cls, save, scene=None, base_dir=None, where: str = "saved game"):
    """``Session.load``: validate the save's shape, find and check its scene, replay, verify the events."""

    if not isinstance(save, dict) or save.get("type") != "save":
        raise AerieError(f"{where}: not an Aerie saved game (a JSON object with type = \"save\")")
    version = save.get("version", 1)
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        raise AerieError(f"{where}: save version {version!r} is not supported (this reads "
                         f"{', '.join(map(str, READABLE_VERSIONS))})")
    _need(save, "scene", str, "a scene path", where)
    seed = _need(save, "seed", int, "an integer", where)
    if not -(2 ** 53) <= seed <= 2 ** 53:
        raise AerieError(f"{where}: seed: {str(seed)[:20]}... is outside +-2**53")
    options = _need(save, "options", (dict, type(None)), "a table", where, optional=True)
    actions = _need(save, "actions", list, "a list of actions", where)
    events = _need(save, "events", list, "a list of events", where, optional=True)
    saved_hash = _need(save, "scene_hash", str, "a hash", where, optional=True)
    for i, a in enumerate(actions):
        if not isinstance(a, dict):
            raise AerieError(f"{where}: actions[{i}]: an action is a table, got {type(a).__name__}")
    sc = scene if scene is not None else _find_scene(save, base_dir, where)
    check_hash(sc, saved_hash, where)
    try:
        s = cls(sc, seed, options)
    except AerieError as e:
        raise AerieError(f"{where}: {e}") from None
    for i, a in enumerate(actions):
        try:
            s.step(a)
        except Illegal as e:
            raise AerieError(f"{where}: {e.at(f'actions[{i}]')}") from None
    if events is not None:
        def key(e):      # where the scene file lies is not part of the game (its content hash is)
            if isinstance(e, dict) and e.get("type") == "session":
                e = {k: v for k, v in e.items() if k not in ("scene", "scene_file")}
            try:
                return dumps(e)
            except (TypeError, ValueError):
                return None
        got = [key(e) for e in s.events]
        want = [key(e) for e in events]
        if got != want:
            k = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            raise AerieError(f"{where}: the saved event log does not match the replay from event {k} on "
                             "(different engine version or edited save)")
    return s


def parse_log(lines, where: str = "event log") -> list[dict]:
    """JSON lines (or dicts) into event dicts; a line that is not a JSON object names its number."""
    if isinstance(lines, (str, bytes)):
        lines = lines.splitlines() if isinstance(lines, str) else lines.decode("utf-8", "replace").splitlines()
    out = []
    for i, e in enumerate(lines):
        if isinstance(e, str):
            if not e.strip():
                continue
            try:
                e = json.loads(e)
            except (json.JSONDecodeError, RecursionError, ValueError) as err:
                msg = err.msg if isinstance(err, json.JSONDecodeError) else "nested too deep"
                raise AerieError(f"{where}: line {i + 1}: not JSON ({msg}; a truncated log?)") from None
        if not isinstance(e, dict):
            raise AerieError(f"{where}: line {i + 1}: an event is a JSON object, got {type(e).__name__}")
        out.append(e)
    return out


def from_log(cls, events, scene=None, base_dir=None, where: str = "event log"):
    """``Session.from_log``: the ``session`` event names the scene, seed and options; ``action`` events the
    actions; the replay must reproduce every other event."""
    evs = [e for e in parse_log(events, where) if e.get("type") not in ("state", "illegal")]  # runner annotations
    if not evs or evs[0].get("type") != "session":
        raise AerieError(f"{where}: an event log starts with a 'session' event")
    head = evs[0]
    actions = []
    for i, e in enumerate(evs):
        if e.get("type") == "action":
            if not isinstance(e.get("action"), dict):
                raise AerieError(f"{where}: event {i}: an action event holds the action as a table")
            actions.append(e["action"])
    save = {"type": "save", "version": head.get("version", 1) if head.get("version") in READABLE_VERSIONS else 1,
            "actions": actions, "events": evs}
    for k in ("scene", "seed", "options", "scene_file", "scene_hash"):
        if k in head:
            save[k] = head[k]
    return load(cls, save, scene, base_dir, where)


def read_file(path) -> dict | list:

    text = read_text(path, SAVE_MAX_BYTES, str(path))
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise AerieError(f"{path}: not JSON ({e.msg} at line {e.lineno}; a truncated save?)") from None
    except (RecursionError, ValueError):
        raise AerieError(f"{path}: JSON nested too deep") from None


def load_file(cls, path, scene=None):
    """A save (``.json``) or an event log (``.jsonl``) from disk; its scene is looked up from the file's folder too."""
    p = Path(path)
    if p.suffix == ".jsonl":

        return from_log(cls, read_text(p, SAVE_MAX_BYTES, str(p)).splitlines(), scene, p.parent, str(p))
    return load(cls, read_file(p), scene, p.parent, str(p))


def write_file(session, path) -> Path:
    """The save, written atomically (engine.outputs)."""

    return write_output(path, json.dumps(session.save(), indent=1, sort_keys=True).encode("utf-8"), "the save")
