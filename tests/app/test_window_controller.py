"""The window's pure parts, without a display: the controller over the rules core, camera control, picking and the
per-layer overlay maps. (The real window under Xvfb is tests/app/test_window.py.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.rules.registry import cover_levels
from engine.app.camera_control import CLEARANCE, CameraControl
from engine.app.flow import hotkeys
from engine.app.hovertext import cell_info
from engine.app.controller import Controller, event_line, preview_lines
from engine.app.maps import cover_prims, rectangles
from engine.app.picking import Picker, ray
from engine.render.camera import Camera
from engine.rules.core import dumps
from engine.rules.session import Session
from engine.world.volumes import cover_map
from engine.scene import load_scene

from test_window import SCENE

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.unit


@pytest.fixture
def scene(tmp_path):
    p = tmp_path / "duel.toml"
    p.write_text(SCENE)
    return load_scene(p)


def _climb(ctl):
    assert ctl.choose("move")
    assert ctl.missing() == ["to"]
    ctl.set_destination((7, 2, 4))
    return ctl.action()


def test_buttons_are_the_cores_legal_actions(scene):
    ctl = Controller(scene, 3)
    names = [b["action"] for b in ctl.buttons()]
    legal = []
    for a in Session(scene, 3).legal_actions():
        if a["action"] not in legal:
            legal.append(a["action"])
    assert names == legal
    keys = hotkeys(ctl)                  # one key per action kind, the same whoever acts (issue 23)
    assert [b["hotkey"] for b in ctl.buttons()] == [keys.get(n, "") for n in names]
    assert keys["move"] == "1" and keys["attack"] == "2" and keys["end_turn"] == "0"


def test_compose_preview_confirm_undo_redo_is_exact(scene):
    ctl = Controller(scene, 3)
    act = _climb(ctl)
    assert act == {"actor": "kite", "action": "move", "to": [7, 2, 4]}
    pv = ctl.preview_of(act)
    assert pv["ok"] and pv["preview"]["climb_m"] == 8.0
    text = "\n".join(preview_lines(pv["preview"]))
    assert "climb 8 m" in text and "AIR-07" in text and "bonus action" in text
    assert ctl.confirm()
    ctl.choose("attack")
    assert ctl.pending.params == {"target": "brann"}          # the only target, chosen; a click can change it
    pv = ctl.preview_of(ctl.action())
    lines = "\n".join(preview_lines(pv["preview"], ctl.actor("brann").data["ac"]))
    assert "CHANCE TO HIT" in lines and "cover:" in lines and "cannot make it fall" in lines
    assert "cover bonus +2 to AC: 13 -> 15" in lines
    before = (dumps(ctl.state.to_dict()), [dumps(e) for e in ctl.session.events])
    assert ctl.confirm()
    after = (dumps(ctl.state.to_dict()), [dumps(e) for e in ctl.session.events])
    assert ctl.undo()
    assert (dumps(ctl.state.to_dict()), [dumps(e) for e in ctl.session.events]) == before
    assert ctl.redo()
    assert (dumps(ctl.state.to_dict()), [dumps(e) for e in ctl.session.events]) == after
    assert not ctl.redo() and ctl.message[0] == "nothing to redo"


def test_illegal_choice_shows_the_cores_reason_and_changes_nothing(scene):
    ctl = Controller(scene, 3)
    ctl.choose("move")
    ctl.set_destination((7, 2, 8))                   # six layers up: 24 m of climbing
    pv = ctl.preview_of(ctl.action())
    assert pv["ok"] is False and "AIR-07" in pv["reason"] + pv["rule"]
    state = dumps(ctl.state.to_dict())
    assert ctl.confirm() is None
    assert ctl.message[1] == "error" and "AIR-07" in ctl.message[0]
    assert dumps(ctl.state.to_dict()) == state
    ctl.cancel()
    assert not ctl.choose("grapple")                 # not a legal action now: said, not raised
    assert ctl.message[1] == "error"


def test_dice_entered_by_hand_go_on_the_next_action_only(scene):
    ctl = Controller(scene, 3)
    assert not ctl.enter_roll("attack x")
    assert ctl.enter_roll("attack 20")
    ctl.choose("attack")
    assert ctl.action()["rolls"] == {"attack": 20}
    evs = ctl.confirm().log
    rolls = [e for e in evs if e["type"] == "roll" and e["name"] == "attack"]
    assert rolls and rolls[0]["result"] == 20 and rolls[0]["forced"] is True
    assert "(by hand)" in event_line(rolls[0]) and ctl.forced == {}


def test_save_and_load_round_trip(scene, tmp_path):
    ctl = Controller(scene, 3)
    _climb(ctl)
    ctl.confirm()
    path = ctl.save(tmp_path / "g.json")
    state = dumps(ctl.state.to_dict())
    ctl.undo()
    assert ctl.load(path) and dumps(ctl.state.to_dict()) == state
    assert not ctl.load(tmp_path / "missing.json") and ctl.message[1] == "error"
    (tmp_path / "bad.json").write_text("{not json")
    assert not ctl.load(tmp_path / "bad.json") and ctl.message[1] == "error"


def test_hover_text_names_coordinates_layer_and_who_is_there(scene):
    ctl = Controller(scene, 3)
    assert cell_info(ctl, (7, 9, 0)).startswith("cell (7, 9)  layer 0") and "brann" in cell_info(ctl, (7, 9, 0))
    assert "in the air (2 m above the surface)" in cell_info(ctl, (7, 2, 2))
    assert "on stone" in cell_info(ctl, (5, 8, 1))


def test_snapshot_is_json(scene):
    ctl = Controller(scene, 3)
    ctl.choose("move")
    snap = json.loads(json.dumps(ctl.snapshot()))
    assert snap["pending"]["missing"] == ["to"] and snap["state"]["current"] == "kite"


# -- camera --------------------------------------------------------------------------------------------------------
def test_camera_never_goes_inside_terrain():
    scene = load_scene(ROOT / "scenes" / "showcase.toml")
    cc = CameraControl(scene)
    rng = np.random.default_rng(1)
    for _ in range(300):
        op = rng.integers(0, 4)
        if op == 0:
            cc.orbit(*rng.normal(0, 300, 2))
        elif op == 1:
            cc.pan(*rng.normal(0, 400, 2))
        elif op == 2:
            cc.zoom(float(rng.normal(0, 8)))
        else:
            cc.set_mode("fly")
            cc.move(rng.normal(0, 1, 3), 1.0, 40.0)
            cc.set_mode("orbit")
        cc.update(1 / 30)
        eye = np.array(cc.camera().position)
        assert eye[2] >= cc.ground_at(eye[0], eye[1]) + CLEARANCE - 1e-6


def test_snap_glides_to_named_cameras_and_flythrough_plays():
    scene = load_scene(ROOT / "scenes" / "showcase.toml")
    cc = CameraControl(scene)
    assert cc.snap("square") == "square"
    first = cc.camera().position
    cc.update(1 / 60)
    mid = cc.camera().position
    for _ in range(200):
        cc.update(1 / 60)
    end = cc.camera()
    target = [c for c in scene.spec.cameras if c.name == "square"][0]
    assert np.allclose(end.look_at, target.look_at, atol=1e-2)
    assert mid != first and mid != end.position          # it glides, it does not cut
    cc.set_mode("flythrough")
    cc.update(2.0)
    assert cc.mode == "flythrough"
    cc.update(60.0)
    assert cc.mode == "orbit"


# -- picking -------------------------------------------------------------------------------------------------------
def test_pick_ray_hits_the_cell_under_a_projected_point(scene):
    cam = Camera((30.0, -6.0, 14.0), (11.0, 12.0, 1.0), 50.0)
    size = (1280, 720)
    picker = Picker(scene.world)
    cm = scene.world.cell_m
    for (x, y) in ((3, 3), (10, 12), (14, 2)):
        px, py, _ = cam.project([((x + 0.5) * cm, (y + 0.5) * cm, 0.0)], size)[0]
        hit = picker.pick(cam, size, px, py)["cell"]
        assert hit.cell[:2] == (x, y)
    # on the wall's top: the cell stood on is one layer up
    px, py, _ = cam.project([((5 + 0.5) * cm, (8 + 0.5) * cm, 1.0)], size)[0]
    assert picker.pick(cam, size, px, py)["cell"].cell == (5, 8, 1)
    # a layer's plane for a flyer's destination
    px, py, _ = cam.project([((7 + 0.5) * cm, (2 + 0.5) * cm, 4.0)], size)[0]
    assert picker.pick(cam, size, px, py, layer=4)["cell"].cell == (7, 2, 4)
    o, d = ray(cam, size, 640, 360)
    assert abs(np.linalg.norm(d) - 1) < 1e-9


# -- overlay maps --------------------------------------------------------------------------------------------------
def test_rectangles_cover_exactly_the_classified_cells():
    rng = np.random.default_rng(3)
    cls = rng.integers(-1, 3, (20, 30))
    cls[5:12, 4:20] = 1
    out = np.full(cls.shape, -1)
    for x0, y0, x1, y1, c in rectangles(cls):
        assert (out[y0:y1, x0:x1] == -1).all()
        out[y0:y1, x0:x1] = c
    assert (out == cls).all()
    assert len(rectangles(cls)) < (cls >= 0).sum()


def test_cover_map_overlay_uses_the_rules_cover(scene):
    ctl = Controller(scene, 3)
    kite = ctl.actor("kite").body()
    pr, counts = cover_prims(scene, kite, 0)
    frac = cover_map(scene.world, kite, 0, cover_levels("dnd5e"))
    assert sum(counts.values()) == int((~np.isnan(frac)).sum())
    assert counts["half"] > 0 and counts["none"] > 0      # behind the low wall vs in the open


def test_cover_map_overlay_reads_the_sessions_voxels_after_a_wall_is_gone(scene):
    """A wall broken in play is gone from the session's world, not the scene's: the overlay must read the former
    (the window passes it), and then no cell behind the old wall keeps the wall's half cover."""
    from engine.rules import objects

    ctl = Controller(scene, 3)
    kite = ctl.actor("kite").body()
    _pr, before = cover_prims(scene, kite, 0)
    w = objects.own_world(ctl.session)
    w.set_voxels((2, 8, 0), (13, 8, 0), 0)                  # the low wall, as a GM's break would leave it
    _pr, stale = cover_prims(scene, kite, 0)                 # the scene's voxels: still the wall
    _pr, after = cover_prims(scene, kite, 0, world=w)
    frac = cover_map(w, kite, 0, cover_levels("dnd5e"))
    assert stale == before and before["half"] > 0
    assert sum(after.values()) == int((~np.isnan(frac)).sum())
    assert after.get("half", 0) < before["half"], (before, after)


