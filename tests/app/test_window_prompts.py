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
from test_window import same_log_as_run as _same_log_as_run

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
        st = app.wait(lambda s: s["question"] is not None and "question" in s["window"]["panels"], 20, "the question")
        q = st["question"]
        assert q["chooser"] == "ines" and q["key"] == "crit" and q["rule"] == "BAT-36" and q["side"] == "party"
        assert [o["value"] for o in q["options"]] == ["damage", "destiny"]
        assert any(r.startswith("test d12 = 12") for r in q["rolled"])
        assert st["actions"] == []                                   # nothing happened yet: the step is atomic
        _prompt_reads_in_baton_terms(st)
        img = _shot(app, tmp_path, "bat36_natural_12.png")
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
        app.show_side("sky")                                         # the players' view of the harpy's side
        _attack(app)
        app.key("r")
        app.xdo("type", "--delay", "40", "attack 15")
        app.key("Return")
        app.wait(lambda s: s["forced"] == {"attack": 15}, 10, "the forced die")
        app.key("Return")
        st = app.wait(lambda s: s["question"] is not None and "question" in s["window"]["panels"], 20, "the question")
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
    root = Path(__file__).resolve().parents[2]
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
        time.sleep(0.5)
        _shot(app, tmp_path, "bat15_gm_line.png")                   # F12 also rewrites the state file
        drawn = " ".join(t[4] for t in app.state()["window"]["texts"])
        assert 'GM: do Ines create_opportunity skill=intimidate effect=stated difficulty=9 text="the brigand drops' in drawn
        app.key("Return")
        st = app.wait(lambda s: len(s["actions"]) == 1, 20, "the stated effect")
        a = st["actions"][0]
        assert a["effect"] == "stated" and a["difficulty"] == 9 and a["text"] == "the brigand drops his axe"
        st = app.idle()
        from test_baton_text import bad_line
        log = [t[4] for t in st["window"]["texts"] if st["window"]["log"]["area"][0] <= t[0]
               and st["window"]["log"]["area"][1] <= t[1] <= st["window"]["log"]["area"][3]]
        assert any("difficulty 9" in t for t in log) and any("drops his axe" in t for t in log), log
        assert not [t for t in log if bad_line(t)], log
        _shot(app, tmp_path, "bat15_stated_effect_log.png")
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


# -- the other baton choices, each asked in the window at the document's moment ---------------------------------
def _shot(app, tmp_path, name):
    """The window's own screenshot (F12) of what it shows now, kept as ``name`` next to the test's files."""
    import shutil
    from pathlib import Path
    img = app.screenshot()
    p = Path(app.state()["window"]["last_screenshot"])
    shutil.copy(p if p.is_absolute() else tmp_path / p, tmp_path / name)
    return img


def _prompt_reads_in_baton_terms(st):
    """The prompt's words: no None, no raw JSON, no 5e term (tests/rules/baton/test_baton_text.py's check)."""
    from test_baton_text import bad_line
    q = st["question"]
    texts = [q["label"], q["question"], *q["rolled"], *(f"{o['label']}: {o['does']}" for o in q["options"])]
    x0, y0, x1, y1 = st["window"]["panels"]["question"]
    texts += [t[4] for t in st["window"]["texts"] if x0 <= t[0] <= x1 and y0 <= t[1] <= y1]   # what was drawn there
    bad = [(t, why) for t in texts if (why := bad_line(t))]
    assert not bad, bad


def _answer(app, st, value):
    i = [o["value"] for o in st["question"]["options"]].index(value)
    app.key(str(i + 1))


def _compose_move(app, to, cm=1.5):
    app.key("space")
    app.wait(lambda s: s["selected"] == s["state"]["current"], 10, "whose turn selected")
    app.key(app.button("move")["hotkey"])
    app.wait(lambda s: s["pending"] and s["pending"]["action"] == "move", 10, "move chosen")
    x, y, layer = to
    for ox, oy in ((0.5, 0.5), (0.5, 0.8), (0.3, 0.5), (0.7, 0.5), (0.5, 0.2)):
        app.click(*app.project(((x + ox) * cm, (y + oy) * cm, float(layer))))
        try:
            return app.wait(lambda s: s["action"] and s["action"].get("to") == list(to), 3, "the destination")
        except AssertionError:
            continue
    raise AssertionError(f"could not pick {to} with the mouse")


