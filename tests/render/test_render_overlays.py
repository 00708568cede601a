"""Overlays are drawn from the rules' own answers (no GL): sight lines from cover_between, engagement from
engaged(), reach from in_melee_reach(), movement from the rules core's reach map, altitude markers from
support_layer()."""

from __future__ import annotations

import pytest

from engine.rules.registry import cover_levels
from engine.errors import AerieError
from engine.render import overlays as ov
from engine.render.state import CharView, RenderState
from engine.world.cover import cover_between
from engine.world.geometry import engaged
from engine.scene import parse_scene

pytestmark = pytest.mark.unit

SCENE = """
version = 1
name = "overlay yard"
ruleset = "dnd5e"
initiative_starts = "harpy"

[map]
size = [16, 12, 10]

[[map.fill]]
material = "stone"
from = [8, 0, 0]
to = [8, 11, 2]

[[characters]]
id = "archer"
side = "red"
kind = "archer"
at = [4, 6, 0]
max_hp = 11
speed_m = 9

[[characters]]
id = "guard"
side = "red"
kind = "knight"
at = [10, 5, 0]
max_hp = 20
speed_m = 9

[[characters]]
id = "harpy"
side = "blue"
kind = "harpy"
flying = true
at = [11, 6, 1]
max_hp = 20
fly_speed_m = 12
"""


@pytest.fixture(scope="module")
def scene():
    return parse_scene(SCENE, "test.toml")


def test_sightlines_are_cover_between(scene):
    st = RenderState.from_scene(scene)
    a, b = st.get("archer"), st.get("harpy")
    res = cover_between(scene.world, a.body, b.body, cover_levels(scene.ruleset))
    pr = ov.build_overlays(scene, st, ["sightlines:archer:harpy"])
    assert len(pr.xray) == len(res.samples) == 36
    for (p0, p1, col), s, blocked in zip(pr.xray, res.samples, res.blocked):
        assert p1 == pytest.approx((s[0] * 1.5, s[1] * 1.5, s[2]))
        assert col == (ov.BLOCKED if blocked else ov.CLEAR)
    assert any(res.blocked) and res.level in pr.labels[0].text


def test_engagement_links_only_engaged_foes(scene):
    st = RenderState.from_scene(scene)
    pr = ov.build_overlays(scene, st, ["engagement"])
    links = [lb for lb in pr.labels if lb.text == "engaged"]
    expect = [(x.id, y.id) for i, x in enumerate(st.characters) for y in st.characters[i + 1:]
              if x.side != y.side and engaged(x.body, y.body)]
    assert expect == [("guard", "harpy")] and len(links) == 1


def test_movement_is_the_rules_reach_map(scene):
    from engine.render import rules_bridge
    from engine.rules.aerial import reach

    st = RenderState.from_scene(scene)
    s = rules_bridge.new_session(scene)
    c = st.get("harpy")
    costs = rules_bridge.movement_costs(scene, st, c, s)
    r = reach(s, s.state.actors["harpy"])
    assert set(costs) == set(r.destinations()) and costs
    for (x, y, z), m in costs.items():
        assert m * 100 == pytest.approx(r.cost_cm(x, y, z))
    pr = ov.movement(scene, st, c, s)
    cells = [t for t in pr.tris if t[3][3] == 110]                 # the range cells (rings are opaque-ish)
    assert len(cells) == 2 * len({(x, y) for x, y, _ in costs})


def test_drop_line_and_surface(scene):
    w = scene.world
    c = CharView("f", "blue", 8, 3, 7, flying=True)          # over the 3-layer wall
    assert ov.surface_below(w, c) == w.support_layer(8, 3, 7) == 3
    assert ov.drop_line(w, c)[1][2] == 3.0
    assert ov.drop_line(w, CharView("g", "red", 4, 6, 0)) is None


def test_bad_overlays_are_user_errors(scene):
    st = RenderState.from_scene(scene)
    for spec, msg in (("nope", "unknown overlay"), ("reach:zed", "no character 'zed'"), ("grid:x", "whole number"),
                      ("grid:99", "outside the map")):
        with pytest.raises(AerieError, match=msg):
            ov.build_overlays(scene, st, [spec])
