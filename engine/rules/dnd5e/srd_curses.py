"""SRD-49 A hit's curse, recorded on the creature it takes: "Bite. ... Hit: 6 (1d8 + 2) piercing damage. If the
target is a humanoid, it must succeed on a DC 12 Constitution saving throw or be cursed with werewolf lycanthropy."
(the lycanthropes' bites, tusks) and the mummy's "Rotting Fist. ... If the target is a creature, it must succeed on a
DC 12 Constitution saving throw or be cursed with mummy rot. The cursed target can't regain hit points, and its hit
point maximum decreases by 10 (3d6) for every 24 hours that elapse. If the curse reduces the target's hit point
maximum to 0, the target dies, and its body turns to dust."

The weapon's ``on_hit`` save (SRD-13) with a ``rider`` {kind = "curse", curse, only, no_heal, each_day}
(srd_rider_text.curse): ``only`` ("humanoid"): no save is asked of another target (a character whose sheet names no
creature type is taken as a humanoid, as the people of the sandbox are); a failed save adds the curse to the sheet's
``curses`` (a ``cursed`` event). Lycanthropy works beyond the fight (the SRD's Lycanthropes: the curse shows at the
next full moon): recorded, nothing else. Mummy rot's "can't regain hit points" refuses every heal while it lasts
(damage.heal asks ``blocks_healing``: a ``heal_blocked`` event); its daily loss is recorded (``each_day``), a day
being beyond a fight; nothing in a fight removes the curse (remove curse is not castable here).
"""

from __future__ import annotations

from engine.rules.dnd5e import text

RULE = "SRD-49"


def kind_of(t) -> str:
    """``t``'s creature type; a character with none written is a humanoid."""
    return t.data.get("creature_type") or "humanoid"


def spared(oh: dict, t) -> bool:
    """Whether the hit's curse asks no save of ``t`` ("If the target is a humanoid")."""
    only = (oh.get("rider") or {}).get("only")
    return bool(only) and kind_of(t) != only


def blocks_healing(t) -> str | None:
    c = next((c for c in t.data.get("curses") or () if c.get("no_heal")), None)
    return f"cursed with {c['curse']}, it can't regain hit points ({RULE})" if c else None


def rider(rs, session, a, t, w, saved: bool, dropped: bool) -> None:  # noqa: ARG001  (ON_HIT_RIDERS' signature)
    r = w["on_hit"]["rider"]
    if r["kind"] != "curse" or saved or t.dead or any(c["curse"] == r["curse"] for c in t.data.get("curses") or ()):
        return
    entry = {"curse": r["curse"], "by": a.id, **({"no_heal": True} if r.get("no_heal") else {}),
             **({"each_day": r["each_day"]} if r.get("each_day") else {})}
    t.data.setdefault("curses", []).append(entry)
    session.emit({"type": "cursed", "who": t.id, "by": a.id, "curse": r["curse"], "no_heal": bool(r.get("no_heal")),
                  **({"each_day": r["each_day"]} if r.get("each_day") else {}), "rule": RULE})


text.EVENT_LINES.update({
    "cursed": text._did(lambda s, e: f"is cursed with {e['curse']}" + (": it can't regain hit points" if e.get("no_heal")
                                                                         else "")),
})
