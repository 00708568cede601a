"""Distances on screen in metres or in feet (issue 23 item 8): a view option, display only -- the rules stay
metric. The documents' grid is 5e's: a 1.5 m square is 5 ft (docs/rules.md, the 5e seed's "1,5 m"), so a
distance in feet is ``m / 1.5 * 5``: 9 m -> 30 ft, 18 m -> 60 ft, 21.5 m -> 71.7 ft.

The window's texts are written in metres once, by the panels, the previews, the ruler and the template; the HUD
layer turns every "N m" into feet as it draws when the view state says so (:func:`show`), so no text on screen
is left in metres and no panel needs a second wording. The renderer's own labels (the 3D tags of ``aerie render``'s
overlays, its HUD lines) go through the same :func:`show`: the unit is view data, ``DrawOptions.units``.

Which unit a window or a still starts with: ``--units`` where given, else the scene's ``[view] units``, else its
ruleset's (``RulesetInfo.extra["units"]``; none sets it: both documents write metres, the 5e one "1,5 m")
(:func:`scene_units`). Lives outside engine/app so engine/render reads it too."""

from __future__ import annotations

import re

FT_PER_M = 5.0 / 1.5
UNITS = ("m", "ft")

_M = re.compile(r"(?<![\w.])(-?\d+(?:\.\d+)?) m\b")


def feet(m: float) -> str:
    """A distance in metres as feet, to a tenth where it is not whole ("30", "71.7")."""
    f = round(float(m) * FT_PER_M, 1)
    return f"{f:g}" if abs(f) < 1e6 else f"{f:.0f}"


def show(text: str, units: str) -> str:
    """``text`` as it is shown: every "N m" in feet when ``units`` is "ft" (idempotent: feet stay feet)."""
    if units != "ft" or " m" not in text:
        return text
    return _M.sub(lambda m: f"{feet(float(m.group(1)))} ft", text)


def scene_units(scene) -> str:
    """The unit a scene is shown in: its ``[view] units``, else its ruleset's default, else metres."""
    view = getattr(scene, "view", None)
    if view is not None and view.units:
        return view.units
    from engine.errors import AerieError
    from engine.rules import registry

    try:
        u = registry.info(scene.ruleset).extra.get("units", "m")
    except AerieError:                   # an unregistered ruleset shows metres
        return "m"
    return u if u in UNITS else "m"


def parse(text: str) -> str:
    """``--units`` on the command line: "m" or "ft" (ValueError otherwise, with the choices)."""
    t = text.strip().lower()
    t = {"metres": "m", "meters": "m", "feet": "ft", "foot": "ft"}.get(t, t)
    if t not in UNITS:
        raise ValueError(f"units: {text!r} is not one of m, ft")
    return t
