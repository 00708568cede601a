"""The real window under Xvfb, driven with real X input (xdotool: XTEST key presses, mouse moves and clicks).

Each test starts its own Xvfb on a free display, launches ``aerie play`` as a subprocess and checks, after every
step, both the rules core's state (the window rewrites ``$AERIE_TEST_STATE`` after every change) and the window's
own pixels (its screenshot key, F12, writes the frame it just drew to a PNG).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from zygote_client import popen_window
import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.window, pytest.mark.slow]

SCENE = """
version = 1
name = "Wall duel"
ruleset = "dnd5e"
seed = 3
initiative_starts = "kite"

[map]
size = [16, 16, 10]
cell_m = 1.5

[[map.fill]]             # the low wall: one layer (1 m) of stone between the two archers
material = "stone"
from = [2, 8, 0]
to = [13, 8, 0]

[[map.fill]]
material = "grass"
from = [0, 0, 0]
to = [15, 1, 0]

[[characters]]
id = "kite"
name = "Kite (winged archer)"
kind = "archer"
side = "blue"
at = [7, 2, 2]
flying = true
max_hp = 24
ac = 13
speed_m = 9
fly_speed_m = 12
abilities = { dex = 16 }
weapons = ["longbow", "shortsword"]

[[characters]]
id = "brann"
name = "Brann (archer behind the wall)"
kind = "archer"
side = "red"
at = [7, 9, 0]
max_hp = 30
ac = 13
speed_m = 9
abilities = { dex = 14 }
weapons = ["shortbow", "shortsword"]

