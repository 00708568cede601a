"""What a failed save leaves on a creature that is no condition of the SRD's list (SPL-11), held by the caster's
concentration and kept in the target's ``data["spell_marks"]`` (saved and replayed with the state):

* Faerie Fire: "Any attack roll against an affected creature ... has advantage if the attacker can see it" (an
  advantage source on ``advantage.ATTACK_SOURCES``).
* Bestow Curse: the curse "While cursed, the target has disadvantage on attack rolls against you" (the other three
  curses are named in the spell's ``omits``).
* Ray of Enfeeblement: half damage with weapon attacks that use Strength (``attacks.DEALT_DAMAGE``), a Con save
  at the end of each of its turns.
* Slow: speed halved, -2 to AC and Dex saves, no reactions, a Wis save at the end of each of its turns.
* Confusion: no reactions, a d10 each turn (``confused_behaviour``), a Wis save at the end of each of its turns.
* Resilient Sphere: no damage in or out of it (``damage.DAMAGE_MODIFIERS``), its speed halved.
* Compulsion: each turn it first walks all its movement the way the caster named, then saves (``compelled_moves``).
* Bane: a d4 subtracted from each attack roll and saving throw (``conditions.ROLL_ADJUST``).
* Calm Emotions: "You can suppress any effect causing a target to be charmed or frightened. When this spell ends,
  any suppressed effect resumes": the conditions and their sources are put aside in the mark and given back when
  the concentration ends.

The spell's data (``srd_spells.EFFECTS``) names its mark: ``mark``: ``"outlined"``, ``"cursed"``, ``"calmed"``, ``"baned"``, ``"enfeebled"``, ``"slowed"``, ``"confused"``, ``"sphered"`` or ``"compelled"``."""

from __future__ import annotations

from engine.rules import aerial
from engine.rules.core import Illegal
from engine.rules.dnd5e import advantage, attacks, concentration, conditions, damage, srd_air, srd_cast, srd_spells
from engine.rules.dnd5e import text, turns
from engine.world.scene import SIZES
from engine.rules.dnd5e.data import CONDITION_RULE

RULE = "SPL-11"

text.EVENT_LINES.update({
    "spell_mark": text._did(lambda s, e: (f"is no longer {e['mark']} ({e['spell']})" if e.get("ended") else
                                          f"is {e['mark']} by {e['spell']}")
                            + (f": {', '.join(e['suppressed'])} put aside" if e.get("suppressed") else "")
                            + (f": {', '.join(e['resumed'])} resume(s)" if e.get("resumed") else "")),
})

SUPPRESSED = ("charmed", "frightened")


def failed_save(rs, session, a, t, sp: dict, plan: dict) -> None:
    """``t`` failed the save of ``sp`` cast by ``a``: the spell's mark on it."""
    mark = sp["fx"].get("mark")
    if not mark or t.dead:
        return
    entry = {"spell": sp["id"], "mark": mark, "caster": a.id}
    ev = {"type": "spell_mark", "who": t.id, "spell": sp["id"], "mark": mark, "caster": a.id, "rule": RULE}
    if mark == "calmed":
        put = {c: list(t.conditions[c]) for c in SUPPRESSED if c in t.conditions}
        for c in put:
            conditions.remove_condition(rs, session, t, c, RULE)
        entry["suppressed"] = put
        ev["suppressed"] = sorted(put)
    entry["dc"] = srd_cast.caster_numbers(rs, a)[1]
    if sp["fx"].get("mark_repeat"):              # a save at the end of each of its turns ends it on the target
        entry["repeat"] = {"save": sp["fx"]["mark_repeat"], "dc": srd_cast.caster_numbers(rs, a)[1]}
    if mark == "slowed":
        t.data["reaction_used"] = True           # "it can't use reactions"
    if mark == "compelled":                      # "a direction that is horizontal to you": toward the cell named
        cell = session.world.cell_m
        me = srd_cast.body_centre(a, cell)
        x, y, z = plan["point"]
        dx, dy = (x + 0.5) * cell - me[0], (y + 0.5) * cell - me[1]
        h = (dx * dx + dy * dy) ** 0.5 or 1.0
        entry["direction"] = [round(dx / h, 4), round(dy / h, 4)]
    t.data.setdefault("spell_marks", []).append(entry)
    session.emit(ev)


srd_cast.ON_FAILED_SAVE.append(failed_save)


def marked(t, mark: str, caster: str | None = None) -> bool:
    return any(m["mark"] == mark and (caster is None or m["caster"] == caster) for m in t.data.get("spell_marks") or ())


