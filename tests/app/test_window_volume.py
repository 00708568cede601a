"""The 3D view of the threat volume in the real window under Xvfb (xdotool key presses): J shows cubes in place at
the cells the selected character could reach this turn, J again at every cell its enemies could attack, J again the
safe cells, J again nothing; the cells it
counted are the CPU engine's (engine.world.volumes) for the same enemies, and it is recomputed after an action
like the cover and threat overlays, which are up in the frame after the action."""

from __future__ import annotations

import numpy as np
import pytest

from test_window import SCENE, App, display  # noqa: F401  (the display fixture)

pytestmark = [pytest.mark.window, pytest.mark.slow]

# the wall duel with a tall stone block near Kite: the cells behind it are safe from Brann's shortbow
BLOCK = """
[[map.fill]]
material = "stone"
from = [10, 3, 0]
to = [12, 5, 7]

[[characters]]"""
DUEL = SCENE.replace("\n[[characters]]", BLOCK, 1)


def _cpu_counts(scene_path, side):
    """Exposed and safe cells for ``side`` from the numpy engine (threat_counts_cpu), the scene's thresholds."""
    from engine.render import rules_bridge
    from engine.render.volume_cli import threat_inputs
    from engine.rules.registry import cover_levels
    from engine.scene import load_scene
    from engine.world.volumes import NO_ATTACK, NO_BODY, N_SAMPLES, free_cells, level_table, threat_counts_cpu

    scene = load_scene(scene_path)
    session = rules_bridge.new_session(scene)
    enemies = [(places, w) for _a, places, w in threat_inputs(session, side, False)]
    per = threat_counts_cpu(scene.world, enemies)
    levels = level_table(None, scene.spec.options.get("cover_thresholds") or cover_levels(scene.ruleset))
    first_total = next(k for k in range(N_SAMPLES + 1) if levels[k] == levels[-1])
    count = ((per != NO_BODY) & (per != NO_ATTACK) & (per < first_total)).sum(axis=0)
    free = free_cells(scene.world)
    return int(((count > 0) & free).sum()), int(((count == 0) & free).sum())


def test_j_shows_the_threat_volume_in_place_and_follows_actions(display, tmp_path):
    scene = tmp_path / "duel.toml"
    scene.write_text(DUEL)
    exposed, safe = _cpu_counts(scene, "blue")
    assert exposed > 0 and safe > 0
    app = App(display, scene, tmp_path)
    try:
        st = app.idle()
        assert st["selected"] == "kite"
        plain = app.screenshot()
        app.key("j")                    # J's first view: the cells Kite could reach this turn (issue 40 item 10)
        st = app.wait(lambda s: s["window"]["maps"]["drawn"].get("volume") ==
                      [s["window"]["maps"]["state_version"], "kite", "reach"], 30, "the cells in reach drawn")
        info = st["window"]["maps"]["volume"]
        assert info["safe"] + info["exposed"] == info["cells"] > 0, info
        app.key("j")
        st = app.wait(lambda s: s["window"]["maps"]["drawn"].get("volume") ==
                      [s["window"]["maps"]["state_version"], "kite", "exposed"], 30, "the exposed cells drawn")
        assert st["window"]["overlays"]["volume"] and "3D threat view" in st["message"][0]
        info = st["window"]["maps"]["volume"]
        assert info["cells"] == exposed, (info, exposed)
        assert 0 < info["drawn"] <= info["cells"]
        img = app.screenshot()
        changed = (np.abs(img.astype(int) - plain.astype(int)).max(axis=2) > 40).sum()
        assert changed > 3000, f"the cubes changed only {changed} pixels"
        # the threat colours (1 enemy: yellow, lit between 0.55 and 1.2 times): warm pixels, far more than before
        def warm(a):
            a = a.astype(int)
            return int(((a[..., 0] > 120) & (a[..., 1] > 0.55 * a[..., 0]) & (a[..., 2] < 0.5 * a[..., 1])).sum())
        assert warm(img) > warm(plain) + 1000
        app.key("j")
        st = app.wait(lambda s: s["window"]["maps"]["drawn"].get("volume", [None] * 3)[2] == "safe", 30,
                      "the safe cells drawn")
        assert st["window"]["maps"]["volume"]["cells"] == safe
        # an action: the volume of the new state is drawn, the cover and threat maps in the frame after it
        app.key("c", "b")
        st = app.wait(lambda s: s["window"]["maps"]["drawn"].get("threat", [None])[0] ==
                      s["window"]["maps"]["state_version"], 30, "the cover and threat maps")
        sv = st["window"]["maps"]["state_version"]
        app.key(app.button("end_turn")["hotkey"])
        app.wait(lambda s: s["action"] == {"action": "end_turn", "actor": "kite"}, 10, "end turn composed")
        app.key("Return")
        st = app.wait(lambda s: s["window"]["maps"]["state_version"] != sv and
                      s["window"]["maps"]["drawn"].get("volume", [None])[0] == s["window"]["maps"]["state_version"],
                      30, "the volume after the end of the turn")
        d = st["window"]["maps"]["drawn"]
        assert d["cover"][0] == d["threat"][0] == st["window"]["maps"]["state_version"]
        app.key("j")
        st = app.wait(lambda s: not s["window"]["overlays"]["volume"], 10, "the 3D view off")
        assert "off" in st["message"][0]
    finally:
        app.close()
