"""Objects and breakable terrain in a session, for any ruleset: what a target is (an object of the scene's
``[[objects]]``, one of its parts, or a single voxel of terrain), how far it is, whether it can be seen, what
damage does to it (immunities, resistances, vulnerabilities, the damage threshold, hit points), and what breaking
it does to the world: its voxels become air for everyone at once, line of sight, cover and movement use the new
voxels on the next query, and walkers left standing on nothing fall (the aerial layer's AIR-12 fall).

The state lives in ``State.objects`` (per object: hp, destroyed, locked, open, parts), ``State.terrain``
(damaged terrain voxels: "x,y,z" -> HP left) and ``State.broken`` (the boxes removed, in order), so the state
fingerprint, replays and saves see it; the session's world is its own copy of the scene's once the first voxel
breaks (``own_world``), rebuilt from the scene's voxels and ``State.broken`` when a step is rolled back.

Rulesets call these with their own rule IDs (this module names none): ``resolve`` (a target from an action),
``sight`` (line of sight and the blocked fraction), ``damage`` (apply one hit), ``open_lock``.
Broken voxels become air, not rubble: rubble that does not block sight nor hold anyone up would be air to every
rule (docs/world.md, "Objects").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.rules import riding
from engine.rules.core import Illegal
from engine.world.cover import cover_level, sample_points, support_indices
from engine.world.geometry import Body, cell_gap, distance_m
from engine.world.grid import World
from engine.world.los import clamp_points, quantize, trace_fixed
from engine.world.materials import Material
from engine.world.objects import Box, ObjectSpec, PartSpec
from engine.rules import aerial
from engine.world.cover import cover_between


@dataclass(frozen=True)
class Target:
    """Something that can be attacked that is not a creature."""
    kind: str                  # "object" | "part" | "voxel"
    id: str                    # "door", "statue.leg", "voxel:3,4,0"
    name: str
    obj: ObjectSpec | None     # the ObjectSpec (None for terrain)
    part: PartSpec | None      # the PartSpec (kind "part")
    material: Material
    ac: int
    threshold: int
    voxel: tuple[int, int, int] | None = None    # a voxel named by the action (kind "voxel", or inside an object)

    @property
    def indestructible(self) -> bool:
        return bool(self.material.indestructible)


def init_objects(session) -> None:
    """``State.objects`` from the scene's ``[[objects]]`` (called once by the Session)."""
    out = {}
    for o in getattr(session.scene, "objects", ()):
        d = {"hp": o.hp, "max_hp": o.hp, "ac": o.ac, "threshold": o.threshold, "material": o.material,
             "from": list(o.box.lo), "to": list(o.box.hi), "destroyed": False, "indestructible": o.indestructible}
        if o.lock_dc is not None:
            d.update({"locked": True, "open": False, "lock_dc": o.lock_dc})
        if o.door:                       # a door opens (open_door) once it is not locked
            d.update({"door": True, "open": False})
            if o.secret:
                d["found"] = False
        if o.parts:
            d["parts"] = {p.id: {"hp": p.hp, "max_hp": p.hp, "destroyed": False} for p in o.parts}
        out[o.id] = d
    session.state.objects = out


def _objects(session):
    return getattr(session.scene, "objects", ())


def find_object(session, oid: str):
    return next((o for o in _objects(session) if o.id == oid), None)


def object_at(session, x: int, y: int, z: int):
    for o in _objects(session):
        if o.box.contains(x, y, z):
            return o
    return None


def gone(session, o, part=None) -> bool:
    st = session.state.objects[o.id]
    if st["destroyed"] or (st.get("open") and o.opens):
        return True
    return part is not None and st["parts"][part.id]["destroyed"]


def object_voxels(session, o) -> list[tuple[int, int, int]]:
    """The voxels of an object still standing (its box less destroyed parts)."""
    if gone(session, o):
        return []
    out = []
    (x0, y0, z0), (x1, y1, z1) = o.box.lo, o.box.hi
    for z in range(z0, z1 + 1):
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                p = o.part_at(x, y, z)
                if p is None or not gone(session, o, p):
                    out.append((x, y, z))
    return out


