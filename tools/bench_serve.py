"""The GM's window's frame time with 8 players' pages connected against none (issue 41), on ``aerie bench window``'s
set-up (engine/app/bench.py: the showcase at 1280 x 720, every overlay on, an attack composed), the camera orbiting
every frame and an end of turn every 30 frames (so each side's view is made and pushed to every page).

    xvfb-run -a -s "-screen 0 1600x900x24" .venv/bin/python tools/bench_serve.py [--quick]

Rounds interleave: no server / the server with no page / the server with 8 pages (in a process of their own, as
browsers on other machines would be), each the median of its drawn frames; the best of the rounds is reported."""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PAGES = r"""
import asyncio, json, sys, aiohttp
urls = sys.argv[1:]
counts = [0] * len(urls)
async def page(i, url):
    async with aiohttp.ClientSession() as s:
        ws = await s.ws_connect(url)
        async for m in ws:
            counts[i] += 1
async def main():
    await asyncio.gather(*(page(i, u) for i, u in enumerate(urls)))
try:
    asyncio.run(main())
except KeyboardInterrupt:
    pass
"""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--pages", type=int, default=8)
    args = ap.parse_args()
    from engine.app.bench import _Bench

    b = _Bench(argparse.Namespace(quick=args.quick, seed=None))
    win, ctl = b.win, b.ctl
    b.full_res(True)

    def before(i):
        b.orbit(i)
        if i % 30 == 29 and ctl.session.current:
            win.do(ctl.step, {"actor": ctl.session.current, "action": "end_turn"})

    def med(res) -> tuple[float, float]:
        """(median, mean) of the drawn frames: the mean carries the frames that made and pushed the views."""
        return (statistics.median(res[0]), statistics.fmean(res[0])) if res[0] else (float("nan"), float("nan"))

    from engine.serve.window import start
    rounds = 1 if args.quick else 5
    b.n = 60 if args.quick else 150
    import io

    import pyglet

    server = start(win, "127.0.0.1:0", out=io.StringIO())
    win.serve_qr = False                  # the join codes hidden (F6), as while the GM plays
    table = win.serve_table
    urls = []
    sides = table.sides
    for i in range(args.pages):
        side = sides[i % len(sides)]
        tok = next(t for t, s in table.tokens.items() if s == side)
        urls.append(f"http://127.0.0.1:{server.port}/ws?token={tok}")
    names = ["no server (the table's tick unscheduled)", "server, no page", f"server, {args.pages} pages"]
    out: dict[str, list[tuple[float, float]]] = {k: [] for k in names}
    sent = 0
    for _ in range(rounds):              # interleaved: a burst of load elsewhere on the machine hits one round
        pyglet.clock.unschedule(win.serve_tick)
        out[names[0]].append(med(b.measure(before)))
        pyglet.clock.schedule_interval(win.serve_tick, 1 / 60.0)
        out[names[1]].append(med(b.measure(before)))
        proc = subprocess.Popen([sys.executable, "-c", PAGES, *urls])
        t0 = time.time()
        while sum(len(c) for c in server.conns.values()) < args.pages and time.time() - t0 < 30:
            b.frame()
        sent0 = server.sent
        out[names[2]].append(med(b.measure(before)))
        sent = server.sent - sent0
        proc.terminate()
        proc.wait(10)
        t0 = time.time()
        while sum(len(c) for c in server.conns.values()) and time.time() - t0 < 10:
            b.frame()
    server.stop()
    base = min(m for m, _a in out[names[0]])
    base_mean = min(a for _m, a in out[names[0]])
    print(f"window 1280x720, showcase, every overlay, orbit every frame, an end of turn every 30 frames; "
          f"{b.n} frames a round, {rounds} round(s); GL: {win.rc.info.get('GL_RENDERER')}")
    for k, v in out.items():
        best, mean = min(m for m, _a in v), min(a for _m, a in v)
        print(f"{k}: drawn frames median {best * 1000:.1f} ms, mean {mean * 1000:.1f} ms (best of rounds; medians "
              f"{', '.join(f'{m * 1000:.1f}' for m, _a in v)} ms); {best / base:.3f} x no server (median), "
              f"{mean / base_mean:.3f} x (mean)")
    print(f"updates pushed to the pages in the last round: {sent}")
    win.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
