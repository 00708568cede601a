"""AIR-01 to AIR-17: one or more tests per rule that fail if the rule breaks (forced dice keep them exact)."""

from __future__ import annotations

import pytest

from engine.rules import aerial
from engine.rules.core import BadAction, Illegal
from rules_helpers import find, make, step, types

pytestmark = pytest.mark.unit

HARPY = {"id": "h", "name": "Kestrel", "kind": "harpy", "side": "sky", "speed_m": 12}   # fly 12 (AIR-09: in the air at its ground speed, 12 here), 38 HP, AC 11
ROOF = ("roof", (2, 2, 0), (6, 6, 3))        # roof top: layer 4


def moved(evs):
    return [e for e in evs if e["type"] == "move"]


# AIR-01 -----------------------------------------------------------------------------------------------------
def test_air01_character_on_a_roof_stands_there_and_cannot_walk_into_the_air():
    s = make([{"id": "a", "kind": "archer", "side": "red", "at": [4, 4, 4]}], fill=[ROOF])
    a = s.state.actors["a"]
    assert not a.flying and aerial.is_supported(s, a)
    step(s, "a", "move", to=[6, 4, 4])                       # walks on the roof
    with pytest.raises(Illegal) as e:
        step(s, "a", "move", to=[7, 4, 4])
    assert e.value.rule == "AIR-01"
    with pytest.raises(Illegal):
        step(s, "a", "move", to=[7, 4, 0])                   # no jumping down 4 layers


def test_air01_walkers_use_one_layer_steps():
    fill = [("stone", (3, 0, 0), (3, 9, 0)), ("stone", (4, 0, 0), (4, 9, 1))]   # a two-step stair
    s = make([{"id": "a", "kind": "knight", "side": "red", "at": [2, 2, 0], "speed_m": 30}], fill=fill)
    evs = step(s, "a", "move", to=[4, 2, 2])
    m = moved(evs)[0]
    assert m["layers_up"] == 2 and m["cost_m"] == pytest.approx(1.5 + 4 + 1.5 + 4)


# AIR-02 -----------------------------------------------------------------------------------------------------
def test_air02_layers_are_one_metre_and_bodies_are_two_layers_tall():
    s = make([HARPY | {"at": [3, 5, 0]}], size=(10, 10, 8), fill=[("wood", (4, 4, 2), (6, 6, 2))])
    with pytest.raises(Illegal) as e:
        step(s, "h", "move", to=[4, 5, 1])                  # body layers 1-2 would hit the canopy at layer 2
    assert e.value.rule == "AIR-02"
    with pytest.raises(Illegal) as e:
        step(s, "h", "move", to=[3, 5, 8])
    assert e.value.rule == "AIR-02"
    step(s, "h", "move", to=[4, 5, 0])                       # under the canopy on the ground: fits
    assert s.state.actors["h"].pos == (4, 5, 0)


# AIR-03 -----------------------------------------------------------------------------------------------------
def test_air03_distance_counts_height():
    chars = [{"id": "r", "kind": "rogue", "side": "b", "at": [0, 5, 0]},
             {"id": "w", "kind": "guard", "side": "r", "at": [12, 5, 0]},
             {"id": "f", "kind": "harpy", "side": "r", "at": [12, 5, 5], "flying": True}]
    s = make(chars, size=(16, 10, 10))
    with pytest.raises(Illegal) as e:
        step(s, "r", "attack", target="f", weapon="dagger")
    assert e.value.rule == "AIR-03" and "18.7 m" in e.value.reason
    p = s.preview({"actor": "r", "action": "attack", "target": "w", "weapon": "dagger"})
    assert p["distance_m"] == 18.0


# AIR-04 -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("layer,engaged", [(0, True), (1, True), (2, False)])
def test_air04_engagement_is_same_layer_or_one_apart(layer, engaged):
    chars = [{"id": "a", "kind": "archer", "side": "g", "at": [5, 5, 0]},
             {"id": "h", "kind": "harpy", "side": "s", "at": [6, 5, layer], "flying": layer > 0}]
    s = make(chars)
    evs = step(s, "a", "attack", target="h", weapon="longbow", rolls={"attack": 10})
    att = find(evs, "attack")
    assert ("DND-27" in att["rules"]) == engaged


