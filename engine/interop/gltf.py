"""A scene to glTF 2.0 binary (.glb): the voxel terrain greedy-meshed (one mesh per material, each a glTF PBR
material), the ground slab with the map image on its top face, and the characters' models at their positions.

Axes: glTF is +Y up, metres, right-handed; Aerie is x east, y north, z up. A point (x, y, z) in Aerie metres goes
to (x, z, -y): east stays +X, up is +Y, north is -Z (glTF's "forward"). A rotation, so faces keep their winding.
The meshing is the renderer's own pure-numpy greedy mesher (engine/render/mesh.py, no GL); the model placement
follows the renderer's (feet centre, facing, the body's height in layers = the model's height in metres).
"""

from __future__ import annotations

import json
import math
import os
import struct
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import AerieError
from engine.resources import resource_dir
from engine.world.images import read_image

MODEL_DIR = resource_dir("assets") / "models"
GROUND_COLOUR = (104, 112, 78)       # the renderer's ground colour (engine/render/renderer.py)
TRANSLUCENT_ALPHA = 0.42
# glTF (+Y up, +Z front) -> the world (z up, +y front): the same matrix as the renderer's, its own inverse
GLTF_TO_WORLD = np.array([[-1.0, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]])
TEXTURE_MAX_PX = 4096
# the renderer's model aliases (engine/render/renderer.py ALIASES), for kinds without a model of their own
ALIASES = {
    "soldier": "knight", "guard": "knight", "fighter": "knight", "paladin": "knight", "warrior": "knight",
    "ranger": "archer", "hunter": "archer", "scout": "archer", "bowman": "archer", "crossbowman": "archer",
    "wyvern": "wyvern_rider", "dragon": "wyvern_rider", "griffon_rider": "wyvern_rider",
}
WINGED = {"harpy", "wyvern_rider"}                  # the renderer's WINGED: models that have wings of their own
TO_Y_UP = np.array([[1, 0, 0, 0], [0, 0, 1, 0], [0, -1, 0, 0], [0, 0, 0, 1]], dtype=np.float64)


def _linear(c) -> list[float]:
    """sRGB 0..255 to glTF's linear baseColorFactor."""
    out = []
    for v in c:
        s = v / 255.0
        out.append(s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4)
    return out


def terrain_quads(world):
    """Greedy quads of the whole map (no chunk splits): (opaque, translucent) engine.render.mesh.Quads."""
    from engine.render.mesh import mesh_region

    return mesh_region(world.voxels, world.materials, chunk=1 << 20)


def _quad_mesh(q, world, uv_ground: bool = False):
    """(vertices [N*4, 3] in glTF metres, faces [N*2, 3], uv or None)."""
    from engine.render.mesh import quad_corners

    c = quad_corners(q).astype(np.float64)                     # [N, 4, 3] x, y cells, z_ext (= layer + 1)
    cm = world.cell_m
    X, Y, _ = world.size
    ax, ay, az = c[..., 0] * cm, c[..., 1] * cm, c[..., 2] - 1.0
    verts = np.stack([ax, az, -ay], axis=-1).reshape(-1, 3)
    base = (np.arange(len(q)) * 4)[:, None]
    faces = (base + np.array([[0, 1, 2], [0, 2, 3]]).reshape(1, 6)).reshape(-1, 3)
    uv = None
    if uv_ground:
        # trimesh's uv origin is the image's bottom-left (it writes glTF's top-left v = 1 - v): the image's top
        # edge (v = 1) is the map's north edge
        uv = np.stack([c[..., 0] / X, c[..., 1] / Y], axis=-1).reshape(-1, 2)
    return verts, faces, uv


def _material(name, color, alpha=1.0, texture=None):
    from trimesh.visual.material import PBRMaterial

    f = _linear(color) + [alpha]
    return PBRMaterial(name=name, baseColorFactor=f if texture is None else [1.0, 1.0, 1.0, 1.0],
                       baseColorTexture=texture, metallicFactor=0.0, roughnessFactor=0.9,
                       alphaMode="BLEND" if alpha < 1 else "OPAQUE", doubleSided=False)


def _ground_texture(path):
    return read_image(path, "RGB", TEXTURE_MAX_PX)


