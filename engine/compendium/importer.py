"""``aerie import ACTOR.json -o creatures.toml``: a Foundry VTT dnd5e actor export (2.x-3.x or 4.x-5.x items) or a
5e-database monster (one or an array) made into a stat-block library in the format of
``assets/statblocks/dnd5e.toml``, which a scene names with ``statblocks = ["creatures.toml"]`` and ``kind = "<id>"``.

Every creature goes through engine/compendium/fivee_db.py (a Foundry actor is read as a 5e-database monster first,
engine/compendium/foundry_actor.py) and srd_blocks.character, exactly as the shipped SRD bestiary: an import of an
SRD creature equals the shipped one. Each feature the rules do not play is one warning line and is kept as text in
the block (``not_modelled``). A bad file is one line naming the file and the key, exit 2, nothing written.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from engine.compendium import fivee_db, foundry_actor
from engine.errors import AerieError

MAX_BYTES = 32 * 1024 * 1024


def looks_like_creatures(data) -> bool:
    """A Foundry actor, a 5e-database monster, or an array of either (``aerie import`` sends it here)."""
    first = data[0] if isinstance(data, list) and data else data
    return foundry_actor.is_actor(first) or (isinstance(first, dict) and "challenge_rating" in first
                                             and "hit_points" in first)


def records(data, file: str) -> list[dict]:
    """The creature records of the file's JSON; one line naming the file and the key when it is not one."""
    items = data if isinstance(data, list) else [data]
    if not items:
        raise AerieError(f"{file}: an empty array: no actor or monster to import")
    if len(items) > 2000:
        raise AerieError(f"{file}: {len(items)} creatures: at most 2000 in one file")
    out = []
    for i, d in enumerate(items):
        where = f"[{i}]" if isinstance(data, list) else ""
        try:
            m = foundry_actor.monster(d, where or "actor") if foundry_actor.is_actor(d) else d
            out.append(fivee_db.creature(m, where or "monster"))
        except fivee_db.BadMonster as e:
            raise AerieError(f"{file}: {e.key}: {e.problem}") from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, ZeroDivisionError, RecursionError,
                OverflowError) as e:
            raise AerieError(f"{file}: {where or 'actor'}: cannot be read as a creature ({type(e).__name__})") \
                from None
    return out


def block_id(rec: dict) -> str:
    s = re.sub(r"[^a-z0-9]+", "_", rec["id"].lower()).strip("_")
    s = s if s and s[0].isalpha() else f"c_{s}"
    return s[:41]


def block(rec: dict) -> tuple[str, dict, list[str]]:
    """(block id, table, warnings): the creature as a library block; features not played kept as text."""
    from engine.rules.dnd5e.srd_blocks import character, feature_status

    t = {"about": f"{rec['name']}: {rec['size']} {rec['type']}, CR {rec['cr']:g} (imported)", **character(rec)}
    left, warnings = {}, []
    for sec in ("traits", "actions", "reactions", "legendary_actions"):
        for f in rec[sec]:
            ok, why = feature_status(rec, sec, f)
            if not ok:
                left[f["name"]] = f["desc"][:2000]
                warnings.append(f"{rec['name']}: {f['name']}: not modelled ({why}); kept as text")
    if left:
        t["not_modelled"] = left
    return block_id(rec), t, warnings


def library_text(blocks: list[tuple[str, dict]], source: str) -> str:
    from engine.tomlwrite import _key, value

    lines = [f"# A stat-block library written by `aerie import {source}` (the format of assets/statblocks/dnd5e.toml).",
             "# A scene names it: statblocks = [\"this file\"], then [[characters]] kind = \"<block>\"."]
    for bid, table in blocks:
        lines.append(f"\n[{bid}]")
        lines += [f"{_key(k)} = {value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"


def cmd_import_creatures(src: Path, out: Path, data) -> int:
    from engine.outputs import check_output_path, write_text_output

    file = str(src)
    if out.suffix != ".toml":
        raise AerieError(f"-o {out}: a stat-block library is a .toml file")
    check_output_path(out, None, [src], what="-o")
    recs = records(data, file)
    blocks: list[tuple[str, dict]] = []
    warnings: list[str] = []
    seen: dict[str, int] = {}
    for r in recs:
        bid, t, said = block(r)
        if bid in seen:
            raise AerieError(f"{file}: {r['name']}: a second creature with the block id {bid!r}")
        seen[bid] = 1
        blocks.append((bid, t))
        warnings += said
    for (bid, t), r in zip(blocks, recs):
        _playable(bid, t, r, file)
    text = library_text(blocks, f"{src.name} -o {out.name}")
    write_text_output(out, text, "-o")
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
    print(f"wrote {out}: {len(blocks)} stat block(s) ({', '.join(b for b, _ in blocks[:8])}"
          f"{', ...' if len(blocks) > 8 else ''}); {len(warnings)} feature(s) kept as text only")
    return 0


def _playable(bid: str, t: dict, rec: dict, file: str) -> None:
    """The block loads in a 5e scene (every key checked as a scene's), or one line naming the creature."""
    from engine.errors import SceneError
    from engine.scene.load import scene_from_data

    data = {"name": "import check", "ruleset": "dnd5e", "map": {"size": [24, 24, 16]},
            "characters": [{"id": "c", "at": [1, 1, 0], "kind": bid}]}
    try:
        scene_from_data(data, file, Path("."), libraries={bid: t})
    except SceneError as e:
        msg = str(e).split(": ", 2)[-1]
        raise AerieError(f"{file}: {rec['name']}: its stat block would not play: {msg}") from None


def read_json(src: Path):
    from engine.inputs import read_bounded

    raw = read_bounded(src, MAX_BYTES, str(src), AerieError)
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise AerieError(f"{src}: not JSON: {str(e)[:120]}") from None
