"""D&D 5e sight and cover between characters (DND-32, AIR-13..16): the cover of an attack or a save, the sight test
alone where legality is all a check needs, and the covers a listing will ask for worked out at once. Every answer is
kept in ``session.cache`` by everything it depends on (the two bodies, the eye point; the world's edits clear it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.memo import table as memo_table
from engine.rules.core import Actor
from engine.rules.registry import cover_levels
from engine.world.cover import (N_SAMPLES, blocked_at_most, clear_between, cover_between, cover_level, sight_many,
                                sight_one, sight_settled)

if TYPE_CHECKING:
    from engine.rules.session import Session


def _key(a: Actor, b: Actor, eye, lens=None) -> tuple:
    return ("cover", a.x, a.y, a.layer, a.footprint, a.height_layers, a.eye_m, b.x, b.y, b.layer, b.footprint,
            b.height_layers, eye) + ((lens,) if lens else ())


#: fn(rs, session, a, b) -> a lens or None: which heavily obscured voxels ``a``'s sight of ``b`` passes through
#: ("darkness": the magical darkness, Devil's Sight SRD-97; "all": every one, blindsight SRD-98); the first answer
#: wins. Asked only while the world has obscured voxels (srd_sight.py registers them)
LENSES: list = []
#: fn(session, lens) -> the world as that lens sees it: the same voxels, fewer obscured ones (srd_sight.py)
LENS_WORLD: list = []
#: fn(rs, session, a, b) -> True / False / None: ``a`` perceives ``b`` (or not) whatever its eyes say -- blindsight
#: (SRD-98), False Appearance (SRD-100); None: the sight test decides (srd_sight.py)
PERCEIVES: list = []
#: fn(rs, session, a, b) -> bool: ``a`` perceives ``b`` without sight (blindsight within its radius, SRD-98): an
#: invisible ``b`` or a blinded ``a`` changes nothing between them (advantage.py's DND-42, DND-46 sources ask it)
WITHOUT_SIGHT: list = []


def lens_of(rs, session: Session, a: Actor, b: Actor):
    """(the world ``a`` sees ``b`` in, its lens or None): the session's world unless a sense of ``a`` passes some of
    its heavily obscured voxels (SPL-10) on the way to ``b``."""
    w = session.world
    if w.obscured is None:
        return w, None
    for fn in LENSES:
        lens = fn(rs, session, a, b)
        if lens:
            return LENS_WORLD[0](session, lens), lens
    return w, None


def perceives_without_sight(rs, session: Session, a: Actor, b: Actor) -> bool:
    return any(fn(rs, session, a, b) for fn in WITHOUT_SIGHT)


def cover(rs, session: Session, a: Actor, b: Actor, eye=None):
    w, lens = lens_of(rs, session, a, b)
    key = _key(a, b, eye, lens)
    c = session.cache.get(key)
    if c is None:
        c = cover_between(w, a.body(), b.body(), cover_levels("dnd5e"), session.options.get("cover_thresholds"), eye=eye)
        session.cache[key] = c
    return c


def sight(rs, session: Session, a: Actor, b: Actor, eye=None) -> bool:
    """Some sight line from a (or ``eye``) to b is clear: ``cover(...).visible``, without the blocked fraction where a
    clear line settles it (``engine.world.cover.sight_one``); kept as the covers are."""
    w, lens = lens_of(rs, session, a, b)
    key = _key(a, b, eye, lens)
    c = session.cache.get(key)
    if c is None:
        c = session.cache.get(("sight",) + key)
        if c is None:
            c = sight_one(w, a.body(), b.body(), cover_levels("dnd5e"),
                          session.options.get("cover_thresholds"), eye)
            session.cache[key if c is not True else ("sight",) + key] = c
    return True if c is True else c.visible


def _levels(session) -> tuple:
    """The session's cover levels as a hashable table: the scene's thresholds (``[[level, fraction], ...]``, lists)
    or the ruleset's."""
    return tuple((str(n), float(f)) for n, f in (session.options.get("cover_thresholds") or cover_levels("dnd5e")))


def _marks(table, level: str) -> list[bool]:
    """Per count k of blocked lines (0..36): whether k / 36 is ``level``."""
    return [cover_level(k / N_SAMPLES, table) == level for k in range(N_SAMPLES + 1)]


def sealed(a: Actor, b: Actor) -> bool:
    """SRD-43: ``b`` is inside a creature ``a`` is not inside (its holder included), or ``a`` is inside one that is
    not ``b``: nothing passes between them."""
    ia, ib = a.data.get("inside"), b.data.get("inside")
    return (ia is not None or ib is not None) and ia != ib and ia != b.id


