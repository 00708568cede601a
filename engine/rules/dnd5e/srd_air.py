"""The SRD spells that make flyers fly or fall, or move them through the air (SPL-02..SPL-08), registered on
``srd_cast.EFFECTS`` (the spell's data says ``effect``) and on the aerial layer's and the turn's hooks.

* Fly (SPL-03): a willing creature touched gains a fly speed of 18 m while the caster concentrates; when the spell
  ends with it aloft it falls (AIR-10 to the ground, AIR-12's damage and Prone) unless it flies on its own.
* Feather Fall (SPL-02): a reaction (``reaction_policy`` / ``reactions = {feather_fall = ...}``, choice point
  ``feather_fall`` asked of the caster's player) when a creature within 18 m of the caster falls: it descends 18 m
  a round and takes no fall damage; it lands on its feet (not Prone).
* Misty Step, Dimension Door (SPL-04): to a free place at any layer in range (Misty Step: 9 m, in sight).
* Thunderwave's and Gust of Wind's push (SPL-06): straight away from the caster in 3D, stopped by walls and bodies;
  a flyer is pushed through the air, a walker pushed off an edge falls (AIR-12).
* Sleep, Color Spray (SPL-07): a pool of hit points, the lowest current HP first; a sleeping flyer falls (AIR-10).
* Levitate (SPL-08): up or down; an unwilling target's Constitution save; it hangs in the air without flying.
"""

from __future__ import annotations

from engine.rules import aerial
from engine.rules.core import Illegal
from engine.rules.dnd5e import areas, concentration, conditions, feats, srd_cast, srd_lasting, text, turns
from engine.rules.dnd5e.data import CONDITION_RULE, SPELLS
from engine.rules.dnd5e.srd_spells import spell
from engine.rules.registry import cover_levels
from engine.world.cover import sight_one
from engine.world.geometry import distance_m

feats.REACTION_RULE["feather_fall"] = "SPL-02"
# the log's lines of the air spells' events (the ruleset's describe table)
text.EVENT_LINES.update({
    "fly_speed": text._did(lambda s, e: f"loses the fly speed of {e['spell']}" if e.get("ended") else
                           f"gains a fly speed of {e['fly_speed_m']:g} m ({e['spell']})"),
    "slow_fall": text._did(lambda s, e: f"floats down {e['layers']} layer(s) to layer {e['to']}"
                           + (", lands on its feet, no damage" if e.get("landed") else ", still aloft, no damage")),
    "teleport": text._did(lambda s, e: f"teleports from {e['from']} to {e['to']}"),
    "levitate": text._did(lambda s, e: f"levitates from layer {e['from']} to layer {e['to']}"),
    "hit_point_pool": text._did(lambda s, e: f"rolls {e['pool']} hit points of {e['spell']}"),
})
FEATHER_RANGE_M = 18.0
FEATHER_RATE_M = 18          # metres (layers) a round
FLY_SPEED_M = 18.0


class Effect:
    """An air spell's effect: ``check`` (raises Illegal, returns the plan) and ``apply``."""
    rule = "SPL-01"

    @staticmethod
    def check(rs, session, a, act, sp, plan):
        raise NotImplementedError

    @staticmethod
    def apply(rs, session, a, plan):
        raise NotImplementedError


def register(name):
    def deco(cls):
        srd_cast.EFFECTS[name] = cls
        return cls
    return deco


def _emit_cast(session, a, plan, rule):
    sp = spell(session, plan["spell"])
    srd_cast.spend(None, session, a, sp, plan)
    session.emit({"type": "cast", "who": a.id, "spell": plan["spell"], "targets": plan.get("targets", []),
                  **({"slot": plan["slot"]} if plan.get("slot") else {}),
                  **({"to": plan["to"]} if "to" in plan else {}), "rule": rule})


def touch_willing(rs, session, a, act, sp, plan, spell: str, rule: str) -> dict:
    """A spell that touches one willing creature (Fly, Jump): the caster itself when no target is named."""
    t = srd_cast.single(rs, session, a, {**act, "target": act.get("target") or a.id}, {**sp, "kind": "effect"})
    if t.side != a.side:
        raise Illegal(f"{spell} touches a willing creature: {t.name} is not on {a.name}'s side", rule, "target")
    plan["targets"] = [t.id]
    return plan


