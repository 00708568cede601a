"""The compact legal-action list (engine/rules/legal.py), the batched covers and the line-scan reach search
give exactly what the plain forms give (docs/rules-core.md, "Legal actions")."""

from __future__ import annotations

import random
import tracemalloc

import numpy as np
import pytest

from engine.rules.registry import cover_levels
from engine.rules import aerial, pathing
from engine.scene import bench
from engine.rules.session import Session
from engine.rules.legal import LegalActions, MoveRun
from engine.world.cover import cover_between, cover_many

pytestmark = pytest.mark.unit


def _session(seed=1):
    return Session(bench.skirmish_scene(), seed)


def _plain_groups(acts):
    groups: dict = {}
    for a in acts:
        groups.setdefault(a["action"], []).append(a)
    return groups


def test_legal_actions_read_like_the_plain_list():
    rng = random.Random(4)
    s = _session(3)
    seen_moves = 0
    for _ in range(60):
        acts = s.legal_actions()
        assert isinstance(acts, LegalActions)
        plain = list(acts)
        assert len(acts) == len(plain) and acts == plain and plain == list(iter(acts))
        assert [acts[i] for i in range(len(acts))] == plain
        assert acts[-1] == plain[-1] and acts[2:7] == plain[2:7] and acts[::3] == plain[::3]
        assert all(a in acts for a in plain[:: max(1, len(plain) // 25)])
        assert {"actor": s.current, "action": "move", "to": [-1, 0, 0]} not in acts
        groups = acts.by_action()
        assert {k: list(v) for k, v in groups.items()} == _plain_groups(plain)
        assert acts.moves == len(groups.get("move", []))
        seen_moves += acts.moves
        # a random choice draws the same action from the compact list as from the plain one
        r1, r2 = random.Random(9), random.Random(9)
        assert r1.choice(acts) == r2.choice(plain) and r1.sample(acts, min(3, len(acts))) == r2.sample(plain, min(3, len(plain)))
        a = acts[0]
        a["mutated"] = True                       # a read is a fresh dict: the list itself does not change
        assert "mutated" not in s.legal_actions()[0]
        s.step(bench.random_action(s, rng))
        if s.state.over:
            break
    assert seen_moves > 100


def test_move_run_is_fresh_and_exact():
    run = MoveRun("k", np.array([[1, 2, 3], [4, 5, 6]]))
    assert list(run) == [{"actor": "k", "action": "move", "to": [1, 2, 3]}, {"actor": "k", "action": "move", "to": [4, 5, 6]}]
    assert {"actor": "k", "action": "move", "to": [4, 5, 6]} in run
    assert {"actor": "k", "action": "move", "to": [4, 5, 6], "rolls": {}} not in run
    assert {"actor": "j", "action": "move", "to": [4, 5, 6]} not in run
    assert run[0] is not run[0] and run[0]["to"] is not run[0]["to"]
    with pytest.raises(IndexError):
        LegalActions([run])[2]


def test_cover_many_is_cover_between_pair_by_pair():
    s = _session()
    w = s.world
    X, Y, Z = w.size
    rng = random.Random(3)
    bodies = [a.body() for a in s.state.actors.values()]
    for _ in range(40):
        trips = []
        for _ in range(rng.randint(1, 7)):
            a, b = (bb.moved(rng.randint(0, X - 3), rng.randint(0, Y - 3), rng.randint(0, Z - 3)) for bb in rng.sample(bodies, 2))
            eye = (rng.randint(0, X - 1) + 0.5, rng.randint(0, Y - 1) + 0.5, rng.randint(0, Z - 1) + 0.5) if rng.random() < 0.3 else None
            trips.append((a, b, eye))
        assert cover_many(w, trips, cover_levels("dnd5e")) == [cover_between(w, a, b, cover_levels("dnd5e"), eye=e) for a, b, e in trips]


def test_line_scan_reach_equals_the_step_by_step_search(monkeypatch):
    rng = np.random.default_rng(5)
    for _ in range(40):
        Z, Y, X = (int(v) for v in (rng.integers(2, 8), rng.integers(3, 16), rng.integers(3, 16)))
        passable = rng.random((Z, Y, X)) < rng.uniform(0.5, 1.0)
        sup = rng.random((Z, Y, X)) < rng.uniform(0.1, 0.7)
        sup[0] = True
        fly = bool(rng.integers(0, 2))
        if not fly:
            passable &= sup
        lo = (int(rng.integers(0, Z)), int(rng.integers(0, Y)), int(rng.integers(0, X)))
        passable[lo] = True
        costs = (150, int(rng.choice([150, 212])), 400, 200, int(rng.choice([0, 450, 900])))
        monkeypatch.setattr(pathing, "SCAN_NODES", 10**12)
        ref = aerial._relax_flat(passable, sup, lo, fly, costs, 4 * (X + Z) + 8)
        monkeypatch.setattr(pathing, "SCAN_NODES", 0)
        got = aerial._relax_flat(passable, sup, lo, fly, costs, 4 * (X + Z) + 8)
        assert np.array_equal(ref, got)


def test_a_big_flyers_moves_take_no_dict_each():
    """The 64 x 64 x 32 version of ``aerie bench rules --big-flyer``: 121,662 reachable cells. One dict per move
    alone took about 270 bytes each; the compact list and its search peak far below that (tracemalloc counts
    numpy's buffers too, so the figure does not depend on the machine)."""
    s = Session(bench.big_flyer_scene((64, 64, 32)), 1)
    if s.current != "roc":
        s.step({"actor": s.current, "action": "end_turn"})
    s.world.solid()
    s.world.los_distance()
    tracemalloc.start()
    try:
        acts = s.legal_actions()
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert acts.moves > 120_000
    assert peak < 200 * len(acts) and kept < 64 * len(acts)
    assert {"actor": "roc", "action": "move", "to": [60, 60, 30]} in acts


def test_the_listing_prefilter_matches_the_checks():
    """A unit that ``spends_action`` is dropped from the listing once the action is used: each of those checks must open with
    ``common.need_action`` (change the list with the check; Use.check still calls it as ``rs._need_action``)."""
    import inspect
    import textwrap

    from engine.rules.dnd5e.actions import standard
    from engine.rules.dnd5e.ruleset import Dnd5e

    def first_line(fn) -> str:
        src = textwrap.dedent(inspect.getsource(fn)).splitlines()
        body = [ln.strip() for ln in src[src.index(next(ln for ln in src if ln.startswith("def "))) + 1:]
                if ln.strip() and not ln.strip().startswith(('"""', "'"))]
        return body[0]

    # a shared prologue counts when it itself opens with the check (standard._action_on)
    opens = ("common.need_action(rs, ", "rs._need_action(")
    assert first_line(standard._action_on).startswith(opens)
    spenders = [n for n, u in Dnd5e.ACTIONS.items() if u.spends_action]
    assert len(spenders) == 17                 # wake (SRD-25), douse (SRD-56), stanch (SRD-46) open with _action_on too; whelm,
    #                                            pull_out, engulf, escape_engulf (SRD-44, -45) with need_action
    for name in spenders:
        line = first_line(Dnd5e.ACTIONS[name].check)
        assert line.startswith(opens) or line.split("=", 1)[-1].strip().startswith("_action_on("), \
            (name, line)
