"""The world: distances, engagement across layers, the document's cover examples (AIR-02..04, AIR-13..16)."""

import math

import pytest

from engine.rules.registry import cover_levels
from engine.world.cover import cover_between, cover_level
from engine.world.geometry import Body, distance_m, engaged, in_melee_reach, layers_apart, melee_layer_reach
from engine.scene import parse_scene

pytestmark = pytest.mark.unit


def scene(fills="", size=(20, 12, 30), chars=""):
    text = f'name = "t"\n[map]\nsize = {list(size)}\n' + fills + chars
    return parse_scene(text, "t.toml")


LOW_WALL = '[[map.fill]]\nmaterial = "stone"\nfrom = [8, 0, 0]\nto = [8, 11, 0]\n'          # 1 m high
TALL_WALL = '[[map.fill]]\nmaterial = "stone"\nfrom = [8, 0, 0]\nto = [8, 11, 19]\n'        # 20 m high
MID_WALL = '[[map.fill]]\nmaterial = "stone"\nfrom = [6, 0, 0]\nto = [6, 11, 2]\n'          # 3 m high, 3 cells off


# -- AIR-02 / AIR-03 ------------------------------------------------------------------------------------------
def test_distance_counts_height_in_metres():
    a, b = Body(0, 0, 0), Body(3, 4, 0)
    assert distance_m(a, b, 1.5) == pytest.approx(7.5)                 # 3-4-5 triangle of 1.5 m cells
    up = Body(0, 0, 6)
    assert distance_m(Body(0, 0, 0), up, 1.5) == pytest.approx(6.0)    # layers are exactly 1 m
    c = Body(2, 0, 3)
    assert distance_m(Body(0, 0, 0), c, 1.5) == pytest.approx(math.sqrt(3.0 ** 2 + 3 ** 2))
    assert distance_m(c, Body(0, 0, 0), 1.5) == distance_m(Body(0, 0, 0), c, 1.5)


def test_distance_uses_the_cell_size():
    assert distance_m(Body(0, 0, 0), Body(2, 0, 0), 2.0) == pytest.approx(4.0)


# -- AIR-04 / AIR-05 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("other,expected", [
    (Body(1, 0, 0), True),      # neighbour, same layer
    (Body(1, 1, 1), True),      # diagonal neighbour, one layer up
    (Body(0, 1, -1 + 2), True), # neighbour one layer above
    (Body(1, 0, 2), False),     # two layers apart
    (Body(2, 0, 0), False),     # not a neighbouring cell
])
def test_engagement_across_layers(other, expected):
    me = Body(0, 0, 0) if other.layer <= 1 else Body(0, 0, 0)
    assert engaged(me, other) is expected
    assert engaged(other, me) is expected


def test_engagement_one_layer_below():
    assert engaged(Body(5, 5, 4), Body(6, 5, 3))
    assert not engaged(Body(5, 5, 4), Body(6, 5, 2))


def test_melee_reach_stops_at_three_layers_unless_reach_is_longer():
    assert melee_layer_reach(1.5) == 2
    assert in_melee_reach(Body(0, 0, 0), Body(1, 0, 2), 1.5, 1.5)
    assert not in_melee_reach(Body(0, 0, 0), Body(1, 0, 3), 1.5, 1.5)
    assert melee_layer_reach(2.5) == 3              # one extra metre: one more layer
    assert in_melee_reach(Body(0, 0, 0), Body(1, 0, 3), 2.5, 1.5)
    assert not in_melee_reach(Body(0, 0, 0), Body(1, 0, 4), 2.5, 1.5)
    assert layers_apart(Body(0, 0, 7), Body(0, 0, 2)) == 5


def test_large_footprints_neighbour_by_their_edges():
    wyvern = Body(4, 4, 0, footprint=2, height_layers=3)
    assert engaged(wyvern, Body(6, 5, 0))
    assert not engaged(wyvern, Body(7, 5, 0))
    assert distance_m(wyvern, Body(6, 5, 0), 1.5) == pytest.approx(math.hypot(1.5 * 1.5, 0.5 * 1.5))


# -- AIR-13 / AIR-14 / AIR-15: the document's examples in both rulesets -------------------------------------
TARGET = Body(9, 5, 0)                    # right behind the wall at x = 8