# -- Fly (SPL-03) ---------------------------------------------------------------------------------------------------
@register("fly")
class Fly(Effect):
    rule = "SPL-03"

    @staticmethod
    def check(rs, session, a, act, sp, plan):
        return touch_willing(rs, session, a, act, sp, plan, "Fly", "SPL-03")

    @staticmethod
    def candidates(rs, session, a, ctx, sp, base):
        return [{**base, "target": t.id} for t in ctx.friends + [a] if not t.can_fly]

    @staticmethod
    def apply(rs, session, a, plan):
        _emit_cast(session, a, plan, "SPL-03")
        concentration.begin(rs, session, a, plan["spell"], plan["targets"])
        feats.mage_slayer(rs, session, a)
        for tid in plan["targets"]:
            t = session.state.actors[tid]
            t.data["fly_spell"] = {"caster": a.id, "fly_speed_m": t.data["fly_speed_m"], "can_fly": t.can_fly}
            t.data["fly_speed_m"] = FLY_SPEED_M
            t.can_fly = True
            session.emit({"type": "fly_speed", "who": t.id, "fly_speed_m": FLY_SPEED_M, "spell": plan["spell"],
                          "rule": "SPL-03"})


def fly_ends(rs, session, caster, held) -> None:
    """Concentration on Fly ended: each target loses the fly speed; one still aloft that cannot fly on its own falls
    (SRD "the target falls if it is still aloft, unless it can stop the fall": AIR-10 to the ground, AIR-12)."""
    if SPELLS.get(held["spell"], {}).get("effect") != "fly":
        return
    for tid in held["targets"]:
        t = session.state.actors.get(tid)
        if t is None or not t.data.get("fly_spell"):
            continue
        old = t.data.pop("fly_spell")
        t.data["fly_speed_m"] = old["fly_speed_m"]
        t.can_fly = old["can_fly"]
        session.emit({"type": "fly_speed", "who": t.id, "fly_speed_m": old["fly_speed_m"], "spell": held["spell"],
                      "ended": True, "rule": "SPL-03"})
        if t.flying and not t.can_fly and not t.dead:
            session.emit({"type": "flight_lost", "who": t.id, "reason": f"{held['spell']} ended while it was aloft",
                          "rule": "AIR-10", "because": "SPL-03"})
            aerial.fall(session, t, None, "AIR-10", "Fly ended")


concentration.ON_END.append(fly_ends)


# -- Feather Fall (SPL-02) ------------------------------------------------------------------------------------------
@register("feather_fall")
class FeatherFall(Effect):
    rule = "SPL-02"

    @staticmethod
    def check(rs, session, a, act, sp, plan):
        raise Illegal("Feather Fall is cast as a reaction when a creature within 18 m falls (reactions = "
                      "{feather_fall = true}); it is not cast on a turn", "SPL-02", "spell")

    @staticmethod
    def apply(rs, session, a, plan):
        raise AssertionError("Feather Fall is a reaction")


def _feather_caster(session, t):
    """A caster that may answer ``t``'s fall with Feather Fall: knows it, its reaction and a level 1 slot left, alive
    and able to act, within 18 m, and on ``t``'s side; asked (the choice point ``feather_fall``)."""
    rs = session.ruleset
    for r in session.state.actors.values():
        name = next((n for n in r.data.get("spells", ()) if SPELLS.get(n, {}).get("effect") == "feather_fall"), None)
        if name is None or r.dead or r.hp == 0 or r.data.get("reaction_used") or r.side != t.side:
            continue
        if conditions.incapacitated(rs, r):
            continue
        slots = r.data.get("spell_slots")
        if slots is not None and slots.get("1", 0) <= 0:
            continue
        if distance_m(r.body(), t.body(), session.world.cell_m) > FEATHER_RANGE_M + 1e-9:
            continue
        if not feats.reaction_taken(r, "feather_fall", session, f"{t.name} falls: cast Feather Fall on it",
                                    texts=("cast Feather Fall (SPL-02)", "let it fall")):
            continue
        return r, name
    return None, None


