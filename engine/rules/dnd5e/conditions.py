"""D&D 5e conditions, checks and saves (DND-41..54, DND-30 contests)."""

from __future__ import annotations

from engine.rules.dnd5e.upcalls import FEAT
from engine.rules.dnd5e import common
from engine.rules.dnd5e.sight import sealed, sight as line_of_sight
from engine.rules.dnd5e.upcalls import CONCENTRATION, MOUNT
from engine.rules import riding
from engine.rules import aerial
from engine.rules.core import Actor, Illegal
from engine.rules.hooks import Hook
from engine.rules.dnd5e import feats_data, gear
from engine.rules.dnd5e import srd_shape_data, srd_sheet, srd_weakened
from engine.rules.dnd5e.common import SKILL_ABILITY, mod
from engine.rules.dnd5e.data import (
    CONDITION_RULE,
    CONDITION_TAGS,
    INCAPACITATING,
    SIZES,
)
from engine.world.geometry import in_melee_reach


#: fn(rs, session, actor, what) yields {"source", "value", "rule"}: a number added to its d20 once rolled (``what``:
#: "attack" or "<ability> save"); a spell's mark (Bane's d4, srd_marks.py) rolls its die here
ROLL_ADJUST: list = []


def roll_adjustments(rs, session, a: Actor, what: str) -> list[dict]:
    return [s for fn in ROLL_ADJUST for s in fn(rs, session, a, what)] if a.data.get("spell_marks") else []


# ------------------------------------------------------------------------------------------ helpers
def ab(rs, a: Actor, k: str) -> int:
    return mod(a.data["abilities"][k])


def tagged(rs, a: Actor, tag: str) -> str | None:
    """The first of the actor's conditions that carries ``tag`` (data.CONDITION_TAGS), or None."""
    for c in CONDITION_TAGS[tag]:
        if c in a.conditions:
            return c
    return None


def conditions_tagged(tag: str) -> tuple:
    return CONDITION_TAGS[tag]


def incapacitated(rs, a: Actor) -> bool:
    return a.dead or tagged(rs, a, "incapacitated") is not None


def hostile(rs, a: Actor, b: Actor) -> bool:
    return a.side != b.side


def speed_zero(rs, a: Actor) -> tuple[str, str] | None:
    c = tagged(rs, a, "speed_zero")
    if c:
        return (c, CONDITION_RULE[c])
    if a.data.get("speed_zero_by"):
        return ("stopped by a Sentinel's opportunity attack", "DND-F37")
    return None


def sight_check_fails(rs, a: Actor) -> tuple[str, str] | None:
    """DND-46 l. 505 "Oślepione stworzenie nie widzi i automatycznie nie zdaje testów cech opartych na wzroku": a
    check that relies on sight (Search, which finds a hider along a line of sight) fails with no roll: (the
    condition, its rule) or None."""
    return ("blinded", CONDITION_RULE["blinded"]) if a.has("blinded") else None


def dodge_holds(rs, a: Actor) -> bool:
    """DND-24 "Tracisz te korzyści jeśli zostaniesz obezwładniony lub twoja szybkość spadnie do 0": both benefits
    (attacks against it, its Dex saves) need a dodger neither incapacitated nor at speed 0."""
    return bool(a.data["dodging"]) and not incapacitated(rs, a) and not speed_zero(rs, a)


# ------------------------------------------------------------------------------------------ conditions
def condition_immunity(rs, a: Actor, name: str) -> tuple[str, str] | None:
    """Why ``a`` cannot take the condition ``name`` now: (the reason, its rule) or None. DND-50 l. 531 "Skamieniały
    jest niepodatny na trucizny i choroby": a petrified creature is not poisoned (one poisoned before is only
    suspended: petrified, it neither acts nor makes a check the poison could hinder)."""
    if name == "poisoned" and a.has("petrified"):
        return "petrified: immune to poison", "DND-50"
    return srd_sheet.immune_condition(a, name)                   # SRD-04: the stat block's


#: fn(rs, session, a, name, source) -> (reason, rule) or None: a ward that keeps ``source`` from giving ``a`` the
#: condition (srd_wards.py: Magic Circle, SPL-17)
WARDS: list = []


