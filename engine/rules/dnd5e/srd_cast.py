"""Casting an SRD spell from its data (SPL-01): the slot (upcasting), the turn's economy, the targets (one creature,
or an area in 3D through ``areas.py`` with the cover of its point of origin), and the resolution: an attack roll,
a save (half or nothing on a success), automatic damage, healing, conditions with their repeat save, cantrip
scaling by character level, concentration (DND-21). The air spells' own effects register in ``EFFECTS`` (srd_air.py).

``magic.Cast`` hands a spell whose data says ``srd`` to :func:`check` and :func:`apply`."""

from __future__ import annotations

from engine.rules.core import Illegal
from engine.rules.dnd5e import areas, attacks, common, concentration, conditions, damage, feats, gear, srd_casters
from engine.rules.dnd5e.data import CONDITION_RULE, SPELLS
from engine.rules.dnd5e.srd_spells import LEGACY, catalogue, dice_at, dice_terms, spell
from engine.world.geometry import distance_m, engaged

RULE = "SPL-01"
#: fn(rs, session, caster, plan, sp) after a spell is resolved (the lasting areas begin: srd_lasting.py)
AFTER_CAST: list = []
#: fn(rs, session, caster, target, sp, plan) when a target fails the spell's save or its spell attack hits (its
#: marks: srd_marks.py)
ON_FAILED_SAVE: list = []
#: fn(rs, session, caster, plan, sp): a spell of a longer casting time begins (srd_long.py, SPL-12)
BEGIN_LONG: list = []
#: the air spells' effects: name -> object with ``check(rs, session, a, act, sp, plan) -> plan`` and
#: ``apply(rs, session, a, plan)`` (srd_air.py registers them)
EFFECTS: dict = {}


def known_name(a, name: str) -> str | None:
    """The name ``a`` lists for the spell ``name`` (an SRD index or today's name, either way), or None."""
    spells = a.data["spells"]
    if name in spells:
        return name
    alt = LEGACY.get(name) or next((k for k, v in LEGACY.items() if v == name), None)
    return alt if alt in spells else None


def refuse_unknown(a, name: str) -> None:
    """``cast`` names no spell ``a`` can cast: which rule says no (raises Illegal)."""
    if name not in SPELLS:
        e = catalogue().get(name)
        if e is not None:
            raise Illegal(f"{e['name']} ({name}) is not castable in Aerie: {e['why']}", RULE, "spell")
        raise Illegal(f"unknown spell {name!r}: `aerie compendium spells` lists the SRD's by index", RULE, "spell")
    raise Illegal(f"{a.name} does not know {name}; its spells: {', '.join(a.data['spells']) or 'none'}", "DND-21", "spell")


def caster_numbers(rs, a) -> tuple[int, int, int]:
    """(ability modifier, spell save DC, spell attack bonus)."""
    cmod = conditions.ab(rs, a, a.data["casting"])
    written = srd_casters.numbers(a, cmod)          # SRD-50: a creature's DC and attack bonus as written
    if written is not None:
        return cmod, written[0], written[1]
    return cmod, 8 + a.data["prof"] + cmod, cmod + a.data["prof"]


def _slot(a, sp: dict, act: dict) -> int | None:
    if sp["level"] == 0:
        if act.get("slot") not in (None, 0):
            raise Illegal(f"{sp['name']} is a cantrip: it takes no slot", RULE, "slot")
        return None
    slot = act.get("slot") or sp["level"]
    if not sp["level"] <= slot <= 9:
        raise Illegal(f"{sp['name']} is level {sp['level']}: cast it with a slot of level {sp['level']}..9", RULE, "slot")
    slots = a.data["spell_slots"]
    if slots is not None and slots.get(str(slot), 0) <= 0:
        raise Illegal(f"{a.name} has no level {slot} spell slot left", "DND-21", "slot" if act.get("slot") else "spell")
    return slot


