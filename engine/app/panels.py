"""The window's side of its panels (engine/app/sections): the table each section is handed (:func:`table`), what
the sections laid out kept on the window (:func:`absorb`); what a click, a drop or the wheel on a panel asks for
is done where every intent is (:func:`engine.app.perform.perform`). :class:`Panels` is the window's ``sections``:
the calls the window makes with itself, passed on to the sections with a table."""

from __future__ import annotations

from typing import Any, Callable

from engine.app.intents import Intent
from engine.app.modes.compendium import Compendium
from engine.app.modes.prompts import Chooser, YesNo
from engine.app.modes.tokenhud import TokenHud
from engine.app.perform import perform
from engine.app.sections.base import Layout, Section, SectionManager
from engine.app.sections.context import Drawn, Table
from engine.app.twowindows import players_screen


def table(win, help_rows: Callable[[], list] = list) -> Table:
    """The table of ``win`` as its panels see it now. A fake window (the tests') may leave out what the sections
    it drives do not read: the big layer, the animations, the toast, the log, the serve links..."""
    modes = win.modes

    def part(name: str) -> Any:
        return getattr(win, name, None)

    return Table(
        ctl=win.ctl, vstate=win.vstate, hud=part("hud"), big=part("big"), scene=win.scene,
        camctl=part("camctl"), jobs=part("jobs"),
        size=tuple(getattr(win, "size_px", (0, 0))), mouse=tuple(getattr(win, "mouse", (0, 0))),
        player_view=part("player_view"), name=win.name, named=win.named,
        status=lambda: modes.status(win.table), help_rows=help_rows,
        hud_state=win.hud_state() if hasattr(win, "hud_state") else win.ctl.state,
        compact=win.compact() if hasattr(win, "compact") else False,
        players_screen=players_screen(win), anims=getattr(win, "anims", ()), toast=getattr(win, "toast", None),
        log_lines=getattr(win, "log_lines", ()), log_view=getattr(win, "log_view", {}),
        token_boxes=getattr(win, "token_boxes", {}), volume_info=part("volume_info"),
        outlook=part("outlook"), serve_qr=bool(getattr(win, "serve_qr", False)),
        serve_lines=tuple(getattr(win, "serve_lines", ())),
        compendium=modes.find(Compendium), chooser=modes.find(Chooser), yesno=modes.find(YesNo),
        tokenhud=modes.find(TokenHud))


def absorb(win, drawn: Drawn) -> None:
    """What the sections laid out, kept on the window (its test state reads them; the log's wheel its area)."""
    if not hasattr(win, "panels"):
        win.panels = {}
    win.panels.update(drawn.panels)
    for name in ("panel_rows", "log_view", "banner_box"):
        if getattr(drawn, name) is not None:
            setattr(win, name, getattr(drawn, name))
    if drawn.log_scroll is not None:
        win.vstate.log_scroll = drawn.log_scroll


def _perform(win, intent: Intent | None) -> None:
    """What a panel asked for (None: nothing), done by the one performer of every intent."""
    if intent is not None:
        perform(win, intent)


class Panels:
    """The window's panels: each call builds the table, the sections answer, the window does what they ask."""

    def __init__(self, sections: list[Section], help_rows: Callable[[], list] = list) -> None:
        self.manager = SectionManager(sections)
        self.help_rows = help_rows
        self.hud_key: tuple | None = None      # what the HUD was last built from (None: build it at the next draw)

    @property
    def sections(self) -> list[Section]:
        return self.manager.sections

    def table(self, win) -> Table:
        return table(win, self.help_rows)

    def key(self, win) -> tuple:
        return self.manager.key(self.table(win))

    def build(self, win, L: Layout) -> None:
        t = self.table(win)
        self.manager.build(t, L)
        absorb(win, t.drawn)

    def draw(self, win) -> None:
        """The window's HUD drawn, rebuilt first only when what its sections depend on changed."""
        ctl = win.ctl
        k = (ctl.version, ctl.msg_version, ctl.state_version, win.size_px, win.vstate.version, win.modes.key(),
             tuple(win.notes), win.jobs.key(), self.key(win))
        if k != self.hud_key or win.camctl.mode == "flythrough":
            self.hud_key = k
            self.rebuild(win)
        win.hud.draw(win.size_px)
        win.big.draw(win.size_px)

    def rebuild(self, win) -> None:
        """The HUD's layers built anew from the sections, at the window's size."""
        win.hud.begin()
        win.big.begin()
        pf = win.player_view()          # the player view: every text drawn passes its one filter
        win.hud.filter = win.big.filter = None if pf.gm else pf.shown
        win.panels = {}
        W, Hh = win.size_px
        small = win.compact()
        L = Layout(W, Hh, win.hud.line + 3, small, notes=list(win.notes), state=win.hud_state(),
                   rw=int(min(380, W * 0.28)) if not small else int(min(260, W * 0.4)), by=Hh)
        self.build(win, L)
        win.hud.upload()
        win.big.upload()

    def over(self, win, x: float, y: float) -> Any:
        return win.hud.over(x, y)

    def click(self, win, x: float, y: float) -> bool:
        took, intent = self.manager.click(self.table(win), x, y)
        _perform(win, intent)
        return took

    def drop(self, win, start, end) -> bool:
        took, intent = self.manager.drop(self.table(win), start, end)
        _perform(win, intent)
        return took

    def scroll(self, win, x: float, y: float, scroll_y: float) -> bool:
        took, intent = self.manager.scroll(self.table(win), x, y, scroll_y)
        _perform(win, intent)
        return took
