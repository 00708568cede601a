"""Scene files, a layer above the rules: TOML into typed, frozen, validated structures -- the world (engine/world:
map, materials, objects) and what the rules read (characters with their ruleset's stats, options, script, expect).

The registry names the scene's ruleset and its character schema; the ruleset checks its own part (stat blocks,
weapons, options, mounts) without starting a game: no die is rolled to validate a scene. Every error names the file
and the key path (``scenes/x.toml: characters[2].at: layer 14 is above the map's 10 layers``) and is raised as
:class:`SceneError`; nothing else escapes ``load_scene``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import msgspec

from engine.errors import SceneError, display_path as _display
from engine.scene import flypaths as _flypaths
from engine.inputs import MODEL_NAME
from engine.resources import shipped_scene, shipped_scenes
from engine.units import UNITS
from engine.rules import registry
from engine.rules.session import Session
from engine.rules.runner import late_expectation, validate_expectations
from engine.rules.gm import register_character_builder
from engine.rules.saves import register_scene_loader
from engine.rules.schemas import character_schema
from engine.rules.validate import check_character, json_safe, scene_error
from engine.world.grid import World
from engine.world.objects import build_objects
from engine.world.scene import (SIZES, CameraSpec, KeyframeSpec, MapSpec, MaterialSpec, Vec3i, body_solid, build_world,
                                check_view, floor_images, ground_image, supported)
from engine.world.spec import Strict as _Strict, convert as _convert

SCENE_VERSION = 1


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


class ViewSpec(_Strict, frozen=True):
    """``[view]``: how the scene is shown, never what the rules do. ``units``: distances on screen in metres or
    feet (engine/units.py; ``--units`` overrides it, Ctrl+U toggles it; none: the ruleset's, metres)."""
    units: str | None = None


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
    view: ViewSpec | None = None   # [view] (display only: read beside the spec, out of the content hash)
    files: tuple = ()          # the files the scene file names, resolved: map.vox, ground and floor images
    flypaths: dict = field(default_factory=dict)   # [[flythrough]] keys by path name (engine.scene.flypaths)

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


def _build_characters(spec: SceneSpec, world: World, file: str, libraries: dict | None = None) -> tuple[Character, ...]:
    schema = character_schema(spec.ruleset or "")
    blocks = registry.info(spec.ruleset).extra.get("character_blocks")     # srd = / kind = a block (5e)
    expand = registry.load_dotted(blocks) if blocks else None
    X, Y, Z = world.size
    seen: dict[str, int] = {}
    out: list[Character] = []
    columns: dict[tuple[int, int], list[int]] = {}     # (x, y) -> indices in out of the bodies over that cell
    for i, written in enumerate(spec.characters):
        key = f"characters[{i}]"
        raw = _blocks(expand, written, spec.ruleset or "", file, key, libraries or {})
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
        hit = body_solid(world, x, y, layer, footprint, height)
        if hit is not None:
            mat = world.materials[world.voxels[hit[2], hit[1], hit[0]]].name
            raise SceneError(file, f"{key}.at", f"{common.id!r} would be inside solid {mat} at voxel {list(hit)}")
        if not common.flying and not supported(world, x, y, layer, footprint):
            below = world.support_layer(x, y, layer)
            raise SceneError(file, f"{key}.at", f"{common.id!r} is not flying but stands on nothing at layer {layer} "
                                                f"(the surface below is layer {below}); set flying = true or lower it")
        rides = raw.get("mount")
        for other in _sharing_columns(columns, out, x, y, footprint):
            if rides == other.id or other.raw.get("mount") == common.id:
                continue                      # a rider shares its mount's space (the rulesets' mount rules)
            ox, oy, ol = other.at
            if (x < ox + other.footprint and ox < x + footprint and y < oy + other.footprint and oy < y + footprint
                    and layer < ol + other.height_layers and ol < layer + height):
                raise SceneError(file, f"{key}.at", f"{common.id!r} would stand in the same space as {other.id!r} "
                                                    f"(characters[{seen[other.id]}], at {list(other.at)})")
        for cx in range(x, x + footprint):
            for cy in range(y, y + footprint):
                columns.setdefault((cx, cy), []).append(len(out))
        out.append(Character(common.id, common.side, (x, y, layer), common.flying, common.kind, common.size,
                             footprint, height, float(eye), common.name or common.id, common.model, stats, dict(written)))
    return tuple(out)


def _blocks(expand, raw: dict, ruleset: str, file: str, key: str, libraries: dict) -> dict:
    """The character's keys with its stat block's under them (the ruleset's ``character_blocks``); ``srd`` in a
    ruleset without a bestiary is one line."""
    if expand is not None and isinstance(raw, dict):
        return expand(raw, file, key, libraries)
    if isinstance(raw, dict) and "srd" in raw:
        have = ", ".join(f"{i.title or i.name} (ruleset = \"{i.name}\")" for i in registry.infos()
                         if i.extra.get("character_blocks"))
        raise SceneError(file, f"{key}.srd", f"the SRD bestiary belongs to {have or 'no ruleset'}; this scene's ruleset "
                                             f"is {ruleset}")
    return raw


def _statblock_files(data, scene_dir: Path, file: str) -> tuple[dict[str, dict], list[Path]]:
    """A scene's top-level ``statblocks = ["creatures.toml"]``: stat-block libraries beside the scene (the same
    containment check as its map), read beside the typed spec (a new key there would change every scene's
    content hash). (``{block id: table}``, the later files' blocks over the earlier's; the files, resolved: the
    scene's inputs, which no output may replace)."""
    from engine.rules.statblocks import read_library
    from engine.world.scene import _safe_asset

    names = data.get("statblocks", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names) or len(names) > 64:
        raise SceneError(file, "statblocks", "a list of stat-block library files (.toml), relative to the scene")
    out: dict[str, dict] = {}
    paths: list[Path] = []
    for j, n in enumerate(names):
        p = _safe_asset(scene_dir, n, file, f"statblocks[{j}]", cap=8 << 20)
        paths.append(p)
        if p.suffix != ".toml":
            raise SceneError(file, f"statblocks[{j}]", f"{n!r}: a stat-block library is a .toml file")
        out.update(read_library(p, n, lambda m, j=j: SceneError(file, f"statblocks[{j}]", m)))
    return out, paths


def _sharing_columns(columns: dict, out: list, x: int, y: int, footprint: int) -> list:
    """The characters placed so far whose footprint shares a cell column with a body at (x, y), in placement
    order: the only ones it can overlap (testing every earlier character made loading quadratic, 5,000 in 20 s)."""
    idx = {i for cx in range(x, x + footprint) for cy in range(y, y + footprint) for i in columns.get((cx, cy), ())}
    return [out[i] for i in sorted(idx)]


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
        check_view(cam.position, cam.look_at, file, f"cameras[{i}]")
        if not 1.0 <= cam.fov <= 170.0:
            raise SceneError(file, f"cameras[{i}].fov", f"field of view {cam.fov:g} is outside 1..170 degrees")
    validate_expectations(spec.expect, lambda path, problem: SceneError(file, path, problem), "expect")
    late = late_expectation(spec.expect, len(spec.script))
    if late:
        raise SceneError(file, *late)


def _view(raw, file: str) -> ViewSpec:
    view = _convert(raw, ViewSpec, file, "view")
    if view.units is not None and view.units not in UNITS:
        raise SceneError(file, "view.units", f"{view.units!r} is not one of {', '.join(UNITS)} (metres or feet)")
    return view


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
    if spec.ruleset is None:
        return msgspec.structs.replace(spec, ruleset=registry.default().name)
    if spec.ruleset not in registry.names():
        raise SceneError(file, "ruleset", f"unknown ruleset {spec.ruleset!r}; one of {', '.join(registry.names())}")
    return spec


def scene_from_data(data: dict, file: str, scene_dir: Path, *, check_rules: bool = True,
                    libraries: dict | None = None) -> Scene:
    """Validate everything: JSON-safe values (finite numbers, no dates, bounded depth), the typed keys, the map,
    the characters, then the ruleset itself (it builds its actors and checks what its start would refuse, without
    rolling a die, so whatever this accepts ``aerie run``, ``render`` and ``play`` can play)."""
    data = json_safe(data, "", scene_error(file))
    if isinstance(data, dict) and "version" in data and data["version"] != SCENE_VERSION:
        raise SceneError(file, "version", f"scene version {data['version']!r} is not supported (this is version {SCENE_VERSION})")
    # [map] floor_images is read beside the typed spec, not in it: a new field there would change every
    # scene's content hash (saves, event logs) although no existing scene has the key
    floors = []
    if isinstance(data, dict) and isinstance(data.get("map"), dict) and "floor_images" in data["map"]:
        floors = data["map"]["floor_images"]
        data = dict(data, map={k: v for k, v in data["map"].items() if k != "floor_images"})
    view = None
    if isinstance(data, dict) and "view" in data:  # [view] beside the spec too: display only, not the game's content
        view = _view(data["view"], file)
        data = {k: v for k, v in data.items() if k != "view"}
    libraries = dict(libraries or {})       # stat blocks given in process (aerie import checks what it writes)
    block_files: list[Path] = []
    if isinstance(data, dict) and "statblocks" in data:      # beside the spec, as [view] (its hash is unchanged)
        libs, block_files = _statblock_files(data, scene_dir, file)
        libraries.update(libs)
        data = {k: v for k, v in data.items() if k != "statblocks"}
    data, fly_raw = _flypaths.split(data, file)     # keys of issue 42 beside the spec: older scenes keep their hash
    spec = _convert(data, SceneSpec, file, "")
    spec = _resolve_ruleset(spec, file)
    world = build_world(spec.map, spec.materials, scene_dir, file)
    world.ground_image = ground_image(spec.map.ground_image, scene_dir, file)
    world.floor_images = floor_images(floors, scene_dir, file, world.size[2])
    objects = build_objects(spec.objects, world, file)
    chars = _build_characters(spec, world, file, libraries)
    _check_refs(spec, chars, file)
    paths = _flypaths.parse(fly_raw, [c.id for c in chars], file)
    files = tuple(p for p in (world.vox_file, world.ground_image, *(img for _, img in world.floor_images)) if p) \
        + tuple(block_files)
    scene = Scene(file, spec, world, chars, objects, view=view, files=files, flypaths=paths)
    if check_rules:
        Session.check_scene(scene)   # the ruleset's own checks (options, stat blocks, weapons, mounts), no die rolled
    return scene


def load_scene(path) -> Scene:
    """Load a scene file; a bare name such as ``showcase`` that is not a file here names a shipped scene."""
    from engine.inputs import SCENE_MAX_BYTES, exists, read_bounded

    p = Path(path)
    here = exists(p, str(path))
    if not here:
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


def scene_inputs(scene: Scene) -> tuple[Path, ...]:
    """Every file a command working on ``scene`` reads, resolved: the scene file, its map.vox, ground and floor
    images (``@assets/...`` ones too), its ruleset's stat-block library and the shipped character models (the
    renderer and ``aerie export`` may draw any of them: aliases, the generic model, wings). A command's outputs are
    checked against these (engine.outputs.check_output_path): an output may never replace what it was made from."""
    from engine.resources import resource_dir
    from engine.rules.statblocks import library_path

    out = [Path(scene.source)] if scene.source else []
    out += [Path(p) for p in scene.files]
    lib = library_path(scene.ruleset)
    out += [lib.resolve()] if lib.is_file() else []
    out += sorted(p.resolve() for p in (resource_dir("assets") / "models").glob("*.glb"))
    return tuple(dict.fromkeys(out))


register_scene_loader(load_scene)     # a save names its scene by file: the rules load it with this
register_character_builder(_build_characters)   # the GM's `add` checks a table as a scene character (rules/gm.py)
