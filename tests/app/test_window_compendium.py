"""Issue 44 "In the window": the GM's compendium under Xvfb, driven with X input: Ctrl+B opens it, typing
"dragon" searches as it is typed, Enter puts the highlighted dragon at the cell under the mouse -- recorded as
the GM's actions (gm_add, its initiative roll, its place in the turn order) -- and the creature is in the state
file's actors and turn order."""

from __future__ import annotations

import time

import pytest

from test_window import SCENE, App, display  # noqa: F401  (the display fixture)

pytestmark = [pytest.mark.window, pytest.mark.slow]


def test_compendium_search_and_enter_adds_a_dragon_with_initiative(display, tmp_path):
    p = tmp_path / "duel.toml"
    p.write_text(SCENE.replace("size = [16, 16, 10]", "size = [24, 24, 12]"))
    app = App(display, p, tmp_path)
    try:
        st = app.idle()
        n0 = len(st["state"]["order"]) if "order" in st["state"] else None
        x, y = app.project(((14 + 0.5) * 1.5, (16 + 0.5) * 1.5, 0.0))
        app.move(x, y)
        st = app.wait(lambda s: s["hover"] is not None, 10, "a cell under the mouse")
        app.key("ctrl+b")
        st = app.wait(lambda s: s["window"]["compendium"] is not None, 10, "the compendium")
        total = st["window"]["compendium"]["of"]
        assert total >= 334 and st["window"]["compendium"]["found"] == total
        app.xdo("type", "--delay", "40", "dragon")
        st = app.wait(lambda s: s["window"]["compendium"]["query"] == "dragon", 10, "the typed search")
        c = st["window"]["compendium"]
        assert 0 < c["found"] < total and "dragon" in c["current"]["name"].lower()
        assert st["state"]["characters"].keys() == {"kite", "brann"}, (st["actions"], st["message"])  # no map key ran
        time.sleep(0.2)
        app.key("Return")
        st = app.wait(lambda s: len(s["state"]["characters"]) == 3, 30, "the dragon on the table")
        new = next(k for k in st["state"]["characters"] if k not in ("kite", "brann"))
        acts = [a for a in st["actions"] if a["actor"] == "gm"]
        assert acts[0]["action"] == "gm_add" and acts[0]["id"] == new
        assert acts[0].get(c["current"]["how"]) == c["current"]["ref"]
        assert acts[1]["action"] == "gm_roll" and acts[1]["label"] == f"initiative {new}"
        order = st["state"]["order"]
        assert new in order and (n0 is None or len(order) == n0 + 1)
        app.key("Escape")
        app.wait(lambda s: s["window"]["compendium"] is None, 10, "the compendium closed")
    finally:
        app.close()
