"""The SRD spells' own events (issue 39: srd_air.py, srd_lasting.py, srd_long.py, srd_marks.py, srd_wards.py,
srd_polymorph.py, srd_casters.py; SRD-52's legendary cast), one declared type each (see :mod:`engine.rules.events`);
``events.EVENTS`` joins them to the ruleset's table. ``cast`` is here (``events.Cast`` is this one); ``pushed``, which a
mount's fall also emits, is in ``events.py``."""

from __future__ import annotations

import msgspec

from engine.rules.events import Event, Moving


class Cast(Event, tag="cast", frozen=True):
    """``cast``: every spell's, emitted in dnd5e/actions/magic.py (the older fifteen) and, for an SRD spell,
    dnd5e/srd_cast.py (and the air spells', marks', wards', lasting areas' own casts)."""
    ACTED_ON = ""
    rule: str
    spell: str
    targets: list
    who: str
    at: list | None = None
    readied: bool | None = None
    slot: int | None = None             # the slot it was cast with (upcasting)
    area: dict | None = None            # {shape, size_m, origin[, direction]}: its area in 3D
    option: str | None = None           # Enlarge/Reduce's enlarge or reduce
    reaction: bool | None = None        # Feather Fall, cast as a reaction
    trigger: str | None = None          # the fall that triggered it
    to: list | None = None              # Misty Step / Dimension Door: the cell it went to


class Compelled(Moving, tag="compelled", kw_only=True, frozen=True):
    """``compelled``: Compulsion's move (SPL-11), emitted in dnd5e/srd_marks.py."""
    caster: str
    metres: float
    rule: str
    from_: list = msgspec.field(name="from")


class Confused(Event, tag="confused", frozen=True):
    """``confused``: Confusion's d10 each turn (SPL-11), emitted in dnd5e/srd_marks.py."""
    does: str
    roll: int
    rule: str
    who: str
    target: str | None = None


class FlySpeed(Event, tag="fly_speed", frozen=True):
    """``fly_speed``: Fly gives or takes back a fly speed, emitted in dnd5e/srd_air.py."""
    ACTED_ON = ""
    rule: str
    spell: str
    who: str
    fly_speed_m: float | None = None
    ended: bool | None = None


class HitPointPool(Event, tag="hit_point_pool", frozen=True):
    """``hit_point_pool``: Sleep's / Color Spray's hit points rolled, emitted in dnd5e/srd_air.py."""
    ACTED_ON = ""
    AMOUNT = "pool"
    pool: int
    rule: str
    spell: str
    who: str


class InnateSpell(Event, tag="innate_spell", frozen=True):
    """``innate_spell``: a creature casts an innate spell (SRD-51), emitted in dnd5e/srd_casters.py: its uses per day
    (0 at will) and the uses left today."""
    ACTED_ON = ""
    per_day: int
    rule: str
    spell: str
    who: str
    left: int | None = None


class JumpSpell(Event, tag="jump_spell", frozen=True):
    """``jump_spell``: Jump's tripled jump begins or ends, emitted in dnd5e/srd_air.py."""
    ACTED_ON = ""
    rule: str
    spell: str
    who: str
    high_jump_m: float | None = None
    layer_cost_m: float | None = None
    ended: bool | None = None


class LastingArea(Event, tag="lasting_area", frozen=True):
    """``lasting_area``: a spell's area that lasts begins (SPL-10), emitted in dnd5e/srd_lasting.py."""
    ACTED_ON = ""
    area: dict
    rule: str
    spell: str
    who: str


class LastingAreaEnds(Event, tag="lasting_area_ends", frozen=True):
    """``lasting_area_ends``: it ends, emitted in dnd5e/srd_lasting.py."""
    ACTED_ON = ""
    rule: str
    spell: str
    who: str


class Levitate(Event, tag="levitate", frozen=True):
    """``levitate``: a levitating creature moves up or down, emitted in dnd5e/srd_air.py."""
    ACTED_ON = ""
    rule: str
    to: int
    who: str
    from_: int = msgspec.field(name="from")