def _pass_to_the_brigand(app):
    """Ines passes at once (no test in her major action: the baton is lost, BAT-09) -- the brigand holds it."""
    app.key("space")
    app.wait(lambda s: s["selected"] == "ines", 10, "Ines selected")
    app.key(app.button("pass")["hotkey"])
    app.wait(lambda s: s["action"] is not None and s["action"].get("to") == "b1", 10, "the pass composed")
    app.key("Return")
    app.wait(lambda s: len(s["actions"]) == 1 and s["state"]["current"] == "b1", 20, "the brigand holds the baton")
    app.idle()


BRIGAND_FIRST = BATON


def test_baton_bat14_the_defenders_player_chooses_dodge_or_none(display, tmp_path):
    scene = tmp_path / "yard.toml"
    scene.write_text(BRIGAND_FIRST)
    app = App(display, scene, tmp_path, seed=11)
    try:
        _pass_to_the_brigand(app)
        _attack(app)                                                 # the brigand (the GM's) attacks Ines
        assert app.state()["action"]["target"] == "ines" and "defence" not in app.state()["action"]
        app.key("Return")
        st = app.wait(lambda s: s["question"] is not None and "question" in s["window"]["panels"], 20, "the question")
        q = st["question"]
        assert q["chooser"] == "ines" and q["key"] == "defence" and q["rule"] == "BAT-14" and q["label"] == "Ines (defender)"
        assert [o["value"] for o in q["options"]] == ["dodge", "none"]
        assert q["options"][0]["does"] == "difficulty 9 (dodge)" and q["options"][1]["does"] == "difficulty 7 (none)"
        assert len(st["actions"]) == 1
        _prompt_reads_in_baton_terms(st)
        _shot(app, tmp_path, "bat14_defence.png")
        _answer(app, st, "none")
        st = app.wait(lambda s: len(s["actions"]) == 2 and s["question"] is None, 20, "the attack taken")
        assert st["actions"][1]["defence"] == "none"
        _same_log_as_run(app, tmp_path, scene, 11)
        ev = [json.loads(x) for x in (tmp_path / "run.log").read_text().splitlines()]
        assert [e["difficulty"] for e in ev if e.get("type") == "attack"] == [7]
    finally:
        app.close()


def test_baton_bat38_the_players_character_lets_the_mover_go_or_attacks(display, tmp_path):
    scene = tmp_path / "yard.toml"
    scene.write_text(BRIGAND_FIRST)
    app = App(display, scene, tmp_path, seed=11)
    try:
        _pass_to_the_brigand(app)
        _compose_move(app, [8, 5, 0])                                # the brigand leaves Ines's reach
        assert "declined" not in app.state()["action"]
        app.key("Return")
        st = app.wait(lambda s: s["question"] is not None and "question" in s["window"]["panels"], 20, "the question")
        q = st["question"]
        assert q["chooser"] == "ines" and q["key"] == "declined.ines" and q["rule"] == "BAT-38"
        assert [o["label"] for o in q["options"]] == ["Attack", "Let go"] and q["options"][0]["default"]
        assert q["question"] == "Brigand leaves your reach" and len(st["actions"]) == 1
        _prompt_reads_in_baton_terms(st)
        _shot(app, tmp_path, "bat38_let_go.png")
        _answer(app, st, "let_go")
        st = app.wait(lambda s: len(s["actions"]) == 2 and s["question"] is None, 20, "the move taken")
        assert st["actions"][1]["declined"] == ["ines"] and st["state"]["characters"]["b1"]["position"] == [8, 5, 0]
        _same_log_as_run(app, tmp_path, scene, 11)
        ev = [json.loads(x) for x in (tmp_path / "run.log").read_text().splitlines()]
        assert any(e.get("type") == "declines" and e["who"] == "ines" for e in ev)
        assert not any(e.get("type") == "opportunity_attack" for e in ev)
    finally:
        app.close()


COVER = """
name = "Wall"
ruleset = "baton"
seed = 5
initiative_starts = "ines"

[map]
size = [12, 12, 6]

[[map.fill]]
material = "stone"
from = [6, 0, 0]
to = [6, 6, 3]

[[characters]]
id = "ines"
name = "Ines"
side = "party"
pc = true
at = [2, 2, 0]
attributes = { physique = 2, agility = 2 }
skills = { fight_shortbow = 2 }
weapons = ["shortbow"]

[[characters]]
id = "b1"
name = "Brigand"
side = "brigands"
at = [7, 2, 0]
kind = "brigand"
speed_m = 12.0
"""


