"""SRD-44 Engulf (the shambling mound's) and SRD-45 Whelm (the water elemental's), as the SRD 5.1 writes them (the
sheet's ``srd_engulf``, engine/rules/dnd5e/srd_swallow_text.py):

* "Multiattack. The shambling mound makes two slam attacks. If both attacks hit a Medium or smaller target, the target
  is grappled (escape DC 14), and the shambling mound uses its Engulf on it." / "Engulf. The shambling mound engulfs a
  Medium or smaller creature grappled by it. The engulfed target is blinded, restrained, and unable to breathe, and it
  must succeed on a DC 14 Constitution saving throw at the start of each of the mound's turns or take 13 (2d8 + 4)
  bludgeoning damage. If the mound moves, the engulfed target moves with it. The mound can have only one creature
  engulfed at a time."
* "Whelm (Recharge 4-6). Each creature in the elemental's space must make a DC 15 Strength saving throw. On a
  failure, a target takes 13 (2d8 + 4) bludgeoning damage. If it is Large or smaller, it is also grappled (escape DC
  14). Until this grapple ends, the target is restrained and unable to breathe unless it can breathe water. If the
  saving throw is successful, the target is pushed out of the elemental's space. The elemental can grapple one Large
  creature or up to two Medium or smaller creatures at one time. At the start of each of the elemental's turns, each
  target grappled by it takes 13 (2d8 + 4) bludgeoning damage. A creature within 5 feet of the elemental can pull a
  creature or object out of it by taking an action to make a DC 14 Strength and succeeding."

A held creature is grappled (SRD-19's ``srd_grapple``: the Escape action's check against the escape DC ends it, as
the grappler's death does), restrained while the grapple lasts, its sheet's ``held_in`` the holder's id: it is in the
holder's space (pathing ``SHARES``) and moves with it (srd_swallow.py ``moved_inside``). "Unable to breathe": the
SRD's Suffocating (``no_breath``): it holds its breath 1 + its Constitution modifier minutes (at least 30 seconds, ten
rounds a minute), then survives its Constitution modifier rounds (at least 1), then drops to 0 hit points, dying.
"""

from __future__ import annotations

from engine.rules import pathing
from engine.rules.dnd5e import attacks, conditions, srd_blocks, srd_swallow, text
from engine.rules.dnd5e.conditions import RELEASED
from engine.rules.dnd5e.damage import DEATH
from engine.rules.dnd5e.data import SIZES
from engine.rules.dnd5e.srd_sheet import dice_parts
from engine.rules.dnd5e.turns import TURN_START

ENGULF, WHELM = "SRD-44", "SRD-45"

text.EVENT_LINES.update({
    "engulfed": text._did(lambda s, e: f"is engulfed by {text._name(s, e['by'])}" + ("" if e["breathes"] else ", unable to breathe")),
    "engulf_ends": text._did(lambda s, e: f"is out of {text._name(s, e['by'])}, at {e['to']}"),
    "whelm": text._did(lambda s, e: "whelms " + (", ".join(text._name(s, i) for i in e["targets"]) or "no one")),
    "pushed_out": text._did(lambda s, e: f"is pushed out of {text._name(s, e['by'])} to {e['to']}"),
    "pull_out": text._did(lambda s, e: f"pulls {text._name(s, e['target'])} out of {text._name(s, e['from'])}: {e['total']} vs DC {e['dc']}, "
                          + ("success" if e["success"] else "failure")),
    "suffocates": text._did(lambda s, e: f"runs out of breath after {e['rounds']} rounds"),
})


def rule_of(e: dict) -> str:
    return WHELM if e["kind"] == "whelm" else ENGULF


def held(session, a) -> list:
    """The creatures ``a`` holds engulfed (SRD-44, -45: grappled in its space; the cube's: inside it), in id order."""
    cube = (a.data.get("srd_engulf") or {}).get("kind") == "cube"
    return sorted((o for o in session.state.actors.values() if o.data.get("held_in") == a.id
                   and a.id in o.conditions.get("grappled", []) or cube and o.data.get("inside") == a.id),
                  key=lambda o: o.id)


def shares_held(a, o) -> bool:
    return a.data.get("held_in") == o.id or o.data.get("held_in") == a.id


pathing.SHARES.append(shares_held)


def room_for(session, a, t) -> bool:
    """"can grapple one Large creature or up to two Medium or smaller creatures at one time"; "can have only one
    creature engulfed at a time"."""
    e = a.data["srd_engulf"]
    now = held(session, a)
    if SIZES.index(t.size) > SIZES.index(e["max_size"]):
        return False
    if t.size == "large" or any(o.size == "large" for o in now):
        return not now and "large" in e["hold"]
    return len(now) < int(e["hold"].get("medium", 0))