[[cameras]]
name = "side"
position = [30.0, -6.0, 14.0]
look_at = [11.0, 12.0, 1.0]
fov = 50
"""


def _tools_missing():
    return [t for t in ("Xvfb", "xdotool") if shutil.which(t) is None]


@pytest.fixture(scope="module")
def display():
    missing = _tools_missing()
    if missing:
        pytest.skip(f"{' and '.join(missing)} not installed (apt-get install xvfb xdotool; .ci/run does it)")
    # Xvfb picks a free display number itself and writes it to a pipe (-displayfd): no race with other servers
    r, w = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1600x900x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(w,))
    os.close(w)
    got = b""
    t0 = time.time()
    import select

    while not got.endswith(b"\n"):
        ready, _, _ = select.select([r], [], [], 1.0)
        if ready:
            chunk = os.read(r, 64)
            if not chunk:
                break
            got += chunk
        if proc.poll() is not None or time.time() - t0 > 30:
            break
    os.close(r)
    if not got.strip().isdigit():
        proc.kill()
        pytest.fail(f"Xvfb did not start (it said {got!r})")
    n = int(got.strip())
    time.sleep(0.2)
    yield f":{n}"
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


class App:
    """``aerie play`` in a subprocess on the test display, with helpers to drive it and read its state."""

    def __init__(self, display, scene_path: Path, tmp: Path, seed: int = 3, size="1280x720"):
        self.display = display
        self.tmp = tmp
        self.state_file = tmp / "state.json"
        self.env = dict(os.environ, DISPLAY=display, AERIE_TEST_STATE=str(self.state_file),
                        AERIE_SCREENSHOT_DIR=str(tmp / "shots"), AERIE_SAVE=str(tmp / "game.save.json"))
        # a step's animation lasts 0.3 s here, not the 1.2 s a table sees: the tests wait for it to end, and every
        # frame of it is a llvmpipe frame (a test that looks at an animation sets AERIE_ANIM_S itself)
        self.env.setdefault("AERIE_ANIM_S", "0.3")
        self.env.pop("WAYLAND_DISPLAY", None)
        self.log = open(tmp / "app.log", "w")
        # forked from a server with the libraries imported (tests/support/zygote.py), or a fresh interpreter
        self.proc = popen_window([sys.executable, "-m", "engine", "play", str(scene_path), "--seed", str(seed),
                                  "--size", size], cwd=str(tmp), env=self.env, out_fd=self.log.fileno())
        self.wait(lambda s: s["window"]["frames"] >= 1, 90, "the window to draw")
        out = self.xdo("search", "--sync", "--onlyvisible", "--name", "Aerie")
        self.wid = out.split()[0]
        self.xdo("windowfocus", "--sync", self.wid)
        time.sleep(0.3)

    # -- X input -------------------------------------------------------------------------------------------------
    def xdo(self, *args) -> str:
        r = subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=30)
        assert r.returncode == 0, f"xdotool {' '.join(args)}: {r.stderr}"
        return r.stdout

    def key(self, *keys, delay_ms=60):
        before = self.state().get("_seq")
        self.xdo("key", "--delay", str(delay_ms), *keys)
        time.sleep(0.15)
        return before

    def show_side(self, side: str) -> None:
        """F3 until the players' view shows ``side`` (it steps through the sides and back to the GM's view)."""
        for _ in range(3):
            if self.state()["window"]["player_side"] == side:
                break
            self.key("F3")
        assert self.state()["window"]["player_side"] == side

    def move(self, x, y) -> bool:
        """Move the pointer to window pixel (x, y) and wait until the window has handled it; False when it did not
        get there (a point off the screen: X keeps the pointer on it) -- a state read then is another point's."""
        to = [int(round(x)), int(round(y))]
        self.xdo("mousemove", "--window", self.wid, str(to[0]), str(to[1]))
        time.sleep(0.15)
        # within a pixel: the window turns pyglet's bottom-left y into top-left as height - y, one more than X's
        t0 = time.time()
        while time.time() - t0 < 3.0:
            at = self.state()["window"].get("mouse")
            if at is None or max(abs(a - b) for a, b in zip(at, to)) <= 1:
                return True
            time.sleep(0.1)
        return False

    def click(self, x, y, button=1):
        self.move(x, y)
        self.xdo("click", str(button))
        time.sleep(0.2)

    # -- reading -------------------------------------------------------------------------------------------------
    def state(self) -> dict:
        for _ in range(50):
            try:
                return json.loads(self.state_file.read_text())
            except (FileNotFoundError, ValueError):
                if self.proc.poll() is not None:
                    raise AssertionError(f"the window exited ({self.proc.returncode}): {self.app_log()}")
                time.sleep(0.1)
        raise AssertionError("no state file")

    def app_log(self) -> str:
        self.log.flush()
        return (self.tmp / "app.log").read_text()[-3000:]

    def wait(self, pred, timeout=30.0, what="a condition"):
        t0 = time.time()
        last = None
        while time.time() - t0 < timeout:
            if self.proc.poll() is not None:
                raise AssertionError(f"the window exited ({self.proc.returncode}) waiting for {what}: {self.app_log()}")
            try:
                last = json.loads(self.state_file.read_text())
                if pred(last):
                    return last
            except (FileNotFoundError, ValueError, KeyError, TypeError, IndexError):
                pass
            time.sleep(0.1)
        brief = {k: last.get(k) for k in ("selected", "pending", "action", "message", "preview", "cursor_layer", "hover")} if last else None
        raise AssertionError(f"timed out waiting for {what}; last state: {json.dumps(brief)[:3000]}\n{self.app_log()}")

    def screenshot(self) -> np.ndarray:
        from PIL import Image

        before = self.state()["window"].get("last_screenshot")
        self.key("F12")
        st = self.wait(lambda s: s["window"].get("last_screenshot") not in (None, before), 20, "the screenshot")
        path = Path(st["window"]["last_screenshot"])
        if not path.is_absolute():
            path = self.tmp / path
        for _ in range(20):
            try:
                return np.asarray(Image.open(path).convert("RGB"))
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"cannot read {path}")

    def button(self, action: str) -> dict:
        st = self.state()
        for b in st["buttons"]:
            if b["action"] == action:
                return b
        raise AssertionError(f"no {action!r} button; buttons: {[b['action'] for b in st['buttons']]}")

    def project(self, point_m) -> tuple[float, float]:
        from engine.render.camera import Camera

        st = self.state()
        c = st["window"]["camera"]
        cam = Camera(tuple(c["position"]), tuple(c["look_at"]), c["fov"])
        x, y, _w = cam.project([point_m], tuple(st["window"]["size"]))[0]
        return float(x), float(y)

    def idle(self):
        """Wait until the camera has settled and no worker or animation is running."""
        prev = [None]

        def settled(s):
            cam = json.dumps(s["window"]["camera"])
            ok = cam == prev[0] and not s["window"]["busy"] and not s["window"]["animating"]
            prev[0] = cam
            return ok
        time.sleep(0.3)
        return self.wait(settled, 30, "the window to settle")

    def close(self):
        if self.proc.poll() is None:
            try:
                self.xdo("key", "ctrl+q")
                try:
                    self.proc.wait(3)
                except subprocess.TimeoutExpired:      # unsaved work: "save first? (y)es / (n)o / (c)ancel"
                    self.xdo("key", "n")
                    self.proc.wait(10)
            except Exception:   # noqa: BLE001 - then the hard way
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()


