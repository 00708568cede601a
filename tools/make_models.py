"""Make the low-poly character models in ``assets/models/`` (glTF binary), reproducibly.

Run once from the checkout: ``python tools/make_models.py [FOLDER]`` (FOLDER: ``assets/models``); the outputs are
committed, and the package ships them, not this script. The parts below are laid out
in the world's axes (metres, feet at the origin, facing +y = north, z up); the files are written the way glTF 2.0
wants them: +Y up, front facing +Z, -X to the model's right, metres (:data:`TO_GLTF`; the renderer turns them
back with the same matrix, its own inverse). Vertex colours are RGBA: alpha 0 marks parts painted in the side's
colour (their rgb scales it: white = the side colour, grey = a darker shade); alpha 255 parts keep their own colour.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import trimesh

OUT = Path(__file__).resolve().parents[1] / "assets" / "models"      # the checkout's, beside tools/

# world (x east, y north = the model's front, z up) -> glTF (+Y up, +Z front, -X right): a rotation (det +1),
# and its own inverse, so the same matrix turns a loaded glTF model back into the world's axes.
TO_GLTF = np.array([[-1.0, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]])

SKIN = (222, 184, 150, 255)
LEATHER = (96, 66, 40, 255)
WOOD = (120, 84, 48, 255)
STEEL = (170, 176, 186, 255)
DARK = (50, 50, 56, 255)
SCALE_GREEN = (88, 110, 78, 255)
BELLY = (170, 160, 120, 255)
SIDE = (255, 255, 255, 0)        # the side colour
SIDE_DARK = (160, 160, 160, 0)   # a darker shade of it


def _mesh(g) -> trimesh.Trimesh:
    """The one triangle mesh trimesh gave (its concatenate and load(force="mesh") are typed as any Geometry)."""
    if not isinstance(g, trimesh.Trimesh):
        raise TypeError(f"expected a triangle mesh, got {type(g).__name__}")
    return g


def _join(parts) -> trimesh.Trimesh:
    return _mesh(trimesh.util.concatenate(parts))

def _paint(mesh: trimesh.Trimesh, color) -> trimesh.Trimesh:
    mesh.visual = trimesh.visual.ColorVisuals(mesh, vertex_colors=np.tile(np.array(color, np.uint8), (len(mesh.vertices), 1)))
    return mesh


def box(size, at, color, rot=None):
    m = trimesh.creation.box(extents=size)
    if rot is not None:
        m.apply_transform(rot)
    m.apply_translation(at)
    return _paint(m, color)


def ball(r, at, color, sub=1):
    m = trimesh.creation.icosphere(subdivisions=sub, radius=r)
    m.apply_translation(at)
    return _paint(m, color)


def cyl(r, h, at, color, sections=8, rot=None):
    m = trimesh.creation.cylinder(radius=r, height=h, sections=sections)
    if rot is not None:
        m.apply_transform(rot)
    m.apply_translation(at)
    return _paint(m, color)


def cone(r, h, at, color, sections=8, rot=None):
    m = trimesh.creation.cone(radius=r, height=h, sections=sections)
    if rot is not None:
        m.apply_transform(rot)
    m.apply_translation(at)
    return _paint(m, color)


def rx(deg):
    return trimesh.transformations.rotation_matrix(math.radians(deg), (1, 0, 0))


def ry(deg):
    return trimesh.transformations.rotation_matrix(math.radians(deg), (0, 1, 0))


def rz(deg):
    return trimesh.transformations.rotation_matrix(math.radians(deg), (0, 0, 1))


def wing(span, chord, color, side: int, lift_deg=20.0, at=(0, 0, 0)):
    """A flat, slightly thick wing: a fan of three feathers (boxes) from the shoulder outwards."""
    parts = []
    for i, (frac, ang) in enumerate(((1.0, 0), (0.85, -18), (0.65, -36))):
        L = span * frac
        b = trimesh.creation.box(extents=(L, chord * 0.45, 0.04))
        b.apply_translation((L / 2, 0, 0))
        b.apply_transform(ry(-ang))          # fan downwards
        b.apply_transform(ry(-lift_deg))     # wing raised
        _paint(b, color if i == 0 else SIDE_DARK if color == SIDE else color)
        parts.append(b)
    w = _join(parts)
    if side < 0:
        w.apply_transform(np.diag([-1.0, 1, 1, 1]))
        w.invert()
    w.apply_translation(at)
    return w


def humanoid(tabard=SIDE, legs=LEATHER, head=SKIN, arms=SIDE_DARK):
    return [
        box((0.17, 0.2, 0.85), (-0.12, 0, 0.425), legs),
        box((0.17, 0.2, 0.85), (0.12, 0, 0.425), legs),
        box((0.5, 0.3, 0.62), (0, 0, 1.16), tabard),
        box((0.13, 0.16, 0.62), (-0.33, 0, 1.14), arms),
        box((0.13, 0.16, 0.62), (0.33, 0, 1.14), arms),
        ball(0.15, (0, 0, 1.63), head),
    ]


def archer():
    parts = humanoid()
    parts += [
        cone(0.19, 0.28, (0, 0, 1.68), SIDE_DARK),                       # hood
        box((0.05, 0.05, 1.3), (0.48, 0.12, 1.15), WOOD, rot=rx(8)),       # bow stave
        box((0.02, 0.02, 1.2), (0.45, 0.02, 1.15), (230, 230, 220, 255)),  # string
        cyl(0.08, 0.6, (-0.1, -0.22, 1.3), LEATHER, rot=rx(20)),           # quiver
    ]
    return parts


def knight():
    parts = humanoid(legs=STEEL, head=STEEL, arms=STEEL)
    parts += [
        box((0.32, 0.32, 0.3), (0, 0, 1.66), STEEL),                      # helm
        box((0.34, 0.06, 0.06), (0, 0.17, 1.66), DARK),                   # visor slit
        box((0.08, 0.55, 0.7), (-0.45, 0.12, 1.1), SIDE),                 # shield
        box((0.04, 0.58, 0.05), (-0.50, 0.12, 1.1), STEEL),
        box((0.05, 0.05, 1.0), (0.45, 0.25, 1.25), STEEL, rot=rx(30)),    # sword
        box((0.22, 0.05, 0.05), (0.45, 0.08, 0.95), DARK),
        cone(0.05, 0.25, (0, 0, 1.85), SIDE),                              # plume
    ]
    return parts


def harpy():
    parts = [
        box((0.08, 0.08, 0.7), (-0.1, 0, 0.35), (200, 170, 60, 255)),     # bird legs
        box((0.08, 0.08, 0.7), (0.1, 0, 0.35), (200, 170, 60, 255)),
        box((0.2, 0.3, 0.06), (-0.1, 0.08, 0.03), (200, 170, 60, 255)),   # talons
        box((0.2, 0.3, 0.06), (0.1, 0.08, 0.03), (200, 170, 60, 255)),
        box((0.42, 0.3, 0.7), (0, 0, 1.05), SIDE),                        # feathered body
        ball(0.15, (0, 0.02, 1.55), SKIN),
        cone(0.2, 0.3, (0, -0.05, 1.62), DARK),                           # wild hair
        wing(1.1, 0.55, SIDE, +1, 25, (0.2, -0.08, 1.3)),
        wing(1.1, 0.55, SIDE, -1, 25, (-0.2, -0.08, 1.3)),
    ]
    return parts


def wyvern_rider():
    s = SCALE_GREEN
    parts = [
        # the wyvern: body, neck, head, tail, hind legs, wings
        box((0.9, 1.7, 0.8), (0, 0, 1.3), s),
        box((0.7, 1.2, 0.3), (0, 0, 0.95), BELLY),
        box((0.35, 0.9, 0.35), (0, 1.1, 1.85), s, rot=rx(-40)),
        box((0.35, 0.6, 0.3), (0, 1.55, 2.25), s),
        cone(0.08, 0.3, (0.12, 1.35, 2.45), DARK),
        cone(0.08, 0.3, (-0.12, 1.35, 2.45), DARK),
        box((0.3, 1.4, 0.25), (0, -1.45, 1.25), s, rot=rx(10)),
        cone(0.2, 0.5, (0, -2.25, 1.1), s, rot=rx(100)),
        box((0.22, 0.3, 0.9), (-0.32, -0.3, 0.45), s),
        box((0.22, 0.3, 0.9), (0.32, -0.3, 0.45), s),
        wing(2.6, 1.2, s, +1, 18, (0.4, 0.2, 1.55)),
        wing(2.6, 1.2, s, -1, 18, (-0.4, 0.2, 1.55)),
        box((0.95, 0.6, 0.12), (0, 0.2, 1.76), SIDE),                     # saddle cloth
        # the rider
        box((0.4, 0.26, 0.5), (0, 0.15, 2.08), SIDE),
        ball(0.13, (0, 0.15, 2.46), SKIN),
        box((0.3, 0.3, 0.16), (0, 0.15, 2.56), STEEL),
        box((0.04, 1.6, 0.04), (0.3, 0.7, 2.15), WOOD, rot=rx(-10)),      # lance
        cone(0.05, 0.25, (0.3, 1.5, 2.3), STEEL, rot=rx(-80)),
    ]
    return parts


def generic():
    return [
        cyl(0.3, 0.12, (0, 0, 0.06), SIDE_DARK, sections=12),
        cone(0.28, 1.2, (0, 0, 0.12), SIDE, sections=10),
        ball(0.2, (0, 0, 1.45), SKIN),
        box((0.3, 0.08, 0.08), (0, 0.2, 1.45), DARK),                      # a face marker: which way it looks
    ]


def wings():
    """Wings added to a flying model that has none of its own (flight by spell or item)."""
    return [
        wing(0.9, 0.45, (235, 240, 250, 255), +1, 30, (0.15, -0.2, 1.25)),
        wing(0.9, 0.45, (235, 240, 250, 255), -1, 30, (-0.15, -0.2, 1.25)),
    ]


MODELS = {
    "archer": archer,
    "knight": knight,
    "harpy": harpy,
    "wyvern_rider": wyvern_rider,
    "generic": generic,
    "wings": wings,
}
WINGED = {"harpy", "wyvern_rider", "wings"}


def build(name: str) -> trimesh.Trimesh:
    mesh = _join(MODELS[name]())
    mesh.metadata = {"name": name}       # not the last part's primitive parameters, which concatenate keeps
    return mesh


def glb_bytes(name: str) -> bytes:
    """The model as a glTF 2.0 binary, in glTF's axes."""
    mesh = build(name)
    mesh.apply_transform(TO_GLTF)
    return trimesh.exchange.gltf.export_glb(trimesh.Scene(mesh))


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0]) if argv else OUT
    out.mkdir(parents=True, exist_ok=True)
    for name in MODELS:
        path = out / f"{name}.glb"
        path.write_bytes(glb_bytes(name))
        mesh = _mesh(trimesh.load(str(path), force="mesh"))
        print(f"{path}: {len(mesh.faces)} triangles, bounds (glTF axes, m) {mesh.bounds.round(2).tolist()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
