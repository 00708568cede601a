"""SPL-02 in the real window under Xvfb (issue 39): the GM knocks a flying player character out with the table's
``hp`` (``;hp Wren 0``); she falls, and the player of the cleric within 18 m -- the player who decides the reaction --
is asked at that moment whether to cast Feather Fall (the prompt names the cleric; the players' view, showing the town's side, passes to hers). Yes: Wren
floats down with no fall damage, the screen comes back, the GM's action holds the answer, and the saved log is ``aerie run``'s of the same
actions byte for byte (engine/rules/choices.py)."""

from __future__ import annotations

import pytest

from test_window import App, display  # noqa: F401  (the display fixture)
from test_window import same_log_as_run

pytestmark = [pytest.mark.window, pytest.mark.slow]

SCENE = """
name = "Feather Fall at the belfry"
ruleset = "dnd5e"
seed = 5

[options]
spell_names = "srd"

[map]
size = [16, 16, 24]

[[characters]]
id = "g"
name = "Guard"
kind = "guard"
side = "town"
at = [14, 14, 0]
initiative = 20

[[characters]]
id = "c"
name = "Ada"
kind = "mage"
side = "party"
pc = true
at = [4, 4, 0]
spells = ["feather-fall"]
level = 9
initiative = 15

[[characters]]
id = "wren"
name = "Wren"
kind = "scout"
side = "party"
pc = true
fly_speed_m = 12
flying = true
at = [6, 4, 10]
initiative = 10
"""


def test_spl02_the_casters_player_is_asked_when_the_gm_drops_a_flyer(display, tmp_path):
    scene = tmp_path / "belfry.toml"
    scene.write_text(SCENE)
    app = App(display, scene, tmp_path, seed=5)
    try:
        app.show_side("town")                                   # the players' view shows the town's side
        app.key("semicolon")
        app.xdo("type", "--delay", "30", "hp Wren 0")
        app.key("Return")
        st = app.wait(lambda s: s["question"] is not None, 20, "the Feather Fall question")
        q = st["question"]
        assert q["chooser"] == "c" and q["key"] == "reactions.c.feather_fall" and q["rule"] == "SPL-02"
        assert "Wren falls" in q["question"] and q["options"][0]["does"] == "cast Feather Fall (SPL-02)"
        assert st["actions"] == [] and st["window"]["player_side"] == "party"
        app.key("1")                                                     # Ada casts it
        st = app.wait(lambda s: len(s["actions"]) == 1 and s["question"] is None, 20, "the GM's action taken")
        act = st["actions"][0]
        assert act["action"] == "gm_set" and act["reactions"] == {"c": {"feather_fall": True}}
        chars = st["state"]["characters"]
        assert chars["wren"]["position"][2] == 0 and chars["wren"]["hp"] == 0         # down 10 layers, floated
        assert chars["c"]["data"]["spell_slots"]["1"] == 3
        assert st["window"]["player_side"] == "town"                    # the screen comes back
        same_log_as_run(app, tmp_path, scene, 5)
    finally:
        app.close()