def same_log_as_run(app, tmp_path, scene, seed):
    """Ctrl+S in the window, then ``aerie run`` of the same scene, seed and actions from the same folder: the two
    event logs must be the same bytes. Returns the window's state before the save."""
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


def region_has(img: np.ndarray, x0, y0, x1, y1, rgb, tol=40, min_px=4) -> bool:
    h, w, _ = img.shape
    x0, x1 = max(int(x0), 0), min(int(x1), w)
    y0, y1 = max(int(y0), 0), min(int(y1), h)
    reg = img[y0:y1, x0:x1].astype(int)
    close = (np.abs(reg - np.array(rgb)).max(axis=2) <= tol)
    return int(close.sum()) >= min_px


def panel_colour(img, st, name):
    x0, y0, x1, y1, _col = st["window"]["panels"][name]
    return img[int(y0) + 4, int(x1) - 6]


@pytest.fixture
def duel(tmp_path):
    p = tmp_path / "duel.toml"
    p.write_text(SCENE)
    return p


SELECT_RING = (255, 240, 120)
GREEN_TITLE = (30, 90, 50)
RED_TITLE = (120, 30, 26)


def test_play_flyer_climbs_attacks_over_low_wall_and_undoes(display, duel, tmp_path):
    app = App(display, duel, tmp_path)
    try:
        st = app.idle()
        assert st["state"]["current"] == "kite"

        # select the ground archer with a click, then the flyer
        bx, by, vis = st["window"]["screen"]["brann"][:3]
        assert vis
        app.click(bx, by)
        st = app.wait(lambda s: s["selected"] == "brann", 10, "brann selected by a click")
        kx, ky = st["window"]["screen"]["kite"][:2]
        app.click(kx, ky)
        st = app.wait(lambda s: s["selected"] == "kite", 10, "kite selected by a click")
        st = app.idle()
        img = app.screenshot()
        fx, fy = st["window"]["screen"]["kite"][3:5]
        assert region_has(img, fx - 40, fy - 25, fx + 40, fy + 25, SELECT_RING), "no selection ring at the flyer's feet"

        # move: the ghost starts at the flyer; four layers up is too expensive: the core's reason, in red
        app.key(app.button("move")["hotkey"])
        app.wait(lambda s: s["pending"] and s["pending"]["action"] == "move", 10, "move chosen")
        app.key("Page_Up", "Page_Up", "Page_Up", "Page_Up")
        st = app.wait(lambda s: s["cursor_layer"] == 6 and s["preview"] is not None
                      and s["action"]["to"] == [7, 2, 6], 20, "the preview of a 4-layer climb")
        assert st["preview"]["ok"] is False and "AIR-07" in (st["preview"]["rule"] + st["preview"]["reason"])
        st = app.wait(lambda s: tuple(s["window"]["panels"]["preview"][4][:3]) == RED_TITLE, 10, "red preview panel")
        img = app.screenshot()
        assert np.abs(panel_colour(img, st, "preview").astype(int) - RED_TITLE).max() < 30
        assert st["state"]["characters"]["kite"]["position"] == [7, 2, 2]     # nothing changed

        # two layers down again (climb two layers in all), then pick the cell with the mouse on that layer's plane
        app.key("Page_Down", "Page_Down")
        cm = 1.5
        px, py = app.project(((7 + 0.5) * cm, (2 + 0.5) * cm, 4.0))
        app.move(px + 3, py + 3)
        app.click(px, py)
        st = app.wait(lambda s: s["action"] and s["action"]["to"] == [7, 2, 4] and s["preview"] is not None
                      and s["preview"]["ok"], 20, "a legal 2-layer climb previewed")
        pv = st["preview"]["preview"]
        assert pv["cost_m"] == 8.0 and pv["climb_m"] == 8.0 and pv["layers_up"] == 2
        assert pv["bonus_action_needed"] is True
        st = app.wait(lambda s: tuple(s["window"]["panels"]["preview"][4][:3]) == GREEN_TITLE, 10, "green preview")
        img = app.screenshot()
        assert np.abs(panel_colour(img, st, "preview").astype(int) - GREEN_TITLE).max() < 30
        app.key("Return")
        st = app.wait(lambda s: s["state"]["characters"]["kite"]["position"] == [7, 2, 4], 20, "the climb done")
        assert len(st["actions"]) == 1 and st["actions"][0]["to"] == [7, 2, 4]
        st = app.idle()
        img = app.screenshot()
        fx, fy = st["window"]["screen"]["kite"][3:5]
        assert region_has(img, fx - 40, fy - 25, fx + 40, fy + 25, SELECT_RING), "the ring did not climb with the flyer"
        assert "preview" not in st["window"]["panels"]

        # attack the archer behind the low wall: click him as the target, read the preview
        app.key(app.button("attack")["hotkey"])
        st = app.idle()
        bx, by = st["window"]["screen"]["brann"][:2]
        app.click(bx, by)
        st = app.wait(lambda s: s["action"] and s["action"]["action"] == "attack" and s["action"]["target"] == "brann"
                      and s["preview"] is not None and s["preview"]["ok"], 20, "the attack previewed")
        pv = st["preview"]["preview"]
        assert pv["cover"] in ("half", "three-quarters", "none") and 0 < pv["hit_chance"] < 1
        assert pv["fall_roll_on_hit"] is False
        st = app.wait(lambda s: tuple(s["window"]["panels"]["preview"][4][:3]) == GREEN_TITLE, 10, "green preview")
        img = app.screenshot()
        assert np.abs(panel_colour(img, st, "preview").astype(int) - GREEN_TITLE).max() < 30
        hp_before = st["state"]["characters"]["brann"]["hp"]
        n_events = st["events"]
        app.key("Return")
        st = app.wait(lambda s: len(s["actions"]) == 2, 20, "the attack done")
        assert st["actions"][1]["action"] == "attack" and st["events"] > n_events
        st = app.idle()
        img = app.screenshot()
        x0, y0, x1, y1, _c = st["window"]["panels"]["log"]      # the log's title: the attack's lines are under it
        assert region_has(img, x0, y0, x1, y1, (38, 48, 70), tol=12, min_px=200)
        assert not region_has(img, x0, 30, x1, 60, GREEN_TITLE, tol=10, min_px=200), "the preview stayed up"

        # undo: the attack is gone, the climb stays; the state is exactly the one before the attack
        app.key("ctrl+z")
        st = app.wait(lambda s: len(s["actions"]) == 1 and s["redo"] == 1, 20, "the undo")
        assert st["state"]["characters"]["brann"]["hp"] == hp_before
        assert st["state"]["characters"]["kite"]["position"] == [7, 2, 4]
        assert st["events"] == n_events
        st = app.idle()
        img = app.screenshot()
        fx, fy = st["window"]["screen"]["kite"][3:5]
        assert region_has(img, fx - 40, fy - 25, fx + 40, fy + 25, SELECT_RING), "the flyer's ring is not at layer 4"
        # the window is still alive and answering
        app.key("ctrl+y")
        app.wait(lambda s: len(s["actions"]) == 2, 20, "the redo")
    finally:
        app.close()


