"""The SRD creatures' traits and non-attack actions of SRD-31..SRD-38, as the SRD 5.1 writes them (the sheet's
``srd_features``, engine/rules/dnd5e/srd_features.py; the catalogue: srd_catalogue.py):

* SRD-31 Incorporeal Movement: "The ghost can move through other creatures and objects as if they were difficult
  terrain. It takes 5 (1d10) force damage if it ends its turn inside an object." -- its path search
  (srd_through.py on engine/rules/pathing.py's ``THROUGH``) passes solid voxels and bodies, each node entered there costing double;
  when its turn ends with a voxel of its body solid, a d10 of force damage.
* SRD-32 Regeneration: "The oni regains 10 hit points at the start of its turn if it has at least 1 hit point." (the
  vampire's: "... If the vampire takes radiant damage ..., this trait doesn't function at the start of the vampire's
  next turn").
* SRD-33 Teleport: "The balor magically teleports ... up to 120 feet to an unoccupied space it can see."
* SRD-34 Invisibility: "The imp magically turns invisible until it attacks, or until its concentration ends (as if
  concentrating on a spell)"; "The stalker is invisible." (the sheet's ``invisible``).
* SRD-35 Healing Touch: "The deva touches another creature. The target magically regains 20 (4d8 + 2) hit points and
  is freed from any curse, disease, poison, blindness, or deafness." (3/Day).
* SRD-36 Fire Aura: "At the start of each of the balor's turns, each creature within 5 feet of it takes 10 (3d6) fire
  damage ... A creature that touches the balor or hits it with a melee attack while within 5 feet of it takes 10
  (3d6) fire damage."
* SRD-37 Shapechanger / Change Shape by size: "polymorph into a Small or Medium humanoid, or back into its true form.
  Without wings, the fiend loses its flying speed. ... It reverts to its true form if it dies."
* SRD-38 the legendary Move: "The vampire moves up to its speed without provoking opportunity attacks." (and the
  legendary Teleport, SRD-33): ``escape_to`` is their policy.
"""

from __future__ import annotations

from engine.rules import aerial
from engine.rules.core import Illegal
from engine.rules.dnd5e import attacks, concentration, conditions, damage, srd_exposure, text
from engine.rules.dnd5e.damage import DEATH, damage_modifier
from engine.rules.dnd5e.srd_features import RULES
from engine.rules.dnd5e.srd_sheet import dice_parts
from engine.rules.dnd5e.turns import TURN_END, TURN_START
from engine.rules.registry import cover_levels
from engine.world.cover import sight_one
from engine.world.scene import SIZES
from engine.world.geometry import distance_m, engaged

INVISIBILITY = "Invisibility (SRD-34)"        # the concentration's name: no spell of the spells' table

text.EVENT_LINES.update({
    "trait_action": text._did(lambda s, e: f"uses {e['feature']}"),
    "regeneration": text._did(lambda s, e: "regenerates" if not e.get("stopped") else
                              f"does not regenerate ({e['stopped']})"),
    "shape": text._did(lambda s, e: f"takes its {e['form'] if e['form'] != 'true' else 'true'} form ({e['size']})"),
    "curse_ends": text._did(lambda s, e: "is freed from its curse"),
    "fire_aura": text._did(lambda s, e: f"burns with its Fire Aura ({', '.join(e['targets']) or 'no one'})"),
})


def features(a) -> dict:
    return a.data.get("srd_features") or {}


def _roll(session, a, dice: str, rule: str, name: str = "damage") -> int:
    n, s, b = dice_parts(dice)
    return max(0, (sum(session.roll(name, s, n, who=a.id, rule=rule)) if n else 0) + b)


# -- SRD-31 Incorporeal Movement ------------------------------------------------------------------------------------

def incorporeal(session, a) -> bool:
    """Whether ``a`` moves through creatures and objects (its path search: srd_through.py)."""
    return "incorporeal" in features(a) and not a.dead


def inside_object(session, a) -> bool:
    w = session.world
    return any(w.is_solid(a.x + i, a.y + j, a.layer + k) for i in range(a.footprint) for j in range(a.footprint)
               for k in range(a.height_layers))


