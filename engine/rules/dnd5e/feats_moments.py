"""The feats' own moments (DND-F01, F12, F14, F26, F32, F41): Lucky's point against an attack and on a save, the
Grappler's pin, War Caster's cantrip, Mounted Combatant's redirect and its mount's evasion, Inspiring Leader's
speech, Martial Adept's manoeuvres; the feats' bonus shove and grapple; what `aerie query` says about feats. Split from ``feats.py`` (modules under 600 lines); ``feats`` re-exports them."""

from __future__ import annotations



from engine.rules.dnd5e.upcalls import SPELL
from engine.rules.dnd5e.feats_data import FEAT_ID, has, reaction_taken, superiority_die  # noqa: F401
from engine.world.geometry import in_melee_reach
from engine.rules.dnd5e import attacks
from engine.rules.dnd5e import conditions
from engine.rules.dnd5e import common
from engine.rules.core import Illegal
from engine.rules.dnd5e.data import SPELLS
from engine.rules.dnd5e import gear
from engine.rules.dnd5e import concentration
from engine.rules.dnd5e import mounts
from engine.rules.dnd5e.data import SIZES
from engine.world.geometry import distance_m
from engine.rules.dnd5e import damage


def _feat_id(name: str) -> str:
    return FEAT_ID[name]


def query_notes(a, b, result: dict) -> list[dict]:
    """``aerie query``: which of the two characters' feats change the numbers between them."""
    fa = list(getattr(a.stats, "feats", None) or [])
    fb = list(getattr(b.stats, "feats", None) or [])
    out = []
    cov = result["cover"]
    if cov in ("half", "three-quarters"):
        bonus = 2 if cov == "half" else 5
        for feat, name, rule, what in (("sharpshooter", "Sharpshooter", "DND-F30", "weapon"),
                                       ("spell_sniper", "Spell Sniper", "DND-F22", "spell")):
            if feat in fa:
                out.append({"feature": name, "rule": rule,
                            "text": f"{a.id}'s ranged {what} attacks ignore this {cov} cover (AC +0, not +{bonus})"})
    if result["engaged"]:
        if "crossbow_expert" in fa:
            out.append({"feature": "Crossbow Expert", "rule": "DND-F28",
                        "text": f"{a.id} has no disadvantage on ranged attacks while engaged"})
        if "sentinel" in fb:
            out.append({"feature": "Sentinel", "rule": "DND-F37",
                        "text": f"{b.id}'s opportunity attacks stop {a.id} (speed 0; a flyer falls, AIR-10), Disengage or not"})
    if "alert" in fb and not result["visible"]:
        out.append({"feature": "Alert", "rule": "DND-F10", "text": f"{a.id}, unseen, gains no advantage against {b.id}"})
    return out


def bonus_contest_source(rs, session, a, kind: str) -> str | None:
    """What lets a bonus-action shove or grapple now: Shield Master after taking the Attack action (DND-F20),
    Charger after Dash (DND-F31), Tavern Brawler after an unarmed hit (grapple, DND-F39)."""
    if not a.data.get("feats"):
        return None
    turn = session.state.turn
    if kind == "shove":
        if turn.get("attacked_with") and has(a, "shield_master"):
            return "shield_master"
        if turn.get("dash") and not turn.get("charged") and has(a, "charger"):
            return "charger"
    if kind == "grapple" and turn.get("unarmed_hit") and has(a, "tavern_brawler"):
        return "tavern_brawler"
    return None


def bonus_contest_refusal(rs, session, a, t, src: str | None) -> tuple[str, str] | None:
    """Why the feat ``src`` that allows a bonus-action shove or grapple does not allow it on ``t``: (reason, rule)."""
    if src == "shield_master" and not in_melee_reach(a.body(), t.body(), 1.5, session.world.cell_m):
        # DND-F20 l. 177 "odepchnąć od siebie przeciwnika znajdującego się do 1,5 m od ciebie": not a reach weapon's
        return f"Shield Master's shove needs {t.name} within 1.5 m of {a.name}", "DND-F20"
    if src == "tavern_brawler" and t.id not in session.state.turn.get("unarmed_hit_targets", ()):
        # DND-F39 l. 296 "przy trafieniu przeciwnika ... możesz ... spróbować pochwycić cel": the creature it hit
        return f"Tavern Brawler's grapple is for the creature {a.name} hit unarmed, not {t.name}", "DND-F39"
    return None


