"""D&D 5e damage, healing, temporary HP, dying and death saves (DND-01..05, DND-33..35)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.rules import aerial, riding
from engine.rules.core import Actor
from engine.rules.dnd5e import concentration, conditions, feats_data, gear, mounts, srd_blight, srd_curses
from engine.rules.dnd5e.upcalls import FEAT
from engine.rules.hooks import Hook

if TYPE_CHECKING:
    from engine.rules.session import Session

#: The damage modifiers, applied in order before the damage is dealt: each a small named function with its rule ID,
#: ``fn(rs, session, target, dmg)`` changing ``dmg`` (``amount``, ``type``, ``resist`` (a set of damage types),
#: ``notes``, ``source``, ``critical``). A feat that reduces damage adds a function here.
DAMAGE_MODIFIERS = Hook("damage_modifiers", "fn(rs, session, target, dmg) changes dmg before it is dealt", order=(
    "resilient_sphere",                            # SPL-11 (srd_marks.py): nothing passes its wall
    "across_the_planes",                           # SRD-94 (srd_planes.py): nothing passes between the planes
    "petrified_immune_to_poison",
    "petrified_resists_everything",
    "underwater_resists_fire",
    "elemental_adept",
    "dungeon_delver",
    "heavy_armor_master",
    "nonmagical_weapons",                          # SRD-03 (srd_traits.py)
    "mist_immune_to_nonmagical",                   # SRD-91 (srd_shapes.py): the vampire's mist
    "conferred_resistance",                        # SRD-40 (srd_auras.py): a rider's resistance from its mount
    "regeneration_stopped",                        # SRD-32 (srd_traits2.py): notes the damage, changes nothing
    "immunity_resistance_vulnerability",           # DND-33: "po zastosowaniu wszystkich modyfikatorów": last
    "sleep_ends_on_damage",                        # SRD-25 (srd_breaths.py): the damage that is dealt wakes it
    "hurt_from_inside",                            # SRD-43 (srd_swallow.py): counts it, changes nothing
    "harm_repeats_charm",                          # SRD-65, -66, -71, -72 (srd_charms.py)
))
damage_modifier = DAMAGE_MODIFIERS.rule
DEATH = Hook("death", "fn(rs, session, actor) after a creature dies (its death event)", order=(
    "death_burst",                                 # SRD-18 (srd_burst.py)
    "death_throes",                                # SRD-108 (srd_burst.py): the balor's explosion, its weapons
    "true_form_on_death",                          # SRD-37 (srd_traits2.py)
    "swallower_dies",                              # SRD-43 (srd_swallow.py)
    "cube_dies",                                   # SRD-44 (srd_engulf.py)
    "charmer_dies",                                # SRD-65, -66, -72 (srd_charms.py)
    "true_shape_on_death",                         # SRD-89..91 (srd_shapes.py)
))


@damage_modifier("DND-50")
def petrified_immune_to_poison(rs, session, a, dmg):
    """l. 531 "Skamieniały jest niepodatny na trucizny": no poison damage (as objects, "niepodatne na obrażenia
    psychiczne i trucizny", DND-40), not half of it as the resistance to everything would give."""
    if a.has("petrified") and dmg["type"] == "poison" and dmg["amount"] > 0:
        dmg["amount"] = 0
        dmg["notes"].append("petrified: immune to poison (DND-50)")


@damage_modifier("DND-50")
def petrified_resists_everything(rs, session, a, dmg):
    if a.has("petrified"):
        dmg["resist"].add(dmg["type"])


@damage_modifier("DND-37")
def underwater_resists_fire(rs, session, a, dmg):
    if a.data["underwater"] and dmg["type"] == "fire":
        dmg["resist"].add("fire")


@damage_modifier("DND-F02")
def elemental_adept(rs, session, a, dmg):
    """Its spells of the chosen element ignore resistance to it (``turn["elemental_adept"]``: the caster and the
    element of the spell being resolved, on its own turn or, readied, on another's)."""
    ea = session.state.turn.get("elemental_adept")
    if ea and ea["type"] == dmg["type"] and dmg["source"] == ea["caster"] and dmg["type"] in dmg["resist"]:
        dmg["resist"].discard(dmg["type"])
        dmg["notes"].append("Elemental Adept ignores the resistance (DND-F02)")


@damage_modifier("DND-F05")
def dungeon_delver(rs, session, a, dmg):
    """Resistance to the damage of a trap (damage whose source is ``trap``: the game master's ``trap`` tool)."""
    if dmg["source"] == "trap" and a.data.get("feats") and feats_data.has(a, "dungeon_delver") \
            and dmg["type"] not in dmg["resist"]:
        dmg["resist"].add(dmg["type"])
        dmg["notes"].append("Dungeon Delver: resistance to a trap's damage (DND-F05)")


@damage_modifier("DND-33")
def immunity_resistance_vulnerability(rs, session, a, dmg):
    """After all other modifiers; the same type counts once."""
    d = a.data
    if dmg["type"] in d["immune"]:
        dmg["amount"], dmg["notes"] = 0, ["immune"]
        return
    if dmg["type"] in dmg["resist"]:
        dmg["amount"] //= 2
        dmg["notes"].append("resistance halves it (DND-33)")
    if dmg["type"] in d["vuln"]:
        dmg["amount"] *= 2
        dmg["notes"].append("vulnerability doubles it (DND-33)")


@damage_modifier("DND-F17")
def heavy_armor_master(rs, session, a, dmg):
    """In heavy armour (``gear.heavy_armour_worn``: a sheet without ``armor`` is taken to wear it), bludgeoning,
    piercing and slashing damage from weapon attacks -3."""
    if a.data.get("feats") and dmg["amount"] > 0 and dmg["type"] in ("bludgeoning", "piercing", "slashing") \
            and dmg["rule"] == "DND-16" and feats_data.has(a, "heavy_armor_master") and gear.heavy_armour_worn(a):
        dmg["amount"] = max(0, dmg["amount"] - 3)
        dmg["notes"].append("Heavy Armor Master: -3 (DND-F17)")


# ------------------------------------------------------------------------------------------ damage and dying
#: fn(rs, session, a, excess, dtype, source, rule) -> bool: damage is about to drop ``a`` to 0 HP; True when the
#: function dealt with it (srd_polymorph.py: a polymorphed creature reverts, SPL-20; srd_shapes.py: Misty Escape, SRD-92)
AT_ZERO: list = []


def apply_damage(rs, session, a: Actor, amount: int, dtype: str, source, rule: str, critical: bool = False,
                 knock_out: bool = False, weapon: dict | None = None) -> int:
    if a.dead or amount <= 0:
        return 0
    d = a.data
    dmg = {"amount": amount, "type": dtype, "resist": set(d["resist"]), "notes": [], "source": source,
           "critical": critical, "rule": rule, "weapon": weapon}
    for stage in DAMAGE_MODIFIERS:          # the named stages on the hook, in order
        stage(rs, session, a, dmg)
    amount, notes = dmg["amount"], dmg["notes"]
    ev = {"type": "damage", "who": a.id, "amount": amount, "damage_type": dtype, "rule": rule}
    if source:
        ev["source"] = source
    if notes:
        ev["notes"] = notes
    session.emit(ev)
    if amount <= 0:
        return 0
    if a.hp == 0 and a.temp_hp and rs.opt("temp_hp_at_zero") == "absorb":   # DND-35 with DND-04
        used = min(a.temp_hp, amount)
        a.temp_hp -= used
        amount -= used
        session.emit({"type": "temp_hp_lost", "who": a.id, "amount": used, "left": a.temp_hp, "rule": "DND-35"})
        if amount <= 0:
            return 0
    if a.hp == 0:                                # DND-04: damage at 0 HP
        if amount >= a.max_hp:
            die(rs, session, a, "damage at 0 HP of at least its max HP", "DND-04")
            return 0
        if d["stable"] and rs.opt("stable_damage") == "restart":
            d["death"] = {"successes": 0, "failures": 0}     # DND-05: its death saves start over
            session.emit({"type": "death_saves_restart", "who": a.id, "rule": "DND-05"})
        d["stable"] = False
        fails = 2 if critical else 1
        d["death"]["failures"] += fails
        session.emit({"type": "death_save_failure", "who": a.id, "failures": d["death"]["failures"], "added": fails, "rule": "DND-04"})
        if d["death"]["failures"] >= 3:
            die(rs, session, a, "three failed death saves", "DND-03")
        return 0
    if a.temp_hp:                                # DND-35: temporary HP are lost first
        used = min(a.temp_hp, amount)
        a.temp_hp -= used
        amount -= used
        session.emit({"type": "temp_hp_lost", "who": a.id, "amount": used, "left": a.temp_hp, "rule": "DND-35"})
    if amount >= a.hp and AT_ZERO and (d.get("polymorph") or d.get("srd_shapes")):
        for fn in AT_ZERO:              # SPL-20: a polymorphed creature reverts; SRD-92: the vampire's Misty Escape
            if fn(rs, session, a, amount - a.hp, dtype, source, rule):
                return amount
    lost = min(a.hp, amount)
    over = amount - a.hp
    a.hp = max(0, a.hp - amount)
    session.emit({"type": "hp", "who": a.id, "hp": a.hp, "max_hp": a.max_hp})
    if a.hp == 0:
        if over >= a.max_hp:
            die(rs, session, a, f"{over} damage left over is at least its max HP {a.max_hp}", "DND-01")
        elif not d["pc"] and rs.opt("monsters_die_at_0") and not knock_out:
            die(rs, session, a, "a monster dies at 0 HP", "DND-02")
        else:
            d["death"] = {"successes": 0, "failures": 0}
            d["stable"] = bool(knock_out)
            if knock_out:
                session.emit({"type": "knocked_out", "who": a.id, "rule": "DND-34"})
            else:
                session.emit({"type": "dying", "who": a.id, "rule": "DND-02"})
            conditions.add_condition(rs, session, a, "unconscious", "DND-34" if knock_out else "DND-02")
    elif d.get("concentration"):
        concentration.damaged(rs, session, a, dmg["amount"], source)    # the Con save to keep the spell
    aerial.check_grounded(session, a)
    check_over(rs, session)
    return lost


#: fn(a, what) -> (why, rule) or None: a creature that can't regain hit points (``what`` "heal") or gain temporary
#: hit points ("temp_hp"): srd_swarm.py (SRD-41, a swarm)
NO_HEALING: list = []


#: fn(rs, session, a, rule) after ``a`` regained hit points by ``rule``: srd_wound.py (SRD-46)
HEALED: list = []


def _healing_blocked(session, a: Actor, amount: int, what: str) -> bool:
    why = next((w for w in (fn(a, what) for fn in NO_HEALING) if w), None)
    if why:
        session.emit({"type": "heal_blocked", "who": a.id, "amount": amount, "why": why[0], "rule": why[1]})
    return bool(why)


def give_temp_hp(rs, session, a: Actor, amount: int, rule: str) -> None:
    if NO_HEALING and _healing_blocked(session, a, amount, "temp_hp"):
        return
    if rs.opt("temp_hp") == "keep_higher" and amount <= a.temp_hp:
        session.emit({"type": "temp_hp_declined", "who": a.id, "offered": amount, "kept": a.temp_hp, "rule": "DND-35"})
        return
    a.temp_hp = amount
    session.emit({"type": "temp_hp", "who": a.id, "temp_hp": amount, "rule": "DND-35"})


def die(rs, session, a: Actor, why: str, rule: str) -> None:
    a.hp = 0
    a.dead = True
    a.temp_hp = 0
    session.emit({"type": "death", "who": a.id, "reason": why, "rule": rule})
    if a.data.get("concentration"):
        concentration.incapacitated(rs, session, a, "dies", rule)
    for o in session.state.actors.values():
        if a.id in o.conditions.get("grappled", []):
            conditions.release(rs, session, o, a, "DND-47", f"{a.name} died")
    if riding.carries(a):
        mounts.mount_fell(rs, session, riding.rider_of(session, a), a)
    aerial.check_grounded(session, a)
    DEATH.run(rs, session, a)
    check_over(rs, session)


def heal(rs, session, a: Actor, amount: int, rule: str) -> None:
    if a.dead or amount <= 0:
        return
    if a.data.get("srd_blight") and srd_blight.blocks_healing(a):          # SRD-29
        session.emit({"type": "heal_blocked", "who": a.id, "amount": amount, "why": srd_blight.blocks_healing(a),
                      "rule": "SRD-29"})
        return
    if NO_HEALING and _healing_blocked(session, a, amount, "heal"):
        return
    if a.data.get("curses") and srd_curses.blocks_healing(a):          # SRD-49: mummy rot
        session.emit({"type": "heal_blocked", "who": a.id, "amount": amount, "why": srd_curses.blocks_healing(a),
                      "rule": "SRD-49"})
        return
    was0 = a.hp == 0
    a.hp = min(a.max_hp, a.hp + amount)
    session.emit({"type": "heal", "who": a.id, "amount": amount, "hp": a.hp, "rule": rule})
    for fn in HEALED:                            # srd_wound.py (SRD-46): magical healing closes an infernal wound
        fn(rs, session, a, rule)
    if was0:                                     # DND-02: regaining any HP ends unconsciousness
        a.data["death"] = {"successes": 0, "failures": 0}
        a.data["stable"] = False
        conditions.remove_condition(rs, session, a, "unconscious", "DND-02")


def death_save(rs, session, a: Actor) -> None:
    (r,) = session.roll("death_save", 20, who=a.id, rule="DND-03")
    if a.data.get("feats"):       # DND-F32: a death save is a save (l. 31 "specjalny rzut obronny"); Lucky on the die
        r = FEAT.lucky_save(rs, session, a, r, "death saving throw")
    d = a.data["death"]
    if r == 20:
        if rs.opt("nat20_death_save") == "regain_1hp":
            session.emit({"type": "death_save", "who": a.id, "result": r, "outcome": "natural 20: regains 1 HP", "rule": "DND-03"})
            heal(rs, session, a, 1, "DND-03")
            return
        d["successes"] += 2
    elif r == 1:
        d["failures"] += 2
    elif r >= 10:
        d["successes"] += 1
    else:
        d["failures"] += 1
    session.emit({"type": "death_save", "who": a.id, "result": r, "successes": d["successes"], "failures": d["failures"], "rule": "DND-03"})
    if d["failures"] >= 3:
        die(rs, session, a, "three failed death saves", "DND-03")
    elif d["successes"] >= 3:
        a.data["stable"] = True
        session.emit({"type": "stable", "who": a.id, "rule": "DND-03"})


#: What follows from a number the GM sets (engine/rules/gm.py ``gm_set``): ``fn(rs, session, actor, key, old, new)``
#: after the value is set and the GM's event logged. The GM's value is final; these keep the state that derives from
#: it in step, as healing or damage would.
GM_SET = Hook("gm_set", "fn(rs, session, actor, key, old, new) after the GM sets a number", order=(
    "gm_hit_points",
))


@GM_SET.rule("DND-02")
def gm_hit_points(rs, session, a: Actor, key: str, old, new) -> None:
    """Above 0 HP a dying creature wakes and its death saves start over (DND-02/03: regaining any HP); at 0 HP a
    conscious one drops: dying and unconscious, or a monster dies when ``monsters_die_at_0`` (DND-02)."""
    if key != "hp" or a.dead or old == new:
        return
    d = a.data
    if old == 0 and new > 0:
        d["death"] = {"successes": 0, "failures": 0}
        d["stable"] = False
        if a.has("unconscious"):
            conditions.remove_condition(rs, session, a, "unconscious", "DND-02")
        return
    if new != 0:
        return
    if not d["pc"] and rs.opt("monsters_die_at_0"):
        die(rs, session, a, "a monster dies at 0 HP (the GM set it)", "DND-02")
        return
    d["death"] = {"successes": 0, "failures": 0}
    d["stable"] = False
    session.emit({"type": "dying", "who": a.id, "rule": "DND-02"})
    conditions.add_condition(rs, session, a, "unconscious", "DND-02")
    aerial.check_grounded(session, a)
    check_over(rs, session)


def alive_sides(rs, session) -> set:
    return {a.side for a in session.state.actors.values() if not a.dead and a.hp > 0}


def check_over(rs, session: Session) -> None:
    st = session.state
    # a fight needs two sides: the scene's at the start, or one the GM adds to a one-side scene (``gm_add``: its
    # fight never ended, the last foe down or not)
    if st.over or len(set(st.data.get("sides", [])) | {a.side for a in st.actors.values()}) < 2:
        return
    sides = alive_sides(rs, session)
    if len(sides) <= 1:
        st.over = True
        st.winner = next(iter(sides)) if sides else None
        session.emit({"type": "combat_over", "winner": st.winner})
