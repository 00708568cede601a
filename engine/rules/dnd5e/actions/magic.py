"""Dnd5e actions cast, gm: each one unit (``check`` -> plan, ``apply``),
dispatched by ``Dnd5e.ACTIONS``. ``rs`` is the ruleset."""

from __future__ import annotations

from engine.rules.dnd5e.upcalls import SPELL
from engine.rules.dnd5e import attacks, common, concentration, conditions, mounts
from engine.rules.dnd5e import damage, srd_cast, srd_casters
from engine.rules.dnd5e import srd_air  # noqa: F401  (registers the air spells' effects on srd_cast.EFFECTS)
from engine.rules.dnd5e import srd_marks  # noqa: F401  (registers the spells' marks on srd_cast.ON_FAILED_SAVE)
from engine.rules.dnd5e import srd_long  # noqa: F401  (registers the longer casting times on srd_cast.BEGIN_LONG)
from engine.rules.dnd5e import srd_wards  # noqa: F401  (registers Dispel Evil and Good, Magic Circle on srd_cast.EFFECTS)
from engine.rules.dnd5e import srd_polymorph  # noqa: F401  (registers Polymorph on srd_cast.EFFECTS)
from engine.rules import gm
from engine.rules.actions import Param, Unit
from engine.rules.core import Illegal
from engine.rules.dnd5e.actions import action
from engine.rules.dnd5e import feats, gear
from engine.rules.dnd5e.common import dice_spec
from engine.rules.dnd5e.data import CONDITION_RULE, CONDITIONS, SPELLS
from engine.rules.dnd5e.srd_spells import spell as srd_spell
from engine.world.geometry import distance_m, engaged


def spell_plan(rs, session, a, t, name):
    """The attack plan of an attack-roll spell (``attacks.attack_plan`` with the spell as a ranged weapon; raises Illegal)."""
    sp = SPELLS[name]
    cmod = conditions.ab(rs, a, a.data["casting"])
    lvl = a.data["level"]
    n_scale = 1 + (lvl >= 5) + (lvl >= 11) + (lvl >= 17) if sp.get("scales") else 1
    rng = sp["range_m"] * (2 if feats.has(a, "spell_sniper") else 1)      # DND-F22
    w = {"name": name, "damage": sp["damage"], "type": sp["type"], "properties": ["ranged"],
         "range": [rng, rng], "to_hit": cmod + a.data["prof"], "spell": True}
    p = attacks.attack_plan(rs, session, a, t, w, False)
    p["kind"] = "spell"
    w = dict(w)
    w["damage"] = f"{n_scale * dice_spec(sp['damage'])[0]}d{dice_spec(sp['damage'])[1]}"
    w["damage_bonus"] = -attacks.dmg_mod(rs, a, w, False)       # spell attacks add no ability to damage
    p["weapon"] = w
    return p


def spell_attack(rs, session, a, t, name, plan=None):
    attacks.resolve_attack(rs, session, a, t, plan or spell_plan(rs, session, a, t, name), {})
    if not a.dead:
        # DND-F37 l. 280 "który wykonuje atak w inny cel jak ty": a spell attack is an attack (DND-27 "test ataku
        # dystansowego (za pomocą broni lub czaru)"): a Sentinel beside the caster may answer it too
        feats.sentinel_protects(rs, session, a, t)


def check_target(rs, session, a, t, name) -> None:
    """A single-target spell at ``t``: in range, not behind total cover, not a creature that charms the caster
    (raises Illegal); the cast action's test and War Caster's (DND-F14)."""
    sp = SPELLS[name]
    d = distance_m(a.body(), t.body(), session.world.cell_m)
    if sp["kind"] == "attack" and feats.has(a, "spell_sniper"):
        sp = {**sp, "range_m": sp["range_m"] * 2}     # DND-F22: an attack-roll spell's range doubled
    if d > max(sp["range_m"], 1.5 if sp["range_m"] <= 1.5 else 0) + 1e-9 and not (sp["range_m"] <= 1.5 and engaged(a.body(), t.body())):
        raise Illegal(f"{t.name} is {d:.1f} m away, beyond {name}'s range of {sp['range_m']:g} m", "DND-21", "target")
    if t.id != a.id and attacks.total_cover(rs, session, a, t):
        raise Illegal(f"{t.name} has total cover from {a.name}", "DND-32", "target")
    if sp["kind"] in ("attack", "save", "auto") and t.id in a.conditions.get("charmed", []):
        raise Illegal(f"{a.name} is charmed by {t.name} and cannot harm it", "DND-54", "target")


