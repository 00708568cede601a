"""Text without a window system: glyphs drawn with Pillow into one atlas, laid out as screen-space quads."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT_PATHS = ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
              "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf")
# ASCII, Latin-1 (Portuguese and other Western names: Inês, Tomé) and Latin Extended-A (Polish: ą, ł, ż...)
CHARS = "".join(chr(c) for c in range(32, 127)) + "".join(chr(c) for c in range(0xA1, 0x180)) + "·↑↓→←×°"
ATLAS_PX = 32       # glyphs are drawn this tall in the atlas and scaled when drawn


def _font(px: int):
    for p in FONT_PATHS:
        if Path(p).exists():
            return ImageFont.truetype(p, px), True
    return ImageFont.load_default(), False


class GlyphAtlas:
    """One row-packed L8 atlas; texel block (0..3, 0..3) is solid for boxes. ``layout`` returns quads.

    ``extra_px``: the glyphs rasterised again at these pixel sizes in the same texture, so a smaller print (a HUD
    panel that shrinks to fit: F1's help) is drawn from glyphs of its own size instead of the big ones scaled
    down -- scaled with nearest sampling they lose rows: "F" came out as a "Γ", "H" as "II", "i" without its dot.
    ``line_heights``: the native line heights, the atlas's own first.

    ``tight``: each glyph's quad covers only its inked texels (found in the atlas image), not its whole slot (the
    advance by the line height). The texels cut away are empty: with nearest sampling (the HUD's layers) the picture
    is the same, drawn with fewer fragments -- on a software renderer (llvmpipe) the HUD's fill is most of a HUD
    frame's cost. Off for linear sampling, where a pixel next to the ink blends in a part of it."""

    def __init__(self, px: int = ATLAS_PX, extra_px: tuple = (), tight: bool = False):
        W = 1024
        img_rows: list = []
        self.variants: list[tuple[int, dict, dict]] = []      # (line_h, slots, advances)
        self._widths: dict[tuple[str, float], float] = {}     # text_width by (text, size)
        self._laid: dict[tuple, list] = {}                    # quads at (0, 0) by (text, size, colour, tight)
        self._verts: dict[tuple, tuple] = {}                  # their vertices (``placed``), by the same key
        y0 = 0
        fonts = []
        for p_ in (px, *extra_px):
            font, scalable = _font(int(p_))
            fonts.append(font)
            asc, desc = font.getmetrics() if hasattr(font, "getmetrics") else (p_, 0)
            line_h = asc + desc
            advances = {}
            for ch in CHARS:
                try:
                    advances[ch] = int(round(font.getlength(ch)))
                except Exception:   # noqa: BLE001 - a glyph the font cannot measure
                    advances[ch] = int(p_) // 2
            x, y = 6, y0
            slots = {}
            for ch in CHARS:
                a = max(advances[ch], 1) + 2
                if x + a > W:
                    x, y = 0, y + line_h + 2
                slots[ch] = (x, y, a)
                x += a
            self.variants.append((line_h, slots, advances))
            img_rows.append(scalable)
            y0 = y + line_h + 2
        H = 1 << (y0 - 1).bit_length()
        img = Image.new("L", (W, H), 0)
        d = ImageDraw.Draw(img)
        d.rectangle((0, 0, 3, 3), fill=255)
        for font, (_lh, slots, _adv) in zip(fonts, self.variants):
            for ch, (gx, gy, a) in slots.items():
                d.text((gx + 1, gy), ch, font=font, fill=255)
        self.scalable = img_rows[0]
        self.line_h, self.slots, self.advances = self.variants[0]
        self.px = px
        self.image = np.asarray(img, dtype=np.uint8)
        self.size = (W, H)
        self.tight = tight
        # per variant, per glyph: the inked texels' box in its slot, (left, top, right, bottom); None: no ink
        self.ink: list[dict[str, tuple[int, int, int, int] | None]] = [
            {ch: _ink(self.image, gx, gy, a, lh) for ch, (gx, gy, a) in slots.items()}
            for lh, slots, _adv in self.variants]

    @property
    def line_heights(self) -> list[int]:
        return [v[0] for v in self.variants]

    def _variant(self, size: float) -> tuple[int, dict, dict]:
        """The glyphs drawn at this line height when the atlas has them, else its own (scaled)."""
        return self.variants[self._variant_index(size)]

    def _variant_index(self, size: float) -> int:
        for i, v in enumerate(self.variants):
            if abs(v[0] - size) < 0.5:
                return i
        return 0

    def text_width(self, text: str, size: float) -> float:
        # kept by (text, size): a HUD rebuild measures the same few hundred strings every frame (wrapping, fitting,
        # centring), and summing their glyph advances was a fifth of the rebuild
        key = (text, size)
        w = self._widths.get(key)
        if w is None:
            line_h, _slots, advances = self._variant(size)
            w = sum(advances.get(ch, advances["?"]) for ch in text) * (size / line_h)
            if len(self._widths) >= 50_000:
                self._widths.clear()
            self._widths[key] = w
        return w

    def quads(self, text: str, x: float, y: float, size: float, color) -> list:
        """Glyph quads for text with its top left at (x, y) pixels and line height ``size`` pixels.
        Each quad: (x0, y0, x1, y1, u0, v0, u1, v1, r, g, b, a), colour 0..255. Laid out once for each (text, size,
        colour) at (0, 0) and moved: a HUD rebuild draws the same texts in most frames."""
        col = tuple(color)
        key = (text, size, col, self.tight)
        rel = self._laid.get(key)
        if rel is None:
            rel = self._layout(text, size, col)
            if len(self._laid) >= 20_000:
                self._laid.clear()
            self._laid[key] = rel
        return [(a + x, b + y, c + x, d + y, u0, v0, u1, v1, r, g, b_, al)
                for a, b, c, d, u0, v0, u1, v1, r, g, b_, al in rel]

    def placed(self, text: str, x: float, y: float, size: float, color) -> tuple:
        """The same glyphs as ``quads`` as one item for ``items_to_array``: (vertices at (0, 0), x, y), the vertices
        made once for each (text, size, colour) -- a HUD rebuild then moves a text's array, not its quads."""
        col = tuple(color)
        key = (text, size, col, self.tight)
        v = self._verts.get(key)
        if v is None:
            q = self._laid.get(key) or self._layout(text, size, col)      # at (0, 0) already: no copy kept
            v = _geometry(q), _colours(q)
            if len(self._verts) >= 20_000:
                self._verts.clear()
            self._verts[key] = v
        return v, x, y

    def _layout(self, text: str, size: float, col: tuple) -> list:
        W, H = self.size
        vi = self._variant_index(size)
        line_h, slots, advances = self.variants[vi]
        ink = self.ink[vi] if self.tight else None
        s = size / line_h
        out = []
        x = 0.0
        for ch in text:
            if ch not in slots:
                ch = "?"
            gx, gy, a = slots[ch]
            adv = advances[ch]
            if ch == " ":
                pass
            elif ink is None:
                out.append((x - s, 0.0, x + (a - 1) * s, size, gx / W, gy / H, (gx + a) / W, (gy + line_h) / H, *col))
            else:
                box = ink[ch]
                if box is not None:     # the same texel-to-pixel mapping as the whole slot's, cut to the ink
                    l_, t_, r_, b_ = box
                    out.append((x + (l_ - 1) * s, t_ * s, x + (r_ - 1) * s, b_ * s, (gx + l_) / W, (gy + t_) / H,
                                (gx + r_) / W, (gy + b_) / H, *col))
            x += adv * s
        return out

    def box(self, x0, y0, x1, y1, color):
        W, H = self.size
        return (x0, y0, x1, y1, 1 / W, 1 / H, 2 / W, 2 / H, *color)


def _ink(image: np.ndarray, gx: int, gy: int, a: int, line_h: int) -> tuple[int, int, int, int] | None:
    """The box of the non-zero texels of a glyph's slot (a wide, line_h tall at gx, gy), relative to the slot."""
    cell = image[gy:gy + line_h, gx:gx + a]
    rows, cols = np.flatnonzero(cell.any(axis=1)), np.flatnonzero(cell.any(axis=0))
    if not len(rows):
        return None
    return int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1


# the six corners of a quad's two triangles, as columns of a quad (x0, y0, x1, y1, u0, v0, u1, v1, ...): x, y, u, v
_CORNERS = np.array([(0, 1, 4, 5), (2, 1, 6, 5), (2, 3, 6, 7), (0, 1, 4, 5), (2, 3, 6, 7), (0, 3, 4, 7)])


def _geometry(quads) -> np.ndarray:
    """float64 [N*6, 4]: x, y, u, v of the quads' corners (as quads_to_array's before its cast to float32)."""
    if not quads:
        return np.zeros((0, 4))
    return np.array(quads, dtype=np.float64)[:, _CORNERS].reshape(-1, 4)


def _colours(quads) -> np.ndarray:
    """float32 [N*6, 4]: the quads' colours 0..1 at each corner (as quads_to_array's)."""
    if not quads:
        return np.zeros((0, 4), np.float32)
    c = np.array([q[8:12] for q in quads], dtype=np.float32) / 255.0
    return np.repeat(c, 6, axis=0)


def items_to_array(items) -> np.ndarray:
    """quads_to_array of a list of quads and ``GlyphAtlas.placed`` items, in order: the same float32 [N*6, 8] as
    quads_to_array of every quad in place (an item's vertices moved in float64, then cast)."""
    geo: list = []
    col: list = []
    run: list = []
    for it in items + [None]:
        if it is not None and len(it) != 3:
            run.append(it)
            continue
        if run:
            geo.append(_geometry(run))
            col.append(_colours(run))
            run = []
        if it is not None:
            (g, c), x, y = it
            if len(g):
                geo.append(g + (x, y, 0.0, 0.0))
                col.append(c)
    if not geo:
        return np.zeros((0, 8), np.float32)
    out = np.empty((sum(len(g) for g in geo), 8), np.float32)
    out[:, :4] = np.concatenate(geo)
    out[:, 4:] = np.concatenate(col)
    return out


def quads_to_array(quads) -> np.ndarray:
    """float32 [N*6, 8]: x, y, u, v, r, g, b, a (colour 0..1)."""
    if not quads:
        return np.zeros((0, 8), np.float32)
    q = np.array(quads, dtype=np.float32)
    out = np.empty((len(q), 6, 8), np.float32)
    out[:, :, :4] = q[:, _CORNERS]
    out[:, :, 4:] = (q[:, 8:12] / 255.0)[:, None, :]
    return out.reshape(-1, 8)
