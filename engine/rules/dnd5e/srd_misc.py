"""Two flyers' Multiattacks as the SRD 5.1 writes them (issue 44; the sheet keys: srd_misc_text.py; the catalogue:
srd_catalogue_misc.py):

* SRD-105 the oni: "The oni makes two attacks, either with its claws or its glaive." with "Claw (Oni Form Only)" --
  the combinations name the attack by its full name (two claws or two glaive attacks, as the drider's "either with
  its longsword or its longbow" is read), and an attack "(... Form Only)" is refused while the creature is in
  another form its Change Shape took (SRD-37: a Small or Medium humanoid, a Large giant).
* SRD-107 the chimera: "The chimera makes three attacks: one with its bite, one with its horns, and one with its
  claws. When its fire breath is available, it can use the breath in place of its bite or horns." -- the breath
  (``creature_action``, its recharge SRD-05) is one of the Attack action's attacks: first (it takes the action, two
  attacks are left) or after an attack, as long as a combination with the breath still fits (the block's own:
  breath, horns, claws or bite, breath, claws).
* SRD-109 the balor's Fire Aura touched: "A creature that touches the balor ... takes 10 (3d6) fire damage." -- a
  creature whose grapple or shove of it succeeds (its hands on it) takes the aura's dice as fire damage from the
  balor (a melee hit on it is SRD-36's).
"""

from __future__ import annotations

from engine.rules.core import Illegal
from engine.rules.dnd5e import attacks, srd_multiattack, text
from engine.rules.dnd5e.srd_misc_text import FORM_ONLY
from engine.rules.dnd5e.srd_sheet import dice_parts

FORM_ONLY_RULE, IN_PLACE_RULE, TOUCH_RULE = "SRD-105", "SRD-107", "SRD-109"

text.EVENT_LINES.update({
    "aura_touch": text._did(lambda s, e: f"touches {e['target']} ({e['how']}): its Fire Aura burns"),
    "in_place_of": text._did(lambda s, e: f"uses {e['feature']} in place of its {' or '.join(e['replaces'])} "
                                          f"({e['attacks_left']} attack(s) left)"),
})


def form_only_refusal(a, w: dict) -> Illegal | None:
    """SRD-105: "Claw (Oni Form Only)" -- refused while ``a`` has another form (SRD-37's ``true_form`` is kept until
    it takes its true form back)."""
    m = FORM_ONLY.search(w["name"])
    if not m or a.data.get("true_form") is None:
        return None
    return Illegal(f"{a.name}'s {w['name']}: only in its {m.group(1).lower()} form (its true form); it is in its "
                   f"{a.size} form (Change Shape)", FORM_ONLY_RULE, "weapon")


def in_place_refusal(rs, session, a, f: dict) -> Illegal | None:
    """SRD-107: why the breath may not take the place of an attack of the Attack action now, or None -- an attack
    left (the action unused, or attacks left of it), and a combination that still fits with the breath."""
    turn = session.state.turn
    if turn["attacks_left"] <= 0 and turn["action"]:
        return Illegal(f"{a.name} has no attack left this turn (its action is used): {f['name']} takes the place of "
                       f"its {' or '.join(f['in_place_of'])}", IN_PLACE_RULE, "feature")
    refused = srd_multiattack.refusal(a, {"name": f["name"]}, turn)
    if refused is not None:
        return Illegal(refused.reason + f" ({f['name']} in place of its {' or '.join(f['in_place_of'])})",
                       IN_PLACE_RULE, "feature")
    return None


def spend_in_place(rs, session, a, f: dict) -> None:
    """SRD-107: the breath is one attack of the Attack action (the action taken when it is the first), counted
    against the combinations as the attacks are (SRD-01)."""
    attacks.use_attack(rs, session, a)
    srd_multiattack.made(a, {"name": f["name"]}, session.state.turn)
    session.emit({"type": "in_place_of", "who": a.id, "feature": f["name"], "replaces": list(f["in_place_of"]),
                  "attacks_left": session.state.turn["attacks_left"], "rule": IN_PLACE_RULE})


def touch_burns(rs, session, a, t, how: str) -> None:
    """SRD-109: ``a`` laid hands on ``t`` (``how``: its grapple or shove succeeded); a ``t`` with a Fire Aura (SRD-36's
    ``fire_aura``) burns it: the aura's dice, rolled for this touch, as fire damage from ``t``."""
    fa = (t.data.get("srd_features") or {}).get("fire_aura")
    if fa is None or a.dead or t.dead:
        return
    session.emit({"type": "aura_touch", "who": a.id, "target": t.id, "how": how, "rule": TOUCH_RULE})
    n, s, b = dice_parts(fa["dice"])
    amount = (sum(session.roll("damage", s, n, who=t.id, rule=TOUCH_RULE)) if n else 0) + b
    rs.apply_damage(session, a, amount, fa["type"], t.id, TOUCH_RULE)