P = Param


@action
class Cast(Unit):
    name = "cast"
    place = 13
    hotkey = "6"
    groups = {"cast": 0}
    PARAMS = {"spell": P("str", True), "target": P("id"), "at": P("pos"),
              "targets": P("ids", help="the creatures of an SRD spell that takes several (Prayer of Healing: up to 6)"),
              "option": P("str", help="an SRD spell's choice (Enlarge/Reduce: enlarge or reduce; Polymorph: the beast's "
                                      "SRD index; Dispel Evil and Good: ward, dismissal or break_enchantment; "
                                      "Magic Circle: its creature types, comma-separated)"),
              "slot": P("int", help="the slot level an SRD spell is cast with (upcasting); default its level")}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        """Each spell its action or bonus action still allows: on itself (temporary HP, an area around it), else on
        each friend and itself (a heal) or each foe."""
        out = []
        turn = ctx.turn
        for sp in a.data["spells"]:
            info = srd_spell(session, sp)
            if info.get("srd"):
                out += srd_cast.candidates(rs, session, a, ctx, sp)
                continue
            if turn["action"] if info["time"] == "action" else turn["bonus"]:
                continue
            if info["kind"] == "temp_hp" or (info.get("area") and info["area"]["shape"] == "self"):
                out.append({"actor": a.id, "action": "cast", "spell": sp})
            else:
                pool = ctx.friends + [a] if info["kind"] == "heal" else ctx.foes
                out += [{"actor": a.id, "action": "cast", "spell": sp, "target": t.id} for t in pool]
        return out

    @staticmethod
    def preview(rs, session, a, act, plan):
        if plan.get("srd"):
            return srd_cast.preview(rs, session, a, plan)
        sp = SPELLS[plan["spell"]]
        cmod = conditions.ab(rs, a, a.data["casting"])
        out = {"spell": plan["spell"], "kind": sp["kind"], "targets": plan["targets"], "level": sp["level"],
               "casting_time": sp["time"]}
        if sp.get("concentration"):
            out["concentration"] = concentration.cast_note(a, plan["spell"])
        if sp["kind"] == "save":
            out.update({"save": sp["save"], "dc": 8 + a.data["prof"] + cmod})
        elif sp["kind"] == "attack":
            out["to_hit_bonus"] = cmod + a.data["prof"]
        return out

    # -- spells (DND-21, DND-14) -----------------------------------------------------------------------------------------------
    @staticmethod
    def check(rs, session, a, act):
        name = srd_cast.known_name(a, act["spell"])
        if name is None:
            srd_cast.refuse_unknown(a, act["spell"])
        if srd_spell(session, name).get("srd"):
            return srd_cast.check(rs, session, a, act, name)
        if act.get("slot") is not None:
            raise Illegal(f"{name} is one of the older spells: it has no upcasting; its SRD index does", "SPL-01", "slot")
        act = {**act, "spell": name}
        sp = known_spell(rs, a, name)
        turn = session.state.turn
        if sp["time"] == "bonus":
            if turn["bonus"]:
                raise Illegal(f"{a.name} has already used its bonus action", "DND-12")
            if turn["action_spell"]:
                raise Illegal("after casting a spell with the action, the bonus-action spell is not allowed this turn", "DND-14")
        else:
            common.need_action(rs, a, session, name, "DND-21")
            after_bonus_spell(session, sp)
        if srd_casters.innate_slot(a, sp, act, name):        # SRD-51: an SRD creature's innate fireball...
            return {**spell_targets(rs, session, a, act), "innate": True}
        slot_left(a, sp, "DND-21")
        return spell_targets(rs, session, a, act)

    @staticmethod
    def apply(rs, session, a, act, plan):
        if plan.get("srd"):
            srd_cast.apply(rs, session, a, plan)
            return
        sp = SPELLS[plan["spell"]]
        turn = session.state.turn
        if sp["time"] == "bonus":
            turn["bonus"] = True
            turn["bonus_spell"] = True
        else:
            turn["action"] = True
            if sp["level"] > 0:
                turn["action_spell"] = True
        if plan.get("innate"):
            srd_casters.spend_innate(session, a, plan["spell"])      # SRD-51
        elif sp["level"] > 0 and a.data["spell_slots"] is not None:
            a.data["spell_slots"][str(sp["level"])] -= 1
        session.emit({"type": "cast", "who": a.id, "spell": plan["spell"], "targets": plan["targets"],
                      **({"at": plan["point"]} if "point" in plan else {}), "rule": "DND-21"})
        if sp.get("concentration"):
            concentration.begin(rs, session, a, plan["spell"], plan["targets"])     # one at a time
        feats.mage_slayer(rs, session, a)              # DND-F40: a reaction attack on a caster within 1.5 m
        if a.dead or a.hp == 0:
            return
        if sp.get("concentration") and concentration.held(a) != plan["spell"]:
            return          # the concentration broke as it cast (a Mage Slayer's hit): the spell ends unresolved
        resolve_spell(rs, session, a, plan)


