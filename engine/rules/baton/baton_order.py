"""The baton: who holds the initiative, passing it, keeping it, sides' turns and per-turn effects (BAT-01..11, BAT-58)."""

from __future__ import annotations

from typing import cast

from engine.errors import SceneError
from engine.rules import aerial, riding
from engine.rules.baton import combat, health, mounts, skills
from engine.rules.baton.initiative import (  # noqa: F401  (re-exported: the rules' callers ask baton_order)
    able,
    can_hold,
    checked_with_memo,
    holder,
    in_combat,
    memoised,
)
from engine.rules.baton.upcalls import EFFECTS
from engine.rules.hooks import Hook
from engine.rules.baton.common import CONDITIONS
from engine.rules.core import Actor, Illegal


# the hooks of the baton's moments (baton/turns.py registers the rules on them)
SIDE_TURN_START = Hook("side_turn_start", "fn(rs, session, side) when the initiative comes to the side", order=(
    "until_next_turn_ends",
    "created_conditions_end",
    "effects_tick",
    "opportunities_lapse",
))
ACTIVATION_END = Hook("activation_end", "fn(rs, session, actor) when its activation ends", order=(
    "stay_aloft",
))


# ================================================================================ the baton
def new_turn(rs, aid):
    return {"actor": aid, "major": None, "minor": None, "moved_m": 0.0, "move_used": False, "careful": False,
            "extra_m": 0.0, "test_die": None, "test_rule": None, "straight_m": 0.0, "last": None,
            "fell_m": 0.0}


def give_baton(rs, session, to: str, rule: str, kept: bool, how: str, guard: int = 0) -> None:
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
        side_turn_starts(rs, session, a.side)
        if not in_combat(rs, session) or st.over:
            return
        if not can_hold(rs, a, session):       # the effects just killed it: the side's first able character
            alt = prefer(rs, session, [o for o in st.actors.values() if o.side == a.side and can_hold(rs, o, session)])
            if not alt:
                d["holder"] = None
                check_over(rs, session, auto=False)
                if in_combat(rs, session) and not st.over:     # the whole side is down: back to the others
                    nxt = prefer(rs, session, [o for o in st.actors.values() if o.side != a.side and can_hold(rs, o, session)])
                    if nxt is not None and guard < 8:
                        give_baton(rs, session, nxt.id, "BAT-09", False, "auto", guard + 1)
                return
            a = alt
            to = a.id
    d["holder"] = to
    st.turn_index = st.order.index(to)
    st.turn = new_turn(rs, to)
    d["activations"] += 1
    if to not in d["acted"]:
        d["acted"].append(to)
    d["acted_turn"].append(to)
    if a.data["surprised"]:
        a.data["surprised"] = False
    session.emit({"type": "baton", "to": to, "side": a.side, "kept": kept, "how": how, "turn": d["turn_no"],
                  "rule": rule})
    aerial.upkeep_at_start(session, mounts.body_of(rs, session, a))   # only with the option upkeep = "start_of_turn"
    if a.has("confused") and rs.opt("auto_confusion") and guard < 8:
        confused_activation(rs, session, a, guard)


def pass_targets(rs, session, a: Actor) -> tuple[list, bool, str]:
    """(allowed ids, kept, rule) for the holder's pass now (BAT-08, BAT-09, BAT-58)."""
    return memoised(("pass", a.id), lambda: _pass_targets(rs, session, a))


def may_receive(rs, session, a: Actor) -> frozenset:
    """The ids of :func:`pass_targets`, as a set (a candidate's test in a listing)."""
    return memoised(("pass set", a.id), lambda: frozenset(pass_targets(rs, session, a)[0]))


def _pass_targets(rs, session, a: Actor) -> tuple[list, bool, str]:
    st = session.state
    t = st.turn
    die = t.get("test_die")
    confused = a.has("confused")
    kept = confused or (die is not None and die % 2 == 0)
    rule = "BAT-58" if confused else ("BAT-08" if kept else "BAT-09")
    others = [o for o in st.actors.values() if o.id != a.id and can_hold(rs, o, session)]
    allies = [o for o in others if o.side == a.side]
    foes = [o for o in others if o.side != a.side]
    if kept:
        if confused:
            allies = confused_pass_pool(rs, session, allies)
        if not allies:
            if not confused and rs.opt("lone_keeps"):
                return [a.id], True, "BAT-08"
            kept = False
            rule = "BAT-09"
        else:
            conf = [o for o in allies if o.has("confused") and o.id not in st.data["acted_turn"]]
            if conf:
                return [o.id for o in conf], True, "BAT-58"
            pool = allies
            if rs.opt("keep_prefers") == "turn":
                fresh = [o for o in allies if o.id not in st.data["acted_turn"]]
            else:
                fresh = [o for o in allies if o.id not in st.data["acted"]]
            return [o.id for o in (fresh or pool)], True, rule
    conf = [o for o in foes if o.has("confused")]
    return [o.id for o in (conf or foes)], False, rule


