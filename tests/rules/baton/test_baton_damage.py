"""Baton: Protection, Vigor, Life, wounds (BAT-16..26), days, rests and treatment (BAT-27..31)."""

from __future__ import annotations

import pytest

from baton_util import A, foe, hero, illegal, one, session, step

pytestmark = pytest.mark.unit


def test_bat16_protection_is_the_sum_of_the_armour_layers():
    s = session([hero(armour=["mail", "helmet", {"name": "cloak", "protection": 1}]), foe(protection=5)])
    assert A(s, "ana").data["protection"] == 8
    assert A(s, "gob").data["protection"] == 5
    assert s.state.to_dict()["characters"]["ana"]["protection"] == 8          # the JSON state carries it


def test_bat17_every_6_protection_is_a_negative_chance_on_penalised_tests_only():
    s = session([hero(protection=12), foe(at=(10, 10, 0))], starts="ana")
    step(s, "ana", "move", to=[8, 2, 0])
    evs = step(s, "ana", "dash", rolls={"test": [9, 5, 7]})
    t = one(evs, "test")
    assert t["negative"].count(["Protection penalty (per 6)", "BAT-17"]) == 2 and t["kept"] == 5
    s = session([hero(protection=12), foe()], starts="ana")
    t = one(step(s, "ana", "attack", target="gob", rolls={"test": 5}), "test")
    assert t["negative"] == [] and len(t["dice"]) == 1                          # attacks are not penalised


def test_bat18_protection_absorbs_first_then_vigor():
    s = session([hero(), foe(protection=3)], starts="ana")
    evs = step(s, "ana", "attack", target="gob", rolls={"test": 8, "damage": 3})   # 3 + 2 = 5
    d = one(evs, "damage")
    assert (d["protection_absorbed"], d["vigor_absorbed"], d["wound"]) == (3, 2, 0)
    one(evs, "unprotected", who="gob")
    assert A(s, "gob").data["vigor"] == 6


def test_bat19_protection_is_restored_after_combat():
    s = session([hero(armour=["mail"]), foe()], starts="ana")
    step(s, "gm", "damage", target="ana", amount=4)
    assert A(s, "ana").data["protection"] == 2
    evs = step(s, "gm", "damage", target="gob", amount=40)
    one(evs, "combat_over", winner="party")
    assert one(evs, "protection_restored", who="ana")["protection"] == 6
    assert A(s, "ana").data["protection"] == 6 and s.state.over


def test_bat20_max_vigor_is_the_current_life():
    s = session([hero(), foe()], starts="ana")
    assert A(s, "ana").data["vigor"] == A(s, "ana").data["max_vigor"] == 10
    step(s, "gm", "damage", target="ana", amount=3, type="necrotic")               # direct: a wound of 3
    a = A(s, "ana")
    assert a.hp == 7 and a.data["max_vigor"] == 7 and a.data["vigor"] == 7


def test_bat21_at_zero_vigor_wounds_begin():
    s = session([hero(), foe()], starts="ana")
    evs = step(s, "gm", "damage", target="ana", amount=10)
    one(evs, "exhausted", who="ana")
    assert A(s, "ana").hp == 10 and A(s, "ana").data["vigor"] == 0
    evs = step(s, "gm", "damage", target="ana", amount=2)
    assert one(evs, "damage")["wound"] == 2 and A(s, "ana").hp == 8


@pytest.mark.parametrize("phys,life", [(0, 6), (2, 10), (4, 14)])
def test_bat22_max_life_is_6_plus_twice_physique(phys, life):
    s = session([hero(attributes={"physique": phys}), foe()])
    assert A(s, "ana").max_hp == life and A(s, "ana").hp == life


def test_bat23_damage_beyond_protection_and_vigor_is_a_wound():
    s = session([hero(), foe(protection=2)], starts="ana")
    evs = step(s, "gm", "damage", target="gob", amount=13)                         # 2 + 8 + 3
    d = one(evs, "damage")
    assert (d["protection_absorbed"], d["vigor_absorbed"], d["wound"]) == (2, 8, 3)
    assert A(s, "gob").hp == 5 and A(s, "gob").data["wounds"][0]["severity"] == 3


def test_bat24_every_6_life_lost_is_a_negative_chance_on_every_test():
    s = session([hero(wounds=[6]), foe()], starts="ana")
    t = one(step(s, "ana", "attack", target="gob", rolls={"test": [9, 4]}), "test")
    assert t["negative"] == [["Life lost (per 6)", "BAT-24"]] and t["kept"] == 4
    s = session([hero(wounds=[5]), foe()], starts="ana")
    assert one(step(s, "ana", "attack", target="gob", rolls={"test": 9}), "test")["negative"] == []


