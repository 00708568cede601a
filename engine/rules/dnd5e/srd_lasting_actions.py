"""The SRD save actions' second effects (issue 44), played by ``creature_action`` (actions/srd.py) through the keys
srd_lasting_text.py puts on a block's ``creature_actions`` entries:

* SRD-74 Horror Nimbus: "Each creature within 15 feet of the nalfeshnee that can see the light" -- a creature that
  does not see the nalfeshnee (blinded, behind an obscuring area) makes no save (``sees_it``); "If a creature's
  saving throw is successful or the effect ends for it, the creature is immune ... for the next 24 hours": the rest of
  the scene (``immune_after``, the record ``srd_immune``); "uses Horror Nimbus if it can. It then makes three
  attacks" (``in_multiattack``: the Attack action's attacks are left to make).
* SRD-75 Lightning Strike: a sphere at a point within 500 feet (srd_lasting_text ``extra``; SRD-12's area code).
* SRD-76 Spores: "While poisoned in this way, a target takes 5 (1d10) poison damage at the start of each of its
  turns" (``each_turn``: while the poisoned condition from that vrock lasts; the repeated save or anything ending
  the condition ends it); "The spores spread around corners" (``around_corners``: every creature within the radius,
  whatever cover stands between). The holy water is not played: the engine has no such object.
* SRD-77 Roar: "Each time it roars before finishing a long rest, the roar is louder and the effect is different":
  the roars used (the 3/Day uses counted on the sheet's ``creature_state``) pick the roar (``roars``); the second's
  paralysis lasts while that fright does, its deafness 1 minute (10 rounds, ending as the sphinx's turn starts).
* SRD-78 Lightning Storm: "three bolts of lightning, each of which can strike a target the kraken can see within 120
  feet of it": the action's ``target`` and ``targets``, a different creature each, each bolt its own damage roll.
* SRD-79 Fetid Cloud: "A 10-foot radius of disgusting green gas extends out from the dretch ... It lasts for 1
  minute": the cloud stays where it formed (the dretch's space then) 10 rounds, ending as the dretch's turn starts
  (its death does not end it); "Any creature that starts its turn in that area must succeed on a DC 11 Constitution
  saving throw or be poisoned until the start of its next turn. While poisoned in this way, the target can take
  either an action or a bonus action on its turn, not both, and can't take reactions" (SRD-27's one of action or
  bonus action; the reaction spent). The gas spreads around corners: a wall between does not stop it. A creature
  immune to the poisoned condition makes no save.
* SRD-80 the legendary "Lightning Storm (Costs 2 Actions). The kraken uses Lightning Storm.": its bolts at the end of
  another creature's turn (SRD-15), at the nearest foes it sees in range (``legendary_bolts``)."""

from __future__ import annotations

from engine.rules.core import Illegal
from engine.rules.dnd5e import attacks, conditions, text
from engine.rules.dnd5e.data import CONDITION_RULE
from engine.rules.dnd5e.srd_sheet import dice_parts
from engine.rules.dnd5e.turns import TURN_END, TURN_START
from engine.world.geometry import Body, distance_m

NIMBUS, STRIKE, SPORES, ROAR, BOLTS, CLOUD = "SRD-74", "SRD-75", "SRD-76", "SRD-77", "SRD-78", "SRD-79"
LEGENDARY_BOLTS = "SRD-80"

text.EVENT_LINES.update({
    "roar": text._did(lambda s, e: f"roars for the {('first', 'second', 'third')[e['roar'] - 1]} time"),
    "cloud": text._did(lambda s, e: f"'s {e['feature']} is gone" if e.get("ended") else
                       f"fills {e['radius_m']:g} m around it with its {e['feature']}"),
})


def _key(a, f: dict) -> str:
    return f"{a.id}/{f['name']}"


