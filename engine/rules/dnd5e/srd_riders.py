"""What a hit's save does beyond damage and a condition (the weapon's ``on_hit`` ``rider``, read by
engine/rules/dnd5e/srd_rider_text.py), played after SRD-13's save and its damage (``srd_traits.ON_HIT_RIDERS``):

- SRD-22 "If the poison damage reduces the target to 0 hit points, the target is stable but poisoned for 1 hour,
  even after regaining hit points, and is paralyzed while poisoned in this way." -- a target the save's poison damage
  takes to 0 HP (and that does not die of it: a monster at 0 under ``monsters_die_at_0`` is dead) is stable (no death
  saves) and poisoned and paralyzed; healing wakes it (DND-02) but leaves both (an hour outlasts any fight; the
  rules know no cure for the poison). A failed save alone no longer paralyzes (the old reading of the block);
- SRD-23 "The target must succeed on a DC 10 Constitution saving throw or its hit point maximum is reduced by an
  amount equal to the damage taken. ... The target dies if this effect reduces its hit point maximum to 0." -- on a
  failed save the target's max HP drops by the damage the hit dealt it (its damage events, after resistances and
  temporary HP as dealt), its HP to at most the new maximum, and it dies at 0 (a long rest or a greater restoration
  is beyond a fight);
- SRD-24 "If the target is a creature that has 190 hit points or fewer, it must succeed on a DC 15 Constitution
  saving throw or die." -- on a failed save a target with that many HP or fewer, after the hit's damage, dies.
"""

from __future__ import annotations

from engine.rules.dnd5e import conditions, damage, srd_curses, srd_traits, text
from engine.rules.dnd5e.data import CONDITION_RULE


def _hit_damage(session, a, t, since: str = "attack", rules=("DND-16", "SRD-02")) -> int:
    """The damage the hit (or the save action: ``since = "creature_action"``) just dealt ``t``: its damage events
    since ``a``'s attack."""
    total = 0
    for e in reversed(getattr(session, "_sink", None) or []):
        if e.get("type") == since and e.get("who") == a.id:
            break
        if e.get("type") == "damage" and e.get("who") == t.id and e.get("rule") in rules:
            total += int(e["amount"])
    return total


def poison_at_zero(rs, session, a, t) -> None:
    """SRD-22: stable, poisoned and paralyzed."""
    t.data["stable"] = True
    session.emit({"type": "stable", "who": t.id, "cause": "poisoned at 0 hit points", "rule": "SRD-22"})
    for cond in ("poisoned", "paralyzed"):
        if not t.dead:
            conditions.add_condition(rs, session, t, cond, CONDITION_RULE.get(cond, "SRD-22"), source=a.id)


def drain(rs, session, a, t, amount: int | None = None) -> None:
    """SRD-23: the hit point maximum reduced by the damage taken (the hit's, or ``amount``); dead at 0."""
    amount = _hit_damage(session, a, t) if amount is None else amount
    if amount <= 0:
        return
    t.max_hp = max(0, t.max_hp - amount)
    t.hp = min(t.hp, t.max_hp)
    session.emit({"type": "max_hp_reduced", "who": t.id, "by": amount, "max_hp": t.max_hp, "source": a.id,
                  "rule": "SRD-23"})
    if t.max_hp == 0:
        damage.die(rs, session, t, "its hit point maximum is reduced to 0", "SRD-23")


def save_drain(rs, session, a, t) -> None:
    """SRD-23 on a save action: "The target's hit point maximum is reduced by an amount equal to the damage taken"
    (the succubus' Draining Kiss: whether it saved or not, the damage it took)."""
    if not t.dead:
        drain(rs, session, a, t, _hit_damage(session, a, t, "creature_action", ("SRD-12",)))


def put_to_sleep(rs, session, a, t, rule: str = "SRD-25", deep: bool = False) -> None:
    """SRD-25: unconscious and ``asleep`` (who put it to sleep); ``deep``: damage does not wake it (the couatl's
    "Another creature can use an action to shake the target awake", and nothing else)."""
    if t.dead:
        return
    conditions.add_condition(rs, session, t, "unconscious", rule, source=a.id)
    if t.has("unconscious"):
        t.data["asleep"] = a.id
        if deep:
            t.data["asleep_deep"] = True
        session.emit({"type": "asleep", "who": t.id, "by": a.id, "rule": rule})