def confused_pass_pool(rs, session, allies: list) -> list:
    """BAT-58 "sempre passa a iniciativa para um aliado independentemente da ação que tiver tomado": the allies a
    confused holder passes to -- those who have not acted in this turn first, else (option ``confused_pass =
    "any_ally"``) any ally who is not confused too (confused ones alone would pass it round for ever); none left:
    the opponents. ``"fresh_ally"``: only allies who have not acted in this turn (the earlier reading)."""
    fresh = [o for o in allies if o.id not in session.state.data["acted_turn"]]
    if fresh or rs.opt("confused_pass") != "any_ally":
        return fresh
    return [o for o in allies if not o.has("confused")]


def confused_first(rs, session, first: str) -> str:
    """BAT-58 "Um personagem confuso sempre age antes de seus aliados", at the start too: the baton BAT-02 gives
    to ``first`` goes to a confused character of its side first (one who is not surprised, as BAT-02 asks)."""
    st = session.state
    f = st.actors[first]
    if f.has("confused"):
        return first
    conf = [o for o in st.actors.values() if o.side == f.side and o.has("confused") and can_hold(rs, o, session)
            and not o.data["surprised"]]
    return conf[0].id if conf else first


def able_sides(rs, session) -> set:
    return {a.side for a in session.state.actors.values() if can_hold(rs, a, session)}


def side_turn_starts(rs, session, side: str) -> None:
    """BAT-11: the rules on ``SIDE_TURN_START`` ("until its next turn" conditions end, per-turn effects
    tick, the side's opportunities lapse); then the fight may be over."""
    SIDE_TURN_START.run(rs, session, side)
    check_over(rs, session, auto=False)


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
        skills.remove_condition(rs, session, t, c, "BAT-11", f"effect:{ef['id']}")
    session.emit({"type": "effect_end", "who": t.id, "effect": ef["kind"], "id": ef["id"], "why": why, "rule": "BAT-11"})


def add_effect(rs, session, t: Actor, kind: str, per: str, turns=None, **kw) -> dict:
    d = session.state.data
    ef = {"id": d["next_effect"], "target": t.id, "kind": kind, "per": per, "turns": turns, **kw}
    d["next_effect"] += 1
    d["effects"].append(ef)
    for c in kw.get("conditions", []):
        skills.add_condition(rs, session, t, c, CONDITIONS.get(c, "BAT-53"), f"effect:{ef['id']}")
    return ef


def prefer(rs, session, cands: list) -> Actor | None:
    if not cands:
        return None
    acted = set(session.state.data["acted"])
    fresh = [c for c in cands if c.id not in acted]
    return (fresh or cands)[0]


def end_activation(rs, session, a: Actor) -> None:
    """The rules on ``ACTIVATION_END`` (AIR-08: a flyer spends its minor action to stay up)."""
    ACTIVATION_END.run(rs, session, a)


def do_pass(rs, session, a: Actor, to: str, kept: bool, rule: str, how="pass") -> None:
    end_activation(rs, session, a)
    st = session.state
    if st.over or not in_combat(rs, session):
        return
    tgt = st.actors[to]
    if not can_hold(rs, tgt, session):
        auto_pass(rs, session, a)
        return
    session.emit({"type": "pass", "who": a.id, "to": to, "kept": kept, "rule": rule,
                  "die": st.turn.get("test_die")})
    give_baton(rs, session, to, rule, kept, how)


def auto_pass(rs, session, a: Actor, guard: int = 0) -> None:
    """The holder cannot pass (dead, a statue): the baton goes to the other side (BAT-09)."""
    st = session.state
    foes = [o for o in st.actors.values() if o.side != a.side and can_hold(rs, o, session)]
    nxt = prefer(rs, session, foes)
    if nxt is None:
        check_over(rs, session)
        return
    session.emit({"type": "pass", "who": a.id, "to": nxt.id, "kept": False, "rule": "BAT-09", "auto": True,
                  "reason": f"{a.name} cannot act"})
    give_baton(rs, session, nxt.id, "BAT-09", False, "auto", guard)


def confused_weapon(rs, session, a: Actor, t: Actor) -> dict | None:
    """The first weapon in hand that can strike ``t`` now: in melee reach, or a ranged one in range and not blocked
    by total cover (``combat.attack_plan``); bare hands when it holds nothing."""
    eq = combat.equipped(rs, a) or [combat.main_weapon(rs, a)]
    for w in eq:
        try:
            combat.attack_plan(rs, session, a, t, w)
        except Illegal:
            continue
        return w
    return None


