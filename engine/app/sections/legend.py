"""The map overlays' legends (issue 23 item 7: the threat map had no legend or note, the cover map no legend and
no "against whom"): what each colour means, for whom and at which layer, in the right column."""

from __future__ import annotations

from engine.app import hud as H
from engine.app.maps import COVER_COLOURS, THREAT_COLOURS
from engine.app.sections.base import Layout, Section
from engine.app.sections.context import Table


def legends(t: Table) -> list[tuple[str, list[tuple[str, tuple]]]]:
    """[(what the map shows, [(label, colour), ...])] for the map overlays that are on."""
    ctl, on = t.ctl, t.vstate.on
    sel = ctl.selected if ctl.selected in ctl.state.actors else None
    if sel is None:
        return []
    a = ctl.state.actors[sel]
    layer = ctl.cursor_layer
    out = []
    if on["cover"]:
        sw = [(n, COVER_COLOURS[n]) for n in ("none", "half", "three-quarters")]
        out.append((f"Cover map (C), layer {layer}: the cover a body standing on each cell would have against "
                    f"{t.name(sel)}'s attack", sw + [("total / not seen", COVER_COLOURS["total"])]))
    if on["threat"]:
        sw = [("safe", THREAT_COLOURS[0])] + [(f"{k}{'+' if k == 4 else ''}", THREAT_COLOURS[k]) for k in range(1, 5)]
        out.append((f"Threat map (B), layer {layer}: enemies that could attack a body of side {a.side} on each "
                    "cell (reach, range, sight)", sw))
    if on["volume"]:
        out.append(volume_legend(t, sel, a.side))
    return out


def volume_legend(t: Table, sel, side) -> tuple[str, list[tuple[str, tuple]]]:
    """The 3D threat view's (J) legend: what its cubes are, their colours, and the cells it counted (the view's own
    figures, once the view of the present state and mode is drawn)."""
    mode = t.vstate.volume_mode
    info = t.volume_info or {}
    fresh = info.get("key") == [t.ctl.state_version, sel, mode]
    what = {"reach": f"the cells {t.name(sel)} could reach this turn",
            "exposed": "every cell an enemy could attack", "safe": "every cell safe from every enemy"}[mode]
    counts = (f": {info.get('safe', 0)} safe, {info.get('exposed', 0)} exposed" if mode == "reach" else
              f": {info.get(mode, 0)} cells") if fresh else ": counting..."
    sw = [("safe", THREAT_COLOURS[0])] + [(f"{k}{'+' if k == 4 else ''}", THREAT_COLOURS[k]) for k in range(1, 5)]
    sw = sw[:1] if mode == "safe" else sw[1:] if mode == "exposed" else sw
    return (f"3D threat view (J), {what}, by how many enemies of side {side} could attack a body there"
            + counts, sw)


class Legend(Section):
    name = "legend"

    def depends(self, t: Table) -> tuple:
        info = t.volume_info or {}
        return (t.ctl.selected, t.ctl.cursor_layer, tuple(info.get("key") or ()), info.get("safe"))

    def build(self, t: Table, L: Layout) -> None:
        hud, lh, rw = t.hud, L.lh, L.rw
        rx = L.W - rw - 8
        for text, swatches in legends(t):
            lines = hud.wrap(t.named(text), rw - 16)[:4]
            y0 = L.ry
            # the swatches wrap onto more rows rather than run out of the column
            rows: list[list] = [[]]
            x = rx + 8
            for label, col in swatches:
                w = 14 + 4 + hud.width(label) + 10
                if rows[-1] and x + w > rx + rw - 8:
                    rows.append([])
                    x = rx + 8
                rows[-1].append((x, label, col))
                x += w
            h = len(lines) * lh + len(rows) * (lh + 2) + 8
            hud.box(rx, y0, rx + rw, y0 + h, H.BG)
            hud.block(rx, y0, rx + rw, y0 + h, "legend")
            yy = y0 + 4
            for line in lines:
                hud.text(rx + 8, yy, line, H.FG, max_w=rw - 16)
                yy += lh
            for row in rows:
                for x, label, col in row:
                    hud.box(x - 1, yy + 1, x + 15, yy + lh - 1, (150, 150, 160, 255))    # a dark swatch stays seen
                    hud.box(x, yy + 2, x + 14, yy + lh - 2, (col[0], col[1], col[2], 255))
                    hud.text(x + 18, yy, label, H.FG)
                yy += lh + 2
            L.ry = y0 + h + 6
