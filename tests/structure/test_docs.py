"""docs/rules.md is the index of every rule: each catalogue ID is there, and every test it names exists."""

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]
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
    for f in (ROOT / "tests").rglob("test_*.py"):
        defined |= set(re.findall(r"^def (test_\w+)", f.read_text(encoding="utf-8"), re.M))
    named = set(re.findall(r"::(test_\w+)", RULES.read_text(encoding="utf-8")))
    assert len(named) > 100
    assert not sorted(named - defined)


def test_built_rows_name_a_module_and_a_test():
    built = 0
    for line in RULES.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        # ID | rule | the document's words | status | decision | where | tests | options
        if re.fullmatch(ID, cells[0]) and len(cells) == 8 and cells[3].startswith("built"):
            built += 1
            assert cells[5] and cells[6], cells[0]
    assert built >= 130          # AIR, the DND combat rules and BAT; feats, locks and objects come later


PERFORMANCE = ROOT / "docs" / "performance.md"


def _opening_table(text: str) -> list[list[str]]:
    """The rows of the first table, which must come before the first section."""
    head = text.split("\n## ", 1)[0]
    lines = [line.strip() for line in head.splitlines() if line.startswith("|")]
    rows = [line.strip("|").split(" | ") for line in lines if not set(line) <= set("|-: ")]
    return [[c.strip() for c in r] for r in rows]


def test_performance_opens_with_todays_figures_each_with_its_command():
    """docs/performance.md opens with a table of today's figures: the command, what is timed, the figure (a ratio
    from the same run) and the machine; every command is one that runs (an `aerie bench` subcommand the CLI
    accepts, or a script in tools/)."""
    from engine.cli import build_parser

    rows = _opening_table(PERFORMANCE.read_text(encoding="utf-8"))
    assert rows, "no table before the first section"
    header, body = rows[0], rows[1:]
    assert [h.lower() for h in header[:4]] == ["command", "what is timed", "figure (same run)", "machine"]
    assert len(body) >= 6
    parser = build_parser()
    for row in body:
        assert len(row) == len(header) and all(row), row
        cmd = re.search(r"`([^`]+)`", row[0])
        assert cmd, row[0]
        words = cmd.group(1).split()
        if words[0] == "aerie":
            parser.parse_args(words[1:])           # exits (a SystemExit) on an unknown subcommand or option
        else:
            assert words[0] == "python" and (ROOT / words[1]).is_file() and words[1].startswith("tools/"), words
        assert re.search(r"\d", row[2]), row     # a figure
