"""DND-F32 l. 253 in the real window under Xvfb: the attacker's player spends a luck point, then the target's player
is asked whether to spend one too; both points cancel, no luck die is rolled, and the saved log is ``aerie run``'s
of the same actions (engine/rules/choices.py, as the baton choices)."""

from __future__ import annotations

import json

import pytest

from test_window import App, display  # noqa: F401  (the display fixture)
from test_window import same_log_as_run
from test_window_prompts import FIVE, _attack

pytestmark = [pytest.mark.window, pytest.mark.slow]


def test_dnd_f32_luck_cancels_asked_in_the_window(display, tmp_path):
    scene = tmp_path / "harpy.toml"
    scene.write_text(FIVE.replace('flying = true\n', 'flying = true\npc = true\nfeats = ["lucky"]\n', 1))
    app = App(display, scene, tmp_path, seed=3)
    try:
        app.show_side("sky")
        _attack(app)
        app.key("r")
        app.xdo("type", "--delay", "40", "attack 15")
        app.key("Return")
        app.wait(lambda s: s["forced"] == {"attack": 15}, 10, "the forced die")
        app.key("Return")
        st = app.wait(lambda s: s["question"] is not None, 20, "the attacker's question")
        q = st["question"]
        assert q["chooser"] == "harpy" and q["key"] == "lucky" and q["rule"] == "DND-F32"
        app.key("1")                                                     # the harpy spends a point
        st = app.wait(lambda s: s["question"] is not None and s["question"]["chooser"] == "odo", 20, "the target's question")
        q = st["question"]
        assert q["key"] == "reactions.odo.lucky" and q["rule"] == "DND-F32" and "cancel" in json.dumps(q["options"][0])
        assert st["window"]["player_side"] == "ground" and st["actions"] == []
        app.key("1")                                                     # Sir Odo spends one too: they cancel
        st = app.wait(lambda s: len(s["actions"]) == 1 and s["question"] is None, 20, "the attack taken")
        act = st["actions"][0]
        assert act["lucky"] is True and act["reactions"] == {"odo": {"lucky": True}}
        chars = st["state"]["characters"]
        assert chars["odo"]["data"]["luck"] == 2 and chars["harpy"]["data"]["luck"] == 2
        same_log_as_run(app, tmp_path, scene, 3)
    finally:
        app.close()
