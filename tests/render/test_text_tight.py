"""The HUD's glyph quads cut to their ink (GlyphAtlas(tight=True)): fewer fragments for llvmpipe to fill, the same
picture -- each tight quad is a part of its whole-slot quad with the same texel-to-pixel mapping, and what it leaves
out of the slot is empty in the atlas."""

from __future__ import annotations

import numpy as np
import pytest

from engine.render.text import CHARS, GlyphAtlas

pytestmark = pytest.mark.unit


def _texel_map(q, W, H):
    """(pixels per texel, the pixel x and y of texel (0, 0) of the atlas) of a quad."""
    sx = (q[2] - q[0]) / ((q[6] - q[4]) * W)
    sy = (q[3] - q[1]) / ((q[7] - q[5]) * H)
    return sx, sy, q[0] - q[4] * W * sx, q[1] - q[5] * H * sy


@pytest.mark.parametrize("size", [15.0, 13.0, 11.0, 22.0])
def test_tight_quads_are_the_slot_quads_cut_to_their_ink(size):
    full, tight = GlyphAtlas(15, extra_px=(13, 11)), GlyphAtlas(15, extra_px=(13, 11), tight=True)
    W, H = full.size
    img = full.image
    assert (img == tight.image).all()
    text = "".join(dict.fromkeys(CHARS.replace(" ", "")))         # each glyph once
    qf, qt = full.quads(text, 10, 20, size, (1, 2, 3, 4)), tight.quads(text, 10, 20, size, (1, 2, 3, 4))
    shown = [ch for ch in text if tight.ink[tight._variant_index(size)][ch] is not None]
    assert len(qf) == len(text) and len(qt) == len(shown) > len(text) * 0.9
    by_ch = dict(zip(text, qf))
    cut = 0.0
    for ch, t in zip(shown, qt):
        f = by_ch[ch]
        assert t[8:] == f[8:]
        assert f[0] - 1e-6 <= t[0] < t[2] <= f[2] + 1e-6 and f[1] - 1e-6 <= t[1] < t[3] <= f[3] + 1e-6
        assert _texel_map(t, W, H) == pytest.approx(_texel_map(f, W, H), abs=1e-6)
        # the slot's texels outside the tight quad are all zero
        u0, v0, u1, v1 = (round(f[4] * W), round(f[5] * H), round(f[6] * W), round(f[7] * H))
        a, b, c, d = (round(t[4] * W), round(t[5] * H), round(t[6] * W), round(t[7] * H))
        slot = img[v0:v1, u0:u1].astype(int).copy()
        slot[b - v0:d - v0, a - u0:c - u0] = 0
        assert not slot.any(), ch
        cut += (f[2] - f[0]) * (f[3] - f[1]) - (t[2] - t[0]) * (t[3] - t[1])
    assert cut > 0.2 * sum((f[2] - f[0]) * (f[3] - f[1]) for f in qf)      # the point: much less to fill


def test_glyphs_without_ink_draw_nothing_and_advance_the_same():
    tight = GlyphAtlas(15, tight=True)
    q = tight.quads("a b", 0, 0, 15, (0, 0, 0, 255))
    assert len(q) == 2
    assert tight.text_width("a b", 15) == GlyphAtlas(15).text_width("a b", 15)
    assert np.isclose(q[1][0], tight.quads("b", 0, 0, 15, (0, 0, 0, 255))[0][0] + tight.text_width("a ", 15))


def test_placed_texts_upload_the_same_bytes_as_their_quads_in_place():
    """Hud.upload: boxes and ``GlyphAtlas.placed`` texts (vertices made once a text, moved) give the very array
    quads_to_array gives for every quad in place -- also at a print the atlas scales and at fractional places."""
    import random

    from engine.render.text import items_to_array, quads_to_array

    at = GlyphAtlas(15, extra_px=(13, 11), tight=True)
    rng = random.Random(7)
    for _ in range(40):
        items, quads = [], []
        for _ in range(rng.randint(0, 12)):
            if rng.random() < 0.4:
                b = at.box(rng.uniform(0, 900), rng.uniform(0, 700), rng.uniform(0, 900), rng.uniform(0, 700),
                           (rng.randrange(256), rng.randrange(256), rng.randrange(256), rng.randrange(256)))
                items.append(b)
                quads.append(b)
                continue
            text = "".join(rng.choice("AVWay.,:;|ij  Łżô…-0123") for _ in range(rng.randint(0, 14)))
            x, y = rng.choice([(rng.randrange(1200), rng.randrange(700)), (rng.uniform(0, 1200), rng.uniform(0, 700))])
            size, col = rng.choice([15.0, 13.0, 11.0, 21.5]), (rng.randrange(256), 200, 10, rng.randrange(256))
            items.append(at.placed(text, x, y, size, col))
            quads += at.quads(text, x, y, size, col)
        a, b = items_to_array(items), quads_to_array(quads)
        assert a.dtype == b.dtype == np.float32 and a.shape == b.shape
        assert a.tobytes() == b.tobytes()
