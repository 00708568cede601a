"""The 5e legal-action listing (``Dnd5e.legal_actions``): the candidates of every action, the moves compact
(``engine/rules/legal.py``), and the covers a listing will ask for traced in one pass. ``rs`` is the ruleset."""


from __future__ import annotations

from collections.abc import Sequence

from engine.rules import aerial
from engine.rules.core import Actor
from engine.rules.legal import LegalActions, MoveRun
from engine.rules.dnd5e.actions.objects import object_candidates
from engine.rules.dnd5e.common import ABILITIES, OBJECTS, SKILL_ABILITY, dice_spec, mod  # noqa: F401
from engine.rules.dnd5e import attacks, conditions, feats, turns
from engine.rules.dnd5e.data import (
    SIZES,
    SPELLS,
)
from engine.world.geometry import Body, distance_m, engaged, in_melee_reach



def legal_actions(rs, session, a: Actor) -> Sequence[dict]:
    """A :class:`LegalActions`: end_turn, the move destinations (one compact run), the rest checked."""
    if a.id != session.current:
        return []
    head: list[dict] = [{"actor": a.id, "action": "end_turn"}]
    moves = None
    out: list[dict] = []
    cands: list[dict] = []
    turn = session.state.turn
    if not conditions.incapacitated(rs, a):
        if not (a.data["mounted_on"]) and not conditions.speed_zero(rs, a):
            crawl = a.has("prone")
            fly = a.can_fly and not crawl
            left = rs.movement_left(session, a, fly) / (2 if crawl else 1)
            if left > 0:
                r = aerial.reach(session, a, budget_m=left, fly=fly)
                moves = MoveRun(a.id, r.destination_cells())
        mounted_ctl = a.data["controlled_mount"] and a.data["rider"]
        for k in ("dash", "disengage", "dodge"):
            cands.append({"actor": a.id, "action": k})
        if not mounted_ctl:
            others = [o for o in session.state.actors.values() if o.id != a.id and not o.dead]
            foes = [o for o in others if conditions.hostile(rs, a, o)]
            friends = [o for o in others if not conditions.hostile(rs, a, o)]
            can_attack = turn["attacks_left"] > 0 or not turn["action"]
            cell = session.world.cell_m
            ab = a.body()
            reach_any = max(rs.melee_reach(a, w) for w in a.data["weapons"])
            # the covers the checks below will ask for, worked out at once (a speed hint only: check() decides)
            attacks.prefetch_cover(rs, session, covers_wanted(rs, session, a, ab, foes, friends, can_attack))
            for t in foes:
                tb = t.body()
                near = in_melee_reach(ab, tb, reach_any, cell)          # cheap prefilters; check() decides
                adjacent = engaged(ab, tb)
                for w in a.data["weapons"]:
                    if can_attack:
                        cands.append({"actor": a.id, "action": "attack", "target": t.id, "weapon": w["name"]})
                    if turn["light_weapon"] and not turn["bonus"]:
                        cands.append({"actor": a.id, "action": "attack", "target": t.id, "weapon": w["name"], "bonus": True})
                if can_attack and near:
                    cands.append({"actor": a.id, "action": "grapple", "target": t.id})
                    cands.append({"actor": a.id, "action": "shove", "target": t.id, "mode": "prone"})
                    cands.append({"actor": a.id, "action": "shove", "target": t.id, "mode": "push"})
                if adjacent and not turn["action"]:
                    for f in friends:
                        cands.append({"actor": a.id, "action": "help", "target": f.id, "against": t.id})
            for sp in a.data["spells"]:
                info = SPELLS[sp]
                if turn["action"] if info["time"] == "action" else turn["bonus"]:
                    continue
                if info["kind"] == "temp_hp" or (info.get("area") and info["area"]["shape"] == "self"):
                    cands.append({"actor": a.id, "action": "cast", "spell": sp})
                else:
                    pool = friends + [a] if info["kind"] == "heal" else foes
                    for t in pool:
                        cands.append({"actor": a.id, "action": "cast", "spell": sp, "target": t.id})
            for f in friends:
                if f.hp == 0 and not f.data["stable"]:
                    cands.append({"actor": a.id, "action": "stabilize", "target": f.id})
                # Mount.check: only a larger creature, only within 1.5 m
                if SIZES.index(f.size) > SIZES.index(a.size) and engaged(ab, f.body()):
                    cands.append({"actor": a.id, "action": "mount", "target": f.id})
            for it in sorted(set(a.data["items"])):
                cands.append({"actor": a.id, "action": "use", "object": it})
            cands += [{"actor": a.id, "action": "hide"}, {"actor": a.id, "action": "search"},
                      {"actor": a.id, "action": "ready", "weapon": a.data["weapons"][0]["name"]}]
            cands += [{"actor": a.id, "action": "ready", "spell": sp} for sp in a.data["spells"]   # DND-20
                      if SPELLS[sp]["time"] == "action" and SPELLS[sp]["kind"] in ("attack", "save", "auto")]
            # cheap prefilters, each the first condition its check refuses without (the check still decides)
            cands += [{"actor": a.id, "action": k} for k, need in
                      (("stand", a.has("prone")), ("escape", a.has("grappled")), ("dismount", a.data["mounted_on"]))
                      if need]
    if turn["action"]:
        cands = [c for c in cands if c["action"] not in rs.NEEDS_ACTION]
    obj = []
    if session.state.objects and not conditions.incapacitated(rs, a) and not (a.data["controlled_mount"] and a.data["rider"]):
        obj = object_candidates(rs, session, a)             # DND-39 / DND-40
    if a.flying and not a.data.get("mounted_on"):
        out.append({"actor": a.id, "action": "end_turn", "stay_aloft": False})     # AIR-10: the player's choice
    check = checker(rs, session, a)
    if a.data.get("feats") and not conditions.incapacitated(rs, a):
        legal = rs.keep_legal(session, within_reach(rs, session, a, cands), check)
        # the options of an attack already found legal (power attack, luck, savage, a manoeuvre) are legal when
        # their own condition holds (checked in feats.attack_variants, as Attack.check does); the rest is checked
        rest = out + legal + feats.attack_variants(rs, session, a, legal) + \
            rs.keep_legal(session, within_reach(rs, session, a, feats.legal_choices(rs, session, a, cands)), check) + \
            rs.keep_legal(session, obj, check)
    else:
        cands += obj
        rest = out + rs.keep_legal(session, within_reach(rs, session, a, cands), check)
    return LegalActions([head, moves, rest] if moves is not None else [head, rest])

