"""Property-based fuzzing (Hypothesis) of ``aerie import``: real-shaped Foundry scenes (v9, v10+, v14 levels,
storeys, Levels flags) and Universal VTT maps, each with hostile values put in at random places (wrong types,
NaN and infinities, huge and negative numbers, keys taken away, lists where tables go and the reverse).

The promise of docs/reliability.md: ``aerie import`` exits 0 with a scene that ``aerie check`` accepts, or exits 2
with one line that names the file; never a traceback, and a refused import leaves no output behind (an existing
scene byte for byte). ``make test`` runs the ``ci`` profile of tests/fuzz/test_fuzz.py's settings.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_interop import foundry_scene, map_image, uvtt

pytestmark = pytest.mark.unit

settings.register_profile("import-ci", max_examples=int(os.environ.get("AERIE_FUZZ_EXAMPLES", 60)),
                          derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck))
settings.register_profile("import-fuzz", max_examples=int(os.environ.get("AERIE_FUZZ_EXAMPLES", 5_000)),
                          deadline=None, database=None, suppress_health_check=list(HealthCheck))
PROFILE = "import-fuzz" if os.environ.get("AERIE_FUZZ") else "import-ci"

HOSTILE = [None, "", "x", "10", "nan", True, False, 0, -1, -1e9, 1e300, 0.5, 2**63, float("nan"), float("inf"),
           float("-inf"), [], [0], [1, 2, 3, 4], {}, {"x": 1}, {"top": "a"}, "data:image/png;base64,AAAA",
           "../../etc/passwd", "nowhere.webp",
           1e308, -1e308, 1e-300, 1, "a" * 300]     # a tile or grid at a float's edges, a 1 px grid, a name over 255


def _levels_scene() -> dict:
    """v14: two scene levels with backgrounds, walls tied to levels, Levels flags, holes and stairs."""
    d = foundry_scene(core="14.351", levels=[
        {"_id": "ground00000000000", "name": "Ground", "elevation": {"bottom": 0, "top": 10},
         "background": {"src": "keep.webp"}},
        {"_id": "upper000000000000", "name": "Upper", "elevation": {"bottom": 10, "top": 20},
         "background": {"src": "keep.webp"}}])
    d["walls"].append({"c": [400, 300, 400, 900], "move": 20, "sight": 20, "door": 2, "ds": 2,
                       "levels": ["upper000000000000"], "flags": {"wallHeight": {"wallHeightTop": 20}}})
    d["drawings"] = [{"x": 500, "y": 400, "shape": {"width": 200, "height": 100},
                      "flags": {"levels": {"drawingMode": 1, "rangeBottom": 10, "rangeTop": 20}}},
                     {"x": 700, "y": 400, "shape": {"width": 100, "height": 100},
                      "flags": {"levels": {"drawingMode": 2, "rangeBottom": 0, "rangeTop": 10}}}]
    d["tiles"] = [{"x": 300, "y": 200, "width": 500, "height": 400, "img": "keep.webp",
                   "flags": {"levels": {"rangeBottom": 10, "rangeTop": 20}}}]
    return d


def _v9_scene() -> dict:
    d = foundry_scene()
    d["grid"], d["gridDistance"], d["gridUnits"], d["gridType"] = 100, 5, "ft", 1
    d["img"] = d.pop("background")["src"]
    for w in d["walls"]:
        w["sense"] = w.pop("sight")
    return d


DOCS = {"foundry": foundry_scene, "foundry-v14": _levels_scene, "foundry-v9": _v9_scene, "uvtt": uvtt,
        "uvtt-0.2": lambda: {k: v for k, v in uvtt(fmt=0.2).items() if k != "objects_line_of_sight"}}


def _paths(doc, here=()):
    """Every place in the document: (path to it, its value)."""
    yield here, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, here + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, here + (i,))


@st.composite
def hostile_map(draw):
    name = draw(st.sampled_from(sorted(DOCS)))
    doc = DOCS[name]()
    for _ in range(draw(st.integers(1, 4))):
        places = [p for p, _ in _paths(doc) if p]
        path = draw(st.sampled_from(places))
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        how = draw(st.integers(0, 9))
        if how == 0 and isinstance(parent, dict):
            del parent[path[-1]]                                    # a key taken away
        elif how == 1:                                              # a part of it where another part goes
            parent[path[-1]] = copy.deepcopy(draw(st.sampled_from([v for _, v in _paths(doc)][1:])))
        else:
            parent[path[-1]] = copy.deepcopy(draw(st.sampled_from(HOSTILE) | st.integers(-10**6, 10**6)
                                                  | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=4)))
    return name, doc


@settings.get_profile(PROFILE)
@given(hostile_map())
def test_fuzz_import(tmp_path_factory, case):
    from engine.cli import main
    from engine.scene import load_scene

    name, doc = case
    tmp = tmp_path_factory.mktemp("imp")
    (tmp / "keep.webp").write_bytes(_IMAGE)
    src = tmp / ("map.dd2vtt" if name.startswith("uvtt") else "fvtt-Scene.json")
    src.write_text(json.dumps(doc, allow_nan=True))
    out = tmp / "scene.toml"
    out.write_text("OLD\n")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = main(["import", str(src), "-o", str(out)])
    lines = [ln for ln in err.getvalue().splitlines() if not ln.startswith("warning: ")]
    assert rc in (0, 2), (rc, err.getvalue())
    if rc == 2:
        assert len(lines) == 1 and src.name in lines[0], err.getvalue()
        assert out.read_text() == "OLD\n"                           # refused: the old scene is untouched
        assert sorted(p.name for p in tmp.iterdir()) == sorted(["keep.webp", src.name, "scene.toml"])
    else:
        assert not lines, err.getvalue()
        load_scene(out)                                             # what was written is a whole, valid scene


_IMAGE = map_image(100, 80, "WEBP")


def _import(tmp_path, doc, name="fvtt-Scene.json"):
    from engine.cli import main

    (tmp_path / "keep.webp").write_bytes(_IMAGE)
    src = tmp_path / name
    src.write_text(json.dumps(doc))
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = main(["import", str(src), "-o", str(tmp_path / "scene.toml")])
    return rc, err.getvalue()


def _set(doc, path, value):
    *head, last = path
    for k in head:
        doc = doc[k]
    doc[last] = value


@pytest.mark.parametrize("path, value, says", [
    (("tokens",), 1000, "tokens: must be a list, not int"),
    (("drawings",), {"x": 1}, "drawings: must be a list, not dict"),
    (("tokens", 2, "disposition"), [{"top": 1}], "tokens[2].disposition: [{'top': 1}] is not a disposition"),
    (("tokens", 1, "flags", "aerie", "kind"), None, "tokens[1].flags.aerie.kind: is null"),
])
def test_the_fuzzers_finds_are_one_line_each(tmp_path, path, value, says):
    """Found by test_fuzz_import: each was a traceback (TypeError) before."""
    doc = foundry_scene()
    _set(doc, path, value)
    rc, err = _import(tmp_path, doc)
    assert rc == 2 and len(err.strip().splitlines()) == 1 and says in err, err
    assert not (tmp_path / "scene.toml").exists()


def test_a_wall_above_the_maps_top_layer_is_left_out_with_a_note(tmp_path):
    """A wall whose bottom lies above the 256 layers a map may have: left out and said (a numpy error before)."""
    doc = foundry_scene()
    doc["walls"][3]["flags"] = {"wall-height": {"bottom": 5000, "top": 6000}}      # the closed door, 1.5 km up
    rc, err = _import(tmp_path, doc)
    assert rc == 0, err
    text = (tmp_path / "scene.toml").read_text()
    assert "walls[3]: door from 1500 m is above the map's" in text
