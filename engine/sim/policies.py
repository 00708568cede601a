"""Policies: who does what in a simulated fight (``aerie simulate --policy SIDE=NAME``).

A policy is a function ``policy(session, actor, rng) -> action dict | None``: it reads the session's legal actions
(``Session.legal_actions``) and the rules' own previews (``Session.preview``: ``hit_chance``;
``Ruleset.damage_on_hit``: the mean damage of a hit) and returns one of the legal actions (None: it has nothing to
do, the fight stops there). ``rng`` is the fight's own ``random.Random`` (seeded from the fight's seed), the only
randomness a policy may use, so a fight is the same on any worker.

Shipped: ``random``, ``aggressive``, ``cautious`` (below). A user adds one with ``--policy red=my_module:fn`` (or
``path/to/file.py:fn``), or from Python with :func:`register`.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable, Sequence

import numpy as np

from engine.errors import AerieError
from engine.rules.legal import uniform

Policy = Callable  # (session, actor, rng) -> dict | None

POLICIES: dict[str, Policy] = {}
#: candidate move destinations a policy scores at most (a flyer may reach thousands; sampled with the fight's rng)
MOVE_SAMPLE = 160


def register(name: str) -> Callable[[Policy], Policy]:
    """Decorator: make ``fn`` the policy called ``name``."""
    def put(fn: Policy) -> Policy:
        POLICIES[name] = fn
        return fn
    return put


def resolve(spec: str) -> Policy:
    """A policy by name (``random``), ``module:function`` or ``file.py:function``; AerieError (one line) when it
    cannot be found. The current folder is importable, as it is for ``python -m``."""
    if spec in POLICIES:
        return POLICIES[spec]
    mod, sep, fn = spec.rpartition(":")
    if not sep or not mod or not fn:
        raise AerieError(f"--policy: unknown policy {spec!r}; one of {', '.join(sorted(POLICIES))} or module:function")
    try:
        if mod.endswith(".py"):
            if not os.path.isfile(mod):
                raise AerieError(f"--policy: {mod}: no such file")
            name = "aerie_user_policy_" + os.path.splitext(os.path.basename(mod))[0]
            m = sys.modules.get(name)
            if m is None:
                sp = importlib.util.spec_from_file_location(name, mod)
                assert sp is not None and sp.loader is not None
                m = importlib.util.module_from_spec(sp)
                sys.modules[name] = m
                try:
                    sp.loader.exec_module(m)
                except BaseException:
                    del sys.modules[name]          # not a half-made module for the next ask
                    raise
        else:
            if os.getcwd() not in sys.path and "" not in sys.path:
                sys.path.append(os.getcwd())
            m = importlib.import_module(mod)
    except AerieError:
        raise
    except (Exception, SystemExit) as e:    # the user's module failed to import (or exits): which and why, one line
        raise AerieError(f"--policy: {spec}: cannot import {mod}: {type(e).__name__}: {e}") from None
    f = getattr(m, fn, None)
    if not callable(f):
        raise AerieError(f"--policy: {spec}: {mod} has no function {fn!r}")
    try:
        inspect.signature(f).bind(None, None, None)
    except TypeError:               # it cannot be called as a policy: say so now, not once per fight
        raise AerieError(f"--policy: {spec}: {fn} must take (session, actor, rng); it takes "
                         f"{inspect.signature(f)}") from None
    except ValueError:              # no signature to read (a builtin): it is tried as it is
        pass
    return f


# -- helpers shared by the policies ----------------------------------------------------------------------------
def groups(acts) -> dict[str, Sequence[dict]]:
    """The legal actions by action name (moves kept compact where the list is a LegalActions)."""
    if hasattr(acts, "by_action"):
        return acts.by_action()
    out: dict[str, Sequence[dict]] = {}
    for a in acts:
        out.setdefault(a["action"], []).append(a)  # type: ignore[attr-defined]  # a list until returned
    return out


def move_cells(moves) -> np.ndarray:
    """int [n, 3] (x, y, layer) of a group of move actions, without building a dict per move when compact."""
    parts = getattr(moves, "parts", None)
    if parts is None and hasattr(moves, "cells"):
        parts = [moves]
    if parts is not None and all(hasattr(p, "cells") for p in parts):
        return np.concatenate([p.cells for p in parts]) if parts else np.zeros((0, 3), np.int32)
    return np.array([m["to"] for m in moves], dtype=np.int32).reshape(-1, 3)


def enemies_of(session, actor) -> list:
    """Its foes still in the fight that it knows for creatures (``SIM_AIDS['unnoticed']``: one taken for an object,
    False Appearance, is left alone)."""
    rs = session.ruleset
    unnoticed = getattr(rs, "SIM_AIDS", {}).get("unnoticed")
    return [a for a in session.state.actors.values() if a.side != actor.side and not down(a)
            and not (unnoticed is not None and unnoticed(rs, session, actor, a))]


def down(a) -> bool:
    """Out of the fight: dead, at 0 hit points or unconscious (every ruleset's Actor carries these)."""
    return bool(a.dead or a.hp <= 0 or a.has("unconscious"))


def metres(session, cells: np.ndarray, a) -> np.ndarray:
    """Straight-line metres from each cell to character ``a`` (a cell is cell_m wide, a layer 1 m tall)."""
    w = session.world
    d = (cells.astype(np.float64) - np.array([a.x, a.y, a.layer], dtype=np.float64))
    return np.sqrt((d[:, 0] * w.cell_m) ** 2 + (d[:, 1] * w.cell_m) ** 2 + d[:, 2] ** 2)


def best_attack(session, attacks) -> dict | None:
    """The attack with the most expected damage now: the preview's ``hit_chance`` x the ruleset's mean damage of a
    hit (``Ruleset.damage_on_hit``); ties keep list order. None when no attack says what it would do."""
    best, score = None, -1.0
    for a in attacks:
        dmg = session.ruleset.damage_on_hit(session, a)
        if dmg is None or max(float(dmg), 0.0) <= score:
            continue           # a chance to hit lies in 0..1: this one cannot beat the best (no preview needed)
        pv = session.preview(a)
        if not pv.get("legal") or "hit_chance" not in pv:
            continue
        s = float(pv["hit_chance"]) * float(dmg)
        if s > score:
            best, score = a, s
    return best


def turn_end(g: dict, rng, session=None) -> dict | None:
    """The action that ends the turn (the ruleset's ``TURN_END_ACTIONS``), when it is legal."""
    enders = session.ruleset.TURN_END_ACTIONS if session is not None else ("end_turn",)
    for name in enders:
        if name in g and len(g[name]):
            return g[name][0]
    return None


def sample_rows(n: int, rng, k: int = MOVE_SAMPLE) -> list[int]:
    return list(range(n)) if n <= k else sorted(rng.sample(range(n), k))


def nearest_metres(session, cells: np.ndarray, foes) -> np.ndarray:
    return np.min(np.stack([metres(session, cells, f) for f in foes]), axis=0)


# -- the shipped policies ------------------------------------------------------------------------------------
@register("random")
def random_policy(session, actor, rng):
    """A uniform legal action: uniformly among the kinds of action, then among that kind (``aerie bench rules``;
    ``engine.rules.legal.uniform``: the kinds tried in a random order, so only those tried are worked out)."""
    return uniform(session.legal_actions(actor.id), rng)


#: the actions ``best_attack`` weighs (a ruleset without one of them lists none of it)
ATTACK_KINDS = ("attack", "charge", "creature_action")     # a creature's breath weighs as one of its attacks


def _attack_kinds(g: dict) -> list:
    return [a for name in ATTACK_KINDS for a in g.get(name, ())]


@register("aggressive")
def aggressive(session, actor, rng):
    """The most expected damage now (``best_attack``); with no attack, the move that ends nearest a living enemy
    (when it gets nearer than where it stands), else the turn ends."""
    return attack_or_move(session, actor, rng, _nearer_move)


def _nearer_move(session, actor, foes, moves, cells, rows):
    """The sampled move that ends nearest a living enemy, when that is nearer than where it stands."""
    d = nearest_metres(session, cells[rows], foes)
    here = nearest_metres(session, np.array([actor.pos]), foes)[0]
    i = int(np.argmin(d))
    return moves[rows[i]] if d[i] < here - 1e-9 else None


@register("cautious")
def cautious(session, actor, rng):
    """The same attacks as ``aggressive``; its moves end where the enemies' threat is lowest (``threat_at``: how
    many living enemies, where they stand, could attack a body there -- reach AIR-05, range AIR-03, less than total
    cover -- the threat volume of ``aerie threat``), preferring places from which it can attack someone and, among
    equals, nearer an enemy. A flyer never ends in an enemy's melee reach. It moves only to a strictly better
    place, so a turn always ends."""
    return attack_or_move(session, actor, rng, _safer_move)


def _safer_move(session, actor, foes, moves, cells, rows):
    """The sampled move whose place scores strictly better than where it stands (``place_scores``)."""
    cand = np.concatenate([np.array([actor.pos], dtype=np.int32), cells[rows]])
    score = place_scores(session, actor, foes, cand)
    i = min(range(len(cand)), key=lambda k: score[k])
    return moves[rows[i - 1]] if i > 0 and score[i] < score[0] else None


def attack_or_move(session, actor, rng, choose_move):
    """What ``aggressive`` and ``cautious`` share: the best attack (``best_attack``); else the move
    ``choose_move(session, actor, foes, moves, cells, rows)`` picks among the sampled destinations; else the turn
    ends (or any legal action)."""
    # each step lists only what it weighs (``Session.legal_actions(kinds=...)``, the full list's actions of those
    # kinds in its order), so the choice and the rng's draws are those of one full listing, which is built only
    # when nothing else is chosen
    hit = best_attack(session, _attack_kinds(groups(session.legal_actions(actor.id, kinds=ATTACK_KINDS))))
    if hit is not None:
        return hit
    g = groups(session.legal_actions(actor.id, kinds=("move", *session.ruleset.TURN_END_ACTIONS)))
    foes = enemies_of(session, actor)
    moves = g.get("move", ())
    if foes and len(moves):
        cells = move_cells(moves)
        rows = harmless_rows(session, actor, cells, sample_rows(len(cells), rng))
        pick = choose_move(session, actor, foes, moves, cells, rows) if rows else None
        if pick is not None:
            return pick
    end = turn_end(g, rng, session)
    if end is not None:
        return end
    acts = session.legal_actions(actor.id)
    return rng.choice(list(acts)) if acts else None


def harmless_rows(session, actor, cells: np.ndarray, rows: list[int]) -> list[int]:
    """The sampled rows whose cell is in no lasting area that would hurt ``actor`` when its next turn starts there
    (``Ruleset.SIM_AIDS['harmful_cells']``: a Cloudkill, a Web, a Moonbeam...): no policy ends a move in one."""
    fn = session.ruleset.SIM_AIDS.get("harmful_cells")
    if fn is None or not rows:
        return rows
    bad = fn(session.ruleset, session, actor, cells[rows])
    return [r for r, b in zip(rows, bad) if not b]


def _centre(session, a) -> np.ndarray:
    """The middle of ``a``'s body, in metres (x east, y north, z up)."""
    b, cw = a.body(), session.world.cell_m
    return np.array([(b.x + b.footprint / 2) * cw, (b.y + b.footprint / 2) * cw, b.layer + max(b.height_layers, 1) / 2])


def _through(p: np.ndarray, q: np.ndarray, c: np.ndarray, r: float) -> bool:
    """Does the segment p-q pass within ``r`` metres of ``c``?"""
    d = q - p
    t = float(np.clip(np.dot(c - p, d) / max(float(np.dot(d, d)), 1e-9), 0.0, 1.0))
    return float(np.linalg.norm(p + t * d - c)) < r


def _blinded(session, shooters, targets, fog_c: np.ndarray, r: float) -> int:
    """How many of ``shooters`` ((character, range m)) have a target in range now and none once a sphere of radius
    ``r`` at ``fog_c`` hides every line through it."""
    n = 0
    for f, reach in shooters:
        p = _centre(session, f)
        ends = [_centre(session, t) for t in targets]
        near = [q for q in ends if float(np.linalg.norm(q - p)) <= reach]
        if near and all(_through(p, q, fog_c, r) for q in near):
            n += 1
    return n


def fog_cover(session, actor) -> tuple[dict | None, int]:
    """A cast that heavily obscures a sphere (``Ruleset.SIM_AIDS['obscuring_casts']``: Fog Cloud, Darkness) where
    it blinds the most enemy shooters, and its worth: how many enemy shooters (a ranged attack, ``attack_reach``)
    have one of ``actor``'s side in range now and none once every line through the sphere is hidden, less how many
    of its own side's shooters it blinds so. The points tried: on each enemy shooter, and between it and the
    nearest of ``actor``'s side, a radius from it. (None, 0) when nothing is worth it or no such cast is legal."""
    aim = session.ruleset.SIM_AIDS.get("obscuring_casts")
    casts = aim(session.ruleset, session, actor) if aim is not None else []
    if not casts:
        return None, 0
    foes = enemies_of(session, actor)
    ours = [a for a in session.state.actors.values() if a.side == actor.side and not down(a)]

    def shooters(side):
        out = []
        for a in side:
            reach = session.ruleset.attack_reach(session, a)[1]
            if reach:
                out.append((a, float(reach)))
        return out

    theirs, mine = shooters(foes), shooters(ours)
    if not theirs or not ours:
        return None, 0
    cw, (X, Y, Z) = session.world.cell_m, session.world.size
    scored = []
    for base, r in casts:
        points = set()
        for f, _ in theirs:
            p = _centre(session, f)
            points.add((f.x, f.y, f.layer))
            q = min((_centre(session, t) for t in ours), key=lambda q: float(np.linalg.norm(q - p)))
            d = q - p
            k = min(0.8 * r / max(float(np.linalg.norm(d)), 1e-9), 1.0)
            m = p + k * d
            points.add((int(m[0] // cw), int(m[1] // cw), int(m[2])))
        for x, y, z in sorted(points):
            if not (0 <= x < X and 0 <= y < Y and 0 <= z < Z):
                continue
            c = np.array([(x + 0.5) * cw, (y + 0.5) * cw, z + 0.5])
            worth = _blinded(session, theirs, ours, c, r) - _blinded(session, mine, foes, c, r)
            if worth > 0:
                scored.append((-worth, (x, y, z), base))
    for neg, at, base in sorted(scored, key=lambda t: (t[0], t[1])):
        act = {**base, "at": list(at)}
        if session.preview(act).get("legal"):
            return act, -neg
    return None, 0


def place_scores(session, actor, foes, cells: np.ndarray) -> list[tuple]:
    """Per cell, the cautious order: (in a foe's melee reach for a flyer, cannot attack anyone from there,
    enemies threatening it, metres to the nearest enemy); lower is better."""
    from engine.world.volumes import Weapons, may_attack, range_table

    threat, melee = threat_at(session, foes, cells)
    reach_m, range_m = session.ruleset.attack_reach(session, actor)
    mine = Weapons(reach_m, range_m)
    w = session.world
    can = np.zeros(len(cells), dtype=bool)
    if reach_m is not None or range_m is not None:
        rt = range_table(range_m, w.cell_m, w.size) if range_m is not None else None
        at = np.array([f.pos for f in foes], dtype=np.int64)
        me = actor.body()
        for k, (x, y, z) in enumerate(cells.tolist()):   # could it attack a foe from there (reach AIR-05, range AIR-03)
            can[k] = bool(may_attack(me.moved(x, y, z), at, mine, w.cell_m, rt).any())
    near = nearest_metres(session, cells, foes)
    fly = bool(actor.can_fly)
    return [((bool(melee[k]) and fly), not bool(can[k]), int(threat[k]), round(float(near[k]), 6))
            for k in range(len(cells))]


def threat_at(session, foes, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(how many foes could attack a standard body at each cell now, whether one has it in melee reach): the
    threat volume's own tests (``engine.world.volumes``: ``may_attack`` for reach and range, the blocked sample
    lines of ``_counts_for_cells`` below total cover), on the numpy backend, for these cells only."""
    from engine.world import volumes as V

    w = session.world
    fields = V.world_octant_fields(w)
    tables = V.sample_table(w.size, V.STANDARD)
    total = _total_count(session)
    X, Y, Z = w.size
    c = cells.astype(np.int64)
    inside = (c[:, 0] >= 0) & (c[:, 0] < X) & (c[:, 1] >= 0) & (c[:, 1] < Y) & (c[:, 2] >= 0) & (c[:, 2] < Z)
    n = np.zeros(len(cells), dtype=np.int64)
    melee = np.zeros(len(cells), dtype=bool)
    for f in foes:
        reach_m, range_m = session.ruleset.attack_reach(session, f)
        if reach_m is None and range_m is None:
            continue
        body = f.body()
        rt = V.range_table(range_m, w.cell_m, w.size) if range_m is not None else None
        ok = V.may_attack(body, c, V.Weapons(reach_m, range_m), w.cell_m, rt) & inside
        if reach_m is not None:
            melee |= V.may_attack(body, c, V.Weapons(reach_m, None), w.cell_m) & inside
        sel = np.flatnonzero(ok)
        if len(sel):
            blocked = V._counts_for_cells(w, fields, tables, [(V.eye_fixed(w, body), body)], c[sel], V.STANDARD)[0]
            n[sel] += blocked < total
    return n, melee


def _total_count(session) -> int:
    """The fewest blocked sample lines (of 36) that make total cover in this ruleset (``level_table``)."""
    from engine.rules.registry import cover_levels
    from engine.world.volumes import N_SAMPLES, level_table

    levels = level_table(cover_levels(session.scene.ruleset), session.options.get("cover_thresholds"))
    for k, lv in enumerate(levels):
        if lv == "total":
            return k
    return N_SAMPLES + 1


def parse_policies(items: Sequence[str], sides: Sequence[str], where: str = "--policy") -> dict[str, str]:
    """``["red=aggressive", ...]`` -> {side: policy spec}, every side of the scene (default ``random``). Unknown
    sides and policies are one-line AerieErrors."""
    out = {s: "random" for s in sides}
    given: set[str] = set()
    for item in items:
        side, eq, name = item.partition("=")
        if not eq or not side or not name:
            raise AerieError(f"{where} {item!r}: expected SIDE=POLICY, e.g. red=aggressive")
        if side not in sides:
            raise AerieError(f"{where} {item!r}: no side {side!r}; the scene's sides: {', '.join(sides)}")
        if side in given:
            raise AerieError(f"{where} {item!r}: side {side!r} is given a policy twice")
        given.add(side)
        resolve(name)
        out[side] = name
    return out


def caster(session, actor, rng):
    """``aggressive``, and a spell where one does more: each legal cast's preview says the mean damage each creature
    it catches would take (``expected_damage``, issue 39); its score is that over the enemies less that over its own
    side, weighed against the best attack's hit chance x mean damage. Before that, a Fog Cloud or a Darkness
    (``fog_cover``) where it blinds two enemy shooters or more (net of its own side's), or one when it has nothing
    that deals damage. Named by path (``--policy red=engine.sim.policies:caster``): the window's policy cycle stays
    the shipped three and the registered ones."""
    fog, worth = fog_cover(session, actor)
    if fog is not None and worth >= 2:
        return fog
    casts = list(groups(session.legal_actions(actor.id, kinds=("cast",))).get("cast", ()))
    best, score = None, 0.0
    for act in casts:
        pv = session.preview(act)
        exp = pv.get("expected_damage") if pv.get("legal") else None
        if not exp:
            continue
        s = sum(float(v) * (1 if session.state.actors[k].side != actor.side else -1) for k, v in exp.items())
        if s > score:
            best, score = act, s
    if best is not None:
        hit = best_attack(session, _attack_kinds(groups(session.legal_actions(actor.id, kinds=ATTACK_KINDS))))
        if hit is None:
            return best
        dmg = session.ruleset.damage_on_hit(session, hit)
        pv = session.preview(hit)
        if float(pv.get("hit_chance", 0)) * float(dmg or 0) < score:
            return best
        return hit
    if fog is not None and best_attack(session, _attack_kinds(groups(session.legal_actions(actor.id, kinds=ATTACK_KINDS)))) is None:
        return fog
    return aggressive(session, actor, rng)

