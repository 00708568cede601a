"""Universal VTT (``.dd2vtt`` Dungeondraft, ``.df2vtt`` DungeonFog, ``.uvtt`` Arkenforge and others).

Read: ``format`` (0.2, 0.3 or 1.0; absent is read as 0.2), ``resolution`` (``map_origin``, ``map_size``,
``pixels_per_grid``), ``line_of_sight`` and ``objects_line_of_sight`` (polylines in grid units; 0.2 files have no
object lines), ``portals`` (``bounds``, ``closed``; ``position``, ``rotation``, ``freestanding`` are only checked),
and ``image`` (base64 PNG, JPEG or WebP, or a file path next to the map). ``lights`` and ``environment`` are
counted and noted in the scene, not used. Coordinates are grid units from the map's ``map_origin``; y points down
the image, Aerie's y north, so the image's top edge is the map's north edge.
"""

from __future__ import annotations

from pathlib import Path

from engine.interop.common import (ImportedMap, InteropError, Wall, decode_base64_image, image_file, looks_base64,
                                   map_cells, number, point)

FORMATS = ("0.2", "0.3", "1.0")
EDGE_TOLERANCE = 0.125           # grid units a point may stray outside the map (clamped); further is an error


def is_uvtt(data) -> bool:
    return isinstance(data, dict) and isinstance(data.get("resolution"), dict)


def _version(data: dict, file: str) -> str:
    fmt = data.get("format", None)
    if fmt is None:
        return "0.2"
    if isinstance(fmt, bool) or not isinstance(fmt, (int, float, str)):
        raise InteropError(file, "format", f"{fmt!r} is not a Universal VTT format number")
    try:
        version = f"{float(fmt):.1f}"
    except ValueError:
        raise InteropError(file, "format", f"{fmt!r} is not a Universal VTT format number") from None
    if version not in FORMATS:
        raise InteropError(file, "format", f"Universal VTT format {fmt} is not supported (read: {', '.join(FORMATS)})")
    return version


class _Grid:
    """Grid squares (from the map's origin, y down) -> map cells (y up), the map's edge checked."""

    def __init__(self, file: str, origin, size, scale):
        self.file, (self.ox, self.oy), (self.sx, self.sy), (self.kx, self.ky) = file, origin, size, scale

    def conv(self, p, key):
        ox, oy, sx, sy = self.ox, self.oy, self.sx, self.sy
        gx, gy = p[0] - ox, p[1] - oy
        if not (-EDGE_TOLERANCE <= gx <= sx + EDGE_TOLERANCE and -EDGE_TOLERANCE <= gy <= sy + EDGE_TOLERANCE):
            raise InteropError(self.file, key, f"point ({p[0]:g}, {p[1]:g}) is outside the map: grid x "
                                               f"{ox:g}..{ox + sx:g}, y {oy:g}..{oy + sy:g}")
        gx, gy = min(max(gx, 0.0), sx), min(max(gy, 0.0), sy)
        return (gx * self.kx, (sy - gy) * self.ky)


def read_uvtt(data: dict, file: str, base_dir: Path, *, cells_per_grid: int = 1, grid_m: float = 1.5,
              want_image: bool = True) -> ImportedMap:
    version = _version(data, file)
    res = data["resolution"]
    ox, oy = point(res.get("map_origin", {"x": 0, "y": 0}), file, "resolution.map_origin")
    if "map_size" not in res:
        raise InteropError(file, "resolution.map_size", "required key is missing")
    sx, sy = point(res["map_size"], file, "resolution.map_size")
    if sx <= 0 or sy <= 0:
        raise InteropError(file, "resolution.map_size", f"{sx} x {sy} grid squares: both must be above 0")
    ppg = number(res.get("pixels_per_grid"), file, "resolution.pixels_per_grid", positive=True)
    N = cells_per_grid
    X, Y = map_cells(sx * N, sy * N, file, "resolution.map_size", f"at {N} cell(s) per grid square")
    if not sx * ppg < 2**53 or not sy * ppg < 2**53:    # the image size it expects (a note when it differs)
        raise InteropError(file, "resolution.pixels_per_grid", f"{ppg:g} px a grid square makes the map's image "
                                                               f"{sx * ppg:.4g} x {sy * ppg:.4g} px")
    m = ImportedMap(file, f"uvtt {version}", Path(file).stem, (X, Y), grid_m / N, m_per_unit=grid_m,
                    size_key="resolution.map_size")
    m.notes.append(f"Universal VTT format {version}: {sx:g} x {sy:g} grid squares of {ppg:g} px, "
                   f"origin ({ox:g}, {oy:g}); {N} cell(s) per grid square")
    kx, ky = X / sx, Y / sy             # N, unless the map is a fraction of a square wider: then stretched to X x Y
    if abs(kx - N) > 1e-9 or abs(ky - N) > 1e-9:
        m.notes.append(f"{sx * N:g} x {sy * N:g} cells stretched to {X} x {Y}, the image with them")
    g = _Grid(file, (ox, oy), (sx, sy), (kx, ky))
    n_walls = _polylines(data, file, "line_of_sight", "wall", g, m)
    if "objects_line_of_sight" in data:
        n_obj = _polylines(data, file, "objects_line_of_sight", "object", g, m)
    else:
        n_obj = 0
        m.notes.append("no objects_line_of_sight (a format 0.2 file): no low obstacles")
    portals = _portals(data, file, g, m)
    lights = data.get("lights") or []
    m.notes.append(f"read: {n_walls} wall segment(s), {n_obj} object segment(s), {len(portals)} portal(s); "
                   f"ignored: {len(lights) if isinstance(lights, list) else 0} light(s), the environment")
    if want_image:
        _image(data, file, base_dir, (round(sx * ppg), round(sy * ppg)), m)
    return m