def resolve(session, target: str | None, voxel, rule: str, key: str = "target") -> Target:
    """The Target an action names: ``target = "<object id>"`` or ``"<object id>.<part id>"``, or ``voxel =
    [x, y, z]`` (inside an object: that object, or its part). Refusals name ``rule``: an unknown id, a destroyed
    object, a voxel outside the map or of air."""
    w = session.world
    if voxel is not None:
        x, y, z = voxel
        if not w.in_bounds(x, y, z):
            X, Y, Z = w.size
            raise Illegal(f"voxel {list(voxel)} is outside the map ({X} x {Y} x {Z})", rule, "voxel")
        mid = w.at(x, y, z)
        if mid == 0:
            raise Illegal(f"voxel {list(voxel)} is air: there is nothing there to attack", rule, "voxel")
        mat = w.materials[mid]
        o = object_at(session, x, y, z)
        if o is not None:
            p = o.part_at(x, y, z)
            if p is not None:
                return Target("part", f"{o.id}.{p.id}", f"{o.name} ({p.id})", o, p, mat, o.ac, o.threshold, (x, y, z))
            return Target("object", o.id, o.name, o, None, mat, o.ac, o.threshold, (x, y, z))
        return Target("voxel", f"voxel:{x},{y},{z}", f"the {mat.name} at {list(voxel)}", None, None, mat, mat.ac,
                      mat.threshold, (x, y, z))
    assert target is not None          # the callers route an action here only when it names a target or a voxel
    oid, _, pid = target.partition(".")
    o = find_object(session, oid)
    if o is None:
        ids = ", ".join(o.id for o in _objects(session)) or "none"
        raise Illegal(f"no character or object {target!r} (objects: {ids})", rule, key)
    mat = session.world.materials[o.material_id]
    if gone(session, o):
        raise Illegal(f"{o.name} is already {'destroyed' if session.state.objects[o.id]['destroyed'] else 'open'}", rule, key)
    if pid:
        p = next((p for p in o.parts if p.id == pid), None)
        if p is None:
            raise Illegal(f"{o.name} has no part {pid!r} (parts: {', '.join(q.id for q in o.parts) or 'none'})", rule, key)
        if gone(session, o, p):
            raise Illegal(f"{o.name}'s {pid} is already destroyed", rule, key)
        return Target("part", f"{o.id}.{p.id}", f"{o.name} ({p.id})", o, p, mat, o.ac, o.threshold)
    return Target("object", o.id, o.name, o, None, mat, o.ac, o.threshold)


def _obj(t: Target) -> ObjectSpec:
    """The object of a target of kind "object" or "part" (always set for those kinds)."""
    assert t.obj is not None, t.id
    return t.obj


def _part(t: Target) -> PartSpec:
    """The part of a target of kind "part" (always set for that kind)."""
    assert t.part is not None, t.id
    return t.part


def _voxel(t: Target) -> tuple[int, int, int]:
    """The voxel of a target of kind "voxel" (always set for that kind)."""
    assert t.voxel is not None, t.id
    return t.voxel


def candidate_voxels(session, t: Target) -> list[tuple[int, int, int]]:
    if t.voxel is not None:
        return [t.voxel]
    if t.kind == "part":
        b = _part(t).box
        return [(x, y, z) for z in range(b.lo[2], b.hi[2] + 1) for y in range(b.lo[1], b.hi[1] + 1)
                for x in range(b.lo[0], b.hi[0] + 1)]
    return object_voxels(session, t.obj)


def voxel_body(v) -> Body:
    return Body(v[0], v[1], v[2], 1, 1, 0.5)


def _ignore_for(session, t: Target, attacker: Body):
    """Treat the target's own voxels (and the attacker's floor) as clear for its line of sight."""
    X, Y, Z = session.world.size
    idx = set()
    if t.obj is not None and t.kind == "object":
        for (x, y, z) in object_voxels(session, t.obj):
            idx.add((z * Y + y) * X + x)
    for (x, y, z) in candidate_voxels(session, t):
        idx.add((z * Y + y) * X + x)
    idx.update(support_indices(session.world, (attacker,)))
    table = np.array(sorted(idx), dtype=np.int64)
    return lambda flat: np.isin(flat, table)