def test_play_without_a_display_says_so_in_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    r = subprocess.run([sys.executable, "-m", "engine", "play", str(ROOT / "scenes" / "showcase.toml")], cwd=tmp_path,
                       env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "aerie render" in lines[0] and "aerie flythrough" in lines[0]
    r = subprocess.run([sys.executable, "-m", "engine", "bench", "window"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "xvfb-run" in r.stderr


@pytest.mark.parametrize("path", sorted((ROOT / "scenes").glob("*.toml")), ids=lambda p: p.stem)
def test_every_shipped_scene_composes_and_previews_every_button(path):
    """Whatever the ruleset: every legal action's button composes, previews without raising, and the character
    panel's data is there."""
    scene = load_scene(path)
    ctl = Controller(scene)
    for b in ctl.buttons():
        assert ctl.choose(b["action"]), ctl.message
        p = ctl.pending
        for k, kind in p.needs:
            if k in p.params:
                continue
            vals = [v[k] for v in p.variants if k in v]
            if kind == "pos":
                ctl.set_destination(vals[0] if vals else list(ctl.actor(ctl.selected).pos))
            else:
                ctl.choose_param(k, vals[0] if vals else next(iter(ctl.state.actors)))
        act = ctl.action()
        assert act is not None
        res = ctl.preview_of(act)
        assert set(res) >= {"ok"} and (res["ok"] or res["reason"])
        assert isinstance(preview_lines(res.get("preview") or {}), list)
        ctl.cancel()
    json.dumps(ctl.snapshot())


def test_a_target_the_core_does_not_offer_gets_the_cores_own_answer():
    """The core offers enemies as attack targets; an ally may still be attacked (5e allows it) and the message
    must agree with the preview instead of calling it impossible; a bad id gets the core's reason."""
    sc = load_scene(ROOT / "scenes" / "showcase.toml")
    ctl = Controller(sc, None)
    for a in json.loads((ROOT / "docs" / "images" / "window_actions.json").read_text()):
        assert ctl.step(a) is not None, (a, ctl.message)     # the README still's actions all stand (none refused)
    ctl.select_current()
    assert ctl.choose("attack")
    me = ctl.actor(ctl.selected)
    ally = next(c for c, a in ctl.state.actors.items() if a.side == me.side and c != ctl.selected)
    enemy = next(v["target"] for v in ctl.legal() if v.get("action") == "attack")
    ctl.choose_param("target", ally)
    text, kind = ctl.message
    assert kind == "info" and "own side" in text and ctl.preview_of(ctl.action())["ok"]
    ctl.choose_param("target", "nobody")
    assert ctl.message[1] == "error" and "no character 'nobody'" in ctl.message[0]
    ctl.choose_param("target", enemy)
    assert ctl.message == ("", "info")


# -- the GM's table: token layout, bars, the command line (pure) --------------------------------------------------------
def test_token_layout_keeps_labels_near_their_models_and_a_label_for_everyone_in_a_crowd():
    from engine.app import tokens as T

    # twelve models in a tight cluster (a zoomed-out crowd) and one alone
    items = []
    for i in range(12):
        x, y = 400 + (i % 4) * 6, 300 + (i // 4) * 5
        items.append({"id": f"c{i}", "anchor": (x, y), "depth": float(i), "full": (90, 30), "compact": (50, 18),
                      "model": (x - 3, y, x + 3, y + 20)})
    items.append({"id": "far", "anchor": (900, 300), "depth": 1.0, "full": (90, 30), "compact": (50, 18),
                  "model": (897, 300, 903, 320)})
    out = T.layout(items, 40.0, bounds=(0, 0, 1280, 720))
    placed = [(it, pl) for it, pl in zip(items, out) if pl["box"] is not None]
    for it, pl in placed:
        if pl["mode"] != "leader":           # set farther out with a leader line when nothing near is free
            assert T.box_distance(pl["box"], it["anchor"]) <= 40.0
        for other in items:
            assert not T._overlaps(pl["box"], other["model"], 0.0)
    for i, (a, pa) in enumerate(placed):
        for b, pb in placed[i + 1:]:
            assert not T._overlaps(pa["box"], pb["box"])
    # issue 23 item 7: a crowd keeps a label for everyone (leader tags), none folded away into a "+N"
    assert len(placed) == len(items) and any(pl["mode"] == "leader" for pl in out)
    assert out[-1]["mode"] == "full", "a model alone keeps its full label"
    # a panel to avoid: no label over it
    out = T.layout(items[-1:], 40.0, avoid=[(850, 200, 1000, 299)])
    assert out[0]["box"] is None or not T._overlaps(out[0]["box"], (850, 200, 1000, 299), 0.0)


def test_token_bars_are_the_rulesets_numbers_without_naming_a_ruleset():
    from engine.app import tokens as T

    s5 = Session(load_scene(ROOT / "scenes" / "showcase.toml"))
    a = s5.state.actors["wall_archer"]
    assert T.bars(s5, a) == [("HP", a.hp, a.max_hp)]
    sb = Session(load_scene(ROOT / "scenes" / "baton_passing.toml"))
    b = next(iter(sb.state.actors.values()))
    got = {lb: (v, m) for lb, v, m in T.bars(sb, b)}
    assert got == {"Vigor": (b.data["vigor"], b.data["max_vigor"]), "Protection": (b.data["protection"], b.data["protection_max"]),
                   "Life": (b.hp, b.max_hp)}
    s5.step({"actor": "gm", "action": "gm_condition", "target": "wall_archer", "add": "prone"})
    assert T.condition_tags(s5.state.actors["wall_archer"])[0][0] == "PRO"


def test_gm_command_line_parses_to_core_actions_and_refuses_clearly():
    from engine.app.gmtext import parse

    st = Session(load_scene(ROOT / "scenes" / "showcase.toml")).state
    assert parse("hp Brann 12", st) == {"actor": "gm", "action": "gm_set", "target": "wall_archer", "key": "hp", "value": 12}
    assert parse("cond brann +prone -poisoned", st)["add"] == "prone"
    assert parse("place knight 3 4 0", st) == {"actor": "gm", "action": "gm_place", "target": "knight", "to": [3, 4, 0]}
    assert parse("add t2 like kestrel at 3 4 5 fly", st) == {"actor": "gm", "action": "gm_add", "id": "t2", "like": "harpy_low",
                                                            "name": "t2", "at": [3, 4, 5], "flying": True}
    assert parse('add "Sir Roland" knight side=blue at 3 4 0', st) == {
        "actor": "gm", "action": "gm_add", "id": "sir_roland", "block": "knight", "name": "Sir Roland", "side": "blue",
        "at": [3, 4, 0]}
    assert parse('hp "sir aldric" 3', st)["target"] == "knight"
    assert parse("order Kestrel after Oda", st) == {"actor": "gm", "action": "gm_order", "target": "harpy_low", "after": "lookout"}
    assert parse("roll 2d6+3 gust of wind", st) == {"actor": "gm", "action": "gm_roll", "dice": "2d6+3", "label": "gust of wind"}
    for bad in ("hp nobody 3", "hp Brann x", "place Brann 1 2", "frobnicate", "add t2 kestrel 1 2 3"):
        with pytest.raises(ValueError):
            parse(bad, st)


@pytest.mark.unit
def test_the_labels_free_spot_search_is_the_first_candidate_a_box_by_box_check_accepts():
    """tokens._free_index tests every candidate at once (numpy); it must pick what the box-by-box check picks:
    the first candidate within reach of the head and the bounds, 1 px clear of every label, clear of every model
    when strict."""
    import random

    from engine.app import tokens as T

    rng = random.Random(3)

    def brute(cands, placed, models, bounds, near, strict):
        for box in cands:
            if near is not None and T.box_distance(box, near[0]) > near[1]:
                continue
            if bounds is not None and (box[0] < bounds[0] or box[1] < bounds[1] or box[2] > bounds[2] or box[3] > bounds[3]):
                continue
            if any(T._overlaps(box, p) for p in placed) or (strict and any(T._overlaps(box, m, 0.0) for m in models)):
                continue
            return tuple(box)
        return None

    def box():
        x, y = rng.uniform(0, 400), rng.uniform(0, 300)
        return (x, y, x + rng.uniform(1, 90), y + rng.uniform(1, 30))

    found = 0
    for _ in range(600):
        cands = [box() for _ in range(rng.randint(0, 40))]
        placed = [box() for _ in range(rng.randint(0, 8))]
        models = [box() for _ in range(rng.randint(0, 8))]
        bounds = rng.choice([None, (0, 0, 400, 300), (50, 50, 350, 250)])
        near = rng.choice([None, ((rng.uniform(0, 400), rng.uniform(0, 300)), rng.uniform(5, 120))])
        strict = rng.random() < 0.7
        want = brute(cands, placed, models, bounds, near, strict)
        k = T._free_index(np.asarray(cands, dtype=np.float64).reshape(-1, 4), placed, models if strict else (), bounds,
                          near)
        assert (None if k < 0 else tuple(cands[k])) == want
        found += want is not None
    assert 50 < found < 550                     # both outcomes exercised
