"""The storey control (issue 27): , steps the view state's cut down through the storeys, . back up to
'all'; the cuts come from an imported map's floor images, else layer by layer. No display."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from gl_render import headless

from engine.app import storeys


@pytest.mark.unit
def test_cuts_follow_the_floor_images():
    w = SimpleNamespace(size=(10, 10, 12), floor_images=((6, "b.png"),))
    assert storeys.cuts(w) == [5, None]
    assert storeys.step(w, None, -1) == 5
    assert storeys.step(w, 5, -1) == 5            # the lowest storey stops
    assert storeys.step(w, 5, +1) is None
    assert storeys.label(w, 5).startswith("storey 1 of 2: layers 0..5")


@pytest.mark.unit
def test_cuts_layer_by_layer_without_storeys():
    w = SimpleNamespace(size=(4, 4, 4), floor_images=())
    assert storeys.cuts(w) == [0, 1, 2, None]


@pytest.mark.gl
def test_picking_with_the_upper_storey_cut_lands_on_the_lower_floor(aerie, tmp_path):
    """An imported two-storey map (Levels tiles: the upper floor at layer 2 over cells 2..7): straight down on
    cell (5, 5) the pick is the upper floor's top (layer 3); with the window's storey cut (,) applied to a real
    renderer and picker, the same ray lands on the lower storey (the ground, layer 0)."""
    import numpy as np
    import pyglet

    pyglet.options["shadow_window"] = False        # importing the window module must not open a display
    from engine.app.picking import Picker
    from engine.app.viewstate import ViewState
    from engine.render.rules_bridge import display_world
    from test_interop_storeys import imported, scene_modern

    d = scene_modern("9", levels_flags=True)
    d.pop("_stats")
    d["grid"], d["gridDistance"] = 100, 5
    d["img"] = d.pop("background")["src"]
    d["tiles"][0] = {"img": "upper.png", "x": 0, "y": 0, "width": 1000, "height": 1000, "overhead": True,
                     "flags": {"levels": {"rangeBottom": "10", "rangeTop": "19"}}}
    s, _text, _ = imported(aerie, tmp_path, "levels", d)
    assert storeys.cuts(s.world) == [1, None]
    from engine.render.renderer import Renderer

    with headless((64, 64)) as rc:
        win = SimpleNamespace(vstate=ViewState(), renderer=Renderer(rc, display_world(s.world)), rs_cache=None,
                              ov_cache={})
        win.picker = Picker(win.renderer.world)
        cm = s.world.cell_m
        o, down = np.array([5.5 * cm, 5.5 * cm, s.world.size[2] - 0.01]), np.array([0.0, 0.0, -1.0])
        assert win.picker.terrain(o, down).cell == (5, 5, 3)
        win.vstate.cut_above = storeys.step(s.world, None, -1)
        storeys.apply_cut(win, Picker)
        assert win.renderer.cut_above == 1
        assert win.picker.terrain(o, down).cell == (5, 5, 0)
        assert s.world.is_solid(5, 5, 2)                      # the world itself keeps its upper floor
        win.vstate.cut_above = None
        storeys.apply_cut(win, Picker)
        assert win.picker.terrain(o, down).cell == (5, 5, 3)


@pytest.mark.unit
def test_a_cut_the_map_does_not_have_shows_everything():
    """A cut left from a taller map (the showcase's layer 22 when a GM opens an 8-layer scene) raised in every
    frame (found by a monkey test of the window): it is dropped, the whole map shown, nothing asked of the renderer."""
    from engine.app.viewstate import ViewState

    def refuse(layer):
        raise AssertionError(f"set_cut_above({layer}) asked")

    win = SimpleNamespace(vstate=ViewState(), renderer=SimpleNamespace(full_world=SimpleNamespace(size=(4, 4, 8)),
                                                                     cut_above=None, set_cut_above=refuse))
    for bad in (22, 7, -1):
        win.vstate.cut_above = bad
        storeys.apply_cut(win, None)
        assert win.vstate.cut_above is None
    assert storeys.label(win.renderer.full_world, None) == "storey: all (, cuts down a storey)"