@dataclass(frozen=True)
class Sight:
    voxel: tuple[int, int, int]        # the voxel aimed at (the best seen one of an object)
    distance_m: float
    blocked_fraction: float
    level: str                         # the ruleset's cover level
    visible: bool


def sight(session, attacker: Body, t: Target, levels, thresholds=None, max_voxels: int = 64,
          voxels=None) -> Sight:
    """Line of sight from the attacker's eye to the target: 36 lines into a voxel (as cover_between samples a
    body), the target's own voxels not blocking. An object is aimed at its least covered voxel, then the
    nearest (at most ``max_voxels`` nearest are tried)."""
    w = session.world
    cell = w.cell_m
    vox = sorted(candidate_voxels(session, t) if voxels is None else voxels, key=lambda v: (distance_m(attacker, voxel_body(v), cell), v))
    vox = vox[:max_voxels]
    if not vox:
        vox = [t.voxel if t.voxel is not None else _obj(t).box.lo]
    ex, ey = attacker.centre
    eye = np.array([ex, ey, attacker.layer + attacker.eye_m])
    pts = np.concatenate([sample_points(voxel_body(v)) for v in vox])
    size = w.size
    p1 = clamp_points(quantize(pts), size)
    p0 = clamp_points(np.broadcast_to(quantize(eye), p1.shape).copy(), size)
    blocked = trace_fixed(w.los_distance(), size, p0, p1, ignore=_ignore_for(session, t, attacker)).reshape(len(vox), -1)
    frac = blocked.mean(axis=1)
    best = int(np.argmin(frac))          # argmin keeps the first (nearest) of equal fractions
    f = float(frac[best])
    v = vox[best]
    return Sight(v, distance_m(attacker, voxel_body(v), cell), f, cover_level(f, levels, thresholds), f < 1.0)


def hp_of(session, t: Target) -> tuple[int, int]:
    """(hp, max_hp) of a target."""
    if t.kind == "object":
        st = session.state.objects[_obj(t).id]
        return st["hp"], st["max_hp"]
    if t.kind == "part":
        st = session.state.objects[_obj(t).id]["parts"][_part(t).id]
        return st["hp"], st["max_hp"]
    x, y, z = _voxel(t)
    left = session.state.terrain.get(f"{x},{y},{z}")
    return (t.material.hp if left is None else left), t.material.hp


def adjusted(t: Target, amount: int, dtype: str) -> tuple[int, str]:
    """Damage after the material's immunities, resistances and vulnerabilities: (damage, what applied)."""
    m = t.material
    if dtype in m.immunities:
        return 0, "immune"
    if dtype in m.resistances:
        return amount // 2, "resistant"
    if dtype in m.vulnerabilities:
        return amount * 2, "vulnerable"
    return amount, ""


def damage(session, t: Target, amount: int, dtype: str, who: str | None, rule: str, fall_rule: str = "AIR-12") -> dict:
    """One hit of ``amount`` ``dtype`` damage: immunities (psychic, poison), resistance halves, vulnerability
    doubles; less than the damage threshold does nothing; at 0 HP the target is destroyed (``break_target``).
    Emits ``object_damage``; returns it."""
    hp, max_hp = hp_of(session, t)
    dealt, why = adjusted(t, amount, dtype)
    ev = {"type": "object_damage", "target": t.id, "who": who, "amount": amount, "damage_type": dtype,
          "rule": rule, "material": t.material.name}
    if why:
        ev["applied"] = why
    if t.indestructible:
        dealt, ev["applied"] = 0, "indestructible"
    elif dealt and dealt < t.threshold:
        ev["below_threshold"] = t.threshold
        dealt = 0
    new = max(0, hp - dealt)
    ev.update({"dealt": hp - new, "hp": new, "max_hp": max_hp})
    session.emit(ev)
    if t.kind == "object":
        session.state.objects[_obj(t).id]["hp"] = new
    elif t.kind == "part":
        session.state.objects[_obj(t).id]["parts"][_part(t).id]["hp"] = new
    else:
        x, y, z = _voxel(t)
        session.state.terrain[f"{x},{y},{z}"] = new
    if new == 0 and hp > 0:
        break_target(session, t, who, rule, fall_rule, f"{dtype} damage")
    return ev


