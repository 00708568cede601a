"""Advantage and disadvantage on an attack roll: one small named function per source, each carrying its rule ID,
on the ``ATTACK_SOURCES`` hook (evaluated in order; the order is the order of the event's lists). A feat or a
condition adds a function to the hook instead of editing a big method.

A source is ``fn(rs, session, attacker, target, plan, ctx)`` yielding ``(ADV or DIS, reason)`` or
``(ADV or DIS, reason, rule)`` (the rule defaults to the one given to :func:`source`). ``ctx`` holds what every
source may need once: ``ranged``, ``near`` (engaged in the AIR-04 sense).
"""

from __future__ import annotations

from engine.rules.dnd5e import conditions, gear
from engine.rules.dnd5e.sight import perceives_without_sight
from engine.rules.hooks import Hook
from engine.rules.dnd5e.data import (
    CONDITION_RULE,
    UNDERWATER_MELEE_OK,
    UNDERWATER_RANGED_OK,
)
from engine.world.geometry import engaged

ADV, DIS = "advantage", "disadvantage"
ATTACK_SOURCES = Hook("attack_sources", "fn(rs, session, attacker, target, plan, ctx) yields (ADV or DIS, reason[, rule])", order=(
    "unseen_attacker",
    "invisible",
    "ranged_while_engaged",
    "prone",
    "attacked_with_advantage",
    "blinded",
    "restrained_attacker",
    "poisoned_attacker",
    "frightened_attacker",
    "dodging_target",
    "helped",
    "underwater",
    "untrained_armour_attacker",     # gear.py (DND-16)
    "pack_tactics",                  # srd_traits.py (SRD-09)
    "spell_marks",                   # srd_marks.py (SPL-11: Faerie Fire, Bestow Curse)
    "spell_wards",                   # srd_wards.py (SPL-15, SPL-17: Dispel Evil and Good, Magic Circle)
    "weakened_attacker",             # srd_breaths.py (SRD-27: Weakening Breath)
    "held_in_its_grapple",           # srd_breaths.py (SRD-28: the ankheg's bite)
    "light_sensitivity",             # srd_breath.py (SRD-84, SRD-85: sunlight, bright light)
))
#: register an advantage/disadvantage source on the ATTACK_SOURCES hook, with its rule ID
source = ATTACK_SOURCES.rule


def _condition_source(rule: str, name: str, condition: str, *sides):
    """A source that is one condition on the attacker and/or the target: ``sides`` in order, each
    (``"attacker"`` or ``"target"``, ADV or DIS), with the reason "the attacker/target is <condition>"."""
    def fn(rs, session, a, t, plan, ctx):
        for who, effect in sides:
            if (a if who == "attacker" else t).has(condition):
                yield effect, f"the {who} is {condition}"
    fn.__name__ = fn.__qualname__ = name
    return source(rule)(fn)


@source("DND-26")
def unseen_attacker(rs, session, a, t, plan, ctx):
    if not rs.sees(session, t, a) and not t.dead:
        yield ADV, "the target cannot see the attacker"
    if not rs.sees(session, a, t):
        yield DIS, "the attacker cannot see the target"


@source("DND-42")
def invisible(rs, session, a, t, plan, ctx):
    """Invisible attacker or target -- unless the other perceives it without sight (blindsight, SRD-98)."""
    if a.has("invisible") and not perceives_without_sight(rs, session, t, a):
        yield ADV, "the attacker is invisible"
    if t.has("invisible") and not perceives_without_sight(rs, session, a, t):
        yield DIS, "the target is invisible"


@source("DND-27")
def ranged_while_engaged(rs, session, a, t, plan, ctx):
    if not ctx["ranged"]:
        return
    for o in session.state.actors.values():
        if conditions.hostile(rs, o, a) and not o.dead and not conditions.incapacitated(rs, o) and engaged(o.body(), a.body()) \
                and rs.sees(session, o, a):
            yield DIS, f"ranged attack within 1.5 m of {o.name}"
            break
    w = plan["weapon"]
    if w.get("range") and plan["distance_m"] > w["range"][0] + 1e-9:
        yield DIS, "beyond the weapon's normal range", "DND-16"


