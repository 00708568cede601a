"""The SRD creatures' charms, fears and possessions (SRD-65..72, issue 44): what a save action's ``charm`` keys
(engine/rules/dnd5e/srd_charm_text.py) add to SRD-12's save. actions/srd.py asks ``refusal`` (who may be targeted),
``spared`` (who makes no save), ``advantage`` and, after each save, ``after_save``; the hooks below play what lasts.

* SRD-65 a charm that harm breaks (the vampire's Charm, the dryad's Fey Charm): charmed by the creature (DND-54: the
  target can't attack or harm it); each time the charmer or a creature of its side damages the target, it repeats
  the save (a success ends the charm). The vampire's charmed target is "a willing target for the vampire's bite"
  (SRD-48 reads it so). "can have no more than one humanoid and up to three beasts charmed at a time": a new one
  frees the oldest of its kind.
* SRD-66 a charm that commands (the succubus' Charm, the aboleth's Enslave): as SRD-65, and the target is under the
  charmer's control: it is played as a creature of the charmer's side (a ``controlled`` event) until the charm ends;
  it repeats the save whenever it takes damage. The aboleth's target "can't take reactions".
* SRD-67 Death Glare: only a frightened creature is a target; a failed save drops it to 0 hit points.
* SRD-68 the stone golem's Slow: each foe it sees within the range saves; a failure is SRD-27's slowed (no
  reactions, half speed, one attack, an action or a bonus action) with its Wisdom save at the end of each turn.
* SRD-70 a fear with conditions: "Each non-undead creature ... that can see it" (the ghost), a success makes it
  immune; the quasit's Scare repeats "with disadvantage if the quasit is within line of sight".
* SRD-71 Possession: the ghost disappears into the target (it leaves the board: ``possessing``), the target is
  played as a creature of the ghost's side with the ghost's Intelligence, Wisdom and Charisma; when the body drops
  to 0 hit points the ghost reappears where the body is, the body goes back to its side.
* SRD-72 Luring Song: charmed and incapacitated; a target farther than 5 ft. from the harpy moves toward it by the
  most direct route at the start of its turn (a walker under a flyer walks to the ground below it: it cannot rise);
  it repeats the save at the end of each of its turns and when damage comes from another than the harpy. The harpy
  keeps singing with its bonus action on its later turns; the song ends when the harpy is incapacitated.
"""

from __future__ import annotations

import math

from engine.rules import aerial
from engine.rules.core import Illegal
from engine.rules.dnd5e import attacks, conditions, damage, text
from engine.rules.dnd5e.srd_air import Push
from engine.rules.dnd5e.srd_sheet import has
from engine.rules.dnd5e.turns import TURN_END, TURN_START


def _type(t) -> str:
    return t.data.get("creature_type") or "humanoid"        # a character with no type: a humanoid (player's kind)


def refusal(rs, session, a, t, f: dict) -> Illegal | None:
    """Why ``a`` may not aim ``f`` at ``t`` (its type, "one frightened creature", a charmer of ``a``), or None."""
    ch = f.get("charm") or {}
    if t.id in a.conditions.get("charmed", []):
        return Illegal(f"{a.name} is charmed by {t.name} and cannot harm it", "DND-54", "target")
    if ch.get("types") and _type(t) not in ch["types"]:
        return Illegal(f"{f['name']} targets a {' or a '.join(ch['types'])}: {t.name} is a {_type(t)}", ch["rule"],
                       "target")
    if ch.get("needs") and not t.has(ch["needs"]):
        return Illegal(f"{f['name']} targets one {ch['needs']} creature: {t.name} is not {ch['needs']}", ch["rule"],
                       "target")
    return None


def caught(rs, session, a, f: dict, targets: list[str]) -> list[str]:
    """An area's targets: the foes it sees ("one or more creatures it can see", SRD-68), those of its types."""
    ch = f.get("charm") or {}
    out = []
    for tid in targets:
        t = session.state.actors[tid]
        if ch.get("choose") and (t.side == a.side or not attacks.sees(rs, session, a, t)):
            continue
        if ch.get("types") and _type(t) not in ch["types"]:
            continue
        out.append(tid)
    return out


def immune(a, t, f: dict) -> bool:
    """SRD-69: ``t`` is immune to ``a``'s ``f`` (a success or the effect's end, earlier in the fight)."""
    return f"{a.id}:{f['name']}" in (t.data.get("charm_immune") or ())


def spared(rs, session, a, t, f: dict) -> bool:
    """Whether ``t`` makes no save at all: it is immune, or it does not see ``a`` where the text says it must."""
    ch = f.get("charm") or {}
    why, rule = None, ch["rule"]
    if immune(a, t, f):
        why, rule = f"immune to {a.name}'s {f['name']}", "SRD-69"
    elif ch.get("sees") and not attacks.sees(rs, session, t, a):
        why = f"it cannot see {a.name}"
    if why:
        session.emit({"type": "charm_spared", "who": t.id, "by": a.id, "feature": f["name"], "why": why,
                      "rule": rule})
    return why is not None


