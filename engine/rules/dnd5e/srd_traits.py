"""The SRD creatures' mechanics as the SRD 5.1 writes them (rule IDs SRD-*; engine/rules/dnd5e/srd_catalogue.py):
a hit's added damage (SRD-02), resistance to nonmagical weapons (SRD-03), condition immunities (SRD-04), Flyby
(SRD-07), Hover (SRD-08), Pack Tactics (SRD-09); condition immunities, Magic Resistance (SRD-10) and Keen Sight
(SRD-11) are read in srd_sheet.py (the modules that ask for them sit below this one). Each reads the
sheet's keys (srd_sheet: ``condition_immunities``, ``hover``, ``srd_traits``), so any 5e character may have them.
"""

from __future__ import annotations

from engine.rules.dnd5e import conditions, srd_curses
from engine.rules.dnd5e.advantage import ADV, source
from engine.rules.dnd5e.common import dice_spec
from engine.rules.dnd5e.data import CONDITION_RULE
from engine.rules.dnd5e.damage import damage_modifier
from engine.rules.dnd5e.srd_sheet import has
from engine.world.geometry import engaged

PHYSICAL = ("bludgeoning", "piercing", "slashing")


def extra_damage(rs, session, a, t, w: dict, crit: bool) -> None:
    """SRD-02 "Hit: 17 (2d10 + 6) piercing damage plus 3 (1d6) fire damage": each added damage rolled (doubled on a
    critical, DND-16) and dealt as its own type, after the weapon's (its own resistances apply to it)."""
    for e in w.get("extra") or ():
        if t.dead:
            return
        n, s = dice_spec(e["damage"])
        n *= int(w.get("crit_dice", 2)) if crit else 1          # SRD-21: three times on the balor's crit
        rolls = session.roll("extra_damage", s, n, who=a.id, rule="SRD-02") if n else []
        rs.apply_damage(session, t, max(0, sum(rolls) + int(e.get("bonus", 0))), e["type"], a.id, "SRD-02",
                        critical=crit, weapon=w)
    for fn in AFTER_EXTRA:              # SRD-48 "reduced by ... the necrotic damage taken", SRD-56 "it ignites"
        fn(rs, session, a, t, w)


#: what follows a hit's added damage: ``fn(rs, session, a, t, w)``; engine/rules/dnd5e/srd_drink.py, srd_burning.py
AFTER_EXTRA: list = []


#: fn(rs, session, attacker, weapon) raising Illegal where the weapon cannot attack now (srd_auras.py: SRD-42's spikes)
ATTACK_CHECKS: list = []
#: fn(rs, session, attacker, target) raising Illegal where the attacker cannot attack that target (srd_planes.py: SRD-94)
TARGET_CHECKS: list = []


def attack_checks(rs, session, a, w: dict, t=None) -> None:
    for fn in ATTACK_CHECKS:
        fn(rs, session, a, w)
    if t is not None:
        for fn in TARGET_CHECKS:
            fn(rs, session, a, t)


#: what a hit's save does beyond damage and a condition: ``fn(rs, session, a, t, w, saved, dropped)`` after the save
#: and its damage (``dropped``: that damage took it to 0 HP); engine/rules/dnd5e/srd_riders.py
ON_HIT_RIDERS: list = []
#: before a hit's save: ``fn(rs, session, a, t, w) -> True`` where the hit asks no save (srd_wound.py, SRD-46: a wound
#: already open grows instead, an undead is spared)
BEFORE_SAVE: list = []


