"""Headless rendering (EGL, Mesa llvmpipe in CI): every shader compiles, golden images, and semantic checks that
cannot pass by accident.

Goldens (docs/renderer.md, "Golden images"): tests/render/goldens/NAME.png at 160 x 120. A render matches when the mean
absolute difference over all channels is at most 1.5 (of 255) and at most 0.5 % of pixels differ by more than 32
in some channel. On a mismatch the actual image and a diff image go to tests/_failures/. Goldens are written
only with AERIE_UPDATE_GOLDENS=1; a missing golden is a failure otherwise.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from gl_render import gl_fixture, renderer_for, state_of

pytestmark = pytest.mark.gl

HERE = Path(__file__).resolve().parent
GOLDENS = HERE / "goldens"
FAILURES = HERE / "_failures"
MEAN_TOL = 1.5
PIXEL_TOL = 32
FRACTION_TOL = 0.005
SIZE = (160, 120)

YARD = """
version = 1
name = "test yard"
ruleset = "dnd5e"

[map]
size = [20, 14, 12]
cell_m = 1.5

[[map.fill]]          # a wall 4 layers high along x = 8
material = "stone"
from = [8, 0, 0]
to = [8, 13, 3]

[[map.fill]]          # a small house: its roof top is layer 3
material = "brick"
from = [2, 2, 0]
to = [4, 4, 2]

[[map.fill]]
material = "glass"
from = [12, 2, 0]
to = [13, 2, 1]

[[characters]]
id = "archer"
side = "red"
kind = "archer"
at = [5, 7, 0]

[[characters]]
id = "harpy"
side = "blue"
kind = "harpy"
flying = true
at = [12, 7, 8]

