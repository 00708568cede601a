"""Baton: resolution (BAT-00), the baton and the action economy (BAT-01..11), attacking and defending (BAT-12..15)."""

from __future__ import annotations

import pytest

from engine.errors import SceneError
from engine.rules.baton import dice as bd
from baton_util import A, ev, foe, hero, illegal, one, session, step

pytestmark = pytest.mark.unit


class Stub:
    def __init__(self, dice):
        self.dice, self.events = list(dice), []

    def roll(self, name, sides, count=1, who=None, rule="", purpose=""):
        return [self.dice.pop(0) for _ in range(count)]

    def emit(self, e):
        self.events.append(e)


def test_bat00_d12_plus_skill_chances_keep_high_or_low_and_cancel():
    t = bd.test(Stub([5]), "a", "x", 3, 8, [], [], "BAT-00", "", {})
    assert (t["kept"], t["total"], t["success"], t["level"]) == (5, 8, True, 1)   # total >= difficulty
    t = bd.test(Stub([4]), "a", "x", 3, 8, [], [], "BAT-00", "", {})
    assert not t["success"] and t["level"] == 0
    t = bd.test(Stub([2, 9]), "a", "x", 0, 8, [["p", "r"]], [], "BAT-00", "", {})
    assert t["kept"] == 9 and t["dice"] == [2, 9]                                    # positive: keep the highest
    t = bd.test(Stub([2, 9]), "a", "x", 0, 8, [], [["n", "r"]], "BAT-00", "", {})
    assert t["kept"] == 2                                                            # negative: keep the lowest
    t = bd.test(Stub([6]), "a", "x", 0, 8, [["p", "r"]], [["n", "r"]], "BAT-00", "", {})
    assert t["chances"] == 0 and t["dice"] == [6]                                    # they cancel
    t = bd.test(Stub([1, 2, 3, 12]), "a", "x", 0, 8, [["p", "r"]] * 5, [], "BAT-00", "", {})
    assert t["chances"] == 3 and len(t["dice"]) == 4 and t["kept"] == 12             # capped at +3


def test_bat00_criticals_and_success_levels():
    t = bd.test(Stub([12]), "a", "x", 0, 20, [], [], "BAT-00", "", {})
    assert t["success"] and t["critical"]                                            # natural 12
    t = bd.test(Stub([1]), "a", "x", 10, 5, [], [], "BAT-00", "", {})
    assert not t["success"] and t["critical_failure"]                                # natural 1
    t = bd.test(Stub([9]), "a", "x", 2, 8, [], [], "BAT-00", "", {})
    assert t["level"] == 4                                                           # total - difficulty + 1
    t = bd.test(Stub([9]), "a", "x", 2, 8, [], [], "BAT-00", "", {"success_level": "total-difficulty"})
    assert t["level"] == 3


def test_bat00_damage_scale():
    assert bd.shift("1d4", 1) == "1d6"
    assert bd.shift("1d8", 2) == "1d12"
    assert bd.shift("1d12", 2) == "1d12+2"
    assert bd.shift("1d10", 3) == "1d12+2"
    assert bd.shift("1d2", -1) == "1d2"
    assert bd.shift("1d6", 1, ["1d4", "1d6", "2d4"]) == "2d4"                 # a scale from the options
    assert bd.shift("2d6", 1) == "2d8" and bd.shift("2d12", 1) == "2d12+2"
    assert bd.maximum("1d8+2") == 10


def test_bat01_the_holder_is_the_current_character_and_passes_the_baton():
    s = session([hero(), foe()], starts="ana")
    assert s.current == "ana" and s.state.data["holder"] == "ana"
    evs = step(s, "ana", "pass", to="gob")
    assert one(evs, "baton", to="gob")["rule"] == "BAT-09"
    assert s.current == "gob"
    illegal(s, "ana", "attack", "BAT-01", target="gob")                                # not the holder


