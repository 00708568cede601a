"""One small context interface: a headless EGL context with an offscreen framebuffer, or the current context of
a window (pyglet). The renderer draws into whatever framebuffer ``target`` is."""

from __future__ import annotations

import numpy as np

from engine.errors import AerieError


# llvmpipe bins every frame into memory it mallocs and frees again; glibc hands the freed top of the heap back to
# the kernel (trim) and the next frame faults it all in again, until its adaptive thresholds catch up (tens of
# frames, sometimes more): 10 ms frames instead of 6.4 ms on the 128 benchmark town meanwhile. Fixed thresholds
# remove that from the first frame on (glibc only; elsewhere nothing changes).
KEEP_FREED_BYTES = 256 * 2 ** 20
MMAP_THRESHOLD_BYTES = 32 * 2 ** 20
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_tuned = False


def keep_freed_memory() -> bool:
    """Tell glibc's malloc not to return freed heap memory below KEEP_FREED_BYTES to the kernel. Once per process;
    True if it took effect."""
    global _tuned
    if _tuned:
        return True
    try:
        import ctypes
        import ctypes.util

        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        # big blocks from the heap rather than fresh mmaps (setting either option freezes glibc's own adjustment)
        _tuned = bool(libc.mallopt(_M_TRIM_THRESHOLD, KEEP_FREED_BYTES)
                      and libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES))
    except (OSError, AttributeError):
        _tuned = False
    return _tuned


class RenderContext:
    """A moderngl context plus the framebuffer the renderer draws into."""

    def __init__(self, ctx, fbo, size, headless: bool):
        self.ctx = ctx
        self.fbo = fbo
        self.size = tuple(size)
        self.headless = headless

    @classmethod
    def headless(cls, size=(1280, 720), samples: int = 0) -> "RenderContext":
        import moderngl

        keep_freed_memory()
        try:
            ctx = moderngl.create_standalone_context(backend="egl", require=330)
        except Exception as e:  # noqa: BLE001 - any EGL failure means no headless GL here
            raise AerieError(f"no headless OpenGL (EGL) context available: {e}") from None
        rc = cls(ctx, None, size, True)
        rc._samples = samples
        rc._make_fbo(size)
        return rc

    @classmethod
    def from_current(cls, size) -> "RenderContext":
        """The context current in a window (call inside the pyglet window after it is created)."""
        import moderngl

        keep_freed_memory()
        ctx = moderngl.create_context(require=330)
        return cls(ctx, ctx.screen, size, False)

    def _make_fbo(self, size):
        w, h = size
        self._color = self.ctx.renderbuffer((w, h), 4)
        self._depth = self.ctx.depth_renderbuffer((w, h))
        self.fbo = self.ctx.framebuffer(color_attachments=[self._color], depth_attachment=self._depth)
        self.size = (w, h)

    def resize(self, size):
        if tuple(size) == self.size:
            return
        if self.headless:
            self.fbo.release()
            self._color.release()
            self._depth.release()
            self._make_fbo(size)
        else:
            self.size = tuple(size)

    def read(self) -> np.ndarray:
        """uint8 [H, W, 3], top row first."""
        w, h = self.size
        data = self.fbo.read(components=3, alignment=1)
        return np.frombuffer(data, dtype=np.uint8).reshape(h, w, 3)[::-1]

    def finish(self):
        self.ctx.finish()

    def release(self):
        self.ctx.release()