def _economy(rs, session, a, sp: dict) -> None:
    turn = session.state.turn
    if sp["time"] == "bonus":
        if turn["bonus"]:
            raise Illegal(f"{a.name} has already used its bonus action", "DND-12")
        if turn["action_spell"]:
            raise Illegal("after casting a spell with the action, the bonus-action spell is not allowed this turn", "DND-14")
    elif sp["time"] == "reaction":
        if a.data["reaction_used"]:
            raise Illegal(f"{a.name} has already used its reaction", "DND-28")
    else:
        common.need_action(rs, a, session, sp["name"], "DND-21")
        if turn["bonus_spell"] and sp["level"] > 0:
            raise Illegal("after a bonus-action spell the only other spell this turn may be a cantrip", "DND-14", "spell")


def check(rs, session, a, act: dict, name: str) -> dict:
    """The plan of casting the SRD spell ``name`` (raises Illegal naming the rule)."""
    sp = spell(session, name)
    if "armor" in a.data and gear.untrained(a):
        raise Illegal(f"{a.name} wears armour it is not proficient with: it cannot cast spells", "DND-21", "spell")
    _economy(rs, session, a, sp)
    fx = EFFECTS.get(sp["effect"]) if sp["kind"] == "effect" else None
    if fx is not None and hasattr(fx, "no_slot") and fx.no_slot(a, act):
        plan = {"spell": name, "srd": True, "slot": None}       # a held spell's own action (SPL-16's Dismissal)
    elif srd_casters.innate_slot(a, sp, act, name):     # SRD-51: innate, at will or N/day: no slot
        plan = {"spell": name, "srd": True, "slot": None, "innate": True}
    else:
        plan = {"spell": name, "srd": True, "slot": _slot(a, sp, act)}
    if sp["kind"] == "effect":
        return EFFECTS[sp["effect"]].check(rs, session, a, act, sp, plan)
    return targets(rs, session, a, act, sp, plan)


def body_centre(a, cell_m: float) -> tuple[float, float, float]:
    """A body's centre in metres (its footprint's centre, half its height up)."""
    return ((a.x + a.footprint / 2) * cell_m, (a.y + a.footprint / 2) * cell_m, a.layer + a.height_layers / 2)


def area_of(session, a, sp: dict, act: dict) -> tuple[areas.Area, tuple | None]:
    """The spell's area in 3D and its point of origin in grid units (None: the caster's eye). Raises Illegal: no
    point, a point beyond the range."""
    cell = session.world.cell_m
    spec = sp["area"]
    me = body_centre(a, cell)
    aim = None
    if act.get("at") is not None:
        x, y, z = act["at"]
        aim = areas.cell_centre(x, y, z, cell)
    elif act.get("target"):
        aim = body_centre(session.actor(act["target"], "target"), cell)
    if sp["self_range"]:
        if spec["shape"] == "sphere" or spec["shape"] == "cylinder":
            return areas.make(spec, me), None
        if aim is None:
            raise Illegal(f"{sp['name']} needs a direction: at = [x, y, layer] or a target", RULE, "at")
        if spec["shape"] == "cube":           # the caster on one face: the cube's centre half an edge away
            d = areas.make({"shape": "line", "size_m": 1}, me, aim).direction
            h = spec["size_m"] / 2 + a.footprint * cell / 2
            return areas.make(spec, (me[0] + d[0] * h, me[1] + d[1] * h, me[2] + d[2] * h)), None
        return areas.make(spec, me, aim), None
    if aim is None:
        raise Illegal(f"{sp['name']} needs a point (at = [x, y, layer]) or a target", RULE, "at")
    d = sum((p - q) ** 2 for p, q in zip(aim, me)) ** 0.5
    if d > sp["range_m"] + 1e-9:
        raise Illegal(f"{[round(c, 2) for c in aim]} m is {d:.1f} m away, beyond {sp['name']}'s range of "
                      f"{sp['range_m']:g} m", RULE, "at")
    origin = aim
    if spec["shape"] == "cylinder":
        origin = (aim[0], aim[1], aim[2] - 0.5)          # its base on the floor of the aimed cell
    if spec["shape"] in ("cone", "line"):                # a cone or line from a point in range, toward the target
        return areas.make(spec, me, aim), None
    ar = areas.make(spec, origin)
    return ar, areas.origin_cell(ar, cell)


