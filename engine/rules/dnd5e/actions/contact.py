"""Dnd5e actions grapple, escape, shove, mount, dismount: each one unit (``check`` -> plan, ``apply``),
dispatched by ``Dnd5e.ACTIONS``. ``rs`` is the ruleset."""

from __future__ import annotations

from engine.rules.dnd5e import common, conditions
from engine.rules.dnd5e import mounts, srd_grapple, srd_misc
from engine.rules import riding
from engine.rules import aerial
from engine.rules.actions import Param, Unit
from engine.rules.core import Illegal
from engine.rules.dnd5e.actions import action
from engine.rules.dnd5e import feats
from engine.rules.dnd5e.data import SIZES
from engine.world.geometry import engaged


P = Param


def contest_candidates(a, ctx, t, kind: str, extra) -> list[dict]:
    """A grapple or shove on a foe within the longest melee reach, while an attack is left (a cheap prefilter)."""
    if not (ctx.can_attack and ctx.near(t)):
        return []
    return [{"actor": a.id, "action": kind, "target": t.id, **e} for e in extra]


def contest_preview(rs, session, a, act, plan) -> dict:
    """A grapple's or shove's preview: the Athletics contest's two bonuses, and whether it grounds a flyer."""
    t = session.state.actors[plan["target"]]
    return {"target": t.id, "your_bonus": conditions.skill_bonus(rs, a, "athletics"),
            "their_bonus": max(conditions.skill_bonus(rs, t, "athletics"), conditions.skill_bonus(rs, t, "acrobatics")),
            "grounds_a_flyer": bool(t.flying and (act["action"] == "shove" and act.get("mode", "prone") == "prone"
                                                  or act["action"] == "grapple" and not a.flying))}


@action
class Grapple(Unit):
    name = "grapple"
    place = 15
    groups = {"on_foe": 1}
    PARAMS = {"target": P("id", True), "bonus": P("bool", help="as a bonus action (Tavern Brawler after an unarmed hit)"),
              "pin": P("bool", help="Grappler: pin the creature it grapples (both restrained)")}

    @staticmethod
    def candidates(rs, session, a, ctx, t):
        return contest_candidates(a, ctx, t, "grapple", ({},))

    preview = staticmethod(contest_preview)

    @staticmethod
    def check(rs, session, a, act):
        if act.get("pin"):
            return feats.check_pin(rs, session, a, act)
        t = conditions.contest_target(rs, session, a, act, "DND-30")
        if a.id in t.conditions.get("grappled", []):
            raise Illegal(f"{a.name} already grapples {t.name}", "DND-30", "target")
        plan = {"target": t.id}
        if act.get("bonus"):
            plan["bonus_from"] = feats.bonus_contest_source(rs, session, a, "grapple")
        return plan

    @staticmethod
    def apply(rs, session, a, act, plan):
        if plan.get("pin"):
            feats.apply_pin(rs, session, a, plan)
            return
        feats.spend_contest(rs, session, a, plan)
        t = session.state.actors[plan["target"]]
        if conditions.contest(rs, session, a, t, "DND-30"):
            conditions.add_condition(rs, session, t, "grappled", "DND-30", source=a.id)
            session.emit({"type": "grapple", "who": a.id, "target": t.id, "rule": "DND-30"})
            srd_misc.touch_burns(rs, session, a, t, "grapple")        # SRD-109: "A creature that touches the balor"


