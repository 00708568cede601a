"""The project never points outside itself (issue 45): a user's clone has no ``shared/`` folder beside it, so the
product -- the engine, the docs, the README, the assets and the scenes -- names the source documents and the rule
catalogue by their file names, never by a path into ``../shared``."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("engine", "docs", "assets", "scenes", "README.md")
OUTSIDE = ("../" + "shared", "/work/" + "shared")     # spelt in two halves: this file is not product, but say so

pytestmark = pytest.mark.unit


def _files():
    for name in PRODUCT:
        p = ROOT / name
        yield from ([p] if p.is_file() else sorted(f for f in p.rglob("*") if f.is_file()))


def outside_references(files) -> list[str]:
    found = []
    for f in files:
        try:
            text = f.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue                                    # images, meshes: no paths to follow
        for no, line in enumerate(text.splitlines(), 1):
            if any(o in line for o in OUTSIDE):
                found.append(f"{f.relative_to(ROOT) if f.is_relative_to(ROOT) else f}:{no}: {line.strip()[:120]}")
    return found


def test_the_product_never_points_at_the_shared_folder():
    found = outside_references(_files())
    assert not found, "name the document by its file name instead:\n" + "\n".join(found)


def test_the_search_finds_a_reference(tmp_path):
    (tmp_path / "a.md").write_text("see `" + OUTSIDE[0] + "/rules/CATALOGUE.md`\n")
    (tmp_path / "b.md").write_text("see `CATALOGUE.md`\n")
    assert len(outside_references([tmp_path / "a.md", tmp_path / "b.md"])) == 1
