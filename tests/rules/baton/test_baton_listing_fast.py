"""The listing's trusted fast path (``Session.check_listed``, issue 45) answers as the full check does: over random
baton scenes (sides, skills, weapons, heights, a step or two in), every action the ruleset's listing builds -- each
candidate and each choice variant -- is accepted by ``check_listed`` exactly when ``Session.check`` accepts it, and
the listing (which leaves out the candidates it knows to be illegal, ``listing.surely_illegal``) lists exactly the
candidates, all of them, that the full check accepts. Plain actions a user might send
that are not flat (rolls, reactions, tuples, nested tables, NaN, huge integers) fall back to the full check."""

import random

import pytest

from engine.rules import legal
from engine.rules.baton import listing
from engine.rules.core import Illegal
from engine.rules.session import Session
from engine.scene import parse_scene

pytestmark = pytest.mark.unit

WEAPONS = ('"axe"', '"longsword"', '"shortbow"', '"spear"', '"dagger"')


def random_scene(rng: random.Random) -> str:
    w, h = rng.randint(6, 14), rng.randint(6, 14)
    lines = ['name = "Random baton"', 'ruleset = "baton"', f"seed = {rng.randint(1, 99)}", "[map]",
             f"size = [{w}, {h}, 6]"]
    taken = set()
    for side in ("red", "blue"):
        for i in range(rng.randint(1, 5)):
            while True:
                at = (rng.randrange(w), rng.randrange(h), rng.choice((0, 0, 0, 1, 2)))
                if at[:2] not in taken:
                    taken.add(at[:2])
                    break
            weapons = ", ".join(rng.sample(WEAPONS, rng.randint(1, 2)))
            lines += ["[[characters]]", f'id = "{side}{i}"', f'side = "{side}"', f"at = [{at[0]}, {at[1]}, {at[2]}]",
                      f"attributes = {{ physique = {rng.randint(0, 2)}, agility = {rng.randint(0, 2)} }}",
                      f"skills = {{ fight_axe = {rng.randint(0, 3)}, dodge = {rng.randint(0, 2)} }}",
                      f"weapons = [{weapons}]"]
            if at[2] > 0:
                lines += ["fly_speed_m = 12", "flying = true"]
    return "\n".join(lines) + "\n"


def _answer(check, act):
    try:
        check(act)
    except Illegal as e:
        return ("illegal", type(e).__name__, str(e))
    return ("ok",)


def _all_candidates(s: Session, me: str) -> list[dict]:
    """Every candidate (and variant) the listing would check with no candidate left out as surely illegal
    (``listing.PRUNE`` off), by listing with a recording check."""
    seen: list[dict] = []
    real = legal.passes

    def spy(check, fits=None):
        def rec(c):
            seen.append(c)
            return check(c)
        return real(rec, fits)
    listing.passes, was = spy, listing.passes
    listing.PRUNE = False
    try:
        list(s.legal_actions(me))
    finally:
        listing.passes, listing.PRUNE = was, True
    return seen


@pytest.mark.parametrize("seed", range(24))
def test_the_fast_path_lists_exactly_what_the_full_check_accepts(seed):
    rng = random.Random(seed)
    s = Session(parse_scene(random_scene(rng), f"<random {seed}>"), seed)
    for _ in range(4):
        me = s.current
        if me is None or s.state.over:
            break
        cands = _all_candidates(s, me)
        assert cands
        for c in cands:
            assert _answer(s.check_listed, c) == _answer(s.check, c), c
        listed = list(s.legal_actions(me))           # fast path, the surely illegal left out
        assert listed == [c for c in cands if _answer(s.check, c) == ("ok",)]
        s.step(rng.choice(listed))


def test_what_is_not_flat_and_plain_takes_the_full_check():
    s = Session(parse_scene(random_scene(random.Random(3)), "<s>"), 1)
    me = s.current
    base = next(c for c in s.legal_actions(me) if c["action"] == "pass")
    not_plain = [dict(base, rolls={"test": 0}), dict(base, reactions={}), dict(base, note=float("nan")),
                 dict(base, note=2 ** 60), dict(base, note={"a": object()}), dict(base, note=("a", "b")),
                 dict(base, actor="gm"), dict(base, actor="nobody"), dict(base, action="fly_to_the_moon"), {**base, 1: 2},
                 dict(base, action=["pass"]), [base], dict(base, bogus=1)]
    plain_but_wrong = [dict(base, to=3), dict(base, to="nobody"), dict(base, weapon="axe")]
    for act in not_plain:
        assert s._plain_normalise(act) is None, act          # the full check answers these
    for act in not_plain + plain_but_wrong:
        assert _answer(s.check_listed, act) == _answer(s.check, act), act
    assert sum(_answer(s.check, act) != ("ok",) for act in not_plain + plain_but_wrong) >= 10