def advantage(t, f: dict) -> str | None:
    return "Magic Resistance (SRD-10)" if (f.get("charm") or {}).get("magic") and has(t, "magic resistance") else None


def after_save(rs, session, a, t, f: dict, ok: bool) -> None:
    ch = f["charm"]
    if ok:
        if ch.get("immune"):
            _immune(session, a, t, f["name"])
        return
    if t.dead:
        return
    if ch.get("to_zero"):                      # SRD-67 "or drop to 0 hit points"
        drop_to_zero(rs, session, a, t, f["name"], ch["rule"])
        return
    if ch.get("possess"):
        _possess(rs, session, a, t, f)
        return
    cond = f.get("condition")
    if cond and cond in t.conditions and a.id in t.conditions[cond] and (ch.get("repeat") or ch.get("lure")):
        _hold(rs, session, a, t, f)


def drop_to_zero(rs, session, a, t, name: str, rule: str) -> None:
    """SRD-67 "or drop to 0 hit points": no damage (no resistance halves it); temporary hit points do not hold it
    up. A monster dies (DND-02's ``monsters_die_at_0``), another falls unconscious and dying."""
    t.hp, t.temp_hp = 0, 0
    session.emit({"type": "drop_to_zero", "who": t.id, "by": a.id, "feature": name, "rule": rule})
    session.emit({"type": "hp", "who": t.id, "hp": 0, "max_hp": t.max_hp})
    if not t.data["pc"] and rs.opt("monsters_die_at_0"):
        damage.die(rs, session, t, f"{name}: it dropped to 0 hit points", rule)
    else:
        t.data["death"] = {"successes": 0, "failures": 0}
        t.data["stable"] = False
        session.emit({"type": "dying", "who": t.id, "rule": "DND-02"})
        conditions.add_condition(rs, session, t, "unconscious", "DND-02")
    aerial.check_grounded(session, t)
    damage.check_over(rs, session)


def _immune(session, a, t, name: str) -> None:
    """SRD-69 "the target is immune to this ghost's Horrifying Visage for the next 24 hours" (24 hours outlast the
    fight): the sheet's ``charm_immune`` ("<creature id>:<feature>")."""
    key = f"{a.id}:{name}"
    if key not in (t.data.get("charm_immune") or ()):
        t.data["charm_immune"] = sorted(set(t.data.get("charm_immune") or ()) | {key})
        session.emit({"type": "charm_immune", "who": t.id, "by": a.id, "feature": name, "rule": "SRD-69"})


def _hold(rs, session, a, t, f: dict) -> None:
    """The lasting charm (or fear) on ``t``: its repeat, its limit, its control."""
    ch = f["charm"]
    held = {"by": a.id, "feature": f["name"], "condition": f["condition"], "dc": int(f["dc"]),
            "ability": f["ability"], "rule": ch["rule"], "repeat": ch.get("repeat", ""),
            "seq": sum(len(o.data.get("srd_charms") or ()) for o in session.state.actors.values())}
    for k in ("immune", "dis_seen", "lure", "no_reactions", "control"):
        if ch.get(k):
            held[k] = True
    for kind, most in (ch.get("limit") or {}).items():       # "no more than one humanoid and up to three beasts"
        if kind in ("any", _type(t)):
            _free_oldest(rs, session, a, f["name"], kind, most - 1)
    t.data.setdefault("srd_charms", []).append(held)
    if ch.get("lure"):
        conditions.add_condition(rs, session, t, "incapacitated", ch["rule"], source=a.id)
        a.data["singing"] = True
    if ch.get("no_reactions"):
        t.data["reaction_used"] = True
    if ch.get("control") and t.side != a.side:
        held["side"] = t.side
        t.side = a.side
        session.emit({"type": "controlled", "who": t.id, "by": a.id, "side": a.side, "rule": ch["rule"]})


def _free_oldest(rs, session, a, name: str, kind: str, keep: int) -> None:
    mine = sorted(((h["seq"], o) for o in session.state.actors.values() for h in o.data.get("srd_charms") or ()
                   if h["by"] == a.id and h["feature"] == name and (kind == "any" or _type(o) == kind)),
                  key=lambda x: x[0])
    for _, o in mine[:max(0, len(mine) - keep)]:
        end(rs, session, o, next(h for h in o.data["srd_charms"] if h["by"] == a.id and h["feature"] == name),
            f"{a.name} charms another")


