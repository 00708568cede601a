"""The test-only third ruleset (tests/support/pawns_ruleset.py) works everywhere a shipped one does -- the runner, `aerie
query`, a headless render, the registry's cover levels -- with no edit to any shared file (issue 10). The API
test (tests/rules/test_ruleset_api.py) runs on it too, since it is registered."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.rules import registry
from engine.rules.core import Illegal
from engine.rules.session import Session
from engine.rules.runner import describe, play
from engine.scene import parse_scene

SCENE = """
name = "pawn yard"
ruleset = "pawns"
seed = 3
[options]
rolls = { initiative = [6, 1, 1] }
[map]
size = [10, 8, 8]
fill = [{ material = "stone", from = [5, 0, 0], to = [5, 7, 1] }]
[[characters]]
id = "a"
side = "red"
at = [3, 3, 0]
quickness = 1
[[characters]]
id = "b"
side = "blue"
at = [4, 3, 0]
hp = 2
[[characters]]
id = "kite"
side = "blue"
at = [8, 4, 3]
flying = true
fly_speed_m = 9
[[script]]
actor = "a"
action = "strike"
target = "b"
rolls = { attack = 6 }
[[script]]
actor = "a"
action = "strike"
target = "b"
illegal = "PWN-2"
[[script]]
actor = "a"
action = "end_turn"
[[expect]]
after = 1
character = "b"
hp = 0
dead = true
[[expect]]
after = 3
current = "kite"
"""


@pytest.fixture
def scene_file(tmp_path):
    p = tmp_path / "pawns.toml"
    p.write_text(SCENE)
    return p


@pytest.mark.unit
def test_it_is_registered_like_any_ruleset():
    assert "pawns" in registry.names()
    info = registry.info("pawns")
    assert info.ruleset_class().__module__ == "pawns_ruleset"


@pytest.mark.unit
def test_own_initiative_attack_damage_and_condition():
    s = Session(parse_scene(SCENE, "<pawns>"), 3)
    assert s.state.order == ["a", "b", "kite"]            # PWN-1: d6 + quickness, forced 6+1, 1, 1
    evs = s.step({"actor": "a", "action": "strike", "target": "b", "rolls": {"attack": 6}}).log
    assert [e["type"] for e in evs if e["type"] in ("strike", "damage", "death")] == ["strike", "damage", "death"]
    s = Session(parse_scene(SCENE.replace("hp = 2", "hp = 5"), "<pawns>"), 3)
    s.step({"actor": "a", "action": "strike", "target": "b", "rolls": {"attack": 6}})
    assert s.state.actors["b"].has("dazed") and s.state.actors["b"].hp == 3
    s.step({"actor": "a", "action": "end_turn"})
    with pytest.raises(Illegal) as e:                      # dazed: speed 0 (the condition's tag)
        s.step({"actor": "b", "action": "move", "to": [4, 4, 0]})
    assert e.value.rule == "PWN-4"
    s.step({"actor": "b", "action": "end_turn"})
    assert not s.state.actors["b"].has("dazed")           # until the end of its next turn


@pytest.mark.unit
def test_the_runner_plays_and_describes_it():
    sc = parse_scene(SCENE, "<pawns>")
    lines = []
    session, problems = play(sc, on_events=lambda s, evs: lines.extend(filter(None, (describe(s, e) for e in evs))))
    assert problems == []
    text = "\n".join(lines)
    assert "a strikes b: d6 6 needs 4: hit [PWN-3]" in text
    assert "b takes 2 blow damage [PWN-3]" in text and "b DIES" in text


@pytest.mark.unit
def test_cli_run_query_and_render(aerie, scene_file, tmp_path):
    r = aerie("run", scene_file)
    assert r.returncode == 0, r.stderr
    assert "strikes" in r.stdout
    r = aerie("query", scene_file, "--from", "a", "--to", "kite", "--json")
    assert r.returncode == 0, r.stderr
    q = json.loads(r.stdout)
    assert q["ruleset"] == "pawns" and q["cover"] in ("clear", "screened", "total")   # its own cover levels
    r = aerie("query", scene_file, "--from", "a", "--to", "kite")
    assert r.returncode == 0 and "(PWN-3; thresholds" in r.stdout


@pytest.mark.gl
def test_headless_render(aerie, scene_file, tmp_path):
    from PIL import Image

    out = tmp_path / "p.png"
    r = aerie("render", scene_file, "-o", out, "--size", "160x96", "--step", "1")
    assert r.returncode == 0, r.stderr
    img = np.asarray(Image.open(out))
    assert img.shape == (96, 160, 3) and img.std() > 10
