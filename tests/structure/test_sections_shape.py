"""Issue 40's shape for the HUD's sections (engine/app/sections): a section is handed a typed table, never the
window -- no parameter named ``win`` or ``window``, no ``win.`` --, and no section imports the window, the
players' screen (mirror) or the main mode, so the sections are in no import circle of engine/app.

The imports are read from the source with ``ast`` (those inside functions included), as
tests/structure/test_package_layers.py reads them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from test_package_layers import _imports, _module, circles

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "engine" / "app"
SECTIONS = APP / "sections"
BANNED = ("win", "window")
NO_IMPORT = ("engine.app.window", "engine.app.mirror", "engine.app.modes.main", "engine.app.panels")


def window_uses(source: str) -> list[str]:
    """Every parameter named win / window and every ``win.`` / ``window.`` in ``source``."""
    out = []
    for n in ast.walk(ast.parse(source)):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = n.args
            for arg in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x is not None]:
                if arg.arg in BANNED:
                    out.append(f"line {n.lineno}: parameter {arg.arg}")
        elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in BANNED:
            out.append(f"line {n.lineno}: {n.value.id}.{n.attr}")
    # the text too (a ``win.`` in a string handed to eval, say): comments and docstrings say "the window"
    code = "\n".join(line.split("#", 1)[0] for line in source.splitlines())
    out += [f"text: {m.group(0)}" for m in re.finditer(r"\bwin\.\w+", code)]
    return out


def section_files() -> list[Path]:
    files = sorted(SECTIONS.glob("*.py"))
    assert len(files) >= 14                      # base, context, intents and every panel's file
    return files


def test_no_section_takes_or_reads_the_window():
    found = {f.name: got for f in section_files() if (got := window_uses(f.read_text(encoding="utf-8")))}
    assert not found, found


def test_the_check_sees_a_window_parameter_and_a_window_read():
    src = "def build(self, win, L):\n    return win.hud\n\nf = lambda window: 1\n"
    got = window_uses(src)
    assert "line 1: parameter win" in got and "line 2: win.hud" in got and "line 4: parameter window" in got
    assert window_uses("def build(self, t, L):\n    return t.hud  # the window's hud\n") == []


def test_no_section_imports_the_window_the_mirror_or_the_main_mode():
    bad = {}
    for f in section_files():
        got = sorted({m for _line, m in _imports(f) if m.startswith(NO_IMPORT)})
        if got:
            bad[f.name] = got
    assert not bad, bad


def test_the_sections_are_in_no_import_circle_of_engine_app():
    mods = {_module(p): p for p in APP.rglob("*.py")}
    edges: dict[str, set[str]] = {}
    for m, p in mods.items():
        for _line, t in _imports(p):
            if t in mods and t != m:
                edges.setdefault(m, set()).add(t)
    assert "engine.app.sections.base" in edges.get("engine.app.panels", set())     # the graph was read
    caught = [c for c in circles(edges) if any(m.startswith("engine.app.sections") for m in c)]
    assert not caught, caught
