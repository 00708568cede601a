"""The creatures' models, built procedurally from their family (engine/render/creatures.py): trimesh and numpy,
no GL, no files.

Each family is laid out in a unit box (x across, y from tail to head = the front, z up, feet at z = 0), then
stretched to the body: its length and width from the size's footprint, its height from the body's height in
layers. Wings are added after the stretch, their span from the footprint (spread when flying, folded when not).
Vertex colours are RGBA as in the shipped models: alpha 255 keeps the colour, alpha 0 marks the parts painted in
the side's colour (a collar, a belt, a tunic), so the side still shows on a red dragon.
"""

from __future__ import annotations

import math

import numpy as np
import trimesh

from engine.render.creatures import RGB, Look

SIDE = (255, 255, 255, 0)
DARK = (45, 42, 40, 255)
HORN = (225, 215, 190, 255)
BEAK = (215, 170, 50, 255)
EYE = (250, 220, 60, 255)
SKIN = (222, 184, 150, 255)

# the family's footprint use: (length, width) as fractions of the footprint's side
PROPORTIONS = {
    "dragon": (1.0, 0.42), "bird": (0.8, 0.45), "bat": (0.55, 0.35), "insect": (0.9, 0.6), "humanoid": (0.35, 0.55),
    "giant": (0.45, 0.7), "quadruped": (0.95, 0.4), "elemental": (0.7, 0.7), "winged": (0.35, 0.55),
    "serpent": (1.0, 0.3), "swarm": (0.95, 0.95), "amorphous": (0.9, 0.9),
}


def _rgba(c) -> tuple[int, int, int, int]:
    return c if len(c) == 4 else (c[0], c[1], c[2], 255)


def _one(g) -> trimesh.Trimesh:
    """The one triangle mesh trimesh's concatenate gave (it is typed as any Geometry)."""
    if not isinstance(g, trimesh.Trimesh):
        raise TypeError(f"expected a triangle mesh, got {type(g).__name__}")
    return g


def _paint(m: trimesh.Trimesh, colour) -> trimesh.Trimesh:
    m.visual = trimesh.visual.ColorVisuals(m, vertex_colors=np.tile(np.array(_rgba(colour), np.uint8),
                                                                   (len(m.vertices), 1)))
    return m


_SPHERES: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def ell(centre, radii, colour, sub: int = 1) -> trimesh.Trimesh:
    """An ellipsoid (a unit icosphere's vertices scaled and moved: no trimesh transform, which costs more)."""
    if sub not in _SPHERES:
        ico = trimesh.creation.icosphere(subdivisions=sub, radius=1.0)
        _SPHERES[sub] = (np.asarray(ico.vertices).copy(), np.asarray(ico.faces).copy())
    v, f = _SPHERES[sub]
    m = trimesh.Trimesh(v * np.asarray(radii, float) + np.asarray(centre, float), f, process=False)
    return _paint(m, colour)


def limb(p0, p1, r0, colour, r1=None, sections: int = 6) -> trimesh.Trimesh:
    """A tapered rod from p0 (radius r0) to p1 (radius r1), capped at both ends."""
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    r1 = r0 if r1 is None else r1
    d = p1 - p0
    w = d / (float(np.linalg.norm(d)) or 1e-6)
    u = np.cross(w, (1.0, 0, 0) if abs(w[0]) < 0.9 else (0, 1.0, 0))
    u /= np.linalg.norm(u)
    v = np.cross(w, u)
    a = np.linspace(0, 2 * math.pi, sections, endpoint=False)
    ring = np.outer(np.cos(a), u) + np.outer(np.sin(a), v)
    verts = np.vstack([p0 + r0 * ring, p1 + r1 * ring, [p0, p1]])
    n = sections
    faces = []
    for i in range(n):
        j = (i + 1) % n
        faces += [[i, j, n + j], [i, n + j, n + i], [2 * n, j, i], [2 * n + 1, n + i, n + j]]
    return _paint(trimesh.Trimesh(verts, np.array(faces), process=False), colour)