def after_bonus_spell(session, sp: dict) -> None:
    """DND-14 l. 334 "Jeśli rzucasz czar w ramach akcji dodatkowej to w tej samej turze nie możesz już rzucić drugiego
    zaklęcia, którego rzucenie wymaga akcji, chyba że jest to sztuczka": after a bonus-action spell, a spell of one
    action only if it is a cantrip -- cast now or readied (DND-20 l. 363 "rzucić czar i przygotować się na jego
    rzucenie": a readied spell is cast, its slot spent, on this turn). Raises Illegal."""
    if session.state.turn["bonus_spell"] and sp["level"] > 0:
        raise Illegal("after a bonus-action spell the only other spell this turn may be a cantrip", "DND-14", "spell")


def known_spell(rs, a, name: str) -> dict:
    """The spell's data, once ``a`` knows it and may cast (DND-21: not in armour it is not proficient with)."""
    if name not in a.data["spells"]:
        raise Illegal(f"{a.name} does not know {name}; its spells: {', '.join(a.data['spells']) or 'none'}", "DND-21", "spell")
    if "armor" in a.data and gear.untrained(a):
        raise Illegal(f"{a.name} wears armour it is not proficient with: it cannot cast spells", "DND-21", "spell")
    return SPELLS[name]


def slot_left(a, sp: dict, rule: str) -> None:
    slots = a.data["spell_slots"]
    if sp["level"] > 0 and slots is not None and slots.get(str(sp["level"]), 0) <= 0:
        raise Illegal(f"{a.name} has no level {sp['level']} spell slot left", rule, "spell")


def spell_targets(rs, session, a, act) -> dict:
    """The plan of casting ``act["spell"]`` (``target`` / ``at``): its targets, whatever the turn's economy (a
    readied spell is released on another creature's turn). Raises Illegal: range, cover, a charmer."""
    name = act["spell"]
    if srd_spell(session, name).get("srd"):          # an SRD spell readied (DND-20): its own targets (SPL-01)
        return srd_cast.targets(rs, session, a, act, srd_spell(session, name), {"spell": name, "srd": True, "slot": None})
    sp = SPELLS[name]
    cell = session.world.cell_m
    area = sp.get("area")
    plan = {"spell": name}
    if sp["kind"] == "temp_hp" or (area and area["shape"] == "self"):
        plan["targets"] = [a.id] if sp["kind"] == "temp_hp" else attacks.area_targets(rs, session, a, sp, a.pos, None)
        return plan
    if area:
        if act.get("at") is None and not act.get("target"):
            raise Illegal(f"{name} needs a point (at = [x, y, layer]) or a target", "DND-21", "at")
        point = tuple(act["at"]) if act.get("at") is not None else session.actor(act["target"], "target").pos
        # a cone starts at the caster and points at ``at``/the target; a sphere's centre must be within range
        if area["shape"] != "cone" and distance_m(a.body(), a.body().moved(*point), cell) > sp["range_m"] + 1e-9:
            raise Illegal(f"{list(point)} is beyond {name}'s range of {sp['range_m']:g} m", "DND-21", "at")
        plan["targets"] = attacks.area_targets(rs, session, a, sp, point, act.get("target"))
        plan["point"] = list(point)
        return plan
    if not act.get("target"):
        raise Illegal(f"{name} needs a target", "DND-21", "target")
    t = common.living_target(rs, session, a, act["target"])
    check_target(rs, session, a, t, name)
    plan["targets"] = [t.id]
    return plan


# -- a readied spell (DND-20, l. 363: its casting time one action, held by concentration) ---------------------------
READY_KINDS = ("attack", "save", "auto")      # the trigger is a foe's move: the spells that strike a creature