def feather_fall(session, t, layers, rule, cause) -> bool:
    """The aerial layer's fall hook: a fall to the ground (``layers`` None) of a creature not already feather-
    falling may be answered; True: the fall is handled here."""
    if layers is not None or t.dead:
        return False
    if t.data.get("feather_falling"):
        descend(session, t, f"feather fall ({cause})")
        return True
    r, name = _feather_caster(session, t)
    if r is None:
        return False
    r.data["reaction_used"] = True
    if r.data.get("spell_slots") is not None:
        r.data["spell_slots"]["1"] -= 1
    session.emit({"type": "cast", "who": r.id, "spell": name, "targets": [t.id], "reaction": True,
                  "trigger": cause, "rule": "SPL-02"})
    t.data["feather_falling"] = {"caster": r.id}
    descend(session, t, cause)
    return True


def descend(session, t, cause) -> None:
    """Down 18 m (18 layers) at most: reaching the ground it lands on its feet, no damage; else it hangs there until
    its next turn starts (falling slowly: not flying, no upkeep)."""
    ground = aerial.support_below(session, t)
    start = t.layer
    to = max(ground, start - FEATHER_RATE_M)
    t.layer = to
    if to == ground:
        t.flying = False
        t.data.pop("feather_falling", None)
        session.emit({"type": "slow_fall", "who": t.id, "from": start, "to": to, "layers": start - to, "cause": cause,
                      "rule": "SPL-02", "damage": 0, "landed": True, "note": "Feather Fall: no falling damage, on its feet"})
    else:
        t.flying = True
        session.emit({"type": "slow_fall", "who": t.id, "from": start, "to": to, "layers": start - to, "cause": cause,
                      "rule": "SPL-02", "damage": 0, "note": "Feather Fall: 18 m a round"})


@turns.TURN_START.rule("SPL-02")
def feather_fall_descends(rs, session, a):
    """A feather-falling creature descends another 18 m when its turn starts."""
    if a.data.get("feather_falling") and not a.dead:
        descend(session, a, "feather fall")


aerial.FALL_HOOKS.append(feather_fall)


def no_upkeep(session, a) -> bool:
    """Slowly falling is not flying: no upkeep is owed (AIR-08) -- it hangs there until its next descent."""
    return bool(a.data.get("feather_falling"))


aerial.UPKEEP_EXEMPT.append(no_upkeep)


# -- Misty Step, Dimension Door (SPL-04) ----------------------------------------------------------------------------
class Teleport(Effect):
    rule = "SPL-04"
    reach_m = 9.0
    sight = True

    @classmethod
    def check(cls, rs, session, a, act, sp, plan):
        if act.get("at") is None:
            raise Illegal(f"{sp['name']} needs a destination: at = [x, y, layer]", "SPL-04", "at")
        x, y, z = (int(v) for v in act["at"])
        X, Y, Z = session.world.size
        if not (0 <= x < X and 0 <= y < Y and 0 <= z < Z):
            raise Illegal(f"{[x, y, z]} is outside the map", "SPL-04", "at")
        dest = a.body().moved(x, y, z)
        d = distance_m(a.body(), dest, session.world.cell_m)
        if d > cls.reach_m + 1e-9:
            raise Illegal(f"{[x, y, z]} is {d:.1f} m away, beyond {sp['name']}'s {cls.reach_m:g} m", "SPL-04", "at")
        if not aerial.body_fits(session, a, x, y, z) or aerial.body_in_the_way(session, a, (x, y, z)) is not None:
            raise Illegal(f"{a.name}'s body does not fit at {[x, y, z]}: not an unoccupied space", "SPL-04", "at")
        seen = sight_one(session.world, a.body(), dest, cover_levels("dnd5e"), session.options.get("cover_thresholds"))
        if cls.sight and seen is not True and not seen.visible:
            raise Illegal(f"{a.name} cannot see {[x, y, z]}: Misty Step goes to a space it can see", "SPL-04", "at")
        plan["targets"] = [a.id]
        plan["to"] = [x, y, z]
        return plan

    @staticmethod
    def apply(rs, session, a, plan):
        _emit_cast(session, a, plan, "SPL-04")
        start = list(a.pos)
        a.x, a.y, a.layer = plan["to"]
        session.emit({"type": "teleport", "who": a.id, "from": start, "to": plan["to"], "rule": "SPL-04"})
        if aerial.is_supported(session, a):
            a.flying = False
        elif a.can_fly:
            a.flying = True            # it appears in the air and flies there (AIR-09)
        else:
            aerial.fall_if_unsupported(session, a, "AIR-12", "teleported into the air")