def caught(rs, session, a, sp: dict, ar: areas.Area, eye) -> list[str]:
    """The living creatures in the area that its point of origin reaches (no total cover from it)."""
    cell = session.world.cell_m
    out = []
    for o in session.state.actors.values():
        if o.dead or (o.id == a.id and sp["self_range"]):
            continue
        if sp["fx"].get("foes_only") and not conditions.hostile(rs, a, o):
            continue
        if not areas.catches(ar, o, cell):
            continue
        if o.id != a.id and attacks.total_cover(rs, session, a, o, eye=eye):
            continue
        out.append(o.id)
    return out


def single(rs, session, a, act: dict, sp: dict):
    """The one creature a targeted spell strikes: in range, not behind total cover, not one that charms the caster."""
    if not act.get("target"):
        if sp["kind"] == "heal" and sp["self_range"] or sp["fx"].get("self"):
            return a
        raise Illegal(f"{sp['name']} needs a target", RULE, "target")
    t = common.living_target(rs, session, a, act["target"])
    rng = sp["range_m"] if not sp["self_range"] else 1.5
    if sp["kind"] == "attack" and feats.has(a, "spell_sniper") and rng > 1.5:
        rng *= 2                                          # DND-F22
    d = distance_m(a.body(), t.body(), session.world.cell_m)
    if d > rng + 1e-9 and not (rng <= 1.5 and engaged(a.body(), t.body())):
        raise Illegal(f"{t.name} is {d:.1f} m away, beyond {sp['name']}'s range of {rng:g} m", "DND-21", "target")
    if t.id != a.id and attacks.total_cover(rs, session, a, t):
        raise Illegal(f"{t.name} has total cover from {a.name}", "DND-32", "target")
    if sp["kind"] in ("attack", "save", "auto") and t.id in a.conditions.get("charmed", []):
        raise Illegal(f"{a.name} is charmed by {t.name} and cannot harm it", "DND-54", "target")
    return t


def targets(rs, session, a, act: dict, sp: dict, plan: dict) -> dict:
    if sp.get("area"):
        ar, eye = area_of(session, a, sp, act)
        plan["area"] = {"shape": ar.shape, "size_m": ar.size_m, "origin": [round(c, 3) for c in ar.origin],
                        **({"direction": [round(c, 4) for c in ar.direction]} if ar.shape in ("cone", "line") else {})}
        plan["targets"] = caught(rs, session, a, sp, ar, eye)
        plan["eye"] = list(eye) if eye is not None else None
        if act.get("at") is not None:
            plan["point"] = list(act["at"])
        return plan
    if sp["fx"].get("needs_at"):
        if act.get("at") is None:
            raise Illegal(f"{sp['name']} needs a direction: at = [x, y, layer]", RULE, "at")
        plan["point"] = list(act["at"])
    n = sp["fx"].get("targets_n") or (len(session.state.actors) if sp["fx"].get("targets_any") else None)
    if n:                                     # Bane: one more creature a slot above 1st
        n += sp["fx"].get("targets_per_slot", 0) * ((plan.get("slot") or sp["level"]) - sp["level"])
    if n and act.get("targets"):              # "up to six creatures of your choice" (Mass Healing Word...)
        ids = list(act["targets"])
        if len(ids) > n or len(set(ids)) != len(ids):
            raise Illegal(f"{sp['name']} takes up to {n} different creatures, not {ids}", RULE, "targets")
        plan["targets"] = [single(rs, session, a, {**act, "target": t}, sp).id for t in ids]
        return plan
    plan["targets"] = [single(rs, session, a, act, sp).id]
    return plan


