"""``aerie import MAP -o scene.toml`` and ``aerie export SCENE -o scene.glb``."""

from __future__ import annotations

import shlex
import tomllib
from pathlib import Path

from engine.errors import AerieError
from engine.interop.common import (InteropError, MAX_FILE_BYTES, character_keys, check_image, display, read_file,
                                   read_json, toml_key)

MAX_THICKNESS = 64        # cells: --thickness (a wall that thick already fills most maps)
DEFAULTS = dict(wall_height=3.0, object_height=1.0, thickness=1, wall_material="stone", doors="object",
                cells_per_grid=1, grid_m=1.5, floor_material="wood", lock_dc=15)


def add_arguments(sub, positive, seed=int) -> None:
    """Register both commands on the CLI's subparsers (engine/cli.py)."""
    s = sub.add_parser("import", help="import a Universal VTT (.dd2vtt/.df2vtt/.uvtt) or Foundry VTT scene as a scene, "
                                      "or creatures (a Foundry actor, 5e-database monsters) as a stat-block library")
    s.add_argument("map", help="the .dd2vtt / .df2vtt / .uvtt file, a Foundry scene .json, a Foundry .db compendium, "
                               "or creatures: a Foundry VTT actor export or 5e-database monsters (.json)")
    s.add_argument("-o", "--output", required=True, metavar="SCENE.toml",
                   help="the scene to write (its .vox map and ground image go beside it)")
    s.add_argument("--wall-height", type=positive(float), default=DEFAULTS["wall_height"], metavar="M",
                   help="height of walls that have no top of their own (default 3 m)")
    s.add_argument("--object-height", type=positive(float), default=DEFAULTS["object_height"], metavar="M",
                   help="height of object lines (furniture, low walls; default 1 m)")
    s.add_argument("--thickness", type=positive(int, MAX_THICKNESS), default=1, metavar="CELLS",
                   help=f"wall thickness in cells (default 1, at most {MAX_THICKNESS})")
    s.add_argument("--wall-material", default="stone", metavar="NAME",
                   help="the material of the walls (default stone)")
    s.add_argument("--doors", choices=("object", "wall", "gap"), default="object",
                   help="closed doors become [[objects]] doors that open, lock and break (default), walls of "
                        "material door, or gaps; open doors are always gaps")
    s.add_argument("--lock-dc", type=positive(int), default=15, metavar="DC",
                   help="the DC of locked doors' locks (default 15; the rules leave it to the game master)")
    s.add_argument("--floor-material", default="wood", metavar="NAME",
                   help="the material of the storeys' floors (default wood)")
    s.add_argument("--layers", type=positive(int), metavar="Z", help="the map's height in layers (default: auto)")
    s.add_argument("--cells-per-grid", type=positive(int), default=1, metavar="N",
                   help="cells per grid square (default 1: a 5 ft square is one 1.5 m cell)")
    s.add_argument("--grid-m", type=positive(float), default=1.5, metavar="M",
                   help="metres per grid square (default 1.5, i.e. 5 ft)")
    s.add_argument("--scene", metavar="NAME", help="a Foundry compendium (.db) with several scenes: which one")
    s.add_argument("--characters", metavar="FILE.toml",
                   help='character keys per token name: [characters."Token name"] kind = "archer" ...')
    g = s.add_mutually_exclusive_group()
    g.add_argument("--image", metavar="FILE", help="the map image, when the file does not carry it")
    g.add_argument("--no-image", action="store_true", help="import without a ground image")

    s = sub.add_parser("export", help="export a scene's voxels and characters as glTF 2.0 (.glb)")
    s.add_argument("scene", help="a scene file (.toml), or the name of a shipped scene")
    s.add_argument("-o", "--output", required=True, metavar="SCENE.glb", help="the glTF 2.0 binary file to write")
    s.add_argument("--step", type=int, default=0, metavar="N", help="the state after the first N script steps")
    s.add_argument("--seed", type=seed, help="the dice seed for --step (default: the scene's)")


def _mapping(path: str | None) -> dict:
    """``--characters FILE.toml``: ``[characters."Token name"]`` tables of character keys, read bounded (a FIFO or a
    device is refused, never read) and each table checked as a token's ``flags.aerie`` is."""
    if not path:
        return {}
    from engine.inputs import SCENE_MAX_BYTES, read_text

    file = display(path)
    text = read_text(path, SCENE_MAX_BYTES, file)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise AerieError(f"{file}: not a TOML file: {e}") from None
    except RecursionError:
        raise AerieError(f"{file}: TOML nested too deep") from None
    except ValueError as e:              # an integer of thousands of digits (Python's int limit)
        raise AerieError(f"{file}: cannot be read: {e}") from None
    table = data.get("characters", {})
    if not isinstance(table, dict) or not all(isinstance(v, dict) for v in table.values()):
        raise AerieError(f"{file}: characters: must be tables by token name, e.g. [characters.\"Goblin\"]")
    return {name: character_keys(v, file, f"characters.{toml_key(name)}") for name, v in table.items()}


