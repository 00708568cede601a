"""Baton rules on the turn's named hooks: what happens when the initiative comes to a side, when a character's
activation ends, and why a flyer falls (AIR-10). Each is a small named function carrying its rule ID
(``engine.rules.hooks.Hook``), run in order of registration; a condition or an effect that acts at one of these
moments adds a function here instead of editing ``baton_order.side_turn_starts`` / ``end_activation`` /
``Baton.fall_reason``.

* ``SIDE_TURN_START``: ``fn(rs, session, side)``, when the initiative returns to ``side`` (BAT-11).
* ``ACTIVATION_END``: ``fn(rs, session, actor)``, when the character's activation ends.
* ``FALL_TRIGGERS``: ``fn(rs, session, actor) -> (reason, rule) or None``; the first answer is why it falls.
"""

from __future__ import annotations

from engine.rules import aerial
from engine.rules.baton import baton_order, skills
from engine.rules.baton.baton_order import ACTIVATION_END, SIDE_TURN_START  # noqa: F401  (declared where they run)
from engine.rules.baton.common import CONDITION_TAGS, CONDITIONS
from engine.rules.hooks import Hook

FALL_TRIGGERS = Hook("fall_triggers", "fn(rs, session, actor) -> (reason, rule) or None: why a flyer falls", order=(
    "dead",
    "grounding_condition",
    "grappled_by_a_walker",
))


# -- the initiative comes to a side --------------------------------------------------------------------------------
@SIDE_TURN_START.rule("BAT-11")
def until_next_turn_ends(rs, session, side):
    """Conditions that last "until its next turn" end when the initiative returns to the bearer's side."""
    for a in session.state.actors.values():
        if a.side != side:
            continue
        for c in list(a.conditions):
            srcs = a.conditions.get(c, [])
            if "until_next_turn" in srcs:
                skills.remove_condition(rs, session, a, c, "BAT-11", "until_next_turn")


@SIDE_TURN_START.rule("BAT-15")
def created_conditions_end(rs, session, side):
    """A condition an opportunity the side created put on a target (source ``until_side:<side>``) ends when the
    initiative comes back to the creator's side, as the opportunity's positive chance lapses."""
    src = f"until_side:{side}"
    for a in session.state.actors.values():
        for c in list(a.conditions):
            if src in a.conditions.get(c, []):
                skills.remove_condition(rs, session, a, c, "BAT-15", src)


@SIDE_TURN_START.rule("BAT-11")
def effects_tick(rs, session, side):
    """Per-turn effects tick when the initiative returns to their target's side, and end when their turns have
    passed (``effect_turns = "through"``: when the baton leaves the side on the last one)."""
    st = session.state
    through = rs.opt("effect_turns") == "through"
    keep = []
    for ef in st.data["effects"]:
        t = st.actors.get(ef["target"])
        if t is None or t.dead:
            continue
        if ef.get("per") != "turn":
            keep.append(ef)
            continue
        if t.side != side:
            # "through" (default): the Nth turn of the target's side has passed when the baton leaves it
            if through and ef.get("turns") is not None and ef["turns"] <= 0:
                baton_order.end_effect(rs, session, t, ef, "its turns have passed")
                continue
            keep.append(ef)
            continue
        baton_order.tick_effect(rs, session, t, ef)
        if ef.get("turns") is not None:
            ef["turns"] -= 1
            if ef["turns"] <= 0 and not through:      # the old reading: ends as its last turn begins
                baton_order.end_effect(rs, session, t, ef, "its turns have passed")
                continue
        keep.append(ef)
    st.data["effects"] = [e for e in keep if not e.get("ended")]


@SIDE_TURN_START.rule("BAT-15")
def opportunities_lapse(rs, session, side):
    """An opportunity the side created lasts until the initiative comes back to it."""
    st = session.state
    st.data["opportunity"] = [o for o in st.data["opportunity"] if o["side"] != side]


# -- a character's activation ends ----------------------------------------------------------------------------------
@ACTIVATION_END.rule("AIR-08")
def stay_aloft(rs, session, a):
    """A flyer spends its minor action to stay up (a rider: its mount does); not again when the option had it paid
    as the activation began."""
    if session.state.turn.get("upkeep_paid"):
        return
    if a.data.get("mounted_on"):
        aerial.upkeep(session, session.state.actors[a.data["mounted_on"]])
    else:
        aerial.upkeep(session, a)


# -- why a flyer falls (AIR-10) ------------------------------------------------------------------------------------
@FALL_TRIGGERS.rule("BAT-25")
def dead(rs, session, a):
    return ("dead", "BAT-25") if a.dead else None


@FALL_TRIGGERS.rule("AIR-10")
def grounding_condition(rs, session, a):
    """A condition tagged ``grounds_flyer``, unless a flying grabber holds the flyer up (:func:`held_aloft`)."""
    for c in CONDITION_TAGS["grounds_flyer"]:
        if c in a.conditions and not held_aloft(rs, session, a, c):
            return c, CONDITIONS[c]
    return None


def held_aloft(rs, session, a, c: str) -> bool:
    """AIR-10 grounds a flyer "Agarrado por quem não voa" (grappled by one who does not fly): the stuck a larger
    grabber gives (BAT-54, source ``grab:<id>``) does not ground it while every such grabber is aloft -- it holds
    the flyer up; the same condition from anything else (trapping terrain, the GM) still does."""
    srcs = a.conditions.get(c, [])
    if not srcs:
        return False
    for s in srcs:
        g = session.state.actors.get(s[5:]) if s.startswith("grab:") else None
        if g is None or g.dead or not g.flying:
            return False
    return True


@FALL_TRIGGERS.rule("BAT-54")
def grappled_by_a_walker(rs, session, a):
    """Grappled by a character that is not flying."""
    for g in a.conditions.get("grappled", []):
        o = session.state.actors.get(g)
        if o is not None and not o.flying:
            return (f"grappled by {o.name}, who is not flying", "BAT-54")
    return None
