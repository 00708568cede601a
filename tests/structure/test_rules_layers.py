"""The rules in layers (issue 45): inside engine/rules, its rulesets included, no import circle, no import upward
(engine/rules/layers.py declares each module's layer), every module in the table, and at most
``MAX_FUNCTION_IMPORTS`` imports inside functions, each with a comment saying why.

The graph is read with ``ast``: every ``import`` / ``from ... import`` (a relative one made absolute; ``from p
import n`` is the module ``p.n`` where that is a module, else ``p``), those inside functions counted as much as the
others, those under ``if TYPE_CHECKING:`` not (they never run). Importing ``p.q.m`` runs ``p.q``'s ``__init__``
first, so that counts as an import of the package too."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.rules import layers

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "engine" / "rules"

pytestmark = pytest.mark.unit


@dataclass(frozen=True)
class Import:
    source: str
    line: int
    target: str
    in_function: bool
    text: str


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def read_imports(root: Path, path: Path, modules: set[str]) -> list[Import]:
    """Every import of one file that runs (not under ``if TYPE_CHECKING``), with whether it sits in a function."""
    mod = module_name(root, path)
    here = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    out: list[Import] = []

    def visit(node: ast.AST, in_fn: bool) -> None:
        for ch in ast.iter_child_nodes(node):
            if isinstance(ch, ast.If) and _type_checking(ch.test):
                for b in ch.orelse:
                    visit_one(b, in_fn)
                continue
            visit_one(ch, in_fn)

    def visit_one(ch: ast.AST, in_fn: bool) -> None:
        if isinstance(ch, ast.Import):
            out.extend(Import(mod, ch.lineno, a.name, in_fn, ast.unparse(ch)) for a in ch.names)
        elif isinstance(ch, ast.ImportFrom):
            base = ch.module or ""
            if ch.level:
                up = here.split(".")[: len(here.split(".")) - ch.level + 1]
                base = ".".join(up + ([ch.module] if ch.module else []))
            targets = {f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in ch.names}
            out.extend(Import(mod, ch.lineno, t, in_fn, ast.unparse(ch)) for t in sorted(targets))
        if isinstance(ch, ast.If) and _type_checking(ch.test):
            return
        visit(ch, in_fn or isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return out


def rules_modules(root: Path = ROOT) -> dict[str, Path]:
    return {module_name(root, p): p for p in sorted((root / "engine" / "rules").rglob("*.py"))}


def import_graph(root: Path = ROOT) -> tuple[dict[str, set[str]], list[Import]]:
    """(edges between the modules of engine/rules, every import made inside a function in engine/rules). An alias
    kept for callers outside (``layers.OUTSIDE_ALIASES``, a module ``__getattr__``) is no edge."""
    mods = rules_modules(root)
    edges: dict[str, set[str]] = {m: set() for m in mods}
    in_fn: list[Import] = []
    for m, p in mods.items():
        for imp in read_imports(root, p, set(mods)):
            if imp.in_function:
                in_fn.append(imp)
                if (m, imp.target) in layers.OUTSIDE_ALIASES:
                    continue
            # importing a.b.c runs a.b's __init__ (and a's) first
            parts = imp.target.split(".")
            for k in range(len(parts), 2, -1):
                t = ".".join(parts[:k])
                if t in mods and t != m and not m.startswith(t + "."):
                    edges[m].add(t)
    return edges, in_fn


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return sorted(out)


def upward(edges: dict[str, set[str]], table: dict[str, dict[str, int]]) -> list[str]:
    """Every import that goes up a layer, across rulesets, from the core into a ruleset, or from a ruleset into the
    core's session layer; and every module the table lacks."""
    def where(m: str):
        pkg = max((p for p in table if m == p or m.startswith(p + ".")), key=len, default="")
        rel = m[len(pkg) + 1:] if m != pkg else ""
        return pkg, (table[pkg].get(rel) if pkg else None)

    bad = []
    for m in sorted(edges):
        pm, lm = where(m)
        if lm is None:
            bad.append(f"{m}: not in engine/rules/layers.py")
            continue
        for t in sorted(edges[m]):
            pt, lt = where(t)
            if lt is None:
                continue        # reported as missing on its own
            name = f"{m} ({layers.NAMES[lm]}) imports {t} ({layers.NAMES[lt]})"
            if pm == pt:
                if lt > lm:
                    bad.append(f"{name}: upward")
            elif pt == "engine.rules":
                if lt > layers.RULESET:
                    bad.append(f"{name}: a ruleset reaches above the core's layer")
            elif pm == "engine.rules":
                bad.append(f"{name}: the core imports a ruleset")
            else:
                bad.append(f"{name}: one ruleset imports another")
    return bad


# The import circles and upward imports still in engine/rules, to be broken (issue 45): the list may only shrink.
# A new one fails the test, and so does one that has gone (remove it here).
KNOWN: set[str] = set()


def test_the_rules_have_no_import_circle():
    edges, _ = import_graph()
    found = circles(edges)
    left = [c for c in found if "circle " + " ".join(c) not in KNOWN]
    assert not left, "import circles in engine/rules:\n" + "\n".join(" <-> ".join(c) for c in left)


