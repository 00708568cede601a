"""SRD-16 Frightful Presence, as the dragons' stat blocks write it: "Each creature of the dragon's choice that is
within 120 feet of the dragon and aware of it must succeed on a DC 16 Wisdom saving throw or become frightened for 1
minute. A creature can repeat the saving throw at the end of each of its turns, ending the effect on itself on a
success. If a creature's saving throw is successful or the effect ends for it, the creature is immune to the
dragon's Frightful Presence for the next 24 hours."

The sheet's ``creature_actions`` entry has ``frightful`` (srd_blocks.save_action) and a ``self`` area of the range
written; ``creature_action`` (actions/srd.py) asks this module which creatures it affects and what a save leaves.
Decisions: "of the dragon's choice" is its foes (the policy: every foe; a GM scripting it the same); "aware of it" is
a foe that is conscious (the sandbox has no surprise); the 24 hours outlast any fight, so the immunity lasts the rest
of the scene. The record per creature is ``frightful_presence`` = ``{creature id: "immune" | "frightened"}``: a
creature frightened by it whose fear has ended (its repeated save, or the condition removed) is immune too.
"""

from __future__ import annotations

from engine.rules.dnd5e import conditions

RULE = "SRD-16"


def immune(t, a) -> bool:
    """Whether ``t`` is immune to ``a``'s Frightful Presence: it saved, or the fear it caused has ended."""
    st = (t.data.get("frightful_presence") or {}).get(a.id)
    return st == "immune" or (st == "frightened" and "frightened" not in t.conditions)


def affected(rs, session, a, targets: list[str]) -> list[str]:
    """The creatures in the area that the presence reaches: foes ("of the dragon's choice"), awake ("aware of it"),
    not immune."""
    out = []
    for tid in targets:
        t = session.state.actors[tid]
        if not conditions.hostile(rs, a, t) or t.has("unconscious") or immune(t, a):
            continue
        out.append(tid)
    return out


def after_save(a, t, ok: bool) -> None:
    """Record the save's outcome: a success makes the creature immune for the rest of the scene; a failure's fear is
    watched (when it ends, the creature is immune). The next use leaves an immune creature out of its targets (the
    ``creature_action`` event lists those it affects)."""
    t.data.setdefault("frightful_presence", {})[a.id] = "immune" if ok else "frightened"
