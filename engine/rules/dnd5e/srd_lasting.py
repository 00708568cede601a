"""Lasting spell areas as state (SPL-09): Web, Stinking Cloud, Moonbeam, Cloudkill, Insect Plague, Black Tentacles,
Spirit Guardians. Each is held by its caster's concentration and kept in the caster's ``data["lasting"]`` (part of
the saved and replayed state): its spell, its area in metres (``areas.py``: shape, size, origin, direction), the
eye of its point of origin, the DC and slot. A creature whose turn starts inside it (and that its origin reaches)
makes the spell's save again: the damage rolled anew (half on a success where the spell says so), its conditions,
Stinking Cloud's lost action. Spirit Guardians moves with its caster. The area ends with the concentration.

Entering an area during a turn is not a trigger yet (named in each spell's ``omits``).

Fog Cloud and Darkness (SPL-10) are lasting areas that save nothing: their voxels are heavily obscured. The world's
``obscured`` grid is every obscuring area's voxels (``obscured_mask``: the voxels whose centres are inside, as
``areas.cells``), set by ``sync_obscured`` whenever such an area begins or ends and after a rolled-back step; the
world joins it to its sight-blocking voxels, so the rules' sight lines, the cover and threat volumes (numpy and
GLSL) and the player view all see it through their one arithmetic (engine/world/grid.py ``blocks_sight``)."""

from __future__ import annotations

import numpy as np

from engine.rules import aerial, objects
from engine.rules.core import Illegal
from engine.rules.dnd5e import areas, attacks, concentration, conditions, srd_cast, text, turns
from engine.rules.dnd5e.srd_spells import spell

RULE = "SPL-09"
OBSCURE_RULE = "SPL-10"

text.EVENT_LINES.update({
    "lasting_area": text._did(lambda s, e: f"leaves {e['spell']} in place ({e['area']['shape']} of "
                              f"{e['area']['size_m']:g} m) while it concentrates"),
    "lasting_area_ends": text._did(lambda s, e: f"no longer holds {e['spell']}: its area is gone"),
    "loses_action": text._did(lambda s, e: f"spends its action retching ({e['spell']})"),
})


def begin(rs, session, a, plan: dict, sp: dict) -> None:
    """After the cast: a lasting spell's area stays while ``a`` concentrates on it."""
    if not sp["fx"].get("lasting") or concentration.held(a) != plan["spell"] or "area" not in plan:
        return
    _, dc, _ = srd_cast.caster_numbers(rs, a)
    entry = {"spell": plan["spell"], "area": plan["area"], "eye": plan.get("eye"), "dc": dc, "slot": plan.get("slot"),
             "follows": bool(sp["self_range"])}
    a.data.setdefault("lasting", []).append(entry)
    session.emit({"type": "lasting_area", "who": a.id, "spell": plan["spell"], "area": plan["area"], "rule": RULE})
    if sp["fx"].get("obscures"):
        sync_obscured(session)


srd_cast.AFTER_CAST.append(begin)


def area_now(session, caster, entry) -> areas.Area:
    """The area as it stands: Spirit Guardians' around its caster where it is now."""
    ar = entry["area"]
    spec = {"shape": ar["shape"], "size_m": ar["size_m"], **{k: ar[k] for k in ("width_m", "height_m") if k in ar}}
    if entry["follows"]:
        return areas.make(spec, srd_cast.body_centre(caster, session.world.cell_m))
    origin = tuple(ar["origin"])
    if "direction" in ar:
        d = ar["direction"]
        return areas.make(spec, origin, (origin[0] + d[0], origin[1] + d[1], origin[2] + d[2]))
    return areas.make(spec, origin)


@turns.TURN_START.rule(RULE)
def lasting_areas(rs, session, t):
    """``t``'s turn starts: each lasting area it is in makes it save again."""
    if t.dead:
        return
    cell = session.world.cell_m
    for caster in list(session.state.actors.values()):
        for entry in list(caster.data.get("lasting") or ()):
            sp = spell(session, entry["spell"])
            if sp["fx"].get("obscures"):
                continue                        # it obscures and asks no save (SPL-10)
            if t.id == caster.id and entry["follows"]:
                continue
            if sp["fx"].get("foes_only") and not conditions.hostile(rs, caster, t):
                continue
            ar = area_now(session, caster, entry)
            if not areas.catches(ar, t, cell):
                continue
            eye = tuple(entry["eye"]) if entry.get("eye") else None
            if t.id != caster.id and attacks.total_cover(rs, session, caster, t, eye=eye):
                continue
            plan = {"spell": entry["spell"], "slot": entry["slot"], "targets": [t.id], "eye": entry.get("eye")}
            _tick(rs, session, caster, t, sp, plan, entry["dc"])


def _tick(rs, session, caster, t, sp, plan, dc) -> None:
    cmod = conditions.ab(rs, caster, caster.data["casting"])
    dmg = 0
    if sp.get("damage"):
        txt = srd_cast.dice(caster, sp, sp["damage"], plan)
        dmg = srd_cast.roll(session, caster, txt, "damage", cmod, RULE) if txt else 0
    if sp["fx"].get("loses_action"):
        ok = conditions.saving_throw(rs, session, t, sp["save"], dc, caster, "DND-21", sp["id"])
        if not ok:
            session.state.turn["action"] = True
            session.emit({"type": "loses_action", "who": t.id, "spell": sp["id"], "rule": RULE})
        return
    if any(c in t.conditions for c in sp["conditions"]) and not dmg:
        return
    srd_cast.save_one(rs, session, caster, t, sp, plan, dc, dmg)
    aerial.check_grounded(session, t)


