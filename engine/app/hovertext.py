"""The hovered cell in words (the bottom bar): coordinates, layer, altitude, the material under / at it, who
stands there. Pure Python over the controller's scene and state."""

from __future__ import annotations


def who_at(state, x: int, y: int, layer: int) -> list[str]:
    """The characters whose footprint and height cover cell (x, y, layer)."""
    out = []
    for a in state.actors.values():
        if a.x <= x < a.x + a.footprint and a.y <= y < a.y + a.footprint and a.layer <= layer < a.layer + a.height_layers:
            out.append(a.id)
    return out


def cell_info(ctl, cell) -> str:
    """Hover text: coordinates, layer, altitude, the material under / at the cell, who stands there."""
    if cell is None:
        return ""
    x, y, layer = cell
    w = ctl.scene.world
    cm = w.cell_m
    bits = [f"cell ({x}, {y})  layer {layer}  ({x * cm:.1f} m E, {y * cm:.1f} m N, {layer} m up)"]
    here = w.at(x, y, layer)
    below = w.at(x, y, layer - 1)
    if here > 0:
        bits.append(f"inside {w.materials[here].name}")
    elif layer == 0:
        bits.append("on the ground")
    elif below > 0:
        bits.append(f"on {w.materials[below].name}")
    else:
        bits.append(f"in the air ({layer - w.support_layer(x, y, layer)} m above the surface)")
    who = who_at(ctl.state, x, y, layer) or who_at(ctl.state, x, y, max(layer - 1, 0))
    if who:
        bits.append("here: " + ", ".join(who))
    return "; ".join(bits)
