"""One small context interface: a headless EGL context with an offscreen framebuffer, or the current context of
a window (pyglet). The renderer draws into whatever framebuffer ``target`` is."""

from __future__ import annotations

from contextlib import contextmanager

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


class ViewTarget:
    """An offscreen colour + depth buffer the renderer draws into (``RenderContext.drawing_into``), shown in the
    window with ``RenderContext.show``. ``sampled``: the colour is a texture, so it can be shown stretched."""

    def __init__(self, ctx, size, sampled: bool = False):
        import moderngl

        self.size = tuple(int(v) for v in size)
        if sampled:
            self.color = ctx.texture(self.size, 4)
            self.color.filter = (moderngl.LINEAR, moderngl.LINEAR)
            self.color.repeat_x = self.color.repeat_y = False
        else:
            self.color = ctx.renderbuffer(self.size, 4)
        self.depth = ctx.depth_renderbuffer(self.size)
        self.fbo = ctx.framebuffer(color_attachments=[self.color], depth_attachment=self.depth)
        self.colour_only = ctx.framebuffer(color_attachments=[self.color])     # the copy source for show()
        self.sampled = sampled

    def release(self):
        for obj in (self.colour_only, self.fbo, self.depth, self.color):
            obj.release()


class RenderContext:
    """A moderngl context plus the framebuffer the renderer draws into."""

    def __init__(self, ctx, fbo, size, offscreen: bool):
        self.ctx = ctx
        self.fbo = fbo
        self.size = tuple(size)
        self.offscreen = offscreen      # owns its framebuffer (headless); a window's is the screen's

    @classmethod
    def headless(cls, size=(1280, 720)) -> "RenderContext":
        import moderngl

        keep_freed_memory()
        try:
            # moderngl's stub types each **settings value as a dict; the backend setting is a string
            ctx = moderngl.create_standalone_context(backend="egl", require=330)  # type: ignore[arg-type]
        except Exception as e:  # noqa: BLE001 - any EGL failure means no headless GL here
            raise AerieError(f"no headless OpenGL (EGL) context available: {e}; rendering needs Mesa's EGL "
                             "(Debian/Ubuntu: apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri)") from None
        rc = cls(ctx, None, size, True)
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
        if self.offscreen:
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

    @property
    def info(self) -> dict:
        return self.ctx.info

    # -- offscreen targets and the window's framebuffer ------------------------------------------------------------
    def target(self, size, sampled: bool = False) -> ViewTarget:
        return ViewTarget(self.ctx, size, sampled)

    @contextmanager
    def drawing_into(self, target: ViewTarget | None, size=None):
        """The renderer draws into ``target`` (None: the window's own framebuffer, at ``size`` or the current size)
        for the duration of the block."""
        saved = (self.fbo, self.size)
        if target is None:
            self.fbo, self.size = self.ctx.screen, tuple(size or self.size)
        else:
            self.fbo, self.size = target.fbo, target.size
        try:
            yield self
        finally:
            self.fbo, self.size = saved

    def show(self, target: ViewTarget, size, into: ViewTarget | None = None) -> None:
        """Put a target's colour into the window's framebuffer of ``size`` (or into another target): a copy at
        the same size, stretched with linear filtering otherwise (the target must then be ``sampled``)."""
        import moderngl

        ctx = self.ctx
        size = tuple(size)
        dst = ctx.screen if into is None else into.fbo
        if target.size == size:
            ctx.copy_framebuffer(dst, target.colour_only)
            return
        if not target.sampled:
            raise ValueError("a target shown at another size must be created with sampled=True")
        if getattr(self, "_blit", None) is None:
            from engine.render.shaders import load_program

            prog = load_program(ctx, "blit")
            self._blit = (prog, ctx.vertex_array(prog, []))
        prog, vao = self._blit
        dst.use()
        ctx.viewport = (0, 0, size[0], size[1])
        ctx.disable(moderngl.DEPTH_TEST | moderngl.BLEND | moderngl.CULL_FACE)
        target.color.use(0)
        if "u_image" in prog:
            prog["u_image"].value = 0
        vao.render(moderngl.TRIANGLES, vertices=3)

    def read_target(self, target: ViewTarget) -> np.ndarray:
        """An offscreen target's colour, uint8 [H, W, 3], top row first (the camera-path mode's preview still)."""
        w, h = target.size
        data = target.fbo.read(components=3, alignment=1)
        return np.ascontiguousarray(np.frombuffer(data, dtype=np.uint8).reshape(h, w, 3)[::-1])

    def use_screen(self, size) -> None:
        """Draw to the window's framebuffer from here on (the HUD after the 3D view)."""
        self.ctx.screen.use()
        self.ctx.viewport = (0, 0, int(size[0]), int(size[1]))

    def read_screen(self, size) -> np.ndarray:
        """The window's framebuffer, uint8 [H, W, 3], top row first."""
        w, h = int(size[0]), int(size[1])
        data = self.ctx.screen.read(viewport=(0, 0, w, h), components=3, alignment=1)
        return np.ascontiguousarray(np.frombuffer(data, dtype=np.uint8).reshape(h, w, 3)[::-1])

    def clear_error(self) -> None:
        """Consume a pending GL error (so a toolkit's teardown does not raise it)."""
        try:
            _ = self.ctx.error
        except Exception:   # noqa: BLE001 - a context already gone has nothing to report
            pass

    def release(self):
        self.ctx.release()
