"""Concentration: the mechanic the document names without writing it (War Caster l. 142, Mage Slayer l. 301, a
readied spell l. 363). The grounding is the rulebook's (the SRD, "Concentration"), stated in docs/rules.md:

* a spell marked ``concentration`` in the data (``data.SPELLS``) is held by its caster (``data["concentration"]``:
  the spell, its targets), one at a time: casting another concentration spell ends the first;
* taking damage: a Constitution save, DC 10 or half the damage taken (rounded down), whichever is higher; a failure
  ends it; War Caster gives advantage on that save (DND-F14), damage from a Mage Slayer disadvantage (DND-F40);
* it ends when the caster is incapacitated (the conditions tagged ``incapacitated``, unconsciousness at 0 HP
  included) or dies;
* when it ends, what the spell holds ends: the condition it put on each target (its source is the caster) and that
  condition's repeated save.

The events: ``concentration`` (begins), ``concentration_ends`` (why), and the save's ``concentration`` field.
"""

from __future__ import annotations

from engine.rules.dnd5e import conditions, feats_data
from engine.rules.dnd5e.data import SPELLS
from engine.rules.dnd5e.upcalls import CONCENTRATION

RULE = "DND-21"          # casting a spell "with its own rules": concentration is one of them (the SRD's)


#: fn(rs, session, caster, held) when a concentration ends (``held``: its spell and targets): the SRD spells whose end
#: does something (Fly: its target falls, srd_air.py)
ON_END: list = []


def is_concentration(spell: str) -> bool:
    return bool(SPELLS[spell].get("concentration"))


def held(a) -> str | None:
    """The spell ``a`` concentrates on, or None."""
    c = a.data.get("concentration")
    return c["spell"] if c else None


def begin(rs, session, a, spell: str, targets, readied: bool = False) -> None:
    """``a`` casts the concentration spell ``spell`` (or readies any spell, DND-20: held by concentration until its
    trigger): the one it held ends first (one at a time)."""
    if a.data.get("concentration"):
        end(rs, session, a, f"{'readies' if readied else 'casts'} {spell.replace('_', ' ')}: one concentration "
            "at a time", RULE)
    a.data["concentration"] = {"spell": spell, "targets": list(targets), **({"readied": True} if readied else {})}
    pub = a.data.setdefault("public", [])
    if "concentration" not in pub:
        pub.append("concentration")          # the JSON state shows it at the character's top level
    session.emit({"type": "concentration", "who": a.id, "spell": spell, "targets": list(targets),
                  **({"readied": True} if readied else {}), "rule": "DND-20" if readied else RULE})


def end(rs, session, a, reason: str, rule: str) -> None:
    """The concentration of ``a`` ends (``reason``): the spell's condition on each target it holds ends with it."""
    c = a.data.get("concentration")
    if not c:
        return
    a.data["concentration"] = None
    session.emit({"type": "concentration_ends", "who": a.id, "spell": c["spell"], "reason": reason, "rule": rule,
                  **({"readied": True} if c.get("readied") else {})})
    if c.get("readied"):
        a.data["readied"] = None                 # DND-20: a readied spell is lost with the concentration
        return
    for fn in ON_END:
        fn(rs, session, a, c)
    cond = SPELLS.get(c["spell"], {}).get("condition")      # an SRD creature's own (SRD-34): none of the spells'
    if not cond:
        return
    for tid in c["targets"]:
        t = session.state.actors.get(tid)
        if t is None or a.id not in t.conditions.get(cond, ()):
            continue
        rest = [s for s in t.conditions[cond] if s != a.id]
        if rest:
            t.conditions[cond] = rest            # another caster's spell still holds it
            continue
        conditions.remove_condition(rs, session, t, cond, RULE)
        rep = t.data.get("repeat_saves")
        if rep and rep.get(cond, {}).get("spell") == c["spell"]:
            rep.pop(cond)


def damaged(rs, session, a, amount: int, source) -> None:
    """``a`` took ``amount`` damage while concentrating (alive, above 0 HP): the Constitution save."""
    c = a.data["concentration"]
    dc = max(10, amount // 2)
    adv = dis = None
    if a.data.get("feats") and feats_data.has(a, "war_caster"):
        adv = "War Caster: advantage on the concentration save (DND-F14)"
    src = session.state.actors.get(source) if isinstance(source, str) else None
    if src is not None and src.data.get("feats") and feats_data.has(src, "mage_slayer"):
        dis = f"Mage Slayer: {src.name}'s damage gives disadvantage on the concentration save (DND-F40)"
    ok = conditions.saving_throw(rs, session, a, "con", dc, None, RULE,
                                 f"concentration on {c['spell'].replace('_', ' ')} (DC 10 or half the damage)",
                                 advantage=adv, disadvantage=dis, concentration=c["spell"])
    if not ok:
        end(rs, session, a, f"fails the Constitution save (DC {dc})", RULE)


def incapacitated(rs, session, a, why: str, rule: str) -> None:
    """``a`` became incapacitated (``why``) or died: its concentration ends."""
    if a.data.get("concentration"):
        end(rs, session, a, why, rule)


def preview_note(rs, session, t, attacker) -> str:
    """The attack preview's line when the target concentrates: a hit makes it save, with what."""
    bits = []
    if t.data.get("feats") and feats_data.has(t, "war_caster"):
        bits.append("advantage: War Caster (DND-F14)")
    if attacker.data.get("feats") and feats_data.has(attacker, "mage_slayer"):
        bits.append("disadvantage: Mage Slayer (DND-F40)")
    spell = str(held(t)).replace("_", " ")
    return (f"{t.name} concentrates on {spell}: damage makes it save Con, DC 10 or half the damage"
            + (f" ({'; '.join(bits)})" if bits else "") + f"; a failure ends the spell ({RULE})")


def cast_note(a, spell: str, readied: bool = False) -> str | None:
    """The cast (or ready) preview's line: the spell needs concentration, and which one it ends."""
    if not readied and not is_concentration(spell):
        return None
    old = held(a)
    held_ = "held until the trigger (DND-20)" if readied else f"held until broken ({RULE})"
    return "concentration: " + (f"ends the concentration on {old.replace('_', ' ')}; " if old else "") + held_


def panel_row(a) -> str:
    return f"Concentrating on {str(held(a)).replace('_', ' ')}"


CONCENTRATION.provide(incapacitated)
