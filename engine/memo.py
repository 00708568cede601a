"""The memo tables kept across sessions (finished path searches, sight-line geometry, bodies, ...): each is a plain
dict made by :func:`table`, so one call empties them all (``clear``: ``aerie simulate``'s runs start cold in every
process, whatever it played before). A table holds exact answers of pure functions; emptying one changes speed only.
"""

from __future__ import annotations

_TABLES: dict[str, dict] = {}


def table(name: str) -> dict:
    """A new memo table, known by ``name`` (``module.TABLE``) to :func:`clear` and :func:`sizes`."""
    d: dict = {}
    _TABLES[name] = d
    return d


def clear() -> None:
    """Empty every memo table."""
    for d in _TABLES.values():
        d.clear()


def sizes() -> dict[str, int]:
    """Entries per table, by name (what a long run keeps)."""
    return {n: len(d) for n, d in sorted(_TABLES.items())}
