"""D&D 5e attacks: sight, cover, reach, advantage sources, resolution, opportunity and readied attacks (DND-16, DND-26..29, DND-32, DND-38, AIR-03..05, AIR-11, AIR-13..17)."""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING, Any

from engine.rules import riding
from engine.rules import aerial
from engine.rules.choices import choose
from engine.rules.core import Actor, Illegal
from engine.rules.dnd5e.upcalls import FEAT, SPELL
from engine.rules.dnd5e import advantage, conditions, feats_data, gear
from engine.rules.dnd5e import srd_alternative, srd_grapple, srd_parry, srd_traits
from engine.rules.dnd5e.attack_roll import Roll, attack_event
from engine.rules.dnd5e.common import dice_spec
from engine.rules.dnd5e.figures import bonus_sources, damage_modifier, dmg_mod, mean_hit_damage  # noqa: F401  (an attack's figures)
from engine.rules.dnd5e.sight import PERCEIVES, cover, in_plain_sight, prefetch_cover, sight, total_cover  # noqa: F401  (the attack's sight)
from engine.world.geometry import Body, distance_m, engaged, in_melee_reach

if TYPE_CHECKING:
    from engine.rules.session import Session


def sees(rs, session: Session, a: Actor, b: Actor) -> bool:
    """a can see b: what a sense says first (``sight.PERCEIVES``: blindsight, SRD-98; False Appearance, SRD-100),
    else not blinded, b not invisible nor hidden from a, some line of sight (AIR-15)."""
    if (got := next((g for g in (fn(rs, session, a, b) for fn in PERCEIVES) if g is not None), None)) is not None:
        return got
    if a.has("blinded") or b.has("invisible") or conditions.incapacitated(rs, a) and a.has("unconscious"):
        return False
    if b.data["hidden"] is not None and conditions.hostile(rs, a, b):
        return False
    return sight(rs, session, a, b)


def melee_reach(rs, a: Actor, w: dict) -> float:
    if "reach_m" in w:
        return float(w["reach_m"])
    return a.data["reach_m"] + (1.5 if "reach" in w["properties"] else 0.0)


def is_melee(rs, w) -> bool:
    return "ranged" not in w["properties"]


def attack_reach(rs, session: Session, actor: Actor) -> tuple[float | None, float | None]:
    """``Ruleset.attack_reach`` for 5e weapons: melee unless ``ranged`` (its reach by DND-29's ``reach``
    property), a range from ``range`` = [normal, long] (thrown weapons too) or ``range_m``."""
    reach = rng = None
    for w in actor.data.get("weapons", ()):
        r = w.get("range") or None
        hi = float(r[1] if isinstance(r, (list, tuple)) else r) if r else float(w.get("range_m") or 0) or None
        if is_melee(rs, w):
            m = melee_reach(rs, actor, w)
            reach = m if reach is None else max(reach, m)
        if hi is not None:
            rng = hi if rng is None else max(rng, hi)
    return reach, rng


def weapon(rs, a: Actor, name: str | None, path="weapon") -> dict:
    ws = a.data["weapons"]
    if name is None:
        return ws[0]
    for w in ws:
        if w["name"] == name:
            return w
    raise Illegal(f"{a.name} has no {name}; its weapons: {', '.join(w['name'] for w in ws)}", "DND-16", path)


def emit_move(rs, session, a, path, cost, left, note):
    if len(path) < 2:
        return
    b = aerial.path_breakdown(session, a, path)
    rules = ["AIR-09"]
    if b["takeoffs"]:
        rules.append("AIR-06")
    if b["layers_up"] or b["layers_down"]:
        rules.append("AIR-07")
    ev = {"type": "move", "who": a.id, "from": list(path[0]), "to": list(path[-1]), "path": [list(p) for p in path],
          "cost_m": round(cost, 4), "takeoffs": b["takeoffs"], "layers_up": b["layers_up"],
          "layers_down": b["layers_down"], "flying": not aerial.is_supported(session, a, *path[-1]) if a.can_fly else False,
          "rule": "+".join(rules), "left_m": round(left, 4)}
    if note:
        ev["note"] = note
    session.emit(ev)


