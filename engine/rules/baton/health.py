"""Baton damage: Protection, Vigor, Life and wounds, poison and the hours (BAT-16..31, BAT-51, BAT-53)."""

from __future__ import annotations

import math

from engine.rules import aerial, riding
from engine.rules.baton import mounts, skills
from engine.rules.baton.upcalls import EFFECTS
from engine.rules.baton import dice as bd
from engine.rules.baton.common import DIRECT, FATIGUE
from engine.rules.core import Actor, Illegal
from engine.rules.hooks import Hook


def hud_rows(rs, session, a: Actor) -> list[str]:
    """Life is the HP; Vigor and Protection absorb damage first (BAT-17..26)."""
    data = a.data or {}
    wounds = data.get("wounds") or []
    return [f"Life {a.hp}/{a.max_hp}   Vigor {data.get('vigor')}/{data.get('max_vigor')}",
            f"Protection {data.get('protection')}/{data.get('protection_max')}   wounds {len(wounds)}"]


def health_brief(rs, session, a: Actor) -> str:
    """Protection, Vigor and Life now (BAT-16..26): what a hit took is seen at once."""
    d = a.data or {}
    return f"P{d.get('protection', 0)} V{d.get('vigor', 0)}/{d.get('max_vigor', 0)} L{a.hp}/{a.max_hp}"

# ================================================================================ damage
def apply_damage(rs, session, a: Actor, amount: int, dtype: str, source, rule: str, critical: bool = False) -> int:
    """Protection -> Vigor -> Life (BAT-16..26). Direct damage (necrotic, fire, falls, caustic poison) skips
    Protection and Vigor; fatigue skips Protection. Returns the Life lost."""
    if a.dead or amount <= 0:
        return 0
    d = a.data
    left = int(amount)
    took_p = took_v = 0
    if dtype not in DIRECT and dtype not in FATIGUE:
        took_p = min(d["protection"], left)
        d["protection"] -= took_p
        left -= took_p
    if dtype not in DIRECT:
        took_v = min(d["vigor"], left)
        d["vigor"] -= took_v
        left -= took_v
    wound = None
    if left > 0:                                                    # BAT-23, BAT-26
        wound = {"id": d["next_wound"], "severity": left, "type": dtype, "treated": False,
                 "necrotic": dtype == "necrotic", "recovery": None, "category": skills.wound_category(rs, left)}
        d["next_wound"] += 1
        d["wounds"].append(wound)
    sync_life(rs, a)
    ev = {"type": "damage", "who": a.id, "amount": int(amount), "damage_type": dtype, "protection_absorbed": took_p,
          "vigor_absorbed": took_v, "wound": wound["severity"] if wound else 0, "protection": d["protection"],
          "vigor": d["vigor"], "life": a.hp, "rule": rule, "layers_rule": "BAT-16+BAT-20+BAT-23"}
    if source:
        ev["source"] = source
    if critical:
        ev["critical"] = True
    if wound:
        ev["wound_category"] = wound["category"]
    session.emit(ev)
    if took_p and d["protection"] == 0:
        session.emit({"type": "unprotected", "who": a.id, "rule": "BAT-18"})
    if took_v and d["vigor"] == 0:
        session.emit({"type": "exhausted", "who": a.id, "rule": "BAT-21"})
    maybe_die(rs, session, a, rule)
    if not a.dead:
        mounts.ride_check(rs, session, a, int(amount))
    return left


def sync_life(rs, a: Actor) -> None:
    """BAT-22/26/20: Life = max Life - the sum of wound severities; max Vigor = current Life."""
    sev = sum(w["severity"] for w in a.data["wounds"])
    a.hp = max(0, a.data["max_life"] - sev)
    a.max_hp = a.data["max_life"]
    a.data["life"] = a.hp
    a.data["max_vigor"] = a.hp
    a.data["vigor"] = max(0, min(a.data["vigor"], a.hp))
    for w in a.data["wounds"]:
        w["category"] = skills.wound_category(rs, w["severity"])


def maybe_die(rs, session, a: Actor, rule: str) -> None:
    if a.hp <= 0 and not a.dead:
        a.dead = True
        session.emit({"type": "death", "who": a.id, "rule": "BAT-25", "cause": rule,
                      "reason": f"Life 0 ({sum(w['severity'] for w in a.data['wounds'])} in wounds, {rule})"})
        for o in session.state.actors.values():                     # a grapple ends with the grabber
            if a.id in o.conditions.get("grappled", []) or a.id in o.conditions.get("grappling", []):
                skills.release(rs, session, a, o)
        if riding.carries(a):
            r = riding.rider_of(session, a)
            mounts.throw_rider(rs, session, r, "its mount died")
        if riding.rides(a):
            mounts.place_beside(rs, session, a, riding.unseat(session, a))
        aerial.check_grounded(session, a)


