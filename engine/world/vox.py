"""Read and write MagicaVoxel ``.vox`` files, with numpy only.

Format: https://github.com/ephtracy/voxel-model (``MagicaVoxel-file-format-vox.txt`` and
``MagicaVoxel-file-format-vox-extension.txt``). A file is ``b"VOX "``, an int32 version (150 or 200), then a
``MAIN`` chunk whose children hold the models (``SIZE`` + ``XYZI`` pairs), the palette (``RGBA``) and, from
version 200 on, a scene graph (``nTRN`` / ``nGRP`` / ``nSHP``) that places the models in the world. Every other
chunk (materials, layers, render settings, cameras, notes, ...) is skipped by its sizes.

Reading treats the file as hostile: every size and count is checked against the bytes that actually hold it,
the combined grid is checked against the caps before anything is allocated, and anything wrong raises
:class:`~engine.errors.VoxError` with a message that starts with the file name. Nothing else escapes.

Axes: MagicaVoxel's z is up, like ours; voxel ``(x, y, z)`` of the file lands in ``voxels[z, y, x]``.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.errors import VoxError

__all__ = ["VoxModel", "read_vox", "write_vox", "vox_bytes", "DEFAULT_PALETTE"]

# MagicaVoxel's default palette, as in the spec: 0xAABBGGRR words, so their little-endian bytes are R, G, B, A.
# Entry i is the colour of colour index i (entry 0 is unused). It applies when a file has no RGBA chunk.
_DEFAULT_PALETTE_WORDS = (
    0x00000000, 0xffffffff, 0xffccffff, 0xff99ffff, 0xff66ffff, 0xff33ffff, 0xff00ffff, 0xffffccff,
    0xffccccff, 0xff99ccff, 0xff66ccff, 0xff33ccff, 0xff00ccff, 0xffff99ff, 0xffcc99ff, 0xff9999ff,
    0xff6699ff, 0xff3399ff, 0xff0099ff, 0xffff66ff, 0xffcc66ff, 0xff9966ff, 0xff6666ff, 0xff3366ff,
    0xff0066ff, 0xffff33ff, 0xffcc33ff, 0xff9933ff, 0xff6633ff, 0xff3333ff, 0xff0033ff, 0xffff00ff,
    0xffcc00ff, 0xff9900ff, 0xff6600ff, 0xff3300ff, 0xff0000ff, 0xffffffcc, 0xffccffcc, 0xff99ffcc,
    0xff66ffcc, 0xff33ffcc, 0xff00ffcc, 0xffffcccc, 0xffcccccc, 0xff99cccc, 0xff66cccc, 0xff33cccc,
    0xff00cccc, 0xffff99cc, 0xffcc99cc, 0xff9999cc, 0xff6699cc, 0xff3399cc, 0xff0099cc, 0xffff66cc,
    0xffcc66cc, 0xff9966cc, 0xff6666cc, 0xff3366cc, 0xff0066cc, 0xffff33cc, 0xffcc33cc, 0xff9933cc,
    0xff6633cc, 0xff3333cc, 0xff0033cc, 0xffff00cc, 0xffcc00cc, 0xff9900cc, 0xff6600cc, 0xff3300cc,
    0xff0000cc, 0xffffff99, 0xffccff99, 0xff99ff99, 0xff66ff99, 0xff33ff99, 0xff00ff99, 0xffffcc99,
    0xffcccc99, 0xff99cc99, 0xff66cc99, 0xff33cc99, 0xff00cc99, 0xffff9999, 0xffcc9999, 0xff999999,
    0xff669999, 0xff339999, 0xff009999, 0xffff6699, 0xffcc6699, 0xff996699, 0xff666699, 0xff336699,
    0xff006699, 0xffff3399, 0xffcc3399, 0xff993399, 0xff663399, 0xff333399, 0xff003399, 0xffff0099,
    0xffcc0099, 0xff990099, 0xff660099, 0xff330099, 0xff000099, 0xffffff66, 0xffccff66, 0xff99ff66,
    0xff66ff66, 0xff33ff66, 0xff00ff66, 0xffffcc66, 0xffcccc66, 0xff99cc66, 0xff66cc66, 0xff33cc66,
    0xff00cc66, 0xffff9966, 0xffcc9966, 0xff999966, 0xff669966, 0xff339966, 0xff009966, 0xffff6666,
    0xffcc6666, 0xff996666, 0xff666666, 0xff336666, 0xff006666, 0xffff3366, 0xffcc3366, 0xff993366,
    0xff663366, 0xff333366, 0xff003366, 0xffff0066, 0xffcc0066, 0xff990066, 0xff660066, 0xff330066,
    0xff000066, 0xffffff33, 0xffccff33, 0xff99ff33, 0xff66ff33, 0xff33ff33, 0xff00ff33, 0xffffcc33,
    0xffcccc33, 0xff99cc33, 0xff66cc33, 0xff33cc33, 0xff00cc33, 0xffff9933, 0xffcc9933, 0xff999933,
    0xff669933, 0xff339933, 0xff009933, 0xffff6633, 0xffcc6633, 0xff996633, 0xff666633, 0xff336633,
    0xff006633, 0xffff3333, 0xffcc3333, 0xff993333, 0xff663333, 0xff333333, 0xff003333, 0xffff0033,
    0xffcc0033, 0xff990033, 0xff660033, 0xff330033, 0xff000033, 0xffffff00, 0xffccff00, 0xff99ff00,
    0xff66ff00, 0xff33ff00, 0xff00ff00, 0xffffcc00, 0xffcccc00, 0xff99cc00, 0xff66cc00, 0xff33cc00,
    0xff00cc00, 0xffff9900, 0xffcc9900, 0xff999900, 0xff669900, 0xff339900, 0xff009900, 0xffff6600,
    0xffcc6600, 0xff996600, 0xff666600, 0xff336600, 0xff006600, 0xffff3300, 0xffcc3300, 0xff993300,
    0xff663300, 0xff333300, 0xff003300, 0xffff0000, 0xffcc0000, 0xff990000, 0xff660000, 0xff330000,
    0xff0000ee, 0xff0000dd, 0xff0000bb, 0xff0000aa, 0xff000088, 0xff000077, 0xff000055, 0xff000044,
    0xff000022, 0xff000011, 0xff00ee00, 0xff00dd00, 0xff00bb00, 0xff00aa00, 0xff008800, 0xff007700,
    0xff005500, 0xff004400, 0xff002200, 0xff001100, 0xffee0000, 0xffdd0000, 0xffbb0000, 0xffaa0000,
    0xff880000, 0xff770000, 0xff550000, 0xff440000, 0xff220000, 0xff110000, 0xffeeeeee, 0xffdddddd,
    0xffbbbbbb, 0xffaaaaaa, 0xff888888, 0xff777777, 0xff555555, 0xff444444, 0xff222222, 0xff111111,
)
DEFAULT_PALETTE: np.ndarray = np.array(_DEFAULT_PALETTE_WORDS, dtype="<u4").view(np.uint8).reshape(256, 4)
DEFAULT_PALETTE.setflags(write=False)

_MAGIC = b"VOX "
_MAX_MODEL_SIDE = 256         # written models: XYZI stores each coordinate in one byte
_MAX_CHUNKS = 1 << 18         # children of MAIN; far more than any real scene, bounds the time spent on junk
_MAX_DICT = 4096              # entries in one DICT; real ones hold a handful
_BATCH = 1 << 22              # voxels placed per numpy batch, bounds temporary memory on huge models
_IDENTITY = ((1, 0, 0), (0, 1, 0), (0, 0, 1))


@dataclass(frozen=True)
class VoxModel:
    size: tuple[int, int, int]        # (X, Y, Z) of the combined grid
    voxels: np.ndarray                # uint8 [Z, Y, X] C-contiguous; 0 = empty, 1..255 = colour index
    palette: np.ndarray               # uint8 (256, 4) RGBA; palette[i] is the colour of colour index i


# --------------------------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------------------------

def read_vox(source, *, name: str | None = None, max_voxels: int = 64 * 1024 * 1024,
             max_side: int = 1024, max_bytes: int = 256 * 1024 * 1024) -> VoxModel:
    """Read a .vox file from a path or from bytes; every model is merged into one grid.

    With a scene graph, each shape's model is placed at its accumulated transform; without one, all models
    sit at the origin (later models win). The result is shifted so that the lowest corner is (0, 0, 0).
    Raises VoxError (message starting with ``name``) on anything malformed, hostile or over the caps.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        label = name if name is not None else "<bytes>"
        if len(source) > max_bytes:
            raise VoxError(f"{label}: {len(source) / 2 ** 20:g} MiB is over the {max_bytes / 2 ** 20:g} MiB cap")
        data = bytes(source)
    else:
        try:
            path = os.fsdecode(os.fspath(source))
        except TypeError:
            raise VoxError(f"{name or '<vox>'}: cannot read a .vox from a {type(source).__name__}") from None
        label = name if name is not None else path
        from engine.inputs import VOX_MAX_BYTES, read_bounded

        # regular files only, size capped before reading (a 3 GiB file is refused from its size; a FIFO never
        # blocks); the cap covers the largest model the voxel caps admit
        data = read_bounded(path, min(max_bytes, VOX_MAX_BYTES), label, VoxError)
    return _Parser(data, label, max_voxels, max_side).parse()


