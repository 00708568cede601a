"""Running many fights: in this process, on a local process pool, or as Ray tasks.

Work is cut into batches of fight indices; each batch returns its rows (and, with --keep-logs, the fights'
actions). Rows are keyed by (variant, index): whatever order batches finish in, whatever worker ran them, and
however often a batch was run again (a Ray worker lost mid-batch), each fight is counted once and the rows come
out sorted by variant and index -- the same rows for the same command on any number of workers.
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import os
import socket
import time
import uuid
from collections.abc import Callable, Iterator

from engine.errors import AerieError
from engine.sim.fight import Plan, play

_PLANS: dict = {}          # in a pool worker: variant -> Plan (sent once, by the pool's initializer)
_RAY_RUN: list = [None]    # in a Ray worker: the run whose batches it took last (see cold_caches)


def cold_caches() -> None:
    """Empty the rules' memo tables kept across sessions (finished path searches, sight-line geometry, bodies,
    path-search edge tables). Every run starts with none, in this process, in a pool worker and in a Ray worker
    alike: a forked pool would otherwise inherit whatever its parent played before (the same fights, in the
    bench, which made a second pool look faster than a first), and a long-lived Ray worker the last run's. What a
    run computes is unchanged (the tables are exact); only its speed would depend on the process's past."""
    from engine import memo          # a table whose module is not imported yet is empty anyway

    memo.clear()


def batches(plans: list[Plan], runs: int, size: int) -> list[tuple[str, list[int]]]:
    out = []
    for p in plans:
        for lo in range(0, runs, size):
            out.append((p.variant, list(range(lo, min(runs, lo + size)))))
    return out


def batch_size(runs: int, workers: int) -> int:
    """Small enough to balance the workers and show progress (about eight batches a worker: fights differ in
    length by ten times, and the last batch of the slowest worker is the run's tail), large enough that sending a
    batch costs little (a fight costs 0.1-1 s, a batch's round trip well under a millisecond)."""
    return max(1, min(16, runs // max(1, workers * 8)))


def run_batch(plans: dict, seed: int, variant: str, indices: list[int], keep: bool) -> list[tuple]:
    """[(variant, index, row, actions or None)] for these fights of one variant."""
    from engine.sim.policies import resolve

    plan = plans[variant]
    fns = {s: resolve(p) for s, p in plan.policies.items()}
    out = []
    for i in indices:
        row, acts = play(plan, seed, i, fns)
        out.append((variant, i, row, acts if keep else None))
    return out


def _init(plans):
    global _PLANS
    _PLANS = plans


def _pool_batch(args):
    seed, variant, indices, keep = args
    return run_batch(_PLANS, seed, variant, indices, keep)


class Results:
    """Rows by (variant, index); a key seen again (a batch run twice) is not counted again."""

    def __init__(self):
        self.rows: dict = {}
        self.actions: dict = {}
        self.duplicates = 0

    def add(self, items) -> int:
        new = 0
        for variant, i, row, acts in items:
            if (variant, i) in self.rows:
                self.duplicates += 1
                continue
            self.rows[(variant, i)] = row
            if acts is not None:
                self.actions[(variant, i)] = acts
            new += 1
        return new

    def sorted_rows(self) -> list[dict]:
        return [self.rows[k] for k in sorted(self.rows)]


def run_local(plans: list[Plan], runs: int, seed: int, workers: int, keep: bool,
              progress: Callable[[int], None] | None = None, results: Results | None = None) -> Results:
    """Every fight, on ``workers`` processes (1: in this process). Ctrl+C leaves ``results`` with what finished."""
    res = results if results is not None else Results()
    by = {p.variant: p for p in plans}
    work = batches(plans, runs, batch_size(runs, workers))
    cold_caches()                       # before the fork: the workers start with empty tables too
    if workers <= 1:
        for variant, idx in work:
            n = res.add(run_batch(by, seed, variant, idx, keep))
            if progress:
                progress(n)
        return res
    ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    pool = ctx.Pool(workers, initializer=_init, initargs=(by,))
    try:
        for items in pool.imap_unordered(_pool_batch, [(seed, v, idx, keep) for v, idx in work]):
            n = res.add(items)
            if progress:
                progress(n)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
    return res


# -- Ray -----------------------------------------------------------------------------------------------------
def check_ray_address(address: str, timeout_s: float = 3.0) -> None:
    """Refuse an unreachable head at once (ray.init would wait a long time): a TCP connection to host:port."""
    if address in ("auto", "local"):
        return
    hp = address.split("://", 1)[-1]
    host, _, port = hp.rpartition(":")
    if not host or not port.isdigit():
        raise AerieError(f"--ray {address}: expected HOST:PORT (the head's GCS address, e.g. 10.0.0.5:6379), "
                         "ray://HOST:PORT or auto")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout_s):
            pass
    except OSError as e:
        raise AerieError(f"--ray {address}: cannot reach the Ray head ({e.strerror or e})") from None


def ray_tasks(plans: list[Plan], runs: int, seed: int, keep: bool, address: str,
              progress: Callable[[int], None] | None = None, results: Results | None = None,
              batch: int | None = None) -> Results:
    """Every fight as Ray tasks: the plans (scene and all) go to the object store once; each task is a batch;
    rows are taken as tasks finish. A task whose worker dies is run again by Ray (``max_retries``); a batch's
    rows are keyed, so one that ran twice is not counted twice."""
    import ray

    check_ray_address(address)
    res = results if results is not None else Results()
    started = not ray.is_initialized()
    if started:
        env = {"env_vars": {"PYTHONPATH": os.environ.get("PYTHONPATH", "")}} if os.environ.get("PYTHONPATH") else None
        ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False,
                 runtime_env=env, include_dashboard=False)
    try:
        by = {p.variant: p for p in plans}
        ref = ray.put(by)
        task = ray.remote(max_retries=5, retry_exceptions=False)(_ray_batch)
        n_cpu = max(1, int(ray.cluster_resources().get("CPU", 1)))
        run_id = uuid.uuid4().hex       # a worker taking this run's first batch starts with cold caches
        pending = [task.remote(ref, seed, v, idx, keep, run_id)
                   for v, idx in batches(plans, runs, batch or batch_size(runs, n_cpu))]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            n = res.add(ray.get(done[0]))
            if progress:
                progress(n)
    finally:
        if started:
            ray.shutdown()
    return res


def _ray_batch(plans, seed, variant, indices, keep, run_id=None):
    if run_id != _RAY_RUN[0]:
        cold_caches()
        _RAY_RUN[0] = run_id
    return run_batch(plans, seed, variant, indices, keep)


# -- progress ------------------------------------------------------------------------------------------------
class Progress:
    """``fights done/total, fights/s, ETA`` on stderr, redrawn at most 10 times a second; silent unless stderr
    is a terminal (and not --quiet)."""

    def __init__(self, total: int, stream, enabled: bool):
        self.total, self.stream, self.enabled = total, stream, enabled
        self.done = 0
        self.t0 = time.perf_counter()
        self._last = 0.0

    def __call__(self, n: int) -> None:
        self.done += n
        now = time.perf_counter()
        if self.enabled and (now - self._last > 0.1 or self.done >= self.total):
            self._last = now
            rate = self.done / max(now - self.t0, 1e-9)
            eta = (self.total - self.done) / rate if rate > 0 else 0.0
            width = 30
            fill = int(width * self.done / max(1, self.total))
            self.stream.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {self.done}/{self.total} fights, "
                              f"{rate:,.1f} fights/s, ETA {eta:,.0f} s ")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def iter_rows(res: Results) -> Iterator[dict]:
    return iter(res.sorted_rows())
