"""Issue 10's size limits on the rules core: no ruleset class answers more than about 40 methods, no module in
engine/rules is over about 600 lines.

A class split into mixins is no smaller: the measure is the *assembled* class (``inspect.getmembers``: every
callable member, inherited ones included, dunders left out), so helpers that are not part of the ruleset
interface have to be module functions taking the ruleset (``rs``) as their first argument.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from tiers import full

from engine.rules import registry

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
MAX_MEMBERS = 40
MAX_LINES = 620


def members(cls) -> list[str]:
    return [n for n, v in inspect.getmembers(cls) if not n.startswith("__") and callable(v)]


@pytest.mark.parametrize("name", [i.name for i in registry.infos()])
def test_a_ruleset_class_answers_at_most_40_methods(name):
    cls = registry.info(name).ruleset_class()
    got = members(cls)
    assert len(got) <= MAX_MEMBERS, (f"{cls.__module__}.{cls.__name__} answers {len(got)} callable members "
                                     f"(at most {MAX_MEMBERS}): {', '.join(got)}")


def test_no_module_in_the_rules_is_over_620_lines():
    files = sorted((ROOT / "engine" / "rules").rglob("*.py"))
    assert len(files) > 20                                    # the walk found the package
    long = {str(f.relative_to(ROOT)): n for f in files if (n := len(f.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_the_measure_counts_inherited_and_mixed_in_methods():
    """The measure is of the assembled class: a method a mixin or the base brings counts like one of its own."""

    class Mixin:
        def helper(self):
            return 1

    class Base:
        def interface(self):
            return 2

    class Assembled(Mixin, Base):
        def own(self):
            return 3

        def __repr__(self):
            return "x"

    assert sorted(members(Assembled)) == ["helper", "interface", "own"]


HOOK_ORDER = """
import hashlib, importlib, os, sys, traceback


def hooks_after_importing_first(m):
    importlib.import_module(m)
    from engine.rules import registry
    from engine.rules.hooks import Hook
    for i in registry.infos():
        i.ruleset_class()
    names = sorted((m, n) for m, mod in list(sys.modules.items()) if m.startswith("engine.rules")
                   for n, v in vars(mod).items() if isinstance(v, Hook))
    return f"{len(names)} " + hashlib.sha256(repr([(m, n, [f.__module__ + "." + f.__qualname__ for f in
                                                 getattr(sys.modules[m], n)]) for m, n in names]).encode()).hexdigest()


# The libraries under the rules (numpy, msgspec ...) are loaded once here, then every engine module is dropped, and
# each rules module is imported first in a forked child with no engine module loaded: the same question as a fresh
# interpreter per module (which engine module loads first, and do the hooks fill in one order), without paying the
# interpreter's and numpy's start a hundred times.
mods = sys.argv[1].split(",")
for m in mods:
    importlib.import_module(m)
for m in [m for m in sys.modules if m == "engine" or m.startswith("engine.")]:
    del sys.modules[m]
for m in mods:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            out = "ok " + hooks_after_importing_first(m)
        except BaseException:
            out = "error " + traceback.format_exc().strip().splitlines()[-1]
        os.write(w, out.encode())
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        got = f.read()
    os.waitpid(pid, 0)
    print(m, got or "error the child died")
"""


def test_every_rules_module_imports_on_its_own_and_the_hooks_keep_one_order():
    """A caller may import any rules module first (``from engine.rules.dnd5e import attacks``): it must load (no
    import cycle left half-made), and the hooks -- lists filled as their modules load, whose order is the order
    of the events' lists -- must come out the same whichever module came first."""
    import subprocess
    import sys

    mods = sorted(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                  for p in (ROOT / "engine" / "rules").rglob("*.py"))
    if not full():      # `make test`: every other module imported first; every module in `make slow`
        mods = mods[::2]
    r = subprocess.run([sys.executable, "-c", HOOK_ORDER, ",".join(mods)], cwd=ROOT, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr.strip().splitlines()[-1:]
    lines = dict(line.split(" ", 1) for line in r.stdout.strip().splitlines())
    assert sorted(lines) == mods
    failed = {m: v for m, v in lines.items() if not v.startswith("ok ")}
    assert not failed, f"a rules module imported on its own: {failed}"
    seen = {}
    for m, v in lines.items():
        seen.setdefault(v.removeprefix("ok "), []).append(m)
    assert len(seen) == 1, {k: v[:5] for k, v in seen.items()}
    assert int(next(iter(seen)).split()[0]) >= 5               # the hooks were found