def checker(rs, session, a: Actor):
    """``Dnd5e.check`` for the candidates of the listing of ``a`` (the current actor): whose turn it is checked once
    and the refusals of the actor alone (``turns.actor_refusal``) once an action name, not once a candidate; the
    action's own check as before. A check changes nothing, so they hold for every candidate; any other actor,
    ruleset, GM tool or check goes the whole way (``rs.check``)."""
    from engine.rules.dnd5e.ruleset import Dnd5e

    def full(c):
        return rs.check(session, c)

    aid = a.id
    if type(rs).check is not Dnd5e.check or aid == "gm" or aid != session.current or session.state.actors.get(aid) is not a:
        return full
    actions, gm_actions = rs.ACTIONS, rs.GM_ACTIONS
    refusals: dict = {}

    def check(c):
        name = c["action"]
        if c["actor"] != aid or name in gm_actions:
            return full(c)
        if name not in refusals:
            refusals[name] = turns.actor_refusal(rs, a, name)
        if refusals[name] is not None:
            raise refusals[name]
        return actions[name].check(rs, session, a, c)

    return check


def within_reach(rs, session, a: Actor, cands: list[dict]) -> list[dict]:
    """``cands`` without the attacks, shoves and grapples on a character that their check refuses for distance
    alone, whatever else holds: a melee weapon (not thrown) out of its reach (AIR-05), a ranged or thrown one
    beyond its long range (AIR-03) -- ``_attack_plan``'s test, on the same ``geom`` bodies, which every legal
    attack passes (a Polearm Master's butt end keeps the weapon's reach and range) -- and a shove or grapple out of
    the longest melee reach (``conditions.contest_target``'s last test, on the plain bodies). A speed filter only:
    what is left is still checked, and the list keeps its order."""
    cell = session.world.cell_m
    actors = session.state.actors
    weapons: dict = {}
    for w in a.data["weapons"]:
        weapons.setdefault(w["name"], w)        # Ruleset.weapon: the first of that name
    ag = None
    geoms: dict = {}
    contest = None
    out = []
    for c in cands:
        k = c["action"]
        if k == "attack" and c.get("voxel") is None:
            t = actors.get(c.get("target"))
            w = weapons.get(c.get("weapon"))
            if t is not None and w is not None:
                if ag is None:
                    ag = attacks.geom(rs, session, a)
                tg = geoms.get(t.id)
                if tg is None:
                    tg = geoms[t.id] = attacks.geom(rs, session, t)
                melee = rs.is_melee(w)
                if melee and in_melee_reach(ag, tg, rs.melee_reach(a, w), cell):
                    pass
                elif melee and not ("thrown" in w["properties"] and w["range"]):
                    continue                                        # AIR-05
                elif distance_m(ag, tg, cell) > w["range"][1] + 1e-9:
                    continue                                        # AIR-03
        elif k in ("shove", "grapple") and not c.get("pin"):
            t = actors.get(c.get("target"))
            if t is not None:
                if contest is None:
                    contest = max(rs.melee_reach(a, w) for w in a.data["weapons"])
                if not in_melee_reach(a.body(), t.body(), contest, cell):
                    continue                                        # AIR-05
        out.append(c)
    return out