# wing outlines in the wing's plane: x outwards from the shoulder (0..1 of the span), y forwards (of the chord)
OUTLINES = {
    "membrane": ((0.0, 0.3), (0.45, 0.5), (1.0, 0.15), (0.78, -0.2), (0.62, -0.05), (0.45, -0.55), (0.3, -0.25),
                 (0.15, -0.6), (0.0, -0.45)),
    "feather": ((0.0, 0.3), (0.5, 0.4), (0.9, 0.2), (1.0, -0.05), (0.85, -0.35), (0.6, -0.55), (0.3, -0.6),
                (0.0, -0.45)),
    "insect": ((0.0, 0.15), (0.3, 0.35), (0.7, 0.38), (1.0, 0.15), (0.95, -0.15), (0.6, -0.3), (0.25, -0.25),
               (0.0, -0.1)),
}


def plate(outline, thickness: float, colour) -> trimesh.Trimesh:
    """A flat plate of the given outline (x, y; star-shaped from the origin), ``thickness`` thick along z."""
    pts = np.asarray(outline, float)
    n = len(pts)
    top = np.column_stack([pts, np.full(n, thickness / 2)])
    bot = np.column_stack([pts, np.full(n, -thickness / 2)])
    v = np.vstack([top, bot, [[0, 0, thickness / 2], [0, 0, -thickness / 2]]])
    faces = []
    for i in range(n - 1):
        j = i + 1
        faces += [[2 * n, j, i], [2 * n + 1, n + i, n + j], [i, j, n + j], [i, n + j, n + i]]
    faces += [[n - 1, 0, n], [n - 1, n, 2 * n - 1]]     # the edge along the body, closing the plate
    faces += [[2 * n, 0, n - 1], [2 * n + 1, 2 * n - 1, n]]
    m = trimesh.Trimesh(v, np.array(faces), process=False)
    return _paint(m, colour)


def wing(root, span: float, chord: float, colour, side: int, spread: bool, style: str) -> trimesh.Trimesh:
    """One wing from the shoulder at ``root`` outwards (side +1: east/right, -1: west/left): a plate of the style's
    outline (a membrane, feathers or an insect's wing) with a bony leading edge. Spread: out and a little up;
    folded: down along the flank."""
    if not spread:
        span, chord = span * 0.55, chord * 0.6          # folded: gathered along the flank
    outline = [(x * span, y * chord) for x, y in OUTLINES[style]]
    w = plate(outline, max(0.02, 0.025 * chord), colour)
    if style == "membrane":
        bone = tuple(max(0, round(v * 0.7)) for v in _rgba(colour)[:3])
        leading = (limb((0, 0.3 * chord, 0), (0.45 * span, 0.5 * chord, 0), 0.04 * chord, bone, 0.03 * chord),
                   limb((0.45 * span, 0.5 * chord, 0), (span, 0.15 * chord, 0), 0.03 * chord, bone, 0.01 * chord))
        w = _one(trimesh.util.concatenate([w, *leading]))
    lift, sweep = (18.0, 8.0) if spread else (-25.0, 70.0)
    w.apply_transform(trimesh.transformations.rotation_matrix(math.radians(-lift), (0, 1, 0)))
    w.apply_transform(trimesh.transformations.rotation_matrix(math.radians(-sweep), (0, 0, 1)))
    if side < 0:
        w.apply_transform(np.diag([-1.0, 1, 1, 1]))
        w.invert()
    w.apply_translation(root)
    return w


def _foot(hip, foot, fly: bool):
    """Where a leg ends: on the ground standing, swept back under the body in flight."""
    return foot if not fly else (foot[0] * 0.9, hip[1] - 0.2, hip[2] * 0.45)


