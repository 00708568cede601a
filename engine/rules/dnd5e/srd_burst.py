"""SRD-18 Death Burst: "When the mephit dies, it explodes in a burst of jagged ice. Each creature within 5 ft. of it
must make a DC 10 Dexterity saving throw, taking 4 (1d8) slashing damage on a failed save, or half as much damage on
a successful one." (the dust mephit's: "or be blinded for 1 minute. A blinded creature can repeat the saving throw on
each of its turns, ending the effect on itself on a success").

The sheet's ``death_burst`` (srd_blocks.death_burst): the save as a save action's (SRD-12) around the creature. On
the damage module's ``DEATH`` hook: when the creature dies (not when it drops to 0 HP and is dying: the text says
"dies"), every other living creature in the radius, allies too, saves; one damage roll; half on a success where
written; the condition on a failure, its repeated save at the end of each of its turns. A Dexterity save gets the
cover the rules grant from the burst's centre (DND-32, as a breath's).

SRD-108 the balor's Death Throes: "When the balor dies, it explodes, and each creature within 30 feet of it must make
a DC 20 Dexterity saving throw, taking 70 (20d6) fire damage on a failed save, or half as much damage on a successful
one. The explosion ignites flammable objects in that area that aren't being worn or carried, and it destroys the
balor's weapons." -- the same explosion (the sheet's ``death_burst`` with ``throes``), then its weapons destroyed.
"""

from __future__ import annotations

from engine.rules.dnd5e import attacks, conditions
from engine.rules.dnd5e.damage import DEATH
from engine.rules.dnd5e import text
from engine.rules.dnd5e.data import CONDITION_RULE, WEAPONS
from engine.rules.dnd5e.srd_sheet import dice_parts

RULE, THROES = "SRD-18", "SRD-108"

text.EVENT_LINES.update({
    "weapons_destroyed": text._did(lambda s, e: f"is destroyed with its weapons ({', '.join(e['weapons'])})"),
})


@DEATH.rule(RULE)
def death_burst(rs, session, a):
    """When ``a`` dies, its Death Burst: each creature within the radius saves against the block's DC."""
    b = a.data.get("death_burst")
    if not b or b.get("throes"):
        return
    explode(rs, session, a, b, RULE, "Death Burst")


@DEATH.rule(THROES)
def death_throes(rs, session, a):
    """SRD-108 the balor's Death Throes: its explosion (the burst's save around it, DC 20, 20d6 fire, half on a
    success; a Dexterity save with its cover), then "it destroys the balor's weapons": its weapon tables give way to
    an unarmed strike (a ``weapons_destroyed`` event). "The explosion ignites flammable objects in that area that
    aren't being worn or carried": nothing here burns but a creature (SRD-56's fire): no object is changed."""
    b = a.data.get("death_burst")
    if not b or not b.get("throes"):
        return
    explode(rs, session, a, b, THROES, "Death Throes")
    gone = [w["name"] for w in a.data["weapons"] if w["name"] != "unarmed"]
    a.data["weapons"] = [dict(WEAPONS["unarmed"])]
    session.emit({"type": "weapons_destroyed", "who": a.id, "weapons": gone, "rule": THROES})


def explode(rs, session, a, b: dict, rule: str, name: str) -> None:
    """The save around ``a`` (``b``: the sheet's ``death_burst``): every other living creature in the radius (found
    with the spells' area code, in 3D), one damage roll, half on a success where written, the condition on a failure
    with its repeated save; a Dexterity save with the cover DND-32 grants from ``a``."""
    targets = [t for t in attacks.area_targets(rs, session, a, {"area": b["area"]}, a.pos, None) if t != a.id]
    session.emit({"type": "death_burst", "who": a.id, "targets": targets, "rule": rule})
    rolled = []
    for d in b.get("damage", ()):
        n, s, bonus = dice_parts(d["dice"])
        rolled.append((sum(session.roll("damage", s, n, who=a.id, rule=rule)) + bonus if n else bonus, d["type"]))
    for tid in targets:
        t = session.state.actors[tid]
        if t.dead:
            continue
        cov = attacks.cover(rs, session, a, t).level if b["ability"] == "dex" else "none"
        ok = conditions.saving_throw(rs, session, t, b["ability"], b["dc"], a, rule, name, cover_level=cov)
        for amount, dtype in rolled:
            amt = amount if not ok else (amount // 2 if b.get("half") else 0)
            if amt and not t.dead:
                rs.apply_damage(session, t, amt, dtype, a.id, rule)
        cond = b.get("condition")
        if not ok and cond in CONDITION_RULE and not t.dead:
            conditions.add_condition(rs, session, t, cond, CONDITION_RULE[cond], source=a.id)
            if b.get("repeat_save") and cond in t.conditions:
                t.data.setdefault("repeat_saves", {})[cond] = {"save": b["ability"], "dc": b["dc"],
                                                               "spell": name, "rule": rule}