@TURN_END.rule("SRD-31")
def inside_an_object(rs, session, a):
    """"It takes 5 (1d10) force damage if it ends its turn inside an object.\""""
    inc = features(a).get("incorporeal")
    if inc is None or a.dead or not inside_object(session, a):
        return
    rs.apply_damage(session, a, _roll(session, a, inc.get("dice", "1d10"), "SRD-31"), "force", None, "SRD-31")


# -- SRD-32 Regeneration --------------------------------------------------------------------------------------------

@damage_modifier("SRD-32")
def regeneration_stopped(rs, session, a, dmg):
    """"If the vampire takes radiant damage ..., this trait doesn't function at the start of the vampire's next
    turn": noted on the sheet (the damage itself is not changed)."""
    rg = features(a).get("regeneration")
    if rg and dmg["type"] in rg.get("stopped_by", ()) and dmg["amount"] > 0:
        a.data["regeneration_stopped"] = dmg["type"]


@TURN_START.rule("SRD-32")
def regeneration(rs, session, a):
    """"regains 20 hit points at the start of its turn if it has at least 1 hit point" ; the vampire's "and isn't in
    sunlight or running water" (SRD-85: the scene's light, option running_water)."""
    rg = features(a).get("regeneration")
    if rg is None or a.dead:
        return
    stopped = a.data.pop("regeneration_stopped", None)
    if a.hp < 1:
        return
    if stopped:
        session.emit({"type": "regeneration", "who": a.id, "stopped": f"it took {stopped} damage", "rule": "SRD-32"})
        return
    if rg.get("sunlight"):          # SRD-85: "if it ... isn't in sunlight or running water"
        where = "sunlight" if srd_exposure.in_sunlight(rs, session, a) else (
            "running water" if srd_exposure.in_material(session, a, tuple(rs.opt("running_water"))) else None)
        if where:
            session.emit({"type": "regeneration", "who": a.id, "stopped": f"it is in {where}", "rule": "SRD-85"})
            return
    if a.hp < a.max_hp:
        damage.heal(rs, session, a, int(rg["hp"]), "SRD-32")


# -- SRD-36 Fire Aura -----------------------------------------------------------------------------------------------

def _aura(a):
    return features(a).get("fire_aura")


@TURN_START.rule("SRD-36")
def fire_aura(rs, session, a):
    """"At the start of each of the balor's turns, each creature within 5 feet of it takes 10 (3d6) fire damage"
    (one roll for all; within 5 feet: engaged, AIR-04)."""
    fa = _aura(a)
    if fa is None or a.dead:
        return
    near = [o for o in session.state.actors.values() if o.id != a.id and not o.dead and engaged(a.body(), o.body())]
    session.emit({"type": "fire_aura", "who": a.id, "targets": [o.id for o in near], "rule": "SRD-36"})
    if not near:
        return
    amount = _roll(session, a, fa["dice"], "SRD-36")
    for o in near:
        if not o.dead:
            rs.apply_damage(session, o, amount, fa["type"], a.id, "SRD-36")


def aura_burns_attacker(rs, session, a, t, plan, hit):
    """"A creature that ... hits it with a melee attack while within 5 feet of it takes 10 (3d6) fire damage.\""""
    fa = _aura(t)
    if fa is None or not hit or not plan.get("melee") or a.dead or t.dead or not engaged(a.body(), t.body()):
        return
    rs.apply_damage(session, a, _roll(session, t, fa["dice"], "SRD-36"), fa["type"], t.id, "SRD-36")


# -- the actions: Teleport (SRD-33), Invisibility (SRD-34), Healing Touch (SRD-35) ---------------------------------

def actions_of(a) -> list[dict]:
    return [dict(e, rule=RULES[e["kind"]]) for e in features(a).get("actions") or ()]


def feature(a, name: str) -> dict:
    for f in actions_of(a):
        if f["name"].lower() == str(name).lower():
            return f
    have = ", ".join(f["name"] for f in actions_of(a)) or "none"
    raise Illegal(f"{a.name} has no action {name!r} (its trait actions: {have})", "SRD-33", "feature")


def _uses(a, f) -> int:
    return int(a.data.setdefault("creature_state", {}).get(f["name"], {}).get("used", 0))