# -- the families, in the unit box: x in -0.5..0.5, y in -0.5 (tail) .. 0.5 (head), z in 0..1 --------------------
def _dragon(b, a, fly=False):
    return [
        ell((0, -0.02, 0.42), (0.36, 0.3, 0.19), b),                     # body
        ell((0, 0.0, 0.34), (0.27, 0.25, 0.1), a),                       # belly
        limb((0, 0.18, 0.48), (0, 0.34, 0.78), 0.1, b, 0.07),            # neck
        ell((0, 0.4, 0.82), (0.09, 0.12, 0.07), b),                      # head
        limb((0, 0.45, 0.8), (0, 0.52, 0.77), 0.05, b, 0.035),           # snout
        limb((0.05, 0.36, 0.86), (0.07, 0.26, 0.98), 0.025, HORN, 0.005),
        limb((-0.05, 0.36, 0.86), (-0.07, 0.26, 0.98), 0.025, HORN, 0.005),
        ell((0.05, 0.46, 0.85), (0.018, 0.018, 0.018), EYE, 0), ell((-0.05, 0.46, 0.85), (0.018, 0.018, 0.018), EYE, 0),
        limb((0, -0.26, 0.42), (0, -0.5, 0.22), 0.09, b, 0.015),         # tail
        limb((0.16, 0.16, 0.36), _foot((0.16, 0.16, 0.36), (0.2, 0.2, 0.0), fly), 0.06, b, 0.045),       # legs
        limb((-0.16, 0.16, 0.36), _foot((-0.16, 0.16, 0.36), (-0.2, 0.2, 0.0), fly), 0.06, b, 0.045),
        limb((0.17, -0.16, 0.38), _foot((0.17, -0.16, 0.38), (0.2, -0.2, 0.0), fly), 0.07, b, 0.05),
        limb((-0.17, -0.16, 0.38), _foot((-0.17, -0.16, 0.38), (-0.2, -0.2, 0.0), fly), 0.07, b, 0.05),
        limb((0, 0.22, 0.52), (0, 0.27, 0.62), 0.11, SIDE, 0.1),        # a collar in the side's colour
    ]


def _bird(b, a, fly=False):
    return [
        ell((0, 0.0, 0.5), (0.3, 0.36, 0.24), b),
        ell((0, 0.05, 0.42), (0.22, 0.26, 0.15), a),
        ell((0, 0.33, 0.78), (0.14, 0.14, 0.13), a),                     # head
        limb((0, 0.42, 0.8), (0, 0.54, 0.72), 0.05, BEAK, 0.005),       # beak
        limb((0, -0.3, 0.5), (0, -0.5, 0.42), 0.12, b, 0.2, sections=4),  # tail fan
        limb((0.1, 0.0, 0.3), _foot((0.1, 0.0, 0.3), (0.12, 0.05, 0.0), fly), 0.03, BEAK),
        limb((-0.1, 0.0, 0.3), _foot((-0.1, 0.0, 0.3), (-0.12, 0.05, 0.0), fly), 0.03, BEAK),
        ell((0.07, 0.42, 0.83), (0.02, 0.02, 0.02), DARK, 0), ell((-0.07, 0.42, 0.83), (0.02, 0.02, 0.02), DARK, 0),
        limb((0, 0.2, 0.62), (0, 0.26, 0.7), 0.15, SIDE, 0.13),
    ]


def _bat(b, a, fly=False):
    return [
        ell((0, 0.0, 0.55), (0.25, 0.35, 0.28), b),
        ell((0, 0.3, 0.75), (0.18, 0.16, 0.16), b),
        limb((0.1, 0.3, 0.85), (0.16, 0.28, 1.0), 0.06, b, 0.005),     # ears
        limb((-0.1, 0.3, 0.85), (-0.16, 0.28, 1.0), 0.06, b, 0.005),
        ell((0.06, 0.44, 0.78), (0.025, 0.025, 0.025), EYE, 0), ell((-0.06, 0.44, 0.78), (0.025, 0.025, 0.025), EYE, 0),
        limb((0.08, -0.1, 0.35), _foot((0.08, -0.1, 0.35), (0.1, -0.1, 0.0), fly), 0.03, DARK),
        limb((-0.08, -0.1, 0.35), _foot((-0.08, -0.1, 0.35), (-0.1, -0.1, 0.0), fly), 0.03, DARK),
        ell((0, 0.0, 0.4), (0.2, 0.2, 0.1), SIDE),
    ]


def _insect(b, a, fly=False):
    parts = [
        ell((0, -0.28, 0.4), (0.22, 0.24, 0.2), b),                      # abdomen
        ell((0, 0.02, 0.42), (0.16, 0.14, 0.14), SIDE),                  # thorax, the side's colour
        ell((0, 0.24, 0.44), (0.13, 0.11, 0.11), b),                     # head
        limb((0.05, 0.32, 0.5), (0.14, 0.5, 0.75), 0.015, DARK),         # antennae
        limb((-0.05, 0.32, 0.5), (-0.14, 0.5, 0.75), 0.015, DARK),
    ]
    for y in (-0.08, 0.02, 0.12):
        for s in (1, -1):
            parts.append(limb((0.1 * s, y, 0.42), (0.36 * s, y + 0.04, 0.3), 0.025, DARK))
            parts.append(limb((0.36 * s, y + 0.04, 0.3), (0.45 * s, y + 0.06, 0.0), 0.022, DARK, 0.01))
    return parts


