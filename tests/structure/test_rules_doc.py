"""docs/rules.md is generated from the registry (``aerie rules --markdown``): the committed page must be what the
catalogues give now, every test it names must exist, and every module:function it names must resolve."""

import importlib
import re
from pathlib import Path

import pytest

from engine.rules import catalogue

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]


def test_committed_rules_md_is_the_generated_one():
    got = catalogue.markdown()
    have = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert have == got, "docs/rules.md is stale: run  .venv/bin/aerie rules --markdown > docs/rules.md"


def test_every_test_and_scene_named_exists():
    missing = []
    for r in catalogue.all_rules():
        for t in r.get("tests", []):
            path, _, name = t.partition("::")
            name = re.match(r"\w*", name).group(0)
            f = ROOT / path
            if not f.exists():
                missing.append(f"{r['id']}: {path}")
            elif name and not re.search(rf"^def {name}\b", f.read_text(encoding="utf-8"), re.M):
                missing.append(f"{r['id']}: {t}")
    assert not missing, missing


def test_every_module_function_named_resolves():
    n = 0
    for r in catalogue.all_rules():
        for w in catalogue.resolve_where(r.get("where", ""), r["_info"]):
            if ":" not in w or w.startswith("`"):
                continue
            path, _, dotted = w.partition(":")
            obj = importlib.import_module(path[:-3].replace("/", "."))
            for part in dotted.split("."):
                obj = getattr(obj, part)
            n += 1
    assert n > 200


def test_built_rules_have_tests_and_a_place():
    for r in catalogue.all_rules():
        if r["status"].startswith("built"):
            assert r.get("tests") and r.get("where"), r["id"]


def test_the_cli_prints_the_page(aerie):
    r = aerie("rules", "--markdown")
    assert r.returncode == 0 and r.stdout == catalogue.markdown()
