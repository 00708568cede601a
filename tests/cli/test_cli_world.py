"""`aerie check`, `aerie query` and `aerie bench los` as a user runs them."""

import json

import pytest

pytestmark = pytest.mark.unit


def test_query_json_has_the_contract_fields(aerie):
    r = aerie("query", "scenes/showcase.toml", "--from", "ground_archer", "--to", "wall_archer", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    for key in ("distance_m", "layers_apart", "engaged", "visible", "blocked_fraction", "cover"):
        assert key in out
    # the showcase's archer behind the 1 m wall: half cover from the ground (AIR-14)...
    assert out["cover"] == "half" and out["visible"] and not out["engaged"]
    assert out["layers_apart"] == 0
    # ...and none from the harpy high above
    r = aerie("query", "scenes/showcase.toml", "--from", "harpy_high", "--to", "wall_archer", "--json")
    sky = json.loads(r.stdout)
    assert sky["cover"] == "none" and sky["layers_apart"] == 9


def test_query_text_names_the_rules(aerie):
    r = aerie("query", "scenes/showcase.toml", "--from", "harpy_low", "--to", "knight")
    assert r.returncode == 0
    for rule in ("AIR-03", "AIR-04", "AIR-13", "AIR-16", "DND-32"):
        assert rule in r.stdout


def test_check_ok(aerie):
    r = aerie("check", "scenes/showcase.toml")
    assert r.returncode == 0 and "ok" in r.stdout


@pytest.mark.slow
def test_bench_los_runs(aerie):
    r = aerie("bench", "los", "--quick", "--rays", "5000")
    assert r.returncode == 0, r.stderr
    assert "rays/s" in r.stdout and "trimesh" in r.stdout and "ratio" in r.stdout and "cover query" in r.stdout
