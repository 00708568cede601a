"""Creatures drawn by family (headless GL, one small render each): a young red dragon beside a griffon and a
scout is not the generic model's silhouette, and it is red."""

import numpy as np
import pytest

pytestmark = pytest.mark.gl

SIZE = (160, 120)
SCENE = """
version = 1
name = "families"
ruleset = "dnd5e"

[map]
size = [18, 10, 10]
cell_m = 1.5

[[characters]]
id = "dragon"
srd = "young-red-dragon"
side = "enemies"
flying = true
at = [2, 4, 4]
{dragon_model}

[[characters]]
id = "griffon"
srd = "griffon"
side = "enemies"
flying = true
at = [9, 4, 4]

[[characters]]
id = "scout"
srd = "scout"
side = "players"
at = [12, 1, 0]
"""


@pytest.fixture(scope="module")
def gl():
    moderngl = pytest.importorskip("moderngl")
    try:
        ctx = moderngl.create_standalone_context(backend="egl", require=330)
    except Exception as e:  # noqa: BLE001
        pytest.skip(f"EGL is not available here: {e}")
    ctx.release()
    from engine.render.context import RenderContext

    rc = RenderContext.headless(SIZE)
    yield rc
    rc.release()


def _render(rc, dragon_model: str):
    from engine.render.camera import Camera
    from engine.render.renderer import DrawOptions, Renderer
    from engine.render.state import RenderState
    from engine.scene import parse_scene

    scene = parse_scene(SCENE.format(dragon_model=dragon_model), "families.toml")
    st = RenderState.from_scene(scene)
    r = Renderer(rc, scene.world)
    cam = Camera((11.0, -5.0, 15.0), (11.0, 6.0, 3.0), fov=60)
    opts = DrawOptions(labels=False, drop_lines=False, rings=False, terrain=False)
    return r.render(cam, st, None, opts)[..., :3].astype(int), r, st


def test_a_dragon_is_drawn_as_a_red_dragon_not_the_generic_model(gl):
    from engine.render.renderer import SKY

    img, r, st = _render(gl, "")
    generic, _, _ = _render(gl, 'model = "generic"')
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
    from engine.render.renderer import Renderer
    from engine.render.state import CharView
    from engine.scene import parse_scene

    r = Renderer(gl, parse_scene(SCENE.format(dragon_model=""), "families.toml").world)

    def look(**kw):
        return r.look(CharView("x", "a", 0.0, 0.0, 0.0, **kw))
    assert look(srd="adult-gold-dragon").family == "dragon"
    assert look(kind="giant_eagle").family == "bird" and look(kind="wyvern").family == "dragon"
    assert look(kind="archer") is None and look(kind="harpy") is None and look(kind="guard") is None
    assert look(srd="young-red-dragon", model="generic", own_model=True) is None
    assert look(kind="no_such_thing") is None