def opportunity_attacks(rs, session, a: Actor, here, there, before=None) -> bool:
    """DND-28 with AIR-05 reach: hostile creatures whose reach a leaves between ``here`` and ``there``.
    ``before`` is called once, just before the first opportunity attack (to report the move so far)."""
    cell = session.world.cell_m
    bh: Any = None
    bt: Any = None
    any_ = False
    for r in list(session.state.actors.values()):
        if r.id == a.id or not conditions.hostile(rs, r, a) or r.dead or conditions.incapacitated(rs, r) or r.data["reaction_used"]:
            continue
        if riding.rides_on(r, a) or riding.rider_id(a) == r.id:
            continue
        if not oa_allowed(rs, session, r, a):
            continue
        w, reach = oa_weapon(rs, r)
        if w is None:
            continue
        rb = r.body()
        # cheap test first: far beyond its reach (in cells, with room for the largest footprints) at both ends
        lim = int(reach / cell) + 5
        if max(abs(rb.x - here[0]), abs(rb.y - here[1])) > lim and max(abs(rb.x - there[0]), abs(rb.y - there[1])) > lim:
            continue
        if bh is None:
            bh, bt = a.body().moved(*here), a.body().moved(*there)
        if in_melee_reach(rb, bh, reach, cell) and not in_melee_reach(rb, bt, reach, cell):
            a.x, a.y, a.layer = here
            aerial._carry_rider(session, a)
            victim = a
            if riding.carries(a) and rs.opt("mount_oa_target") == "rider":
                victim = riding.rider_of(session, a)     # DND-36: the attacker's choice
            if not rs.sees(session, r, victim):
                continue
            if FEAT.war_caster_spell(rs, session, r, victim, before if not any_ else None):
                any_ = True       # DND-F14: a cantrip instead of the opportunity attack
                if a.dead or a.hp == 0 or a.pos != here:
                    break
                continue
            try:
                plan = attack_plan(rs, session, r, victim, w, False)
            except Illegal:
                continue          # e.g. charmed by the mover (DND-54)
            if not feats_data.reaction_taken(r, "opportunity_attack", session, f"{victim.name} leaves your reach"):
                continue          # the reacting character's choice point (DND-28)
            plan["kind"] = "reaction"
            plan["opportunity"] = True
            r.data["reaction_used"] = True
            if before is not None and not any_:
                before()
            session.emit({"type": "opportunity_attack", "who": r.id, "target": victim.id, "weapon": w["name"],
                          "rule": "DND-28", "reach_rule": "AIR-05"})
            resolve_attack(rs, session, r, victim, plan, {})
            any_ = True
            if a.dead or a.hp == 0 or a.pos != here or a.data.get("speed_zero_by"):
                break
    return any_


def oa_allowed(rs, session, r: Actor, a: Actor) -> bool:
    """The reactor's policy (default take, DND-28), Disengage (not against a Sentinel, DND-F37), Mobile
    (no opportunity attack from a creature it attacked in melee this turn, DND-F27)."""
    turn = session.state.turn
    if srd_traits.no_flyby_opportunity(a):
        return False                          # SRD-07 Flyby
    if turn.get("disengaged") and not feats_data.can_oa_despite_disengage(r):
        return False
    if not feats_data.reaction_taken(r, "opportunity_attack", session, peek=True):
        return False
    if a.data.get("feats") and feats_data.has(a, "mobile") and r.id in turn.get("melee_attacked", ()) \
            and turn.get("actor") == a.id:
        return False
    return True


