"""The world's part of a scene file: the map (size, .vox model, fills), the materials, the cameras and the
ground image, as typed tables and the :class:`World` they build; body sizes and support.

Geometry and materials only: the characters, options, script and expectations of a scene (what the rules read) are
loaded a layer above the rules, in :mod:`engine.scene` (``load_scene``, ``parse_scene``). Every error names the
file and the key path and is raised as :class:`SceneError`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

import numpy as np

from engine.errors import AerieError, SceneError, display_path as _display
from engine.resources import resource_dir
from engine.world.grid import MAX_CELLS_XY, MAX_LAYERS, MAX_VOXELS, World
from engine.world.images import GROUND_IMAGE_MAX_PX, open_image
from engine.world.materials import AIR, BUILTIN_MATERIALS, TERRAIN_KINDS, Material
from engine.world.spec import Strict as _Strict, convert as _convert, msgspec_path as _msgspec_path  # noqa: F401

# Body sizes: footprint in cells, body height in layers (1 m each) and eye height in metres.
SIZES = {
    "tiny": (1, 1, 0.5),
    "small": (1, 1, 0.9),
    "medium": (1, 2, 1.6),
    "large": (2, 3, 2.6),
    "huge": (3, 4, 3.6),
    "gargantuan": (4, 6, 5.5),
}

Vec3i = tuple[int, int, int]
Vec3f = tuple[float, float, float]




class FillSpec(_Strict, rename={"from_": "from"}, frozen=True):
    material: str
    from_: Vec3i
    to: Vec3i


class MapSpec(_Strict, frozen=True):
    size: Vec3i | None = None
    cell_m: float = 1.5
    vox: str | None = None
    vox_offset: Vec3i = (0, 0, 0)
    vox_materials: dict[str, str] = {}
    fill: list[FillSpec] = []
    ground_image: str | None = None    # an image laid on the ground (engine/interop writes it; see _ground_image)


class MaterialSpec(_Strict, frozen=True):
    color: tuple[int, int, int] | str
    blocks_sight: bool = True
    solid: bool = True
    translucent: bool = False
    terrain: str | None = None
    # as an object (engine/world/objects.py); absent: the built-in material of that name's, else the defaults
    ac: int | None = None
    hp: int | None = None                # per voxel
    toughness: str | None = None         # fragile | resilient: sets hp when hp is absent
    threshold: int | None = None
    indestructible: bool | None = None
    immunities: list[str] | None = None
    resistances: list[str] | None = None
    vulnerabilities: list[str] | None = None


class CameraSpec(_Strict, frozen=True):
    name: str
    position: Vec3f            # metres: x east, y north, z up (see docs/world.md)
    look_at: Vec3f
    fov: float = 50.0


class KeyframeSpec(_Strict, frozen=True):
    t: float                   # seconds
    position: Vec3f
    look_at: Vec3f
    easing: Literal["linear", "ease", "ease-in", "ease-out", "hold"] = "ease"


ASSETS_DIR = resource_dir("assets").resolve()
ASSET_PREFIX = "@assets/"


def _safe_asset(scene_dir: Path, rel: str, file: str, key: str, cap: int | None = None) -> Path:
    """Resolve an asset path. It is relative to the scene's folder and must stay inside it (no absolute paths,
    no .., no links out); ``@assets/...`` names a file shipped in Aerie's own assets/ folder, and must stay in it.
    It must be a regular file under ``cap`` bytes (engine.inputs.contained: the one check every asset goes through)."""
    from engine.inputs import VOX_MAX_BYTES, contained

    if rel.startswith(ASSET_PREFIX):
        base, rel_in = ASSETS_DIR, rel[len(ASSET_PREFIX):]
        where = "Aerie's assets folder"
    else:
        base, rel_in = scene_dir.resolve(), rel
        where = "the scene's folder"
    if not rel_in:
        raise SceneError(file, key, f"asset path {rel!r} must be relative to {where}")
    return contained(base, rel_in, cap or VOX_MAX_BYTES, where, lambda m: SceneError(file, key, m.replace(repr(rel_in), repr(rel), 1)))


def _color(value, file: str, key: str) -> tuple[int, int, int]:
    if isinstance(value, str):
        m = re.fullmatch(r"#?([0-9a-fA-F]{6})", value)
        if not m:
            raise SceneError(file, key, f"colour {value!r} is not #rrggbb or [r, g, b]")
        h = m.group(1)
        return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))
    if any(not 0 <= c <= 255 for c in value):
        raise SceneError(file, key, f"colour {list(value)} must have components 0..255")
    return tuple(value)


def check_map_size(size, file: str, key: str = "map.size") -> None:
    x, y, z = size
    if min(size) < 1:
        raise SceneError(file, key, f"every dimension must be at least 1, got {list(size)}")
    if x > MAX_CELLS_XY or y > MAX_CELLS_XY:
        raise SceneError(file, key, f"{x} x {y} cells is over the cap of {MAX_CELLS_XY} cells per side")
    if z > MAX_LAYERS:
        raise SceneError(file, key, f"{z} layers is over the cap of {MAX_LAYERS}")
    if x * y * z > MAX_VOXELS:
        raise SceneError(file, key, f"{x * y * z:,} voxels is over the cap of {MAX_VOXELS:,}")


def build_materials(materials: dict[str, MaterialSpec], file: str) -> dict[str, Material]:
    mats = dict(BUILTIN_MATERIALS)
    for name, m in materials.items():
        key = f"materials.{name}"
        if name == "air" or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_\-]*", name):
            raise SceneError(file, key, "a material needs a name of letters, digits, _ or -, other than 'air'")
        if m.terrain is not None and m.terrain not in TERRAIN_KINDS:
            raise SceneError(file, f"{key}.terrain", f"unknown terrain {m.terrain!r}; one of {', '.join(TERRAIN_KINDS)}")
        from engine.world.objects import material_object_stats

        mats[name] = Material(name, _color(m.color, file, f"{key}.color"), m.blocks_sight, m.solid,
                              m.translucent, m.terrain, **material_object_stats(m, BUILTIN_MATERIALS.get(name), file, key))
    return mats


def build_world(mp: MapSpec, material_specs: dict[str, MaterialSpec], scene_dir: Path, file: str) -> World:
    """The map's voxels and materials (``[map]``, ``[materials.*]``), checked against the caps."""
    mats = build_materials(material_specs, file)
    if not (0.1 <= mp.cell_m <= 10):
        raise SceneError(file, "map.cell_m", f"cell size {mp.cell_m} m is outside 0.1..10 m")
    vox_path = vox_file(mp, scene_dir, file)
    vox = _read_vox(vox_path, file)
    size = mp.size
    if size is None:
        if vox is None:
            raise SceneError(file, "map.size", "required key is missing (or give map.vox to take its size)")
        ox, oy, oz = mp.vox_offset
        size = (vox.size[0] + ox, vox.size[1] + oy, vox.size[2] + oz)
    check_map_size(size, file)
    X, Y, Z = size

    names = list(mats)
    ids = {"air": 0}
    for n in names:
        ids[n] = len(ids)
    materials = [AIR] + [mats[n] for n in names]
    if len(materials) > 256:        # a voxel is one byte: material 0 is air
        raise SceneError(file, "materials", f"{len(names)} materials ({len(BUILTIN_MATERIALS)} built in, "
                                            f"{len(names) - len(BUILTIN_MATERIALS)} of the scene's); a map holds at most 255")
    voxels = np.zeros((Z, Y, X), dtype=np.uint8)
    if vox is not None:
        _place_vox(mp, vox, voxels, ids, materials, file)
    for key in mp.vox_materials:
        if not key.isdigit() or not 1 <= int(key) <= 255:
            raise SceneError(file, f"map.vox_materials.{key}", "keys are MagicaVoxel colour indices 1..255")
    _fill(mp, voxels, ids, size, file)
    world = World(voxels, tuple(materials), float(mp.cell_m))
    # kept so a command can refuse an output that would replace the map it was read from (engine.scene.scene_inputs)
    world.vox_file = vox_path
    return world


