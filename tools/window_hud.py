"""The HUD scenario of ``aerie bench window`` alone (a message said and the HUD rebuilt every frame over a still 3D
view), three rounds of 300 frames, printing each round's median wall time and mean process CPU of a drawn frame.
Short enough to alternate two checkouts many times in one run, where a single ``aerie bench window`` swings 10-25%:

    for t in A B B A A B; do (cd $t && PYTHONPATH=$PWD xvfb-run -a -s "-screen 0 1600x900x24" \\
        python /path/to/tools/window_hud.py $t); done

It uses only ``engine.app.bench._Bench`` and the window's ``ctl.say``, ``changed`` and ``frames``, so it runs
unchanged in older trees (docs/performance.md, issue 40)."""

from __future__ import annotations

import statistics
import sys
import time
import types


def main(label: str) -> int:
    from engine.app.bench import _Bench

    b = _Bench(types.SimpleNamespace(quick=False, seed=None))
    win = b.win
    rounds = []
    for _r in range(3):
        walls, cpus = [], []
        for i in range(300):
            win.ctl.say(f"message {i}")
            win.changed()
            f0 = win.frames
            t, c = time.perf_counter(), time.process_time()
            b.frame()
            if win.frames > f0:             # only the frames that drew (as the bench's "drawn frames")
                walls.append(time.perf_counter() - t)
                cpus.append(time.process_time() - c)
        rounds.append((statistics.median(walls), statistics.mean(cpus), len(walls)))
    print(label, " ".join(f"wall {w * 1000:.2f} cpu {c * 1000:.2f} n {n}" for w, c, n in rounds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1] if len(sys.argv) > 1 else "tree"))
