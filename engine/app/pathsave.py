"""Save a camera path made in the window into its scene file (issue 42), as ``[[flythrough]]`` keys with
``path = "NAME"``.

The file is edited as text, so everything else the user wrote stays as it was, comments and order included: the
``[[flythrough]]`` tables of that path (and only those) are taken out, the new ones are added at the end. The new
text is then read back: it must load as a scene (every check ``aerie run`` makes), hold the same data as before
apart from that path, and hold the path as given; only then is it written, atomically (whole or not at all).
Pure Python (no window).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from engine.errors import AerieError
from engine.outputs import atomic_path
from engine.scene.flypaths import DEFAULT_PATH, PATH_NAME

_HEADER = re.compile(r"^\s*\[")
_MARK = "# camera path {name!r}: made in the window"
_FLY = re.compile(r"^\s*\[\[\s*flythrough\s*\]\]\s*(#.*)?$")


def _fmt(v) -> str:
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    if isinstance(v, float):
        return repr(round(v, 4))
    return repr(v)


def key_table(name: str, k: dict) -> str:
    """One ``[[flythrough]]`` table for a key {t, position, look_at, fov, easing}."""
    lines = ["[[flythrough]]", f"path = {_fmt(name)}"]
    for f in ("t", "position", "look_at", "fov", "easing"):
        if f in k and k[f] is not None:
            v = k[f]
            lines.append(f"{f} = {_fmt([float(x) for x in v] if f in ('position', 'look_at') else v)}")
    return "\n".join(lines) + "\n"


def _path_of(table: dict) -> str:
    return str(table.get("path", DEFAULT_PATH))


def without_path(text: str, name: str) -> str:
    """The text with the ``[[flythrough]]`` tables of path ``name`` taken out (a table runs from its header to the
    next header; the comment lines right above a removed table go with it)."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not _FLY.match(lines[i]):
            out.append(lines[i])
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not _HEADER.match(lines[j]):
            j += 1
        body = "".join(lines[i + 1:j])
        try:
            table = tomllib.loads(body)
        except tomllib.TOMLDecodeError:
            table = {}
        if _path_of(table) == name:
            mark = _MARK.format(name=name)
            if out and out[-1].startswith(mark):        # the line this module wrote above the path
                out.pop()
                if out and not out[-1].strip():
                    out.pop()
            last = max((k for k in range(i, j) if lines[k].strip() and not lines[k].lstrip().startswith("#")),
                       default=i)
            out.extend(lines[last + 1:j])       # comments after the table's last key belong to what follows
            i = j
            continue
        out.extend(lines[i:j])
        i = j
    return "".join(out)


def _others(data: dict, name: str) -> dict:
    d = dict(data)
    d["flythrough"] = [k for k in data.get("flythrough", []) if _path_of(k) != name]
    return d


def path_text(text: str, name: str, keys: list[dict]) -> str:
    body = without_path(text, name).rstrip("\n") + "\n"
    head = "\n" + _MARK.format(name=name) + f" (camera-path mode); `aerie flythrough SCENE --path {name!r} " \
                                              "-o fly.mp4`\n"
    return body + head + "\n".join(key_table(name, k) for k in keys)


def save_path(scene_file, name: str, keys: list[dict]) -> Path:
    """Write the path into the scene file; returns the file. One line (AerieError) when it cannot."""
    from engine.scene import parse_scene

    p = Path(scene_file)
    if not re.fullmatch(PATH_NAME, name) or name.strip() != name:
        raise AerieError(f"{name!r} is not a path name (1 to 64 letters, digits, spaces, _ and -)")
    if not keys:
        raise AerieError("the path has no keys (Enter adds one at the current view)")
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise AerieError(f"{p}: cannot read the scene file ({e.strerror or e})") from None
    new = path_text(text, name, keys)
    old_data, new_data = tomllib.loads(text), tomllib.loads(new)
    if _others(old_data, name) != _others(new_data, name):
        raise AerieError(f"{p}: saving the path would change the rest of the scene; nothing written")
    written = [k for k in new_data.get("flythrough", []) if _path_of(k) == name]
    if len(written) != len(keys) or any(abs(w["t"] - float(k["t"])) > 1e-3 for w, k in zip(written, keys)):
        raise AerieError(f"{p}: the path did not read back as written; nothing written")
    parse_scene(new, str(p), p.parent)            # every check a scene load makes (raises one line)
    with atomic_path(p, "the scene") as tmp:
        Path(tmp).write_text(new, encoding="utf-8")
    return p