# AIR-05 -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("weapon,layer,ok", [("longsword", 2, True), ("longsword", 3, False),
                                             ("glaive", 3, True), ("glaive", 4, False)])
def test_air05_melee_reach_in_layers(weapon, layer, ok):
    chars = [{"id": "k", "kind": "knight", "side": "g", "at": [5, 5, 0], "weapons": [weapon]},
             {"id": "h", "kind": "harpy", "side": "s", "at": [6, 5, layer], "flying": True}]
    s = make(chars)
    if ok:
        assert find(step(s, "k", "attack", target="h", rolls={"attack": 1}), "attack")
    else:
        with pytest.raises(Illegal) as e:
            step(s, "k", "attack", target="h")
        assert e.value.rule == "AIR-05"


def test_air05_climbing_out_of_reach_provokes_an_opportunity_attack():
    chars = [{"id": "h", "kind": "harpy", "side": "s", "at": [5, 4, 1], "flying": True, "speed_m": 12},
             {"id": "k", "kind": "knight", "side": "g", "at": [5, 5, 0]}]
    s2 = make(chars)
    evs = step(s2, "h", "move", to=[5, 4, 2], rolls={"attack": 1})
    assert find(evs, "opportunity_attack") is None                  # 2 layers apart: still in reach
    s3 = make(chars)
    evs = step(s3, "h", "move", to=[5, 4, 3], rolls={"attack": 1})  # 3 layers apart: leaves the reach
    assert find(evs, "opportunity_attack", who="k", rule="DND-28")


# AIR-06 / AIR-07 / AIR-09 -------------------------------------------------------------------------------------
def test_air06_takeoff_costs_half_the_movement():
    s = make([HARPY | {"at": [2, 2, 0]}])
    m = moved(step(s, "h", "move", to=[3, 2, 1]))[0]
    assert m["takeoffs"] == 1 and m["cost_m"] == 6 + 4 + 1.5


def test_air06_takeoff_from_a_roof_too():
    s = make([HARPY | {"at": [6, 4, 4]}], fill=[ROOF])
    m = moved(step(s, "h", "move", to=[7, 4, 4]))[0]
    assert m["takeoffs"] == 1 and m["cost_m"] == 6 + 1.5


def test_air06_no_takeoff_when_already_aloft():
    s = make([HARPY | {"at": [2, 2, 3], "flying": True}])
    m = moved(step(s, "h", "move", to=[3, 2, 3]))[0]
    assert m["takeoffs"] == 0 and m["cost_m"] == 1.5


@pytest.mark.parametrize("frm,to,cost", [((2, 2, 3), (2, 2, 5), 8.0), ((2, 2, 5), (2, 2, 2), 6.0),
                                         ((2, 2, 3), (4, 4, 4), 3.0 + 4.0), ((2, 2, 3), (2, 2, 6), 12.0)])
def test_air07_climb_4_descend_2_per_layer(frm, to, cost):
    s = make([HARPY | {"at": list(frm), "flying": True}])
    m = moved(step(s, "h", "move", to=list(to)))[0]
    assert m["cost_m"] == cost


def test_air07_refusal_names_cost_and_rule():
    s = make([HARPY | {"at": [2, 2, 3], "flying": True}])
    step(s, "h", "move", to=[2, 2, 5])        # 8 of 12 m
    with pytest.raises(Illegal) as e:
        step(s, "h", "move", to=[2, 2, 7])
    assert str(e.value) == "Climbing 2 layers costs 8 m; Kestrel has 4 m of movement left (AIR-07)"


def test_air09_horizontal_flight_costs_the_ground_rate():
    s = make([HARPY | {"at": [0, 0, 3], "flying": True}])
    m = moved(step(s, "h", "move", to=[8, 0, 3]))[0]
    assert m["cost_m"] == 12.0
    s = make([HARPY | {"at": [0, 0, 3], "flying": True}])
    with pytest.raises(Illegal) as e:
        step(s, "h", "move", to=[9, 0, 3])
    assert e.value.rule == "AIR-09"


