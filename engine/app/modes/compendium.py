"""Ctrl+B: the GM's compendium (engine/app/compendium.py): typing searches (name, type, ``cr5``, ``flies``),
Backspace takes a letter back, Up/Down (PgUp/PgDn: a page) highlights, Tab: the next side for the new creature,
Enter puts the highlighted creature at the cursor (the nearest free cell for its size), its initiative rolled;
Esc closes. The cell cursor follows the mouse meanwhile (the mode is not modal: a click on the map sets it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyglet.window import key

from engine.app import compendium as C
from engine.app import intents as I
from engine.app.modes.base import PASS, POP, Mode

if TYPE_CHECKING:
    from engine.app.table import Table

PAGE = 10


class Compendium(Mode):
    name = "compendium"

    def __init__(self, items: list[C.Entry], sides: list[str] | None = None) -> None:
        self.all = items
        self.query = ""
        self.found = list(items)
        self.i = 0
        self.sides = list(sides or [])
        if "neutral" not in self.sides:
            self.sides.append("neutral")
        self.side_i = 0

    @property
    def side(self) -> str:
        return self.sides[self.side_i % len(self.sides)]

    @property
    def current(self) -> C.Entry | None:
        return self.found[self.i] if self.found else None

    def type(self, text: str) -> None:
        """The query becomes ``text``; the list is searched again, the first match highlighted."""
        self.query = text
        self.found = C.search(self.all, text)
        self.i = 0

    def view(self) -> dict:
        """What the tests read: the query, how many match, the highlighted one, the new creature's side."""
        e = self.current
        return {"query": self.query, "found": len(self.found), "of": len(self.all), "side": self.side,
                "current": None if e is None else {"how": e.how, "ref": e.ref, "name": e.name}}

    def on_key(self, t: Table, symbol: int, modifiers: int):
        if modifiers & (key.MOD_CTRL | key.MOD_COMMAND):
            return POP if symbol == key.B else PASS     # Ctrl+Z undoes an add with the compendium still open
        n = max(len(self.found), 1)
        if symbol in (key.UP, key.DOWN):
            self.i = (self.i + (1 if symbol == key.DOWN else -1)) % n
        elif symbol in (key.PAGEUP, key.PAGEDOWN):
            self.i = min(max(self.i + (PAGE if symbol == key.PAGEDOWN else -PAGE), 0), n - 1)
        elif symbol == key.BACKSPACE and self.query:
            self.type(self.query[:-1])
        elif symbol == key.TAB:
            self.side_i += 1
            t.say(f"compendium: the new creature's side is {self.side}", toast=False)
        elif symbol in (key.ENTER, key.RETURN):
            self.add(t)
        elif symbol == key.ESCAPE:
            t.say("compendium closed", toast=False)
            return POP
        elif symbol in (key.LEFT, key.RIGHT):
            return PASS                          # the cell cursor moves
        t.changed()
        return None

    def add(self, t: Table) -> None:
        """The highlighted creature at the cursor (``Mode.enter`` is the push hook: not this)."""
        e = self.current
        if e is None:
            t.say("compendium: nothing matches - Backspace takes a letter back", "error")
            return
        ctl, side = t.ctl, self.side
        t.perform(I.Do(lambda: C.put(ctl, e, side)))

    def on_text(self, t: Table, text: str):
        if text and text.isprintable() and text not in ("\r", "\n", "\t"):
            self.type(self.query + text)
            t.changed()
        return None

    def status(self, t: Table):
        n = len(self.found)
        return (f"compendium: {self.query or '(type to search: name, type, cr5, flies)'}_  {n} of {len(self.all)}"
                f" - Enter: add at the cursor as side {self.side} (Tab: side)  Esc: close", "info")

    def key(self) -> tuple:
        return (self.name, self.query, self.i, self.side_i, len(self.found))


def open_compendium(t: Table):
    """Ctrl+B: the compendium of the scene's ruleset (every library it has)."""
    from engine.errors import AerieError

    try:
        items = C.entries(t.scene)
    except AerieError as e:
        t.say(f"compendium: {e}", "error")
        return None
    sides = list(dict.fromkeys(a.side for a in t.ctl.state.actors.values()))
    t.say(f"Ctrl+B: the compendium, {len(items)} creatures - type to search (name, type, cr5, flies), "
          "Enter adds at the cursor, Esc closes", toast=False)
    return Compendium(items, sorted(sides))
