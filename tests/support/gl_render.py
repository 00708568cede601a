"""The headless GL set-up the render tests share: a module's EGL context (skipped where moderngl or EGL is
missing), a renderer over a scene's world (or a bare world), and one frame of it.

Use: ``gl = gl_fixture(SIZE)`` at a test module's top makes the module-scoped fixture ``gl``; ``with
headless(size) as rc:`` gives a context for one test; ``frame(rc, scene, camera, state, opts=...)`` draws one."""

from __future__ import annotations

from contextlib import contextmanager

import pytest


def require_egl() -> None:
    """Skip where moderngl or a headless EGL context (OpenGL 3.3) is missing."""
    moderngl = pytest.importorskip("moderngl")
    try:
        ctx = moderngl.create_standalone_context(backend="egl", require=330)
    except Exception as e:  # noqa: BLE001 - whatever the driver raises, there is no EGL here
        pytest.skip(f"EGL is not available here: {e}")
    ctx.release()


@contextmanager
def headless(size):
    """A headless RenderContext of ``size`` (w, h), released at the end."""
    require_egl()
    from engine.render.context import RenderContext

    rc = RenderContext.headless(size)
    try:
        yield rc
    finally:
        rc.release()


def gl_fixture(size, name: str = "gl"):
    """A module-scoped fixture named ``name`` giving a headless RenderContext of ``size``."""
    @pytest.fixture(scope="module", name=name)
    def _context():
        with headless(size) as rc:
            yield rc
    return _context


def renderer_for(rc, scene_or_world, size=None, **renderer_kw):
    """A Renderer over a scene's world (or a World), the context first resized to ``size`` when one is given."""
    from engine.render.renderer import Renderer

    if size is not None:
        rc.resize(size)
    return Renderer(rc, getattr(scene_or_world, "world", scene_or_world), **renderer_kw)


def state_of(scene):
    """The characters of a scene as the renderer draws them."""
    from engine.render.state import RenderState

    return RenderState.from_scene(scene)


def frame(rc, scene_or_world, camera, state=None, overlays=None, opts=None, size=None, **renderer_kw):
    """One frame of a fresh renderer: (the image, uint8 [H, W, 3], the renderer)."""
    r = renderer_for(rc, scene_or_world, size, **renderer_kw)
    return r.render(camera, state, overlays, opts), r
