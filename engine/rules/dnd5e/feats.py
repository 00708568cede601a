"""D&D 5e feats (DND-F00..F42) as data on a character (``feats = ["sharpshooter", ...]``) and small functions on
named hooks. A feat never edits a big method: the attack, damage, movement and reaction code asks these hooks.

* ``FEATS``: snake_case name -> id, English name, scope (auto / sheet), ability increase, prerequisite.
* ``has(a, name)``: the character has the feat *and* meets its prerequisite now (DND-F00: unusable while lost).
* hooks: ``ATTACK_MODS`` (to-hit / damage changes, each naming its feat), ``COVER_IGNORE`` (cover a feat ignores),
  ``DROP_SOURCES`` (advantage/disadvantage a feat cancels), ``BONUS_ATTACKS`` (what lets a bonus-action attack),
  plus the reaction helpers ``reaction_taken`` (the character's policy) and the Sentinel / Polearm Master /
  Mage Slayer / Defensive Duelist functions called where those moments happen.
"""

from __future__ import annotations

from engine.rules.hooks import Hook
from engine.rules.dnd5e.feats_data import (  # noqa: F401  (the feats' table and queries, re-exported for the rules' callers)
    BUTT_END_POLEARMS,
    DEFAULT_DECLINE,
    FEAT_ID,
    FEAT_REACTIONS,
    FEATS,
    MANOEUVRES,
    POLEARMS,
    REACTION_RULE,
    REACTION_TEXT,
    REACTIONS,
    RULEBOOK_PREREQS,
    FeatInfo,
    Prereq,
    adept_dice,
    butt_end,
    can_oa_despite_disengage,
    closest,
    has,
    has_raw,
    prereq,
    reaction_taken,
    superiority_die,
    unmet,
)
from engine.rules.dnd5e.upcalls import FEAT
from engine.rules.dnd5e import gear, attacks, conditions   # gear first: it imports advantage's names
from engine.rules.dnd5e.feats_moments import (  # noqa: F401  (the feats' own moments, re-exported for the rules' callers)
    bonus_contest_source,
    bonus_contest_refusal,
    query_notes,
    spend_contest,
    lucky_defence,
    lucky_cancels,
    lucky_check,
    lucky_save,
    check_pin,
    apply_pin,
    unpin,
    war_caster_spell,
    manoeuvre_effect,
    mounted_redirect,
    mount_evasion,
    check_inspire,
    apply_inspire,
)
from engine.rules.dnd5e.feats_sheet import (  # noqa: F401  (the sheet side, re-exported for the rules' callers)
    ELEMENTS,
    REPEATABLE,
    panel_rows,
    setup,
    sheet,
)
from engine.rules.dnd5e.data import SIZES
from engine.world.geometry import engaged
from engine.rules.core import Illegal


# -- to hit and damage ----------------------------------------------------------------------------------------
ATTACK_MODS: list = []


def mod_hook(fn):
    ATTACK_MODS.append(fn)
    return fn


def power_attack_feat(rs, a, w, melee) -> str | None:
    """Which feat allows the −5 / +10 with this weapon: Sharpshooter (ranged weapon), GWM (a heavy weapon: l. 154
    "ataku ciężką bronią w której masz biegłość", melee or not; option ``gwm_power_attack = "melee"``: melee only)."""
    if not melee and "ranged" in w["properties"] and has(a, "sharpshooter"):
        return "sharpshooter"
    if "heavy" in w["properties"] and (melee or rs.opt("gwm_power_attack") == "heavy") \
            and has(a, "great_weapon_master") and gear.proficient_weapon(a, w):
        return "great_weapon_master"       # "a heavy weapon in which you are proficient" (gear.py, DND-F18)
    return None


@mod_hook
def power_attack(rs, session, a, t, plan, act):
    """DND-F16 / DND-F30: ``power_attack = true`` on ``attack``: −5 to hit, +10 damage."""
    if act.get("power_attack"):
        f = power_attack_feat(rs, a, plan["weapon"], plan["melee"])
        if f:
            yield {"feat": f, "rule": FEAT_ID[f], "to_hit": -5, "damage": 10}