def test_baton_bat41_the_players_archer_lets_the_mover_leave_cover(display, tmp_path):
    scene = tmp_path / "wall.toml"
    scene.write_text(COVER)
    app = App(display, scene, tmp_path, seed=5)
    try:
        _pass_to_the_brigand(app)
        _compose_move(app, [7, 8, 0])                                # out from behind the wall
        app.key("Return")
        st = app.wait(lambda s: s["question"] is not None and "question" in s["window"]["panels"], 20, "the question")
        q = st["question"]
        assert q["chooser"] == "ines" and q["key"] == "declined.ines.cover" and q["rule"] == "BAT-41"
        assert q["question"] == "Brigand leaves total cover" and [o["label"] for o in q["options"]] == ["Attack", "Let go"]
        _prompt_reads_in_baton_terms(st)
        _shot(app, tmp_path, "bat41_leave_cover.png")
        _answer(app, st, "let_go")
        st = app.wait(lambda s: len(s["actions"]) == 2 and s["question"] is None, 20, "the move taken")
        assert st["actions"][1]["declined"] == ["ines"]
        _same_log_as_run(app, tmp_path, scene, 5)
        ev = [json.loads(x) for x in (tmp_path / "run.log").read_text().splitlines()]
        assert any(e.get("type") == "declines" and e["rule"] == "BAT-41" for e in ev)
    finally:
        app.close()


FALL = """
name = "Stoop"
ruleset = "baton"
seed = 2
initiative_starts = "aza"

[map]
size = [12, 10, 8]

[[characters]]
id = "aza"
name = "Aza"
side = "sky"
pc = true
kind = "harpy"
flying = true
at = [5, 4, 4]

[[characters]]
id = "b1"
name = "Brigand"
side = "brigands"
at = [5, 5, 0]
kind = "brigand"
"""


def test_baton_bat48_the_faller_keeps_the_attack_total_or_tests_agility(display, tmp_path):
    scene = tmp_path / "stoop.toml"
    scene.write_text(FALL)
    app = App(display, scene, tmp_path, seed=2)
    try:
        app.key("space")
        app.wait(lambda s: s["selected"] == "aza", 10, "Aza selected")
        b = app.button("drop")
        if b["hotkey"]:
            app.key(b["hotkey"])
        else:
            r = next(r for r in app.state()["window"]["buttons"] if r["id"][0] == "action" and r["id"][1] == "drop")
            app.click((r["x0"] + r["x1"]) / 2, (r["y0"] + r["y1"]) / 2)
        app.wait(lambda s: s["pending"] and s["pending"]["action"] == "drop", 10, "drop chosen")
        for _ in range(8):                                           # Tab: the variant with the falling attack
            st = app.idle()
            if st["action"] and st["action"].get("attack") == "b1" and len(st["action"]) == 3:
                break
            app.key("Tab")
        assert st["action"] == {"actor": "aza", "action": "drop", "attack": "b1"}, st["action"]
        app.key("r")
        app.xdo("type", "--delay", "40", "test 9")
        app.key("Return")
        app.wait(lambda s: s["forced"] == {"test": 9}, 10, "the forced die")
        app.key("Return")
        st = app.wait(lambda s: s["question"] is not None and "question" in s["window"]["panels"], 20, "the question")
        q = st["question"]
        assert q["chooser"] == "aza" and q["key"] == "fall_test" and q["rule"] == "BAT-48" and q["label"] == "Aza (falling)"
        assert [o["value"] for o in q["options"]] == ["attack", "agility"] and q["options"][0]["default"]
        assert any(r.startswith("test d12 = 9") for r in q["rolled"]) and st["actions"] == []
        _prompt_reads_in_baton_terms(st)
        _shot(app, tmp_path, "bat48_fall_test.png")
        _answer(app, st, "agility")
        st = app.wait(lambda s: len(s["actions"]) == 1 and s["question"] is None, 20, "the drop taken")
        assert st["actions"][0]["fall_test"] == "agility"
        _same_log_as_run(app, tmp_path, scene, 2)
        ev = [json.loads(x) for x in (tmp_path / "run.log").read_text().splitlines()]
        assert any(e.get("type") == "test" and e.get("skill") == "agility" and e["rule"] == "BAT-47" for e in ev)
    finally:
        app.close()


OPEN = BATON.replace('initiative_starts = "ines"\n', "") + """
[[characters]]
id = "bia"
name = "Bia"
side = "party"
pc = true
at = [3, 7, 0]
attributes = { physique = 1, agility = 3 }
skills = { fight_longsword = 2 }
weapons = ["longsword"]
"""