def entering_reach(rs, session, a: Actor, here, there) -> bool:
    """DND-F15 Polearm Master: an opportunity attack when a creature enters its polearm's reach (AIR-05 across
    layers). Returns True when the mover must stop (hit to 0 HP, speed 0 by Sentinel, knocked down). None after
    Disengage (DND-28 "Można uniknąć prowokowania ataku okazyjnego wykonując akcję odstąpienia"; Sentinel's
    exception, DND-F37, is for creatures that leave its reach: "wychodzą z twojej strefy ataku")."""
    if session.state.turn.get("disengaged"):
        return False
    cell = session.world.cell_m
    for r in list(session.state.actors.values()):
        if r.id == a.id or not r.data.get("feats") or not feats_data.has(r, "polearm_master") or not conditions.hostile(rs, r, a):
            continue
        if r.dead or conditions.incapacitated(rs, r) or r.data["reaction_used"] \
                or not feats_data.reaction_taken(r, "polearm_master", session, peek=True):
            continue
        ws = [w for w in r.data["weapons"] if w["name"] in feats_data.POLEARMS and rs.is_melee(w)]
        if not ws:
            continue
        w = ws[0]
        reach = rs.melee_reach(r, w)
        rb = r.body()
        if in_melee_reach(rb, a.body().moved(*there), reach, cell) and not in_melee_reach(rb, a.body().moved(*here), reach, cell):
            if not feats_data.reaction_taken(r, "polearm_master", session, f"{a.name} enters your reach"):
                continue          # the reacting character's choice point (DND-F15)
            a.x, a.y, a.layer = there
            aerial._carry_rider(session, a)
            plan = FEAT.reaction_plan(rs, session, r, a, w, opportunity=True) if rs.sees(session, r, a) else None
            if plan is None:
                continue
            r.data["reaction_used"] = True
            session.emit({"type": "opportunity_attack", "who": r.id, "target": a.id, "weapon": w["name"],
                          "rule": "DND-F15", "reach_rule": "AIR-05", "trigger": "entered reach"})
            resolve_attack(rs, session, r, a, plan, {})
            if a.dead or a.hp == 0 or a.data.get("speed_zero_by") or a.has("prone"):
                return True
    return False


def geom(rs, session, a: Actor) -> Body:
    """A rider occupies its mount's footprint (it reaches and is reached from any side of it, DND-36)."""
    if riding.rides(a):
        mt = riding.mount_of(session, a)
        return Body(mt.x, mt.y, mt.layer, mt.footprint, max(mt.height_layers, a.height_layers), a.eye_m)
    return a.body()


def oa_weapon(rs, r: Actor):
    """The melee weapon with the longest reach, and that reach (None, 0 without a melee weapon)."""
    best, reach = None, 0.0
    for w in r.data["weapons"]:
        if rs.is_melee(w):
            rr = rs.melee_reach(r, w)
            if best is None or rr > reach:
                best, reach = w, rr
    return best, reach


def melee_at(rs, session, a: Actor, t: Actor, w: dict) -> bool:
    """An attack on ``t`` with ``w`` is a melee attack: a melee weapon that reaches it (AIR-05), not one thrown
    (``attack_plan``'s own test, for the listing's options that need a melee attack)."""
    return rs.is_melee(w) and in_melee_reach(geom(rs, session, a), geom(rs, session, t), rs.melee_reach(a, w),
                                             session.world.cell_m)


# -- attack --------------------------------------------------------------------------------------------------
def attack_plan(rs, session, a: Actor, t: Actor, w: dict, bonus: bool, reaction=False) -> dict:
    if t.id == a.id:
        raise Illegal(f"{a.name} cannot attack itself", "DND-16", "target")
    if t.id in a.conditions.get("charmed", []):
        raise Illegal(f"{a.name} is charmed by {t.name} and cannot attack it", "DND-54", "target")
    srd_traits.attack_checks(rs, session, a, w, t)         # a weapon that cannot attack now (SRD-42), a plane (SRD-94)
    cell = session.world.cell_m
    ab, tb = geom(rs, session, a), geom(rs, session, t)
    dist = distance_m(ab, tb, cell)
    melee = rs.is_melee(w)
    thrown = False
    if melee and not in_melee_reach(ab, tb, rs.melee_reach(a, w), cell):
        if "thrown" in w["properties"] and w["range"]:
            melee, thrown = False, True
        else:
            lay = abs(a.layer - t.layer)
            raise Illegal(f"{t.name} is out of reach of {a.name}'s {w['name']} ({dist:.1f} m away, {lay} layer"
                          f"{'s' if lay != 1 else ''} apart; reach {rs.melee_reach(a, w):g} m)", "AIR-05", "target")
    if not melee:
        lo, hi = w["range"]
        if dist > hi + 1e-9:
            raise Illegal(f"{t.name} is {dist:.1f} m away, beyond the {w['name']}'s long range of {hi:g} m", "AIR-03", "target")
        if a.data["underwater"] and dist > lo + 1e-9:
            raise Illegal(f"underwater a ranged attack beyond normal range ({lo:g} m) misses", "DND-37", "target")
    if total_cover(rs, session, a, t):
        raise Illegal(f"{t.name} has total cover from {a.name}: no line of sight", "DND-32", "target")
    if session.probing:         # only legality is asked (a listing): the plan's cover is worked out when it is stepped
        return {"target": t.id, "weapon": w, "melee": melee, "thrown": thrown, "distance_m": round(dist, 3),
                "kind": "bonus" if bonus else "action", "probe": True}
    cov = cover(rs, session, a, t)
    level, by = cov.level, None
    if level == "none" and rs.opt("creatures_give_cover"):
        by = creature_between(rs, session, a, t)
        if by:
            level = "half"          # DND-32 (the document: "inna istota", another creature, is half cover)
    plan = {"target": t.id, "weapon": w, "melee": melee, "thrown": thrown, "distance_m": round(dist, 3),
            "cover": level, "blocked_fraction": cov.blocked_fraction, "kind": "bonus" if bonus else "action"}
    if by:
        plan["cover_by"] = by
    if a.data.get("feats"):
        ig = FEAT.cover_ignored(a, plan)     # DND-F30: the same sight line; half/three-quarters do not count
        if ig:
            plan["cover_ignored"] = {"cover": level, "feat": ig, "rule": feats_data.FEAT_ID[ig]}
            plan["cover"] = "none"
    return plan


