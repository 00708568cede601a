"""Foundry VTT scenes: a scene exported from Foundry (``fvtt-Scene-*.json``, v10 to v14), or one line of a v9/v10
NeDB compendium (``*.db``, one scene per line; ``--scene NAME`` picks one).

Read: ``name``, ``width``, ``height``, ``padding``, ``grid`` (v10+: ``size``, ``distance``, ``units``, ``type``;
v9: ``grid`` is the size, ``gridDistance``, ``gridUnits``, ``gridType``), ``walls`` (``c`` = [x0, y0, x1, y1] in
canvas pixels, ``move``, ``sight`` / v9 ``sense``, ``door``, ``ds``, the elevation flags ``flags["wall-height"]``
``top``/``bottom`` and Levels' ``flags.levels.rangeTop``/``rangeBottom``, and v14's ``levels`` list of scene
level ids), v14's scene ``levels`` (``_id``, ``elevation.bottom``/``top``), ``tokens`` (``x``, ``y``, ``width``,
``height``, ``elevation``, ``name``, ``disposition``, ``flags.aerie``), and the background image path
(``background.src``, v9 ``img``). Canvas pixels include the scene's padding, which is taken off.
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from urllib.parse import unquote

from engine.interop.common import (ImportedMap, InteropError, MapImage, Opening, Storey, Token, Wall, alpha_area,
                                   character_keys, check_image, image_file, map_cells, number,
                                   open_image, rgba_at)

# Wall senses: v10+ ``move``/``sight`` are 0 none, 10 limited, 20 normal (30/40 proximity); v9 ``move`` 0/1 and
# ``sense`` 0 none, 1 normal, 2 limited.
DOOR_STATES = {0: "closed", 1: "open", 2: "locked"}
SIDES = {1: "friendly", 0: "neutral", -1: "hostile", -2: "secret"}
#: a scene's keys that hold lists (of walls, tokens...): anything else there is refused at once, by its key
LIST_KEYS = ("walls", "tokens", "levels", "tiles", "drawings", "lights", "sounds", "notes", "templates", "regions")


def is_foundry(data) -> bool:
    return isinstance(data, dict) and isinstance(data.get("walls"), list) and "width" in data and "grid" in data


def pick_scene(data, file: str, name: str | None):
    """A NeDB compendium: the scene named ``name`` (or the only one)."""
    scenes = [d for d in data if is_foundry(d)]
    if not scenes:
        raise InteropError(file, "", "a list of JSON records, none of them a Foundry scene (walls, width, grid)")
    if name is None:
        if len(scenes) == 1:
            return scenes[0], "[0]"
        names = ", ".join(repr(s.get("name")) for s in scenes[:3])
        raise InteropError(file, "", f"holds {len(scenes)} scenes; pick one with --scene NAME ({names}, ...)")
    for i, s in enumerate(data):
        if is_foundry(s) and s.get("name") == name:
            return s, f"[{i}]"
    raise InteropError(file, "", f"no scene named {name!r}")


def _flag(flags, *path):
    cur = flags
    for k in path:
        if not isinstance(cur, dict) or k not in cur:
            return None
        cur = cur[k]
    return cur


def _choice(v, choices, file, key) -> int:
    """A small enumeration (a wall's ``door`` 0 none, 1 door, 2 secret; ``ds`` 0 closed, 1 open, 2 locked)."""
    if v is None:
        return 0
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v not in choices:
        raise InteropError(file, key, f"{v!r} is not one of {', '.join(map(str, choices))}")
    return int(v)


def _elev(v, file, key):
    """An elevation flag: a number, or None / "" / infinite for no limit."""
    if v is None or v == "":
        return None
    if isinstance(v, str):
        try:
            v = float(v)
        except ValueError:
            raise InteropError(file, key, f"{v!r} is not a number") from None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or math.isnan(v):
        raise InteropError(file, key, f"{v!r} is not a number")
    return None if math.isinf(v) else float(v)


def _depth(metres: float, file: str, key: str) -> float:
    """A bottom or an elevation in metres, refused when it lies deeper than a map can reach (the map is raised by
    its deepest basement: a wall at -1e300 ft filled every layer with earth, a token there could stand nowhere)."""
    from engine.world.grid import MAX_LAYERS

    if not math.isfinite(metres):                 # 1e308 ft at a grid distance under 1: past a float's range
        raise InteropError(file, key, f"{metres} m is out of range (the value times the metres a scene unit is)")
    if metres < -MAX_LAYERS:
        raise InteropError(file, key, f"{metres:.4g} m is below the deepest basement a map can hold: the map is at "
                                      f"most {MAX_LAYERS} layers tall")
    return metres


def _top(metres: float) -> float | None:
    """A top in metres; past a float's range (1e308 ft at a grid distance under 1) it is no limit, as infinity is."""
    return metres if math.isfinite(metres) else None


class _Canvas:
    """The scene's pixel frame (canvas = scene + padding) and its cells: where a point in canvas pixels lies on the
    map, whether it is on the canvas at all, and a wall's part inside the scene."""

    def __init__(self, file: str, size: float, width: float, height: float, padding: float, N: int, P: str = ""):
        self.file, self.size, self.width, self.height = file, size, width, height
        self.gx, self.gy = width / size, height / size
        # the cell cap first: a grid of 1 px (or 1e-300) makes millions of cells, and the images and masks the
        # reader draws before the build (drawings, storeys) would be made at that size
        self.X, self.Y = map_cells(self.gx * N, self.gy * N, file, f"{P}width",
                                   f"{width:g} x {height:g} px at a grid of {size:g} px, {N} cell(s) per grid square")
        self.pad_x = math.ceil(width * padding / size - 1e-9) * size
        self.pad_y = math.ceil(height * padding / size - 1e-9) * size
        self.tol = size / 8

    def conv(self, x, y, key):
        """Canvas pixels -> map cells (x right, y up), the padding taken off; outside the scene is an error."""
        width, height, tol = self.width, self.height, self.tol
        px, py = x - self.pad_x, y - self.pad_y
        if not (-tol <= px <= width + tol and -tol <= py <= height + tol):
            raise InteropError(self.file, key, f"point ({x:g}, {y:g}) px is outside the map: x {self.pad_x:g}.."
                                               f"{self.pad_x + width:g}, y {self.pad_y:g}..{self.pad_y + height:g} "
                                               "(the scene without its padding)")
        px, py = min(max(px, 0.0), width), min(max(py, 0.0), height)
        return (px / width * self.X, (height - py) / height * self.Y)

    # Walls may lie in the padding (Foundry draws the whole canvas; the Levels samples have walls there): the part
    # inside the scene is kept, the rest dropped and counted. Beyond the canvas (scene plus padding) is an error.
    def canvas_check(self, x, y, key):
        w, h, tol = self.width + 2 * self.pad_x, self.height + 2 * self.pad_y, self.tol
        if not (-tol <= x <= w + tol and -tol <= y <= h + tol):
            raise InteropError(self.file, key, f"point ({x:g}, {y:g}) px is outside the canvas: x 0..{w:g}, "
                                               f"y 0..{h:g} (the scene and its padding)")

    def clip(self, x0, y0, x1, y1):
        """Liang-Barsky: the segment's part inside the scene rectangle (canvas pixels), or None."""
        tol = self.tol
        lo_x, hi_x = self.pad_x - tol, self.pad_x + self.width + tol
        lo_y, hi_y = self.pad_y - tol, self.pad_y + self.height + tol
        dx, dy = x1 - x0, y1 - y0
        t0, t1 = 0.0, 1.0
        for p_, q_ in ((-dx, x0 - lo_x), (dx, hi_x - x0), (-dy, y0 - lo_y), (dy, hi_y - y0)):
            if p_ == 0:
                if q_ < 0:
                    return None
                continue
            r = q_ / p_
            if p_ < 0:
                t0 = max(t0, r)
            else:
                t1 = min(t1, r)
            if t0 > t1:
                return None
        return (x0 + t0 * dx, y0 + t0 * dy, x0 + t1 * dx, y0 + t1 * dy)


def _grid(data: dict, file: str, P: str):
    """(size px, distance, units, type) of the scene's grid, v10+ (a table) or v9 (top-level keys)."""
    grid = data["grid"]
    if isinstance(grid, dict):                       # v10+
        size = number(grid.get("size"), file, f"{P}grid.size", positive=True)
        distance = number(grid.get("distance", 5), file, f"{P}grid.distance", positive=True)
        units, gtype = grid.get("units", "ft"), grid.get("type", 1)
    else:                                            # v9
        size = number(grid, file, f"{P}grid", positive=True)
        distance = number(data.get("gridDistance", 5), file, f"{P}gridDistance", positive=True)
        units, gtype = data.get("gridUnits", "ft"), data.get("gridType", 1)
    if gtype not in (0, 1):
        raise InteropError(file, f"{P}grid.type", f"grid type {gtype} is a hex grid; only square (1) and gridless (0) "
                                                  "scenes are read")
    return size, distance, units


def read_foundry(data: dict, file: str, base_dir: Path, *, cells_per_grid: int = 1, grid_m: float = 1.5,
                 want_image: bool = True, prefix: str = "", want_ground: bool = True) -> ImportedMap:
    """``want_image`` False (--no-image): no images at all; ``want_ground`` False (--image FILE): the storeys'
    images are read, the ground's is the one given."""
    P = prefix
    for key in LIST_KEYS:
        if data.get(key) is not None and not isinstance(data[key], list):
            raise InteropError(file, f"{P}{key}", f"must be a list, not {type(data[key]).__name__}")
    core = _flag(data, "_stats", "coreVersion") or _flag(data, "flags", "exportSource", "coreVersion")
    size, distance, units = _grid(data, file, P)
    width = number(data.get("width"), file, f"{P}width", positive=True)
    height = number(data.get("height"), file, f"{P}height", positive=True)
    padding = number(data.get("padding", 0.25), file, f"{P}padding")
    if not 0 <= padding <= 0.5:
        raise InteropError(file, f"{P}padding", f"{padding} is outside 0..0.5")
    N = cells_per_grid
    cv = _Canvas(file, size, width, height, padding, N, P)
    X, Y = cv.X, cv.Y
    m_per_unit = grid_m / distance                   # metres per scene unit (ft): wall heights, elevations
    name = data.get("name") or Path(file).stem
    m = ImportedMap(file, f"foundry {core or ('9' if not isinstance(data['grid'], dict) else '10+')}", str(name),
                    (X, Y), grid_m / N, m_per_unit=m_per_unit, size_key=f"{P}width")
    m.notes.append(f"Foundry scene {name!r} (core {core or 'unknown'}): {width:g} x {height:g} px, grid {size:g} px = "
                   f"{distance:g} {units}, padding {padding:g}; {N} cell(s) per grid square; 1 {units} = "
                   f"{m_per_unit:.4g} m")
    if abs(X - cv.gx * N) > 1e-6 or abs(Y - cv.gy * N) > 1e-6:
        m.notes.append(f"{cv.gx * N:g} x {cv.gy * N:g} cells stretched to {X} x {Y}, the image with them")
    levels = _read_levels(data, file, P, units, m)
    _read_walls(data, file, P, cv, levels, m_per_unit, m)
    _read_tokens(data, file, P, cv, N, m_per_unit, m)
    ignored = [f"{len(data.get(n) or [])} {n}" for n in ("lights", "tiles", "drawings", "sounds", "notes", "templates", "regions")
               if data.get(n)]
    if ignored:
        m.notes.append("ignored: " + ", ".join(ignored))

    geo = (width, height, cv.pad_x, cv.pad_y, X, Y, m_per_unit)
    n_warn = len(m.warnings)
    m.storeys = read_storeys(data, file, base_dir, P, levels, geo, m, want_image)
    if not want_image:
        del m.warnings[n_warn:]           # --no-image: storey images were read only for their areas
    m.openings = read_openings(data, file, P, geo, cv.conv, m)
    if want_image and want_ground:
        _ground_image(data, file, base_dir, P, levels, cv, m)
    return m


def _read_levels(data: dict, file: str, P: str, units: str, m: ImportedMap) -> dict:
    """v14's scene levels: id -> (bottom, top, name), the elevations in scene units (None: no limit)."""
    levels = {}
    for i, lv in enumerate(data.get("levels") or []):
        if not isinstance(lv, dict):
            raise InteropError(file, f"{P}levels[{i}]", "must be a table")
        el = lv.get("elevation") or {}
        if not isinstance(el, dict):
            raise InteropError(file, f"{P}levels[{i}].elevation", "must be a table with bottom and top")
        lid = lv.get("_id")
        if lid is not None and not isinstance(lid, str):
            raise InteropError(file, f"{P}levels[{i}]._id", f"{lid!r} is not an id (a string)")
        levels[lid] = (_elev(el.get("bottom"), file, f"{P}levels[{i}].elevation.bottom"),
                       _elev(el.get("top"), file, f"{P}levels[{i}].elevation.top"), lv.get("name"))
    if levels:
        m.notes.append("v14 scene levels: " + ", ".join(f"{v[2] or k!r} {v[0] if v[0] is not None else '-inf'}.."
                                                        f"{v[1] if v[1] is not None else 'inf'} {units}"
                                                        for k, v in levels.items()))
    return levels


def _wall_span(w: dict, file: str, k: str, levels: dict):
    """(bottom, top, the bottom's key) of a wall in scene units (None: no limit), from the first elevation flag it
    carries: Wall Height 3+, Wall Height before 3.0, Levels, v14's level ids."""
    bottom = top = None
    bkey = f"{k}.levels"
    wh = _flag(w.get("flags"), "wall-height")
    if isinstance(wh, dict):
        bkey = f'{k}.flags["wall-height"].bottom'
        bottom = _elev(wh.get("bottom"), file, bkey)
        top = _elev(wh.get("top"), file, f'{k}.flags["wall-height"].top')
    old = _flag(w.get("flags"), "wallHeight")             # Wall Height before 3.0: wallHeightTop / Bottom
    if isinstance(old, dict) and bottom is None and top is None:
        bkey = f"{k}.flags.wallHeight.wallHeightBottom"
        bottom = _elev(old.get("wallHeightBottom"), file, bkey)
        top = _elev(old.get("wallHeightTop"), file, f"{k}.flags.wallHeight.wallHeightTop")
    lv = _flag(w.get("flags"), "levels")
    if isinstance(lv, dict) and bottom is None and top is None:
        bkey = f"{k}.flags.levels.rangeBottom"
        bottom = _elev(lv.get("rangeBottom"), file, bkey)
        top = _elev(lv.get("rangeTop"), file, f"{k}.flags.levels.rangeTop")
    if bottom is None and top is None and isinstance(w.get("levels"), list) and levels:
        spans = [levels[i_] for i_ in w["levels"] if isinstance(i_, str) and i_ in levels]
        if spans:
            bots = [s[0] for s in spans]
            tops = [s[1] for s in spans]
            bottom = None if any(v is None for v in bots) else min(bots)
            top = None if any(v is None for v in tops) else max(tops)
    return bottom, top, bkey


def _read_walls(data: dict, file: str, P: str, cv: _Canvas, levels: dict, m_per_unit: float, m: ImportedMap) -> None:
    counts = dict.fromkeys(("wall", "door", "barrier", "veil", "skipped", "heights", "padding", "clipped", "below",
                            "basement"), 0)
    for i, w in enumerate(data["walls"]):
        k = f"{P}walls[{i}]"
        if not isinstance(w, dict):
            raise InteropError(file, k, "must be a table")
        c = w.get("c")
        if not isinstance(c, list) or len(c) != 4:
            raise InteropError(file, f"{k}.c", "must be [x0, y0, x1, y1]")
        x0, y0, x1, y1 = (number(v, file, f"{k}.c[{j}]") for j, v in enumerate(c))
        cv.canvas_check(x0, y0, f"{k}.c")
        cv.canvas_check(x1, y1, f"{k}.c")
        seg = cv.clip(x0, y0, x1, y1)
        if seg is None:
            counts["padding"] += 1
            continue
        if seg != (x0, y0, x1, y1):
            counts["clipped"] += 1
        a, b = cv.conv(seg[0], seg[1], f"{k}.c"), cv.conv(seg[2], seg[3], f"{k}.c")
        blocks_move = bool(w.get("move", 20))
        blocks_sight = bool(w.get("sight", w.get("sense", 20)))
        door = _choice(w.get("door"), (0, 1, 2), file, f"{k}.door")
        ds = _choice(w.get("ds"), (0, 1, 2), file, f"{k}.ds")
        bottom, top, bkey = _wall_span(w, file, k, levels)
        if bottom is not None or top is not None:
            counts["heights"] += 1
        bottom_m = _depth((bottom or 0.0) * m_per_unit, file, bkey)   # below 0: a basement (the map is shifted up)
        top_m = None if top is None else _top(top * m_per_unit)
        if top_m is not None and top_m <= bottom_m:
            counts["below"] += 1                     # a top at or under its bottom: nothing stands there
            continue
        if bottom_m < 0:
            counts["basement"] += 1
        if door:
            state = "secret" if door == 2 and ds != 1 else DOOR_STATES.get(ds, "closed")
            m.walls.append(Wall(a, b, "door", bottom_m, top_m, k, state))
            counts["door"] += 1
            continue
        kind = ("wall" if blocks_sight else "barrier") if blocks_move else ("veil" if blocks_sight else None)
        if kind is None:
            counts["skipped"] += 1
        else:
            m.walls.append(Wall(a, b, kind, bottom_m, top_m, k))
            counts[kind] += 1
    m.notes.append(f"read: {counts['wall']} wall(s), {counts['door']} door(s), {counts['barrier']} movement-only "
                   f"wall(s) (barrier), {counts['veil']} sight-only wall(s) (veil), {counts['heights']} with a top or "
                   f"bottom; skipped {counts['skipped']} that block neither")
    if counts["below"]:
        m.notes.append(f"{counts['below']} wall(s) with a top at or under their bottom dropped")
    if counts["basement"]:
        m.notes.append(f"{counts['basement']} wall(s) below the ground (a basement): kept, the map shifted up")
    if counts["padding"] or counts["clipped"]:
        m.notes.append(f"{counts['padding']} wall(s) wholly in the scene's padding dropped, {counts['clipped']} cut at "
                       "the scene's edge")


def _read_tokens(data: dict, file: str, P: str, cv: _Canvas, N: int, m_per_unit: float, m: ImportedMap) -> None:
    for i, t in enumerate(data.get("tokens") or []):
        k = f"{P}tokens[{i}]"
        if not isinstance(t, dict):
            raise InteropError(file, k, "must be a table")
        tw = number(t.get("width", 1), file, f"{k}.width", positive=True)
        th = number(t.get("height", 1), file, f"{k}.height", positive=True)
        tx = number(t.get("x", 0), file, f"{k}.x")
        ty = number(t.get("y", 0), file, f"{k}.y")
        cx, cy = cv.conv(tx + tw * cv.size / 2, ty + th * cv.size / 2, f"{k}.x")
        elev = _elev(t.get("elevation", 0), file, f"{k}.elevation") or 0.0
        _depth(elev * m_per_unit, file, f"{k}.elevation")
        extra = _flag(t.get("flags"), "aerie")
        if extra is not None and not isinstance(extra, dict):
            raise InteropError(file, f"{k}.flags.aerie", "must be a table of character keys")
        disp = t.get("disposition", 0)
        if isinstance(disp, bool) or not isinstance(disp, (int, float)):
            raise InteropError(file, f"{k}.disposition", f"{disp!r} is not a disposition (1 friendly, 0 neutral, "
                                                          "-1 hostile, -2 secret)")
        extra = {} if extra is None else character_keys(extra, file, f"{k}.flags.aerie")
        m.tokens.append(Token(str(t.get("name") or f"token{i}"), (cx, cy), max(tw, th) * N, elev * m_per_unit,
                              next((v for d, v in SIDES.items() if d == disp), "neutral"), extra, k))


def _ground_image(data: dict, file: str, base_dir: Path, P: str, levels: dict, cv: _Canvas, m: ImportedMap) -> None:
    """The ground's image: the background (v14: the level at 0 ft's), else the ground tiles composed, else a plain
    ground with a warning."""
    bg = data.get("background")
    src = bg.get("src") if isinstance(bg, dict) else data.get("img")
    key = f"{P}background.src" if isinstance(bg, dict) else f"{P}img"
    if not src and isinstance(data.get("levels"), list):
        # v14: each scene level has its own background; the ground's is the lowest level's
        lv = [(levels.get(lvl.get("_id"), (None,))[0] or 0.0, i, lvl) for i, lvl in enumerate(data["levels"])
              if isinstance(lvl, dict) and isinstance(lvl.get("background"), dict) and lvl["background"].get("src")]
        if lv:
            # the level at 0 ft (the highest bottom at or under 0; a basement's image goes on its own floor)
            at0 = [t for t in lv if t[0] <= 0]
            _, i, lvl = max(at0, key=lambda t: (t[0], -t[1])) if at0 else min(lv, key=lambda t: (t[0], t[1]))
            src, key, bg = lvl["background"]["src"], f"{P}levels[{i}].background.src", lvl["background"]
            m.notes.append(f"the ground image is level {lvl.get('name') or lvl.get('_id')!r}'s background")
    if not src:
        n_warn = len(m.warnings)
        tiled = ground_from_tiles(data, file, base_dir, P, (cv.width, cv.height), (cv.pad_x, cv.pad_y), m)
        if tiled is not None:
            m.image, note = tiled
            m.notes.append(note)
        elif len(m.warnings) == n_warn:          # else its ground tiles' images are missing: said already
            m.warnings.append(f"{file}: {key}: the scene has no background image: imported with a plain ground "
                              "(--image FILE sets one)")
        return
    if isinstance(bg, dict) and (bg.get("offsetX") or bg.get("offsetY") or bg.get("scaleX", 1) != 1
                                 or bg.get("scaleY", 1) != 1 or bg.get("rotation")):
        m.notes.append("the background's offset, scale and rotation are ignored: the image fills the scene")
    m.image = _optional_image(str(src), base_dir, file, key, m)


def _optional_image(src: str, base_dir: Path, file: str, key: str, m: ImportedMap) -> MapImage | None:
    """An image the scene names that may be missing (Foundry opens such a scene with a warning, and so does the
    import: a plain floor, one warning line). An image that is there but broken is still an error."""
    try:
        return m.read_image(_tile_image(src, base_dir, file, key), key)
    except InteropError as e:
        if "no such file next to the map" not in e.problem:
            raise
        m.warnings.append(f"{file}: {key}: the image {src!r} is not next to the map: imported with a plain "
                          "ground there (--image FILE sets the ground's)")
        return None


GROUND_TILES_MAX_PX = 4096       # the composed ground image's longest side (the renderer's own upload cap)


def _tile_elevation(tile: dict, file: str, key: str) -> float:
    """A tile's elevation; 0 when it has none or not a number (Foundry's default); NaN or an infinity is refused
    (it was an OverflowError where the storey's layer is worked out)."""
    e = tile.get("elevation")
    if isinstance(e, bool) or not isinstance(e, (int, float)):
        return 0
    return number(e, file, f"{key}.elevation")


def ground_from_tiles(data: dict, file: str, base_dir: Path, P: str, size, pad, m: ImportedMap):
    """A scene without a background whose floor is drawn by tiles (the Levels module's towers: one tile a floor):
    the ground image composed of its ground tiles, placed at their rectangles in the scene, or None without tiles.

    The ground tiles: those not ``overhead`` (v9 to v11), else (v12+, no such key) those at the lowest
    ``elevation`` at or above 0 (Levels' basements lie below 0). Rotation, alpha and tint are not applied."""
    from PIL import Image

    tiles = [(i, t) for i, t in enumerate(data.get("tiles") or []) if isinstance(t, dict)]
    src: list[tuple[int, dict, str]] = []         # (index, tile, its image's path) of the tiles shown
    for i, t in tiles:
        s = (t.get("texture") or {}).get("src") if isinstance(t.get("texture"), dict) else t.get("img")
        if isinstance(s, str) and s and not t.get("hidden"):
            src.append((i, t, s))
    if not src:
        return None
    if any("overhead" in t for _, t, _ in src):
        ground = [(i, t, s) for i, t, s in src if not t.get("overhead")]
    else:
        elev = {i: _tile_elevation(t, file, f"{P}tiles[{i}]") for i, t, _ in src}
        up = [e for e in elev.values() if e >= 0]
        lowest = min(up) if up else min(elev.values())
        ground = [(i, t, s) for i, t, s in src if elev[i] == lowest]
    if not ground:
        return None
    width, height = size
    k = min(1.0, GROUND_TILES_MAX_PX / max(width, height))
    W, H = max(1, round(width * k)), max(1, round(height * k))
    colour = data.get("backgroundColor") if isinstance(data.get("backgroundColor"), str) else "#999999"
    try:
        canvas = Image.new("RGBA", (W, H), colour)
    except ValueError:
        canvas = Image.new("RGBA", (W, H), "#999999")
    ground.sort(key=lambda g: (g[1].get("sort", g[1].get("z", 0)) or 0, g[0]))
    names = []
    for i, t, s in ground:
        key = f"{P}tiles[{i}]." + ("texture.src" if isinstance(t.get("texture"), dict) else "img")
        im = _optional_image(s, base_dir, file, key, m)
        if im is None:
            continue
        placed = _scaled_tile(im, t, file, f"{P}tiles[{i}]", k, pad, size, (W, H))
        if placed is not None:
            canvas.paste(placed[0], placed[1], placed[0])
        names.append(f"{P}tiles[{i}] {Path(unquote(s)).name!r}")
    if not names:
        return None
    buf = io.BytesIO()
    canvas.convert("RGB").save(buf, "PNG", optimize=True)
    img = check_image(buf.getvalue(), file, f"{P}tiles", "tiles")
    return img, (f"no background image: the ground image is composed of the scene's ground tiles ({', '.join(names)}) at "
                 f"their rectangles, {W} x {H} px; rotation, alpha and tint are not applied")


def _scaled_tile(im, t: dict, file: str, key: str, k: float, pad, scene, frame):
    """A tile's image at the composed image's scale ``k`` (RGBA) and where its top-left corner lands on the
    composed image (``frame``, W x H px): the tile's rectangle (``x``, ``y``, ``width``, ``height``) less the
    scene's padding ``pad``, scaled, and cut to the frame (only the part shown is scaled: a tile of 1e308 px
    was an OverflowError, a large one a whole-size RGBA copy); None when no part of it is shown."""
    tw = number(t.get("width"), file, f"{key}.width", positive=True)
    th = number(t.get("height"), file, f"{key}.height", positive=True)
    tx = number(t.get("x", 0), file, f"{key}.x")
    ty = number(t.get("y", 0), file, f"{key}.y")
    cw, ch = scene[0] + 2 * pad[0], scene[1] + 2 * pad[1]
    for v, edge, n, name in ((tx, tx + tw, cw, "x"), (ty, ty + th, ch, "y")):
        _near_canvas(v, n, file, f"{key}.{name}", "the tile's")
        _near_canvas(edge, n, file, f"{key}.{'width' if name == 'x' else 'height'}", "the tile's far")
    L, T = round((tx - pad[0]) * k), round((ty - pad[1]) * k)
    w, h = max(1, round(tw * k)), max(1, round(th * k))
    x0, y0, x1, y1 = max(0, L), max(0, T), min(frame[0], L + w), min(frame[1], T + h)
    if x1 <= x0 or y1 <= y0:
        return None

    with open_image(im.data) as pic:
        iw, ih = pic.size
        box = ((x0 - L) * iw / w, (y0 - T) * ih / h, (x1 - L) * iw / w, (y1 - T) * ih / h)
        try:
            tile = rgba_at(pic, (x1 - x0, y1 - y0), box)
        except (ValueError, OSError) as e:                  # a mode Pillow cannot convert (16-bit grey, say)
            raise InteropError(file, key, f"the tile's image cannot be drawn ({e})") from None
    return tile, (x0, y0)


#: a tile or a drawing may reach past the canvas (scene and padding) by this many times its size, no further
NEAR_CANVAS = 4


def _near_canvas(v: float, n: float, file: str, key: str, what: str) -> None:
    """A tile's or a drawing's edge ``v`` (canvas px on an axis ``n`` px long) within ``NEAR_CANVAS`` times the
    canvas of it; anything further is a broken file (1e308, say), refused by its key."""
    if not -NEAR_CANVAS * n <= v <= (NEAR_CANVAS + 1) * n:
        raise InteropError(file, key, f"{what} edge at {v:g} px is far outside the canvas (0..{n:g} px, the scene "
                                      f"and its padding; at most {NEAR_CANVAS} times that beyond it)")


def _tile_image(src: str, base_dir: Path, file: str, key: str) -> MapImage:
    """A tile's image: its path as written, or URL-decoded (Foundry writes ``First%20Floor.webp``)."""
    try:
        return image_file(src, base_dir, file, key)
    except InteropError:
        if unquote(src) == src:
            raise
        return image_file(unquote(src), base_dir, file, key)


# --- storeys ------------------------------------------------------------------------------------------------------
STOREY_TILES_MAX_PX = 2048      # a storey's composed tile image, longest side


def _levels_range(t: dict, file: str, key: str):
    """A tile's or drawing's Levels range (``flags.levels.rangeBottom`` / ``rangeTop``, numbers or strings)."""
    lv = _flag(t.get("flags"), "levels")
    if not isinstance(lv, dict):
        return None, None
    return (_elev(lv.get("rangeBottom"), file, f"{key}.flags.levels.rangeBottom"),
            _elev(lv.get("rangeTop"), file, f"{key}.flags.levels.rangeTop"))


def read_storeys(data: dict, file: str, base_dir: Path, P: str, levels: dict, geo, m: ImportedMap,
                 want_image: bool) -> list[Storey]:
    """The storeys the file states: v14's scene levels (each with its background image, its opaque area the
    floor), else the Levels module's floor tiles (``flags.levels.rangeBottom``; v12+ without Levels flags: a
    tile's ``elevation`` above 0), grouped by their bottom: the tiles of one bottom composed into that storey's
    image, their opaque area its floor. Wall Height bands without tiles are added by the build (their floors are
    the footprints their walls enclose)."""
    width, height, pad_x, pad_y, X, Y, mpu = geo
    out: list[Storey] = []
    if levels:
        for i, lv in enumerate(data.get("levels") or []):
            bottom, top, name = levels[lv.get("_id")]
            _depth((bottom or 0.0) * mpu, file, f"{P}levels[{i}].elevation.bottom")
            img = None
            bg = lv.get("background")
            if isinstance(bg, dict) and bg.get("src"):      # read for its area even with --no-image
                img = _optional_image(str(bg["src"]), base_dir, file, f"{P}levels[{i}].background.src", m)
            out.append(Storey(str(name or lv.get("_id") or f"level {i}"), (bottom or 0.0) * mpu,
                              None if top is None else _top(top * mpu), img if want_image else None,
                              alpha_area(img, X, Y) if img is not None else None, f"{P}levels[{i}]"))
        return out
    groups: dict[float, list] = {}
    for i, t in enumerate(data.get("tiles") or []):
        if not isinstance(t, dict) or t.get("hidden"):
            continue
        key = f"{P}tiles[{i}]"
        bottom, top = _levels_range(t, file, key)
        bkey = f"{key}.flags.levels.rangeBottom"
        if bottom is None and "overhead" not in t and _tile_elevation(t, file, key):
            bottom, bkey = float(_tile_elevation(t, file, key)), f"{key}.elevation"   # v12+: its elevation, its floor
        if bottom is None or bottom == 0:
            continue                                            # roofs and tree tops without a range: decoration
        _depth(bottom * mpu, file, bkey)
        groups.setdefault(bottom, []).append((i, t, top))
    if not groups:
        return out
    from PIL import Image

    k = min(1.0, STOREY_TILES_MAX_PX / max(width, height))
    W, H = max(1, round(width * k)), max(1, round(height * k))
    for bottom in sorted(groups):
        canvas = Image.new("RGBA", (W, H), (0, 0, 0, 0))
        names, tops = [], []
        for i, t, top in sorted(groups[bottom], key=lambda g: (g[1].get("sort", g[1].get("z", 0)) or 0, g[0])):
            src = (t.get("texture") or {}).get("src") if isinstance(t.get("texture"), dict) else t.get("img")
            if not isinstance(src, str) or not src:
                continue
            key = f"{P}tiles[{i}]." + ("texture.src" if isinstance(t.get("texture"), dict) else "img")
            im = _optional_image(src, base_dir, file, key, m)
            if im is None:
                continue
            placed = _scaled_tile(im, t, file, f"{P}tiles[{i}]", k, (pad_x, pad_y), (width, height), (W, H))
            layer = Image.new("RGBA", (W, H), (0, 0, 0, 0))
            if placed is not None:
                layer.paste(*placed)
            canvas = Image.alpha_composite(canvas, layer)
            names.append(f"tiles[{i}] {Path(unquote(src)).name!r}")
            tops.append(top)
        if not names:
            continue
        img = None
        if want_image:                                  # --no-image: only the area is wanted, not the PNG
            buf = io.BytesIO()
            canvas.save(buf, "PNG", compress_level=4)     # optimize=True took 7 s a 2048 px storey
            img = check_image(buf.getvalue(), file, f"{P}tiles", "tiles")
        top = None if any(t is None for t in tops) else max(tops)
        area = alpha_area(canvas, X, Y)
        out.append(Storey(f"{bottom:g} {'ft' if mpu < 1 else 'units'}", bottom * mpu,
                          None if top is None else _top(top * mpu), img, area,
                          f"{P}tiles ({', '.join(names)})"))
    return out


def read_openings(data: dict, file: str, P: str, geo, conv, m: ImportedMap) -> list[Opening]:
    """Levels' holes (drawing mode 1) and stairs (mode 2) with their ranges: the cells under the drawing's
    rectangle (a polygon's bounding box) are cut out of the floors in that range (stairs: the floor above their
    top, where the walker arrives). Elevators (mode 3) and other drawings are not read."""
    width, height, pad_x, pad_y, X, Y, mpu = geo
    out = []
    for i, d in enumerate(data.get("drawings") or []):
        if not isinstance(d, dict):
            continue
        mode = _flag(d.get("flags"), "levels", "drawingMode")
        if mode not in (1, 2):
            continue
        key = f"{P}drawings[{i}]"
        bottom, top = _levels_range(d, file, key)
        x = number(d.get("x", 0), file, f"{key}.x")
        y = number(d.get("y", 0), file, f"{key}.y")
        w = number(d.get("width", 0), file, f"{key}.width")
        h = number(d.get("height", 0), file, f"{key}.height")
        mask = _drawing_mask(d, (x, y, w, h), geo, file, key)
        if not mask.any():
            continue
        b = (bottom if bottom is not None else -math.inf) * mpu
        t = (top if top is not None else math.inf) * mpu
        kind = "hole" if mode == 1 else "stairs"
        out.append(Opening(kind, mask, b, t + (0.5 if kind == "stairs" else 0.0), key))
    if out:
        m.notes.append(f"Levels: {sum(o.kind == 'hole' for o in out)} hole(s), {sum(o.kind == 'stairs' for o in out)} "
                       "stair(s) cut out of the floors in their ranges (the cells whose centre the shape covers)")
    return out


def _drawing_mask(d: dict, rect, geo, file: str, key: str):
    """bool [Y, X]: the cells whose centres a drawing covers (a rectangle, an ellipse's box, a polygon's
    ``points`` relative to its x, y); rotation is not applied."""
    import numpy as np
    from PIL import Image, ImageDraw

    width, height, pad_x, pad_y, X, Y, _ = geo
    x, y, w, h = rect
    cw, ch = width + 2 * pad_x, height + 2 * pad_y
    k = 4
    im = Image.new("L", (X * k, Y * k), 0)
    dr = ImageDraw.Draw(im)

    def px(u, v, where):
        # every corner near the canvas: 1e308 overflowed in Pillow, a negative size was a ValueError
        _near_canvas(u, cw, file, f"{key}.{where[0]}", "the drawing's")
        _near_canvas(v, ch, file, f"{key}.{where[1]}", "the drawing's")
        return ((u - pad_x) / width * X * k, (v - pad_y) / height * Y * k)

    pts = d.get("points") if d.get("type") == "p" else None
    if isinstance(pts, list) and len(pts) >= 3 and all(isinstance(q, list) and len(q) == 2 for q in pts):
        dr.polygon([px(x + number(q[0], file, f"{key}.points[{j}][0]"), y + number(q[1], file, f"{key}.points[{j}][1]"),
                       (f"points[{j}][0]", f"points[{j}][1]")) for j, q in enumerate(pts)], fill=255)
    else:
        (ax, ay), (bx, by) = px(x, y, "xy"), px(x + w, y + h, ("width", "height"))
        dr.rectangle([(min(ax, bx), min(ay, by)), (max(ax, bx), max(ay, by))], fill=255)
    centres = np.asarray(im, dtype=np.uint8)[k // 2::k, k // 2::k][:Y, :X]
    return (centres > 0)[::-1].copy()
