"""F1's help at 1280 x 720 shrinks its print to fit; it was drawn from the HUD's glyphs scaled down with nearest
sampling, which drops rows of texels: "F1, H" read "Γ1, II", "i" lost its dot (seen in the screenshot). The atlas
now holds the glyphs at the smaller prints too, and the help draws only at those native line heights."""

from __future__ import annotations

import pytest

from test_window_player_view_and_panels import OverlayWin

from engine.app import hud as H
from engine.app.modes.main import help_rows
from engine.app.panels import table
from engine.render.text import GlyphAtlas

pytestmark = pytest.mark.unit


def test_each_print_is_drawn_from_glyphs_of_its_own_size():
    at = GlyphAtlas(15, extra_px=(13, 11))
    W, Hh = at.size
    assert len(set(at.line_heights)) == 3
    for h in at.line_heights:
        for q in at.quads("F1, H or Esc", 10, 20, h, (255, 255, 255, 255)):
            screen_rows = q[3] - q[1]
            texel_rows = (q[7] - q[5]) * Hh
            assert screen_rows == pytest.approx(texel_rows), (h, screen_rows, texel_rows)    # one texel a pixel
            assert (q[2] - q[0]) == pytest.approx((q[6] - q[4]) * W)
    # a size the atlas does not hold is still drawn (scaled from the first)
    assert at.quads("F", 0, 0, 40, (0, 0, 0, 255))


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_help_draws_at_native_prints_only(size):
    from engine.app.sections.base import Layout
    from engine.app.sections.modals import HelpPanel

    class AtlasHud(H.Hud):
        def __init__(self):                       # the text path without GL
            self.atlas = GlyphAtlas(15, extra_px=(13, 11))
            self.quads, self.rects, self.blocks, self.texts, self.view = [], [], [], [], None
            self.sizes: list = []

        def text(self, x, y, text, col=H.FG, size=None, max_w=None):
            self.sizes.append(size or self.line)
            return super().text(x, y, text, col, size, max_w)

    win = OverlayWin()
    win.hud = AtlasHud()
    win.vstate.help = True
    HelpPanel().build(table(win, help_rows), Layout(size[0], size[1], 21, False))
    assert win.hud.sizes and set(win.hud.sizes) <= set(win.hud.prints), set(win.hud.sizes)
