"""Issue 23's size limits on the window (engine/app): no class over 40 methods, no function over 80 lines,
window.py at most 600 lines.

A class split into mixins is no smaller: the measure is the assembled class -- every callable member of every
class in its MRO that the project defines (pyglet's own Window methods are not counted), dunders left out.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "engine" / "app"
MAX_METHODS = 40
MAX_FUNC_LINES = 80
MAX_WINDOW_LINES = 600


def app_files() -> list[Path]:
    files = sorted(APP.rglob("*.py"))
    assert len(files) > 25                       # the walk found the package (modes/, sections/ included)
    return files


def modname(p: Path) -> str:
    return ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def own_members(cls) -> list[str]:
    """Callable members from the classes of cls's MRO defined in this project."""
    names = set()
    for k in cls.__mro__:
        if not k.__module__.startswith("engine."):
            continue
        for n, v in vars(k).items():
            if n.startswith("__"):
                continue
            if callable(v) or isinstance(v, (staticmethod, classmethod)):
                names.add(n)
    return sorted(names)


def test_no_function_in_engine_app_is_over_80_lines():
    long = {}
    for f in app_files():
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for n in ast.walk(tree):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = n.end_lineno - n.lineno + 1
                if length > MAX_FUNC_LINES:
                    long[f"{f.relative_to(ROOT)}:{n.name}"] = length
    assert not long, f"functions over {MAX_FUNC_LINES} lines: {long}"


def test_window_py_is_at_most_600_lines():
    n = len((APP / "window.py").read_text(encoding="utf-8").splitlines())
    assert n <= MAX_WINDOW_LINES, f"engine/app/window.py has {n} lines"


def test_no_class_in_engine_app_has_over_40_methods():
    import pyglet

    pyglet.options["shadow_window"] = False      # importing pyglet.window must not open a display
    over = {}
    seen = 0
    for f in app_files():
        mod = importlib.import_module(modname(f))
        for _n, cls in inspect.getmembers(mod, inspect.isclass):
            if cls.__module__ != mod.__name__:
                continue
            seen += 1
            got = own_members(cls)
            q = f"{cls.__module__}.{cls.__qualname__}"
            if len(got) > MAX_METHODS:
                over[q] = (len(got), got)
    assert seen > 20
    assert not over, {k: v[0] for k, v in over.items()}


def test_the_measure_counts_mixins_but_not_pyglet():
    class Lib:                        # stands for pyglet.window.Window: not the project's
        def lib(self):
            return 0

    Lib.__module__ = "pyglet.window"

    class Mixin:
        def helper(self):
            return 1

    class Assembled(Mixin, Lib):
        def own(self):
            return 2

        @staticmethod
        def st():
            return 3

    Mixin.__module__ = Assembled.__module__ = "engine.app.example"
    assert own_members(Assembled) == ["helper", "own", "st"]


@pytest.mark.parametrize("pkg", ["modes", "sections"])
def test_the_new_packages_are_there(pkg):
    assert (APP / pkg / "__init__.py").is_file()
