"""Baton's legal-action listing is linear in the characters (issue 45), as 5e's is: who may take the baton (BAT-08,
BAT-09) and who may open the initiative (BAT-02) are worked out once per listing, not once per candidate. Checked
by a ratio of two listings in the same run (3,000 characters against 300), never by an absolute time: ten times the
characters, a quadratic listing takes about a hundred times as long (it took 44 times before the fix), a linear one
about ten."""

import time

import pytest

from engine.rules.core import Illegal
from engine.rules.session import Session
from engine.scene import parse_scene
from engine.scene.bench import mass_scene_text

pytestmark = [pytest.mark.unit, pytest.mark.slow]


def mass_baton_scene(per_side: int) -> str:
    """A flat field, ``per_side`` axe fighters a side in ranks of 100 at either end (``aerie bench rules --listing``'s)."""
    return mass_scene_text(per_side, "baton")


def _listing_time(s: Session) -> tuple[float, int]:
    t0 = time.perf_counter()
    n = len(list(s.legal_actions(s.current)))
    return time.perf_counter() - t0, n


def test_the_listing_grows_linearly_with_the_characters():
    small = Session(parse_scene(mass_baton_scene(150), "<small>"), 1)
    big = Session(parse_scene(mass_baton_scene(1500), "<big>"), 1)
    t_small = min(_listing_time(small)[0] for _ in range(2))
    t_big, n_big = _listing_time(big)
    assert n_big > 4000                     # a pass to each ally, an attack on each foe...: the list itself is linear
    ratio = t_big / t_small
    assert ratio < 25, f"300 characters: {t_small:.3f} s, 3,000: {t_big:.3f} s: {ratio:.1f} times (quadratic: ~100)"


def _accepted(s: Session, act: dict) -> bool:
    try:
        s.check(act)
    except Illegal:
        return False
    return True


def test_the_listing_offers_the_passes_and_openings_a_check_alone_accepts():
    """The listing's memo changes no answer: the passes (and initiative openings) it offers are those that
    ``Session.check``, asked outside any listing, accepts among every character."""
    s = Session(parse_scene(mass_baton_scene(20), "<s>"), 1)
    me = s.current
    for kind in ("pass", "open_with"):
        listed = {c["to"] for c in s.legal_actions(me) if c["action"] == kind}
        alone = {o for o in s.state.actors if _accepted(s, {"actor": me, "action": kind, "to": o})}
        assert listed == alone, kind
    assert {c["to"] for c in s.legal_actions(me) if c["action"] == "pass"}       # there are some
