"""Where Aerie's own files are: ``shaders/``, ``assets/`` and ``scenes/``.

This is the one place code looks them up. In the repository they sit at the root, next to ``engine/``; the wheel
build (``[tool.hatch.build.targets.wheel.force-include]`` in pyproject.toml) maps the same folders into the
package as ``engine/_data/shaders``, ``engine/_data/assets`` and ``engine/_data/scenes``. :func:`resource_dir`
asks ``importlib.resources`` for the package's files and takes ``_data/<kind>`` when the install has it, else
the folder of that name beside the package (a source checkout or an editable install).
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

KINDS = ("shaders", "assets", "scenes")


@functools.cache
def resource_dir(kind: str) -> Path:
    """The folder holding Aerie's shipped ``kind`` files (``"shaders"``, ``"assets"`` or ``"scenes"``)."""
    if kind not in KINDS:
        raise ValueError(f"unknown resource kind {kind!r}: one of {', '.join(KINDS)}")
    # An installed package is a plain folder on disk (the wheel is unpacked), so the Traversable is a Path.
    package = Path(str(resources.files("engine")))
    shipped = package / "_data" / kind
    if shipped.is_dir():
        return shipped
    return package.parent / kind


def shipped_scene(name: str) -> Path | None:
    """A scene shipped with Aerie, named with or without ``.toml`` (``showcase``, ``air_fall_table.toml``);
    None when ``name`` is a path or names no shipped scene."""
    if not name or "/" in name or "\\" in name or name.startswith("."):
        return None
    stem = name[:-5] if name.endswith(".toml") else name
    path = resource_dir("scenes") / f"{stem}.toml"
    return path if path.is_file() else None


def shipped_scenes() -> list[str]:
    """The names of the shipped scenes, for help texts and error messages."""
    return sorted(p.stem for p in resource_dir("scenes").glob("*.toml"))
