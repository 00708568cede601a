"""`aerie render --step N` draws the map as the steps left it: the wall shot down in step 4 is gone in the still
after step 4 and there after step 3 (issue 14)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.gl
ROOT = Path(__file__).resolve().parents[2]


def test_render_after_the_break_shows_the_changed_map(aerie, tmp_path):
    from PIL import Image

    scene = str(ROOT / "scenes" / "objects_low_wall.toml")
    imgs = []
    for n in (3, 4, 5):
        out = tmp_path / f"s{n}.png"
        r = aerie("render", scene, "-o", str(out), "--step", str(n), "--size", "320x200", "--orbit", "0")
        assert r.returncode == 0, r.stderr
        imgs.append(np.asarray(Image.open(out).convert("RGB")).astype(np.int16))
    before, after, later = imgs
    # the legend names the step (top-left): compare below it
    diff = np.abs(before[30:] - after[30:]).sum(axis=2) > 30
    assert diff.sum() > 200                                   # the wall's pixels changed
    assert (np.abs(after[30:] - later[30:]).sum(axis=2) > 30).sum() < diff.sum() / 4   # and stay changed
