"""A right click on a character opens its token HUD (issue 23 item 9, what a Foundry GM reaches for): its HP
(-5, -1, +1, +5; a number typed and Enter sets it exactly; the last table roll applied as damage or healing,
issue 40 item 8), its conditions (a click toggles one), hide it from the players' view, remove it. Each change
is an ordinary recorded GM action (``gm_set``, ``gm_condition``, ``gm_remove``); hiding is the GM's screen
choice (the view state), not a rule. Esc or a click on the map closes it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyglet.window import key

from engine.app import intents as I
from engine.app.modes.base import PASS, POP, Mode

if TYPE_CHECKING:
    from engine.app.table import Table


class TokenHud(Mode):
    name = "token hud"

    def __init__(self, cid: str) -> None:
        self.cid = cid
        self.typed = ""                  # digits typed: the exact HP Enter sets

    def on_key(self, t: Table, symbol: int, modifiers: int):
        if symbol == key.ESCAPE:
            return POP
        if symbol == key.BACKSPACE and self.typed:
            self.typed = self.typed[:-1]
            return None
        if symbol in (key.ENTER, key.RETURN) and self.typed:
            value, self.typed = int(self.typed), ""
            return None if act(t, self.cid, "set", value) else POP
        if key._0 <= symbol <= key._9 or key.NUM_0 <= symbol <= key.NUM_9:
            return None                  # the digit comes as text (on_text): not the action hotkeys under it
        return PASS

    def on_text(self, t: Table, text: str):
        if text.isdigit() and len(self.typed) < 4:
            self.typed += text
            return None
        return PASS

    def on_click(self, t: Table, hit):
        return POP                       # a click on the map closes it

    def key(self) -> tuple:
        return (self.name, self.cid, self.typed)


def act(t: Table, cid: str, what: str, val) -> bool:
    """One button of the HUD: False when the HUD should close (the character is gone)."""
    a = t.ctl.state.actors.get(cid)
    if a is None:
        return False
    if what in ("hp", "set"):       # a step (-5 .. +5, the last roll as damage or healing) or an exact value
        value = int(val) if what == "set" else a.hp + int(val)
        t.perform(I.GmStep({"actor": "gm", "action": "gm_set", "target": cid, "key": "hp",
                              "value": int(min(max(value, 0), a.max_hp))}))
    elif what == "cond":
        op = "remove" if val in a.conditions else "add"
        t.perform(I.GmStep({"actor": "gm", "action": "gm_condition", "target": cid, op: val}))
    elif what == "hide":
        hidden = set(t.vstate.hidden)
        hidden ^= {cid}
        t.vstate.hidden = frozenset(hidden)
        t.say(f"{t.name(cid)} is {'hidden from' if cid in hidden else 'shown in'} the players' view")
    elif what == "remove":
        t.perform(I.GmStep({"actor": "gm", "action": "gm_remove", "target": cid}))
        return False
    return True


def last_roll(session) -> int | None:
    """The total of the GM's last table roll (``;roll``), or None: what "damage" / "heal" apply."""
    for e in reversed(session.events):
        if e.get("type") == "table_roll" and isinstance(e.get("total"), int):
            return e["total"]
    return None


def open_at(t: Table, hit) -> bool:
    """A right click without a drag: the HUD of the character under the cursor (True when there was one)."""
    if hit["char"] is None:
        return False
    old = t.modes.find(TokenHud)
    if old is not None:
        t.modes.remove(t, old)
    t.modes.push(t, TokenHud(hit["char"].char))
    return True
