"""tools/window_shots.py: the docs' stills are palette PNGs; the legends' swatches keep their exact colours.

The folded view's threat legend (docs/images/shot_folded_*) showed "1" tan, "2" brown and "3" and "4+" the same
dark red, unlike the unfolded legend (shot_legends_*): the window drew them right (its raw pixels are the map's
colours), but the whole-window still was cut to 160 colours by median cut, which merged the small swatches into
the nearest colours of the scene around them."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.app.maps import COVER_COLOURS, THREAT_COLOURS

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.unit


def _tool():
    spec = importlib.util.spec_from_file_location("window_shots", ROOT / "tools" / "window_shots.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_legend_swatches_keep_their_colours_in_a_palette_still():
    from PIL import Image

    rng = np.random.default_rng(3)
    # a busy scene: smooth terrain-like colours over the whole frame, and the legend's swatches, small, in a row
    yy, xx = np.mgrid[0:720, 0:1280]
    img = np.stack([(xx * 0.15 + yy * 0.1) % 200 + 30, (yy * 0.2) % 180 + 50, (xx * 0.05) % 120 + 40], -1)
    img = (img + rng.integers(-12, 12, img.shape)).clip(0, 255).astype(np.uint8)
    swatches = [c[:3] for c in THREAT_COLOURS.values()] + [c[:3] for c in COVER_COLOURS.values()]
    for i, c in enumerate(swatches):
        img[186:196, 1020 + i * 22:1034 + i * 22] = c
    out = _tool().palette(Image.fromarray(img, "RGB")).convert("RGB")
    got = np.asarray(out)
    assert out.size == (1280, 720) and len(Image.Image.getcolors(out, 1 << 16) or []) <= 256
    for i, c in enumerate(swatches):
        assert tuple(got[190, 1025 + i * 22]) == tuple(c), (i, c, tuple(got[190, 1025 + i * 22]))


def test_help_and_an_unknown_shot_are_one_line_not_a_traceback():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "window_shots.py"), "--help"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0 and "folded" in r.stdout and "Traceback" not in r.stderr, r.stderr
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "window_shots.py"), "nosuch"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "nosuch" in r.stderr and "folded" in r.stderr
