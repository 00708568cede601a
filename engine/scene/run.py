"""``aerie run``: load a scene (engine/scene), play its script or an actions file through the rules' runner
(engine/rules/runner.py) and print the log; bad input is one line and exit 2, failed expectations exit 1."""

from __future__ import annotations

import sys

from engine.errors import one_line
from engine.outputs import check_output_path, write_output
from engine.rules.core import dumps
from engine.rules.runner import BadStep, describe, load_actions, play, state_json
from engine.scene.load import load_scene, scene_inputs


def cmd_run(args) -> int:
    scene = load_scene(args.scene)
    script, expects, source = None, None, "script"
    if args.actions:
        script, expects = load_actions(args.actions)     # the scene's own [[expect]] belong to its own script
        source = f"{args.actions}: script"
    log_path = None
    if args.log:     # refused before anything is played: the log may not replace any file the run reads
        log_path = check_output_path(args.log, inputs=scene_inputs(scene) + ((args.actions,) if args.actions else ()),
                                     force=getattr(args, "force", True), what="--log")
    out = sys.stdout
    log_lines = []

    def sink(session, evs):
        for e in evs:
            line = dumps(e)
            log_lines.append(line)
            if args.json:
                out.write(line + "\n")
            else:
                d = describe(session, e)
                if d:
                    out.write(d + "\n")

    session, problems = play(scene, args.seed, script, expects, sink, source)
    st = state_json(session)
    if args.json:
        out.write(dumps(st) + "\n")
    else:
        out.write("== end ==\n")
        for a in session.state.actors.values():
            out.write(f"  {a.name}: {session.ruleset.health_brief(session, a)} at {[a.x, a.y, a.layer]}{' aloft' if a.flying else ''}"
                      f"{' DEAD' if a.dead else ''}{' ' + ', '.join(sorted(a.conditions)) if a.conditions else ''}\n")
    bad = next((p for p in problems if isinstance(p, BadStep)), None)
    if bad is not None:
        # An illegal or malformed step is bad input: one line and exit 2, as every bad input, and the log is not
        # written (a failed command leaves the previous file as it was); expectations that failed before it are
        # counted on that line
        before = sum(1 for p in problems if not isinstance(p, BadStep))
        tail = f" ({before} expectation(s) failed before it)" if before else ""
        print(one_line(f"aerie run: {scene.path}: {bad}{tail}"), file=sys.stderr)
        return 2
    if args.log:
        write_output(log_path, ("\n".join(log_lines + [dumps(st)]) + "\n").encode("utf-8"), what="the log")
    for p in problems:     # expectations that fail on a legal script are a result of playing (exit 1)
        print(one_line(f"aerie run: {scene.path}: {p}"), file=sys.stderr)
    return 1 if problems else 0
