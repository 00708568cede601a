"""Issue 40, the shape: the modes are handed a typed table (engine/app/table.py), not the window -- no parameter
named ``win`` or ``window`` and no ``win.`` in engine/app/modes, by the check tests/structure/test_sections_shape.py
makes of the sections -- and engine/app as a whole has no import circle.

The import graph is read as tests/structure/test_rules_layers.py reads the rules' (imports inside functions count,
those under ``if TYPE_CHECKING`` do not; importing ``a.b.c`` runs ``a.b`` first)."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from test_rules_layers import circles, module_name, read_imports
from test_sections_shape import window_uses

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "engine" / "app"

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


def test_engine_app_has_no_import_circle():
    edges = app_graph()
    assert len(edges) > 40 and any(edges.values())     # the walk found the package and its imports
    found = circles(edges)
    assert not found, "import circles in engine/app:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_mode_takes_or_reads_the_window():
    files = sorted((APP / "modes").glob("*.py"))
    assert len(files) > 8
    found = {f.name: got for f in files if (got := window_uses(f.read_text(encoding="utf-8")))}
    assert not found, found


def test_every_intent_has_its_performer():
    import pyglet

    pyglet.options["shadow_window"] = False      # importing pyglet.window must not open a display
    from engine.app import intents, perform

    kinds = {c for _n, c in inspect.getmembers(intents, inspect.isclass)
             if issubclass(c, intents.Intent) and c is not intents.Intent}
    assert len(kinds) > 10
    assert kinds <= set(perform._BY_TYPE), sorted(k.__name__ for k in kinds - set(perform._BY_TYPE))