def use_attack(rs, session, a):
    turn = session.state.turn
    if turn["attacks_left"] > 0:
        turn["attacks_left"] -= 1
    else:
        turn["action"] = True               # SRD-27 Slowing Breath: "can't make more than one attack on its turn"
        turn["attacks_left"] = (1 if a.data.get("slowed_breath") else a.data["attacks"]) - 1


def attack_sources(rs, session, a: Actor, t: Actor, plan) -> tuple[list, list]:
    """Advantage and disadvantage sources (rule IDs): the named functions on the hook
    ``engine.rules.dnd5e.advantage.ATTACK_SOURCES``."""
    adv, dis = advantage.attack_sources(rs, session, a, t, plan)
    if a.data.get("feats") or t.data.get("feats"):
        adv, dis, used = FEAT.drop_sources(rs, session, a, t, plan, adv, dis)
        for f in used:
            plan.setdefault("feats_used", []).append(f)
        adv += FEAT.extra_advantage(rs, session, a, t, plan)
    return adv, dis


def attack_bonus(rs, a: Actor, w: dict, melee: bool) -> int:
    if "to_hit" in w:
        return int(w["to_hit"])
    return dmg_mod(rs, a, w, melee) + (a.data["prof"] if gear.proficient_weapon(a, w) else 0)   # gear.py


def attacker_choices(rs, session, a, t, w, plan, act, r, bonus, ac) -> dict:
    """The attacker's own choice points: before the d20 (``r`` None) the power attack (DND-F16 / DND-F30);
    after it, seen, a luck point (DND-F32) and a manoeuvre (DND-F01). Returns the action with the answers."""
    out = dict(act)
    if r is None:
        if FEAT.power_attack_feat(rs, a, w, plan["melee"]):
            out["power_attack"] = choose(session, "power_attack", a.id,
                                         {True: "-5 to hit, +10 damage", False: f"+{bonus} to hit, normal damage"},
                                         bool(act.get("power_attack")), rule="DND-F16" if plan["melee"] else "DND-F30",
                                         role="attacker", question=f"{a.name} attacks {t.name} (AC {ac}) with {w['name']}")
        return out
    seen = f"{a.name} rolled {r} on the d20 ({r} + {bonus} = {r + bonus} vs AC {ac})"
    if feats_data.has(a, "lucky") and a.data.get("luck", 0) > 0:
        # DND-F32 l. 251 "po wykonaniu pierwszego rzutu, ale zanim poznasz jego rezultat": the die, not hit or miss
        out["lucky"] = choose(session, "lucky", a.id, {True: f"spend a luck point ({a.data['luck']} left): one more "
                                                             "d20, the higher kept", False: "keep the roll"},
                              bool(act.get("lucky")), rule="DND-F32", role="attacker",
                              question=f"{a.name} rolled {r} on the d20 (whether it hits is not known yet)")
    known = [m for m in a.data.get("manoeuvres", ()) if m == "precision" or rs.is_melee(w) or "ranged" in w["properties"]]
    if known and a.data.get("superiority", 0) > 0:
        what = {"trip": "on a hit: + the die to damage, Strength save or prone", "pushing": "on a hit: + the die to "
                "damage, Strength save or pushed 4.5 m", "precision": "+ the die (d6) to this attack roll"}
        m = choose(session, "manoeuvre", a.id, {None: "keep the superiority die", **{k: what[k] for k in known}},
                   act.get("manoeuvre"), rule="DND-F01", role="attacker", question=seen)
        if m is not None:
            out["manoeuvre"] = m
    return out


