"""The line-of-sight grid on the GPU: ``shaders/los_grid.comp`` runs the traversal of ``engine.world.los`` (bit
for bit: same fixed point, same tie rule) over the octant fields of ``engine.world.volumes``, packed four bytes
to a word in a storage buffer (the batch: four merged ones in 4-bit codes, ``FIELDS``). Two variants: a batch of segments, and cells -- the rays made in the kernel
(eye x 36 sample points x every cell of a box of layers), so nothing per ray crosses from Python.

``open_backend(world)`` gives the GPU backend where a GL 4.3 context with 64-bit integers is there, else the CPU
one (``engine.world.volumes``): the same answers either way (tests/render/test_los_gpu.py holds them equal).
"""

from __future__ import annotations

import numpy as np

from engine.render.shaders import SHADER_DIR, with_defines
from engine.world.geometry import Body
from engine.world.volumes import (NO_ATTACK, NO_BODY, STANDARD, cover_counts_cpu, eye_fixed, free_cells,
                                  melee_limits, range_table, sample_offsets, threat_counts_cpu,
                                  world_octant_fields)

LOCAL = 64
RAYS_PER = 8                      # segments an invocation traces one after the other (a multiple of 4)
MAX_GROUPS = 65535
TILE = 16                         # melee threat after a move: tiles of this many cells a side...
TILE_EYES = 32                    # ...when an enemy has more places than this
FIELDS_MAX_BYTES = 512 << 20      # eight octant fields up to this size; past it one Chebyshev field


ARITH = "auto"                    # "auto" (i32 up to 128 a side, else int64), "int64", "double", "i32": the
                                  # boundary parameters' type in the kernel (same answers)

# The fields each variant reads: (the axes whose direction picks a field, bits a value). The fewer fields and
# bits, the less memory they take and the shorter the jumps. A batch's random segments read them at random places
# all over the map, so there the memory wins (llvmpipe: a read that misses the CPU's caches is most of a jump's
# cost): four fields, each clear both ways along z, in 4-bit codes (1 MB for the 128 x 128 x 32 town instead of
# 4 MB; 5.9 -> about 6.5 jumps a segment; about 25% less CPU time than eight 8-bit fields here). A volume's rays
# leave one eye and read the same places one after the other: there the jumps win, and all eight octant fields.
FIELDS = {"MODE_SEGMENTS": ("xy", 4), "MODE_CELLS": ("xyz", 8)}
NIBBLE_SIDES = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28])   # as in the shader's field_at
_NIBBLE_CODE = (np.searchsorted(NIBBLE_SIDES, np.arange(256), side="right") - 1).astype(np.uint8)


def merge_octants(fields: np.ndarray, signs: str):
    """The eight octant fields (uint8 [8, n], ``volumes.octant_fields``) merged along the axes not in ``signs``:
    the smaller of two octants' sides is a cube clear both ways along that axis, so clear for a ray going either
    way. -> (one field per combination of the kept signs [2 ** len(signs), n], the shader's ``field_of``)."""
    keep = [ax for ax, name in enumerate("xyz") if name in signs]
    f = list(fields)
    for ax in range(3):
        if ax not in keep:
            bit = 1 << ax
            f = [np.minimum(f[o & ~bit], f[o | bit]) for o in range(8)]
    mask = sum(1 << ax for ax in keep)
    slots = sorted({o & mask for o in range(8)})
    weights = [0, 0, 0]
    for j, ax in enumerate(keep):
        weights[ax] = 1 << j
    return np.stack([f[o] for o in slots]), tuple(weights)


def pack_fields(fields: np.ndarray, bits: int) -> bytes:
    """Fields -> the shader's words: bytes (four to a word) or 4-bit codes (eight to a word; NIBBLE_SIDES)."""
    raw = np.ascontiguousarray(fields).reshape(-1)
    if bits == 4:
        raw = _NIBBLE_CODE[np.concatenate([raw, np.zeros((-len(raw)) % 8, np.uint8)])]
        return (raw[0::2] | (raw[1::2] << 4)).tobytes()
    return np.concatenate([raw, np.zeros((-len(raw)) % 4, np.uint8)]).tobytes()


def _compile(ctx, mode: str, arith: str = "int64"):
    defs = {mode: 1, "LOCAL": LOCAL, "RAYS_PER": RAYS_PER}
    if FIELDS[mode][1] == 4:
        defs["FIELD_NIBBLES"] = 1
    if arith == "double":
        defs["ARITH_DOUBLE"] = 1
    elif arith == "i32":
        defs["ARITH_I32"] = 1
    src = with_defines((SHADER_DIR / "los_grid.comp").read_text(), defs)
    return ctx.compute_shader(src)


