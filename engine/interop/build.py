"""An ImportedMap to an ordinary Aerie scene: voxels from the walls, fill boxes, characters, TOML text, files.

The scene is a TOML file plus the map image beside it (``[map] ground_image``). Everything is built and checked
in memory (the TOML is parsed back through the scene loader) before anything is written; then the image and the
TOML are written to temporary names and renamed into place, the TOML last.
"""

from __future__ import annotations

import json
import math
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.errors import AerieError
from engine.interop.common import ImportedMap, InteropError
from engine.interop.raster import boxes, dilate, segment_cells

# The materials an import writes (besides the built-in ones the options may name).
MATERIALS: dict[str, dict[str, str | bool]] = {      # each written as a [materials.NAME] table of the scene
    "door": {"color": "#7a5230"},
    "obstacle": {"color": "#8a6a44"},
    "barrier": {"color": "#b4d2e6", "blocks_sight": False, "translucent": True},   # blocks movement, not sight
    "veil": {"color": "#3c3c46", "solid": False},                                  # blocks sight, not movement
}
KIND_MATERIAL = {"object": "obstacle", "door": "door", "barrier": "barrier", "veil": "veil"}
TOKEN_SIZES = ((0.75, "small"), (1.5, "medium"), (2.5, "large"), (3.5, "huge"), (math.inf, "gargantuan"))


@dataclass
class Options:
    wall_height: float = 3.0         # metres (layers): walls without their own top
    object_height: float = 1.0       # metres: object lines (furniture, low walls), half cover for a crouched body
    thickness: int = 1               # cells
    wall_material: str = "stone"
    doors: str = "wall"              # closed doors: "wall" (a door-material wall) or "gap"; open doors are gaps
    layers: int | None = None        # the map's height; None: the tallest wall + 8, at least 12
    cells_per_grid: int = 1
    grid_m: float = 1.5              # metres per grid square (5 ft)


def _toml_str(s: str) -> str:
    return json.dumps(str(s), ensure_ascii=False).replace("\x7f", "\\u007f")


def _slug(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_]+", "_", name.strip()).strip("_").lower()
    return s or "token"


def door_cells(w, cells, X: int, Y: int):
    """A door takes the cells of its segment whose centres lie between its ends (so a door one square wide on the
    grid is one cell, not the two its end points touch); a door that no cell centre falls within (half a square
    off the grid) takes the one cell under its middle, so it never cuts into the wall it ends against."""
    (ax, ay), (bx, by) = w.a, w.b
    dx, dy = bx - ax, by - ay
    n2 = dx * dx + dy * dy
    if n2 == 0:
        return cells
    inner = [c for c in cells if 0 < ((c[0] + 0.5 - ax) * dx + (c[1] + 0.5 - ay) * dy) / n2 < 1]
    if inner:
        return inner
    mid = ((ax + bx) / 2, (ay + by) / 2)
    return segment_cells(mid, mid, X, Y)


def map_layers(m: ImportedMap, opt: Options) -> int:
    """--layers, or the tallest wall + 8 (at least 12, 6 above the highest token, at most 256)."""
    if opt.layers:
        return opt.layers
    tops = [w.top_m for w in m.walls if w.top_m is not None]
    tallest = max([opt.wall_height] + tops)
    return min(256, max(12, math.ceil(tallest - 1e-6) + 8, *[math.floor(t.elevation_m + 1e-6) + 6 for t in m.tokens]))


def rasterise(m: ImportedMap, opt: Options):
    """(voxels uint8 [Z, Y, X] of material indices into ``names``, names, door notes)."""
    X, Y = m.size
    Z = map_layers(m, opt)
    names = ["air", opt.wall_material, "obstacle", "door", "barrier", "veil"]
    index = {n: i for i, n in enumerate(names)}
    vox = np.zeros((Z, Y, X), dtype=np.uint8)
    door_notes = []
    gaps = []
    order = {"object": 0, "wall": 1, "barrier": 1, "veil": 1, "door": 2}    # walls over objects; doors last
    for w in sorted(m.walls, key=lambda w: order[w.kind]):
        cells = segment_cells(w.a, w.b, X, Y)
        if w.kind == "door":
            cells = door_cells(w, cells, X, Y)
        mask = np.zeros((Y, X), dtype=bool)
        for cx, cy in cells:
            mask[cy, cx] = True
        if w.kind == "object":
            top = w.bottom_m + opt.object_height if w.top_m is None else w.top_m
        else:
            top = opt.wall_height if w.top_m is None else w.top_m
        # a layer is filled where the wall covers at least half of it (and a wall fills at least one layer)
        z0 = max(0, math.floor(w.bottom_m + 0.5))
        z1 = min(Z, max(z0 + 1, math.floor(top + 0.5)))
        if w.kind == "door":
            closed = w.state in ("closed", "locked", "secret")
            as_wall = closed and opt.doors == "wall"
            xs, ys = [c[0] for c in cells], [c[1] for c in cells]
            what = "a wall of material door" if as_wall else "a gap (air)"
            why = "closed doors: --doors wall" if as_wall else ("open" if not closed else "closed doors: --doors gap")
            door_notes.append(f"door {w.source} ({w.state}): cells x {min(xs)}..{max(xs)}, y {min(ys)}..{max(ys)}, "
                              f"layers {z0}..{z1 - 1} -> {what} ({why})")
            if as_wall:
                vox[z0:z1][:, mask] = index["door"]
            else:
                gaps.append((mask, z0, z1))
            continue
        mask = dilate(mask, opt.thickness)
        mat = opt.wall_material if w.kind == "wall" else KIND_MATERIAL[w.kind]
        vox[z0:z1][:, mask] = index[mat]
    for mask, z0, z1 in gaps:
        vox[z0:z1][:, mask] = 0
    return vox, names, door_notes