def test_air09_diagonal_option():
    s = make([HARPY | {"at": [0, 0, 3], "flying": True}])
    assert moved(step(s, "h", "move", to=[4, 4, 3]))[0]["cost_m"] == 6.0          # 5e: diagonals cost one cell
    s = make([HARPY | {"at": [0, 0, 3], "flying": True}], options={"diagonal": "euclidean"})
    assert moved(step(s, "h", "move", to=[4, 4, 3]))[0]["cost_m"] == pytest.approx(8.48, abs=0.01)


# AIR-08 -----------------------------------------------------------------------------------------------------
def test_air08_upkeep_spends_the_bonus_action_each_turn_aloft():
    s = make([HARPY | {"at": [2, 2, 3], "flying": True}])
    evs = step(s, "h", "end_turn")
    assert find(evs, "upkeep", who="h", rule="AIR-08")
    assert s.state.actors["h"].flying and s.state.actors["h"].layer == 3


def test_air08_take_off_and_land_same_turn_is_free():
    s = make([HARPY | {"at": [2, 2, 0]}])
    step(s, "h", "move", to=[2, 2, 1])
    step(s, "h", "move", to=[2, 2, 0])
    evs = step(s, "h", "end_turn")
    assert "upkeep" not in types(evs) and "fall" not in types(evs)


def test_air08_used_bonus_action_then_aloft_falls():
    w = {"id": "w", "side": "s", "at": [3, 2, 3], "flying": True, "fly_speed_m": 12, "max_hp": 40,
         "abilities": {"dex": 16}, "weapons": ["shortsword", "scimitar"]}
    k = {"id": "k", "kind": "knight", "side": "g", "at": [4, 2, 2], "flying": False}
    s = make([w, k], fill=[("stone", (4, 2, 0), (4, 2, 1))])
    step(s, "w", "attack", target="k", weapon="shortsword", rolls={"attack": 1})
    step(s, "w", "attack", target="k", weapon="scimitar", bonus=True, rolls={"attack": 1})
    evs = step(s, "w", "end_turn")
    assert find(evs, "flight_lost", who="w", because="AIR-08")
    f = find(evs, "fall", who="w")
    assert f["layers"] == 3 and f["damage"] == 4                   # 10% of 40
    assert s.state.actors["w"].layer == 0 and s.state.actors["w"].has("prone")


# AIR-10 -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("cond,falls", [("prone", True), ("unconscious", True), ("stunned", True),
                                        ("paralyzed", True), ("petrified", True), ("restrained", True),
                                        ("poisoned", False), ("frightened", False), ("blinded", False),
                                        ("invisible", False), ("deafened", False), ("charmed", False)])
def test_air10_conditions_that_ground_a_flyer(cond, falls):
    s = make([HARPY | {"at": [2, 2, 4], "flying": True}])
    evs = step(s, "gm", "condition", target="h", add=cond)
    h = s.state.actors["h"]
    assert (h.layer == 0) == falls and h.flying != falls
    if falls:
        assert find(evs, "flight_lost", rule="AIR-10")


def test_air10_dying_flyer_falls():
    s = make([HARPY | {"at": [2, 2, 4], "flying": True, "pc": True}])
    evs = step(s, "gm", "damage", target="h", amount=38)
    assert s.state.actors["h"].layer == 0 and find(evs, "death_save_failure")


def test_air10_grappled_by_non_flyer_falls_by_flyer_stays():
    k = {"id": "k", "kind": "knight", "side": "g", "at": [5, 5, 0]}
    h = {"id": "h", "kind": "harpy", "side": "s", "at": [6, 5, 1], "flying": True}
    s = make([k, h])
    evs = step(s, "k", "grapple", target="h", rolls={"check": 15, "contest": 2})
    assert find(evs, "flight_lost", because="DND-47") and s.state.actors["h"].layer == 0
    g = {"id": "g", "kind": "griffon", "size": "large", "side": "g", "at": [4, 5, 1], "flying": True}
    s = make([g, h])
    step(s, "g", "grapple", target="h", rolls={"check": 15, "contest": 2})
    assert s.state.actors["h"].flying and s.state.actors["h"].has("grappled")


def test_air10_grappler_option_can_fly():
    k = {"id": "k", "kind": "harpy", "side": "g", "at": [5, 5, 0]}       # a flyer standing on the ground
    h = {"id": "h", "kind": "harpy", "side": "s", "at": [6, 5, 1], "flying": True}
    s = make([k, h])
    step(s, "k", "grapple", target="h", rolls={"check": 19, "contest": 1})
    assert not s.state.actors["h"].flying                                  # default: grappler not aloft now
    s = make([k, h], options={"grounding_grappler": "can_fly"})
    step(s, "k", "grapple", target="h", rolls={"check": 19, "contest": 1})
    assert s.state.actors["h"].flying