@pytest.mark.parametrize("ruleset,ground,sky", [("dnd5e", "half", "none"), ("baton", "partial", "none")])
def test_low_wall_protects_against_the_ground_not_the_sky(ruleset, ground, sky):
    w = scene(LOW_WALL).world
    from_ground = cover_between(w, Body(2, 5, 0), TARGET, cover_levels(ruleset))
    from_sky = cover_between(w, Body(5, 5, 14), TARGET, cover_levels(ruleset))
    assert from_ground.level == ground and 0 < from_ground.blocked_fraction < 1
    assert from_sky.level == sky and from_sky.blocked_fraction == 0
    assert from_ground.visible and from_sky.visible
    # without the wall nothing is covered: the wall is what does it
    bare = scene().world
    assert cover_between(bare, Body(2, 5, 0), TARGET, cover_levels(ruleset)).blocked_fraction == 0


@pytest.mark.parametrize("ruleset", ["dnd5e", "baton"])
def test_wall_taller_than_the_flyer_keeps_blocking(ruleset):
    w = scene(TALL_WALL).world
    r = cover_between(w, Body(2, 5, 12), TARGET, cover_levels(ruleset))
    assert r.level == "total" and r.blocked_fraction == 1 and not r.visible


@pytest.mark.parametrize("ruleset", ["dnd5e", "baton"])
def test_a_flyer_high_up_sees_over_walls_that_hide_from_the_ground(ruleset):
    w = scene(MID_WALL).world
    assert cover_between(w, Body(2, 5, 0), TARGET, cover_levels(ruleset)).level == "total"
    high = cover_between(w, Body(2, 5, 16), TARGET, cover_levels(ruleset))
    assert high.visible and high.level == "none"
    # AIR-15 is about seeing: part-way up the flyer already sees the target (partly covered)
    mid = cover_between(w, Body(2, 5, 5), TARGET, cover_levels(ruleset))
    assert mid.visible and 0 < mid.blocked_fraction < 1


def test_cover_falls_as_the_attacker_climbs():
    w = scene(LOW_WALL).world
    fractions = [cover_between(w, Body(4, 5, layer), TARGET).blocked_fraction for layer in range(0, 25, 4)]
    assert fractions[0] > 0 and fractions[-1] == 0
    assert all(a >= b for a, b in zip(fractions, fractions[1:]))


def test_the_floor_under_a_character_never_counts_as_cover():
    # a target standing at the very edge of a roof, an archer on the ground below: no cover from its own roof
    w = scene('[[map.fill]]\nmaterial = "stone"\nfrom = [10, 0, 0]\nto = [19, 11, 5]\n').world
    edge = Body(10, 5, 6)
    assert cover_between(w, Body(6, 5, 0), edge).blocked_fraction == 0
    # one cell back from the edge, the roof's edge *between* them is real cover
    back = Body(12, 5, 6)
    assert cover_between(w, Body(6, 5, 0), back).blocked_fraction > 0


def test_glass_does_not_block_sight_but_stone_does():
    glass = scene(LOW_WALL.replace("stone", "glass").replace("to = [8, 11, 0]", "to = [8, 11, 5]")).world
    assert cover_between(glass, Body(2, 5, 0), TARGET).blocked_fraction == 0
    stone = scene(LOW_WALL.replace("to = [8, 11, 0]", "to = [8, 11, 5]")).world
    assert cover_between(stone, Body(2, 5, 0), TARGET).level == "total"


def test_cover_thresholds():
    assert cover_level(0.0, cover_levels("dnd5e")) == "none"
    assert cover_level(0.2, cover_levels("dnd5e")) == "none"
    assert cover_level(0.25, cover_levels("dnd5e")) == "half"
    assert cover_level(0.75, cover_levels("dnd5e")) == "three-quarters"
    assert cover_level(1.0, cover_levels("dnd5e")) == "total"
    assert cover_level(0.5, cover_levels("baton")) == "partial"
    assert cover_level(1.0, cover_levels("baton")) == "total"


def test_cover_is_reproducible():
    w = scene(LOW_WALL).world
    a = cover_between(w, Body(2, 5, 0), TARGET)
    b = cover_between(w, Body(2, 5, 0), TARGET)
    assert a == b


def test_support_and_landing():
    w = scene('[[map.fill]]\nmaterial = "stone"\nfrom = [3, 3, 0]\nto = [3, 3, 4]\n').world
    assert w.is_supported(3, 3, 5) and not w.is_supported(3, 3, 6) and w.is_supported(0, 0, 0)
    assert w.support_layer(3, 3, below=12) == 5
    assert w.support_layer(4, 3, below=12) == 0
    assert int(w.heightmap()[3, 3]) == 5
