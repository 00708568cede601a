"""Materials: a name, a colour, whether they block sight and whether they are solid.

Material id 0 is always air. Ids fit a uint8, so a map holds at most 255 materials.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Material:
    name: str
    color: tuple[int, int, int]          # sRGB 0..255
    blocks_sight: bool = True
    solid: bool = True                   # can be stood on; characters cannot be inside it
    translucent: bool = False            # drawn with alpha (glass)
    terrain: str | None = None           # difficult terrain (for rulesets that read it): slippery | trapping | dangerous | exhausting


AIR = Material("air", (0, 0, 0), blocks_sight=False, solid=False)

# The built-in palette. Scenes may add or override with [materials.NAME].
BUILTIN_MATERIALS: dict[str, Material] = {
    m.name: m
    for m in (
        Material("stone", (150, 148, 140)),
        Material("brick", (160, 82, 62)),
        Material("wood", (133, 94, 58)),
        Material("roof", (150, 60, 45)),
        Material("earth", (112, 86, 60)),
        Material("grass", (86, 140, 64)),
        Material("sand", (206, 188, 136)),
        Material("metal", (120, 128, 140)),
        Material("glass", (170, 210, 230), blocks_sight=False, translucent=True),
        Material("foliage", (52, 110, 48), solid=False),
        Material("water", (60, 110, 180), blocks_sight=False, solid=False, translucent=True),
        Material("mud", (92, 72, 50), terrain="slippery"),
        Material("ice", (200, 225, 240), blocks_sight=False, terrain="slippery", translucent=True),
        Material("bramble", (70, 96, 40), solid=False, blocks_sight=False, terrain="trapping"),
        Material("coals", (190, 70, 30), terrain="dangerous"),
        Material("snow", (235, 238, 242), terrain="exhausting"),
        Material("plaster", (222, 212, 190)),
        Material("slate", (80, 86, 98)),
    )
}

TERRAIN_KINDS = ("slippery", "trapping", "dangerous", "exhausting")
