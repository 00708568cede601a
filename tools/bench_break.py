"""Breaking one voxel: re-mesh time of its chunk against a full mesh, and the cost of the break itself
(docs/performance.md, "Breaking terrain"). Run from the repository root: .venv/bin/python tools/bench_break.py"""

from __future__ import annotations

import sys
import time

import numpy as np

from engine.rules.registry import cover_levels
from engine.render.mesh import CHUNK, ChunkedMesh
from engine.rules import objects
from engine.rules.session import Session
from engine.world.cover import cover_between
from engine.world.los import distance_field
from engine.scene import load_scene


def _timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def inside_chunk(x: int, y: int) -> bool:
    """A voxel at least 2 from its chunk's sides: its break re-meshes that chunk alone."""
    return 2 <= x % CHUNK < CHUNK - 2 and 2 <= y % CHUNK < CHUNK - 2


def showcase() -> None:
    s = Session(load_scene("scenes/showcase.toml"), 1)
    w = objects.own_world(s)
    picks = [(int(x), int(y), int(z)) for z, y, x in np.argwhere(w.solid())
             if inside_chunk(x, y) and z > 0 and not w.materials[w.voxels[z, y, x]].indestructible][:200:10]
    fulls = []
    for _ in range(5):
        cm, t = _timed(lambda: ChunkedMesh(w))
        fulls.append(t)
    full = float(np.median(fulls))
    upd, brk, los = [], [], []
    a, b = s.state.actors["ground_archer"], s.state.actors["wall_archer"]
    cover_between(w, a.body(), b.body(), cover_levels("dnd5e"))
    for p in picks:
        s._sink = []
        target = objects.resolve(s, None, p, "DND-40")
        _, t = _timed(lambda: objects.break_target(s, target, None, "DND-40", "AIR-12", "bench"))
        brk.append(t)
        s._sink = None
        lo, hi = s.state.broken[-1]
        keys, t = _timed(lambda: cm.update((tuple(lo), tuple(hi))))
        upd.append(t)
        assert len(keys) == 1
        _, t = _timed(lambda: cover_between(s.world, a.body(), b.body(), cover_levels("dnd5e")))
        los.append(t)
    print(f"map {w.size}, chunks {len(cm.chunks)}, {len(picks)} single-voxel breaks")
    print(f"full ChunkedMesh build: median of 5 {full * 1000:.1f} ms")
    print(f"one-voxel re-mesh (1 chunk): median {np.median(upd) * 1000:.2f} ms, max {max(upd) * 1000:.2f} ms  "
          f"ratio to full {np.median(upd) / full:.3f}")
    print(f"break (state, voxels, distance-field patch, sync, fall check): median {np.median(brk) * 1000:.2f} ms")
    print(f"first cover query after a break: median {np.median(los) * 1000:.1f} ms")


def random_map() -> None:
    sys.path.insert(0, "tests/render")
    from test_render_mesh import random_world

    big = random_world(11, size=(256, 256, 16))
    cm2, full2 = _timed(lambda: ChunkedMesh(big))
    ps = [(int(x), int(y), int(z)) for z, y, x in np.argwhere(big.solid()) if inside_chunk(x, y)][:400:20]
    u2 = []
    for p in ps:
        box = big.set_voxels(p, p, 0)
        k, t = _timed(lambda: cm2.update(box))
        u2.append(t)
        assert len(k) == 1
    print(f"random 256x256x16 map, {len(cm2.chunks)} chunks: full build {full2 * 1000:.0f} ms; one-voxel re-mesh "
          f"median {np.median(u2) * 1000:.2f} ms (ratio {np.median(u2) / full2:.4f})")
    big.los_distance()
    _, fullf = _timed(lambda: distance_field(big.blocks_sight()))
    pt = []
    for p in ps:
        _, t = _timed(lambda: big.set_voxels(p, p, 1))
        pt.append(t)
    print(f"random 256x256x16 map: full distance field {fullf * 1000:.0f} ms; patched after a one-voxel edit median "
          f"{np.median(pt) * 1000:.1f} ms (ratio {np.median(pt) / fullf:.3f})")


if __name__ == "__main__":
    showcase()
    random_map()