def _humanoid(b, a, fly=False, stocky: float = 0.0):
    w = 0.5 + 0.15 * stocky
    return [
        limb((0.1, 0, 0), (0.1, 0, 0.47), 0.1 + 0.04 * stocky, a),       # legs
        limb((-0.1, 0, 0), (-0.1, 0, 0.47), 0.1 + 0.04 * stocky, a),
        ell((0, 0, 0.66), (w * 0.45, 0.22, 0.22), SIDE),                 # the side's tunic
        limb((0.27, 0, 0.8), (0.33, 0.06, 0.42), 0.07 + 0.03 * stocky, b),   # arms
        limb((-0.27, 0, 0.8), (-0.33, 0.06, 0.42), 0.07 + 0.03 * stocky, b),
        ell((0, 0.02, 0.9), (0.11, 0.14, 0.1), b),                       # head
        ell((0.04, 0.14, 0.92), (0.02, 0.01, 0.015), DARK, 0), ell((-0.04, 0.14, 0.92), (0.02, 0.01, 0.015), DARK, 0),
    ]


def _giant(b, a, fly=False):
    return _humanoid(b, a, fly, stocky=1.0) + [limb((0.33, 0.06, 0.42), (0.4, 0.2, 0.1), 0.05, (110, 80, 50), 0.08)]  # club


def _winged(b, a, fly=False):
    return _humanoid(b, a, fly) + [
        limb((0.05, 0.02, 0.96), (0.09, -0.06, 1.06), 0.025, HORN, 0.004),
        limb((-0.05, 0.02, 0.96), (-0.09, -0.06, 1.06), 0.025, HORN, 0.004),
    ]


def _quadruped(b, a, fly=False):
    return [
        ell((0, 0.0, 0.6), (0.3, 0.36, 0.2), b),                         # body
        limb((0, 0.28, 0.66), (0, 0.38, 0.86), 0.1, b, 0.08),            # neck
        ell((0, 0.42, 0.86), (0.1, 0.14, 0.09), b),                      # head
        ell((0.05, 0.53, 0.88), (0.02, 0.02, 0.02), DARK, 0), ell((-0.05, 0.53, 0.88), (0.02, 0.02, 0.02), DARK, 0),
        limb((0.13, 0.22, 0.5), _foot((0.13, 0.22, 0.5), (0.14, 0.24, 0.0), fly), 0.07, a, 0.05),       # legs
        limb((-0.13, 0.22, 0.5), _foot((-0.13, 0.22, 0.5), (-0.14, 0.24, 0.0), fly), 0.07, a, 0.05),
        limb((0.13, -0.22, 0.5), _foot((0.13, -0.22, 0.5), (0.14, -0.24, 0.0), fly), 0.07, a, 0.05),
        limb((-0.13, -0.22, 0.5), _foot((-0.13, -0.22, 0.5), (-0.14, -0.24, 0.0), fly), 0.07, a, 0.05),
        limb((0, -0.34, 0.66), (0, -0.5, 0.4), 0.04, b, 0.015),          # tail
        limb((0, 0.24, 0.66), (0, 0.3, 0.74), 0.12, SIDE, 0.11),         # collar
    ]


def _elemental(b, a, fly=False):
    return [
        limb((0, 0, 0.0), (0, 0, 0.45), 0.05, a, 0.3, sections=8),       # a vortex, narrow at the bottom
        ell((0, 0, 0.62), (0.4, 0.35, 0.25), b),
        ell((0, 0.04, 0.88), (0.2, 0.18, 0.14), a),
        limb((0.3, 0, 0.7), (0.48, 0.15, 0.5), 0.1, b, 0.06),            # arms
        limb((-0.3, 0, 0.7), (-0.48, 0.15, 0.5), 0.1, b, 0.06),
        ell((0.07, 0.2, 0.9), (0.03, 0.02, 0.03), EYE, 0), ell((-0.07, 0.2, 0.9), (0.03, 0.02, 0.03), EYE, 0),
        ell((0, 0, 0.45), (0.22, 0.22, 0.05), SIDE),
    ]