def end(rs, session, t, held: dict, why: str) -> None:
    """The charm ``held`` on ``t`` ends: its condition from that source, its control, its immunity where written."""
    t.data["srd_charms"] = [h for h in t.data.get("srd_charms") or () if h is not held]
    srcs = [s for s in t.conditions.get(held["condition"], []) if s != held["by"]]
    if held["condition"] in t.conditions:
        if srcs:
            t.conditions[held["condition"]] = srcs
        else:
            conditions.remove_condition(rs, session, t, held["condition"], held["rule"])
    if held.get("lure") and "incapacitated" in t.conditions:
        rest = [s for s in t.conditions["incapacitated"] if s != held["by"]]
        if rest:
            t.conditions["incapacitated"] = rest
        else:
            conditions.remove_condition(rs, session, t, "incapacitated", held["rule"])
    if "side" in held:
        t.side = held["side"]
    session.emit({"type": "charm_ended", "who": t.id, "by": held["by"], "feature": held["feature"], "why": why,
                  "rule": held["rule"]})
    if held.get("immune"):
        by = session.state.actors.get(held["by"])
        if by is not None:
            _immune(session, by, t, held["feature"])


def _repeat(rs, session, t, held: dict, purpose: str, disadvantage: str | None = None) -> None:
    if conditions.saving_throw(rs, session, t, held["ability"], held["dc"], None, held["rule"],
                               f"{purpose} against {held['feature']}", disadvantage=disadvantage):
        end(rs, session, t, held, "a successful save")


@damage.damage_modifier("SRD-65")
def harm_repeats_charm(rs, session, t, dmg):
    """SRD-65, -66, -72: "Each time the vampire or the vampire's companions do anything harmful to the target, it can
    repeat the saving throw" (the charmer's side), "Whenever the charmed target takes damage" (any), "whenever it
    takes damage from a source other than the harpy"; SRD-71: the possessed body dropping to 0 hit points ends it."""
    if dmg["amount"] <= 0:
        return
    if t.data.get("possessed_by"):
        _possession_at_zero(rs, session, t, dmg)
    src = session.state.actors.get(dmg.get("source") or "")
    for held in list(t.data.get("srd_charms") or ()):
        by = session.state.actors.get(held["by"])
        if held["repeat"] == "harm_by_side" and not (src is not None and by is not None and src.side == by.side
                                                     and src.id != t.id):
            continue
        if held["repeat"] == "lure" and src is not None and src.id == held["by"]:
            continue
        if held["repeat"] in ("harm_by_side", "damage", "lure") and not t.dead:
            _repeat(rs, session, t, held, "harmed: a save")


@damage.DEATH.rule("SRD-65")
def charmer_dies(rs, session, a):
    """SRD-65, -66, -72: "until the dryad dies", "until the vampire is destroyed", "until the aboleth dies", "The
    song ends if the harpy is incapacitated": the charms a creature holds end with it (a fear outlives it)."""
    for o in session.state.actors.values():
        for held in [h for h in o.data.get("srd_charms") or () if h["by"] == a.id and h["condition"] == "charmed"]:
            end(rs, session, o, held, f"{a.name} died")
    a.data.pop("singing", None)


@TURN_END.rule("SRD-70")
def charm_repeat_save(rs, session, a):
    """SRD-70 "The target can repeat the saving throw at the end of each of its turns, with disadvantage if the
    quasit is within line of sight"; SRD-72 "A creature can also repeat the saving throw at the end of each of its
    turns"."""
    for held in list(a.data.get("srd_charms") or ()):
        if a.dead or held["repeat"] not in ("end_turn", "lure") or held["condition"] not in a.conditions:
            continue
        by = session.state.actors.get(held["by"])
        dis = None
        if held.get("dis_seen") and by is not None and not by.dead and attacks.sight(rs, session, a, by):
            dis = f"{by.name} is within line of sight"
        _repeat(rs, session, a, held, "end of turn save", dis)


@TURN_START.rule("SRD-72")
def charm_turn_start(rs, session, a):
    """SRD-66 "can't take reactions"; SRD-72: the harpy sings on with its bonus action (the song ends when it is
    incapacitated), and a charmed target farther than 5 ft. moves toward it by the most direct route."""
    for held in a.data.get("srd_charms") or ():
        if held.get("no_reactions"):
            a.data["reaction_used"] = True
    if a.data.get("singing") and not any(h.get("lure") and h["by"] == a.id for o in session.state.actors.values()
                                         for h in o.data.get("srd_charms") or ()):
        a.data.pop("singing")                       # no one is charmed by the song: it need not go on
    if a.data.get("singing"):
        if conditions.incapacitated(rs, a):
            _song_ends(rs, session, a, f"{a.name} is incapacitated")
        elif session.state.turn.get("actor") == a.id:
            session.state.turn["bonus"] = True
            session.emit({"type": "song", "who": a.id, "rule": "SRD-72"})
    turn = session.state.turn
    if a.data.get("possessing") and turn.get("actor") == a.id:       # SRD-71: no body of its own to act with
        turn["action"], turn["bonus"], turn["attacks_left"] = True, True, 0
        turn["moved_m"] = turn.get("moved_m", 0) + rs.movement_left(session, a, a.flying)
        session.emit({"type": "possessing", "who": a.id, "body": a.data["possessing"]["body"], "rule": "SRD-71"})
    lure = next((h for h in a.data.get("srd_charms") or () if h.get("lure")), None)
    if lure is not None and not a.dead:
        _lured(rs, session, a, lure)