def test_air10_incapacitated_flyer_falls_at_once():
    """AIR-10 "perde ... a Ação Bônus": an incapacitated flyer drops when it becomes incapacitated."""
    s = make([HARPY | {"at": [2, 2, 4], "flying": True}, {"id": "x", "kind": "guard", "side": "g", "at": [9, 9, 0]}])
    evs = step(s, "gm", "condition", target="h", add="incapacitated")
    assert not s.state.actors["h"].flying and find(evs, "fall", who="h")
    assert find(evs, "flight_lost", who="h")["because"] == "AIR-10"


def test_air10_incapacitated_flyer_cannot_pay_upkeep():
    """The old reading (option incapacitated_flyer = "end_of_turn"): it falls when its skipped turn ends."""
    opts = {"incapacitated_flyer": "end_of_turn"}
    s = make([HARPY | {"at": [2, 2, 4], "flying": True}, {"id": "x", "kind": "guard", "side": "g", "at": [9, 9, 0]}], options=opts)
    step(s, "gm", "condition", target="h", add="incapacitated")
    assert s.state.actors["h"].flying
    # its turn is skipped (it cannot act) and it cannot spend the bonus action: it falls
    s2 = make([{"id": "x", "kind": "guard", "side": "g", "at": [9, 9, 0]}, HARPY | {"at": [2, 2, 4], "flying": True}], options=opts)
    step(s2, "gm", "condition", target="h", add="incapacitated")
    evs = step(s2, "x", "end_turn")
    assert find(evs, "turn_skipped", who="h") and find(evs, "fall", who="h")


# AIR-11 -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("roll,layer", [(1, 6), (2, 6), (3, 5), (4, 5), (5, 4), (6, 4), (7, 3), (8, 3), (9, 0), (10, 0)])
def test_air11_fall_table(roll, layer):
    chars = [{"id": "a", "kind": "archer", "side": "g", "at": [5, 1, 0]},
             {"id": "h", "kind": "harpy", "side": "s", "at": [5, 8, 6], "flying": True}]
    s = make(chars)
    evs = step(s, "a", "attack", target="h", rolls={"attack": 18, "damage": 1, "fall": roll})
    assert s.state.actors["h"].layer == layer
    assert find(evs, "fall_roll", result=roll, rule="AIR-11")


def test_air11_no_fall_roll_on_a_miss_or_against_a_walker():
    chars = [{"id": "a", "kind": "archer", "side": "g", "at": [5, 1, 0]},
             {"id": "h", "kind": "harpy", "side": "s", "at": [5, 8, 6], "flying": True}]
    s = make(chars)
    assert "fall_roll" not in types(step(s, "a", "attack", target="h", rolls={"attack": 2}))
    chars[1] = {"id": "h", "kind": "harpy", "side": "s", "at": [5, 8, 0]}
    s = make(chars)
    assert "fall_roll" not in types(step(s, "a", "attack", target="h", rolls={"attack": 18}))


# AIR-12 -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("layer,dmg", [(1, 0), (2, 5), (3, 10), (11, 50), (12, 50), (20, 50)])
def test_air12_fall_damage_5_percent_per_layer_above_the_first_capped(layer, dmg):
    s = make([{"id": "w", "side": "s", "at": [2, 2, layer], "flying": True, "fly_speed_m": 12, "max_hp": 100}],
             size=(6, 6, 24))
    evs = step(s, "gm", "condition", target="w", add="stunned")
    w = s.state.actors["w"]
    assert w.hp == 100 - dmg and w.layer == 0 and w.has("prone")
    assert find(evs, "fall", layers=layer, damage=dmg)


@pytest.mark.parametrize("rounding,dmg", [("down", 3), ("up", 4), ("nearest", 4)])
def test_air12_rounding_option(rounding, dmg):
    s = make([HARPY | {"at": [2, 2, 3], "flying": True}], options={"fall_damage_rounding": rounding})
    step(s, "gm", "condition", target="h", add="stunned")          # 10% of 38 = 3.8
    assert s.state.actors["h"].hp == 38 - dmg


