import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_aerie(*args, cwd=None, timeout=300):
    """Run the real CLI in a subprocess; returns CompletedProcess with text output."""
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-m", "engine", *map(str, args)], cwd=cwd or ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def aerie():
    return run_aerie
