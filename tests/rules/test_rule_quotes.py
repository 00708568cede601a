"""docs/rules.md stands alone (issue 45): every rule ID of the three source documents (AIR-*, BAT-*, DND-*) carries
the document's own words it implements, kept in the package (engine/rules/aerial_quotes.py, baton/quotes.py,
dnd5e/quotes.py), and the generated page shows them. Where the source documents are at hand (the project's
``shared/seeds`` beside the repository or beside the folder of worktrees; a user's clone has none), each quote is
found in its document, word for word (runs of spaces and line breaks read as one space; ``…`` marks words left
out, so each piece is looked for in turn)."""

import re
from pathlib import Path

import pytest

from engine.rules import catalogue

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = {"AIR": "000_d3146b5d9a01d6bb.txt", "BAT": "001_9a1f9b532ead407c.txt", "DND": "004_5d8774dfa45f46a9.txt"}
#: the shortest quote the page shows (AIR-17's "A altura não dá vantagem pra acertar." is 37 characters)
MIN_CHARS = 30


def _seeds() -> Path | None:
    for up in (ROOT.parent, ROOT.parent.parent):
        p = up / "shared" / "seeds"
        if all((p / f).is_file() for f in DOCUMENTS.values()):
            return p
    return None


def _document_ids() -> list[str]:
    return [r["id"] for r in catalogue.all_rules() if r["id"].split("-")[0] in DOCUMENTS]


def _norm(s: str) -> str:
    return " ".join(s.split())


def test_every_rule_of_the_three_documents_has_its_words_quoted():
    ids = _document_ids()
    quotes = catalogue.quotes()
    assert len(ids) > 150                                   # AIR-01..17, BAT-00..64, DND-01..54 and the feats
    short = [i for i in ids if len(_norm(quotes.get(i, ""))) < MIN_CHARS]
    assert not short, f"no quote (or one under {MIN_CHARS} characters) for: {short}"
    stray = sorted(set(quotes) - set(ids))
    assert not stray, f"quotes for IDs no catalogue registers: {stray}"


def test_the_page_shows_each_quote_beside_its_rule():
    page = catalogue.markdown()
    quotes = catalogue.quotes()
    for rid in _document_ids():
        row = next(line for line in page.splitlines() if line.startswith(f"| {rid} |"))
        assert f'"{quotes[rid]}"'.replace("|", "\\|") in row, rid


def test_the_search_finds_a_quote_that_is_not_in_the_document():
    doc = _norm("Um personagem engaja e é engajado por quem está numa casa vizinha.")
    assert _found("Um personagem engaja e é engajado", doc)
    assert _found("Um personagem engaja … casa vizinha.", doc)
    assert not _found("Um personagem engaja e voa", doc)
    assert not _found("casa vizinha. … Um personagem", doc)      # the pieces in the document's order


def _found(quote: str, doc: str) -> bool:
    at = 0
    for piece in (p for p in (_norm(x) for x in quote.split("…")) if p):
        i = doc.find(piece, at)
        if i < 0:
            return False
        at = i + len(piece)
    return True


def test_each_quote_is_in_its_document_word_for_word():
    seeds = _seeds()
    if seeds is None:
        pytest.skip("the source documents (shared/seeds) are not beside this clone")
    docs = {k: _norm((seeds / f).read_text(encoding="utf-8")) for k, f in DOCUMENTS.items()}
    quotes = catalogue.quotes()
    missing = [rid for rid in _document_ids() if not _found(quotes[rid], docs[rid.split("-")[0]])]
    assert not missing, f"not found word for word in the document: {missing}"
    assert all(re.search(r"\w", q) for q in quotes.values())
