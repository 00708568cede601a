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


def read_image(path: Path, mode: str):
    """The image's pixels in ``mode`` ("RGB", "RGBA"), loaded; one line naming the file where they cannot be
    decoded."""
    try:
        with open_image(path) as im:
            return im.convert(mode)
    except (OSError, ValueError, SyntaxError) as e:        # Pillow's kinds for a truncated or corrupt file
        raise AerieError(f"{display_path(path)}: the image cannot be decoded ({type(e).__name__}: {e})") from None
