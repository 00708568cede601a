"""SRD-15 Legendary actions: "The dragon can take 3 legendary actions, choosing from the options below. Only one
legendary action option can be used at a time and only at the end of another creature's turn. The dragon regains
spent legendary actions at the start of its turn."

The sheet's ``legendary`` (srd_blocks.character): ``points`` and the options the rules play -- one attack of the
creature's ("The dragon makes a tail attack") and a save action around it ("Wing Attack (Costs 2 Actions)": each
creature within 10 ft., its DC, damage and condition). At the end of each other creature's turn, a legendary creature
that is not incapacitated takes one option while it has the points: the policy is the first option, in the block's
order, that reaches a foe (an attack: the foe its plan finds legal; a save action: a foe in its area; Detect, SRD-17:
a foe hidden from it). The GM's own
choice at that moment (a choice point) is not offered yet.
"""

from __future__ import annotations

from engine.rules.core import Illegal
from engine.rules.dnd5e import attacks, conditions, srd_brief, srd_cast, srd_detect, srd_drink, srd_gaze, srd_traits2, srd_wing
from engine.rules.dnd5e import srd_lasting_actions
from engine.rules.dnd5e.data import CONDITION_RULE
from engine.rules.dnd5e.srd_sheet import dice_parts
from engine.rules.dnd5e.turns import TURN_END, TURN_START


@TURN_START.rule("SRD-15")
def legendary_points_return(rs, session, a):
    """"The dragon regains spent legendary actions at the start of its turn.\""""
    lg = a.data.get("legendary")
    if lg:
        a.data["legendary_points"] = int(lg["points"])


def _foes(rs, session, a):
    return [o for o in session.state.actors.values() if not o.dead and o.hp > 0 and conditions.hostile(rs, a, o)]


def _attack_option(rs, session, a, opt):
    w = next((w for w in a.data["weapons"] if w["name"] == opt["weapon"]), None)
    if w is None:
        return None
    for t in _foes(rs, session, a):
        if w.get("drink") is not None and srd_drink.refusal(rs, a, w, t) is not None:
            continue                      # SRD-48: "one willing creature, or a creature that is grappled ..."
        try:
            plan = attacks.attack_plan(rs, session, a, t, w, False, reaction=True)
        except Illegal:
            continue
        return t, plan
    return None


def _hostiles_in(rs, session, a, opt) -> int:
    return sum(conditions.hostile(rs, a, session.state.actors[x]) for x in _area_targets(rs, session, a, opt))


def _area_targets(rs, session, a, opt):
    if opt.get("gaze"):                   # SRD-58: "one creature it can see within 10 feet of it"
        return srd_gaze.target(rs, session, a, opt)
    out = [tid for tid in attacks.area_targets(rs, session, a, {"area": opt["area"]}, a.pos, None) if tid != a.id]
    if opt.get("foes_only"):              # SRD-20: "Each creature of its choice": its foes
        out = [tid for tid in out if conditions.hostile(rs, a, session.state.actors[tid])]
    if opt.get("hearing") or opt.get("not_types"):      # SRD-55: "Each living creature", "that can hear"
        out = srd_brief.caught(session, opt, out)
    return out


