"""The players' choices as prompts in the real window under Xvfb (xdotool input): the question comes at the moment the
rules make the choice, on the choosing character's behalf (named, with its side; the players' view passes to that
side), and the log holds one ordinary action with the answers as parameters -- byte for byte ``aerie run`` of the
same actions (engine/rules/choices.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from test_window import App, display, region_has  # noqa: F401  (the display fixture)

pytestmark = [pytest.mark.window, pytest.mark.slow]

BATON = """
name = "Yard"
ruleset = "baton"
seed = 11
initiative_starts = "ines"

[map]
size = [12, 10, 6]

[[characters]]
id = "ines"
name = "Ines"
side = "party"
pc = true
at = [4, 5, 0]
attributes = { physique = 2, agility = 2 }
skills = { fight_longsword = 3, dodge = 2 }
weapons = ["longsword"]

[[characters]]
id = "b1"
name = "Brigand"
side = "brigands"
at = [5, 5, 0]
kind = "brigand"
"""

FIVE = """
name = "Harpy and knight"
ruleset = "dnd5e"
seed = 3

[map]
size = [12, 12, 8]

[[characters]]
id = "harpy"
name = "Harpy"
kind = "harpy"
side = "sky"
at = [5, 4, 1]
flying = true
initiative = 20

[[characters]]
id = "odo"
name = "Sir Odo"
kind = "knight"
side = "ground"
at = [5, 5, 0]
feats = ["lucky"]
initiative = 10
"""


def _same_log_as_run(app, tmp_path, scene, seed):
    st = app.idle()
    app.key("ctrl+s")
    log = tmp_path / "game.save.log.jsonl"
    app.wait(lambda s: "saved" in s["message"][0] and log.exists(), 20, "the save")
    time.sleep(0.3)
    acts = tmp_path / "acts.json"
    acts.write_text(json.dumps(st["actions"]))
    r = subprocess.run([sys.executable, "-m", "engine", "run", str(scene), "--seed", str(seed), "--actions", str(acts),
                        "--log", str(tmp_path / "run.log")], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert log.read_bytes() == (tmp_path / "run.log").read_bytes()
    return st


def _attack(app):
    app.key("space")
    app.wait(lambda s: s["selected"] == s["state"]["current"], 10, "whose turn selected")
    app.key(app.button("attack")["hotkey"])
    app.wait(lambda s: s["action"] is not None and s["action"].get("target"), 10, "the attack composed")


def test_baton_natural_12_prompt_damage_or_destiny(display, tmp_path):
    scene = tmp_path / "yard.toml"
    scene.write_text(BATON)
    app = App(display, scene, tmp_path, seed=11)
    try:
        st = app.state()
        bar = " ".join(t[4] for t in st["window"]["texts"] if t[1] < 10)             # the top bar's texts
        assert "turn 1: the party side has the initiative, Ines holds the baton" in bar and "round" not in bar
        _attack(app)
        app.key("r")
        app.xdo("type", "--delay", "40", "test 12")
        app.key("Return")
        app.wait(lambda s: s["forced"] == {"test": 12}, 10, "the forced die")
        app.key("Return")
        st = app.wait(lambda s: s["question"] is not None, 20, "the question")
        q = st["question"]
        assert q["chooser"] == "ines" and q["key"] == "crit" and q["rule"] == "BAT-36" and q["side"] == "party"
        assert [o["value"] for o in q["options"]] == ["damage", "destiny"]
        assert any(r.startswith("test d12 = 12") for r in q["rolled"])
        assert st["actions"] == []                                   # nothing happened yet: the step is atomic
        img = app.screenshot()
        x0, y0, x1, y1 = st["window"]["panels"]["question"]
        assert region_has(img, x0 - 2, y0 - 2, x1 + 2, y0 + 1, (200, 170, 80), tol=30, min_px=20)   # the prompt's frame
        app.key("2")                                                 # Destiny
        st = app.wait(lambda s: len(s["actions"]) == 1 and s["question"] is None, 20, "the attack taken")
        assert st["actions"][0]["crit"] == "destiny" and st["state"]["data"]["destiny"]["party"] == 1
        _same_log_as_run(app, tmp_path, scene, 11)
    finally:
        app.close()


def test_5e_reaction_prompt_for_the_defender_and_the_hot_seat(display, tmp_path):
    scene = tmp_path / "harpy.toml"
    scene.write_text(FIVE)
    app = App(display, scene, tmp_path, seed=3)
    try:
        for _ in range(3):                                           # the players' view of the harpy's side
            if app.state()["window"]["player_side"] == "sky":
                break
            app.key("F3")
        assert app.state()["window"]["player_side"] == "sky"
        _attack(app)
        app.key("r")
        app.xdo("type", "--delay", "40", "attack 15")
        app.key("Return")
        app.wait(lambda s: s["forced"] == {"attack": 15}, 10, "the forced die")
        app.key("Return")
        st = app.wait(lambda s: s["question"] is not None, 20, "the question")
        q = st["question"]
        assert q["chooser"] == "odo" and q["key"] == "reactions.odo.lucky" and q["rule"] == "DND-F32"
        assert q["label"] == "Sir Odo (reaction)" and "15 hits you" in q["question"]
        assert st["window"]["player_side"] == "ground"                  # the screen passed to the chooser's side
        assert [o["value"] for o in q["options"]] == [True, False] and q["options"][1]["default"]
        app.key("1")                                                     # spend the luck point
        st = app.wait(lambda s: len(s["actions"]) == 1 and s["question"] is None, 20, "the attack taken")
        assert st["actions"][0]["reactions"] == {"odo": {"lucky": True}}
        assert st["window"]["player_side"] == "sky"                      # and back
        assert st["state"]["characters"]["odo"]["data"]["luck"] == 2
        _same_log_as_run(app, tmp_path, scene, 3)
    finally:
        app.close()


def test_capture_composes_a_baton_pass_to_a_character(display, tmp_path):
    import os
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    out = tmp_path / "pass.png"
    env = dict(os.environ, DISPLAY=display)
    r = subprocess.run([sys.executable, "-m", "engine.app.capture", str(root / "scenes" / "baton_passing.toml"),
                        "--compose", '{"action": "pass", "to": "tome"}', "-o", str(out)], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert out.exists() and out.stat().st_size > 10_000


def test_baton_gm_states_an_effect_from_the_command_line(display, tmp_path):
    scene = tmp_path / "yard.toml"
    scene.write_text(BATON)
    app = App(display, scene, tmp_path, seed=11)
    try:
        app.key("semicolon")
        app.xdo("type", "--delay", "30", 'do Ines create_opportunity skill=intimidate effect=stated difficulty=9 '
                'text="the brigand drops his axe"')
        app.key("Return")
        st = app.wait(lambda s: len(s["actions"]) == 1, 20, "the stated effect")
        a = st["actions"][0]
        assert a["effect"] == "stated" and a["difficulty"] == 9 and a["text"] == "the brigand drops his axe"
        _same_log_as_run(app, tmp_path, scene, 11)
    finally:
        app.close()


def test_5e_flyer_toggles_not_staying_aloft_and_falls(display, tmp_path):
    scene = tmp_path / "harpy.toml"
    scene.write_text(FIVE)
    app = App(display, scene, tmp_path, seed=3)
    try:
        app.key("space")
        app.key(app.button("end_turn")["hotkey"])
        st = app.wait(lambda s: s["action"] is not None, 10, "end turn composed")
        for _ in range(3):
            if st["action"].get("stay_aloft") is False:
                break
            app.key("Tab")
            st = app.idle()
        assert st["action"].get("stay_aloft") is False
        st = app.wait(lambda s: any("falls 1 layer(s) (AIR-10)" in t[4] for t in s["window"]["texts"]), 20, "the note")
        app.key("Return")
        st = app.wait(lambda s: len(s["actions"]) == 1, 20, "the turn ended")
        assert st["state"]["characters"]["harpy"]["flying"] is False and st["state"]["characters"]["harpy"]["position"][2] == 0
        _same_log_as_run(app, tmp_path, scene, 3)
    finally:
        app.close()