def poison_effect(rs, session, a):
    return next((e for e in session.state.data["effects"] if e["target"] == a.id and e["kind"] in ("inoculant", "neurotoxic")), None)


def find_wound(rs, a: Actor, wid: int, key="wound") -> dict:
    w = next((w for w in a.data["wounds"] if w["id"] == wid), None)
    if w is None:
        ids = ", ".join(str(w["id"]) for w in a.data["wounds"]) or "none"
        raise Illegal(f"{a.name} has no wound {wid} (its wounds: {ids})", "BAT-26", key)
    return w


def hourly(rs, session) -> None:
    st = session.state
    h = st.data["hour"]
    for ef in st.data["effects"]:
        if ef.get("per") != "hour" or ef.get("ended"):
            continue
        t = st.actors[ef["target"]]
        if h >= ef["at_hour"]:
            if ef["kind"] == "latent" and not t.dead:                  # BAT-53
                n, s, b = bd.parse(ef["dice"])
                r = sum(session.roll("poison", s, n, who=t.id, rule="BAT-53", purpose="latent poison")) + b
                rs.apply_damage(session, t, r, "latent", None, "BAT-53")
            EFFECTS.end_effect(rs, session, t, ef, "its hours have passed")
    st.data["effects"] = [e for e in st.data["effects"] if not e.get("ended")]


def poison(rs, session, t: Actor, kind: str, potency: int) -> None:
    """BAT-53: Physique against 7 + potency; success = the partial effect, failure = the total."""
    ev = skills.skill_test(rs, session, t, "physique", 7 + potency, "BAT-53", f"resist a {kind} poison")
    total = not ev["success"]
    session.emit({"type": "poisoned", "who": t.id, "kind": kind, "effect": "total" if total else "partial", "rule": "BAT-53"})
    d = session.state.data

    def roll(expr, purpose):
        n, s, b = bd.parse(expr)
        return sum(session.roll("poison", s, n, who=t.id, rule="BAT-53", purpose=purpose)) + b

    if kind == "hallucinogenic":
        (h,) = session.roll("poison_hours", 3, who=t.id, rule="BAT-53", purpose="hours")
        conds = ["hallucinating"] + (["confused"] if total else [])
        EFFECTS.add_effect(rs, session, t, kind, "hour", at_hour=d["hour"] + h, conditions=conds, potency=potency)
    elif kind == "caustic":
        rs.apply_damage(session, t, roll("2d6" if total else "2d3", "caustic poison"), "caustic", None, "BAT-53")
    elif kind == "inoculant":
        rs.apply_damage(session, t, roll("1d6", "inoculant poison"), "fatigue", None, "BAT-53")
        if total and not t.dead:
            EFFECTS.add_effect(rs, session, t, kind, "turn", potency=potency)
    elif kind == "neurotoxic":
        EFFECTS.add_effect(rs, session, t, kind, "turn", potency=potency, conditions=["paralyzed" if total else "slow"])
    elif kind == "latent":
        (h,) = session.roll("poison_hours", 6, who=t.id, rule="BAT-53", purpose="hours before it strikes")
        EFFECTS.add_effect(rs, session, t, kind, "hour", at_hour=d["hour"] + h, dice="2d6" if total else "2d3", potency=potency)


def fall_severity(rs, layers: int) -> int:
    return math.floor(layers * 1.0 / 1.5 + 1e-9)


#: What follows from a number the GM sets (engine/rules/gm.py ``gm_set``): ``fn(rs, session, actor, key, old, new)``
#: after the value is set and the GM's event logged.
GM_SET = Hook("gm_set", "fn(rs, session, actor, key, old, new) after the GM sets a number", order=(
    "gm_life",
))


@GM_SET.rule("BAT-22")
def gm_life(rs, session, a: Actor, key: str, old, new) -> None:
    """Life is max Life less the wounds (BAT-22): a Life the GM sets becomes the wounds' sum, so the next recount
    keeps it -- a higher Life heals the latest wounds first, a lower one is a new wound of the difference (type
    "gm") -- and Life 0 is death (BAT-25)."""
    if key != "hp" or a.dead:
        return
    d = a.data
    want = max(0, d["max_life"] - int(new))
    have = sum(w["severity"] for w in d["wounds"])
    wounds = [dict(w) for w in d["wounds"]]          # new containers: events already logged may share the old ones
    if want < have:
        cut = have - want
        for w in reversed(wounds):
            take = min(w["severity"], cut)
            w["severity"] -= take
            cut -= take
        wounds = [w for w in wounds if w["severity"] > 0]
    elif want > have:
        wounds.append({"id": d["next_wound"], "severity": want - have, "type": "gm", "treated": False,
                       "necrotic": False, "recovery": None, "category": skills.wound_category(rs, want - have)})
        d["next_wound"] += 1
    d["wounds"] = wounds
    sync_life(rs, a)
    maybe_die(rs, session, a, "BAT-25")
