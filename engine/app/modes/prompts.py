"""The yes / no prompt and Ctrl+O's file chooser."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from pyglet.window import key

from engine.app import files
from engine.app.modes.base import POP, Mode, Replace


class YesNo(Mode):
    """A question waiting for Y (Enter) or N (Esc); nothing else happens meanwhile."""

    name = "yes/no"
    modal = True

    def __init__(self, text: str, yes: Callable[[], None], no: Callable[[], None] | None = None,
                 save_first: bool = False) -> None:
        self.text = text
        self.yes = yes
        self.no = no
        self.save_first = save_first          # S: save the game, then go on (issue 23 item 9)

    def hint(self) -> str:
        return "Y: yes      " + ("S: save first, then yes      " if self.save_first else "") + "N or Esc: no"

    def on_key(self, win, symbol: int, modifiers: int):
        if symbol in (key.Y, key.ENTER, key.RETURN):
            win.modes.remove(win, self)
            self.yes()
        elif symbol == key.S and self.save_first:
            win.modes.remove(win, self)
            files.save(win)
            self.yes()
        elif symbol in (key.N, key.ESCAPE):
            win.modes.remove(win, self)
            if self.no is not None:
                self.no()
            win.say("kept the game as it is")
        return None

    def on_text(self, win, text: str):
        return None

    def key(self) -> tuple:
        return (self.name, self.text)


class Chooser(Mode):
    """Ctrl+O: a list of scenes and saves; Up/Down, Enter or a click, Esc."""

    name = "chooser"
    modal = True

    def __init__(self, paths: list[str], labels: list[str] | None = None) -> None:
        self.paths = paths
        self.labels = labels or [Path(p).name for p in paths]
        self.i = 0

    def view(self) -> dict:
        return {"paths": self.paths, "i": self.i, "labels": self.labels}

    def on_key(self, win, symbol: int, modifiers: int):
        if symbol in (key.UP, key.DOWN):
            self.i = (self.i + (1 if symbol == key.DOWN else -1)) % max(len(self.paths), 1)
        elif symbol in (key.ENTER, key.RETURN):
            return self.choose(win)
        elif symbol == key.ESCAPE:
            return POP
        return None

    def on_text(self, win, text: str):
        return None

    def choose(self, win):
        """The highlighted entry: opened, or -- when work would be lost -- a yes / no prompt first."""
        if not self.paths:
            return POP
        path = Path(self.paths[self.i % len(self.paths)])
        lost = files.unsaved(win)
        if lost:
            win.say(f"Ctrl+O: {lost} would be lost - Y opens {path.name}, S saves first, N keeps the game", toast=False)
            return Replace(YesNo(f"Open {path.name}? {lost} will be lost.", lambda: files.open_path(win, path),
                                 save_first=True))
        win.modes.remove(win, self)
        files.open_path(win, path)
        return None

    def key(self) -> tuple:
        return (self.name, tuple(self.paths), self.i)


def open_chooser(win) -> None:
    """Ctrl+O: a picker of the saves and scenes around (the default save first)."""
    out = files.openable(win.scene)
    if not out:
        win.say("Ctrl+O: no scene or saved game here", "error")
        return
    win.modes.push(win, Chooser([str(p) for p in out], [files.label(p) for p in out]))
    win.say("Ctrl+O: choose a scene or a saved game (Up/Down, Enter; Esc: cancel)", toast=False)


def open_chosen(win) -> None:
    """Choose the chooser's highlighted entry (a click on a row, or a script)."""
    ch = win.modes.find(Chooser)
    if ch is not None:
        win.modes.apply(win, ch, ch.choose(win))
