"""The window's overlays see a Fog Cloud (SPL-10): the sight lines it draws (scene_prims: ``overlays.sightlines``
through the session's world) and the cover and threat maps (maps.py over ``frame.maps_world``'s copy of the
session's world) are blocked by the fog's heavily obscured voxels as the rules are."""

from __future__ import annotations

import pytest

from rules_helpers import make, step

pytestmark = pytest.mark.gl

CHARS = [{"id": "m", "kind": "mage", "side": "r", "at": [2, 2, 0], "spells": ["fog-cloud"], "level": 9},
         {"id": "g", "kind": "guard", "side": "b", "at": [12, 2, 0]}]


def _window_views(session):
    from engine.app.maps import threat_counts, threat_enemies
    from engine.render import overlays as ov
    from engine.render.rules_bridge import display_world
    from engine.render.state import from_session

    rs = from_session(session.scene, session)
    lines = ov.sightlines(session.scene, rs, rs.get("g"), rs.get("m"), world=session.world)
    shown = display_world(session.world)                 # what frame.maps_world hands the map thread
    enemies = threat_enemies(session, "r")
    threat = threat_counts(session.scene, enemies, [0], world=shown)
    return lines, threat


def test_the_windows_sight_lines_and_threat_map_stop_at_the_fog():
    from engine.render import overlays as ov

    s = make(CHARS, size=(16, 8, 12), options={"spell_names": "srd"})
    lines, threat = _window_views(s)
    assert all(col == ov.CLEAR for _a, _b, col in lines.xray) and threat[0, 2, 2] == 1
    step(s, "m", "cast", spell="fog-cloud", at=[7, 2, 0])
    lines, threat = _window_views(s)
    assert len(lines.xray) == 36 and all(col == ov.BLOCKED for _a, _b, col in lines.xray)
    assert "total" in lines.labels[0].text
    assert threat[0, 2, 2] == 0                           # the guard cannot shoot the mage's cell through the fog
    assert threat[0, 2, 12] == 1                          # its own side of the fog it still threatens
