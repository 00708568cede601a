"""Which profile runs: `make test` checks a property on a sample, `make slow` and `make fuzz` on every case.

A test that loops over many cases (games, cells, kill points, rays) takes its count from ``sample(short, full)``,
so the same test, with the same assertions, runs short in `make test` and whole in the long profiles."""
from __future__ import annotations

import os


def full() -> bool:
    """True in the long profiles: ``make slow`` (AERIE_SLOW=1) and ``make fuzz`` (AERIE_FUZZ=1)."""
    return bool(os.environ.get("AERIE_SLOW") or os.environ.get("AERIE_FUZZ"))


def sample(short: int, whole: int) -> int:
    """The number of cases to check: ``whole`` in the long profiles, ``short`` otherwise."""
    return whole if full() else short