def test_the_rules_import_only_downward_and_every_module_has_a_layer():
    edges, _ = import_graph()
    bad = [b for b in upward(edges, layers.tables()) if b not in KNOWN]
    assert not bad, "\n".join(bad)


def test_the_known_list_only_shrinks():
    edges, _ = import_graph()
    now = {"circle " + " ".join(c) for c in circles(edges)} | set(upward(edges, layers.tables()))
    gone = KNOWN - now
    assert not gone, f"fixed, so remove from KNOWN: {sorted(gone)}"


def test_few_imports_inside_functions_each_saying_why():
    _, in_fn = import_graph()
    statements = sorted({(i.source, i.line, i.text) for i in in_fn})
    assert len(statements) <= layers.MAX_FUNCTION_IMPORTS, (
        f"{len(statements)} imports inside functions in engine/rules (at most {layers.MAX_FUNCTION_IMPORTS}):\n"
        + "\n".join(f"{s}:{line}: {t}" for s, line, t in statements))
    mods = rules_modules()
    silent = []
    for s, line, t in statements:
        lines = mods[s].read_text(encoding="utf-8").splitlines()
        if "#" not in lines[line - 1] and not lines[line - 2].strip().startswith("#"):
            silent.append(f"{s}:{line}: {t}")
    assert not silent, "an import inside a function says why in a comment (on its line or the one above):\n" + (
        "\n".join(silent))


def test_the_table_names_only_modules_that_exist():
    mods = set(rules_modules())
    stale = [f"{pkg}.{rel}" if rel else pkg for pkg, tab in layers.tables().items() for rel in tab
             if (f"{pkg}.{rel}" if rel else pkg) not in mods]
    assert not stale, stale


# --- the checker catches what it should: a made-up package on disk -------------------------------------------------

def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = tmp_path / "engine" / "rules" / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return tmp_path


def test_the_checker_finds_a_circle_an_upward_import_and_a_missing_module(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "",
        "core.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from engine.rules.session import S\n",
        "low.py": "def f():\n    from engine.rules import high  # a circle held apart by a lazy import\n",
        "high.py": "from engine.rules import low\n",
        "session.py": "from engine.rules.core import X\n",
        "stray.py": "",
        "ok/__init__.py": "",
        "ok/a.py": "from . import b\n",
        "ok/b.py": "from engine.rules.core import X\n",
    })
    edges, in_fn = import_graph(root)
    assert circles(edges) == [["engine.rules.high", "engine.rules.low"]]
    assert [(i.source, i.target) for i in in_fn] == [("engine.rules.low", "engine.rules.high")]
    # TYPE_CHECKING imports are not edges; a relative import is the module it names; a package's __init__ is one
    assert edges["engine.rules.core"] == set()
    assert edges["engine.rules.ok.a"] == {"engine.rules.ok.b"}
    table = {"engine.rules": {"": 0, "core": 0, "low": 1, "high": 2, "session": 6},
             "engine.rules.ok": {"": 0, "a": 1, "b": 1}}
    assert upward(edges, table) == [
        "engine.rules.low (queries) imports engine.rules.high (resolution): upward",
        "engine.rules.stray: not in engine/rules/layers.py",
    ]
    table["engine.rules"]["stray"] = 0
    table["engine.rules.ok"]["b"] = 6          # a ruleset's module above... and reaching the core's session layer
    (root / "engine" / "rules" / "ok" / "b.py").write_text("from engine.rules import session\n")
    edges, _ = import_graph(root)
    assert upward(edges, table) == [
        "engine.rules.low (queries) imports engine.rules.high (resolution): upward",
        "engine.rules.ok.a (queries) imports engine.rules.ok.b (session): upward",
        "engine.rules.ok.b (session) imports engine.rules.session (session): a ruleset reaches above the core's layer",
    ]


def test_the_circle_finder_on_a_made_up_graph():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


# --- the way up: Upcalls ---------------------------------------------------------------------------------------------

def test_an_upcall_takes_only_its_declared_names_and_says_when_unfilled():
    from engine.rules.hooks import Upcalls
    slot = Upcalls("test slot", ("ping",))
    with pytest.raises(RuntimeError, match="test slot: ping is called before the module that provides it"):
        slot.ping()

    def pong():
        return "pong"
    with pytest.raises(ValueError, match="pong is not one of its declared names"):
        slot.provide(pong)
    slot.provide(ping=pong)
    assert slot.ping() == "pong"
    with pytest.raises(AttributeError):
        slot.other   # noqa: B018


def test_every_upcall_of_the_shipped_rulesets_is_filled_once_they_load():
    from engine.rules import registry
    from engine.rules.baton import upcalls as baton_up
    from engine.rules.dnd5e import upcalls as dnd_up
    from engine.rules.hooks import Upcalls
    for info in registry.infos():
        info.ruleset_class()
    empty = [f"{mod.__name__}.{name}.{n}" for mod in (dnd_up, baton_up) for name, slot in vars(mod).items()
             if isinstance(slot, Upcalls) for n in sorted(slot._names) if n not in vars(slot)]
    assert not empty, empty
