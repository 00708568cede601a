"""`aerie render`, `aerie flythrough`, `aerie replay`: stills and videos, headless."""

from __future__ import annotations


from engine.errors import AerieError
from engine.outputs import atomic_path
from engine.render.video import Progress, VideoWriter, check_output


def _load(path):
    from engine.scene import load_scene

    return load_scene(path)


def _inputs(scene, *more) -> tuple:
    """What the command reads (engine.scene.scene_inputs, and an actions file): its output may be none of them."""
    from engine.scene import scene_inputs

    return scene_inputs(scene) + tuple(m for m in more if m)


def _renderer(scene, size, world=None):
    from engine.render.context import RenderContext
    from engine.render.renderer import Renderer

    rc = RenderContext.headless(size)
    return Renderer(rc, world if world is not None else scene.world)


def choose_camera(scene, state, camera=None, orbit=None):
    from engine.render.camera import default_camera, orbit_camera, scene_camera

    if camera:
        return scene_camera(scene, camera)
    if orbit is not None:
        return orbit_camera(scene.world, state.characters, float(orbit))
    return default_camera(scene.world, state.characters)


def still_state(scene, step: int = 0, seed=None, actions=None):
    """(state, session or None) for a still: the scene as placed, or after the first N scripted steps."""
    from engine.render.state import RenderState, from_session

    if step and step > 0:
        from engine.render import rules_bridge

        session, _ = rules_bridge.run_steps(scene, step, seed, actions)
        return from_session(scene, session), session
    if step and step < 0:
        raise AerieError(f"--step {step}: must be 0 or more")
    return RenderState.from_scene(scene), None


def cmd_render(args) -> int:
    from PIL import Image

    from engine.render.overlays import build_overlays

    scene = _load(args.scene)
    out = check_output(args.output, (".png",), inputs=_inputs(scene))
    state, session = still_state(scene, getattr(args, "step", 0), getattr(args, "seed", None))
    if session is not None:                 # after N steps: the map as the steps left it (broken objects gone)
        import dataclasses

        from engine.render.rules_bridge import session_world

        scene = dataclasses.replace(scene, world=session_world(session))
    cam = choose_camera(scene, state, getattr(args, "camera", None), getattr(args, "orbit", None))
    overlays = build_overlays(scene, state, getattr(args, "overlay", None) or [], session)
    from engine.render.renderer import DrawOptions

    r = _renderer(scene, tuple(args.size))
    step = getattr(args, "step", 0) or 0
    legend = f"{scene.name}  ·  cell {scene.world.cell_m:g} m  ·  layer = altitude of the feet (1 m each)"
    cut = getattr(args, "cut_above", None)
    if cut is not None:
        Z = scene.world.size[2]
        if cut >= Z:
            raise AerieError(f"--cut-above {cut}: the map's layers are 0..{Z - 1}")
        r.set_cut_above(cut)
        state = cut_state(state, cut)
        legend += f"  ·  cut above layer {cut}"
    if step:
        legend += f"  ·  after step {step}"
    from engine.units import scene_units

    units = getattr(args, "units", None) or scene_units(scene)      # display only: the labels in feet or metres
    img = r.render(cam, state, overlays, DrawOptions(hud=(legend,), units=units))
    with atomic_path(out, "the image") as tmp:      # whole or not at all: the old file stays until this is done
        Image.fromarray(img).save(tmp, format="PNG")
    w, h = args.size
    print(f"wrote {out} ({w}x{h})")
    return 0


def cut_state(state, layer: int):
    """The render state without the characters above a cut (their feet above ``layer``)."""
    import dataclasses

    return dataclasses.replace(state, characters=[c for c in state.characters if c.layer <= layer])


