"""The renderer's only door into the rules core (engine.rules): sessions, scripted steps, movement ranges (the event
types it reads, engine.rules.events, need nothing else).
If the core or the scene's ruleset is missing, every function raises one clear AerieError."""

from __future__ import annotations

from engine.errors import AerieError
from engine.rules.events import DoorOpened, LockOpened, ObjectDestroyed, StepResult


def new_session(scene, seed=None):
    try:
        from engine.rules.session import Session
    except ImportError as e:
        raise AerieError(f"this needs the rules core (engine.rules.core), which is not available: {e}") from None
    try:
        return Session(scene, seed=seed)
    except AerieError as e:
        raise AerieError(f"{scene.path}: cannot start the rules: {e}") from None


def session_world(session):
    """The world a session plays on: its own copy of the scene's, which breaking objects edits (the renderer draws
    this one and re-meshes the boxes ``changed_boxes`` names)."""
    from engine.rules.objects import own_world

    return own_world(session)


def changed_boxes(events) -> list:
    """The voxel boxes a step's typed events changed (objects destroyed, doors and locks opened):
    [((x0, y0, z0), (x1, y1, z1))]."""
    return [(tuple(lo), tuple(hi)) for e in events if isinstance(e, (ObjectDestroyed, LockOpened, DoorOpened))
            for lo, hi in (e.voxels or ())]


def display_world(world):
    """A copy of a world for a renderer that follows sessions (the scene's own stays as loaded)."""
    from engine.world.grid import World

    w = World(world.voxels.copy(), world.materials, world.cell_m)
    w.ground_image = world.ground_image
    w.floor_images = world.floor_images
    w.obscured = world.obscured                  # a Fog Cloud's, a Darkness's voxels (replaced whole, never edited)
    return w


def sync_display_world(display, session) -> list:
    """Make ``display`` (a renderer's world) show the session's voxels; returns the changed box (one bounding
    box, or none) for ``Renderer.world_changed``. Cheap when nothing changed: one array comparison. The heavily
    obscured voxels follow too (drawn as a translucent volume from ``display.obscured``; no voxel's mesh changes)."""
    import numpy as np

    display.set_obscured(session.world.obscured)
    src = session.world.voxels
    if src.shape != display.voxels.shape:
        return []
    diff = src != display.voxels
    if not diff.any():
        return []
    zs, ys, xs = np.nonzero(diff)
    lo, hi = (int(xs.min()), int(ys.min()), int(zs.min())), (int(xs.max()), int(ys.max()), int(zs.max()))
    display.voxels[lo[2]:hi[2] + 1, lo[1]:hi[1] + 1, lo[0]:hi[0] + 1] = src[lo[2]:hi[2] + 1, lo[1]:hi[1] + 1, lo[0]:hi[0] + 1]
    display._luts.pop("_los_flat", None)
    display.revision += 1
    return [(lo, hi)]


def script(scene, actions_file=None) -> list[dict]:
    """The steps to play: the actions file's (read and checked as ``aerie run --actions`` reads it), else the
    scene's script."""
    if actions_file:
        from engine.rules.runner import load_actions

        return load_actions(actions_file)[0]
    return list(scene.spec.script)


def run_steps(scene, n: int, seed=None, actions=None):
    """A session after the first ``n`` scripted steps; returns (session, [events of each step])."""
    acts = script(scene, actions)
    if n > len(acts):
        raise AerieError(f"{scene.path}: --step {n}: the script has only {len(acts)} step(s)")
    s = new_session(scene, seed)
    per_step = []
    for i, a in enumerate(acts[:n]):
        res = play_step(s, a, f"{scene.path}: script[{i}]")
        per_step.append(res.log if res is not None else [])
    return s, per_step


def play_step(session, act: dict, where: str) -> StepResult | None:
    """One scripted step: its :class:`StepResult`; a step the script marks ``illegal = ...`` (the runner's key) must
    be refused and gives None."""
    step = dict(act) if isinstance(act, dict) else act
    want = step.pop("illegal", None) if isinstance(step, dict) else None
    try:
        res = session.step(step)
    except AerieError as e:
        if want is not None:
            return None
        raise AerieError(f"{where}: {e}") from None
    if want is not None:
        raise AerieError(f"{where}: expected to be refused ({want}) but it was legal")
    return res


def movement_costs(scene, state, c, session=None) -> dict:
    """{(x, y, layer): metres} for every place the character can end its move, from the rules' own reach map
    (engine.rules.aerial.reach: AIR-06/07/09 costs, take-off included)."""
    s = session or new_session(scene)
    try:
        from engine.rules.aerial import reach
    except ImportError as e:
        raise AerieError(f"the movement overlay needs engine.rules.aerial: {e}") from None
    actor = s.state.actors.get(c.id)
    if actor is None:
        raise AerieError(f"overlay 'movement:{c.id}': the rules have no character {c.id!r}")
    r = reach(s, actor)
    out = {}
    for (x, y, z) in r.destinations():
        cm = r.cost_cm(x, y, z)
        if cm is not None:
            out[(x, y, z)] = round(cm / 100.0, 2)
    return out