@dataclass
class _Model:
    size: tuple[int, int, int]     # (x, y, z)
    xyzi: np.ndarray               # uint8 (N, 4): x, y, z, colour index; view into the file bytes


@dataclass
class _Node:
    kind: str                      # "nTRN", "nGRP" or "nSHP"
    children: Sequence[int] | np.ndarray   # child node ids (nTRN: one; nGRP: an int32 array; nSHP: none)
    rotation: tuple = _IDENTITY    # nTRN only
    translation: tuple = (0, 0, 0) # nTRN only
    model: int | None = None       # nSHP only


class _Fields:
    """Sequential little-endian reads inside one chunk's content; running out raises VoxError."""

    def __init__(self, parser: _Parser, chunk: str, start: int, end: int):
        self.p, self.chunk, self.pos, self.end = parser, chunk, start, end

    def left(self) -> int:
        return self.end - self.pos

    def i32(self, what: str) -> int:
        if self.end - self.pos < 4:
            raise self.p.error(f"{self.chunk} chunk is too short: it ends before its {what}")
        (v,) = struct.unpack_from("<i", self.p.data, self.pos)
        self.pos += 4
        return v

    def count(self, what: str, item_bytes: int) -> int:
        """An int32 count of items that take at least ``item_bytes`` each, checked against the bytes left."""
        n = self.i32(what)
        if n < 0:
            raise self.p.error(f"{self.chunk} chunk has a negative {what} ({n})")
        if n * item_bytes > self.left():
            raise self.p.error(f"{self.chunk} chunk claims {n} {what} but only {self.left()} bytes are left")
        return n

    def string(self) -> str:
        n = self.i32("string length")
        if n < 0 or n > self.left():
            raise self.p.error(f"{self.chunk} chunk has a string of {n} bytes but only {self.left()} are left")
        s = self.p.data[self.pos:self.pos + n].decode("utf-8", "replace")
        self.pos += n
        return s

    def dict(self) -> dict[str, str]:
        n = self.count("dictionary entries", 8)     # each entry is at least two empty strings
        if n > _MAX_DICT:
            raise self.p.error(f"{self.chunk} chunk has a dictionary of {n} entries (limit {_MAX_DICT})")
        return {self.string(): self.string() for _ in range(n)}


