"""`aerie bench simulate`: fights per second on the showcase, policies random and aggressive, on 1 and 2 local
workers and on Ray with 2 workers, in the same run (the ratios are the figures; docs/performance.md).

Every configuration plays the same fights (same seed, same indices) and must give the same rows. Each local
figure says how many cores the run got on average (CPU seconds of the process and its workers over the wall
clock), so that two workers on a machine with no free second core read as such. Ray's local
cluster is started once (two worker CPUs) and warmed with a couple of fights before the timing, as a cluster
already running would be; the local pool is forked for each timing (its start is part of its figure). Every run
starts with the rules' memo tables empty (``runner.cold_caches``): a pool forked after the one-worker run would
otherwise inherit that run's path searches, for the very same fights. The configurations alternate over three
rounds and the medians are compared (the machine is shared and its load changes by the second).
"""

from __future__ import annotations

import logging
import os
import statistics
import time

from engine.scene import load_scene
from engine.scene.bench import mass_scene_text  # noqa: F401  (tests import it from here too)


def _time(fn) -> tuple[float, list]:
    t0 = time.perf_counter()
    rows = fn()
    return time.perf_counter() - t0, rows


def _cpu() -> float:
    """CPU seconds of this process and of its reaped children (a local pool's workers, once joined)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _timed_cores(fn) -> tuple[float, float, list]:
    """(wall seconds, cores used on average, rows): how many cores the run got tells a saturated machine (two
    workers that got about one core between them cannot run twice as fast) from a pool that does not scale."""
    c0 = _cpu()
    t, rows = _time(fn)
    return t, (_cpu() - c0) / max(t, 1e-9), rows


def bench_simulate(args) -> int:
    from engine.sim.fight import Plan
    from engine.sim.runner import ray_tasks, run_local

    quick = getattr(args, "quick", False)
    seed = int(getattr(args, "seed", 1) or 1)
    scene = load_scene("showcase")
    sides = sorted({c.side for c in scene.characters})
    # aggressive fights are several times shorter than random ones: more of them, so that each timing lasts
    # seconds, not a fraction of one (the machine's noise), and a pool's start (forking its workers) is a small part
    # of it, as in a real run of hundreds of fights; random fights take about 0.2 s since the listing is worked out
    # when read (session 15): 48 of them, about as long as 24 were before
    runs = {"random": 8 if quick else 48, "aggressive": 16 if quick else 96}
    rounds = 1 if quick else 3
    try:
        import ray
    except ModuleNotFoundError:
        ray = None  # type: ignore[assignment]  # the cluster extra is not installed: Ray is left out
    if ray is not None:
        ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    try:
        for name, n in runs.items():
            plan = Plan(scene, {s: name for s in sides}, 30, False, {}, "a", "showcase")
            if ray is not None:
                ray_tasks([plan], 2, seed + 1, False, "local")          # warm the two Ray workers (imports)
            walls: dict[str, list[float]] = {"1": [], "2": [], "ray": []}
            cores: dict[str, list[float]] = {"1": [], "2": []}
            rows = []
            # the configurations alternate, round after round, so that the machine's load falls on each
            for _ in range(rounds):
                t1, c1, r1 = _timed_cores(lambda: run_local([plan], n, seed, 1, False).sorted_rows())
                t2, c2, r2 = _timed_cores(lambda: run_local([plan], n, seed, 2, False).sorted_rows())
                walls["1"].append(t1)
                walls["2"].append(t2)
                cores["1"].append(c1)
                cores["2"].append(c2)
                rows += [r1, r2]
                if ray is not None:
                    t3, r3 = _time(lambda: ray_tasks([plan], n, seed, False, "local").sorted_rows())
                    walls["ray"].append(t3)
                    rows.append(r3)
            m = {k: statistics.median(v) for k, v in walls.items() if v}
            line = (f"simulate: showcase, {name} on both sides, {n} fights, median of {rounds} rounds: 1 worker "
                    f"{n / m['1']:.2f} fights/s ({statistics.median(cores['1']):.2f} cores), 2 workers "
                    f"{n / m['2']:.2f} fights/s ({m['1'] / m['2']:.2f}x; {statistics.median(cores['2']):.2f} cores)")
            if ray is not None:
                line += f", Ray 2 workers {n / m['ray']:.2f} fights/s ({m['2'] / m['ray']:.2f}x the local pool)"
            else:
                line += ", Ray: not installed (pip install 'aerie-sandbox[cluster]')"
            print(line)
            if rounds > 1:
                per = [f"{a / b:.2f}" for a, b in zip(walls["1"], walls["2"])]
                text = f"  round by round: 2 workers / 1 worker {', '.join(per)}"
                if walls["ray"]:
                    text += f"; Ray / local pool {', '.join(f'{a / b:.2f}' for a, b in zip(walls['2'], walls['ray']))}"
                print(text)
            same = all(r == rows[0] for r in rows)
            print(f"  load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; rows identical across the configurations: {'yes' if same else 'NO'}")
    finally:
        if ray is not None:
            ray.shutdown()
    bench_mass(quick)
    return 0


def bench_mass(quick: bool) -> None:
    """Loading and checking a mass battle (what ``aerie check`` does: parse, place, start a session) at n and
    2n characters a side: the ratio is about 2 when it is linear, 4 when quadratic."""
    from engine.rules.session import Session
    from engine.scene import parse_scene

    n = 250 if quick else 1000
    times = []
    for k in (n, 2 * n):
        text = mass_scene_text(k)
        t0 = time.perf_counter()
        Session(parse_scene(text, "<mass battle>"), 1)
        times.append(time.perf_counter() - t0)
    print(f"simulate: a mass battle loaded and checked: {n:,} a side {times[0]:.2f} s, {2 * n:,} a side "
          f"{times[1]:.2f} s ({times[1] / times[0]:.2f}x for twice the characters)")
