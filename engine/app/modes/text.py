"""One text-entry mode; its kinds are the die roll (R), the GM's command line (;) and the GM's stated effect of a
composed action (E, ``Controller.statement``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyglet.window import key

from engine.app import intents as I
from engine.app import statement
from engine.app.gmtext import USAGE as GM_HELP     # the GM line's grammar, said where it is parsed
from engine.app.modes.base import POP, Mode

if TYPE_CHECKING:
    from engine.app.table import Table


class TextEntry(Mode):
    """A line typed at the bottom. ``opener``: the key's own character, which arrives as text right after the key
    press that opened the line (it is not part of the line)."""

    KINDS = {"roll": "r", "gm": ";", "statement": "e", "save as": "\0"}

    def __init__(self, kind: str) -> None:
        assert kind in self.KINDS, kind
        self.kind = kind
        self.name = f"text:{kind}"
        self.text = ""
        self.skip = True

    def on_text(self, t: Table, text: str):
        if self.skip:
            self.skip = False
            if text.lower() == self.KINDS[self.kind]:
                return None
        if text.isprintable() and text not in "\r\n":
            self.text += text
            t.changed()
        return None

    def on_key(self, t: Table, symbol: int, modifiers: int):
        if symbol == key.F12:                 # a screenshot of the line being typed
            return I.Screenshot()
        if symbol in (key.ENTER, key.RETURN):
            return self.enter_line(t)
        elif symbol == key.ESCAPE:
            if self.kind == "statement":
                t.ctl.statement = None
                t.say("the GM's statement was put aside")
            return POP
        elif symbol == key.BACKSPACE:
            self.text = self.text[:-1]
        return None

    def enter_line(self, t: Table):
        text, self.text = self.text, ""
        if self.kind == "roll":
            t.ctl.enter_roll(text)
            return POP
        if self.kind == "save as":
            return POP, I.SaveAs(text)
        if self.kind == "gm":
            return POP, I.GmCommand(text)
        return I.Do(statement.enter, (t.ctl, text))    # the next open word, or done (the window's sync pops this)

    def status(self, t: Table):
        if self.kind == "roll":
            return f"die result for the next action (e.g. attack 17; 'clear'): {self.text}_", "info"
        if self.kind == "statement":
            return f"{statement.prompt(t.ctl)}: {self.text}_   (Enter: next, Esc: put it aside)", "info"
        if self.kind == "save as":
            return f"save as (a name; .save.json is added): {self.text}_   (Enter: save, Esc: cancel)", "info"
        return f"GM: {self.text}_   ({GM_HELP})", "info"

    def key(self) -> tuple:
        return (self.name, self.text)