def check_ready_spell(rs, session, a, act) -> dict:
    """``ready`` with ``spell``: a spell of one action's casting time that strikes a creature, a slot left."""
    name = act["spell"]
    sp = known_spell(rs, a, name)
    if sp["time"] != "action":
        raise Illegal(f"a readied spell must have a casting time of one action; {name} takes a {sp['time']} action",
                      "DND-20", "spell")
    after_bonus_spell(session, sp)                   # DND-14: readying a spell casts it this turn
    if sp["kind"] not in READY_KINDS:
        raise Illegal(f"{name} strikes no creature: the readied spell answers a foe's move (an attack, a save or "
                      "automatic damage)", "DND-20", "spell")
    slot_left(a, sp, "DND-20")
    if act.get("target"):
        t = common.living_target(rs, session, a, act["target"])
        if not conditions.hostile(rs, a, t):
            raise Illegal(f"{t.name} is not an enemy", "DND-20", "target")
    return {"spell": name, "target": act.get("target")}


def ready_spell(rs, session, a, plan) -> None:
    """The spell is cast now and held (its slot spent, DND-20): concentration holds it until the trigger."""
    sp = SPELLS[plan["spell"]]
    session.state.turn["action"] = True
    if sp["level"] > 0:
        session.state.turn["action_spell"] = True
        if a.data["spell_slots"] is not None:
            a.data["spell_slots"][str(sp["level"])] -= 1
    a.data["readied"] = {"spell": plan["spell"], "target": plan["target"], "trigger": "enters_reach"}
    session.emit({"type": "ready", "who": a.id, "spell": plan["spell"], "target": plan["target"],
                  "trigger": "a hostile creature ends a move within the spell's range", "rule": "DND-20"})
    concentration.begin(rs, session, a, plan["spell"], [], readied=True)
    feats.mage_slayer(rs, session, a)              # DND-F40: it casts a spell within 1.5 m


def release_readied(rs, session, r, mover) -> bool:
    """The trigger came: ``r`` spends its reaction to release its readied spell at ``mover`` (False: the mover is
    out of the spell's range or sight, or the reader ignores the trigger (DND-20 l. 362 "albo je zignorować"):
    the spell stays held)."""
    name = r.data["readied"]["spell"]
    try:
        plan = spell_targets(rs, session, r, {"spell": name, "target": mover.id})
    except Illegal:
        return False
    if not feats.reaction_taken(r, "readied_action", session, f"{mover.name} ends its move in range: release "
                                f"{name} (readied)"):
        return False
    r.data["reaction_used"] = True
    r.data["readied"] = None
    session.emit({"type": "readied_action", "who": r.id, "target": mover.id, "spell": name, "rule": "DND-20"})
    session.emit({"type": "cast", "who": r.id, "spell": name, "targets": plan["targets"], "readied": True,
                  **({"at": plan["point"]} if "point" in plan else {}), "rule": "DND-20"})
    if SPELLS[name].get("concentration"):
        r.data["concentration"] = {"spell": name, "targets": list(plan["targets"])}    # held now as the spell
    else:
        concentration.end(rs, session, r, "releases the readied spell", "DND-20")
    resolve_spell(rs, session, r, plan)
    return True