def read_map(path: Path, *, cells_per_grid=1, grid_m=1.5, want_image=True, scene_name=None, want_ground=True):
    """Either reader, by content (not by extension)."""
    from engine.interop import foundry, uvtt

    file = display(path)
    data = read_json(path, file)
    if isinstance(data, list):
        data, idx = foundry.pick_scene(data, file, scene_name)
        return foundry.read_foundry(data, file, path.parent, cells_per_grid=cells_per_grid, grid_m=grid_m,
                                    want_image=want_image, prefix=f"{idx}.", want_ground=want_ground)
    if uvtt.is_uvtt(data):
        return uvtt.read_uvtt(data, file, path.parent, cells_per_grid=cells_per_grid, grid_m=grid_m,
                              want_image=want_image and want_ground)
    if foundry.is_foundry(data):
        return foundry.read_foundry(data, file, path.parent, cells_per_grid=cells_per_grid, grid_m=grid_m,
                                    want_image=want_image, want_ground=want_ground)
    if isinstance(data, dict):
        keys = ", ".join(list(data)[:6]) or "none"
        raise InteropError(file, "", f"neither a Universal VTT map (no resolution) nor a Foundry scene (walls, width, "
                                     f"grid); its keys: {keys}")
    raise InteropError(file, "", "neither a Universal VTT map nor a Foundry scene (a JSON object)")


def cmd_import(args) -> int:
    from engine.interop.build import Options, build_scene
    from engine.inputs import check_file

    src = Path(args.map)
    out = Path(args.output)
    creatures = _creatures(src)
    if creatures is not None:            # a Foundry actor or 5e-database monsters: a stat-block library
        from engine.compendium.importer import cmd_import_creatures

        return cmd_import_creatures(src, out, creatures)
    if out.suffix != ".toml":
        raise AerieError(f"-o {args.output}: the scene must be a .toml file")
    m = read_map(src, cells_per_grid=args.cells_per_grid, grid_m=args.grid_m,
                 want_image=not args.no_image, want_ground=not args.image, scene_name=args.scene)
    # the command's own files: no output of the import may replace one (the images the map names are in m.inputs)
    inputs = [(src, f"the map file {display(src)}")]
    if args.image:
        p = Path(args.image)
        check_file(p, MAX_FILE_BYTES, f"--image {args.image}")
        m.image = check_image(read_file(p, MAX_FILE_BYTES, display(p)), display(p), "", display(p))
        inputs.append((p, f"--image {display(p)}"))
    if args.characters:
        inputs.append((Path(args.characters), f"--characters {display(args.characters)}"))
    opt = Options(args.wall_height, args.object_height, args.thickness, args.wall_material, args.doors, args.layers,
                  args.cells_per_grid, args.grid_m, args.floor_material, args.lock_dc)
    import sys

    command = "aerie import " + " ".join(shlex.quote(a) for a in [Path(args.map).name, "-o", out.name]
                                         + _flags(args))
    summary = build_scene(m, opt, out, command, _mapping(args.characters),
                          display(args.characters) if args.characters else "--characters", inputs)
    for w in m.warnings:                # written whole: say what is missing (one line each), then what was written
        print(f"warning: {w}", file=sys.stderr)
    X, Y, Z = summary["size"]
    img = f" and {display(summary['image'])}" if summary["image"] else ""
    print(f"wrote {display(out)}{img}: {m.fmt}, {X} x {Y} cells x {Z} layers, {summary['walls']} wall segments in "
          f"{summary['fills']} fill boxes, {summary['floors']} storey floor(s), {summary['doors']} door object(s), "
          f"{summary['characters']} characters" + (f"; the file's 0 is layer {summary['shift']}" if summary["shift"] else ""))
    return 0


def _creatures(src: Path):
    """The JSON of ``src`` when it holds creatures (engine/compendium/importer.py), else None (a map)."""
    from engine.compendium.importer import MAX_BYTES, looks_like_creatures, read_json

    try:
        if src.suffix.lower() != ".json" or not src.is_file() or src.stat().st_size > MAX_BYTES:
            return None
    except OSError:
        return None
    try:
        data = read_json(src)
    except AerieError:
        return None                      # not JSON at all: the map reader says why, as it always did
    return data if looks_like_creatures(data) else None


def _flags(args) -> list[str]:
    out = []
    for k in ("wall_height", "object_height", "thickness", "wall_material", "doors", "layers", "cells_per_grid",
              "grid_m", "floor_material", "lock_dc", "scene", "characters", "image"):
        v = getattr(args, k)
        if v is not None and v != DEFAULTS.get(k):
            out += ["--" + k.replace("_", "-"), str(v)]
    if args.no_image:
        out.append("--no-image")
    return out


def cmd_export(args) -> int:
    from engine.interop.gltf import export_glb
    from engine.outputs import check_output_path
    from engine.scene import load_scene, scene_inputs

    scene = load_scene(args.scene)
    # -o may be none of the files the scene reads (a .glb over a shipped model, which the export reads, was replaced)
    check_output_path(args.output, None, scene_inputs(scene), what="-o")
    out = Path(args.output)
    if out.suffix.lower() != ".glb":
        raise AerieError(f"-o {args.output}: the export is binary glTF, a .glb file")
    if args.step < 0:
        raise AerieError(f"--step {args.step}: must be 0 or more")
    info = export_glb(scene, out, step=args.step, seed=args.seed)
    print(f"wrote {display(out)}: {info['triangles']} triangles ({info['terrain_triangles']} terrain), "
          f"{len(info['materials'])} materials, {info['characters']} characters; +Y up, metres"
          + (f"; after step {args.step}" if args.step else ""))
    return 0

