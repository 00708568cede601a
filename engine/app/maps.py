"""Per-layer maps for the window's overlays -- the cover map of an attacker and the movement range at one layer --
as few quads as possible (cells of equal class merged into rectangles), so they cost little to draw every frame.

The numbers come from the rules' own functions: the cover volume of ``engine.world.volumes`` (the same sight
lines and thresholds as an attack's cover, AIR-13..16: ``cover_between`` at every cell), on the GPU kernel of
``engine.render.los_grid`` where GL 4.3 is there, and the rules core's reach map (``engine.rules.aerial.reach``,
AIR-06/07/09 costs). Called in the window's worker thread (which then has its own headless GL context).
"""

from __future__ import annotations

import numpy as np

from engine.render.overlays import Label, Prims
from engine.rules.registry import cover_levels
from engine.world.volumes import NO_ATTACK, NO_BODY, N_SAMPLES, fraction, level_table

COVER_COLOURS = {"none": (70, 210, 90, 110), "half": (240, 200, 60, 120), "three-quarters": (245, 120, 40, 130),
                 "partial": (240, 170, 50, 120), "total": (30, 30, 45, 120)}


def rectangles(classes: np.ndarray) -> list[tuple[int, int, int, int, int]]:
    """Merge equal non-negative classes of a [Y, X] int array into rectangles (x0, y0, x1, y1, class), half-open:
    runs along x, then runs with the same extent stacked along y."""
    Y, X = classes.shape
    out = []
    open_runs: dict = {}     # (x0, x1, cls) -> y0
    for y in range(Y + 1):
        runs = set()
        if y < Y:
            row = classes[y]
            x = 0
            while x < X:
                c = int(row[x])
                if c < 0:
                    x += 1
                    continue
                x1 = x + 1
                while x1 < X and int(row[x1]) == c:
                    x1 += 1
                runs.add((x, x1, c))
                x = x1
        for k in list(open_runs):
            if k not in runs:
                out.append((k[0], open_runs[k], k[1], y, k[2]))
                del open_runs[k]
        for k in runs:
            if k not in open_runs:
                open_runs[k] = y
    return out


def _quads(pr: Prims, rects, cm: float, z: float, colours, inset: float = 0.0):
    for x0, y0, x1, y1, c in rects:
        col = colours[c]
        a = (x0 * cm + inset, y0 * cm + inset, z)
        b = (x1 * cm - inset, y0 * cm + inset, z)
        cc = (x1 * cm - inset, y1 * cm - inset, z)
        d = (x0 * cm + inset, y1 * cm - inset, z)
        pr.quad(a, b, cc, d, col)


def cover_prims(scene, body, layer: int, label_at=None, world=None) -> tuple[Prims, dict]:
    """The cover a standard body standing at each cell of ``layer`` would have against ``body`` (the attacker),
    coloured by the ruleset's cover level. Returns (prims, {level: cells}). ``world``: the session's voxels (walls
    broken in play), else the scene's as loaded."""
    world = world if world is not None else scene.world
    thresholds = scene.spec.options.get("cover_thresholds") or cover_levels(scene.ruleset)
    from engine.render.los_grid import shared_backend

    frac = fraction(shared_backend(world).cell_counts([body], [layer]))[0]
    levels = [name for name, _start in thresholds]
    cls = np.full(frac.shape, -1, dtype=np.int32)
    ok = ~np.isnan(frac)
    for i, (_name, start) in enumerate(thresholds):
        cls[ok & (frac >= start - 1e-12)] = i
    colours = {i: COVER_COLOURS.get(n, (160, 160, 160, 120)) for i, n in enumerate(levels)}
    pr = Prims()
    _quads(pr, rectangles(cls), world.cell_m, layer + 0.05, colours)
    counts = {n: int((cls == i).sum()) for i, n in enumerate(levels)}
    if label_at is not None:
        pr.labels.append(Label(label_at, f"cover map at layer {layer}: " +
                               ", ".join(f"{n} {counts[n]}" for n in levels if counts[n]), (255, 255, 255, 255),
                               (40, 40, 40, 220), offset_px=(0, -30)))
    return pr, counts


def movement_prims(scene, costs: dict, layer: int, budget_m: float | None = None) -> tuple[Prims, int]:
    """The cells of one layer the character can end its move on this turn, shaded by cost (thirds of the
    budget), from the rules' reach map ``{(x, y, layer): metres}``."""
    world = scene.world
    X, Y, _Z = world.size
    cls = np.full((Y, X), -1, dtype=np.int32)
    here = [(x, y, m) for (x, y, z), m in costs.items() if z == layer]
    top = budget_m or max([m for _x, _y, m in here], default=1.0) or 1.0
    for x, y, m in here:
        cls[y, x] = min(int(3 * m / (top + 1e-9)), 2)
    colours = {0: (90, 170, 255, 95), 1: (70, 130, 235, 95), 2: (50, 90, 210, 95)}
    pr = Prims()
    _quads(pr, rectangles(cls), world.cell_m, layer + 0.03, colours, inset=0.0)
    return pr, len(here)


THREAT_COLOURS = {0: (70, 210, 90, 100), 1: (240, 210, 60, 115), 2: (245, 140, 40, 125), 3: (225, 60, 45, 135),
                  4: (150, 30, 90, 140)}


def threat_enemies(session, side: str, after_move: bool = False):
    """The enemies of ``side`` as the threat kernel takes them (places, reach and range), read from the session."""
    from engine.render.volume_cli import threat_inputs

    return threat_inputs(session, side, after_move)