@mod_hook
def charger(rs, session, a, t, plan, act):
    """DND-F31: the bonus attack after Dash, having moved 3 m or more in a straight line just before: +5 damage."""
    if plan.get("bonus_from") == "charger" and session.state.turn.get("charge_line_m", 0) >= 3.0 - 1e-9:
        yield {"feat": "charger", "rule": "DND-F31", "to_hit": 0, "damage": 5}


def attack_mods(rs, session, a, t, plan, act) -> list[dict]:
    if not a.data.get("feats"):
        return []
    return [m for fn in ATTACK_MODS for m in fn(rs, session, a, t, plan, act)]


# -- cover ----------------------------------------------------------------------------------------------------
def cover_ignored(a, plan, spell_attack=False) -> str | None:
    """DND-F30 Sharpshooter (ranged weapon attacks), DND-F22 Spell Sniper (ranged spell attacks): half and
    three-quarters cover do not count; the sight line (and total cover) is the same function's."""
    if plan["cover"] not in ("half", "three-quarters"):
        return None
    if spell_attack or plan["weapon"].get("spell"):
        return "spell_sniper" if has(a, "spell_sniper") else None
    if not plan["melee"] and has(a, "sharpshooter"):
        return "sharpshooter"
    return None


# -- advantage / disadvantage a feat cancels --------------------------------------------------------------------
#: DND-F10 l. 121 "twoi przeciwnicy nie otrzymują ułatwienia w testach ataku gdy ich nie widzisz": the advantage an
#: attacker has because the target cannot see it (unseen or hidden, DND-26; invisible, DND-42; the target blinded,
#: DND-46: each of these means the target does not see the attacker)
UNSEEN_ADVANTAGE = frozenset(("the target cannot see the attacker", "the attacker is invisible", "the target is blinded"))


def _mode(adv, dis) -> int:
    return (1 if adv else 0) - (1 if dis else 0)     # advantage 1, disadvantage -1, a straight roll 0 (DND-16)


def drop_sources(rs, session, a, t, plan, adv, dis):
    """Sharpshooter: no disadvantage at long range (DND-F30); Crossbow Expert: none within 1.5 m of an enemy
    (DND-F28); Alert: unseen attackers gain no advantage against it (DND-F10). Returns (adv, dis, [feats]): a
    feat is named only when it changed the roll (advantage, disadvantage or neither), not for a source dropped
    while another of the same kind, or one of the other kind, leaves the roll as it was."""
    used = []
    if a.data.get("feats") and not plan["melee"]:
        for feat, drop in (("sharpshooter", lambda r: r == "beyond the weapon's normal range"),
                           ("crossbow_expert", lambda r: r.startswith("ranged attack within 1.5 m of"))):
            if has(a, feat):
                kept = [s for s in dis if not drop(s[0])]
                if len(kept) < len(dis):
                    if _mode(adv, kept) != _mode(adv, dis):
                        used.append(feat)
                    dis = kept
    if t.data.get("feats") and has(t, "alert"):
        kept = [s for s in adv if s[0] not in UNSEEN_ADVANTAGE]
        if len(kept) < len(adv):
            if _mode(kept, dis) != _mode(adv, dis):
                used.append("alert")
            adv = kept
    return adv, dis, used


# -- bonus-action attacks -----------------------------------------------------------------------------------------
def bonus_attack_sources(rs, session, a, w) -> list[str]:
    """What lets ``a`` make a bonus-action attack with ``w`` now (DND-29 two-weapon fighting first)."""
    turn = session.state.turn
    out = []
    melee = rs.is_melee(w)
    if turn.get("light_weapon") and melee and off_hand_weapon(rs, a, w) and gear.other_hand(a, w, turn["light_weapon"]):
        out.append("two_weapon")
    if not a.data.get("feats"):
        return out
    if turn.get("gwm_bonus") and melee and has(a, "great_weapon_master"):
        out.append("great_weapon_master")
    if turn.get("attacked_with") and w["name"] in BUTT_END_POLEARMS and has(a, "polearm_master") \
            and turn["attacked_with"] in BUTT_END_POLEARMS:
        out.append("polearm_master")
    if turn.get("one_handed_attack") and w["name"] == "hand_crossbow" and has(a, "crossbow_expert"):
        out.append("crossbow_expert")
    if turn.get("dash") and has(a, "charger") and not turn.get("charged") \
            and (melee or rs.opt("charger_attack") == "any"):
        out.append("charger")       # DND-F31 l. 245 "raz zaatakować": any weapon; option "melee": a melee attack
    return out