def breathes_water(t) -> bool:
    """"unless it can breathe water": a creature whose SRD block (by its name) has Amphibious or Water Breathing, or
    that has Water Form (it is water)."""
    if (t.data.get("srd_features") or {}).get("air_form") and t.data.get("swim_speed_m"):
        return True
    block = next((c for c in srd_blocks.bestiary().values() if c["name"].lower() == t.name.lower()), None)
    if block is None:
        return False
    return any(f["name"].split(" (")[0].lower() in ("amphibious", "water breathing", "limited amphibiousness")
               for f in block["traits"])


def engulf(rs, session, a, t) -> None:
    """``t`` grappled by ``a`` is engulfed: restrained (the grapple's), blinded where written, unable to breathe,
    in ``a``'s space."""
    e = a.data["srd_engulf"]
    rule = rule_of(e)
    if a.id not in t.conditions.get("grappled", []):
        conditions.add_condition(rs, session, t, "grappled", rule, source=a.id)
        if a.id not in t.conditions.get("grappled", []):
            return                                  # immune to grappled (SRD-04): not held
    t.data["srd_grapple"] = {"by": a.id, "weapon": e["name"], "escape_dc": int(e["escape_dc"]), "restrained": True}
    t.data["held_in"] = a.id
    t.x, t.y, t.layer = srd_swallow._spot(a, t)
    t.flying = False
    breathes = e.get("water") and breathes_water(t)
    session.emit({"type": "engulfed", "who": t.id, "by": a.id, "at": [t.x, t.y, t.layer], "breathes": bool(breathes),
                  "rule": rule})
    conditions.add_condition(rs, session, t, "restrained", rule, source=a.id)
    if e.get("blinded"):
        conditions.add_condition(rs, session, t, "blinded", rule, source=a.id)
    if not breathes:
        t.data["no_breath"] = {"by": a.id, "rounds": 0}


@RELEASED.rule(ENGULF)
def engulf_ends(rs, session, t, holder):
    """The grapple ended (an escape, a pull, the holder's death): the creature leaves the holder's space for a free
    place beside it; its blindness from it ends, it breathes again."""
    if t.data.get("held_in") != holder.id:
        return
    t.data.pop("held_in")
    if (t.data.get("no_breath") or {}).get("by") == holder.id:
        t.data.pop("no_breath")
    srd_swallow._drop(rs, session, t, "blinded", holder.id)
    at = srd_swallow.free_place(session, holder, t, 2)
    if at is not None:
        t.x, t.y, t.layer = at
    session.emit({"type": "engulf_ends", "who": t.id, "by": holder.id, "to": list(t.pos),
                  "rule": rule_of(holder.data["srd_engulf"]) if holder.data.get("srd_engulf") else ENGULF})
    srd_swallow.aerial.fall_if_unsupported(session, t, "AIR-12", f"let out by {holder.name} aloft")


def _roll(session, a, dice: str, rule: str, purpose: str) -> int:
    n, s, b = dice_parts(dice)
    return (sum(session.roll("damage", s, n, who=a.id, rule=rule, purpose=purpose)) if n else 0) + b


@TURN_START.rule(ENGULF)
def engulfed_damage(rs, session, a):
    """At the start of each of the holder's turns: the mound's save or 2d8 + 4; the elemental's 2d8 + 4 to each."""
    e = a.data.get("srd_engulf")
    if not e or a.dead:
        return
    rule = rule_of(e)
    if e.get("recharge") and (a.data.get("creature_state") or {}).get(e["name"], {}).get("spent"):
        st = a.data["creature_state"][e["name"]]
        r = session.roll("recharge", 6, 1, who=a.id, rule="SRD-05", purpose=f"recharge {e['name']}")[0]
        st["spent"] = r < e["recharge"][0]
        session.emit({"type": "recharge", "who": a.id, "feature": e["name"], "roll": r, "recharged": not st["spent"],
                      "rule": "SRD-05"})
    each = e["each_turn"]
    for t in held(session, a):
        if t.dead:
            continue
        sv = each.get("save")
        if sv and conditions.saving_throw(rs, session, t, sv["ability"], int(sv["dc"]), a, rule, f"{a.name}'s "
                                          f"{e['name']}"):
            continue
        rs.apply_damage(session, t, _roll(session, a, each["dice"], rule, f"{e['name']}: {t.name}"), each["type"],
                        a.id, rule)