def ends(rs, session, caster, held) -> None:
    """The concentration ended: its lasting area is gone."""
    kept = [e for e in caster.data.get("lasting") or () if e["spell"] != held["spell"]]
    if len(kept) != len(caster.data.get("lasting") or ()):
        caster.data["lasting"] = kept
        session.emit({"type": "lasting_area_ends", "who": caster.id, "spell": held["spell"], "rule": RULE})
        if spell(session, held["spell"])["fx"].get("obscures"):
            sync_obscured(session)


concentration.ON_END.append(ends)


# -- heavily obscured areas (SPL-10) --------------------------------------------------------------------------------
def obscured_mask(session, darkness: bool = True) -> np.ndarray | None:
    """bool [Z, Y, X]: the voxels inside a lasting Fog Cloud or Darkness (their centres inside its area), or None.
    ``darkness = False``: the magical darkness left out (what Devil's Sight sees, SRD-97)."""
    w = session.world
    X, Y, Z = w.size
    mask = None
    for caster in session.state.actors.values():
        for entry in caster.data.get("lasting") or ():
            fx = spell(session, entry["spell"])["fx"]
            if not fx.get("obscures") or (not darkness and fx.get("magical_darkness")):
                continue
            got = areas.cells(area_now(session, caster, entry), w.size, w.cell_m)
            if not got:
                continue
            if mask is None:
                mask = np.zeros((Z, Y, X), dtype=bool)
            c = np.asarray(got, dtype=np.int64)
            mask[c[:, 2], c[:, 1], c[:, 0]] = True
    return mask


def sync_obscured(session) -> None:
    """The world's heavily obscured voxels as the state's lasting areas say (the session's own copy of the world
    once there are any: the scene's stays as loaded); the session's sight caches go with a change."""
    mask = obscured_mask(session)
    if mask is None and session.world.obscured is None:
        return
    if objects.own_world(session).set_obscured(mask):
        session.sync_world()


objects.WORLD_SYNC.append(sync_obscured)


class Obscure:
    """Fog Cloud, Darkness (SPL-10): a sphere centred on a point in range, heavily obscured while the caster
    concentrates; no creature is targeted. Fog Cloud's radius grows 6 m a slot level above 1st."""
    rule = OBSCURE_RULE

    @staticmethod
    def check(rs, session, a, act, sp, plan):
        if act.get("at") is None:
            raise Illegal(f"{sp['name']} needs a point: at = [x, y, layer]", OBSCURE_RULE, "at")
        sp = dict(sp)
        grow = sp["fx"].get("radius_per_slot_m")
        if grow and plan.get("slot"):
            sp["area"] = {**sp["area"], "size_m": sp["area"]["size_m"] + grow * (plan["slot"] - sp["level"])}
        ar, eye = srd_cast.area_of(session, a, sp, act)
        plan["area"] = {"shape": ar.shape, "size_m": ar.size_m, "origin": [round(c, 3) for c in ar.origin]}
        plan["targets"] = []
        plan["eye"] = list(eye) if eye is not None else None
        plan["point"] = list(act["at"])
        return plan

    @staticmethod
    def candidates(rs, session, a, ctx, sp, base):
        return []                               # a policy does not cast it yet (no expected damage to weigh)

    @staticmethod
    def apply(rs, session, a, plan):
        sp = spell(session, plan["spell"])
        srd_cast.spend(rs, session, a, sp, plan)
        session.emit({"type": "cast", "who": a.id, "spell": plan["spell"], "targets": [],
                      **({"slot": plan["slot"]} if plan.get("slot") else {}), "at": plan["point"],
                      "area": plan["area"], "rule": OBSCURE_RULE})
        concentration.begin(rs, session, a, plan["spell"], [])
        begin(rs, session, a, plan, sp)


srd_cast.EFFECTS["obscure"] = Obscure


# -- what the simulate policies read (issue 39; engine/sim/policies.py): casts to aim, areas to keep out of ---------
def obscuring_casts(rs, session, a) -> list[tuple[dict, float]]:
    """(the cast without its point ``at``, the sphere's radius in metres) of each obscuring spell (Fog Cloud,
    Darkness) ``a`` knows, at its own level, when it is ``a``'s turn with its action and a slot of that level left,
    and it holds no spell yet (the cast would end it). The policy names the point; the rules check the whole cast."""
    if session.current != a.id or session.state.turn.get("action") or concentration.held(a):
        return []
    slots = a.data.get("spell_slots")
    out = []
    for name in a.data.get("spells") or ():
        sp = spell(session, name)
        if not sp["fx"].get("obscures") or sp["time"] != "action" or not sp.get("area"):
            continue
        if sp["level"] > 0 and slots is not None and slots.get(str(sp["level"]), 0) <= 0:
            continue
        out.append(({"actor": a.id, "action": "cast", "spell": name}, float(sp["area"]["size_m"])))
    return out


def harmful_cells(rs, session, a, cells) -> np.ndarray:
    """bool per cell ``(x, y, layer)``: ``a``'s body there is inside a lasting area that makes it save when its
    turn starts (``lasting_areas``): not an obscuring one, and not one that moves with its caster (Spirit Guardians:
    a fighter walks into it to reach the caster)."""
    out = np.zeros(len(cells), dtype=bool)
    cell = session.world.cell_m
    body = a.body()
    for caster in session.state.actors.values():
        for entry in caster.data.get("lasting") or ():
            sp = spell(session, entry["spell"])
            if sp["fx"].get("obscures") or entry["follows"]:
                continue
            ar = area_now(session, caster, entry)
            for k, (x, y, z) in enumerate(np.asarray(cells).tolist()):
                if not out[k] and areas.catches(ar, body.moved(x, y, z), cell):
                    out[k] = True
    return out