def test_air12_partial_descent_no_damage_and_roof_landing():
    chars = [{"id": "a", "kind": "archer", "side": "g", "at": [0, 0, 0]},
             {"id": "h", "kind": "harpy", "side": "s", "at": [4, 4, 9], "flying": True}]
    s = make(chars, fill=[ROOF])
    step(s, "a", "attack", target="h", rolls={"attack": 18, "damage": 1, "fall": 8})   # 3 layers: 9 -> 6
    h = s.state.actors["h"]
    assert h.layer == 6 and h.flying and h.hp == 34
    step(s, "a", "end_turn")
    step(s, "h", "end_turn")
    step(s, "a", "attack", target="h", rolls={"attack": 18, "damage": 1, "fall": 7})   # 3 more: reaches the roof
    assert h.layer == 4 and not h.flying and h.has("prone")
    assert h.hp == 34 - 4 - 1                     # 2 layers: 5% of 38 = 1.9 -> 1


def _no_overlap(s):
    alive = [a for a in s.state.actors.values() if not a.dead]
    for i, a in enumerate(alive):
        for o in alive[i + 1:]:
            assert not aerial._overlap(a, a.pos, o), (a.id, a.pos, o.id, o.pos)


def test_air12_a_fall_onto_someone_ends_in_the_nearest_free_cell_in_5e():
    """The documents are silent on landing on a character: a falling body never ends inside another's; it lands on
    the surface of the nearest free cell (the fall counted to that surface), or, for a descent that stays aloft,
    at the same layer in the nearest free cell in the air (AIR-11's layers kept)."""
    chars = [{"id": "a", "kind": "archer", "side": "g", "at": [5, 1, 0]},
             {"id": "x", "kind": "guard", "side": "s", "at": [5, 8, 0]},
             {"id": "h", "kind": "harpy", "side": "s", "at": [5, 8, 4], "flying": True}]
    s = make(chars)
    evs = step(s, "a", "attack", target="h", rolls={"attack": 18, "damage": 1, "fall": 10})
    h = s.state.actors["h"]
    f = find(evs, "fall", who="h")
    assert f["beside"] == "x" and f["layers"] == 4 and f["at"] == [h.x, h.y, 0]
    assert h.layer == 0 and not h.flying and h.has("prone") and max(abs(h.x - 5), abs(h.y - 8)) == 1
    assert s.state.actors["x"].pos == (5, 8, 0)
    _no_overlap(s)
    chars[1] = {"id": "x", "kind": "harpy", "side": "s", "at": [5, 8, 3], "flying": True}    # a flyer below
    chars[2] = {"id": "h", "kind": "harpy", "side": "s", "at": [5, 8, 5], "flying": True}
    s = make(chars)
    evs = step(s, "a", "attack", target="h", rolls={"attack": 18, "damage": 1, "fall": 4})  # 1 layer: into x's head
    h = s.state.actors["h"]
    d = find(evs, "descend", who="h")
    assert d["beside"] == "x" and h.layer == 4 and h.flying and (h.x, h.y) != (5, 8)
    _no_overlap(s)


def test_air12_a_fall_onto_someone_ends_beside_them_in_baton_too():
    from baton_util import ch, foe, hero
    from baton_util import session as baton_session
    from baton_util import step as bstep
    s = baton_session([hero("ana", weapons=["longbow"], skills={"fight_longbow": 3}), foe("gob", at=(6, 2, 0)),
                       ch("har", "foes", (6, 2, 4), kind="harpy", flying=True)], starts="ana")
    evs = bstep(s, "ana", "attack", target="har", rolls={"test": 11, "damage": 1, "fall": 10})
    har = s.state.actors["har"]
    f = find(evs, "fall", who="har")
    assert f["beside"] == "gob" and f["damage_rule"] == "BAT-47" and har.layer == 0 and har.has("prone")
    assert (har.x, har.y) != (6, 2) and s.state.actors["gob"].pos == (6, 2, 0)
    _no_overlap(s)


# AIR-13 / AIR-14 / AIR-15 / AIR-16 ------------------------------------------------------------------------------
WALLS = [("stone", (2, 6, 0), (9, 6, 0)), ("stone", (2, 10, 0), (9, 10, 3))]


