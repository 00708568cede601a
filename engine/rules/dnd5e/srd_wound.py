"""What two hits do after their save (the weapon's ``on_hit`` ``rider``, read by srd_hits_text.py), played after
SRD-13's save (``srd_traits.ON_HIT_RIDERS``):

- SRD-46 the infernal wound (the horned devil's Tail, the bearded devil's Glaive): "If the target is a creature other
  than an undead or a construct, it must succeed on a DC 17 Constitution saving throw or lose 10 (3d6) hit points at
  the start of each of its turns due to an infernal wound. Each time the devil hits the wounded target with this
  attack, the damage dealt by the wound increases by 10 (3d6). Any creature can take an action to stanch the wound
  with a successful DC 12 Wisdom (Medicine) check. The wound also closes if the target receives magical healing." --
  an undead or a construct is asked no save; a failed save opens the wound (the sheet's ``infernal_wounds``: {by,
  weapon, dice, stanch_dc}, a ``wounded`` event); a hit by the same devil's same attack on a target it wounded asks
  no save and adds the dice; at the start of each of the target's turns it loses the dice's hit points (dealt as
  untyped damage: no resistance applies, and 0 HP is dying as any loss); ``stanch`` (actions/srd_stanch.py) closes
  it on a Medicine check; healing by a spell (DND-21, SPL-01), a potion (DND-25) or a unicorn's touch (SRD-35)
  closes it (a Healer's kit, Regeneration or a GM's heal do not: they are not magic).
- SRD-47 petrification (the cockatrice's Bite): "... the target must succeed on a DC 11 Constitution saving throw
  against being magically petrified. On a failed save, the creature begins to turn to stone and is restrained. It
  must repeat the saving throw at the end of its next turn. On a success, the effect ends. On a failure, the creature
  is petrified for 24 hours." -- SRD-13's failed save restrains it; the sheet's ``petrifying`` {by, dc, ability,
  armed} is armed when its next turn starts and at that turn's end it saves again (Magic Resistance gives advantage:
  "against being magically petrified"): a success ends the restraint, a failure petrifies it (24 hours outlast the
  fight) in place of the restraint.
"""

from __future__ import annotations

from engine.rules.dnd5e import conditions, damage, srd_traits, text
from engine.rules.dnd5e.srd_sheet import dice_parts, has
from engine.rules.dnd5e.turns import TURN_END, TURN_START

WOUND = "SRD-46"
PETRIFY = "SRD-47"
#: the healing that is magic: a spell (DND-21, SPL-01), a potion of healing (DND-25), the unicorn's Healing Touch
MAGICAL_HEALING = ("DND-21", "SPL-01", "DND-25", "SRD-35")


def _wound_of(t, a, w) -> dict | None:
    return next((x for x in t.data.get("infernal_wounds") or () if x["by"] == a.id and x["weapon"] == w["name"]), None)


def wound_before_save(rs, session, a, t, w) -> bool:
    """"other than an undead or a construct": no save; "Each time the devil hits the wounded target with this attack,
    the damage dealt by the wound increases": the wound grows, no save."""
    r = w["on_hit"]["rider"]
    if r["kind"] != "wound":
        return False
    if t.data.get("creature_type") in r["spares"]:
        return True
    x = _wound_of(t, a, w)
    if x is None:
        return False
    x["dice"].append(r["more"])
    session.emit({"type": "wounded", "who": t.id, "by": a.id, "dice": "+".join(x["dice"]), "grows": True,
                  "rule": WOUND})
    return True


def rider(rs, session, a, t, w, saved: bool, dropped: bool) -> None:  # noqa: ARG001  (ON_HIT_RIDERS' signature)
    r = w["on_hit"]["rider"]
    if saved or t.dead:
        return
    if r["kind"] == "wound":
        t.data.setdefault("infernal_wounds", []).append({"by": a.id, "weapon": w["name"], "dice": [r["dice"]],
                                                         "stanch_dc": r["stanch_dc"]})
        session.emit({"type": "wounded", "who": t.id, "by": a.id, "dice": r["dice"], "rule": WOUND})
    elif r["kind"] == "petrify" and a.id in t.conditions.get("restrained", ()):
        oh = w["on_hit"]
        t.data["petrifying"] = {"by": a.id, "dc": oh["dc"], "ability": oh["ability"], "armed": False,
                                "weapon": w["name"]}
        session.emit({"type": "petrifying", "who": t.id, "by": a.id, "rule": PETRIFY})