def add_condition(rs, session, a: Actor, name: str, rule: str, source: str | None = None) -> None:
    immune = condition_immunity(rs, a, name)
    if immune is None and source is not None:
        immune = next((w for w in (fn(rs, session, a, name, source) for fn in WARDS) if w), None)
    if immune:
        session.emit({"type": "condition_immune", "who": a.id, "condition": name, "reason": immune[0], "rule": immune[1]})
        return
    # DND-36: knocked prone while mounted -> Dexterity save DC 10 to stay in the saddle, else fall off prone
    if name == "prone" and riding.rides(a) and "prone" not in a.conditions and not incapacitated(rs, a) \
            and saving_throw(rs, session, a, "dex", 10, None, "DND-36", "stay mounted"):
        return
    had = name in a.conditions
    srcs = set(a.conditions.get(name, []))
    if source:
        srcs.add(source)
    a.conditions[name] = sorted(srcs)
    if not had:
        session.emit({"type": "condition", "who": a.id, "condition": name, "added": True, "rule": rule,
                      **({"source": source} if source else {})})
    if name in INCAPACITATING:
        # DND-47: a grapple ends when the grappler is incapacitated
        for o in session.state.actors.values():
            if a.id in o.conditions.get("grappled", []):
                release(rs, session, o, a, "DND-47", f"{a.name} is {name}")
        a.data["dodging"] = False
        if a.data.get("concentration"):
            CONCENTRATION.incapacitated(rs, session, a, f"is {name}", CONDITION_RULE[name])
    if name == "unconscious" and "prone" not in a.conditions:
        add_condition(rs, session, a, "prone", "DND-41")    # falls prone
    if name == "prone" and riding.rides(a):
        MOUNT.fall_off_mount(rs, session, a, "DND-36")
    if name == "prone" and riding.carries(a):
        rider = riding.rider_of(session, a)
        MOUNT.mount_fell(rs, session, rider, a)
    aerial.check_grounded(session, a)


def remove_condition(rs, session, a: Actor, name: str, rule: str) -> None:
    if name in a.conditions:
        a.conditions.pop(name)
        session.emit({"type": "condition", "who": a.id, "condition": name, "added": False, "rule": rule})


# ------------------------------------------------------------------------------------------ checks and saves
def d20(rs, session, name, who, adv: bool, dis: bool, rule: str, purpose: str) -> int:
    if adv and not dis:
        rs = session.roll(name, 20, 2, who=who, rule=rule, purpose=purpose + " (advantage)")
        return max(rs)
    if dis and not adv:
        rs = session.roll(name, 20, 2, who=who, rule=rule, purpose=purpose + " (disadvantage)")
        return min(rs)
    return session.roll(name, 20, 1, who=who, rule=rule, purpose=purpose)[0]