[[characters]]
id = "knight"
side = "blue"
kind = "knight"
at = [14, 10, 0]
conditions = ["prone"]
"""


gl = gl_fixture(SIZE)


@pytest.fixture(scope="module")
def yard():
    from engine.scene import parse_scene

    return parse_scene(YARD, "test.toml")


# -- shaders ----------------------------------------------------------------------------------------------------
def test_every_shader_compiles(gl):
    from engine.render.shaders import SHADER_DIR, load_program, program_names

    names = program_names()
    assert {"terrain", "shadow", "model", "line", "flat", "text"} <= set(names)
    stages = {p.stem for p in SHADER_DIR.iterdir() if p.suffix in (".vert", ".frag", ".geom")}
    assert stages == set(names), "every shader file belongs to a program"
    for n in names:
        load_program(gl.ctx, n).release()
    from engine.render.shaders import VARIANTS

    for n, variants in VARIANTS.items():
        for defines in variants:
            load_program(gl.ctx, n, defines).release()


def test_both_lighting_modes_draw(gl, yard):
    from engine.render.camera import default_camera

    st = state_of(yard)
    cam = default_camera(yard.world, st.characters)
    imgs = [renderer_for(gl, yard, SIZE, lighting=m).render(cam, st) for m in ("baked", "shadowmap")]
    for img in imgs:
        assert img.std() > 10
    # the same scene either way: mostly the same pixels, shading differs a little
    assert np.abs(imgs[0].astype(int) - imgs[1].astype(int)).mean() < 20


# -- goldens ----------------------------------------------------------------------------------------------------
def compare_golden(name: str, img: np.ndarray):
    from PIL import Image

    path = GOLDENS / f"{name}.png"
    if os.environ.get("AERIE_UPDATE_GOLDENS") == "1":
        GOLDENS.mkdir(exist_ok=True)
        Image.fromarray(img).save(path)
        return
    assert path.exists(), f"missing golden {path}; create it with AERIE_UPDATE_GOLDENS=1 (and look at it)"
    want = np.asarray(Image.open(path).convert("RGB"))
    assert want.shape == img.shape, f"{name}: golden is {want.shape}, render is {img.shape}"
    diff = np.abs(want.astype(np.int16) - img.astype(np.int16))
    mean = float(diff.mean())
    frac = float((diff.max(axis=2) > PIXEL_TOL).mean())
    if mean > MEAN_TOL or frac > FRACTION_TOL:
        FAILURES.mkdir(exist_ok=True)
        Image.fromarray(img).save(FAILURES / f"{name}.actual.png")
        Image.fromarray(np.clip(diff * 4, 0, 255).astype(np.uint8)).save(FAILURES / f"{name}.diff.png")
        pytest.fail(f"{name}: mean abs diff {mean:.2f} (tolerance {MEAN_TOL}), {frac:.2%} of pixels differ by more "
                    f"than {PIXEL_TOL} (tolerance {FRACTION_TOL:.1%}); see {FAILURES}")


def test_golden_yard_default_camera(gl, yard):
    from engine.render.camera import default_camera

    r = renderer_for(gl, yard, SIZE)
    st = state_of(yard)
    compare_golden("yard_default", r.render(default_camera(yard.world, st.characters), st))


def test_golden_yard_overlays(gl, yard):
    from engine.render.camera import orbit_camera
    from engine.render.overlays import build_overlays

    r = renderer_for(gl, yard, SIZE)
    st = state_of(yard)
    ov = build_overlays(yard, st, ["sightlines:archer:harpy", "grid:4", "engagement", "reach:knight"])
    compare_golden("yard_overlays", r.render(orbit_camera(yard.world, st.characters, 200.0), st, ov))


def test_golden_yard_cover_map(gl, yard):
    from engine.render.camera import Camera
    from engine.render.overlays import build_overlays
    from engine.render.renderer import DrawOptions

    r = renderer_for(gl, yard, SIZE)
    st = state_of(yard)
    ov = build_overlays(yard, st, ["cover:archer:0"])
    cam = Camera((15.0, 10.5, 40.0), (15.0, 10.6, 0.0), 50.0)
    compare_golden("yard_cover", r.render(cam, st, ov, DrawOptions(labels=False)))


def test_render_is_deterministic(gl, yard):
    from engine.render.camera import default_camera

    r = renderer_for(gl, yard, SIZE)
    st = state_of(yard)
    cam = default_camera(yard.world, st.characters)
    assert np.array_equal(r.render(cam, st), r.render(cam, st))


# -- semantic checks --------------------------------------------------------------------------------------------
def _changed(a: np.ndarray, b: np.ndarray, tol: int = 12) -> np.ndarray:
    return np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=2) > tol


def test_flyer_at_layer_8_is_drawn_higher_than_at_layer_0_from_the_side(gl, yard):
    from engine.render.camera import Camera
    from engine.render.renderer import DrawOptions
    from engine.render.state import CharView, RenderState

    r = renderer_for(gl, yard, (160, 240))
    opts = DrawOptions(labels=False, drop_lines=False, rings=False)
    x, y = 15, 9
    cx, cy = (x + 0.5) * 1.5, (y + 0.5) * 1.5
    cam = Camera((cx, cy - 30.0, 5.0), (cx, cy, 5.0), 40.0)      # level, from the south
    empty = r.render(cam, RenderState([]), None, opts)
    rows = {}
    for layer in (0, 8):
        st = RenderState([CharView("h", "blue", x, y, layer, flying=True, kind="harpy")])
        mask = _changed(r.render(cam, st, None, opts), empty)
        assert mask.sum() > 40, f"the model at layer {layer} is not drawn"
        rows[layer] = np.nonzero(mask)[0].mean()
    # screen y grows downwards: higher in the world is a smaller row; 8 m at 30 m with a 40 degree fov is ~100 px
    assert rows[8] < rows[0] - 60, rows


def test_a_character_behind_a_wall_is_hidden_from_the_far_side_and_visible_from_above(gl, yard):
    from engine.render.camera import Camera
    from engine.render.renderer import DrawOptions
    from engine.render.state import CharView, RenderState

    r = renderer_for(gl, yard, SIZE)
    opts = DrawOptions(labels=False, drop_lines=False, rings=False)
    # the wall is x = 8 (metres 12..13.5), layers 0..3 (4 m high); the character stands east of it at x = 10
    who = RenderState([CharView("k", "red", 10, 7, 0, kind="knight")])
    nobody = RenderState([])
    west = Camera((-6.0, 11.25, 1.5), (20.0, 11.25, 1.2), 50.0)
    above = Camera((15.75, 10.5, 16.0), (15.75, 11.25, 0.0), 25.0)
    hidden = _changed(r.render(west, who, None, opts), r.render(west, nobody, None, opts))
    assert hidden.sum() == 0, f"{hidden.sum()} pixels of the character show through the wall"
    seen = _changed(r.render(above, who, None, opts), r.render(above, nobody, None, opts))
    assert seen.sum() > 30, "the character is not visible from above"
    # and from the east side, with the wall behind it, it is visible too
    east = Camera((30.0, 11.25, 1.5), (0.0, 11.25, 1.2), 50.0)
    assert _changed(r.render(east, who, None, opts), r.render(east, nobody, None, opts)).sum() > 30


def test_the_drop_line_ends_on_the_surface_below(gl, yard):
    from engine.render.camera import Camera
    from engine.render.overlays import drop_line, surface_below
    from engine.render.renderer import DrawOptions
    from engine.render.state import CharView, RenderState

    world = yard.world
    c = CharView("h", "blue", 3, 3, 8, flying=True, kind="harpy")        # over the house, roof top at layer 3
    assert surface_below(world, c) == world.support_layer(3, 3, 8) == 3
    top, bottom = drop_line(world, c)
    assert top == (3.5 * 1.5, 3.5 * 1.5, 8.0) and bottom == (3.5 * 1.5, 3.5 * 1.5, 3.0)
    r = renderer_for(gl, yard, (240, 240))
    cam = Camera((5.25 + 14.0, 5.25 - 14.0, 10.0), (5.25, 5.25, 4.5), 45.0)
    only_line = DrawOptions(labels=False, rings=False, characters=False)
    none = DrawOptions(labels=False, rings=False, characters=False, drop_lines=False)
    st = RenderState([c])
    mask = _changed(r.render(cam, st, None, only_line), r.render(cam, st, None, none), 40)
    ys, xs = np.nonzero(mask)
    assert len(ys) > 20
    (px_top, py_top, _), (px_bot, py_bot, _) = cam.project([top, bottom], (240, 240))
    assert abs(ys.max() - py_bot) <= 3, (ys.max(), py_bot)       # the line stops at the roof ...
    assert abs(ys.min() - py_top) <= 3, (ys.min(), py_top)       # ... and starts at the feet
    assert abs(xs.mean() - px_bot) <= 3


@pytest.mark.parametrize("lighting", ["baked", "shadowmap"])
def test_world_change_remeshes_only_touched_chunks(gl, yard, lighting):
    from engine.render.camera import default_camera
    from engine.scene import parse_scene

    scene = parse_scene(YARD, "test.toml")
    r = renderer_for(gl, scene, SIZE, lighting=lighting)
    st = state_of(scene)
    cam = default_camera(scene.world, st.characters)
    before = r.render(cam, st)
    box = scene.world.set_voxels((16, 3, 0), (18, 5, 6), scene.world.material_id("brick"))
    assert r.world_changed(box) == [(0, 0)]
    after = r.render(cam, st)
    assert _changed(before, after).sum() > 50


def test_screen_layer_draws_text_over_a_frame(gl, yard):
    from engine.render.camera import default_camera
    from engine.render.screen import ScreenLayer
    from engine.render.text import GlyphAtlas

    r = renderer_for(gl, yard, SIZE)
    cam = default_camera(yard.world, [])
    r.draw(cam)
    before = gl.read().copy()
    layer = ScreenLayer(r, GlyphAtlas(12))
    layer.upload([layer.atlas.box(4, 4, 60, 24, (255, 0, 255, 255))] + layer.atlas.quads("HUD", 8, 6, 14, (0, 0, 0, 255)))
    layer.draw(SIZE)
    after = gl.read()
    assert (after[5:20, 5:50] != before[5:20, 5:50]).any()
    assert tuple(after[20, 50]) == (255, 0, 255)
    layer.release()


def test_a_change_relights_only_nearby_chunks_and_matches_a_fresh_renderer(gl):
    """Re-meshing the touched chunks and refilling only the light maps whose light changed gives the same picture
    as building everything again."""
    from engine.render.camera import orbit_camera
    from engine.render.renderer import Renderer
    from test_render_mesh import IDS, random_world

    w = random_world(5, size=(96, 64, 10))
    r = renderer_for(gl, w, SIZE)
    cam = orbit_camera(w, [], 30.0)
    r.render(cam)
    box = w.set_voxels((40, 20, 0), (42, 23, 8), IDS["brick"])
    keys = r.world_changed(box)
    after = r.render(cam)
    assert 0 < r.stats["light_chunks_refilled"] < len(r.mesh.chunks) and len(keys) < len(r.mesh.chunks)
    fresh = Renderer(gl, w).render(cam)
    assert np.array_equal(after, fresh)


def test_a_view_drawn_small_and_shown_stretched_looks_like_the_full_view(gl, yard):
    """The window's reduced-resolution frames: drawn into a small sampled target, stretched to full size."""
    from engine.render.camera import default_camera
    from engine.render.renderer import DrawOptions

    r = renderer_for(gl, yard, SIZE)
    st = state_of(yard)
    cam = default_camera(yard.world, st.characters)
    opts = DrawOptions(labels=False)         # labels keep their pixel size, so they would differ
    full = r.render(cam, st, None, opts).astype(np.int16)
    small = gl.target((SIZE[0] * 7 // 10, SIZE[1] * 7 // 10), sampled=True)
    out = gl.target(SIZE)
    with gl.drawing_into(small):
        r.draw(cam, st, None, opts)
    gl.show(small, SIZE, into=out)
    with gl.drawing_into(out):
        got = gl.read().astype(np.int16)
    small.release()
    out.release()
    diff = np.abs(got - full).max(axis=2)
    assert got.std() > 10                      # a picture, not a cleared buffer
    assert diff.mean() < 12 and (diff > 60).mean() < 0.05, (diff.mean(), (diff > 60).mean())


def test_character_markers_follow_the_state_even_when_it_is_changed_in_place(gl, yard):
    """The renderer keeps the markers between frames; a character moved (the state's list changed in place) must
    move its ring, drop line and label in the next frame, and moving it back gives the first picture again."""
    from dataclasses import replace

    from engine.render.camera import default_camera
    from engine.render.renderer import DrawOptions

    r = renderer_for(gl, yard, SIZE)
    st = state_of(yard)
    cam = default_camera(yard.world, st.characters)
    only_markers = DrawOptions(characters=False)       # the models are drawn from the state every frame anyway
    first = r.render(cam, st, None, only_markers)
    i = next(k for k, c in enumerate(st.characters) if c.flying)
    orig = st.characters[i]
    st.characters[i] = replace(orig, layer=orig.layer + 4)
    moved = r.render(cam, st, None, only_markers)
    assert _changed(first, moved).sum() > 30
    st.characters[i] = orig
    assert np.array_equal(r.render(cam, st, None, only_markers), first)