def spend_contest(rs, session, a, plan) -> None:
    """A shove or grapple replaces an attack (DND-30/31), or spends the bonus action a feat allows."""
    src = plan.get("bonus_from")
    if not src:
        attacks.use_attack(rs, session, a)
        return
    turn = session.state.turn
    turn["bonus"] = True
    if src == "charger":
        turn["charged"] = True
    session.emit({"type": "feat", "who": a.id, "feat": src, "rule": _feat_id(src), "text": "a bonus-action " +
                  ("shove" if "mode" in plan else "grapple")})


def _spend_luck(session, a, purpose) -> int:
    a.data["luck"] -= 1
    (v,) = session.roll("luck", 20, who=a.id, rule="DND-F32", purpose=purpose)
    return v


def _lucky(session, c, roll: int, able: bool, about: str, purpose: str, field: str, keep) -> int:
    """A Lucky point spent on ``roll`` (DND-F32) when ``c`` is ``able`` to (the caller's test: the feat, a point
    left...) and its player takes it (the choice point, asked ``about``): its own d20 (``luck``), ``keep`` of the two
    kept; the event names the roll as ``field``."""
    if not able or not reaction_taken(c, "lucky", session, about):
        return roll
    v = _spend_luck(session, c, purpose)
    session.emit({"type": "feat", "who": c.id, "feat": "lucky", "rule": "DND-F32", field: roll, "luck": v,
                  "kept": keep(roll, v)})
    return keep(roll, v)


def lucky_defence(rs, session, t, roll: int) -> int:
    """DND-F32 against an attack that hits it: its own d20 (``luck``), the attack uses the lower. Policy
    ``lucky`` (default decline: it spends a point; ``reactions = {lucky = true}`` or ``reaction_policy``)."""
    able = has(t, "lucky") and t.data.get("luck", 0) > 0 and not conditions.incapacitated(rs, t)
    return _lucky(session, t, roll, able, f"an attack roll of {roll} hits you", "Lucky: a d20 against the attack",
                  "attack_roll", min)


def lucky_cancels(rs, session, a, t, roll: int) -> bool:
    """DND-F32 l. 253 "Jeśli w próbie wpłynięcia na wynik rzutu punkty szczęścia wydaje więcej jak jedna istota to ich
    działanie wzajemnie się znosi i nie wykonuje się dodatkowych rzutów": ``a`` spends a point on its attack roll
    against ``t``; ``t`` (Lucky, a point left, not incapacitated) may spend one against it (its policy ``lucky``,
    the choice point asked of its player): both points are gone, no die is rolled, the roll stands."""
    if not t.data.get("feats") or not has(t, "lucky") or t.data.get("luck", 0) <= 0 or conditions.incapacitated(rs, t):
        return False
    if not reaction_taken(t, "lucky", session, f"{a.name} spends a luck point on its attack roll of {roll} against "
                          "you", texts=("spend a luck point too: both cancel, no extra die (Lucky)",
                                        "keep the point: it rolls its extra d20")):
        return False
    t.data["luck"] -= 1
    session.emit({"type": "feat", "who": t.id, "feat": "lucky", "rule": "DND-F32", "cancels": a.id, "attack_roll": roll,
                  "text": "both luck points cancel: no extra die"})
    return True


def lucky_check(rs, session, c, roll: int, what: str) -> int:
    """DND-F32 l. 250 "test ataku, cechy lub rzut obronny": on an ability check (a contest's side, Hide, a search...)
    one more d20 once the die is seen, before the result is known (same policy ``lucky``), the higher kept."""
    able = has(c, "lucky") and c.data.get("luck", 0) > 0 and not conditions.incapacitated(rs, c)
    return _lucky(session, c, roll, able, f"your {what} check rolled {roll}", "Lucky: one more d20 on the check",
                  "check_roll", max)


def lucky_save(rs, session, a, roll: int, what: str = "saving throw") -> int:
    """DND-F32 on a saving throw, a death save too (l. 31 "specjalny rzut obronny"): l. 251 "O podjęciu tego
    działania możesz zdecydować się po wykonaniu pierwszego rzutu, ale zanim poznasz jego rezultat" -- offered once
    the die is seen, before the save is compared with its DC (any save, not only a failed one; same policy
    ``lucky``): one more d20, the higher kept."""
    able = has(a, "lucky") and a.data.get("luck", 0) > 0
    return _lucky(session, a, roll, able, f"your {what} rolled {roll}", f"Lucky: one more d20 on the {what}",
                  "save_roll", max)


