"""A fixed workload of the rules bench (issue 10): the same N steps of the 4 v 4 skirmish (engine/scene/bench.py)
for any checkout, timed in process CPU time, so a before/after pair on a shared machine compares like with like.

    python tools/rules_workload.py [--steps 1500] [--feats]

Each step lists the current actor's legal actions and picks one as ``aerie bench rules`` does
(``bench.random_action``, seed 1; a finished fight restarts with the next seed), then steps it. It prints the CPU
time per step of the listing (with the choice) and of ``Session.step``, and the whole loop in actions per CPU
second. It uses only what the rules bench has always had (``skirmish_scene``, ``random_action``, ``Session``), so the
same file runs in an older checkout: ``cd OLD && .venv/bin/python /path/to/tools/rules_workload.py``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))       # the checkout this runs in, not necessarily the file's own


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=1500, help="steps to play (default 1500)")
    ap.add_argument("--feats", action="store_true", help="every character takes the bench's 14 combat feats")
    args = ap.parse_args(argv)
    from engine.scene import bench
    from engine.rules.session import Session

    scene = bench.skirmish_scene(args.feats) if args.feats else bench.skirmish_scene()
    rng = random.Random(1)
    seed = 1
    s = Session(scene, seed)
    listing = stepping = 0.0
    c0 = time.process_time()
    for _ in range(args.steps):
        if s.state.over or s.state.round > 30:
            seed += 1
            s = Session(scene, seed)
        t0 = time.process_time()
        act = bench.random_action(s, rng)
        t1 = time.process_time()
        s.step(act)
        t2 = time.process_time()
        listing += t1 - t0
        stepping += t2 - t1
    cpu = time.process_time() - c0
    n = args.steps
    print(f"rules workload ({n} steps{', feats' if args.feats else ''}): listing {listing / n * 1e3:.3f} ms, "
          f"step {stepping / n * 1e3:.3f} ms of CPU a step; whole loop {n / cpu:,.0f} actions per CPU second")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