def _model(name: str):
    import trimesh

    name = ALIASES.get(name, name)
    path = MODEL_DIR / f"{name}.glb"
    if not path.exists():
        path = MODEL_DIR / "generic.glb"
    mesh = trimesh.load(str(path), force="mesh")
    mesh.apply_transform(GLTF_TO_WORLD)       # the shipped files are glTF axes (+Y up); this module works z up
    return mesh


def _look(c):
    """The renderer's choice (engine/render/creatures.drawn_look): an SRD creature's look, or None for a shipped
    model."""
    from engine.render.creatures import CREATURE_ALIASES, drawn_look

    return drawn_look(getattr(c, "own_model", False), getattr(c, "srd", None), c.kind,
                      lambda k: (MODEL_DIR / f"{k}.glb").exists() or k in ALIASES and k not in CREATURE_ALIASES)


def _creature_mesh(c, lk, cm: float):
    """The creature's mesh (engine/render/creature_models.py), built in metres at its footprint and body height
    (z up, as this module works), wings spread while it flies."""
    from engine.render.creature_models import build

    return build(lk, c.footprint * cm * 0.95, c.height_layers * 0.95, c.flying and not c.lying)


def _model_matrix(c, mesh, cm: float, height: float | None = None) -> np.ndarray:
    """Aerie metres (z up): feet centre, facing, scale; a lying body on its back. ``height``: the mesh's body
    height when wings may overtop it (a creature's mesh, already at its size)."""
    h = float(mesh.bounds[1, 2]) if height is None else height
    s = c.height_layers * 0.95 / max(h, 0.1)
    fx, fy = (c.x + c.footprint / 2) * cm, (c.y + c.footprint / 2) * cm
    a = math.radians(-c.facing_deg)
    rz = np.array([[math.cos(a), -math.sin(a), 0, 0], [math.sin(a), math.cos(a), 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    pose = np.identity(4)
    lift = 0.0
    if c.lying:
        pose = np.array([[1, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 0], [0, 0, 0, 1]], dtype=float)   # 90 deg about x
        lift = float(-(mesh.bounds * s)[0, 1]) + 0.02
    t = np.identity(4)
    t[:3, 3] = (fx, fy, c.layer + lift)
    return t @ rz @ pose @ np.diag([s, s, s, 1.0])


def build_gltf_scene(scene, step: int = 0, seed=None):
    """(trimesh.Scene in glTF axes, info dict)."""
    import trimesh

    world, state = _played(scene, step, seed)
    out = trimesh.Scene()
    # the summary `aerie export` prints and writes: material names and counts (bounds and bytes added on writing)
    info: dict[str, Any] = {"materials": [], "terrain_triangles": 0, "triangles": 0, "characters": 0}
    _add_terrain(out, world, info)
    _add_characters(out, state, world.cell_m, info)
    info["triangles"] += info["terrain_triangles"]
    return out, info


def _played(scene, step: int, seed):
    """(world, render state) of the scene, or as its script's first ``step`` steps leave it."""
    from engine.render.state import RenderState, from_session

    if not step:
        return scene.world, RenderState.from_scene(scene)
    from engine.rules.session import Session

    acts = list(scene.spec.script)
    if step > len(acts):
        raise AerieError(f"{scene.path}: --step {step}: the script has only {len(acts)} step(s)")
    session = Session(scene, seed=seed)
    for i, a in enumerate(acts[:step]):
        a = dict(a)
        want_illegal = a.pop("illegal", None)      # a step the script expects to be refused changes nothing
        try:
            session.step(a)
        except AerieError as e:
            if want_illegal is None:
                raise AerieError(f"{scene.path}: script[{i}]: {e}") from None
    return session.world, from_session(scene, session)


def _add_terrain(out, world, info: dict) -> None:
    """The terrain's faces, one mesh a material (opaque, then translucent), the ground's top textured with the
    map's image where it has one."""
    import trimesh
    from trimesh.visual import TextureVisuals

    from engine.render.mesh import GROUND

    opaque, transl = terrain_quads(world)
    tex = None
    if getattr(world, "ground_image", None) is not None:
        tex = _ground_texture(world.ground_image)
    for quads, translucent in ((opaque, False), (transl, True)):
        for mid in np.unique(quads.mat).tolist():
            sel = quads.mat == mid
            groups = [(sel, None)]
            if mid == GROUND and tex is not None:
                top = sel & (quads.face == 5)
                groups = [(sel & ~top, None), (top, tex)]
            for mask, texture in groups:
                q = quads.select(mask)
                if not len(q):
                    continue
                if mid == GROUND:
                    name, colour = ("ground_image" if texture is not None else "ground"), GROUND_COLOUR
                else:
                    m = world.materials[mid]
                    name, colour = m.name, m.color
                verts, faces, uv = _quad_mesh(q, world, uv_ground=texture is not None)
                mat = _material(name, colour, TRANSLUCENT_ALPHA if translucent else 1.0, texture)
                visual = TextureVisuals(uv=uv, material=mat)
                mesh = trimesh.Trimesh(vertices=verts, faces=faces, visual=visual, process=False)
                out.add_geometry(mesh, node_name=f"terrain_{name}", geom_name=f"terrain_{name}")
                info["materials"].append(name)
                info["terrain_triangles"] += len(faces)


def _add_characters(out, state, cm: float, info: dict) -> None:
    """Each character as the renderer draws it: an SRD creature its family's mesh at its size, else its model,
    and a pair of wings on a flyer without its own."""
    for c in state.characters:
        lk = _look(c)
        if lk is not None:                  # an SRD creature: its family's mesh at its size, as the renderer draws it
            mesh = _creature_mesh(c, lk, cm)
            mm = _model_matrix(c, mesh, cm, c.height_layers * 0.95)
        else:
            mesh = _model(c.model_name).copy()
            mm = _model_matrix(c, mesh, cm)
        height = float(mesh.bounds[1, 2])
        mesh.apply_transform(TO_Y_UP @ mm)
        out.add_geometry(mesh, node_name=f"character_{c.id}", geom_name=f"character_{c.id}")
        info["characters"] += 1
        info["triangles"] += len(mesh.faces)
        base = ALIASES.get(c.model_name, c.model_name)
        if lk is None and c.flying and not c.lying and base not in WINGED and (MODEL_DIR / "wings.glb").exists():
            wings = _model("wings").copy()        # as the renderer: a flyer without wings of its own gets a pair
            k = max(height, 0.1) / 1.8
            wings.apply_transform(TO_Y_UP @ mm @ np.diag([k, k, k, 1.0]))
            out.add_geometry(wings, node_name=f"character_{c.id}_wings", geom_name=f"character_{c.id}_wings")
            info["triangles"] += len(wings.faces)


def with_buffer_view_targets(glb: bytes) -> bytes:
    """trimesh's writer leaves out ``bufferView.target``; the Khronos validator hints it should be set for vertex
    (34962, ARRAY_BUFFER) and index (34963, ELEMENT_ARRAY_BUFFER) data. Set it, rewriting the JSON chunk only."""
    magic, version, _ = struct.unpack_from("<4sII", glb, 0)
    n, kind = struct.unpack_from("<I4s", glb, 12)
    if magic != b"glTF" or version != 2 or kind != b"JSON":
        return glb
    doc = json.loads(glb[20:20 + n])
    targets = {}
    for mesh in doc.get("meshes", []):
        for prim in mesh.get("primitives", []):
            for acc in prim.get("attributes", {}).values():
                targets[acc] = 34962
            if "indices" in prim:
                targets[prim["indices"]] = 34963
    accessors, views = doc.get("accessors", []), doc.get("bufferViews", [])
    for acc, target in targets.items():
        view = accessors[acc].get("bufferView")
        if view is not None and views[view].get("target", target) == target:
            views[view]["target"] = target
    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    rest = glb[20 + n:]
    return struct.pack("<4sII", b"glTF", 2, 12 + 8 + len(text) + len(rest)) + struct.pack("<I4s", len(text), b"JSON") + text + rest


def export_glb(scene, path: Path, step: int = 0, seed=None) -> dict:
    out, info = build_gltf_scene(scene, step, seed)
    data = with_buffer_view_targets(out.export(file_type="glb"))
    path = Path(path)
    if not path.parent.is_dir():
        raise AerieError(f"{path}: the folder {path.parent} does not exist")
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError as e:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise AerieError(f"{path}: cannot write: {e.strerror or e}") from None
    info["bounds"] = out.bounds.tolist()
    info["bytes"] = len(data)
    return info