class _Parser:
    def __init__(self, data: bytes, name: str, max_voxels: int, max_side: int):
        self.data, self.name = data, name
        self.max_voxels, self.max_side = max_voxels, max_side
        self.models: list[_Model] = []
        self.nodes: dict[int, _Node] = {}
        self.palette: np.ndarray | None = None

    def error(self, message: str) -> VoxError:
        return VoxError(f"{self.name}: {message}")

    # -- chunk structure ---------------------------------------------------------------------------------------
    def parse(self) -> VoxModel:
        data = self.data
        if len(data) < 8:
            raise self.error(f"not a MagicaVoxel file: {len(data)} bytes is too short for a header")
        if data[:4] != _MAGIC:
            raise self.error(f"not a MagicaVoxel file: starts with {data[:4]!r} instead of {_MAGIC!r}")
        # The version is not checked: 150 and 200 are the common ones, and the chunk checks below catch junk.
        if len(data) == 8:
            raise self.error("file is truncated: no MAIN chunk after the header")
        cid, _pos, _content, children, end = self.chunk_at(8, len(data), "the file")
        if cid != "MAIN":
            raise self.error(f"expected a MAIN chunk at byte 8, found {cid!r}")
        # Bytes after MAIN are ignored, like MagicaVoxel does.
        pending_size: tuple[int, int, int] | None = None
        for cid, pos, content, children_at in self.chunks(children, end, "MAIN"):
            f = _Fields(self, cid, content, children_at)
            if cid == "SIZE":
                if pending_size is not None:
                    raise self.error(f"SIZE chunk at byte {pos} follows a SIZE chunk that has no XYZI")
                pending_size = self.size_chunk(f)
            elif cid == "XYZI":
                if pending_size is None:
                    raise self.error(f"XYZI chunk at byte {pos} has no SIZE chunk before it")
                self.models.append(self.xyzi_chunk(f, pending_size))
                pending_size = None
            elif cid == "RGBA":
                if f.left() < 256 * 4:
                    raise self.error(f"RGBA chunk holds {f.left()} bytes, a palette needs {256 * 4}")
                rgba = np.frombuffer(data, np.uint8, 256 * 4, content).reshape(256, 4)
                palette = np.zeros((256, 4), np.uint8)
                palette[1:] = rgba[:255]        # file entry i is colour index i + 1; the last entry is unused
                self.palette = palette
            elif cid == "PACK":
                f.count("models", 0)            # informative only: the SIZE/XYZI pairs are what counts
            elif cid in ("nTRN", "nGRP", "nSHP"):
                self.node_chunk(f, pos)
            # Anything else (MATL, MATT, LAYR, rOBJ, rCAM, NOTE, IMAP, unknown) is skipped by its sizes.
        if pending_size is not None:
            raise self.error("the last SIZE chunk has no XYZI chunk after it")
        if not self.models:
            raise self.error("file has no models (no SIZE/XYZI chunks)")
        return self.assemble()

    def chunks(self, start: int, end: int, parent: str):
        """Yield (id, offset, content offset, children offset) for the chunks in [start, end).

        Children of chunks other than MAIN are skipped with their chunk, so nesting costs nothing.
        """
        pos, n = start, 0
        while pos < end:
            n += 1
            if n > _MAX_CHUNKS:
                raise self.error(f"{parent} holds more than {_MAX_CHUNKS} chunks")
            cid, pos, content, children, chunk_end = self.chunk_at(pos, end, parent)
            yield cid, pos, content, children
            pos = chunk_end

    def chunk_at(self, pos: int, end: int, parent: str) -> tuple[str, int, int, int, int]:
        """The chunk header at ``pos``, checked to fit before ``end``: (id, pos, content, children, end)."""
        if end - pos < 12:
            raise self.error(f"truncated chunk header at byte {pos} ({end - pos} bytes left in {parent})")
        cid = self.data[pos:pos + 4].decode("latin-1")
        content_size, children_size = struct.unpack_from("<ii", self.data, pos + 4)
        if content_size < 0 or children_size < 0:
            raise self.error(f"{cid!r} chunk at byte {pos} has a negative size "
                             f"(content {content_size}, children {children_size})")
        chunk_end = pos + 12 + content_size + children_size
        if chunk_end > end:
            raise self.error(f"{cid!r} chunk at byte {pos} claims {chunk_end - pos} bytes but runs past "
                             f"the end of {parent} ({end - pos} bytes left)")
        return cid, pos, pos + 12, pos + 12 + content_size, chunk_end

    # -- models ------------------------------------------------------------------------------------------------
    def size_chunk(self, f: _Fields) -> tuple[int, int, int]:
        size = (f.i32("size x"), f.i32("size y"), f.i32("size z"))
        if min(size) <= 0:
            raise self.error(f"model size {size[0]}x{size[1]}x{size[2]} is empty or negative")
        # MagicaVoxel models stop at 256 per axis, but a larger SIZE is harmless (XYZI cannot address past
        # 255), so only our own caps apply.
        if max(size) > self.max_side:
            raise self.error(f"model size {size[0]}x{size[1]}x{size[2]} exceeds the limit of "
                             f"{self.max_side} per axis")
        if size[0] * size[1] * size[2] > self.max_voxels:
            raise self.error(f"model size {size[0]}x{size[1]}x{size[2]} exceeds the limit of "
                             f"{self.max_voxels} voxels")
        return size

    def xyzi_chunk(self, f: _Fields, size: tuple[int, int, int]) -> _Model:
        count = f.i32("voxel count")
        holds = max(f.left(), 0) // 4
        if count < 0 or count > holds:
            raise self.error(f"XYZI chunk claims {count} voxels but holds {holds}")
        xyzi = np.frombuffer(self.data, np.uint8, count * 4, f.pos).reshape(count, 4)
        if count:
            # Vectorised bounds check; the maximum per axis is enough.
            top = xyzi[:, :3].max(axis=0)
            for axis in range(3):
                if top[axis] >= size[axis]:
                    raise self.error(f"XYZI chunk has a voxel at {'xyz'[axis]}={int(top[axis])}, outside its "
                                     f"model of size {size[0]}x{size[1]}x{size[2]}")
        return _Model(size, xyzi)

    # -- scene graph -------------------------------------------------------------------------------------------
    def node_chunk(self, f: _Fields, pos: int) -> None:
        kind = f.chunk
        node_id = f.i32("node id")
        f.dict()                                    # node attributes (_name, _hidden): unused
        if kind == "nTRN":
            child = f.i32("child node id")
            f.i32("reserved id")
            f.i32("layer id")
            frames = f.count("frames", 4)
            rotation, translation = _IDENTITY, (0, 0, 0)
            if frames:
                # Only the first frame matters: later frames are animation.
                attrs = f.dict()
                if "_r" in attrs:
                    rotation = self.rotation(attrs["_r"])
                if "_t" in attrs:
                    translation = self.translation(attrs["_t"])
            node = _Node(kind, (child,), rotation, translation)
        elif kind == "nGRP":
            n = f.count("children", 4)
            node = _Node(kind, np.frombuffer(self.data, "<i4", n, f.pos))
        else:
            n = f.count("models", 8)
            # An animated shape lists one model per frame; the first one is the shape at rest.
            node = _Node(kind, (), model=f.i32("model id") if n else None)
        if node_id in self.nodes:
            raise self.error(f"{kind} chunk at byte {pos} reuses scene node id {node_id}")
        self.nodes[node_id] = node

    def rotation(self, text: str) -> tuple:
        """Decode MagicaVoxel's packed rotation byte into a 3x3 signed permutation matrix (rows)."""
        try:
            bits = int(text.strip())
        except ValueError:
            raise self.error(f"nTRN chunk has an unreadable rotation {text[:40]!r}") from None
        first, second = bits & 3, (bits >> 2) & 3
        if not 0 <= bits < 128 or first > 2 or second > 2 or first == second:
            raise self.error(f"nTRN chunk has an invalid rotation {bits}")
        columns = (first, second, 3 - first - second)
        rows = []
        for row, column in enumerate(columns):
            r = [0, 0, 0]
            r[column] = -1 if bits >> (4 + row) & 1 else 1
            rows.append(tuple(r))
        return tuple(rows)

    def translation(self, text: str) -> tuple[int, int, int]:
        parts = text.split()
        try:
            if len(parts) != 3:
                raise ValueError
            x, y, z = (int(p) for p in parts)
            return (x, y, z)
        except ValueError:
            raise self.error(f"nTRN chunk has an unreadable translation {text[:40]!r}") from None

    def instances(self) -> list[tuple[int, tuple, tuple]]:
        """Walk the scene graph from node 0: (model index, rotation, translation) per shape, in draw order."""
        if 0 not in self.nodes:
            raise self.error("scene graph has no root node 0")
        out, seen = [], set()
        stack: list[tuple[int, tuple, tuple]] = [(0, _IDENTITY, (0, 0, 0))]
        while stack:                                # explicit stack: a deep chain of nodes cannot overflow
            node_id, rot, trans = stack.pop()
            if node_id in seen:
                # MagicaVoxel writes a tree; a shared node means a cycle or an exponential blow-up.
                raise self.error(f"scene graph reaches node {node_id} twice")
            seen.add(node_id)
            node = self.nodes.get(node_id)
            if node is None:
                raise self.error(f"scene graph refers to missing node {node_id}")
            if node.kind == "nTRN":
                # world = rot @ (node.rotation @ p + node.translation) + trans
                trans = tuple(trans[i] + sum(rot[i][k] * node.translation[k] for k in range(3))
                              for i in range(3))
                rot = tuple(tuple(sum(rot[i][k] * node.rotation[k][j] for k in range(3)) for j in range(3))
                            for i in range(3))
            elif node.kind == "nSHP" and node.model is not None:
                if not 0 <= node.model < len(self.models):
                    raise self.error(f"scene graph shape {node_id} uses model {node.model}, but the file "
                                     f"has {len(self.models)} models")
                out.append((node.model, rot, trans))
            if len(node.children) > len(self.nodes):
                # Each node is reached once, so this many children cannot all exist; refuse before the
                # stack grows with them.
                raise self.error(f"scene graph node {node_id} has {len(node.children)} children, more than "
                                 f"the {len(self.nodes)} nodes in the file")
            stack.extend((int(child), rot, trans) for child in reversed(node.children))
        if not out:
            raise self.error("scene graph places no models")
        return out

    # -- assembly ----------------------------------------------------------------------------------------------
    def assemble(self) -> VoxModel:
        if self.nodes:
            placed = self.instances()
        else:
            # Without a scene graph every model sits at the origin: min corner 0, so t = floor(size / 2).
            placed = [(i, _IDENTITY, tuple(s // 2 for s in m.size)) for i, m in enumerate(self.models)]

        # Each placement: per world axis j, the model axis it reads, the sign, and the world offset, such that
        # world_j = offset + i_k (sign +) or offset - i_k (sign -). MagicaVoxel's translation is the model's
        # centre: a voxel at i maps to floor(R (i + 0.5 - floor(size / 2))) + t, which for a signed permutation
        # R is i - p + t along a positive axis and p - 1 - i + t along a negative one.
        layouts, lows, highs = [], [], []
        for index, rot, trans in placed:
            size = self.models[index].size
            axes, low = [], []
            for j in range(3):
                k = next(c for c in range(3) if rot[j][c])
                p = size[k] // 2
                if rot[j][k] > 0:
                    axes.append((k, 1, trans[j] - p))
                    low.append(trans[j] - p)
                else:
                    axes.append((k, -1, trans[j] + p - 1))
                    low.append(trans[j] + p - size[k])
            layouts.append((index, axes))
            lows.append(low)
            highs.append([low[j] + size[axes[j][0]] for j in range(3)])
        origin = [min(low[j] for low in lows) for j in range(3)]
        extent = [max(high[j] for high in highs) - origin[j] for j in range(3)]
        # Check the caps before allocating anything.
        if max(extent) > self.max_side:
            raise self.error(f"combined grid {extent[0]}x{extent[1]}x{extent[2]} exceeds the limit of "
                             f"{self.max_side} per axis")
        if extent[0] * extent[1] * extent[2] > self.max_voxels:
            raise self.error(f"combined grid {extent[0]}x{extent[1]}x{extent[2]} exceeds the limit of "
                             f"{self.max_voxels} voxels")

        # Many shapes may share one model, so the work is bounded by what the placements write, not by the
        # file size. Real scenes overlap little; twice the grid is generous.
        placements = sum(len(self.models[index].xyzi) for index, _axes in layouts)
        if placements > 2 * self.max_voxels:
            raise self.error(f"scene places {placements} voxels into a grid of at most {self.max_voxels}")

        sx, sy, sz = extent
        grid = np.zeros((sz, sy, sx), np.uint8)
        flat = grid.reshape(-1)
        for index, axes in layouts:
            xyzi = self.models[index].xyzi
            for start in range(0, len(xyzi), _BATCH):
                batch = xyzi[start:start + _BATCH]
                batch = batch[batch[:, 3] != 0]     # colour index 0 would be "empty": it must not erase
                world = []
                for j, (k, sign, offset) in enumerate(axes):
                    w = batch[:, k].astype(np.int64)
                    world.append((w if sign > 0 else -w) + (offset - origin[j]))
                flat[(world[2] * sy + world[1]) * sx + world[0]] = batch[:, 3]
        palette = self.palette if self.palette is not None else DEFAULT_PALETTE.copy()
        return VoxModel(size=(sx, sy, sz), voxels=grid, palette=palette)


# --------------------------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------------------------

def write_vox(path, voxels: np.ndarray, palette: np.ndarray | None = None, *, version: int = 200) -> None:
    """Write ``voxels`` (uint8 [Z, Y, X] colour indices) as a single-model .vox file."""
    data = _encode(voxels, palette, version, os.fsdecode(os.fspath(path)))
    try:
        with open(path, "wb") as f:
            f.write(data)
    except OSError as e:
        raise VoxError(f"{os.fsdecode(os.fspath(path))}: cannot write file: {e.strerror or e}") from None


def vox_bytes(voxels, palette=None, *, version: int = 200) -> bytes:
    """The bytes of a single-model .vox file: version 150 (models and palette only) or 200 (with scene graph)."""
    return _encode(voxels, palette, version, "<vox>")


def _encode(voxels, palette, version: int, name: str) -> bytes:
    voxels = np.asarray(voxels)
    if voxels.ndim != 3:
        raise ValueError(f"voxels must be a 3D array [z, y, x], got shape {voxels.shape}")
    if voxels.dtype != np.uint8:
        if not np.issubdtype(voxels.dtype, np.integer):
            raise ValueError(f"voxels must hold integer colour indices, got {voxels.dtype}")
        if voxels.size and (voxels.min() < 0 or voxels.max() > 255):
            raise ValueError("voxel colour indices must be within 0..255")
        voxels = voxels.astype(np.uint8)
    if version not in (150, 200):
        raise ValueError(f"version must be 150 or 200, got {version}")
    sz, sy, sx = voxels.shape
    if min(voxels.shape) < 1 or max(voxels.shape) > _MAX_MODEL_SIDE:
        raise VoxError(f"{name}: a .vox model must be 1..{_MAX_MODEL_SIDE} voxels per axis, "
                       f"got {sx}x{sy}x{sz}")
    if palette is None:
        palette = DEFAULT_PALETTE
    palette = np.asarray(palette)
    if palette.shape != (256, 4):
        raise ValueError(f"palette must have shape (256, 4), got {palette.shape}")
    palette = palette.astype(np.uint8)

    flat = np.ascontiguousarray(voxels).reshape(-1)
    index = np.flatnonzero(flat)                 # C order: x fastest, like MagicaVoxel writes them
    xyzi = np.empty((len(index), 4), np.uint8)
    xyzi[:, 3] = flat[index]
    index, xyzi[:, 0] = np.divmod(index, sx)
    xyzi[:, 2], xyzi[:, 1] = np.divmod(index, sy)

    chunks = [
        _chunk(b"SIZE", struct.pack("<3i", sx, sy, sz)),
        _chunk(b"XYZI", struct.pack("<i", len(xyzi)) + xyzi.tobytes()),
    ]
    if version == 200:
        # The minimal graph MagicaVoxel itself writes: root transform -> group -> transform -> shape.
        # The translation is the model's centre; floor(size / 2) puts its lowest corner at the origin.
        centre = f"{sx // 2} {sy // 2} {sz // 2}"
        chunks += [
            _chunk(b"nTRN", struct.pack("<i", 0) + _dict({}) + struct.pack("<4i", 1, -1, -1, 1) + _dict({})),
            _chunk(b"nGRP", struct.pack("<i", 1) + _dict({}) + struct.pack("<2i", 1, 2)),
            _chunk(b"nTRN", struct.pack("<i", 2) + _dict({}) + struct.pack("<4i", 3, -1, 0, 1)
                   + _dict({"_t": centre})),
            _chunk(b"nSHP", struct.pack("<i", 3) + _dict({}) + struct.pack("<2i", 1, 0) + _dict({})),
            _chunk(b"LAYR", struct.pack("<i", 0) + _dict({}) + struct.pack("<i", -1)),
        ]
    # File palette entry i is colour index i + 1; the 256th entry has no index and is written as palette[0].
    chunks.append(_chunk(b"RGBA", np.concatenate([palette[1:], palette[:1]]).tobytes()))
    return _MAGIC + struct.pack("<i", version) + _chunk(b"MAIN", b"", b"".join(chunks))


def _chunk(cid: bytes, content: bytes, children: bytes = b"") -> bytes:
    return cid + struct.pack("<ii", len(content), len(children)) + content + children


def _string(s: str) -> bytes:
    b = s.encode("utf-8")
    return struct.pack("<i", len(b)) + b


def _dict(d: dict[str, str]) -> bytes:
    return struct.pack("<i", len(d)) + b"".join(_string(k) + _string(v) for k, v in d.items())
