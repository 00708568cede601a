"""The workloads of `aerie bench rules --dragon` and `aerie bench srd` (issue 44): what they time is what they say."""

from __future__ import annotations

import pytest

from engine.scene import parse_scene
from engine.scene.bench import dragon_scene, measure, twenty_scene_text

pytestmark = pytest.mark.unit


def test_the_twenty_scenes_hold_twenty_srd_creatures_and_twenty_blocks():
    srd = parse_scene(twenty_scene_text(True), "<srd>")
    kind = parse_scene(twenty_scene_text(False), "<kind>")
    assert len(srd.characters) == len(kind.characters) == 20
    assert "srd" in twenty_scene_text(True) and "srd" not in twenty_scene_text(False)
    assert len({c.name for c in srd.characters}) == 20             # twenty different creatures


def test_the_dragon_bench_has_a_legendary_dragon_and_replays_the_same():
    """The dragon has its legendary actions; a short measure's replay from the actions alone reaches the same state
    (``measure`` asserts so: before the listing was read-only it did not)."""
    from engine.rules.session import Session

    scene = dragon_scene()
    s = Session(scene, 1)
    assert s.state.actors["dragon"].data.get("legendary")
    m = measure(scene, 1, 0.5)
    assert m["steps"] > 0 and m["replayed"] == m["steps"]
