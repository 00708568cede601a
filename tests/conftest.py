import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

TESTS = Path(__file__).resolve().parent
SUPPORT = TESTS / "support"

# The tests' own helpers (tests/support: scene builders, the test-only rulesets) are top-level modules, and a test
# module may import another's helpers by name (``from test_window import App``): every test folder is on the path,
# so a file's imports do not depend on which folders pytest happened to collect first (test file names are unique).
for _d in [SUPPORT, *sorted(p for p in TESTS.rglob("*") if p.is_dir() and p.name not in ("__pycache__",)
                            and "data" not in p.relative_to(TESTS).parts)]:
    if str(_d) not in sys.path:
        sys.path.insert(1, str(_d))

# Test-only rulesets (tests/support/*_ruleset.py, each declaring RULESET) are registered the way any add-on ruleset
# is: named in AERIE_RULESETS, importable from PYTHONPATH -- for this process and the CLI subprocesses alike.
_TEST_RULESETS = sorted(p.stem for p in SUPPORT.glob("*_ruleset.py"))
os.environ["AERIE_RULESETS"] = ",".join(filter(None, [os.environ.get("AERIE_RULESETS", "")] + _TEST_RULESETS))
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SUPPORT), os.environ.get("PYTHONPATH", "")]))


def _starts_processes(args: list[str]) -> bool:
    """Whether the command starts a window, a server, Ray or a pool of worker processes: those run in a fresh
    interpreter (a fork server's child is no place to start Ray; tests/support/zygote.py)."""
    cmd = args[0] if args else ""
    if cmd in ("play", "serve", "window") or "--ray" in args:
        return True
    return cmd == "simulate" and not any(a == "--workers" and b == "1" for a, b in zip(args, args[1:]))


def run_aerie(*args, cwd=None, timeout=300, fresh=False):
    """Run the real CLI in a process of its own; returns CompletedProcess with text output. The process is forked from
    a server that has the CLI's modules imported (tests/support/zygote.py) unless ``fresh`` (a fresh interpreter:
    for two runs compared within one test, which must not share a hash seed), the command starts servers or worker
    pools, or AERIE_TEST_FRESH=1."""
    argv = [sys.executable, "-m", "engine", *map(str, args)]
    env = dict(os.environ)
    if not (fresh or env.get("AERIE_TEST_FRESH") == "1" or _starts_processes(argv[3:])):
        from zygote_client import forked_run

        r = forked_run(argv, cwd=str(cwd or ROOT), env=env, timeout=timeout)
        if r is not None:
            return r
    return subprocess.run(argv, cwd=cwd or ROOT, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def aerie():
    return run_aerie


# Every test is in exactly one tier (tests/README.md): ``unit`` (pure Python and numpy), ``gl`` (a headless EGL
# context) or ``window`` (a real X display under Xvfb); ``slow`` is added to any of them. `make check` runs the pure
# tier only, so a test that carries no tier would silently fall out of one tier or another: `make test` (which runs
# every test) fails it.
TIERS = ("unit", "gl", "window")


def _tiers(item) -> list[str]:
    return [t for t in TIERS if item.get_closest_marker(t) is not None]


def pytest_runtest_setup(item):
    # a failure of the test itself (not a collection error: under pytest-xdist that only says "no active workers")
    tiers = _tiers(item)
    if len(tiers) != 1:
        pytest.fail(f"{item.nodeid} carries {', '.join(tiers) or 'no tier'}: each test carries exactly one of the "
                    "markers unit, gl, window (tests/README.md)", pytrace=False)


#: tests/slow.txt: the pure tests measured at over a quarter of a second of CPU (tools/slow_list.py): marked ``slow`` here, so
#: `make check` keeps to a minute on two cores; `make test` runs them all the same
SLOW_LIST = TESTS / "slow.txt"


def pytest_collection_modifyitems(config, items):
    listed = {ln.strip() for ln in SLOW_LIST.read_text().splitlines() if ln.strip() and not ln.startswith("#")} \
        if SLOW_LIST.exists() and os.environ.get("AERIE_SLOW_LIST") != "off" else set()
    for item in items:
        if item.nodeid in listed:
            item.add_marker(pytest.mark.slow)


# AERIE_CPU_REPORT=FILE: each test's CPU seconds, its own and its reaped subprocesses' (Xvfb windows, CLI runs),
# one JSON line per test -- what `make test`'s wall time is made of, on a shared machine where wall times are noise.
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    path = os.environ.get("AERIE_CPU_REPORT")
    if not path:
        yield
        return
    import json
    import resource

    def cpu():
        s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return s.ru_utime + s.ru_stime, c.ru_utime + c.ru_stime

    own0, kids0 = cpu()
    yield
    own1, kids1 = cpu()
    with open(path, "a") as f:
        f.write(json.dumps({"test": item.nodeid, "own": round(own1 - own0, 3), "children": round(kids1 - kids0, 3)})
                + "\n")
