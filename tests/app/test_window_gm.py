"""The GM's tools in the real window under Xvfb, driven with X input (xdotool): GM commands and a drag (recorded
``gm_*`` actions, undoable), the 3D ruler, HP bars and condition icons, the player view, area templates, the
dice roller, greyed actions with their reason, the open picker -- and a 20-action session through the window whose
event log is byte for byte ``aerie run``'s on the same actions."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_window import SCENE, App, display, same_log_as_run  # noqa: F401  (the display fixture)
from test_window_table import gm

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.window, pytest.mark.slow]


@pytest.fixture
def duel(tmp_path):
    p = tmp_path / "duel.toml"
    p.write_text(SCENE)
    return p


def test_gm_edits_drag_ruler_bars_greyed_and_picker(display, duel, tmp_path):
    from engine.rules.session import Session
    from engine.world.geometry import distance_m
    from engine.scene import load_scene

    (tmp_path / "other.toml").write_text(SCENE.replace('name = "Wall duel"', 'name = "Second duel"'))
    app = App(display, duel, tmp_path)
    try:
        st = app.idle()
        tok = st["window"]["tokens"]
        assert tok["kite"]["bars"] == [["HP", 24, 24]] and tok["brann"]["bars"] == [["HP", 30, 30]]
        # GM edits: HP, a condition, then undo the condition
        gm(app, "hp Brann 12")
        st = app.wait(lambda s: s["state"]["characters"]["brann"]["hp"] == 12, 20, "the GM's HP edit")
        assert st["actions"][-1] == {"actor": "gm", "action": "gm_set", "target": "brann", "key": "hp", "value": 12}
        st = app.wait(lambda s: s["window"]["tokens"]["brann"]["bars"] == [["HP", 12, 30]], 10, "the bar follows")
        gm(app, "cond brann +prone")
        st = app.wait(lambda s: "prone" in s["state"]["characters"]["brann"]["conditions"], 20, "prone by the GM")
        st = app.wait(lambda s: s["window"]["tokens"]["brann"]["tags"] == ["PRO"], 10, "the condition icon")
        gm(app, "hp brann 99")                                  # refused: one clear line, nothing changes
        st = app.wait(lambda s: s["message"][1] == "error", 10, "the refusal")
        assert "0..30" in st["message"][0] and len(st["actions"]) == 2
        app.key("ctrl+z")
        st = app.wait(lambda s: "prone" not in s["state"]["characters"]["brann"]["conditions"], 20, "undone")
        assert len(st["actions"]) == 1 and st["state"]["characters"]["brann"]["hp"] == 12
        # GM drag: Alt + drag Brann two cells east (a recorded gm_place)
        st = app.idle()
        bx, by = st["window"]["screen"]["brann"][:2]
        tx, ty = app.project(((9 + 0.5) * 1.5, (9 + 0.5) * 1.5, 0.0))
        app.move(bx, by)
        app.xdo("keydown", "alt")
        app.xdo("mousedown", "1")
        for k in range(1, 6):
            app.move(bx + (tx - bx) * k / 5, by + (ty - by) * k / 5)
        app.xdo("mouseup", "1")
        app.xdo("keyup", "alt")
        st = app.wait(lambda s: s["actions"][-1]["action"] == "gm_place", 20, "the GM's drag")
        to = st["actions"][-1]["to"]
        assert st["state"]["characters"]["brann"]["position"] == to and abs(to[0] - 9) <= 1 and abs(to[1] - 9) <= 1
        # the ruler: Kite to Brann, straight with height (AIR-03) and the cheapest path (AIR-07)
        app.key("u")
        st = app.idle()
        kx, ky = st["window"]["screen"]["kite"][:2]
        bx, by = st["window"]["screen"]["brann"][:2]
        app.click(kx, ky)
        app.click(bx, by)
        st = app.wait(lambda s: s["window"]["ruler"] and isinstance(s["window"]["ruler"].get("path"), dict), 30, "the ruler")
        sess = Session(load_scene(str(duel)), 3)
        for a in st["actions"]:
            sess.step(a)
        k, b = sess.state.actors["kite"], sess.state.actors["brann"]
        r = st["window"]["ruler"]
        assert abs(r["straight_m"] - round(distance_m(k.body(), b.body(), 1.5), 2)) < 1e-6
        assert r["layers"] == b.layer - k.layer and r["mover"] == "kite"
        assert r["path"]["reachable"] and r["path"]["cost_m"] >= 1.5 * 4
        assert any("m straight" in t[4] for t in st["window"]["texts"])
        assert len(st["actions"]) == 2, "the ruler is not an action"
        app.key("u")
        # greyed actions, with the core's reason on a click
        st = app.idle()
        grey = {g["action"]: g["reason"] for g in st["window"]["greyed"]}
        assert grey and all(grey.values())
        rect = next(b for b in st["window"]["buttons"] if b["id"][0] == "greyed")
        app.click((rect["x0"] + rect["x1"]) / 2, (rect["y0"] + rect["y1"]) / 2)
        st = app.wait(lambda s: "not now" in s["message"][0], 10, "the greyed action's reason")
        assert grey[rect["id"][1]] in st["message"][0]
        # the picker opens another scene, after asking about the GM's two actions
        app.key("ctrl+o")
        st = app.wait(lambda s: s["window"]["chooser"] is not None, 10, "the picker")
        paths = st["window"]["chooser"]["paths"]
        i = next(j for j, p in enumerate(paths) if p.endswith("other.toml"))
        for _ in range(i):
            app.key("Down")
        app.key("Return")
        st = app.wait(lambda s: s["window"]["prompt"] is not None, 10, "the unsaved-work prompt")
        assert "2 unsaved action(s)" in st["window"]["prompt"]
        app.key("y")
        st = app.wait(lambda s: s["actions"] == [] and any("Second duel" in t[4] for t in s["window"]["texts"]), 30,
                      "the other scene open")
    finally:
        app.close()


def test_player_view_and_area_templates(display, tmp_path):
    from engine.rules.session import Session
    from engine.world.cover import sample_points
    from engine.scene import load_scene

    scene = ROOT / "scenes" / "showcase.toml"
    app = App(display, scene, tmp_path, seed=7)
    try:
        st = app.idle()
        # the GM puts Sir Aldric in the far corner, behind the houses: out of every blue character's sight
        gm(app, "place knight 60 60 0")
        st = app.wait(lambda s: s["state"]["characters"]["knight"]["position"] == [60, 60, 0], 20, "the knight moved")
        sess = Session(load_scene(str(scene)), 7)
        for a in st["actions"]:
            sess.step(a)
        acts = sess.state.actors
        sides = list(dict.fromkeys(a.side for a in acts.values()))
        def sees_of(side):
            want = {a.id for a in acts.values() if a.side == side}
            for b in acts.values():
                if b.side != side and any(sess.ruleset.sees(sess, a, b) for a in acts.values() if a.side == side and not a.dead):
                    want.add(b.id)
            return want

        assert sides == ["red", "blue"]
        for side in sides:                        # F3: red's view, then blue's
            app.key("F3")
            st = app.wait(lambda s, side=side: s["window"]["player_side"] == side, 10, f"{side}'s view")
            want = sees_of(side)
            assert set(st["window"]["visible"]) == want
            st = app.idle()
            assert set(st["window"]["tokens"]) <= want, "a hidden character is drawn in the player view"
            rows = " ".join(st["window"]["hud_turn"])
            for a in acts.values():
                if a.id not in want:
                    assert a.name.split(" (")[0] not in rows
        assert "knight" not in want, "the knight in the corner was meant to be out of blue's sight"
        app.key("F3")
        st = app.wait(lambda s: s["window"]["player_side"] is None, 10, "the GM's view")
        # area templates: a sphere at the cursor, then a cone from the selected character
        app.key("y")
        st = app.idle()
        gx, gy = st["window"]["screen"]["ground_archer"][:2]
        app.move(gx + 30, gy)
        st = app.wait(lambda s: s["window"]["template"] and s["window"]["inside"] is not None and s["hover"], 10, "a sphere")
        cm = 1.5
        hx, hy, hz = st["hover"]
        import numpy as np
        centre = np.array([(hx + 0.5) * cm, (hy + 0.5) * cm, hz + 0.5])
        inside = sorted(a.id for a in acts.values() if not a.dead and
                        (np.linalg.norm(sample_points(a.body()) * [cm, cm, 1] - centre, axis=1) <= 6.0).any())
        assert sorted(st["window"]["inside"]) == inside and "ground_archer" in inside
        assert any("sphere 6 m" in t[4] for t in st["window"]["texts"])
        for shape in ("cone", "line", "cube"):
            app.key("y")
            app.wait(lambda s, shape=shape: s["window"]["template"]["shape"] == shape, 10, shape)
        app.key("y")
        app.wait(lambda s: s["window"]["template"] is None, 10, "templates off")
    finally:
        app.close()


SESSION20 = [
    ";roll 2d6+3 wind", ";hp brann 20", ";cond brann +prone", ";cond brann -prone", "END",
    ";place kite 7 3 3", ";add kite2 like kite at 3 3 4 fly", ";order kite2 before kite", "END", "END",
    ";roll d20", "RULER", ";temp brann 5", "END", ";remove kite2", "END", ";hp kite 10", ";roll 3d8-2", "END",
    ";cond kite +poisoned", "END",
]


def test_twenty_actions_through_the_window_give_aerie_runs_log(display, duel, tmp_path):
    app = App(display, duel, tmp_path)
    try:
        app.idle()
        n = 0
        for step in SESSION20:
            if step == "RULER":                 # measured, not recorded
                app.key("u")
                st = app.idle()
                a, b = st["window"]["screen"]["kite"][:2], st["window"]["screen"]["brann"][:2]
                app.click(*a)
                app.click(*b)
                app.wait(lambda s: s["window"]["ruler"] and isinstance(s["window"]["ruler"].get("path"), dict), 30, "ruler")
                app.key("u")
                continue
            if step == "END":
                st = app.idle()
                app.key("space")
                app.wait(lambda s: s["selected"] == s["state"]["current"], 10, "whose turn selected")
                app.key(app.button("end_turn")["hotkey"])
                app.key("Return")
            else:
                gm(app, step[1:])
            # a creature added during a fight: gm_add, then its initiative rolled and its place (issue 40 item 7)
            n += 3 if step.startswith(";add") else 1
            app.wait(lambda s, n=n: len(s["actions"]) == n, 20, f"action {n}: {step}")
        st = app.idle()
        assert len(st["actions"]) == 22
        assert sum(a["actor"] == "gm" for a in st["actions"]) == 15
        same_log_as_run(app, tmp_path, duel, 3)
    finally:
        app.close()