def spend(rs, session, a, sp: dict, plan: dict) -> None:
    """The turn's action / bonus action / reaction and the slot."""
    turn = session.state.turn
    if sp["time"] == "bonus":
        turn["bonus"] = True
        turn["bonus_spell"] = True
    elif sp["time"] == "reaction":
        a.data["reaction_used"] = True
    else:
        turn["action"] = True
        if sp["level"] > 0:
            turn["action_spell"] = True
    if plan.get("slot") and a.data["spell_slots"] is not None:
        a.data["spell_slots"][str(plan["slot"])] -= 1
    if plan.get("innate"):
        srd_casters.spend_innate(session, a, plan["spell"])        # SRD-51


def apply(rs, session, a, plan: dict) -> None:
    sp = spell(session, plan["spell"])
    if sp["time"] == "long" and not plan.get("long_done"):
        for fn in BEGIN_LONG:               # its action each turn, concentration, the slot at the end (SPL-12)
            fn(rs, session, a, plan, sp)
        return
    if sp["kind"] == "effect":              # the air spells spend, announce and resolve themselves (srd_air.py)
        EFFECTS[sp["effect"]].apply(rs, session, a, plan)
        return
    spend(rs, session, a, sp, plan)
    session.emit({"type": "cast", "who": a.id, "spell": plan["spell"], "targets": plan.get("targets", []),
                  **({"slot": plan["slot"]} if plan.get("slot") else {}),
                  **({"at": plan["point"]} if "point" in plan else {}),
                  **({"area": plan["area"]} if "area" in plan else {}), "rule": RULE})
    if sp.get("concentration"):
        concentration.begin(rs, session, a, plan["spell"], plan.get("targets", []))
    feats.mage_slayer(rs, session, a)              # DND-F40
    if a.dead or a.hp == 0:
        return
    if sp.get("concentration") and concentration.held(a) != plan["spell"]:
        return
    resolve(rs, session, a, plan)
    for fn in AFTER_CAST:
        fn(rs, session, a, plan, sp)


def roll(session, a, text: str, name: str, cmod: int, rule: str = RULE, adept: bool = False) -> int:
    """The dice of ``text`` ("3d4 + 3", "1d8 + MOD") rolled; ``adept``: Elemental Adept's 1s count as 2 (DND-F02)."""
    terms, flat, mod = dice_terms(text)
    total = flat + (cmod if mod else 0)
    for n, s in terms:
        total += sum(feats.adept_dice(session.roll(name, s, n, who=a.id, rule=rule), adept))
    return total


def dice(a, sp: dict, table: dict, plan: dict) -> str | None:
    return dice_at(table.get("dice", {}), table.get("by") or "slot", plan.get("slot") or sp["level"],
                   srd_casters.caster_level(a))          # SRD-53: a creature's spellcaster level


def resolve(rs, session, a, plan: dict) -> None:
    """The spell's effects on its targets."""
    sp = spell(session, plan["spell"])
    if sp["kind"] == "effect":
        EFFECTS[sp["effect"]].apply(rs, session, a, plan)
        return
    if sp["fx"].get("at_cast") is False:
        return                              # it acts on a creature whose turn starts in it (srd_lasting.py)
    cmod, dc, to_hit = caster_numbers(rs, a)
    dc = sp["fx"].get("dc", dc)             # a DC the spell sets (Contact Other Plane's 15)
    kind = sp["kind"]
    text = dice(a, sp, sp["damage"], plan) if sp.get("damage") else None
    ea = bool(sp.get("type")) and sp.get("type") in a.data.get("elements", ()) and feats.has(a, "elemental_adept")
    if ea:                  # DND-F02: its element's resistance ignored (damage.py reads the turn's note)
        session.state.turn["elemental_adept"] = {"caster": a.id, "type": sp["type"]}
    try:
        _resolve(rs, session, a, plan, sp, kind, text, cmod, dc, to_hit, ea)
    finally:
        session.state.turn.pop("elemental_adept", None)


