"""engine/rules/dnd5e/areas.py: the five SRD shapes in metres, from data, with no spell in them (breath weapons and
lasting clouds reuse it)."""

from __future__ import annotations

import math

import pytest

from engine.rules.dnd5e import areas
from engine.world.geometry import Body

pytestmark = pytest.mark.unit


def test_sphere_is_round_in_3d():
    a = areas.make({"shape": "sphere", "size_m": 6}, (0, 0, 10))
    assert areas.contains(a, (0, 0, 16)) and areas.contains(a, (6, 0, 10))
    assert not areas.contains(a, (4.3, 0, 14.3))          # 6.08 m away diagonally: outside
    assert areas.contains(a, (4.2, 0, 14.2))


def test_cube_is_its_edge_wide_around_its_centre():
    a = areas.make({"shape": "cube", "size_m": 6}, (10, 10, 3))
    assert areas.contains(a, (13, 13, 6)) and areas.contains(a, (7, 7, 0))
    assert not areas.contains(a, (13.1, 10, 3)) and not areas.contains(a, (10, 10, 6.1))


def test_cone_is_as_wide_as_it_is_far_pointing_anywhere():
    up = areas.make({"shape": "cone", "size_m": 18}, (0, 0, 0), toward=(0, 0, 1))
    assert areas.contains(up, (0, 0, 18)) and areas.contains(up, (4.9, 0, 10))     # radius 5 at 10 m
    assert not areas.contains(up, (5.1, 0, 10)) and not areas.contains(up, (0, 0, 18.1))
    assert not areas.contains(up, (0, 0, -1))                                     # not behind its apex
    assert math.isclose(areas.CONE_HALF_ANGLE, math.atan(0.5))


def test_line_has_its_width_and_length_along_any_direction():
    d = (1 / math.sqrt(2), 0, 1 / math.sqrt(2))
    ln = areas.make({"shape": "line", "size_m": 30, "width_m": 1.5}, (0, 0, 0), toward=d)
    assert areas.contains(ln, (21, 0, 21)) and not areas.contains(ln, (21.3, 0, 21.3))     # 29.7 m, 30.1 m
    assert areas.contains(ln, (10, 0.7, 10)) and not areas.contains(ln, (10, 0.8, 10))     # half width 0.75 m


def test_cylinder_stands_on_its_base():
    c = areas.make({"shape": "cylinder", "size_m": 3, "height_m": 12}, (0, 0, 0))
    assert areas.contains(c, (3, 0, 12)) and not areas.contains(c, (0, 0, -0.1)) and not areas.contains(c, (0, 0, 12.1))
    assert not areas.contains(c, (2.2, 2.2, 5))
    default = areas.make({"shape": "cylinder", "size_m": 3}, (0, 0, 0))
    assert areas.contains(default, (0, 0, 6)) and not areas.contains(default, (0, 0, 6.1))   # height: its diameter


def test_a_body_is_caught_by_any_of_its_points():
    """A large body (2 x 2 cells, 3 layers) whose nearest cell only is inside the sphere is caught."""
    big = Body(4, 4, 0, footprint=2, height_layers=3)
    cell = 1.5
    centre = areas.cell_centre(3, 4, 0, cell)                        # beside the body's cell (4, 4)
    a = areas.make({"shape": "sphere", "size_m": 1.6}, centre)      # 1.5 m to the nearest cell centre of the body
    assert areas.catches(a, big, cell)
    assert not areas.catches(areas.make({"shape": "sphere", "size_m": 1.4}, centre), big, cell)
    assert len(areas.body_points(4, 4, 0, 2, 3, cell)) == 12


def test_bad_data_names_the_key():
    with pytest.raises(ValueError, match="area.shape"):
        areas.make({"shape": "torus", "size_m": 3}, (0, 0, 0))
    with pytest.raises(ValueError, match="area.size_m"):
        areas.make({"shape": "sphere", "size_m": 0}, (0, 0, 0))


def test_cells_of_an_area():
    a = areas.make({"shape": "sphere", "size_m": 1.5}, areas.cell_centre(5, 5, 5, 1.5))
    got = areas.cells(a, (12, 12, 12), 1.5)
    assert (5, 5, 5) in got and (6, 5, 5) in got and (5, 5, 6) in got and (6, 6, 5) not in got