def total_cover(rs, session: Session, a: Actor, b: Actor, eye=None) -> bool:
    """``cover(...).level == "total"`` (DND-32: no target): the sight test alone where the scene's levels make
    total cover exactly "every line blocked" (the ruleset's own, and most thresholds), else the level itself. A
    creature inside another (SRD-43: swallowed, its sheet's ``inside``) "has total cover against attacks and other
    effects outside" it, its holder's own included; from inside it reaches its holder (and another inside it) only."""
    if sealed(a, b):
        return True
    table = _levels(session)
    mode = _TOTAL_MODE.get(table)
    if mode is None:
        marks = _marks(table, "total")
        mode = _TOTAL_MODE[table] = ("never" if not any(marks) else
                                     "sight" if marks == [False] * N_SAMPLES + [True] else "level")
    if mode == "never":
        return False
    if mode == "sight":
        return not sight(rs, session, a, b, eye)
    return cover(rs, session, a, b, eye).level == "total"


_TOTAL_MODE: dict = memo_table("sight._TOTAL_MODE")      # a levels table -> how total_cover tests it


def prefetch_cover(rs, session: Session, pairs) -> None:
    """Work out the covers of these (a, b, eye or None, full) at once, where they are not cached yet: the whole
    cover where ``full``, else the sight test (``sight_many``: one traversal for all that needs one, the same results
    as ``cover`` and ``sight`` one by one). Hide's last watchers use it (``in_plain_sight``)."""
    todo: dict = {}
    cache = session.cache
    lensed = session.world.obscured is not None and LENSES
    for a, b, eye, full in pairs:
        if lensed and lens_of(rs, session, a, b)[1]:
            continue                    # seen through a lens (SRD-97, SRD-98): worked out one by one when asked
        key = _key(a, b, eye)
        if key in cache or (not full and ("sight",) + key in cache):
            continue
        if key in todo:
            todo[key] = (todo[key][0], todo[key][1] or full)
        else:
            todo[key] = ((a.body(), b.body(), eye), full)
    if not todo:
        return
    got = sight_many(session.world, [p for p, _ in todo.values()], cover_levels("dnd5e"),
                     session.options.get("cover_thresholds"), full=[f for _, f in todo.values()])
    for key, c in zip(todo, got):
        cache[key if c is not True else ("sight",) + key] = c


def in_plain_sight(rs, session: Session, watchers, a: Actor) -> Actor | None:
    """The first of ``watchers`` from whom ``a`` has no cover (level "none"; DND-23: it cannot hide), or None. While
    a listing probes, any such watcher (the outcome is the same), the cheapest questions first: what is kept and the box
    test for all of them, then the sight lines' shortcuts, then counting lines, and the rest traced in one batch only
    if none of them settles it."""
    if not session.probing:
        return next((o for o in watchers if cover(rs, session, o, a).level == "none"), None)
    if session.world.obscured is not None and LENSES:
        plain = []
        for o in watchers:              # a watcher seeing through a lens (SRD-97, SRD-98): asked one by one
            if not lens_of(rs, session, o, a)[1]:
                plain.append(o)
            elif cover(rs, session, o, a).level == "none":
                return o
        watchers = plain
    cache = session.cache
    levels, thresholds = cover_levels("dnd5e"), session.options.get("cover_thresholds")
    asked = []
    for o in watchers:                  # what is kept, and the box test (a pair in plain view stops it at once)
        key = _key(o, a, None)
        c = cache.get(key)
        if c is None and ("sight",) + key not in cache:
            c = clear_between(session.world, o.body(), a.body(), levels, thresholds)
            if c is not None:
                cache[key] = c
        if c is not None and c.level == "none":
            return o
        if c is None:
            asked.append((o, key))
    unknown = []
    for o, key in asked:                # the sight lines' shortcuts (not the batch): total cover is not "none"
        c = sight_settled(session.world, o.body(), a.body(), levels, thresholds)
        if c is True:
            cache[("sight",) + key] = True
        elif c is not None:
            cache[key] = c
            if c.level == "none":
                return o
            continue
        unknown.append((o, key))
    k = _none_up_to(session)
    rest = []
    for o, key in unknown:
        few = blocked_at_most(session.world, o.body(), a.body(), k) if k is not None else None
        if few is None:
            rest.append((o, key))
        elif few:
            return o
    if rest:
        prefetch_cover(rs, session, [(o, a, None, True) for o, _ in rest])
        for o, key in rest:
            if session.cache[key].level == "none":
                return o
    return None


def _none_up_to(session) -> int | None:
    """K where the level is "none" exactly when at most K of the 36 lines are blocked (the ruleset's levels, and most
    thresholds); None where "none" is not such a run from 0."""
    table = _levels(session)
    if table not in _NONE_UP_TO:
        marks = _marks(table, "none")
        k = marks.index(False) - 1 if False in marks else N_SAMPLES
        _NONE_UP_TO[table] = k if k >= 0 and not any(marks[k + 1:]) else None
    return _NONE_UP_TO[table]


_NONE_UP_TO: dict = memo_table("sight._NONE_UP_TO")