def _resolve(rs, session, a, plan, sp, kind, text, cmod, dc, to_hit, ea) -> None:
    if kind == "save" and text:
        dmg = roll(session, a, text, "damage", cmod, adept=ea)
    for tid in plan["targets"]:
        t = session.state.actors[tid]
        if t.dead:
            continue
        if kind == "attack":
            for _ in range(rays(a, sp, plan)):
                if t.dead:
                    break
                spell_attack(rs, session, a, t, sp, text or "0d1", to_hit)
        elif kind == "auto":
            rs.apply_damage(session, t, roll(session, a, text or "0", "damage", cmod, adept=ea), sp["type"], a.id, RULE)
        elif kind == "heal":
            damage.heal(rs, session, t, roll(session, a, dice(a, sp, sp["heal"], plan) or "0", "heal", cmod), RULE)
        elif kind == "save":
            save_one(rs, session, a, t, sp, plan, dc, dmg if text else 0)


def rays(a, sp: dict, plan: dict) -> int:
    fx = sp["fx"]
    if fx.get("beams_by_level"):
        lvl = a.data["level"]
        return 1 + (lvl >= 5) + (lvl >= 11) + (lvl >= 17)
    if fx.get("rays"):
        return fx["rays"] + fx.get("rays_per_slot", 0) * ((plan.get("slot") or sp["level"]) - sp["level"])
    return 1


def spell_attack(rs, session, a, t, sp: dict, text: str, to_hit: int) -> None:
    """One spell attack roll (``attacks.attack_plan`` / ``resolve_attack`` with the spell as a weapon)."""
    terms, flat, mod = dice_terms(text)
    n, s = terms[0] if terms else (0, 1)
    # a melee spell attack by touch is a melee attack; one made where the spell appears in range (Spiritual Weapon,
    # Faithful Hound) reaches as far as the range (rolled as a ranged spell attack)
    melee = sp["attack"] == "melee" and sp["range_m"] <= 1.5
    rng = max(sp["range_m"], 1.5) * (2 if feats.has(a, "spell_sniper") and not melee else 1)
    w = {"name": sp["id"], "damage": f"{n}d{s}", "type": sp["type"], "properties": [] if melee else ["ranged"],
         "range": None if melee else [rng, rng], "to_hit": to_hit, "spell": True}
    p = attacks.attack_plan(rs, session, a, t, w, False)
    p["kind"] = "spell"
    w = dict(w)
    cmod = conditions.ab(rs, a, a.data["casting"])
    w["damage_bonus"] = -attacks.dmg_mod(rs, a, w, melee) + flat + (cmod if mod else 0)
    p["weapon"] = w
    struck = attacks.resolve_attack(rs, session, a, t, p, {})
    if struck is not None and not struck.dead:
        for fn in ON_FAILED_SAVE:           # a spell attack's mark on a hit (Ray of Enfeeblement)
            fn(rs, session, a, struck, sp, {"targets": [struck.id]})