def resolve_spell(rs, session, a, plan) -> None:
    """The spell's effects on its targets (attack rolls, saves, damage, conditions, healing)."""
    if plan.get("srd"):
        srd_cast.resolve(rs, session, a, plan)
        return
    sp = SPELLS[plan["spell"]]
    ea = sp.get("type") in a.data.get("elements", ()) and feats.has(a, "elemental_adept")
    if ea:      # the caster named: a readied spell is released on another creature's turn (DND-20, DND-F02)
        session.state.turn["elemental_adept"] = {"caster": a.id, "type": sp["type"]}
    cmod = conditions.ab(rs, a, a.data["casting"])
    dc = (srd_casters.numbers(a, cmod) or (8 + a.data["prof"] + cmod,))[0]      # SRD-50: a creature's DC as written
    lvl = a.data["level"]
    n_scale = 1 + (lvl >= 5) + (lvl >= 11) + (lvl >= 17) if sp.get("scales") else 1
    kind = sp["kind"]
    if kind == "save" and sp.get("damage"):
        n, s = dice_spec(sp["damage"])
        dmg = sum(feats.adept_dice(session.roll("damage", s, n * n_scale, who=a.id, rule="DND-21"), ea))
    for tid in plan["targets"]:
        t = session.state.actors[tid]
        if t.dead:
            continue
        if kind == "attack":
            spell_attack(rs, session, a, t, plan["spell"])
        elif kind == "auto":
            n, s = dice_spec(sp["damage"])
            total = 0
            for _ in range(sp.get("darts", 1)):
                total += sum(feats.adept_dice(session.roll("damage", s, n, who=a.id, rule="DND-21"), ea)) + sp.get("bonus", 0)
            rs.apply_damage(session, t, total, sp["type"], a.id, "DND-21")
        elif kind == "heal":
            n, s = dice_spec(sp["heal"])
            damage.heal(rs, session, t, sum(session.roll("heal", s, n, who=a.id, rule="DND-21")) + cmod, "DND-21")
        elif kind == "temp_hp":
            n, s = dice_spec(sp["amount"])
            damage.give_temp_hp(rs, session, t, sum(session.roll("heal", s, n, who=a.id, rule="DND-35")) + sp.get("bonus", 0), "DND-35")
        elif kind == "save":
            cov = "none" if sp.get("ignores_cover") else attacks.cover(rs, session, a, t).level
            ok = conditions.saving_throw(rs, session, t, sp["save"], dc, a, "DND-21", plan["spell"], cover_level=cov,
                                         sole_target=len(plan["targets"]) == 1)
            if sp.get("damage"):
                amt = dmg if not ok else (dmg // 2 if sp.get("half") else 0)
                # DND-F20 l. 179: any spell it is a target of, an area's included
                if ok and amt and sp["save"] == "dex" and feats.shield_master_evades(rs, session, t):
                    amt = 0
                if amt and sp["save"] == "dex" and sp.get("half"):
                    amt = feats.mount_evasion(rs, session, t, ok, dmg, amt)     # DND-F12
                if amt:
                    rs.apply_damage(session, t, amt, sp["type"], a.id, "DND-21")
            if not ok and sp.get("condition") and not t.dead:
                conditions.add_condition(rs, session, t, sp["condition"], CONDITION_RULE[sp["condition"]], source=a.id)
                if sp.get("repeat_save"):
                    t.data.setdefault("repeat_saves", {})[sp["condition"]] = {"save": sp["save"], "dc": dc, "spell": plan["spell"], "rule": "DND-21"}
            if not ok and sp.get("push_cells") and not t.dead:
                mounts.push_from(rs, session, a, t, sp["push_cells"])
    session.state.turn.pop("elemental_adept", None)


class Gm(Unit):
    """The game master's table tools on a character (``actor = "gm"``): condition, damage, heal, temp_hp, inspire,
    one registered subclass each (its name and parameters), checked and applied here."""
    name = "gm"

    # -- GM tools -------------------------------------------------------------------------------------------------------------
    @staticmethod
    def check(rs, session, act):
        t = session.actor(act["target"], "target")
        if act["action"] == "condition":
            gm.check_condition_tool(act, list(CONDITIONS))
            if act.get("source"):
                session.actor(act["source"], "source")
        elif act["action"] == "inspire":
            return feats.check_inspire(rs, session, t)
        elif act["amount"] < 0:
            raise Illegal("amount must not be negative", "", "amount")
        return {"target": t.id}

    @staticmethod
    def apply(rs, session, act, plan):
        t = session.state.actors[plan["target"]]
        k = act["action"]
        if k == "condition":
            if act.get("add"):
                conditions.add_condition(rs, session, t, act["add"], CONDITION_RULE[act["add"]], source=act.get("source"))
            if act.get("remove"):
                conditions.remove_condition(rs, session, t, act["remove"], CONDITION_RULE[act["remove"]])
        elif k == "damage":
            rs.apply_damage(session, t, act["amount"], act.get("type", "bludgeoning"), "gm", "DND-33")
        elif k == "heal":
            damage.heal(rs, session, t, act["amount"], "DND-02")
        elif k == "temp_hp":
            damage.give_temp_hp(rs, session, t, act["amount"], "DND-35")
        elif k == "inspire":
            feats.apply_inspire(rs, session, t, plan)


spell_effect = resolve_spell     # War Caster's reaction spell (feat moments) resolves as a cast does


@action
class Condition(Gm):
    name = "condition"
    place = 24
    PARAMS = {"target": P("id", True), "add": P("str"), "remove": P("str"), "source": P("id")}


@action
class Damage(Gm):
    name = "damage"
    place = 25
    PARAMS = {"target": P("id", True), "amount": P("int", True), "type": P("str", default="bludgeoning")}


@action
class Heal(Gm):
    name = "heal"
    place = 26
    PARAMS = {"target": P("id", True), "amount": P("int", True)}


@action
class TempHp(Gm):
    name = "temp_hp"
    place = 27
    PARAMS = {"target": P("id", True), "amount": P("int", True)}


@action
class Inspire(Gm):
    name = "inspire"
    place = 28
    PARAMS = {"target": P("id", True, help="the Inspiring Leader whose 10-minute speech the game master rules took place")}


SPELL.provide(check_target, release_readied, spell_attack, spell_plan, spell_effect=spell_effect)
