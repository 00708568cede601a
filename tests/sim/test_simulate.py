"""`aerie simulate` (engine/sim): determinism across workers, replays of kept fights, faults, policies' choices on
hand-made positions, the summary's statistics, outputs and bad arguments. The Ray tests are in
tests/sim/test_simulate_ray.py."""

import csv
import io
import json
import sys

import importlib.util
from pathlib import Path

import pytest

from engine.rules.core import dumps
from engine.rules.session import Session
from engine.sim import fight, output, policies, runner, summary
from engine.sim.fight import Plan, fight_seed
from engine.scene import load_scene, parse_scene

pytestmark = pytest.mark.unit

ARCHER_SCENE = """
name = "Archer's choice"
ruleset = "dnd5e"
seed = 1
[options]
rolls = { initiative = [20, 2, 1] }
[map]
size = [16, 16, 6]
[[characters]]
id = "archer"
kind = "archer"
side = "red"
at = [2, 2, 0]
weapons = ["longbow"]
abilities = { dex = 16 }
[[characters]]
id = "plate"
kind = "knight"
side = "blue"
at = [10, 2, 0]
ac = 20
max_hp = 30
weapons = ["longsword"]
[[characters]]
id = "cloth"
kind = "archer"
side = "blue"
at = [2, 10, 0]
ac = 10
max_hp = 30
weapons = ["longsword"]
"""

FLYER_SCENE = """
name = "Flyer and knight"
ruleset = "dnd5e"
seed = 1
[options]
rolls = { initiative = [20, 1] }
[map]
size = [20, 20, 8]
[[characters]]
id = "harpy"
kind = "harpy"
side = "blue"
flying = true
at = [10, 10, 2]
speed_m = 6
fly_speed_m = 12
weapons = ["claws"]
[[characters]]
id = "knight"
kind = "knight"
side = "red"
at = [10, 14, 0]
weapons = ["longsword"]
"""


def _rows(path):
    return list(csv.DictReader(io.StringIO(path.read_text())))


# -- policies on hand-made positions ----------------------------------------------------------------------------
def test_aggressive_archer_shoots_the_target_with_the_best_expected_damage():
    s = Session(parse_scene(ARCHER_SCENE, "<archer>"), 1)
    assert s.current == "archer"
    archer = s.state.actors["archer"]
    attacks = [a for a in s.legal_actions() if a["action"] == "attack"]
    assert [a["target"] for a in attacks][0] == "plate"          # list order alone would pick the armoured one
    expected = {a["target"]: s.preview(a)["hit_chance"] * s.ruleset.damage_on_hit(s, a) for a in attacks}
    assert expected["cloth"] > expected["plate"]
    choice = policies.aggressive(s, archer, __import__("random").Random(0))
    assert choice["action"] == "attack" and choice["target"] == "cloth"


def test_damage_on_hit_is_the_weapons_mean_and_modifier():
    s = Session(parse_scene(ARCHER_SCENE, "<archer>"), 1)
    a = next(a for a in s.legal_actions() if a["action"] == "attack")
    assert s.ruleset.damage_on_hit(s, a) == pytest.approx(4.5 + 3)       # longbow 1d8, dex 16
    assert s.ruleset.damage_on_hit(s, {"actor": "archer", "action": "end_turn"}) is None


def _in_knights_reach(s):
    from engine.world.volumes import Weapons, may_attack
    import numpy as np

    k, h = s.state.actors["knight"], s.state.actors["harpy"]
    reach, _ = s.ruleset.attack_reach(s, k)
    return bool(may_attack(k.body(), np.array([h.pos]), Weapons(reach, None), s.world.cell_m)[0])


def test_cautious_flyer_ends_out_of_reach_where_aggressive_closes_in():
    import random

    for name, want_in_reach in (("cautious", False), ("aggressive", True)):
        s = Session(parse_scene(FLYER_SCENE, "<flyer>"), 1)
        assert s.current == "harpy" and not _in_knights_reach(s)
        act = policies.POLICIES[name](s, s.state.actors["harpy"], random.Random(3))
        assert act["action"] == "move"
        s.step(act)
        assert _in_knights_reach(s) is want_in_reach, name


