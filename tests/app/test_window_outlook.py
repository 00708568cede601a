""""How does this end?" in the window (issue 26): I starts a background run of fights from the table's state, the
panel reads the finished future; the frame loop only polls (the future is one of the workers' watched jobs)."""

from __future__ import annotations

import time
from concurrent.futures import Future, ProcessPoolExecutor

import pytest

from test_window_modes import FakeWin, RecordingHud  # noqa: E402  (pyglet without a display first)

from pyglet.window import key  # noqa: E402

from engine.app import hud as H  # noqa: E402
from engine.app import outlook as OL  # noqa: E402
from engine.app.jobs import Workers  # noqa: E402
from engine.app.panels import table  # noqa: E402
from engine.app.perform import perform  # noqa: E402
from engine.app.sections.base import Layout  # noqa: E402
from engine.app.sections.outlook import HowDoesThisEnd  # noqa: E402
from engine.sim.summary import summarise, wilson  # noqa: E402

from test_window import SCENE, App, display  # noqa: F401,E402  (the display fixture)


class PanelHud(RecordingHud):
    rects: list

    def __init__(self):
        super().__init__()
        self.rects = []

    def block(self, *a):
        pass

    panel = H.Hud.panel


def _win():
    w = FakeWin()
    w.jobs = Workers()
    w.gm = None
    w.panels = {}
    return w


@pytest.mark.unit
def test_i_starts_the_run_and_the_panel_reads_the_finished_future(monkeypatch):
    calls = []

    def fake(session, runs, policies, max_rounds, seed, executor):
        calls.append((list(session.actions), runs, policies, max_rounds, executor))
        return Future()
    monkeypatch.setattr(OL, "how_does_this_end", fake)
    win = _win()
    sides = sorted({a.side for a in win.ctl.state.actors.values()})
    win.key(key.I)
    assert len(calls) == 1
    acts, runs, pol, mr, ex = calls[0]
    assert acts == [] and runs == OL.RUNS and mr == OL.MAX_ROUNDS and pol == {s: "aggressive" for s in sides}
    assert isinstance(ex, ProcessPoolExecutor)
    assert "outlook" in win.jobs.jobs and not win.jobs.collect()      # polled, nothing in yet
    rows = [t for t, _ in OL.rows(win)]
    assert rows[-1] == f"running... {OL.RUNS} fights (the table goes on)"
    win.key(key.I)                                                      # a second press while it runs
    assert len(calls) == 1 and "still running" in win.said[-1]
    # the fights' rows, summarised as the background process does: 3 red wins, 1 draw at the cap
    fight_rows = [{"winner": "red", "rounds": 4}, {"winner": "red", "rounds": 6}, {"winner": "red", "rounds": 5},
                  {"winner": "", "rounds": 20, "capped": True}]
    fut = win.outlook.future
    fut.set_result(summarise(fight_rows, sides))
    assert win.jobs.collect()                                           # the frame's poll takes it in
    section = HowDoesThisEnd()
    assert section.visible(table(win))
    before = section.depends(table(win))
    win.hud = PanelHud()
    L = Layout(1280, 720, 18, False, rw=380, ry=40)
    section.build(table(win), L)
    lo, hi = wilson(3, 4)
    want = f"red wins 75.0% (95% {100 * lo:.1f}%..{100 * hi:.1f}%)"
    assert want in win.hud.texts
    assert any(t.startswith("blue wins 0.0% (95% 0.0%..") for t in win.hud.texts)
    assert "draws 25.0% (1 of 4, 1 at the round cap)" in win.hud.texts
    assert "rounds: mean 8.8, median 5.5, 10%..90% 4.3..15.8" in win.hud.texts
    assert win.hud.texts[-1].startswith("for the state now (action 0)")
    assert L.ry > 40 and ("outlook", None) in [r[4] for r in win.hud.rects]
    # an action taken: the answer stays, marked as the answer for the state it was asked at
    win.ctl.step({"actor": win.ctl.session.current, "action": "end_turn"})
    assert section.depends(table(win)) != before
    assert OL.rows(win)[-1][0].startswith("for the state at action 0 (now 1): I asks again")
    # Shift+I: another policy; I asks again from the new state
    win.key(key.I, key.MOD_SHIFT)
    win.key(key.I)
    assert len(calls) == 2 and calls[1][0] == win.ctl.session.actions and set(calls[1][2].values()) == {"cautious"}
    perform(win, section.on_click(table(win), "outlook", None))
    assert not section.visible(table(win))
    win.jobs.shutdown()
    assert win.outlook.pool is None


@pytest.mark.unit
def test_closing_the_window_ends_a_run_still_going():
    from test_window_modes import ROOT

    from engine.scene import load_scene
    from engine.rules.session import Session

    o = OL.Outlook()
    s = Session(load_scene(str(ROOT / "scenes" / "showcase.toml")), 2)
    jobs = Workers()
    fut = OL.how_does_this_end(s, runs=100000, max_rounds=30, executor=o.executor())
    jobs.watch("outlook", 0, fut, stop=o.stop)
    procs = list(o.pool._processes.values())
    assert procs and all(p.is_alive() for p in procs)
    jobs.shutdown()                                    # what the window's quit does
    for p in procs:                   # (the pool's own thread may reap it first: poll until this object knows)
        deadline = time.monotonic() + 60
        while p.is_alive() and time.monotonic() < deadline:
            p.join(0.5)
        assert not p.is_alive()
    with pytest.raises(Exception):
        fut.result(timeout=30)


