"""Pointing at the map: the pick under the mouse, the hovered cell (a move's destination follows it), the
cursor's altitude, the arrow keys' cell cursor, T's next target. Functions of the window (``win``)."""

from __future__ import annotations

import math
import time

from engine.app import areaspell


def flyer(win) -> bool:
    a = win.ctl.state.actors.get(win.ctl.selected) if win.ctl.selected else None
    return a is not None and a.can_fly


def placing(win) -> bool:
    return win.ctl.pending is not None and "pos" in dict(win.ctl.pending.needs).values()


def pick(win):
    rs = win.render_state()
    return win.picker.pick(win.camctl.camera(), win.size_px, win.mouse[0], win.mouse[1], rs.characters,
                           win.ctl.cursor_layer if placing(win) and flyer(win) else None)


def dest_layer(win, cell) -> int:
    """The destination layer: the cursor's altitude for a flyer, the surface for a walker."""
    x, y, layer = cell
    sel = win.ctl.selected
    a = win.ctl.state.actors.get(sel) if sel else None
    if a is not None and not a.can_fly:
        return layer                     # a walker: the surface the cursor is on
    return win.ctl.cursor_layer if win.ctl.cursor_layer > 0 or layer == 0 else layer


def follow_hover(win) -> None:
    """While placing a move, the destination is the hovered cell at the destination layer."""
    if placing(win) and win.ctl.hover is not None:
        hx, hy, _ = win.ctl.hover
        win.ctl.set_destination((hx, hy, dest_layer(win, win.ctl.hover)))


def hover(win) -> None:
    if win.sections.over(win, *win.mouse) is not None:
        return                      # over a panel: the map under it is not pointed at
    hit = pick(win)
    cell = hit["cell"].cell if hit["cell"] is not None else None
    if hit["char"] is not None and not placing(win):
        a = win.ctl.state.actors.get(hit["char"].char)
        if a is not None:
            cell = a.pos
    if cell != win.ctl.hover:
        win.hover_t = time.perf_counter()
        win.ctl.hover = cell
        if placing(win) and cell is not None:
            x, y, _ = cell
            win.ctl.set_destination((x, y, dest_layer(win, cell)))
        win.changed()


def layer(win, d) -> None:
    win.ctl.change_layer(d)
    if placing(win) and win.ctl.hover is not None and flyer(win):
        hx, hy, _ = win.ctl.hover
        win.ctl.hover = (hx, hy, win.ctl.cursor_layer)
        win.ctl.set_destination((hx, hy, dest_layer(win, win.ctl.hover)))


def nudge_cursor(win, direction: str) -> None:
    """Arrow keys move the cell cursor one cell in the direction the camera faces (up = away)."""
    ctl = win.ctl
    cur = ctl.hover
    if cur is None:
        a = ctl.state.actors.get(ctl.selected) if ctl.selected else None
        cur = a.pos if a is not None else (0, 0, 0)
    yaw = math.radians(win.camctl.cur.yaw)
    fwd = (math.sin(yaw), math.cos(yaw))

    def snap(v):
        return (int(round(v[0])) if abs(v[0]) >= abs(v[1]) else 0, int(round(v[1])) if abs(v[1]) > abs(v[0]) else 0)

    f = snap(fwd)
    r = (f[1], -f[0])
    d = {"up": f, "down": (-f[0], -f[1]), "right": r, "left": (-r[0], -r[1])}[direction]
    world = ctl.session.world                # the session's voxels: broken walls are gone
    X, Y, _ = world.size
    x = min(max(cur[0] + d[0], 0), X - 1)
    y = min(max(cur[1] + d[1], 0), Y - 1)
    cell = (x, y, ctl.cursor_layer if placing(win) else cur[2])
    if not placing(win):
        cell = (x, y, world.support_layer(x, y, world.size[2]))
    ctl.hover = cell
    if placing(win):
        ctl.set_destination((x, y, dest_layer(win, cell)))


def next_target(win) -> None:
    """T (engine/app/flow.py): the next target the core offers; with one it says so, with none it says why."""
    from engine.app import flow

    flow.next_target(win.ctl)
    win.say(win.named(win.ctl.message[0]), "error" if win.ctl.message[1] == "error" else "info")


def _next_target_here(win) -> None:
    ctl = win.ctl
    p = ctl.pending
    if p is None:
        return
    k = next((k for k, kind in p.needs if kind == "id"), None)
    if k is None:
        return
    opts = []
    for v in p.variants:
        if k in v and v[k] not in opts:
            opts.append(v[k])
    if not opts:
        opts = [a for a in ctl.state.actors if a != ctl.selected]
    cur = p.params.get(k)
    i = opts.index(cur) if cur in opts else -1
    ctl.choose_param(k, opts[(i + 1) % len(opts)])


def centre(win, cid):
    a = win.ctl.state.actors[cid]
    cm = win.scene.world.cell_m
    return ((a.x + a.footprint / 2) * cm, (a.y + a.footprint / 2) * cm, a.layer + a.height_layers / 2)


def map_click(win, hit) -> None:
    """A left click on the map (no panel under it): a move's destination, an object as the target, or a
    character selected."""
    ctl = win.ctl
    if placing(win) and hit["cell"] is not None:
        # placing a move: the click sets the destination the hover previewed, even where a character stands
        # behind that point on screen (select another one with Esc first)
        x, y, _ = hit["cell"].cell
        ctl.set_destination((x, y, dest_layer(win, hit["cell"].cell)))
        ctl.hover = hit["cell"].cell
    elif hit["char"] is None and hit["terrain"] is not None and ctl.target_object_at(hit["terrain"].point):
        pass                          # an object chosen as the target (issue 14)
    elif areaspell.aim(win, hit):
        pass                          # a spell's point of origin (a cell with nobody there) or its target
    elif hit["char"] is not None:
        ctl.select(hit["char"].char)
        if win.camctl.mode == "follow":
            win.camctl.follow(centre(win, hit["char"].char))


def pick_at(win, layer):
    """The pick under the mouse with the cursor's plane at ``layer`` (None: the surface), as a GM's drag drops."""
    rs = win.render_state()
    return win.picker.pick(win.camctl.camera(), win.size_px, win.mouse[0], win.mouse[1], rs.characters, layer)


class Pointer:
    """The functions above bound to one window: what a mode is handed (``Table.point``) instead of the window."""

    __slots__ = ("_win",)

    def __init__(self, win) -> None:
        self._win = win

    def pick(self):
        return pick(self._win)

    def pick_at(self, layer):
        return pick_at(self._win, layer)

    def placing(self) -> bool:
        return placing(self._win)

    def hover(self) -> None:
        hover(self._win)

    def follow_hover(self) -> None:
        follow_hover(self._win)

    def layer(self, d) -> None:
        layer(self._win, d)

    def nudge(self, direction: str) -> None:
        nudge_cursor(self._win, direction)

    def next_target(self) -> None:
        next_target(self._win)

    def centre(self, cid):
        return centre(self._win, cid)

    def map_click(self, hit) -> None:
        map_click(self._win, hit)
