"""The lazy legal-action list (engine/rules/legal.py ``Lazy``; issue 26): however it is read -- whole, by kind,
each kind's first action, whether it holds anything -- it gives exactly what the eager list gives; nothing is
checked or searched until it is read; a list read after its session stepped refuses; and ``uniform`` draws each
kind the list holds equally often."""

from __future__ import annotations

import random

import pytest

from engine.rules import aerial
from engine.rules.session import Session
from engine.rules.dnd5e import listing
from engine.rules.legal import LegalActions, StaleActions, uniform
from engine.scene import bench, load_scene, parse_scene
from scenegen import random_scene, random_scene_with_objects

pytestmark = pytest.mark.unit


def _plain_groups(acts) -> dict:
    groups: dict = {}
    for a in acts:
        groups.setdefault(a["action"], []).append(a)
    return groups


def _sessions(baton: bool = True):
    """The bench skirmish with and without feats, random 5e and baton scenes with and without objects, the shipped
    baton scenes."""
    yield Session(bench.skirmish_scene(), 3), 60
    yield Session(bench.skirmish_scene(True), 4), 60
    rng = random.Random(26)
    for ruleset in ("dnd5e", "baton") if baton else ("dnd5e",):
        for g in range(6):
            text = (random_scene_with_objects if g % 2 else random_scene)(random.Random(rng.randrange(10**6)), ruleset)
            yield Session(parse_scene(text, "<x>"), g), 25
    if baton:
        for name in ("baton_skyfall", "baton_wounds", "baton_objects"):
            yield Session(load_scene(name), 1), 25


def test_a_lazy_listing_read_any_way_is_the_eager_list():
    """At every position: the list read whole, ``by_action`` asked first (its groups and their order of first
    appearance), each ``group`` of ``maybe()``, and ``bool`` -- each on a fresh listing -- agree with the plain list."""
    rng = random.Random(7)
    positions = kinds_seen = 0
    for s, steps in _sessions():
        for _ in range(steps):
            if s.state.over or s.current is None:
                break
            plain = list(s.legal_actions())
            want = _plain_groups(plain)
            acts = s.legal_actions()
            if not isinstance(acts, LegalActions):
                break
            groups = acts.by_action()               # asked before anything else is read
            assert list(groups) == list(want)
            assert {k: list(v) for k, v in groups.items()} == want
            assert acts == plain
            fresh = s.legal_actions()
            maybe = fresh.maybe()
            assert set(want) <= set(maybe)
            for k in maybe:
                assert list(fresh.group(k)) == want.get(k, []), k
            assert bool(s.legal_actions()) == bool(plain)
            positions += 1
            kinds_seen += len(want)
            s.step(plain[rng.randrange(len(plain))] if rng.random() < 0.5 else bench.random_action(s, rng))
    assert positions > 300 and kinds_seen > 900


def test_the_listing_checks_nothing_before_it_is_read(monkeypatch):
    """Listing asks no check and runs no path search; ``by_action`` asks each kind only up to its first legal action
    (fewer checks than the whole list, none asked twice); ``uniform`` searches for moves only when it draws them."""
    s = Session(bench.skirmish_scene(), 5)
    checks, searches = [], []
    real_checker, real_reach = listing.checker, aerial.reach

    def counting(rs, session, a):
        c = real_checker(rs, session, a)
        return lambda cand: checks.append(cand["action"]) or c(cand)
    monkeypatch.setattr(listing, "checker", counting)
    monkeypatch.setattr(aerial, "reach", lambda *a, **k: searches.append(1) or real_reach(*a, **k))
    rng = random.Random(1)
    fewer = drawn = 0
    for _ in range(40):
        if s.state.over:
            break
        checks.clear()
        searches.clear()
        acts = s.legal_actions()
        assert checks == [] and searches == []
        acts.by_action()
        asked = len(checks)
        list(acts)                                  # the rest asked now, none twice
        assert len(checks) >= asked
        fewer += asked < len(checks)
        checks.clear()
        list(acts)
        assert checks == []
        searches.clear()
        act = uniform(s.legal_actions(), rng)
        assert bool(searches) == (act["action"] == "move")
        drawn += act["action"] != "move"
        s.step(act)
    assert fewer > 10 and drawn > 10


def test_a_list_read_after_its_session_stepped_refuses():
    s = Session(bench.skirmish_scene(), 2)
    acts = s.legal_actions()
    moves = acts.group("move")
    read = acts.group("end_turn")
    ends = list(read)
    s.step(ends[0])
    assert list(read) == ends                    # what was read stays readable
    with pytest.raises(StaleActions, match="list the actions again"):
        len(moves)
    with pytest.raises(StaleActions):
        list(acts)
    s2 = Session(bench.skirmish_scene(), 2)          # an iteration reads the list whole first: stepping during it is fine
    seen = []
    for a in s2.legal_actions():
        if not seen:
            s2.step(a)
        seen.append(a)
    assert len(seen) > 5 and seen[0]["action"] == "end_turn"


@pytest.mark.parametrize("lazy", [True, False])
def test_uniform_draws_each_kind_equally_often(lazy):
    """``uniform``: each kind the list holds about equally often (a chi-square test over 3,000 seeded draws, 99.9%
    level), each draw one of its actions; the same from a plain list."""
    s = Session(bench.skirmish_scene(), 1)
    kinds = _plain_groups(list(s.legal_actions()))
    assert len(kinds) >= 4
    counts = dict.fromkeys(kinds, 0)
    rng = random.Random(3)
    n = 3000
    for _ in range(n):
        acts = s.legal_actions() if lazy else list(s.legal_actions())
        a = uniform(acts, rng)
        assert a in kinds[a["action"]]
        counts[a["action"]] += 1
    e = n / len(kinds)
    chi2 = sum((c - e) ** 2 / e for c in counts.values())
    limit = {4: 16.27, 5: 18.47, 6: 20.52, 7: 22.46, 8: 24.32, 9: 26.12, 10: 27.88}[len(kinds) - 1]
    assert chi2 < limit, counts
    assert uniform([], rng) is None
