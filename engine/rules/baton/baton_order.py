"""The baton: who holds the initiative, passing it, keeping it, sides' turns and per-turn effects (BAT-01..11, BAT-58)."""

from __future__ import annotations

from typing import cast

from engine.rules.baton import health
from engine.rules import aerial
from engine.rules import riding
from engine.rules.baton import turns
from engine.rules.baton.common import CONDITIONS
from engine.rules.core import Actor, Illegal
from engine.rules.mixin import RulesetMixin


class BatonOrder(RulesetMixin):
    """The baton: who holds the initiative, passing it, keeping it, sides' turns and per-turn effects (BAT-01..11, BAT-58) (a mixin of Baton: ``self`` is the ruleset)."""

    # ================================================================================ helpers
    def _able(self, a: Actor) -> bool:
        return not a.dead and not a.has("petrified")

    def _can_hold(self, a: Actor, session=None) -> bool:
        """May receive the baton: alive, not a statue, not a ridden mount (it acts with its rider, BAT-42)."""
        if not self._able(a):
            return False
        if not riding.carries(a):
            return True
        return session is not None and not self._able(riding.rider_of(session, a))

    def combat(self, session) -> bool:
        return bool(session.state.data.get("combat"))

    def holder(self, session) -> Actor | None:
        h = session.state.data.get("holder")
        return session.state.actors.get(h) if h else None

    # ================================================================================ the baton
    def _new_turn(self, aid):
        return {"actor": aid, "major": None, "minor": None, "moved_m": 0.0, "move_used": False, "careful": False,
                "extra_m": 0.0, "test_die": None, "test_rule": None, "straight_m": 0.0, "last": None,
                "fell_m": 0.0}

    def _give_baton(self, session, to: str, rule: str, kept: bool, how: str, guard: int = 0) -> None:
        st = session.state
        d = st.data
        a = st.actors[to]
        new_side = a.side != d.get("side")
        if new_side:
            d["turn_no"] += 1
            st.round = d["turn_no"]
            d["side"] = a.side
            d["acted_turn"] = []
            session.emit({"type": "side_turn", "side": a.side, "turn": d["turn_no"], "rule": "BAT-10"})
            side_turn_starts(self, session, a.side)
            if not self.combat(session) or st.over:
                return
            if not self._can_hold(a, session):       # the effects just killed it: the side's first able character
                alt = prefer(self, session, [o for o in st.actors.values() if o.side == a.side and self._can_hold(o, session)])
                if not alt:
                    d["holder"] = None
                    self._check_over(session, auto=False)
                    if self.combat(session) and not st.over:     # the whole side is down: back to the others
                        nxt = prefer(self, session, [o for o in st.actors.values() if o.side != a.side and self._can_hold(o, session)])
                        if nxt is not None and guard < 8:
                            self._give_baton(session, nxt.id, "BAT-09", False, "auto", guard + 1)
                    return
                a = alt
                to = a.id
        d["holder"] = to
        st.turn_index = st.order.index(to)
        st.turn = self._new_turn(to)
        d["activations"] += 1
        if to not in d["acted"]:
            d["acted"].append(to)
        d["acted_turn"].append(to)
        if a.data["surprised"]:
            a.data["surprised"] = False
        session.emit({"type": "baton", "to": to, "side": a.side, "kept": kept, "how": how, "turn": d["turn_no"],
                      "rule": rule})
        aerial.upkeep_at_start(session, self._body(session, a))   # only with the option upkeep = "start_of_turn"
        if a.has("confused") and self.opt("auto_confusion") and guard < 8:
            confused_activation(self, session, a, guard)

    def pass_targets(self, session, a: Actor) -> tuple[list, bool, str]:
        """(allowed ids, kept, rule) for the holder's pass now (BAT-08, BAT-09, BAT-58)."""
        st = session.state
        t = st.turn
        die = t.get("test_die")
        confused = a.has("confused")
        kept = confused or (die is not None and die % 2 == 0)
        rule = "BAT-58" if confused else ("BAT-08" if kept else "BAT-09")
        others = [o for o in st.actors.values() if o.id != a.id and self._can_hold(o, session)]
        allies = [o for o in others if o.side == a.side]
        foes = [o for o in others if o.side != a.side]
        if kept:
            if confused:
                fresh_turn = [o for o in allies if o.id not in st.data["acted_turn"]]
                allies = fresh_turn
            if not allies:
                if not confused and self.opt("lone_keeps"):
                    return [a.id], True, "BAT-08"
                kept = False
                rule = "BAT-09"
            else:
                conf = [o for o in allies if o.has("confused") and o.id not in st.data["acted_turn"]]
                if conf:
                    return [o.id for o in conf], True, "BAT-58"
                pool = allies
                if self.opt("keep_prefers") == "turn":
                    fresh = [o for o in allies if o.id not in st.data["acted_turn"]]
                else:
                    fresh = [o for o in allies if o.id not in st.data["acted"]]
                return [o.id for o in (fresh or pool)], True, rule
        conf = [o for o in foes if o.has("confused")]
        return [o.id for o in (conf or foes)], False, rule