def immune(t, a, f: dict) -> bool:
    """SRD-74: ``t`` saved against ``a``'s feature, or the condition it gave has ended."""
    st = (t.data.get("srd_immune") or {}).get(_key(a, f))
    return st == "immune" or (st is not None and st != "immune" and a.id not in t.conditions.get(st, ()))


def caught(rs, session, a, f: dict, targets: list[str]) -> list[str]:
    """The creatures a self-area save action reaches: around corners (SRD-76), seeing it, not immune (SRD-74)."""
    if f.get("cloud"):
        return []                       # SRD-79: no save as the cloud forms; a turn starting in it makes one
    if f.get("around_corners"):
        cell = session.world.cell_m
        targets = [o.id for o in session.state.actors.values() if o.id != a.id and not o.dead
                   and distance_m(a.body(), o.body(), cell) <= f["area"]["radius_m"] + 1e-9]
    out = []
    for tid in targets:
        t = session.state.actors[tid]
        if f.get("sees_it") and not rs.sees(session, t, a):
            continue
        if f.get("immune_after") and immune(t, a, f):
            continue
        out.append(tid)
    return out


def current(a, f: dict) -> dict:
    """SRD-77: the roar the next use is -- the first, second or third (the uses already spent); what the preview and
    the policies weigh."""
    if not f.get("roars"):
        return f
    used = ((a.data.get("creature_state") or {}).get(f.get("recharge_group") or f["name"]) or {}).get("used", 0)
    n = min(int(used), len(f["roars"]) - 1)
    r = f["roars"][n]
    return {**f, "ability": r["ability"], "dc": r["dc"], "damage": r["damage"], "half": r["half"], "condition": None,
            "repeat_save": False, "roar": r, "roar_number": n + 1}


def stage(session, a, f: dict) -> dict:
    """SRD-77: the roar this use is, announced (a ``roar`` event)."""
    f = current(a, f)
    if f.get("roar"):
        session.emit({"type": "roar", "who": a.id, "feature": f["name"], "roar": f["roar_number"], "rule": ROAR})
    return f


def after_save(rs, session, a, t, f: dict, ok: bool) -> None:
    """What follows ``t``'s save against ``a``'s feature ``f`` (SRD-12 played the damage and the one condition)."""
    if t.dead:
        return
    if f.get("immune_after"):
        cond = f.get("condition")
        t.data.setdefault("srd_immune", {})[_key(a, f)] = "immune" if ok or cond not in t.conditions else cond
    if f.get("each_turn") and not ok and a.id in t.conditions.get(f.get("condition") or "", ()):
        t.data.setdefault("each_turn_damage", []).append({"by": a.id, "feature": f["name"], "condition": f["condition"],
                                                         **f["each_turn"]})
    r = f.get("roar")
    if r and not ok:
        for c in r["conditions"]:
            if c in CONDITION_RULE:
                conditions.add_condition(rs, session, t, c, CONDITION_RULE[c], source=a.id)
        if r.get("repeat_save") in t.conditions:
            t.data.setdefault("repeat_saves", {})[r["repeat_save"]] = {"save": r["ability"], "dc": r["dc"],
                                                                       "spell": f["name"], "rule": ROAR}
        if r.get("paralyzed_while") and "paralyzed" in t.conditions:
            t.data.setdefault("roar_paralysis", []).append({"by": a.id, "while": r["paralyzed_while"]})
        if r.get("deafened_rounds") and "deafened" in t.conditions:
            t.data.setdefault("roar_deafened", []).append({"by": a.id,
                                                           "until_round": session.state.round + r["deafened_rounds"]})


@TURN_START.rule(SPORES)
def save_action_each_turn(rs, session, t):
    """SRD-76: "While poisoned in this way, a target takes 5 (1d10) poison damage at the start of each of its
    turns" -- while the condition from that creature lasts."""
    kept = []
    for e in t.data.get("each_turn_damage") or ():
        if t.dead or e["by"] not in t.conditions.get(e["condition"], ()):
            continue
        kept.append(e)
        n, s, b = dice_parts(e["dice"])
        amount = sum(session.roll("damage", s, n, who=e["by"], rule=SPORES, purpose=f"{e['feature']}: each turn")) + b
        if amount > 0:
            rs.apply_damage(session, t, amount, e["type"], e["by"], SPORES)
    if t.data.get("each_turn_damage") is not None:
        t.data["each_turn_damage"] = kept