def candidates(rs, session, a) -> list[dict]:
    """What a policy may take: Invisibility while visible, Healing Touch on a hurt ally (or itself? "another
    creature": not itself) within reach while uses are left. Teleport needs a place: the GM's or a script's."""
    out = []
    for f in actions_of(a):
        if f["kind"] == "invisibility" and not a.has("invisible"):
            out.append({"actor": a.id, "action": "trait_action", "feature": f["name"]})
        elif f["kind"] == "heal" and _uses(a, f) < f.get("per_day", 10 ** 6):
            out += [{"actor": a.id, "action": "trait_action", "feature": f["name"], "target": o.id}
                    for o in session.state.actors.values()
                    if o.id != a.id and o.side == a.side and not o.dead and o.hp < o.max_hp // 2
                    and engaged(a.body(), o.body())]
    return out


def check(rs, session, a, f: dict, act: dict) -> dict:
    plan = {"feature": f["name"], "kind": f["kind"]}
    if f["kind"] == "teleport":
        plan["to"] = _teleport_to(session, a, f, act.get("at"))
    elif f["kind"] == "heal":
        if _uses(a, f) >= f.get("per_day", 10 ** 6):
            raise Illegal(f"{f['name']} is used up ({f['per_day']}/day)", "SRD-35", "feature")
        if not act.get("target"):
            raise Illegal(f"{f['name']} touches another creature: name the target", "SRD-35", "target")
        t = session.actor(act["target"], "target")
        if t.id == a.id or t.dead:
            raise Illegal(f"{f['name']} touches another, living creature", "SRD-35", "target")
        if not engaged(a.body(), t.body()):
            raise Illegal(f"{t.name} is out of {a.name}'s touch (within 1.5 m, AIR-04)", "SRD-35", "target")
        plan["target"] = t.id
    elif f["kind"] == "shape":
        plan["form"] = _form(session, a, f, act.get("form"))
    elif a.data.get("concentration") and a.data["concentration"]["spell"] == INVISIBILITY and a.has("invisible"):
        raise Illegal(f"{a.name} is already invisible", "SRD-34", "feature")
    return plan


def _teleport_to(session, a, f, at) -> list[int]:
    """"up to 120 feet to an unoccupied space it can see": any layer, the body fits, no one there, a clear sight
    line (AIR-15) to it."""
    if at is None:
        raise Illegal(f"{f['name']} needs a destination: at = [x, y, layer]", "SRD-33", "at")
    x, y, z = (int(v) for v in at)
    X, Y, Z = session.world.size
    if not (0 <= x < X and 0 <= y < Y and 0 <= z < Z):
        raise Illegal(f"{[x, y, z]} is outside the map", "SRD-33", "at")
    dest = a.body().moved(x, y, z)
    d = distance_m(a.body(), dest, session.world.cell_m)
    if d > f["range_m"] + 1e-9:
        raise Illegal(f"{[x, y, z]} is {d:.1f} m away, beyond {f['name']}'s {f['range_m']:g} m", "SRD-33", "at")
    if not aerial.body_fits(session, a, x, y, z) or aerial.body_in_the_way(session, a, (x, y, z)) is not None:
        raise Illegal(f"{a.name}'s body does not fit at {[x, y, z]}: not an unoccupied space", "SRD-33", "at")
    seen = sight_one(session.world, a.body(), dest, cover_levels("dnd5e"), session.options.get("cover_thresholds"))
    if seen is not True and not seen.visible:
        raise Illegal(f"{a.name} cannot see {[x, y, z]}: it teleports to a space it can see", "SRD-33", "at")
    return [x, y, z]


def _true_form(a) -> dict:
    return a.data.get("true_form") or {"size": a.size, "fly_speed_m": a.data.get("fly_speed_m"), "can_fly": a.can_fly}


