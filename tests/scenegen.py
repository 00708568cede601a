"""Shared pieces of the property tests: the random scenes they build and the check on illegal actions."""

import re

from engine.rules.core import Illegal


def random_fills(rng, X, Y, Z, materials):
    """1-4 random boxes standing on the ground, as inline TOML tables, and the set of voxels they fill."""
    fills = []
    for _ in range(rng.randint(1, 4)):
        x0, y0 = rng.randrange(X), rng.randrange(Y)
        x1, y1 = min(X - 1, x0 + rng.randint(0, 3)), min(Y - 1, y0 + rng.randint(0, 3))
        top = rng.randint(0, Z - 4)
        mat = rng.choice(materials)
        fills.append(f'{{ material = "{mat}", from = [{x0}, {y0}, 0], to = [{x1}, {y1}, {top}] }}')
    return fills, solid_cells(fills)


def solid_cells(fills):
    solid = set()
    for f in fills:
        a = list(map(int, re.findall(r"-?\d+", f)))
        for x in range(a[0], a[3] + 1):
            for y in range(a[1], a[4] + 1):
                for z in range(a[2], a[5] + 1):
                    solid.add((x, y, z))
    return solid


def refused_unchanged(session, action) -> bool:
    """Step a possibly illegal action. True when it was refused, asserting it changed nothing; False when it
    was legal and happened."""
    before = session.fingerprint()
    try:
        session.step(action)
    except Illegal:
        assert session.fingerprint() == before, f"illegal {action} changed the state"
        return True
    return False
