"""What the readers share: the error, reading a JSON map safely, decoding its image, and the map model.

A reader (``uvtt.read_uvtt``, ``foundry.read_foundry``) turns a file into an :class:`ImportedMap`: walls as
segments in cell units of the Aerie map (x east, y north, 0..X, 0..Y), each with its bottom and top in metres and
what it blocks, doors, tokens, and the map image's bytes. ``build.build_scene`` turns that into voxels and TOML.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import math
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from engine.errors import AerieError, display_path as display

if TYPE_CHECKING:
    from PIL import Image

MAX_FILE_BYTES = 128 * 1024 * 1024     # a map file (JSON with its base64 image) over this is refused unread
MAX_IMAGE_PX = 16384                   # per side
MAX_IMAGE_PIXELS = 160 * 1024 * 1024   # in all (Pillow's own "decompression bomb" guard is 179 Mpx)
IMAGE_FORMATS = {"PNG": ".png", "JPEG": ".jpg", "WEBP": ".webp"}


class InteropError(AerieError):
    """A map file that cannot be imported: names the file and the key."""

    def __init__(self, file: str, key: str, problem: str):
        super().__init__(f"{file}: {key}: {problem}" if key else f"{file}: {problem}")
        self.file, self.key, self.problem = file, key, problem


def _encodes(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def read_file(path: Path, cap: int, file: str, key: str = "") -> bytes:
    """The bytes of a regular file of at most ``cap`` bytes (``engine.inputs.read_bounded``), or an InteropError
    naming ``file`` and ``key``."""
    from engine.inputs import read_bounded

    label = f"{file}: {key}" if key else file
    return read_bounded(path, cap, label, lambda msg: InteropError(file, key, msg[len(label) + 2:]))


def read_json(path: Path, file: str, max_bytes: int = MAX_FILE_BYTES):
    """The file's JSON, refused before reading when it is over ``max_bytes``; read with ``read_bounded`` (a FIFO,
    ``/dev/zero`` or a socket is refused, never read; at most ``max_bytes + 1`` bytes are)."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise InteropError(file, "", "no such file") from None
    except OSError as e:
        raise InteropError(file, "", f"cannot read: {e.strerror}") from None
    if path.is_dir():
        raise InteropError(file, "", "is a folder, not a map file")
    if size > max_bytes:
        raise InteropError(file, "", f"{size / 2**20:.0f} MiB is over the cap of {max_bytes // 2**20} MiB for a map file")
    raw = read_file(path, max_bytes, file)
    if raw[:3] == b"\xef\xbb\xbf":
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InteropError(file, "", f"not UTF-8 JSON text (byte {e.start}); not a Universal VTT or Foundry map") from None
    data = _parse(text, file)
    if re.search(r"\\u[dD][89a-fA-F]", text):        # a \\uD800 escape: perhaps a lone surrogate, not text
        _no_surrogates(data, file)
    return data


def _parse(text: str, file: str):
    try:
        return json.loads(text)
    except RecursionError:
        raise InteropError(file, "", "nested too deep to be a Universal VTT or Foundry map") from None
    except json.JSONDecodeError as e:
        return _parse_lines(text, file, e)
    except ValueError as e:              # an integer of thousands of digits (Python's int limit)
        raise InteropError(file, "", f"cannot be read: {e}") from None


