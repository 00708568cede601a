"""The renderer: terrain (greedy chunks, per-pixel AO, shadow map), characters at true altitude, overlays, text.

``Renderer(rc, world)`` uploads the world once; ``draw(camera, state, overlays)`` draws one frame into the
context's framebuffer (an offscreen FBO headless, the window's screen in a window); ``render(...)`` draws and
reads the pixels back. ``world_changed(box)`` re-meshes only the chunks a changed voxel box touches. The renderer
never changes the world or the state.
"""

from __future__ import annotations

import dataclasses
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import moderngl
import numpy as np

from engine import units as U
from engine.errors import AerieError
from engine.render.camera import Camera, gl_matrix
from engine.render.context import RenderContext
from engine.render.creatures import CREATURE_ALIASES, Look, drawn_look
from engine.render.lightmap import fill
from engine.render.mesh import CHUNK, GROUND, ChunkedMesh, facing_faces
from engine.render.overlays import Prims, character_markers, labels_hidden
from engine.render.shaders import load_program
from engine.render.state import CharView, RenderState, side_colour
from engine.render.text import GlyphAtlas, quads_to_array
from engine.world.images import read_image
from engine.resources import resource_dir

MODEL_DIR = resource_dir("assets") / "models"
# glTF 2.0 axes (+Y up, +Z front, -X right) -> the world's (z up, +y front, +x right); a rotation, its own inverse
GLTF_TO_WORLD = np.array([[-1.0, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]])
SKY = (0.72, 0.80, 0.88)
GROUND_COLOUR = (104, 112, 78)
SUN = np.array([-0.45, -0.35, 0.82]) / np.linalg.norm([-0.45, -0.35, 0.82])
TRANSLUCENT_ALPHA = 0.42
SHADOW_SIZE = 2048
LOD2_PX = 2.0         # a chunk is drawn from the 2 x 2 x 2 coarse mesh when a cell covers fewer pixels than this
LOD4_PX = 1.0         # and from the 4 x 4 x 4 one below this

ALIASES = {
    "soldier": "knight", "guard": "knight", "fighter": "knight", "paladin": "knight", "warrior": "knight",
    "ranger": "archer", "hunter": "archer", "scout": "archer", "bowman": "archer", "crossbowman": "archer",
    "wyvern": "wyvern_rider", "dragon": "wyvern_rider", "griffon_rider": "wyvern_rider",
}
WINGED = {"harpy", "wyvern_rider"}


@dataclass
class DrawOptions:
    labels: bool = True
    drop_lines: bool = True
    rings: bool = True
    characters: bool = True
    terrain: bool = True          # False: characters and overlays over the sky (and a measurement aid)
    hud: tuple[str, ...] = ()
    label_px: float = 0.0         # 0: scale with the frame height
    units: str = "m"              # "ft": every "N m" in the labels and HUD lines shown in feet (engine/units.py)


def _ortho(lo, r, b, t, n, f):
    m = np.identity(4)
    m[0, 0], m[1, 1], m[2, 2] = 2 / (r - lo), 2 / (t - b), -2 / (f - n)
    m[0, 3], m[1, 3], m[2, 3] = -(r + lo) / (r - lo), -(t + b) / (t - b), -(f + n) / (f - n)
    return m


def _rot(axis: str, deg: float) -> np.ndarray:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    m = np.identity(4)
    if axis == "x":
        m[1, 1], m[1, 2], m[2, 1], m[2, 2] = c, -s, s, c
    elif axis == "y":
        m[0, 0], m[0, 2], m[2, 0], m[2, 2] = c, s, -s, c
    else:
        m[0, 0], m[0, 1], m[1, 0], m[1, 1] = c, -s, s, c
    return m


def _translate(v) -> np.ndarray:
    m = np.identity(4)
    m[:3, 3] = v
    return m


def _scale(s) -> np.ndarray:
    return np.diag([s, s, s, 1.0])


def _set(prog, name, value):
    """Set a uniform if the program uses it (the GLSL compiler drops unused ones)."""
    u = prog.get(name, None)
    if u is None:
        return
    if isinstance(value, bytes):
        u.write(value)
    else:
        u.value = value


def frustum_planes(vp: np.ndarray) -> np.ndarray:
    """[6, 4] planes (a, b, c, d), inside where a x + b y + c z + d >= 0."""
    r = vp
    planes = np.array([r[3] + r[0], r[3] - r[0], r[3] + r[1], r[3] - r[1], r[3] + r[2], r[3] - r[2]])
    return planes / np.linalg.norm(planes[:, :3], axis=1, keepdims=True)


