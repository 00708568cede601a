"""The window's workers: the rules' preview, the greyed actions' reasons and the movement range in one thread
(under the session lock), the cover and threat maps and the 3D threat view in a map thread of their own (on
inputs read on the main thread, so a map never waits behind a preview). The session is only changed on the main
thread, and never while the worker reads it (:meth:`Workers.busy`)."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable


class Workers:
    MAP_WAIT_S = 0.25     # the most a frame waits for the cover and threat maps of a new state or layer

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="aerie-worker")
        self.map_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="aerie-maps")
        self.session_lock = threading.Lock()
        self.jobs: dict[str, tuple] = {}        # name -> (key, Future)
        self.futures: list = []
        self.results: dict[str, tuple] = {}     # name -> (key, value)
        self.map_wait_s = 0.0
        self.fresh = False                      # a result came in since the last frame
        self.stops: dict[str, Callable[[], None]] = {}     # name -> what stops a watched job's own process

    def wanted(self, name: str, job_key) -> bool:
        """Is this job neither done nor running (so submit would start it)?"""
        if name in self.results and self.results[name][0] == job_key:
            return False
        cur = self.jobs.get(name)
        return cur is None or cur[0] != job_key

    def submit(self, name: str, job_key, fn: Callable[[], Any], maps: bool = False) -> None:
        """Run fn() in the worker unless the same job (same key) is done or running. ``maps``: in the map thread,
        without the session lock (fn reads no session: its inputs were taken on the main thread)."""
        if not self.wanted(name, job_key):
            return
        if maps:
            self.jobs[name] = (job_key, self.map_pool.submit(fn))
            return

        def run():
            with self.session_lock:
                return fn()
        fut = self.pool.submit(run)
        self.jobs[name] = (job_key, fut)
        self.futures = [f for f in self.futures if not f.done()] + [fut]

    def watch(self, name: str, job_key, fut, stop: Callable[[], None] | None = None) -> None:
        """A future made elsewhere (a job in a process of its own: "how does this end?") collected each frame like
        the workers' own, so its end redraws the HUD without anyone waiting on it; ``stop`` ends its process when the
        window closes (a running process pool would otherwise hold the window's exit until it finished)."""
        self.jobs[name] = (job_key, fut)
        if stop is not None:
            self.stops[name] = stop

    def wait_maps(self, names=("cover", "threat")) -> bool:
        """Wait (at most MAP_WAIT_S) for the maps this frame will draw, then collect them: the frame after an
        action or a layer change shows the new maps, not "computing..."."""
        t0 = time.perf_counter()
        end = t0 + self.MAP_WAIT_S
        waited = False
        for name in names:
            job = self.jobs.get(name)
            if job is None:
                continue
            waited = True
            try:
                job[1].result(timeout=max(0.0, end - time.perf_counter()))
            except Exception:   # noqa: BLE001 - a timeout (drawn when ready) or the job's error (collect shows it)
                pass
        if waited:
            self.map_wait_s = time.perf_counter() - t0      # the last wait (aerie bench window reports it)
        return self.collect()

    def result(self, name: str, job_key) -> tuple[bool, Any]:
        """(ready, value) of a job for this key."""
        r = self.results.get(name)
        if r is not None and r[0] == job_key:
            return True, r[1]
        return False, None

    def collect(self) -> bool:
        """Move finished jobs to the results (an error is the value, shown in the HUD); True when any came in."""
        got = False
        for name, (k, fut) in list(self.jobs.items()):
            if fut.done():
                try:
                    val = fut.result()
                except Exception as e:   # noqa: BLE001 - shown in the HUD, never a crash
                    val = e
                self.results[name] = (k, val)
                del self.jobs[name]
                got = True
        if got:
            self.fresh = True
        return got

    def busy(self) -> bool:
        """Is the worker reading the session (a current job, or one replaced by a newer request but still running)?"""
        return any(not f.done() for f in self.futures)

    def key(self) -> tuple:
        """What the picture depends on in the workers: which results are in, which jobs run."""
        return tuple((n, r[0]) for n, r in self.results.items()), tuple(self.jobs)

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.map_pool.shutdown(wait=False, cancel_futures=True)
        for stop in self.stops.values():
            stop()
        self.stops.clear()
