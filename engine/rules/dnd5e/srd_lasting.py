"""Lasting spell areas as state (SPL-09): Web, Stinking Cloud, Moonbeam, Cloudkill, Insect Plague, Black Tentacles,
Spirit Guardians. Each is held by its caster's concentration and kept in the caster's ``data["lasting"]`` (part of
the saved and replayed state): its spell, its area in metres (``areas.py``: shape, size, origin, direction), the
eye of its point of origin, the DC and slot. A creature whose turn starts inside it (and that its origin reaches)
makes the spell's save again: the damage rolled anew (half on a success where the spell says so), its conditions,
Stinking Cloud's lost action. Spirit Guardians moves with its caster. The area ends with the concentration.

Entering an area during a turn is not a trigger yet (named in each spell's ``omits``)."""

from __future__ import annotations

from engine.rules import aerial
from engine.rules.dnd5e import areas, attacks, concentration, conditions, srd_cast, text, turns
from engine.rules.dnd5e.srd_spells import spell

RULE = "SPL-09"

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


concentration.ON_END.append(ends)