def check_pin(rs, session, a, act):
    """DND-F41 Grappler: an action to pin a creature it grapples (another grapple check)."""
    t = common.living_target(rs, session, a, act["target"])
    if not has(a, "grappler"):
        raise Illegal(f"{a.name} does not have Grappler", "DND-F41", "pin")
    if a.id not in t.conditions.get("grappled", []):
        raise Illegal(f"{a.name} does not grapple {t.name}", "DND-F41", "target")
    if [a.id, t.id] in session.state.data.get("pins", []):
        raise Illegal(f"{t.name} is already pinned", "DND-F41", "target")
    common.need_action(rs, a, session, "pinning", "DND-F41")
    return {"target": t.id, "pin": True}


def apply_pin(rs, session, a, plan):
    session.state.turn["action"] = True
    t = session.state.actors[plan["target"]]
    if not conditions.contest(rs, session, a, t, "DND-F41"):
        return
    session.state.data.setdefault("pins", []).append([a.id, t.id])
    session.emit({"type": "feat", "who": a.id, "feat": "grappler", "target": t.id, "rule": "DND-F41",
                  "text": "pinned: both restrained until the grapple ends"})
    conditions.add_condition(rs, session, t, "restrained", "DND-F41", source=a.id)
    conditions.add_condition(rs, session, a, "restrained", "DND-F41", source=t.id)


def unpin(rs, session, grappler, target):
    pins = session.state.data.get("pins")
    if pins and [grappler.id, target.id] in pins and grappler.id not in target.conditions.get("grappled", []):
        pins.remove([grappler.id, target.id])
        conditions.remove_condition(rs, session, target, "restrained", "DND-F41")
        conditions.remove_condition(rs, session, grappler, "restrained", "DND-F41")


def war_caster_spells(r) -> list[str]:
    """DND-F14 l. 144 "Zaklęcie musi mieć czas rzucania równy jednej akcji i celować tylko w jedną istotę": its spells
    cast with one action that harm a single creature (an attack roll, a save, magic missile's darts all at it: no
    area, no self or healing spell), in the sheet's order, those needing a slot only while one is left."""
    slots = r.data["spell_slots"]
    out = []
    for name in r.data["spells"]:
        sp = SPELLS[name]
        if sp.get("srd"):
            continue          # issue 39: War Caster casts one of the older entries (an SRD spell's cast is srd_cast's)
        if sp["time"] != "action" or sp["kind"] not in ("attack", "save", "auto") or sp.get("area") or not sp["range_m"]:
            continue
        if sp["level"] > 0 and slots is not None and slots.get(str(sp["level"]), 0) <= 0:
            continue
        out.append(name)
    return out


def war_caster_spell(rs, session, r, victim, before) -> bool:
    """DND-F14 War Caster: instead of the opportunity attack, a one-action spell at the creature leaving, the first
    of ``war_caster_spells`` that reaches it (policy ``war_caster``: default decline, the weapon attack is made). True
    when the spell was cast."""
    if not r.data.get("feats") or not has(r, "war_caster") or not reaction_taken(r, "war_caster", session, peek=True):
        return False
    if "armor" in r.data and gear.untrained(r):
        return False                   # no spells in armour it is not proficient with (gear.py)
    for name in war_caster_spells(r):
        sp = SPELLS[name]
        try:
            SPELL.check_target(rs, session, r, victim, name)
            plan = SPELL.spell_plan(rs, session, r, victim, name) if sp["kind"] == "attack" else None
        except Illegal:
            continue
        if not reaction_taken(r, "war_caster", session, f"{victim.name} leaves your reach ({name})"):
            return False
        r.data["reaction_used"] = True
        if before is not None:
            before()
        ev = {"type": "opportunity_attack", "who": r.id, "target": victim.id, "spell": name,
              "rule": "DND-F14", "reach_rule": "AIR-05",
              "text": "War Caster: a cantrip instead" if sp["level"] == 0 else "War Caster: a spell instead"}
        if sp["level"] > 0 and r.data["spell_slots"] is not None:
            r.data["spell_slots"][str(sp["level"])] -= 1
            ev["slot"] = sp["level"]
        session.emit(ev)
        if sp.get("concentration"):           # as a cast one (DND-21): held by concentration, one at a time
            concentration.begin(rs, session, r, name, [victim.id])
        if plan is not None:
            SPELL.spell_attack(rs, session, r, victim, name, plan)
        else:
            SPELL.spell_effect(rs, session, r, {"spell": name, "targets": [victim.id]})
        return True
    return False


