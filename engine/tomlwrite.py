"""TOML values written by hand (tomllib only reads): one writer for saved scenes (engine/app/scenesave.py) and the
stat-block libraries `aerie import` writes (engine/compendium/importer.py), kept outside both so neither package
imports the other."""

from __future__ import annotations

import json
import math
import re

from engine.errors import AerieError

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _key(k: str) -> str:
    return k if _BARE.fullmatch(k) else json.dumps(k, ensure_ascii=False)


def value(v) -> str:
    """One TOML value (inline tables and arrays for nested data)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise AerieError(f"cannot write {v} in a scene")
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value(i) for i in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(str(k))} = {value(x)}" for k, x in v.items()) + " }" if v else "{}"
    raise AerieError(f"cannot write a {type(v).__name__} in a scene")
