"""The GL boundary: only engine/render/ imports moderngl; the rules core imports neither moderngl nor pyglet."""

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit
ENGINE = Path(__file__).resolve().parents[2] / "engine"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_rules_core_is_pure():
    for f in (ENGINE / "rules").rglob("*.py"):
        bad = _imports(f) & {"pyglet", "moderngl", "moderngl_window", "imgui_bundle", "glcontext"}
        assert not bad, f"{f} imports {bad}"


def test_world_is_pure():
    for f in (ENGINE / "world").rglob("*.py"):
        assert not _imports(f) & {"pyglet", "moderngl"}, f


def test_only_the_render_package_imports_moderngl():
    for f in ENGINE.rglob("*.py"):
        if "moderngl" in _imports(f):
            assert (ENGINE / "render") in f.parents, f"{f} imports moderngl outside engine/render/"


def test_the_window_reaches_the_gl_only_through_engine_render():
    """No moderngl object is touched outside engine/render/: the window draws through RenderContext
    (targets, drawing_into, show, read_screen) and the renderer, never through the raw context."""
    for f in (ENGINE / "app").rglob("*.py"):
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in ("ctx", "mglo", "fbo"):
                raise AssertionError(f"{f}:{node.lineno} uses .{node.attr} (GL internals) outside engine/render/")