def cmd_flythrough(args) -> int:
    from engine.render.camera import scene_path
    from engine.render.state import RenderState
    from engine.units import scene_units

    scene = _load(args.scene)
    state = RenderState.from_scene(scene)
    path = scene_path(scene, state.characters, args.seconds, getattr(args, "path", None), scene.world)
    at = getattr(args, "at", None)
    out = check_output(args.output, (".png",) if at is not None else (".mp4", ".gif"), inputs=_inputs(scene))
    seconds = args.seconds or path.duration or 10.0
    scale = path.duration / seconds if path.duration > 0 else 0.0   # --seconds stretches the keyframes to fit
    fps = int(args.fps)
    n = max(1, int(round(seconds * fps)))
    r = _renderer(scene, tuple(args.size))
    where = char_points(scene.world, state.characters)
    opts = flythrough_options(scene, scene_units(scene))
    if at is not None:                      # one still: the frame the video shows at that time
        from PIL import Image

        img = r.render(path.at(float(at) * scale, where), state, None, opts)
        with atomic_path(out, "the image") as tmp:
            Image.fromarray(img).save(tmp, format="PNG")
        print(f"wrote {out} (the fly-through at {float(at):g} s, {args.size[0]}x{args.size[1]})")
        return 0
    prog = Progress(n, f"flythrough {out.name}")
    with atomic_path(out, "the video") as tmp, prog, VideoWriter(tmp, tuple(args.size), fps) as vw:
        for i in range(n):
            t = i / fps * scale
            vw.write(r.render(path.at(t, where), state, None, opts))
            prog.update(i + 1)
    prog.done()
    print(f"wrote {out} ({n} frames, {n / fps:.1f} s at {fps} fps, {args.size[0]}x{args.size[1]})")
    return 0


def flythrough_options(scene, units: str = "m"):
    """What a fly-through frame draws besides the scene (the window's preview draws the same)."""
    from engine.render.renderer import DrawOptions

    return DrawOptions(hud=(f"{scene.name}  ·  cell {scene.world.cell_m:g} m  ·  layer = altitude of the feet "
                            "(1 m each)",), units=units)


def char_points(world, chars):
    from engine.render.camera import char_points as cp

    return cp(world, chars)


def cmd_replay(args) -> int:
    from engine.render import rules_bridge
    from engine.render.camera import orbit_camera
    from engine.render.events import STEP_S, build_step, effects, frame_state
    from engine.render.state import from_session

    scene = _load(args.scene)
    fly = None
    if getattr(args, "path", None) is not None:
        from engine.render.camera import scene_path

        fly = scene_path(scene, [], None, args.path, scene.world)
    actions = rules_bridge.script(scene, getattr(args, "actions", None))
    if not actions:
        raise AerieError(f"{scene.path}: nothing to replay: the scene has no [[script]] (or give --actions FILE)")
    out = check_output(args.output, (".mp4", ".gif"), inputs=_inputs(scene, getattr(args, "actions", None)))
    from engine.units import scene_units

    units = scene_units(scene)
    session = rules_bridge.new_session(scene, getattr(args, "seed", None))
    fps = int(args.fps)
    per_step = max(1, int(round(STEP_S * fps)))
    hold = fps
    n = hold + per_step * len(actions) + hold
    before = from_session(scene, session)
    r = _renderer(scene, tuple(args.size), rules_bridge.session_world(session))
    total_turn = 40.0
    prog = Progress(n, f"replay {out.name}")
    frame = 0

    def cam(chars=None):
        if fly is not None:     # the named path; follow and look-at keys aim at the characters as they are now
            return fly.at(frame / fps, char_points(scene.world, chars if chars is not None else before.characters))
        return orbit_camera(scene.world, before.characters, 20.0 + total_turn * frame / n)

    from engine.render.renderer import DrawOptions

    # a step refused half-way raises inside: the temporary video is dropped, the old one stays
    with atomic_path(out, "the video") as tmp, prog, VideoWriter(tmp, tuple(args.size), fps) as vw:
        for _ in range(hold):
            vw.write(r.render(cam(), before, None, DrawOptions(hud=(f"{scene.name}: {len(actions)} steps",), units=units)))
            frame += 1
            prog.update(frame)
        for i, act in enumerate(actions):
            res = rules_bridge.play_step(session, act, f"{scene.path}: script[{i}]")
            events = res.events if res is not None else ()
            after = from_session(scene, session)
            for box in rules_bridge.changed_boxes(events):     # broken objects: re-mesh only their chunks
                r.world_changed(box)
            anim = build_step(before, after, events)
            for k in range(per_step):
                u = k / max(per_step - 1, 1)
                st, _, hud = frame_state(anim, u)
                fx = effects(scene.world, anim, st, u)
                head = f"step {i + 1}/{len(actions)}: {act.get('actor', '?')} {act.get('action', '')}"
                vw.write(r.render(cam(st.characters), st, fx, DrawOptions(hud=(head, *hud), units=units)))
                frame += 1
                prog.update(frame)
            before = after
        for _ in range(hold):
            vw.write(r.render(cam(), before, None, DrawOptions(hud=("end of the script",), units=units)))
            frame += 1
            prog.update(frame)
    prog.done()
    print(f"wrote {out} ({frame} frames, {frame / fps:.1f} s)")
    return 0
