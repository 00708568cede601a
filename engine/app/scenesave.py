"""Save the table as a scene (the GM's ``save scene PATH.toml``): the map, materials, cameras and objects of the scene
being played, with the characters as they stand now -- the scene's own and those the GM added, where they are,
their sides and names, and their HP and conditions where the ruleset's scene keys hold them. The turn order,
used resources and broken terrain start afresh (a new encounter, not a save game: Ctrl+S keeps those).

Pure Python (no window). The TOML is built in memory, read back and checked by the scene loader (every check an
``aerie run`` makes) before anything is written; then it is written atomically (engine.outputs): whole or not at
all. A refusal is one line naming the key.
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

from engine.errors import AerieError
from engine.tomlwrite import _BARE, _key, value  # noqa: F401  (scenes and stat-block libraries write TOML alike)

ASSET_KEYS = (("map", "vox"), ("map", "ground_image"))


def to_toml(data: dict) -> str:
    """``data`` as TOML: top-level values, then tables (``[map]``), then arrays of tables (``[[characters]]``)."""
    head: list[str] = []
    tables: list[str] = []
    arrays: list[str] = []

    def one(b) -> str:          # an array of tables (a map's fill boxes): one a line
        if isinstance(b, list) and len(b) > 1 and all(isinstance(x, dict) for x in b):
            return "[\n" + "".join(f"  {value(x)},\n" for x in b) + "]"
        return value(b)

    def body(d: dict) -> str:
        return "".join(f"{_key(str(a))} = {one(b)}\n" for a, b in d.items())

    for k, v in data.items():
        if k == "materials" and isinstance(v, dict) and v and all(isinstance(x, dict) for x in v.values()):
            tables += [f"\n[{_key(k)}.{_key(str(kk))}]\n" + body(x) for kk, x in v.items()]   # a table of tables
        elif isinstance(v, dict) and v:
            tables.append(f"\n[{_key(k)}]\n" + body(v))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            arrays += [f"\n[[{_key(k)}]]\n" + body(x) for x in v]
        else:
            head.append(f"{_key(k)} = {value(v)}\n")
    return "".join(head) + "".join(tables) + "".join(arrays)


def character_tables(session) -> tuple[list[dict], list[str]]:
    """The characters as they stand, as scene tables (turn order first), and the names of the dead left out."""
    from engine.rules.schemas import character_schema

    base = {c.id: dict(c.raw) for c in session.scene.characters}
    for e in session.events:                      # the GM's additions carry the table they were made from
        if e.get("type") == "gm" and e.get("what") == "add" and isinstance(e.get("table"), dict):
            base[e["who"]] = dict(e["table"])
    fields = set(getattr(character_schema(session.scene.ruleset), "__struct_fields__", ()))
    st = session.state
    ids = [i for i in st.order if i in st.actors] + [i for i in st.actors if i not in st.order]
    out, dead = [], []
    for aid in ids:
        a = st.actors[aid]
        if a.dead:
            dead.append(a.name)
            continue
        t = {"id": aid, "name": a.name, "side": a.side, "at": list(a.pos), "flying": bool(a.flying)}
        t.update({k: v for k, v in base.get(aid, {}).items() if k not in t})     # who and where first, then the stats
        if "hp" in fields:
            t.pop("hp", None)
            if a.hp != a.max_hp:
                t["hp"] = int(a.hp)
        if "temp_hp" in fields:
            t.pop("temp_hp", None)
            if a.temp_hp:
                t["temp_hp"] = int(a.temp_hp)
        if "conditions" in fields:
            # a condition another character holds it in (a grapple) ends with the encounter; the rest carry on
            conds = sorted(c for c, src in a.conditions.items() if not any(s in st.actors for s in (src or ())))
            t.pop("conditions", None)
            if conds:
                t["conditions"] = conds
        out.append(t)
    return out, dead


def _source_data(scene) -> dict:
    if scene.source and Path(scene.source).is_file():
        try:
            return tomllib.loads(Path(scene.source).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            pass
    import msgspec

    data = msgspec.to_builtins(scene.spec)
    if getattr(scene, "view", None) is not None:
        data["view"] = {k: v for k, v in msgspec.to_builtins(scene.view).items() if v is not None}
    return data


def _move_assets(data: dict, old_dir: Path, new_dir: Path, out: Path) -> None:
    """Asset paths are relative to the scene's folder and must stay inside it: rewritten for the new folder, or
    one clear refusal when the file would be outside it."""
    for table, key in ASSET_KEYS:
        rel = (data.get(table) or {}).get(key)
        if not isinstance(rel, str) or rel.startswith("@"):
            continue
        src = (old_dir / rel).resolve()
        try:
            data[table][key] = Path(os.path.relpath(src, new_dir.resolve())).as_posix()
        except ValueError:
            data[table][key] = ".."
        if data[table][key].startswith(".."):
            raise AerieError(f"{out}: {table}.{key} = {rel!r} is in {old_dir}: a scene's files stay in its folder, "
                             f"so save the scene in {old_dir} (or a folder below it)")


def scene_text(session, out: Path, name: str | None = None) -> tuple[str, list[str]]:
    """The scene file's text for the table as it stands (checked by the scene loader), and the dead left out."""
    from engine.scene import scene_from_data

    sc = session.scene
    data = _source_data(sc)
    chars, dead = character_tables(session)
    data = {k: v for k, v in data.items() if k not in ("script", "expect", "characters")}
    data["name"] = name or f"{sc.name} (the GM's encounter)"
    data["seed"] = int(session.seed)
    if data.get("initiative_starts") not in {c["id"] for c in chars}:
        data.pop("initiative_starts", None)
    old_dir = Path(sc.source).parent if sc.source else Path(sc.path).parent
    _move_assets(data, old_dir, out.parent if str(out.parent) else Path("."), out)
    data["characters"] = chars
    text = to_toml(data)
    back = tomllib.loads(text)
    if json.dumps(back, sort_keys=True, default=str) != json.dumps(data, sort_keys=True, default=str):
        raise AerieError(f"{out}: the scene did not read back as written (a value TOML cannot hold)")
    scene_from_data(back, str(out), out.parent if str(out.parent) else Path("."))   # every check aerie run makes
    return (f"# Saved from the table of {sc.path} ({len(session.actions)} action(s) played): "
            f"the characters as they stood.\n" + text), dead


def save_scene(session, path, name: str | None = None) -> tuple[Path, list[str]]:
    """Write the table as a new scene at ``path`` (.toml), whole or not at all; returns (path, dead left out)."""
    from engine.outputs import check_output_path, write_text_output
    from engine.scene import scene_inputs

    out = check_output_path(path, exts=(".toml",), inputs=scene_inputs(session.scene), what="the scene")
    text, dead = scene_text(session, out, name)
    write_text_output(out, text, "the scene")
    return out, dead
