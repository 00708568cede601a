"""The scene's images (``[map] ground_image``, ``floor_images``): opened within the scene's own cap and decoded
with one clear error. Pillow's decompression-bomb guard, set for any image, would print a two-line warning from
89 M pixels and refuse from 179 M, below the cap the scene promises (GROUND_IMAGE_MAX_PX a side); a file whose
header reads but whose pixels do not (truncated, corrupt) passes ``aerie check``, which reads the header only, and
is refused here, where the pixels are read."""

from __future__ import annotations

import contextlib
import warnings
from pathlib import Path

from engine.errors import AerieError, display_path

GROUND_IMAGE_MAX_PX = 16384        # per side; the renderer scales larger images down anyway


@contextlib.contextmanager
def open_image(path):
    """``PIL.Image.open(path)`` with the bomb guard at the scene's cap (and its warning silenced) while it is open."""
    from PIL import Image

    old = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = GROUND_IMAGE_MAX_PX * GROUND_IMAGE_MAX_PX
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                yield im
    finally:
        Image.MAX_IMAGE_PIXELS = old


def read_image(path: Path, mode: str, max_side: int | None = None):
    """The image's pixels in ``mode`` ("RGB", "RGBA"), loaded, and scaled down (Lanczos) to at most ``max_side``
    a side when given; one line naming the file where they cannot be decoded. A large image is made small before
    it is converted: a JPEG decoded at a fraction of its size, others shrunk by a whole factor in their own mode
    (a 13,000-pixel map took 1.4 GB converted whole first, for a texture of 4,096)."""
    from PIL import Image

    try:
        with open_image(path) as im:
            if max_side and max(im.size) > max_side:
                k = max_side / max(im.size)
                want = (max(1, round(im.size[0] * k)), max(1, round(im.size[1] * k)))
                if im.format == "JPEG":
                    im.draft(mode, want)          # the DCT scaled at decode: 1/2 to 1/8, never below want
                f = min(im.size[0] // want[0], im.size[1] // want[1])
                if f >= 2 and im.mode in _REDUCIBLE:
                    im = im.reduce(f)             # a box filter, still at least want a side
                im = im.convert(mode)
                return im.resize(want, Image.Resampling.LANCZOS) if im.size != want else im
            return im.convert(mode)
    except (OSError, ValueError, SyntaxError) as e:        # Pillow's kinds for a truncated or corrupt file
        raise AerieError(f"{display_path(path)}: the image cannot be decoded ({type(e).__name__}: {e})") from None


#: modes ``Image.reduce`` takes as they are (a palette image is converted first)
_REDUCIBLE = ("L", "LA", "RGB", "RGBA", "RGBa", "La", "I", "F")
