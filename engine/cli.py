"""The `aerie` command. Every user error is one line on stderr and exit status 2, never a traceback."""

from __future__ import annotations

import argparse
import json
import sys

from engine.errors import AerieError


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own errors: one line, exit 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size {text!r} is not WIDTHxHEIGHT, e.g. 1280x720") from None
    if not (16 <= w <= 8192 and 16 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"size {text!r} must be between 16x16 and 8192x8192")
    return w, h


def _positive(kind):
    def conv(text):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if v <= 0:
            raise argparse.ArgumentTypeError(f"{text!r} must be positive")
        return v
    return conv


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="aerie", description="Aerie: a 3D sandbox for aerial tabletop combat.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    s = sub.add_parser("check", help="validate a scene file")
    s.add_argument("scene")

    s = sub.add_parser("query", help="the geometry between two characters: distance, engagement, line of sight, cover")
    s.add_argument("scene")
    s.add_argument("--from", dest="frm", required=True, metavar="A")
    s.add_argument("--to", required=True, metavar="B")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("run", help="play a scene's script of actions and check its expectations")
    s.add_argument("scene")
    s.add_argument("--seed", type=int)
    s.add_argument("--actions", metavar="FILE")
    s.add_argument("--json", action="store_true")
    s.add_argument("--log", metavar="FILE", help="also write the event log (JSON lines) here")

    s = sub.add_parser("render", help="render a still of a scene to PNG")
    s.add_argument("scene")
    s.add_argument("-o", "--output", required=True)
    s.add_argument("--size", type=_size, default=(1280, 720))
    g = s.add_mutually_exclusive_group()
    g.add_argument("--camera", metavar="NAME")
    g.add_argument("--orbit", type=float, metavar="DEG")
    s.add_argument("--step", type=int, default=0, metavar="N")
    s.add_argument("--seed", type=int)
    s.add_argument("--overlay", action="append", default=[], metavar="NAME",
                   help="sightlines:A:B, grid:LAYER, engagement, reach:ID, movement:ID, cover:ID:LAYER")

    s = sub.add_parser("flythrough", help="render the scene's camera fly-through to a video")
    s.add_argument("scene")
    s.add_argument("-o", "--output", required=True)
    s.add_argument("--seconds", type=_positive(float))
    s.add_argument("--fps", type=_positive(int), default=30)
    s.add_argument("--size", type=_size, default=(1280, 720))

    s = sub.add_parser("replay", help="render a scripted fight with its events animated")
    s.add_argument("scene")
    s.add_argument("-o", "--output", required=True)
    s.add_argument("--fps", type=_positive(int), default=30)
    s.add_argument("--size", type=_size, default=(1280, 720))
    s.add_argument("--seed", type=int)
    s.add_argument("--actions", metavar="FILE")

    s = sub.add_parser("play", help="open the interactive window")
    s.add_argument("scene")
    s.add_argument("--seed", type=int)
    s.add_argument("--size", type=_size, default=(1280, 720))

    s = sub.add_parser("bench", help="benchmarks (figures for docs/performance.md)")
    s.add_argument("what", choices=["los", "rules", "render", "window"])
    s.add_argument("--rays", type=_positive(int), default=1_000_000)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--quick", action="store_true", help="smaller sizes, for a smoke test")
    s.add_argument("--breakdown", action="store_true",
                   help="render: also time the same views with a single-colour terrain and with no terrain")
    s.add_argument("--feats", action="store_true", help="rules: every character of the skirmish takes 14 combat feats")

    s = sub.add_parser("rules", help="the rule catalogue (--markdown: docs/rules.md, generated from the registry)")
    s.add_argument("--markdown", action="store_true")

    s = sub.add_parser("demo", help="the main job: show the showcase scene")
    s.add_argument("--scene", default=None)
    return p


def cmd_check(args) -> int:
    from engine.world.scene import load_scene

    scene = load_scene(args.scene)
    X, Y, Z = scene.world.size
    print(f"{scene.path}: ok: {scene.name!r}, {scene.ruleset}, {X} x {Y} cells x {Z} layers, "
          f"{len(scene.characters)} characters")
    return 0


def cmd_query(args) -> int:
    from engine.world.query import query, explain
    from engine.world.scene import load_scene

    scene = load_scene(args.scene)
    result = query(scene, args.frm, args.to)
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        print(explain(scene, result))
    return 0


def _delegate(module: str, func: str):
    def run(args):
        import importlib

        return importlib.import_module(module).__getattribute__(func)(args)
    return run


COMMANDS = {
    "check": cmd_check,
    "query": cmd_query,
    "run": _delegate("engine.rules.runner", "cmd_run"),
    "render": _delegate("engine.render.commands", "cmd_render"),
    "flythrough": _delegate("engine.render.commands", "cmd_flythrough"),
    "replay": _delegate("engine.render.commands", "cmd_replay"),
    "play": _delegate("engine.app.commands", "cmd_play"),
    "demo": _delegate("engine.demo", "cmd_demo"),
    "rules": _delegate("engine.rules.catalogue", "cmd_rules"),
}

BENCHES = {
    "los": ("engine.bench", "bench_los"),
    "rules": ("engine.rules.bench", "bench_rules"),
    "render": ("engine.render.bench", "bench_render"),
    "window": ("engine.app.bench", "bench_window"),
}


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "bench":
            mod, fn = BENCHES[args.what]
            return _delegate(mod, fn)(args)
        return COMMANDS[args.command](args)
    except AerieError as e:
        print(f"aerie: {e}", file=sys.stderr)
        return e.exit_code
    except ModuleNotFoundError as e:
        if e.name and e.name.startswith("engine."):
            print(f"aerie {args.command}: not available in this build ({e.name} is missing)", file=sys.stderr)
            return 2
        raise
    except KeyboardInterrupt:
        print("aerie: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