FIGHT = """
[[script]]
actor = "kite"
action = "move"
to = [7, 2, 4]

[[script]]
actor = "kite"
action = "attack"
target = "brann"
weapon = "longbow"

[[script]]
actor = "kite"
action = "end_turn"

[[script]]
actor = "brann"
action = "attack"
target = "kite"
weapon = "shortbow"

[[script]]
actor = "brann"
action = "move"
to = [9, 9, 0]

[[script]]
actor = "brann"
action = "end_turn"

[[script]]
actor = "kite"
action = "move"
to = [8, 3, 2]

[[script]]
actor = "kite"
action = "attack"
target = "brann"
weapon = "longbow"

[[script]]
actor = "kite"
action = "end_turn"

[[script]]
actor = "brann"
action = "attack"
target = "kite"
weapon = "shortbow"

[[script]]
actor = "brann"
action = "end_turn"

[[script]]
actor = "kite"
action = "attack"
target = "brann"
weapon = "longbow"
"""


def _play_action(app, i, act, cm=1.5):
    """One scripted action, the way a player does it: select, hotkey, pick on the map with the mouse, Enter."""
    st = app.state()
    if st["selected"] != act["actor"]:
        app.key("space")
        st = app.wait(lambda s: s["selected"] == act["actor"], 10, f"step {i}: {act['actor']} selected")
    app.key(app.button(act["action"])["hotkey"])
    st = app.wait(lambda s: s["pending"] and s["pending"]["action"] == act["action"], 10, f"step {i}: {act['action']}")
    if "to" in act:
        x, y, layer = act["to"]
        here = st["state"]["characters"][act["actor"]]["position"][2]
        flyer = st["state"]["characters"][act["actor"]]["can_fly"]
        if flyer and layer != here:
            app.key(*(["Page_Up"] * (layer - here) if layer > here else ["Page_Down"] * (here - layer)))
            app.wait(lambda s: s["cursor_layer"] == layer, 10, f"step {i}: cursor at layer {layer}")
        for ox, oy in ((0.5, 0.5), (0.5, 0.9), (0.2, 0.9), (0.8, 0.9), (0.5, 0.1), (0.9, 0.5), (0.1, 0.5)):
            px, py = app.project(((x + ox) * cm, (y + oy) * cm, float(layer)))
            app.click(px, py)
            try:
                app.wait(lambda s: s["action"] and s["action"].get("to") == [x, y, layer], 3, f"step {i}: destination")
                break
            except AssertionError:
                continue
        else:
            raise AssertionError(f"step {i}: could not pick {act['to']} with the mouse")
    if "target" in act:
        st = app.state()
        tx, ty = st["window"]["screen"][act["target"]][:2]
        app.click(tx, ty)
        app.wait(lambda s: s["action"] and s["action"].get("target") == act["target"], 10, f"step {i}: target")
    for _ in range(6):
        st = app.state()
        if all(st["action"] and st["action"].get(k) == v for k, v in act.items()):
            break
        app.key("Tab")
        time.sleep(0.2)
    st = app.wait(lambda s: s["action"] == act, 10, f"step {i}: the action composed as scripted")
    n = len(st["actions"])
    app.key("Return")
    app.wait(lambda s: len(s["actions"]) == n + 1, 20, f"step {i}: confirmed")