@TURN_START.rule(ENGULF)
def holding_breath(rs, session, t):
    """SRD Suffocating: "A creature can hold its breath for a number of minutes equal to 1 + its Constitution modifier
    (minimum of 30 seconds). When a creature runs out of breath ..., it can survive for a number of rounds equal to its
    Constitution modifier (minimum of 1 round). At the start of its next turn, it drops to 0 hit points and is
    dying\""""
    nb = t.data.get("no_breath")
    if not nb or t.dead:
        return
    nb["rounds"] += 1
    con = conditions.ab(rs, t, "con")
    if nb["rounds"] <= max(5, 10 * (1 + con)) + max(1, con) or t.hp == 0:
        return
    session.emit({"type": "suffocates", "who": t.id, "rounds": nb["rounds"], "rule": ENGULF})
    t.hp = 0
    session.emit({"type": "hp", "who": t.id, "hp": 0, "max_hp": t.max_hp})
    t.data["death"] = {"successes": 0, "failures": 0}
    t.data["stable"] = False
    session.emit({"type": "dying", "who": t.id, "rule": ENGULF})
    conditions.add_condition(rs, session, t, "unconscious", ENGULF)


def _slam_hit(rs, session, a, t, plan, hit) -> None:
    """The mound's Multiattack: "If both attacks hit a Medium or smaller target, the target is grappled (escape DC
    14), and the shambling mound uses its Engulf on it." (both within one Attack action)"""
    e = a.data.get("srd_engulf")
    if not hit or not e or e["kind"] != "mound" or plan.get("weapon", {}).get("name") != e["weapon"] or t.dead \
            or plan.get("kind") != "action":
        return
    key = [session.state.round, a.id]
    tally = a.data.get("slam_hits")
    if not tally or tally["turn"] != key:
        tally = a.data["slam_hits"] = {"turn": key, "hits": {}}
    tally["hits"][t.id] = tally["hits"].get(t.id, 0) + 1
    if tally["hits"][t.id] != 2 or SIZES.index(t.size) > SIZES.index(e["max_size"]) or t.data.get("held_in"):
        return
    if room_for(session, a, t):
        engulf(rs, session, a, t)
        return
    conditions.add_condition(rs, session, t, "grappled", ENGULF, source=a.id)    # grappled; its Engulf holds one
    if a.id in t.conditions.get("grappled", []):
        t.data["srd_grapple"] = {"by": a.id, "weapon": e["weapon"], "escape_dc": int(e["escape_dc"]),
                                 "restrained": False}


attacks.ATTACK_MADE.append(_slam_hit)


def whelm(rs, session, a) -> None:
    """The Whelm action: each creature in the elemental's space saves; held or pushed out."""
    e = a.data["srd_engulf"]
    st = a.data.setdefault("creature_state", {}).setdefault(e["name"], {})
    if e.get("recharge"):
        st["spent"] = True
    caught = in_space(session, a)
    session.emit({"type": "whelm", "who": a.id, "targets": [t.id for t in caught], "rule": WHELM})
    for t in caught:
        if conditions.saving_throw(rs, session, t, e["ability"], int(e["dc"]), a, WHELM, e["name"]):
            at = srd_swallow.free_place(session, a, t, 1)
            if at is not None:
                t.x, t.y, t.layer = at
                session.emit({"type": "pushed_out", "who": t.id, "by": a.id, "to": list(at), "rule": WHELM})
            continue
        rs.apply_damage(session, t, _roll(session, a, e["dice"], WHELM, f"{e['name']}: {t.name}"), e["type"], a.id,
                        WHELM)
        if not t.dead and room_for(session, a, t):
            engulf(rs, session, a, t)


def in_space(session, a) -> list:
    """The living creatures whose bodies are in ``a``'s space, not already held by it, in id order."""
    return sorted((o for o in session.state.actors.values() if o.id != a.id and not o.dead
                   and o.data.get("held_in") != a.id and srd_swallow.aerial._overlap(o, o.pos, a)),
                  key=lambda o: o.id)


def holder(session, t):
    """The creature holding ``t`` engulfed (SRD-44, -45), or None."""
    h = session.state.actors.get(t.data.get("held_in") or t.data.get("inside") or "")
    return h if h is not None and t in held(session, h) else None


