"""Objects in scenes (``[[objects]]``): breakable boxes of voxels with hit points, an armour class, a damage
threshold, an optional lock and parts with their own hit points; and the object statistics of
``[materials.NAME]``. Pure data and validation: what happens when one is hit or broken is in
``engine/rules/objects.py``.

::

    [[objects]]
    id = "door"
    from = [4, 2, 0]          # inclusive voxel box, like [[map.fill]]; the box is filled with the material
    to = [4, 2, 1]
    material = "wood"
    hp = 18                   # optional; default: the material's HP per voxel x the voxels in the box
    ac = 15                   # optional; default: the material's
    threshold = 0             # optional; default: the material's
    lock = { dc = 15 }        # optional; opens = false for a chest (unlocked, stays where it is)
    door = true               # optional: a door, opened by open_door when not locked (locked: pick, force, break)
    secret = true             # optional (a door): hidden from the players until found
    [[objects.parts]]         # optional: parts with their own HP (a statue's leg)
    id = "leg"
    from = [4, 2, 0]
    to = [4, 2, 0]
    hp = 10
    fells = true              # destroying this part brings the whole object down

Errors name the key (``objects[2].from``) and are raised as SceneError, one line each.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec
import numpy as np

from engine.errors import SceneError
from engine.world.materials import DAMAGE_TYPES, TOUGHNESS_HP
from engine.world.spec import convert

Vec3i = tuple[int, int, int]


class _Strict(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    pass


class LockSpec(_Strict, frozen=True):
    dc: int | None = None
    opens: bool = True


class PartSpecIn(_Strict, frozen=True, rename={"from_": "from"}):
    id: str
    from_: Vec3i
    to: Vec3i
    hp: int | None = None
    fells: bool = False


class ObjectSpecIn(_Strict, frozen=True, rename={"from_": "from"}):
    id: str
    from_: Vec3i
    to: Vec3i
    material: str
    hp: int | None = None
    ac: int | None = None
    threshold: int | None = None
    lock: LockSpec | None = None
    name: str | None = None
    parts: list[PartSpecIn] = []
    door: bool = False                # a door: it opens (open_door) when it is not locked; opened, its voxels leave the way
    secret: bool = False              # a secret door: hidden from the players until found (secret_door with door = ID)


@dataclass(frozen=True)
class Box:
    lo: tuple[int, int, int]          # inclusive corners, sorted
    hi: tuple[int, int, int]

    @property
    def voxels(self) -> int:
        return (self.hi[0] - self.lo[0] + 1) * (self.hi[1] - self.lo[1] + 1) * (self.hi[2] - self.lo[2] + 1)

    def contains(self, x: int, y: int, z: int) -> bool:
        return all(a <= v <= b for a, v, b in zip(self.lo, (x, y, z), self.hi))

    def overlaps(self, o: "Box") -> bool:
        return all(a <= d and c <= b for a, b, c, d in zip(self.lo, self.hi, o.lo, o.hi))

    def centre(self) -> tuple[float, float, float]:
        (x0, y0, z0), (x1, y1, z1) = self.lo, self.hi
        return ((x0 + x1 + 1) / 2.0, (y0 + y1 + 1) / 2.0, (z0 + z1 + 1) / 2.0)


@dataclass(frozen=True)
class PartSpec:
    id: str
    box: Box
    hp: int
    fells: bool


@dataclass(frozen=True)
class ObjectSpec:
    id: str
    name: str
    box: Box
    material: str
    material_id: int
    hp: int
    ac: int
    threshold: int
    indestructible: bool
    immunities: tuple[str, ...]
    resistances: tuple[str, ...]
    vulnerabilities: tuple[str, ...]
    lock_dc: int | None
    opens: bool
    parts: tuple[PartSpec, ...]
    door: bool = False
    secret: bool = False

    def part_at(self, x: int, y: int, z: int) -> PartSpec | None:
        return next((p for p in self.parts if p.box.contains(x, y, z)), None)


def _box(frm, to, size, file: str, key: str) -> Box:
    for corner_key, corner in (("from", frm), ("to", to)):
        for axis, (v, n) in enumerate(zip(corner, size)):
            if not 0 <= v < n:
                what = ("x", "y", "layer")[axis]
                raise SceneError(file, f"{key}.{corner_key}", f"{what} {v} is outside the map's 0..{n - 1}")
    lo = tuple(min(a, b) for a, b in zip(frm, to))
    hi = tuple(max(a, b) for a, b in zip(frm, to))
    return Box(lo, hi)


def _types(values, file: str, key: str) -> tuple[str, ...]:
    for j, t in enumerate(values):
        if t not in DAMAGE_TYPES:
            raise SceneError(file, f"{key}[{j}]", f"unknown damage type {t!r}; one of {', '.join(DAMAGE_TYPES)}")
    return tuple(sorted(set(values)))


def material_object_stats(m, base, file: str, key: str) -> dict:
    """The object keys of one ``[materials.NAME]`` table as Material fields: given ones checked, absent ones
    from the built-in material of the same name (``base``), else the Material defaults."""
    out = {}
    if base is not None:
        for f in ("ac", "hp", "threshold", "indestructible", "immunities", "resistances", "vulnerabilities"):
            out[f] = getattr(base, f)
    if m.toughness is not None:
        if m.toughness not in TOUGHNESS_HP:
            raise SceneError(file, f"{key}.toughness", f"unknown toughness {m.toughness!r}; one of {', '.join(TOUGHNESS_HP)}")
        out["hp"] = TOUGHNESS_HP[m.toughness]
    for f, lo, hi in (("ac", 1, 40), ("hp", 1, 10000), ("threshold", 0, 1000)):
        v = getattr(m, f)
        if v is not None:
            if not lo <= v <= hi:
                raise SceneError(file, f"{key}.{f}", f"must be between {lo} and {hi}, got {v}")
            out[f] = v
    if m.indestructible is not None:
        out["indestructible"] = m.indestructible
    for f in ("immunities", "resistances", "vulnerabilities"):
        v = getattr(m, f)
        if v is not None:
            out[f] = _types(v, file, f"{key}.{f}")
    return out


def build_objects(raw: list, world, file: str) -> tuple[ObjectSpec, ...]:
    """Validate ``[[objects]]`` against the world (inside the map, known material, no overlaps, a lock has a
    DC) and fill each object's box with its material. Returns the objects in scene order."""
    size = world.size
    names = {m.name: i for i, m in enumerate(world.materials)}
    out: list[ObjectSpec] = []
    seen: dict[str, int] = {}
    for i, r in enumerate(raw):
        key = f"objects[{i}]"
        o = convert(r, ObjectSpecIn, file, key)
        if not o.id.strip() or "." in o.id:
            raise SceneError(file, f"{key}.id", "an object id is a non-empty name without '.' (parts are named id.part)")
        if o.id in seen:
            raise SceneError(file, f"{key}.id", f"duplicate id {o.id!r} (also objects[{seen[o.id]}])")
        seen[o.id] = i
        box = _box(o.from_, o.to, size, file, key)
        if o.material == "air" or o.material not in names:
            raise SceneError(file, f"{key}.material", f"unknown material {o.material!r}")
        mid = names[o.material]
        mat = world.materials[mid]
        if not mat.solid and not mat.blocks_sight:
            raise SceneError(file, f"{key}.material", f"{o.material!r} neither blocks sight nor is solid: nothing to break")
        for j, prev in enumerate(out):
            if box.overlaps(prev.box):
                raise SceneError(file, f"{key}.from", f"the box {list(box.lo)}..{list(box.hi)} overlaps objects[{j}] "
                                                      f"({prev.id!r}, {list(prev.box.lo)}..{list(prev.box.hi)})")
        for f, lo, hi in (("hp", 1, 100000), ("ac", 1, 40), ("threshold", 0, 1000)):
            v = getattr(o, f)
            if v is not None and not lo <= v <= hi:
                raise SceneError(file, f"{key}.{f}", f"must be between {lo} and {hi}, got {v}")
        if o.secret and not o.door:
            raise SceneError(file, f"{key}.secret", "only a door is secret (door = true)")
        if o.door and o.lock is not None and not o.lock.opens:
            raise SceneError(file, f"{key}.lock.opens", "a door opens (opens = false is a chest's lock)")
        if o.lock is not None:
            if o.lock.dc is None:
                raise SceneError(file, f"{key}.lock.dc", "a lock needs a DC (lock = { dc = 15 })")
            if not 1 <= o.lock.dc <= 40:
                raise SceneError(file, f"{key}.lock.dc", f"a DC is 1..40, got {o.lock.dc}")
        parts: list[PartSpec] = []
        pids: dict[str, int] = {}
        for j, p in enumerate(o.parts):
            pkey = f"{key}.parts[{j}]"
            if not p.id.strip() or "." in p.id:
                raise SceneError(file, f"{pkey}.id", "a part id is a non-empty name without '.'")
            if p.id in pids:
                raise SceneError(file, f"{pkey}.id", f"duplicate part id {p.id!r} (also parts[{pids[p.id]}])")
            pids[p.id] = j
            pb = _box(p.from_, p.to, size, file, pkey)
            if not (box.contains(*pb.lo) and box.contains(*pb.hi)):
                raise SceneError(file, f"{pkey}.from", f"the part {list(pb.lo)}..{list(pb.hi)} is not inside the object's "
                                                       f"box {list(box.lo)}..{list(box.hi)}")
            for q in parts:
                if pb.overlaps(q.box):
                    raise SceneError(file, f"{pkey}.from", f"the part overlaps part {q.id!r}")
            if p.hp is not None and not 1 <= p.hp <= 100000:
                raise SceneError(file, f"{pkey}.hp", f"must be between 1 and 100000, got {p.hp}")
            parts.append(PartSpec(p.id, pb, p.hp if p.hp is not None else mat.hp * pb.voxels, p.fells))
        hp = o.hp if o.hp is not None else mat.hp * box.voxels
        out.append(ObjectSpec(o.id, o.name or o.id, box, o.material, mid, hp, o.ac if o.ac is not None else mat.ac,
                              o.threshold if o.threshold is not None else mat.threshold, mat.indestructible,
                              mat.immunities, mat.resistances, mat.vulnerabilities,
                              None if o.lock is None else o.lock.dc, True if o.lock is None else o.lock.opens,
                              tuple(parts), o.door, o.secret))
        world.voxels[box.lo[2]:box.hi[2] + 1, box.lo[1]:box.hi[1] + 1, box.lo[0]:box.hi[0] + 1] = mid
    if out:
        world._luts.pop("_los_flat", None)
    return tuple(out)


def object_at(objects, x: int, y: int, z: int) -> ObjectSpec | None:
    return next((o for o in objects if o.box.contains(x, y, z)), None)


def object_mask(objects, size) -> np.ndarray:
    """int16 [Z, Y, X]: 1 + the index of the object filling each voxel, 0 where none."""
    X, Y, Z = size
    m = np.zeros((Z, Y, X), np.int16)
    for i, o in enumerate(objects):
        m[o.box.lo[2]:o.box.hi[2] + 1, o.box.lo[1]:o.box.hi[1] + 1, o.box.lo[0]:o.box.hi[0] + 1] = i + 1
    return m
