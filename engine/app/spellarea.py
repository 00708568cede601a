"""Spell areas drawn in 3D (issue 39, "In the window"): the area of the spell being aimed -- as the rules' preview
gives it (its ``area``: shape, size, origin, direction) -- and every lasting area still held (a caster's
``lasting`` entries: Web, Stinking Cloud, Spirit Guardians...), until it ends.

Each is drawn twice over, from the rules' own arithmetic (the module the ruleset's registry entry names as
``areas``, the SRD's five shapes: the same code the spells and breath weapons resolve with; a ruleset without one
draws no spell area): its outline (a sphere's three rings, a cube's edges, a
cone's or a line's rim and sides, a cylinder's two rims and four sides) and a small cube at the centre of every
grid cell the area holds (``areas.cells``) -- the volume, layer by layer, where the outline alone reads flat. Its
label names the spell, the shape and size, and who the preview says it catches (with cover, through the rules).
Pure but for the primitives (engine/render/overlays.py's, numpy only)."""

from __future__ import annotations

import math

import numpy as np

from engine.render import overlays as ov

AIM = (255, 140, 40, 255)         # the area being aimed (the ring colour of those it catches)
HELD = (120, 200, 255, 255)       # a lasting area
CELL_HALF = 0.07                  # the volume's cubes (metres): small, so the map shows through
MAX_CELLS = 6000                  # beyond that a lattice (every other cell), as the threat volume does


def areas_of(ruleset: str):
    """The ruleset's area module (its registry entry's ``areas``: ``make``, ``contains``, ``cells``, ``cell_centre``),
    or None."""
    from engine.rules import registry

    dotted = registry.info(ruleset).extra.get("areas")
    return registry.load_dotted(dotted) if dotted else None


def area(d: dict, areas):
    """An ``Area`` of ``areas`` (the ruleset's module) from the rules' area dict (a plan's or a lasting entry's), or
    None when it is not one."""
    if areas is None:
        return None
    try:
        origin = tuple(float(c) for c in d["origin"])
        spec = {"shape": d["shape"], "size_m": d["size_m"], **{k: d[k] for k in ("width_m", "height_m") if k in d}}
        if "direction" in d:
            dx, dy, dz = (float(c) for c in d["direction"])
            return areas.make(spec, origin, (origin[0] + dx, origin[1] + dy, origin[2] + dz))
        return areas.make(spec, origin)
    except (KeyError, TypeError, ValueError):
        return None


def label(d: dict) -> str:
    s = float(d["size_m"])
    return {"sphere": f"sphere {s:g} m radius", "cube": f"cube {s:g} m", "cone": f"cone {s:g} m",
            "line": f"line {s:g} m", "cylinder": f"cylinder {s:g} m radius"}.get(d["shape"], f"{d['shape']} {s:g} m")


def _frame(u):
    u = np.asarray(u, float)
    side = np.cross(u, [0.0, 0.0, 1.0])
    if np.linalg.norm(side) < 1e-6:
        side = np.array([1.0, 0.0, 0.0])
    side /= np.linalg.norm(side)
    return side, np.cross(side, u)


def _circle(centre, r, a, b, n=32):
    c = np.asarray(centre, float)
    return [tuple(c + (a * math.cos(2 * math.pi * k / n) + b * math.sin(2 * math.pi * k / n)) * r) for k in range(n)]


def _loop(pr, pts, col):
    for k in range(len(pts)):
        pr.line(pts[k], pts[(k + 1) % len(pts)], col, xray=True)


def outline(pr, ar, col) -> None:
    """The area's edges, from its own fields (origin, size, direction, width, height)."""
    o = np.asarray(ar.origin, float)
    s = ar.size_m
    ex, ey, ez = np.eye(3)
    if ar.shape == "sphere":
        for a, b in ((ex, ey), (ex, ez), (ey, ez)):
            _loop(pr, _circle(o, s, a, b, 40), col)
    elif ar.shape == "cube":
        pr.box_wire(tuple(o - s / 2), tuple(o + s / 2), col, xray=True)
    elif ar.shape == "cylinder":
        h = ar.height_m if ar.height_m is not None else 2 * s
        lo, hi = _circle(o, s, ex, ey, 40), _circle(o + ez * h, s, ex, ey, 40)
        _loop(pr, lo, col)
        _loop(pr, hi, col)
        for k in range(0, 40, 10):
            pr.line(lo[k], hi[k], col, xray=True)
    else:
        u = np.asarray(ar.direction, float)
        a, b = _frame(u)
        end = o + u * s
        r = s / 2 if ar.shape == "cone" else ar.width_m / 2
        rim = _circle(end, r, a, b, 32)
        _loop(pr, rim, col)
        if ar.shape == "line":
            start = _circle(o, r, a, b, 32)
            _loop(pr, start, col)
        for k in range(0, 32, 8):
            pr.line(tuple(o) if ar.shape == "cone" else start[k], rim[k], col, xray=True)


