"""docs/rules.md is the index of every rule: each catalogue ID is there, and every test it names exists."""

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
CATALOGUE = ROOT.parent / "shared" / "rules" / "CATALOGUE.md"
ID = r"\b(?:AIR|BAT|DND)-F?\d\d\b"


def test_every_catalogue_id_is_in_docs_rules():
    if not CATALOGUE.exists():
        pytest.skip("the shared catalogue is not beside this checkout")
    ids = set(re.findall(ID, CATALOGUE.read_text(encoding="utf-8")))
    have = set(re.findall(ID, RULES.read_text(encoding="utf-8")))
    assert ids and not sorted(ids - have)


def test_every_test_named_in_docs_rules_exists():
    defined = set()
    for f in (ROOT / "tests").glob("test_*.py"):
        defined |= set(re.findall(r"^def (test_\w+)", f.read_text(encoding="utf-8"), re.M))
    named = set(re.findall(r"::(test_\w+)", RULES.read_text(encoding="utf-8")))
    assert len(named) > 100
    assert not sorted(named - defined)


def test_built_rows_name_a_module_and_a_test():
    built = 0
    for line in RULES.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if re.fullmatch(ID, cells[0]) and len(cells) == 7 and cells[2].startswith("built"):
            built += 1
            assert cells[4] and cells[5], cells[0]
    assert built >= 130          # AIR, the DND combat rules and BAT; feats, locks and objects come later
