"""No import circle inside engine/world: no module of the world imports one that imports it back, an import made
inside a function counting as much as one at the top of the file (it runs all the same). The graph is read with
``ast`` as tests/structure/test_rules_layers.py reads engine/rules's (its reader and its circle finder)."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_rules_layers import circles, module_name, read_imports

ROOT = Path(__file__).resolve().parents[2]
WORLD = ROOT / "engine" / "world"

pytestmark = pytest.mark.unit


def world_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Edges between the modules of engine/world; importing ``a.b.c`` runs ``a.b``'s ``__init__`` first, so that
    counts as an import of the package too."""
    mods = {module_name(root, p): p for p in sorted((root / "engine" / "world").rglob("*.py"))}
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, p in mods.items():
        for imp in read_imports(root, p, set(mods)):
            parts = imp.target.split(".")
            for k in range(len(parts), 2, -1):
                t = ".".join(parts[:k])
                if t in mods and t != m and not m.startswith(t + "."):
                    edges[m].add(t)
    return edges


def test_the_world_has_no_import_circle():
    edges = world_graph()
    assert "engine.world.volumes" in edges and "engine.world.cover" in edges["engine.world.volumes"]
    found = circles(edges)
    assert not found, "import circles in engine/world:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_an_import_inside_a_function_closes_a_circle(tmp_path):
    """The reader sees a lazy import: the cover <-> volumes circle as it was (cover_map importing volumes inside
    the function) is found."""
    pkg = tmp_path / "engine" / "world"
    pkg.mkdir(parents=True)
    for d in (tmp_path / "engine", pkg):
        (d / "__init__.py").write_text("")
    (pkg / "cover.py").write_text("def cover_map():\n    from engine.world.volumes import fraction\n")
    (pkg / "volumes.py").write_text("from engine.world.cover import cover_map\n\n\ndef fraction():\n    pass\n")
    assert circles(world_graph(tmp_path)) == [["engine.world.cover", "engine.world.volumes"]]