@pytest.mark.window
@pytest.mark.slow
def test_i_in_the_real_window_shows_the_win_rates_and_the_table_goes_on(display, tmp_path, monkeypatch):
    import shutil

    monkeypatch.setenv("AERIE_OUTLOOK_RUNS", "6")
    monkeypatch.setenv("AERIE_OUTLOOK_ROUNDS", "6")
    scene = tmp_path / "duel.toml"
    scene.write_text(SCENE)
    app = App(display, scene, tmp_path)
    try:
        app.idle()
        app.key("i", "i")                  # the second press while it runs says so
        st = app.wait(lambda s: "still running" in s["message"][0], 20, "the second press answered")

        def texts(s):
            return [t[4] for t in s["window"]["texts"]]
        assert any(t.startswith("running... 6 fights") for t in texts(st)) or \
            any(t.startswith("blue wins") for t in texts(st))
        st = app.wait(lambda s: any(t.startswith("blue wins") and "(95% " in t for t in texts(s)), 240,
                      "the panel's win rates")
        assert any(t.startswith("red wins") and "(95% " in t for t in texts(st))
        assert any(t.startswith("for the state now (action 0)") for t in texts(st))
        shot = app.screenshot()
        assert shot.shape[:2] == (720, 1280)
        app.key(app.button("end_turn")["hotkey"])
        app.wait(lambda s: s["action"] and s["action"]["action"] == "end_turn", 10, "end turn composed")
        app.key("Return")
        app.wait(lambda s: any(t.startswith("for the state at action 0 (now 1)") for t in texts(s)), 30,
                 "the answer marked as the earlier state's")
        last = sorted((tmp_path / "shots").glob("*.png"))[-1]
        shutil.copy(last, tmp_path / "outlook.png")
    finally:
        app.close()


@pytest.mark.unit
def test_fights_from_a_game_at_its_start_each_roll_their_own_dice():
    """The window's question at action 0 (no prefix to replay): every fight played the session's own dice, so all
    100 were one fight ("red 100%, rounds 6..6") before engine/sim/fight.py reseeded them without a prefix too."""
    from test_window_modes import ROOT

    from engine.rules.session import Session
    from engine.scene import load_scene
    from engine.sim.background import plan_from
    from engine.sim.runner import run_local

    s = Session(load_scene(str(ROOT / "scenes" / "showcase.toml")), 7)
    plan = plan_from(s, None, 20)
    rows = run_local([plan], 6, 1, 1, False).sorted_rows()
    assert all(r["outcome"] != "error" for r in rows)
    fights = {tuple(sorted((k, str(v)) for k, v in r.items() if k not in ("index", "seed", "replay"))) for r in rows}
    assert len(fights) > 1


@pytest.mark.unit
def test_the_gm_chooses_each_sides_policy_before_the_run(monkeypatch):
    """Issue 26 (the window's part): every side played one policy (Shift+I cycled them all). Now the panel opens
    before a run with a row per side; a click on a side's row gives that side the next policy (the registered
    ones too), and I runs with exactly those."""
    from engine.sim import policies as P

    calls = []

    def fake(session, runs, policies, max_rounds, seed, executor):
        calls.append(dict(policies))
        return Future()
    monkeypatch.setattr(OL, "how_does_this_end", fake)
    monkeypatch.setitem(P.POLICIES, "turtle", P.POLICIES["cautious"])        # a registered one
    win = _win()
    sides = sorted({a.side for a in win.ctl.state.actors.values()})
    assert len(sides) == 2
    section = HowDoesThisEnd()
    assert not section.visible(table(win))
    win.key(key.I, key.MOD_SHIFT)                          # the panel, to choose (every side: cautious)
    assert section.visible(table(win)) and not calls
    win.hud = PanelHud()
    section.build(table(win), Layout(1280, 720, 18, False, rw=380, ry=40))
    side_rects = {r[4][1]: r for r in win.hud.rects if r[4][0] == "outlook_side"}
    assert set(side_rects) == set(sides)
    assert f"{sides[0]}: cautious  (click: next policy)" in win.hud.texts
    r = side_rects[sides[0]]                             # a click on the first side's row, through the HUD's hit test
    hit = next(ident for x0, y0, x1, y1, ident in reversed(win.hud.rects)
               if x0 <= (r[0] + r[2]) / 2 <= x1 and y0 <= (r[1] + r[3]) / 2 <= y1)
    assert hit == ("outlook_side", sides[0])
    perform(win, section.on_click(table(win), *hit))
    assert OL.outlook(win).choice(sides) == {sides[0]: "random", sides[1]: "cautious"}
    perform(win, section.on_click(table(win), *hit))       # random -> the registered one (after the shipped three)
    assert OL.outlook(win).choice(sides)[sides[0]] == "turtle" and "turtle" in OL.policy_names()
    win.key(key.I)
    assert calls == [{sides[0]: "turtle", sides[1]: "cautious"}]
    assert OL.rows(win)[0][0].startswith(f"{OL.RUNS} fights, {sides[0]} turtle, {sides[1]} cautious")
    win.jobs.shutdown()
