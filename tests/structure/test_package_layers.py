"""The layers hold (issue 25): the world is geometry and materials and imports nothing from the rules; no import
circle spans two packages; a scene is validated by its ruleset without starting a game.

The import graph is read from the source with ``ast`` (every ``import`` and ``from ... import``, those inside
functions included), so a lazy import counts as much as one at the top of a file."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"

pytestmark = pytest.mark.unit


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import in the file; a relative import made absolute; ``from m import n`` gives
    both ``m`` and ``m.n`` (n may be a module)."""
    mod = _module(path)
    here = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            out.append((node.lineno, base))
            out += [(node.lineno, f"{base}.{a.name}") for a in node.names]
    return out


def _unit(mod: str) -> str:
    """A package of the engine (``engine.rules``, ``engine.world``...) or a top-level module (``engine.cli``)."""
    return ".".join(mod.split(".")[:2])


def package_graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for p in ENGINE.rglob("*.py"):
        a = _unit(_module(p))
        for _, m in _imports(p):
            if m.startswith("engine.") and _unit(m) != a:
                edges.setdefault(a, set()).add(_unit(m))
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
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

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_the_world_imports_nothing_from_the_rules():
    """engine/world is geometry and materials: it imports only itself and the engine's ground floor (errors,
    inputs, resources, the memo tables' registry) -- never the rules, the scene layer above them, the renderer or
    the app."""
    allowed = ("engine.world", "engine.errors", "engine.inputs", "engine.resources", "engine.memo")
    bad = [f"{p.relative_to(ROOT)}:{line}: {m}" for p in sorted((ENGINE / "world").rglob("*.py"))
           for line, m in _imports(p) if m.startswith("engine") and not m.startswith(allowed)]
    assert not bad, bad


def test_no_import_circle_spans_two_packages():
    found = circles(package_graph())
    assert not found, found


def test_the_circle_finder_finds_a_circle():
    """The check above can fail: a made-up graph with a circle across two packages is found."""
    assert circles({"engine.world": {"engine.rules"}, "engine.rules": {"engine.world", "engine.errors"}}) == [
        ["engine.rules", "engine.world"]]
    assert circles({"engine.scene": {"engine.rules"}, "engine.rules": {"engine.world"}}) == []


def test_a_relative_import_is_read_as_the_module_it_names(tmp_path, monkeypatch):
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    pkg = tmp_path / "engine" / "world"
    pkg.mkdir(parents=True)
    (pkg / "x.py").write_text("from ..rules import core\ndef f():\n    import engine.app.window\n")
    got = {m for _, m in _imports(pkg / "x.py")}
    assert {"engine.rules", "engine.rules.core", "engine.app.window"} <= got


# -- validation without a game ------------------------------------------------------------------------------
DUEL = '''name = "t"
ruleset = "{ruleset}"
[map]
size = [12, 12, 6]
[[characters]]
id = "a"
side = "red"
at = [1, 1, 0]
{a}
[[characters]]
id = "b"
side = "blue"
at = [8, 8, 0]
{b}
'''


@pytest.mark.parametrize("ruleset,a,b", [("dnd5e", 'kind = "guard"', 'kind = "guard"'),
                                         ("baton", 'kind = "archer"\npc = true', 'kind = "archer"')])
def test_a_scene_is_validated_without_starting_a_game(monkeypatch, ruleset, a, b):
    """Loading a scene builds the ruleset's actors and checks them, but starts nothing: no initiative roll, no
    first turn (the ruleset's ``start`` is never called)."""
    from engine.rules.core import Dice
    from engine.rules.session import Session
    from engine.rules.ruleset import get_ruleset
    from engine.scene import parse_scene

    cls = type(get_ruleset(ruleset))
    calls = []
    monkeypatch.setattr(cls, "start", lambda self, s: calls.append("start"))
    monkeypatch.setattr(Dice, "roll", lambda *a, **k: calls.append("roll"))
    scene = parse_scene(DUEL.format(ruleset=ruleset, a=a, b=b), "t.toml")
    assert calls == []
    Session(scene)                           # the game itself does start
    assert calls == ["start"]


@pytest.mark.parametrize("ruleset,kind", [("dnd5e", "guard"), ("baton", "archer")])
def test_a_mount_that_is_no_one_is_refused_at_load(ruleset, kind):
    from engine.errors import SceneError
    from engine.scene import parse_scene

    text = DUEL.format(ruleset=ruleset, a=f'kind = "{kind}"\nmount = "nobody"', b=f'kind = "{kind}"')
    with pytest.raises(SceneError) as e:
        parse_scene(text, "t.toml")
    assert str(e.value) == "t.toml: characters[0].mount: no character 'nobody' to ride"


