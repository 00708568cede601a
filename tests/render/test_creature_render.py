"""Creatures drawn by family (headless GL, one small render each): a young red dragon beside a griffon and a
scout is not the generic model's silhouette, and it is red."""

import numpy as np
import pytest

from gl_render import frame, gl_fixture, renderer_for, state_of
from rules_helpers import make_scene

pytestmark = pytest.mark.gl

SIZE = (160, 120)
DRAGON = {"id": "dragon", "srd": "young-red-dragon", "side": "enemies", "flying": True, "at": [2, 4, 4]}
OTHERS = [{"id": "griffon", "srd": "griffon", "side": "enemies", "flying": True, "at": [9, 4, 4]},
          {"id": "scout", "srd": "scout", "side": "players", "at": [12, 1, 0]}]

gl = gl_fixture(SIZE)


def _scene(**dragon):
    return make_scene([{**DRAGON, **dragon}, *OTHERS], "families.toml", size=(18, 10, 10))


def _render(rc, **dragon):
    from engine.render.camera import Camera
    from engine.render.renderer import DrawOptions

    scene = _scene(**dragon)
    st = state_of(scene)
    cam = Camera((11.0, -5.0, 15.0), (11.0, 6.0, 3.0), fov=60)
    opts = DrawOptions(labels=False, drop_lines=False, rings=False, terrain=False)
    img, r = frame(rc, scene, cam, st, opts=opts)
    return img[..., :3].astype(int), r, st


def test_a_dragon_is_drawn_as_a_red_dragon_not_the_generic_model(gl):
    from engine.render.renderer import SKY

    img, r, st = _render(gl)
    generic, _, _ = _render(gl, model="generic")
    sky = np.array(SKY) * 255
    drawn = np.abs(img - sky).sum(axis=2) > 40
    drawn_generic = np.abs(generic - sky).sum(axis=2) > 40
    assert r.look(st.get("dragon")).family == "dragon"
    assert r.look(st.get("griffon")).family == "bird" and r.look(st.get("scout")).family == "humanoid"
    left = np.zeros_like(drawn)
    left[:, : SIZE[0] // 2] = True                      # the dragon's half of the frame (the griffon is right)
    a, b = drawn & left, drawn_generic & left
    assert a.sum() > 150 and b.sum() > 20
    iou = (a & b).sum() / (a | b).sum()
    assert iou < 0.6, f"the dragon's silhouette is the generic model's (IoU {iou:.2f})"
    px = img[a]
    r_, g_, b_ = px.mean(axis=0)
    assert r_ > g_ + 30 and r_ > b_ + 30, f"mean colour {px.mean(axis=0)} is not red"
    assert (drawn & ~left).sum() > 100                  # the griffon is drawn too


def test_which_characters_are_drawn_by_family(gl):
    """srd = a creature, or a stat block's kind naming one (giant_eagle, wyvern), is drawn by family; a kind with a
    shipped model (archer, harpy, and guard by alias) keeps it, and a scene's own model wins over the creature."""
    from engine.render.state import CharView

    r = renderer_for(gl, _scene())

    def look(**kw):
        return r.look(CharView("x", "a", 0.0, 0.0, 0.0, **kw))
    assert look(srd="adult-gold-dragon").family == "dragon"
    assert look(kind="giant_eagle").family == "bird" and look(kind="wyvern").family == "dragon"
    assert look(kind="archer") is None and look(kind="harpy") is None and look(kind="guard") is None
    assert look(srd="young-red-dragon", model="generic", own_model=True) is None
    assert look(kind="no_such_thing") is None
