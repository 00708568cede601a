"""The Baton ruleset's events, one declared type each (see :mod:`engine.rules.events`): the log still holds
the dicts its rules emit; ``EVENTS`` (its ruleset's ``EVENTS``) is the core's table plus these. A new event type is
declared here, its fields the keys it carries (optional ones default to None)."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.rules.events import CORE_EVENTS, Attacking, AttackingObject, Event, Hurting, Moving, table


class Attack(Attacking, tag="attack", kw_only=True, frozen=True):
    """``attack``: emitted in baton/combat.py."""
    ac: int
    advantage: list
    bonus: int
    counter: bool
    cover: str
    cover_bonus: int
    critical: bool
    defence: str
    difficulty: int
    disadvantage: list
    hit: bool
    level: int
    melee: bool
    roll: int
    rule: str
    rules: list
    total: int
    weapon: str


class Baton(Event, tag="baton", frozen=True):
    """``baton``: emitted in baton/baton_order.py."""
    SUBJECT = ""
    ACTED_ON = ""
    how: str
    kept: bool
    rule: str
    side: str
    to: str
    turn: int


class Breath(Event, tag="breath", frozen=True):
    """``breath``: emitted in baton/actions/downtime.py."""
    ACTED_ON = ""
    can_hold: Any = None
    minutes: Any = None
    rule: Any = None
    who: Any = None


class Careful(Event, tag="careful", frozen=True):
    """``careful``: emitted in baton/actions/turn.py."""
    ACTED_ON = ""
    note: str
    rule: str
    who: str


class CombatOver(Event, tag="combat_over", frozen=True):
    """``combat_over``: emitted in baton/baton_order.py."""
    SUBJECT = ""
    ACTED_ON = ""
    rule: str | None = None
    winner: str | None = None


class CombatStart(Event, tag="combat_start", frozen=True):
    """``combat_start``: emitted in baton/ruleset.py."""
    SUBJECT = ""
    ACTED_ON = ""
    rule: str
    sides: list


class Condition(Event, tag="condition", frozen=True):
    """``condition``: emitted in baton/actions/attacks.py, baton/actions/downtime.py, baton/skills.py."""
    ACTED_ON = ""
    added: bool
    condition: str
    rule: str
    who: str
    source: str | None = None


class Confused(Event, tag="confused", frozen=True):
    """``confused``: emitted in baton/baton_order.py."""
    ACTED_ON = ""
    does: str
    result: int
    rule: str
    who: str


class Counterattack(Event, tag="counterattack", frozen=True):
    """``counterattack``: emitted in baton/combat.py."""
    rule: str
    target: str
    who: str


class Critical(Event, tag="critical", frozen=True):
    """``critical``: emitted in baton/actions/downtime.py."""
    ACTED_ON = ""
    rule: Any = None
    who: Any = None
    why: Any = None


class Damage(Hurting, tag="damage", kw_only=True, frozen=True):
    """``damage``: emitted in baton/health.py."""
    damage_type: str
    layers_rule: str
    life: int
    protection: int
    protection_absorbed: int
    rule: str
    vigor: int
    vigor_absorbed: int
    wound: int
    critical: bool | None = None
    source: str | None = None
    wound_category: str | None = None


class Dash(Event, tag="dash", frozen=True):
    """``dash``: emitted in baton/actions/turn.py."""
    ACTED_ON = ""
    extra_m: float
    rule: str
    who: str


class Day(Event, tag="day", frozen=True):
    """``day``: emitted in baton/actions/downtime.py."""
    SUBJECT = ""
    ACTED_ON = ""
    day: int | None = None
    rule: str | None = None


class Death(Event, tag="death", frozen=True):
    """``death``: emitted in baton/health.py."""
    ACTED_ON = ""
    cause: str | None = None
    reason: str | None = None
    rule: str | None = None
    who: str | None = None


class Declines(Event, tag="declines", frozen=True):
    """``declines``: emitted in baton/actions/turn.py."""
    rule: str
    target: str
    what: str
    who: str


class Destiny(Event, tag="destiny", frozen=True):
    """``destiny``: emitted in baton/combat.py."""
    ACTED_ON = ""
    points: int | None = None
    rule: str | None = None
    side: str | None = None
    who: str | None = None


class Disarmed(Event, tag="disarmed", frozen=True):
    """``disarmed``: emitted in baton/actions/attacks.py."""
    ACTED_ON = ""
    by: str
    cells: int
    direction: list
    lands: list
    rule: str
    weapon: str
    who: str


class Dismount(Event, tag="dismount", frozen=True):
    """``dismount``: emitted in baton/actions/turn.py."""
    ACTED_ON = ""
    mount: str
    rule: str
    to: list
    who: str


class Dragged(Event, tag="dragged", frozen=True):
    """``dragged``: emitted in baton/actions/turn.py."""
    ACTED_ON = ""
    by: str | None = None
    rule: str | None = None
    to: list | None = None
    who: str | None = None


class Drink(Event, tag="drink", frozen=True):
    """``drink``: emitted in baton/actions/minor.py."""
    ACTED_ON = ""
    potion: str
    rule: str
    who: str


class DropItem(Event, tag="drop_item", frozen=True):
    """``drop_item``: emitted in baton/actions/minor.py."""
    ACTED_ON = ""
    at: Any = None
    item: Any = None
    rule: Any = None
    who: Any = None


class EffectEnd(Event, tag="effect_end", frozen=True):
    """``effect_end``: emitted in baton/baton_order.py."""
    ACTED_ON = ""
    effect: Any = None
    id: Any = None
    rule: Any = None
    who: Any = None
    why: Any = None


class EffectTick(Event, tag="effect_tick", frozen=True):
    """``effect_tick``: emitted in baton/baton_order.py."""
    ACTED_ON = ""
    effect: Any = None
    id: Any = None
    rule: Any = None
    who: Any = None


class Equip(Event, tag="equip", frozen=True):
    """``equip``: emitted in baton/actions/minor.py."""
    ACTED_ON = ""
    hand: str
    rule: str
    weapon: str
    who: str


class Exhausted(Event, tag="exhausted", frozen=True):
    """``exhausted``: emitted in baton/health.py."""
    ACTED_ON = ""
    rule: str
    who: str


class ExposedLeavingCover(Event, tag="exposed_leaving_cover", frozen=True):
    """``exposed_leaving_cover``: emitted in baton/actions/turn.py."""
    ACTED_ON = ""
    by: str | None = None
    rule: str | None = None
    who: str | None = None


class FallHalved(Event, tag="fall_halved", frozen=True):
    """``fall_halved``: emitted in baton/actions/turn.py."""
    ACTED_ON = ""
    by: str | None = None
    rule: str | None = None
    severity: int | None = None
    who: str | None = None


class GrappleEnd(Event, tag="grapple_end", frozen=True):
    """``grapple_end``: emitted in baton/skills.py."""
    SUBJECT = "grabber"
    grabber: str
    rule: str
    target: str


class Hit(Attacking, tag="hit", kw_only=True, frozen=True):
    """``hit``: emitted in baton/combat.py."""
    LANDED = True
    critical: bool
    critical_extra: int
    damage: int
    dice: str
    physique_bonus: int
    rolled: int
    rule: str
    scale_steps: int
    second_weapon: int
    critical_why: str | None = None


class Miss(Attacking, tag="miss", kw_only=True, frozen=True):
    """``miss``: emitted in baton/combat.py."""
    LANDED = False
    rule: str


class Move(Moving, tag="move", kw_only=True, frozen=True):
    """``move``: emitted in baton/actions/turn.py."""
    by: str
    cost_m: float
    flying: bool
    from_: list = msgspec.field(name="from")
    layers_down: int
    layers_up: int
    left_m: float
    path: list
    rule: str
    straight_m: float
    takeoffs: int


class MoveInterrupted(Event, tag="move_interrupted", frozen=True):
    """``move_interrupted``: emitted in baton/actions/turn.py."""
    ACTED_ON = ""
    at: list | None = None
    rule: str | None = None
    who: str | None = None


class ObjectAttack(AttackingObject, tag="object_attack", kw_only=True, frozen=True):
    """``object_attack``: emitted in baton/actions/objects.py."""
    bonus: int
    cover: str
    critical: bool
    difficulty: int
    melee: bool
    roll: int
    rule: str
    total: int
    weapon: str


class OpensWith(Event, tag="opens_with", frozen=True):
    """``opens_with``: emitted in baton/choices.py."""
    ACTED_ON = ""
    rule: str | None = None
    to: str | None = None
    who: str | None = None


class Opportunity(Event, tag="opportunity", frozen=True):
    """``opportunity``: emitted in baton/actions/attacks.py."""
    effect: Any = None
    rule: Any = None
    stated: Any = None
    target: Any = None
    who: Any = None


class OpportunityAttack(Event, tag="opportunity_attack", frozen=True):
    """``opportunity_attack``: emitted in baton/actions/turn.py."""
    rule: str
    target: str
    who: str


class OutOfCombat(Event, tag="out_of_combat", frozen=True):
    """``out_of_combat``: emitted in baton/ruleset.py."""
    SUBJECT = ""
    ACTED_ON = ""
    note: Any = None
    rule: Any = None
    sides: Any = None


class Pass(Event, tag="pass", frozen=True):
    """``pass``: emitted in baton/actions/turn.py, baton/baton_order.py."""
    ACTED_ON = ""
    kept: bool
    rule: str
    to: str
    who: str
    auto: bool | None = None
    die: int | None = None
    note: str | None = None
    reason: str | None = None


class PickUp(Event, tag="pick_up", frozen=True):
    """``pick_up``: emitted in baton/actions/minor.py."""
    ACTED_ON = ""
    item: str | None = None
    rule: str | None = None
    who: str | None = None


class Poisoned(Event, tag="poisoned", frozen=True):
    """``poisoned``: emitted in baton/health.py."""
    ACTED_ON = ""
    effect: Any = None
    kind: Any = None
    rule: Any = None
    who: Any = None


class ProtectionRestored(Event, tag="protection_restored", frozen=True):
    """``protection_restored``: emitted in baton/baton_order.py."""
    ACTED_ON = ""
    protection: int | None = None
    rule: str | None = None
    who: str | None = None


class Pushed(Event, tag="pushed", frozen=True):
    """``pushed``: emitted in baton/actions/attacks.py."""
    ACTED_ON = ""
    by: str
    cells: int
    metres: float
    rule: str
    to: list
    who: str


class Rest(Event, tag="rest", frozen=True):
    """``rest``: emitted in baton/actions/downtime.py."""
    ACTED_ON = ""
    gained: Any = None
    kind: str | None = None
    rule: str | None = None
    vigor: int | None = None
    who: str | None = None


class Shout(Event, tag="shout", frozen=True):
    """``shout``: emitted in baton/actions/minor.py."""
    ACTED_ON = ""
    rule: str
    text: str
    who: str


class SideTurn(Event, tag="side_turn", frozen=True):
    """``side_turn``: emitted in baton/baton_order.py."""
    SUBJECT = ""
    ACTED_ON = ""
    rule: str
    side: str
    turn: int


class Stow(Event, tag="stow", frozen=True):
    """``stow``: emitted in baton/actions/minor.py."""
    ACTED_ON = ""
    rule: Any = None
    weapon: Any = None
    who: Any = None


class TakeItem(Event, tag="take_item", frozen=True):
    """``take_item``: emitted in baton/actions/minor.py."""
    ACTED_ON = ""
    from_: Any = msgspec.field(default=None, name="from")
    item: Any = None
    rule: Any = None
    who: Any = None


class Test(Event, tag="test", frozen=True):
    """``test``: emitted in baton/combat.py, baton/dice.py."""
    ACTED_ON = ""
    critical: bool
    difficulty: int
    purpose: str
    rule: str
    skill: str
    success: bool
    who: str
    auto: Any = None
    chances: int | None = None
    critical_failure: bool | None = None
    dice: list | None = None
    even: bool | None = None
    kept: int | None = None
    level: int | None = None
    negative: list | None = None
    positive: list | None = None
    skill_level: int | None = None
    total: int | None = None


class Thrown(Event, tag="thrown", frozen=True):
    """``thrown``: emitted in baton/mounts.py."""
    ACTED_ON = ""
    at: list
    mount: str
    rule: str
    who: str
    why: str


class Time(Event, tag="time", frozen=True):
    """``time``: emitted in baton/actions/downtime.py."""
    SUBJECT = ""
    ACTED_ON = ""
    day: Any = None
    hour: Any = None
    period: Any = None


class Treat(Event, tag="treat", frozen=True):
    """``treat``: emitted in baton/actions/downtime.py."""
    kit: str | None = None
    rule: str | None = None
    success: bool | None = None
    target: str | None = None
    who: str | None = None
    wound: int | None = None


class Unprotected(Event, tag="unprotected", frozen=True):
    """``unprotected``: emitted in baton/health.py."""
    ACTED_ON = ""
    rule: str
    who: str


class UsePower(Event, tag="use_power", frozen=True):
    """``use_power``: emitted in baton/actions/minor.py."""
    kind: Any = None
    note: Any = None
    rule: Any = None
    target: Any = None
    who: Any = None


class WoundDay(Event, tag="wound_day", frozen=True):
    """``wound_day``: emitted in baton/actions/downtime.py."""
    ACTED_ON = ""
    category: str | None = None
    change: int | None = None
    evolves_as: str | None = None
    recovered: bool | None = None
    rule: str | None = None
    severity: int | None = None
    who: str | None = None
    wound: int | None = None


class WoundHealed(Event, tag="wound_healed", frozen=True):
    """``wound_healed``: emitted in baton/actions/minor.py."""
    ACTED_ON = ""
    by: int | None = None
    magical: bool | None = None
    rule: str | None = None
    who: str | None = None
    wound: int | None = None


class WoundWorsens(Event, tag="wound_worsens", frozen=True):
    """``wound_worsens``: emitted in baton/baton_order.py."""
    ACTED_ON = ""
    by: Any = None
    rule: Any = None
    severity: Any = None
    who: Any = None
    wound: Any = None


EVENTS = table(CORE_EVENTS, [Attack, Baton, Breath, Careful, CombatOver, CombatStart, Condition, Confused, Counterattack, Critical, Damage, Dash, Day, Death, Declines, Destiny, Disarmed, Dismount, Dragged, Drink, DropItem, EffectEnd, EffectTick, Equip, Exhausted, ExposedLeavingCover, FallHalved, GrappleEnd, Hit, Miss, Move, MoveInterrupted, ObjectAttack, OpensWith, Opportunity, OpportunityAttack, OutOfCombat, Pass, PickUp, Poisoned, ProtectionRestored, Pushed, Rest, Shout, SideTurn, Stow, TakeItem, Test, Thrown, Time, Treat, Unprotected, UsePower, WoundDay, WoundHealed, WoundWorsens])