def gl_context():
    """A headless GL 4.3 context with 64-bit integers in shaders, or None (then the CPU backend runs)."""
    try:
        import moderngl

        ctx = moderngl.create_standalone_context(backend="egl", require=430)
    except Exception:   # noqa: BLE001 - no EGL, no GL 4.3: the CPU backend
        return None
    if "GL_ARB_gpu_shader_int64" not in ctx.extensions:
        ctx.release()
        return None
    return ctx


def _current(method):
    """Run a method with this tracer's context current (another context may have been made current since;
    left current afterwards: leaving a standalone context's ``with`` block here made no context current)."""
    import functools

    @functools.wraps(method)
    def run(self, *a, **kw):
        self.ctx.__enter__()
        return method(self, *a, **kw)
    return run


class GridTracer:
    """The kernel bound to one world's voxels (re-uploaded by itself after an edit: the world's revision)."""

    def __init__(self, ctx, world):
        self.ctx = ctx
        self._programs = {}
        self._bufs = {}
        self.world = world
        self.revision = None
        self._src = None
        self._field_of = {}
        self.rays_per = RAYS_PER
        small = max(world.size) * 256 <= 1 << 15      # every coordinate below 2^15: the 32-bit arithmetic is exact
        self.arith = "i32" if ARITH == "auto" and small else ("int64" if ARITH == "auto" else ARITH)
        if self.arith == "i32" and not small:
            raise ValueError("the 32-bit kernel needs a map of at most 128 voxels a side")
        self.name = f"GLSL compute ({ctx.info['GL_RENDERER']})"
        self.update()


    @_current
    def update(self):
        """Drop the uploaded fields if the world changed since they were made: an edit (its revision) or derived
        grids dropped by hand (``world._luts.clear()`` after writing ``voxels``: the cached fields are new); each
        variant uploads its own on its next run (``_fields``)."""
        w = self.world
        X, Y, Z = w.size
        n = X * Y * Z
        src = world_octant_fields(w) if 8 * n <= FIELDS_MAX_BYTES else w.los_distance()
        if self.revision == w.revision and src is self._src:
            return
        self._src = src
        self._field_of = {}
        self.revision = w.revision
        self.size = (X, Y, Z)
        self._free = {}

    def _fields(self, mode):
        """Upload the fields ``mode`` reads (FIELDS) if not yet done for this revision -> the buffer's key."""
        key = "field " + mode
        if mode not in self._field_of:
            src = self._src
            fields, field_of = (src[None, :], (0, 0, 0)) if src.ndim == 1 else merge_octants(src, FIELDS[mode][0])
            self._set(key, pack_fields(fields, FIELDS[mode][1]))
            self._field_of[mode] = field_of
        return key

    def _set(self, key, data=None, reserve: int = 0):
        # the same size as last time (the next batch of as many segments, the next layer): the buffer is reused,
        # written over (a reserved one is written whole by the kernel) -- a new one costs 10-20 ms here for 24 MB,
        # its memory faulted in afresh, against 3-6 ms to write the data into the old one
        # (in bytes: the len() of a 2D array's memoryview is its rows, so the batch's buffers were never reused)
        old = self._bufs.get(key)
        nbytes = 0 if data is None else memoryview(data).nbytes
        size = max(4, reserve) if data is None else max(4, nbytes)
        if old is not None and old.size == size:
            if nbytes:
                old.write(data)
            return old
        old = self._bufs.pop(key, None)
        if old is not None:
            old.release()
        if data is None:
            self._bufs[key] = self.ctx.buffer(reserve=max(4, reserve))
        else:
            self._bufs[key] = self.ctx.buffer(data if nbytes else b"\0\0\0\0")
        return self._bufs[key]

    def _program(self, mode):
        p = self._programs.get(mode)
        if p is None:
            p = self._programs[mode] = _compile(self.ctx, mode, self.arith)
        return p

    def _common(self, p, mode):
        X, Y, Z = self.size
        key = self._fields(mode)
        p["size"].value = (X, Y, Z)
        p["field_of"].value = self._field_of[mode]
        p["field_len"].value = X * Y * Z
        self._bufs[key].bind_to_storage_buffer(0)

    # -- segments --------------------------------------------------------------------------------------------
    @_current
    def trace(self, p0: np.ndarray, p1: np.ndarray) -> np.ndarray:
        """Fixed-point segments (int [N, 3], inside the map) -> blocked bool [N]."""
        self.update()
        p0 = np.asarray(p0, dtype=np.int64).reshape(-1, 3)
        p1 = np.asarray(p1, dtype=np.int64).reshape(-1, 3)
        n = len(p0)
        if n == 0:
            return np.zeros(0, dtype=bool)
        p = self._program("MODE_SEGMENTS")
        self._common(p, "MODE_SEGMENTS")
        bad = self._set("bad", bytes(4))            # the kernel checks the end points (cheaper than numpy here)
        bad.bind_to_storage_buffer(4)
        out = np.empty(n, dtype=bool)
        R = self.rays_per
        chunk = MAX_GROUPS * LOCAL * R
        for s in range(0, n, chunk):
            e = min(n, s + chunk)
            self._set("p0", np.ascontiguousarray(p0[s:e]).data).bind_to_storage_buffer(1)
            self._set("p1", np.ascontiguousarray(p1[s:e]).data).bind_to_storage_buffer(3)
            words = (e - s + R - 1) // R * R // 4
            res = self._set("res", reserve=4 * words)
            res.bind_to_storage_buffer(2)
            p["n_rays"].value = e - s
            p.run((e - s + LOCAL * R - 1) // (LOCAL * R))
            out[s:e] = np.frombuffer(res.read(), dtype=np.uint8)[:e - s].view(bool)
        if np.frombuffer(bad.read(), dtype=np.uint32)[0]:
            raise ValueError("ray end points must lie inside the map box [0, size)")
        return out

    # -- cells -----------------------------------------------------------------------------------------------
    def _free_bits(self, template):
        key = (template.footprint, template.height_layers)
        if key not in self._free:
            bits = np.packbits(free_cells(self.world, template).reshape(-1), bitorder="little")
            bits = np.concatenate([bits, np.zeros((-len(bits)) % 4, np.uint8)])
            self._free[key] = bits.tobytes()
        return self._free[key]

    @_current
    def cell_counts(self, places, layers, template: Body = STANDARD, weapons=None) -> np.ndarray:
        """uint16 [layers, Y, X]: the fewest blocked sample lines from the eyes of ``places`` (Bodies) to a
        template body at each cell of ``layers``; with ``weapons`` (volumes.Weapons) only from places whose
        reach or range covers the cell (NO_ATTACK where none does). NO_BODY where a body cannot be."""
        self.update()
        X, Y, Z = self.size
        offs = sample_offsets(self.size, template)
        if offs is None or len(offs) > 36:
            raise ValueError("the sample points are not one offset per cell here")
        layers = [int(z) for z in layers]
        out = np.full((len(layers), Y, X), NO_BODY, dtype=np.uint16)
        if not layers or not places:
            if not places:
                free = free_cells(self.world, template)
                for i, z in enumerate(layers):
                    out[i][free[z]] = NO_ATTACK if weapons is not None else 0
            return out
        p = self._program("MODE_CELLS")
        self._common(p, "MODE_CELLS")
        eyes = np.zeros((len(places), 3, 4), dtype=np.int32)
        for i, b in enumerate(places):
            eyes[i, 0, :3] = eye_fixed(self.world, b)
            eyes[i, 0, 3] = b.layer - 1
            eyes[i, 1] = (b.x, b.y, b.x + b.footprint, b.y + b.footprint)
            eyes[i, 2] = (2 * b.x + b.footprint, 2 * b.y + b.footprint, b.layer, b.footprint)
        self._set("eyes", eyes.tobytes()).bind_to_storage_buffer(1)
        self._set("free", self._free_bits(template)).bind_to_storage_buffer(2)
        if weapons is not None and weapons.range_m is not None:
            rt = range_table(weapons.range_m, self.world.cell_m, self.size)
            self._set("range", rt.astype(np.int32).tobytes()).bind_to_storage_buffer(3)
            p["range_w"].value = rt.shape[1]
        else:
            self._set("range", b"").bind_to_storage_buffer(3)
            p["range_w"].value = 0
        mc, ml = melee_limits(weapons.reach_m if weapons is not None else None, self.world.cell_m)
        p["melee_cells"].value = mc
        p["melee_layers"].value = ml
        p["check"].value = 1 if weapons is not None else 0
        p["n_samples"].value = len(offs)
        pad = np.zeros((36, 3), dtype=np.int32)
        pad[:len(offs)] = offs
        p["offsets"].write(pad.tobytes())
        p["footprint"].value = template.footprint
        p["eye0"].value = 0
        p["n_eyes"].value = len(places)
        if weapons is not None and weapons.range_m is None and len(places) > TILE_EYES:
            return self._melee_tiles(p, eyes, places, layers, out, mc, ml, template)
        # runs of consecutive layers, each one dispatch (under the work-group limit)
        per = max(1, (MAX_GROUPS * LOCAL) // (X * Y))
        runs, i = [], 0
        while i < len(layers):
            j = i
            while j + 1 < len(layers) and layers[j + 1] == layers[j] + 1 and j + 1 - i < per:
                j += 1
            runs.append((i, j + 1))
            i = j + 1
        for i, j in runs:
            cells = X * Y * (j - i)
            res = self._set("counts", reserve=4 * cells)
            res.bind_to_storage_buffer(4)
            p["box0"].value = (0, 0, layers[i])
            p["box_size"].value = (X, Y, j - i)
            p.run((cells + LOCAL - 1) // LOCAL)
            out[i:j] = np.frombuffer(res.read(), dtype=np.uint32).reshape(j - i, Y, X)
        return out

    def _melee_tiles(self, p, eyes, places, layers, out, mc, ml, template):
        """Melee only, many places (after a move): each layer in tiles of TILE x TILE cells, each with only the
        places whose reach can cover some cell of the tile (a superset: the kernel still checks each cell)."""
        X, Y, Z = self.size
        f = template.footprint
        bx = np.array([b.x for b in places])
        by = np.array([b.y for b in places])
        bz = np.array([b.layer for b in places])
        bf = np.array([b.footprint for b in places])
        free = free_cells(self.world, template)
        for i, z in enumerate(layers):
            near_z = np.abs(bz - z) <= ml
            for y0 in range(0, Y, TILE):
                y1 = min(Y, y0 + TILE)
                gy = np.maximum(0, np.maximum(y0 - (by + bf - 1), by - (y1 - 1 + f - 1)))
                for x0 in range(0, X, TILE):
                    x1 = min(X, x0 + TILE)
                    gx = np.maximum(0, np.maximum(x0 - (bx + bf - 1), bx - (x1 - 1 + f - 1)))
                    sel = np.flatnonzero(near_z & (np.maximum(gx, gy) <= mc))
                    tile = out[i, y0:y1, x0:x1]
                    if not len(sel):
                        tile[free[z, y0:y1, x0:x1]] = NO_ATTACK
                        continue
                    self._set("eyes", np.ascontiguousarray(eyes[sel]).tobytes()).bind_to_storage_buffer(1)
                    p["n_eyes"].value = len(sel)
                    cells = (x1 - x0) * (y1 - y0)
                    res = self._set("counts", reserve=4 * cells)
                    res.bind_to_storage_buffer(4)
                    p["box0"].value = (x0, y0, z)
                    p["box_size"].value = (x1 - x0, y1 - y0, 1)
                    p.run((cells + LOCAL - 1) // LOCAL)
                    tile[:] = np.frombuffer(res.read(), dtype=np.uint32).reshape(y1 - y0, x1 - x0)
        return out

    @_current
    def release(self):
        for b in self._bufs.values():
            b.release()
        for p in self._programs.values():
            p.release()
        self._bufs.clear()
        self._programs.clear()


class CpuBackend:
    """The same answers from numpy (engine.world.volumes), where there is no GL 4.3."""

    name = "CPU (numpy)"

    def __init__(self, world):
        self.world = world

    def cell_counts(self, places, layers, template: Body = STANDARD, weapons=None) -> np.ndarray:
        if weapons is None:
            if len(places) != 1:
                raise ValueError("a cover volume has one attacker")
            return cover_counts_cpu(self.world, places[0], layers, template)
        return threat_counts_cpu(self.world, [(list(places), weapons)], layers, template)[0]

    def release(self):
        pass


_LOCAL = __import__("threading").local()


def shared_backend(world):
    """This thread's backend for ``world`` (made once; GL contexts belong to a thread, so each thread has its own).
    ``AERIE_LOS_BACKEND=cpu`` in the environment chooses the CPU one."""
    import os

    cache = getattr(_LOCAL, "backends", None)
    if cache is None:
        cache = _LOCAL.backends = {}
    got = cache.get(id(world))
    if got is None or got[0] is not world:
        for _w, b in cache.values():
            b.release()
        cache.clear()
        got = cache[id(world)] = (world, open_backend(world, os.environ.get("AERIE_LOS_BACKEND", "auto")))
    return got[1]


def open_backend(world, prefer: str = "auto", ctx=None):
    """``GridTracer`` on a GL 4.3 context (``ctx`` or a new headless one) unless ``prefer == "cpu"``, else
    ``CpuBackend``. The GPU one owns a context it made (``release`` frees it)."""
    if prefer != "cpu":
        own = ctx is None
        ctx = ctx or gl_context()
        if ctx is not None:
            try:
                t = GridTracer(ctx, world)
            except Exception:   # noqa: BLE001 - a driver that cannot build the kernel: the CPU answers
                if own:
                    ctx.release()
            else:
                if own:
                    rel = t.release

                    def release():
                        rel()
                        ctx.release()
                    t.release = release
                return t
        if prefer == "gpu":
            raise RuntimeError("no OpenGL 4.3 context with 64-bit shader integers here")
    return CpuBackend(world)