def threat_prims(scene, session, side: str, layer: int, after_move: bool = False, label_at=None, enemies=None,
                 world=None):
    """How many enemies of ``side`` could attack a standard body at each cell of ``layer`` (their reach, AIR-05,
    and range, and line of sight), from where they stand or after moving. Returns (prims, {count: cells}).
    ``enemies``: :func:`threat_enemies` already read (then ``session`` is not read: another thread may run this)."""
    from engine.render.los_grid import shared_backend
    from engine.render.volume_cli import threat_volume

    world = world if world is not None else scene.world
    thresholds = scene.spec.options.get("cover_thresholds") or cover_levels(scene.ruleset)
    levels = level_table(None, thresholds)
    first_total = next(k for k in range(N_SAMPLES + 1) if levels[k] == levels[-1])
    if enemies is None:
        enemies = threat_enemies(session, side, after_move)
    per = threat_volume(shared_backend(world), enemies, [layer])
    free = None
    count = np.zeros(world.voxels.shape[1:], dtype=np.int32)
    for c in per:
        c = c[0]
        free = c != NO_BODY
        count += (c != NO_BODY) & (c != NO_ATTACK) & (c < first_total)
    if free is None:
        from engine.world.volumes import free_cells

        free = free_cells(world)[layer]
    cls = np.where(free, np.minimum(count, 4), -1)
    pr = Prims()
    _quads(pr, rectangles(cls), world.cell_m, layer + 0.04, THREAT_COLOURS)
    counts = {k: int((cls == k).sum()) for k in range(5)}
    if label_at is not None:
        pr.labels.append(Label(label_at, f"threat to {side} at layer {layer}: safe {counts[0]}, " +
                               ", ".join(f"{k}{'+' if k == 4 else ''} enemies {counts[k]}" for k in range(1, 5) if counts[k]),
                               (255, 255, 255, 255), (40, 40, 40, 220), offset_px=(0, -48)))
    return pr, counts


VOLUME_MAX_CUBES = 6000        # past this many cells the 3D view draws every 2nd (3rd...) cell along x, y and z


def threat_counts(scene, enemies, layers, world=None) -> np.ndarray:
    """int32 [L, Y, X]: how many of ``enemies`` (:func:`threat_enemies`) could attack a standard body at each cell
    (line of sight short of total cover, reach and range), -1 where a body cannot be."""
    from engine.render.los_grid import shared_backend
    from engine.render.volume_cli import threat_volume
    from engine.world.volumes import free_cells

    world = world if world is not None else scene.world
    thresholds = scene.spec.options.get("cover_thresholds") or cover_levels(scene.ruleset)
    levels = level_table(None, thresholds)
    first_total = next(k for k in range(N_SAMPLES + 1) if levels[k] == levels[-1])
    layers = list(layers)
    free = free_cells(world)[layers]
    count = np.zeros(free.shape, dtype=np.int32)
    for c in threat_volume(shared_backend(world), enemies, layers):
        count += (c != NO_BODY) & (c != NO_ATTACK) & (c < first_total)
    return np.where(free, count, -1)


VOLUME_ALPHA = 110             # the 3D view's cubes are translucent: the scene stays seen through them


def volume_prims(scene, enemies, side: str, mode: str = "reach", label_at=None, world=None,
                 reach=None) -> tuple[Prims, dict]:
    """The 3D view of the threat volume of ``side``: a small translucent cube in place at each cell a standard body
    could be -- ``mode`` "reach" (J's first): only the cells of ``reach`` (the places the selected character could
    end its move this turn, {(x, y, layer): metres}), each coloured by how many enemies could attack it (safe
    green, 1 yellow ... 4+ purple); "safe": every cell no enemy can attack; "exposed": every cell some can, by how
    many. Every ``stride``-th cell along x, y and z when there are more than VOLUME_MAX_CUBES. Returns (prims,
    {"cells", "drawn", "stride", "safe", "exposed"}): "safe" and "exposed" count the cells of the view's region
    (the reach, or every cell a body fits) -- both whatever the mode, so the panel's figures are the view's."""
    world = world if world is not None else scene.world
    from engine.render.volume_view import cube_prims

    cnt = threat_counts(scene, enemies, range(world.size[2]), world)          # -1 where no body fits
    if mode == "reach":
        inside = np.zeros(cnt.shape, dtype=bool)
        for (x, y, z) in (reach or {}):
            if 0 <= z < cnt.shape[0] and 0 <= y < cnt.shape[1] and 0 <= x < cnt.shape[2]:
                inside[z, y, x] = True
        cnt = np.where(inside, cnt, -1)
    colours = ({0: THREAT_COLOURS[0]} if mode == "safe" else {k: THREAT_COLOURS[k] for k in range(1, 5)}
               if mode == "exposed" else THREAT_COLOURS)
    pr, info = cube_prims(world, np.minimum(cnt, 4), colours, max_cubes=VOLUME_MAX_CUBES, alpha=VOLUME_ALPHA)
    info = dict(info, mode=mode, safe=int((cnt == 0).sum()), exposed=int((cnt > 0).sum()))
    n, stride = info["cells"], info["stride"]
    if label_at is not None:
        what = {"safe": "safe from every enemy", "exposed": "an enemy could attack",
                "reach": f"in reach this turn: {info['safe']} safe, {info['exposed']} exposed"}[mode]
        pr.labels.append(Label(label_at, f"3D threat view ({side}): {n} cells {what}"
                               + (f", one in {stride} x {stride} x {stride} drawn" if stride > 1 else ""), (255, 255, 255, 255),
                               (40, 40, 40, 220), offset_px=(0, -66)))
    return pr, info