def vox_file(mp: MapSpec, scene_dir: Path, file: str) -> Path | None:
    """``map.vox``'s file, resolved and checked (None without one)."""
    return None if mp.vox is None else _safe_asset(scene_dir, mp.vox, file, "map.vox")


def _read_vox(path: Path | None, file: str):
    """``map.vox``'s model from its file (None without one), its errors as the scene's at ``map.vox``."""
    if path is None:
        return None
    from engine.world.vox import read_vox  # local: the reader is only needed for .vox maps

    try:
        return read_vox(path, name=_display(path), max_voxels=MAX_VOXELS, max_side=MAX_CELLS_XY)
    except AerieError as e:
        raise SceneError(file, "map.vox", str(e)) from None


def _place_vox(mp: MapSpec, vox, voxels: np.ndarray, ids: dict, materials: list, file: str) -> None:
    """The model's voxels into ``voxels`` at ``map.vox_offset``: each palette index as ``map.vox_materials`` names
    it, else the material of the same colour, else a new material ``voxN`` of its colour (added to ``ids`` and
    ``materials``)."""
    Z, Y, X = voxels.shape
    ox, oy, oz = mp.vox_offset
    vx, vy, vz = vox.size
    if min(ox, oy, oz) < 0 or ox + vx > X or oy + vy > Y or oz + vz > Z:
        raise SceneError(file, "map.vox", f"the model's {vx} x {vy} x {vz} voxels at offset {list(mp.vox_offset)} "
                                          f"do not fit the map's {X} x {Y} x {Z}")
    used = np.unique(vox.voxels)
    lut = np.zeros(256, dtype=np.int32)
    for ci in used.tolist():
        if ci == 0:
            continue
        mname = mp.vox_materials.get(str(ci))
        if mname is not None:
            if mname == "air":
                lut[ci] = 0
                continue
            if mname not in ids:
                raise SceneError(file, f"map.vox_materials.{ci}", f"unknown material {mname!r}")
            lut[ci] = ids[mname]
        else:
            cr, cg, cb = (int(v) for v in vox.palette[ci][:3])
            rgb = (cr, cg, cb)
            same = next((i for i, m in enumerate(materials) if i and m.color == rgb), None)
            if same is not None:      # a palette colour equal to a material's colour is that material
                lut[ci] = same
                continue
            auto = Material(f"vox{ci}", rgb)
            ids[auto.name] = len(materials)
            materials.append(auto)
            lut[ci] = ids[auto.name]
    if len(materials) > 256:
        raise SceneError(file, "map.vox", f"{len(materials) - 1} materials; a map holds at most 255")
    voxels[oz:oz + vz, oy:oy + vy, ox:ox + vx] = lut[vox.voxels].astype(np.uint8)