def saving_throw(rs, session, a: Actor, ability: str, dc: int, source_actor, rule: str, purpose: str,
                 cover_level: str = "none", advantage: str | None = None, disadvantage: str | None = None,
                 concentration: str | None = None, sole_target: bool = False) -> bool:
    """``advantage`` / ``disadvantage``: a reason the caller gives (Dungeon Delver against a trap, DND-F05; War
    Caster and Mage Slayer on a concentration save); ``concentration``: the spell the save keeps (its event says it);
    ``sole_target``: the spell or other effect (a trap) targets only this creature (Shield Master, DND-F20)."""
    if ability in ("str", "dex"):
        c = tagged(rs, a, "auto_fail_str_dex")
        if c:
            session.emit({"type": "save", "who": a.id, "ability": ability, "dc": dc, "success": False,
                          "auto_fail": c, "rule": CONDITION_RULE[c]})
            return False
    advs, diss = [], []                      # the reasons, each naming its rule (the event lists them)
    if ability == "dex" and dodge_holds(rs, a):
        advs.append("Dodge (DND-24)")
    feat_adv = bool(a.data.get("feats")) and FEAT.save_advantage(rs, session, a, ability, source_actor, rule)
    mr = srd_sheet.magic_resistance(a, rule, concentration)     # SRD-10
    if mr:
        advs.append(mr)
    if feat_adv:
        advs.append("Mage Slayer: a spell cast within 1.5 m (DND-F40)")
    mist = srd_shape_data.mist_save_advantage(a, ability) if a.data.get("srd_shapes") else None
    if mist:
        advs.append(mist)                     # SRD-91: the vampire's mist
    if ability == "dex" and a.has("restrained"):
        diss.append("restrained (DND-52)")
    if a.data.get("weakened") and srd_weakened.weakened(a, ability):
        diss.append(srd_weakened.WHY)                 # SRD-27
    if advantage:
        advs.append(advantage)
        purpose = f"{purpose}; {advantage}"
    if disadvantage:
        diss.append(disadvantage)
        purpose = f"{purpose}; {disadvantage}"
    why = gear.armour_check_disadvantage(a, ability) if "armor" in a.data else None
    if why:                                  # armour it is not proficient with: Str / Dex saves (gear.py)
        diss.append(why)
        purpose = f"{purpose}; {why}"
    adv, dis = bool(advs), bool(diss)
    srcs: list[dict] = [{"source": ability.capitalize(), "value": ab(rs, a, ability), "rule": rule}]
    if ability in a.data["saves"]:
        srcs.append({"source": "proficiency", "value": a.data["prof"], "rule": rule})
    used = []
    if sole_target and ability == "dex" and a.data.get("feats") and feats_data.has(a, "shield_master") \
            and not incapacitated(rs, a) and gear.shield_carried(a):
        # DND-F20 l. 178 "premię do KP zawdzięczaną tarczy" against "zaklęciu lub innemu efektowi, którego celem
        # jesteś tylko ty": the shield's AC bonus, with a shield
        srcs.append({"source": "Shield Master: the shield", "value": gear.SHIELD_AC, "rule": "DND-F20"})
        used.append("shield_master")
    if ability == "dex":
        if cover_level == "three-quarters":
            srcs.append({"source": "three-quarters cover", "value": 5, "rule": "DND-32"})
        elif cover_level == "half" and rs.opt("half_cover_dex_saves"):     # DND-32 l. 428: AC only, as written
            srcs.append({"source": "half cover", "value": 2, "rule": "DND-32"})
    bonus = sum(s["value"] for s in srcs)
    for one, other in ((advs, dis), (diss, adv)):
        if len(one) == 1 and not other and (f := feat_named(one[0])):
            used.append(f)                   # a feat is named only when it changed the roll (the one reason)
    r = d20(rs, session, "save", a.id, adv, dis, rule, purpose)
    if a.data.get("feats"):                               # DND-F32: decided on the die, before the result is known
        r = FEAT.lucky_save(rs, session, a, r, f"{ability.capitalize()} saving throw")
    adj = roll_adjustments(rs, session, a, f"{ability} save")
    srcs += adj
    bonus += sum(s["value"] for s in adj)
    ok = r + bonus >= dc
    ev = {"type": "save", "who": a.id, "ability": ability, "dc": dc, "roll": r, "total": r + bonus,
          "success": ok, "sources": srcs, "rule": rule}
    if not ok and a.data.get("legendary_resistance") and srd_sheet.legendary_resistance(session, a, purpose):
        ok = ev["success"] = True                           # SRD-14: it chose to succeed instead
        ev["legendary_resistance"] = a.data["legendary_resistance"]
    if advs:
        ev["advantage"] = advs
    if diss:
        ev["disadvantage"] = diss
    if concentration:
        ev["concentration"] = concentration
    if used:
        ev["feats"] = used
    session.emit(ev)
    return ok

def feat_named(reason: str) -> str | None:
    """The feat whose rule ID ends a reason ("War Caster: ... (DND-F14)" -> war_caster), or None."""
    if reason.endswith(")") and "(DND-F" in reason:
        rid = reason[reason.rindex("(") + 1:-1]
        return next((n for n, i in feats_data.FEAT_ID.items() if i == rid), None)
    return None

# -- grapple, shove, escape ---------------------------------------------------------------------------------------


def contest(rs, session, a, t, rule) -> bool:
    if incapacitated(rs, t):
        session.emit({"type": "contest", "who": a.id, "target": t.id, "automatic": True, "success": True, "rule": rule})
        return True
    ta = check_roll(rs, session, a, "athletics", "check", rule, "Athletics")
    skill = max(("athletics", "acrobatics"), key=lambda s: skill_bonus(rs, t, s))
    r = check_d20(rs, session, t, SKILL_ABILITY[skill], "contest", rule, skill.capitalize(), skill.capitalize())
    tt = r + skill_bonus(rs, t, skill)
    ok = ta > tt
    session.emit({"type": "contest", "who": a.id, "target": t.id, "attacker_total": ta, "defender_total": tt,
                  "defender_skill": skill, "success": ok, "rule": rule})
    return ok


def skill_bonus(rs, a: Actor, name: str) -> int:
    return ab(rs, a, SKILL_ABILITY[name]) + a.data["prof"] * int(a.data["skills"].get(name, 0))


#: after a grappler moved, before DND-47's reach check: what it holds comes along (srd_carry.py, SRD-30)
MOVED = Hook("moved", "fn(rs, session, actor) after the actor moved", order=(
    "carry_load",                # srd_carry.py (SRD-30)
    "moved_inside",              # srd_swallow.py (SRD-43)
    "darkness_follows",          # srd_sight.py (SRD-101: the Darkness Aura moves with it)
))
#: after a grapple ended: a creature held aloft and let go falls (srd_carry.py, SRD-30)
RELEASED = Hook("released", "fn(rs, session, target, grappler) after a grapple ended", order=(
    "dropped_aloft",             # srd_carry.py (SRD-30)
    "engulf_ends",               # srd_engulf.py (SRD-44, SRD-45)
))


