"""Distances on screen in metres or in feet (issue 23 item 8): a view option, display only -- the rules stay
metric. The documents' grid is 5e's: a 1.5 m square is 5 ft (docs/rules.md, the 5e seed's "1,5 m"), so a
distance in feet is ``m / 1.5 * 5``: 9 m -> 30 ft, 18 m -> 60 ft, 21.5 m -> 71.7 ft.

The window's texts are written in metres once, by the panels, the previews, the ruler and the template; the HUD
layer turns every "N m" into feet as it draws when the view state says so (:func:`show`), so no text on screen
is left in metres and no panel needs a second wording."""

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


def parse(text: str) -> str:
    """``--units`` on the command line: "m" or "ft" (ValueError otherwise, with the choices)."""
    t = text.strip().lower()
    t = {"metres": "m", "meters": "m", "feet": "ft", "foot": "ft"}.get(t, t)
    if t not in UNITS:
        raise ValueError(f"units: {text!r} is not one of m, ft")
    return t