def pull_out(rs, session, puller, t) -> bool:
    """"A creature within 5 feet of the elemental can pull a creature or object out of it by taking an action to make
    a DC 14 Strength and succeeding." The cube's (Ooze Cube): "Doing so requires a successful DC 12 Strength check, and
    the creature making the attempt takes 10 (3d6) acid damage"."""
    h = holder(session, t)
    e = h.data["srd_engulf"]
    if e.get("pull_damage"):
        pd = e["pull_damage"]
        rs.apply_damage(session, puller, _roll(session, h, pd["dice"], ENGULF, f"pulling {t.name} out"), pd["type"],
                        h.id, ENGULF)
    r = conditions.check_d20(rs, session, puller, "str", "check", rule_of(e), f"pull {t.name} out of {h.name}",
                             "Strength")
    total = r + conditions.ab(rs, puller, "str")
    ok = total >= int(e["pull_dc"])
    session.emit({"type": "pull_out", "who": puller.id, "target": t.id, "from": h.id, "total": total,
                  "dc": int(e["pull_dc"]), "success": ok, "rule": rule_of(e)})
    if ok and e["kind"] == "cube":
        leave_cube(rs, session, h, t)
    elif ok:
        conditions.release(rs, session, t, h, rule_of(e), f"pulled out by {puller.name}")
    return ok


# -- the gelatinous cube's Engulf (SRD-44) --------------------------------------------------------------------------

def cube_engulf(rs, session, a, t) -> None:
    """"the creature ... is engulfed. The engulfed creature can't breathe, is restrained": inside the cube (the Ooze
    Cube's "Creatures inside the cube can be seen but have total cover": SRD-43's ``inside``)."""
    t.data["inside"] = a.id
    t.x, t.y, t.layer = srd_swallow._spot(a, t)
    t.flying = False
    session.emit({"type": "engulfed", "who": t.id, "by": a.id, "at": [t.x, t.y, t.layer], "breathes": False,
                  "rule": ENGULF})
    conditions.add_condition(rs, session, t, "restrained", ENGULF, source=a.id)
    t.data["no_breath"] = {"by": a.id, "rounds": 0}


def leave_cube(rs, session, a, t) -> None:
    """"the creature escapes and enters a space of its choice within 5 feet of the cube" (the nearest free one)."""
    t.data.pop("inside", None)
    if (t.data.get("no_breath") or {}).get("by") == a.id:
        t.data.pop("no_breath")
    at = srd_swallow.free_place(session, a, t, 1)
    if at is not None:
        t.x, t.y, t.layer = at
    session.emit({"type": "engulf_ends", "who": t.id, "by": a.id, "to": list(t.pos), "rule": ENGULF})
    srd_swallow._drop(rs, session, t, "restrained", a.id)
    srd_swallow.aerial.fall_if_unsupported(session, t, "AIR-12", f"out of {a.name} aloft")


def escape_cube(rs, session, t) -> bool:
    """"An engulfed creature can try to escape by taking an action to make a DC 12 Strength check"."""
    a = holder(session, t)
    e = a.data["srd_engulf"]
    r = conditions.check_d20(rs, session, t, "str", "check", ENGULF, f"escape from {a.name}", "Strength")
    total = r + conditions.ab(rs, t, "str")
    ok = total >= int(e["escape_dc"])
    session.emit({"type": "escape", "who": t.id, "from": a.id, "total": total, "against": int(e["escape_dc"]),
                  "success": ok, "rule": ENGULF})
    if ok:
        leave_cube(rs, session, a, t)
    return ok


def cube_enters(rs, session, a, t, final) -> None:
    """"Whenever the cube enters a creature's space, the creature must make a DC 12 Dexterity saving throw. On a
    successful save, the creature can choose to be pushed 5 feet back or to the side of the cube. ... On a failed save,
    the cube enters the creature's space, and the creature takes 10 (3d6) acid damage and is engulfed." It always
    chooses the push, to the nearest free place beside the cube's body where its move ends; with none, or the cube
    full, the failure's damage without the engulfing and the push."""
    e = a.data["srd_engulf"]
    ok = conditions.saving_throw(rs, session, t, e["ability"], int(e["dc"]), a, ENGULF, e["name"], sole_target=True)
    here = a.x, a.y
    a.x, a.y = final[0], final[1]
    at = srd_swallow.free_place(session, a, t, 1)
    a.x, a.y = here
    if not ok or at is None:
        rs.apply_damage(session, t, _roll(session, a, e["dice"], ENGULF, f"{e['name']}: {t.name}"), e["type"], a.id,
                        ENGULF)
        if not t.dead and room_for(session, a, t):
            cube_engulf(rs, session, a, t)
            return
    if at is not None and not t.dead:
        t.x, t.y, t.layer = at
        session.emit({"type": "pushed_out", "who": t.id, "by": a.id, "to": list(at), "rule": ENGULF})


@DEATH.rule(ENGULF)
def cube_dies(rs, session, a):
    """A dead cube holds no one: each creature inside leaves for a free place beside it (the text is silent)."""
    if (a.data.get("srd_engulf") or {}).get("kind") == "cube":
        for t in held(session, a):
            leave_cube(rs, session, a, t)
