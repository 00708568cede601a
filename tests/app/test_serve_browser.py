"""The player's page in a real browser: Debian's Chromium, headless, driven by Selenium through the system's
chromedriver. It opens a join link of a table served without a window, waits for the map and the first update, takes
a screenshot (AERIE_DOCS_SHOT=PATH also writes it there: docs/images/players_page.png), clicks a cell on the 3D map
as a player would, and sees the table step the move; then a button of the action list ends the turn; then the page's
connection drops while the table plays on, and the page reconnects and catches up."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("aiohttp")
webdriver = pytest.importorskip("selenium.webdriver")

from engine.app.controller import Controller  # noqa: E402
from engine.scene import load_scene  # noqa: E402
from engine.serve import Headless  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
pytestmark = [pytest.mark.window, pytest.mark.slow]


@pytest.fixture
def browser():
    if not (shutil.which(CHROMIUM) and shutil.which(DRIVER)):
        pytest.skip("Debian's chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)")
    from selenium.webdriver.chrome.service import Service

    o = webdriver.ChromeOptions()
    o.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800",
              "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist"):
        o.add_argument(a)
    d = webdriver.Chrome(service=Service(DRIVER), options=o)
    yield d
    d.quit()


def _wait(pred, what, timeout=60.0):
    t0 = time.time()
    while time.time() - t0 < timeout:
        got = pred()
        if got:
            return got
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_join_page_in_chromium_draws_the_scene_and_plays_a_move(browser, tmp_path):
    from PIL import Image
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    ctl = Controller(load_scene(ROOT / "scenes" / "showcase.toml"))
    h = Headless(ctl).start()
    try:
        cur = ctl.session.current
        side = ctl.actor(cur).side
        browser.get(h.url(side))
        body = browser.find_element(By.TAG_NAME, "body")
        _wait(lambda: body.get_attribute("data-map") == "loaded" and body.get_attribute("data-seq") != "0", "the scene")
        assert body.get_attribute("data-map") == "loaded"
        time.sleep(1.0)
        shot = tmp_path / "page.png"
        browser.save_screenshot(str(shot))
        if os.environ.get("AERIE_DOCS_SHOT"):
            shutil.copy(shot, os.environ["AERIE_DOCS_SHOT"])
        img = np.asarray(Image.open(shot).convert("RGB")).astype(int)
        view = img[60:500, 100:800]                            # the 3D view: the map, not an empty canvas
        assert view.std() > 20 and len(np.unique(view.reshape(-1, 3), axis=0)) > 200
        text = browser.find_element(By.ID, "panel").text
        assert f"Side {side}" in text and "Your turn" in text
        # the player clicks a ground cell their character can reach
        st = browser.execute_script("return window.aerie.state")
        me = next(t for t in st["tokens"] if t["id"] == cur)
        w = ctl.session.world
        Z = w.size[2]
        # a cell in another column: the click lands on its surface, the "Fly +" box says how far above it
        ground = [(m, w.support_layer(m[0], m[1], Z)) for m in st["legal"]["moves"] if m[:2] != me["pos"][:2]]
        ground = [(m, f) for m, f in ground if m[2] >= f]
        assert ground, "no cell to click"
        browser.find_element(By.ID, "top").click()                   # looking straight down: nothing in front
        time.sleep(0.5)
        canvas = browser.find_element(By.CSS_SELECTOR, "#view canvas")
        rect = browser.execute_script("return arguments[0].getBoundingClientRect().toJSON()", canvas)
        target = None
        for m, floor in ground:
            sx, sy = browser.execute_script("return window.aerie.screenOf(arguments[0], arguments[1], arguments[2])",
                                            m[0], m[1], floor)
            if rect["left"] + 5 < sx < rect["right"] - 5 and rect["top"] + 50 < sy < rect["bottom"] - 5:
                target = m
                break
        assert target is not None
        fly = browser.find_element(By.ID, "fly")
        fly.clear()
        fly.send_keys(str(target[2] - floor))
        n0 = len(ctl.session.actions)
        ActionChains(browser).move_to_element_with_offset(
            canvas, int(sx - rect["left"] - rect["width"] / 2), int(sy - rect["top"] - rect["height"] / 2)).click().perform()
        _wait(lambda: len(ctl.session.actions) > n0, "the table to step the page's move", 30)
        done = ctl.session.actions[-1]
        assert done["actor"] == cur and done["action"] == "move"
        assert list(done["to"]) == list(target)                   # the cell clicked, at the height asked
        seq = int(body.get_attribute("data-seq"))
        _wait(lambda: int(body.get_attribute("data-seq")) > seq or browser.execute_script(
            "return window.aerie.state.steps") == len(ctl.session.actions), "the page to follow")
        # a button of the action list: end the turn
        btn = _wait(lambda: next((b for b in browser.find_elements(By.CSS_SELECTOR, "#acts button")
                                  if b.get_attribute("data-action") == "end_turn"), None), "the end turn button")
        btn.click()
        _wait(lambda: ctl.session.current != cur, "the turn to pass", 30)
        assert ctl.session.actions[-1]["action"] == "end_turn"
        # the connection dropped: the table plays on; the page reconnects and gets every update it missed, in order
        browser.execute_script("window.aerie.drop()")
        _wait(lambda: body.get_attribute("data-conn") == "closed", "the page to see the drop", 10)
        for _ in range(3):
            h.call(lambda: ctl.step({"actor": ctl.session.current, "action": "end_turn"}))
        last = h.table.seq
        _wait(lambda: browser.execute_script("return window.aerie.seq") == last, "the page to catch up", 30)
        got = browser.execute_script("return window.aerie.received")
        assert got == list(range(got[0], last + 1)), got                  # none lost, none twice, in order
        logs = [e for e in browser.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
        assert not logs, logs
    finally:
        h.stop()