def covers_wanted(rs, session, a: Actor, ab, foes, friends, can_attack) -> list:
    """The (viewer, viewed, eye or None) whose cover the candidates' checks are likely to need: an attack on a foe in
    reach or range, a spell on a target in range (or what its area sees), Hide (every foe that could see a)."""
    turn = session.state.turn
    cell = session.world.cell_m
    out: list[tuple] = []
    if can_attack or turn["light_weapon"] and not turn["bonus"]:
        far = max([w["range"][1] for w in a.data["weapons"] if w["range"]] + [0.0])
        reach = max(rs.melee_reach(a, w) for w in a.data["weapons"] if rs.is_melee(w)) \
            if any(rs.is_melee(w) for w in a.data["weapons"]) else 0.0
        for t in foes:
            tb = t.body()
            if distance_m(ab, tb, cell) <= far + 1e-9 or reach and in_melee_reach(ab, tb, reach, cell):
                out.append((a, t, None))
    for sp in a.data["spells"]:
        info = SPELLS[sp]
        if (turn["action"] if info["time"] == "action" else turn["bonus"]) or info["kind"] == "temp_hp":
            continue
        area = info.get("area")
        if area and area["shape"] == "self":        # what the caster's own point sees (_area_targets)
            out += [(a, o, None) for o in session.state.actors.values() if o.id != a.id and not o.dead
                    and distance_m(ab, o.body(), cell) <= area["radius_m"] + 1e-9]
            continue
        if area:
            if area["shape"] != "sphere":
                continue
            for t in foes:                   # a sphere on a foe: what its centre sees
                pb = Body(t.x, t.y, t.layer)
                if distance_m(ab, ab.moved(t.x, t.y, t.layer), cell) > info["range_m"] + 1e-9:
                    continue
                eye = (t.x + 0.5, t.y + 0.5, t.layer + 0.5)
                out += [(a, o, eye) for o in session.state.actors.values() if o.id != a.id and not o.dead
                        and distance_m(pb, o.body(), cell) <= area["radius_m"] + 1e-9]
            continue
        for t in (friends if info["kind"] == "heal" else foes):
            if distance_m(ab, t.body(), cell) <= max(info["range_m"], 1.5) * 2 + 1e-9:
                out.append((a, t, None))
    if not turn["action"] and not a.has("invisible"):
        out += [(o, a, None) for o in session.state.actors.values()
                if conditions.hostile(rs, o, a) and not o.dead and not conditions.incapacitated(rs, o) and not o.has("blinded")]
    return out