def able_sides(rs, session) -> set:
    return {a.side for a in session.state.actors.values() if rs._can_hold(a, session)}


def side_turn_starts(rs, session, side: str) -> None:
    """BAT-11: the rules on ``turns.SIDE_TURN_START`` ("until its next turn" conditions end, per-turn effects
    tick, the side's opportunities lapse); then the fight may be over."""
    turns.SIDE_TURN_START.run(rs, session, side)
    rs._check_over(session, auto=False)


def tick_effect(rs, session, t: Actor, ef: dict) -> None:
    kind = ef["kind"]
    session.emit({"type": "effect_tick", "who": t.id, "effect": kind, "id": ef["id"], "rule": "BAT-11"})
    if kind == "burning":                                           # BAT-50
        w = next((w for w in t.data["wounds"] if w["id"] == ef["wound"]), None)
        if w is not None and ef["growth"]:
            w["severity"] += ef["growth"]
            session.emit({"type": "wound_worsens", "who": t.id, "wound": w["id"], "by": ef["growth"],
                          "severity": w["severity"], "rule": "BAT-50"})
            health.sync_life(rs, t)
            health.maybe_die(rs, session, t, "BAT-50")
    elif kind in ("inoculant", "neurotoxic"):                       # BAT-53
        (r,) = session.roll("poison", 3, who=t.id, rule="BAT-53", purpose=f"{kind} poison, fatigue per turn")
        rs.apply_damage(session, t, r, "fatigue", None, "BAT-53")


def end_effect(rs, session, t: Actor, ef: dict, why: str) -> None:
    ef["ended"] = True
    for c in ef.get("conditions", []):
        rs.remove_condition(session, t, c, "BAT-11", f"effect:{ef['id']}")
    session.emit({"type": "effect_end", "who": t.id, "effect": ef["kind"], "id": ef["id"], "why": why, "rule": "BAT-11"})


def add_effect(rs, session, t: Actor, kind: str, per: str, turns=None, **kw) -> dict:
    d = session.state.data
    ef = {"id": d["next_effect"], "target": t.id, "kind": kind, "per": per, "turns": turns, **kw}
    d["next_effect"] += 1
    d["effects"].append(ef)
    for c in kw.get("conditions", []):
        rs.add_condition(session, t, c, CONDITIONS.get(c, "BAT-53"), f"effect:{ef['id']}")
    return ef


def prefer(rs, session, cands: list) -> Actor | None:
    if not cands:
        return None
    acted = set(session.state.data["acted"])
    fresh = [c for c in cands if c.id not in acted]
    return (fresh or cands)[0]


def end_activation(rs, session, a: Actor) -> None:
    """The rules on ``turns.ACTIVATION_END`` (AIR-08: a flyer spends its minor action to stay up)."""
    turns.ACTIVATION_END.run(rs, session, a)