#: fn(rs, session, attacker, weapon, plan, amount) -> amount: a weapon hit's damage as a spell's mark on the attacker
#: changes it (srd_marks.py)
DEALT_DAMAGE: list = []
#: fn(rs, session, attacker, target, plan, hit) after an attack (its damage dealt): srd_traits2.py, srd_auras.py
ATTACK_MADE: list = []


def resolve_attack(rs, session, a: Actor, t: Actor, plan, act) -> Actor | None:
    """DND-16: roll to hit (``_to_hit``), say so (``attack_event``), then on a hit the damage (``_damage``); the
    creature hit (a rider may take its mount's), or None on a miss."""
    w = plan["weapon"]
    if "cover" not in plan:
        p2 = attack_plan(rs, session, a, t, w, False)
        p2["kind"] = plan.get("kind", "action")
        plan = p2
    if riding.carries(t):
        t, plan = FEAT.mounted_redirect(rs, session, a, t, plan)     # DND-F12: the rider takes it
    ro = _to_hit(rs, session, a, t, w, plan, act)
    session.emit(attack_event(a, t, w, plan, ro))
    if a.data["hidden"] is not None and not (not ro.hit and not plan["melee"] and feats_data.has(a, "skulker")):
        # DND-26: attacking reveals the attacker (DND-F09 Skulker: not a missed ranged attack)
        a.data["hidden"] = None
        session.emit({"type": "revealed", "who": a.id, "reason": "attacked", "rule": "DND-26"})
    help_ = session.state.data.get("help", [])
    for h in help_:
        if h["ally"] == a.id and h["target"] == t.id:
            help_.remove(h)
            break
    if not ro.hit:
        FEAT.after_attack(rs, session, a, t, plan, False, False, False)
        for fn in ATTACK_MADE:
            fn(rs, session, a, t, plan, False)
        return None
    _damage(rs, session, a, t, w, plan, ro)
    for fn in ATTACK_MADE:
        fn(rs, session, a, t, plan, True)
    return t