def off_hand_weapon(rs, a, w) -> bool:
    """A melee weapon two-weapon fighting may use (DND-29: light); with Dual Wielder (DND-F24, l. 203: "jednoręcznych
    broni, które nie są lekkie") any one-handed melee weapon."""
    if not rs.is_melee(w):
        return False
    if "light" in w["properties"]:
        return True
    return gear.one_handed_melee(rs, w) and bool(a.data.get("feats")) and has(a, "dual_wielder")


def after_attack(rs, session, a, t, plan, hit, crit, killed):
    """Bookkeeping a later bonus attack needs: GWM after a crit or a kill with a melee weapon (DND-F16);
    Polearm Master after an Attack-action attack with a polearm; Crossbow Expert after a one-handed attack."""
    if not a.data.get("feats"):
        return
    turn = session.state.turn
    if turn.get("actor") != a.id:
        return
    w = plan["weapon"]
    if plan.get("kind") == "action":
        turn["attacked_with"] = w["name"]
        if "two-handed" not in w["properties"]:
            turn["one_handed_attack"] = True
    if plan["melee"]:
        turn.setdefault("melee_attacked", [])
        if t.id not in turn["melee_attacked"]:
            turn["melee_attacked"].append(t.id)       # DND-F27 Mobile
    if hit and w["name"] == "unarmed" and has(a, "tavern_brawler"):
        turn["unarmed_hit"] = True                    # DND-F39: a bonus-action grapple now, on the creature hit
        turn.setdefault("unarmed_hit_targets", []).append(t.id)
    if plan["melee"] and (crit or killed) and has(a, "great_weapon_master") and plan.get("kind") != "bonus":
        if not turn.get("gwm_bonus"):
            turn["gwm_bonus"] = True
            session.emit({"type": "feat", "who": a.id, "feat": "great_weapon_master", "rule": "DND-F16",
                          "text": "a bonus-action melee attack is now available (" + ("critical hit" if crit else "kill") + ")"})


# -- reactions ----------------------------------------------------------------------------------------------------
def defensive_duelist(rs, session, a, t, plan, roll, total, ac, hit, crit):
    """DND-F21 l. 185 "Kiedy trzymasz jednoręczną broń finezyjną, w której używaniu masz biegłość, a twój
    przeciwnik trafia cię atakiem wręcz, możesz w ramach reakcji dodać swoją premię z biegłości do KP": a one-handed
    finesse weapon it is proficient with; hit by a melee attack, seen or not (the sentence asks no sight)."""
    if not hit or crit or not plan["melee"] or not t.data.get("feats") or not has(t, "defensive_duelist"):
        return None
    if t.data["reaction_used"] or conditions.incapacitated(rs, t):
        return None
    if not any("finesse" in w["properties"] and "two-handed" not in w["properties"] and gear.proficient_weapon(t, w)
               for w in t.data["weapons"]):
        return None
    if total >= ac + t.data["prof"]:
        return None            # it would not turn the hit: a table would not spend the reaction
    if not reaction_taken(t, "defensive_duelist", session, f"{a.name}'s attack hits ({total} vs AC {ac})"):
        return None
    t.data["reaction_used"] = True
    session.emit({"type": "reaction", "who": t.id, "feat": "defensive_duelist", "against": a.id,
                  "ac": ac + t.data["prof"], "rule": "DND-F21", "text": f"+{t.data['prof']} AC: the hit becomes a miss"})
    return ac + t.data["prof"]


def sentinel_hit(rs, session, r, victim, plan):
    """DND-F37: an opportunity attack that hits makes the target's speed 0 for the rest of the turn; a flyer falls
    (AIR-10: a flyer that loses its movement falls)."""
    if plan.get("kind") == "reaction" and plan.get("opportunity") and r.data.get("feats") and has(r, "sentinel") \
            and not victim.dead:
        victim.data["speed_zero_by"] = r.id
        session.emit({"type": "feat", "who": r.id, "feat": "sentinel", "target": victim.id, "rule": "DND-F37",
                      "text": f"{victim.name}'s speed is 0 for the rest of the turn"})


