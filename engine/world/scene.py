"""Scene files: TOML into typed, frozen, validated structures, and the World they describe.

Every error names the file and the key path (``scenes/x.toml: characters[2].at: layer 14 is above the map's
10 layers``) and is raised as :class:`SceneError`; nothing else escapes ``load_scene``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import msgspec
import numpy as np

from engine.errors import AerieError, SceneError, display_path as _display
from engine.resources import resource_dir, shipped_scene, shipped_scenes
from engine.inputs import MODEL_NAME
from engine.rules.validate import check_character
from engine.world.grid import MAX_CELLS_XY, MAX_LAYERS, MAX_VOXELS, World
from engine.world.materials import AIR, BUILTIN_MATERIALS, TERRAIN_KINDS, Material

SCENE_VERSION = 1

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


class _Strict(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    pass


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


class CharacterCommon(_Strict, frozen=True):
    """Keys every character has, whatever the ruleset. Ruleset keys are validated by the ruleset's schema."""
    id: str
    at: Vec3i                  # cell x, cell y, layer (altitude of the feet)
    side: str = "neutral"
    name: str | None = None
    flying: bool = False
    kind: str | None = None    # a ready stat block / model name (archer, knight, harpy, wyvern_rider...)
    size: Literal["tiny", "small", "medium", "large", "huge", "gargantuan"] = "medium"
    height_layers: int | None = None
    eye_m: float | None = None
    model: str | None = None


_COMMON_KEYS = set(CharacterCommon.__struct_fields__)


class SceneSpec(_Strict, frozen=True):
    name: str
    map: MapSpec
    version: int = SCENE_VERSION
    ruleset: str | None = None           # a registered ruleset (engine.rules.registry); none: the default
    description: str = ""
    seed: int = 0
    materials: dict[str, MaterialSpec] = {}
    characters: list[dict[str, Any]] = []
    cameras: list[CameraSpec] = []
    flythrough: list[KeyframeSpec] = []
    options: dict[str, Any] = {}
    initiative_starts: str | None = None
    script: list[dict[str, Any]] = []
    expect: list[dict[str, Any]] = []
    objects: list[dict[str, Any]] = []   # [[objects]]: breakable things (engine/world/objects.py)


@dataclass(frozen=True)
class Character:
    """A character as placed in the scene: geometry plus the ruleset's validated stats (``stats``)."""
    id: str
    side: str
    at: tuple[int, int, int]
    flying: bool
    kind: str | None
    size: str
    footprint: int
    height_layers: int
    eye_m: float
    name: str
    model: str | None
    stats: Any                 # the ruleset schema's struct (engine.rules.<ruleset>.schema)
    raw: dict                  # the table as written, for saving the scene back


@dataclass(frozen=True)
class Scene:
    path: str
    spec: SceneSpec
    world: World
    characters: tuple[Character, ...]
    objects: tuple = ()        # engine.world.objects.ObjectSpec, from [[objects]]
    source: str | None = None  # the scene file's absolute path (None: parsed from text); saves find it from any folder

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def ruleset(self) -> str:
        return self.spec.ruleset or ""      # never empty: scene_from_data resolves it (the default ruleset)

    def character(self, cid: str) -> Character:
        for c in self.characters:
            if c.id == cid:
                return c
        raise KeyError(cid)


# ---------------------------------------------------------------------------------------------------------
def _msgspec_path(msg: str) -> tuple[str, str]:
    """Split msgspec's "problem - at `$.a[1].b`" into (path, problem)."""
    m = re.search(r" - at `\$(.*)`$", msg, re.S)
    if not m:
        return "", msg
    path = m.group(1).lstrip(".")
    return path, msg[: m.start()]


def _convert(data, typ, file: str, base: str):
    try:
        return msgspec.convert(data, typ)
    except msgspec.ValidationError as e:
        path, problem = _msgspec_path(str(e))
        m = re.match(r"Object contains unknown field `(.+)`", problem, re.S)
        if m:
            path = f"{path}.{m.group(1)}" if path else m.group(1)
            problem = "unknown key"
        m = re.match(r"Object missing required field `(.+)`", problem, re.S)
        if m:
            path = f"{path}.{m.group(1)}" if path else m.group(1)
            problem = "required key is missing"
        full = base + ("." if base and path and not path.startswith("[") else "") + path if path else base
        raise SceneError(file, full, problem.replace("`", "")) from None


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


