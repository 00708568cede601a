"""Senses and being perceived (SRD-97..SRD-100, issue 44), as the SRD 5.1 writes them (the sheet's ``srd_senses``,
engine/rules/dnd5e/srd_senses.py; the catalogue: srd_catalogue_sight.py):

* SRD-97 Devil's Sight: "Magical darkness doesn't impede the devil's darkvision." Within its darkvision's range its
  sight lines pass the voxels of a Darkness (the spell's ``magical_darkness``), not a Fog Cloud's.
* SRD-98 blindsight (the block's senses): within its radius the creature perceives others whatever obscures them,
  darkness or fog, and an invisible one; it perceives without sight, so its own blindness changes nothing there.
  Walls still stand between (a sight line through the world's voxels).
* SRD-99 Echolocation: "The bat can't use its blindsight while deafened."
* SRD-100 False Appearance: "While the gargoyle remains motionless, it is indistinguishable from an inanimate
  statue." Motionless since the fight began, its foes do not know it for a creature (option ``false_appearance``).

The sight tests read them through sight.py's hooks (``LENSES``, ``PERCEIVES``, ``WITHOUT_SIGHT``), so attacks,
targeting, the policies and the player view (``rs.sees``) all see the same."""

from __future__ import annotations

import numpy as np

from engine.rules.core import Illegal
from engine.rules.dnd5e import attacks, concentration, conditions, sight, srd_cast, srd_lasting, text, turns
from engine.rules.dnd5e.srd_senses import senses
from engine.world.geometry import distance_m
from engine.world.grid import World

text.EVENT_LINES.update({
    "false_appearance": text._did(lambda s, e: "lies motionless: its foes take it for an ordinary object (False "
                                               "Appearance)"),
    "false_appearance_ends": text._did(lambda s, e: f"{e['why']}: its foes know it for a creature now"),
})


def _within(session, a, b, metres) -> bool:
    return bool(metres) and distance_m(a.body(), b.body(), session.world.cell_m) <= float(metres) + 1e-9


# -- SRD-98 blindsight, SRD-99 Echolocation ---------------------------------------------------------------------------

def blindsight_reaches(rs, session, a, b) -> bool:
    """``a``'s blindsight works and ``b`` is within its radius: not unconscious, not deafened with Echolocation."""
    se = senses(a)
    if not se.get("blindsight_m") or a.dead or a.has("unconscious"):
        return False
    if se.get("echolocation") and conditions.tagged(rs, a, "cannot_hear"):
        return False                                # SRD-99 "can't use its blindsight while deafened"
    return _within(session, a, b, se["blindsight_m"])


def blindsight(rs, session, a, b):
    """SRD-98 (``sight.PERCEIVES``): within the radius, a sight line through the walls alone settles it (not blinded,
    not invisible, not obscured); a hidden foe stays hidden (its Stealth is another matter)."""
    if not blindsight_reaches(rs, session, a, b):
        return None
    if b.data["hidden"] is not None and conditions.hostile(rs, a, b):
        return None
    return sight.sight(rs, session, a, b)


def lens(rs, session, a, b):
    """The heavily obscured voxels ``a``'s sight of ``b`` passes: all within blindsight (SRD-98), the magical
    darkness within Devil's Sight's darkvision (SRD-97)."""
    if blindsight_reaches(rs, session, a, b):
        return "all"
    if _within(session, a, b, senses(a).get("devils_sight_m")):
        return "darkness"
    return None


def lens_world(session, name: str):
    """The session's world with the obscured voxels that lens does not pass: none ("all"), the fogs ("darkness");
    the same voxels (shared), kept in the session's cache (dropped with the world's revision)."""
    base = session.world
    key = ("lens_world", name, id(base), base.revision)
    w = session.cache.get(key)
    if w is None:
        mask = None if name == "all" else srd_lasting.obscured_mask(session, darkness=False)
        if mask is not None and base.obscured is not None and np.array_equal(mask, base.obscured):
            w = base                                # no magical darkness: the world as it is
        else:
            w = World(base.voxels, base.materials, base.cell_m, base.revision)
            w.obscured = mask
            w._luts.update({k: v for k, v in base._luts.items() if not k.startswith("_")})
        session.cache[key] = w
    return w


sight.LENSES.append(lens)
sight.LENS_WORLD.append(lens_world)
sight.WITHOUT_SIGHT.append(blindsight_reaches)


# -- SRD-100 False Appearance -----------------------------------------------------------------------------------------

def disguised(rs, session, a) -> bool:
    """``a`` has False Appearance and has stayed motionless since the fight began: not moved, not acted, not aloft
    (a flyer in the air is not motionless; the flying sword's "and isn't flying")."""
    return bool(senses(a).get("false_appearance") and rs.opt("false_appearance") and not a.dead and not a.flying
                and not a.data.get("appearance_dropped"))


def unnoticed(rs, session, a, b) -> bool:
    """``a``, a foe of ``b``, takes ``b`` for an object (SRD-100)."""
    return conditions.hostile(rs, a, b) and disguised(rs, session, b)


