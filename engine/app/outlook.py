""""How does this end?" at the table (issue 26): I runs a batch of fights from the game's state now in a process of
its own (:func:`engine.sim.background.how_does_this_end`). The policies are chosen per side before the run: the
panel (:mod:`engine.app.sections.outlook`) lists each side with its policy, a click on a side's row gives it the
next one (random, aggressive, cautious and any registered with :func:`engine.sim.policies.register`); Shift+I
shows the panel and sets every side to the next policy at once. The panel shows the answer when it is in. The frame loop never waits
for it: the future is one of the workers' watched jobs (:meth:`engine.app.jobs.Workers.watch`), polled each tick,
and its end redraws the HUD. An answer stays on screen after the game goes on, marked as the answer for the state
at the action it started from.

No pyglet here: the rows are plain text (the tests read them without a display).

``AERIE_OUTLOOK_RUNS`` / ``AERIE_OUTLOOK_ROUNDS``: the number of fights (default 100) and their round cap (default
20) -- small, so a laptop answers in a minute or so."""

from __future__ import annotations

import os
import time
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field

from engine.sim.background import how_does_this_end, new_executor

RUNS = int(os.environ.get("AERIE_OUTLOOK_RUNS", "100"))
MAX_ROUNDS = int(os.environ.get("AERIE_OUTLOOK_ROUNDS", "20"))
SEED = 1                      # the same state and policy give the same answer (the fights' seeds are (1, index))
POLICY_CYCLE = ("aggressive", "cautious", "random")
JOB = "outlook"               # its name among the workers' jobs


def policy_names() -> list[str]:
    """The policies a side may play: the shipped three first, then the registered ones by name."""
    from engine.sim.policies import POLICIES

    return list(POLICY_CYCLE) + sorted(n for n in POLICIES if n not in POLICY_CYCLE)


def describe(pols: dict) -> str:
    """ "every side aggressive", or "blue cautious, red aggressive"."""
    vals = set(pols.values())
    if len(vals) <= 1:
        return f"every side {next(iter(vals), 'aggressive')}"
    return ", ".join(f"{side} {p}" for side, p in sorted(pols.items()))


@dataclass
class Outlook:
    policy: str = "aggressive"                      # every side's, unless chosen for a side in ``sides``
    sides: dict = field(default_factory=dict)       # {side: policy}: the GM's choice per side (a click on its row)
    setup: bool = False                             # the panel is open to choose the policies, before a run
    future: Future | None = None
    runs: int = 0
    max_rounds: int = 0
    asked_policy: str = ""
    asked: dict = field(default_factory=dict)       # {side: policy} of the run asked
    actions: list = field(default_factory=list)     # the session's actions when it was asked: the state it is for
    started: float = 0.0
    finished: float | None = None
    shown: bool = False
    pool: ProcessPoolExecutor | None = None          # one process, kept for the next question (its imports paid once)

    def choice(self, sides) -> dict:
        """{side: policy} the next run plays."""
        return {side: self.sides.get(side, self.policy) for side in sides}

    def running(self) -> bool:
        return self.future is not None and not self.future.done()

    def stale(self, actions: list) -> bool:
        """Has the game moved on (an action taken or undone) since the answer was asked for?"""
        return list(actions) != self.actions

    def executor(self) -> ProcessPoolExecutor:
        if self.pool is None:
            # spawned, never forked: the window's GL context and threads stay in the window's process
            self.pool = new_executor()
        return self.pool

    def stop(self) -> None:
        """The window closes: a fight still running is ended, not waited for."""
        pool, self.pool = self.pool, None
        if pool is None:
            return
        procs = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            if p.is_alive():
                p.terminate()


def outlook(win) -> Outlook:
    o = getattr(win, "outlook", None)
    if o is None:
        o = win.outlook = Outlook()
    return o