def _build_materials(spec: SceneSpec, file: str) -> dict[str, Material]:
    mats = dict(BUILTIN_MATERIALS)
    for name, m in spec.materials.items():
        key = f"materials.{name}"
        if name == "air" or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_\-]*", name):
            raise SceneError(file, key, "a material needs a name of letters, digits, _ or -, other than 'air'")
        if m.terrain is not None and m.terrain not in TERRAIN_KINDS:
            raise SceneError(file, f"{key}.terrain", f"unknown terrain {m.terrain!r}; one of {', '.join(TERRAIN_KINDS)}")
        from engine.world.objects import material_object_stats

        mats[name] = Material(name, _color(m.color, file, f"{key}.color"), m.blocks_sight, m.solid,
                              m.translucent, m.terrain, **material_object_stats(m, BUILTIN_MATERIALS.get(name), file, key))
    return mats


def _build_world(spec: SceneSpec, scene_dir: Path, file: str) -> World:
    mats = _build_materials(spec, file)
    mp = spec.map
    if not (0.1 <= mp.cell_m <= 10):
        raise SceneError(file, "map.cell_m", f"cell size {mp.cell_m} m is outside 0.1..10 m")
    vox = None
    if mp.vox is not None:
        from engine.world.vox import read_vox  # local: the reader is only needed for .vox maps

        path = _safe_asset(scene_dir, mp.vox, file, "map.vox")
        try:
            vox = read_vox(path, name=_display(path), max_voxels=MAX_VOXELS, max_side=MAX_CELLS_XY)
        except AerieError as e:
            raise SceneError(file, "map.vox", str(e)) from None
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
    voxels = np.zeros((Z, Y, X), dtype=np.uint8)

    if vox is not None:
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
    for key in mp.vox_materials:
        if not key.isdigit() or not 1 <= int(key) <= 255:
            raise SceneError(file, f"map.vox_materials.{key}", "keys are MagicaVoxel colour indices 1..255")

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
    return World(voxels, tuple(materials), float(mp.cell_m))


def _body_solid(world: World, x: int, y: int, layer: int, footprint: int, height: int) -> tuple[int, int, int] | None:
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


def _build_characters(spec: SceneSpec, world: World, file: str) -> tuple[Character, ...]:
    from engine.rules.schemas import character_schema  # the ruleset owns its character keys

    schema = character_schema(spec.ruleset or "")
    X, Y, Z = world.size
    seen: dict[str, int] = {}
    out: list[Character] = []
    for i, raw in enumerate(spec.characters):
        key = f"characters[{i}]"
        common = _convert({k: v for k, v in raw.items() if k in _COMMON_KEYS}, CharacterCommon, file, key)
        stats = _convert({k: v for k, v in raw.items() if k not in _COMMON_KEYS}, schema, file, key)
        if not common.id.strip():
            raise SceneError(file, f"{key}.id", "an id must not be empty")
        if common.id in seen:
            raise SceneError(file, f"{key}.id", f"duplicate id {common.id!r} (also characters[{seen[common.id]}])")
        seen[common.id] = i
        for f in ("model", "kind"):
            v = getattr(common, f)
            if v is not None and not re.fullmatch(MODEL_NAME, v):
                raise SceneError(file, f"{key}.{f}", f"{v!r} is not a name (letters, digits, _ and -; it names "
                                                     f"assets/models/NAME.glb and a stat block, never a path)")
        for f in ("id", "side", "name"):
            v = getattr(common, f)
            if v is not None and len(v) > 200:
                raise SceneError(file, f"{key}.{f}", "at most 200 characters")
        check_character(spec.ruleset or "", {k: v for k, v in raw.items() if k not in _COMMON_KEYS}, file, key)
        footprint, height, eye = SIZES[common.size]
        height = common.height_layers if common.height_layers is not None else height
        eye = common.eye_m if common.eye_m is not None else eye
        if not 1 <= height <= 16:
            raise SceneError(file, f"{key}.height_layers", "must be between 1 and 16")
        if not 0 < eye <= height:
            raise SceneError(file, f"{key}.eye_m", f"eye height {eye} m must be above 0 and within the body's {height} m")
        x, y, layer = common.at
        if not (0 <= x and x + footprint <= X):
            raise SceneError(file, f"{key}.at", f"x {x} is outside the map's {X} cells" if footprint == 1 else
                             f"a {common.size} body at x {x} needs cells {x}..{x + footprint - 1}; the map has {X}")
        if not (0 <= y and y + footprint <= Y):
            raise SceneError(file, f"{key}.at", f"y {y} is outside the map's {Y} cells" if footprint == 1 else
                             f"a {common.size} body at y {y} needs cells {y}..{y + footprint - 1}; the map has {Y}")
        if layer < 0:
            raise SceneError(file, f"{key}.at", f"layer {layer} is below the ground (layer 0)")
        if layer >= Z:
            raise SceneError(file, f"{key}.at", f"layer {layer} is above the map's {Z} layers")
        hit = _body_solid(world, x, y, layer, footprint, height)
        if hit is not None:
            mat = world.materials[world.voxels[hit[2], hit[1], hit[0]]].name
            raise SceneError(file, f"{key}.at", f"{common.id!r} would be inside solid {mat} at voxel {list(hit)}")
        if not common.flying and not supported(world, x, y, layer, footprint):
            below = world.support_layer(x, y, layer)
            raise SceneError(file, f"{key}.at", f"{common.id!r} is not flying but stands on nothing at layer {layer} "
                                                f"(the surface below is layer {below}); set flying = true or lower it")
        rides = raw.get("mount")
        for other in out:
            if rides == other.id or other.raw.get("mount") == common.id:
                continue                      # a rider shares its mount's space (the rulesets' mount rules)
            ox, oy, ol = other.at
            if (x < ox + other.footprint and ox < x + footprint and y < oy + other.footprint and oy < y + footprint
                    and layer < ol + other.height_layers and ol < layer + height):
                raise SceneError(file, f"{key}.at", f"{common.id!r} would stand in the same space as {other.id!r} "
                                                    f"(characters[{seen[other.id]}], at {list(other.at)})")
        out.append(Character(common.id, common.side, (x, y, layer), common.flying, common.kind, common.size,
                             footprint, height, float(eye), common.name or common.id, common.model, stats, dict(raw)))
    return tuple(out)


