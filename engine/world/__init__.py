"""The voxel world: materials, the dense grid, scenes, line of sight and cover. Pure numpy, no GL."""

from engine.world.grid import World, MAX_CELLS_XY, MAX_LAYERS, MAX_VOXELS
from engine.world.materials import Material, BUILTIN_MATERIALS

__all__ = ["World", "Material", "BUILTIN_MATERIALS", "MAX_CELLS_XY", "MAX_LAYERS", "MAX_VOXELS"]