@action
class Escape(Unit):
    name = "escape"
    place = 16
    groups = {"then": 5}
    spends_action = True

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "escape"}] if a.has("grappled") else []      # its check's first condition

    @staticmethod
    def check(rs, session, a, act):
        common.need_action(rs, a, session, "escaping a grapple", "DND-30")
        if not a.has("grappled"):
            raise Illegal(f"{a.name} is not grappled", "DND-30")
        return {}

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.state.turn["action"] = True
        gid = a.conditions["grappled"][0] if a.conditions["grappled"] else None
        g = session.state.actors.get(gid) if gid else None
        skill = max(("athletics", "acrobatics"), key=lambda s: conditions.skill_bonus(rs, a, s))
        dc = srd_grapple.escape_dc(a, gid)
        mine = conditions.check_roll(rs, session, a, skill, "check", "DND-30" if dc is None else "SRD-19", "escape")
        if dc is not None:          # SRD-19 "grappled (escape DC 19)": a check against the DC, not a contest
            theirs, ok = dc, mine >= dc
        else:
            theirs = (conditions.check_d20(rs, session, g, "str", "contest", "DND-30", "Athletics", "Athletics")
                      + conditions.skill_bonus(rs, g, "athletics")) if g else 0
            ok = mine > theirs
        session.emit({"type": "escape", "who": a.id, "from": gid, "total": mine, "against": theirs, "success": ok,
                      "rule": "DND-30" if dc is None else "SRD-19"})
        if ok:
            if g:
                conditions.release(rs, session, a, g, "DND-30", "escaped")
            else:
                conditions.remove_condition(rs, session, a, "grappled", "DND-30")


@action
class Shove(Unit):
    name = "shove"
    place = 17
    groups = {"on_foe": 2}
    PARAMS = {"target": P("id", True), "mode": P("str", choices=("prone", "push"), default="prone"),
              "bonus": P("bool", help="as a bonus action (Shield Master after the Attack action, Charger after Dash)")}

    @staticmethod
    def candidates(rs, session, a, ctx, t):
        return contest_candidates(a, ctx, t, "shove", ({"mode": "prone"}, {"mode": "push"}))

    preview = staticmethod(contest_preview)

    @staticmethod
    def check(rs, session, a, act):
        t = conditions.contest_target(rs, session, a, act, "DND-31")
        plan = {"target": t.id, "mode": act.get("mode", "prone")}
        if act.get("bonus"):
            plan["bonus_from"] = feats.bonus_contest_source(rs, session, a, "shove")
        return plan

    @staticmethod
    def apply(rs, session, a, act, plan):
        feats.spend_contest(rs, session, a, plan)
        t = session.state.actors[plan["target"]]
        if not conditions.contest(rs, session, a, t, "DND-31"):
            return
        srd_misc.touch_burns(rs, session, a, t, "shove")              # SRD-109: its hands on the balor
        if a.dead:
            return
        if plan.get("bonus_from") == "charger" and plan["mode"] == "push" and session.state.turn.get("charge_line_m", 0) >= 3 - 1e-9:
            session.emit({"type": "shove", "who": a.id, "target": t.id, "mode": "push", "moved": True, "cells": 2,
                          "rule": "DND-F31", "note": "Charger: pushed up to 3 m"})
            mounts.push_from(rs, session, a, t, 2)            # DND-F31: after a 3 m straight run, a push of up to 3 m
            return
        if plan["mode"] == "prone":
            session.emit({"type": "shove", "who": a.id, "target": t.id, "mode": "prone", "rule": "DND-31"})
            rs.knock_prone(session, t, "DND-31")
            return
        if riding.rides(t):
            # DND-36: moved against its will while mounted -> Dexterity save DC 10 or fall off, prone
            session.emit({"type": "shove", "who": a.id, "target": t.id, "mode": "push", "moved": False,
                          "reason": "mounted", "rule": "DND-31"})
            mounts.moved_against_will(rs, session, t, riding.mount_of(session, t))
            return
        dx = (t.x > a.x) - (t.x < a.x)
        dy = (t.y > a.y) - (t.y < a.y)
        if dx == dy == 0:
            dx = 1
        nx, ny, nz = t.x + dx, t.y + dy, t.layer
        blocked = not aerial.body_fits(session, t, nx, ny, nz) or any(
            aerial._overlap(t, (nx, ny, nz), o) for o in session.state.actors.values() if o.id != t.id and not o.dead and not riding.rides(o))
        if blocked:
            session.emit({"type": "shove", "who": a.id, "target": t.id, "mode": "push", "moved": False,
                          "reason": "no room behind", "rule": "DND-31"})
            return
        frm = t.pos
        t.x, t.y = nx, ny
        aerial._carry_rider(session, t)
        session.emit({"type": "shove", "who": a.id, "target": t.id, "mode": "push", "moved": True, "from": list(frm),
                      "to": list(t.pos), "rule": "DND-31", "note": "forced movement provokes no opportunity attack (DND-28)"})
        if riding.carries(t):
            mounts.moved_against_will(rs, session, riding.rider_of(session, t), t)
        if not t.flying and not aerial.is_supported(session, t):
            session.emit({"type": "pushed_off", "who": t.id, "rule": "AIR-12"})
            t.flying = True
            aerial.fall(session, t, None, "AIR-12", "pushed off an edge")


