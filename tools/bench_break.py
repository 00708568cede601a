"""Breaking one voxel: re-mesh time of its chunk against a full mesh, and the cost of the break itself (docs/performance.md, "Breaking terrain"). Run from the repository root: .venv/bin/python tools/bench_break.py"""
import time, numpy as np
from engine.world.scene import load_scene
from engine.rules.core import Session
from engine.rules import objects
from engine.render.mesh import ChunkedMesh, CHUNK
from engine.world.cover import cover_between
sc = load_scene("scenes/showcase.toml")
s = Session(sc, 1)
w = objects.own_world(s)
solid = np.argwhere(w.solid())
picks = [(int(x), int(y), int(z)) for z, y, x in solid if 2 <= x % CHUNK < CHUNK-2 and 2 <= y % CHUNK < CHUNK-2 and z > 0 and not w.materials[w.voxels[z,y,x]].indestructible][:200:10]
fulls = []
for _ in range(5):
    t0=time.perf_counter(); cm = ChunkedMesh(w); fulls.append(time.perf_counter()-t0)
full = float(np.median(fulls))
upd=[]; brk=[]; los=[]
a, b = s.state.actors["ground_archer"], s.state.actors["wall_archer"]
cover_between(w, a.body(), b.body(), "dnd5e")
for p in picks:
    s._sink=[]
    t0=time.perf_counter(); objects.break_target(s, objects.resolve(s, None, p, "DND-40"), None, "DND-40", "AIR-12", "bench"); brk.append(time.perf_counter()-t0)
    s._sink=None
    lo, hi = s.state.broken[-1]
    t0=time.perf_counter(); keys=cm.update((tuple(lo), tuple(hi))); upd.append(time.perf_counter()-t0); assert len(keys)==1
    t0=time.perf_counter(); cover_between(s.world, a.body(), b.body(), "dnd5e"); los.append(time.perf_counter()-t0)
print(f"map {w.size}, chunks {len(cm.chunks)}, {len(picks)} single-voxel breaks")
print(f"full ChunkedMesh build: median of 5 {full*1000:.1f} ms")
print(f"one-voxel re-mesh (1 chunk): median {np.median(upd)*1000:.2f} ms, max {max(upd)*1000:.2f} ms  ratio to full {np.median(upd)/full:.3f}")
print(f"break (state, voxels, distance-field patch, sync, fall check): median {np.median(brk)*1000:.2f} ms")
print(f"first cover query after a break: median {np.median(los)*1000:.1f} ms")
import sys; sys.path.insert(0, "tests")
from test_render_mesh import random_world
from engine.world.objects import Box
big = random_world(11, size=(256, 256, 16))
t0=time.perf_counter(); cm2 = ChunkedMesh(big); full2=time.perf_counter()-t0
sol = np.argwhere(big.solid())
ps = [(int(x), int(y), int(z)) for z, y, x in sol if 2 <= x % CHUNK < CHUNK-2 and 2 <= y % CHUNK < CHUNK-2][:400:20]
u2=[]
for p in ps:
    box = big.set_voxels(p, p, 0)
    t0=time.perf_counter(); k=cm2.update(box); u2.append(time.perf_counter()-t0); assert len(k)==1
print(f"random 256x256x16 map, {len(cm2.chunks)} chunks: full build {full2*1000:.0f} ms; one-voxel re-mesh median {np.median(u2)*1000:.2f} ms (ratio {np.median(u2)/full2:.4f})")
from engine.world.los import distance_field
big.los_distance()
t0=time.perf_counter(); distance_field(big.blocks_sight()); fullf=time.perf_counter()-t0
pt=[]
for p in ps:
    t0=time.perf_counter(); big.set_voxels(p, p, 1); pt.append(time.perf_counter()-t0)
print(f"random 256x256x16 map: full distance field {fullf*1000:.0f} ms; patched after a one-voxel edit median {np.median(pt)*1000:.1f} ms (ratio {np.median(pt)/fullf:.3f})")
