"""Typed, strict tables from TOML data: msgspec structs whose errors name the file and the key path.

The world's scene-file tables (engine/world/scene.py, engine/world/objects.py) and the scene layer above the rules
(engine/scene) convert through :func:`convert`, so every refusal reads the same
(``scenes/x.toml: map.fill[2].material: required key is missing``)."""

from __future__ import annotations

import re

import msgspec

from engine.errors import SceneError


class Strict(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    pass


def msgspec_path(msg: str) -> tuple[str, str]:
    """Split msgspec's "problem - at `$.a[1].b`" into (path, problem)."""
    m = re.search(r" - at `\$(.*)`$", msg, re.S)
    if not m:
        return "", msg
    path = m.group(1).lstrip(".")
    return path, msg[: m.start()]


def convert(data, typ, file: str, base: str):
    try:
        return msgspec.convert(data, typ)
    except msgspec.ValidationError as e:
        path, problem = msgspec_path(str(e))
        m = re.match(r"Object contains unknown field `(.+)`", problem, re.S)
        if m:
            path = f"{path}.{m.group(1)}" if path else m.group(1)
            problem = "unknown key"
        m = re.match(r"Object missing required field `(.+)`", problem, re.S)
        if m:
            path = f"{path}.{m.group(1)}" if path else m.group(1)
            problem = "required key is missing"
        full = base + ("." if base and path and not path.startswith("[") else "") + path if path else base
        raise SceneError(file, full, problem.replace("`", "")) from None