def _to_hit(rs, session, a: Actor, t: Actor, w, plan, act) -> Roll:
    """The roll to hit: advantage, cover on the AC, the bonus and its sources, the attacker's choices before and
    after the d20, Lucky on either side, a manoeuvre's precision, Defensive Duelist, and DND-41 / DND-51's
    automatic critical."""
    adv, dis = attack_sources(rs, session, a, t, plan)
    cover_bonus = {"half": 2, "three-quarters": 5}.get(plan["cover"], 0)
    ac_adj = conditions.roll_adjustments(rs, session, t, "ac")     # Slow's -2 (srd_marks.py)
    ac = t.data["ac"] + cover_bonus + sum(x["value"] for x in ac_adj)
    bonus = attack_bonus(rs, a, w, plan["melee"])
    own = plan.get("kind", "action") in ("action", "bonus") and (session._act or {}).get("actor") == a.id
    if own:                                    # the attacker's choice points (engine/rules/choices.py)
        act = attacker_choices(rs, session, a, t, w, plan, act, None, bonus, ac)
    mods = FEAT.attack_mods(rs, session, a, t, plan, act)
    bonus += sum(m["to_hit"] for m in mods)
    r = conditions.d20(rs, session, "attack", a.id, bool(adv), bool(dis), "DND-16", f"{w['name']} against {t.name}")
    if own:
        act = attacker_choices(rs, session, a, t, w, plan, act, r, bonus, ac)
    luck = luck_cancelled = None
    if act.get("lucky"):                       # DND-F32: one more d20, the player picks (the better one)
        a.data["luck"] -= 1
        if FEAT.lucky_cancels(rs, session, a, t, r):
            luck_cancelled = t.id              # l. 253: the target spent one too; no die, the roll stands
        else:
            (luck,) = session.roll("luck", 20, who=a.id, rule="DND-F32", purpose="Lucky: an extra d20 on the attack")
            r = max(r, luck)
    adj = conditions.roll_adjustments(rs, session, a, "attack")       # Bane's d4 (srd_marks.py)
    bonus += sum(s["value"] for s in adj)
    total = r + bonus
    crit = r == 20
    hit = crit or (r != 1 and total >= ac)
    srcs = bonus_sources(rs, a, w, plan["melee"]) + adj
    if mods:
        srcs += [{"source": feats_data.FEATS[m["feat"]]["name"], "value": m["to_hit"], "rule": m["rule"]} for m in mods
                 if m["to_hit"]]
    if cover_bonus:
        srcs.append({"source": f"{plan['cover']} cover", "value": cover_bonus, "rule": "DND-32", "on": "AC"})
    srcs += [{**x, "on": "AC"} for x in ac_adj]
    sup = None
    if act.get("manoeuvre"):
        sup = feats_data.superiority_die(session, a, act["manoeuvre"])    # DND-F01
        if act["manoeuvre"] == "precision":
            total += sup
            hit = crit or (r != 1 and total >= ac)
            srcs.append({"source": "Martial Adept: precision", "value": sup, "rule": "DND-F01"})
    if hit and t.data.get("feats") and not act.get("lucky"):
        r2 = FEAT.lucky_defence(rs, session, t, r)      # DND-F32: its own d20 (not on a roll already lucky: l. 253)
        if r2 != r:
            r = r2
            total = r + bonus
            crit = r == 20
            hit = crit or (r != 1 and total >= ac)
    ac, hit = srd_parry.ac_reactions(rs, session, a, t, plan, r, total, ac, hit, crit)    # DND-F21, SRD-73
    near = engaged(a.body(), t.body())
    if hit and near and (t.has("unconscious") or t.has("paralyzed")):
        crit = True                           # DND-41 / DND-51
    ro = Roll()
    ro.act, ro.own, ro.adv, ro.dis, ro.cover_bonus, ro.ac, ro.bonus, ro.mods = act, own, adv, dis, cover_bonus, ac, bonus, mods
    ro.r, ro.total, ro.crit, ro.hit, ro.srcs, ro.sup, ro.luck, ro.luck_cancelled = r, total, crit, hit, srcs, sup, luck, luck_cancelled
    return ro


