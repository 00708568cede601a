"""Replay animation from rules events (pure, no GL): moves follow the path, falls drop after the hit, damage
numbers and attack lines appear in their windows."""

from __future__ import annotations

import pytest

from engine.render import events as E
from engine.render.state import CharView, RenderState
from engine.rules.events import Action, Attacking, Fall, Hurting, Moving, Undeclared

pytestmark = pytest.mark.unit


def states():
    before = RenderState([CharView("a", "red", 1, 1, 0), CharView("h", "blue", 5, 5, 9, flying=True, hp=10)])
    after = RenderState([CharView("a", "red", 1, 1, 0),
                         CharView("h", "blue", 5, 5, 0, flying=False, hp=2, conditions=("prone",))])
    return before, after


# events of a ruleset the renderer does not know: only their shapes (engine/rules/events.py) are shared
class Shot(Attacking, tag="attack", kw_only=True, frozen=True):
    hit: bool


class Hurt(Hurting, tag="damage", frozen=True):
    pass


class Walk(Moving, tag="move", frozen=True):
    pass


EVENTS = [
    Action(step=1, action={}),
    Shot(who="a", target="h", hit=True),
    Hurt(who="h", amount=3, damage_type="piercing"),
    Fall(who="h", from_=9, to=0, layers=9, cause="hit", damage=5, damage_rule="AIR-12", rule="AIR-11"),
    Hurt(who="h", amount=5, damage_type="falling"),
    Undeclared("confetti", {"type": "confetti", "who": "a"}),        # an undeclared type: no effect, no crash
]


def test_a_fall_happens_after_the_hit_and_accelerates():
    before, after = states()
    anim = E.build_step(before, after, EVENTS)
    assert anim.falls == {"h"} and "a hits h" in anim.caption and "action" not in anim.caption
    layer = lambda u: E.frame_state(anim, u)[0].get("h").layer        # noqa: E731
    assert layer(0.0) == layer(E.FALL[0]) == 9
    assert layer(1.0) == 0
    mid = (E.FALL[0] + E.FALL[1]) / 2
    assert 9 > layer(mid) > 4.5                                        # slow at first: gravity
    h = E.frame_state(anim, 0.2)[0].get("h")
    assert h.flying and h.conditions == () and h.hp == 10              # still aloft before the fall
    h = E.frame_state(anim, 1.0)[0].get("h")
    assert h.conditions == ("prone",) and h.hp == 2


def test_attack_line_then_damage_numbers(monkeypatch):
    from engine.world.grid import World

    world = World.empty((8, 8, 12))
    before, after = states()
    anim = E.build_step(before, after, EVENTS)
    early = E.effects(world, anim, E.frame_state(anim, 0.2)[0], 0.2)
    assert len(early.xray) == 1 and not early.labels
    mid = E.effects(world, anim, E.frame_state(anim, 0.6)[0], 0.6)
    assert [lb.text for lb in mid.labels] == ["-3"] and not mid.xray
    end = E.effects(world, anim, E.frame_state(anim, 0.95)[0], 0.95)
    assert [lb.text for lb in end.labels] == ["-3", "-5"]


def test_the_player_view_draws_no_effect_of_whom_it_cannot_see():
    """The player view left out a character its side cannot see, but the step's effects came from the whole
    state: the attack line from where an unseen attacker stands. ``FrameLoop.animated(rs, keep)`` keeps the drawn
    characters first and the effects come from those alone; the seen target's damage number stays."""
    from types import SimpleNamespace

    from engine.app.frame import ANIM_S, FrameLoop
    from engine.world.grid import World

    before, after = states()
    anim = E.build_step(before, after, EVENTS)
    win = SimpleNamespace(anims=[anim], anim_t=0.0, scene=SimpleNamespace(world=World.empty((8, 8, 12))),
                          camctl=SimpleNamespace(mode="orbit"), ctl=SimpleNamespace(selected=None))
    loop = FrameLoop(win)
    for u in (0.2, 0.6, 0.95):
        win.anim_t = u * ANIM_S
        rs, full = loop.animated(after)
        assert {c.id for c in rs.characters} == {"a", "h"}
        rs, seen = loop.animated(after, lambda c: c != "a")
        assert {c.id for c in rs.characters} == {"h"} and not seen.xray
        assert [lb.text for lb in seen.labels] == [lb.text for lb in full.labels]
        rs, seen = loop.animated(after, lambda c: c != "h")
        assert not seen.xray and not seen.labels
    win.anim_t = 0.2 * ANIM_S
    assert loop.animated(after)[1].xray                                  # the GM's view: the line
    win.anims = []
    assert [c.id for c in loop.animated(after, lambda c: c == "a")[0].characters] == ["a"]


def test_a_move_follows_the_rules_path():
    before = RenderState([CharView("a", "red", 0, 0, 0)])
    after = RenderState([CharView("a", "red", 2, 0, 0)])
    path = [[0, 0, 0], [1, 1, 0], [2, 0, 0]]
    anim = E.build_step(before, after, [Walk(who="a", to=[2, 0, 0], path=path)])
    a = E.frame_state(anim, E.MOVE[1] / 2)[0].get("a")
    assert (a.x, a.y) == pytest.approx((1.0, 1.0))                     # the corner of the path, not the chord