def false_appearance(rs, session, a, b):
    """``sight.PERCEIVES``: a foe does not see a creature there (SRD-100)."""
    return False if unnoticed(rs, session, a, b) else None


sight.PERCEIVES.append(false_appearance)
sight.PERCEIVES.append(blindsight)


def not_a_target(rs, session, a, act):
    """``turns.TARGET_REFUSALS``: a foe may not name as its target what it takes for an object (SRD-100)."""
    ids = [act.get("target")] + list(act.get("targets") or ())
    for tid in ids:
        t = session.state.actors.get(tid) if isinstance(tid, str) else None
        if t is not None and t.id != a.id and unnoticed(rs, session, a, t):
            return Illegal(f"{a.name} sees no creature there: {t.name} lies motionless, indistinguishable from an "
                           "ordinary object (False Appearance)", "SRD-100", "target")
    return None


turns.TARGET_REFUSALS.append(not_a_target)


def drop_appearance(rs, session, a, why: str) -> None:
    if not senses(a).get("false_appearance") or a.data.get("appearance_dropped"):
        return
    was = disguised(rs, session, a)
    a.data["appearance_dropped"] = True         # moved or acted (aloft too): not motionless since the fight began
    if was:
        session.emit({"type": "false_appearance_ends", "who": a.id, "why": why, "rule": "SRD-100"})


#: the actions that leave it motionless: ending the turn, a reaction policy (a choice, not a deed); an attack reveals
#: it once made (made unseen, DND-26: ``attacked``)
STILL = ("end_turn", "reaction_policy", "attack")


def acts(rs, session, a, act) -> None:
    """``turns.BEFORE_ACTION``: moving or acting ends it before the action plays."""
    if act["action"] not in STILL:
        drop_appearance(rs, session, a, "moves" if act["action"] == "move" else f"acts ({act['action']})")


turns.BEFORE_ACTION.append(acts)


def attacked(rs, session, a, t, plan, hit) -> None:
    """``attacks.ATTACK_MADE``: its attack, made as an unseen attacker, gives it away."""
    drop_appearance(rs, session, a, "attacks")


attacks.ATTACK_MADE.append(attacked)


@turns.TURN_START.rule("SRD-100")
def false_appearance_holds(rs, session, t):
    """As the fight's first turn starts, each creature whose False Appearance holds says so in the log."""
    if session.state.data.get("false_appearance_said"):
        return
    still = [a for a in session.state.actors.values() if disguised(rs, session, a)]
    if still:                           # the state gains the mark only in a fight that has one (replays stay the same)
        session.state.data["false_appearance_said"] = True
    for a in still:
        session.emit({"type": "false_appearance", "who": a.id, "rule": "SRD-100"})


# -- SRD-101 Darkness Aura --------------------------------------------------------------------------------------------

AURA = "SRD-101"


def _aura_uses(a) -> int:
    return int(a.data.setdefault("creature_state", {}).get("Darkness Aura", {}).get("used", 0))


def aura_check(rs, session, a) -> dict:
    """"1/Day": a use left, and its action (``common.need_action``, by the action unit)."""
    aura = senses(a).get("darkness_aura")
    if not aura:
        raise Illegal(f"{a.name} has no Darkness Aura", AURA, "action")
    per_day = int(aura.get("per_day", 1))
    if _aura_uses(a) >= per_day:
        raise Illegal(f"Darkness Aura is used up ({per_day}/day)", AURA, "action")
    return {"radius_m": float(aura.get("radius_m", 4.5))}


def aura_apply(rs, session, a, plan) -> None:
    """"A 15-foot radius of magical darkness extends out from the darkmantle, moves with it ... as long as the
    darkmantle maintains concentration": the Darkness spell's lasting area (SPL-10, ``magical_darkness``) centred on
    it, following it (``follows``), held by its concentration on "darkness" (its end takes the area away)."""
    st = a.data.setdefault("creature_state", {}).setdefault("Darkness Aura", {})
    st["used"] = int(st.get("used", 0)) + 1
    concentration.begin(rs, session, a, "darkness", [])
    centre = srd_cast.body_centre(a, session.world.cell_m)
    area = {"shape": "sphere", "size_m": plan["radius_m"], "origin": [round(c, 3) for c in centre]}
    a.data.setdefault("lasting", []).append({"spell": "darkness", "area": area, "eye": None, "dc": 0, "slot": None,
                                             "follows": True, "feature": "Darkness Aura"})
    session.emit({"type": "lasting_area", "who": a.id, "spell": "darkness", "area": area, "rule": AURA})
    srd_lasting.sync_obscured(session)


@conditions.MOVED.rule(AURA)
def darkness_follows(rs, session, a):
    """"moves with it": its moved area's voxels are obscured anew at the end of each of its moves."""
    if any(e.get("follows") and e["spell"] == "darkness" for e in a.data.get("lasting") or ()):
        srd_lasting.sync_obscured(session)
