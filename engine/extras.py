"""Optional parts of Aerie and what to install when one is missing.

The base install draws, plays and checks scenes. Two extras add heavy parts: ``video`` (the ffmpeg that
imageio-ffmpeg ships: ``aerie flythrough``, ``aerie replay``, the demo's video) and ``bench`` (trimesh's ray
casters, Embree through embreex and rtree: ``aerie bench los`` and the exact line-of-sight oracle). A missing one
is an :class:`AerieError` that names the extra and the ``pip install`` line, never a traceback.
"""

from __future__ import annotations

import importlib.util

from engine.errors import AerieError

DISTRIBUTION = "aerie-sandbox"

# top-level module -> the extra that installs it
EXTRA_OF = {
    "imageio_ffmpeg": "video",
    "embreex": "bench",
    "rtree": "bench",
    "ray": "cluster",
    "pyarrow": "parquet",
    "aiohttp": "serve",
    "segno": "serve",
    "imageio": "test",
    "pytest": "test",
}

# base dependencies: a missing one means a broken install, not a missing extra
BASE = ("numpy", "moderngl", "glcontext", "pyglet", "trimesh", "msgspec", "PIL")


class MissingExtra(AerieError):
    """An optional dependency is not installed."""


def install_hint(module: str) -> str | None:
    """What to run to get ``module`` (a top-level module name), or None for a module Aerie does not know."""
    top = module.split(".")[0]
    if top in EXTRA_OF:
        return f"pip install '{DISTRIBUTION}[{EXTRA_OF[top]}]'"
    if top in BASE:
        return f"pip install --force-reinstall {DISTRIBUTION} (a dependency of the base install is missing)"
    return None


def missing_message(module: str, what: str) -> str:
    top = module.split(".")[0]
    extra = EXTRA_OF.get(top)
    part = f" (the '{extra}' extra)" if extra else ""
    hint = install_hint(top)
    return f"{what} needs the Python package {top}{part}, which is not installed" + (f": {hint}" if hint else "")


def require(*modules: str, what: str) -> None:
    """Raise :class:`MissingExtra` naming the first of ``modules`` that cannot be imported."""
    for m in modules:
        if importlib.util.find_spec(m) is None:
            raise MissingExtra(missing_message(m, what))