def start(win) -> bool:
    """I: ask how the fight ends from here (True when a run started)."""
    o = outlook(win)
    s = win.ctl.session
    if o.running():
        win.say(f"I: how does this end? is still running ({o.runs} fights) - its answer comes in the panel")
        return False
    if s.state.over:
        win.say("I: the fight is over" + (f" - {s.state.winner} won" if s.state.winner else ""))
        return False
    sides = table_sides(win)
    pols = o.choice(sides)
    if o.future is not None and not o.stale(s.actions) and o.asked == pols:
        o.shown = True
        win.say("I: the panel's answer is for the state now already (act, or choose other policies, then I)")
        return False
    o.runs, o.max_rounds, o.asked, o.asked_policy = RUNS, MAX_ROUNDS, pols, describe(pols)
    o.actions = [dict(a) for a in s.actions]
    o.started, o.finished, o.shown, o.setup = time.perf_counter(), None, True, False
    fut = how_does_this_end(s, runs=o.runs, policies=pols, max_rounds=o.max_rounds, seed=SEED,
                            executor=o.executor())
    o.future = fut

    def done(f, o=o):
        if f is o.future:
            o.finished = time.perf_counter()
    fut.add_done_callback(done)
    win.jobs.watch(JOB, (len(o.actions), id(fut)), fut, stop=o.stop)
    win.say(f"I: how does this end? {o.runs} fights from here, {o.asked_policy}, at most {o.max_rounds} "
            "rounds - the answer comes in the panel, play on meanwhile")
    return True


def table_sides(win) -> list[str]:
    return sorted({a.side for a in win.ctl.session.state.actors.values()})


def _next(name: str) -> str:
    names = policy_names()
    i = names.index(name) if name in names else -1
    return names[(i + 1) % len(names)]


def cycle_policy(win) -> str:
    """Shift+I: the panel open to choose, and every side set to the next policy at once."""
    o = outlook(win)
    o.policy, o.sides = _next(o.policy), {}
    o.shown = o.setup = True
    win.say(f"Shift+I: every side plays {o.policy} in how does this end? (click a side's row in the panel for "
            "its own policy; I runs)")
    return o.policy


def cycle_side(win, side: str) -> str:
    """A click on a side's row in the panel: that side's next policy (the others keep theirs)."""
    o = outlook(win)
    o.sides = dict(o.sides, **{side: _next(o.sides.get(side, o.policy))})
    o.shown = o.setup = True
    win.say(f"how does this end? {side} plays {o.sides[side]} (I runs: {describe(o.choice(table_sides(win)))})")
    return o.sides[side]


def side_rows(win) -> list[tuple[str, str]]:
    """The panel's policy rows, one per side: (text, side)."""
    o = outlook(win)
    return [(f"{side}: {p}  (click: next policy)", side) for side, p in o.choice(table_sides(win)).items()]


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def rows(win) -> list[tuple[str, object]]:
    """The panel's rows: (text, tag); a tag is "dim", "fg", "bad", "accent" or ("side", SIDE)."""
    o = outlook(win)
    if o.future is None:
        return []
    out: list[tuple[str, object]] = [(f"{o.runs} fights, {o.asked_policy}, at most {o.max_rounds} rounds", "dim")]
    if not o.future.done():
        return out + [(f"running... {o.runs} fights (the table goes on)", "accent")]
    try:
        res = o.future.result()
    except Exception as e:   # noqa: BLE001 - shown in the panel, never a crash
        return out + [(f"failed: {type(e).__name__}: {e}", "bad")]
    n = res.get("fights", 0)
    for side, v in sorted(res["sides"].items()):
        out.append((f"{side} wins {pct(v['rate'])} (95% {pct(v['low'])}..{pct(v['high'])})", ("side", side)))
    d = res["draws"]
    out.append((f"draws {pct(d['rate'])} ({d['count']} of {n}, {d['at_round_cap']} at the round cap)", "fg"))
    r = res["rounds"]
    if n:
        out.append((f"rounds: mean {r['mean']:.1f}, median {r['p50']:g}, 10%..90% {r['p10']:g}..{r['p90']:g}", "fg"))
    if res.get("errors"):
        out.append((f"{res['errors']} fights raised (aerie simulate --keep-logs shows them)", "bad"))
    took = f", {o.finished - o.started:.1f} s" if o.finished is not None else ""
    now = win.ctl.session.actions
    if o.stale(now):
        out.append((f"for the state at action {len(o.actions)} (now {len(now)}): I asks again{took}", "accent"))
    else:
        out.append((f"for the state now (action {len(o.actions)}){took}", "dim"))
    return out
