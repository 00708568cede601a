"""`aerie simulate SCENE --runs N ...`: play a scene to its end N times with policies; rows, summary, picture.

Exit status: 0; 1 when a fight raised (each is a row with its seed and replay command; the run went on); 2 for
bad arguments (one line); 130 when interrupted (Ctrl+C: what was done is written, every row ``partial``).
"""

from __future__ import annotations

import json
import os
import re
import sys
import tomllib
from pathlib import Path

from engine import console
from engine.errors import AerieError
from engine.inputs import exists
from engine.outputs import check_output_path, write_output
from engine.sim import output, report, summary
from engine.sim.fight import Plan, fight_seed, replay_command
from engine.sim.policies import parse_policies
from engine.sim.runner import Progress, Results, ray_tasks, run_local

REPORTS = (".png", ".html")


def add_parser(sub, positive, seed_type) -> None:
    s = sub.add_parser("simulate", help="play a scene to its end many times with policies: win rates, rounds, "
                                        "where characters fall (locally or on a Ray cluster)")
    s.add_argument("scene", help="a scene file (.toml) or the name of a shipped scene")
    s.add_argument("--runs", type=positive(int, 10_000_000), required=True, metavar="N", help="how many fights")
    s.add_argument("--seed", type=seed_type, default=None, metavar="S",
                   help="the run's seed: fight i's dice seed comes from (S, i) (default: the scene's seed)")
    s.add_argument("--policy", action="append", default=[], metavar="SIDE=NAME",
                   help="who drives a side (repeatable): random (default), aggressive, cautious, or module:function "
                        "/ file.py:function (docs/simulate.md)")
    g = s.add_mutually_exclusive_group()
    g.add_argument("--workers", type=positive(int, 1024), default=None, metavar="K",
                   help="local worker processes (default: the cores, up to the batches)")
    g.add_argument("--ray", metavar="ADDRESS", help="run the fights as Ray tasks on this cluster (HOST:PORT, "
                                                    "ray://HOST:PORT, auto; the 'cluster' extra)")
    s.add_argument("-o", "--output", metavar="FILE", help="one row per fight: .csv, .jsonl or .parquet (pyarrow)")
    s.add_argument("--report", metavar="FILE", help="the picture: .png or a self-contained .html page")
    v = s.add_mutually_exclusive_group()
    v.add_argument("--vs", metavar="SCENE2", help="also play this scene on the same seeds and report the difference")
    v.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="also play the scene with this rules option changed (repeatable; a TOML value), same seeds")
    s.add_argument("--max-rounds", type=positive(int, 100_000), default=30, metavar="R",
                   help="a fight still going after round R is a draw (default 30)")
    s.add_argument("--keep-logs", metavar="DIR", help="write each fight's actions to DIR/fight_N.json (replay: "
                                                      "aerie run SCENE --seed SEED --actions DIR/fight_N.json)")
    s.add_argument("--after-script", action="store_true", help="start each fight after the scene's script")
    s.add_argument("--json", action="store_true", help="print the summary as one JSON object")


def parse_sets(items: list[str]) -> dict:
    out = {}
    for item in items:
        key, eq, text = item.partition("=")
        if not eq or not key.strip():
            raise AerieError(f"--set {item!r}: expected KEY=VALUE, e.g. --set fall_roll_on=hit")
        try:
            val = tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError:
            val = text                      # a bare word is a string
        except (RecursionError, ValueError) as e:      # nested too deep; an integer of thousands of digits
            raise AerieError(f"--set {key.strip()}: cannot be read: "
                             f"{'nested too deep' if isinstance(e, RecursionError) else e}") from None
        # a scene's own key path names the same option: [options] fall_roll_on = ... is options.fall_roll_on
        key = key.strip()
        out[key.removeprefix("options.") or key] = val
    return out


def _paths(args, plans: list[Plan]) -> tuple:
    """Every output argument checked before any is written and before any fight runs: none may replace a file the
    run reads (each scene's, the --vs scene's, a policy file), and a --keep-logs folder must be able to take its
    files (a bad one was found only after -o and --report were written)."""
    from engine.scene import scene_inputs

    inputs = tuple(dict.fromkeys([i for p in plans for i in scene_inputs(p.scene)] + _policy_files(args.policy)))
    out = check_output_path(args.output, output.FORMATS, inputs, what="-o") if args.output else None
    rep = check_output_path(args.report, REPORTS, inputs, what="--report") if args.report else None
    logs = _check_keep_logs(Path(args.keep_logs), plans, args.runs, inputs) if args.keep_logs else None
    if out is not None and out.suffix == ".parquet":
        output.encode([], ".parquet")         # pyarrow missing: say so now, not after the fights
    return out, rep, logs