@register("misty_step")
class MistyStep(Teleport):
    reach_m = 9.0
    sight = True


@register("dimension_door")
class DimensionDoor(Teleport):
    reach_m = 150.0
    sight = False


# -- pushes in 3D (SPL-06) ------------------------------------------------------------------------------------------
@register("push")
class Push:
    @staticmethod
    def apply_push(rs, session, a, t, metres: float) -> None:
        """Straight away from the caster's centre to ``t``'s, in 3D, half a metre at a time to the nearest cell and
        layer; stops before a wall or a body. A walker is never pushed up off its support (the vertical part is
        dropped unless it flies); pushed over nothing it falls (AIR-12)."""
        cell = session.world.cell_m
        o, p = srd_cast.body_centre(a, cell), srd_cast.body_centre(t, cell)
        d = areas.make({"shape": "line", "size_m": 1}, o, p).direction
        if not t.flying:
            h = (d[0] ** 2 + d[1] ** 2) ** 0.5 or 1.0
            d = (d[0] / h, d[1] / h, 0.0)
        start = Push.slide(session, t, d, metres)
        session.emit({"type": "pushed", "who": t.id, "from": list(start), "to": list(t.pos), "metres": metres,
                      "rule": "SPL-06"})
        aerial.fall_if_unsupported(session, t, "AIR-12", "pushed off an edge")

    @staticmethod
    def slide(session, t, d, metres: float) -> tuple[int, int, int]:
        """``t`` moved ``metres`` along the unit vector ``d`` (metres; z in layers), half a metre at a time to the
        nearest cell and layer, stopping before a wall, the map's edge or a body; returns where it started."""
        cell = session.world.cell_m
        start = (t.x, t.y, t.layer)
        fx, fy, fz = float(t.x), float(t.y), float(t.layer)
        steps = int(round(metres / 0.5))
        for _ in range(steps):
            nx, ny, nz = fx + d[0] * 0.5 / cell, fy + d[1] * 0.5 / cell, fz + d[2] * 0.5
            cx, cy, cz = int(round(nx)), int(round(ny)), int(round(nz))
            if (cx, cy, cz) != (t.x, t.y, t.layer):
                X, Y, Z = session.world.size
                if not (0 <= cx < X and 0 <= cy < Y and 0 <= cz < Z) or not aerial.body_fits(session, t, cx, cy, cz) \
                        or aerial.body_in_the_way(session, t, (cx, cy, cz)) is not None:
                    break
                t.x, t.y, t.layer = cx, cy, cz
            fx, fy, fz = nx, ny, nz
        return start


@register("thunderwave")
class Thunderwave(Effect):
    rule = "SPL-06"

    @staticmethod
    def check(rs, session, a, act, sp, plan):
        return srd_cast.targets(rs, session, a, act, sp, plan)

    @staticmethod
    def candidates(rs, session, a, ctx, sp, base):
        return [{**base, "target": t.id} for t in ctx.foes]

    @staticmethod
    def apply(rs, session, a, plan):
        sp = spell(session, plan["spell"])
        _emit_cast(session, a, plan, "SPL-06")
        feats.mage_slayer(rs, session, a)
        if a.dead or a.hp == 0:
            return
        cmod, dc, _ = srd_cast.caster_numbers(rs, a)
        text = srd_cast.dice(a, sp, sp["damage"], plan)
        dmg = srd_cast.roll(session, a, text, "damage", cmod) if text else 0
        for tid in plan["targets"]:
            t = session.state.actors[tid]
            if not t.dead:
                srd_cast.save_one(rs, session, a, t, {**sp, "fx": {**sp["fx"], "push_m": sp["fx"].get("push_m", 3.0)}},
                                  plan, dc, dmg)


@register("gust_of_wind")
class GustOfWind(Thunderwave):
    """An 18 m x 3 m line from the caster: Strength save or pushed 4.5 m away (no damage)."""

    @staticmethod
    def apply(rs, session, a, plan):
        sp = spell(session, plan["spell"])
        _emit_cast(session, a, plan, "SPL-06")
        concentration.begin(rs, session, a, plan["spell"], plan["targets"])
        _, dc, _ = srd_cast.caster_numbers(rs, a)
        for tid in plan["targets"]:
            t = session.state.actors[tid]
            if not t.dead:
                srd_cast.save_one(rs, session, a, t, sp, plan, dc, 0)