def release(rs, session, target: Actor, grappler: Actor, rule: str, why: str) -> None:
    srcs = [s for s in target.conditions.get("grappled", []) if s != grappler.id]
    if "grappled" not in target.conditions or grappler.id not in target.conditions["grappled"]:
        return
    if srcs:
        target.conditions["grappled"] = srcs
        session.emit({"type": "grapple_ends", "who": target.id, "grappler": grappler.id, "reason": why, "rule": rule})
    else:
        session.emit({"type": "grapple_ends", "who": target.id, "grappler": grappler.id, "reason": why, "rule": rule})
        remove_condition(rs, session, target, "grappled", rule)
    held = target.data.get("srd_grapple")
    if held and held["by"] == grappler.id:          # SRD-19: "restrained until this grapple ends"
        target.data.pop("srd_grapple")
        if held.get("restrained"):
            remove_condition(rs, session, target, "restrained", "SRD-19")
    FEAT.unpin(rs, session, grappler, target)
    RELEASED.run(rs, session, target, grappler)


def check_grapples(rs, session) -> None:
    """DND-47: a grapple ends when the target is out of the grappler's reach."""
    acts = session.state.actors
    for t in acts.values():
        for gid in list(t.conditions.get("grappled", [])):
            g = acts.get(gid)
            if g is None:
                continue
            if g.dead or incapacitated(rs, g):
                release(rs, session, t, g, "DND-47", f"{g.name} is incapacitated")
            elif not in_melee_reach(g.body(), t.body(), max(rs.melee_reach(g, w) for w in g.data["weapons"]), session.world.cell_m):
                release(rs, session, t, g, "DND-47", f"{t.name} is out of {g.name}'s reach")


#: fn(rs, session, a, ability, what) -> reason or None: disadvantage on an ability check of ``a`` (srd_breath.py:
#: SRD-84, SRD-85, a creature in sunlight or bright light)
CHECK_DISADVANTAGE: list = []


def check_d20(rs, session, a: Actor, ability: str, name: str, rule: str, purpose: str, what: str,
              advantage: str | None = None, stealth: bool = False) -> int:
    """The d20 of an ability check by ``a``, whatever asks for it (a skill check, either side of a contest, the
    grappler against an escape, a lock): every check goes through the same conditions. Disadvantage when poisoned
    (DND-53 "utrudnienie w ... testach cech") or frightened with the source in sight (DND-49), or from the armour
    worn (gear.py: untrained Str / Dex, ``stealth``); Lucky (DND-F32 "test ... cechy") after the die is seen.
    ``advantage``: a reason the caller gives (Dungeon Delver looking for a secret door, DND-F05); ``what`` names
    the check in Lucky's question."""
    dis = a.has("poisoned") or (a.has("frightened") and fear_source_in_sight(rs, session, a))   # DND-53, DND-49
    if not dis and a.data.get("weakened") and srd_weakened.weakened(a, ability):      # SRD-27
        dis, purpose = True, f"{purpose}; {srd_weakened.WHY}"
    for fn in CHECK_DISADVANTAGE if not dis else ():              # srd_breath.py (SRD-84, SRD-85: the light)
        why = fn(rs, session, a, ability, what)
        if why:
            dis, purpose = True, f"{purpose}; {why}"
            break
    helped = task_help(session, a)                         # DND-18: help with a task
    if helped:
        advantage = f"{advantage}; {helped}" if advantage else helped
    if advantage:
        purpose = f"{purpose}; {advantage}"
    if "armor" in a.data:
        why = gear.armour_check_disadvantage(a, ability) or (gear.stealth_disadvantage(a) if stealth else None)
        if why:
            dis, purpose = True, f"{purpose}; {why}"
    r = d20(rs, session, name, a.id, bool(advantage), dis, rule, purpose)
    if a.data.get("feats"):
        r = FEAT.lucky_check(rs, session, a, r, what)     # DND-F32: checks too
    return r


def task_help(session, a: Actor) -> str | None:
    """DND-18 l. 343 "Pomagasz innej istocie w wykonywanym przez nią zadaniu co daje jej ułatwienie": help given to
    ``a`` with a task (``help`` without ``against``) is spent on its next ability check, with advantage; the help
    lapses at the helper's next turn (turns ``help_lapses``). The reason, or None."""
    hs = session.state.data.get("help", [])
    for h in hs:
        if h["ally"] == a.id and h["target"] is None:
            hs.remove(h)
            return f"helped by {h['helper']} (DND-18)"
    return None