def boxes_visible(planes: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """AABBs [N, 3] against frustum planes: False only for boxes wholly outside some plane."""
    pos = np.where(planes[None, :, :3] >= 0, hi[:, None, :], lo[:, None, :])      # [N, 6, 3] the positive vertex
    d = np.einsum("npk,pk->np", pos, planes[:, :3]) + planes[None, :, 3]
    return (d >= 0).all(axis=1)


class _Model:
    def __init__(self, ctx, prog, path: Path | None, mesh=None, height: float | None = None):
        """A shipped glTF model (``path``), or a mesh already in the world's axes (``mesh``: a creature's, built
        at its size; ``height`` its body's height, which wings may overtop)."""
        import trimesh

        if mesh is None:
            mesh = trimesh.load(str(path), force="mesh")
            if not isinstance(mesh, trimesh.Trimesh):     # force="mesh" gives one mesh; the stub says any Geometry
                raise AerieError(f"{path}: not a triangle mesh")
            mesh.apply_transform(GLTF_TO_WORLD)      # glTF's +Y up, +Z front -> the world's z up, +y (north) front
        faces = mesh.faces
        pos = mesh.vertices[faces].reshape(-1, 3).astype(np.float32)
        nrm = np.repeat(mesh.face_normals, 3, axis=0).astype(np.float32)
        visual = mesh.visual
        if isinstance(visual, trimesh.visual.ColorVisuals) and visual.kind == "vertex":
            rgba = visual.vertex_colors[faces].reshape(-1, 4)
        else:
            rgba = np.tile(np.array([255, 255, 255, 0], np.uint8), (len(pos), 1))
        col = rgba.astype(np.float32) / 255.0
        data = np.hstack([pos, nrm, col]).astype(np.float32)
        self.vbo = ctx.buffer(data.tobytes())
        self.vao = ctx.vertex_array(prog, [(self.vbo, "3f 3f 4f", "in_position", "in_normal", "in_color")])
        self.bounds = mesh.bounds.copy()
        self.height = float(mesh.bounds[1, 2]) if height is None else height


class Renderer:
    def __init__(self, rc: RenderContext, world, *, shadows: bool = True, lighting: str = "baked",
                 lods: tuple = (2, 4), flat_terrain: bool = False):
        """``lighting``: "baked" (a light volume computed in numpy into per-chunk light maps, one 2D texture
        fetch per pixel: fastest) or
        "shadowmap" (per-pixel PCF shadow map and occupancy AO: crisper shadow edges, slower on llvmpipe).
        ``flat_terrain``: terrain in one grey, unlit (a measurement aid for ``aerie bench render --breakdown``)."""
        if lighting not in ("baked", "shadowmap"):
            raise ValueError(f"lighting {lighting!r}: baked or shadowmap")
        self.rc = rc
        self.ctx = rc.ctx
        self.world = world
        self.shadows = shadows
        self.lighting = lighting
        self._light_volume = None
        ctx = self.ctx
        self.prog = {n: load_program(ctx, n) for n in ("shadow", "model", "line", "flat", "text", "cells")}
        defines = {"BAKED": 1} if lighting == "baked" else {}
        if flat_terrain:
            defines["FLAT"] = 1
        self._ground_tex = None
        if getattr(world, "ground_image", None) is not None:      # [map] ground_image: the map drawn on the floor
            defines["GROUND_IMAGE"] = 1
            self._ground_tex = self._ground_texture(world.ground_image)
        self._floor_tex, self._floor_z = None, ()
        if getattr(world, "floor_images", ()):                   # [map] floor_images: each storey's image on its floor
            defines["FLOOR_IMAGES"] = 1
            self._floor_tex, self._floor_z = self._floor_textures(world.floor_images)
        self.prog["terrain"] = load_program(ctx, "terrain", defines or None)
        self.full_world = world                # set_cut_above shows a copy with the layers above the cut gone
        self.cut_above: int | None = None
        self.mesh = ChunkedMesh(world, lods=tuple(lods))
        self._gpu_chunks: dict = {}
        self._palette()
        self.occ = None
        if lighting == "shadowmap":
            self._occupancy()
        self._shadow_fbo = None
        self._shadow_tex: moderngl.Texture | None = None
        self._models: dict[str, _Model] = {}
        self._creatures: dict[tuple, _Model] = {}
        self._looks: dict[tuple, Look | None] = {}
        self.atlas = GlyphAtlas()
        W, H = self.atlas.size
        self.atlas_tex = ctx.texture((W, H), 1, self.atlas.image.tobytes())
        self.atlas_tex.filter = (moderngl.LINEAR, moderngl.LINEAR)
        self._dyn: dict[str, moderngl.Buffer] = {}
        self._upload_chunks(list(self.mesh.chunks))
        self._shadow_dirty = True
        self.stats: dict[str, Any] = {}      # the last frame's figures: numbers, and lod_chunks {factor: chunks}

    # -- world upload ------------------------------------------------------------------------------------------
    GROUND_MAX_PX = 4096

    def _ground_texture(self, path):
        """The ground image as an RGB8 mipmapped texture, its bottom row first (texture v = map y / Y, north up),
        scaled down to at most GROUND_MAX_PX per side."""
        limit = min(self.GROUND_MAX_PX, int(self.ctx.info.get("GL_MAX_TEXTURE_SIZE", 4096) or 4096))
        im = read_image(path, "RGB", limit)
        arr = np.ascontiguousarray(np.asarray(im, dtype=np.uint8)[::-1])
        tex = self.ctx.texture((arr.shape[1], arr.shape[0]), 3, arr.tobytes(), alignment=1)
        tex.build_mipmaps()
        tex.filter = (moderngl.LINEAR_MIPMAP_LINEAR, moderngl.LINEAR)
        tex.repeat_x = tex.repeat_y = False
        return tex

    FLOORS_MAX_PX = 2048

    def _floor_textures(self, floor_images):
        """The floors' images as one RGBA8 texture array (each scaled to the first's size, at most FLOORS_MAX_PX a
        side, bottom row first), and the top-face heights (layer + 1) they are drawn on (at most 8 floors)."""
        from PIL import Image

        floor_images = sorted(floor_images)[:8]
        arrs, size = [], None
        for _, path in floor_images:
            im = read_image(path, "RGBA", self.FLOORS_MAX_PX)
            if size is None:
                k = min(1.0, self.FLOORS_MAX_PX / max(im.size))
                size = (max(1, round(im.size[0] * k)), max(1, round(im.size[1] * k)))
            im = im.resize(size, Image.LANCZOS) if im.size != size else im
            arrs.append(np.asarray(im, dtype=np.uint8)[::-1])
        assert size is not None
        data = np.ascontiguousarray(np.stack(arrs))
        tex = self.ctx.texture_array((size[0], size[1], len(arrs)), 4, data.tobytes(), alignment=1)
        tex.build_mipmaps()
        tex.filter = (moderngl.LINEAR_MIPMAP_LINEAR, moderngl.LINEAR)
        tex.repeat_x = tex.repeat_y = False
        return tex, tuple(float(z + 1) for z, _ in floor_images)

    def set_cut_above(self, layer: int | None) -> None:
        """Cut away everything above ``layer`` (a storey's clip height: the GM looks into the second floor with
        the roof and the storeys above it gone), or show the whole world again (None). The renderer then draws a
        copy of its world with those layers air, re-meshed and re-lit; the world itself is not changed. A window
        that follows a session calls this again after it syncs the voxels (the copy is taken from
        ``full_world``)."""
        from engine.render.rules_bridge import display_world

        Z = self.full_world.size[2]
        if layer is not None and not 0 <= layer < Z:
            raise AerieError(f"cut above layer {layer}: the map's layers are 0..{Z - 1}")
        self.cut_above = None if layer is None or layer >= Z - 1 else layer
        if self.cut_above is None:
            w = self.full_world
        else:
            w = display_world(self.full_world)
            w.voxels[self.cut_above + 1:] = 0
        self.world = w
        self.mesh = ChunkedMesh(w, lods=tuple(self.mesh.lods))
        self._light_volume = None
        self._upload_chunks(list(self.mesh.chunks))
        for k in [k for k in self._gpu_chunks if k not in self.mesh.chunks]:
            self._gpu_chunks.pop(k)
        if self.occ is not None:
            self._occupancy()
        self._shadow_dirty = True

    def _palette(self):
        pal = np.zeros((512, 4), np.uint8)
        for i, m in enumerate(self.world.materials):
            if i == 0:
                continue
            pal[i, :3] = m.color
            pal[i, 3] = int(TRANSLUCENT_ALPHA * 255) if m.translucent else 255
        pal[GROUND, :3] = GROUND_COLOUR
        pal[GROUND, 3] = 255
        self.palette = self.ctx.texture((512, 1), 4, pal.tobytes())
        self.palette.filter = (moderngl.NEAREST, moderngl.NEAREST)

    def _occ_lut(self):
        lut = np.zeros(256, np.uint8)
        for i, m in enumerate(self.world.materials):
            if i and not m.translucent:
                lut[i] = 255
        return lut

    def _bake_light(self):
        """The light volume (numpy), then every chunk's light maps filled from it (engine/render/lightmap.py)."""
        from engine.render.lighting import light_volume

        t0 = time.perf_counter()
        vol = light_volume(self.world, SUN if self.shadows else np.array([0.0, 0.0, 1.0]))
        old, self._light_volume = self._light_volume, vol
        # after a change, only the chunks whose light maps sample a column where the light changed (its rim and
        # the coarse levels reach a few voxels beyond the chunk)
        changed = None if old is None or old.shape != vol.shape else np.any(old != vol, axis=(0, 3))
        reach = 1 + max((f for f in self.mesh.lods), default=1)
        X, Y = self.world.size[0], self.world.size[1]
        refilled = 0
        for (cx, cy), g in self._gpu_chunks.items():
            if changed is not None:
                x0, y0 = max(cx * CHUNK - reach, 0), max(cy * CHUNK - reach, 0)
                x1, y1 = min((cx + 1) * CHUNK + reach, X), min((cy + 1) * CHUNK + reach, Y)
                if not changed[y0:y1, x0:x1].any():
                    continue
            for lm, tex in g["lightmaps"]:
                tex.write(fill(lm, vol, SUN, self.world.size[2]).tobytes())
            refilled += 1
        self.stats["light_bake_s"] = time.perf_counter() - t0
        self.stats["light_chunks_refilled"] = refilled

    def _lightmap_texture(self, lm):
        tex = self.ctx.texture((lm.width, lm.height), 4)     # RGBA8: llvmpipe's fastest filtering path
        tex.filter = (moderngl.LINEAR, moderngl.LINEAR)
        tex.repeat_x = tex.repeat_y = False
        if self._light_volume is not None:
            tex.write(fill(lm, self._light_volume, SUN, self.world.size[2]).tobytes())
        return tex

    def _occupancy(self):
        X, Y, Z = self.world.size
        occ = self._occ_lut()[self.world.voxels]
        self.occ = self.ctx.texture3d((X, Y, Z), 1, np.ascontiguousarray(occ).tobytes())
        self.occ.build_mipmaps()
        self.occ.filter = (moderngl.LINEAR_MIPMAP_LINEAR, moderngl.LINEAR)
        self.occ_sampler = self.ctx.sampler(texture=self.occ, border_color=(0.0, 0.0, 0.0, 0.0),
                                            filter=(moderngl.LINEAR_MIPMAP_LINEAR, moderngl.LINEAR))

    def _upload_chunks(self, keys):
        for k in keys:
            old = self._gpu_chunks.pop(k, None)
            if old:
                for part in old["parts"]:
                    for obj in part:
                        obj.release()
            ch = self.mesh.chunks[k]
            parts = {}
            lightmaps = []
            baked = self.lighting == "baked"
            tex = None
            if baked and (len(ch.opaque[1]) or len(ch.translucent[1])):
                tex = self._lightmap_texture(ch.lightmap)
                lightmaps.append((ch.lightmap, tex))
            for name, (verts, idx) in (("opaque", ch.opaque), ("translucent", ch.translucent)):
                if len(idx):
                    parts[name] = self._gpu_part(verts, idx, shadow=(name == "opaque"), lightmap=tex)
            lods = {}
            for f, store in self.mesh.lod_chunks.items():
                lc = store.get(k)
                if lc is not None and len(lc.opaque[1]):
                    ltex = None
                    if baked:
                        ltex = self._lightmap_texture(lc.lightmap)
                        lightmaps.append((lc.lightmap, ltex))
                    lods[f] = (self._gpu_part(*lc.opaque, shadow=False, lightmap=ltex), tuple(lc.face_ranges))
            cm = self.world.cell_m
            (x0, y0, z0), (x1, y1, z1) = ch.bounds
            self._gpu_chunks[k] = {
                "parts": [tuple(o for o in p[:4] if o is not None) for p in parts.values()]
                         + [tuple(o for o in p[:4] if o is not None) for p, _ in lods.values()]
                         + [(t,) for _, t in lightmaps],
                "lightmaps": lightmaps,
                "opaque": parts.get("opaque"), "translucent": parts.get("translucent"), "lods": lods,
                "lo": np.array([x0 * cm, y0 * cm, z0]), "hi": np.array([x1 * cm, y1 * cm, z1 + 1.0]),
                "vlo": (x0, y0, z0), "vhi": (x1, y1, z1 + 1.0), "ranges": tuple(ch.face_ranges),
            }
        self._chunk_keys = sorted(self._gpu_chunks)       # a stable order: re-uploaded chunks draw as before
        self._chunk_lo = np.array([self._gpu_chunks[k]["lo"] for k in self._chunk_keys]).reshape(-1, 3)
        self._chunk_hi = np.array([self._gpu_chunks[k]["hi"] for k in self._chunk_keys]).reshape(-1, 3)

    def _gpu_part(self, verts, idx, shadow: bool, lightmap=None):
        """(vbo, ibo, vao, shadow vao, light-map texture, its texel size). Vertices: 4 x uint16 position and
        face/material, then 2 x uint16 light-map texel coordinates (read only by the baked-light program)."""
        ctx = self.ctx
        vbo = ctx.buffer(verts.tobytes())
        ibo = ctx.buffer(idx.tobytes())
        prog = self.prog["terrain"]
        fmt = [(vbo, "4u2 2u2", "in_vert", "in_uv")] if "in_uv" in prog else [(vbo, "4u2 4x", "in_vert")]
        vao = ctx.vertex_array(prog, fmt, index_buffer=ibo, index_element_size=4)
        svao = None
        if shadow:
            svao = ctx.vertex_array(self.prog["shadow"], [(vbo, "4u2 4x", "in_vert")], index_buffer=ibo,
                                    index_element_size=4)
        texel = (1.0 / lightmap.width, 1.0 / lightmap.height) if lightmap is not None else (1.0, 1.0)
        return (vbo, ibo, vao, svao, lightmap, texel)

    def chunk_lod(self, camera: Camera, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """Level of detail per chunk box: 1 (full), or a coarse factor when a cell would cover less than a pixel
        (2 below LOD2_PX pixels, 4 below LOD4_PX) at the box's nearest point."""
        p = np.array(camera.position)
        d = np.linalg.norm(np.maximum(np.maximum(lo - p, p - hi), 0.0), axis=1)
        ppm = (self.rc.size[1] / 2) / math.tan(math.radians(camera.fov) / 2) / np.maximum(d, 1e-3)
        cell_px = self.world.cell_m * ppm
        out = np.ones(len(lo), dtype=int)
        if 2 in self.mesh.lods:
            out[cell_px < LOD2_PX] = 2
        if 4 in self.mesh.lods:
            out[cell_px < LOD4_PX] = 4
        return out

    def world_changed(self, box) -> list:
        """The voxels in an inclusive box changed: re-mesh and re-upload only the chunks it touches, refresh
        the occupancy texture there and the shadow map. Returns the re-meshed chunk keys."""
        keys = self.mesh.update(box)
        self._upload_chunks(keys)
        (x0, y0, z0), (x1, y1, z1) = box
        occ = self._occ_lut()[self.world.voxels[z0:z1 + 1, y0:y1 + 1, x0:x1 + 1]]
        if self.occ is not None:
            self.occ.write(np.ascontiguousarray(occ).tobytes(),
                           viewport=(x0, y0, z0, x1 - x0 + 1, y1 - y0 + 1, z1 - z0 + 1))
            self.occ.build_mipmaps()
        self._shadow_dirty = True
        return keys

    # -- shadow map --------------------------------------------------------------------------------------------
    def _light_vp(self) -> np.ndarray:
        X, Y, Z = self.world.size
        cm = self.world.cell_m
        lo = np.array([0.0, 0.0, -1.0])
        hi = np.array([X * cm, Y * cm, Z + 1.0])
        c = (lo + hi) / 2
        eye = c + SUN * 1000.0
        view = Camera(tuple(eye), tuple(c)).view()
        corners = np.array([[x, y, z, 1] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
        v = corners @ view.T
        mn, mx = v[:, :3].min(axis=0), v[:, :3].max(axis=0)
        return _ortho(mn[0], mx[0], mn[1], mx[1], -mx[2] - 1, -mn[2] + 1) @ view

    def _render_shadow(self):
        ctx = self.ctx
        if self._shadow_tex is None:
            self._shadow_tex = ctx.depth_texture((SHADOW_SIZE, SHADOW_SIZE))
            self._shadow_tex.compare_func = "<="
            self._shadow_tex.filter = (moderngl.LINEAR, moderngl.LINEAR)
            self._shadow_tex.repeat_x = False
            self._shadow_tex.repeat_y = False
            self._shadow_fbo = ctx.framebuffer(depth_attachment=self._shadow_tex)
        self.light_vp = self._light_vp()
        self._shadow_fbo.use()
        ctx.viewport = (0, 0, SHADOW_SIZE, SHADOW_SIZE)
        self._shadow_fbo.clear(depth=1.0)
        ctx.enable(moderngl.DEPTH_TEST)
        ctx.disable(moderngl.CULL_FACE)
        p = self.prog["shadow"]
        p["u_light_vp"].write(gl_matrix(self.light_vp))
        p["u_cell"].value = self.world.cell_m
        if self.shadows:
            for g in self._gpu_chunks.values():
                if g["opaque"]:
                    g["opaque"][3].render(moderngl.TRIANGLES)
        self.rc.fbo.use()
        self._shadow_dirty = False

    # -- models ------------------------------------------------------------------------------------------------
    def model(self, name: str) -> _Model:
        name = ALIASES.get(name, name)
        if name not in self._models:
            from engine.inputs import model_file   # plain names only, contained, regular file, size-capped

            path = model_file(MODEL_DIR, name)
            if path is None:
                if name == "generic":
                    raise AerieError(f"{MODEL_DIR / 'generic.glb'}: the generic model is missing or unreadable")
                return self.model("generic")
            self._models[name] = _Model(self.ctx, self.prog["model"], path)
        return self._models[name]

    def look(self, c: CharView) -> Look | None:
        """The creature a character is drawn as (engine/render/creatures.py), or None when a shipped model draws
        it: the scene's own ``model``, or a ``kind`` that names a shipped model (archer, knight, harpy...) and no
        SRD creature (``srd = ...``)."""
        key = (c.own_model, c.srd, c.kind)
        if key not in self._looks:                  # once per kind of character, not a file check every frame
            self._looks[key] = drawn_look(c.own_model, c.srd, c.kind, lambda k: (MODEL_DIR / f"{k}.glb").exists()
                                          or k in ALIASES and k not in CREATURE_ALIASES)
        return self._looks[key]

    def creature_model(self, c: CharView, lk: Look) -> _Model:
        """The creature's mesh at its size (footprint and body height), wings spread while it flies; built once
        per look and size."""
        from engine.render.creature_models import build

        spread = c.flying and not c.lying
        key = ("creature", lk, c.footprint, c.height_layers, spread)
        m = self._creatures.get(key)
        if m is None:
            h = c.height_layers * 0.95
            mesh = build(lk, c.footprint * self.world.cell_m * 0.95, h, spread)
            m = self._creatures[key] = _Model(self.ctx, self.prog["model"], None, mesh=mesh, height=h)
        return m

    def model_matrix(self, c: CharView, name: str, m: _Model | None = None) -> np.ndarray:
        """Feet centre, facing, pose and scale: the body's height in layers is the model's height in metres."""
        cm = self.world.cell_m
        m = m or self.model(name)
        s = c.height_layers * 0.95 / max(m.height, 0.1)
        fx, fy = (c.x + c.footprint / 2) * cm, (c.y + c.footprint / 2) * cm
        pose = np.identity(4)
        lift = 0.0
        if c.lying:
            pose = _rot("x", 90.0 if c.down else -90.0)
            b = m.bounds * s
            corners = np.array([[x, y, z, 1] for x in b[:, 0] for y in b[:, 1] for z in b[:, 2]]) @ pose.T
            lift = -corners[:, 2].min() + 0.02
            # lying across its own cell: the body's middle over the footprint's centre
            centre = (corners[:, :2].min(axis=0) + corners[:, :2].max(axis=0)) / 2
            pose = _translate((-centre[0], -centre[1], 0.0)) @ pose
        elif c.flying:
            pose = _rot("x", -10.0)
        return _translate((fx, fy, c.layer + lift)) @ _rot("z", -c.facing_deg) @ pose @ _scale(s)

    # -- dynamic buffers ---------------------------------------------------------------------------------------
    def _buffer(self, key: str, data: np.ndarray) -> moderngl.Buffer:
        raw = np.ascontiguousarray(data, dtype=np.float32).tobytes()
        buf = self._dyn.get(key)
        if buf is None or buf.size < len(raw):
            if buf is not None:
                buf.release()
            buf = self.ctx.buffer(reserve=max(len(raw), 4096) * 2)
            self._dyn[key] = buf
        buf.write(raw)
        return buf

    def _draw_lines(self, key, arr, vp, width, alpha=1.0, depth=True, func="<="):
        if len(arr) == 0:
            return
        ctx = self.ctx
        p = self.prog["line"]
        buf = self._buffer(key, arr)
        vao = ctx.vertex_array(p, [(buf, "3f 4f", "in_position", "in_color")])
        p["u_vp"].write(gl_matrix(vp))
        p["u_viewport"].value = tuple(float(v) for v in self.rc.size)
        p["u_width"].value = float(width)
        p["u_alpha"].value = float(alpha)
        if depth:
            ctx.enable(moderngl.DEPTH_TEST)
            ctx.depth_func = func
        else:
            ctx.disable(moderngl.DEPTH_TEST)
        vao.render(moderngl.LINES, vertices=len(arr))
        vao.release()
        ctx.depth_func = "<"

    def _draw_tris(self, key, arr, vp, alpha=1.0):
        if len(arr) == 0:
            return
        ctx = self.ctx
        p = self.prog["flat"]
        buf = self._buffer(key, arr)
        vao = ctx.vertex_array(p, [(buf, "3f 4f", "in_position", "in_color")])
        p["u_vp"].write(gl_matrix(vp))
        p["u_alpha"].value = float(alpha)
        vao.render(moderngl.TRIANGLES, vertices=len(arr))
        vao.release()

    _CUBE = None

    @classmethod
    def _cube(cls) -> np.ndarray:
        """A unit cube's 12 triangles: 36 x (corner -1..1, face normal), float32 [36, 6]."""
        if cls._CUBE is None:
            out = []
            for axis in range(3):
                for sgn in (-1.0, 1.0):
                    n = np.zeros(3)
                    n[axis] = sgn
                    u, v = np.zeros(3), np.zeros(3)
                    u[(axis + 1) % 3], v[(axis + 2) % 3] = 1.0, 1.0
                    if sgn < 0:
                        u, v = v, u
                    quad = [n - u - v, n + u - v, n + u + v, n - u + v]
                    for i in (0, 1, 2, 0, 2, 3):
                        out.append(np.concatenate([quad[i], n]))
            cls._CUBE = np.array(out, dtype=np.float32)
        return cls._CUBE

    def _draw_cells(self, cells: np.ndarray, vp):
        """The overlays' small cubes (Prims.cubes), instanced, depth-tested: the opaque ones, then the translucent
        ones blended without writing depth (the window's 3D threat view: the scene seen through them)."""
        if len(cells) == 0:
            return
        clear = cells[:, 7] < 0.999
        if clear.any():
            if not clear.all():
                self._draw_cells(cells[~clear], vp)
            self.ctx.enable(moderngl.BLEND)
            self.ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
            self.ctx.depth_mask = False
            self._draw_cube_instances(np.ascontiguousarray(cells[clear]), vp)
            self.ctx.depth_mask = True
            self.ctx.disable(moderngl.BLEND)
            return
        self._draw_cube_instances(cells, vp)

    def _draw_cube_instances(self, cells: np.ndarray, vp):
        ctx = self.ctx
        p = self.prog["cells"]
        cube = self._buffer("cells_cube", self._cube())
        inst = self._buffer("cells", cells)
        vao = ctx.vertex_array(p, [(cube, "3f 3f", "in_corner", "in_normal"),
                                   (inst, "3f 1f 4f/i", "in_centre", "in_half", "in_color")])
        p["u_vp"].write(gl_matrix(vp))
        ctx.enable(moderngl.DEPTH_TEST)
        ctx.enable(moderngl.CULL_FACE)
        vao.render(moderngl.TRIANGLES, vertices=36, instances=len(cells))
        vao.release()
        ctx.disable(moderngl.CULL_FACE)

    # -- a frame -----------------------------------------------------------------------------------------------
    def draw(self, camera: Camera, state: RenderState | None = None, overlays: Prims | None = None,
             options: DrawOptions | None = None):
        """Draw one frame into the context's framebuffer: the opaque terrain front to back, the characters, the
        markers and overlays, the translucent terrain back to front, the labels and the HUD on top."""
        ctx = self.ctx
        opts = options or DrawOptions()
        state = state or RenderState()
        if self._shadow_dirty:
            self._prepare_shadow()
        size = self.rc.size
        self.rc.fbo.use()
        ctx.viewport = (0, 0, size[0], size[1])
        self.rc.fbo.clear(*SKY, 1.0, depth=1.0)
        vp = camera.view_projection(size)

        # terrain, opaque then translucent
        ctx.enable(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        ctx.disable(moderngl.BLEND)
        t = self._terrain_program(camera, vp)
        order, lod_of = self._visible_chunks(camera, vp, opts)
        draws = self._chunk_draws(camera, order, lod_of)
        current_lm = None
        for part, first, count, _f in draws:
            if part[4] is not None and part[4] is not current_lm:     # the chunk's light map (baked light)
                part[4].use(4)
                _set(t, "u_lm_texel", part[5])
                current_lm = part[4]
            part[2].render(moderngl.TRIANGLES, vertices=count, first=first)
        self.stats.update(chunks_drawn=len(order), draw_calls=len(draws), triangles_drawn=sum(d[2] for d in draws) // 3,
                          lod_chunks={f: sum(1 for k in order if lod_of.get(k, 1) == f) for f in (1, 2, 4)})

        # characters
        if opts.characters:
            self._draw_characters(state, vp, camera)

        # markers and overlays (opaque cubes of a volume, translucent shapes, lines), then translucent terrain
        markers = self._markers(state, opts, camera.position)
        extra = overlays if overlays is not None else Prims()
        self._draw_marks(markers, extra, vp)
        self._draw_tris("fog", self._fog_volume(), vp)      # heavily obscured voxels: a translucent volume (SPL-10)
        ctx.enable(moderngl.CULL_FACE)
        self._bind_terrain_textures()
        for k in reversed(order):          # back to front for blending; distant (coarse) chunks have no glass
            g = self._gpu_chunks[k]
            if g["translucent"] and lod_of.get(k, 1) == 1:
                part = g["translucent"]
                if part[4] is not None:
                    part[4].use(4)
                    _set(t, "u_lm_texel", part[5])
                part[2].render(moderngl.TRIANGLES)
        ctx.depth_mask = True
        ctx.disable(moderngl.CULL_FACE)

        # labels and the HUD, on top
        self._draw_text(camera, markers["labels"] + extra.labels, opts)
        ctx.disable(moderngl.BLEND)
        if self.occ is not None:
            self.occ_sampler.clear(1)

    def _prepare_shadow(self) -> None:
        """The sun's shadow map again (or, with baked light, the light baked into the chunks' maps)."""
        if self.lighting != "baked":
            self._render_shadow()
            return
        self._bake_light()
        self.light_vp = np.identity(4)
        self._shadow_dirty = False
        if self._shadow_tex is None:     # a 1 x 1 stand-in so the sampler unit is never empty
            self._shadow_tex = self.ctx.depth_texture((1, 1))
            self._shadow_tex.compare_func = "<="

    def _terrain_program(self, camera: Camera, vp):
        """The terrain program with this frame's uniforms set and its textures bound."""
        X, Y, Z = self.world.size
        t = self.prog["terrain"]
        _set(t, "u_vp", gl_matrix(vp))
        _set(t, "u_light_vp", gl_matrix(self.light_vp))
        _set(t, "u_cell", self.world.cell_m)
        _set(t, "u_map", (float(X), float(Y), float(Z)))
        _set(t, "u_sun", tuple(SUN))
        _set(t, "u_eye", tuple(camera.position))
        _set(t, "u_sky", SKY)
        # fog scaled to the view: the far side of the map fades a little, whatever the map's size
        diag = math.hypot(X * self.world.cell_m, Y * self.world.cell_m)
        reach = float(np.linalg.norm(np.array(camera.position) - np.array(camera.look_at))) + 0.5 * diag
        _set(t, "u_fog", 0.25 / max(reach, 100.0))
        _set(t, "u_shadow_texel", 1.0 / SHADOW_SIZE)
        _set(t, "u_palette", 0)
        _set(t, "u_occ", 1)
        _set(t, "u_shadow", 2)
        _set(t, "u_lightmap", 4)
        _set(t, "u_ground", 5)
        if self._floor_tex is not None:
            _set(t, "u_floors", 6)
            _set(t, "u_floor_n", len(self._floor_z))
            _set(t, "u_floor_z", tuple(self._floor_z) + (0.0,) * (8 - len(self._floor_z)))
        self._bind_terrain_textures()
        return t

    def _visible_chunks(self, camera: Camera, vp, opts: DrawOptions) -> tuple[list, dict]:
        """(the chunks in the view, nearest first, so early depth testing skips hidden fragments; each one's level
        of detail where the mesh has coarser ones)."""
        order: list = []
        lod_of: dict = {}
        if self._chunk_keys and opts.terrain:
            visible = boxes_visible(frustum_planes(vp), self._chunk_lo, self._chunk_hi)
            centre = (self._chunk_lo + self._chunk_hi) / 2
            dist = np.linalg.norm(centre - np.array(camera.position), axis=1)
            order = [self._chunk_keys[i] for i in np.argsort(dist) if visible[i]]
            lods = self.chunk_lod(camera, self._chunk_lo, self._chunk_hi) if self.mesh.lods else None
            if lods is not None:
                lod_of = {k: int(f) for k, f in zip(self._chunk_keys, lods)}
        return order, lod_of

    def _chunk_draws(self, camera: Camera, order: list, lod_of: dict) -> list:
        """The opaque draws of these chunks: (part, first vertex, count, level of detail), only the face directions
        that can face the camera, contiguous runs of them one draw each."""
        cm = self.world.cell_m
        cam_vox = (camera.position[0] / cm, camera.position[1] / cm, camera.position[2])
        draws = []
        for k in order:
            g = self._gpu_chunks[k]
            f = lod_of.get(k, 1)
            part, ranges = (g["opaque"], g["ranges"]) if f == 1 or f not in g["lods"] else g["lods"][f]
            if f != 1 and f not in g["lods"]:
                f = 1
            if not part:
                continue
            face_ok = facing_faces(cam_vox, g["vlo"], g["vhi"])
            run_first, run_count = None, 0
            for face, first, count in ranges + ((None, None, 0),):
                if face is not None and face_ok[face]:
                    if count == 0:
                        continue
                    if run_first is None:
                        run_first, run_count = first, count
                    elif run_first + run_count == first:
                        run_count += count
                    else:
                        draws.append((part, run_first, run_count, f))
                        run_first, run_count = first, count
                elif face is None or count:
                    if run_first is not None:
                        draws.append((part, run_first, run_count, f))
                    run_first, run_count = None, 0
        return draws

    def _fog_volume(self) -> np.ndarray:
        """The full world's heavily obscured voxels as translucent faces (engine/render/fog.py), below a cut; kept
        while the mask (replaced whole by ``World.set_obscured``) and the cut stay."""
        key = (id(self.full_world.obscured), self.cut_above)
        got = getattr(self, "_fog_kept", None)
        if got is None or got[0] != key or got[2] is not self.full_world.obscured:
            from engine.render.fog import fog_tris

            below = None if self.cut_above is None else self.cut_above + 1
            got = self._fog_kept = (key, fog_tris(self.full_world, below), self.full_world.obscured)
        return got[1]

    def _draw_marks(self, markers: dict, extra: Prims, vp) -> None:
        """The markers and overlays: a volume's opaque cubes, the translucent shapes (no depth writes), the lines,
        and the x-ray lines seen through the terrain (fainter where hidden). Leaves blending on, depth writes off."""
        ctx = self.ctx
        size = self.rc.size
        self._draw_cells(extra.cell_array(), vp)

        def both(a, b):
            return b if not len(a) else a if not len(b) else np.concatenate([a, b])

        ctx.enable(moderngl.BLEND)
        ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        ctx.disable(moderngl.CULL_FACE)
        ctx.depth_mask = False
        ctx.enable(moderngl.DEPTH_TEST)
        self._draw_tris("tris", both(markers["tris"], extra.tri_array()), vp)
        ctx.depth_mask = True
        w = max(2.0, size[1] / 300)
        self._draw_lines("lines", both(markers["lines"], extra.line_array()), vp, w)
        xr = both(markers["xray"], extra.xray_array())
        self._draw_lines("xray", xr, vp, w * 1.2)
        ctx.depth_mask = False
        self._draw_lines("xray2", xr, vp, w, alpha=0.35, func=">")

    def _markers(self, state: RenderState, opts: DrawOptions, eye) -> dict:
        """The characters' rings, shadows, drop lines, labels and crosses as upload-ready arrays, rebuilt only when
        the characters, the options or which labels the terrain hides from the camera change (a moving camera
        redraws every frame; the markers' Python then costs only the few sight lines of the labels)."""
        hidden = (labels_hidden(self.world, state, eye) if opts.labels
                  else np.zeros(len(state.characters), dtype=bool))
        key = (tuple(state.characters), opts.labels, opts.drop_lines, opts.rings, tuple(bool(h) for h in hidden))
        if getattr(self, "_markers_key", None) != key:
            pr = character_markers(self.world, state, labels=opts.labels, drop_lines=opts.drop_lines,
                                   rings=opts.rings, hidden=hidden)
            self._markers_cache = {"tris": pr.tri_array(), "lines": pr.line_array(), "xray": pr.xray_array(),
                                   "labels": list(pr.labels)}
            self._markers_key = key
        return self._markers_cache

    def _bind_terrain_textures(self):
        self.palette.use(0)
        if self.occ is not None:
            self.occ.use(1)
            self.occ_sampler.use(1)
        self._shadow_tex.use(2)
        if self._ground_tex is not None:
            self._ground_tex.use(5)
        if self._floor_tex is not None:
            self._floor_tex.use(6)

    def _draw_characters(self, state: RenderState, vp, camera: Camera):
        """Each model twice: a dark outline (its back faces pushed out by about 1.5 pixels, so it separates from
        the terrain at any distance), then the model itself."""
        ctx = self.ctx
        p = self.prog["model"]
        p["u_vp"].write(gl_matrix(vp))
        p["u_sun"].value = tuple(SUN)
        p["u_alpha"].value = 1.0
        ctx.enable(moderngl.DEPTH_TEST)
        ctx.disable(moderngl.BLEND)
        px_m = 2 * math.tan(math.radians(camera.fov) / 2) / self.rc.size[1]     # metres per pixel at 1 m
        eye = np.array(camera.position)
        for c in state.characters:
            col = np.array(side_colour(c.side), dtype=np.float32) / 255.0
            p["u_side"].value = tuple(col)
            if c.dead:
                tint = (0.18, 0.18, 0.2, 0.75)
            elif c.down:
                tint = (0.55, 0.55, 0.58, 0.55)
            else:
                tint = (0.0, 0.0, 0.0, 0.0)
            name = c.model_name
            lk = self.look(c)
            m = self.creature_model(c, lk) if lk is not None else self.model(name)
            mm = self.model_matrix(c, name, m)
            parts = [(m, mm)]
            base = ALIASES.get(name, name)
            if lk is None and c.flying and not c.lying and base not in WINGED and (MODEL_DIR / "wings.glb").exists():
                parts.append((self.model("wings"), mm @ _scale(max(m.height, 0.1) / 1.8)))
            scale = float(np.cbrt(abs(np.linalg.det(mm[:3, :3])))) or 1.0
            dist = float(np.linalg.norm(mm[:3, 3] - eye))
            outline = 1.5 * px_m * dist / scale
            # outline: back faces only, pushed out, flat dark
            ctx.enable(moderngl.CULL_FACE)
            ctx.cull_face = "front"
            p["u_tint"].value = (0.06, 0.06, 0.08, 1.0)
            p["u_outline"].value = outline
            for model, matrix in parts:
                p["u_model"].write(gl_matrix(matrix))
                model.vao.render(moderngl.TRIANGLES)
            ctx.cull_face = "back"
            ctx.disable(moderngl.CULL_FACE)
            p["u_tint"].value = tint
            p["u_outline"].value = 0.0
            for model, matrix in parts:
                p["u_model"].write(gl_matrix(matrix))
                model.vao.render(moderngl.TRIANGLES)

    def _layout_labels(self, camera, labels, size, px):
        """Project labels (their texts as shown: :meth:`_draw_text` converts them), then push overlapping ones up
        so none hides another."""
        placed = []
        out = []
        items = []
        proj = camera.project([lb.pos for lb in labels], size) if labels else []   # one projection for all
        for lb, (sx, sy, w) in zip(labels, proj):
            if w <= 0:
                continue
            lpx = lb.size or px * lb.scale
            tw = self.atlas.text_width(lb.text, lpx)
            pad = lpx * 0.25
            x0 = sx - tw / 2 - pad + lb.offset_px[0]
            y1 = sy + lb.offset_px[1]
            items.append((w, x0, y1, tw, pad, lpx, lb, sx))
        items.sort(key=lambda it: it[0])   # nearest first keeps its place
        for w, x0, y1, tw, pad, lpx, lb, sx in items:
            h = lpx + 2 * pad
            y0 = y1 - h
            for _ in range(12):
                hit = next((b for b in placed if x0 < b[2] and b[0] < x0 + tw + 2 * pad and y0 < b[3] and b[1] < y0 + h), None)
                if hit is None:
                    break
                y0 = hit[1] - h - 2
            placed.append((x0, y0, x0 + tw + 2 * pad, y0 + h))
            out.append((x0, y0, tw, pad, lpx, lb, (sx + lb.offset_px[0], y1)))
        return out

    def _draw_text(self, camera, labels, opts: DrawOptions):
        size = self.rc.size
        px = opts.label_px or max(11.0, size[1] / 42)
        quads = []
        leaders = []
        if opts.units != "m":         # display only: the labels' texts in feet, their places and colours the same
            labels = [dataclasses.replace(lb, text=U.show(lb.text, opts.units)) for lb in labels]
        for x0, y0, tw, pad, lpx, lb, (ax, ay) in self._layout_labels(camera, labels, size, px):
            if ay - (y0 + lpx + 2 * pad) > 3:      # pushed up to avoid another label: a leader to its anchor
                bx = min(max(ax, x0 + 2), x0 + tw + 2 * pad - 2)
                leaders.append(((bx, y0 + lpx + 2 * pad), (ax, ay), lb.bg))
            if lb.bg[3] > 0:
                quads.append(self.atlas.box(x0, y0, x0 + tw + 2 * pad, y0 + lpx + 2 * pad, lb.bg))
            quads += self.atlas.quads(lb.text, x0 + pad, y0 + pad, lpx, lb.fg)
        y = px * 0.5
        for line in (U.show(t, opts.units) for t in opts.hud):
            tw = self.atlas.text_width(line, px)
            quads.append(self.atlas.box(px * 0.4, y - px * 0.2, px * 0.8 + tw, y + px * 1.2, (20, 20, 24, 190)))
            quads += self.atlas.quads(line, px * 0.6, y, px, (255, 255, 255, 255))
            y += px * 1.5
        if leaders:
            W, H = size
            segs = []
            for (x0, y0), (x1, y1), c in leaders:
                col = [c[0] / 255, c[1] / 255, c[2] / 255, 0.9]
                segs.append([x0 / W * 2 - 1, 1 - y0 / H * 2, 0.0, *col])
                segs.append([x1 / W * 2 - 1, 1 - y1 / H * 2, 0.0, *col])
            self._draw_lines("leaders", np.array(segs, np.float32), np.identity(4), max(1.5, H / 480), depth=False)
        arr = quads_to_array(quads)
        if len(arr) == 0:
            return
        ctx = self.ctx
        ctx.disable(moderngl.DEPTH_TEST)
        ctx.enable(moderngl.BLEND)
        p = self.prog["text"]
        p["u_viewport"].value = tuple(float(v) for v in size)
        p["u_atlas"].value = 3
        self.atlas_tex.use(3)
        buf = self._buffer("text", arr)
        vao = ctx.vertex_array(p, [(buf, "2f 2f 4f", "in_position", "in_uv", "in_color")])
        vao.render(moderngl.TRIANGLES, vertices=len(arr))
        vao.release()

    def render(self, camera: Camera, state=None, overlays=None, options=None) -> np.ndarray:
        """Draw a frame and read it back: uint8 [H, W, 3]."""
        self.draw(camera, state, overlays, options)
        return self.rc.read()

    def frame_time(self, camera: Camera, n: int = 20, state=None, options: DrawOptions | None = None) -> float:
        """Median seconds per frame over n frames (ctx.finish() after each, so the GPU's work is counted)."""
        self.draw(camera, state, options=options)
        self.rc.finish()
        times = []
        c0 = os.times()
        for _ in range(n):
            t = time.perf_counter()
            self.draw(camera, state, options=options)
            self.rc.finish()
            times.append(time.perf_counter() - t)
        c1 = os.times()
        # CPU seconds per frame of this process, all threads (llvmpipe rasterises on every core): a figure that
        # other programs competing for the cores inflate much less than the wall time
        self.stats["cpu_s_per_frame"] = (c1.user + c1.system - c0.user - c0.system) / n
        return float(np.median(times))
