"""A 5e attack's roll to hit as the rules settled it (:class:`Roll`, made by ``attacks._to_hit``) and the ``attack``
event it makes (:func:`attack_event`): apart from attacks.py, which holds the steps that roll and apply it."""

from __future__ import annotations

from engine.rules.core import Actor
from engine.rules.dnd5e import feats_data


class Roll:
    """An attack's roll to hit as the rules settle it (``attacks._to_hit``): the act (the attacker's choices filled in),
    advantage, the AC with cover, the bonus and its sources, the d20 and what it made."""

    __slots__ = ("act", "own", "adv", "dis", "cover_bonus", "ac", "bonus", "mods", "r", "total", "crit", "hit",
                 "srcs", "sup", "luck", "luck_cancelled")
    act: dict
    own: bool
    adv: list
    dis: list
    cover_bonus: int
    ac: int
    bonus: int
    mods: list
    r: int
    total: int
    crit: bool
    hit: bool
    srcs: list
    sup: int | None
    luck: int | None
    luck_cancelled: str | None


def attack_event(a: Actor, t: Actor, w, plan, ro: Roll) -> dict:
    """The ``attack`` event: the roll, its sources, the cover, and the feats that played a part."""
    adv, dis, mods, luck, luck_cancelled = ro.adv, ro.dis, ro.mods, ro.luck, ro.luck_cancelled
    ev = {"type": "attack", "who": a.id, "target": t.id, "weapon": w["name"], "roll": ro.r, "bonus": ro.bonus,
          "total": ro.total, "sources": ro.srcs, "ac": t.data["ac"], "cover": plan["cover"],
          "cover_bonus": ro.cover_bonus, "hit": ro.hit, "critical": ro.crit and ro.hit,
          "advantage": [s for s, _ in adv], "disadvantage": [s for s, _ in dis],
          "rules": sorted({rid for _, rid in adv + dis} | {"DND-16", "DND-32", "AIR-17"}),
          "melee": plan["melee"], "kind": plan.get("kind", "action")}
    if plan.get("cover_by"):
        ev["cover_by"] = plan["cover_by"]
    lucky = luck is not None or luck_cancelled is not None
    if plan.get("cover_ignored") or mods or lucky or plan.get("feats_used") or plan.get("bonus_from"):
        fu = sorted(set(plan.get("feats_used", []) + [m["feat"] for m in mods]
                        + ([plan["cover_ignored"]["feat"]] if plan.get("cover_ignored") else [])
                        + (["lucky"] if lucky else [])
                        + ([plan["bonus_from"]] if plan.get("bonus_from") not in (None, "two_weapon") else [])))
        ev["feats"] = fu
        ev["rules"] = sorted(set(ev["rules"]) | {feats_data.FEAT_ID[f] for f in fu})
        if plan.get("cover_ignored"):
            ev["cover_ignored"] = plan["cover_ignored"]
        if mods:
            ev["modifiers"] = mods
        if luck is not None:
            ev["luck"] = luck
        if luck_cancelled is not None:
            ev["luck_cancelled_by"] = luck_cancelled
    if plan.get("bonus_from"):
        ev["bonus_from"] = plan["bonus_from"]
    if plan["melee"]:
        ev["reach_rule"] = "AIR-05"
    return ev
