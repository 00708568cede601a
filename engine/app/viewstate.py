"""One view state: what the window shows besides the rules' state (overlays, folds, the player side, the ruler,
the area template, the log's scroll, the help), with a version counter. Every assignment bumps the version, so
the HUD and the 3D view's cache keys take one number instead of a hand-made list of fields; the dicts are
replaced, never changed in place, for the same reason (``toggle`` / ``set_overlay`` / ``set_ruler_end``).

The player view is one filter (:func:`player_filter`) of what a side may see, in this one place.
"""

from __future__ import annotations

from typing import Any

GM_LINES = ("table roll ", "GM ", "GM:")      # the log's lines of the GM's table rolls (engine/app/logtext.py)
OVERLAY_NAMES = ("grid", "engagement", "sightlines", "cover", "movement", "threat", "volume")


class ViewState:
    """The window's own choices; ``version`` counts every change."""

    version: int

    def __init__(self, overlays_on=()) -> None:
        object.__setattr__(self, "version", 0)
        self.on: dict[str, bool] = {n: (n in overlays_on) for n in OVERLAY_NAMES}
        self.fold = False                        # F2: side panels folded
        self.player_side: str | None = None      # F3: the side whose view is shown (None: the GM's, everything)
        self.ruler: dict | None = None           # U: {"a": point, "b": point}
        self.ruler_mode = False
        self.template: dict | None = None        # Y: {"shape", "size_m"}
        self.log_scroll = 0                      # lines scrolled back from the newest
        self.help = False
        self.volume_mode = "exposed"             # J: the 3D view's cells, "exposed" or "safe"
        self.reveal_hp = False                   # Shift+F3: the GM shows the players their enemies' exact health
        self.hidden: frozenset = frozenset()     # characters the GM hides from the players' view (token HUD)
        self.cut_above: int | None = None        # , and .: the storey cut (engine/app/storeys.py; None: everything)
        self.campath = None                      # Ctrl+P: the camera path's lines (engine/app/modes/campath.py)
        self.units = "m"                         # Ctrl+U / --units ft: distances shown in feet (engine/units.py)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self.__dict__ and self.__dict__[name] == value:
            return                   # the same value: nothing on screen changes, no redraw (aerie bench's idle frames)
        object.__setattr__(self, name, value)
        object.__setattr__(self, "version", self.version + 1)

    def toggle(self, name: str) -> bool:
        self.on = dict(self.on, **{name: not self.on[name]})
        return self.on[name]

    def set_overlay(self, name: str, on: bool) -> None:
        self.on = dict(self.on, **{name: bool(on)})

    def set_ruler_end(self, end: str, point: dict) -> None:
        self.ruler = dict(self.ruler or {}, **{end: point})

    def set_template_size(self, size_m: float) -> None:
        if self.template is not None:
            self.template = dict(self.template, size_m=size_m)


class PlayerFilter:
    """What one side may see (None: the GM, everything): the characters, the turn order's rows, the log's lines,
    the message and hover lines. Built once per rules state (the sight lines are the expensive part)."""

    def __init__(self, side: str | None, seen: set | None, hidden_names: list[str], reveal_hp: bool = False) -> None:
        self.side = side
        self.seen = seen
        self.hidden_names = hidden_names
        self.reveal_hp = reveal_hp

    @property
    def gm(self) -> bool:
        return self.side is None

    def shows(self, cid) -> bool:
        return self.seen is None or cid in self.seen

    def text_ok(self, text: str) -> bool:
        """A line naming no one the side cannot see (and, for the message line, no GM edit)."""
        return self.gm or not any(n in text for n in self.hidden_names)

    def message_ok(self, text: str) -> bool:
        return self.gm or not (any(n in text for n in self.hidden_names + ["GM "]) or text.startswith(GM_LINES))

    def log_ok(self, entry: tuple) -> bool:
        """The players' log: no GM edit, none of the GM's table rolls (their lines begin "table roll" and "GM"),
        nothing about whom they cannot see."""
        if self.gm:
            return True
        if len(entry) > 2 and entry[2] == "gm" or entry[0].startswith(GM_LINES):
            return False
        return self.text_ok(entry[0])

    def hides_health(self, a) -> bool:
        """An enemy's exact health is the GM's to know (unless the GM reveals it)."""
        return not self.gm and not self.reveal_hp and a.side != self.side

    def health(self, a) -> str | None:
        """An enemy's health as the players see it -- unhurt, hurt, bloodied (half or less) or down -- or None
        where the numbers are shown."""
        if not self.hides_health(a):
            return None
        if a.dead or a.hp <= 0:
            return "down"
        if a.max_hp and a.hp >= a.max_hp:
            return "unhurt"
        return "bloodied" if a.max_hp and a.hp * 2 <= a.max_hp else "hurt"


def visible_ids(session, side) -> set:
    """The characters side sees: its own, and any another one of its members has a line of sight to -- the
    ruleset's own ``sees`` when it has one (the rules' test), else the world's 36 sight lines
    (engine.world.cover.cover_between, AIR-15)."""
    acts = list(session.state.actors.values())
    viewers = [a for a in acts if a.side == side and not a.dead]
    sees = getattr(session.ruleset, "sees", None)
    out = {a.id for a in acts if a.side == side}
    for b in acts:
        if b.id in out:
            continue
        for a in viewers:
            try:
                ok = sees(session, a, b) if callable(sees) else None
            except Exception:   # noqa: BLE001 - a ruleset's sees() that needs data this actor lacks
                ok = None
            if ok is None:
                from engine.rules.registry import cover_levels
                from engine.world.cover import cover_between

                ok = cover_between(session.world, a.body(), b.body(), cover_levels(session.scene.ruleset),
                                   session.options.get("cover_thresholds")).visible
            if ok:
                out.add(b.id)
                break
    return out


def player_filter(session, side, state_version, cache: dict, reveal_hp: bool = False,
                  hidden: frozenset = frozenset()) -> PlayerFilter:
    """The one filter of the player view, cached per (rules state, side, session); ``hidden``: the characters
    the GM hides from the players (never one of their own side)."""
    if side is None:
        return PlayerFilter(None, None, [])
    k = (state_version, side, id(session), reveal_hp, hidden)
    if cache.get("key") != k:
        from engine.app.tokens import short_name

        seen = {c for c in visible_ids(session, side)
                if c not in hidden or session.state.actors[c].side == side}
        names = [short_name(a) for a in session.state.actors.values() if a.id not in seen]
        cache["key"], cache["filter"] = k, PlayerFilter(side, seen, names, reveal_hp)
    return cache["filter"]