def _check_refs(spec: SceneSpec, chars: tuple[Character, ...], file: str) -> None:
    ids = {c.id for c in chars}
    if spec.initiative_starts is not None and spec.initiative_starts not in ids:
        raise SceneError(file, "initiative_starts", f"no character has id {spec.initiative_starts!r}")
    names = set()
    for i, cam in enumerate(spec.cameras):
        if cam.name in names:
            raise SceneError(file, f"cameras[{i}].name", f"duplicate camera name {cam.name!r}")
        names.add(cam.name)
    for i, cam in enumerate(spec.cameras):
        _check_view(cam.position, cam.look_at, file, f"cameras[{i}]")
        if not 1.0 <= cam.fov <= 170.0:
            raise SceneError(file, f"cameras[{i}].fov", f"field of view {cam.fov:g} is outside 1..170 degrees")
    last = -1.0
    for i, k in enumerate(spec.flythrough):
        if k.t < 0 or k.t <= last or k.t > 3600:
            raise SceneError(file, f"flythrough[{i}].t", "keyframe times must start at 0 or later, increase and stay "
                                                         "within 3600 s")
        _check_view(k.position, k.look_at, file, f"flythrough[{i}]")
        last = k.t
    if len(spec.flythrough) > 10_000:
        raise SceneError(file, "flythrough", "at most 10,000 keyframes")
    from engine.rules.runner import validate_expectations

    validate_expectations(spec.expect, lambda path, problem: SceneError(file, path, problem), "expect")


def _check_view(position, look_at, file: str, key: str) -> None:
    for name, v in (("position", position), ("look_at", look_at)):
        if any(abs(c) > 1e6 for c in v):
            raise SceneError(file, f"{key}.{name}", f"{list(v)} is more than 1,000 km from the map")
    if tuple(position) == tuple(look_at):
        raise SceneError(file, f"{key}.look_at", "the camera looks at its own position")


GROUND_IMAGE_MAX_PX = 16384        # per side; the renderer scales larger images down anyway


def _ground_image(rel: str | None, scene_dir: Path, file: str) -> Path | None:
    """``[map] ground_image``: a PNG, JPEG or WebP file in the scene's folder, stretched over the whole map's
    ground (the image's top edge is the map's north edge). Checked here: it exists, stays inside the folder and
    is an image of a sane size; its pixels are read only by the renderer."""
    if rel is None:
        return None
    key = "map.ground_image"
    path = _safe_asset(scene_dir, rel, file, key)
    try:
        from PIL import Image

        with Image.open(path) as im:
            fmt, (w, h) = im.format, im.size
    except Exception as e:  # Pillow raises many kinds for a broken file
        raise SceneError(file, key, f"{rel!r} is not a readable image ({type(e).__name__}: {e})") from None
    if fmt not in ("PNG", "JPEG", "WEBP"):
        raise SceneError(file, key, f"{rel!r} is a {fmt} image; PNG, JPEG or WebP please")
    if not (1 <= w <= GROUND_IMAGE_MAX_PX and 1 <= h <= GROUND_IMAGE_MAX_PX):
        raise SceneError(file, key, f"{rel!r} is {w} x {h} pixels; at most {GROUND_IMAGE_MAX_PX} per side")
    return path


