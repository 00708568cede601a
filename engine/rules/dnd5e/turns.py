"""D&D 5e rules on the turn's named hooks: what happens when a creature's turn starts and ends, and why a flyer
falls (AIR-10). Each is a small named function carrying its rule ID (``engine.rules.hooks.Hook``), run in order of
registration; a feat or a condition that acts at one of these moments adds a function here (or registers one on the
hook from its own module) instead of editing ``begin_turn`` / ``end_of_turn_effects`` / ``Dnd5e.fall_reason``.

* ``TURN_START``: ``fn(rs, session, actor)``, after the ``turn`` event, before the turn is found skipped or playable.
* ``TURN_END``: ``fn(rs, session, actor)``, when the turn ends (also a skipped one).
* ``FALL_TRIGGERS``: ``fn(rs, session, actor) -> (reason, rule) or None``; the first answer is why it falls.

And the turn structure that runs them (DND-10): ``begin_turn``, ``end_of_turn_effects``, ``advance``, ``check_over``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from engine.rules.dnd5e import concentration, conditions, damage
from engine.rules.dnd5e.damage import alive_sides, check_over  # noqa: F401  (re-exported: the turn structure)
from engine.rules import aerial, riding
from engine.rules.dnd5e.data import CONDITION_RULE, GROUNDING_TEXT
from engine.rules.core import Actor, Illegal
from engine.rules.hooks import Hook

if TYPE_CHECKING:
    from engine.rules.session import Session

TURN_START = Hook("turn_start", "fn(rs, session, actor) when its turn starts", order=(
    "false_appearance_holds",    # srd_sight.py (SRD-100): said once, as the fight's first turn starts
    "reaction_returns",
    "slowed_no_reaction",        # srd_marks.py (SPL-11)
    "slowed_no_reaction_back",   # srd_breaths.py (SRD-27: Slowing Breath)
    "confused_behaviour",        # srd_marks.py (SPL-11)
    "compelled_moves",           # srd_marks.py (SPL-11)
    "dodge_ends",
    "readied_action_lapses",
    "sentinel_stop_ends",
    "help_lapses",
    "sneak_attack_per_turn",
    "death_save",
    "feather_fall_descends",
    "jump_ends",                 # srd_air.py (SPL-14)
    "long_cast_goes_on",         # srd_long.py (SPL-12)
    "lasting_areas",
    "recharge_roll",             # actions/srd.py (SRD-05)
    "blight_damage",             # srd_breaths.py (SRD-29)
    "legendary_points_return",   # srd_legendary.py (SRD-15)
    "regeneration",              # srd_traits2.py (SRD-32)
    "fire_aura",                 # srd_traits2.py (SRD-36)
    "fear_aura",                 # srd_auras.py (SRD-39)
    "brief_condition_arms",      # srd_brief.py (SRD-54)
    "burning_start",             # srd_burning.py (SRD-56)
    "infernal_wound",            # srd_wound.py (SRD-46)
    "petrification_arms",        # srd_wound.py (SRD-47)
    "save_action_each_turn",     # srd_lasting_actions.py (SRD-76)
    "roar_deafness_ends",        # srd_lasting_actions.py (SRD-77)
    "fetid_cloud",               # srd_lasting_actions.py (SRD-79)
    "swallowed_acid",            # srd_swallow.py (SRD-43)
    "engulfed_damage",           # srd_engulf.py (SRD-44, SRD-45)
    "holding_breath",            # srd_engulf.py (SRD-44, SRD-45: unable to breathe)
    "charm_turn_start",          # srd_charms.py (SRD-66, -71, -72)
    "suffocation",               # srd_breath.py (SRD-81)
    "sunlight_burns",            # srd_breath.py (SRD-85)
))
TURN_END = Hook("turn_end", "fn(rs, session, actor) when its turn ends", order=(
    "stay_aloft",
    "repeat_saves",
    "mark_repeat_saves",         # srd_marks.py (SPL-11)
    "weakness_repeat_save",      # srd_breaths.py (SRD-27)
    "brief_condition_ends",      # srd_brief.py (SRD-54)
    "roar_paralysis_ends",       # srd_lasting_actions.py (SRD-77)
    "burning_end",               # srd_burning.py (SRD-56)
    "petrification_save",        # srd_wound.py (SRD-47)
    "charm_repeat_save",         # srd_charms.py (SRD-70, -72)
    "legendary_actions",         # srd_legendary.py (SRD-15): another creature's turn ends
    "inside_an_object",          # srd_traits2.py (SRD-31)
    "regurgitate_check",         # srd_swallow.py (SRD-43)
    "running_water",             # srd_breath.py (SRD-86)
))
FALL_TRIGGERS = Hook("fall_triggers", "fn(rs, session, actor) -> (reason, rule) or None: why a flyer falls", order=(
    "dead",
    "grounding_condition",
    "dying",
    "incapacitated",
    "sentinel_stop",
    "grappled_by_a_walker",
))


# -- what the actor alone refuses ------------------------------------------------------------------------------
#: fn(rs, session, a, act) -> Illegal or None: why ``a`` may not name the creature(s) the action targets
#: (``target``, ``targets``) -- srd_sight.py: one a foe takes for an object (False Appearance, SRD-100)
TARGET_REFUSALS: list = []
#: fn(rs, session, a, act) before ``a``'s action is applied (srd_sight.py: acting ends False Appearance, SRD-100)
BEFORE_ACTION: list = []


def target_refusal(rs, session, a: Actor, act: dict) -> Illegal | None:
    """The first of ``TARGET_REFUSALS``' answers, or None (``Dnd5e.check`` and the listing's checker ask it)."""
    for fn in TARGET_REFUSALS:
        got = fn(rs, session, a, act)
        if got is not None:
            return got
    return None


def actor_refusal(rs, a: Actor, name: str) -> Illegal | None:
    """Why ``a``, on its turn, may take no ``name`` action whatever its parameters (``Dnd5e.check``'s tests of the
    actor alone, which the legal-action listing makes once an action name): a controlled mount's few actions
    (DND-36), incapacitated (no action but ending the turn). None: nothing about the actor refuses it."""
    if a.data["controlled_mount"] and riding.carries(a) and name not in rs.CONTROLLED_MOUNT_ACTIONS:
        return Illegal(f"{a.name} is a controlled mount: it may only move, Dash, Disengage or Dodge", "DND-36", "action")
    if name != "end_turn" and conditions.incapacitated(rs, a):
        c = cast(str, conditions.tagged(rs, a, "incapacitated")) if not a.dead else "dead"
        return Illegal(f"{a.name} is {c} and can take no actions", CONDITION_RULE.get(c, "DND-43"), "action")
    return None


# -- the turn starts ---------------------------------------------------------------------------------------------
@TURN_START.rule("DND-13")
def reaction_returns(rs, session, a):
    a.data["reaction_used"] = False


@TURN_START.rule("DND-24")
def dodge_ends(rs, session, a):
    """Dodge lasts until the start of its next turn."""
    a.data["dodging"] = False


@TURN_START.rule("DND-20")
def readied_action_lapses(rs, session, a):
    rd = a.data["readied"]
    if rd and rd.get("spell") and (a.data.get("concentration") or {}).get("readied"):
        concentration.end(rs, session, a, "the trigger did not come: the readied spell is lost", "DND-20")
    a.data["readied"] = None


@TURN_START.rule("DND-F37")
def sentinel_stop_ends(rs, session, a):
    """Sentinel's speed 0 lasts "for the rest of the turn": every creature's ends when a turn starts."""
    for o in session.state.actors.values():
        if o.data.get("speed_zero_by"):
            o.data.pop("speed_zero_by")


@TURN_START.rule("DND-18")
def help_lapses(rs, session, a):
    """The help it gave lasts until its next turn."""
    st = session.state
    st.data["help"] = [h for h in st.data.get("help", []) if h["helper"] != a.id]


@TURN_START.rule("DND-38")
def sneak_attack_per_turn(rs, session, a):
    """With ``sneak_attack_per = "turn"`` Sneak Attack is once per turn (the creature's own turn included)."""
    if rs.opt("sneak_attack_per") == "turn":
        a.data["sneak_round"] = -1


@TURN_START.rule("DND-03")
def death_save(rs, session, a):
    """A dying creature (0 HP, not stable) rolls its death save when its turn starts."""
    if not a.dead and a.hp == 0 and not a.data["stable"]:
        damage.death_save(rs, session, a)


# -- the turn ends -----------------------------------------------------------------------------------------------
@TURN_END.rule("AIR-08")
def stay_aloft(rs, session, a):
    """AIR-08 / AIR-10: a flyer still aloft spends its bonus action or falls."""
    aerial.upkeep(session, a)


@TURN_END.rule("DND-21")
def repeat_saves(rs, session, a):
    """A spell's condition that allows a save at the end of each turn (``repeat_saves``)."""
    for name, src in list(a.data.get("repeat_saves", {}).items()):
        if name not in a.conditions:
            a.data["repeat_saves"].pop(name)
            continue
        ok = conditions.saving_throw(rs, session, a, src["save"], src["dc"], None, src["rule"], f"end of turn save against {src['spell']}")
        if ok:
            conditions.remove_condition(rs, session, a, name, src["rule"])
            a.data["repeat_saves"].pop(name)


# -- why a flyer falls (AIR-10) ------------------------------------------------------------------------------------
@FALL_TRIGGERS.rule("DND-01")
def dead(rs, session, a):
    return (f"{a.name} is dead", "DND-01") if a.dead else None


@FALL_TRIGGERS.rule("AIR-10")
def grounding_condition(rs, session, a):
    """A condition tagged ``grounds_flyer`` (prone, unconscious, stunned, paralyzed, petrified, restrained...)."""
    c = conditions.tagged(rs, a, "grounds_flyer")
    return (f"{a.name} {GROUNDING_TEXT[c]}", CONDITION_RULE[c]) if c else None


@FALL_TRIGGERS.rule("DND-02")
def dying(rs, session, a):
    return (f"{a.name} is dying", "DND-02") if a.hp == 0 and not a.data.get("misty_zero") else None   # SRD-92: mist


@FALL_TRIGGERS.rule("AIR-10")
def incapacitated(rs, session, a):
    """With ``incapacitated_flyer = "falls_now"`` an incapacitated flyer loses its bonus action, so it falls now."""
    if a.has("incapacitated") and rs.opt("incapacitated_flyer") == "falls_now":
        return (f"{a.name} is incapacitated: it loses its bonus action", "AIR-10")
    return None


@FALL_TRIGGERS.rule("DND-F37")
def sentinel_stop(rs, session, a):
    if a.data.get("speed_zero_by"):
        return (f"{a.name}'s speed is 0 (Sentinel): a flyer that loses its movement falls", "DND-F37")
    return None


@FALL_TRIGGERS.rule("DND-47")
def grappled_by_a_walker(rs, session, a):
    """Grappled by a creature that is not aloft (``grounding_grappler = "not_flying"``) or cannot fly."""
    for gid in a.conditions.get("grappled", []):
        g = session.state.actors.get(gid)
        holds_down = g is None or (not g.flying if rs.opt("grounding_grappler") == "not_flying" else not g.can_fly)
        if holds_down:
            return (f"{a.name} is grappled by {g.name if g else gid}, who does not fly", "DND-47")
    return None


# -- the turn structure: a turn begins, ends, passes; the combat is over ------------------------------------
def new_turn(rs, aid):
    return {"actor": aid, "moved_m": 0.0, "action": False, "bonus": False, "attacks_left": 0, "dash": 0,
            "disengaged": False, "light_weapon": None, "bonus_spell": False, "action_spell": False}


def can_act(rs, a: Actor) -> bool:
    return not a.dead and not conditions.incapacitated(rs, a)


def begin_turn(rs, session: Session, guard: int) -> None:
    st = session.state
    for _ in range(4 * len(st.order) + 4):
        if st.over or st.current is None:       # a scene with no characters has no turns
            return
        a = st.actors[st.current]
        st.turn = new_turn(rs, a.id)
        session.emit({"type": "turn", "who": a.id, "round": st.round, "rule": "DND-10"})
        TURN_START.run(rs, session, a)               # reaction back, Dodge ends, death save...
        if can_act(rs, a):
            aerial.upkeep_at_start(session, a)              # option upkeep = "start_of_turn" (AIR-08)
            return
        why = "is dead" if a.dead else ("is " + cast(str, conditions.tagged(rs, a, "incapacitated")))
        session.emit({"type": "turn_skipped", "who": a.id, "reason": f"{a.name} {why}", "rule": "DND-43"})
        end_of_turn_effects(rs, session, a)
        advance(rs, session)
    st.over = True
    session.emit({"type": "combat_over", "winner": None, "reason": "nobody can act"})


def advance(rs, session: Session) -> None:
    st = session.state
    st.turn_index += 1
    if st.turn_index % len(st.order) == 0:
        st.turn_index = 0
        st.round += 1
        session.emit({"type": "round", "round": st.round, "rule": "DND-10"})


def end_of_turn_effects(rs, session: Session, a: Actor) -> None:
    TURN_END.run(rs, session, a)                     # AIR-08 upkeep, DND-21 repeated saves


