"""What a section is handed instead of the window (issue 40, "the shape"): a typed, read-only table of what the
panels show -- the controller (its queries: a section never changes it), the view state, the HUD layers, the
camera, the workers, the frame's size, the modes whose panels are drawn -- and one :class:`Drawn` record where a
section leaves what it laid out (the panels' title bars, the log's rows) for the window to keep.

A click, a drop or the wheel on a section changes nothing itself: the handler returns an intent
(:mod:`engine.app.intents`, the modes' own) and the window performs it (:func:`engine.app.perform.perform`, the
one place). The table is made by :func:`engine.app.panels.table` for each call; nothing here imports the window,
the mirror or a mode."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from engine.app.camera_control import CameraControl
from engine.app.controller import Controller
from engine.app.hud import Hud
from engine.app.jobs import Workers
from engine.app.viewstate import PlayerFilter, ViewState


@dataclass
class Drawn:
    """What the sections laid out in one build, kept by the window afterwards (its test state reads them);
    None: left as it was (a section not drawn this time)."""

    panels: dict = field(default_factory=dict)      # {name: (x0, y0, x1, y1[, colour])} of the panels' title bars
    panel_rows: dict | None = None                   # {"turn": [row text, ...]}
    log_view: dict | None = None                     # the event log's first / last row, scroll, area
    banner_box: list | None = None                   # where the step's caption went
    log_scroll: int | None = None                    # the log's scroll, kept within its lines


@dataclass(frozen=True)
class Table:
    """The window's parts a section reads. ``player_view``, ``name``, ``named`` and ``status`` are the window's
    own answers (the one player filter; ids to names; the top mode's message line)."""

    ctl: Controller
    vstate: ViewState
    hud: Hud
    big: Hud                              # the big captions' layer
    scene: Any
    camctl: CameraControl
    jobs: Workers
    size: tuple[int, int]                 # the framebuffer's, pixels
    mouse: tuple[float, float]            # top-left origin
    player_view: Callable[[], PlayerFilter]
    name: Callable[[Any], str]
    named: Callable[[str], str]
    status: Callable[[], tuple[str, str] | None]
    help_rows: Callable[[], list]         # F1's rows (the main mode's key map)
    hud_state: Any = None                 # the rules state the panels show (the one before an animated step)
    compact: bool = False                 # panels folded (F2, a small window)
    players_screen: bool = False          # F4's second window: it only shows
    anims: Sequence = ()
    toast: tuple | None = None            # (text, until, kind)
    log_lines: Sequence = ()
    log_view: Mapping = field(default_factory=dict)
    token_boxes: Mapping = field(default_factory=dict)
    volume_info: Mapping | None = None
    outlook: Any = None                   # how does this end? (engine/app/outlook.py), once asked
    serve_qr: bool = False
    serve_lines: tuple = ()
    compendium: Any = None                # the modes whose panels are drawn, when up (None: not)
    chooser: Any = None
    yesno: Any = None
    tokenhud: Any = None
    drawn: Drawn = field(default_factory=Drawn)
