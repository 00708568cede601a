"""Write tests/slow.txt from an AERIE_CPU_REPORT file: the pure tests whose call took more than a quarter of a second of CPU
(its own and its subprocesses'). tests/conftest.py marks them ``slow``, so `make check` keeps to a minute; `make
test` still runs every one of them.

    AERIE_CPU_REPORT=out/cpu.jsonl pytest -q -n auto -m "unit"   # or `make slow-list`, which does both steps
    python tools/slow_list.py out/cpu.jsonl
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

LIMIT_S = 0.25
OUT = Path(__file__).resolve().parents[1] / "tests" / "slow.txt"


def main(report: str) -> int:
    cpu: dict[str, float] = {}
    for line in Path(report).read_text().splitlines():
        r = json.loads(line)
        cpu[r["test"]] = max(cpu.get(r["test"], 0.0), r["own"] + r["children"])
    slow = sorted(t for t, s in cpu.items() if s > LIMIT_S)
    head = (f"# Pure tests whose call took over {LIMIT_S} s of CPU (tools/slow_list.py from an AERIE_CPU_REPORT run):\n"
            f"# tests/conftest.py marks them slow, so `make check` skips them; `make test` runs them. {len(slow)} of "
            f"{len(cpu)} measured.\n")
    tmp = OUT.with_suffix(".tmp")
    tmp.write_text(head + "".join(t + "\n" for t in slow))
    tmp.replace(OUT)
    print(f"{OUT}: {len(slow)} of {len(cpu)} tests over {LIMIT_S} s of CPU, "
          f"{sum(cpu[t] for t in slow):.0f} of {sum(cpu.values()):.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
