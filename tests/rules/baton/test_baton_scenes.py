"""The baton demo scenes play through `aerie run` with exit 0; the JSON state carries Life, Vigor, Protection and
wounds; forced rolls by name reach the dice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.rules.runner import play
from engine.scene import load_scene

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[3]
SCENES = sorted((ROOT / "scenes").glob("baton_*.toml"))


def test_there_are_baton_demo_scenes():
    names = {p.stem for p in SCENES}
    assert {"baton_passing", "baton_wounds", "baton_skyfall"} <= names


@pytest.mark.parametrize("path", SCENES, ids=lambda p: p.stem)
def test_baton_scene_plays_with_every_expectation(path):
    scene = load_scene(path)
    assert scene.ruleset == "baton"
    s, problems = play(scene)
    assert problems == []
    assert scene.spec.expect, "a demo scene checks what it shows"


@pytest.mark.parametrize("path", SCENES, ids=lambda p: p.stem)
def test_aerie_run_readable_log(aerie, path):
    r = aerie("run", path.relative_to(ROOT))
    assert r.returncode == 0, r.stderr[-2000:]
    assert "Traceback" not in r.stderr


def test_aerie_run_json_state_for_baton(aerie):
    r = aerie("run", "scenes/baton_wounds.toml", "--json")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in r.stdout.splitlines() if x.strip()]
    state = [x for x in lines if x.get("type") == "state"][-1]
    bea = state["characters"]["bea"]
    assert (bea["hp"], bea["max_hp"]) == (6, 12)                 # Life
    assert bea["protection"] == 9 and bea["vigor"] == 5 and bea["max_vigor"] == 6   # rested at Life 5
    assert [w["severity"] for w in bea["wounds"]] == [3, 3]
    forced = [x for x in lines if x.get("type") == "roll" and x.get("forced")]
    assert {x["name"] for x in forced} >= {"test", "damage"}


def test_aerie_run_forced_fall_roll(aerie):
    r = aerie("run", "scenes/baton_skyfall.toml", "--json")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in r.stdout.splitlines() if x.strip()]
    assert any(x.get("type") == "roll" and x["name"] == "fall" and x["forced"] and x["result"] == 10 for x in lines)