def _parse_lines(text: str, file: str, e: json.JSONDecodeError):
    """Foundry's NeDB compendium (.db) holds one scene per line; anything else that is not JSON is refused."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(lines) > 1 and all(ln.lstrip().startswith("{") for ln in lines):
        try:
            return [json.loads(ln) for ln in lines]
        except (ValueError, RecursionError):
            pass
    raise InteropError(file, "", f"not JSON (line {e.lineno}, column {e.colno}: {e.msg}); "
                                 "not a Universal VTT or Foundry map") from None


def _no_surrogates(data, file: str) -> None:
    """Refuse a string (a key or a value) holding a lone UTF-16 surrogate (JSON's ``"\\ud800"``): it is no
    character, and could be written to no UTF-8 scene file."""
    stack = [(data, "")]
    while stack:
        v, path = stack.pop()
        items = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else ()
        for k, x in items:
            kp = f"{path}[{k}]" if isinstance(k, int) else f"{path}.{k}" if path else k
            for s in ((k, x) if isinstance(x, str) else (k,)):
                if isinstance(s, str) and not _encodes(s):
                    raise InteropError(file, kp.encode("utf-8", "backslashreplace").decode("utf-8"),
                                       "holds a lone UTF-16 surrogate (a \\uD800-\\uDFFF escape), which is not text")
            if isinstance(x, (dict, list)):
                stack.append((x, kp))


# ---------------------------------------------------------------------------------------------------------------
def number(value, file: str, key: str, *, positive: bool = False, allow_none: bool = False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InteropError(file, key, f"{value!r} is not a number")
    if positive and value <= 0:
        raise InteropError(file, key, f"{value!r} must be above 0")
    return float(value)


def point(value, file: str, key: str) -> tuple[float, float]:
    """A UVTT point: {"x": .., "y": ..}."""
    if not isinstance(value, dict) or "x" not in value or "y" not in value:
        raise InteropError(file, key, f"{_short(value)} is not a point {{\"x\": .., \"y\": ..}}")
    return number(value["x"], file, f"{key}.x"), number(value["y"], file, f"{key}.y")


def toml_key(key: str) -> str:
    """``key`` as TOML writes it: bare when it is a bare key (``A-Za-z0-9_-``), else a quoted basic string (a space,
    a dot, a newline, an accent or the empty key are quoted and escaped, never written raw)."""
    if re.fullmatch(r"[A-Za-z0-9_-]+", key):
        return key
    return json.dumps(key, ensure_ascii=False).replace("\x7f", "\\u007f")


def _short(v) -> str:
    s = json.dumps(v) if not isinstance(v, str) else repr(v)
    return s if len(s) <= 60 else s[:57] + "..."


def character_keys(table, file: str, key: str) -> dict:
    """A table of character keys for the scene (a token's ``flags.aerie``, a ``--characters`` table): the shared
    validator's JSON-safe copy (``engine.rules.validate.json_safe``: no TOML dates, finite numbers, bounded depth),
    no nulls (TOML has none), and ``size`` one of the scene's body sizes; else an InteropError naming the key."""
    from engine.rules.validate import json_safe
    from engine.scene import SIZES

    if not isinstance(table, dict):
        raise InteropError(file, key, "must be a table of character keys")
    data = json_safe(table, key, lambda p, problem: InteropError(file, p, problem))
    _no_nulls(data, file, key)
    if "" in data:
        raise InteropError(file, key, 'holds the empty key "": a character key is a name such as kind or hp')
    if "size" in data and (not isinstance(data["size"], str) or data["size"] not in SIZES):
        raise InteropError(file, f"{key}.size", f"{_short(data['size'])} is not a size: one of {', '.join(SIZES)}")
    return data


def _no_nulls(v, file: str, key: str) -> None:
    if v is None:
        raise InteropError(file, key, "is null: TOML has no null (leave the key out)")
    if isinstance(v, dict):
        for kk, vv in v.items():
            _no_nulls(vv, file, f"{key}.{kk}")
    elif isinstance(v, list):
        for i, vv in enumerate(v):
            _no_nulls(vv, file, f"{key}[{i}]")


# ---------------------------------------------------------------------------------------------------------------
@dataclass
class MapImage:
    data: bytes            # the file's bytes as they were (PNG, JPEG or WebP)
    fmt: str               # PNG | JPEG | WEBP
    size: tuple[int, int]  # pixels
    source: str            # "base64" or the file it came from
    path: Path | None = None   # the file read (an input no output of the import may replace)

    @property
    def ext(self) -> str:
        return IMAGE_FORMATS[self.fmt]


def open_image(data: bytes):
    """Pillow's image of ``data``, its header read, nothing decoded; without Pillow's own bomb check (a two-line
    warning on stderr over 89 Mpx, an error over 179): the import checks the declared size against its own caps
    (``check_image``) before anything is decoded."""
    from PIL import Image

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        saved, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None
        try:
            return Image.open(io.BytesIO(data))
        finally:
            Image.MAX_IMAGE_PIXELS = saved


def check_image(data: bytes, file: str, key: str, source: str) -> MapImage:
    """Open and fully decode the image (a truncated one fails here), within the size caps."""

    try:
        with open_image(data) as im:
            fmt, (w, h) = im.format, im.size
            if fmt not in IMAGE_FORMATS:
                raise InteropError(file, key, f"the image is {fmt}; PNG, JPEG or WebP please")
            if w > MAX_IMAGE_PX or h > MAX_IMAGE_PX or w * h > MAX_IMAGE_PIXELS:
                raise InteropError(file, key, f"the image is {w} x {h} pixels, over the cap of {MAX_IMAGE_PX} per "
                                              f"side and {MAX_IMAGE_PIXELS // 2**20} Mpx")
            im.load()
    except InteropError:
        raise
    except Exception as e:
        raise InteropError(file, key, f"the image does not decode ({type(e).__name__}: {e}); is it truncated?") from None
    return MapImage(data, fmt, (w, h), source)


def decode_base64_image(text: str, file: str, key: str) -> MapImage:
    t = text.strip()
    if t.startswith("data:"):
        t = t.split(",", 1)[-1]
    t = "".join(t.split())
    try:
        data = base64.b64decode(t, validate=True)
    except (binascii.Error, ValueError) as e:
        raise InteropError(file, key, f"the base64 image does not decode ({e}); is it truncated?") from None
    return check_image(data, file, key, "base64")


def image_file(rel: str, base_dir: Path, file: str, key: str) -> MapImage:
    """An image named by path (relative to the map file's folder)."""
    p = Path(rel)
    if not p.is_absolute():
        p = base_dir / p
    if not _is_file(p, file, key, rel) and _is_file(base_dir / Path(rel).name, file, key, rel):
        p = base_dir / Path(rel).name        # a Foundry path (modules/x/maps/a.jpg) with the image saved beside the map
    if not _is_file(p, file, key, rel):
        raise InteropError(file, key, f"the image is the path {rel!r}, and there is no such file next to the map; "
                                      "give --image FILE, or --no-image")
    size = p.stat().st_size
    if size > MAX_FILE_BYTES:
        raise InteropError(file, key, f"the image file {rel!r} is over {MAX_FILE_BYTES // 2**20} MiB")
    img = check_image(read_file(p, MAX_FILE_BYTES, file, key), file, key, display(p))
    img.path = p
    return img


def _is_file(p: Path, file: str, key: str, rel: str) -> bool:
    """``Path.is_file``, but a path the system will not look at (a name over 255 bytes) is an InteropError."""
    from engine.inputs import exists

    return exists(p, f"the image path {rel!r}", lambda msg: InteropError(file, key, msg)) and p.is_file()


def looks_base64(text: str) -> bool:
    head = text.strip()[:64]
    if head.startswith("data:image/"):
        return True
    if len(text) < 256:
        return False
    return all(c.isalnum() or c in "+/=\n\r" for c in head)


# ---------------------------------------------------------------------------------------------------------------
@dataclass
class Wall:
    """A segment in Aerie cell units (x east, y north), from ``bottom_m`` to ``top_m`` (None: the wall height
    option / the top of the map), of one material kind."""
    a: tuple[float, float]
    b: tuple[float, float]
    kind: str              # wall | object | door | window | barrier (blocks movement only) | veil (sight only)
    bottom_m: float = 0.0
    top_m: float | None = None
    source: str = ""       # the key it came from, e.g. line_of_sight[3]
    state: str = ""        # doors: "closed", "open", "locked", "secret"


@dataclass
class Token:
    name: str
    cell: tuple[float, float]      # centre, Aerie cell units
    size_cells: float              # token width in cells
    elevation_m: float
    side: str
    extra: dict = field(default_factory=dict)   # keys for the character table (flags.aerie, --characters)
    source: str = ""


@dataclass
class Storey:
    """A storey of the map (a v14 scene level, a Levels floor, a Wall Height band): from ``bottom_m`` (the file's
    elevation in metres, below 0 for a basement) to ``top_m``. Its floor is laid one layer under its bottom, over
    ``area`` (bool [Y, X] cells: its image's opaque pixels or its tiles) or, when None, the footprint its walls
    enclose; ``image`` (RGBA, the whole scene) is drawn on that floor."""
    name: str
    bottom_m: float
    top_m: float | None = None
    image: MapImage | None = None
    area: np.ndarray | None = None  # bool [Y, X]
    source: str = ""


@dataclass
class Opening:
    """A hole or a stair in the floors (Levels' drawings, mode 1 hole / 2 stairs): the cells ``mask`` (bool [Y, X])
    cut out of every floor whose elevation lies above ``bottom_m`` and at or below ``top_m``."""
    kind: str                      # "hole" | "stairs"
    mask: np.ndarray               # bool [Y, X]
    bottom_m: float
    top_m: float
    source: str = ""


@dataclass
class ImportedMap:
    file: str
    fmt: str                       # "uvtt 0.3", "foundry 10.291", ...
    name: str
    size: tuple[int, int]          # X, Y cells
    cell_m: float
    walls: list[Wall] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    image: MapImage | None = None
    notes: list[str] = field(default_factory=list)    # what was read and ignored, for the TOML's comments
    m_per_unit: float = 0.3        # metres per map distance unit (elevations, wall heights)
    size_key: str = ""             # the key the map's size came from (for the size cap's message)
    storeys: list[Storey] = field(default_factory=list)
    openings: list[Opening] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)   # one line each on stderr (a missing image), exit 0
    inputs: list[tuple[Path, str]] = field(default_factory=list)   # (file, what) of the images read: never outputs

    def read_image(self, img: MapImage, key: str) -> MapImage:
        """``img`` as read from ``key``, its file (if any) recorded as an input of the import."""
        if img.path is not None:
            self.inputs.append((img.path, f"the image {display(img.path)} ({self.file}: {key})"))
        return img


def map_cells(xe: float, ye: float, file: str, key: str, how: str) -> tuple[int, int]:
    """The map's cells (X, Y) from its extent in cells (floats: the file's size in squares x cells per square),
    refused by ``key`` over the scene's cap before any integer or array is made of them (a grid of 1e-300 px made
    a 300-digit size, an infinite one an OverflowError, and the reader draws masks at the map's size)."""
    from engine.world.grid import MAX_CELLS_XY

    if not (xe <= MAX_CELLS_XY + 1e-6 and ye <= MAX_CELLS_XY + 1e-6):     # NaN and infinity too
        raise InteropError(file, key, f"the map is {xe:.6g} x {ye:.6g} cells, over the cap of {MAX_CELLS_XY} cells "
                                      f"per side ({how})")
    return max(1, math.ceil(xe - 1e-6)), max(1, math.ceil(ye - 1e-6))


def rgba_at(pic, size: tuple[int, int], box) -> "Image.Image":
    """``pic``'s region ``box`` (source pixels) as an RGBA image of ``size``, never a whole-size RGBA copy of a
    large image (a 16384 x 10000 palette PNG of 20 KB took 1.5 GB so): a palette or other mode is thinned in its
    own mode (nearest) to at most twice ``size`` first, a grey or RGB(A) one reduced by a whole factor (a box
    filter) to at least twice ``size``; then converted and scaled (Lanczos)."""
    from PIL import Image

    w, h = size
    bw, bh = box[2] - box[0], box[3] - box[1]
    if pic.mode not in ("L", "LA", "RGB", "RGBA"):
        thin = (max(w, min(math.ceil(bw), 2 * w)), max(h, min(math.ceil(bh), 2 * h)))
        pic, box = pic.resize(thin, Image.Resampling.NEAREST, box=box), (0, 0) + thin
    else:
        f = int(min(bw / w, bh / h) // 2)
        if f >= 2:
            ib = (math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3]))
            pic = pic.reduce(f, box=ib)
            box = ((box[0] - ib[0]) / f, (box[1] - ib[1]) / f, (box[2] - ib[0]) / f, (box[3] - ib[1]) / f)
            box = (box[0], box[1], min(box[2], pic.size[0]), min(box[3], pic.size[1]))
    return pic.convert("RGBA").resize((w, h), Image.Resampling.LANCZOS, box=box)


def alpha_area(img, X: int, Y: int):
    """bool [Y, X]: the cells at least half covered by an image's opaque pixels (alpha over 127), the image
    stretched over the whole map (a MapImage's bytes, or a composed PIL image)."""
    import numpy as np
    from PIL import Image

    if isinstance(img, Image.Image):
        a = img.convert("RGBA").getchannel("A")
    else:
        with open_image(img.data) as im:
            if im.mode in ("RGBA", "LA"):
                a = im.getchannel("A")                       # one byte a pixel, not an RGBA copy
            elif "transparency" not in im.info:
                return np.ones((Y, X), bool)                 # no alpha: opaque everywhere
            else:                                            # a transparent colour (a palette's): thinned first
                a = rgba_at(im, (min(im.size[0], 8 * X), min(im.size[1], 8 * Y)), (0, 0) + im.size).getchannel("A")
    cov = np.asarray(a.resize((X, Y), Image.Resampling.BOX), dtype=np.float32)
    return (cov > 127)[::-1].copy()                # image rows run south; Aerie's y north