def save_one(rs, session, a, t, sp: dict, plan: dict, dc: int, dmg: int) -> None:
    eye = tuple(plan["eye"]) if plan.get("eye") else None
    cov = attacks.cover(rs, session, a, t, eye=eye).level if t.id != a.id else "none"
    # the save is a spell's (DND-21: Mage Slayer's advantage reads it)
    ok = conditions.saving_throw(rs, session, t, sp["save"], dc, a, "DND-21", sp["id"], cover_level=cov,
                                 sole_target=len(plan["targets"]) == 1)
    if dmg:
        amt = dmg if not ok else (dmg // 2 if sp["half"] else 0)
        if amt:
            rs.apply_damage(session, t, amt, sp["type"], a.id, RULE)
    if not ok and not t.dead:
        for c in sp["conditions"]:
            conditions.add_condition(rs, session, t, c, CONDITION_RULE[c], source=a.id)
            if sp["repeat_save"]:
                t.data.setdefault("repeat_saves", {})[c] = {"save": sp["save"], "dc": dc, "spell": sp["id"], "rule": RULE}
    if not ok and not t.dead:
        for fn in ON_FAILED_SAVE:
            fn(rs, session, a, t, sp, plan)
    if not ok and not t.dead and sp["fx"].get("push_m"):
        push(rs, session, a, t, sp["fx"]["push_m"])


def push(rs, session, a, t, metres: float) -> None:
    """Pushed ``metres`` straight away from the caster (``EFFECTS['push']`` when the air spells give one)."""
    fn = EFFECTS.get("push")
    if fn is not None:
        fn.apply_push(rs, session, a, t, metres)


def preview(rs, session, a, plan: dict) -> dict:
    sp = spell(session, plan["spell"])
    cmod, dc, to_hit = caster_numbers(rs, a)
    out = {"spell": plan["spell"], "kind": sp["kind"], "targets": plan.get("targets", []), "level": sp["level"],
           "casting_time": sp["time"], "rule": RULE}
    if plan.get("slot"):
        out["slot"] = plan["slot"]
    if "area" in plan:
        out["area"] = plan["area"]
    if sp.get("concentration"):
        out["concentration"] = concentration.cast_note(a, plan["spell"])
    if sp["kind"] == "save":
        out.update({"save": sp["save"], "dc": dc})
    elif sp["kind"] == "attack":
        out["to_hit_bonus"] = to_hit
    if sp.get("damage"):
        out["damage"] = dice(a, sp, sp["damage"], plan)
        out["type"] = sp["type"]
        out["expected_damage"] = expected(rs, session, a, sp, plan, out["damage"], dc, to_hit)
    return out


def mean_of(text: str, cmod: int) -> float:
    terms, flat, mod = dice_terms(text)
    return sum(n * (s + 1) / 2 for n, s in terms) + flat + (cmod if mod else 0)


def expected(rs, session, a, sp: dict, plan: dict, text: str | None, dc: int, to_hit: int) -> dict:
    """Per target the mean damage it takes (the simulate policies weigh it over everyone an area catches): a save's
    chance to fail from the target's own bonus (half the rest where the spell halves), an attack's chance to hit
    its AC (a 1 misses, a 20 hits), automatic damage whole."""
    if not text or sp["kind"] not in ("attack", "save", "auto"):
        return {}
    mean = mean_of(text, conditions.ab(rs, a, a.data["casting"]))
    out = {}
    for tid in plan.get("targets", []):
        t = session.state.actors[tid]
        if sp["kind"] == "save":
            bonus = conditions.ab(rs, t, sp["save"]) + (t.data["prof"] if sp["save"] in t.data.get("saves", ()) else 0)
            fail = min(1.0, max(0.0, (dc - 1 - bonus) / 20))
            out[tid] = round(mean * (fail + (1 - fail) * (0.5 if sp["half"] else 0)), 3)
        elif sp["kind"] == "attack":
            hit = min(0.95, max(0.05, (21 - (t.data["ac"] - to_hit)) / 20))
            out[tid] = round(mean * hit * rays(a, sp, plan), 3)
        else:
            out[tid] = round(mean, 3)
    return out


def candidates(rs, session, a, ctx, name: str) -> list[dict]:
    """The casts of ``name`` a listing offers: its economy allows it and a slot is left; each foe (an area aimed at
    it), each friend and itself for healing; the air spells' own (``EFFECTS[...].candidates``)."""
    sp = spell(session, name)
    turn = ctx.turn
    if sp["time"] == "reaction" or (turn["action"] if sp["time"] in ("action", "long") else turn["bonus"]):
        return []
    if not srd_casters.can_cast(a, sp, name):            # a slot of its level, or an innate use left (SRD-51)
        return []
    base = {"actor": a.id, "action": "cast", "spell": name}
    if sp["kind"] == "effect":
        fx = EFFECTS.get(sp["effect"])
        return fx.candidates(rs, session, a, ctx, sp, base) if fx is not None and hasattr(fx, "candidates") else []
    if sp.get("area") and sp["self_range"] and sp["area"]["shape"] in ("sphere", "cylinder"):
        return [base]
    if sp["kind"] == "heal":
        if sp["self_range"] or sp["fx"].get("self"):
            return [base]
        return [{**base, "target": t.id} for t in ctx.friends + [a]]
    if sp["fx"].get("needs_at"):             # Compulsion: each foe walked away from the caster
        return [{**base, "target": t.id, "at": [t.x, t.y, t.layer]} for t in ctx.foes]
    return [{**base, "target": t.id} for t in ctx.foes]


def legendary_cast(rs, session, a, opt: dict, points: int) -> bool:
    """SRD-52 "Cast a Spell (Costs 3 Actions). The sphinx casts a spell from its list of prepared spells, using a
    spell slot as normal." -- at the end of another creature's turn (SRD-15), outside its own turn's economy: the
    policy casts the spell of its list (a slot of the spell's level left, or a cantrip) whose expected damage over
    the foes it catches, less the friends it catches, is highest; nothing when none harms a foe. Returns whether
    it cast."""
    best = None
    _, dc, to_hit = caster_numbers(rs, a)
    foes = [o for o in session.state.actors.values() if not o.dead and o.hp > 0 and conditions.hostile(rs, a, o)]
    for name in a.data["spells"]:
        sp = spell(session, name)
        if (not sp.get("srd") or sp["kind"] not in ("attack", "save", "auto") or not sp.get("damage")
                or sp["time"] == "long" or not srd_casters.can_cast(a, sp, name)):
            continue
        for t in foes:
            act = {"spell": name, "target": t.id} if not sp.get("area") or sp["self_range"] else \
                {"spell": name, "at": [t.x, t.y, t.layer]}
            plan = {"spell": name, "srd": True, "slot": sp["level"] or None}
            if srd_casters.innate_uses(a, name) is not None:
                plan = {"spell": name, "srd": True, "slot": None, "innate": True}
            try:
                plan = targets(rs, session, a, act, sp, plan)
            except Illegal:
                continue
            exp = expected(rs, session, a, sp, plan, dice(a, sp, sp["damage"], plan), dc, to_hit)
            score = sum(v if conditions.hostile(rs, a, session.state.actors[k]) else -v for k, v in exp.items())
            if score > 0 and (best is None or score > best[0]):
                best = (score, sp, plan)
    if best is None:
        return False
    _, sp, plan = best
    a.data["legendary_points"] = points - opt["cost"]
    session.emit({"type": "legendary_action", "who": a.id, "option": opt["name"], "cost": opt["cost"],
                  "points_left": a.data["legendary_points"], "targets": plan["targets"], "rule": "SRD-52"})
    if plan.get("slot") and a.data["spell_slots"] is not None:
        a.data["spell_slots"][str(plan["slot"])] -= 1
    if plan.get("innate"):
        srd_casters.spend_innate(session, a, plan["spell"])
    session.emit({"type": "cast", "who": a.id, "spell": plan["spell"], "targets": plan.get("targets", []),
                  **({"slot": plan["slot"]} if plan.get("slot") else {}),
                  **({"at": plan["point"]} if "point" in plan else {}),
                  **({"area": plan["area"]} if "area" in plan else {}), "rule": "SRD-52"})
    if sp.get("concentration"):
        concentration.begin(rs, session, a, plan["spell"], plan.get("targets", []))
    resolve(rs, session, a, plan)
    for fn in AFTER_CAST:
        fn(rs, session, a, plan, sp)
    return True
