"""A monkey test of the real window (``aerie play`` under Xvfb, pyglet's own event loop): a few hundred random
X events -- keys with and without modifiers, typed text, clicks, drags (Alt too), the wheel, the window's own
buttons and characters, GM lines, F4's second window --, seeded, so a failure replays. After them the program
runs, printed no traceback, wrote nothing beside its own folder, and its state is exactly a replay of the actions
it recorded (scene, seed and actions from its test-state file): nothing done in the window escaped the log.

Each bug it found has its own test (test_window_players.py, test_window_fixes.py item 5, test_gm_table.py,
test_window_storeys.py); this one keeps looking. ``AERIE_MONKEY_EVENTS`` sets the count (default 250)."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from test_window import App, display  # noqa: F401  (the display fixture)
from tiers import sample

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.window, pytest.mark.slow]

KEYS = list("abcdefghijklmnopqrstuvwxyz0123456789") + [
    "Return", "Escape", "Tab", "Left", "Right", "Up", "Down", "Prior", "Next", "bracketleft", "bracketright",
    "space", "comma", "period", "semicolon", "slash", "F1", "F2", "F3", "F4", "F12", "BackSpace", "minus", "Home"]
COMMON = ["1", "2", "3", "4", "5", "Return", "Return", "Return", "Tab", "t", "space", "Escape"]
MODS = ["", "", "", "", "shift+", "ctrl+", "alt+"]


class Monkey:
    def __init__(self, app: App, seed: int, folder: Path, size=(1280, 720)):
        self.app, self.rng, self.folder, self.size = app, random.Random(seed), folder, size
        self.events: list = []

    def xdo(self, *a):
        subprocess.run(["xdotool", *a], env=self.app.env, capture_output=True, text=True, timeout=30)

    def point(self):
        return self.rng.randint(0, self.size[0] - 1), self.rng.randint(0, self.size[1] - 1)

    def click(self, x, y, b):
        self.xdo("mousemove", "--window", self.app.wid, str(x), str(y))
        self.xdo("click", str(b))

    def key(self, k):
        self.events.append(("key", k))
        self.xdo("key", "--window", self.app.wid, k)

    def gm_line(self, st):
        rng = self.rng
        names = [t.get("name", "x") for t in ((st.get("window") or {}).get("tokens") or {}).values()] or ["nobody"]
        nm = rng.choice(names + ["zz"])
        line = rng.choice([
            f"hp {nm} {rng.randint(-5, 200)}", f"cond {nm} {rng.choice('+-')}{rng.choice(['prone', 'grappled', 'x'])}",
            f"place {nm} {rng.randint(-2, 40)} {rng.randint(-2, 40)} {rng.randint(-1, 30)}", f"remove {nm}",
            f"order {nm} after {rng.choice(names)}", f"roll {rng.randint(0, 9)}d{rng.choice([4, 6, 20, 0])}+1",
            f'add "{nm}x" archer side=red at {rng.randint(0, 12)} {rng.randint(0, 12)} {rng.randint(0, 5)}',
            f"save scene {self.folder / 'saved.toml'}", f"start {self.folder / 'scene.toml'}", "blocks", "junk words"])
        self.events.append(("gm", line))
        self.xdo("key", "--window", self.app.wid, "semicolon")
        self.xdo("type", "--window", self.app.wid, line)
        self.xdo("key", "--window", self.app.wid, "Return")

    def one(self):
        rng = self.rng
        r = rng.random()
        if r < 0.06:
            self.gm_line(self.app.state())
        elif r < 0.35:                     # a button of the window or a character on screen, then maybe Enter
            w = self.app.state().get("window", {})
            opts = [((b["x0"] + b["x1"]) / 2, (b["y0"] + b["y1"]) / 2) for b in w.get("buttons", [])]
            opts += [(p[0], p[1]) for p in (w.get("screen") or {}).values() if p[2]]
            if opts:
                x, y = rng.choice(opts)
                x, y = int(min(max(x, 0), self.size[0] - 1)), int(min(max(y, 0), self.size[1] - 1))
                b = 1 if rng.random() < 0.85 else 3
                self.events.append(("click", x, y, b))
                self.click(x, y, b)
                if rng.random() < 0.5:
                    self.key("Return")
        elif r < 0.70:
            k = rng.choice(MODS) + rng.choice(KEYS) if rng.random() < 0.5 else rng.choice(COMMON)
            self.key("q" if k == "ctrl+q" else k)      # quitting (save first? Enter: yes) would end the test early
        elif r < 0.75:
            text = "".join(rng.choice("abc xyz 0123 +-hp;\"=") for _ in range(rng.randint(1, 10)))
            self.events.append(("type", text))
            self.xdo("type", "--window", self.app.wid, text)
        elif r < 0.88:
            x, y = self.point()
            b = rng.choice([1, 1, 3, 2, 4, 5])
            self.events.append(("click", x, y, b))
            self.click(x, y, b)
        else:
            (x, y), (x2, y2) = self.point(), self.point()
            b, mod = rng.choice([1, 1, 3, 2]), rng.choice([None, None, "alt"])
            self.events.append(("drag", x, y, x2, y2, b, mod))
            self.xdo("mousemove", "--window", self.app.wid, str(x), str(y))
            if mod:
                self.xdo("keydown", mod)
            self.xdo("mousedown", str(b))
            self.xdo("mousemove", "--window", self.app.wid, str((x + x2) // 2), str((y + y2) // 2))
            self.xdo("mousemove", "--window", self.app.wid, str(x2), str(y2))
            self.xdo("mouseup", str(b))
            if mod:
                self.xdo("keyup", mod)
        time.sleep(rng.choice([0.0, 0.02, 0.05, 0.2]))


def _replay(state: dict, cwd: Path) -> dict:
    from engine.rules.session import Session
    from engine.scene import load_scene

    s = Session(load_scene(cwd / state["scene"]), state["seed"])        # a relative path is the window's cwd's
    for a in state["actions"]:
        s.step(a)
    return json.loads(json.dumps(s.state.to_dict(), sort_keys=True, default=str))


@pytest.mark.parametrize("seed,scene", [(1, "showcase.toml"), (2, "baton_objects.toml")])
def test_random_input_never_breaks_the_window_or_escapes_the_log(display, tmp_path, seed, scene):
    work = tmp_path / "table"
    work.mkdir()
    shutil.copy(ROOT / "scenes" / scene, work / "scene.toml")
    before = (work / "scene.toml").read_bytes()
    shipped = {p.name: p.read_bytes() for p in (ROOT / "scenes").iterdir()}
    app = App(display, work / "scene.toml", work, seed=3)
    monkey = Monkey(app, seed, work)
    n = int(os.environ.get("AERIE_MONKEY_EVENTS", sample(80, 250)))       # make test: 80 events a scene; make slow: 250
    try:
        for i in range(n):
            monkey.one()
            if i % 25 == 24:
                assert app.proc.poll() is None, (monkey.events[-30:], app.app_log())
                assert "Traceback" not in app.app_log(), (monkey.events[-30:], app.app_log())
        time.sleep(1.0)
        assert app.proc.poll() is None, (monkey.events[-30:], app.app_log())
        log = app.app_log()
        assert "Traceback" not in log, (monkey.events[-30:], log)
        st = app.wait(lambda s: not s["window"]["busy"] and not s["window"]["animating"], 60, "the window idle")
        assert json.loads(json.dumps(st["state"], sort_keys=True)) == _replay(st, work), monkey.events[-30:]
        assert (work / "scene.toml").read_bytes() == before          # the scene played is never written over,
        assert {p.name: p.read_bytes() for p in (ROOT / "scenes").iterdir()} == shipped     # nor any other
    finally:
        app.close()
