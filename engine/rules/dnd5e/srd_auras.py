"""The SRD creatures' auras and riders' gifts of SRD-39..SRD-40, as the SRD 5.1 writes them (the sheet's
``srd_features``, engine/rules/dnd5e/srd_features.py; the catalogue: srd_catalogue2.py):

* SRD-39 Fear Aura: "Any creature hostile to the pit fiend that starts its turn within 20 feet of the pit fiend must
  make a DC 21 Wisdom saving throw, unless the pit fiend is incapacitated. On a failed save, the creature is
  frightened until the start of its next turn. If a creature's saving throw is successful, the creature is immune to
  the pit fiend's Fear Aura for the next 24 hours."
* SRD-40 Confer Fire Resistance: "The nightmare can grant resistance to fire damage to anyone riding it."
* SRD-42 Tail Spike Regrowth: "The manticore has twenty-four tail spikes. Used spikes regrow when the manticore
  finishes a long rest."
"""

from __future__ import annotations

from engine.rules import riding
from engine.rules.core import Illegal
from engine.rules.dnd5e import attacks, conditions, srd_traits, text
from engine.rules.dnd5e.damage import damage_modifier
from engine.rules.dnd5e.turns import TURN_START
from engine.world.geometry import distance_m

text.EVENT_LINES.update({
    "fear_aura": text._did(lambda s, e: f"is {'immune to' if e.get('immune') else 'no longer frightened by'} "
                                        f"{e['source']}'s Fear Aura"),
})


def _features(a) -> dict:
    return a.data.get("srd_features") or {}


def _within(session, a, t, radius_m: float) -> bool:
    """"within 20 feet of the pit fiend": from its body (the centres' distance, AIR-03, less half its footprint)."""
    cell = session.world.cell_m
    return distance_m(a.body(), t.body(), cell) <= radius_m + a.footprint * cell / 2 + 1e-9


def _fear_ends(rs, session, t) -> None:
    """"frightened until the start of its next turn": the fear each aura gave ends as its turn starts (a fear from
    another source stays)."""
    held = t.data.pop("fear_aura_frightened", None)
    if not held or "frightened" not in t.conditions:
        return
    rest = [s for s in t.conditions["frightened"] if s not in held]
    for src in held:
        session.emit({"type": "fear_aura", "who": t.id, "source": src, "rule": "SRD-39"})
    if rest:
        t.conditions["frightened"] = rest
    else:
        conditions.remove_condition(rs, session, t, "frightened", "SRD-39")


@TURN_START.rule("SRD-39")
def fear_aura(rs, session, t):
    """Each aura's creature in turn order of the state: a hostile one within its radius, not incapacitated, that
    ``t`` is not immune to, asks ``t`` a Wisdom save against its DC: a failure frightens it (the aura its source)
    until the start of its next turn; a success makes it immune for the rest of the scene (24 hours outlast a
    fight)."""
    _fear_ends(rs, session, t)
    if t.dead or t.hp <= 0:
        return
    for a in session.state.actors.values():
        fa = _features(a).get("fear_aura")
        if fa is None or a.id == t.id or a.dead or not conditions.hostile(rs, a, t) \
                or conditions.incapacitated(rs, a) or a.id in (t.data.get("fear_aura_immune") or ()) \
                or not _within(session, a, t, float(fa["radius_m"])):
            continue
        if conditions.saving_throw(rs, session, t, "wis", int(fa["dc"]), a, "SRD-39", f"{a.name}'s Fear Aura"):
            t.data.setdefault("fear_aura_immune", []).append(a.id)
            session.emit({"type": "fear_aura", "who": t.id, "source": a.id, "immune": True, "rule": "SRD-39"})
            continue
        had = a.id in t.conditions.get("frightened", ())
        conditions.add_condition(rs, session, t, "frightened", "SRD-39", source=a.id)
        if not had and a.id in t.conditions.get("frightened", ()):
            t.data.setdefault("fear_aura_frightened", []).append(a.id)


@damage_modifier("SRD-40")
def conferred_resistance(rs, session, t, dmg):
    """"The nightmare can grant resistance to fire damage to anyone riding it": it always grants it (the mount's
    choice, taken for its rider); the rider resists that type while seated on it (DND-36)."""
    if not riding.rides(t):
        return
    m = riding.mount_of(session, t)
    kind = _features(m).get("confer_resistance")
    if kind and not m.dead and dmg["type"] == kind and kind not in dmg["resist"]:
        dmg["resist"].add(kind)
        dmg["notes"].append(f"{m.name} grants resistance to {kind} damage (SRD-40)")


# -- SRD-42 Tail Spike Regrowth -------------------------------------------------------------------------------------

def spikes_left(a) -> int | None:
    """The spikes it has left (None: it counts none): each attack with its Tail Spike uses one, hit or miss; a
    fight has no long rest, so none regrows."""
    sp = _features(a).get("spikes")
    if sp is None:
        return None
    return int(sp["count"]) - int((a.data.get("creature_state") or {}).get(sp["weapon"], {}).get("used", 0))


def spikes_check(rs, session, a, w) -> None:
    sp = _features(a).get("spikes")
    if sp and w["name"] == sp["weapon"] and (spikes_left(a) or 0) <= 0:
        raise Illegal(f"{a.name} has no tail spikes left (all {sp['count']} used; they regrow after a long rest)",
                      "SRD-42", "weapon")


def spike_used(rs, session, a, t, plan, hit) -> None:
    sp = _features(a).get("spikes")
    if sp and plan["weapon"]["name"] == sp["weapon"]:
        st = a.data.setdefault("creature_state", {}).setdefault(sp["weapon"], {})
        st["used"] = int(st.get("used", 0)) + 1


srd_traits.ATTACK_CHECKS.append(spikes_check)
attacks.ATTACK_MADE.append(spike_used)