def extra_advantage(rs, session, a, t, plan) -> list:
    """Advantage a feat gives: Grappler against the creature it grapples (DND-F41); Mounted Combatant against an
    unmounted creature smaller than its mount (DND-F12: any attack roll; option ``mounted_combatant_attack``)."""
    out: list[tuple[str, str]] = []
    if not a.data.get("feats"):
        return out
    if has(a, "grappler") and a.id in t.conditions.get("grappled", []):
        out.append(("Grappler: the target is grappled by the attacker", "DND-F41"))
    m = a.data.get("mounted_on")
    # DND-F12 l. 131 "ułatwienie w testach ataku": any attack roll; option "melee": the rulebook's melee attacks
    if m and (plan["melee"] or rs.opt("mounted_combatant_attack") == "any") and has(a, "mounted_combatant") \
            and not t.data.get("mounted_on"):
        mount = session.state.actors[m]
        if SIZES.index(t.size) < SIZES.index(mount.size):
            out.append(("Mounted Combatant: unmounted target smaller than the mount", "DND-F12"))
    return out


def straight_line_m(session, path) -> float:
    """DND-F31 Charger: the metres of the move's last straight run in 3D (cells in x/y, layers in z, one direction)."""
    if len(path) < 2:
        return 0.0
    cell = session.world.cell_m
    lay = 1.0                     # a layer is 1 m (engine.world.geometry.distance_m)
    d0 = tuple(b - a for a, b in zip(path[-2], path[-1]))
    n = 1
    for i in range(len(path) - 2, 0, -1):
        d = tuple(b - a for a, b in zip(path[i - 1], path[i]))
        if d != d0:
            break
        n += 1
    dx, dy, dz = (c * n for c in d0)
    return ((dx * cell) ** 2 + (dy * cell) ** 2 + (dz * lay) ** 2) ** 0.5


def save_advantage(rs, session, a, ability, source, rule) -> bool:
    """DND-F40 Mage Slayer: advantage on saves against spells cast within 1.5 m."""
    if source is None or rule != "DND-21" or not has(a, "mage_slayer"):
        return False
    return engaged(a.body(), source.body())


def shield_master_evades(rs, session, t) -> bool:
    """DND-F20 Shield Master: on a successful Dex save against half damage, the reaction takes none."""
    if not t.data.get("feats") or not has(t, "shield_master") or t.data["reaction_used"] or conditions.incapacitated(rs, t) \
            or not gear.shield_carried(t) or not reaction_taken(t, "shield_master", session, "a successful Dexterity save against half damage"):
        return False
    t.data["reaction_used"] = True
    session.emit({"type": "reaction", "who": t.id, "feat": "shield_master", "rule": "DND-F20",
                  "text": "no damage on the successful Dexterity save"})
    return True


def reaction_plan(rs, session, r, t, w, opportunity: bool = False):
    """The plan of a reaction attack by ``r`` on ``t`` with ``w``, marked as a reaction (and an opportunity attack
    when ``opportunity``); None when the attack is not legal now (e.g. charmed, DND-54)."""
    try:
        plan = attacks.attack_plan(rs, session, r, t, w, False)
    except Illegal:
        return None
    plan["kind"] = "reaction"
    if opportunity:
        plan["opportunity"] = True
    return plan


def _may_react(rs, session, r, foe, feat: str) -> bool:
    """``r`` has the feat, is hostile to ``foe``, alive and able, its reaction unspent and its answer not already
    "decline" (a look ahead: the question itself is asked once the reaction is possible, _reaction_melee_attack)."""
    return bool(r.data.get("feats")) and has(r, feat) and conditions.hostile(rs, r, foe) and not r.dead \
        and not conditions.incapacitated(rs, r) and not r.data["reaction_used"] and reaction_taken(r, feat, session, peek=True)