def _polylines(data: dict, file: str, key: str, kind: str, g: _Grid, m: ImportedMap) -> int:
    lines = data.get(key)
    if lines is None:
        return 0
    if not isinstance(lines, list):
        raise InteropError(file, key, "must be a list of polylines")
    n = 0
    for i, line in enumerate(lines):
        k = f"{key}[{i}]"
        if not isinstance(line, list):
            raise InteropError(file, k, "must be a list of points")
        pts = [g.conv(point(p, file, f"{k}[{j}]"), f"{k}[{j}]") for j, p in enumerate(line)]
        for j in range(len(pts) - 1):
            m.walls.append(Wall(pts[j], pts[j + 1], kind, source=k))
            n += 1
    return n


def _portals(data: dict, file: str, g: _Grid, m: ImportedMap) -> list:
    portals = data.get("portals") or []
    if not isinstance(portals, list):
        raise InteropError(file, "portals", "must be a list")
    for i, p in enumerate(portals):
        k = f"portals[{i}]"
        if not isinstance(p, dict):
            raise InteropError(file, k, "must be a table")
        b = p.get("bounds")
        if not isinstance(b, list) or len(b) < 2:
            raise InteropError(file, f"{k}.bounds", "must hold two points")
        a0 = g.conv(point(b[0], file, f"{k}.bounds[0]"), f"{k}.bounds[0]")
        a1 = g.conv(point(b[-1], file, f"{k}.bounds[{len(b) - 1}]"), f"{k}.bounds[{len(b) - 1}]")
        if "position" in p:
            point(p["position"], file, f"{k}.position")
        if "rotation" in p:
            number(p["rotation"], file, f"{k}.rotation")
        closed = p.get("closed", True)
        if not isinstance(closed, bool):
            raise InteropError(file, f"{k}.closed", f"{closed!r} is not true or false")
        m.walls.append(Wall(a0, a1, "door", source=k, state="closed" if closed else "open"))
    return portals


def _image(data: dict, file: str, base_dir: Path, want: tuple, m: ImportedMap) -> None:
    """The map's image (base64 in the file, or a path next to it); missing: a plain ground and one warning."""
    img = data.get("image")
    if img is None or img == "":
        m.warnings.append(f"{file}: image: the map has no image: imported with a plain ground (--image FILE sets one)")
        return
    if not isinstance(img, str):
        raise InteropError(file, "image", "must be a base64 string or a file path")
    if looks_base64(img):
        m.image = decode_base64_image(img, file, "image")
    else:
        try:
            m.image = m.read_image(image_file(img, base_dir, file, "image"), "image")
        except InteropError as e:             # a path to nothing: a plain ground and one warning line
            if "no such file next to the map" not in e.problem:
                raise
            m.warnings.append(f"{file}: image: the image {img!r} is not next to the map: imported with a plain "
                              "ground (--image FILE sets one)")
            return
    if m.image.size != want:
        m.notes.append(f"the image is {m.image.size[0]} x {m.image.size[1]} px, not the {want[0]} x {want[1]} of "
                       f"map_size x pixels_per_grid: stretched over the map")
