"""A player's choice the rules ask for (``Controller.question``): 1-9 or a click answers, Up/Down and Enter take
the highlighted option, Esc puts the action aside. Pushed and removed by the window as the controller's question
comes and goes (:func:`sync`)."""

from __future__ import annotations

from pyglet.window import key

from engine.app import questions
from engine.app.modes.base import PASS, Mode
from engine.app.modes.text import TextEntry


class Question(Mode):
    name = "question"
    modal = True

    def on_key(self, win, symbol: int, modifiers: int):
        if modifiers & (key.MOD_CTRL | key.MOD_COMMAND):
            return PASS                      # Ctrl+Z and the others still work under a question
        ctl = win.ctl
        n = len(ctl.question["point"].options)
        d = ((symbol - key._1) if key._1 <= symbol <= key._9 else
             (symbol - key.NUM_1) if key.NUM_1 <= symbol <= key.NUM_9 else -1)
        if 0 <= d < n:
            win.do(ctl.answer, d)
        elif symbol in (key.ENTER, key.RETURN):
            win.do(ctl.answer)
        elif symbol in (key.UP, key.DOWN):
            questions.move_pick(ctl, 1 if symbol == key.DOWN else -1)
        elif symbol == key.ESCAPE:
            questions.drop(ctl)
            win.hotseat()
        elif symbol == key.F12:
            win.shot_pending = True
        return None

    def key(self) -> tuple:
        return (self.name,)


def sync(win) -> None:
    """The modes that follow the controller: a question while it asks one, the GM's statement while it waits
    for one."""
    ctl = win.ctl
    q = win.modes.find(Question)
    if ctl.question is not None and q is None:
        win.modes.push(win, Question())
    elif ctl.question is None and q is not None:
        win.modes.remove(win, q)
    if ctl.statement is None:
        for m in [m for m in win.modes.modes if isinstance(m, TextEntry) and m.kind == "statement"]:
            win.modes.remove(win, m)