def _floor_images(raw: list, scene_dir: Path, file: str, Z: int) -> tuple:
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
            path = _ground_image(rel, scene_dir, file)
        except SceneError as e:
            raise SceneError(file, f"{key}.image", e.problem if hasattr(e, "problem") else str(e)) from None
        assert path is not None
        out.append((layer, path))
    return tuple(out)


def parse_scene(text: str, file: str, scene_dir: Path | None = None) -> Scene:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SceneError(file, "", f"TOML syntax error: {e}") from None
    except RecursionError:
        raise SceneError(file, "", "TOML nested too deep") from None
    except ValueError as e:               # an integer of thousands of digits (Python's int limit)
        m = re.search(r"\d{4000,}", text)
        if m is None:
            raise SceneError(file, "", f"TOML value cannot be read: {e}") from None
        line = text.count("\n", 0, m.start()) + 1
        k = re.match(r"\s*([A-Za-z0-9_\-.\"']+)\s*=", text.splitlines()[line - 1])
        raise SceneError(file, k.group(1) if k else "", f"line {line}: an integer of {len(m.group())} digits "
                                                        "(integers are within +-2**53)") from None
    return scene_from_data(data, file, scene_dir or Path("."))


def _resolve_ruleset(spec: SceneSpec, file: str) -> SceneSpec:
    from engine.rules import registry

    if spec.ruleset is None:
        return msgspec.structs.replace(spec, ruleset=registry.default().name)
    if spec.ruleset not in registry.names():
        raise SceneError(file, "ruleset", f"unknown ruleset {spec.ruleset!r}; one of {', '.join(registry.names())}")
    return spec


def scene_from_data(data: dict, file: str, scene_dir: Path, *, check_rules: bool = True) -> Scene:
    """Validate everything: JSON-safe values (finite numbers, no dates, bounded depth), the typed keys, the map,
    the characters, then the ruleset itself (it builds its actors and starts the fight once, so whatever this
    accepts ``aerie run``, ``render`` and ``play`` can play)."""
    from engine.rules.validate import json_safe, scene_error

    data = json_safe(data, "", scene_error(file))
    if isinstance(data, dict) and "version" in data and data["version"] != SCENE_VERSION:
        raise SceneError(file, "version", f"scene version {data['version']!r} is not supported (this is version {SCENE_VERSION})")
    # [map] floor_images is read beside the typed spec, not in it: a new field there would change every
    # scene's content hash (saves, event logs) although no existing scene has the key
    floors = []
    if isinstance(data, dict) and isinstance(data.get("map"), dict) and "floor_images" in data["map"]:
        floors = data["map"]["floor_images"]
        data = dict(data, map={k: v for k, v in data["map"].items() if k != "floor_images"})
    spec = _convert(data, SceneSpec, file, "")
    spec = _resolve_ruleset(spec, file)
    world = _build_world(spec, scene_dir, file)
    world.ground_image = _ground_image(spec.map.ground_image, scene_dir, file)
    world.floor_images = _floor_images(floors, scene_dir, file, world.size[2])
    from engine.world.objects import build_objects

    objects = build_objects(spec.objects, world, file)
    chars = _build_characters(spec, world, file)
    _check_refs(spec, chars, file)
    scene = Scene(file, spec, world, chars, objects)
    if check_rules:
        from engine.rules.core import Session

        Session(scene)        # the ruleset's own checks (stat blocks, weapons, options, mounts, initiative)
    return scene


def load_scene(path) -> Scene:
    """Load a scene file; a bare name such as ``showcase`` that is not a file here names a shipped scene."""
    from engine.inputs import SCENE_MAX_BYTES, read_bounded

    p = Path(path)
    if not p.exists():
        p = shipped_scene(str(path)) or p
    file = _display(p)
    hint = "" if ("/" in str(path) or "\\" in str(path)) else \
        f" (and no shipped scene of that name: {', '.join(shipped_scenes())})"

    def err(m):
        m = m[len(file) + 2:]
        return SceneError(file, "", {"no such file": "no such scene file" + hint,
                                     "is a folder, not a file": "is a folder, not a scene file"}.get(m, m))

    raw = read_bounded(p, SCENE_MAX_BYTES, file, err)
    if b"\x00" in raw:
        raise SceneError(file, "", "not a text file (it holds NUL bytes)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SceneError(file, "", f"not UTF-8 text (byte {e.start})") from None
    scene = parse_scene(text, file, p.parent)
    object.__setattr__(scene, "source", str(p.resolve()))
    return scene
