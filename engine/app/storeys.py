"""The storey control (issue 27): the cut heights a GM steps through to look into one storey with the roof and the
storeys above it cut away (as Foundry's Levels' slider). Pure: the window applies the chosen cut to its renderer
(``Renderer.set_cut_above``) and its picker; the view state records it (``ViewState.cut_above``)."""

from __future__ import annotations


def cuts(world) -> list[int | None]:
    """The cut heights, lowest storey first, None (everything) last. An imported map's storeys are its floor
    images' layers: storey i shows up to the layer under storey i+1's floor, so its ceiling slab is gone too.
    A map without storey floors is cut layer by layer."""
    Z = int(world.size[2])
    layers = {int(z) for z, _ in getattr(world, "floor_images", ()) or ()}
    floors = sorted(layers | {0})            # the ground storey stands on layer 0 (its image may be the ground's)
    if layers and len(floors) >= 2:
        out: list[int | None] = [max(0, f - 1) for f in floors[1:]]
    else:
        out = list(range(Z - 1))
    return out + [None]


def step(world, cut: int | None, d: int) -> int | None:
    """The next cut down (d=-1) or up (d=+1) from ``cut``; it stops at the lowest storey and at 'all'."""
    cs = cuts(world)
    if cut in cs:
        i = cs.index(cut)
    else:                            # a cut not on the list (a resized map): the nearest storey at or above it
        i = next((k for k, c in enumerate(cs) if c is None or (cut is not None and c >= cut)), len(cs) - 1)
    return cs[max(0, min(len(cs) - 1, i + d))]


def label(world, cut: int | None) -> str:
    """The section's line: 'storey: all' or 'storey 1 of 2: layers 0..5'."""
    cs = cuts(world)
    if cut is None:
        return "storey: all (, cuts down a storey)"
    n = cs.index(cut) + 1 if cut in cs else 0
    return f"storey {n} of {len(cs)}: layers 0..{cut} (, down, . up)"


def apply_cut(win, picker_class) -> None:
    """The storey cut the view state asks for (, and .), on the window's renderer and picker: a click lands on the
    highest voxel still shown, so on the storey the GM looks into (``picker_class``: the window's, engine/app/picking)."""
    cut = win.vstate.cut_above
    if cut is not None and not 0 <= cut < int(win.renderer.full_world.size[2]) - 1:
        win.vstate.cut_above = cut = None        # a cut the map no longer has (not one the keys step to): all
    if cut != win.renderer.cut_above:
        win.renderer.set_cut_above(cut)
        win.picker = picker_class(win.renderer.world)
        win.rs_cache = None
        win.ov_cache.clear()
