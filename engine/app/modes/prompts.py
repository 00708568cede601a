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

    def __init__(self, text: str, yes: Callable[[], None], no: Callable[[], None] | None = None) -> None:
        self.text = text
        self.yes = yes
        self.no = no

    def hint(self) -> str:
        return "Y: yes      N or Esc: no"

    def on_key(self, win, symbol: int, modifiers: int):
        if symbol in (key.Y, key.ENTER, key.RETURN):
            win.modes.remove(win, self)
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


class SaveFirst(YesNo):
    """Work would be dropped (quit, the window closed, ``;start``, Ctrl+O opening another game): "save first? (y)es
    / (n)o / (c)ancel" -- Y (Enter, or S as Ctrl+O's prompt had it) saves, then goes on; N goes on without saving;
    C or Esc keeps the window as it is (issue 23 item 9). ``opens``: the file Ctrl+O would open; when it is the
    very file the save writes, Y does not save over it (that would open the game as it is, not the one chosen)."""

    name = "save first"

    def __init__(self, what: str, lost: str, proceed: Callable[[], None], opens: Path | None = None) -> None:
        super().__init__(f"{what}: {lost} not saved. Save first? (y)es / (n)o / (c)ancel", proceed)
        self.what = what
        self.opens = opens

    def hint(self) -> str:
        return f"Y or S: save first, then {self.what}      N: {self.what} without saving      C or Esc: cancel"

    def on_key(self, win, symbol: int, modifiers: int):
        if symbol in (key.Y, key.S, key.ENTER, key.RETURN):
            win.modes.remove(win, self)
            if self.opens is not None and Path(self.opens).resolve() == files.save_target(win).resolve():
                win.say(f"not saved: saving would overwrite {Path(self.opens).name}, the game being opened")
                self.yes()
                return None
            try:
                files.save(win)
            except Exception as e:   # noqa: BLE001 - a save refused keeps the window and says why
                win.say(f"not saved, so not {self.what}: {e}", "error")
                return None
            self.yes()
        elif symbol == key.N:
            win.modes.remove(win, self)
            self.yes()
        elif symbol in (key.C, key.ESCAPE):
            win.modes.remove(win, self)
            win.say(f"{self.what}: cancelled, the game is as it was")
        return None


def save_first(win, what: str, proceed: Callable[[], None]) -> None:
    """``proceed`` at once when nothing would be lost, else after the save-first prompt."""
    lost = files.unsaved(win)
    if not lost or win.modes.find(SaveFirst) is not None:
        proceed()
        return
    win.modes.push(win, SaveFirst(what, lost, proceed))
    win.say(f"{what}: {lost} not saved - Y saves first, N drops it, C keeps the window", toast=False)


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

    def on_key(self, win, symbol: int, modifiers: int):
        if symbol in (key.UP, key.DOWN):
            self.i = (self.i + (1 if symbol == key.DOWN else -1)) % max(len(self.paths), 1)
        elif symbol in (key.ENTER, key.RETURN):
            return self.choose(win)
        elif symbol == key.ESCAPE:
            return POP
        elif symbol == key.BACKSPACE and self.query:
            self.filter(self.query[:-1])
        return None

    def on_text(self, win, text: str):
        if text and text.isprintable():
            self.filter(self.query + text)
        return None

    def choose(self, win):
        """The highlighted entry: opened, or -- when work would be lost -- the save-first prompt first."""
        if not self.paths:
            return POP
        path = Path(self.paths[self.i % len(self.paths)])
        lost = files.unsaved(win)
        if lost:
            win.say(f"Ctrl+O: {lost} not saved - Y saves first, N opens {path.name} without saving, C keeps the game",
                    toast=False)
            return Replace(SaveFirst(f"open {path.name}", lost, lambda: files.open_path(win, path), opens=path))
        win.modes.remove(win, self)
        files.open_path(win, path)
        return None

    def key(self) -> tuple:
        return (self.name, tuple(self.paths), self.i, self.query)


def open_chooser(win) -> None:
    """Ctrl+O: a picker of the saves and scenes around (the default save first)."""
    out = files.openable(win.scene)
    if not out:
        win.say("Ctrl+O: no scene or saved game here", "error")
        return
    win.modes.push(win, Chooser([str(p) for p in out], [files.label(p) for p in out]))
    win.say("Ctrl+O: choose a scene or a saved game (type to filter; Up/Down, Enter; Esc: cancel)", toast=False)


def open_chosen(win) -> None:
    """Choose the chooser's highlighted entry (a click on a row, or a script)."""
    ch = win.modes.find(Chooser)
    if ch is not None:
        win.modes.apply(win, ch, ch.choose(win))