def test_baton_who_may_start_is_checked_at_load():
    """BAT-02: a non-surprised PC starts; a scene naming another is refused when loaded, not when played."""
    from engine.errors import SceneError
    from engine.scene import parse_scene

    text = DUEL.format(ruleset="baton", a='kind = "archer"\npc = true', b='kind = "archer"')
    with pytest.raises(SceneError) as e:
        parse_scene(text.replace('[map]', 'initiative_starts = "b"\n[map]'), "t.toml")
    assert str(e.value).startswith("t.toml: initiative_starts: ") and "(BAT-02)" in str(e.value)


def test_the_old_scene_loader_path_says_where_it_went():
    with pytest.raises(ImportError, match="engine.scene.load_scene"):
        from engine.world.scene import load_scene  # noqa: F401


# -- the core's value types below, the session above --------------------------------------------------------
def _late_imports(path: Path) -> list[int]:
    """Lines of module-level imports that come after other code (a docstring, ``from __future__`` and an
    ``if TYPE_CHECKING:`` block aside): an import at the bottom of a file, there to dodge a circle."""
    seen_code, late = False, []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if seen_code:
                late.append(node.lineno)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        else:
            seen_code = True
    return late


def test_no_rules_module_imports_from_the_bottom_of_a_file():
    files = sorted((ENGINE / "rules").rglob("*.py"))
    assert len(files) > 20
    late = {str(p.relative_to(ROOT)): lines for p in files if (lines := _late_imports(p))}
    assert not late, late


def test_a_late_import_is_found(tmp_path):
    p = tmp_path / "m.py"
    p.write_text('"""doc"""\nfrom __future__ import annotations\nimport os\nX = 1\nfrom os import path  # noqa\n')
    assert _late_imports(p) == [5]


def test_the_value_types_load_alone():
    """engine/rules/core.py (Actor, State, Dice, Illegal, events) imports no other rules module: every module
    builds on it, and the Session (engine/rules/session.py) sits above."""
    import subprocess
    import sys

    code = ("import sys, engine.rules.core; "
            "print(sorted(m for m in sys.modules if m.startswith('engine.rules.')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['engine.rules.core']", out


def test_no_rules_module_takes_the_session_from_the_core():
    bad = [f"{p.relative_to(ROOT)}:{line}" for p in sorted((ENGINE / "rules").rglob("*.py"))
           for line, m in _imports(p) if m == "engine.rules.core.Session"]
    assert not bad, bad


# -- hooks run in their declared order ---------------------------------------------------------------------
def test_a_hook_runs_in_its_declared_order_whatever_the_registration_order():
    from engine.rules.hooks import Hook

    h = Hook("h", order=("first", "second", "third"))

    def third():
        return None

    def first():
        return None

    def second():
        return None

    for fn in (third, first, second):
        h.rule("X-1")(fn)
    assert [f.__name__ for f in h] == ["first", "second", "third"]

    def stray():
        return None

    with pytest.raises(ValueError, match="stray is not in its declared order"):
        h.rule("X-2")(stray)


PLAY_AFTER_IMPORTS = """
import hashlib, importlib, random, sys
for m in sys.argv[1].split(","):
    importlib.import_module(m)
from engine.rules.core import dumps
from engine.rules.session import Session
from engine.scene import bench, load_scene
out = []
for name in ("showcase", "feat_sentinel_harpy", "baton_skyfall"):
    s = Session(load_scene(name), 3)
    rng = random.Random(5)
    for _ in range(40):
        act = bench.random_action(s, rng)
        if act is None:
            break
        s.step(act)
    out.append(hashlib.sha256("\\n".join(dumps(e) for e in s.events).encode()).hexdigest())
print(" ".join(out))
"""


def test_the_rules_modules_imported_in_any_order_give_the_same_log():
    """Fresh interpreters import every rules module in a different order (sorted, reversed, shuffled), then play
    the same games: the event logs are the same byte for byte (the hooks' order is declared, not imported)."""
    import random
    import subprocess
    import sys

    mods = sorted(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                  for p in (ENGINE / "rules").rglob("*.py"))
    orders = [mods, mods[::-1]] + [random.Random(seed).sample(mods, len(mods)) for seed in (1, 2)]
    logs = set()
    for order in orders:
        r = subprocess.run([sys.executable, "-c", PLAY_AFTER_IMPORTS, ",".join(order)], cwd=ROOT,
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr.strip().splitlines()[-1:]
        logs.add(r.stdout.strip())
    assert len(logs) == 1, logs