def _fill(mp: MapSpec, voxels: np.ndarray, ids: dict, size, file: str) -> None:
    """``map.fill``'s boxes, in order (a later one overwrites), each corner inside the map."""
    for i, f in enumerate(mp.fill):
        key = f"map.fill[{i}]"
        if f.material not in ids:
            raise SceneError(file, f"{key}.material", f"unknown material {f.material!r}")
        for corner_key, corner in (("from", f.from_), ("to", f.to)):
            for axis, (v, limit) in enumerate(zip(corner, size)):
                if not 0 <= v < limit:
                    what = ("x", "y", "layer")[axis]
                    raise SceneError(file, f"{key}.{corner_key}", f"{what} {v} is outside the map's 0..{limit - 1}")
        (x0, y0, z0), (x1, y1, z1) = f.from_, f.to
        xa, xb = sorted((x0, x1))
        ya, yb = sorted((y0, y1))
        za, zb = sorted((z0, z1))
        voxels[za:zb + 1, ya:yb + 1, xa:xb + 1] = ids[f.material]


def body_solid(world: World, x: int, y: int, layer: int, footprint: int, height: int) -> tuple[int, int, int] | None:
    X, Y, Z = world.size
    z0, z1 = max(layer, 0), min(layer + height, Z)
    if z0 >= z1:
        return None
    block = world.solid_lut[world.voxels[z0:z1, y:min(y + footprint, Y), x:min(x + footprint, X)]]
    hit = np.argwhere(block)
    if hit.size == 0:
        return None
    dz, dy, dx = hit[0]
    return (x + int(dx), y + int(dy), z0 + int(dz))


