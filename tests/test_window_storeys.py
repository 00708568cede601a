"""The storey control (issue 27): I steps the view state's cut down through the storeys, Shift+I back up to
'all'; the cuts come from an imported map's floor images, else layer by layer. No display."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine.app import storeys

pytestmark = pytest.mark.unit


def test_cuts_follow_the_floor_images():
    w = SimpleNamespace(size=(10, 10, 12), floor_images=((6, "b.png"), (0, "a.png")))
    assert storeys.cuts(w) == [5, None]
    assert storeys.step(w, None, -1) == 5
    assert storeys.step(w, 5, -1) == 5            # the lowest storey stops
    assert storeys.step(w, 5, +1) is None
    assert storeys.label(w, 5).startswith("storey 1 of 2: layers 0..5")


def test_cuts_layer_by_layer_without_storeys():
    w = SimpleNamespace(size=(4, 4, 4), floor_images=())
    assert storeys.cuts(w) == [0, 1, 2, None]