def break_target(session, t: Target, who, rule: str, fall_rule: str, cause: str) -> None:
    """Destroy a target: its voxels become air (an object: all of them; a part: its own, and the whole object
    when the part ``fells`` it), one ``object_destroyed`` event each, then everyone left on nothing falls."""
    boxes: list[Box] = []
    ev: dict[str, object]
    if t.kind == "voxel":
        x, y, z = _voxel(t)
        session.state.terrain.pop(f"{x},{y},{z}", None)
        boxes.append(Box((x, y, z), (x, y, z)))
        ev = {"type": "object_destroyed", "target": t.id, "kind": "voxel", "material": t.material.name}
    else:
        o = _obj(t)
        st = session.state.objects[o.id]
        whole = t.kind == "object" or _part(t).fells
        if t.kind == "part":
            st["parts"][_part(t).id]["destroyed"] = True
            st["parts"][_part(t).id]["hp"] = 0
        if whole:
            st["destroyed"] = True
            st["hp"] = 0
            boxes.append(o.box)
        else:
            boxes.append(_part(t).box)
        ev = {"type": "object_destroyed", "target": t.id, "kind": t.kind, "material": t.material.name,
              "object": o.id, "whole": whole}
        if t.kind == "part" and whole:
            ev["fells"] = o.id
    ev.update({"by": who, "cause": cause, "rule": rule,
               "voxels": [[list(b.lo), list(b.hi)] for b in boxes]})
    session.emit(ev)
    remove_boxes(session, boxes, fall_rule, f"{t.name} broke under it")


def open_lock(session, o, who: str, how: str, rule: str) -> None:
    """A lock opened (picked or forced): unlocked; a door (``opens``, the default) swings open and its voxels
    leave the way -- to every rule it is as if it were gone, though it is not destroyed."""
    st = session.state.objects[o.id]
    st["locked"] = False
    ev = {"type": "lock_opened", "target": o.id, "by": who, "how": how, "rule": rule, "opens": o.opens}
    if o.opens:
        st["open"] = True
        ev["voxels"] = [[list(o.box.lo), list(o.box.hi)]]
    session.emit(ev)
    if o.opens:
        remove_boxes(session, [o.box], "AIR-12", f"{o.name} swung open under it")


def next_to(session, body: Body, a, o) -> bool:
    """``a`` (whose body, or its mount's, is ``body``) stands next to ``o``: a voxel of it within one cell, from the
    layer below its feet to its top -- what handling an object asks (a lock, a door, knocking it over)."""
    return any(cell_gap(body, voxel_body(v)) <= 1 and a.layer - 1 <= v[2] <= a.layer + a.height_layers
               for v in object_voxels(session, o))


def closed_door(session, target: str, rule: str, locked: str, secret: str = "", secret_rule: str | None = None):
    """The door ``target`` when it may be opened (a door, standing, closed, found, not locked), else Illegal naming
    the target. ``locked`` and ``secret`` end the refusals of a locked and of an unfound secret door (what the
    ruleset offers instead: ``{dc}`` and ``{id}`` are the door's)."""
    o = find_object(session, target)
    if o is None or not o.door:
        ids = ", ".join(x.id for x in _objects(session) if x.door) or "none"
        raise Illegal(f"no door {target!r} (doors: {ids})", rule, "target")
    st = session.state.objects[o.id]
    if st["destroyed"] or st["open"]:
        raise Illegal(f"{o.name} is already {'destroyed' if st['destroyed'] else 'open'}", rule, "target")
    if o.secret and not st.get("found"):
        raise Illegal(f"{o.name} is a secret door nobody has found{secret.format(id=o.id)}", secret_rule or rule, "target")
    if st.get("locked"):
        raise Illegal(f"{o.name} is locked{locked.format(dc=o.lock_dc)}", rule, "target")
    return o


def open_door(session, o, who: str, rule: str) -> None:
    """An unlocked door swung open: its voxels leave the way, as an opened lock's door (``open_lock``)."""
    session.state.objects[o.id]["open"] = True
    session.emit({"type": "door_opened", "target": o.id, "by": who, "rule": rule,
                  "voxels": [[list(o.box.lo), list(o.box.hi)]]})
    remove_boxes(session, [o.box], "AIR-12", f"{o.name} swung open under it")