def supported(world: World, x: int, y: int, layer: int, footprint: int = 1) -> bool:
    """A body stands when it is at layer 0 or any voxel under its footprint is solid."""
    if layer == 0:
        return True
    return any(world.is_solid(x + i, y + j, layer - 1) for i in range(footprint) for j in range(footprint))


def check_view(position, look_at, file: str, key: str) -> None:
    for name, v in (("position", position), ("look_at", look_at)):
        if any(abs(c) > 1e6 for c in v):
            raise SceneError(file, f"{key}.{name}", f"{list(v)} is more than 1,000 km from the map")
    if tuple(position) == tuple(look_at):
        raise SceneError(file, f"{key}.look_at", "the camera looks at its own position")




def ground_image(rel: str | None, scene_dir: Path, file: str) -> Path | None:
    """``[map] ground_image``: a PNG, JPEG or WebP file in the scene's folder, stretched over the whole map's
    ground (the image's top edge is the map's north edge). Checked here: it exists, stays inside the folder and
    is an image of a sane size; its pixels are read only by the renderer."""
    if rel is None:
        return None
    key = "map.ground_image"
    path = _safe_asset(scene_dir, rel, file, key)
    try:
        with open_image(path) as im:
            fmt, (w, h) = im.format, im.size
    except Exception as e:  # Pillow raises many kinds for a broken file
        raise SceneError(file, key, f"{rel!r} is not a readable image ({type(e).__name__}: {e})") from None
    if fmt not in ("PNG", "JPEG", "WEBP"):
        raise SceneError(file, key, f"{rel!r} is a {fmt} image; PNG, JPEG or WebP please")
    if not (1 <= w <= GROUND_IMAGE_MAX_PX and 1 <= h <= GROUND_IMAGE_MAX_PX):
        raise SceneError(file, key, f"{rel!r} is {w} x {h} pixels; at most {GROUND_IMAGE_MAX_PX} per side")
    return path


def floor_images(raw: list, scene_dir: Path, file: str, Z: int) -> tuple:
    """``[map] floor_images = [{ layer = L, image = "x.png" }]``: images drawn on the top faces of layer L (a
    storey's floor), each checked like the ground image; at most 16, one per layer."""
    out: list[tuple[int, Path]] = []
    if not isinstance(raw, list) or not all(isinstance(fi, dict) for fi in raw):
        raise SceneError(file, "map.floor_images", "must be a list of { layer = L, image = \"file.png\" }")
    if len(raw) > 16:
        raise SceneError(file, "map.floor_images", f"{len(raw)} floor images; at most 16")
    for i, fi in enumerate(raw):
        key = f"map.floor_images[{i}]"
        if set(fi) != {"layer", "image"}:
            raise SceneError(file, key, "must be { layer = L, image = \"file.png\" }")
        layer, rel = fi["layer"], fi["image"]
        if isinstance(layer, bool) or not isinstance(layer, int) or not 0 <= layer < Z:
            raise SceneError(file, f"{key}.layer", f"{layer!r} is not a layer of the map (0..{Z - 1})")
        if not isinstance(rel, str):
            raise SceneError(file, f"{key}.image", "must be a file name")
        if any(z == layer for z, _ in out):
            raise SceneError(file, f"{key}.layer", f"layer {layer} has an image already")
        try:
            path = ground_image(rel, scene_dir, file)
        except SceneError as e:
            raise SceneError(file, f"{key}.image", e.problem if hasattr(e, "problem") else str(e)) from None
        assert path is not None
        out.append((layer, path))
    return tuple(out)


_MOVED = {"load_scene", "parse_scene", "scene_from_data", "Scene", "SceneSpec", "Character", "CharacterCommon",
          "SCENE_VERSION"}


def __getattr__(name: str):
    # Loading a whole scene (characters, options, expectations) asks the rules, so it lives above them now
    if name in _MOVED:
        raise ImportError(f"engine.world.scene.{name} moved to engine.scene.{name} (the world holds no rules: "
                          "geometry and materials only)")
    raise AttributeError(f"module 'engine.world.scene' has no attribute {name!r}")