@TURN_END.rule(ROAR)
def roar_paralysis_ends(rs, session, t):
    """SRD-77: "A frightened creature is paralyzed": when the second roar's fright ends (its repeated save), so
    does the paralysis."""
    kept = []
    for p in t.data.get("roar_paralysis") or ():
        if p["by"] in t.conditions.get(p["while"], ()):
            kept.append(p)
        elif "paralyzed" in t.conditions:
            conditions.remove_condition(rs, session, t, "paralyzed", ROAR)
    if t.data.get("roar_paralysis") is not None:
        t.data["roar_paralysis"] = kept


@TURN_START.rule(ROAR)
def roar_deafness_ends(rs, session, x):
    """SRD-77: the second roar's deafness, "for 1 minute": 10 rounds, ending as the roaring creature's turn starts."""
    for o in session.state.actors.values():
        recs = o.data.get("roar_deafened")
        if not recs:
            continue
        over = [r for r in recs if r["by"] == x.id and session.state.round >= r["until_round"]]
        if over:
            o.data["roar_deafened"] = [r for r in recs if r not in over]
            if "deafened" in o.conditions:
                conditions.remove_condition(rs, session, o, "deafened", ROAR)


def bolt_ids(f: dict, act: dict) -> list[str]:
    """SRD-78 "creates three bolts of lightning, each of which can strike a target": the action's ``target`` and its
    other ``targets``, one bolt each (a creature struck once), at most the bolts written."""
    more = list(act.get("targets") or ())
    if more and not f.get("bolts"):
        raise Illegal(f"{f['name']} strikes one target: `targets` is for bolts (Lightning Storm)", BOLTS, "targets")
    ids = [act["target"], *more]
    if len(set(ids)) != len(ids) or len(ids) > int(f.get("bolts") or 1):
        raise Illegal(f"{f['name']}: {f.get('bolts')} bolts, each at a different target; got {', '.join(ids)}", BOLTS,
                      "targets")
    return ids


def more_bolts(rs, session, a, f: dict, t, foes) -> dict:
    """The policy's other targets for SRD-78's bolts: the nearest other foes it sees within the range."""
    if not f.get("bolts"):
        return {}
    cell = session.world.cell_m
    near = sorted((distance_m(a.body(), o.body(), cell), o.id) for o in foes if o.id != t.id and not o.dead
                  and distance_m(a.body(), o.body(), cell) <= f.get("range_m", 1.5) + 1e-9 and rs.sees(session, a, o))
    ids = [i for _, i in near[:int(f["bolts"]) - 1]]
    return {"targets": ids} if ids else {}


def begin_cloud(session, a, f: dict) -> None:
    """SRD-79: the cloud forms around ``a`` where it stands, for the rounds written."""
    if not f.get("cloud"):
        return
    b = a.body()
    a.data.setdefault("clouds", []).append({
        "feature": f["name"], "at": [b.x, b.y, b.layer], "footprint": b.footprint, "height": b.height_layers,
        "radius_m": f["cloud"]["radius_m"], "until_round": session.state.round + int(f["cloud"]["rounds"]),
        "dc": f["dc"], "ability": f["ability"], "condition": f.get("condition") or "poisoned"})
    session.emit({"type": "cloud", "who": a.id, "feature": f["name"], "at": [b.x, b.y, b.layer],
                  "radius_m": f["cloud"]["radius_m"], "rule": CLOUD})


def _in_cloud(session, c: dict, t) -> bool:
    x, y, z = c["at"]
    return distance_m(Body(x, y, z, c["footprint"], c["height"]), t.body(), session.world.cell_m) <= c["radius_m"] + 1e-9