def test_scripted_fight_through_the_window_gives_the_same_log_as_aerie_run(display, duel, tmp_path):
    import tomllib

    fight = tmp_path / "fight.toml"
    fight.write_text(SCENE + FIGHT)
    script = tomllib.loads(FIGHT)["script"]
    assert len(script) >= 10
    # the same working folder as the window: the log's session event names the scene by its path from there
    r = subprocess.run([sys.executable, "-m", "engine", "run", str(fight), "--seed", "3", "--log", str(tmp_path / "run.log")],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    app = App(display, fight, tmp_path)
    try:
        app.idle()
        for i, act in enumerate(script):
            _play_action(app, i, act)
        st = app.state()
        assert [a for a in st["actions"]] == script
        app.key("ctrl+s")
        log = tmp_path / "game.save.log.jsonl"
        app.wait(lambda s: "saved" in s["message"][0] and log.exists(), 20, "the save")
        time.sleep(0.3)
        assert log.read_bytes() == (tmp_path / "run.log").read_bytes()
        events = [json.loads(line) for line in log.read_text().splitlines()]
        assert any(e.get("type") == "fall" for e in events), "the fight was meant to show a fall"
        # the saved game loads back (Ctrl+O) to the same state
        app.key("ctrl+z", "ctrl+z")
        app.wait(lambda s: len(s["actions"]) == len(script) - 2, 20, "two undos")
        app.key("ctrl+o")            # the picker, the save first; the undone steps are unsaved work: it asks
        app.wait(lambda s: s["window"]["chooser"] is not None, 20, "the open picker")
        app.key("Return")
        app.wait(lambda s: s["window"]["prompt"] and "redo" in s["window"]["prompt"], 20, "the unsaved-work prompt")
        app.key("y")
        st = app.wait(lambda s: len(s["actions"]) == len(script), 20, "the load")
        assert st["state"] == json.loads(log.read_text().splitlines()[-1])
    finally:
        app.close()


def test_dice_by_hand_help_overlays_and_cameras_with_x_input(display, duel, tmp_path):
    app = App(display, duel, tmp_path)
    try:
        app.idle()
        # a die result entered by hand goes on the next action
        app.key("r")
        app.xdo("type", "--delay", "40", "attack 20")
        app.key("Return")
        st = app.wait(lambda s: s["forced"] == {"attack": 20}, 10, "the hand-entered die")
        app.key(app.button("attack")["hotkey"])
        app.wait(lambda s: s["action"] and s["action"].get("rolls") == {"attack": 20}, 10, "the attack with the die")
        app.key("Return")
        st = app.wait(lambda s: len(s["actions"]) == 1, 20, "the attack")
        assert st["actions"][0]["rolls"] == {"attack": 20} and st["forced"] == {}
        # the wheel sets a flyer's destination altitude while a move is being placed (and zooms otherwise)
        app.key(app.button("move")["hotkey"])
        st = app.wait(lambda s: s["pending"] and s["pending"]["action"] == "move", 10, "move chosen")
        layer0 = st["cursor_layer"]
        app.move(640, 300)
        app.xdo("click", "4")
        app.xdo("click", "4")
        st = app.wait(lambda s: s["cursor_layer"] == layer0 + 2, 10, "two wheel clicks up")
        app.xdo("click", "5")
        st = app.wait(lambda s: s["cursor_layer"] == layer0 + 1 and s["action"] and s["action"]["to"][2] == layer0 + 1,
                      10, "one wheel click down, the destination at that layer")
        app.key("Escape")
        st = app.wait(lambda s: s["pending"] is None, 10, "move cancelled")
        dist0 = np.linalg.norm(np.subtract(st["window"]["camera"]["position"], st["window"]["camera"]["look_at"]))
        app.xdo("click", "4")
        st = app.idle()
        dist1 = np.linalg.norm(np.subtract(st["window"]["camera"]["position"], st["window"]["camera"]["look_at"]))
        assert dist1 < dist0 - 0.5, "the wheel did not zoom"
        # every overlay on its key; the cover map and the movement range come from the worker
        app.key("g", "x", "l", "c", "m", "b", "j")
        st = app.wait(lambda s: all(s["window"]["overlays"].values()) and not s["window"]["busy"], 30, "all overlays")
        img = app.screenshot()
        assert img.shape == (720, 1280, 3)
        # the help overlay lists the bindings; Esc closes it and never quits
        app.key("F1")
        app.wait(lambda s: s["window"]["help"], 10, "help")
        img = app.screenshot()
        assert region_has(img, 500, 300, 780, 420, (10, 12, 18), tol=12, min_px=2000), "no help panel"
        app.key("Escape")
        app.wait(lambda s: not s["window"]["help"], 10, "help closed")
        # free fly: W held moves the eye; P plays the fly-through; K glides to a named camera
        app.key("f")
        st = app.wait(lambda s: s["window"]["camera"]["mode"] == "fly", 10, "free fly")
        eye0 = st["window"]["camera"]["position"]
        app.xdo("keydown", "w")
        time.sleep(0.8)
        app.xdo("keyup", "w")
        st = app.wait(lambda s: s["window"]["camera"]["position"] != eye0, 10, "the eye to move")
        app.key("f", "k")
        # the glide to the camera is animated: wait for it to arrive (idle alone raced it on a loaded machine)
        st = app.wait(lambda s: np.allclose(s["window"]["camera"]["look_at"], [11.0, 12.0, 1.0], atol=0.05), 15,
                      "the glide to the side camera")
        assert st["window"]["camera"]["mode"] == "orbit" and "camera: side" in st["message"][0]
        app.key("p")
        app.wait(lambda s: s["window"]["camera"]["mode"] == "flythrough", 10, "the fly-through")
        assert app.proc.poll() is None
    finally:
        app.close()


def test_demo_opens_the_showcase_in_the_window_when_a_display_exists(display, tmp_path):
    state = tmp_path / "state.json"
    env = dict(os.environ, DISPLAY=display, AERIE_TEST_STATE=str(state))
    env.pop("WAYLAND_DISPLAY", None)
    proc = subprocess.Popen([sys.executable, "-m", "engine", "demo"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        t0 = time.time()
        st = None
        while time.time() - t0 < 90 and proc.poll() is None:
            try:
                st = json.loads(state.read_text())
                if st["window"]["frames"] >= 1:
                    break
            except (FileNotFoundError, ValueError, KeyError):
                pass
            time.sleep(0.2)
        assert st is not None and st["window"]["frames"] >= 1, proc.stdout.read() if proc.poll() is not None else ""
        assert set(st["state"]["characters"]) >= {"wall_archer", "harpy_low", "wyvern_rider"}
        subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", "Aerie", "windowfocus", "--sync",
                        "key", "ctrl+q"], env=env, timeout=30)
        assert proc.wait(20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_bench_window_runs_under_xvfb(display, tmp_path):
    """A smoke test of the benchmark command (no timing is asserted: figures go to docs/performance.md)."""
    env = dict(os.environ, DISPLAY=display)
    env.pop("WAYLAND_DISPLAY", None)
    r = subprocess.run([sys.executable, "-m", "engine", "bench", "window", "--quick"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "overlays on: grid, engagement, sightlines, cover, movement" in r.stdout
    assert "camera orbiting" in r.stdout and "fps" in r.stdout
    forced = next(line for line in r.stdout.splitlines() if "reduced resolution forced" in line)
    assert "at reduced scale" in forced, forced      # the stretched path ran in a real window