@action
class Mount(Unit):
    name = "mount"
    place = 20
    groups = {"on_friend": 1}
    PARAMS = {"target": P("id", True)}

    @staticmethod
    def candidates(rs, session, a, ctx, f):
        """A larger friend within 1.5 m (Mount.check's size and distance)."""
        if SIZES.index(f.size) > SIZES.index(a.size) and engaged(ctx.ab, f.body()):
            return [{"actor": a.id, "action": "mount", "target": f.id}]
        return []

    # -- mounts (DND-36) -------------------------------------------------------------------------------------------------
    @staticmethod
    def check(rs, session, a, act):
        m = common.living_target(rs, session, a, act["target"])
        if m.id == a.id or conditions.hostile(rs, a, m):
            raise Illegal(f"{m.name} is not a willing mount", "DND-36", "target")
        if riding.rides(a) or riding.carries(m) or riding.rides(m):
            raise Illegal("already riding or ridden", "DND-36", "target")
        if SIZES.index(m.size) <= SIZES.index(a.size):
            raise Illegal(f"{m.name} must be larger than {a.name} to carry it", "DND-36", "target")
        if not engaged(a.body(), m.body()):
            raise Illegal(f"{m.name} is not within 1.5 m", "DND-36", "target")
        cost = a.data["speed_m"] / 2
        left = rs.movement_left(session, a, False)
        if left + 1e-9 < cost:
            raise Illegal(f"mounting costs half the speed ({cost:g} m); {a.name} has {max(left, 0):g} m left", "DND-36")
        return {"mount": m.id, "cost": cost}

    @staticmethod
    def apply(rs, session, a, act, plan):
        rs.spend_movement(session, a, plan["cost"])
        m = session.state.actors[plan["mount"]]
        mounts.do_mount(rs, session, a, m)
        st = session.state
        if m.data["controlled_mount"] and m.id in st.order and a.id in st.order:
            # DND-36: a controlled mount acts on its rider's initiative, right after it
            i = st.order.index(m.id)
            st.order.pop(i)
            if i < st.turn_index:
                st.turn_index -= 1
            st.order.insert(st.order.index(a.id) + 1, m.id)
            session.emit({"type": "initiative_moved", "who": m.id, "after": a.id, "order": list(st.order), "rule": "DND-36"})


@action
class Dismount(Unit):
    name = "dismount"
    place = 21
    groups = {"then": 6}
    PARAMS = {"to": P("pos")}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "dismount"}] if a.data["mounted_on"] else []

    @staticmethod
    def check(rs, session, a, act):
        m = riding.require_mount(session, a, "DND-36")
        cost = a.data["speed_m"] / 2
        # a rider's own movement (its mount's is the mount's): speed x (1 + Dash) - metres already spent
        left = a.data["speed_m"] * (1 + session.state.turn["dash"]) - session.state.turn["moved_m"]
        if left + 1e-9 < cost:
            raise Illegal(f"dismounting costs half the speed ({cost:g} m); {a.name} has {max(left, 0):g} m left", "DND-36")
        spot = mounts.dismount_spot(rs, session, a, m, act.get("to"))
        if spot is None:
            raise Illegal(f"no free space next to {m.name} to dismount into", "DND-36")
        if act.get("to") and tuple(act["to"]) != spot:
            raise Illegal(f"{list(act['to'])} is not a free space within 1.5 m of {m.name}", "DND-36", "to")
        return {"spot": spot, "cost": cost}

    @staticmethod
    def apply(rs, session, a, act, plan):
        rs.spend_movement(session, a, plan["cost"])
        m = riding.unseat(session, a)
        a.x, a.y, a.layer = plan["spot"]
        session.emit({"type": "dismount", "who": a.id, "mount": m.id, "to": list(a.pos), "rule": "DND-36"})
        mounts.after_unhorsed(rs, session, a)