def test_a_policy_is_resolved_from_a_file_and_unknown_ones_are_refused(tmp_path):
    f = tmp_path / "mine.py"
    f.write_text("def first(session, actor, rng):\n    return session.legal_actions(actor.id)[0]\n")
    assert policies.resolve(f"{f}:first").__name__ == "first"
    with pytest.raises(Exception, match="unknown policy"):
        policies.resolve("brave")
    with pytest.raises(Exception, match="no function 'second'"):
        policies.resolve(f"{f}:second")


# -- statistics ---------------------------------------------------------------------------------------------
def test_wilson_interval_matches_the_published_values():
    lo, hi = summary.wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = summary.wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    assert summary.quantile([1, 2, 3, 4], 0.5) == 2.5


def test_paired_difference_of_identical_variants_is_exactly_zero_and_of_a_flip_is_one():
    a = [{"index": i, "winner": "red" if i % 2 else "blue", "outcome": "win"} for i in range(10)]
    d = summary.paired_difference(a, a, ["blue", "red"])
    assert all(v["difference"] == 0 and v["low"] == 0 and v["changed"] == 0 for v in d["sides"].values())
    b = [dict(r, winner="red") for r in a]
    d = summary.paired_difference(a, b, ["blue", "red"])
    assert d["sides"]["red"]["difference"] == pytest.approx(0.5) and d["sides"]["red"]["changed"] == 5


# -- determinism, replay, faults -------------------------------------------------------------------------------
def test_fight_seeds_come_from_seed_and_index_only():
    assert fight_seed(7, 3) == fight_seed(7, 3) != fight_seed(7, 4) != fight_seed(8, 3)
    assert 0 <= fight_seed(-5, 10**6) < 2 ** 52


def test_every_run_starts_with_the_rules_memo_tables_empty_and_gives_the_same_rows():
    """A forked pool would inherit its parent's path searches (the same fights, in the bench); a Ray worker keeps
    a run's tables for that run's batches only."""
    from engine.rules import pathing

    scene = load_scene("air_low_wall")
    plan = Plan(scene, {s: "aggressive" for s in {c.side for c in scene.characters}}, 5, False, {}, "a", "air_low_wall")
    first = runner.run_local([plan], 2, 3, 1, False).sorted_rows()
    assert pathing._SEARCHES                              # the run filled them...
    pathing._SEARCHES["sentinel"] = None
    again = runner.run_local([plan], 2, 3, 1, False).sorted_rows()
    assert "sentinel" not in pathing._SEARCHES           # ...and the next one started without them
    assert again == first
    runner._ray_batch({"a": plan}, 3, "a", [0], False, "run-1")
    pathing._SEARCHES["sentinel"] = None
    runner._ray_batch({"a": plan}, 3, "a", [1], False, "run-1")      # the same run: kept
    assert "sentinel" in pathing._SEARCHES
    rows = runner._ray_batch({"a": plan}, 3, "a", [0, 1], False, "run-2")  # a new run: emptied first
    assert "sentinel" not in pathing._SEARCHES
    assert [r[2] for r in rows] == first


def test_rows_are_identical_on_one_and_two_workers(aerie, tmp_path):
    outs = []
    for k in (1, 2):
        o = tmp_path / f"w{k}.csv"
        r = aerie("simulate", "air_low_wall", "--runs", "6", "--seed", "3", "--workers", k,
                  "--policy", "red=aggressive", "--policy", "blue=cautious", "-o", o)
        assert r.returncode == 0, r.stderr
        outs.append(o.read_bytes())
    assert outs[0] == outs[1]
    rows = list(csv.DictReader(io.StringIO(outs[0].decode())))
    assert [int(r["index"]) for r in rows] == list(range(6))
    assert [int(r["seed"]) for r in rows] == [fight_seed(3, i) for i in range(6)]
    assert len({r["steps"] for r in rows}) > 1                # different fights, not one fight six times