@source("DND-48")
def prone(rs, session, a, t, plan, ctx):
    if a.has("prone"):
        yield DIS, "the attacker is prone"
    if t.has("prone"):
        if ctx["near"]:
            yield ADV, "the target is prone, attacker within 1.5 m"
        elif rs.opt("prone_ranged") == "disadvantage":
            yield DIS, "the target is prone and the attacker farther than 1.5 m"


@source("DND-41")
def attacked_with_advantage(rs, session, a, t, plan, ctx):
    """The conditions tagged ``attacked_with_advantage`` (blinded has its own line below)."""
    for c in conditions.conditions_tagged("attacked_with_advantage"):
        if c in t.conditions and c != "blinded":
            yield ADV, f"the target is {c}", CONDITION_RULE[c]


@source("DND-46")
def blinded(rs, session, a, t, plan, ctx):
    """A blinded target or attacker -- unless that one perceives the other without sight (blindsight, SRD-98)."""
    if t.has("blinded") and not perceives_without_sight(rs, session, t, a):
        yield ADV, "the target is blinded"
    if a.has("blinded") and not perceives_without_sight(rs, session, a, t):
        yield DIS, "the attacker is blinded"
restrained_attacker = _condition_source("DND-52", "restrained_attacker", "restrained", ("attacker", DIS))
poisoned_attacker = _condition_source("DND-53", "poisoned_attacker", "poisoned", ("attacker", DIS))


@source("DND-49")
def frightened_attacker(rs, session, a, t, plan, ctx):
    if a.has("frightened") and conditions.fear_source_in_sight(rs, session, a):
        yield DIS, "the attacker is frightened and sees the source"


@source("DND-24")
def dodging_target(rs, session, a, t, plan, ctx):
    if conditions.dodge_holds(rs, t) and (rs.opt("dodge_unseen") == "disadvantage" or rs.sees(session, t, a)):
        yield DIS, "the target is dodging"


@source("DND-18")
def helped(rs, session, a, t, plan, ctx):
    for h in session.state.data.get("help", []):
        if h["ally"] == a.id and h["target"] == t.id:
            yield ADV, f"helped by {h['helper']}"
            break


@source("DND-37")
def underwater(rs, session, a, t, plan, ctx):
    """l. 467 "Jeśli nie posiadasz szybkości pływania masz utrudnienie w atakach wręcz": the swim speed is the
    melee clause's exception; l. 468, the ranged attack "jest wykonywany z utrudnieniem chyba że używasz: kuszy,
    sieci lub broni rzucanej...", swim speed or not."""
    if a.data["underwater"]:
        w = plan["weapon"]
        if plan["melee"] and not a.data["swim_speed_m"] and w["name"] not in UNDERWATER_MELEE_OK:
            yield DIS, "melee underwater without a swim speed"
        if not plan["melee"] and w["name"] not in UNDERWATER_RANGED_OK:
            yield DIS, "ranged attack underwater"


def attack_sources(rs, session, a, t, plan) -> tuple[list, list]:
    """Every source on the hook, in order: ([(reason, rule)] advantage, [(reason, rule)] disadvantage)."""
    ctx = {"ranged": not plan["melee"], "near": engaged(a.body(), t.body())}
    adv: list = []
    dis: list = []
    for fn in ATTACK_SOURCES:
        for item in fn(rs, session, a, t, plan, ctx):
            side, reason = item[0], item[1]
            (adv if side == ADV else dis).append((reason, item[2] if len(item) > 2 else fn.rule))
    return adv, dis


@source("DND-16")
def untrained_armour_attacker(rs, session, a, t, plan, ctx):
    """An attack roll with a weapon (Str or Dex) in armour it is not proficient with: disadvantage (SRD; the
    document has no armour rules)."""
    if "armor" in a.data and gear.untrained(a):
        yield DIS, "the attacker wears armour it is not proficient with"