def test_bat25_death_at_zero_life():
    s = session([hero(), foe(), foe("orc", at=(6, 6, 0))], starts="ana")
    evs = step(s, "gm", "damage", target="gob", amount=8 + 8)
    one(evs, "death", who="gob")
    assert A(s, "gob").dead and A(s, "gob").hp == 0
    illegal(s, "ana", "pass", to="gob")


def test_bat26_wound_severity_equals_the_damage_and_they_add_up():
    s = session([hero(), foe()], starts="ana")
    step(s, "gm", "damage", target="ana", amount=13)                               # vigor 10 then a wound of 3
    step(s, "gm", "damage", target="ana", amount=2, type="fire")
    w = A(s, "ana").data["wounds"]
    assert [x["severity"] for x in w] == [3, 2] and A(s, "ana").hp == 5
    assert s.state.to_dict()["characters"]["ana"]["wounds"][0]["severity"] == 3


def _camp(*chars, **kw):
    return session(list(chars), options={"after_combat": "continue"}, **kw)


def test_bat27_wounds_worsen_each_day_by_category():
    s = _camp(hero(attributes={"physique": 6}, wounds=[2, 4, 7]))
    a = A(s, "ana")
    assert [w["category"] for w in a.data["wounds"]] == ["light", "moderate", "grave"]
    step(s, "ana", "day")
    assert [w["severity"] for w in a.data["wounds"]] == [2, 5, 9]
    assert a.hp == 18 - 16
    step(s, "ana", "day")                                                          # 2 + 6 + 11 > 18: death
    assert a.dead


def test_bat28_long_rest_recovery_test():
    s = _camp(hero("l", attributes={"physique": 3}, wounds=[2]), hero("m", at=(4, 4, 0), attributes={"physique": 3}, wounds=[5]),
              hero("g", at=(6, 6, 0), attributes={"physique": 3}, wounds=[8]))
    for who, sev in (("l", 2), ("m", 5), ("g", 8)):
        evs = step(s, who, "rest", kind="long", wound=1, rolls={"test": 12})
        assert one(evs, "test")["difficulty"] == 7 + sev
    step(s, "gm", "day")
    assert [A(s, i).data["wounds"][0]["severity"] for i in ("l", "m", "g")] == [1, 4, 8]
    s = _camp(hero("m", attributes={"physique": 3}, wounds=[5]))
    step(s, "m", "rest", kind="long", wound=1, rolls={"test": 2})                  # failure: +1 as usual
    step(s, "gm", "day")
    assert A(s, "m").data["wounds"][0]["severity"] == 6


def test_bat29_treating_a_wound_makes_it_evolve_one_category_lower():
    s = _camp(hero(attributes={"physique": 5}, wounds=[{"severity": 5, "type": "cutting"}, {"severity": 8, "type": "blunt"}],
                   skills={"treat_wounds": 3}, items={"bandage": 1, "splint": 0}))
    illegal(s, "ana", "treat", "BAT-29", target="ana", wound=1, kit="splint")      # cutting needs a bandage
    illegal(s, "ana", "treat", "BAT-29", target="ana", wound=2)                    # no splint
    evs = step(s, "ana", "treat", target="ana", wound=1, rolls={"test": 10})       # 10 + 3 vs 7 + 5
    assert one(evs, "treat")["success"] and A(s, "ana").data["items"]["bandage"] == 0
    step(s, "gm", "day")
    w = A(s, "ana").data["wounds"]
    assert w[0]["severity"] == 5 and w[1]["severity"] == 10                        # moderate as light; grave +2


def test_bat30_short_rest_once_per_period():
    s = _camp(hero(vigor=1))
    evs = step(s, "ana", "rest", kind="short", rolls={"rest": 4})
    assert one(evs, "rest")["gained"] == 6 and A(s, "ana").data["vigor"] == 7      # 1d6 + Physique 2
    illegal(s, "ana", "rest", "BAT-30", kind="short")
    step(s, "gm", "wait", hours=6)
    step(s, "ana", "rest", kind="short", rolls={"rest": 6})
    assert A(s, "ana").data["vigor"] == 10                                         # capped at max Vigor


def test_bat31_long_rest_restores_all_vigor_once_a_day():
    s = _camp(hero(vigor=0))
    step(s, "ana", "rest", kind="long")
    assert A(s, "ana").data["vigor"] == 10
    illegal(s, "ana", "rest", "BAT-31", kind="long")
    step(s, "gm", "day")
    step(s, "ana", "rest", kind="long")


def test_rests_are_out_of_combat_only():
    s = session([hero(), foe()], starts="ana")
    illegal(s, "ana", "rest", "BAT-30", kind="short")
    illegal(s, "ana", "day", "BAT-27")
