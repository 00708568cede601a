"""Fog of war with memory (issue 40 item 13, what a Foundry GM expects): what a side has seen of the other
characters stays drawn, dimmed, where it last saw them, in that side's view (F3's player view, F4's players'
screen), and is saved with the game.

The memory is per side and is made from the one player-visibility filter (``engine.app.viewstate.player_filter``:
its ``seen``) after every change of the rules state; the rules core knows nothing of it. It keeps sightings --
(how many actions had been played, x, y, layer) per side and character --, so an undo forgets what was seen after
the action undone, and a save carries it (the save's ``fog`` key; ``Session.load`` ignores the key, the window
reads it back with :func:`from_json`)."""

from __future__ import annotations

from engine.errors import AerieError
from engine.app.tokens import short_name
from engine.app.viewstate import player_filter
from engine.render.overlays import Label, Prims

DIM = (150, 150, 165, 90)          # a remembered character's box: grey, translucent


class FogMemory:
    """Per side, per character, the sightings (actions played, x, y, layer), oldest first."""

    def __init__(self) -> None:
        self.sightings: dict[str, dict[str, list[tuple[int, int, int, int]]]] = {}
        self.caches: dict = {}        # side -> its player-filter cache (the filters are built once per state)

    def note(self, side: str, n_actions: int, seen, actors) -> bool:
        """Record where ``side`` sees each character of ``seen`` (ids) after ``n_actions`` actions; True when the
        memory changed. Its own side's members are not remembered (they are always drawn)."""
        changed = False
        mine = self.sightings.setdefault(side, {})
        for cid in seen:
            a = actors.get(cid)
            if a is None or a.side == side:
                continue
            rows = mine.setdefault(cid, [])
            at = (n_actions, int(a.x), int(a.y), int(a.layer))
            if not rows or rows[-1][1:] != at[1:]:
                rows.append(at)
                changed = True
        return changed

    def forget_after(self, n_actions: int) -> None:
        """An undo: what was seen after ``n_actions`` actions was not seen."""
        for mine in self.sightings.values():
            for cid in list(mine):
                mine[cid] = [r for r in mine[cid] if r[0] <= n_actions]
                if not mine[cid]:
                    del mine[cid]

    def remembered(self, side: str | None) -> dict[str, tuple[int, int, int]]:
        """{character id: (x, y, layer)} where ``side`` last saw each character it has seen."""
        if side is None:
            return {}
        return {cid: rows[-1][1:] for cid, rows in self.sightings.get(side, {}).items() if rows}

    def to_json(self) -> dict:
        return {side: {cid: [list(r) for r in rows] for cid, rows in sorted(mine.items())}
                for side, mine in sorted(self.sightings.items())}

    def __eq__(self, other) -> bool:
        return isinstance(other, FogMemory) and self.to_json() == other.to_json()


def from_json(data, where: str = "saved game") -> FogMemory:
    """A save's ``fog`` key back into a memory; anything of the wrong shape is one line naming the key path."""
    m = FogMemory()
    if data is None:
        return m
    if not isinstance(data, dict):
        raise AerieError(f"{where}: fog: a table of sides, got {type(data).__name__}")
    for side, mine in data.items():
        if not isinstance(mine, dict):
            raise AerieError(f"{where}: fog.{side}: a table of characters, got {type(mine).__name__}")
        for cid, rows in mine.items():
            if not isinstance(rows, list) or not all(
                    isinstance(r, list) and len(r) == 4 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                 for v in r) for r in rows):
                raise AerieError(f"{where}: fog.{side}.{cid}: a list of [actions, x, y, layer] integer lists")
            m.sightings.setdefault(str(side), {})[str(cid)] = [tuple(r) for r in rows]
    return m


def update(ctl, hidden=frozenset()) -> bool:
    """After a change of the rules state: every side's memory brought to it, from the one player filter (what the
    side sees now); ``hidden``: the characters the GM hides from the players."""
    mem = ctl.fog
    n = len(ctl.session.actions)
    mem.forget_after(n)
    changed = False
    for side in dict.fromkeys(a.side for a in ctl.state.actors.values()):
        pf = player_filter(ctl.session, side, ctl.state_version, mem.caches.setdefault(side, {}), False, hidden)
        changed |= mem.note(side, n, pf.seen or (), ctl.state.actors)
    return changed


def ghosts(mem: FogMemory, side: str | None, shows, actors) -> list[tuple[str, tuple[int, int, int]]]:
    """The characters ``side`` remembers and does not see now: (id, where it last saw them); none of a character
    gone from the table."""
    return [(cid, at) for cid, at in mem.remembered(side).items() if cid in actors and not shows(cid)]


def fog_prims(mem: FogMemory, side: str | None, shows, actors, cell_m: float) -> Prims:
    """The remembered characters ``side`` does not see now, dimmed where it last saw them: a translucent grey box
    of their size and a tag "NAME (last seen)"; nothing in the GM's view (``side`` None)."""
    pr = Prims()
    for cid, (x, y, layer) in ghosts(mem, side, shows, actors):
        a = actors[cid]
        f, h = max(int(a.footprint), 1), max(int(a.height_layers), 1)
        half = 0.5 * f * cell_m
        for k in range(h):                       # one cube a layer of its height: a column the size of the body
            pr.cubes([((x + f / 2) * cell_m, (y + f / 2) * cell_m, layer + k + 0.5)],
                     min(half, 0.5) * 0.9, DIM)
        pr.labels.append(Label(((x + f / 2) * cell_m, (y + f / 2) * cell_m, layer + h + 0.2),
                               f"{short_name(a)} (last seen)", (200, 200, 210, 255), (40, 40, 48, 200)))
    return pr
