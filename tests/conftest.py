import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Test-only rulesets (tests/*_ruleset.py, each declaring RULESET) are registered the way any add-on ruleset is:
# named in AERIE_RULESETS, importable from PYTHONPATH -- for this process and the CLI subprocesses alike.
_TEST_RULESETS = sorted(p.stem for p in Path(__file__).parent.glob("*_ruleset.py"))
os.environ["AERIE_RULESETS"] = ",".join(filter(None, [os.environ.get("AERIE_RULESETS", "")] + _TEST_RULESETS))
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")]))


def run_aerie(*args, cwd=None, timeout=300):
    """Run the real CLI in a subprocess; returns CompletedProcess with text output."""
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-m", "engine", *map(str, args)], cwd=cwd or ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def aerie():
    return run_aerie
