"""Issue 40, the shape: the modes are handed a typed table (engine/app/table.py), not the window -- no parameter
named ``win`` or ``window`` and no ``win.`` in engine/app/modes (engine/app/sections: the same, expected to fail
until its own move lands; strict, so the mark must go when it does) -- and engine/app has no import circle.

The import graph is read as tests/structure/test_rules_layers.py reads the rules' (imports inside functions count,
those under ``if TYPE_CHECKING`` do not; importing ``a.b.c`` runs ``a.b`` first)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from test_rules_layers import circles, module_name, read_imports

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "engine" / "app"
WINDOW_NAMES = ("win", "window")

pytestmark = pytest.mark.unit


def app_graph(root: Path = ROOT) -> dict[str, set[str]]:
    mods = {module_name(root, p): p for p in sorted((root / "engine" / "app").rglob("*.py"))}
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, p in mods.items():
        for imp in read_imports(root, p, set(mods)):
            parts = imp.target.split(".")
            for k in range(len(parts), 2, -1):
                t = ".".join(parts[:k])
                if t in mods and t != m and not m.startswith(t + "."):
                    edges[m].add(t)
    return edges


def window_uses(source: str, where: str = "") -> list[str]:
    """Each parameter named ``win`` / ``window`` and each attribute read through such a name, as ``file:line``."""
    found = []
    for n in ast.walk(ast.parse(source)):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = n.args
            for arg in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
                if arg.arg in WINDOW_NAMES:
                    found.append(f"{where}:{n.lineno} parameter {arg.arg}")
        elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in WINDOW_NAMES:
            found.append(f"{where}:{n.lineno} {n.value.id}.{n.attr}")
    return found


def test_engine_app_has_no_import_circle():
    edges = app_graph()
    assert len(edges) > 40 and any(edges.values())     # the walk found the package and its imports
    found = circles(edges)
    assert not found, "import circles in engine/app:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_window_finder_finds_parameters_and_reads():
    src = "def f(win, x):\n    return win.ctl\n\ng = lambda window: 1\n\ndef h(t):\n    return t.ctl\n"
    assert sorted(window_uses(src, "x.py")) == ["x.py:1 parameter win", "x.py:2 win.ctl", "x.py:4 parameter window"]
    assert window_uses("def h(t, windows):\n    return t.win\n") == []


@pytest.mark.parametrize("pkg", [
    "modes",
    pytest.param("sections", marks=pytest.mark.xfail(strict=True, reason="issue 40: the sections' own typed "
                                                                           "context is another change")),
])
def test_no_window_in(pkg):
    files = sorted((APP / pkg).rglob("*.py"))
    assert len(files) > 5
    found = [u for f in files for u in window_uses(f.read_text(encoding="utf-8"), str(f.relative_to(ROOT)))]
    assert not found, f"{len(found)} uses of the window in engine/app/{pkg}:\n" + "\n".join(found[:40])


def test_every_intent_has_its_performer():
    import pyglet

    pyglet.options["shadow_window"] = False      # importing pyglet.window must not open a display
    from engine.app import intents, perform

    kinds = {c for _n, c in inspect.getmembers(intents, inspect.isclass)
             if issubclass(c, intents.Intent) and c is not intents.Intent}
    assert len(kinds) > 10
    assert kinds <= set(perform._BY_TYPE), sorted(k.__name__ for k in kinds - set(perform._BY_TYPE))