def _reaction_melee_attack(rs, session, r, t, feat: str, text: str, question: str) -> bool:
    """A feat's reaction melee weapon attack (its longest-reach melee weapon) on ``t``, once it is legal and the
    reacting character's player takes it (the choice point, asked with ``question``); False otherwise."""
    w, _reach = attacks.oa_weapon(rs, r)
    plan = None if w is None else reaction_plan(rs, session, r, t, w)
    if plan is None or not reaction_taken(r, feat, session, question):
        return False
    r.data["reaction_used"] = True
    session.emit({"type": "reaction", "who": r.id, "feat": feat, "target": t.id, "rule": FEAT_ID[feat], "text": text})
    attacks.resolve_attack(rs, session, r, t, plan, {})
    return True


def mage_slayer(rs, session, caster):
    """DND-F40: a creature within 1.5 m casts a spell: a reaction melee weapon attack against it."""
    for r in list(session.state.actors.values()):
        if r.id == caster.id or not _may_react(rs, session, r, caster, "mage_slayer") or not engaged(r.body(), caster.body()):
            continue
        if _reaction_melee_attack(rs, session, r, caster, "mage_slayer", "a melee attack against the caster",
                                  f"{caster.name} casts a spell within 1.5 m") and (caster.dead or caster.hp == 0):
            return


def sentinel_protects(rs, session, attacker, target):
    """DND-F37: a creature within 1.5 m attacks someone other than the Sentinel: a reaction melee attack on it.
    l. 280 "wykonuje atak w inny cel jak ty (i nie mający atutu wartownik)": the parenthesis follows "inny cel", the
    target, and translates the rulebook's "(and that target doesn't have this feat)": an attack on a creature that
    has Sentinel itself gives no reaction. Option ``sentinel_exempt = "attacker"``: the other grammatical reading,
    no reaction against an attacker that has Sentinel."""
    exempt = target if rs.opt("sentinel_exempt") == "target" else attacker
    if exempt.data.get("feats") and has(exempt, "sentinel"):
        return
    for r in list(session.state.actors.values()):
        if r.id in (attacker.id, target.id) or not _may_react(rs, session, r, attacker, "sentinel") \
                or not engaged(r.body(), attacker.body()):
            continue
        if _reaction_melee_attack(rs, session, r, attacker, "sentinel", f"{attacker.name} attacked {target.name}: a reaction attack",
                                  f"{attacker.name} attacks {target.name} beside you"):
            return


def attack_variants(rs, session, a, legal) -> list[dict]:
    """The options of each legal (Attack-action) attack: power attack, a luck point, Savage Attacker, a manoeuvre;
    each under the same condition ``Attack.check`` applies to it."""
    out = []
    turn = session.state.turn
    for c in legal:
        if c["action"] != "attack" or c.get("bonus"):
            continue
        w = attacks.weapon(rs, a, c["weapon"])
        melee = rs.is_melee(w)
        if power_attack_feat(rs, a, w, melee):
            out.append({**c, "power_attack": True})
        if a.data.get("luck", 0) > 0:
            out.append({**c, "lucky": True})
        if melee and has(a, "savage_attacker") and not turn.get("savage_used") \
                and c["target"] in session.state.actors and attacks.melee_at(rs, session, a, session.state.actors[c["target"]], w):
            out.append({**c, "savage": True})           # DND-F06 "atakiem wręcz": not a thrown weapon
        if a.data.get("superiority", 0) > 0 and (melee or "ranged" in w["properties"]):
            out += [{**c, "manoeuvre": m} for m in a.data["manoeuvres"]]
    return out


