"""What is said big on screen: the caption of the step being animated, and a key's effect (the toast)."""

from __future__ import annotations

from engine.app import hud as H
from engine.app import tokens as T
from engine.app.sections.base import Layout, Section
from engine.app.sections.context import Table


def moving_boxes(anims, camctl, cell_m: float, size) -> list:
    """Screen boxes of the characters a step moves (from where they start to where they end, a fall's whole
    column) and of their labels: the first of ``anims``, seen by ``camctl``'s camera in a frame of ``size``."""
    if not anims:
        return []
    anim = anims[0]
    cam = camctl.camera()
    cm = cell_m
    out = []
    for a in anim.after.characters:
        try:
            b = anim.before.get(a.id)
        except KeyError:
            continue
        if (a.x, a.y, a.layer) == (b.x, b.y, b.layer) and a.hp == b.hp:
            continue
        pts = []
        for c in (a, b):
            fx, fy = (c.x + c.footprint / 2) * cm, (c.y + c.footprint / 2) * cm
            pts += [(fx, fy, c.layer), (fx, fy, c.layer + c.height_layers + 1.5)]
        pr = [p for p in cam.project(pts, size) if p[2] > 0]
        if pr:
            xs, ys = [p[0] for p in pr], [p[1] for p in pr]
            out.append((min(xs) - 50, min(ys) - 20, max(xs) + 50, max(ys) + 10))
    return out


class Banner(Section):
    """What is happening, big, while a step animates -- placed where it covers none of the characters that
    move in the step (a falling flyer stays in view): at the top, beside or below the movers; in small print
    when the big one fits nowhere."""

    name = "banner"

    def depends(self, t: Table) -> tuple:
        return (t.anims[0].caption if t.anims else None, len(t.anims),
                tuple(t.mouse) if t.anims else None, t.vstate.player_side)

    def visible(self, t: Table) -> bool:
        # a GM action's step says nothing big in the player view (its log lines are the GM's too)
        return bool(t.anims and t.anims[0].caption) and not (getattr(t.anims[0], "gm", False)
                                                            and not t.player_view().gm)

    def place(self, t: Table, layer, parts, movers, L):
        W, Hh, bar_h = L.W, L.H, L.bar_h
        cw = min(max(layer.width(p) for p in parts) + 40, W - 20)
        bh = len(parts) * (layer.line + 4) + 14
        xs = [max(L.pw + 24, (W - cw) / 2), (W - cw) / 2, 10, W - cw - 10]
        ys = [bar_h + 8, Hh * 0.55, Hh * 0.35]
        for m in movers:
            xs += [m[2] + 8, m[0] - 8 - cw]
            ys += [m[3] + 8, m[1] - 8 - bh]
        cands = [(x, y) for y in ys for x in xs if 0 <= x and x + cw <= W and bar_h <= y and y + bh <= Hh - 40]
        panels = [b[:4] for b in t.hud.blocks if b[4] != "top bar"]
        for avoid in (movers + panels, movers):      # over no panel if it can, over no mover ever
            got = next(((x, y) for x, y in cands
                        if not any(T._overlaps((x, y, x + cw, y + bh), m, 4.0) for m in avoid)), None)
            if got is not None:
                return got, cw, bh
        return None, cw, bh

    def build(self, t: Table, L: Layout) -> None:
        caption = t.named(t.anims[0].caption)
        pf = t.player_view()           # the player view: no part naming whom the side cannot see
        parts = [p.strip() for p in caption.split(";") if p.strip() and pf.message_ok(p.strip())][:4]
        if not parts:
            return
        movers = moving_boxes(t.anims, t.camctl, t.scene.world.cell_m, t.size)
        for layer in (t.big, t.hud):
            got, cw, bh = self.place(t, layer, parts, movers, L)
            if got is not None:
                break
        if got is None:
            return                       # nowhere to put it without hiding the action: the log has it
        cx, cy = got
        t.drawn.banner_box = [cx, cy, cx + cw, cy + bh]
        layer.box(cx, cy, cx + cw, cy + bh, (12, 14, 20, 210))
        for i, part in enumerate(parts):
            layer.text(cx + 20, cy + 7 + i * (layer.line + 4), part, H.ACCENT if i == 0 else H.FG, max_w=cw - 40)


class Toast(Section):
    """A key's effect, said big for a few seconds (not over a step's caption)."""

    name = "toast"

    def depends(self, t: Table) -> tuple:
        return (t.toast and t.toast[0],)

    def visible(self, t: Table) -> bool:
        # an empty message (a key's effect cleared, "") has nothing to say big: no box (its wrap has no line)
        return t.toast is not None and bool(str(t.toast[0]).strip()) and not (t.anims and t.anims[0].caption)

    def build(self, t: Table, L: Layout) -> None:
        """Between the left and right columns (issue 23 item 7: an error covered the turn order and was cut at
        1280): wrapped onto up to three lines, in the smaller print when the big one needs more."""
        assert t.toast is not None           # visible: a toast is up
        txt, _until, kind = t.toast
        x0, x1 = L.pw + 16, L.W - L.rw - 16
        if x1 - x0 < 200:                     # a small window: the whole width
            x0, x1 = 10, L.W - 10
        for layer in (t.big, t.hud):
            lines = layer.wrap(txt, x1 - x0 - 30)
            if len(lines) <= 3:
                break
        lines = lines[:4]
        if not lines:
            return
        tw = min(max(layer.width(s) for s in lines) + 30, x1 - x0)
        bx = x0 + (x1 - x0 - tw) / 2
        y = L.bar_h + 8
        lh = layer.line + 4
        layer.box(bx, y, bx + tw, y + len(lines) * lh + 6, (90, 24, 20, 220) if kind == "error" else (20, 30, 50, 220))
        for i, s in enumerate(lines):
            layer.text(bx + 15, y + 5 + i * lh, s, H.FG, max_w=tw - 30)