def test_bat02_a_non_surprised_pc_starts_else_an_opponent():
    s = session([hero("ana"), hero("bea", at=(2, 4, 0)), foe()], starts="bea")
    assert s.current == "bea"
    one(s.start_events, "baton", to="bea", rule="BAT-02")
    with pytest.raises(SceneError):
        session([hero("ana", surprised=True), hero("bea", at=(2, 4, 0)), foe()], starts="ana")
    with pytest.raises(SceneError):
        session([hero("ana"), foe()], starts="gob")                                   # a PC is awake
    s = session([hero("ana", surprised=True), foe("gob"), foe("orc", at=(5, 5, 0))], starts="orc")
    assert s.current == "orc"
    s = session([hero("ana", surprised=True), foe("gob")])
    assert s.current == "gob"


def test_bat03_one_major_one_minor_one_movement_in_any_order():
    s = session([hero(weapons=["longsword", "dagger"]), foe(at=(6, 6, 0))], starts="ana")
    step(s, "ana", "equip", weapon="dagger", hand="off")                               # minor
    step(s, "ana", "move", to=[5, 6, 0])                                               # movement
    step(s, "ana", "attack", target="gob", rolls={"test": 3})                         # major (a miss)
    illegal(s, "ana", "attack", "BAT-04", target="gob")
    illegal(s, "ana", "shout", "BAT-05")


def test_bat04_major_actions_take_the_major_slot():
    s = session([hero(items={"rope": 1}), foe()], starts="ana")
    evs = step(s, "ana", "take_item", item="rope", **{"from": "backpack"})
    assert one(evs, "take_item")["rule"] == "BAT-04"
    illegal(s, "ana", "attack", "BAT-04", target="gob")
    step(s, "ana", "use_power", kind="miracle")                                        # a minor action still free
    illegal(s, "ana", "use_power", "BAT-04", kind="ring")


def test_bat05_minor_actions_take_the_minor_slot():
    s = session([hero(weapons=["longsword", "dagger"], items={"potion_vigor": 1}), foe()], starts="ana")
    step(s, "ana", "drink", potion="vigor", rolls={"heal": 3})
    illegal(s, "ana", "equip", "BAT-05", weapon="dagger")
    step(s, "ana", "attack", target="gob", rolls={"test": 2})


def test_bat06_movement_is_up_to_the_speed_or_standing_up():
    s = session([hero(speed_m=6.0), foe(at=(10, 10, 0))], starts="ana")
    e = illegal(s, "ana", "move", to=[7, 2, 0])                                       # 5 cells = 7.5 m > 6 m
    assert "6 m of movement left" in e.reason
    step(s, "ana", "move", to=[6, 2, 0])
    assert A(s, "ana").pos == (6, 2, 0)
    s = session([hero(conditions=["prone"]), foe(at=(10, 10, 0))], starts="ana")
    step(s, "ana", "stand")
    assert not A(s, "ana").has("prone")
    illegal(s, "ana", "move", "BAT-06", to=[3, 2, 0])                                  # standing used the movement


def test_bat07_a_major_action_in_the_middle_of_the_movement():
    s = session([hero(speed_m=9.0), foe(at=(5, 2, 0))], starts="ana")
    step(s, "ana", "move", to=[4, 2, 0])                                               # 3 m
    step(s, "ana", "attack", target="gob", rolls={"test": 3})
    step(s, "ana", "move", to=[4, 5, 0], careful=False, rolls={"test": 3})           # the rest, after the attack
    assert A(s, "ana").pos == (4, 5, 0)


def test_bat08_even_die_keeps_the_baton_for_an_ally_who_has_not_acted():
    s = session([hero("ana"), hero("bea", at=(2, 5, 0)), hero("cid", at=(2, 8, 0)), foe()], starts="ana")
    step(s, "ana", "attack", target="gob", rolls={"test": 4})                         # even
    illegal(s, "ana", "pass", "BAT-08", to="gob")
    illegal(s, "ana", "pass", "BAT-08", to="ana")
    evs = step(s, "ana", "pass", to="bea")
    assert one(evs, "pass")["kept"] is True
    step(s, "bea", "create_opportunity", skill="intimidate", target="gob", effect="shake", rolls={"test": 6})
    illegal(s, "bea", "pass", "BAT-08", to="ana")                                      # cid has not acted yet
    step(s, "bea", "pass", to="cid")
    assert s.state.data["side"] == "party" and s.state.round == 1


