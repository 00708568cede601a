"""Property-based fuzzing (Hypothesis) of ``aerie import`` on creatures: real Foundry VTT actors of both item
formats and 5e-database monsters (tests/interop/data) with hostile values put in at random places (wrong types,
NaN and infinities, huge and negative numbers, keys taken away, one part where another goes).

The promise: exit 0 with a stat-block library whose every block plays in a 5e scene, or exit 2 with one line that
names the file, nothing written (an existing library byte for byte); never a traceback.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.unit

settings.register_profile("creatures-ci", max_examples=int(os.environ.get("AERIE_FUZZ_EXAMPLES", 80)),
                          derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck))
settings.register_profile("creatures-fuzz", max_examples=int(os.environ.get("AERIE_FUZZ_EXAMPLES", 5_000)),
                          deadline=None, database=None, suppress_health_check=list(HealthCheck))
PROFILE = "creatures-fuzz" if os.environ.get("AERIE_FUZZ") else "creatures-ci"

DATA = Path(__file__).resolve().parents[1] / "interop" / "data"
DOCS = {p.name: json.loads(p.read_text()) for p in sorted(DATA.glob("*.json"))}
HOSTILE = [None, "", "x", "10", "nan", True, False, 0, -1, -1e9, 1e300, 0.5, 2**63, float("nan"), float("inf"),
           float("-inf"), [], [0], {}, {"x": 1}, "a" * 300, "2d6 + @mod", "1d0", "999d999", "npc", "Large",
           {"value": -5}, [["2d10 + @mod", "piercing"]], "<p>[[/save]]</p>", "Recharge 5-6"]


def _paths(doc, here=()):
    yield here, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, here + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, here + (i,))


@st.composite
def hostile_creature(draw):
    name = draw(st.sampled_from(sorted(DOCS)))
    doc = copy.deepcopy(DOCS[name])
    for _ in range(draw(st.integers(1, 4))):
        places = [p for p, _ in _paths(doc) if p]
        path = draw(st.sampled_from(places))
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        how = draw(st.integers(0, 9))
        if how == 0 and isinstance(parent, dict):
            del parent[path[-1]]
        elif how == 1:
            parent[path[-1]] = copy.deepcopy(draw(st.sampled_from([v for _, v in _paths(doc)][1:])))
        else:
            parent[path[-1]] = copy.deepcopy(draw(st.sampled_from(HOSTILE) | st.integers(-10**6, 10**6)
                                                  | st.floats(allow_nan=True, allow_infinity=True)
                                                  | st.text(max_size=6)))
    return name, doc


@settings.get_profile(PROFILE)
@given(hostile_creature())
def test_fuzz_import_creatures(tmp_path_factory, case):
    from engine.cli import main
    from engine.rules.session import Session
    from engine.scene import load_scene

    name, doc = case
    tmp = tmp_path_factory.mktemp("imp")
    src = tmp / name
    src.write_text(json.dumps(doc, allow_nan=True))
    out = tmp / "creatures.toml"
    out.write_text("OLD\n")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = main(["import", str(src), "-o", str(out)])
    lines = [ln for ln in err.getvalue().splitlines() if not ln.startswith("warning: ")]
    assert rc in (0, 2), (rc, err.getvalue())
    if rc == 2:
        assert len(lines) == 1 and src.name in lines[0], err.getvalue()
        assert out.read_text() == "OLD\n"
        assert sorted(p.name for p in tmp.iterdir()) == sorted([src.name, "creatures.toml"])
        return
    assert not lines, err.getvalue()
    lib = tomllib.loads(out.read_text())
    for bid in lib:                   # every block written plays in a scene
        (tmp / "s.toml").write_text(
            'name = "t"\nruleset = "dnd5e"\nstatblocks = ["creatures.toml"]\n[map]\nsize = [24, 24, 16]\n'
            f'[[characters]]\nid = "c"\nkind = "{bid}"\nat = [1, 1, 0]\nside = "a"\n'
            '[[characters]]\nid = "e"\nkind = "archer"\nat = [20, 20, 0]\nside = "b"\n')
        Session(load_scene(tmp / "s.toml"), 1)
