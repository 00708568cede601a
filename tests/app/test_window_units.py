"""Issue 23 item 8: distances in feet as an option (Ctrl+U, ``aerie play --units ft``, capture ``--units ft``):
every distance on screen -- the ruler, a move's cost and the movement left, the hovered cell, the template --
in feet (the 5e grid: 1.5 m = 5 ft), display only (the rules and the log's events stay metric)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gl_render import headless, renderer_for
from test_window import display  # noqa: F401  (the display fixture)
from test_window_modes import FakeWin

from engine import units as U

ROOT = Path(__file__).resolve().parents[2]
METRES = re.compile(r"(?<![\w.])\d+(?:\.\d+)? m\b")


@pytest.mark.unit
def test_feet_are_the_5e_grid_and_idempotent():
    assert U.show("movement left: 9 m (AIR-09: fly speed 12 m)", "ft") == "movement left: 30 ft (AIR-09: fly speed 40 ft)"
    assert U.show("21.5 m straight, 1.5 m wide", "ft") == "71.7 ft straight, 5 ft wide"
    assert U.show("sphere 6 m radius", "ft") == "sphere 20 ft radius"
    assert U.show(U.show("path 18 m", "ft"), "ft") == "path 60 ft"
    assert U.show("path 18 m", "m") == "path 18 m"
    assert U.show("12 ms, 3 mm, room 5 max, v1.5 m", "ft") == "12 ms, 3 mm, room 5 max, v1.5 m"
    assert U.parse("feet") == "ft" and U.parse("m") == "m"
    with pytest.raises(ValueError):
        U.parse("cubits")


@pytest.mark.unit
def test_ctrl_u_toggles_feet_in_the_view_state_and_f1_lists_it():
    from pyglet.window import key

    from engine.app.hud import Hud
    from engine.app.modes.main import LOOKUP, help_rows

    win = FakeWin()
    assert win.vstate.units == "m"
    v0 = win.vstate.version
    win.key(key.U, key.MOD_CTRL)
    assert win.vstate.units == "ft" and win.vstate.version > v0 and "feet" in win.said[-1]
    assert "Ctrl+U" in [r[0] for r in help_rows()] and LOOKUP[(key.U, True)].label == "Ctrl+U"
    hud = Hud.__new__(Hud)                   # the text path without GL: what a HUD shows
    hud.view = win.vstate
    assert hud.shown("ruler: 9 m") == "ruler: 30 ft"
    win.key(key.U, key.MOD_CTRL)
    assert win.vstate.units == "m" and hud.shown("ruler: 9 m") == "ruler: 9 m"


def _capture(display, tmp_path, units):
    st = tmp_path / f"state_{units}.json"
    env = dict(os.environ, DISPLAY=display, AERIE_TEST_STATE=str(st), AERIE_SAVE=str(tmp_path / "g.save.json"),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, "-m", "engine.app.capture", str(ROOT / "scenes" / "showcase.toml"),
                        "--units", units, "--ruler", "harpy_low,lookout", "--select", "harpy_low",
                        "--compose", '{"action": "move", "to": [20, 24, 3]}', "--template", "sphere:6",
                        "--hover", "25,31,0", "--overlay", "grid", "--layer", "3", "-o", str(tmp_path / f"{units}.png")],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(st.read_text())


@pytest.mark.window
def test_every_distance_on_screen_in_feet_and_the_rules_stay_metric(display, tmp_path):  # noqa: F811
    ft, m = _capture(display, tmp_path, "ft"), _capture(display, tmp_path, "m")
    texts = [t[4] for t in ft["window"]["texts"]]
    assert not [t for t in texts if METRES.search(t)], [t for t in texts if METRES.search(t)]
    joined = " ".join(texts)
    assert "71.7 ft straight" in joined, joined            # the ruler: 21.5 m
    assert re.search(r"movement left: \d+(\.\d)? ft", joined), joined
    assert "20 ft radius" in joined, joined                 # the template: a 6 m sphere
    tags = ft["window"]["tags"]                              # the 3D tags over the scene (the token layer's)
    assert "layer 3 (10 ft)" in tags and not [t for t in tags if METRES.search(t)], tags
    assert "layer 3 (3 m)" in m["window"]["tags"], m["window"]["tags"]
    assert any(METRES.search(t[4]) for t in m["window"]["texts"])       # the same screen in metres has them
    # display only: the rules' figures are the same metres either way
    assert ft["preview"] == m["preview"] and ft["state"] == m["state"] and ft["window"]["ruler"] == m["window"]["ruler"]


@pytest.mark.unit
def test_the_renderers_own_labels_and_hud_lines_are_shown_in_feet_as_view_data():
    """The 3D labels the renderer draws itself (``aerie render``'s overlays: "reach 1.5 m", the grid's layer, the
    movement column's "L3: 3 m") stayed in metres with the option on: the unit is now view data
    (``DrawOptions.units``) and the texts go through the HUD's one conversion (engine/units.py)."""
    from engine.render import overlays as ov
    from engine.render.camera import Camera
    from engine.render.renderer import DrawOptions
    from engine.render.state import RenderState
    from engine.scene import load_scene

    scene = load_scene(str(ROOT / "scenes" / "showcase.toml"))
    with headless((320, 180)) as rc:
        r = renderer_for(rc, scene)
        drawn: list[str] = []
        real = r.atlas.quads
        r.atlas.quads = lambda text, *a, **k: (drawn.append(text), real(text, *a, **k))[1]
        pr = ov.Prims()
        X, Y, _ = scene.world.size
        mid = (X * scene.world.cell_m / 2, Y * scene.world.cell_m / 2, 3.0)
        pr.labels.append(ov.Label(mid, "reach 1.5 m: 1 cell(s), 2 layers"))
        pr.labels.append(ov.Label((mid[0] + 6, mid[1], 3.0), "layer 3 (3 m)"))
        cam = Camera((mid[0], mid[1] - 40, 30.0), mid)
        state = RenderState.from_scene(scene)
        for units, want in (("ft", ["reach 5 ft: 1 cell(s), 2 layers", "layer 3 (10 ft)", "cell 5 ft"]),
                            ("m", ["reach 1.5 m: 1 cell(s), 2 layers", "layer 3 (3 m)", "cell 1.5 m"])):
            drawn.clear()
            r.draw(cam, state, pr, DrawOptions(labels=False, hud=("cell 1.5 m",), units=units))
            assert sorted(drawn) == sorted(want), drawn
        assert pr.labels[0].text == "reach 1.5 m: 1 cell(s), 2 layers"      # the overlay itself stays metric


# -- the scene's [view] units (a scene file's setting; --units overrides it) -------------------------------------
def _showcase_with(tmp_path, view: str) -> Path:
    text = (ROOT / "scenes" / "showcase.toml").read_text(encoding="utf-8")
    p = tmp_path / "feet.toml"
    p.write_text(text + "\n" + view + "\n", encoding="utf-8")
    return p


@pytest.mark.unit
def test_a_scene_says_its_units_in_view_and_they_are_display_only(tmp_path):
    from types import SimpleNamespace

    from engine.rules.saves import scene_hash
    from engine.scene import load_scene

    plain = load_scene(str(ROOT / "scenes" / "showcase.toml"))
    feet = load_scene(str(_showcase_with(tmp_path, '[view]\nunits = "ft"')))
    assert feet.view is not None and feet.view.units == "ft" and U.scene_units(feet) == "ft"
    assert plain.view is None and U.scene_units(plain) == "m"
    assert U.scene_units(load_scene(str(_showcase_with(tmp_path, "[view]")))) == "m"
    assert scene_hash(feet) == scene_hash(plain)          # the game is the same: saves and logs still match
    # no [view]: the ruleset's default; both documents write metres, so no ruleset sets it
    for r in ("dnd5e", "baton"):
        assert U.scene_units(SimpleNamespace(view=None, ruleset=r)) == "m"


@pytest.mark.unit
def test_a_bad_view_units_is_one_line_naming_the_key_exit_2(tmp_path, aerie):
    for view, want in (('[view]\nunits = "yd"', "view.units: 'yd' is not one of m, ft"),
                       ('[view]\nunits = 3', "view.units"), ('[view]\nunit = "ft"', "view.unit: unknown key"),
                       ('view = "ft"', "view")):
        p = _showcase_with(tmp_path, view)
        r = aerie("check", p, cwd=tmp_path)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and want in lines[0] and "feet.toml" in lines[0], r.stderr
        assert "Traceback" not in r.stderr


@pytest.mark.window
def test_the_scenes_feet_in_the_window_and_units_overrides_them(display, tmp_path):  # noqa: F811
    scene = _showcase_with(tmp_path, '[view]\nunits = "ft"')
    for flag, want in ((None, "ft"), ("m", "m")):
        st = tmp_path / f"state_{flag}.json"
        env = dict(os.environ, DISPLAY=display, AERIE_TEST_STATE=str(st), AERIE_SAVE=str(tmp_path / "g.save.json"),
                   PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        cmd = [sys.executable, "-m", "engine.app.capture", str(scene), "--ruler", "harpy_low,lookout",
               "--select", "harpy_low", "-o", str(tmp_path / f"{flag}.png")] + (["--units", flag] if flag else [])
        r = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr[-3000:]
        joined = " ".join(t[4] for t in json.loads(st.read_text())["window"]["texts"])
        assert ("71.7 ft straight" in joined) == (want == "ft") and ("21.5 m straight" in joined) == (want == "m")