def test_bat09_odd_die_or_no_test_loses_the_baton():
    s = session([hero("ana"), hero("bea", at=(2, 5, 0)), foe()], starts="ana")
    step(s, "ana", "attack", target="gob", rolls={"test": 5})                         # odd
    illegal(s, "ana", "pass", "BAT-09", to="bea")
    step(s, "ana", "pass", to="gob")
    step(s, "gob", "move", to=[4, 2, 0])                                               # no test
    illegal(s, "gob", "pass", "BAT-09", to="gob")
    step(s, "gob", "pass", to="bea")


def test_bat10_a_turn_is_a_side_holding_the_baton():
    s = session([hero("ana"), hero("bea", at=(2, 5, 0)), foe()], starts="ana")
    assert s.state.round == 1
    step(s, "ana", "attack", target="gob", rolls={"test": 2, "damage": 1})
    step(s, "ana", "pass", to="bea")
    assert s.state.round == 1                                                          # still the party's turn
    evs = step(s, "bea", "pass", to="gob")
    assert one(evs, "side_turn")["side"] == "foes" and s.state.round == 2


def test_bat11_per_turn_effects_tick_when_the_initiative_returns():
    s = session([hero("ana"), foe()], starts="ana")
    step(s, "gm", "condition", target="gob", add="shaken", turns=2)
    assert A(s, "gob").has("shaken")
    evs = step(s, "ana", "pass", to="gob")                                            # foes' turn 1 for the effect
    one(evs, "effect_tick", who="gob")
    assert A(s, "gob").has("shaken")
    step(s, "gob", "pass", to="ana")
    evs = step(s, "ana", "pass", to="gob")                                            # its second turn: still on
    one(evs, "effect_tick", who="gob")
    assert not ev(evs, "effect_end") and A(s, "gob").has("shaken")
    evs = step(s, "gob", "pass", to="ana")                                            # the second turn is lost: ends
    one(evs, "effect_end", who="gob")
    assert not A(s, "gob").has("shaken")


@pytest.mark.parametrize("action,extra", [("condition", {"add": "shaken"}), ("fire", {"source": "torch"})])
@pytest.mark.parametrize("turns", [0, -3, 10**9])
def test_bat11_a_gm_effect_lasts_a_number_of_turns_from_one(action, extra, turns):
    """Found by fuzzing: turns = 0 made a lasting condition, a negative count an effect that never ticked down;
    both are refused (leave turns out for no limit) and change nothing."""
    s = session([hero("ana"), foe()], starts="ana")
    illegal(s, "gm", action, "BAT-11", target="gob", turns=turns, **extra)        # the fingerprint unchanged
    assert not A(s, "gob").has("shaken") and not A(s, "gob").has("burning")
    step(s, "gm", action, target="gob", turns=1, **extra)


def test_bat11_a_one_turn_effect_given_in_the_givers_turn_lasts_through_the_targets_next_turn():
    """BAT-11 "se encerra depois que um número definido de turnos tenham passado para ele": a one-turn effect
    given while the other side holds the baton affects the target in its side's next turn, and ends when that
    turn is lost. The option effect_turns = "on_return" keeps the old reading (it ends as that turn begins)."""
    s = session([hero("ana"), foe()], starts="ana")
    step(s, "gm", "condition", target="gob", add="slow", turns=1)
    evs = step(s, "ana", "pass", to="gob")
    one(evs, "effect_tick", who="gob")
    assert A(s, "gob").has("slow")                                                     # slow in its own turn
    step(s, "gob", "move", to=[4, 2, 0])
    illegal(s, "gob", "attack", "BAT-60", target="ana")                                 # slow: one of the three
    evs = step(s, "gob", "pass", to="ana")
    one(evs, "effect_end", who="gob")
    assert not A(s, "gob").has("slow")
    old = session([hero("ana"), foe()], starts="ana", options={"effect_turns": "on_return"})
    step(old, "gm", "condition", target="gob", add="slow", turns=1)
    evs = step(old, "ana", "pass", to="gob")
    one(evs, "effect_end", who="gob")
    assert not A(old, "gob").has("slow")


