"""`aerie simulate --ray`: a real Ray head on 127.0.0.1 with two worker CPUs (``ray start --head --block``, stopped
at the end with everything it started); the rows must equal the local pool's, also when a worker dies mid-run."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.sim.fight import fight_seed

ray = pytest.importorskip("ray")
pytestmark = [pytest.mark.unit, pytest.mark.slow]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory):
    port = _free_port()
    ray_bin = Path(sys.executable).with_name("ray")
    # A loopback cluster of the test's own: no token authentication, whatever ~/.ray/auth_token a previous Ray
    # left (with a token file there, Ray >= 2.5x turns token mode on by itself, and a head and a client started
    # apart may disagree); the CLI subprocesses inherit the same setting.
    saved = os.environ.get("RAY_AUTH_MODE")
    os.environ["RAY_AUTH_MODE"] = "disabled"
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    log = open(tmp_path_factory.mktemp("ray") / "head.log", "w")
    head = subprocess.Popen([str(ray_bin), "start", "--head", "--block", f"--port={port}", "--num-cpus=2",
                             "--include-dashboard=false", "--node-ip-address=127.0.0.1", "--disable-usage-stats"],
                            stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        t0 = time.monotonic()
        while time.monotonic() - t0 < 90:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if head.poll() is not None:
                    pytest.fail(f"ray start exited with {head.returncode}")
                time.sleep(0.5)
        else:
            pytest.fail("the Ray head did not come up in 90 s")
        time.sleep(2)                      # the raylet registers after the GCS listens
        yield f"127.0.0.1:{port}"
    finally:                               # stop the head and every process it started (its own session)
        try:
            os.killpg(head.pid, signal.SIGTERM)
            head.wait(timeout=8)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
        try:
            os.killpg(head.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        log.close()
        if saved is None:
            os.environ.pop("RAY_AUTH_MODE", None)
        else:
            os.environ["RAY_AUTH_MODE"] = saved


ARGS = ["simulate", "showcase", "--runs", "6", "--seed", "4", "--policy", "blue=aggressive"]


def test_rows_on_ray_equal_the_local_pools(aerie, tmp_path, ray_head):
    local, on_ray = tmp_path / "local.csv", tmp_path / "ray.csv"
    r = aerie(*ARGS, "--workers", "2", "-o", local)
    assert r.returncode == 0, r.stderr
    r = aerie(*ARGS, "--ray", ray_head, "-o", on_ray)
    assert r.returncode == 0, r.stderr
    assert on_ray.read_bytes() == local.read_bytes()


def test_a_worker_killed_mid_run_loses_and_doubles_nothing(aerie, tmp_path, ray_head):
    marker = tmp_path / "killed"
    f = tmp_path / "dies_once.py"
    f.write_text("import os\nfrom engine.sim.policies import aggressive\n"
                 "def dies_once(session, actor, rng):\n"
                 f"    if session.seed == {fight_seed(4, 3)} and session.state.round == 3 and not os.path.exists({str(marker)!r}):\n"
                 f"        open({str(marker)!r}, 'w').close()\n"
                 "        os._exit(1)             # the worker process dies in the middle of its batch\n"
                 "    return aggressive(session, actor, rng)\n")
    local, on_ray = tmp_path / "local.csv", tmp_path / "ray.csv"
    r = aerie(*ARGS, "--workers", "1", "-o", local)
    assert r.returncode == 0, r.stderr
    r = aerie(*ARGS[:-1], f"blue={f}:dies_once", "--ray", ray_head, "-o", on_ray)
    assert r.returncode == 0, r.stderr
    assert marker.exists()                 # a worker did die
    assert on_ray.read_bytes() == local.read_bytes()
