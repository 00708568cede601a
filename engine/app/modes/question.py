"""A player's choice the rules ask for (``Controller.question``): 1-9 or a click answers, Up/Down and Enter take
the highlighted option, Esc puts the action aside. Pushed and removed by the window as the controller's question
comes and goes (:func:`sync`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyglet.window import key

from engine.app import intents as I
from engine.app import questions
from engine.app.modes.base import PASS, Mode
from engine.app.modes.text import TextEntry

if TYPE_CHECKING:
    from engine.app.table import Table


class Question(Mode):
    name = "question"
    modal = True

    def on_key(self, t: Table, symbol: int, modifiers: int):
        if modifiers & (key.MOD_CTRL | key.MOD_COMMAND):
            return PASS                      # Ctrl+Z and the others still work under a question
        ctl = t.ctl
        q = ctl.question
        assert q is not None, "the question mode is up only while the controller asks"
        n = len(q["point"].options)
        d = ((symbol - key._1) if key._1 <= symbol <= key._9 else
             (symbol - key.NUM_1) if key.NUM_1 <= symbol <= key.NUM_9 else -1)
        if 0 <= d < n:
            return I.Do(ctl.answer, (d,))
        if symbol in (key.ENTER, key.RETURN):
            return I.Do(ctl.answer)
        if symbol in (key.UP, key.DOWN):
            questions.move_pick(ctl, 1 if symbol == key.DOWN else -1)
        elif symbol == key.ESCAPE:
            questions.drop(ctl)
            return I.Hotseat()
        elif symbol == key.F12:
            return I.Screenshot()
        return None

    def key(self) -> tuple:
        return (self.name,)


def sync(t: Table) -> None:
    """The modes that follow the controller: a question while it asks one, the GM's statement while it waits
    for one."""
    ctl = t.ctl
    q = t.modes.find(Question)
    if ctl.question is not None and q is None:
        t.modes.push(t, Question())
    elif ctl.question is None and q is not None:
        t.modes.remove(t, q)
    if ctl.statement is None:
        for m in [m for m in t.modes.modes if isinstance(m, TextEntry) and m.kind == "statement"]:
            t.modes.remove(t, m)
