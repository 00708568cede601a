"""``aerie play SCENE --serve`` in the real program under Xvfb: the join lines printed and shown as QR codes (F6),
a page's action stepped by the GM's window as a GM's click (its state file shows it), the GM's approval (Ctrl+Enter), a bad address refused in one
line before any window opens, and the server gone with the window."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

aiohttp = pytest.importorskip("aiohttp")

from test_window import App, display  # noqa: E402,F401  (the display fixture)

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.window, pytest.mark.slow]
JOIN = re.compile(r"^join (\w+): http://([\d.]+):(\d+)/join/([A-Za-z0-9_-]{22,})$", re.M)


class ServedApp(App):
    """``aerie play --serve 127.0.0.1:0`` (a free port) with the test-state hook."""

    def __init__(self, display, scene_path: Path, tmp: Path, extra=()):
        self.display = display
        self.tmp = tmp
        self.state_file = tmp / "state.json"
        self.env = dict(os.environ, DISPLAY=display, AERIE_TEST_STATE=str(self.state_file),
                        AERIE_SCREENSHOT_DIR=str(tmp / "shots"), AERIE_SAVE=str(tmp / "game.save.json"))
        self.env.pop("WAYLAND_DISPLAY", None)
        self.log = open(tmp / "app.log", "w")
        self.proc = subprocess.Popen([sys.executable, "-m", "engine", "play", str(scene_path), "--seed", "3",
                                      "--size", "960x600", "--serve", "127.0.0.1:0", *extra], cwd=tmp, env=self.env,
                                     stdout=self.log, stderr=subprocess.STDOUT)
        self.wait(lambda s: s["window"]["frames"] >= 1, 90, "the window to draw")
        out = self.xdo("search", "--sync", "--onlyvisible", "--name", "Aerie")
        self.wid = out.split()[0]
        self.xdo("windowfocus", "--sync", self.wid)
        time.sleep(0.3)
        self.joins = {m.group(1): m.groups() for m in JOIN.finditer(self.app_log())}


async def _act(host, port, token, act, want_ok=True):
    async with aiohttp.ClientSession() as s:
        ws = await s.ws_connect(f"http://{host}:{port}/ws?token={token}")
        first = None
        while first is None:
            d = json.loads((await asyncio.wait_for(ws.receive(), 20)).data)
            first = d if d["type"] == "state" else None
        await ws.send_json({"type": "act", "action": act})
        while True:
            d = json.loads((await asyncio.wait_for(ws.receive(), 20)).data)
            if d["type"] in ("ok", "error"):
                await ws.close()
                return first, d


def test_serve_prints_join_lines_and_a_pages_action_is_stepped_by_the_window(display, tmp_path):
    app = ServedApp(display, ROOT / "scenes" / "baton_passing.toml", tmp_path)
    try:
        assert set(app.joins) == {"party", "brigands"}, app.app_log()
        # the join codes over the window at the start: white cards with black modules; F6 hides them
        img = app.screenshot()
        if os.environ.get("AERIE_DOCS_QR"):
            from PIL import Image

            Image.fromarray(img).save(os.environ["AERIE_DOCS_QR"])
        white = (img > 245).all(axis=2)
        black = (img < 10).all(axis=2)
        assert white.sum() > 20_000 and black.sum() > 5_000, (white.sum(), black.sum())
        app.key("F6")
        time.sleep(0.5)
        img2 = app.screenshot()
        assert (img2 > 245).all(axis=2).sum() < white.sum() / 4
        st = app.state()
        cur = st["state"]["current"]
        side = st["state"]["characters"][cur]["side"]
        _s, host, port, token = app.joins[side]
        first, got = asyncio.run(_act(host, int(port), token, {"actor": cur, "action": "shout"}))
        assert first["turn"]["mine"] and got == {"type": "ok", "for": "act"}, got
        st = app.wait(lambda s: s["actions"] and s["actions"][-1]["action"] == "shout", 20, "the window to step it")
        assert st["actions"][-1]["actor"] == cur
        # the other side's token cannot act for this side
        other = next(k for k in app.joins if k != side)
        _f, got = asyncio.run(_act(host, int(port), app.joins[other][3], {"actor": cur, "action": "shout"}))
        assert got["type"] == "error"
        assert "Traceback" not in app.app_log(), app.app_log()
    finally:
        app.close()
    assert app.proc.returncode == 0
    with pytest.raises(OSError):                    # the server went with the window
        import socket

        socket.create_connection((host, int(port)), timeout=2).close()


def test_serve_with_approval_waits_for_ctrl_enter(display, tmp_path):
    app = ServedApp(display, ROOT / "scenes" / "baton_passing.toml", tmp_path, extra=("--approve",))
    try:
        st = app.state()
        cur = st["state"]["current"]
        side = st["state"]["characters"][cur]["side"]
        _s, host, port, token = app.joins[side]
        _f, got = asyncio.run(_act(host, int(port), token, {"actor": cur, "action": "shout"}))
        assert got.get("waiting"), got
        app.wait(lambda s: "asks" in s["message"][0], 10, "the GM told")
        time.sleep(0.5)
        assert app.state()["actions"] == []                   # not before the GM approves
        app.key("ctrl+Return")
        app.wait(lambda s: s["actions"] and s["actions"][-1]["action"] == "shout", 20, "the approved action")
    finally:
        app.close()


def test_a_bad_serve_address_is_one_line_and_no_window(display, tmp_path):
    env = dict(os.environ, DISPLAY=display)
    r = subprocess.run([sys.executable, "-m", "engine", "play", str(ROOT / "scenes" / "feat_lucky.toml"),
                        "--serve", "nowhere:port"], env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "--serve" in lines[0] and "Traceback" not in r.stderr, r.stderr


def test_a_port_in_use_is_one_line_and_exit_2(display, tmp_path):
    import socket

    env = dict(os.environ, DISPLAY=display)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = subprocess.run([sys.executable, "-m", "engine", "play", str(ROOT / "scenes" / "feat_lucky.toml"),
                            "--serve", f"127.0.0.1:{port}"], env=env, capture_output=True, text=True, timeout=120,
                           cwd=tmp_path)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and f"--serve 127.0.0.1:{port}: cannot listen there" in lines[0], r.stderr