def _form(session, a, f, form) -> str:
    """"polymorph into a Small or Medium humanoid, or back into its true form": a size it lists, or ``true``; the
    new body must fit where it stands (its corner cell kept, as Enlarge/Reduce's, SPL-13)."""
    options = list(f["sizes"]) + ["true"]
    if form not in options:
        raise Illegal(f"{f['name']} takes a form: one of {', '.join(options)}", "SRD-37", "form")
    size = _true_form(a)["size"] if form == "true" else form
    if size == a.size and (form == "true") == (a.data.get("true_form") is None):
        raise Illegal(f"{a.name} is already in that form", "SRD-37", "form")
    old = (a.size, a.footprint, a.height_layers, a.eye_m)
    a.size = size
    a.footprint, a.height_layers, a.eye_m = SIZES[size]
    fits = aerial.body_fits(session, a, a.x, a.y, a.layer) and aerial.body_in_the_way(session, a, a.pos) is None
    a.size, a.footprint, a.height_layers, a.eye_m = old
    if not fits:
        raise Illegal(f"{a.name}'s {size} body does not fit where it stands", "SRD-37", "form")
    return form


def change_shape(rs, session, a, f: dict, form: str) -> None:
    """Its size changes (and "Without wings, the fiend loses its flying speed"); its other statistics are the same.
    Aloft without its wings, a walker falls (AIR-10: it lost its movement)."""
    true = _true_form(a)
    size = true["size"] if form == "true" else form
    a.size = size
    a.footprint, a.height_layers, a.eye_m = SIZES[size]
    if form == "true":
        a.data.pop("true_form", None)
        a.data["fly_speed_m"], a.can_fly = true["fly_speed_m"], true["can_fly"]
    else:
        a.data["true_form"] = true
        if f.get("wingless"):
            a.data["fly_speed_m"], a.can_fly = None, False
    session.emit({"type": "shape", "who": a.id, "form": form, "size": size, "can_fly": a.can_fly, "rule": "SRD-37"})
    if a.flying and not a.can_fly and not a.dead:
        session.emit({"type": "flight_lost", "who": a.id, "reason": f"{f['name']}: a form without wings",
                      "rule": "AIR-10", "because": "SRD-37"})
        aerial.fall(session, a, None, "AIR-10", "lost its wings")


@DEATH.rule("SRD-37")
def true_form_on_death(rs, session, a):
    """"It reverts to its true form if it dies.\""""
    if a.data.get("true_form"):
        f = next((x for x in actions_of(a) if x["kind"] == "shape"), {"name": "its true form"})
        change_shape(rs, session, a, f, "true")


def apply_teleport(session, a, to) -> None:
    start = list(a.pos)
    a.x, a.y, a.layer = to
    session.emit({"type": "teleport", "who": a.id, "from": start, "to": list(to), "rule": "SRD-33"})
    if aerial.is_supported(session, a):
        a.flying = False
    elif a.can_fly:
        a.flying = True
    else:
        aerial.fall_if_unsupported(session, a, "AIR-12", "teleported into the air")


def apply(rs, session, a, plan) -> None:
    f = feature(a, plan["feature"])
    ev = {"type": "trait_action", "who": a.id, "feature": f["name"], "rule": f["rule"]}
    if f["kind"] == "shape":
        session.emit(ev)
        change_shape(rs, session, a, f, plan["form"])
        return
    if f["kind"] == "teleport":
        session.emit(ev)
        apply_teleport(session, a, plan["to"])
        return
    if f["kind"] == "heal":
        t = session.state.actors[plan["target"]]
        st = a.data.setdefault("creature_state", {}).setdefault(f["name"], {})
        st["used"] = int(st.get("used", 0)) + 1
        session.emit({**ev, "target": t.id})
        damage.heal(rs, session, t, _roll(session, a, f["dice"], "SRD-35", "heal"), "SRD-35")
        for c in ("poisoned", "blinded", "deafened"):     # "freed from any ... poison, blindness, or deafness"
            if c in t.conditions:
                conditions.remove_condition(rs, session, t, c, "SRD-35")
        marks = t.data.get("spell_marks") or []
        if any(m["mark"] == "cursed" for m in marks):     # "freed from any curse": Bestow Curse's (SPL-11)
            t.data["spell_marks"] = [m for m in marks if m["mark"] != "cursed"]
            session.emit({"type": "curse_ends", "who": t.id, "by": a.id, "rule": "SRD-35"})
        return
    session.emit(ev)
    concentration.begin(rs, session, a, INVISIBILITY, [a.id])
    conditions.add_condition(rs, session, a, "invisible", "SRD-34", source=a.id)


