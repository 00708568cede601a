"""The HUD: panels, text and buttons drawn on top of the renderer's frame with the renderer's own text shader and a
glyph atlas rasterised at the HUD's text size (crisp, no scaling).

It never touches GL itself (the GL boundary is engine/render/, tests/structure/test_purity.py): it builds quads and hands them
to the renderer's ``engine.render.screen.ScreenLayer``. Immediate mode: the window describes the HUD (``box``,
``text``, ``panel``, ``button``) whenever its content changes; the quads are uploaded once and redrawn every frame
from the same buffer (a frame that changes nothing in the HUD costs one draw call). Buttons remember their
rectangles for clicks (``hit``).
"""

from __future__ import annotations

from typing import Callable

from engine import units as U
from engine.render.text import GlyphAtlas, items_to_array

BG = (16, 19, 26, 222)
BG_TITLE = (38, 48, 70, 240)
FG = (236, 238, 244, 255)
DIM = (160, 168, 184, 255)
ACCENT = (255, 200, 70, 255)
GOOD = (110, 220, 120, 255)
BAD = (255, 96, 84, 255)
BUTTON = (52, 62, 86, 245)
BUTTON_ON = (200, 150, 40, 250)
BUTTON_OFF = (40, 42, 48, 200)


class Hud:
    #: the player view's one filter of every text (``PlayerFilter.shown``: None draws nothing), None for the GM;
    #: a class default too, so a HUD made without ``__init__`` (the text path without GL) draws unfiltered
    filter: Callable[[str], str | None] | None = None

    def __init__(self, renderer, px: int = 15):
        from engine.render.screen import ScreenLayer

        self.r = renderer
        self.px = px
        # and again at the smaller prints a panel shrinks to (F1's help): glyphs of their own size, never scaled down
        self.atlas = GlyphAtlas(px, extra_px=(max(round(px * 0.85), 6), max(round(px * 0.72), 6)), tight=True)
        # the GL side (buffer, shader, atlas texture) is the renderer's ScreenLayer; this module only builds quads.
        # The atlas is rasterised at the HUD's own size and text is placed on whole pixels: nearest sampling is
        # exact here, and cheaper than linear on a software renderer
        self.layer = ScreenLayer(renderer, self.atlas, nearest=True)
        self.quads: list = []          # boxes (GlyphAtlas.box) and texts (GlyphAtlas.placed), in drawing order
        self.rects: list = []          # (x0, y0, x1, y1, id)
        self.blocks: list = []         # (x0, y0, x1, y1, name): areas the HUD covers; the mouse there is the HUD's
        self.texts: list = []          # (x0, y0, x1, y1, text): every text drawn (tests check none overlaps)
        self.key = None
        self.view = None               # the window's view state: its ``units`` ("m" / "ft") for every distance shown
        self.filter = None

    # -- description ---------------------------------------------------------------------------------------------
    def begin(self):
        self.quads = []
        self.rects = []
        self.blocks = []
        self.texts = []

    def block(self, x0, y0, x1, y1, name="panel"):
        """Mark an area as the HUD's: clicks, hovering and the wheel there never reach the 3D view."""
        self.blocks.append((x0, y0, x1, y1, name))

    def over(self, x, y):
        """The name of the HUD area under (x, y) (a button's id first), or None: the 3D view is under it."""
        ident = self.hit(x, y)
        if ident is not None:
            return ident
        for x0, y0, x1, y1, name in reversed(self.blocks):
            if x0 <= x <= x1 and y0 <= y <= y1:
                return ("area", name)
        return None

    def box(self, x0, y0, x1, y1, col):
        self.quads.append(self.atlas.box(x0, y0, x1, y1, col))

    def shown(self, text: str) -> str:
        """The text as the view shows it: distances in feet when the view state asks (engine/units.py)."""
        return U.show(text, getattr(self.view, "units", "m")) if self.view is not None else text

    def width(self, text: str, size: float | None = None) -> float:
        return self.atlas.text_width(self.shown(text), size or self.atlas.line_h)

    @property
    def line(self) -> float:
        return float(self.atlas.line_h)

    @property
    def prints(self) -> list[float]:
        """The line heights text is drawn at crisply: the HUD's own, then its smaller prints (largest first)."""
        return [float(h) for h in self.atlas.line_heights]

    def text(self, x, y, text: str, col=FG, size: float | None = None, max_w: float | None = None) -> float:
        """Text with its top left at (x, y); clipped with an ellipsis to max_w. Returns its width."""
        size = size or self.atlas.line_h
        if self.filter is not None:
            text = self.filter(text) or ""
            if not text:
                return 0.0
        text = self.shown(text)
        x, y = round(x), round(y)
        if max_w is not None and self.width(text, size) > max_w:
            while text and self.width(text + "…", size) > max_w:
                text = text[:-1]
            text += "…" if "…" in self.atlas.slots else "."
        self.quads.append(self.atlas.placed(text, x, y, size, col))
        w = self.width(text, size)
        if text.strip():
            self.texts.append((x, y, x + w, y + size, text))
        return w

    def wrap(self, text: str, max_w: float, size: float | None = None) -> list[str]:
        if self.filter is not None:        # filtered whole, before it is cut into lines
            text = self.filter(text) or ""
        words = self.shown(text).split(" ")
        lines, cur = [], ""
        for w in words:
            t = (cur + " " + w) if cur else w
            if self.width(t, size) <= max_w or not cur:
                cur = t
            else:
                lines.append(cur)
                cur = w
        if cur:
            lines.append(cur)
        return lines

    def panel(self, x, y, w, title: str, rows: list, title_col=BG_TITLE, max_rows: int | None = None) -> float:
        """A titled panel of rows; a row is text or (text, colour). Returns its bottom y."""
        lh = self.line + 3
        wrapped = []                    # long rows wrap (indented) rather than lose their end
        for row in rows:
            t, col = (row, FG) if isinstance(row, str) else row
            if self.width(t) <= w - 16:
                wrapped.append((t, col))
                continue
            for i, part in enumerate(self.wrap(t, w - 28)):
                wrapped.append(("  " + part if i else part, col))
        rows = wrapped
        rows = rows[-max_rows:] if max_rows and len(rows) > max_rows else rows
        h = lh + 8 + len(rows) * lh + 6
        self.box(x, y, x + w, y + h, BG)
        self.block(x, y, x + w, y + h, title)
        self.box(x, y, x + w, y + lh + 4, title_col)
        self.text(x + 8, y + 3, title, ACCENT, max_w=w - 16)
        yy = y + lh + 8
        for row in rows:
            t, col = (row, FG) if isinstance(row, str) else row
            self.text(x + 8, yy, t, col, max_w=w - 16)
            yy += lh
        return y + h

    def button(self, x, y, label: str, ident, on=False, enabled=True, hotkey: str = "") -> float:
        """A button; returns its right edge. ``hit(x, y)`` finds it again."""
        pad = 8
        full = f"{hotkey}  {label}" if hotkey else label
        w = self.width(full) + 2 * pad
        h = self.line + 10
        col = BUTTON_ON if on else (BUTTON if enabled else BUTTON_OFF)
        self.box(x, y, x + w, y + h, col)
        self.box(x, y + h - 2, x + w, y + h, (255, 255, 255, 40))
        if hotkey:
            self.text(x + pad, y + 5, hotkey, ACCENT if not on else (30, 20, 0, 255))
            self.text(x + pad + self.width(hotkey + "  "), y + 5, label, FG if enabled else DIM)
        else:
            self.text(x + pad, y + 5, label, FG if enabled else DIM)
        self.rects.append((x, y, x + w, y + h, ident))
        return x + w

    def button_width(self, label: str, hotkey: str = "") -> float:
        return self.width(f"{hotkey}  {label}" if hotkey else label) + 16

    def hit(self, x, y):
        for x0, y0, x1, y1, ident in reversed(self.rects):
            if x0 <= x <= x1 and y0 <= y <= y1:
                return ident
        return None

    # -- GL (through the renderer's ScreenLayer) ---------------------------------------------------------------------
    def upload(self):
        self.layer.upload(items_to_array(self.quads))

    def draw(self, size):
        self.layer.draw(size)


def hud_px(size) -> int:
    return 15 if size[1] >= 650 and size[0] >= 1000 else (12 if size[1] >= 400 else 10)


def text_px(size) -> tuple[int, int, int]:
    """The font sizes of the HUD, the big captions and the labels over the models for a window of ``size``."""
    return hud_px(size), (22 if size[1] >= 400 else 14), (12 if size[1] >= 400 else 10)


def fit_text(win, fresh: bool = False) -> None:
    """The text layers at the sizes the window's present size asks for (issue 23 item 7: after a resize, as a
    window opened at that size has them); a layer whose size changed is made anew, and the labels laid out again.
    ``fresh``: all made anew (a new renderer: the old layers were the old one's)."""
    for name, px in zip(("hud", "big", "tok"), text_px(win.get_framebuffer_size())):
        old = None if fresh else getattr(win, name)
        if old is None or old.px != px:
            if old is not None:
                win.switch_to()          # its GL objects are this window's context's (the players' window has its own)
                old.layer.release()
            setattr(win, name, Hud(win.renderer, px=px))
        getattr(win, name).view = win.vstate      # its texts' units (metres or feet) are the view state's
    win.tok_key = None