def test_bat11_until_next_turn_ends_when_the_side_gets_the_baton_back():
    s = session([hero("ana"), foe(at=(10, 2, 0))], starts="ana")
    step(s, "ana", "move", to=[8, 2, 0])
    step(s, "ana", "dash", rolls={"test": 3})                                          # fails: exposed
    illegal(s, "ana", "dash", "BAT-04")
    assert A(s, "ana").has("exposed")
    step(s, "ana", "pass", to="gob")
    assert A(s, "ana").has("exposed")
    step(s, "gob", "pass", to="ana")
    assert not A(s, "ana").has("exposed")


def test_bat12_an_attack_hits_with_the_weapon_skill_and_deals_its_damage():
    s = session([hero(), foe()], starts="ana")
    evs = step(s, "ana", "attack", target="gob", rolls={"test": 5, "damage": 6})
    a = one(evs, "attack")
    assert a["difficulty"] == 8 and a["total"] == 8 and a["hit"]                      # 5 + fight_longsword 3 vs 7 + dodge 1
    assert one(evs, "hit")["damage"] == 8                                              # 6 + Physique 2 (medium weapon)
    s = session([hero(), foe()], starts="ana")
    evs = step(s, "ana", "attack", target="gob", rolls={"test": 4})
    assert not ev(evs, "hit") and one(evs, "miss")
    s = session([hero(), foe(at=(5, 2, 0))], starts="ana")
    illegal(s, "ana", "attack", "BAT-12", target="gob")                                # out of reach


def test_bat13_counterattacks_never_chain():
    s = session([hero(counterattack=True), foe(counterattack=True)], starts="ana")
    evs = step(s, "ana", "attack", target="gob", rolls={"test": [3, 3]})
    assert len(ev(evs, "counterattack")) == 1 and len(ev(evs, "attack")) == 2
    assert one(evs, "counterattack")["who"] == "gob"
    assert ev(evs, "attack")[1]["counter"] is True


def test_bat14_dodge_against_melee_shield_against_any_physical_attack():
    s = session([hero(weapons=["longsword", "shortbow"], skills={"fight_shortbow": 2, "fight_longsword": 3}),
                 foe(at=(3, 2, 0), skills={"dodge": 3, "shield": 1}, armour=["shield"])], starts="ana")
    evs = step(s, "ana", "attack", target="gob", rolls={"test": 2})
    assert one(evs, "attack")["difficulty"] == 10 and one(evs, "attack")["defence"] == "dodge"
    s = session([hero(weapons=["shortbow"], skills={"fight_shortbow": 2}),
                 foe(at=(8, 2, 0), skills={"dodge": 3, "shield": 1}, armour=["shield"])], starts="ana")
    evs = step(s, "ana", "attack", target="gob", rolls={"test": 2})
    assert one(evs, "attack")["difficulty"] == 8 and one(evs, "attack")["defence"] == "shield"   # no dodge at range
    s = session([hero(weapons=["shortbow"], skills={"fight_shortbow": 2}), foe(at=(8, 2, 0), skills={"dodge": 3})],
                starts="ana")
    assert one(step(s, "ana", "attack", target="gob", rolls={"test": 2}), "attack")["difficulty"] == 7