def confused_attack(rs, session, a: Actor, r: int) -> None:
    """BAT-58 4-5 "ataca um personagem aleatório dentro do seu alcance": "alcance" as in BAT-12's "um oponente que
    esteja dentro de seu alcance" -- a melee weapon's reach, or a ranged weapon's range (a confused archer shoots)."""
    pool = [o for o in session.state.actors.values() if o.id != a.id and able(rs, o)
            and confused_weapon(rs, session, a, o) is not None]
    if not pool:
        session.emit({"type": "confused", "who": a.id, "result": r, "does": "nobody in reach", "rule": "BAT-58"})
        return
    (k,) = session.roll("confusion_target", len(pool), who=a.id, rule="BAT-58", purpose="random target")
    t = pool[k - 1]
    w = confused_weapon(rs, session, a, t)
    assert w is not None
    session.emit({"type": "confused", "who": a.id, "result": r, "does": f"attacks {t.id}", "rule": "BAT-58"})
    session.state.turn["major"] = "attack"
    combat.resolve_attack(rs, session, a, t, w, {"major": True})


def confused_activation(rs, session, a: Actor, guard: int) -> None:
    """BAT-58: 1-3 moves randomly, 4-5 attacks a random character in reach, 6 does nothing; then it passes to
    an ally."""
    (r,) = session.roll("confusion", 6, who=a.id, rule="BAT-58", purpose="confused")
    if r <= 3:
        ok, _, _ = rs.can_move(session, a)
        body = mounts.body_of(rs, session, a)
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
        confused_attack(rs, session, a, r)
    else:
        session.emit({"type": "confused", "who": a.id, "result": r, "does": "nothing", "rule": "BAT-58"})
    after_action(rs, session)
    st = session.state
    if st.over or not in_combat(rs, session) or st.data["holder"] != a.id:
        return
    if not can_hold(rs, a, session):
        auto_pass(rs, session, a, guard + 1)
        return
    ids, kept, _rule = pass_targets(rs, session, a)
    ids = [i for i in ids if i != a.id] or ids
    if not ids:
        return
    end_activation(rs, session, a)
    if st.over or not in_combat(rs, session):
        return
    nxt = cast(Actor, prefer(rs, session, [st.actors[i] for i in ids]))
    session.emit({"type": "pass", "who": a.id, "to": nxt.id, "kept": kept, "rule": "BAT-58", "auto": True})
    if nxt.id == a.id:
        st.turn = new_turn(rs, a.id)
        return
    give_baton(rs, session, nxt.id, "BAT-58", kept, "confused", guard + 1)


def first_holder(rs, session) -> str:
    st = session.state
    acts = st.actors
    chosen = session.scene.spec.initiative_starts
    pcs = [a for a in acts.values() if a.data["pc"] and able(rs, a)]
    awake = [a for a in pcs if not a.data["surprised"]]
    file = session.scene.path
    if chosen:
        c = acts[chosen]
        if not able(rs, c):
            raise SceneError(file, "initiative_starts", f"{c.name} cannot act (dead or petrified)")
        if awake and (not c.data["pc"] or c.data["surprised"]):
            raise SceneError(file, "initiative_starts", f"{c.name} cannot start: a non-surprised PC starts "
                             f"({', '.join(a.id for a in awake)}) (BAT-02)")
        if not awake and pcs and c.side in {p.side for p in pcs}:
            raise SceneError(file, "initiative_starts", "every PC is surprised: an opponent chosen by the GM starts (BAT-02)")
        return confused_first(rs, session, chosen)
    if awake:
        return confused_first(rs, session, awake[0].id)
    pc_sides = {p.side for p in pcs}
    opp = [a for a in acts.values() if able(rs, a) and a.side not in pc_sides and not riding.carries(a)]
    opp = [a for a in opp if not a.data["surprised"]] or opp
    return confused_first(rs, session, (opp or [a for a in acts.values() if able(rs, a)])[0].id)


def check_over(rs, session, auto: bool = True) -> None:
    st = session.state
    if st.over or not in_combat(rs, session):
        return
    sides = able_sides(rs, session)
    if len(sides) > 1:
        h = holder(rs, session)
        if auto and h is not None and not can_hold(rs, h, session):
            auto_pass(rs, session, h)
        return
    st.data["combat"] = False
    st.winner = next(iter(sides)) if sides else None
    for a in st.actors.values():                    # BAT-19: Protection fully restored after combat
        if a.data["protection"] != a.data["protection_max"]:
            a.data["protection"] = a.data["protection_max"]
            session.emit({"type": "protection_restored", "who": a.id, "protection": a.data["protection"],
                          "rule": "BAT-19"})
        for c in list(a.conditions):
            for src in [s for s in a.conditions.get(c, []) if s == "until_next_turn" or s.startswith("until_side:")]:
                skills.remove_condition(rs, session, a, c, "BAT-11", src)
    session.emit({"type": "combat_over", "winner": st.winner, "rule": "BAT-10"})
    st.data["holder"] = None
    if rs.opt("after_combat") != "continue":
        st.over = True


def after_action(rs, session) -> None:
    aerial.check_all_grounded(session)
    skills.check_grapples(rs, session)
    check_over(rs, session)


EFFECTS.provide(add_effect, end_effect)