def test_baton_bat02_the_players_choose_who_opens_the_initiative(display, tmp_path):
    scene = tmp_path / "yard.toml"
    scene.write_text(OPEN)
    app = App(display, scene, tmp_path, seed=11)
    try:
        st = app.wait(lambda s: s["question"] is not None and "question" in s["window"]["panels"], 20, "the table's question at the start")
        q = st["question"]
        assert q["key"] == "to" and q["rule"] == "BAT-02" and q["label"] == "The players" and q["table"]
        assert [o["value"] for o in q["options"]] == ["ines", "bia"] and q["options"][0]["default"]
        assert [o["label"] for o in q["options"]] == ["Ines", "Bia"]
        _prompt_reads_in_baton_terms(st)
        _shot(app, tmp_path, "bat02_open_with.png")
        _answer(app, st, "bia")
        st = app.wait(lambda s: len(s["actions"]) == 1 and s["question"] is None, 20, "the opening handed on")
        assert st["actions"][0] == {"actor": "ines", "action": "open_with", "to": "bia"}
        assert st["state"]["current"] == "bia"
        _same_log_as_run(app, tmp_path, scene, 11)
    finally:
        app.close()


def test_baton_a_gm_line_action_meets_a_players_choice_and_asks_it(display, tmp_path):
    """The GM plays its brigand from the GM line; Ines's resistance is still hers, asked at the attack."""
    scene = tmp_path / "yard.toml"
    scene.write_text(BRIGAND_FIRST)
    app = App(display, scene, tmp_path, seed=11)
    try:
        _pass_to_the_brigand(app)
        app.key("semicolon")
        app.xdo("type", "--delay", "30", "do Brigand attack target=ines")
        app.key("Return")
        st = app.wait(lambda s: s["question"] is not None and "question" in s["window"]["panels"], 20, "the question")
        q = st["question"]
        assert q["chooser"] == "ines" and q["key"] == "defence" and len(st["actions"]) == 1
        assert q["action"] == {"actor": "b1", "action": "attack", "target": "ines"}
        assert "error" not in st["message"]
        _answer(app, st, "dodge")
        st = app.wait(lambda s: len(s["actions"]) == 2 and s["question"] is None, 20, "the attack taken")
        assert st["actions"][1] == {"actor": "b1", "action": "attack", "target": "ines", "defence": "dodge"}
        _same_log_as_run(app, tmp_path, scene, 11)
    finally:
        app.close()


def test_baton_bat15_the_gm_states_an_effect_and_its_difficulty_at_a_prompt(display, tmp_path):
    """E while a create_opportunity is composed: the GM types the effect, then its difficulty; the action is the
    one the GM line (and a script) gives."""
    scene = tmp_path / "yard.toml"
    scene.write_text(BATON)
    app = App(display, scene, tmp_path, seed=11)
    try:
        app.key("space")
        app.wait(lambda s: s["selected"] == "ines", 10, "Ines selected")
        app.key(app.button("create_opportunity")["hotkey"])
        st = app.wait(lambda s: s["action"] is not None and s["action"]["action"] == "create_opportunity", 10, "composed")
        base = st["action"]
        app.key("e")
        st = app.wait(lambda s: s["statement"] is not None, 10, "the GM's prompt")
        assert st["statement"]["prompt"] == "GM states for Ines's create opportunity: the effect of this opportunity (BAT-15)"
        app.xdo("type", "--delay", "30", "the brigand drops his axe")
        time.sleep(0.3)
        _shot(app, tmp_path, "bat15_gm_prompt_effect.png")
        drawn = " ".join(t[4] for t in app.state()["window"]["texts"])
        assert "GM states for Ines's create opportunity: the effect of this opportunity (BAT-15): the brigand drops" in drawn
        app.key("Return")
        st = app.wait(lambda s: s["statement"] and s["statement"]["i"] == 1, 10, "the difficulty asked")
        assert st["statement"]["prompt"].endswith("its difficulty (Enter: 8)") and st["actions"] == []
        app.xdo("type", "--delay", "30", "9")
        time.sleep(0.3)
        _shot(app, tmp_path, "bat15_gm_prompt_difficulty.png")
        app.key("Return")
        st = app.wait(lambda s: len(s["actions"]) == 1 and s["statement"] is None, 20, "the stated effect taken")
        assert st["actions"][0] == {**base, "effect": "stated", "text": "the brigand drops his axe", "difficulty": 9}
        _same_log_as_run(app, tmp_path, scene, 11)
        ev = [json.loads(x) for x in (tmp_path / "run.log").read_text().splitlines()]
        assert [e["difficulty"] for e in ev if e.get("type") == "test"] == [9]
    finally:
        app.close()
