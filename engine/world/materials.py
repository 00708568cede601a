"""Materials: a name, a colour, whether they block sight and whether they are solid, and what they are as
objects (armour class, hit points per voxel, damage threshold, immunities, resistances, vulnerabilities).

Material id 0 is always air. Ids fit a uint8, so a map holds at most 255 materials.

Object statistics (the objects table of the rules catalogue; ``docs/world.md``, "Objects"): AC by material
(glass and ice 13, wood 15, stone 17, metal 19), hit points of ONE voxel (1.5 x 1.5 x 1 m, a medium object) by
toughness -- fragile 4 (1d8), resilient 18 (4d8) --, immune to psychic and poison; the damage types that work
better or worse follow the examples of the source document (fire works on wood, not on stone; bludgeoning
breaks glass better than slashing; a pick -- piercing -- works on stone, worse on wood). Ground materials
(earth, grass, sand, mud, snow) are indestructible.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict


@dataclass(frozen=True)
class Material:
    name: str
    color: tuple[int, int, int]          # sRGB 0..255
    blocks_sight: bool = True
    solid: bool = True                   # can be stood on; characters cannot be inside it
    translucent: bool = False            # drawn with alpha (glass)
    terrain: str | None = None           # difficult terrain (for rulesets that read it): slippery | trapping | dangerous | exhausting
    # -- as an object (engine/rules/objects.py) --
    ac: int = 15
    hp: int = 18                         # hit points of one voxel (fragile 4, resilient 18)
    threshold: int = 0                   # damage threshold: a single hit dealing less does nothing
    indestructible: bool = False
    immunities: tuple[str, ...] = ("poison", "psychic")
    resistances: tuple[str, ...] = ()
    vulnerabilities: tuple[str, ...] = ()


AIR = Material("air", (0, 0, 0), blocks_sight=False, solid=False, indestructible=True)

# hit points of one voxel by toughness (a voxel is a medium object: 1d8 fragile, 4d8 resilient)
TOUGHNESS_HP = {"fragile": 4, "resilient": 18}
DAMAGE_TYPES = ("acid", "bludgeoning", "cold", "fire", "force", "lightning", "necrotic", "piercing", "poison",
                "psychic", "radiant", "slashing", "thunder")


class _ObjectStats(TypedDict, total=False):
    """Object keyword arguments of Material shared by several built-in materials."""
    ac: int
    hp: int
    indestructible: bool
    resistances: tuple[str, ...]
    vulnerabilities: tuple[str, ...]


_GROUND: _ObjectStats = {"indestructible": True}
_STONE: _ObjectStats = {"ac": 17, "resistances": ("fire", "slashing"), "vulnerabilities": ("piercing",)}
_WOOD: _ObjectStats = {"ac": 15, "resistances": ("piercing",), "vulnerabilities": ("fire",)}
_GLASS: _ObjectStats = {"ac": 13, "hp": 4, "resistances": ("slashing",), "vulnerabilities": ("bludgeoning",)}

# The built-in palette. Scenes may add or override with [materials.NAME].
BUILTIN_MATERIALS: dict[str, Material] = {
    m.name: m
    for m in (
        Material("stone", (150, 148, 140), **_STONE),
        Material("brick", (160, 82, 62), **_STONE),
        Material("wood", (133, 94, 58), **_WOOD),
        Material("roof", (150, 60, 45), **_WOOD),
        Material("earth", (112, 86, 60), **_GROUND),
        Material("grass", (86, 140, 64), **_GROUND),
        Material("sand", (206, 188, 136), **_GROUND),
        Material("metal", (120, 128, 140), ac=19, resistances=("fire", "piercing", "slashing")),
        Material("glass", (170, 210, 230), blocks_sight=False, translucent=True, **_GLASS),
        Material("foliage", (52, 110, 48), solid=False, ac=11, hp=4, vulnerabilities=("fire", "slashing")),
        Material("water", (60, 110, 180), blocks_sight=False, solid=False, translucent=True, **_GROUND),
        Material("mud", (92, 72, 50), terrain="slippery", **_GROUND),
        Material("ice", (200, 225, 240), blocks_sight=False, terrain="slippery", translucent=True, ac=13, hp=4,
                 vulnerabilities=("fire", "bludgeoning")),
        Material("bramble", (70, 96, 40), solid=False, blocks_sight=False, terrain="trapping", ac=11, hp=4,
                 vulnerabilities=("fire", "slashing")),
        Material("coals", (190, 70, 30), terrain="dangerous", **_GROUND),
        Material("snow", (235, 238, 242), terrain="exhausting", **_GROUND),
        Material("plaster", (222, 212, 190), ac=13, hp=4, vulnerabilities=("bludgeoning",)),
        Material("slate", (80, 86, 98), **_STONE),
        Material("rope", (170, 140, 90), ac=11, hp=4, resistances=("bludgeoning",), vulnerabilities=("fire", "slashing")),
    )
}

TERRAIN_KINDS = ("slippery", "trapping", "dangerous", "exhausting")