def _wall_scene(attacker_at, flying):
    chars = [{"id": "a", "kind": "archer", "side": "r", "at": list(attacker_at), "flying": flying, "fly_speed_m": 12},
             {"id": "brann", "kind": "archer", "side": "b", "at": [5, 7, 0]},
             {"id": "ilse", "kind": "archer", "side": "b", "at": [5, 11, 0]}]
    return make(chars, size=(12, 14, 18), fill=WALLS)


def test_air13_14_low_wall_protects_from_the_ground_not_from_high_above():
    s = _wall_scene((5, 1, 0), False)
    evs = step(s, "a", "attack", target="brann", rolls={"attack": 9})      # 9 + 5 = 14 = AC 14, +2 cover: miss
    att = find(evs, "attack")
    assert att["cover"] == "half" and att["cover_bonus"] == 2 and not att["hit"]
    s = _wall_scene((5, 2, 14), True)
    att = find(step(s, "a", "attack", target="brann", rolls={"attack": 9, "fall": 1}), "attack")
    assert att["cover"] == "none" and att["hit"]


def test_air14_15_tall_wall_blocks_ground_and_low_flyer_not_high_flyer():
    for at, flying, ok in (((5, 1, 0), False, False), ((5, 1, 2), True, False), ((5, 10, 14), True, True)):
        s = _wall_scene(at, flying)
        if ok:
            assert find(step(s, "a", "attack", target="ilse", rolls={"attack": 1}), "attack")["cover"] == "none"
        else:
            with pytest.raises(Illegal) as e:
                step(s, "a", "attack", target="ilse")
            assert e.value.rule == "DND-32"


def test_air16_cover_is_computed_not_declared():
    s = _wall_scene((5, 1, 0), False)
    with pytest.raises(BadAction):
        step(s, "a", "attack", target="brann", cover="none")
    p = s.preview({"actor": "a", "action": "attack", "target": "brann"})
    assert p["cover"] == "half" and 0.25 <= p["blocked_fraction"] < 0.75


# AIR-17 -----------------------------------------------------------------------------------------------------
def test_air17_height_gives_no_bonus_to_hit():
    chars = [{"id": "low", "kind": "archer", "side": "r", "at": [2, 2, 0]},
             {"id": "high", "kind": "archer", "side": "r", "at": [2, 9, 10], "flying": True, "fly_speed_m": 12},
             {"id": "t", "kind": "guard", "side": "b", "at": [8, 6, 0]}]
    s = make(chars, size=(12, 12, 14))
    a1 = find(step(s, "low", "attack", target="t", rolls={"attack": 10}), "attack")
    step(s, "low", "end_turn")
    a2 = find(step(s, "high", "attack", target="t", rolls={"attack": 10}), "attack")
    assert a1["bonus"] == a2["bonus"] and a1["total"] == a2["total"]
    assert a1["advantage"] == a2["advantage"] == []


def test_air08_option_upkeep_at_the_start_of_a_turn_aloft():
    chars = [HARPY | {"at": [2, 2, 1], "flying": True}, {"id": "x", "kind": "guard", "side": "g", "at": [9, 9, 0]}]
    s = make(chars)                                   # default: landing before the end of the turn owes nothing
    step(s, "h", "move", to=[2, 2, 0])
    assert s.state.turn["bonus"] is False
    s = make(chars, options={"upkeep": "start_of_turn"})
    assert find(s.start_events, "upkeep", who="h") and s.state.turn["bonus"] is True
    step(s, "h", "move", to=[2, 2, 0])
    evs = step(s, "h", "end_turn")
    assert "upkeep" not in types(evs) and "fall" not in types(evs)