def volume(pr, ar, world, col, areas) -> int:
    """A small cube at every grid cell whose centre the area holds (the rules' ``areas.cells``); how many."""
    cm = world.cell_m
    got = areas.cells(ar, tuple(world.size), cm)
    if len(got) > MAX_CELLS:
        got = [c for c in got if (c[0] + c[1] + c[2]) % 2 == 0]
    if got:
        pts = np.array([areas.cell_centre(x, y, z, cm) for x, y, z in got], np.float32)
        pr.cubes(pts, CELL_HALF, (col[0], col[1], col[2], 255))
    return len(got)


def aimed(win) -> dict | None:
    """The area of the action being composed, as the rules' preview gives it; for a spell whose preview gives
    none (the ruleset's older spells: Fireball by its old name), the SRD data's shape and size at the point aimed
    (:func:`from_data`). None when it has no area."""
    from engine.app import areaspell

    pv = areaspell.preview(win)
    if pv is None:
        return None
    a = pv.get("area")
    if isinstance(a, dict):
        return a
    act = win.ctl.action() or {}
    return from_data(win, act) if "spell" in act else None


def from_data(win, act: dict) -> dict | None:
    """A spell's area from its SRD data (assets/srd/spells.json) when its range is a distance: a sphere, cube or
    cylinder at the aimed cell (``at``, else the target's cell), a cone or line from the caster toward it -- as
    ``areas.py`` places the SRD spells' own. None for a spell centred on its caster (its older rules are not the
    SRD's shape: nothing is drawn rather than a wrong volume)."""
    from engine.app.areaspell import srd_spell

    sp = srd_spell(str(act["spell"]))
    if sp is None or not sp.get("area") or not sp.get("range_m"):
        return None
    ctl = win.ctl
    cm = win.scene.world.cell_m
    if act.get("at") is not None:
        x, y, z = act["at"]
    elif act.get("target") in ctl.state.actors:
        t = ctl.state.actors[act["target"]]
        x, y, z = t.x, t.y, t.layer
    else:
        return None
    aim = ((x + 0.5) * cm, (y + 0.5) * cm, z + 0.5)
    shape, size = sp["area"]["shape"], float(sp["area"]["size_m"])
    if shape in ("cone", "line"):
        a = ctl.state.actors.get(act.get("actor"))
        if a is None:
            return None
        me = ((a.x + a.footprint / 2) * cm, (a.y + a.footprint / 2) * cm, a.layer + a.height_layers / 2)
        d = [q - p for p, q in zip(me, aim)]
        n = math.sqrt(sum(c * c for c in d)) or 1.0
        return {"shape": shape, "size_m": size, "origin": list(me), "direction": [c / n for c in d]}
    if shape == "cylinder":
        aim = (aim[0], aim[1], aim[2] - 0.5)
    return {"shape": shape, "size_m": size, "origin": list(aim)}


def lasting(state) -> list[tuple[str, str, dict]]:
    """(caster id, spell, area dict) of every lasting area held now; one that follows its caster (Spirit Guardians)
    centred where the caster stands."""
    out = []
    for a in state.actors.values():
        held = (a.data or {}).get("lasting") if isinstance(a.data, dict) else None
        for e in held or ():
            d = e.get("area") if isinstance(e, dict) else None
            if isinstance(d, dict):
                out.append((a.id, str(e.get("spell", "")), d))
    return out


def prims(win, rs, players: bool = False) -> ov.Prims:
    """The aimed area (the GM's composing only) and the lasting ones, with their labels (the token layer's tags)."""
    pr = ov.Prims()
    w = win.scene.world
    A = areas_of(win.scene.ruleset)
    if A is None:
        return pr
    for cid, spell, d in lasting(win.ctl.state):
        ar = area(_follow(win, cid, d), A)
        if ar is None:
            continue
        outline(pr, ar, HELD)
        volume(pr, ar, w, HELD, A)
        pr.labels.append(ov.Label(tuple(ar.origin), f"{spell.replace('_', ' ')} ({label(d)}, held by "
                                  f"{win.name(cid)})", bg=(20, 50, 80, 235)))
    aim = None if players else aimed(win)
    ar = area(aim, A) if aim else None
    if aim is not None and ar is not None:
        from engine.app import areaspell

        outline(pr, ar, AIM)
        n = volume(pr, ar, w, AIM, A)
        who = areaspell.caught(win)
        spell = str((win.ctl.action() or {}).get("spell", "")).replace("_", " ")
        pr.labels.append(ov.Label(tuple(ar.origin), f"{spell}: {label(aim)}, {n} cells; "
                                  + (", ".join(win.name(c) for c in who) or "nobody caught"), bg=(90, 40, 10, 235)))
    return pr


def _follow(win, cid, d: dict) -> dict:
    """A lasting sphere or cylinder around its caster moves with it (the rules' ``follows``): centred on it now."""
    a = win.ctl.state.actors.get(cid)
    held = next((e for e in (a.data.get("lasting") or ()) if e.get("area") is d), None) if a is not None else None
    if not held or not held.get("follows"):
        return d
    cm = win.scene.world.cell_m
    c = ((a.x + a.footprint / 2) * cm, (a.y + a.footprint / 2) * cm, a.layer + a.height_layers / 2)
    return dict(d, origin=list(c))
