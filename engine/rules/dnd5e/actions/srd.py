"""``creature_action``: an SRD creature's save action -- a breath weapon, a gaze, a cloud, a screech (SRD-12) -- with
its recharge (SRD-05, a d6 at the start of its turn, recorded as a die) and uses per day.

The stat block gives the DC, the save, the damage ("half as much damage on a successful one" as the text says), a
condition on a failure and the area; the area is found with the shapes the spells use (``attacks.area_targets``:
a cone from the creature towards a point or a target, a radius around it or around a point, in 3D: a flyer below a
dragon is in its cone). A Dexterity save gets the cover the rules grant between the creature and each target
(DND-32). A line is the spells' area (engine/rules/dnd5e/areas.py, ``line_targets``); cubes are not played yet
(``features`` names them). Frightful Presence (SRD-16, srd_presence.py) affects the foes not immune to it; when the
block's Multiattack begins with it ("The dragon can use its Frightful Presence. It then makes three attacks"), it
leaves the Attack action's attacks to make (its entry's ``in_multiattack``).
"""

from __future__ import annotations

from engine.rules.actions import Param, Unit
from engine.rules.core import Illegal
from engine.rules.dnd5e import areas, attacks, common, conditions, srd_breaths, srd_brief, srd_cast, srd_presence
from engine.rules.dnd5e import srd_charms, srd_glare, srd_lasting_actions, srd_misc, srd_riders
from engine.rules.dnd5e.actions import action
from engine.rules.dnd5e.data import CONDITION_RULE
from engine.rules.dnd5e.srd_sheet import dice_parts
from engine.rules.dnd5e.turns import TURN_START
from engine.world.geometry import distance_m

P = Param


def _feature(rs, a, name: str) -> dict:
    for f in a.data.get("creature_actions") or ():
        if f["name"] == name:
            return f
    have = ", ".join(f["name"] for f in a.data.get("creature_actions") or ()) or "none"
    raise Illegal(f"{a.name} has no action {name!r} (its save actions: {have})", "SRD-12", "feature")


def _key(f: dict) -> str:
    """The recharge / uses a feature spends: its own, or the group's ("Breath Weapons (Recharge 5-6)": the metallic
    dragons' two breaths share one)."""
    return f.get("recharge_group") or f["name"]


def _usable(a, f: dict) -> str | None:
    """Why the feature cannot be used now (recharge, uses per day), or None."""
    st = (a.data.get("creature_state") or {}).get(_key(f), {})     # a listing changes nothing (replays agree)
    if f.get("recharge") and st.get("spent"):
        lo = f["recharge"][0]
        return f"{f['name']} is spent: it recharges on a {lo}{'-6' if lo < 6 else ''} of a d6 at the start of " \
               f"{a.name}'s turn"
    if f.get("per_day") and st.get("used", 0) >= f["per_day"]:
        return f"{f['name']} is used up ({f['per_day']}/day)"
    return None


