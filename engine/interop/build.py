"""An ImportedMap to an ordinary Aerie scene: voxels from the walls, fill boxes, characters, TOML text, files.

The scene is a TOML file plus the map image beside it (``[map] ground_image``). Everything is built and checked
in memory (the TOML is parsed back through the scene loader) before anything is written; then every target is
checked (its folder, its name's length, none of them an input of the import), the images and the TOML are
written to temporary names and renamed into place, the TOML last, and a failure puts back the files replaced.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import shutil
import stat
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.errors import AerieError, display_path as display
from engine.interop.common import ImportedMap, InteropError, MapImage, Storey, toml_key
from engine.interop.raster import boxes, dilate, segment_cells

# The materials an import writes (besides the built-in ones the options may name).
MATERIALS: dict[str, dict[str, object]] = {      # each written as a [materials.NAME] table of the scene
    "door": {"color": "#7a5230", "ac": 15, "resistances": ["piercing"], "vulnerabilities": ["fire"]},   # wood's
    "obstacle": {"color": "#8a6a44"},
    "barrier": {"color": "#b4d2e6", "blocks_sight": False, "translucent": True},   # blocks movement, not sight
    # blocks sight, not movement: drawn as a dark haze (translucent), not as a solid block, so a walker is seen
    # to be able to pass it
    "veil": {"color": "#3c3c46", "solid": False, "translucent": True},
}
KIND_MATERIAL = {"object": "obstacle", "door": "door", "barrier": "barrier", "veil": "veil"}
#: the cells all the walls of a map may cross together (each wall costs the cells along it: 16 Mi cells is some
#: 5 s; a drawn map crosses well under a million, 200,000 random walls across a 512-cell map 68 million)
MAX_WALL_CELLS = 16 * 1024 * 1024
TOKEN_SIZES = ((0.75, "small"), (1.5, "medium"), (2.5, "large"), (3.5, "huge"), (math.inf, "gargantuan"))


@dataclass
class Options:
    wall_height: float = 3.0         # metres (layers): walls without their own top
    object_height: float = 1.0       # metres: object lines (furniture, low walls), half cover for a crouched body
    thickness: int = 1               # cells
    wall_material: str = "stone"
    doors: str = "object"            # closed doors: "object" ([[objects]] doors), "wall" (door material) or "gap"
    layers: int | None = None        # the map's height; None: the tallest wall + 8, at least 12
    cells_per_grid: int = 1
    grid_m: float = 1.5              # metres per grid square (5 ft)
    floor_material: str = "wood"     # the storeys' floors
    lock_dc: int = 15                # locked doors' DC (the rules leave it to the game master; 15 is a medium lock)


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


def layer_of(metres: float) -> int:
    """The layer a height starts (a layer is filled where a wall covers at least half of it)."""
    return math.floor(metres + 0.5)


def shift_layers(m: ImportedMap) -> int:
    """Layers the map is raised so its lowest storey's floor (a basement's) is the ground, layer 0."""
    lows = [w.bottom_m for w in m.walls] + [s.bottom_m for s in m.storeys] + [t.elevation_m for t in m.tokens]
    return max(0, -min([0] + [layer_of(v) for v in lows]))


def map_layers(m: ImportedMap, opt: Options, shift: int = 0) -> int:
    """--layers, or the tallest wall + 8 (at least 12, 6 above the highest token, at most 256)."""
    if opt.layers:
        return opt.layers
    tops = [w.top_m for w in m.walls if w.top_m is not None] + [s.bottom_m for s in m.storeys]
    tallest = max([opt.wall_height] + tops) + shift
    return min(256, max(12, math.ceil(tallest - 1e-6) + 8,
                        *[math.floor(t.elevation_m + 1e-6) + shift + 6 for t in m.tokens]))


@dataclass
class Floor:
    name: str
    bottom_m: float                 # the storey's bottom in the file (metres; below 0 a basement)
    layer: int                      # the floor's layer (one under the storey's bottom), after the shift
    area: np.ndarray                # bool [Y, X]
    image: MapImage | None          # drawn on the floor's top
    why: str                        # where the area came from


def _footprint(m: ImportedMap, bottom: float, opt: Options) -> np.ndarray:
    """The cells the walls standing on a storey enclose (with the walls' own cells): everything the map's edge
    cannot reach without crossing one of them. Open doors count as wall here (a doorway does not open a floor)."""
    X, Y = m.size
    wall = np.zeros((Y, X), bool)
    for w in m.walls:
        top = opt.wall_height if w.top_m is None else w.top_m
        if w.kind != "object" and w.bottom_m <= bottom + 0.2 and top > bottom + 0.2:
            for cx, cy in segment_cells(w.a, w.b, X, Y):
                wall[cy, cx] = True
    outside = np.zeros((Y, X), bool)
    stack = [(x, y) for x in range(X) for y in (0, Y - 1)] + [(x, y) for y in range(Y) for x in (0, X - 1)]
    while stack:
        x, y = stack.pop()
        if outside[y, x] or wall[y, x]:
            continue
        outside[y, x] = True
        stack += [(a, b) for a, b in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if 0 <= a < X and 0 <= b < Y]
    inside = ~outside
    if not (inside & ~wall).any():          # walls that enclose nothing (a lone raised wall) lay no floor
        return np.zeros((Y, X), bool)
    return inside


def plan_floors(m: ImportedMap, opt: Options, shift: int) -> list[Floor]:
    """A floor for every storey above the lowest: the storeys the file states (v14 levels, Levels tiles) and the
    Wall Height bands (a bottom no storey has), each one voxel thick one layer under its bottom, over its image's
    opaque area or tiles, else the footprint its walls enclose. The storey at 0 ft of a map with a basement is
    the whole map (the ground outside is earth); the lowest storey stands on the ground."""
    storeys = list(m.storeys)
    known = [s.bottom_m for s in storeys]
    for w in sorted(m.walls, key=lambda w: w.bottom_m):
        if w.kind != "object" and abs(w.bottom_m) > 0.2 and all(abs(w.bottom_m - b) > 0.2 for b in known):
            storeys.append(Storey(f"{w.bottom_m / m.m_per_unit:g} {'ft' if m.m_per_unit < 1 else 'units'} (walls)",
                                  w.bottom_m, None, None, None, f"the Wall Height band of {w.source}"))
            known.append(w.bottom_m)
    if shift and all(abs(b) > 0.2 for b in known):
        storeys.append(Storey("0 ft (the ground)", 0.0, None, None, None, "the ground"))
    out = []
    X, Y = m.size
    for s in sorted(storeys, key=lambda s: s.bottom_m):
        layer = layer_of(s.bottom_m) + shift - 1
        if layer < 0:
            continue
        if abs(s.bottom_m) <= 0.2 and shift:
            area, why = np.ones((Y, X), bool), "the whole map (the ground above the basement)"
            img = m.image if m.image is not None else s.image
        elif s.area is not None and s.area.any():
            area, why, img = s.area, f"the opaque area of {s.source}", s.image
        else:
            area, why, img = _footprint(m, s.bottom_m, opt), f"the footprint its walls enclose ({s.source})", s.image
        for o in m.openings:
            if o.bottom_m < s.bottom_m <= o.top_m:
                area = area & ~o.mask
        if area.any():
            out.append(Floor(s.name, s.bottom_m, layer, area, img, why))
    return out


def ground_image(m: ImportedMap, shift: int):
    """The image on the world's ground: the lowest storey's when the map has a basement, else the map's."""
    if not shift:
        return m.image
    low = [s for s in m.storeys if layer_of(s.bottom_m) + shift <= 0]
    return low[0].image if low else None


def rasterise(m: ImportedMap, opt: Options):
    """(voxels uint8 [Z, Y, X] of material indices into ``names``, names, notes, door objects, floors, shift)."""
    X, Y = m.size
    shift = shift_layers(m)
    Z = map_layers(m, opt, shift)
    names = ["air", opt.wall_material, "obstacle", "door", "barrier", "veil", opt.floor_material, "earth",
             "secret_door"]
    names = list(dict.fromkeys(names))
    index = {n: i for i, n in enumerate(names)}
    vox = np.zeros((Z, Y, X), dtype=np.uint8)
    floors = [f for f in plan_floors(m, opt, shift) if f.layer < Z]
    if shift:                         # the ground up to 0 ft is earth, but where a basement is dug out
        vox[:shift] = index["earth"]
        for s in m.storeys:
            if layer_of(s.bottom_m) < 0:
                z0 = layer_of(s.bottom_m) + shift
                area = s.area if s.area is not None and s.area.any() else _footprint(m, s.bottom_m, opt)
                vox[z0:shift - 1][:, area] = 0
    floor_at = np.zeros((Z, Y, X), bool)
    for f in floors:
        if not (shift and f.layer == shift - 1):
            vox[f.layer][f.area] = index[opt.floor_material]
        floor_at[f.layer] |= f.area
    notes: list[str] = []
    gaps: list[tuple[tuple[np.ndarray, np.ndarray], int, int]] = []
    doors: list[dict] = []
    door_at = np.zeros((Z, Y, X), bool)     # the door objects' voxels so far (two doors on a cell: the first's)
    order = {"object": 0, "wall": 1, "barrier": 1, "veil": 1, "door": 2}    # walls over objects; doors last
    # Each wall costs the cells along it (or the box around it, grown by the thickness), never the whole map: a
    # map of 200,000 walls took walls x map area before (a full-map mask each).
    for w in sorted(m.walls, key=lambda w: order[w.kind]):
        cells = segment_cells(w.a, w.b, X, Y)
        if w.kind == "door":
            cells = door_cells(w, cells, X, Y)
        if w.kind == "object":
            top = w.bottom_m + opt.object_height if w.top_m is None else w.top_m
        else:
            top = opt.wall_height if w.top_m is None else w.top_m
        # a layer is filled where the wall covers at least half of it (and a wall fills at least one layer)
        z0 = max(0, layer_of(w.bottom_m) + shift)
        z1 = min(Z, max(z0 + 1, layer_of(top) + shift))
        if z0 >= Z:                     # wholly above the map's top layer (the map is at most 256 layers tall)
            notes.append(f"{w.source}: {w.kind} from {w.bottom_m:g} m is above the map's {Z} layers: left out")
            continue
        if w.kind == "door":
            win = window(cells)
            (y0, x0), mask = win
            here = (slice(y0, y0 + mask.shape[0]), slice(x0, x0 + mask.shape[1]))
            while z1 - 1 > z0 and (floor_at[z1 - 1][here] & mask).any():     # a door stops under the floor above
                z1 -= 1
            _door(w, win, cells, z0, z1, opt, vox, index, notes, gaps, doors, door_at)
            continue
        ys, xs = wall_cells(cells, X, Y, opt.thickness)
        mat = opt.wall_material if w.kind == "wall" else KIND_MATERIAL[w.kind]
        vox[z0:z1, ys, xs] = index[mat]
    for (ys, xs), z0, z1 in gaps:
        vox[z0:z1, ys, xs] = 0
    return vox, names, notes, doors, floors, shift


def window(cells) -> tuple[tuple[int, int], np.ndarray]:
    """((y0, x0), mask): the box around ``cells`` and which of its cells they are."""
    c = np.asarray(cells, dtype=np.int64)
    x0, y0 = int(c[:, 0].min()), int(c[:, 1].min())
    mask = np.zeros((int(c[:, 1].max()) - y0 + 1, int(c[:, 0].max()) - x0 + 1), bool)
    mask[c[:, 1] - y0, c[:, 0] - x0] = True
    return (y0, x0), mask


def wall_cells(cells, X: int, Y: int, thickness: int) -> tuple[np.ndarray, np.ndarray]:
    """(ys, xs) of the cells a wall fills: its own, grown to ``thickness`` as ``raster.dilate`` grows a mask (a
    square of offsets, clipped to the map), at the cost of the cheaper of its box (grown) and its cells x t x t."""
    c = np.asarray(cells, dtype=np.int64)
    if thickness <= 1:
        return c[:, 1], c[:, 0]
    lo, hi = -(thickness // 2), (thickness - 1) // 2
    x0, x1 = max(0, int(c[:, 0].min()) + lo), min(X, int(c[:, 0].max()) + hi + 1)
    y0, y1 = max(0, int(c[:, 1].min()) + lo), min(Y, int(c[:, 1].max()) + hi + 1)
    if (x1 - x0) * (y1 - y0) * 2 <= len(c) * thickness:        # a short wall: dilate its box
        mask = np.zeros((y1 - y0, x1 - x0), bool)
        mask[c[:, 1] - y0, c[:, 0] - x0] = True
        ys, xs = np.nonzero(dilate(mask, thickness))
        return ys + y0, xs + x0
    o = np.arange(lo, hi + 1)
    xs = (c[:, 0, None, None] + o[None, None, :]).repeat(len(o), axis=1).ravel()
    ys = (c[:, 1, None, None] + o[None, :, None]).repeat(len(o), axis=2).ravel()
    keep = (xs >= 0) & (xs < X) & (ys >= 0) & (ys < Y)
    return ys[keep], xs[keep]


def _door(w, win, cells, z0, z1, opt: Options, vox, index, notes, gaps, doors, door_at) -> None:
    """A door (its cells ``win``: (y0, x0) and a mask of the box around them): an ``[[objects]]`` door (--doors
    object: closed, locked with --lock-dc, or secret), a wall of material door (--doors wall) or a gap; an open
    door is always a gap (air)."""
    (y0, x0), mask = win
    here = (slice(z0, z1), slice(y0, y0 + mask.shape[0]), slice(x0, x0 + mask.shape[1]))
    closed = w.state in ("closed", "locked", "secret")
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    where = f"cells x {min(xs)}..{max(xs)}, y {min(ys)}..{max(ys)}, layers {z0}..{z1 - 1}"
    if closed and opt.doors == "object":
        mask = mask & ~door_at[here].any(axis=0)          # two doors on one cell: the first keeps it
        if not mask.any():
            return
        vol = np.zeros((z1 - z0,) + mask.shape, np.uint8)
        vol[:, mask] = 1
        parts = boxes(vol)
        k = len({d["name"] for d in doors}) + 1
        for j, (_, a, b) in enumerate(parts):
            oid = ("secret_door" if w.state == "secret" else "door") + f"{k}" + (f"_{j + 1}" if len(parts) > 1 else "")
            d: dict[str, object] = {"id": oid, "name": f"door {w.source}", "from": [a[0] + x0, a[1] + y0, a[2] + z0],
                                    "to": [b[0] + x0, b[1] + y0, b[2] + z0],
                                    "material": "secret_door" if w.state == "secret" else "door", "door": True}
            if w.state == "locked":
                d["lock"] = {"dc": opt.lock_dc}
            if w.state == "secret":
                d["secret"] = True
            doors.append(d)
        door_at[here][:, mask] = True
        vox[here][:, mask] = index["secret_door" if w.state == "secret" else "door"]
        ids = ", ".join(d["id"] for d in doors[-len(parts):])
        lock = f", locked DC {opt.lock_dc} (--lock-dc)" if w.state == "locked" else ""
        notes.append(f"door {w.source} ({w.state}): {where} -> [[objects]] {ids}{lock}")
        return
    as_wall = closed and opt.doors == "wall"
    what = "a wall of material door" if as_wall else "a gap (air)"
    why = "closed doors: --doors wall" if as_wall else ("open" if not closed else "closed doors: --doors gap")
    notes.append(f"door {w.source} ({w.state}): {where} -> {what} ({why})")
    if as_wall:
        vox[here][:, mask] = index["door"]
    else:
        ys_, xs_ = np.nonzero(mask)
        gaps.append(((ys_ + y0, xs_ + x0), z0, z1))


def place_tokens(m: ImportedMap, vox: np.ndarray, solid_idx: set[int], mapping: dict, cells_per_grid: int = 1,
                 shift: int = 0) -> tuple[list[dict], list[str]]:
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
        if not isinstance(size, str) or size not in SIZES:     # checked as read (common.character_keys) already
            raise InteropError(m.file, f"{t.source}.flags.aerie.size", f"unknown size {size!r}")
        fp, height, _ = SIZES[size]
        layer = min(Z - 1, max(0, math.floor(t.elevation_m + 1e-6) + shift))
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
        table: dict[str, object] = {"id": cid, "name": t.name, "side": t.side, "at": [x, y, layer], "size": size}
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


@dataclass
class Built:
    """What the rasteriser made, for the scene's text."""
    vox: np.ndarray                 # every voxel, doors included
    names: list[str]
    notes: list[str]                # doors', then tokens'
    doors: list[dict]               # [[objects]] tables
    floors: list[Floor]
    shift: int
    images: list[tuple[str, bytes]]     # (file name, bytes): the ground's first, then the floors'
    ground: str | None              # the ground image's file name
    floor_images: list[tuple[int, str]]


def _storey_notes(m: ImportedMap, b: Built, opt: Options) -> list[str]:
    unit = "ft" if m.m_per_unit < 1 else "units"
    L = []
    if b.shift:
        L.append(f"the file's 0 {unit} is layer {b.shift}: the map is raised {b.shift} layer(s) so its lowest storey's "
                 "floor (a basement's) is the ground, layer 0; under the 0 ft floor is earth but where a basement is "
                 "dug out")
    for f in b.floors:
        img = next((n for z, n in b.floor_images if z == f.layer), None)
        L.append(f"storey {f.name!r} ({f.bottom_m / m.m_per_unit:g} {unit}): floor on layer {f.layer} "
                 f"({opt.floor_material if not (b.shift and f.layer == b.shift - 1) else 'earth'}), "
                 f"{int(f.area.sum())} cells, {f.why}" + (f"; its image {img} drawn on it" if img else ""))
    if b.floors:
        L.append("stairs: where the file marks them (Levels' stair and hole drawings) the floors are cut open; "
                 "elsewhere a storey is reached by flying or climbing (Aerie has no stair objects)")
    return L


def scene_text(m: ImportedMap, opt: Options, b: Built, chars, command: str) -> str:
    vox = b.vox
    Z, Y, X = vox.shape
    cm = m.cell_m
    L = [f"# Imported by `{command}`", f"# from {Path(m.file).name} ({m.fmt}).", "#"]
    L += [f"# {n}" for n in m.notes + _storey_notes(m, b, opt)]
    how = {"object": "[[objects]] doors (open_door, pick_lock, force_lock, attack)", "wall": "walls of material door",
           "gap": "gaps"}[opt.doors]
    L += [f"# walls: {opt.wall_height:g} m high unless the file gives a top, {opt.thickness} cell(s) thick, material "
          f"{opt.wall_material}; object lines: {opt.object_height:g} m (material obstacle)",
          f"# doors: closed doors become {how} (--doors {opt.doors}); open doors are gaps"]
    L += [f"# {n}" for n in b.notes]
    L += ["", f"name = {_toml_str(m.name)}",
          f"description = {_toml_str(f'Imported from {Path(m.file).name} ({m.fmt})')}", "", "[map]",
          f"size = [{X}, {Y}, {Z}]", f"cell_m = {cm!r}"]
    if b.ground:
        L.append(f"ground_image = {_toml_str(b.ground)}")
    if b.floor_images:
        L.append("floor_images = [" + ", ".join(f"{{ layer = {z}, image = {_toml_str(n)} }}"
                                                for z, n in b.floor_images) + "]")
    L.append("")
    mats = dict(MATERIALS)
    mats["secret_door"] = dict(MATERIALS["door"], color=_hex(opt.wall_material))   # looks like the wall it hides in
    for mat, spec in mats.items():
        L.append(f"[materials.{mat}]")
        L += [f"{toml_key(k)} = {_value(v)}" for k, v in spec.items()]
        L.append("")
    fill = vox.copy()
    for d in b.doors:                     # the objects fill their own boxes
        (x0, y0, z0), (x1, y1, z1) = d["from"], d["to"]
        fill[z0:z1 + 1, y0:y1 + 1, x0:x1 + 1] = 0
    bx = boxes(fill)
    counts: dict[str, int] = {}
    for v, lo, hi in bx:
        counts[b.names[v]] = counts.get(b.names[v], 0) + 1
    L.append("# " + ", ".join(f"{n} fill boxes: {c}" for n, c in counts.items()) if counts else "# no walls")
    for v, lo, hi in bx:
        L += ["[[map.fill]]", f"material = {_toml_str(b.names[v])}", f"from = [{lo[0]}, {lo[1]}, {lo[2]}]",
              f"to = [{hi[0]}, {hi[1]}, {hi[2]}]"]
    L.append("")
    for d in b.doors:
        L.append("[[objects]]")
        L += [f"{toml_key(k)} = {_value(v)}" for k, v in d.items()]
        L.append("")
    L += _cameras(vox, chars, cm)
    for c in chars:
        L.append("[[characters]]")
        L += [f"{toml_key(k)} = {_value(v)}" for k, v in c.items()]
        L.append("")
    return "\n".join(L)


def _hex(material: str) -> str:
    from engine.world.materials import BUILTIN_MATERIALS

    r, g, b_ = BUILTIN_MATERIALS[material].color
    return f"#{r:02x}{g:02x}{b_:02x}"


def _cameras(vox, chars, cm: float) -> list[str]:
    Z, Y, X = vox.shape
    W, H = X * cm, Y * cm
    S = max(W, H)
    solid_z = np.flatnonzero(vox.any(axis=(1, 2)))
    tall = max([int(solid_z[-1]) + 1 if len(solid_z) else 0] + [c["at"][2] + 2 for c in chars])
    # from the south, high enough to see over the walls, far enough back to frame the tallest thing
    return ["[[cameras]]", 'name = "overview"',
            f"position = [{W / 2:.2f}, {-0.3 * H - 0.4 * tall:.2f}, {0.6 * S + tall + 4:.2f}]",
            f"look_at = [{W / 2:.2f}, {H / 2:.2f}, {tall / 3:.2f}]", "",
            "[[cameras]]", 'name = "top"', f"position = [{W / 2:.2f}, {H / 2 - 0.01 * H:.2f}, {1.9 * S + Z:.2f}]",
            f"look_at = [{W / 2:.2f}, {H / 2:.2f}, 0.0]", "fov = 30.0", ""]


def _images(m: ImportedMap, out: Path, floors: list[Floor], shift: int):
    """The image files: the ground's (``NAME.map.EXT``) and each floor's (``NAME.floorLAYER.EXT``)."""
    images, floor_images = [], []
    g = ground_image(m, shift)
    ground = f"{out.stem}.map{g.ext}" if g is not None else None
    if g is not None:
        images.append((ground, g.data))
    for f in floors:
        if f.image is not None:
            name = f"{out.stem}.floor{f.layer}{f.image.ext}"
            images.append((name, f.image.data))
            floor_images.append((f.layer, name))
    return images, ground, floor_images


def build_scene(m: ImportedMap, opt: Options, out: Path, command: str, mapping: dict | None = None,
                mapping_file: str = "--characters", inputs=()) -> dict:
    """Build, check and write the scene (``mapping``: the ``--characters`` tables, read from ``mapping_file``;
    ``inputs``: (path, what) of the command's files besides the images the reader read, which no output may
    replace). Returns a summary."""
    from engine.world.grid import MAX_CELLS_XY, MAX_LAYERS, MAX_VOXELS
    from engine.world.materials import BUILTIN_MATERIALS
    from engine.scene import scene_from_data

    X, Y = m.size
    if X > MAX_CELLS_XY or Y > MAX_CELLS_XY:
        raise InteropError(m.file, m.size_key, f"the map is {X} x {Y} cells, over the cap of {MAX_CELLS_XY} cells per "
                                               f"side (at {opt.cells_per_grid} cell(s) per grid square)")
    Z = map_layers(m, opt, shift_layers(m))
    if Z > MAX_LAYERS or X * Y * Z > MAX_VOXELS:          # before anything is allocated
        raise InteropError(m.file, m.size_key, f"the map is {X} x {Y} cells x {Z} layers = {X * Y * Z:,} voxels, over "
                                               f"the caps of {MAX_LAYERS} layers and {MAX_VOXELS:,} voxels")
    for flag, v in (("--wall-material", opt.wall_material), ("--floor-material", opt.floor_material)):
        if v not in BUILTIN_MATERIALS:
            raise AerieError(f"{flag} {v!r}: one of {', '.join(BUILTIN_MATERIALS)}")
    if not 1 <= opt.lock_dc <= 40:
        raise AerieError(f"--lock-dc {opt.lock_dc}: a DC is 1..40")
    _wall_cells_cap(m)
    vox, names, door_notes, doors, floors, shift = rasterise(m, opt)
    solid_idx = {i for i, n in enumerate(names) if i and MATERIALS.get(n, {}).get("solid", True)}
    chars, token_notes = place_tokens(m, vox, solid_idx, mapping or {}, opt.cells_per_grid, shift)
    images, ground, floor_images = _images(m, out, floors, shift)
    built = Built(vox, names, door_notes + token_notes, doors, floors, shift, images, ground, floor_images)
    text = scene_text(m, opt, built, chars, command)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InteropError(m.file, "", f"internal: the scene written does not parse as TOML ({e})") from None
    data["map"].pop("ground_image", None)       # checked already (decoded whole); not written yet
    data["map"].pop("floor_images", None)
    try:
        scene = scene_from_data(data, str(out), out.parent)
    except AerieError as e:
        raise _refused_key(e, m, mapping or {}, mapping_file) or InteropError(
            m.file, "", f"the imported scene does not load: {e}") from None
    if not np.array_equal(scene.world.voxels != 0, vox != 0):
        raise InteropError(m.file, "", "internal: the fill boxes do not reproduce the voxels")
    write_all(out, text, images, list(inputs) + m.inputs)
    return {"scene": str(out), "image": str(out.parent / ground) if ground else None, "size": [X, Y, vox.shape[0]],
            "walls": len(m.walls), "characters": len(chars), "fills": text.count("[[map.fill]]"),
            "floors": len(floors), "doors": len(doors), "shift": shift}


def _wall_cells_cap(m: ImportedMap) -> None:
    """Refuse, by the wall that crosses it, a map whose walls cross more than ``MAX_WALL_CELLS`` cells in all
    (counted from their ends, before any is drawn): the import's time grows with them."""
    total = 0
    for w in m.walls:
        total += abs(math.floor(w.a[0]) - math.floor(w.b[0])) + abs(math.floor(w.a[1]) - math.floor(w.b[1])) + 1
        if total > MAX_WALL_CELLS:
            raise InteropError(m.file, w.source, f"the walls up to this one cross {total:,} cells, over the cap of "
                                                 f"{MAX_WALL_CELLS:,} cells of walls in one map ({len(m.walls):,} "
                                                 "wall segments in all)")


def _refused_key(e: AerieError, m: ImportedMap, mapping: dict, mapping_file: str) -> InteropError | None:
    """The scene loader's refusal of a character key (``characters[3].kind``: an unknown key, a bad value), named
    where the key came from: the token's ``flags.aerie`` in the map, or its ``--characters`` table; None when the
    refusal is not of a key the import was given (the caller says the scene does not load)."""
    hit = re.fullmatch(r"characters\[(\d+)\]\.(.+)", getattr(e, "path", "") or "", re.S)
    if not hit or int(hit[1]) >= len(m.tokens):
        return None
    t, rest = m.tokens[int(hit[1])], hit[2]
    for table, file, key in ((t.extra, m.file, f"{t.source}.flags.aerie"),
                             (mapping.get(t.name, {}), mapping_file, f"characters.{toml_key(t.name)}")):
        if any(rest == k or rest.startswith((f"{k}.", f"{k}[")) for k in table if k not in ("id", "at")):
            return InteropError(file, f"{key}.{rest}", getattr(e, "problem", str(e)))
    return None


def write_all(out: Path, text: str, images: list[tuple[str, bytes]], inputs=(), label: str | None = None) -> None:
    """The images, then the TOML: every target checked first (``check_targets``), each written whole to a
    temporary name in the same folder, then all renamed into place; a failure at any step puts back what was
    there (the old files are kept as hard links until the last rename), so the import writes all or nothing."""
    label = label or f"-o {display(out)}"
    pairs = [(out.parent / name, data) for name, data in images] + [(out, text.encode("utf-8"))]
    check_targets(out, [final for final, _ in pairs], inputs, label)
    tag = f".aerie-import.{os.getpid()}"       # short: a name at the 255-byte limit still has a temporary
    tmps = [final.with_name(f"{tag}.{i}.tmp") for i, (final, _) in enumerate(pairs)]
    olds: list[Path | None] = []
    done = 0
    try:
        for (final, content), tmp in zip(pairs, tmps):
            with open(tmp, "wb") as f:
                f.write(content)
        for i, (final, _) in enumerate(pairs):
            olds.append(_keep_old(final, final.with_name(f"{tag}.{i}.old")))
        for (final, _), tmp in zip(pairs, tmps):
            os.replace(tmp, final)
            done += 1
    except BaseException as e:            # Ctrl+C too: put back what was there before anything escapes
        _roll_back(pairs[:done], olds)
        _remove(tmps + [o for o in olds if o is not None])
        if isinstance(e, OSError):
            raise AerieError(f"{label}: cannot write: {e.strerror or e}") from None
        raise
    _remove([o for o in olds if o is not None])


def _keep_old(final: Path, old: Path) -> Path | None:
    """A second name for the file ``final`` replaces (a hard link; a copy where the file system has none), so
    that a later failure can put it back; None when there is no such file."""
    if not os.path.lexists(final):
        return None
    try:
        os.link(final, old, follow_symlinks=False)
    except OSError:
        shutil.copy2(final, old, follow_symlinks=False)
    return old


def _roll_back(replaced, olds) -> None:
    for (final, _), old in zip(replaced, olds):
        try:
            if old is None:
                final.unlink()
            else:
                os.replace(old, final)
        except OSError:
            pass


def _remove(paths) -> None:
    for t in paths:
        try:
            t.unlink()
        except OSError:
            pass


def check_targets(out: Path, finals: list[Path], inputs, label: str) -> None:
    """Refuse, before a byte is written, an import that could not write all its files or would overwrite one of
    its own inputs (the map, an image it read, ``--image``, ``--characters``): ``label: why``, one line."""
    folder = out.parent
    try:
        st = os.stat(folder)
    except OSError as e:
        why = "does not exist" if e.errno in (errno.ENOENT, errno.ENOTDIR) else f"cannot be used: {e.strerror or e}"
        raise AerieError(f"{label}: the folder {display(folder)} {why}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise AerieError(f"{label}: {display(folder)} is not a folder")
    try:
        name_max = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        name_max = 255
    for final in sorted(finals, key=lambda f: f != out):        # the scene's own name first
        what = "the scene" if final == out else f"the image it writes beside the scene, {final.name!r},"
        n = len(os.fsencode(final.name))
        if n > name_max:
            raise AerieError(f"{label}: {what} would have a file name of {n} bytes, over the {name_max} a name may "
                             "have; choose a shorter -o")
        try:
            mode = os.lstat(final).st_mode
        except FileNotFoundError:
            mode = None
        except OSError as e:
            raise AerieError(f"{label}: {display(final)}: {e.strerror or e}") from None
        if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
            raise AerieError(f"{label}: {display(final)} is {'a folder' if stat.S_ISDIR(mode) else 'not a file'}; "
                             f"{what} cannot replace it")
        for path, desc in inputs:
            if _same_file(final, Path(path)):
                raise AerieError(f"{label}: writing {display(final)} would overwrite {desc}, an input of this "
                                 "import; write the scene elsewhere (another -o name or folder)")


def _same_file(a: Path, b: Path) -> bool:
    """``a`` and ``b`` name one file: the same path once links are resolved, or the same file (a hard link)."""
    try:
        if a.resolve() == b.resolve():
            return True
        return os.path.exists(a) and os.path.exists(b) and os.path.samefile(a, b)
    except (OSError, RuntimeError):
        return False
