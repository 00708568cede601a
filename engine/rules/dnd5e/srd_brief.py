"""SRD-54 A condition that lasts until the end of a next turn: "Stunning Screech (1/Day). The vrock emits a horrific
screech. Each creature within 20 feet of it that can hear it and that isn't a demon must succeed on a DC 14
Constitution saving throw or be stunned until the end of the vrock's next turn." and the mummy lord's legendary
"Blinding Dust. Blinding dust and sand swirls magically around the mummy lord. Each creature within 5 feet of the
mummy lord must succeed on a DC 16 Constitution saving throw or be blinded until the end of the creature's next turn."

The save action's (or legendary option's) ``until`` = "its" (the user's next turn) or "target" (the creature's own):
a condition it gives is noted on the sheet's ``brief`` ({condition, by, until_end_of, armed}; a ``brief_condition``
event); the next start of that creature's turn arms it and the end of that turn removes it (the condition from that
source: another source keeps it). "that can hear it" (``hearing``): a deafened creature is not caught; "that isn't a
demon" (``not_types``): nor a creature of that type.
"""

from __future__ import annotations

from engine.rules.dnd5e import conditions, text
from engine.rules.dnd5e.turns import TURN_END, TURN_START

RULE = "SRD-54"


def caught(session, f: dict, targets: list[str]) -> list[str]:
    """The creatures of ``targets`` the save applies to ("that can hear it and that isn't a demon")."""
    out = []
    for tid in targets:
        t = session.state.actors[tid]
        if f.get("hearing") and t.has("deafened"):
            continue
        if t.data.get("creature_type") in (f.get("not_types") or ()):
            continue
        out.append(tid)
    return out


def lasts(session, a, t, cond: str, f: dict) -> None:
    """After ``t`` failed the save and took ``cond`` from ``a``: it lasts until the end of the next turn written."""
    if not f.get("until") or cond not in t.conditions:
        return
    whose = a.id if f["until"] == "its" else t.id
    t.data.setdefault("brief", []).append({"condition": cond, "by": a.id, "until_end_of": whose, "armed": False})
    session.emit({"type": "brief_condition", "who": t.id, "condition": cond, "by": a.id, "until_end_of": whose,
                  "rule": RULE})


@TURN_START.rule("SRD-54")
def brief_condition_arms(rs, session, x):
    """The next turn written starts: the condition ends when it ends."""
    for o in session.state.actors.values():
        for b in o.data.get("brief") or ():
            if b["until_end_of"] == x.id:
                b["armed"] = True


@TURN_END.rule("SRD-54")
def brief_condition_ends(rs, session, x):
    """"until the end of the vrock's next turn": the condition from that source ends."""
    for o in session.state.actors.values():
        brief = o.data.get("brief")
        if not brief:
            continue
        for b in [b for b in brief if b["until_end_of"] == x.id and b["armed"]]:
            brief.remove(b)
            srcs = o.conditions.get(b["condition"])
            if srcs is None:
                continue
            if len(set(srcs)) > 1 and b["by"] in srcs:
                srcs.remove(b["by"])
            else:
                conditions.remove_condition(rs, session, o, b["condition"], RULE)


text.EVENT_LINES.update({
    "brief_condition": text._did(lambda s, e: f"is {e['condition']} until the end of "
                                              f"{getattr(s.state.actors.get(e['until_end_of']), 'name', '')}'s next turn"),
})