def own_world(session) -> World:
    """The session's own copy of the world (the scene's stays as loaded, for replays and other sessions)."""
    w = session.world
    if w is session.scene.world:
        c = World(w.voxels.copy(), w.materials, w.cell_m, w.revision)
        c.ground_image = w.ground_image
        c.floor_images = w.floor_images
        c.obscured = w.obscured
        for k, v in w._luts.items():
            c._luts[k] = v
        session.world = c
    return session.world


def remove_boxes(session, boxes, fall_rule: str, cause: str) -> list:
    """Set the boxes to air, record them in ``State.broken``, drop the derived caches, then let every walker
    standing on nothing fall. Returns the changed boxes (for re-meshing only their chunks)."""
    w = own_world(session)
    changed = []
    for b in boxes:
        changed.append(w.set_voxels(b.lo, b.hi, 0))
        session.state.broken.append([list(b.lo), list(b.hi)])
    session.sync_world()
    drop_unsupported(session, fall_rule, cause)
    return changed


def drop_unsupported(session, rule: str, cause: str) -> list[str]:
    """Everyone not flying whose footing is gone falls to the support below (AIR-12 damage from the layer it
    fell from, Prone); flyers are unaffected; a rider falls with its mount."""

    fell = []
    for a in list(session.state.actors.values()):
        if a.flying or riding.rides(a):
            continue
        if aerial.is_supported(session, a):
            continue
        aerial.fall_if_unsupported(session, a, rule, cause)
        fell.append(a.id)
    return fell


#: fn(session) that makes the world's derived parts match the state again after a rollback (a ruleset registers
#: the one that sets ``World.obscured`` from its lasting areas)
WORLD_SYNC: list = []


def rebuild_world(session) -> None:
    """The world as the state says: the scene's voxels less the boxes in ``State.broken`` (after a rollback), and
    what ``WORLD_SYNC`` derives from the state."""
    for fn in WORLD_SYNC:
        fn(session)
    base = session.scene.world
    if session.world is base:
        return
    v = base.voxels.copy()
    for lo, hi in session.state.broken:
        v[lo[2]:hi[2] + 1, lo[1]:hi[1] + 1, lo[0]:hi[0] + 1] = 0
    if not np.array_equal(v, session.world.voxels):
        session.world.voxels[...] = v
        session.world._luts.pop("_los_flat", None)
        session.world.revision += 1
    session.sync_world()


def what_breaking_opens(session, t: Target, viewer, others, levels) -> list[dict]:
    """What breaking ``t`` would open: for each of ``others`` whose sight lines from ``viewer`` it changes, the
    blocked lines now and with its voxels gone ("sight lines from Vess to Brann: 18/36 blocked -> 0/36")."""

    w = session.world
    v = w.voxels.copy()
    for (x, y, z) in (object_voxels(session, t.obj) if t.kind == "object" else candidate_voxels(session, t)):
        v[z, y, x] = 0
    if t.kind == "part" and _part(t).fells:
        for (x, y, z) in object_voxels(session, t.obj):
            v[z, y, x] = 0
    gone_world = World(v, w.materials, w.cell_m)
    out = []
    for o in others:
        before = cover_between(w, viewer.body(), o.body(), levels)
        after = cover_between(gone_world, viewer.body(), o.body(), levels)
        if before.blocked != after.blocked:
            out.append({"from": viewer.id, "to": o.id, "lines": len(before.blocked),
                        "blocked_before": int(sum(before.blocked)), "blocked_after": int(sum(after.blocked)),
                        "cover_before": before.level, "cover_after": after.level,
                        "text": f"sight lines from {viewer.name} to {o.name}: {int(sum(before.blocked))}/"
                                f"{len(before.blocked)} blocked -> {int(sum(after.blocked))}/{len(after.blocked)}"})
    return out


def summary(session) -> dict:
    """The objects as ``aerie run --json`` lists them: id -> hp, max_hp, destroyed (and lock, parts)."""
    return session.state.objects