def place_tokens(m: ImportedMap, vox: np.ndarray, solid_idx: set[int], mapping: dict, cells_per_grid: int = 1) -> tuple[list[dict], list[str]]:
    """Characters for the tokens: at the cell under the token's centre (its south-west cell for a large body), at
    the layer of its elevation, flying when nothing is under its feet; moved to the nearest free cell when that
    cell is inside a wall (noted)."""
    from engine.scene import SIZES

    Z, Y, X = vox.shape
    solid = np.isin(vox, list(solid_idx))
    chars: list[dict] = []
    notes: list[str] = []
    seen: dict[str, int] = {}          # characters per name slug so far: the second "goblin" is goblin_2
    for t in m.tokens:
        extra = dict(mapping.get(t.name, {}))
        extra.update(t.extra)
        wgrid = t.size_cells / cells_per_grid
        size = extra.get("size") or next(n for lim, n in TOKEN_SIZES if wgrid < lim)
        if size not in SIZES:
            raise InteropError(m.file, f"{t.source}.flags.aerie.size", f"unknown size {size!r}")
        fp, height, _ = SIZES[size]
        layer = min(Z - 1, max(0, math.floor(t.elevation_m + 1e-6)))
        x0 = min(max(0, round(t.cell[0] - fp / 2)), X - fp)
        y0 = min(max(0, round(t.cell[1] - fp / 2)), Y - fp)

        def free(x, y):
            return 0 <= x <= X - fp and 0 <= y <= Y - fp and not solid[layer:layer + height, y:y + fp, x:x + fp].any()

        x, y = x0, y0
        if not free(x, y):
            cands = sorted(((abs(dx) + abs(dy), dy, dx) for dx in range(-4, 5) for dy in range(-4, 5)))
            hit = next(((x0 + dx, y0 + dy) for _, dy, dx in cands if free(x0 + dx, y0 + dy)), None)
            if hit is None:
                raise InteropError(m.file, t.source, f"token {t.name!r} stands inside a wall at cell ({x0}, {y0}), "
                                                     f"layer {layer}, with no free cell within 4")
            x, y = hit
            notes.append(f"token {t.source} {t.name!r}: cell ({x0}, {y0}) is inside a wall; placed at ({x}, {y})")
        base = _slug(t.name)
        seen[base] = seen.get(base, 0) + 1
        cid = base if seen[base] == 1 else f"{base}_{seen[base]}"
        supported = layer == 0 or solid[layer - 1, y:y + fp, x:x + fp].any()
        table = {"id": cid, "name": t.name, "side": t.side, "at": [x, y, layer], "size": size}
        if not supported:
            table["flying"] = True
        table.update({k: v for k, v in extra.items() if k not in ("id", "at")})
        chars.append(table)
    return chars, notes


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return _toml_str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_toml_str(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v))


def scene_text(m: ImportedMap, opt: Options, vox, names, door_notes, chars, token_notes, image_name: str | None,
               command: str) -> str:
    Z, Y, X = vox.shape
    cm = m.cell_m
    L = [f"# Imported by `{command}`", f"# from {Path(m.file).name} ({m.fmt}).", "#"]
    L += [f"# {n}" for n in m.notes]
    L += [f"# walls: {opt.wall_height:g} m high unless the file gives a top, {opt.thickness} cell(s) thick, material "
          f"{opt.wall_material}; object lines: {opt.object_height:g} m (material obstacle)",
          "# doors (no object rules yet): closed doors become "
          + ("walls of material door" if opt.doors == "wall" else "gaps") + f" (--doors {opt.doors}); open doors "
          "are gaps"]
    L += [f"# {n}" for n in door_notes + token_notes]
    L += ["", f"name = {_toml_str(m.name)}",
          f"description = {_toml_str(f'Imported from {Path(m.file).name} ({m.fmt})')}", "", "[map]",
          f"size = [{X}, {Y}, {Z}]", f"cell_m = {cm!r}"]
    if image_name:
        L.append(f"ground_image = {_toml_str(image_name)}")
    L.append("")
    for mat, spec in MATERIALS.items():
        L.append(f"[materials.{mat}]")
        L += [f"{k} = {_value(v)}" for k, v in spec.items()]
        L.append("")
    bx = boxes(vox)
    counts: dict[str, int] = {}
    for v, a, b in bx:
        counts[names[v]] = counts.get(names[v], 0) + 1
    L.append("# " + ", ".join(f"{n} fill boxes: {c}" for n, c in counts.items()) if counts else "# no walls")
    for v, a, b in bx:
        L += ["[[map.fill]]", f"material = {_toml_str(names[v])}", f"from = [{a[0]}, {a[1]}, {a[2]}]",
              f"to = [{b[0]}, {b[1]}, {b[2]}]"]
    L.append("")
    W, H = X * cm, Y * cm
    S = max(W, H)
    solid_z = np.flatnonzero(vox.any(axis=(1, 2)))
    tall = max([int(solid_z[-1]) + 1 if len(solid_z) else 0] + [c["at"][2] + 2 for c in chars])
    # from the south, high enough to see over the walls, far enough back to frame the tallest thing
    L += ["[[cameras]]", 'name = "overview"',
          f"position = [{W / 2:.2f}, {-0.3 * H - 0.4 * tall:.2f}, {0.6 * S + tall + 4:.2f}]",
          f"look_at = [{W / 2:.2f}, {H / 2:.2f}, {tall / 3:.2f}]", "",
          "[[cameras]]", 'name = "top"', f"position = [{W / 2:.2f}, {H / 2 - 0.01 * H:.2f}, {1.9 * S + Z:.2f}]",
          f"look_at = [{W / 2:.2f}, {H / 2:.2f}, 0.0]", "fov = 30.0", ""]
    for c in chars:
        L.append("[[characters]]")
        L += [f"{k} = {_value(v)}" for k, v in c.items()]
        L.append("")
    return "\n".join(L)


