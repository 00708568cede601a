"""One view state: what the window shows besides the rules' state (overlays, folds, the player side, the ruler,
the area template, the log's scroll, the help), with a version counter. Every assignment bumps the version, so
the HUD and the 3D view's cache keys take one number instead of a hand-made list of fields; the dicts are
replaced, never changed in place, for the same reason (``toggle`` / ``set_overlay`` / ``set_ruler_end``).

The player view is one filter (:func:`player_filter`) of what a side may see, in this one place.
"""

from __future__ import annotations

import re
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
        self.pinned: tuple = ()                  # Y, Enter: templates kept on the map, (shape, origin, aim, size) each
        self.log_scroll = 0                      # lines scrolled back from the newest
        self.help = False
        self.volume_mode = "reach"               # J: the 3D view's cells, "reach" (this turn's), "exposed" or "safe"
        self.reveal_hp = False                   # Shift+F3: the GM shows the players their enemies' exact health
        self.hidden: frozenset = frozenset()     # characters the GM hides from the players' view (token HUD)
        self.cut_above: int | None = None        # , and .: the storey cut (engine/app/storeys.py; None: everything)
        self.campath: Any = None                 # Ctrl+P: the camera path's lines (engine/app/modes/campath.py)
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


#: the figures of a character's health and defence a line may carry: "35/38 HP", "vs AC 11", "AC: 13 -> 15",
#: "Protection 0", "Vigor 4 -> 2", "Life 8/8" (the pools' labels are the ruleset's own, added per filter)
BASE_LABELS = ("HP", "temp HP", "AC", "target AC with cover", "to AC")
FRACTION_HP = re.compile(r"\b(\d+)/(\d+)( HP)\b")
FRACTION = re.compile(r"(?<![\d.])\d+/\d+(?![\d.])(?! sight)")      # not the cover's "18/36 sight lines"


def _word(hp: int, mx: int) -> str:
    """The players' word for a health figure (the same words as :meth:`PlayerFilter.health`)."""
    if hp <= 0:
        return "down"
    if hp >= mx:
        return "unhurt"
    return "bloodied" if hp * 2 <= mx else "hurt"


class PlayerFilter:
    """What one side may see (None: the GM, everything): the characters, the turn order's rows, the log's lines,
    the message and hover lines, the captions and the preview -- every text of the player view passes
    :meth:`clean`. Built once per rules state (the sight lines are the expensive part)."""

    def __init__(self, side: str | None, seen: set | None, hidden_names: list[str], reveal_hp: bool = False,
                 enemy_names: list[str] | None = None, labels: tuple = ()) -> None:
        self.side = side
        self.seen = seen
        self.hidden_names = hidden_names
        self.reveal_hp = reveal_hp
        self.enemy_names = list(enemy_names or ())       # the enemies the side sees: their numbers are hidden
        words = sorted(set(BASE_LABELS) | set(labels), key=len, reverse=True)
        alt = "|".join(re.escape(w) for w in words)
        # a label and its figure(s): "AC 13", "AC: 13 -> 15", "Vigor 4", "Life 8/8", "Protection 3 -> 0"
        self._figure = re.compile(r"\b(" + alt + r")(:?) ?-?\d+(?:/\d+)?(?: ?-> ?-?\d+(?:/\d+)?)?")
        self._enemy = (re.compile(r"(?<![\w])(" + "|".join(re.escape(n) for n in sorted(self.enemy_names, key=len,
                                                                                        reverse=True)) + r")(?![\w])")
                       if self.enemy_names else None)

    def clean(self, text: str, about=None, strict: bool = True) -> str | None:
        """The one filter of every text the side sees: None for a line it may not see at all (naming whom it
        cannot see, a GM edit, a table roll), else the text with the enemies' exact health and defence as the
        players see them ("Kestrel: hurt", "vs AC ?"). ``about``: the character a text without a name
        concerns (a preview's target). ``strict``: a message line -- no line that speaks of the GM at all (the
        HUD's other texts, the help and the keys' effects among them, only lose GM lines and table rolls)."""
        if self.gm or not text:
            return text
        if not (self.message_ok(text) if strict else self.text_ok(text) and not text.startswith(GM_LINES)):
            return None
        if self.reveal_hp:
            return text
        enemy = (about is not None and self.hides_health(about)) or (self._enemy is not None
                                                                     and self._enemy.search(text) is not None)
        if not enemy:
            return text
        text = FRACTION_HP.sub(lambda m: _word(int(m.group(1)), int(m.group(2))), text)
        text = self._figure.sub(lambda m: f"{m.group(1)}{m.group(2)} ?", text)
        return FRACTION.sub("?", text)

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
        """The players' log: no GM edit nor what followed from it, none of the GM's table rolls (their lines
        begin "table roll" and "GM"), nothing about whom they cannot see."""
        return self.log_text(entry) is not None

    def log_text(self, entry: tuple) -> str | None:
        """A log line as the side sees it (:meth:`clean`), None where it sees none of it."""
        if self.gm:
            return entry[0]
        if len(entry) > 2 and entry[2] == "gm" or entry[0].startswith(GM_LINES):
            return None
        return self.clean(entry[0])

    def shown(self, text: str) -> str | None:
        """The HUD's filter (``Hud.filter``): every text drawn in the player view passes it."""
        return self.clean(text, strict=False)

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
        return _word(a.hp, a.max_hp) if a.max_hp else "hurt"


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
        from engine.app.tokens import bars, short_name

        seen = {c for c in visible_ids(session, side)
                if c not in hidden or session.state.actors[c].side == side}
        acts = session.state.actors.values()
        names = [short_name(a) for a in acts if a.id not in seen]
        enemies = [short_name(a) for a in acts if a.id in seen and a.side != side]
        labels = {b[0] for a in acts for b in bars(session, a)}
        cache["key"], cache["filter"] = k, PlayerFilter(side, seen, names, reveal_hp, enemy_names=enemies,
                                                        labels=tuple(labels))
    return cache["filter"]
