"""A creature's Spellcasting and Innate Spellcasting at the table (SRD-50, SRD-51, SRD-53): the sheet's
``srd_spellcasting`` (srd_spellbook.keys: {dc, attack, level, innate}) read by the cast (srd_cast.py).

- SRD-50: "Its spellcasting ability is Intelligence (spell save DC 17, +9 to hit with spell attacks)": the DC and
  attack bonus as written, not recomputed (a creature's proficiency and ability give the same in the SRD, but the
  text governs).
- SRD-51: "At will: detect evil and good ... 3/day each: blade barrier, dispel evil and good": an innate spell takes
  no slot; one of N/day is refused citing SRD-51 once its uses are spent (counted on the sheet, ``innate_used``).
  An innate spell is cast at its own level (no upcasting: the SRD gives none).
- SRD-53: "The lich is an 18th-level spellcaster": its cantrips scale by that level, not by its CR.
"""

from __future__ import annotations

from engine.rules.core import Illegal


def book(a) -> dict | None:
    return a.data.get("srd_spellcasting")


def numbers(a, cmod: int) -> tuple[int, int] | None:
    """SRD-50: (spell save DC, spell attack bonus) as the stat block writes them, or None (computed as DND-21's)."""
    b = book(a)
    if not b or (b.get("dc") is None and b.get("attack") is None):
        return None
    dc = b["dc"] if b.get("dc") is not None else 8 + a.data["prof"] + cmod
    return dc, (b["attack"] if b.get("attack") is not None else cmod + a.data["prof"])


def innate_uses(a, name: str) -> int | None:
    """SRD-51: None when ``name`` is not innate to ``a``; 0 at will; else its uses per day."""
    b = book(a)
    if not b:
        return None
    return b.get("innate", {}).get(name)


def innate_left(a, name: str) -> int | None:
    """Uses left today of an N/day innate spell (None: at will, or not innate)."""
    n = innate_uses(a, name)
    if not n:
        return None
    return n - int(a.data.get("innate_used", {}).get(name, 0))


def innate_slot(a, sp: dict, act: dict, name: str) -> bool:
    """SRD-51: whether this cast of ``name`` is innate (no slot); raises Illegal when its uses are spent or a slot is
    named."""
    if innate_uses(a, name) is None:
        return False
    if act.get("slot") not in (None, 0, sp["level"]):
        raise Illegal(f"{sp.get('name', name)} is innate to {a.name}: it is cast at its own level, without a slot", "SRD-51",
                      "slot")
    left = innate_left(a, name)
    if left is not None and left <= 0:
        raise Illegal(f"{a.name} has cast {sp.get('name', name)} {innate_uses(a, name)}/day already today", "SRD-51", "spell")
    return True


def spend_innate(session, a, name: str) -> None:
    """SRD-51: one use of an N/day innate spell (an at-will one spends nothing); an ``innate_spell`` event."""
    per_day = innate_uses(a, name) or 0
    if per_day:
        used = a.data.setdefault("innate_used", {})
        used[name] = int(used.get(name, 0)) + 1
    session.emit({"type": "innate_spell", "who": a.id, "spell": name, "per_day": per_day,
                  **({"left": innate_left(a, name)} if per_day else {}), "rule": "SRD-51"})


def can_cast(a, sp: dict, name: str) -> bool:
    """For the listing: an innate spell with uses left (SRD-51), or a slot of its level left."""
    if innate_uses(a, name) is not None:
        left = innate_left(a, name)
        return left is None or left > 0
    slots = a.data["spell_slots"]
    return sp["level"] == 0 or slots is None or slots.get(str(sp["level"]), 0) > 0


def caster_level(a) -> int:
    """SRD-53: the spellcaster level its stat block writes, else its level."""
    b = book(a)
    return int(b["level"]) if b and b.get("level") else a.data["level"]