@TURN_END.rule("SRD-15")
def legendary_actions(rs, session, ender):
    """At the end of ``ender``'s turn, each other legendary creature takes one option it can pay for."""
    for a in list(session.state.actors.values()):
        lg = a.data.get("legendary")
        if not lg or a.id == ender.id or a.dead or a.hp == 0 or conditions.incapacitated(rs, a):
            continue
        points = int(a.data.get("legendary_points", 0))
        for opt in srd_wing.ordered(rs, session, a, lg["options"], points,       # SRD-20: a Wing Attack first
                                    lambda o, a=a: _hostiles_in(rs, session, a, o)):      # when it pays
            if opt["cost"] > points:
                continue
            if opt["kind"] == "spell":
                if srd_cast.legendary_cast(rs, session, a, opt, points):       # SRD-52
                    break
                continue
            if opt["kind"] == "bolts":                    # SRD-80: "The kraken uses Lightning Storm."
                if srd_lasting_actions.legendary_bolts(rs, session, a, opt, points):
                    break
                continue
            if opt["kind"] in ("teleport", "move"):       # SRD-33, SRD-38 (srd_traits2.py)
                to = srd_traits2.escape_to(rs, session, a, opt)
                if to is None:
                    continue
                a.data["legendary_points"] = points - opt["cost"]
                session.emit({"type": "legendary_action", "who": a.id, "option": opt["name"], "cost": opt["cost"],
                              "points_left": a.data["legendary_points"], "rule": "SRD-15"})
                srd_traits2.legendary_move(rs, session, a, opt, to)
                break
            if opt["kind"] == "detect":
                if not srd_detect.worth_it(rs, session, a):
                    continue
                a.data["legendary_points"] = points - opt["cost"]
                session.emit({"type": "legendary_action", "who": a.id, "option": opt["name"], "cost": opt["cost"],
                              "points_left": a.data["legendary_points"], "rule": "SRD-15"})
                srd_detect.detect(rs, session, a)
                break
            if opt["kind"] == "attack":
                found = _attack_option(rs, session, a, opt)
                if found is None:
                    continue
                t, plan = found
                a.data["legendary_points"] = points - opt["cost"]
                plan["kind"] = "reaction"
                session.emit({"type": "legendary_action", "who": a.id, "option": opt["name"], "cost": opt["cost"],
                              "points_left": a.data["legendary_points"], "target": t.id, "rule": "SRD-15"})
                attacks.resolve_attack(rs, session, a, t, plan, {})
                break
            targets = _area_targets(rs, session, a, opt)
            if not any(conditions.hostile(rs, a, session.state.actors[x]) for x in targets):
                continue
            a.data["legendary_points"] = points - opt["cost"]
            session.emit({"type": "legendary_action", "who": a.id, "option": opt["name"], "cost": opt["cost"],
                          "points_left": a.data["legendary_points"], "targets": targets, "rule": "SRD-15"})
            _save_option(rs, session, a, opt, targets)
            if opt.get("then_fly"):
                srd_wing.fly_after(rs, session, a, opt["name"])        # SRD-20
            break


def _save_option(rs, session, a, opt, targets):
    rolled = []
    for d in opt.get("damage", ()):
        n, s, b = dice_parts(d["dice"])
        rolled.append((sum(session.roll("damage", s, n, who=a.id, rule="SRD-15")) + b if n else b, d["type"]))
    for tid in targets:
        t = session.state.actors[tid]
        if t.dead:
            continue
        cov = attacks.cover(rs, session, a, t).level if opt["ability"] == "dex" else "none"
        mr = srd_gaze.advantage(t, opt)                 # SRD-55, SRD-58: "against this magic"
        ok = conditions.saving_throw(rs, session, t, opt["ability"], opt["dc"], a, "SRD-15", opt["name"],
                                     cover_level=cov, advantage=mr)
        for amount, dtype in rolled:
            amt = amount if not ok else (amount // 2 if opt.get("half") else 0)
            if amt and not t.dead:
                rs.apply_damage(session, t, amt, dtype, a.id, "SRD-15")
        cond = opt.get("condition")
        if not ok and cond in CONDITION_RULE and not t.dead:
            conditions.add_condition(rs, session, t, cond, CONDITION_RULE[cond], source=a.id)
            srd_brief.lasts(session, a, t, cond, opt)          # SRD-54: "until the end of the creature's next turn"
            if opt.get("repeat_save") and cond in t.conditions:        # SRD-58: the lich's gaze
                t.data.setdefault("repeat_saves", {})[cond] = {"save": opt["ability"], "dc": opt["dc"],
                                                               "spell": opt["name"], "rule": "SRD-15"}
        if opt.get("gaze"):
            srd_gaze.after_save(session, a, t, opt)
