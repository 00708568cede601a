"""A right click on a character opens its token HUD (issue 23 item 9, what a Foundry GM reaches for): its HP
(-5, -1, +1, +5), its conditions (a click toggles one), hide it from the players' view, remove it. Each change
is an ordinary recorded GM action (``gm_set``, ``gm_condition``, ``gm_remove``); hiding is the GM's screen
choice (the view state), not a rule. Esc or a click on the map closes it."""

from __future__ import annotations

from pyglet.window import key

from engine.app.modes.base import PASS, POP, Mode


class TokenHud(Mode):
    name = "token hud"

    def __init__(self, cid: str) -> None:
        self.cid = cid

    def on_key(self, win, symbol: int, modifiers: int):
        return POP if symbol == key.ESCAPE else PASS

    def on_click(self, win, hit):
        return POP                       # a click on the map closes it

    def key(self) -> tuple:
        return (self.name, self.cid)


def act(win, cid: str, what: str, val) -> bool:
    """One button of the HUD: False when the HUD should close (the character is gone)."""
    from engine.app.gmtable import gm_step

    a = win.ctl.state.actors.get(cid)
    if a is None:
        return False
    if what == "hp":
        gm_step(win, {"actor": "gm", "action": "gm_set", "target": cid, "key": "hp",
                      "value": int(min(max(a.hp + int(val), 0), a.max_hp))})
    elif what == "cond":
        op = "remove" if val in a.conditions else "add"
        gm_step(win, {"actor": "gm", "action": "gm_condition", "target": cid, op: val})
    elif what == "hide":
        hidden = set(win.vstate.hidden)
        hidden ^= {cid}
        win.vstate.hidden = frozenset(hidden)
        win.say(f"{win.name(cid)} is {'hidden from' if cid in hidden else 'shown in'} the players' view")
    elif what == "remove":
        gm_step(win, {"actor": "gm", "action": "gm_remove", "target": cid})
        return False
    return True


def open_at(win, hit) -> bool:
    """A right click without a drag: the HUD of the character under the cursor (True when there was one)."""
    if hit["char"] is None:
        return False
    old = win.modes.find(TokenHud)
    if old is not None:
        win.modes.remove(win, old)
    win.modes.push(win, TokenHud(hit["char"].char))
    return True