def test_flat_relaxation_equals_the_3d_reference():
    import random

    import numpy as np

    rng = random.Random(3)
    for _ in range(60):
        Zb, Yb, Xb = rng.randint(1, 6), rng.randint(1, 9), rng.randint(1, 9)
        passable = np.array([[[rng.random() < 0.8 for _ in range(Xb)] for _ in range(Yb)] for _ in range(Zb)])
        supc = np.array([[[rng.random() < 0.5 for _ in range(Xb)] for _ in range(Yb)] for _ in range(Zb)])
        supc[0] = True
        lo = (rng.randrange(Zb), rng.randrange(Yb), rng.randrange(Xb))
        passable[lo] = True
        fly = rng.random() < 0.6
        if not fly:
            passable &= supc
            passable[lo] = True
        costs = (150, rng.choice([150, 212]), 400, 200, rng.choice([0, 450, 600]) if fly else 0)
        a = aerial._relax_flat(passable, supc, lo, fly, costs, 200)
        from reach_reference import _relax_3d

        b = _relax_3d(passable, supc, lo, fly, costs, 200)
        assert (a == b).all()


def _dijkstra(passable, supc, lo, fly, costs, alternate):
    """Plain Dijkstra over (node, parity of diagonals) -- the reference for the vectorised relaxation."""
    import heapq

    cell, diag, climb, descend, takeoff = costs
    Zb, Yb, Xb = passable.shape
    best = {}
    heap = [(0, lo, 0)]
    while heap:
        d, u, par = heapq.heappop(heap)
        if (u, par) in best:
            continue
        best[(u, par)] = d
        for dz in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    if dz == dy == dx == 0 or (not fly and dz and not (dx or dy)):
                        continue
                    v = (u[0] + dz, u[1] + dy, u[2] + dx)
                    if not (0 <= v[0] < Zb and 0 <= v[1] < Yb and 0 <= v[2] < Xb):
                        continue
                    if not (passable[u] and passable[v]):
                        continue
                    if dz and (dx or dy) and not (supc[u] and supc[v]):
                        continue
                    npar = par
                    if dx and dy:
                        if alternate:
                            h, npar = (cell if par == 0 else 2 * cell), 1 - par
                        else:
                            h = diag
                    else:
                        h = cell if (dx or dy) else 0
                    c = h + (climb if dz > 0 else descend if dz < 0 else 0)
                    if fly and takeoff and supc[u] and not supc[v]:
                        c += takeoff
                    heapq.heappush(heap, (d + c, v, npar))
    out = {}
    for (u, _p), d in best.items():
        out[u] = min(out.get(u, d), d)
    return out


@pytest.mark.parametrize("alternate", [False, True])
def test_relaxation_matches_dijkstra(alternate):
    import random

    import numpy as np

    rng = random.Random(11 + alternate)
    for _ in range(40):
        Zb, Yb, Xb = rng.randint(1, 5), rng.randint(1, 8), rng.randint(1, 8)
        passable = np.array([[[rng.random() < 0.8 for _ in range(Xb)] for _ in range(Yb)] for _ in range(Zb)])
        supc = np.array([[[rng.random() < 0.5 for _ in range(Xb)] for _ in range(Yb)] for _ in range(Zb)])
        supc[0] = True
        lo = (rng.randrange(Zb), rng.randrange(Yb), rng.randrange(Xb))
        fly = rng.random() < 0.6
        if not fly:
            passable &= supc
        passable[lo] = True
        costs = (150, 150 if alternate else rng.choice([150, 212]), 400, 200, rng.choice([0, 450, 600]) if fly else 0)
        got = aerial._relax_flat(passable, supc, lo, fly, costs, 500, alternate=alternate)
        got = got[0] if alternate else got
        want = _dijkstra(passable, supc, lo, fly, costs, alternate)
        for idx in np.ndindex(passable.shape):
            assert int(got[idx]) == want.get(idx, int(aerial.INF)), (idx, alternate)


def test_air09_diagonal_5_10_5_option():
    s = make([HARPY | {"at": [0, 0, 3], "flying": True}], options={"diagonal": "5-10-5"})
    m = moved(step(s, "h", "move", to=[4, 4, 3]))[0]
    assert m["cost_m"] == 1.5 + 3 + 1.5 + 3
    s = make([HARPY | {"at": [0, 0, 3], "flying": True}], options={"diagonal": "5-10-5"})
    p = s.preview({"actor": "h", "action": "move", "to": [5, 3, 3]})      # 3 diagonals + 2 straight = 1.5+3+1.5+3
    assert p["cost_m"] == 9.0 and p["horizontal_m"] == 9.0 and len(p["path"]) == 6


def test_helpers_build_a_session():
    s = make([{"id": "a", "kind": "archer", "at": [1, 1, 0]}])
    assert s.current == "a"
