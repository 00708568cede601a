"""The D&D 5e ruleset's events, one declared type each (see :mod:`engine.rules.events`): the log still holds
the dicts its rules emit; ``EVENTS`` (its ruleset's ``EVENTS``) is the core's table plus these. A new event type is
declared here, its fields the keys it carries (optional ones default to None)."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.rules.events import CORE_EVENTS, Attacking, AttackingObject, Event, Hurting, Moving, table
from engine.rules.dnd5e.spell_events import SPELL_EVENTS, Cast


class Attack(Attacking, tag="attack", kw_only=True, frozen=True):
    """``attack``: emitted in dnd5e/attack_roll.py."""
    ac: int
    advantage: list
    bonus: int
    cover: str
    cover_bonus: int
    critical: bool
    disadvantage: list
    hit: bool
    kind: str
    melee: bool
    roll: int
    rules: list
    sources: list
    total: int
    weapon: str
    bonus_from: str | None = None
    cover_by: str | None = None
    cover_ignored: dict | None = None
    feats: list | None = None
    luck: int | None = None
    luck_cancelled_by: str | None = None
    modifiers: list | None = None
    reach_rule: str | None = None


class Check(Event, tag="check", frozen=True):
    """``check``: emitted in dnd5e/conditions.py."""
    ACTED_ON = ""
    roll: int
    rule: str
    skill: str
    total: int
    who: str


class CombatOver(Event, tag="combat_over", frozen=True):
    """``combat_over``: emitted in dnd5e/turns.py."""
    SUBJECT = ""
    ACTED_ON = ""
    reason: Any = None
    winner: str | None = None


class Concentration(Event, tag="concentration", frozen=True):
    """``concentration``: emitted in dnd5e/concentration.py."""
    ACTED_ON = ""
    rule: str
    spell: str
    targets: list
    who: str
    readied: bool | None = None


class ConcentrationEnds(Event, tag="concentration_ends", frozen=True):
    """``concentration_ends``: emitted in dnd5e/concentration.py."""
    ACTED_ON = ""
    reason: str
    rule: str
    spell: str
    who: str
    readied: bool | None = None


class Condition(Event, tag="condition", frozen=True):
    """``condition``: emitted in dnd5e/conditions.py."""
    ACTED_ON = ""
    added: bool
    condition: str
    rule: str
    who: str
    source: str | None = None


class ConditionImmune(Event, tag="condition_immune", frozen=True):
    """``condition_immune``: emitted in dnd5e/conditions.py."""
    ACTED_ON = ""
    condition: Any = None
    reason: Any = None
    rule: Any = None
    who: Any = None


class Contest(Event, tag="contest", frozen=True):
    """``contest``: emitted in dnd5e/conditions.py."""
    rule: str
    success: bool
    target: str
    who: str
    attacker_total: int | None = None
    automatic: bool | None = None
    defender_skill: str | None = None
    defender_total: int | None = None


class Damage(Hurting, tag="damage", kw_only=True, frozen=True):
    """``damage``: emitted in dnd5e/damage.py."""
    damage_type: str
    rule: str
    notes: list | None = None
    source: str | None = None


class Dash(Event, tag="dash", frozen=True):
    """``dash``: emitted under a computed type name."""
    ACTED_ON = ""
    movement_left_m: float
    rule: str
    who: str


class Death(Event, tag="death", frozen=True):
    """``death``: emitted in dnd5e/damage.py."""
    ACTED_ON = ""
    reason: str | None = None
    rule: str | None = None
    who: str | None = None


class DeathSave(Event, tag="death_save", frozen=True):
    """``death_save``: emitted in dnd5e/damage.py."""
    ACTED_ON = ""
    failures: int
    result: int
    rule: str
    successes: int
    who: str
    outcome: Any = None


class DeathSaveFailure(Event, tag="death_save_failure", frozen=True):
    """``death_save_failure``: emitted in dnd5e/damage.py."""
    ACTED_ON = ""
    added: int | None = None
    failures: int | None = None
    rule: str | None = None
    who: str | None = None


class DeathSavesRestart(Event, tag="death_saves_restart", frozen=True):
    """``death_saves_restart``: emitted in dnd5e/damage.py."""
    ACTED_ON = ""
    rule: str | None = None
    who: str | None = None


class Disengage(Event, tag="disengage", frozen=True):
    """``disengage``: emitted under a computed type name."""
    ACTED_ON = ""
    rule: str
    who: str


class Dismount(Event, tag="dismount", frozen=True):
    """``dismount``: emitted in dnd5e/actions/contact.py."""
    ACTED_ON = ""
    mount: str
    rule: str
    to: list
    who: str


class Dodge(Event, tag="dodge", frozen=True):
    """``dodge``: emitted under a computed type name."""
    ACTED_ON = ""
    rule: str
    who: str


class Dying(Event, tag="dying", frozen=True):
    """``dying``: emitted in dnd5e/damage.py."""
    ACTED_ON = ""
    rule: str
    who: str


class EndTurn(Event, tag="end_turn", frozen=True):
    """``end_turn``: emitted in dnd5e/actions/standard.py."""
    ACTED_ON = ""
    who: str


class Escape(Event, tag="escape", frozen=True):
    """``escape``: emitted in dnd5e/actions/contact.py."""
    ACTED_ON = ""
    against: int | None = None
    from_: str | None = msgspec.field(default=None, name="from")
    rule: str | None = None
    success: bool | None = None
    total: int | None = None
    who: str | None = None


class Feat(Event, tag="feat", frozen=True):
    """``feat``: emitted in dnd5e/attacks.py, dnd5e/feats.py, dnd5e/feats_moments.py."""
    feat: str
    rule: str
    who: str
    attack_roll: int | None = None
    attacker: Any = None
    cancels: str | None = None
    check_roll: int | None = None
    die: int | None = None
    first: Any = None
    inspired: Any = None
    kept: int | None = None
    luck: int | None = None
    manoeuvre: str | None = None
    mount: Any = None
    save_roll: int | None = None
    second: Any = None
    target: str | None = None
    temp_hp: Any = None
    text: str | None = None


class Grapple(Event, tag="grapple", frozen=True):
    """``grapple``: emitted in dnd5e/actions/contact.py."""
    rule: str
    target: str
    who: str


class GrappleEnds(Event, tag="grapple_ends", frozen=True):
    """``grapple_ends``: emitted in dnd5e/conditions.py."""
    ACTED_ON = ""
    grappler: str
    reason: str
    rule: str
    who: str


class Heal(Event, tag="heal", frozen=True):
    """``heal``: emitted in dnd5e/damage.py."""
    ACTED_ON = ""
    amount: int
    hp: int
    rule: str
    who: str


class Help(Event, tag="help", frozen=True):
    """``help``: emitted in dnd5e/actions/allies.py."""
    ally: str
    rule: str
    target: str | None
    who: str
    task: bool | None = None


class Hide(Event, tag="hide", frozen=True):
    """``hide``: emitted under a computed type name."""
    ACTED_ON = ""
    rule: str
    stealth: int
    who: str


class Hp(Event, tag="hp", frozen=True):
    """``hp``: emitted in dnd5e/damage.py."""
    ACTED_ON = ""
    hp: int
    max_hp: int
    who: str


class Initiative(Event, tag="initiative", frozen=True):
    """``initiative``: emitted in dnd5e/ruleset.py."""
    ACTED_ON = ""
    die: int | None
    fixed: bool
    rule: str
    total: int
    who: str


class InitiativeMoved(Event, tag="initiative_moved", frozen=True):
    """``initiative_moved``: emitted in dnd5e/actions/contact.py."""
    ACTED_ON = ""
    after: str
    order: list
    rule: str
    who: str


class KnockedOut(Event, tag="knocked_out", frozen=True):
    """``knocked_out``: emitted in dnd5e/damage.py."""
    ACTED_ON = ""
    rule: Any = None
    who: Any = None


class LandsOnFeet(Event, tag="lands_on_feet", frozen=True):
    """``lands_on_feet``: emitted under a computed type name."""
    ACTED_ON = ""
    mount: str | None = None
    rule: str | None = None
    to: list | None = None
    who: str | None = None


class LockCheck(Event, tag="lock_check", frozen=True):
    """``lock_check``: emitted in dnd5e/actions/objects.py."""
    bonus: int | None = None
    dc: int | None = None
    how: str | None = None
    roll: int | None = None
    rule: str | None = None
    success: bool | None = None
    target: str | None = None
    total: int | None = None
    who: str | None = None


class Mount(Event, tag="mount", frozen=True):
    """``mount``: emitted in dnd5e/mounts.py."""
    ACTED_ON = ""
    mount: str
    rule: str
    who: str


class Move(Moving, tag="move", kw_only=True, frozen=True):
    """``move``: emitted in dnd5e/attacks.py."""
    cost_m: float
    flying: bool
    from_: list = msgspec.field(name="from")
    layers_down: int
    layers_up: int
    left_m: float
    path: list
    rule: str
    takeoffs: int
    note: str | None = None


class MoveStopped(Event, tag="move_stopped", frozen=True):
    """``move_stopped``: emitted in dnd5e/actions/standard.py."""
    ACTED_ON = ""
    at: list
    rule: str
    who: str


class ObjectAttack(AttackingObject, tag="object_attack", kw_only=True, frozen=True):
    """``object_attack``: emitted in dnd5e/actions/objects.py."""
    ac: int
    advantage: list
    bonus: int
    cover: str
    cover_bonus: int
    critical: bool
    disadvantage: list
    melee: bool
    roll: int
    rules: list
    total: int
    weapon: str


class OpportunityAttack(Event, tag="opportunity_attack", frozen=True):
    """``opportunity_attack``: emitted in dnd5e/attacks.py, dnd5e/feats_moments.py."""
    reach_rule: str
    rule: str
    target: str
    who: str
    spell: Any = None
    text: Any = None
    trigger: Any = None
    weapon: str | None = None


class Pushed(Event, tag="pushed", frozen=True):
    """``pushed``: emitted in dnd5e/mounts.py and (a spell's push in 3D: Thunderwave, Gust of Wind) srd_cast.py."""
    ACTED_ON = ""
    rule: Any = None
    to: Any = None
    who: Any = None
    from_: list | None = msgspec.field(default=None, name="from")
    metres: float | None = None


class PushedOff(Event, tag="pushed_off", frozen=True):
    """``pushed_off``: emitted in dnd5e/actions/contact.py."""
    ACTED_ON = ""
    rule: str | None = None
    who: str | None = None


class Reaction(Event, tag="reaction", frozen=True):
    """``reaction``: emitted in dnd5e/feats.py."""
    ac: Any = None
    against: Any = None
    feat: str | None = None
    rule: str | None = None
    target: str | None = None
    text: str | None = None
    who: str | None = None


class ReactionPolicy(Event, tag="reaction_policy", frozen=True):
    """``reaction_policy``: emitted in dnd5e/actions/policy.py."""
    ACTED_ON = ""
    reaction: str
    rule: str
    take: bool
    who: str


class ReadiedAction(Event, tag="readied_action", frozen=True):
    """``readied_action``: emitted in dnd5e/actions/magic.py, dnd5e/attacks.py."""
    rule: str
    target: str
    who: str
    spell: str | None = None
    weapon: str | None = None


class Ready(Event, tag="ready", frozen=True):
    """``ready``: emitted in dnd5e/actions/magic.py, dnd5e/actions/standard.py."""
    rule: str
    target: None
    trigger: str
    who: str
    spell: str | None = None
    weapon: str | None = None


class Revealed(Event, tag="revealed", frozen=True):
    """``revealed``: emitted in dnd5e/actions/objects.py, dnd5e/actions/standard.py, dnd5e/attacks.py, dnd5e/gear.py."""
    ACTED_ON = ""
    reason: str
    rule: str
    who: str
    by: str | None = None


class Round(Event, tag="round", frozen=True):
    """``round``: emitted in dnd5e/ruleset.py, dnd5e/turns.py."""
    SUBJECT = ""
    ACTED_ON = ""
    round: int
    rule: str
    order: list | None = None


class Save(Event, tag="save", frozen=True):
    """``save``: emitted in dnd5e/conditions.py, saves.py, session.py."""
    ACTED_ON = ""
    ability: str | None = None
    advantage: list | None = None
    auto_fail: str | None = None
    concentration: str | None = None
    dc: int | None = None
    disadvantage: list | None = None
    feats: list | None = None
    roll: int | None = None
    rule: str | None = None
    sources: list | None = None
    success: bool | None = None
    total: int | None = None
    who: str | None = None


class Search(Event, tag="search", frozen=True):
    """``search``: emitted under a computed type name."""
    ACTED_ON = ""
    found: list
    perception: int
    rule: str
    who: str


class SecretDoor(Event, tag="secret_door", frozen=True):
    """``secret_door``: emitted in dnd5e/actions/rest.py."""
    ACTED_ON = ""
    dc: Any = None
    skill: Any = None
    who: Any = None


class ShortRest(Event, tag="short_rest", frozen=True):
    """``short_rest``: emitted in dnd5e/actions/rest.py."""
    ACTED_ON = ""
    dice: Any = None
    hit_dice_left: Any = None
    rule: Any = None
    who: Any = None


class Shove(Event, tag="shove", frozen=True):
    """``shove``: emitted in dnd5e/actions/contact.py."""
    mode: str
    rule: str
    target: str
    who: str
    cells: Any = None
    from_: list | None = msgspec.field(default=None, name="from")
    moved: bool | None = None
    note: str | None = None
    reason: str | None = None
    to: list | None = None


class Stabilize(Event, tag="stabilize", frozen=True):
    """``stabilize``: emitted in dnd5e/actions/allies.py."""
    rule: str | None = None
    success: bool | None = None
    target: str | None = None
    total: int | None = None
    who: str | None = None


class Stable(Event, tag="stable", frozen=True):
    """``stable``: emitted in dnd5e/damage.py."""
    ACTED_ON = ""
    rule: str | None = None
    who: str | None = None


class Stand(Event, tag="stand", frozen=True):
    """``stand``: emitted in dnd5e/actions/standard.py."""
    ACTED_ON = ""
    cost_m: float
    rule: str
    who: str


class TempHp(Event, tag="temp_hp", frozen=True):
    """``temp_hp``: emitted in dnd5e/damage.py."""
    ACTED_ON = ""
    rule: str | None = None
    temp_hp: int | None = None
    who: str | None = None


class TempHpDeclined(Event, tag="temp_hp_declined", frozen=True):
    """``temp_hp_declined``: emitted in dnd5e/damage.py."""
    ACTED_ON = ""
    kept: Any = None
    offered: Any = None
    rule: Any = None
    who: Any = None


class TempHpLost(Event, tag="temp_hp_lost", frozen=True):
    """``temp_hp_lost``: emitted in dnd5e/damage.py."""
    ACTED_ON = ""
    amount: Any = None
    left: Any = None
    rule: Any = None
    who: Any = None


class Trap(Event, tag="trap", frozen=True):
    """``trap``: emitted in dnd5e/actions/rest.py."""
    ACTED_ON = ""
    damage: Any = None
    damage_type: Any = None
    dc: Any = None
    rule: Any = None
    save: Any = None
    who: Any = None


class Turn(Event, tag="turn", frozen=True):
    """``turn``: emitted in dnd5e/turns.py."""
    ACTED_ON = ""
    round: int
    rule: str
    who: str


class TurnSkipped(Event, tag="turn_skipped", frozen=True):
    """``turn_skipped``: emitted in dnd5e/turns.py."""
    ACTED_ON = ""
    reason: str
    rule: str
    who: str


class Use(Event, tag="use", frozen=True):
    """``use``: emitted in dnd5e/actions/standard.py."""
    object: str
    rule: str
    target: str
    who: str


EVENTS = table(CORE_EVENTS, [Attack, Cast, Check, CombatOver, Concentration, ConcentrationEnds, Condition, ConditionImmune, Contest, Damage, Dash, Death, DeathSave, DeathSaveFailure, DeathSavesRestart, Disengage, Dismount, Dodge, Dying, EndTurn, Escape, Feat, Grapple, GrappleEnds, Heal, Help, Hide, Hp, Initiative, InitiativeMoved, KnockedOut, LandsOnFeet, LockCheck, Mount, Move, MoveStopped, ObjectAttack, OpportunityAttack, Pushed, PushedOff, Reaction, ReactionPolicy, ReadiedAction, Ready, Revealed, Round, Save, Search, SecretDoor, ShortRest, Shove, Stabilize, Stable, Stand, TempHp, TempHpDeclined, TempHpLost, Trap, Turn, TurnSkipped, Use], SPELL_EVENTS)