def test_bat15_create_opportunity_without_damage():
    s = session([hero("ana"), hero("bea", at=(2, 3, 0)), foe(at=(3, 3, 0))], starts="ana")
    evs = step(s, "ana", "create_opportunity", skill="perform", target="gob", effect="advantage", rolls={"test": 8})
    assert one(evs, "test")["success"] and not ev(evs, "damage")
    step(s, "ana", "pass", to="bea")
    evs = step(s, "bea", "attack", target="gob", rolls={"test": [3, 9]})
    assert ["opportunity created", "BAT-15"] in one(evs, "test")["positive"]
    s = session([hero(), foe()], starts="ana")
    step(s, "ana", "create_opportunity", skill="intimidate", target="gob", effect="shake", rolls={"test": 8})
    assert A(s, "gob").has("shaken")


def test_bat15_a_created_shaken_or_exposed_lasts_until_the_creators_side_gets_the_initiative_back():
    """BAT-15 "Provocar ou intimidar oponentes para fazê-los hesitar": a shaken foe (BAT-56) attacks with a negative
    chance in its own turn -- the condition ended as that turn began; now it lasts until the initiative comes back
    to the creator's side (option opportunity_lasts = "target_turn": the earlier reading)."""
    s = session([hero("ana"), foe()], starts="ana")
    step(s, "ana", "create_opportunity", skill="intimidate", target="gob", effect="shake", rolls={"test": 9})
    step(s, "ana", "pass", to="gob")                                          # odd: the foes get it
    assert A(s, "gob").has("shaken")
    evs = step(s, "gob", "attack", target="ana", rolls={"test": [3, 9], "damage": 1})
    assert ["shaken", "BAT-56"] in one(evs, "test")["negative"]
    step(s, "gob", "pass", to="ana")
    assert not A(s, "gob").has("shaken")                                      # the party has it back
    s = session([hero("ana"), hero("bea", at=(2, 3, 0)), foe(at=(3, 3, 0))], starts="ana")
    step(s, "ana", "create_opportunity", skill="intimidate", target="gob", effect="expose", rolls={"test": 9})
    step(s, "ana", "pass", to="gob")
    assert A(s, "gob").has("exposed")                                         # through the foes' turn
    step(s, "gob", "pass", to="ana")
    assert not A(s, "gob").has("exposed")
    s = session([hero("ana"), foe()], starts="ana", options={"opportunity_lasts": "target_turn"})
    step(s, "ana", "create_opportunity", skill="intimidate", target="gob", effect="shake", rolls={"test": 9})
    step(s, "ana", "pass", to="gob")
    assert not A(s, "gob").has("shaken")


def test_preview_of_attack_move_and_pass():
    s = session([hero(), foe(conditions=["exposed"])], starts="ana")
    p = s.preview({"actor": "ana", "action": "attack", "target": "gob"})
    assert p["legal"] and p["difficulty"] == 8 and p["chances"] == 1 and 0 < p["hit_chance"] <= 1
    assert p["positive"] == [["exposed", "BAT-59"]]
    p = s.preview({"actor": "ana", "action": "move", "to": [2, 4, 0]})
    assert p["legal"] and p["cost_m"] == 3.0 and p["provokes"] == ["gob"]
    p = s.preview({"actor": "ana", "action": "pass", "to": "ana"})
    assert not p["legal"] and p["rule"] == "BAT-09"


def test_a_holder_killed_in_its_own_activation_loses_the_baton():
    s = session([hero("ana", wounds=[9]), hero("bea", at=(2, 6, 0)), foe()], starts="ana")
    evs = step(s, "ana", "move", to=[0, 2, 0], rolls={"test": 9, "damage": 5})     # the opportunity attack kills
    one(evs, "death", who="ana")
    p = one(evs, "pass", who="ana")
    assert p["auto"] and p["to"] == "gob" and s.current == "gob" and s.state.data["side"] == "foes"


def test_one_side_only_is_out_of_combat():
    s = session([hero("ana", wounds=[2], items={"bandage": 1}), hero("bea", at=(2, 6, 0))])
    one(s.start_events, "out_of_combat")
    assert s.state.data["holder"] is None and not s.state.over
    names = {a["action"] for a in s.legal_actions("ana")}
    assert {"rest", "treat", "wait", "day"} <= names
    illegal(s, "ana", "attack", "BAT-01", target="bea")
