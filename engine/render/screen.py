"""Screen-space text and boxes over a frame, for a window's HUD: the GL side of it, so that code outside
engine/render/ builds quads (``GlyphAtlas.quads`` / ``GlyphAtlas.box``, pure Python) and never imports moderngl.

    layer = ScreenLayer(renderer, GlyphAtlas(15))
    layer.upload(quads)          # after building the frame's quads
    layer.draw((width, height))  # after renderer.draw(...)
"""

from __future__ import annotations

import moderngl
import numpy as np

from engine.render.text import GlyphAtlas, quads_to_array

ATLAS_UNIT = 5


class ScreenLayer:
    def __init__(self, renderer, atlas: GlyphAtlas | None = None, nearest: bool = False):
        """``nearest``: sample the glyphs without filtering (text drawn at the atlas's own size, on whole pixels)."""
        self.ctx = renderer.ctx
        self.atlas = atlas or GlyphAtlas()
        W, H = self.atlas.size
        self.tex = self.ctx.texture((W, H), 1, self.atlas.image.tobytes())
        f = moderngl.NEAREST if nearest else moderngl.LINEAR
        self.tex.filter = (f, f)
        self.prog = renderer.prog["text"]
        self.buf: moderngl.Buffer | None = None
        self.vao: moderngl.VertexArray | None = None
        self.n = 0

    def upload(self, quads) -> None:
        """The quads to draw: a list (``GlyphAtlas.quads`` / ``box``) or an array as quads_to_array makes."""
        arr = quads if isinstance(quads, np.ndarray) else quads_to_array(quads)
        self.n = len(arr)
        if self.n == 0:
            return
        raw = np.ascontiguousarray(arr, dtype=np.float32).tobytes()
        if self.buf is None or self.buf.size < len(raw):
            if self.vao is not None:
                self.vao.release()
            if self.buf is not None:
                self.buf.release()
            self.buf = self.ctx.buffer(reserve=len(raw) * 2)
            self.vao = self.ctx.vertex_array(self.prog, [(self.buf, "2f 2f 4f", "in_position", "in_uv", "in_color")])
        self.buf.write(raw)

    def draw(self, size) -> None:
        if self.n == 0 or self.vao is None:
            return
        ctx = self.ctx
        ctx.disable(moderngl.DEPTH_TEST)
        ctx.disable(moderngl.CULL_FACE)
        ctx.enable(moderngl.BLEND)
        ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        self.prog["u_viewport"].value = (float(size[0]), float(size[1]))
        self.prog["u_atlas"].value = ATLAS_UNIT
        self.tex.use(ATLAS_UNIT)
        self.vao.render(moderngl.TRIANGLES, vertices=self.n)
        ctx.disable(moderngl.BLEND)

    def release(self) -> None:
        for obj in (self.vao, self.buf, self.tex):
            if obj is not None:
                obj.release()
