"""The game master's table, in the real window under Xvfb with real X input (xdotool), as in tests/app/test_window.py.

The first part checks the problems a GM met (issue 17, "What went wrong"): a click on a destination moves the
character instead of selecting one behind that point; the wheel and clicks over a panel never reach the map; the
log scrolls; labels stay within ``engine.app.tokens.MAX_PX`` of their models and say names; a fall is watchable;
Ctrl+O asks before dropping unsaved work; picking into the open belfry designates its floor; keys say what they
did; small windows stay readable; the free-fly text fits. The second part drives the GM's tools: GM commands and a
drag (recorded gm_* actions), the ruler, the token bars, the player view, area templates, the dice roller, greyed
actions -- and a 20-action session whose event log is byte for byte ``aerie run``'s.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from test_window import SCENE, App, display  # noqa: F401  (the display fixture)

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.window, pytest.mark.slow]


@pytest.fixture
def duel(tmp_path):
    p = tmp_path / "duel.toml"
    p.write_text(SCENE)
    return p


def gm(app, command):
    """Type a GM command on the ';' line and run it."""
    n = len(app.state()["actions"])
    app.key("semicolon")
    app.xdo("type", "--delay", "25", command)
    time.sleep(0.1)
    app.key("Return")
    return n


def text_boxes(st, y_max=None):
    out = [t for t in st["window"]["texts"]]
    return [t for t in out if y_max is None or t[1] < y_max]


def overlap(a, b):
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def box_distance(box, pt):
    dx = max(box[0] - pt[0], 0.0, pt[0] - box[2])
    dy = max(box[1] - pt[1], 0.0, pt[1] - box[3])
    return (dx * dx + dy * dy) ** 0.5


def coverage(st):
    W, H = st["window"]["size"]
    m = np.zeros((H, W), bool)
    for x0, y0, x1, y1, _n in st["window"]["blocks"]:
        m[max(int(y0), 0):max(int(y1), 0), max(int(x0), 0):max(int(x1), 0)] = True
    return float(m.mean())


def assert_labels_near(st):
    lim = st["window"]["token_max_px"]
    boxes = []
    for cid, t in st["window"]["tokens"].items():
        if t["box"] is None:
            assert t["mode"] == "folded" and t.get("into"), f"{cid}: a label neither placed nor folded"
            continue
        d = box_distance(t["box"], t["anchor"])
        if t["mode"] != "leader":        # a leader tag is set farther out, with its dotted line to the model
            assert d <= lim + 0.5, f"{cid}'s label is {d:.0f} px from its model (limit {lim:.0f})"
        boxes.append((cid, t["box"]))
        for oid, o in st["window"]["tokens"].items():
            if oid != cid and o["model"] is not None:
                assert not overlap(t["box"], o["model"]), f"{cid}'s label hides {oid}'s model"
    for i, (a, ba) in enumerate(boxes):
        for b, bb in boxes[i + 1:]:
            assert not overlap(ba, bb), f"the labels of {a} and {b} overlap"


# ------------------------------------------------------------------------------------------------- what went wrong
def _compose_move(app):
    st = app.idle()
    assert st["state"]["current"] == "kite"
    app.key(app.button("move")["hotkey"])
    return app.wait(lambda s: s["pending"] and s["pending"]["action"] == "move", 10, "move chosen")


def test_a_click_on_a_destination_moves_and_never_selects_the_character_behind(display, duel, tmp_path):
    # the destination behind Brann is 10.5 m away: Kite flies at 5e's fly speed (12 m) here, not AIR-09's ground 9 m
    duel.write_text(duel.read_text().replace('initiative_starts = "kite"\n',
                                             'initiative_starts = "kite"\n\n[options]\nair_speed = "fly_speed"\n', 1))
    app = App(display, duel, tmp_path)
    try:
        _compose_move(app)
        bx, by = app.project(((7 + 0.5) * 1.5, (9 + 0.5) * 1.5, 1.8))        # Brann's head, behind layer 2's plane
        app.move(bx + 2, by)
        app.click(bx, by)
        st = app.wait(lambda s: s["action"] is not None and s["preview"] is not None, 20, "the destination previewed")
        assert st["selected"] == "kite", "the click selected the character behind the destination"
        assert st["pending"]["action"] == "move" and st["action"]["to"][:2] == st["hover"][:2]
        app.key("Return")
        st = app.wait(lambda s: len(s["actions"]) == 1, 20, "the move confirmed")
        assert st["actions"][0]["action"] == "move" and st["actions"][0]["actor"] == "kite"
    finally:
        app.close()


def test_panels_keep_the_mouse_and_the_log_scrolls(display, duel, tmp_path):
    app = App(display, duel, tmp_path)
    try:
        _compose_move(app)
        px, py = app.project(((3 + 0.5) * 1.5, (3 + 0.5) * 1.5, 2.0))
        app.click(px, py)
        st = app.wait(lambda s: s["action"] is not None, 20, "a destination")
        dest = st["action"]["to"]
        x0, y0, x1, y1 = st["window"]["panels"]["log"][:4]          # the event log's title bar
        cam = st["window"]["camera"]
        lx, ly = (x0 + x1) / 2, y1 + 12                                # its first line
        app.click(lx, ly)
        app.xdo("click", "4")
        app.xdo("click", "5")
        app.xdo("click", "5")
        st = app.idle()
        assert st["action"]["to"] == dest, "a click on the log set a destination under it"
        assert st["window"]["camera"] == cam, "the wheel over the log moved the camera"
        app.key("Escape")
        # the dice roller (GM line): rolls fill the log, which then scrolls back with the wheel over it
        for i in range(6):
            gm(app, f"roll 4d6+{i} round{i}")
            app.wait(lambda s, i=i: len(s["actions"]) == i + 1, 20, f"table roll {i}")
        st = app.idle()
        assert st["actions"][-1] == {"actor": "gm", "action": "gm_roll", "dice": "4d6+5", "label": "round5"}
        log = st["window"]["log"]
        assert log["lines"] > 10 and log["scroll"] == 0
        assert any("table roll 4d6+5" in t[4] for t in st["window"]["texts"])
        x0, y0, x1, y1 = log["area"]
        cam = st["window"]["camera"]
        app.move((x0 + x1) / 2, (y0 + y1) / 2)
        app.xdo("click", "4")
        st = app.wait(lambda s: s["window"]["log"]["scroll"] > 0, 10, "the log scrolled back")
        assert st["window"]["log"]["first"] != log["first"] and st["window"]["camera"] == cam
        app.xdo("click", "5")
        app.wait(lambda s: s["window"]["log"]["scroll"] == 0, 10, "the log back at its newest")
        # the panels cover at most a third of a 1280 x 720 view
        assert coverage(app.idle()) <= 0.34
    finally:
        app.close()


def test_names_not_ids_and_labels_near_their_models(display, duel, tmp_path):
    import re

    app = App(display, duel, tmp_path)
    try:
        gm(app, "roll d6")
        app.key("space")
        app.key(app.button("attack")["hotkey"])
        st = app.wait(lambda s: s["preview"] is not None, 20, "an attack previewed")
        for t in st["window"]["texts"]:
            txt = re.sub(r"\(id: \w+\)", "", t[4])      # the selected panel's "(id: kite)", for scripts
            assert not re.search(r"(?<![\w/.])(kite|brann)(?![\w.])", txt), f"an id on screen: {t[4]!r}"
        names = {c: t["name"] for c, t in st["window"]["tokens"].items()}
        assert names == {"kite": "Kite", "brann": "Brann"}
        assert_labels_near(st)
    finally:
        app.close()


def test_keys_say_what_they_did_and_the_free_fly_text_fits(display, duel, tmp_path):
    app = App(display, duel, tmp_path)
    try:
        app.idle()
        app.key("f")
        st = app.wait(lambda s: s["window"]["camera"]["mode"] == "fly", 10, "free fly")
        assert "free fly" in st["message"][0], "F switched the camera without a word"
        st = app.idle()
        assert "free fly" in (st["window"]["toast"] or "")
        # the free-fly top bar: every text inside the window, none over another or over a button
        bar = [t for t in st["window"]["texts"] if t[1] < 20]
        W = st["window"]["size"][0]
        assert any("free fly" in t[4] for t in bar), [t[4] for t in bar]
        for i, a in enumerate(bar):
            assert 0 <= a[0] and a[2] <= W, f"{a[4]!r} runs off the top bar"
            for b in bar[i + 1:]:
                assert not overlap(a, b), f"{a[4]!r} over {b[4]!r}"
        app.key("f")
        gm(app, "roll d6")
        app.wait(lambda s: len(s["actions"]) == 1, 20, "a table roll")
        app.key("ctrl+z")
        st = app.wait(lambda s: len(s["actions"]) == 0, 10, "undone")
        st = app.wait(lambda s: s["window"]["toast"] and "Ctrl+Z" in s["window"]["toast"], 10, "Ctrl+Z said on screen")
        assert "undone" in st["window"]["toast"] and "Ctrl+Y" in st["window"]["toast"]
        app.key("x")
        st = app.wait(lambda s: s["window"]["overlays"]["engagement"], 10, "an overlay")
        assert "engagement overlay on" in st["message"][0]
    finally:
        app.close()


def test_opening_asks_before_dropping_unsaved_work(display, duel, tmp_path):
    app = App(display, duel, tmp_path)
    try:
        app.idle()
        app.key("space")
        for i in range(2):                        # two end turns, saved; undo one: a redo step is unsaved work
            app.key(app.button("end_turn")["hotkey"])
            app.key("Return")
            app.wait(lambda s, i=i: len(s["actions"]) == i + 1, 20, "an end turn")
            app.idle()
            app.key("space")
        app.key("ctrl+s")
        app.wait(lambda s: "saved" in s["message"][0], 20, "saved")
        app.key("ctrl+z")
        app.wait(lambda s: len(s["actions"]) == 1 and s["redo"] == 1, 20, "undone")
        app.key("ctrl+o")
        time.sleep(1.0)
        st = app.idle()
        assert len(st["actions"]) == 1 and st["redo"] == 1, "Ctrl+O dropped the unsaved work without asking"
        assert st["window"]["chooser"]["paths"][0].endswith("game.save.json")
        app.key("Return")
        st = app.wait(lambda s: s["window"]["prompt"] is not None, 10, "the unsaved-work prompt")
        assert "1 redo step(s)" in st["window"]["prompt"]
        app.key("c")                              # save first? (y)es / (n)o / (c)ancel: cancel keeps the game
        st = app.wait(lambda s: s["window"]["prompt"] is None, 10, "prompt answered")
        assert len(st["actions"]) == 1 and st["redo"] == 1, "C dropped the work"
        app.key("ctrl+o")
        app.wait(lambda s: s["window"]["chooser"] is not None, 10, "the picker")
        app.key("Return")
        app.wait(lambda s: s["window"]["prompt"] is not None, 10, "the prompt")
        app.key("y")
        app.wait(lambda s: len(s["actions"]) == 2 and s["redo"] == 0, 20, "the save opened")
    finally:
        app.close()


def _play_fall(app):
    """Showcase: Kestrel ends its turn, Oda shoots Shrike with dice by hand (attack 17, fall 10): she falls."""
    app.key("space")
    app.wait(lambda s: s["selected"] == s["state"]["current"] == "harpy_low", 10, f"Kestrel selected ({app.state()['state']['current']})")
    app.key(app.button("end_turn")["hotkey"])
    app.key("Return")
    app.wait(lambda s: s["state"]["current"] == "lookout", 20, "Oda's turn")
    app.idle()
    app.key("space")
    app.wait(lambda s: s["selected"] == "lookout", 10, "Oda selected")
    for entry in ("attack 17", "fall 10"):
        app.key("r")
        app.xdo("type", "--delay", "25", entry)
        app.key("Return")
    app.wait(lambda s: s["forced"].get("fall") == 10 and s["forced"].get("attack") == 17, 10, "dice by hand")
    app.key(app.button("attack")["hotkey"])
    app.wait(lambda s: s["pending"] is not None, 10, "the attack composing")    # the key is handled in a frame
    for _ in range(8):
        st = app.state()
        if st["pending"]["params"].get("target") == "harpy_high":
            break
        app.key("t")
    app.wait(lambda s: s["action"] and s["action"].get("target") == "harpy_high", 10, "Shrike targeted")


def test_fall_is_watchable_belfry_picking_and_dense_labels(display, tmp_path, monkeypatch):
    from engine.scene import load_scene

    scene = ROOT / "scenes" / "showcase.toml"
    # a slower animation, so the test sees its phases (the same code paths; only the duration differs)
    monkeypatch.setenv("AERIE_ANIM_S", "3")
    app = App(display, scene, tmp_path, seed=7)                  # the showcase's own seed
    try:
        world = load_scene(str(scene)).world
        st = app.idle()
        # the open belfry: every cell picked through its arches is a cell one can stand on (its floor), none mid-air
        before = st["window"]["camera"]
        app.key("k")                                       # scene camera "square"
        # idle() alone can return before a loaded window has handled the key (the old camera, still for 0.3 s):
        # the points would then be projected through a camera that is about to fly away
        app.wait(lambda s: s["window"]["camera"] != before, 15, "the scene camera to start")
        st = app.idle()
        cm = world.cell_m
        cx, cy = app.project(((38 + 0.5) * cm, (24 + 0.5) * cm, 17.0))
        bad, seen = [], 0
        for dx in range(-60, 61, 20):
            for dy in range(-50, 51, 20):
                if not app.move(cx + dx, cy + dy):        # off the screen: the pointer stayed elsewhere
                    continue
                s = app.state()
                if s["hover"] is None:
                    continue
                seen += 1
                x, y, z = s["hover"]
                if not world.is_supported(x, y, z):
                    bad.append((x, y, z))
        assert seen >= 10 and not bad, f"mid-air cells picked: {bad}"
        st = app.idle()
        # labels in the default view and zoomed out (dense): near their models, never over a model or each other
        assert_labels_near(st)
        W, H = st["window"]["size"]
        app.move(W / 2, H / 2)
        for _ in range(6):
            app.xdo("click", "5")
        st = app.idle()
        assert_labels_near(st)
        assert len(st["window"]["tokens"]) >= 6, "most of the eight characters are in this view: each has a tag"
        for _ in range(6):
            app.xdo("click", "4")
        app.key("shift+k")
        app.idle()
        # 4. the fall: the banner never covers the falling flyer, the turn panel waits, the damage number floats
        _play_fall(app)
        app.key("Return")
        seen_anim, floats, banner_ok, waited = 0, set(), True, False
        t0 = time.time()
        while time.time() - t0 < 12:
            s = app.state()
            w = s["window"]
            if w["animating"]:
                seen_anim += 1
                floats.update(w["floaters"])
                if w["banner"]:
                    for m in w["moving"]:
                        banner_ok &= not overlap(w["banner"], m)
                if any("Shrike" in r and "38/38" in r for r in (w["hud_turn"] or [])):
                    waited = True
            elif seen_anim:
                break
            time.sleep(0.05)
        assert seen_anim >= 5, "the fall did not animate"
        assert banner_ok, "the banner covered the falling flyer"
        assert waited, "the turn panel showed the result before the animation ended"
        assert "-15" in floats, f"no floating fall damage (saw {floats})"
        st = app.idle()
        assert any("Shrike" in r and "20/38" in r for r in st["window"]["hud_turn"])
        assert_labels_near(st)                    # no label hides the landed harpy (nor anyone else)
    finally:
        app.close()


def test_small_window_stays_readable(display, duel, tmp_path):
    app = App(display, duel, tmp_path, size="320x200")
    try:
        st = app.idle()
        W, H = st["window"]["size"]
        assert (W, H) == (320, 200)
        texts = st["window"]["texts"]
        assert texts, "nothing written"
        for i, a in enumerate(texts):
            assert a[0] >= -0.5 and a[2] <= W + 0.5 and a[1] >= -0.5 and a[3] <= H + 0.5, f"{a[4]!r} off the window"
            for b in texts[i + 1:]:
                assert not overlap(a, b), f"{a[4]!r} over {b[4]!r}"
        assert coverage(st) <= 0.6, f"the panels cover {coverage(st):.0%} of a 320 x 200 window"
    finally:
        app.close()


def test_the_baton_turn_order_reads_whole_at_1280_by_720(display, tmp_path):
    """The turn order's rows carry a ruleset's health figures (Protection, Vigor, Life) and a mark; at the usual
    window size each row is drawn whole -- its name and every word of its tail -- not cut to "ready ." or "L10/."."""
    app = App(display, ROOT / "scenes" / "baton_passing.toml", tmp_path)
    try:
        st = app.idle()
        rows = st["window"]["hud_turn"]
        assert rows and len(rows) == 5
        panel = st["window"]["panels"]["turn"]
        drawn = [t[4] for t in st["window"]["texts"] if panel[0] <= t[0] <= panel[2] and t[1] > panel[3] - 4]
        for row in rows:
            words = row[2:].split()
            assert all(any(w in d for d in drawn) for w in words), (row, drawn)
        assert not any(d.endswith(("…", ".")) for d in drawn), drawn
    finally:
        app.close()