@TURN_START.rule("SRD-46")
def infernal_wound(rs, session, x):
    """"lose 10 (3d6) hit points at the start of each of its turns due to an infernal wound"."""
    for wd in list(x.data.get("infernal_wounds") or ()):
        if x.dead:
            return
        total = 0
        for d in wd["dice"]:
            n, s, bonus = dice_parts(d)
            total += sum(session.roll("wound", s, n, who=wd["by"], rule=WOUND)) + bonus
        rs.apply_damage(session, x, total, "untyped", wd["by"], WOUND)


def close_wounds(session, t, why: str) -> None:
    if t.data.pop("infernal_wounds", None):
        session.emit({"type": "wound_closes", "who": t.id, "why": why, "rule": WOUND})


def healed(rs, session, t, rule: str) -> None:  # noqa: ARG001  (HEALED's signature)
    """"The wound also closes if the target receives magical healing"."""
    if t.data.get("infernal_wounds") and rule in MAGICAL_HEALING:
        close_wounds(session, t, f"magical healing ({rule})")


def stanch(rs, session, a, t) -> bool:
    """"Any creature can take an action to stanch the wound with a successful DC 12 Wisdom (Medicine) check"."""
    dc = max(x["stanch_dc"] for x in t.data["infernal_wounds"])
    total = conditions.check_roll(rs, session, a, "medicine", "check", WOUND, f"stanch {t.name}'s infernal wound")
    ok = total >= dc
    session.emit({"type": "stanch", "who": a.id, "target": t.id, "dc": dc, "total": total, "success": ok,
                  "rule": WOUND})
    if ok:
        close_wounds(session, t, f"{a.name} stanched it")
    return ok


@TURN_START.rule("SRD-47")
def petrification_arms(rs, session, x):
    """"at the end of its next turn": the turn that starts now."""
    p = x.data.get("petrifying")
    if p:
        p["armed"] = True


def _drop(rs, session, t, cond: str, by: str, rule: str) -> None:
    srcs = t.conditions.get(cond)
    if srcs is None or by not in srcs:
        return
    if len(set(srcs)) > 1:
        srcs.remove(by)
    else:
        conditions.remove_condition(rs, session, t, cond, rule)


@TURN_END.rule("SRD-47")
def petrification_save(rs, session, x):
    """"It must repeat the saving throw at the end of its next turn. On a success, the effect ends. On a failure, the
    creature is petrified for 24 hours.\""""
    p = x.data.get("petrifying")
    if not p or not p["armed"] or x.dead:
        return
    x.data.pop("petrifying")
    src = session.state.actors.get(p["by"])
    ok = conditions.saving_throw(rs, session, x, p["ability"], p["dc"], src, PETRIFY, p["weapon"],
                                 advantage="Magic Resistance (SRD-10)" if has(x, "magic resistance") else None)
    session.emit({"type": "petrifying", "who": x.id, "by": p["by"], "ended": True, "petrified": not ok,
                  "rule": PETRIFY})
    if not ok:
        conditions.add_condition(rs, session, x, "petrified", PETRIFY, source=p["by"])
    _drop(rs, session, x, "restrained", p["by"], PETRIFY)


srd_traits.BEFORE_SAVE.append(wound_before_save)          # SRD-46: a wound that grows, a creature spared
srd_traits.ON_HIT_RIDERS.append(rider)                    # SRD-46, SRD-47: after the failed save
damage.HEALED.append(healed)                              # SRD-46: magical healing closes the wound
text.EVENT_LINES.update({
    "wounded": text._did(lambda s, e: f"has an infernal wound{' that grows' if e.get('grows') else ''}: it loses "
                                      f"{e['dice']} hit points at the start of each of its turns"),
    "wound_closes": text._did(lambda s, e: f"no longer bleeds from its infernal wound ({e['why']})"),
    "stanch": text._did(lambda s, e: f"{'stanches' if e['success'] else 'fails to stanch'} the infernal wound "
                                     f"(Medicine {e['total']} against DC {e['dc']})"),
    "petrifying": text._did(lambda s, e: ("is petrified" if e.get("petrified") else "no longer turns to stone")
                            if e.get("ended") else "begins to turn to stone"),
})
