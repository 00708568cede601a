"""Shared code never names a ruleset: the world, the aerial layer, the core, the runner, the renderer and the app
reach every ruleset through the registry (``engine.rules.registry``) and the ``Ruleset`` hooks. Adding a ruleset
must not need an edit to any of them (issue 10)."""

import re
from pathlib import Path

import pytest

from engine.rules import registry

pytestmark = pytest.mark.unit
ENGINE = Path(__file__).resolve().parents[2] / "engine"

#: not shared code: the rule catalogue's text (it quotes the documents, which name the rulesets) and the rules
#: and mass-battle benches, whose fixed workloads are scenes of one ruleset (as a scene file names its ruleset), and
#: the compendium (``aerie compendium``: each section is one ruleset's library, the SRD's spells and bestiary
#: are 5e's own, issues 39 and 44)
NOT_SHARED = {ENGINE / "rules" / "catalogue.py", ENGINE / "rules" / "aerial_catalogue.py", ENGINE / "scene" / "bench.py",
              ENGINE / "sim" / "bench.py", *(ENGINE / "compendium").rglob("*.py")}
#: every module outside a ruleset's own package: the engine's top level, the world, the scene layer, the renderer,
#: the app, interop, and every module of engine/rules itself (validate.py and options.py included)
SHARED = sorted(({p for d in ("world", "scene", "render", "app", "interop", "sim", "serve") for p in (ENGINE / d).rglob("*.py")}
                 | set(ENGINE.glob("*.py")) | set((ENGINE / "rules").glob("*.py"))) - NOT_SHARED)


def test_the_shared_list_holds_every_module_outside_the_rulesets():
    rulesets = {ENGINE / "rules" / i.name for i in registry.infos() if (ENGINE / "rules" / i.name).is_dir()}
    assert len(rulesets) >= 2
    every = set(ENGINE.rglob("*.py"))
    own = {p for p in every if any(r in p.parents for r in rulesets)}
    assert every - own - NOT_SHARED == set(SHARED)
    assert {ENGINE / "rules" / "validate.py", ENGINE / "rules" / "options.py"} <= set(SHARED)


def _words() -> re.Pattern:
    words = set()
    for info in registry.infos():
        words.add(info.name)
        words.add(info.ruleset_class().__name__)
        words.add(info.schema_class().__name__)
        for rid in re.findall(r"[A-Z]+-", info.cover_rule):
            words.add(rid)          # its rule IDs (DND-32 -> "DND-")
    alts = sorted(re.escape(w) for w in words)
    return re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(alts) + r")(?![A-Za-z_])", re.IGNORECASE)


def test_registry_knows_the_shipped_rulesets():
    assert len(registry.names()) >= 2
    for info in registry.infos():
        assert info.ruleset_class().name == info.name
        assert info.cover_levels[0][1] == 0.0 and info.cover_levels[-1] == ("total", 1.0)


def test_shared_code_names_no_ruleset():
    pat = _words()
    bad = []
    for f in SHARED:
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            m = pat.search(line)
            if m:
                bad.append(f"{f.relative_to(ENGINE.parent)}:{i}: {m.group(0)!r}: {line.strip()[:100]}")
    assert not bad, "shared code names a ruleset:\n" + "\n".join(bad)


def test_the_window_and_the_runner_hold_no_ruleset_text():
    # the 5e-only events and preview keys are read through the ruleset's hooks, not named here
    for f in [ENGINE / "rules" / "runner.py", ENGINE / "app" / "window.py", ENGINE / "app" / "controller.py"]:
        text = f.read_text(encoding="utf-8")
        for word in ("death_save", "bonus_action_needed", "holds the baton", "Vigor"):
            assert word not in text, f"{f.name} names {word!r}"
