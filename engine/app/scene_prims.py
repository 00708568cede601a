"""The overlays' primitives in the 3D view: the layer grid, engagement and reach, sight lines, the cover /
threat / movement maps and the 3D threat view (worked out by the workers, drawn here), the cell cursor and the
ghost of a move, the rings of the selected character and its target, the ruler and the area template. Each is a
function of the window (``win``): it reads the controller, the view state and the workers' results."""

from __future__ import annotations

import json
import math

import numpy as np

from engine.app import maps
from engine.app.hovertext import who_at
from engine.render import overlays as ov
from engine.render.state import side_colour

GRID_R = 10
TEMPLATES = ("sphere", "cone", "line", "cube")


def map_key(win, name, sv, sel):
    """The job key of a map overlay: what it was worked out for."""
    ctl = win.ctl
    if name in ("cover", "threat"):
        return (sv, sel, ctl.cursor_layer)
    if name == "volume":
        return (sv, sel, win.vstate.volume_mode)
    return (sv, sel)


def drawn(win, rs, cid):
    """cid when it is a character on screen: in the rules' state and in the render state drawn (the player view
    leaves out whom the side cannot see, the selected character included -- issue 23 item 1)."""
    if cid not in win.ctl.state.actors:
        return None
    return cid if any(c.id == cid for c in rs.characters) else None