def _damage(rs, session, a: Actor, t: Actor, w, plan, ro: Roll) -> None:
    """A hit's damage: the weapon's dice (doubled on a critical), Elemental Adept, Savage Attacker, the modifiers,
    Sneak Attack; then what follows a hit (feats, a manoeuvre, Sentinel, a flyer grounded or rolling to fall)."""
    act, own, crit, sup, mods = ro.act, ro.own, ro.crit, ro.sup, ro.mods
    n, s = dice_spec(srd_alternative.damage_dice(rs, session, a, w, plan) if w.get("alternative") else w["damage"])
    if crit:
        n *= int(w.get("crit_dice", 2))             # SRD-21: "it rolls damage dice three times, instead of twice"
    rolls = session.roll("damage", s, n, who=a.id, rule="DND-16") if n else []
    if w["type"] in a.data.get("elements", ()) and feats_data.has(a, "elemental_adept") \
            and (plan.get("kind") == "spell" or rs.opt("elemental_adept_ones") == "any_damage"):
        rolls = feats_data.adept_dice(rolls, True)          # DND-F02: 1s count as 2 (its spells; the option: any damage)
    if own and n and plan["melee"] and feats_data.has(a, "savage_attacker") and not session.state.turn.get("savage_used"):
        sv = choose(session, "savage", a.id, {True: "reroll the damage dice, keep the higher (Savage Attacker)",
                                              False: f"keep {sum(rolls)}"}, bool(act.get("savage")),
                    rule="DND-F06", role="attacker", question=f"{a.name} rolled {sum(rolls)} damage ({w['damage']})")
        act = {**act, "savage": sv}
    if act.get("savage") and n:                # DND-F06: reroll the weapon's damage dice once a turn, keep either
        session.state.turn["savage_used"] = True
        again = session.roll("savage", s, n, who=a.id, rule="DND-F06", purpose="Savage Attacker: the damage rerolled")
        keep = again if sum(again) > sum(rolls) else rolls
        session.emit({"type": "feat", "who": a.id, "feat": "savage_attacker", "rule": "DND-F06",
                      "first": sum(rolls), "second": sum(again), "kept": sum(keep)})
        rolls = keep
    dmod = damage_modifier(rs, a, w, plan)   # DND-29: no ability modifier off-hand unless negative
    dmod += sum(m["damage"] for m in mods)
    if sup is not None and act["manoeuvre"] in ("trip", "pushing"):
        dmod += sup
    amount = max(0, sum(rolls) + dmod)
    if a.data["sneak_attack"] and sneak_ok(rs, session, a, t, w, plan, ro.adv, ro.dis):
        k = (a.data["level"] + 1) // 2
        sr = session.roll("sneak_attack", 6, k * (2 if crit else 1), who=a.id, rule="DND-38")
        amount += sum(sr)
        a.data["sneak_round"] = session.state.round
    if a.data.get("spell_marks") and plan.get("kind") != "spell":
        for fn in DEALT_DAMAGE:                # Ray of Enfeeblement's half (srd_marks.py)
            amount = fn(rs, session, a, w, plan, amount)
    was_up = t.hp > 0
    rs.apply_damage(session, t, amount, w["type"], a.id, "DND-16", critical=crit,
                      knock_out=bool(act.get("knock_out")) and (plan["melee"] or rs.opt("knock_out") == "any_attack"),
                      weapon=None if plan.get("kind") == "spell" else w)
    if w.get("extra") or w.get("ignite"):
        srd_traits.extra_damage(rs, session, a, t, w, crit)      # SRD-02 "plus 3 (1d6) fire damage"; SRD-48, -56 after
    if w.get("on_hit"):
        srd_traits.on_hit_save(rs, session, a, t, w)             # SRD-13: "must succeed on a DC 13 ... or be"
    if w.get("grapple"):
        srd_grapple.on_hit(rs, session, a, t, w)                 # SRD-19: "the target is grappled (escape DC 19)"
    FEAT.after_attack(rs, session, a, t, plan, True, crit, was_up and (t.dead or t.hp == 0))
    if sup is not None and act["manoeuvre"] in ("trip", "pushing") and not t.dead:
        FEAT.manoeuvre_effect(rs, session, a, t, act["manoeuvre"])
    FEAT.sentinel_hit(rs, session, a, t, plan)
    aerial.check_grounded(session, t)
    if t.flying and not t.dead and rs.opt("fall_roll_on") == "hit":
        aerial.fall_roll(session, t)           # AIR-11: every hit against a flyer


def sneak_ok(rs, session, a, t, w, plan, adv, dis) -> bool:
    if a.data["sneak_round"] == session.state.round:
        return False
    if not ("finesse" in w["properties"] or not plan["melee"]):
        return False
    if adv and not dis:
        return True
    if dis:
        return False
    for o in session.state.actors.values():
        if o.id not in (a.id, t.id) and conditions.hostile(rs, o, t) and not o.dead and not conditions.incapacitated(rs, o) \
                and engaged(o.body(), t.body()):
            return True
    return False


def readied_triggers(rs, session, mover: Actor) -> None:
    """DND-20 l. 361-362: the trigger is "możliwe do zaobserwowania przez ciebie okoliczności" -- the reader must see
    the mover (an invisible or hidden one sets nothing off) -- and then "możesz użyć swojej reakcji ... albo je
    zignorować": taking the readied action is the reader's choice point (``reactions = {id = {readied_action =
    false}}``; default take). Ignored, the action stays readied until the reader's next turn."""
    for r in list(session.state.actors.values()):
        rd = r.data.get("readied")
        if not rd or r.dead or conditions.incapacitated(rs, r) or r.data["reaction_used"] or not conditions.hostile(rs, r, mover):
            continue
        if mover.dead or (rd["target"] and rd["target"] != mover.id) or not rs.sees(session, r, mover):
            continue
        if rd.get("spell"):                  # a readied spell, held by concentration (DND-20)
            SPELL.release_readied(rs, session, r, mover)
            continue
        w = weapon(rs, r, rd["weapon"])
        try:
            plan = attack_plan(rs, session, r, mover, w, False)
        except Illegal:
            continue
        if not feats_data.reaction_taken(r, "readied_action", session, f"{mover.name} ends its move in reach: "
                                    f"attack with {w['name']} (readied)"):
            continue                         # ignored: the trigger passes, the action stays readied
        r.data["reaction_used"] = True
        r.data["readied"] = None
        session.emit({"type": "readied_action", "who": r.id, "target": mover.id, "weapon": w["name"], "rule": "DND-20"})
        plan["kind"] = "reaction"
        resolve_attack(rs, session, r, mover, plan, {})