def build_scene(m: ImportedMap, opt: Options, out: Path, command: str, mapping: dict | None = None) -> dict:
    """Build, check and write the scene. Returns a summary."""
    from engine.world.grid import MAX_CELLS_XY, MAX_LAYERS, MAX_VOXELS
    from engine.world.materials import BUILTIN_MATERIALS
    from engine.scene import scene_from_data

    X, Y = m.size
    if X > MAX_CELLS_XY or Y > MAX_CELLS_XY:
        raise InteropError(m.file, m.size_key, f"the map is {X} x {Y} cells, over the cap of {MAX_CELLS_XY} cells per "
                                               f"side (at {opt.cells_per_grid} cell(s) per grid square)")
    Z = map_layers(m, opt)
    if Z > MAX_LAYERS or X * Y * Z > MAX_VOXELS:          # before anything is allocated
        raise InteropError(m.file, m.size_key, f"the map is {X} x {Y} cells x {Z} layers = {X * Y * Z:,} voxels, over "
                                               f"the caps of {MAX_LAYERS} layers and {MAX_VOXELS:,} voxels")
    if opt.wall_material not in BUILTIN_MATERIALS:
        raise AerieError(f"--wall-material {opt.wall_material!r}: one of {', '.join(BUILTIN_MATERIALS)}")
    vox, names, door_notes = rasterise(m, opt)
    solid_idx = {i for i, n in enumerate(names) if i and MATERIALS.get(n, {}).get("solid", True)}
    chars, token_notes = place_tokens(m, vox, solid_idx, mapping or {}, opt.cells_per_grid)
    image_name = f"{out.stem}.map{m.image.ext}" if m.image else None
    text = scene_text(m, opt, vox, names, door_notes, chars, token_notes, image_name, command)
    data = tomllib.loads(text)
    data["map"].pop("ground_image", None)       # checked already (decoded whole); it is not written yet
    try:
        scene = scene_from_data(data, str(out), out.parent)
    except AerieError as e:
        raise InteropError(m.file, "", f"the imported scene does not load: {e}") from None
    if not np.array_equal(scene.world.voxels != 0, vox != 0):
        raise InteropError(m.file, "", "internal: the fill boxes do not reproduce the voxels")
    write_all(out, text, (image_name, m.image.data) if image_name and m.image else None)
    return {"scene": str(out), "image": str(out.parent / image_name) if image_name else None, "size": [X, Y, vox.shape[0]],
            "walls": len(m.walls), "characters": len(chars), "fills": text.count("[[map.fill]]")}


def write_all(out: Path, text: str, image: tuple[str, bytes] | None) -> None:
    """The image (its file name beside the scene, its bytes), then the TOML, each to a temporary name in the same folder and renamed into place; on any
    failure nothing new is left behind."""
    if not out.parent.is_dir():
        raise AerieError(f"{out}: the folder {out.parent} does not exist")
    tmps = []
    try:
        pairs: list[tuple[Path, bytes]] = []
        if image is not None:
            pairs.append((out.parent / image[0], image[1]))
        pairs.append((out, text.encode("utf-8")))
        for final, content in pairs:
            tmp = final.with_name(f".{final.name}.{os.getpid()}.tmp")
            tmps.append(tmp)
            with open(tmp, "wb") as f:
                f.write(content)
        for (final, _), tmp in zip(pairs, tmps):
            os.replace(tmp, final)
    except OSError as e:
        for t in tmps:
            try:
                t.unlink()
            except OSError:
                pass
        raise AerieError(f"{out}: cannot write: {e.strerror or e}") from None