def _played_log(scene_name, seed, index, pol, after_script=False):
    """The event log of fight ``index`` as the simulation played it, in ``aerie run --log`` form."""
    captured = {}
    real = fight.Session

    class Spy(real):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            captured["s"] = self

    fight.Session = Spy
    try:
        scene = load_scene(scene_name)
        plan = Plan(scene, {s: pol for s in {c.side for c in scene.characters}}, 30, after_script, {}, "a", scene_name)
        fight.play(plan, seed, index)
    finally:
        fight.Session = real
    s = captured["s"]
    return "\n".join([dumps(e) for e in s.events] + [dumps(s.state.to_dict())]) + "\n"


@pytest.mark.parametrize("scene,extra", [("showcase", []), ("air_fall_table", ["--after-script"])])
def test_a_kept_fight_replays_to_the_same_event_log_byte_for_byte(aerie, tmp_path, scene, extra):
    logs = tmp_path / "logs"
    sides = sorted({c.side for c in load_scene(scene).characters})
    r = aerie("simulate", scene, "--runs", "3", "--seed", "11", "--workers", "1", "--keep-logs", logs,
              *[f"--policy={s}=aggressive" for s in sides], *extra)
    assert r.returncode == 0, r.stderr
    cmds = (logs / "replay.txt").read_text().splitlines()
    assert len(cmds) == 3 and cmds[2].startswith(f"aerie run {scene} --seed {fight_seed(11, 2)} --actions ")
    out = tmp_path / "replayed.jsonl"
    r = aerie("run", scene, "--seed", fight_seed(11, 2), "--actions", logs / "fight_2.json", "--log", out)
    assert r.returncode == 0, r.stderr
    assert out.read_text() == _played_log(scene, 11, 2, "aggressive", after_script=bool(extra))


def test_a_fight_that_raises_is_recorded_with_its_replay_and_the_run_goes_on(aerie, tmp_path):
    target = fight_seed(5, 2)
    f = tmp_path / "flaky.py"
    f.write_text("from engine.sim.policies import aggressive\n"
                 "def flaky(session, actor, rng):\n"
                 f"    if session.seed == {target} and session.state.round == 2:\n"
                 "        raise RuntimeError('policy bug')\n"
                 "    return aggressive(session, actor, rng)\n")
    o = tmp_path / "rows.jsonl"
    r = aerie("simulate", "showcase", "--runs", "4", "--seed", "5", "--workers", "2", "--policy", f"red={f}:flaky",
              "-o", o)
    assert r.returncode == 1, r.stderr
    rows = [json.loads(line) for line in o.read_text().splitlines()]
    assert [row["index"] for row in rows] == [0, 1, 2, 3]
    bad = [row for row in rows if row["outcome"] == "error"]
    assert [row["index"] for row in bad] == [2]
    assert "policy bug" in bad[0]["error"] and bad[0]["replay"] == f"aerie run showcase --seed {target} --actions fight_2.json"
    assert "fight 2 raised" in r.stdout


