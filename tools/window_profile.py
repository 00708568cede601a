"""cProfile of the real window's frames: ``tools/window_cpu.py``'s set-up (the showcase, every overlay but the
volume, an attack composed), 20 frames of a kind to warm up, then 60 profiled; the stats are written to a file.

    PYTHONPATH=$PWD xvfb-run -a -s "-screen 0 1600x900x24" python /path/to/tools/window_profile.py orbit out.prof

Run it from two checkouts (it reads window_cpu.py beside itself, so it runs unchanged in older trees) and compare the
call counts and the Python side of a frame (everything but moderngl's ``render`` and pyglet's ``flip``, where
llvmpipe draws): the call counts do not depend on the machine's load (docs/performance.md, issue 40)."""

from __future__ import annotations

import sys
from pathlib import Path


def main(kind: str, out: str) -> int:
    if kind not in ("orbit", "hud"):
        print(f"window_profile: the kind is orbit or hud, not {kind!r}", file=sys.stderr)
        return 2
    src = Path(__file__).with_name("window_cpu.py").read_text(encoding="utf-8")
    probe = (f"    import cProfile\n    pr = cProfile.Profile()\n    {kind}(20)\n    pr.enable()\n    {kind}(60)\n"
             f"    pr.disable()\n    pr.dump_stats({out!r})\n    return 0\n    out = []\n")
    assert "    out = []\n" in src, "window_cpu.py changed: the probe has no place"
    ns: dict = {"__name__": "window_profile"}
    exec(compile(src.replace("    out = []\n", probe, 1), "window_cpu.py", "exec"), ns)
    return ns["main"]()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: window_profile.py orbit|hud OUT.prof", file=sys.stderr)
        raise SystemExit(2)
    raise SystemExit(main(sys.argv[1], sys.argv[2]))