@TURN_START.rule(CLOUD)
def fetid_cloud(rs, session, t):
    """SRD-79: ``t``'s poisoning from a cloud ends as its turn starts; the clouds of ``t`` that are over end; a cloud
    ``t`` starts its turn in makes it save."""
    was = t.data.pop("fetid", None)
    if was is not None:
        t.data.pop("one_action_only", None)
        if was["by"] in t.conditions.get(was["condition"], ()):
            srcs = [s for s in t.conditions[was["condition"]] if s != was["by"]]
            if srcs:
                t.conditions[was["condition"]] = srcs
            else:
                conditions.remove_condition(rs, session, t, was["condition"], CLOUD)
    if t.data.get("clouds"):
        gone = [c for c in t.data["clouds"] if session.state.round >= c["until_round"]]
        t.data["clouds"] = [c for c in t.data["clouds"] if c not in gone]
        for c in gone:
            session.emit({"type": "cloud", "who": t.id, "feature": c["feature"], "ended": True, "rule": CLOUD})
    if t.dead:
        return
    for o in list(session.state.actors.values()):
        for c in o.data.get("clouds") or ():
            if not _in_cloud(session, c, t) or conditions.condition_immunity(rs, t, c["condition"]) is not None:
                continue
            ok = conditions.saving_throw(rs, session, t, c["ability"], c["dc"], o, CLOUD, c["feature"])
            if ok or t.dead:
                continue
            conditions.add_condition(rs, session, t, c["condition"], CONDITION_RULE[c["condition"]], source=o.id)
            if o.id in t.conditions.get(c["condition"], ()):
                t.data["fetid"] = {"by": o.id, "condition": c["condition"]}
                t.data["one_action_only"] = True
                t.data["reaction_used"] = True          # "can't take reactions"
                return


def legendary_bolts(rs, session, a, opt: dict, points: int) -> bool:
    """SRD-80 "Lightning Storm (Costs 2 Actions). The kraken uses Lightning Storm.": its bolts (SRD-78) at the nearest
    foes it sees within the range, one each, each its own damage roll and save; False (nothing spent) with no foe."""
    f = next((e for e in a.data.get("creature_actions") or () if e["name"] == opt["feature"]), None)
    if f is None:
        return False
    cell = session.world.cell_m
    foes = sorted((distance_m(a.body(), o.body(), cell), o.id) for o in session.state.actors.values()
                  if not o.dead and o.hp > 0 and conditions.hostile(rs, a, o)
                  and distance_m(a.body(), o.body(), cell) <= f.get("range_m", 1.5) + 1e-9 and rs.sees(session, a, o))
    targets = [i for _, i in foes[:int(f.get("bolts") or 1)]]
    if not targets:
        return False
    a.data["legendary_points"] = points - opt["cost"]
    session.emit({"type": "legendary_action", "who": a.id, "option": opt["name"], "cost": opt["cost"],
                  "points_left": a.data["legendary_points"], "targets": targets, "rule": "SRD-15"})
    for tid in targets:
        t = session.state.actors[tid]
        rolled = []
        for d in f.get("damage", ()):
            n, s, b = dice_parts(d["dice"])
            rolled.append((sum(session.roll("damage", s, n, who=a.id, rule=LEGENDARY_BOLTS)) + b if n else b, d["type"]))
        if t.dead:
            continue
        cov = attacks.cover(rs, session, a, t).level if f["ability"] == "dex" else "none"
        ok = conditions.saving_throw(rs, session, t, f["ability"], f["dc"], a, LEGENDARY_BOLTS, opt["name"],
                                     cover_level=cov, sole_target=len(targets) == 1)
        for amount, dtype in rolled:
            amt = amount if not ok else (amount // 2 if f.get("half") else 0)
            if amt and not t.dead:
                rs.apply_damage(session, t, amt, dtype, a.id, LEGENDARY_BOLTS)
    return True