@action
class CreatureAction(Unit):
    name = "creature_action"
    place = 14          # after cast, before grapple (the spec table's order, the window's buttons)
    PARAMS = {"feature": P("str", True, help="the stat block's action, as written (Fire Breath)"),
              "target": P("id", help="a creature the cone points at, or the one creature it targets"),
              "at": P("pos", help="a point [x, y, layer] the cone points at, or the area's centre"),
              "targets": P("ids", help="the other creatures its bolts strike, one each (Lightning Storm, SRD-78)")}

    @staticmethod
    def offered(rs, session, a) -> bool:
        return bool(a.data.get("creature_actions"))      # a stat block's own: none for a character without one

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        out = []
        for f in a.data.get("creature_actions") or ():
            if _usable(a, f):
                continue
            shape = (f.get("area") or {}).get("shape")
            if shape == "self":
                out.append({"actor": a.id, "action": "creature_action", "feature": f["name"]})
            else:
                out += [{"actor": a.id, "action": "creature_action", "feature": f["name"], "target": t.id,
                         **srd_lasting_actions.more_bolts(rs, session, a, f, t, ctx.foes)}      # SRD-78
                        for t in ctx.foes]
        return out

    @staticmethod
    def check(rs, session, a, act):
        f = _feature(rs, a, act["feature"])
        if not f.get("in_place_of"):
            common.need_action(rs, a, session, f["name"], "SRD-12")
        why = _usable(a, f)
        if why:
            raise Illegal(why, "SRD-05", "feature")
        if f.get("in_place_of"):                # SRD-107: "use the breath in place of its bite or horns"
            refused = srd_misc.in_place_refusal(rs, session, a, f)
            if refused is not None:
                raise refused
        if f.get("not_while_grappling") and any(a.id in o.conditions.get("grappled", [])
                                                for o in session.state.actors.values()):
            raise Illegal(f"{a.name} has a creature grappled: {f['name']} only \"provided that it has no creature "
                          "grappled\"", "SRD-12", "feature")
        area = f.get("area")
        cell = session.world.cell_m
        plan = {"feature": f["name"]}
        if area is None:
            if not act.get("target"):
                raise Illegal(f"{f['name']} needs a target", "SRD-12", "target")
            plan["targets"] = []
            for tid in srd_lasting_actions.bolt_ids(f, act):          # SRD-78: a target per bolt
                t = common.living_target(rs, session, a, tid)
                d = distance_m(a.body(), t.body(), cell)
                if d > f.get("range_m", 1.5) + 1e-9:
                    raise Illegal(f"{t.name} is {d:.1f} m away; {f['name']} reaches {f.get('range_m', 1.5):g} m",
                                  "SRD-12", "target")
                if not rs.sees(session, a, t):
                    raise Illegal(f"{a.name} cannot see {t.name}", "SRD-12", "target")
                refused = srd_charms.refusal(rs, session, a, t, f)          # DND-54, SRD-65..72
                if refused is not None:
                    raise refused
                if f.get("charmed_or_willing") and a.id not in t.conditions.get("charmed", []) \
                        and conditions.hostile(rs, a, t):
                    raise Illegal(f"{f['name']}: \"a creature charmed by it or a willing creature\"; {t.name} is "
                                  "neither", "SRD-23", "target")
                plan["targets"].append(t.id)
            return plan
        if area["shape"] == "self":
            plan["targets"] = attacks.area_targets(rs, session, a, {"area": area}, a.pos, None)
            plan["targets"] = srd_lasting_actions.caught(rs, session, a, f, plan["targets"])     # SRD-74, -76, -79
            if f.get("frightful"):          # SRD-16: the creatures of its choice, aware of it, not immune
                plan["targets"] = srd_presence.affected(rs, session, a, plan["targets"])
            if f.get("hearing") or f.get("not_types"):    # SRD-54: "that can hear it and that isn't a demon"
                plan["targets"] = srd_brief.caught(session, f, plan["targets"])
            if f.get("charm"):                            # SRD-68, -70, -72: the foes it sees, its types
                plan["targets"] = srd_charms.caught(rs, session, a, f, plan["targets"])
            return plan
        if area["shape"] == "line":
            if act.get("at") is None and not act.get("target"):
                raise Illegal(f"{f['name']} needs a point (at = [x, y, layer]) or a target", "SRD-12", "at")
            plan["targets"] = line_targets(rs, session, a, area, act)
            if act.get("at") is not None:
                plan["point"] = list(act["at"])
            return plan
        if act.get("at") is None and not act.get("target"):
            raise Illegal(f"{f['name']} needs a point (at = [x, y, layer]) or a target", "SRD-12", "at")
        point = tuple(act["at"]) if act.get("at") is not None else session.actor(act["target"], "target").pos
        plan["targets"] = [t for t in attacks.area_targets(rs, session, a, {"area": area}, point, act.get("target"))
                           if t != a.id]
        plan["point"] = list(point)
        return plan

    @staticmethod
    def preview(rs, session, a, act, plan):
        """The save each target makes, and ``hit_chance`` for the policies: the damage a foe takes on average (a
        failed save whole, a success half where written) over one attack of its Attack action, so a breath is
        chosen when it beats the Multiattack; 0 when it would catch an ally."""
        f = srd_lasting_actions.current(a, _feature(rs, a, plan["feature"]))      # SRD-77: the next roar
        share = []
        for tid in plan["targets"]:
            t = session.state.actors[tid]
            if t.side == a.side:
                share = []
                break
            if f.get("charm") and srd_charms.immune(a, t, f):     # SRD-69: no save, nothing happens
                share.append(0.0)
                continue
            bonus = conditions.ab(rs, t, f["ability"]) + (t.data["prof"] if f["ability"] in t.data["saves"] else 0)
            fail = min(1.0, max(0.05, (f["dc"] - bonus - 1) / 20))
            share.append(fail + (1 - fail) * (0.5 if f.get("half") else 0.0))
        # one attack's worth of the Attack action (a breath that takes the action counts as all its attacks; one in
        # place of an attack, SRD-107, as that one attack)
        per = 1 if f.get("in_place_of") else max(1, a.data["attacks"])
        chance = sum(share) / len(share) / per if share else 0.0
        return {"feature": f["name"], "targets": plan["targets"], "dc": f["dc"], "save": f["ability"],
                "damage": " + ".join(f"{d['dice']} {d['type']}" for d in f.get("damage", ())), "half": f.get("half"),
                "hit_chance": round(chance, 4)}

    @staticmethod
    def damage_on_hit(rs, session, a, act, plan):
        """What a policy weighs: the mean damage on a failed save, times the creatures caught."""
        f = srd_lasting_actions.current(a, _feature(rs, a, plan["feature"]))      # SRD-77: the next roar
        if f.get("charm") and not any(session.state.actors[t].side != a.side
                                      and not srd_charms.immune(a, session.state.actors[t], f)
                                      for t in plan["targets"]):
            return None             # SRD-69: every foe it would catch is immune (or none is caught): nothing to weigh
        each = sum(_mean(d["dice"]) for d in f.get("damage", ()))
        foes = sum(1 for t in plan["targets"] if session.state.actors[t].side != a.side)
        return each * max(foes, 1)

    @staticmethod
    def apply(rs, session, a, act, plan):
        f = _feature(rs, a, plan["feature"])
        f = srd_lasting_actions.stage(session, a, f)          # SRD-77: which roar
        turn = session.state.turn
        if f.get("in_multiattack"):
            turn["attacks_left"] = a.data["attacks"]      # SRD-01: "It then makes three attacks"
        if f.get("in_place_of"):
            srd_misc.spend_in_place(rs, session, a, f)          # SRD-107: one attack of the Attack action
        else:
            turn["action"] = True
        st = a.data.setdefault("creature_state", {}).setdefault(_key(f), {})
        if f.get("recharge"):
            st["spent"] = True
        if f.get("per_day"):
            st["used"] = st.get("used", 0) + 1
        session.emit({"type": "creature_action", "who": a.id, "feature": f["name"], "targets": plan["targets"],
                      **({"at": plan["point"]} if "point" in plan else {}), "rule": "SRD-12"})
        srd_lasting_actions.begin_cloud(session, a, f)        # SRD-79: a lasting cloud (no save as it forms)
        rolled = _roll(session, a, f)
        for i, tid in enumerate(plan["targets"]):
            t = session.state.actors[tid]
            if f.get("bolts") and i:
                rolled = _roll(session, a, f, "SRD-78")              # each bolt its own damage
            if t.dead:
                continue
            if f.get("glare") and srd_glare.spared(rs, session, a, t, f):      # SRD-57: "If the target can see"
                continue
            if f.get("charm") and srd_charms.spared(rs, session, a, t, f):     # SRD-65..72: immune, unseen
                continue
            cov = attacks.cover(rs, session, a, t).level if f["ability"] == "dex" else "none"
            ok = conditions.saving_throw(rs, session, t, f["ability"], f["dc"], a, "SRD-12", f["name"],
                                         cover_level=cov, sole_target=len(plan["targets"]) == 1,
                                         advantage=srd_glare.advantage(t, f) or srd_charms.advantage(t, f))
            for amount, dtype in rolled:
                amt = amount if not ok else (amount // 2 if f.get("half") else 0)
                if amt and not t.dead:
                    rs.apply_damage(session, t, amt, dtype, a.id, "SRD-12")
            if f.get("frightful"):
                srd_presence.after_save(a, t, ok)
            cond = f.get("condition")
            if not ok and cond and cond in CONDITION_RULE and not t.dead:
                conditions.add_condition(rs, session, t, cond, CONDITION_RULE[cond], source=a.id)
                srd_brief.lasts(session, a, t, cond, f)            # SRD-54: "until the end of the vrock's next turn"
                if f.get("repeat_save") and cond in t.conditions:
                    t.data.setdefault("repeat_saves", {})[cond] = {"save": f["ability"], "dc": f["dc"],
                                                                   "spell": f["name"], "rule": "SRD-12"}
            if f.get("drain"):
                srd_riders.save_drain(rs, session, a, t)               # SRD-23
            if f.get("glare"):
                srd_glare.after_save(rs, session, a, t, f, ok, srd_riders._failed_by(session, t))     # SRD-57
            if f.get("sleep") or f.get("push_m") or f.get("weaken") or f.get("slow"):
                srd_breaths.after_save(rs, session, a, t, f, ok)          # SRD-25..27
            srd_lasting_actions.after_save(rs, session, a, t, f, ok)      # SRD-74, -76, -77
            if f.get("charm"):
                srd_charms.after_save(rs, session, a, t, f, ok)           # SRD-65..72


def _roll(session, a, f: dict, rule: str = "SRD-12") -> list[tuple[int, str]]:
    out = []
    for d in f.get("damage", ()):
        n, s, b = dice_parts(d["dice"])
        out.append((sum(session.roll("damage", s, n, who=a.id, rule=rule)) + b if n else b, d["type"]))
    return out


def line_targets(rs, session, a, area: dict, act: dict) -> list[str]:
    """SRD-12 with the spells' area code: "exhales acid in a 60-foot line that is 5 feet wide" -- a line from the
    creature's centre toward the point or the target, in 3D (engine/rules/dnd5e/areas.py); every other creature any
    part of whose body is in it, unless it has total cover from the creature."""
    cell = session.world.cell_m
    me = srd_cast.body_centre(a, cell)
    if act.get("at") is not None:
        x, y, z = act["at"]
        aim = areas.cell_centre(x, y, z, cell)
    else:
        aim = srd_cast.body_centre(session.actor(act["target"], "target"), cell)
    ar = areas.make({"shape": "line", "size_m": area["length_m"], "width_m": area.get("width_m", 1.5)}, me, aim)
    return [o.id for o in session.state.actors.values()
            if o.id != a.id and not o.dead and areas.catches(ar, o, cell)
            and not attacks.total_cover(rs, session, a, o)]


def _mean(dice: str) -> float:
    n, s, b = dice_parts(dice)
    return n * (s + 1) / 2 + b


@TURN_START.rule("SRD-05")
def recharge_roll(rs, session, a):
    """SRD-05 "(Recharge 5-6)": at the start of its turn, a d6 for each spent recharge action, recorded as a die;
    on the range written it is available again."""
    done = set()
    for f in a.data.get("creature_actions") or ():
        st = (a.data.get("creature_state") or {}).get(_key(f))
        if _key(f) in done:
            continue                    # "Breath Weapons (Recharge 5-6)": one die for the breaths that share it
        done.add(_key(f))
        if f.get("recharge") and st and st.get("spent") and not a.dead:
            r = session.roll("recharge", 6, 1, who=a.id, rule="SRD-05", purpose=f"recharge {_key(f)}")[0]
            back = r >= f["recharge"][0]
            if back:
                st["spent"] = False
            session.emit({"type": "recharge", "who": a.id, "feature": _key(f), "roll": r, "recharged": back,
                          "rule": "SRD-05"})