def do_pass(rs, session, a: Actor, to: str, kept: bool, rule: str, how="pass") -> None:
    end_activation(rs, session, a)
    st = session.state
    if st.over or not rs.combat(session):
        return
    tgt = st.actors[to]
    if not rs._can_hold(tgt, session):
        auto_pass(rs, session, a)
        return
    session.emit({"type": "pass", "who": a.id, "to": to, "kept": kept, "rule": rule,
                  "die": st.turn.get("test_die")})
    rs._give_baton(session, to, rule, kept, how)


def auto_pass(rs, session, a: Actor, guard: int = 0) -> None:
    """The holder cannot pass (dead, a statue): the baton goes to the other side (BAT-09)."""
    st = session.state
    foes = [o for o in st.actors.values() if o.side != a.side and rs._can_hold(o, session)]
    nxt = prefer(rs, session, foes)
    if nxt is None:
        rs._check_over(session)
        return
    session.emit({"type": "pass", "who": a.id, "to": nxt.id, "kept": False, "rule": "BAT-09", "auto": True,
                  "reason": f"{a.name} cannot act"})
    rs._give_baton(session, nxt.id, "BAT-09", False, "auto", guard)


def confused_activation(rs, session, a: Actor, guard: int) -> None:
    """BAT-58: 1-3 moves randomly, 4-5 attacks a random character in reach, 6 does nothing; then it passes to
    an ally."""
    (r,) = session.roll("confusion", 6, who=a.id, rule="BAT-58", purpose="confused")
    if r <= 3:
        ok, _, _ = rs.can_move(session, a)
        body = rs._body(session, a)
        dests = []
        if ok:
            rr = aerial.reach(session, body, fly=body.can_fly and not body.has("prone"))
            dests = sorted(rr.destinations())
        plans = []
        for dd in dests:
            try:
                plans.append(rs.ACTIONS["move"].check(rs, session, a, {"to": list(dd)}))
            except Illegal:
                continue
        if plans:
            (k,) = session.roll("confusion_target", len(plans), who=a.id, rule="BAT-58", purpose="random destination")
            session.emit({"type": "confused", "who": a.id, "result": r, "does": "moves randomly", "rule": "BAT-58"})
            rs.ACTIONS["move"].apply(rs, session, a, {"to": list(plans[k - 1]["path"][-1])}, plans[k - 1])
        else:
            session.emit({"type": "confused", "who": a.id, "result": r, "does": "cannot move", "rule": "BAT-58"})
    elif r <= 5:
        w = rs.melee_weapon(a)
        pool = [o for o in session.state.actors.values() if o.id != a.id and rs._able(o) and w
                and rs.in_reach(session, a, o, w)] if w else []
        if pool:
            (k,) = session.roll("confusion_target", len(pool), who=a.id, rule="BAT-58", purpose="random target")
            t = pool[k - 1]
            session.emit({"type": "confused", "who": a.id, "result": r, "does": f"attacks {t.id}", "rule": "BAT-58"})
            session.state.turn["major"] = "attack"
            rs._resolve_attack(session, a, t, w, {"major": True})
        else:
            session.emit({"type": "confused", "who": a.id, "result": r, "does": "nobody in reach", "rule": "BAT-58"})
    else:
        session.emit({"type": "confused", "who": a.id, "result": r, "does": "nothing", "rule": "BAT-58"})
    rs._after(session)
    st = session.state
    if st.over or not rs.combat(session) or st.data["holder"] != a.id:
        return
    if not rs._can_hold(a, session):
        auto_pass(rs, session, a, guard + 1)
        return
    ids, kept, _rule = rs.pass_targets(session, a)
    ids = [i for i in ids if i != a.id] or ids
    if not ids:
        return
    end_activation(rs, session, a)
    if st.over or not rs.combat(session):
        return
    nxt = cast(Actor, prefer(rs, session, [st.actors[i] for i in ids]))
    session.emit({"type": "pass", "who": a.id, "to": nxt.id, "kept": kept, "rule": "BAT-58", "auto": True})
    if nxt.id == a.id:
        st.turn = rs._new_turn(a.id)
        return
    rs._give_baton(session, nxt.id, "BAT-58", kept, "confused", guard + 1)