# -- Sleep, Color Spray (SPL-07) ------------------------------------------------------------------------------------
@register("sleep")
class Sleep(Effect):
    rule = "SPL-07"
    condition = "unconscious"
    pool = (5, 8)       # 5d8, +2d8 a slot above 1st
    per_slot = 2

    @staticmethod
    def check(rs, session, a, act, sp, plan):
        return srd_cast.targets(rs, session, a, act, sp, plan)

    @staticmethod
    def candidates(rs, session, a, ctx, sp, base):
        return [{**base, "target": t.id} for t in ctx.foes]

    @classmethod
    def apply(cls, rs, session, a, plan):
        sp = spell(session, plan["spell"])
        _emit_cast(session, a, plan, "SPL-07")
        feats.mage_slayer(rs, session, a)
        n = cls.pool[0] + cls.per_slot * ((plan.get("slot") or sp["level"]) - sp["level"])
        left = sum(session.roll("pool", cls.pool[1], n, who=a.id, rule="SPL-07"))
        session.emit({"type": "hit_point_pool", "who": a.id, "spell": plan["spell"], "pool": left, "rule": "SPL-07"})
        order = sorted((session.state.actors[t] for t in plan["targets"]), key=lambda o: (o.hp, o.id))
        for t in order:
            if t.dead or t.hp == 0 or cls.condition in t.conditions:
                continue
            if t.hp > left:
                break
            left -= t.hp
            conditions.add_condition(rs, session, t, cls.condition, CONDITION_RULE[cls.condition], source=a.id)
            if cls.condition == "unconscious" and "prone" not in t.conditions:
                conditions.add_condition(rs, session, t, "prone", CONDITION_RULE["prone"], source=a.id)
            aerial.check_grounded(session, t)


@register("color_spray")
class ColorSpray(Sleep):
    condition = "blinded"
    pool = (6, 10)


# -- Levitate (SPL-08) ----------------------------------------------------------------------------------------
@register("levitate")
class Levitate(Effect):
    rule = "SPL-08"

    @staticmethod
    def check(rs, session, a, act, sp, plan):
        t = srd_cast.single(rs, session, a, {**act, "target": act.get("target") or a.id}, {**sp, "kind": "effect"})
        plan["targets"] = [t.id]
        plan["rise"] = int(act["at"][2]) - t.layer if act.get("at") is not None else 6
        if abs(plan["rise"]) > 6:
            raise Illegal("Levitate moves its target up or down 6 m at most", "SPL-08", "at")
        return plan

    @staticmethod
    def apply(rs, session, a, plan):
        _emit_cast(session, a, plan, "SPL-08")
        concentration.begin(rs, session, a, plan["spell"], plan["targets"])
        _, dc, _ = srd_cast.caster_numbers(rs, a)
        for tid in plan["targets"]:
            t = session.state.actors[tid]
            if t.side != a.side and conditions.saving_throw(rs, session, t, "con", dc, a, "SPL-08", plan["spell"]):
                continue
            start = t.layer
            to = max(aerial.support_below(session, t), start + plan["rise"])
            while to > start and not aerial.body_fits(session, t, t.x, t.y, to):
                to -= 1
            t.layer = to
            t.data["levitating"] = {"caster": a.id}
            t.flying = to > aerial.support_below(session, t)
            session.emit({"type": "levitate", "who": t.id, "from": start, "to": to, "rule": "SPL-08"})


def levitate_ends(rs, session, caster, held) -> None:
    """Levitate ended: its target floats gently to the ground (the SRD: no damage)."""
    if SPELLS.get(held["spell"], {}).get("effect") != "levitate":
        return
    for tid in held["targets"]:
        t = session.state.actors.get(tid)
        if t is None or not t.data.pop("levitating", None):
            continue
        if t.flying and not t.can_fly:
            start, t.layer, t.flying = t.layer, aerial.support_below(session, t), False
            session.emit({"type": "slow_fall", "who": t.id, "from": start, "to": t.layer, "layers": start - t.layer,
                          "cause": "Levitate ended", "rule": "SPL-08", "damage": 0, "landed": True})