def legal_choices(rs, session, a) -> list[dict]:
    """The choices a feat gives, as ready-to-step actions: power attack, a luck point, Savage Attacker's reroll,
    bonus attacks (GWM, Polearm Master, Crossbow Expert, Charger), reactions to take or decline."""
    out = []
    turn = session.state.turn
    if not turn.get("bonus"):
        foes = [o for o in session.state.actors.values() if o.id != a.id and not o.dead and conditions.hostile(rs, a, o)]
        for kind in ("shove", "grapple"):
            if bonus_contest_source(rs, session, a, kind):
                for t in foes:
                    if kind == "shove":
                        out += [{"actor": a.id, "action": "shove", "target": t.id, "mode": m, "bonus": True} for m in ("prone", "push")]
                    else:
                        out.append({"actor": a.id, "action": "grapple", "target": t.id, "bonus": True})
        for w in a.data["weapons"]:
            for src in bonus_attack_sources(rs, session, a, w):
                if src == "two_weapon":
                    continue
                for t in foes:
                    out.append({"actor": a.id, "action": "attack", "target": t.id, "weapon": w["name"], "bonus": True,
                                "bonus_from": src})
    if not turn.get("action") and has(a, "grappler"):
        for o in session.state.actors.values():
            if a.id in o.conditions.get("grappled", []) and [a.id, o.id] not in session.state.data.get("pins", []):
                out.append({"actor": a.id, "action": "grapple", "target": o.id, "pin": True})
    pol = a.data.get("reactions", {})
    if turn.get("policy_set"):
        return out                     # one policy change listed per turn (the action stays legal)
    for r in ("opportunity_attack", *[FEAT_REACTIONS[f] for f in a.data["feats"] if f in FEAT_REACTIONS]):
        out.append({"actor": a.id, "action": "reaction_policy", "reaction": r, "take": not pol.get(r, r not in DEFAULT_DECLINE)})
    return out


def preview_lines(rs, session, a, t, plan, act, mods) -> list[dict]:
    """Which feat changed which number of this attack (the attack preview, ``aerie query``)."""
    out = [{"feat": m["feat"], "rule": m["rule"], "to_hit": m["to_hit"], "damage": m["damage"]} for m in mods]
    if plan.get("cover_ignored"):
        ci = plan["cover_ignored"]
        out.append({"feat": ci["feat"], "rule": ci["rule"], "text": f"ignores the {ci['cover']} cover (AC +0, not +"
                    f"{2 if ci['cover'] == 'half' else 5})"})
    for f in plan.get("feats_used", []):
        out.append({"feat": f, "rule": FEAT_ID[f], "text": {"sharpshooter": "no disadvantage at long range",
                                                            "crossbow_expert": "no disadvantage within 1.5 m of an enemy",
                                                            "alert": "the unseen attacker gains no advantage"}[f]})
    if not act.get("power_attack") and (pf := power_attack_feat(rs, a, plan["weapon"], plan["melee"])):
        out.append({"feat": pf, "rule": FEAT_ID[pf], "text": "power_attack = true: -5 to hit, +10 damage"})
    if a.data.get("luck", 0) > 0 and not act.get("lucky"):
        out.append({"feat": "lucky", "rule": "DND-F32", "text": f"lucky = true: one more d20 ({a.data['luck']} points left)"})
    if t.data.get("feats") and has(t, "defensive_duelist") and plan["melee"] and not t.data["reaction_used"]:
        out.append({"feat": "defensive_duelist", "rule": "DND-F21", "text": f"the target may add +{t.data['prof']} AC as a reaction"})
    return out


#: AIR-07's climb for a character (engine/rules/pathing.py ``climb_cost``): ``fn(rs, session, actor, flying, metres)``
CLIMB_COST = Hook("climb_cost", "fn(rs, session, actor, flying, metres) -> metres: AIR-07's climb for this character",
                  order=("athlete_climb", "jump_climb"))       # jump_climb: srd_air.py (SPL-14)


@CLIMB_COST.rule("DND-F04")
def athlete_climb(rs, session, a, flying: bool, metres: float) -> float:
    """DND-F04 Athlete, l. 83 "wspinaczka nie kosztuje cię dodatkowej szybkości": with option ``athlete_climb =
    "free"`` a walking Athlete climbs without AIR-07's doubling (half ``climb_m``, which is "double the horizontal
    cost"); by default AIR-07 stands, the document's aerial rule for stepping up."""
    if not flying and rs.opt("athlete_climb") == "free" and a.data.get("feats") and has(a, "athlete"):
        return metres / 2.0
    return metres


FEAT.provide(after_attack, attack_mods, bonus_contest_refusal, bonus_contest_source, cover_ignored, defensive_duelist, drop_sources, extra_advantage, lucky_cancels, lucky_check, lucky_defence, lucky_save, manoeuvre_effect, mounted_redirect, power_attack_feat, reaction_plan, save_advantage, sentinel_hit, unpin, war_caster_spell)
