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
import hashlib, importlib, sys
importlib.import_module(sys.argv[1])
from engine.rules import registry
from engine.rules.hooks import Hook
for i in registry.infos():
    i.ruleset_class()
names = sorted((m, n) for m, mod in list(sys.modules.items()) if m.startswith("engine.rules")
               for n, v in vars(mod).items() if isinstance(v, Hook))
print(len(names), hashlib.sha256(repr([(m, n, [f.__module__ + "." + f.__qualname__ for f in
      getattr(sys.modules[m], n)]) for m, n in names]).encode()).hexdigest())
"""


def test_every_rules_module_imports_on_its_own_and_the_hooks_keep_one_order():
    """A caller may import any rules module first (``from engine.rules.dnd5e import attacks``): it must load (no
    import cycle left half-made), and the hooks -- lists filled as their modules load, whose order is the order
    of the events' lists -- must come out the same whichever module came first."""
    import subprocess
    import sys

    mods = sorted(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                  for p in (ROOT / "engine" / "rules").rglob("*.py"))
    seen = {}
    for m in mods:
        r = subprocess.run([sys.executable, "-c", HOOK_ORDER, m], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, f"import {m} on its own: {r.stderr.strip().splitlines()[-1:]}"
        seen.setdefault(r.stdout.strip(), []).append(m)
    assert len(seen) == 1, {k: v[:5] for k, v in seen.items()}
    assert int(next(iter(seen)).split()[0]) >= 5               # the hooks were found