def manoeuvre_effect(rs, session, a, t, m) -> None:
    """Trip: Str save or prone (Large or smaller); pushing: Str save or pushed up to 3 m (2 cells). DC 8 + prof +
    Str or Dex modifier."""
    if SIZES.index(t.size) > SIZES.index("large"):
        return
    dc = 8 + a.data["prof"] + max(conditions.ab(rs, a, "str"), conditions.ab(rs, a, "dex"))
    if conditions.saving_throw(rs, session, t, "str", dc, a, "DND-F01", f"against the {m} manoeuvre"):
        return
    if m == "trip":
        rs.knock_prone(session, t, "DND-F01")
    else:
        mounts.push_from(rs, session, a, t, 2)


def mounted_redirect(rs, session, a, mount, plan):
    """DND-F12 Mounted Combatant: an attack aimed at its mount is made against the rider instead (policy
    ``mounted_combatant``, default take). Returns (target, plan)."""
    rider = session.state.actors.get(mount.data["rider"])
    if rider is None or rider.id == a.id or not rider.data.get("feats") or not has(rider, "mounted_combatant") \
            or rider.dead or conditions.incapacitated(rs, rider) or not reaction_taken(rider, "mounted_combatant", session, peek=True):
        return mount, plan
    try:
        p2 = attacks.attack_plan(rs, session, a, rider, plan["weapon"], plan.get("kind") == "bonus")
    except Illegal:
        return mount, plan
    if not reaction_taken(rider, "mounted_combatant", session, f"{a.name} attacks your mount {mount.name}"):
        return mount, plan
    for k in ("kind", "opportunity", "bonus_from"):
        if k in plan:
            p2[k] = plan[k]
    session.emit({"type": "feat", "who": rider.id, "feat": "mounted_combatant", "rule": "DND-F12", "attacker": a.id,
                  "text": f"the attack aimed at {mount.name} is made against {rider.name}"})
    return rider, p2


def mount_evasion(rs, session, mount, ok, full, amt) -> int:
    """DND-F12: its mount takes no damage on a successful Dex save for half, half on a failed one."""
    rider = session.state.actors.get(mount.data.get("rider") or "")
    if rider is None or not rider.data.get("feats") or not has(rider, "mounted_combatant"):
        return amt
    new = 0 if ok else full // 2
    session.emit({"type": "feat", "who": rider.id, "feat": "mounted_combatant", "rule": "DND-F12", "mount": mount.id,
                  "text": f"its mount evades: {new} damage instead of {amt}"})
    return new


def check_inspire(rs, session, leader):
    """DND-F26 Inspiring Leader: a 10-minute speech is out of combat time, so the game master rules it took place
    (``actor = "gm"``, ``inspire``, ``target = LEADER``): up to six friendly creatures (the leader included) within
    9 m that can see or hear it (``hears``) gain temporary HP = its level + Cha modifier; once per rest each (once per scene here)."""
    if not has(leader, "inspiring_leader"):
        raise Illegal(f"{leader.name} does not have Inspiring Leader (or lost its Cha 13)", "DND-F26", "target")
    if leader.dead or conditions.incapacitated(rs, leader):
        raise Illegal(f"{leader.name} cannot speak now", "DND-F26", "target")
    done = session.state.data.get("inspired", [])
    cell = session.world.cell_m
    out = []
    for o in sorted(session.state.actors.values(), key=lambda o: (o.id != leader.id, o.id)):
        if o.dead or conditions.hostile(rs, o, leader) or o.id in done:
            continue
        if o.id == leader.id or (distance_m(o.body(), leader.body(), cell) <= 9.0 + 1e-9
                                 and (hears(rs, o) or rs.sees(session, o, leader))):
            out.append(o.id)
    if not out:
        raise Illegal("nobody within 9 m who sees the leader can still be inspired", "DND-F26", "target")
    return {"target": leader.id, "inspired": out[:6]}


def hears(rs, o) -> bool:
    """DND-F26 l. 214 "mogących cię widzieć lub słyszeć": within the 9 m a voice carries past walls and round corners
    (the document gives sound no line and the speech lasts 10 minutes); what stops hearing is being deafened
    (DND-44) or unconscious (DND-41: unaware of its surroundings)."""
    return not o.has("deafened") and not o.has("unconscious")


def apply_inspire(rs, session, leader, plan):
    amt = max(0, leader.data["level"] + conditions.ab(rs, leader, "cha"))
    session.emit({"type": "feat", "who": leader.id, "feat": "inspiring_leader", "rule": "DND-F26",
                  "inspired": plan["inspired"], "temp_hp": amt})
    for i in plan["inspired"]:
        session.state.data.setdefault("inspired", []).append(i)
        damage.give_temp_hp(rs, session, session.state.actors[i], amt, "DND-F26")