class LegendaryAction(Event, tag="legendary_action", frozen=True):
    """``legendary_action``: a legendary option taken at the end of another creature's turn (SRD-15; SRD-52's Cast a
    Spell), emitted in dnd5e/srd_legendary.py and dnd5e/srd_cast.py."""
    cost: int
    option: str
    points_left: int
    rule: str
    who: str
    target: str | None = None
    targets: list | None = None


class LongCast(Event, tag="long_cast", frozen=True):
    """``long_cast``: a spell of a longer casting time goes on, takes effect or fails (SPL-12), emitted in
    dnd5e/srd_long.py."""
    ACTED_ON = ""
    rule: str
    spell: str
    who: str
    targets: list | None = None
    rounds_left: int | None = None
    failed: bool | None = None
    reason: str | None = None


class LosesAction(Event, tag="loses_action", frozen=True):
    """``loses_action``: Stinking Cloud's retching, emitted in dnd5e/srd_lasting.py."""
    ACTED_ON = ""
    rule: str
    spell: str
    who: str


class Resized(Event, tag="resized", frozen=True):
    """``resized``: Enlarge/Reduce changes a body's size, emitted in dnd5e/srd_marks.py."""
    ACTED_ON = ""
    rule: str
    size: str
    spell: str
    who: str
    footprint: int | None = None
    height_layers: int | None = None
    ended: bool | None = None


class SlowFall(Event, tag="slow_fall", frozen=True):
    """``slow_fall``: Feather Fall's descent of 18 m a round, emitted in dnd5e/srd_air.py."""
    ACTED_ON = ""
    cause: str
    layers: int
    rule: str
    to: int
    who: str
    from_: int = msgspec.field(name="from")
    damage: int | None = None
    landed: bool | None = None
    note: str | None = None


class SpellMark(Event, tag="spell_mark", frozen=True):
    """``spell_mark``: a spell's mark on a creature begins, is suppressed, resumes or ends (SPL-11), emitted in
    dnd5e/srd_marks.py."""
    ACTED_ON = ""
    rule: str
    spell: str
    who: str
    mark: str | None = None
    caster: str | None = None
    suppressed: list | None = None
    resumed: list | None = None
    halved: list | None = None
    ended: bool | None = None


class Teleport(Moving, tag="teleport", kw_only=True, frozen=True):
    """``teleport``: Misty Step / Dimension Door, emitted in dnd5e/srd_air.py."""
    rule: str
    from_: list = msgspec.field(name="from")


class Dismissed(Event, tag="dismissed", frozen=True):
    """``dismissed``: Dispel Evil and Good's Dismissal sends a creature to its home plane (SPL-16), emitted in
    dnd5e/srd_wards.py."""
    ACTED_ON = "by"
    by: str
    rule: str
    spell: str
    who: str


class EnchantmentBroken(Event, tag="enchantment_broken", frozen=True):
    """``enchantment_broken``: Dispel Evil and Good's Break Enchantment (SPL-16), emitted in dnd5e/srd_wards.py."""
    ACTED_ON = ""
    conditions: list
    rule: str
    spell: str
    who: str


class Polymorph(Event, tag="polymorph", frozen=True):
    """``polymorph``: a creature becomes a beast or reverts (SPL-19, SPL-20), emitted in dnd5e/srd_polymorph.py."""
    ACTED_ON = ""
    beast: str
    hp: int
    rule: str
    spell: str
    who: str
    size: str | None = None
    fly_speed_m: float | None = None
    ended: bool | None = None
    reason: str | None = None


SPELL_EVENTS: list[type[Event]] = [Cast, Compelled, Confused, Dismissed, EnchantmentBroken, Polymorph, FlySpeed, HitPointPool, InnateSpell, JumpSpell, LastingArea, LastingAreaEnds,
                LegendaryAction, Levitate, LongCast, LosesAction, Resized, SlowFall, SpellMark, Teleport]
