"""The voxel grid.

Layout: one dense C-ordered ``uint8`` array ``voxels[z, y, x]`` of material ids, x varying fastest. That is
exactly the memory layout of a GL 3D texture of width X, height Y and depth Z, so the same bytes can be
uploaded to the GPU for the compute-shader line of sight. Voxel ``(x, y, z)`` fills cell ``(x, y)`` and altitude
``[z, z+1)`` metres (layers are exactly 1 m, AIR-02); below altitude 0 is solid ground.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from engine.world.materials import AIR, Material

# Size caps: a scene over these is refused before any memory is allocated (docs/world.md).
MAX_CELLS_XY = 1024
MAX_LAYERS = 256
MAX_VOXELS = 64 * 1024 * 1024   # 64 Mi voxels = 64 MiB of uint8


@dataclass
class World:
    voxels: np.ndarray                      # uint8 [Z, Y, X]
    materials: tuple[Material, ...]         # index = material id; 0 is air
    cell_m: float = 1.5
    revision: int = 0                       # bumped by every edit: caches derived from the voxels key on it
    _luts: dict = field(default_factory=dict, repr=False)
    ground_image: object = None             # a Path: the image the renderer lays on the ground ([map] ground_image)
    floor_images: tuple = ()                # ((layer, Path), ...): images on storeys' floors ([map] floor_images)
    vox_file: object = None                 # a Path: the .vox model the map was read from ([map] vox)
    #: bool [Z, Y, X] or None: heavily obscured voxels (a Fog Cloud's, a Darkness's: the rules set them with
    #: ``set_obscured``). They block sight like an opaque material and nothing else: not movement, not support.
    obscured: np.ndarray | None = None

    def __post_init__(self):
        if self.voxels.dtype != np.uint8 or self.voxels.ndim != 3:
            raise ValueError("voxels must be a 3D uint8 array [z, y, x]")
        if not self.voxels.flags.c_contiguous:
            self.voxels = np.ascontiguousarray(self.voxels)
        if self.materials[0].name != "air":
            self.materials = (AIR,) + tuple(self.materials[1:])

    # -- shape -------------------------------------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int, int]:
        """(X cells, Y cells, Z layers)."""
        z, y, x = self.voxels.shape
        return (x, y, z)

    @classmethod
    def empty(cls, size, materials=(AIR,), cell_m: float = 1.5) -> "World":
        x, y, z = size
        return cls(np.zeros((z, y, x), dtype=np.uint8), tuple(materials), cell_m)

    def in_bounds(self, x: int, y: int, z: int) -> bool:
        X, Y, Z = self.size
        return 0 <= x < X and 0 <= y < Y and 0 <= z < Z

    def at(self, x: int, y: int, z: int) -> int:
        """Material id at a voxel; below the map is solid ground (-1), outside it horizontally or above is air."""
        if z < 0:
            return -1
        if not self.in_bounds(x, y, z):
            return 0
        return int(self.voxels[z, y, x])

    # -- material lookups (256-entry tables, so a gather answers for many voxels at once) -----------------
    def _lut(self, attr: str) -> np.ndarray:
        lut = self._luts.get(attr)
        if lut is None:
            lut = np.zeros(256, dtype=bool)
            for i, m in enumerate(self.materials):
                lut[i] = getattr(m, attr)
            self._luts[attr] = lut
        return lut

    @property
    def sight_lut(self) -> np.ndarray:
        return self._lut("blocks_sight")

    @property
    def solid_lut(self) -> np.ndarray:
        return self._lut("solid")

    def blocks_sight(self) -> np.ndarray:
        """bool [Z, Y, X]: voxels that block sight: an opaque material's, and the heavily obscured ones."""
        b = self.sight_lut[self.voxels]
        if self.obscured is not None:
            b |= self.obscured
        return b

    def set_obscured(self, mask) -> bool:
        """Make ``mask`` (bool [Z, Y, X], or None for none) the heavily obscured voxels. Every sight line and grid
        derived from ``blocks_sight`` (the distance field, the octant fields, the GPU's uploads) is worked out anew:
        the derived grids are dropped and the revision bumped, as an edit does. Returns whether anything changed."""
        if mask is not None:
            mask = np.asarray(mask, dtype=bool)
            if mask.shape != self.voxels.shape:
                raise ValueError(f"obscured mask shape {mask.shape} is not the grid's {self.voxels.shape}")
            if not mask.any():
                mask = None
        old = self.obscured
        if (old is None and mask is None) or (old is not None and mask is not None and np.array_equal(old, mask)):
            return False
        self.obscured = None if mask is None else np.ascontiguousarray(mask)
        self._luts.pop("_los_flat", None)
        self.revision += 1
        return True

    def solid(self) -> np.ndarray:
        return self.solid_lut[self.voxels]

    def los_distance(self) -> np.ndarray:
        """uint8 [Z*Y*X], x fastest: distance to the nearest sight-blocking voxel, 0 on one (cached). The line
        of sight traverses it (engine.world.los)."""
        flat = self._luts.get("_los_flat")
        if flat is None:
            from engine.world.los import distance_field

            flat = distance_field(self.blocks_sight()).ravel()
            self._luts["_los_flat"] = flat
        return flat

    def is_solid(self, x: int, y: int, z: int) -> bool:
        if z < 0:
            return True
        if not self.in_bounds(x, y, z):
            return False
        return bool(self.solid_lut[self.voxels[z, y, x]])

    def material_id(self, name: str) -> int:
        for i, m in enumerate(self.materials):
            if m.name == name:
                return i
        raise KeyError(name)

    def set_voxels(self, box_from, box_to, material_id: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        """Fill an inclusive box; returns the changed box (for re-meshing only the touched chunks)."""
        (x0, y0, z0), (x1, y1, z1) = box_from, box_to
        xa, xb = sorted((x0, x1))
        ya, yb = sorted((y0, y1))
        za, zb = sorted((z0, z1))
        self.voxels[za:zb + 1, ya:yb + 1, xa:xb + 1] = material_id
        self._patch_los((xa, ya, za), (xb, yb, zb))
        self.revision += 1
        return (xa, ya, za), (xb, yb, zb)

    def _patch_los(self, lo, hi) -> None:
        """Keep the cached line-of-sight distance field after an edit of the box lo..hi, recomputing only what can
        have changed: a capped Chebyshev distance moves only within ``cap`` of the box, and is exact there when
        computed over the box grown by twice the cap (voxels farther away cannot bring any value under the cap)."""
        flat = self._luts.get("_los_flat")
        if flat is None:
            return
        from engine.world.los import DIST_CAP, distance_field

        X, Y, Z = self.size
        cap = DIST_CAP

        def span(a, b, n, g):
            return max(0, a - g), min(n, b + 1 + g)

        (x0, x1), (y0, y1), (z0, z1) = (span(lo[i], hi[i], n, 2 * cap) for i, n in enumerate((X, Y, Z)))
        (u0, u1), (v0, v1), (w0, w1) = (span(lo[i], hi[i], n, cap) for i, n in enumerate((X, Y, Z)))
        sub_block = self.sight_lut[self.voxels[z0:z1, y0:y1, x0:x1]]
        if self.obscured is not None:
            sub_block |= self.obscured[z0:z1, y0:y1, x0:x1]
        sub = distance_field(sub_block, cap)
        field = flat.reshape(Z, Y, X).copy()          # the cached array may be shared with another world's cache
        field[w0:w1, v0:v1, u0:u1] = sub[w0 - z0:w1 - z0, v0 - y0:v1 - y0, u0 - x0:u1 - x0]
        self._luts["_los_flat"] = field.ravel()

    # -- heights and support --------------------------------------------------------------------------------
    def support_layer(self, x: int, y: int, below: int) -> int:
        """The layer a body would land on falling in cell (x, y) from feet layer ``below`` (exclusive):
        one above the highest solid voxel under it, or 0 for the ground."""
        X, Y, Z = self.size
        if not (0 <= x < X and 0 <= y < Y):
            return 0
        top = min(below, Z) - 1
        if top < 0:
            return 0
        col = self.solid_lut[self.voxels[: top + 1, y, x]]
        idx = np.flatnonzero(col)
        return int(idx[-1]) + 1 if idx.size else 0

    def is_supported(self, x: int, y: int, layer: int) -> bool:
        """Standing is possible: at layer 0, or the voxel under the feet is solid."""
        return layer == 0 or self.is_solid(x, y, layer - 1)

    def heightmap(self) -> np.ndarray:
        """int [Y, X]: the layer one stands on at the top of each column (0 where the column is empty)."""
        solid = self.solid()
        Z = solid.shape[0]
        any_solid = solid.any(axis=0)
        top = Z - 1 - np.argmax(solid[::-1], axis=0)
        return np.where(any_solid, top + 1, 0)