concentration.ON_END.append(levitate_ends)


def levitating(session, a) -> bool:
    return bool(a.data.get("levitating"))


aerial.UPKEEP_EXEMPT.append(levitating)


# -- Web (SPL-05: restrained, so a flyer falls by AIR-10) -----------------------------------------------------------
@register("web")
class Web(Effect):
    rule = "SPL-05"

    @staticmethod
    def check(rs, session, a, act, sp, plan):
        return srd_cast.targets(rs, session, a, act, sp, plan)

    @staticmethod
    def candidates(rs, session, a, ctx, sp, base):
        return [{**base, "target": t.id} for t in ctx.foes]

    @staticmethod
    def apply(rs, session, a, plan):
        sp = spell(session, plan["spell"])
        _emit_cast(session, a, plan, "SPL-05")
        concentration.begin(rs, session, a, plan["spell"], plan["targets"])
        _, dc, _ = srd_cast.caster_numbers(rs, a)
        for tid in plan["targets"]:
            t = session.state.actors[tid]
            if not t.dead:
                srd_cast.save_one(rs, session, a, t, sp, plan, dc, 0)
                aerial.check_grounded(session, t)
        srd_lasting.begin(rs, session, a, plan, sp)


# -- Jump (SPL-14) --------------------------------------------------------------------------------------------------
text.EVENT_LINES["jump_spell"] = text._did(
    lambda s, e: "no longer jumps thrice as far (Jump ends)" if e.get("ended") else
    f"jumps thrice as far: a high jump of {e['high_jump_m']:g} m, a layer up for {e['layer_cost_m']:g} m (Jump)")
JUMP_ROUNDS = 10            # 1 minute


def high_jump_m(rs, t) -> float:
    """The SRD's high jump, 3 + Strength modifier feet, tripled by Jump, in metres (5 ft = 1.5 m)."""
    return round(3 * max(0, 3 + conditions.ab(rs, t, "str")) * 0.3, 2)


@register("jump")
class Jump(Effect):
    """SRD: "You touch a creature. The creature's jump distance is tripled until the spell ends" (1 minute)."""
    rule = "SPL-14"

    @staticmethod
    def check(rs, session, a, act, sp, plan):
        return touch_willing(rs, session, a, act, sp, plan, "Jump", "SPL-14")

    @staticmethod
    def candidates(rs, session, a, ctx, sp, base):
        return [{**base, "target": t.id} for t in ctx.friends + [a]
                if not t.can_fly and not t.data.get("jump_spell")]

    @staticmethod
    def apply(rs, session, a, plan):
        _emit_cast(session, a, plan, "SPL-14")
        feats.mage_slayer(rs, session, a)
        for tid in plan["targets"]:
            t = session.state.actors[tid]
            h = high_jump_m(rs, t)
            t.data["jump_spell"] = {"caster": a.id, "round": session.state.round, "high_jump_m": h}
            cost = jump_climb(rs, session, t, False, float(session.options.get("climb_m", 4.0)))
            session.emit({"type": "jump_spell", "who": t.id, "high_jump_m": h, "layer_cost_m": cost,
                          "spell": plan["spell"], "rule": "SPL-14"})


@feats.CLIMB_COST.rule("SPL-14")
def jump_climb(rs, session, a, flying: bool, metres: float) -> float:
    """A walker under Jump whose tripled high jump clears a layer (1 m, AIR-02) leaps it instead of climbing it: the
    SRD's jump costs a foot of movement per foot cleared, so AIR-07's doubling (the climb's) is not paid: half
    ``climb_m``."""
    j = a.data.get("jump_spell")
    if flying or not j or j["high_jump_m"] < 1.0:
        return metres
    return metres / 2.0


@turns.TURN_START.rule("SPL-14")
def jump_ends(rs, session, a):
    """The caster's turn starts a minute (10 rounds) after the cast: the Jump it gave ends."""
    for t in session.state.actors.values():
        j = t.data.get("jump_spell")
        if j and j["caster"] == a.id and session.state.round >= j["round"] + JUMP_ROUNDS:
            t.data.pop("jump_spell")
            session.emit({"type": "jump_spell", "who": t.id, "ended": True, "spell": "jump", "rule": "SPL-14"})