def _invisibility_ends(rs, session, a, held) -> None:
    """Its concentration ended (damage, incapacitated, another concentration): visible again."""
    if held["spell"] == INVISIBILITY and a.id in a.conditions.get("invisible", ()):
        rest = [s for s in a.conditions["invisible"] if s != a.id]
        if rest:
            a.conditions["invisible"] = rest
        else:
            conditions.remove_condition(rs, session, a, "invisible", "SRD-34")


def invisibility_ends_on_attack(rs, session, a, t, plan, hit) -> None:
    """"until it attacks": after the attack (made unseen), its concentration and invisibility end."""
    c = a.data.get("concentration")
    if c and c["spell"] == INVISIBILITY:
        concentration.end(rs, session, a, "it attacked", "SRD-34")


concentration.ON_END.append(_invisibility_ends)
attacks.ATTACK_MADE.append(invisibility_ends_on_attack)
attacks.ATTACK_MADE.append(aura_burns_attacker)


# -- legendary Teleport (SRD-33) and Move (SRD-38): the policy gets away ---------------------------------------------

def _engaging_foes(rs, session, a) -> list:
    return [o for o in session.state.actors.values() if not o.dead and o.hp > 0 and conditions.hostile(rs, a, o)
            and engaged(a.body(), o.body())]


def _far(session, a, foes, at) -> float:
    cell = session.world.cell_m
    b = a.body().moved(*at)
    return min(distance_m(b, o.body(), cell) for o in foes)


def escape_to(rs, session, a, opt) -> dict | None:
    """The legendary Teleport's or Move's policy (srd_legendary.py): taken when a foe is within 1.5 m (AIR-04) and
    the creature is at half its hit points or fewer -- to the place in reach farthest from the nearest foe (a
    teleport: a free space in range it can see; a move: its reach map at its speed, no opportunity attacks), when it
    is farther than where it stands; None otherwise."""
    if a.hp * 2 > a.max_hp:
        return None
    near = _engaging_foes(rs, session, a)
    if not near:
        return None
    foes = [o for o in session.state.actors.values() if not o.dead and o.hp > 0 and conditions.hostile(rs, a, o)]
    here = _far(session, a, foes, a.pos)
    if opt["kind"] == "move":
        if conditions.speed_zero(rs, a):
            return None
        r = aerial.reach(session, a, budget_m=rs.movement_left(session, a, a.can_fly), fly=a.can_fly)
        cells = [tuple(c) for c in r.destination_cells().tolist()]
        best = max(cells, key=lambda c: _far(session, a, foes, c), default=None)
        if best is None or _far(session, a, foes, best) <= here:
            return None
        return {"to": list(best), "path": r.path(*best), "cost_m": (r.cost_cm(*best) or 0) / 100.0}
    X, Y, Z = session.world.size
    cell = session.world.cell_m
    rc = int(opt["range_m"] // cell)
    spots = [(x, y, z) for x in range(max(0, a.x - rc), min(X, a.x + rc + 1))
             for y in range(max(0, a.y - rc), min(Y, a.y + rc + 1)) for z in range(Z)
             if aerial.body_fits(session, a, x, y, z) and (a.can_fly or aerial.is_supported(session, a, x, y, z))]
    spots.sort(key=lambda c: -_far(session, a, foes, c))
    f = dict(opt, name=opt["name"])
    for at in spots[:200]:
        if _far(session, a, foes, at) <= here:
            return None
        try:
            return {"to": _teleport_to(session, a, f, at)}
        except Illegal:
            continue
    return None


def legendary_move(rs, session, a, opt, to: dict) -> None:
    if opt["kind"] == "teleport":
        apply_teleport(session, a, to["to"])
        return
    path = [tuple(p) for p in to["path"]]
    a.x, a.y, a.layer = path[-1]
    if a.can_fly:
        a.flying = not aerial.is_supported(session, a)
    attacks.emit_move(rs, session, a, path, to["cost_m"], 0.0, "legendary Move: no opportunity attacks (SRD-38)")
    conditions.MOVED.run(rs, session, a)
    conditions.check_grapples(rs, session)
