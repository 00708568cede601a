"""The yes / no prompt and Ctrl+O's file chooser. They ask; saving and opening are the window's (the intents
:class:`~engine.app.intents.SaveThen` and :class:`~engine.app.intents.OpenPath`, engine/app/perform.py)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyglet.window import key

from engine.app import intents as I
from engine.app.modes.base import POP, Mode

if TYPE_CHECKING:
    from engine.app.table import Table


class YesNo(Mode):
    """A question waiting for Y (Enter) or N (Esc); nothing else happens meanwhile. ``yes`` / ``no``: an intent,
    or a callable of the code outside the modes that asked."""

    name = "yes/no"
    modal = True

    def __init__(self, text: str, yes: I.Then, no: I.Then | None = None) -> None:
        self.text = text
        self.yes = yes
        self.no = no

    def hint(self) -> str:
        return "Y: yes      N or Esc: no"

    def on_key(self, t: Table, symbol: int, modifiers: int):
        if symbol in (key.Y, key.ENTER, key.RETURN):
            return POP, _then(self.yes)
        if symbol in (key.N, key.ESCAPE):
            return POP, _then(self.no), I.Say("kept the game as it is")
        return None

    def on_text(self, t: Table, text: str):
        return None

    def key(self) -> tuple:
        return (self.name, self.text)


def _then(what: I.Then | None) -> Any:
    """An answer's consequence as a handler's result: an intent as it is, a callable called in its turn."""
    if what is None or isinstance(what, I.Intent):
        return what
    return I.Call(what)


class SaveFirst(YesNo):
    """Work would be dropped (quit, the window closed, ``;start``, Ctrl+O opening another game): "save first? (y)es
    / (n)o / (c)ancel" -- Y (Enter, or S as Ctrl+O's prompt had it) saves, then goes on; N goes on without saving;
    C or Esc keeps the window as it is (issue 23 item 9). ``opens``: the file Ctrl+O would open; when it is the
    very file the save writes, Y does not save over it (that would open the game as it is, not the one chosen)."""

    name = "save first"

    def __init__(self, what: str, lost: str, proceed: I.Then, opens: Path | None = None) -> None:
        super().__init__(f"{what}: {lost} not saved. Save first? (y)es / (n)o / (c)ancel", proceed)
        self.what = what
        self.opens = opens

    def hint(self) -> str:
        return f"Y or S: save first, then {self.what}      N: {self.what} without saving      C or Esc: cancel"

    def on_key(self, t: Table, symbol: int, modifiers: int):
        if symbol in (key.Y, key.S, key.ENTER, key.RETURN):
            return POP, I.SaveThen(self.what, self.yes, self.opens)
        if symbol == key.N:
            return POP, _then(self.yes)
        if symbol in (key.C, key.ESCAPE):
            return POP, I.Say(f"{self.what}: cancelled, the game is as it was")
        return None


class Chooser(Mode):
    """Ctrl+O: a list of scenes and saves; typing filters it (by name and file: every word typed is in the entry's
    name or path), Backspace takes a letter back; Up/Down, Enter or a click, Esc."""

    name = "chooser"
    modal = True

    def __init__(self, paths: list[str], labels: list[str] | None = None) -> None:
        self.all_paths = list(paths)
        self.all_labels = list(labels or [Path(p).name for p in paths])
        self.query = ""
        self.paths, self.labels = list(self.all_paths), list(self.all_labels)
        self.i = 0

    def view(self) -> dict:
        return {"paths": self.paths, "i": self.i, "labels": self.labels, "query": self.query}

    def filter(self, query: str) -> None:
        """Only the entries whose name or file holds every word of ``query`` (any case)."""
        self.query = query
        words = query.lower().split()
        keep = [(p, lab) for p, lab in zip(self.all_paths, self.all_labels)
                if all(w in f"{lab} {Path(p).name}".lower() for w in words)]
        self.paths, self.labels = [p for p, _ in keep], [lab for _, lab in keep]
        self.i = 0

    def on_key(self, t: Table, symbol: int, modifiers: int):
        if symbol in (key.UP, key.DOWN):
            self.i = (self.i + (1 if symbol == key.DOWN else -1)) % max(len(self.paths), 1)
        elif symbol in (key.ENTER, key.RETURN):
            return self.choose(t)
        elif symbol == key.ESCAPE:
            return POP
        elif symbol == key.BACKSPACE and self.query:
            self.filter(self.query[:-1])
        return None

    def on_text(self, t: Table, text: str):
        if text and text.isprintable():
            self.filter(self.query + text)
        return None

    def choose(self, t: Table):
        """The highlighted entry: opened, or -- when work would be lost -- the save-first prompt first."""
        if not self.paths:
            return POP
        path = Path(self.paths[self.i % len(self.paths)])
        hint = f"Ctrl+O: {{lost}} not saved - Y saves first, N opens {path.name} without saving, C keeps the game"
        return POP, I.SaveFirst(f"open {path.name}", I.OpenPath(path), opens=path, hint=hint)

    def key(self) -> tuple:
        return (self.name, tuple(self.paths), self.i, self.query)


def open_chosen(t: Table) -> None:
    """Choose the chooser's highlighted entry (a click on a row, or a script)."""
    ch = t.modes.find(Chooser)
    if ch is not None:
        t.modes.apply(t, ch, ch.choose(t))