def on_hit_save(rs, session, a, t, w: dict) -> None:
    """SRD-13 "Hit: ... and the target must succeed on a DC 13 Constitution saving throw or be poisoned for 1
    minute. The target can repeat the saving throw at the end of each of its turns": after the hit's damage, the
    target saves against the block's DC; a failure takes the damage (half on a success where written) and the
    condition, with its repeated save where written."""
    oh = w.get("on_hit")
    if not oh or t.dead or srd_curses.spared(oh, t):          # SRD-49: "If the target is a humanoid"
        return
    if oh.get("rider") and any(fn(rs, session, a, t, w) for fn in BEFORE_SAVE):
        return
    ok = conditions.saving_throw(rs, session, t, oh["ability"], oh["dc"], a, "SRD-13", w["name"])
    up = t.hp > 0
    for d in oh.get("damage", ()):
        n, s = dice_spec(d["dice"].split("+")[0].split("-")[0])
        bonus = int(d["dice"][len(d["dice"].split("+")[0].split("-")[0]):] or 0)
        total = max(0, sum(session.roll("damage", s, n, who=a.id, rule="SRD-13")) + bonus) if n else bonus
        amt = total if not ok else (total // 2 if oh.get("half") else 0)
        if amt and not t.dead:
            rs.apply_damage(session, t, amt, d["type"], a.id, "SRD-13")
    dropped = up and t.hp == 0
    cond = oh.get("condition")
    if not ok and cond and not t.dead:
        conditions.add_condition(rs, session, t, cond, CONDITION_RULE.get(cond, "SRD-13"), source=a.id)
        if oh.get("repeat_save") and cond in t.conditions:
            t.data.setdefault("repeat_saves", {})[cond] = {"save": oh["ability"], "dc": oh["dc"], "spell": w["name"],
                                                           "rule": "SRD-13"}
    if oh.get("rider"):
        for fn in ON_HIT_RIDERS:          # srd_riders.py (SRD-22..25)
            fn(rs, session, a, t, w, ok, dropped)


@damage_modifier("SRD-03")
def nonmagical_weapons(rs, session, a, dmg):
    """SRD-03 "resistance to bludgeoning, piercing, and slashing from nonmagical weapons": a weapon attack's
    physical damage whose weapon is not magical (no ``magical`` property; the sandbox's weapons are mundane unless
    a scene says so) is resisted (or ignored, for an immunity) as the type itself."""
    w = dmg.get("weapon")
    if w is None or dmg["type"] not in PHYSICAL or "magical" in (w.get("properties") or ()):
        return
    key = f"nonmagical_{dmg['type']}"
    if key in a.data["immune"]:
        dmg["amount"] = 0
        dmg["notes"].append(f"immune to {dmg['type']} from nonmagical weapons (SRD-03)")
    elif key in a.data["resist"] and dmg["type"] not in dmg["resist"]:
        dmg["resist"].add(dmg["type"])
        dmg["notes"].append(f"resistant to {dmg['type']} from nonmagical weapons (SRD-03)")


def no_flyby_opportunity(a) -> bool:
    """SRD-07 Flyby: "The creature doesn't provoke opportunity attacks when it flies out of an enemy's reach." --
    while it is flying (a walking move out of reach provokes as usual)."""
    return has(a, "flyby") and a.flying


def hover_holds(session, a, why):  # noqa: ARG001  (the session: what AIR-10's other readings ask)
    """SRD-08 Hover, against AIR-10 (a flyer falls when it becomes prone, stunned, restrained, speed 0 ...). The SRD
    (Movement, Flying Movement): "If a flying creature is knocked prone, has its speed reduced to 0, or is otherwise
    deprived of the ability to move, the creature falls, unless it has the ability to hover". Decision: a creature
    with hover does not fall for those (prone, grappled, restrained, stunned, paralyzed, petrified, frozen, speed
    0, incapacitated); it still falls when it dies or drops to 0 HP (dying is not "deprived of the ability to move"
    but of consciousness: the house rule AIR-10 names Dying and Unconscious apart, and they stand). ``why``: the
    reason AIR-10 found; returns it, or None when Hover keeps it aloft."""
    if why is None or not a.data.get("hover") or a.dead or a.hp == 0 or a.has("unconscious"):
        return why
    return None       # a query (previews ask it too): no event; the log shows no flight_lost and no fall


@source("SRD-09")
def pack_tactics(rs, session, a, t, plan, ctx):
    """SRD-09 Pack Tactics: "advantage on an attack roll against a creature if at least one of the [creature]'s
    allies is within 5 feet of the creature and the ally isn't incapacitated" (within 1.5 m in 3D, AIR-05)."""
    if not has(a, "pack tactics"):
        return
    for o in session.state.actors.values():
        if o.id in (a.id, t.id) or o.dead or o.side != a.side or conditions.incapacitated(rs, o):
            continue
        if engaged(o.body(), t.body()):
            yield ADV, f"Pack Tactics: {o.name} is within 1.5 m of the target", "SRD-09"
            return
