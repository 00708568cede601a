"""The players' join links as QR codes over the GM's window (``aerie play --serve``, docs/players.md): one code per
side with its side's name and link, so each player scans their own side's from the table. Shown when the server
starts; F6 hides and shows it (engine/serve/window.py). Modules drawn as the HUD's boxes (runs of dark modules in a
row merged), from segno's matrix."""

from __future__ import annotations

from engine.app import hud as H
from engine.app.sections.base import Layout, Section
from engine.app.sections.context import Table

QUIET = 4          # light modules around a code: the standard quiet zone


def qr_matrix(url: str) -> list[list[bool]]:
    import segno

    return [[bool(v) for v in row] for row in segno.make(url, error="m").matrix]


class JoinQR(Section):
    name = "join codes"
    modal = True
    players = False              # the GM's window only (the links are secrets of each side)

    def __init__(self) -> None:
        self.cache: tuple = (None, [])      # (the links, their codes' matrices): made once per set of links

    def depends(self, t: Table) -> tuple:
        return (t.serve_qr, tuple(t.serve_lines))

    def visible(self, t: Table) -> bool:
        return bool(t.serve_qr and t.serve_lines)

    def build(self, t: Table, L: Layout) -> None:
        hud = t.hud
        lines = list(t.serve_lines)
        if self.cache[0] != lines:
            self.cache = (lines, [qr_matrix(ln.split(": ", 1)[1]) for ln in lines])
        mats = self.cache[1]
        n = max(len(m) for m in mats) + 2 * QUIET
        cols = min(len(mats), 4)
        lh = hud.line + 3
        mod = max(2, int(min((L.W - 40) / cols - 24, L.H - 120 - 3 * lh) // n))
        card_w = n * mod + 16
        card_h = n * mod + 16 + 2 * lh
        rows_n = (len(mats) + cols - 1) // cols
        total_w = cols * card_w + (cols - 1) * 12
        x0 = (L.W - total_w) / 2
        y0 = max(L.bar_h + 8, (L.H - rows_n * (card_h + 12) - lh - 8) / 2)
        hud.box(x0 - 10, y0 - 8, x0 + total_w + 10, y0 + lh + rows_n * (card_h + 12) + 4, H.BG)
        hud.block(x0 - 10, y0 - 8, x0 + total_w + 10, y0 + lh + rows_n * (card_h + 12) + 4, self.name)
        hud.text(x0, y0 - 4, "Players: scan your side's code (F6 hides this)", H.ACCENT, max_w=total_w)
        for i, (line, m) in enumerate(zip(lines, mats)):
            cx = x0 + (i % cols) * (card_w + 12)
            cy = y0 + lh + (i // cols) * (card_h + 12)
            hud.box(cx, cy, cx + card_w, cy + card_h, (255, 255, 255, 255))
            ox, oy = cx + 8 + QUIET * mod, cy + 8 + QUIET * mod
            for r, row in enumerate(m):
                c = 0
                while c < len(row):
                    if not row[c]:
                        c += 1
                        continue
                    e = c
                    while e < len(row) and row[e]:
                        e += 1
                    hud.box(ox + c * mod, oy + r * mod, ox + e * mod, oy + (r + 1) * mod, (0, 0, 0, 255))
                    c = e
            side = line.split(":", 1)[0].removeprefix("join ")
            hud.text(cx + 8, cy + n * mod + 10, f"side {side}", (20, 20, 20, 255), max_w=card_w - 16)
            hud.text(cx + 8, cy + n * mod + 10 + lh, line.split(": ", 1)[1], (60, 60, 60, 255),
                     size=hud.line * 0.75, max_w=card_w - 16)