def would_provoke(rs, session, a, path) -> list:
    cell = session.world.cell_m
    out = []
    for r in session.state.actors.values():
        if r.id == a.id or not conditions.hostile(rs, r, a) or r.dead or conditions.incapacitated(rs, r) or r.data["reaction_used"]:
            continue
        if not oa_allowed(rs, session, r, a):
            continue
        melee = [w for w in r.data["weapons"] if rs.is_melee(w)]
        if not melee:
            continue
        reach = max(rs.melee_reach(r, w) for w in melee)
        for p, q in itertools.pairwise(path):
            if in_melee_reach(r.body(), a.body().moved(*p), reach, cell) and not in_melee_reach(r.body(), a.body().moved(*q), reach, cell):
                out.append(r.id)
                break
    return out


def maybe_revealed(rs, session, a: Actor) -> None:
    for o in session.state.actors.values():
        if conditions.hostile(rs, o, a) and not o.dead and not conditions.incapacitated(rs, o) and not o.has("blinded"):
            c = cover(rs, session, o, a)
            if c.level == "none":
                a.data["hidden"] = None
                session.emit({"type": "revealed", "who": a.id, "by": o.id, "reason": "in plain sight", "rule": "DND-23"})
                return


def creature_between(rs, session, a: Actor, t: Actor) -> str | None:
    """A living creature whose body the line from a's eye to t's centre crosses (slab test, voxel units)."""
    ax, ay = a.body().centre
    p0 = (ax, ay, a.layer + a.eye_m)
    tx, ty = t.body().centre
    p1 = (tx, ty, t.layer + t.height_layers / 2.0)
    skip = {a.id, t.id} | riding.partners(a) | riding.partners(t)
    for o in session.state.actors.values():
        if o.id in skip or o.dead:
            continue
        lo = (o.x + 0.1, o.y + 0.1, o.layer + 0.1)
        hi = (o.x + o.footprint - 0.1, o.y + o.footprint - 0.1, o.layer + o.height_layers - 0.1)
        t0, t1 = 0.0, 1.0
        for k in range(3):
            d = p1[k] - p0[k]
            if abs(d) < 1e-12:
                if not lo[k] <= p0[k] <= hi[k]:
                    break
                continue
            u0, u1 = (lo[k] - p0[k]) / d, (hi[k] - p0[k]) / d
            if u0 > u1:
                u0, u1 = u1, u0
            t0, t1 = max(t0, u0), min(t1, u1)
            if t0 > t1:
                break
        else:
            return o.id
    return None


def area_targets(rs, session, a, sp, point, tid):
    cell = session.world.cell_m
    area = sp["area"]
    pb = Body(point[0], point[1], point[2])
    out = []
    for o in session.state.actors.values():
        if o.dead or (area["shape"] in ("self", "cone") and o.id == a.id):
            continue
        if area["shape"] == "cone":
            d = distance_m(a.body(), o.body(), cell)
            if d > area["length_m"] + 1e-9:
                continue
            ax, ay = a.body().centre
            px, py = pb.centre
            ox, oy = o.body().centre
            v1 = ((px - ax) * cell, (py - ay) * cell, point[2] - a.layer)
            v2 = ((ox - ax) * cell, (oy - ay) * cell, o.layer - a.layer)
            n1 = math.sqrt(sum(c * c for c in v1)) or 1
            n2 = math.sqrt(sum(c * c for c in v2)) or 1
            if sum(x * y for x, y in zip(v1, v2)) / (n1 * n2) < math.cos(math.atan(0.5)) - 1e-9:
                continue
        else:
            centre = a.body() if area["shape"] == "self" else pb
            if distance_m(centre, o.body(), cell) > area["radius_m"] + 1e-9:
                continue
        # an area reaches what its point of origin can see: not through walls (total cover from the point)
        eye = (point[0] + 0.5, point[1] + 0.5, point[2] + 0.5) if area["shape"] == "sphere" else None
        if o.id != a.id and total_cover(rs, session, a, o, eye=eye):
            continue
        out.append(o.id)
    return out
