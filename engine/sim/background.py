""""How does this end?" from a game in progress, without blocking the caller (for the window's panel).

:func:`how_does_this_end` returns at once with a ``concurrent.futures.Future``; the fights run in one separate
process (spawned, never forked: the window's GL context and threads stay in the window's process), so the table's
frame loop keeps its interpreter to itself. Each fight replays the session's actions with the session's own seed
(the same state, byte for byte) and then goes on with its own dice (seed from (seed, index)) and the policies.
The future's result is the summary (``engine.sim.summary.summarise``): each side's win rate with its 95% Wilson
interval, draws, rounds, per character figures. ``future.cancel()`` before it starts, or shutting the executor,
stops it; the window polls ``future.done()`` each frame.
"""

from __future__ import annotations

import multiprocessing as mp
from concurrent.futures import Future, ProcessPoolExecutor

from engine.sim.fight import Plan


def _orphan_guard() -> None:
    """A background worker's initializer: the worker ends when the process that made it is gone. A window killed
    while its worker waited (or ran a question) left the worker running on, orphaned, after the window was gone."""
    import os
    import threading
    import time

    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="aerie-orphan-guard").start()


def new_executor() -> ProcessPoolExecutor:
    """One spawned worker process for the fights (never forked: see the module's docstring), which ends with its
    parent."""
    return ProcessPoolExecutor(1, mp_context=mp.get_context("spawn"), initializer=_orphan_guard)


def plan_from(session, policies: dict | None = None, max_rounds: int = 30) -> Plan:
    sides = sorted({a.side for a in session.state.actors.values()})
    pol = {s: (policies or {}).get(s, "aggressive") for s in sides}
    return Plan(session.scene, pol, max_rounds, False, dict(session.options), "a", str(session.scene.path),
                prefix=[dict(a) for a in session.actions], base_seed=session.seed)


def run_summary(plan: Plan, runs: int, seed: int) -> dict:
    """The fights, here and now (what the background process runs)."""
    from engine.sim.runner import run_local
    from engine.sim.summary import summarise

    rows = run_local([plan], runs, seed, 1, False).sorted_rows()
    sides = sorted(plan.policies)
    out = summarise(rows, sides)
    out["runs"] = runs
    return out


def how_does_this_end(session, runs: int = 200, policies: dict | None = None, max_rounds: int = 30,
                      seed: int = 1, executor: ProcessPoolExecutor | None = None) -> Future:
    """A Future of the summary of ``runs`` fights from the session's state now (policies: {side: name},
    default aggressive). Give an ``executor`` to reuse one process; otherwise one is made for this run."""
    plan = plan_from(session, policies, max_rounds)
    own = executor is None
    ex = executor or new_executor()
    fut = ex.submit(run_summary, plan, int(runs), int(seed))
    if own:
        fut.add_done_callback(lambda _f: ex.shutdown(wait=False))
    return fut
