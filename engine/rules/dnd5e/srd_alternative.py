"""SRD-21 The alternative damage a stat block writes for one attack:

- two hands: "Hit: 4 (1d6 + 1) piercing damage or 5 (1d8 + 1) piercing damage if used with two hands to make a melee
  attack" (a spear, a longsword, a warhammer);
- at range: "Hit: 9 (2d6 + 2) piercing damage in melee or 5 (1d6 + 2) piercing damage at range" (the bugbear's
  javelin);
- a swarm worn down: "Hit: 7 (2d6) piercing damage, or 3 (1d6) piercing damage if the swarm has half of its hit
  points or fewer";
- SRD-106 another form: "Glaive. ... Hit: 15 (2d10 + 4) slashing damage, or 9 (1d10 + 4) slashing damage in Small or
  Medium form." (the oni: its Change Shape, SRD-37, has it Small or Medium; "If the oni dies, it reverts to its true
  form, and its glaive reverts to its normal size": SRD-37's reverting gives the glaive its dice back).

The weapon table's ``alternative`` = {damage, when = two_hands | ranged | bloodied | small_form} (srd_blocks.weapon): the hit's
dice are the alternative's when the case holds (the bonus is the same in every block that writes one). Two hands: how
the creature holds its weapon -- both hands on a melee attack unless it has attacked with another weapon this turn
(that one is in its other hand: the veteran's "If it has a shortsword drawn"). The stat blocks as kept do not say
which creatures carry a shield (the AC line is not kept): a scene that gives a guard its shield writes the spear's
weapon table without ``alternative`` (a scene's keys override the block's). No action parameter chooses it (a new
Attack parameter would change every refusal that lists them, and the recorded games' parity).
"""

from __future__ import annotations

RULE = "SRD-21"
WHEN = {"two_hands": "used with two hands", "ranged": "at range", "bloodied": "at half its hit points or fewer",
        "small_form": "in Small or Medium form"}
RULES = {"small_form": "SRD-106"}          # the oni's glaive: a rule of its own


def in_small_form(a) -> bool:
    """SRD-106 "in Small or Medium form": it has taken a Small or Medium form with its Change Shape (SRD-37's
    ``true_form`` is kept while it is in another form); its true form, or a Large giant's, is not."""
    return a.data.get("true_form") is not None and a.size in ("small", "medium")


def _other_weapon_used(session, a, w) -> bool:
    turn = session.state.turn
    if turn.get("actor") != a.id:
        return False
    used = set(turn.get("multiattack_used") or ()) | ({turn["light_weapon"]} if turn.get("light_weapon") else set())
    return bool(used - {w["name"]})


def applies(rs, session, a, w, plan) -> bool:
    alt = w["alternative"]
    when = alt["when"]
    if when == "bloodied":
        return a.hp * 2 <= a.max_hp
    if when == "ranged":
        return not plan["melee"]
    if when == "small_form":
        return in_small_form(a)
    if when == "two_hands" and plan["melee"]:
        return not _other_weapon_used(session, a, w)
    return False


def damage_dice(rs, session, a, w, plan) -> str:
    """The dice of a hit with ``w`` now: its ``alternative``'s when the case written holds (an ``alternative_damage``
    event says so), else its own."""
    if not w.get("alternative") or not applies(rs, session, a, w, plan):
        return w["damage"]
    alt = w["alternative"]
    session.emit({"type": "alternative_damage", "who": a.id, "weapon": w["name"], "damage": alt["damage"],
                  "when": alt["when"], "rule": RULES.get(alt["when"], RULE)})
    return alt["damage"]
