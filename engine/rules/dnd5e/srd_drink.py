"""SRD-48 The vampire's Bite: "Melee Weapon Attack: +9 to hit, reach 5 ft., one willing creature, or a creature that
is grappled by the vampire, incapacitated, or restrained. Hit: 7 (1d6 + 4) piercing damage plus 10 (3d6) necrotic
damage. The target's hit point maximum is reduced by an amount equal to the necrotic damage taken, and the vampire
regains hit points equal to that amount. The reduction lasts until the target finishes a long rest. The target dies
if this effect reduces its hit point maximum to 0. A humanoid slain in this way and then buried in the ground rises
the following night as a vampire spawn under the vampire's control." (the vampire spawn's without the last sentence)

The weapon table's ``drink`` = {rises_as} (srd_blocks.weapon; ``rises_as`` only where the block writes it): the
attack is refused on any other target (a foe neither grappled by the biter, incapacitated nor restrained; a willing
creature is one of its own side, as SRD-23's kiss reads it); after the hit's damage the target's maximum drops by the
necrotic damage it took (SRD-23's ``drain``: dead at 0) and the biter regains as much (DND-02's heal). A humanoid slain
so is recorded as rising (``rises`` event, the sheet's ``rises_as``): the night after a burial is beyond a fight.
"""

from __future__ import annotations

from engine.rules.core import Illegal
from engine.rules.dnd5e import conditions, damage, srd_riders, srd_traits, text

RULE = "SRD-48"


def refusal(rs, a, w: dict, t) -> Illegal | None:
    """Why ``a`` may not bite ``t`` with ``w`` ("one willing creature, or a creature that is grappled by the vampire,
    incapacitated, or restrained"), or None."""
    if t.side == a.side or a.id in t.conditions.get("grappled", []) or t.has("restrained") or _charmed(a, t) \
            or conditions.incapacitated(rs, t):
        return None
    return Illegal(f"{a.name}'s {w['name']} takes one willing creature, or a creature that is grappled by it, "
                   f"incapacitated, or restrained: {t.name} is none of these", RULE, "target")


def _charmed(a, t) -> bool:
    """SRD-65: the vampire's Charm: "it is a willing target for the vampire's bite attack"."""
    return any(h["by"] == a.id and h["feature"] == "Charm" for h in t.data.get("srd_charms") or ())


def _necrotic_taken(session, a, t) -> int:
    total = 0
    for e in reversed(getattr(session, "_sink", None) or []):
        if e.get("type") == "attack" and e.get("who") == a.id:
            break
        if e.get("type") == "damage" and e.get("who") == t.id and e.get("damage_type") == "necrotic":
            total += int(e["amount"])
    return total


def after_hit(rs, session, a, t, w: dict) -> None:
    """The maximum reduced by the necrotic damage taken, the biter healed as much; a humanoid slain so rises."""
    if w.get("drink") is None:
        return
    amount = _necrotic_taken(session, a, t)
    if amount <= 0:
        return
    was_dead = t.dead
    if not was_dead:
        srd_riders.drain(rs, session, a, t, amount)
    if not a.dead:
        damage.heal(rs, session, a, amount, RULE)
    rises = w["drink"].get("rises_as")
    if rises and t.dead and not was_dead and (t.data.get("creature_type") or "humanoid") == "humanoid":
        t.data["rises_as"] = {"as": rises, "under": a.id}
        session.emit({"type": "rises", "who": t.id, "as": rises, "under": a.id,
                      "when": "the following night, once buried in the ground", "rule": RULE})


srd_traits.AFTER_EXTRA.append(after_hit)          # SRD-48, after the Bite's necrotic damage
text.EVENT_LINES.update({"rises": text._did(lambda s, e: f"will rise as a {e['as']} ({e['when']})")})
