"""The stat-block library shipped with Aerie: ``assets/statblocks/<ruleset>.toml`` (in the wheel
``engine/_data/assets/statblocks``, see engine/resources.py), one table per block.

A block is a scene character's table without ``id``, ``at`` and ``side`` -- the keys of ``[[characters]]`` in a
scene of that ruleset -- plus ``about``, one line for the GM. The GM's ``gm_add`` (engine/rules/gm.py) takes one by
name (``block = "knight"``) and gives it the id, place, side and name; a saved scene (engine/app/scenesave.py)
writes the table back as an ordinary character. The file is named after the ruleset (the registry's name), so
shared code never names one.
"""

from __future__ import annotations

import functools
import re
import tomllib

from engine.errors import AerieError
from engine.resources import resource_dir
from engine.rules.core import BadAction

PLACED = ("id", "at", "side")          # what the GM gives a block when it is added, never the block itself
NAME_RE = re.compile(r"[a-z][a-z0-9_]{0,40}")


def library_path(ruleset: str):

    return resource_dir("assets") / "statblocks" / f"{ruleset}.toml"


@functools.cache
def library(ruleset: str) -> dict[str, dict]:
    """``{block name: table}`` for ``ruleset`` ({} when it ships none). A broken library file is one clear line."""
    p = library_path(ruleset)
    if not p.is_file():
        return {}
    where = f"assets/statblocks/{p.name}"
    return read_library(p, where, lambda m: AerieError(f"{where}: {m}"))


def read_library(p, where: str, err) -> dict[str, dict]:
    """``{block name: table}`` of the library file ``p``; ``err(message)`` makes the one-line error (the shipped
    library's, or a scene's ``statblocks`` file's)."""
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise err(f"cannot read the stat-block library {where}: {e}") from None
    out = {}
    for name, table in data.items():
        if not NAME_RE.fullmatch(name) or not isinstance(table, dict):
            raise err(f"{name}: a block is a table named in lowercase letters, digits and _")
        bad = [k for k in PLACED if k in table]
        if bad:
            raise err(f"{name}.{bad[0]}: a block has no {', '.join(PLACED)} (the GM gives them)")
        out[name] = dict(table)
    return out


def block(ruleset: str, name: str, path: str = "block") -> dict:
    """The character table of block ``name`` (``about`` left out), or one clear refusal listing the blocks."""

    lib = library(ruleset)
    key = str(name).strip().lower().replace(" ", "_")
    if key not in lib:
        have = ", ".join(sorted(lib)) or f"none: assets/statblocks/{ruleset}.toml is missing"
        raise BadAction(f"no stat block {name!r} in the {ruleset} library (blocks: {have})", "", path)
    return {k: v for k, v in lib[key].items() if k != "about"}


def about(ruleset: str) -> list[tuple[str, str]]:
    """[(block name, its line for the GM)] in the library's order: the GM line's help."""
    return [(n, str(t.get("about", t.get("name", n)))) for n, t in library(ruleset).items()]