def _policy_files(items: list[str]) -> list[Path]:
    """The ``file.py`` of each ``--policy SIDE=file.py:function``: an input of the run too."""
    names = [item.partition("=")[2].rpartition(":")[0] for item in items]
    return [Path(n) for n in names if n.endswith(".py")]


def _check_keep_logs(logs: Path, plans: list[Plan], runs: int, inputs) -> Path:
    """--keep-logs DIR: a folder (or one that can be made) whose files-to-be (replay.txt, fight_N.json, b/...)
    are each writable and none of them an input."""
    if not exists(logs, f"--keep-logs {logs}"):
        parent = logs.parent if str(logs.parent) else Path(".")
        if not exists(parent, f"--keep-logs {logs}"):
            raise AerieError(f"--keep-logs {logs}: the folder {parent} does not exist")
        if not parent.is_dir() or not os.access(parent, os.W_OK):
            raise AerieError(f"--keep-logs {logs}: cannot make the folder in {parent}")
        return logs
    folders = [(logs, "replay.txt")] + [(logs / p.variant, "options.json" if p.options else None)
                                        for p in plans if p.variant != "a"]
    for folder, name in folders:
        if not exists(folder, f"--keep-logs {folder}"):
            continue                          # made by the run, inside a folder checked writable just now
        if not folder.is_dir():
            raise AerieError(f"--keep-logs {folder}: exists and is not a folder")
        check_output_path(folder / (name or "replay.txt"), None, inputs, what="--keep-logs")   # probes the folder
        for entry in os.scandir(folder):
            m = re.fullmatch(r"fight_(\d+)\.json", entry.name)
            if m and int(m.group(1)) < runs:
                check_output_path(folder / entry.name, None, inputs, what="--keep-logs")
    return logs


def plans_of(args) -> tuple[list[Plan], list[str], int]:
    from engine.rules.session import Session
    from engine.scene import load_scene

    a = load_scene(args.scene)
    seed = int(a.spec.seed if args.seed is None else args.seed)
    scenes = [a] + ([load_scene(args.vs)] if args.vs else [])
    sides = sorted({c.side for s in scenes for c in s.characters})
    policies = parse_policies(args.policy, sides)
    plans = [Plan(a, policies, args.max_rounds, args.after_script, {}, "a", args.scene)]
    if args.vs:
        plans.append(Plan(scenes[1], policies, args.max_rounds, args.after_script, {}, "b", args.vs))
    elif args.set:
        opts = parse_sets(args.set)
        try:
            Session(a, 0, opts)                # an unknown option or value: one line now
        except AerieError as e:
            raise AerieError(f"--set: {e}") from None
        plans.append(Plan(a, policies, args.max_rounds, args.after_script, opts, "b", args.scene))
    if args.after_script:
        from engine.rules.runner import play

        for p in plans:
            if not p.scene.spec.script:
                raise AerieError(f"--after-script: {p.scene.path} has no [[script]]")
            # the script as `aerie run` plays it (the scene's dice, the variant's options): a step it refuses is
            # bad input, now, not a raise in every fight
            _, problems = play(p.scene, None, None, [], options=p.options or None)
            if problems:                       # no expectations asked: each is a step refused or one not refused
                raise AerieError(f"--after-script: {p.scene.path}{_with(p)}: {problems[0]}")
    return plans, sides, seed


def _with(p: Plan) -> str:
    return f" with {', '.join(f'{k}={v}' for k, v in p.options.items())}" if p.options else ""


def label(p: Plan, args) -> str:
    if p.variant == "a":
        return Path(str(p.scene.path)).stem
    if args.vs:
        return Path(str(p.scene.path)).stem
    return "with " + ", ".join(f"{k}={v}" for k, v in p.options.items())