def overlay_prims(win, rs):
    """The overlays that are on, cached until what they depend on changes."""
    ctl = win.ctl
    on = win.vstate.on
    pr = ov.Prims()
    notes: list[str] = []
    sv = ctl.state_version
    sel = drawn(win, rs, ctl.selected)

    def cached(name, k, fn):
        c = win.ov_cache.get(name)
        if c is None or c[0] != k:
            try:
                c = (k, fn())
            except Exception as e:   # noqa: BLE001 - an overlay never takes the window down
                c = (k, ov.Prims())
                notes.append(f"{name}: {e}")
            win.ov_cache[name] = c
        return c[1]

    if on["grid"]:
        layer = ctl.cursor_layer
        X, Y, _ = win.scene.world.size
        c = ctl.hover[:2] if ctl.hover else (ctl.actor(sel).pos[:2] if sel else (X // 2, Y // 2))
        c = (int(c[0]) // 4 * 4, int(c[1]) // 4 * 4)       # the patch moves in steps, not with every cell
        pr.extend(cached("grid", (layer, c), lambda: grid(win, layer, c)))
    if on["engagement"]:
        pr.extend(cached("engagement", (sv, sel), lambda: engagement(win, rs, sel)))
    pending_tgt = None
    if ctl.pending is not None and sel:
        pending_tgt = next((v for k, v in ctl.pending.params.items()
                            if dict(ctl.pending.needs).get(k) == "id" and drawn(win, rs, v) and v != sel), None)
    if (on["sightlines"] or pending_tgt) and sel:
        # composing an action against a target always shows the sight lines its cover comes from
        tgt = pending_tgt or drawn(win, rs, sight_target(win))
        pr.extend(cached("sightlines", (sv, sel, tgt), lambda: sightlines(win, rs, sel, tgt)))
    for name in ("cover", "threat", "movement", "volume"):
        if on[name] and sel:
            map_prims(win, name, map_key(win, name, sv, sel), pr, notes, cached)
    return pr, notes


def map_prims(win, name, k, pr, notes, cached):
    """One worked-out map overlay: its quads when ready, else a note saying it is being computed."""
    ok, val = win.jobs.result(name, k)
    if ok and isinstance(val, ov.Prims):
        pr.extend(val)
        win.drawn_maps[name] = k
    elif ok and isinstance(val, dict):
        layer = win.ctl.cursor_layer
        mv = cached("movement_layer", (k, layer), lambda: maps.movement_prims(win.scene, val, layer))
        pr.extend(mv[0] if isinstance(mv, tuple) else mv)
        n = mv[1] if isinstance(mv, tuple) else 0
        notes.append(f"movement: {n} cell(s) reachable at layer {layer}")
    elif ok:
        notes.append(f"{name}: {val}")
    else:
        notes.append(f"{name} map: computing...")


def grid(win, layer, centre):
    """The layer grid at the cursor's altitude: a 21 x 21-cell patch around the cursor (the whole map's grid at
    altitude is unreadable clutter), with the layer written on it."""
    world = win.scene.world
    X, Y, Z = world.size
    cm = world.cell_m
    cx, cy = centre
    R = GRID_R
    x0, x1 = max(cx - R, 0), min(cx + R + 1, X)
    y0, y1 = max(cy - R, 0), min(cy + R + 1, Y)
    pr = ov.Prims()
    z = float(layer) + 0.03
    col = (255, 255, 255, 150)
    for x in range(x0, x1 + 1):
        pr.line((x * cm, y0 * cm, z), (x * cm, y1 * cm, z), col)
    for y in range(y0, y1 + 1):
        pr.line((x0 * cm, y * cm, z), (x1 * cm, y * cm, z), col)
    pr.labels.append(ov.Label((x0 * cm, y0 * cm, z), f"layer {layer} ({layer} m)", ov.WHITE, (40, 70, 140, 220)))
    return pr


def engagement(win, rs, sel):
    pr = ov.engagement(win.scene, rs)
    if sel:
        pr.extend(ov.reach(win.scene, rs, rs.get(sel)))
    return pr


def sight_target(win):
    ctl = win.ctl
    p = ctl.pending
    if p is not None:
        for k, v in p.params.items():
            if isinstance(v, str) and v in ctl.state.actors:
                return v
    if ctl.hover:
        who = who_at(ctl.state, *ctl.hover)
        if who and who[0] != ctl.selected:
            return who[0]
    return None


def sightlines(win, rs, sel, tgt):
    pr = ov.Prims()
    a = rs.get(sel)
    if tgt:
        targets = [tgt]
    else:   # no target chosen or hovered: the nearest two foes
        foes = [c for c in rs.characters if c.side != a.side and not c.dead]
        foes.sort(key=lambda c: (c.x - a.x) ** 2 + (c.y - a.y) ** 2 + (c.layer - a.layer) ** 2)
        targets = [c.id for c in foes[:2]]
    for t in targets:
        pr.extend(ov.sightlines(win.scene, rs, a, rs.get(t), world=win.ctl.session.world))   # broken walls too
    return pr


def _ghost_box(pr, lo, hi, edge, col):
    pr.box_wire(lo, hi, edge, xray=True)
    fill = (col[0], col[1], col[2], 70)
    x0, y0, z0 = lo
    x1, y1, z1 = hi
    for zz in (z0, z1):
        pr.quad((x0, y0, zz), (x1, y0, zz), (x1, y1, zz), (x0, y1, zz), fill)
    pr.quad((x0, y0, z0), (x1, y0, z0), (x1, y0, z1), (x0, y0, z1), fill)
    pr.quad((x0, y1, z0), (x1, y1, z0), (x1, y1, z1), (x0, y1, z1), fill)
    pr.quad((x0, y0, z0), (x0, y1, z0), (x0, y1, z1), (x0, y0, z1), fill)
    pr.quad((x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1), fill)


def ghost_move(win, pr, sel, act):
    """The ghost at a move's destination layer with its drop line to the surface and the previewed path."""
    ctl = win.ctl
    world = ctl.session.world                # the session's: a broken bridge holds no one up
    cm = world.cell_m
    a = ctl.state.actors[sel]
    dest = (act or {}).get("to") or (ctl.pending.params.get("to") if ctl.pending else None)
    if dest is None and ctl.hover is not None:
        dest = (ctl.hover[0], ctl.hover[1], ctl.cursor_layer)
    if dest is None:
        return
    x, y, layer = dest
    ok, res = win.jobs.result("preview", (ctl.state_version, json.dumps(act, sort_keys=True))) if act else (False, None)
    legal = ok and isinstance(res, dict) and res.get("ok")
    edge = (120, 255, 140, 255) if legal else ((255, 90, 80, 255) if ok else (255, 255, 255, 220))
    lo = (x * cm + 0.08, y * cm + 0.08, float(layer))
    hi = ((x + a.footprint) * cm - 0.08, (y + a.footprint) * cm - 0.08, float(layer + a.height_layers))
    _ghost_box(pr, lo, hi, edge, side_colour(a.side))
    s = max(world.support_layer(x + i, y + j, layer) for i in range(a.footprint) for j in range(a.footprint))
    fx, fy = (x + a.footprint / 2) * cm, (y + a.footprint / 2) * cm
    if layer > s:
        pr.line((fx, fy, float(layer)), (fx, fy, float(s) + 0.02), edge, xray=True)
        pr.ring((fx, fy, s + 0.05), 0.3, 0.45, edge)
    pr.labels.append(ov.Label((fx, fy, layer + a.height_layers + 0.3), f"to ({x}, {y}) layer {layer}",
                              ov.WHITE, (30, 60, 40, 220) if legal else (90, 30, 30, 220)))
    if ok and isinstance(res, dict):
        path = (res.get("preview") or {}).get("path")
        if isinstance(path, list) and len(path) > 1:
            pts = [((p[0] + a.footprint / 2) * cm, (p[1] + a.footprint / 2) * cm, p[2] + 0.15) for p in path]
            for p0, p1 in zip(pts, pts[1:]):
                pr.line(p0, p1, (255, 230, 90, 255), xray=True)


def _ring_at(pr, rs, cid, cm, col):
    c = rs.get(cid)
    fx, fy = (c.x + c.footprint / 2) * cm, (c.y + c.footprint / 2) * cm
    r = c.footprint * cm * 0.55
    pr.ring((fx, fy, c.layer + 0.06), r, r + 0.18, col)


def ghost_prims(win, rs) -> ov.Prims:
    """The cell cursor, the ghost at the destination layer with its drop line, and the previewed path."""
    from engine.app import pointing

    from engine.app.twowindows import players_screen

    pr = ov.Prims()
    cm = win.scene.world.cell_m
    ctl = win.ctl
    sel = drawn(win, rs, ctl.selected)
    placing = pointing.placing(win)
    table = players_screen(win)
    # the players' screen shows what the GM composes only for the side on screen (their own move, their target):
    # the GM's plan for anyone else is not shown before it is done, and the cell cursor is the GM's pointer
    composing = not table or (sel is not None and rs.get(sel).side == win.vstate.player_side)
    if ctl.hover is not None and not placing and not table:
        x, y, layer = ctl.hover
        z = layer + 0.04
        pr.box_wire((x * cm, y * cm, z), ((x + 1) * cm, (y + 1) * cm, z + 0.05), (255, 255, 255, 230))
    if placing and sel and composing:
        ghost_move(win, pr, sel, ctl.action())
    if sel:                        # the selected character: a bright ring at its feet
        _ring_at(pr, rs, sel, cm, (255, 240, 120, 255))
    tgt = drawn(win, rs, sight_target(win))
    if tgt and ctl.pending is not None and composing:
        _ring_at(pr, rs, tgt, cm, (255, 80, 60, 255))
    if ctl.pending is not None and composing:    # an area spell: every creature it catches (the rules' preview)
        from engine.app import areaspell

        areaspell.rings(win, pr, rs, _ring_at)
    return pr


# -- the ruler and area templates ------------------------------------------------------------------------------
def point_of(win, target):
    """(metres point, Body, character id or None) of a ruler end: a character or a cell."""
    from engine.world.geometry import Body

    cm = win.scene.world.cell_m
    if target.get("char") in win.ctl.state.actors:
        a = win.ctl.state.actors[target["char"]]
        b = a.body()
        return ((a.x + a.footprint / 2) * cm, (a.y + a.footprint / 2) * cm, a.layer + 0.05), b, a.id
    x, y, layer = target["cell"]
    return ((x + 0.5) * cm, (y + 0.5) * cm, layer + 0.05), Body(x, y, layer, 1, 2, 1.6), None


def ruler_info(win):
    """The ruler's figures: the straight distance with height (AIR-03) and, for the mover (the character at the
    first end, else the selected one standing there), the cost of the cheapest path to the second end (AIR-07:
    climbs and descents priced by the rules' own reach map)."""
    r = win.vstate.ruler
    if not r or "b" not in r:
        return None
    from engine.world.geometry import distance_m

    ctl = win.ctl
    pa, ba, ida = point_of(win, r["a"])
    pb, bb, idb = point_of(win, r["b"])
    d = distance_m(ba, bb, win.scene.world.cell_m)
    mover = ida or (ctl.selected if ctl.selected in ctl.state.actors else None)
    key = (ctl.state_version, json.dumps(r, sort_keys=True), mover)
    info = {"straight_m": round(d, 2), "layers": int(bb.layer - ba.layer), "mover": mover, "key": key}
    if mover:
        win.jobs.submit("ruler", key, lambda: path_cost(win.ctl.session, mover, ba, bb, idb))
        ok, val = win.jobs.result("ruler", key)
        info["path"] = val if ok else "computing"
    return info


def path_cost(s, mover, ba, bb, idb):
    """The cheapest path for mover from ba to bb (to a character: the cheapest cell next to it), in the worker."""
    from dataclasses import replace

    from engine.rules.aerial import reach
    from engine.world.geometry import distance_m

    a = s.state.actors[mover]
    probe = replace(a, x=ba.x, y=ba.y, layer=ba.layer)
    # a budget that covers any sensible detour: three times the straight line, plus room for a climb
    r = reach(s, probe, budget_m=3.0 * distance_m(ba, bb, s.world.cell_m) + 24.0)
    goals = [(bb.x, bb.y, bb.layer)]
    if idb is not None:            # to a character: the cheapest cell next to it (where a melee attack stands)
        t = s.state.actors[idb]
        goals = [(t.x + i, t.y + j, t.layer + k) for i in range(-a.footprint, t.footprint + 1)
                 for j in range(-a.footprint, t.footprint + 1) for k in (-1, 0, 1)]
    best = None
    for g in goals:
        loc = r._local(*g)
        c = r.cost_cm(*g) if loc is not None else None
        if c is None or (idb is not None and not r.endable[loc]):
            continue
        if best is None or c < best[0]:
            best = (c, g)
    if best is None:
        return {"reachable": False, "fly": r.fly}
    path = r.path(*best[1])
    return {"reachable": True, "cost_m": round(best[0] / 100.0, 2), "to": list(best[1]), "fly": r.fly,
            "path": [list(p) for p in path]}


def ruler_text(win, info, short=False) -> str:
    t = f"{info['straight_m']:.1f} m straight ({info['layers']:+d} layers, AIR-03)"
    path = info.get("path")
    if short:
        t = f"{info['straight_m']:.1f} m"
        if isinstance(path, dict):
            t += f", path {path['cost_m']:g} m" if path.get("reachable") else ", no path"
        return t
    if isinstance(path, dict):
        who = win.name(info["mover"])
        t += (f"; path {path['cost_m']:g} m for {who} (AIR-07)" if path.get("reachable")
              else f"; {who} has no path there")
    elif path == "computing":
        t += "; path: computing..."
    return t


def template_geometry(win):
    """(shape, origin metres, aim metres, size metres) of the area template, or None."""
    t = win.vstate.template
    if not t:
        return None
    cm = win.scene.world.cell_m
    cell = t.get("at") or win.ctl.hover          # pinned by a click, else at the cursor
    if cell is None:
        return None
    aim = ((cell[0] + 0.5) * cm, (cell[1] + 0.5) * cm, cell[2] + 0.5)
    sel = win.ctl.state.actors.get(win.ctl.selected) if win.ctl.selected else None
    if t["shape"] in ("cone", "line") and sel is not None:
        origin = ((sel.x + sel.footprint / 2) * cm, (sel.y + sel.footprint / 2) * cm, sel.layer + sel.eye_m)
    else:
        origin = aim
    return t["shape"], origin, aim, float(t["size_m"])


def template_size(shape: str, size: float) -> str:
    """What the size of a template is ("sphere 6 m" did not say it was the radius -- issue 23 item 8)."""
    return {"sphere": f"sphere {size:g} m radius", "cone": f"cone {size:g} m long",
            "line": f"line {size:g} m long, 1.5 m wide", "cube": f"cube {size:g} m side"}.get(shape, f"{shape} {size:g} m")


def template_inside(win, g=None):
    """Who is inside the template (``g``: a kept one's geometry, else the live one's): any of a body's 36 sample
    points (the points sight lines aim at) inside."""
    g = g or template_geometry(win)
    if g is None:
        return []
    from engine.world.cover import sample_points

    shape, o, aim, size = g
    cm = win.scene.world.cell_m
    o = np.array(o)
    d = np.array(aim) - o
    n = np.linalg.norm(d)
    u = d / n if n > 1e-9 else np.array([0.0, 1.0, 0.0])
    out = []
    for a in win.ctl.state.actors.values():
        if a.dead or (shape in ("cone", "line") and a.id == win.ctl.selected):
            continue
        p = sample_points(a.body()) * np.array([cm, cm, 1.0])
        v = p - o
        if shape == "sphere":
            ins = np.linalg.norm(v, axis=1) <= size
        elif shape == "cube":
            ins = ((np.abs(v[:, 0]) <= size / 2) & (np.abs(v[:, 1]) <= size / 2) & (p[:, 2] >= aim[2] - 0.5)
                   & (p[:, 2] <= aim[2] - 0.5 + size))
        else:
            along = v @ u
            perp = np.linalg.norm(v - np.outer(along, u), axis=1)
            if shape == "cone":       # 5e: the width at any point equals the distance from the point of origin
                ins = (along >= 0) & (along <= size) & (perp <= along / 2)
            else:                     # a line 1.5 m wide
                ins = (along >= 0) & (along <= size) & (perp <= 0.75)
        if ins.any():
            out.append(a.id)
    return out


def ruler_prims(win, pr, tags):
    r = win.vstate.ruler
    info = ruler_info(win)
    pa = point_of(win, r["a"])[0]
    pr.ring((pa[0], pa[1], pa[2]), 0.25, 0.4, (120, 220, 255, 255))
    if info is None:
        return
    pb = point_of(win, r["b"])[0]
    pr.ring((pb[0], pb[1], pb[2]), 0.25, 0.4, (120, 220, 255, 255))
    pr.line(pa, pb, (120, 220, 255, 255), xray=True)
    path = info.get("path")
    if isinstance(path, dict) and path.get("path"):
        cm = win.scene.world.cell_m
        pts = [((p[0] + 0.5) * cm, (p[1] + 0.5) * cm, p[2] + 0.12) for p in path["path"]]
        for p0, p1 in zip(pts, pts[1:]):
            pr.line(p0, p1, (255, 170, 60, 255), xray=True)
    mid = tuple((x + y) / 2 for x, y in zip(pa, pb))
    tags.append((mid, ruler_text(win, info, short=True), (20, 60, 90, 235)))


def template_prims(win, pr, tags, g):
    shape, o, aim, size = g
    col = (255, 120, 220, 255)
    if shape == "sphere":
        for k in range(-2, 3):
            z = o[2] + size * k / 3
            rr = math.sqrt(max(size * size - (z - o[2]) ** 2, 0.0))
            pr.ring((o[0], o[1], z), max(rr - 0.08, 0.0), rr, col, n=48)
    elif shape == "cube":
        z0 = aim[2] - 0.5
        pr.box_wire((o[0] - size / 2, o[1] - size / 2, z0), (o[0] + size / 2, o[1] + size / 2, z0 + size), col,
                    xray=True)
    else:
        d = np.array(aim) - np.array(o)
        n = np.linalg.norm(d)
        u = d / n if n > 1e-9 else np.array([0.0, 1.0, 0.0])
        side = np.cross(u, [0.0, 0.0, 1.0])
        if np.linalg.norm(side) < 1e-6:
            side = np.array([1.0, 0.0, 0.0])
        side = side / np.linalg.norm(side)
        upv = np.cross(side, u)
        end = np.array(o) + u * size
        half = size / 2 if shape == "cone" else 0.75
        ring = []
        for k in range(24):
            ang = 2 * math.pi * k / 24
            ring.append(tuple(end + (side * math.cos(ang) + upv * math.sin(ang)) * half))
        for k in range(24):
            pr.line(ring[k], ring[(k + 1) % 24], col, xray=True)
            if k % 6 == 0:
                pr.line(tuple(o) if shape == "cone" else tuple(np.array(o) + (np.array(ring[k]) - end)), ring[k], col,
                        xray=True)
    who = template_inside(win, g)
    tags.append(((aim[0], aim[1], aim[2]), f"{template_size(shape, size)}: " +
                 (", ".join(win.name(i) for i in who) or "nobody inside"), (90, 30, 80, 235)))


def table_prims(win, rs) -> ov.Prims:
    """The ruler and the area template in 3D; their figures go to the token layer as tags (laid out with the
    names, so none hides another)."""
    pr = ov.Prims()
    win.table_tags = []
    if win.vstate.ruler:
        ruler_prims(win, pr, win.table_tags)
    g = template_geometry(win)
    for kept in win.vstate.pinned:        # the templates kept on the map (Y, a click, Enter), each with who is inside
        template_prims(win, pr, win.table_tags, kept)
    if g is not None:
        template_prims(win, pr, win.table_tags, g)
    return pr