def _serpent(b, a, fly=False):
    parts = []
    n = 9
    pts = [(0.25 * math.sin(i * 1.1), -0.5 + 0.85 * i / (n - 1), 0.12 + 0.5 * (i / (n - 1)) ** 3) for i in range(n)]
    for i in range(n - 1):
        r0, r1 = 0.06 + 0.06 * i / n, 0.06 + 0.06 * (i + 1) / n
        parts.append(limb(pts[i], pts[i + 1], r0, b if i % 2 else a, r1))
        parts.append(ell(pts[i + 1], (r1, r1, r1), b, 0))
    hx, hy, hz = pts[-1]
    parts += [
        ell((hx, hy + 0.1, hz + 0.02), (0.12, 0.16, 0.09), b),
        ell((hx + 0.06, hy + 0.2, hz + 0.06), (0.025, 0.025, 0.025), EYE, 0),
        ell((hx - 0.06, hy + 0.2, hz + 0.06), (0.025, 0.025, 0.025), EYE, 0),
        limb(pts[-2], pts[-1], 0.13, SIDE, 0.13),
    ]
    return parts


def _swarm(b, a, fly=False):
    rng = np.random.default_rng(7)                       # a fixed cloud: the same swarm every frame and run
    parts = []
    for i in range(14):
        x, y, z = rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4), rng.uniform(0.1, 0.9)
        parts.append(ell((x, y, z), (0.07, 0.1, 0.06), SIDE if i == 0 else (b if i % 3 else a), 0))
    return parts


def _amorphous(b, a, fly=False):
    return [
        ell((0, 0, 0.35), (0.45, 0.45, 0.35), b),
        ell((0.12, 0.1, 0.6), (0.25, 0.25, 0.3), a),
        ell((-0.15, -0.1, 0.55), (0.25, 0.22, 0.3), b),
        ell((0.08, 0.36, 0.62), (0.05, 0.04, 0.05), EYE, 0), ell((-0.1, 0.36, 0.6), (0.05, 0.04, 0.05), EYE, 0),
        ell((0, 0, 0.05), (0.42, 0.42, 0.06), SIDE),
    ]


BUILDERS = {"dragon": _dragon, "bird": _bird, "bat": _bat, "insect": _insect, "humanoid": _humanoid, "giant": _giant,
            "quadruped": _quadruped, "elemental": _elemental, "winged": _winged, "serpent": _serpent,
            "swarm": _swarm, "amorphous": _amorphous}
# where the wings start (unit box), their span and chord (fractions of the footprint side) and their kind
WINGS = {"dragon": ((0.16, 0.05, 0.55), 0.85, 0.45, "membrane"), "bird": ((0.22, 0.08, 0.6), 0.75, 0.4, "feather"),
         "bat": ((0.18, 0.05, 0.62), 0.9, 0.45, "membrane"), "insect": ((0.12, 0.04, 0.55), 0.55, 0.25, "insect"),
         "winged": ((0.15, -0.12, 0.82), 0.75, 0.35, "feather"), "quadruped": ((0.2, 0.12, 0.72), 0.8, 0.4, "feather"),
         "serpent": ((0.1, 0.2, 0.6), 0.6, 0.3, "feather")}


def build(lk: Look, footprint_m: float, height_m: float, spread: bool = True) -> trimesh.Trimesh:
    """The creature's mesh in world axes, in metres, feet at the origin, facing +y: ``footprint_m`` the side of
    its footprint, ``height_m`` its body's height."""
    body: RGB = lk.body
    belly: RGB = lk.belly
    mesh = trimesh.util.concatenate(BUILDERS[lk.family](body, belly, spread and lk.wings))
    lf, wf = PROPORTIONS[lk.family]
    mesh.apply_transform(np.diag([wf * footprint_m, lf * footprint_m, height_m, 1.0]))
    parts = [mesh]
    if lk.wings and lk.family in WINGS:
        (rx, ry, rz), span, chord, style = WINGS[lk.family]
        root = np.array([rx * wf * footprint_m, ry * lf * footprint_m, rz * height_m])
        colour = body if style != "insect" else (220, 230, 235)
        if style == "membrane":
            colour = (round(body[0] * 0.8), round(body[1] * 0.8), round(body[2] * 0.8))
        for side in (1, -1):
            parts.append(wing(root * [side, 1, 1], span * footprint_m, chord * footprint_m, colour, side, spread,
                              style))
    return _one(trimesh.util.concatenate(parts))