def cmd_simulate(args) -> int:
    plans, sides, seed = plans_of(args)       # reads the scenes and policies; writes nothing
    out, rep, logs = _paths(args, plans)
    if logs is not None:
        _make_folder(logs)      # now, so a folder it cannot make stops the run before the fights, not after
    total = args.runs * len(plans)
    workers = args.workers or max(1, min(os.cpu_count() or 1, total))
    bar = Progress(total, sys.stderr, not console.quiet() and console.is_terminal(sys.stdout)
                   and console.is_terminal(sys.stderr))
    res = Results()
    partial = False
    try:
        if args.ray:
            ray_tasks(plans, args.runs, seed, bool(logs), args.ray, bar, res)
        else:
            run_local(plans, args.runs, seed, workers, bool(logs), bar, res)
    except KeyboardInterrupt:
        partial = True
    finally:
        bar.close()
    rows = res.sorted_rows()
    return finish(args, plans, sides, seed, rows, res, partial, out, rep, logs)


def finish(args, plans, sides, seed, rows, res, partial, out, rep, logs) -> int:
    by = {p.variant: [r for r in rows if r["variant"] == p.variant] for p in plans}
    # each variant over its own scene's sides (a --vs scene may field others); the difference over the shared ones
    own = {p.variant: sorted({c.side for c in p.scene.characters}) for p in plans}
    sums = {p.variant: summary.summarise(by[p.variant], own[p.variant]) for p in plans}
    lines: list[str] = []
    for p in plans:
        lines += summary.text(sums[p.variant], f"{label(p, args)} ({'PARTIAL, ' if partial else ''}seed {seed})")
    diff = None
    if len(plans) == 2:
        shared = [s for s in own["a"] if s in own["b"]]
        diff = summary.paired_difference(by["a"], by["b"], shared)
        lines += summary.diff_text(diff, label(plans[0], args), label(plans[1], args))
        if not shared:
            lines.append("  (the two scenes share no side: only the draws compare)")
    errors = [r for r in rows if r.get("outcome") == "error"]
    for r in errors[:20]:
        lines.append(f"  fight {r['index']} raised ({r['error']}); replay: {r['replay']}")
    if args.json:
        print(json.dumps(output.finite({"seed": seed, "partial": partial, "summaries": sums, "difference": diff}), sort_keys=True,
                         allow_nan=False))
    else:
        print("\n".join(lines))
    if out is not None:
        write_output(out, output.encode(rows, out.suffix, partial), what="-o")
    if rep is not None:
        title = " vs ".join(label(p, args) for p in plans) + f": {args.runs} fights each" + (" (PARTIAL)" if partial else "") \
            + (f", {len(errors)} raised and left out" if errors else "")
        variants = [(label(p, args), sums[p.variant], by[p.variant]) for p in plans]
        data = (report.png(plans[0].scene, variants, sides, title) if rep.suffix == ".png"
                else report.html_page(plans[0].scene, variants, sides, title, lines))
        write_output(rep, data, what="--report")
    if logs is not None:
        keep_logs(logs, plans, res, seed)
    if partial:
        print(f"aerie simulate: interrupted: {len(rows)} of {args.runs * len(plans)} fights done, written "
              "marked partial", file=sys.stderr)
        return 130
    return 1 if errors else 0


def keep_logs(folder: Path, plans: list[Plan], res: Results, seed: int) -> None:
    """DIR/fight_N.json (variant b: DIR/b/fight_N.json) with the fight's actions (the script's first with
    --after-script) and DIR/replay.txt with each one's replay command. --set variants are kept with their options
    in DIR/b/options.json (``aerie run`` plays a scene's own options: the command names the file to edit)."""
    _make_folder(folder)
    cmds = []
    for p in plans:
        sub = folder if p.variant == "a" else folder / p.variant
        _make_folder(sub)
        if p.options:
            write_output(sub / "options.json", (json.dumps(p.options, sort_keys=True) + "\n").encode(), "the options")
        for (v, i), acts in sorted(res.actions.items()):
            if v != p.variant:
                continue
            f = sub / f"fight_{i}.json"
            write_output(f, (json.dumps(acts, sort_keys=True) + "\n").encode("utf-8"), what="--keep-logs")
            cmds.append(replay_command(p, fight_seed(seed, i), i).replace(f"fight_{i}.json", str(f)))
    write_output(folder / "replay.txt", ("\n".join(cmds) + "\n").encode("utf-8"), what="--keep-logs")


def _make_folder(folder: Path) -> None:
    try:
        folder.mkdir(exist_ok=True)
    except OSError as e:
        raise AerieError(f"--keep-logs {folder}: cannot make the folder ({e.strerror or e})") from None