@advantage.source(RULE)
def spell_marks(rs, session, a, t, plan, ctx):
    """Faerie Fire's outline (the attacker sees the target) and Bestow Curse's curse against its caster."""
    if marked(t, "outlined") and rs.sees(session, a, t):
        yield advantage.ADV, "the target is outlined by Faerie Fire"
    if marked(a, "cursed", t.id):
        yield advantage.DIS, f"the attacker is cursed by {t.name} (Bestow Curse)"


def bane_die(rs, session, a, what: str):
    """Bane: "Whenever a target that fails this saving throw makes an attack roll or a saving throw before the spell
    ends, the target must roll a d4 and subtract the number rolled"; Slow: "a -2 penalty to AC and dexterity saving
    throws"."""
    if marked(a, "slowed") and what in ("ac", "dex save"):
        yield {"source": "Slow", "value": -2, "rule": RULE}
    if marked(a, "baned") and what != "ac":
        (d,) = session.roll("bane", 4, who=a.id, rule=RULE, purpose=f"Bane: subtracted from the {what}")
        yield {"source": "Bane", "value": -d, "rule": RULE}


conditions.ROLL_ADJUST.append(bane_die)


def halved(rs, session, a, w, plan, amount: int) -> int:
    """Ray of Enfeeblement: "the target deals only half damage with weapon attacks that use Strength" (a weapon
    with ``to_hit``, a creature's, counts as Strength when melee and not finesse)."""
    if not marked(a, "enfeebled"):
        return amount
    s, d = conditions.ab(rs, a, "str"), conditions.ab(rs, a, "dex")
    props = w.get("properties") or ()
    strength = (s >= d) if "finesse" in props else ("ranged" not in props or "thrown" in props)
    if not strength:
        return amount
    session.emit({"type": "spell_mark", "who": a.id, "spell": "ray-of-enfeeblement", "mark": "enfeebled",
                  "halved": [amount, amount // 2], "caster": marks_of(a, "enfeebled")[0]["caster"], "rule": RULE})
    return amount // 2


attacks.DEALT_DAMAGE.append(halved)


def marks_of(t, mark: str) -> list[dict]:
    return [m for m in t.data.get("spell_marks") or () if m["mark"] == mark]


def speed_factor(a) -> float:
    """Slow: "An affected target's speed is halved"; Resilient Sphere: "roll the sphere at up to half the creature's
    speed"."""
    return 0.5 if marked(a, "slowed") or marked(a, "sphered") else 1.0


@damage.damage_modifier(RULE)
def resilient_sphere(rs, session, a, dmg):
    """Resilient Sphere: "a creature ... inside can't be damaged by attacks or effects originating from outside, nor
    can a creature inside the sphere damage anything outside it" (damage with a source creature, not itself)."""
    src = session.state.actors.get(dmg["source"]) if dmg["source"] else None
    if src is None or src.id == a.id or dmg["amount"] <= 0:
        return
    if marked(a, "sphered"):
        dmg["amount"] = 0
        dmg["notes"].append(f"inside a Resilient Sphere: nothing from outside reaches it ({RULE})")
    elif marked(src, "sphered"):
        dmg["amount"] = 0
        dmg["notes"].append(f"{src.name} is inside a Resilient Sphere: nothing it does reaches outside ({RULE})")


@turns.TURN_START.rule(RULE)
def slowed_no_reaction(rs, session, a):
    """Slow, Confusion: no reactions (its reaction does not come back when its turn starts)."""
    if marked(a, "slowed") or marked(a, "confused"):
        a.data["reaction_used"] = True


CONFUSED = {1: "moves in a random direction", 2: "does nothing", 7: "attacks a creature in reach", 9: "acts normally"}


@turns.TURN_START.rule(RULE)
def confused_behaviour(rs, session, a):
    """Confusion's d10 at the start of each of its turns: 1 "uses all its movement to move in a random direction"
    and takes no action (the random move is not made: it stays, its movement spent); 2-6 no move and no action;
    7-8 its action a melee attack (its first melee weapon) against a creature in reach chosen by a die, or nothing
    when none is; 9-10 it acts normally."""
    if a.dead or not marked(a, "confused") or conditions.incapacitated(rs, a):
        return
    (d,) = session.roll("confusion", 10, who=a.id, rule=RULE, purpose="Confusion: how it behaves this turn")
    turn = session.state.turn
    key = max(k for k in CONFUSED if k <= d)
    ev = {"type": "confused", "who": a.id, "roll": d, "does": CONFUSED[key], "rule": RULE}
    if d <= 6:
        turn["moved_m"] += max(0.0, rs.movement_left(session, a, False))
        turn["action"] = turn["bonus"] = True
        session.emit(ev)
        return
    if d >= 9:
        session.emit(ev)
        return
    turn["action"] = True
    pool = []
    for w in a.data.get("weapons", ()):
        if "ranged" in (w.get("properties") or ()):
            continue
        for o in session.state.actors.values():
            if o.id == a.id or o.dead:
                continue
            try:
                plan = attacks.attack_plan(rs, session, a, o, w, False)
            except Illegal:
                continue
            if plan["melee"]:                  # in its reach (a thrown spear is not thrown)
                pool.append((o, plan))
        break
    if not pool:
        session.emit({**ev, "does": "does nothing: no creature in reach"})
        return
    (i,) = session.roll("confusion_target", len(pool), who=a.id, rule=RULE, purpose="Confusion: whom it attacks")
    o, plan = pool[i - 1]
    session.emit({**ev, "target": o.id})
    attacks.resolve_attack(rs, session, a, o, plan, {})


@turns.TURN_START.rule(RULE)
def compelled_moves(rs, session, a):
    """Compulsion: "Each affected target must use as much of its movement as possible to move in that direction on
    its next turn ... After moving in this way, it can make another wisdom saving throw to try to end the effect":
    it moves first, straight along the direction (horizontal; stopped by a wall, the map's edge or a body, off an
    edge it falls, AIR-12), then saves."""
    ms = marks_of(a, "compelled")
    if a.dead or not ms or conditions.incapacitated(rs, a):
        return
    m = ms[0]
    left = rs.movement_left(session, a, a.flying)
    if left <= 0:
        return
    start = srd_air.Push.slide(session, a, (m["direction"][0], m["direction"][1], 0.0), left)
    session.state.turn["moved_m"] += left
    session.emit({"type": "compelled", "who": a.id, "from": list(start), "to": list(a.pos), "metres": left,
                  "caster": m["caster"], "rule": RULE})
    aerial.fall_if_unsupported(session, a, "AIR-12", "walked off an edge (Compulsion)")
    if not a.dead and conditions.saving_throw(rs, session, a, "wis", m["dc"], None, RULE, "save against compulsion"):
        a.data["spell_marks"] = [x for x in a.data["spell_marks"] if x is not m]
        session.emit({"type": "spell_mark", "who": a.id, "spell": m["spell"], "mark": "compelled",
                      "caster": m["caster"], "ended": True, "rule": RULE})


@turns.TURN_END.rule(RULE)
def mark_repeat_saves(rs, session, a):
    """Ray of Enfeeblement, Slow: "At the end of each of the target's turns, it can make a ... saving throw against
    the spell. On a success, the spell ends" (on it)."""
    for m in [m for m in a.data.get("spell_marks") or () if m.get("repeat")]:
        if a.dead:
            return
        r = m["repeat"]
        if conditions.saving_throw(rs, session, a, r["save"], r["dc"], None, RULE, f"end of turn save against {m['spell']}"):
            a.data["spell_marks"] = [x for x in a.data["spell_marks"] if x is not m]
            session.emit({"type": "spell_mark", "who": a.id, "spell": m["spell"], "mark": m["mark"],
                          "caster": m["caster"], "ended": True, "rule": RULE})


def ends(rs, session, caster, held) -> None:
    """The concentration ended: its marks go; Calm Emotions' suppressed conditions resume."""
    for tid in held["targets"]:
        t = session.state.actors.get(tid)
        marks = t.data.get("spell_marks") if t is not None else None
        if not marks:
            continue
        mine = [m for m in marks if m["spell"] == held["spell"] and m["caster"] == caster.id]
        if not mine:
            continue
        t.data["spell_marks"] = [m for m in marks if m not in mine]
        for m in mine:
            back = []
            for c, srcs in (m.get("suppressed") or {}).items():
                if t.dead:
                    break
                for src in srcs or [None]:
                    conditions.add_condition(rs, session, t, c, CONDITION_RULE[c], source=src)
                back.append(c)
            session.emit({"type": "spell_mark", "who": t.id, "spell": m["spell"], "mark": m["mark"],
                          "caster": caster.id, "ended": True, **({"resumed": back} if back else {}), "rule": RULE})


concentration.ON_END.append(ends)


# -- Enlarge/Reduce (SPL-13): the body in 3D -------------------------------------------------------------------------
text.EVENT_LINES["resized"] = text._did(
    lambda s, e: (f"is {e['size']} again ({e['spell']} ends)" if e.get("ended") else
                  f"becomes {e['size']}: {e['footprint']} cell(s) across, {e['height_layers']} layer(s) tall")
    if e.get("footprint") is not None or e.get("ended") else f"has no room to grow ({e['spell']})")


def _set_size(t, size: str) -> None:
    t.size = size
    t.footprint, t.height_layers, t.eye_m = SIZES[size]


def resize(rs, session, a, t, option: str, spell_id: str) -> None:
    """One size category up (enlarge) or down (reduce), the body of that size from the scene's table, where it
    stands (its corner cell kept); growing where the body does not fit (a wall, a ceiling, a creature) it keeps its
    size: "If there isn't enough room ... the creature ... attains the maximum possible size in the space available"
    (one step is the only step, so none). The weapons' 1d4 goes with the mark."""
    order = list(SIZES)
    was = t.size
    new = order[max(0, min(len(order) - 1, order.index(was) + (1 if option == "enlarge" else -1)))]
    old = (t.size, t.footprint, t.height_layers, t.eye_m)
    _set_size(t, new)
    if not aerial.body_fits(session, t, t.x, t.y, t.layer) or aerial.body_in_the_way(session, t, t.pos) is not None:
        t.size, t.footprint, t.height_layers, t.eye_m = old
        session.emit({"type": "resized", "who": t.id, "spell": spell_id, "size": was, "footprint": None,
                      "rule": RULE13})
        new = was
    else:
        session.emit({"type": "resized", "who": t.id, "spell": spell_id, "size": new, "footprint": t.footprint,
                      "height_layers": t.height_layers, "rule": RULE13})
    t.data.setdefault("spell_marks", []).append({"spell": spell_id, "mark": option + "d", "caster": a.id, "was": was})


RULE13 = "SPL-13"


class EnlargeReduce:
    """SRD: "You cause a creature ... to grow larger or smaller for the duration ... If the target is unwilling, it
    can make a constitution saving throw". ``option = "enlarge"`` or ``"reduce"`` (default: enlarge a creature of
    the caster's side, reduce another)."""
    rule = RULE13

    @staticmethod
    def check(rs, session, a, act, sp, plan):
        t = srd_cast.single(rs, session, a, act, {**sp, "kind": "effect"})
        option = act.get("option") or ("enlarge" if t.side == a.side else "reduce")
        if option not in ("enlarge", "reduce"):
            raise Illegal(f"Enlarge/Reduce's option is enlarge or reduce, not {option!r}", RULE13, "option")
        plan.update({"targets": [t.id], "option": option})
        return plan

    @staticmethod
    def candidates(rs, session, a, ctx, sp, base):
        return [{**base, "target": t.id} for t in ctx.friends + [a] + ctx.foes if not marks_of(t, "enlarged")
                and not marks_of(t, "reduced")]

    @staticmethod
    def apply(rs, session, a, plan):
        sp = srd_spells.spell(session, plan["spell"])
        srd_cast.spend(rs, session, a, sp, plan)
        session.emit({"type": "cast", "who": a.id, "spell": plan["spell"], "targets": plan["targets"],
                      "option": plan["option"], **({"slot": plan["slot"]} if plan.get("slot") else {}),
                      "rule": RULE13})
        concentration.begin(rs, session, a, plan["spell"], plan["targets"])
        t = session.state.actors[plan["targets"][0]]
        if t.dead:
            return
        if t.side != a.side:         # unwilling: a Constitution save
            _, dc, _ = srd_cast.caster_numbers(rs, a)
            if conditions.saving_throw(rs, session, t, "con", dc, a, "DND-21", sp["id"], sole_target=True):
                return
        resize(rs, session, a, t, plan["option"], sp["id"])


def size_die(rs, session, a, w, plan, amount: int) -> int:
    """Enlarged: its weapons "deal 1d4 extra damage"; reduced: "1d4 less damage (this can't reduce the damage below
    1)"."""
    for m in marks_of(a, "enlarged") + marks_of(a, "reduced"):
        (d,) = session.roll("enlarge_reduce", 4, who=a.id, rule=RULE13, purpose=f"{m['mark']}: the weapon's 1d4")
        amount = amount + d if m["mark"] == "enlarged" else max(1, amount - d)
    return amount


attacks.DEALT_DAMAGE.append(size_die)


def size_ends(rs, session, caster, held) -> None:
    """Its size back when the concentration ends (before ``ends`` drops the marks)."""
    for tid in held["targets"]:
        t = session.state.actors.get(tid)
        if t is None:
            continue
        for m in t.data.get("spell_marks") or ():
            if m["spell"] == held["spell"] and m["caster"] == caster.id and "was" in m:
                if t.size != m["was"]:
                    _set_size(t, m["was"])
                    session.emit({"type": "resized", "who": t.id, "spell": m["spell"], "size": t.size,
                                  "ended": True, "rule": RULE13})


srd_cast.EFFECTS["enlarge_reduce"] = EnlargeReduce
concentration.ON_END.insert(concentration.ON_END.index(ends), size_ends)