def check_roll(rs, session, a: Actor, skill: str, name: str, rule: str, purpose: str,
               advantage: str | None = None) -> int:
    """A skill check's total (``check_d20`` plus the skill's bonus) and its ``check`` event."""
    r = check_d20(rs, session, a, SKILL_ABILITY[skill], name, rule, purpose, skill.capitalize(), advantage,
                  stealth=skill == "stealth")
    total = r + skill_bonus(rs, a, skill)
    session.emit({"type": "check", "who": a.id, "skill": skill, "roll": r, "total": total, "rule": rule})
    return total


def fear_source_in_sight(rs, session, a: Actor) -> bool:
    for s in a.conditions.get("frightened", []):
        src = session.state.actors.get(s)
        if src is None or rs.sees(session, a, src):
            return True
    return not a.conditions.get("frightened")


def contest_target(rs, session, a, act, rule):
    t = common.living_target(rs, session, a, act["target"])
    if t.id == a.id:
        raise Illegal(f"{a.name} cannot {act['action']} itself", rule, "target")
    if t.id in a.conditions.get("charmed", []):      # DND-54 "ani w żaden inny sposób zaszkodzić"
        raise Illegal(f"{a.name} is charmed by {t.name} and cannot {act['action']} it", "DND-54", "target")
    if sealed(a, t):                                # SRD-43: swallowed, "total cover against ... effects outside"
        raise Illegal(f"{t.name if t.data.get('inside') else a.name} is inside another creature: total cover", "SRD-43",
                      "target")
    turn = session.state.turn
    if act.get("bonus"):
        src = FEAT.bonus_contest_source(rs, session, a, act["action"])      # DND-F20, F31, F39
        if turn["bonus"]:
            raise Illegal(f"{a.name} has already used its bonus action this turn", "DND-12", "bonus")
        if not src:
            raise Illegal(f"nothing allows {a.name} a bonus-action {act['action']} now (Shield Master after the "
                          "Attack action, Charger after Dash, Tavern Brawler after an unarmed hit)", "DND-12", "bonus")
    elif turn["attacks_left"] <= 0 and turn["action"]:
        raise Illegal(f"a {act['action']} replaces an attack; {a.name} has none left this turn", rule)
    if SIZES.index(t.size) > SIZES.index(a.size) + 1:
        raise Illegal(f"{t.name} is more than one size larger than {a.name}", rule, "target")
    reach = max(rs.melee_reach(a, w) for w in a.data["weapons"])
    if not in_melee_reach(a.body(), t.body(), reach, session.world.cell_m):
        raise Illegal(f"{t.name} is out of {a.name}'s reach", "AIR-05", "target")
    if act.get("bonus"):
        refused = FEAT.bonus_contest_refusal(rs, session, a, t, FEAT.bonus_contest_source(rs, session, a, act["action"]))
        if refused:
            raise Illegal(refused[0], refused[1], "target")
    return t


def passive(rs, a, skill: str) -> int:
    """Passive score: 10 + the skill's bonus, +5 with Observant (DND-F29, Perception and Investigation)."""
    return 10 + skill_bonus(rs, a, skill) + (5 if skill in ("perception", "investigation") and a.data.get("feats")
                                             and feats_data.has(a, "observant") else 0) + srd_sheet.keen_sight(a, skill)


def passive_notice(rs, session, hider, stealth: int) -> None:
    """Option ``hide_passive = "passive_perception"`` (the SRD): a hostile that could see the hider (not blinded,
    a line of sight) and whose passive Perception (DND-F29 Observant +5) is at least the Stealth total notices it."""
    for o in session.state.actors.values():
        if not hostile(rs, o, hider) or o.dead or incapacitated(rs, o) or o.has("blinded") \
                or not line_of_sight(rs, session, o, hider):
            continue
        p = passive(rs, o, "perception")
        if p >= stealth:
            hider.data["hidden"] = None
            ev = {"type": "revealed", "who": hider.id, "by": o.id,
                  "reason": f"noticed: passive Perception {p} against Stealth {stealth}", "rule": "DND-23"}
            if o.data.get("feats") and "observant" in o.data["feats"]:
                if feats_data.has(o, "observant"):
                    ev["feat"] = "observant"
                    ev["rule"] = "DND-23+DND-F29"
            session.emit(ev)
            return