def _song_ends(rs, session, harpy, why: str) -> None:
    harpy.data.pop("singing", None)
    for o in session.state.actors.values():
        for held in [h for h in o.data.get("srd_charms") or () if h.get("lure") and h["by"] == harpy.id]:
            end(rs, session, o, held, why)


def _lured(rs, session, a, held: dict) -> None:
    h = session.state.actors.get(held["by"])
    if h is None or h.dead:
        return
    cell = session.world.cell_m
    dx, dy = (h.x - a.x) * cell, (h.y - a.y) * cell
    flat = math.hypot(dx, dy)
    reach = 1.5 + (h.footprint - 1) * cell / 2 + (a.footprint - 1) * cell / 2
    if flat <= reach + 1e-9:
        return
    metres = min(rs.movement_left(session, a, a.flying), flat - reach)
    if metres <= 0:
        return
    start = Push.slide(session, a, (dx / flat, dy / flat, 0.0), metres)
    session.state.turn["moved_m"] = session.state.turn.get("moved_m", 0) + metres
    session.emit({"type": "lured", "who": a.id, "by": h.id, "from": list(start), "to": list(a.pos), "rule": "SRD-72"})
    aerial.fall_if_unsupported(session, a, "AIR-12", "walked off an edge (Luring Song)")


def _possess(rs, session, ghost, t, f: dict) -> None:
    """SRD-71: the ghost leaves the board; the body is played on its side with its Int, Wis and Cha."""
    ch = f["charm"]
    t.data["possessed_by"] = {"ghost": ghost.id, "side": t.side, "abilities": {k: t.data["abilities"][k]
                                                                              for k in ("int", "wis", "cha")}}
    for k in ("int", "wis", "cha"):
        t.data["abilities"][k] = ghost.data["abilities"][k]
    ghost.data["possessing"] = {"body": t.id, "at": [ghost.x, ghost.y, ghost.layer]}
    t.side = ghost.side
    if "incapacitated" in t.conditions and ghost.id in t.conditions["incapacitated"]:
        rest = [s for s in t.conditions["incapacitated"] if s != ghost.id]
        if rest:
            t.conditions["incapacitated"] = rest
        else:           # the target's own will is held ("loses control of its body"): the ghost moves the body
            conditions.remove_condition(rs, session, t, "incapacitated", ch["rule"])
    session.emit({"type": "possessed", "who": t.id, "by": ghost.id, "side": ghost.side, "rule": ch["rule"]})


def _possession_at_zero(rs, session, t, dmg) -> None:
    if dmg["amount"] < t.hp + t.temp_hp:
        return
    p = t.data.pop("possessed_by")
    ghost = session.state.actors[p["ghost"]]
    t.side = p["side"]
    t.data["abilities"].update(p["abilities"])
    ghost.data.pop("possessing", None)
    session.emit({"type": "possession_ended", "who": t.id, "by": ghost.id, "why": "the body drops to 0 hit points",
                  "rule": "SRD-71"})
    _immune(session, ghost, t, "Possession")


def _by(s, e) -> str:
    return getattr(s.state.actors.get(e.get("by")), "name", e.get("by"))


text.EVENT_LINES.update({
    "charm_spared": text._did(lambda s, e: f"makes no save against {_by(s, e)}'s {e['feature']}: {e['why']}"),
    "charm_immune": text._did(lambda s, e: f"is immune to {_by(s, e)}'s {e['feature']} (24 hours)"),
    "charm_ended": text._did(lambda s, e: f"is free of {_by(s, e)}'s {e['feature']} ({e['why']})"),
    "controlled": text._did(lambda s, e: f"is under {_by(s, e)}'s control (side {e['side']})"),
    "drop_to_zero": text._did(lambda s, e: f"drops to 0 hit points ({_by(s, e)}'s {e['feature']})"),
    "possessed": text._did(lambda s, e: f"is possessed by {_by(s, e)} (side {e['side']})"),
    "possession_ended": text._did(lambda s, e: f"is no longer possessed by {_by(s, e)} ({e['why']})"),
    "possessing": text._did(lambda s, e: "is inside its possessed body: its turn passes"),
    "song": text._did(lambda s, e: "sings on (its bonus action)"),
    "lured": text._did(lambda s, e: f"is lured toward {_by(s, e)}: {e['from']} -> {e['to']}"),
})