def wake(rs, session, t, why: str, rule: str = "SRD-25") -> None:
    """The sleep ends: no longer unconscious (a creature at 0 HP stays so: that is dying, not sleep)."""
    t.data.pop("asleep", None)
    t.data.pop("asleep_deep", None)
    session.emit({"type": "asleep", "who": t.id, "ended": True, "why": why, "rule": rule})
    if t.hp > 0:
        conditions.remove_condition(rs, session, t, "unconscious", rule)


def _failed_by(session, t) -> int:
    """How much ``t``'s last save missed its DC by (its save event in this step)."""
    for e in reversed(getattr(session, "_sink", None) or []):
        if e.get("type") == "save" and e.get("who") == t.id:
            return int(e["dc"]) - int(e.get("total", e["dc"]))
    return 0


def blight(session, a, t, held: str, no_heal: bool, each_turn: dict | None) -> None:
    """SRD-29: what lasts while ``t`` is ``held`` (a condition) by ``a`` (srd_blight.py)."""
    t.data["srd_blight"] = {"by": a.id, "while": held, "no_heal": no_heal, **({"each_turn": each_turn} if each_turn
                                                                             else {})}
    session.emit({"type": "blight", "who": t.id, "by": a.id, "while": held, "no_heal": no_heal,
                  **({"each_turn": f"{each_turn['dice']} {each_turn['type']}"} if each_turn else {}), "rule": "SRD-29"})


def rider(rs, session, a, t, w, saved: bool, dropped: bool) -> None:
    r = w["on_hit"]["rider"]
    if t.dead:
        return
    if r["kind"] == "poison_at_zero" and dropped:
        poison_at_zero(rs, session, a, t)
    elif r["kind"] == "drain" and not saved:
        drain(rs, session, a, t)
    elif r["kind"] == "sleep" and not saved and _failed_by(session, t) >= int(r.get("margin", 0)) \
            and t.has("poisoned"):
        put_to_sleep(rs, session, a, t, deep=not r.get("damage_wakes"))      # SRD-25: "while poisoned in this way"
    elif r["kind"] == "blight" and not saved and a.id in t.conditions.get("poisoned", []):
        blight(session, a, t, "poisoned", True, r.get("each_turn"))
    elif r["kind"] == "slay" and not saved and t.hp <= int(r["max_hp"]):
        damage.die(rs, session, t, f"it failed the save against the {w['name']} with {t.hp} hit points "
                                   f"({r['max_hp']} or fewer)", "SRD-24")


srd_traits.ON_HIT_RIDERS.append(rider)          # SRD-22..25, as its rider says
srd_traits.ON_HIT_RIDERS.append(srd_curses.rider)          # SRD-49: cursed on a failed save


text.EVENT_LINES.update({
    "max_hp_reduced": text._did(lambda s, e: f"has its hit point maximum reduced by {e['by']} to {e['max_hp']}"),
    "asleep": text._did(lambda s, e: f"wakes ({e['why']})" if e.get("ended") else "falls asleep"),
    "blight": text._did(lambda s, e: "no longer suffers its wound" if e.get("ended") else
                        f"while {e['while']} in this way" + (": can't regain hit points" if e.get("no_heal") else "")
                        + (f", takes {e['each_turn']} at the start of each of its turns" if e.get("each_turn") else "")),
    "heal_blocked": text._did(lambda s, e: f"regains no hit points: {e['why']}"),
    "alternative_damage": text._did(lambda s, e: f"deals {e['damage']} with its {e['weapon']} "
                                                 f"({e['when'].replace('_', ' ')})"),
    "weakened": text._did(lambda s, e: "is no longer weakened" if e.get("ended") else
                          f"is weakened by {e['feature']}: disadvantage on Strength attacks, checks and saves"),
    "wing_flight": text._did(lambda s, e: f"beats its wings and flies up to {e['budget_m']:g} m, to {e['to']}"),
})
