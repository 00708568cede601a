"""Whose view the screen shows (issue 40, the shape: split off the window): the game master's -- everything -- or
one side's (F3), that view's one player filter (:func:`engine.app.viewstate.player_filter`, kept per rules state),
and the hotseat: a question for a character of another side while one side's view is up passes the screen to the
chooser's side, and back once it is answered.

The side itself is the view state's ``player_side`` (the window's, its players' screen's, a test's): a seat only
keeps what goes with it, and changes the controller never."""

from __future__ import annotations

from typing import Any, Callable

from engine.app.viewstate import PlayerFilter, ViewState, player_filter


class Seats:
    def __init__(self, vstate: ViewState) -> None:
        self.vstate = vstate
        self.prev: Any = None                   # F3 view to return to once a question for another side is answered
        self.cache: dict = {}                   # the player filters, by rules state

    def view(self, ctl) -> PlayerFilter:
        """The one filter of what the side on screen may see (the GM: everything)."""
        v = self.vstate
        return player_filter(ctl.session, v.player_side, ctl.state_version, self.cache, v.reveal_hp, v.hidden)

    def hotseat(self, ctl, say: Callable[..., Any]) -> None:
        """A question for a character of another side while the players' view (F3) shows one side: the screen
        passes to the chooser's side for the answer, and back afterwards."""
        qv = ctl.question_view()
        if qv is not None and self.vstate.player_side is not None and qv["side"] != self.vstate.player_side:
            if self.prev is None:
                self.prev = self.vstate.player_side
            self.vstate.player_side = qv["side"]
            say(f"pass the screen to side {qv['side']}: {qv['label']} chooses", toast=False)
        elif qv is None and self.prev is not None:
            self.vstate.player_side, self.prev = self.prev, None

    def cycle(self, ctl, say: Callable[..., Any]) -> None:
        """F3: the next side's view, then the GM's."""
        sides = list(dict.fromkeys(a.side for a in ctl.state.actors.values()))
        side = self.vstate.player_side
        if side is None:
            side = sides[0] if sides else None
        else:
            i = sides.index(side) if side in sides else -1
            side = sides[i + 1] if i + 1 < len(sides) else None
        self.vstate.player_side = side
        if side is None:
            say("F3: game master's view (everything)")
        else:
            n = len(self.view(ctl).seen or ())
            say(f"F3: player view of side {side}: {n} of {len(ctl.state.actors)} characters "
                f"seen by true 3D sight lines (F3: next side)")