def test_vs_the_same_scene_changes_nothing_on_the_same_seeds(aerie):
    r = aerie("simulate", "air_low_wall", "--runs", "4", "--workers", "1", "--vs", "air_low_wall", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["summaries"]["a"] == out["summaries"]["b"]
    assert all(v["changed"] == 0 and v["difference"] == 0 for v in out["difference"]["sides"].values())


def test_set_plays_the_variant_with_the_option_changed(aerie, tmp_path):
    o = tmp_path / "rows.csv"
    r = aerie("simulate", "air_low_wall", "--runs", "3", "--workers", "1", "--set", "fall_roll_on=hit", "-o", o)
    assert r.returncode == 0, r.stderr
    rows = _rows(o)
    assert [r["variant"] for r in rows] == ["a"] * 3 + ["b"] * 3
    assert "difference, with fall_roll_on=hit minus air_low_wall" in r.stdout


# -- outputs ---------------------------------------------------------------------------------------------------
def test_outputs_hold_one_row_per_fight_in_every_format(aerie, tmp_path):
    pytest.importorskip("pyarrow")
    r = aerie("simulate", "showcase", "--runs", "2", "--workers", "1", "-o", tmp_path / "r.parquet",
              "--report", tmp_path / "r.png", "--policy", "red=aggressive")
    assert r.returncode == 0, r.stderr
    import pyarrow.parquet as pq

    t = pq.read_table(tmp_path / "r.parquet")
    assert t.num_rows == 2 and "knight.dealt" in t.column_names and "rule.DND-16" in t.column_names
    from PIL import Image

    assert Image.open(tmp_path / "r.png").size == (1200, 760)
    r = aerie("simulate", "showcase", "--runs", "1", "--workers", "1", "--report", tmp_path / "r.html")
    assert r.returncode == 0 and "data:image/png;base64," in (tmp_path / "r.html").read_text()


def test_parquet_without_pyarrow_is_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(Exception, match=r"pyarrow \(the 'parquet' extra\).*\.csv / \.jsonl"):
        output.encode([{"index": 0}], ".parquet")


def test_ctrl_c_writes_what_was_done_marked_partial(tmp_path, monkeypatch, capsys):
    from engine import cli
    from engine.sim import runner

    real, calls = runner.run_batch, []

    def interrupted(*a, **k):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(runner, "run_batch", interrupted)
    o = tmp_path / "rows.csv"
    code = cli.main(["simulate", "air_low_wall", "--runs", "8", "--workers", "1", "-o", str(o)])
    assert code == 130
    rows = _rows(o)
    done = 2 * runner.batch_size(8, 1)                                       # the two batches before the third
    assert 0 < done < 8
    assert len(rows) == done and all(r["partial"] == "True" for r in rows)
    assert f"interrupted: {done} of 8 fights done" in capsys.readouterr().err


@pytest.mark.parametrize("args,message", [
    (["--policy", "red=brave"], "unknown policy 'brave'"),
    (["--policy", "green=random"], "no side 'green'"),
    (["--policy", "red"], "expected SIDE=POLICY"),
    (["--runs", "0"], "must be positive"),
    (["--ray", "127.0.0.1:1"], "cannot reach the Ray head"),
    (["--set", "no_such_option=1"], "--set"),
    (["-o", "rows.xlsx"], "must end in .csv or .jsonl or .parquet"),
    (["--policy", "red=random", "--policy", "red=aggressive"], "side 'red' is given a policy twice"),
    (["--policy", "red=pol.py:two"], "two must take (session, actor, rng); it takes (session, rng)"),
    (["--keep-logs", "pol.py/logs"], "--keep-logs pol.py/logs: cannot make the folder"),
    # a policy file that exits as it is imported made simulate exit with its status, silently (found by fuzzing)
    (["--policy", "red=quits.py:f"], "cannot import quits.py: SystemExit: 3"),
])
def test_bad_arguments_are_one_line_and_exit_2(aerie, tmp_path, args, message):
    (tmp_path / "pol.py").write_text("def two(session, rng):\n    return None\n")
    (tmp_path / "quits.py").write_text("raise SystemExit(3)\n")
    base = ["simulate", "showcase", "--runs", "2", "--workers", "1"]
    if args[0] == "--runs":
        base = base[:2] + base[4:]
    if args[0] == "--ray":
        base = base[:4]
    if args[0] == "--ray" and importlib.util.find_spec("ray") is None:
        message = "the 'cluster' extra"          # without Ray installed that is the one line (.ci/lowest.sh)
    r = aerie(*base, *args, cwd=tmp_path)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert len(r.stderr.strip().splitlines()) == 1 and message in r.stderr, r.stderr


def test_set_takes_the_scenes_own_key_path_too():
    from engine.sim.cli import parse_sets

    assert parse_sets(["options.fall_roll_on=hit", "descend_m=3"]) == {"fall_roll_on": "hit", "descend_m": 3}


def test_vs_another_scene_summarises_each_over_its_own_sides(aerie, tmp_path):
    r = aerie("simulate", "air_low_wall", "--vs", "baton_wounds", "--runs", "2", "--workers", "1",
              "--max-rounds", "2", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    a_sides = {c.side for c in load_scene("air_low_wall").characters}
    b_sides = {c.side for c in load_scene("baton_wounds").characters}
    assert set(got["summaries"]["a"]["sides"]) == a_sides and set(got["summaries"]["b"]["sides"]) == b_sides
    assert set(got["difference"]["sides"]) == (a_sides & b_sides) | {"draw"}


# -- from a game in progress (the window's panel) ---------------------------------------------------------------
def test_how_does_this_end_runs_in_the_background_from_the_current_state():
    from engine.sim.background import how_does_this_end, plan_from, run_summary

    s = Session(load_scene("air_low_wall"), 2)
    for _ in range(3):
        s.step(policies.aggressive(s, s.state.actors[s.current], __import__("random").Random(0)))
    fut = how_does_this_end(s, runs=4, policies={"red": "aggressive", "blue": "aggressive"})
    got = fut.result(timeout=240)
    assert got["runs"] == 4 and got["fights"] + got["errors"] == 4 and got["errors"] == 0
    assert set(got["sides"]) == {"red", "blue"}
    # the same fights here give the same summary; each started from the session's state, not the scene's start
    plan = plan_from(s, {"red": "aggressive", "blue": "aggressive"})
    assert run_summary(plan, 4, 1) == got
    row, acts = fight.play(plan, 1, 0)
    assert acts[:3] == s.actions


def test_ray_without_the_cluster_extra_is_one_line(monkeypatch, capsys):
    from engine import cli

    monkeypatch.setitem(sys.modules, "ray", None)
    assert cli.main(["simulate", "showcase", "--runs", "1", "--ray", "127.0.0.1:1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "ray (the 'cluster' extra)" in err[0] and "aerie-sandbox[cluster]" in err[0]


def test_the_progress_bar_shows_fights_per_second_and_eta_only_on_a_terminal():
    from engine.sim.runner import Progress

    out = io.StringIO()
    p = Progress(4, out, True)
    p(2)
    p(2)
    p.close()
    assert "4/4 fights" in out.getvalue() and "fights/s" in out.getvalue() and "ETA" in out.getvalue()
    quiet = io.StringIO()
    Progress(4, quiet, False)(4)
    assert quiet.getvalue() == ""


def test_cold_caches_empties_every_memo_table_the_rules_filled():
    from engine import memo
    from engine.scene import bench

    s = Session(bench.skirmish_scene(), 3)
    rng = __import__("random").Random(3)
    for _ in range(40):
        s.step(bench.random_action(s, rng))
    filled = {n for n, k in memo.sizes().items() if k}
    # the path searches, their plans, the bodies and the sight geometry are all kept across sessions
    assert {"pathing._SEARCHES", "dial._PLANS", "core._BODIES", "cover._GEOM"} <= filled, memo.sizes()
    runner.cold_caches()
    assert not any(memo.sizes().values()), memo.sizes()


@pytest.mark.parametrize("scene", ["baton_passing", "objects_locked_doors", "dnd_wyvern_rider"])
def test_after_script_plays_a_script_that_shows_refusals(aerie, tmp_path, scene):
    """These scenes' scripts hold steps marked ``illegal`` (a refusal they show): --after-script stepped them
    without the mark, so every fight raised (found by fuzzing); now they are played as ``aerie run`` plays them."""
    r = aerie("simulate", scene, "--runs", "4", "--workers", "1", "--max-rounds", "3", "--after-script", "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout, parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
    assert s["summaries"]["a"]["fights"] == 4 and s["summaries"]["a"]["errors"] == 0, s["summaries"]["a"]


def test_after_script_refuses_a_script_its_own_dice_refuse(aerie, tmp_path):
    text = Path(load_scene("air_fall_table").path).read_text()
    text += '\n[[script]]\nactor = "archer"\naction = "fly"\n'
    f = tmp_path / "s.toml"
    f.write_text(text)
    assert aerie("check", f).returncode == 0                  # a script's steps are checked when played
    r = aerie("simulate", f, "--runs", "2", "--workers", "1", "--after-script")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "--after-script" in r.stderr and "unknown action 'fly'" in r.stderr


def test_after_script_is_checked_under_the_set_variants_options(aerie):
    """The script is played up front with each variant's own options: under climb_m=1000 its take-off is refused,
    which is bad input now, not an error row in every fight of the variant."""
    r = aerie("simulate", "air_takeoff_climb", "--runs", "2", "--workers", "1", "--after-script", "--set", "climb_m=1000")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "with climb_m=1000" in r.stderr and "AIR-07" in r.stderr
    assert aerie("simulate", "air_takeoff_climb", "--runs", "2", "--workers", "1", "--after-script",
                 "--set", "fall_damage_rounding=up").returncode == 0


def test_a_fights_script_plays_as_aerie_run_plays_it():
    """A step marked ``illegal`` that is legal on the fight's session is the script not playing as written: it
    raises (the fight's error row), as ``aerie run`` reports it, and is not stepped as if unmarked."""
    from engine.rules.session import Session
    from engine.sim.fight import ScriptRefused, play_script

    scene = load_scene("air_takeoff_climb")
    first = dict(scene.spec.script[0])
    s = Session(scene, 1)
    with pytest.raises(ScriptRefused, match="expected to be refused"):
        play_script(s, [{**first, "illegal": True}])
    s = Session(scene, 1)
    play_script(s, [first])
    assert len(s.actions) == 1


def test_json_summary_of_no_fights_is_valid_json(aerie, tmp_path):
    """Every fight raised (a policy's bug): the means over no fights were NaN, which json.dumps wrote as NaN."""
    (tmp_path / "boom.py").write_text("def boom(session, actor, rng):\n    raise RuntimeError('no')\n")
    sides = sorted({c.side for c in load_scene("air_fall_table").characters})
    r = aerie("simulate", "air_fall_table", "--runs", "2", "--workers", "1", "--json",
              *[f"--policy={s}=boom.py:boom" for s in sides], cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    json.loads(r.stdout, parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
    r = aerie("simulate", "air_fall_table", "--runs", "2", "--workers", "1", "--report", "r.html",
              *[f"--policy={s}=boom.py:boom" for s in sides], cwd=tmp_path)
    assert r.returncode == 1 and "nan" not in r.stdout and "no fight finished" in r.stdout, r.stdout  # it read "mean nan"
    assert "fight 0 raised" in r.stdout and (tmp_path / "r.html").stat().st_size > 0


def test_a_background_worker_ends_with_the_process_that_made_it(tmp_path):
    """``background.new_executor``: a window killed while its "how does this end?" worker waits (or runs) leaves no
    orphan behind (test runs of the window left such workers running after the suite ended)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "parent.py"
    script.write_text("import os, time\n"
                      "from engine.sim.background import new_executor\n"
                      "if __name__ == '__main__':\n"
                      "    ex = new_executor()\n"
                      "    print(ex.submit(os.getpid).result(timeout=120), flush=True)\n"
                      "    ex.submit(time.sleep, 300)\n"
                      "    time.sleep(300)\n")
    p = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        worker = int(p.stdout.readline())
        os.kill(worker, 0)                                  # it is there, busy with the sleep
    finally:
        p.kill()
        p.wait()

    def gone() -> bool:
        try:
            with open(f"/proc/{worker}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()[0] == "Z"      # exited, not yet reaped
        except OSError:
            return True
    deadline = time.monotonic() + 30
    while not gone() and time.monotonic() < deadline:
        time.sleep(0.2)
    alive = not gone()
    if alive:
        os.kill(worker, signal.SIGKILL)
    assert not alive, "the worker outlived its parent"
