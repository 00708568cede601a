"""`aerie bench los`: rays per second of Aerie's traversal and of trimesh on the same rays and map, and the
median time of one cover query. A benchmark, not a test: figures go to docs/performance.md."""

from __future__ import annotations

import statistics
import time

import numpy as np

from engine.world.mapgen import air_points as _air_points


def bench_los(args) -> int:
    from engine.extras import require

    require("rtree", "embreex", what="aerie bench los (it times trimesh's ray casters against Aerie's)")
    from engine.world.cover import cover_between
    from engine.world.geometry import Body
    from engine.world.los import FP, clamp_points, quantize, trace_fixed
    from engine.world.mapgen import town
    from engine.world.oracle import blocking_mesh, segments_blocked

    size = (64, 64, 16) if args.quick else (128, 128, 32)
    n = min(args.rays, 20_000) if args.quick else args.rays
    rng = np.random.default_rng(args.seed)
    world = town(size, seed=args.seed)
    blocking = world.blocks_sight()
    t0 = time.perf_counter()
    dist = world.los_distance()
    t_field = time.perf_counter() - t0
    q0 = clamp_points(quantize(_air_points(rng, blocking, n)), size)
    q1 = clamp_points(quantize(_air_points(rng, blocking, n)), size)
    print(f"map: procedural town {size[0]} x {size[1]} x {size[2]} (seed {args.seed}), "
          f"{blocking.mean():.1%} of voxels block sight; {n:,} rays between random points in the air")
    print(f"distance field (built once per map, cached): {t_field * 1000:.1f} ms")

    results, rates = {}, {}
    for threads in (1, 2):
        t0 = time.perf_counter()
        blocked, steps = trace_fixed(dist, size, q0, q1, return_steps=True, threads=threads)
        dt = time.perf_counter() - t0
        results[threads] = blocked
        rates[threads] = n / dt
        print(f"aerie numpy traversal, {threads} thread(s): {n / dt:,.0f} rays/s ({dt:.2f} s; "
              f"{blocked.mean():.1%} blocked; {steps.mean():.1f} loop iterations per ray)")

    try:
        from trimesh.ray import ray_pyembree  # noqa: F401

        engine = "embree"
    except Exception:
        engine = "float64"
    mesh = blocking_mesh(blocking)
    m = n if engine == "embree" else min(n, 20_000)
    t0 = time.perf_counter()
    ob, graze = segments_blocked(mesh, q0[:m] / FP, q1[:m] / FP, engine=engine)
    dt = time.perf_counter() - t0
    tm_rate = m / dt
    agree = (ob == results[1][:m]) | graze
    print(f"trimesh ({'Embree' if engine == 'embree' else 'pure numpy triangles'}, {len(mesh.faces):,} triangles): "
          f"{tm_rate:,.0f} rays/s on the first {m:,} of the same rays ({dt:.2f} s); agreement {agree.mean():.4%}")
    print(f"ratio aerie / trimesh: {rates[1] / tm_rate:.1f}x with 1 thread, {rates[2] / tm_rate:.1f}x with 2 threads")

    try:   # the same traversal as a GLSL compute shader (llvmpipe here; a real GPU where there is one)
        from engine.render.los_gpu import bench_gpu

        print(bench_gpu(dist, size, q0, q1, results[1]))
    except Exception as e:  # no GL here: the CPU figures stand alone
        print(f"GLSL compute kernel: not measured ({type(e).__name__}: {e})")

    # one cover query: all its sample rays, in-process, median of many
    a, b = Body(size[0] // 2 - 8, size[1] // 2, 0), Body(size[0] // 2 + 8, size[1] // 2 + 3, 6)
    for body in (a, b):
        world.voxels[body.layer:body.layer + 3, body.y, body.x] = 0
    world._luts.clear()
    world.los_distance()
    times = []
    for _ in range(50 if args.quick else 500):
        t0 = time.perf_counter()
        cover_between(world, a, b)
        times.append(time.perf_counter() - t0)
    print(f"cover query (36 sight lines, eye to body samples): median {statistics.median(times) * 1000:.3f} ms, "
          f"p95 {sorted(times)[int(len(times) * 0.95)] * 1000:.3f} ms over {len(times)} queries")
    return 0
