"""The `aerie` command. Every user error is one line on stderr and exit status 2, never a traceback."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

from engine import console
from engine.errors import AerieError, one_line
from engine.extras import install_hint, missing_message


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own errors: one line, exit 2
        self.exit(2, f"{self.prog}: error: {one_line(message)}\n")


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size {text!r} is not WIDTHxHEIGHT, e.g. 1280x720") from None
    if not (16 <= w <= 8192 and 16 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"size {text!r} must be between 16x16 and 8192x8192")
    return w, h


def _number(kind, lo=None, hi=None, positive=False):
    """A finite number (never NaN or infinity) within lo..hi; ``positive``: above 0."""
    def conv(text):
        try:
            v = kind(text)
        except (ValueError, OverflowError):
            raise argparse.ArgumentTypeError(f"{text!r} is not {'an integer' if kind is int else 'a number'}") from None
        if kind is float and not math.isfinite(v):
            raise argparse.ArgumentTypeError(f"{text!r} must be a finite number")
        if positive and v <= 0:
            raise argparse.ArgumentTypeError(f"{text!r} must be positive")
        if lo is not None and v < lo:
            raise argparse.ArgumentTypeError(f"{text!r} must be at least {lo:g}")
        if hi is not None and v > hi:
            raise argparse.ArgumentTypeError(f"{text!r} must be at most {hi:g}")
        return v
    return conv


def _positive(kind, hi=None):
    return _number(kind, None, hi, positive=True)


_seed = _number(int, -(2 ** 53), 2 ** 53)


# One example line (or more) per command, shown under its --help. A new command adds its entry here.
EXAMPLES = {
    "check": ["aerie check showcase", "aerie check my_scenes/ambush.toml"],
    "query": ["aerie query showcase --from ground_archer --to wall_archer",
              "aerie query showcase --from ground_archer --to wall_archer --json"],
    "run": ["aerie run air_fall_table", "aerie run baton_skyfall --seed 7 --json --log fight.jsonl",
            "aerie run showcase --actions docs/images/fall_actions.json"],
    "render": ["aerie render showcase -o out.png", "aerie render showcase -o east.png --size 640x360 --orbit 90",
               "aerie render showcase -o belfry.png --camera belfry",
               "aerie render estate/scene.toml -o ground.png --camera overview --cut-above 4",
               "aerie render air_fall_table -o after.png --step 3 --seed 7",
               "aerie render showcase -o lines.png --overlay sightlines:ground_archer:wall_archer --overlay grid:0",
               "aerie render showcase -o feet.png --overlay reach:ground_archer --units ft"],
    "flythrough": ["aerie flythrough showcase -o fly.mp4 --seconds 4 --size 640x360",
                   "aerie flythrough showcase -o fly.gif --seconds 2 --fps 12 --size 320x180",
                   "aerie flythrough showcase --path rider -o rider.mp4",
                   "aerie flythrough showcase --path window --at 6.5 -o window_6s.png"],
    "replay": ["aerie replay air_fall_table -o fight.mp4 --size 640x360 --seed 5",
               "aerie replay showcase -o fall.gif --actions docs/images/fall_actions.json --fps 12",
               "aerie replay showcase --path rider -o rider_fight.mp4"],
    "play": ["aerie play showcase", "aerie play my_scene.toml --seed 3 --size 1600x900", "aerie play showcase --units ft",
             "aerie play showcase --serve 0.0.0.0:8765", "aerie play showcase --serve 8765 --approve"],
    "bench": ["aerie bench los --quick", "aerie bench los --rays 200000 --seed 2", "aerie bench render --breakdown",
              "aerie bench cover --quick", "aerie bench rules --feats", "aerie bench rules --big-flyer",
               "aerie bench rules --casters", "aerie bench rules --listing", "aerie bench cover --lasting",
              "aerie bench simulate --quick", "aerie bench rules --casters --dragon", "aerie bench srd"],
    "demo": ["aerie demo", "aerie demo --scene air_low_wall"],
    "import": ["aerie import tavern.dd2vtt -o tavern/scene.toml",
               "aerie import keep.json -o keep/scene.toml --wall-height 4.5 --object-height 1 --doors gap",
               "aerie import world.db -o crypt/scene.toml --scene Crypt --characters tokens.toml --cells-per-grid 2",
               "aerie import map.uvtt -o map/scene.toml --image map.webp --thickness 2 --wall-material wood --layers 16 --grid-m 1.5",
               "aerie import map.uvtt -o bare/scene.toml --no-image",
               "aerie import estate.json -o estate/scene.toml --floor-material stone --lock-dc 18 --doors object",
               "aerie import young-red-dragon.json -o creatures.toml"],
    "rules": ["aerie rules", "aerie rules --markdown", "aerie rules --actions"],
    "cover": ["aerie cover showcase --from ground_archer --layer 0 -o cover.png",
              "aerie cover showcase --from ground_archer --view 3d -o cover_3d.png",
              "aerie cover showcase --from ground_archer -o cover.npy --json --backend cpu"],
    "threat": ["aerie threat showcase --side blue --layer 0 -o threat.png",
               "aerie threat showcase --side blue --layer 9 --view 3d -o threat_layer9_3d.png",
               "aerie threat showcase --side blue --after-move -o threat.npz --json --backend gpu"],
    "simulate": ["aerie simulate showcase --runs 200 --policy red=aggressive --policy blue=cautious -o fights.csv",
                 "aerie simulate showcase --runs 500 --vs my_scenes/no_lookout.toml --report report.png",
                 "aerie simulate air_low_wall --runs 100 --set fall_roll_on=hit --ray 10.0.0.5:6379",
                 "aerie simulate showcase --runs 20 --keep-logs fights/ --policy blue=my_policies.py:dive",
                 "aerie simulate air_fall_table --runs 1000 --seed 3 --workers 2 --max-rounds 20 --after-script --json"],
    "compendium": ["aerie compendium creatures dragon --fly", "aerie compendium creatures --cr 5-10 --json",
                   "aerie compendium creatures cr1/2 beast", "aerie compendium spells fire",
                   "aerie compendium spells feather-fall --json", "aerie compendium spells --castable"],
    "export": ["aerie export showcase -o showcase.glb", "aerie export air_fall_table -o after.glb --step 3 --seed 7"],
}

SCENE_HELP = ("a scene file (.toml), or the name of a shipped scene (showcase, air_fall_table, ...: "
              "see `aerie check --help`)")


def _version() -> str:
    from engine import __version__

    return f"aerie {__version__} (distribution aerie-sandbox, Python {sys.version.split()[0]})"


def _verbosity(parser: argparse.ArgumentParser, suppress: bool) -> None:
    """-q / -v: accepted before the command (aerie -q render ...) and after it (aerie render ... -q)."""
    default = argparse.SUPPRESS if suppress else 0
    g = parser.add_mutually_exclusive_group()
    g.add_argument("-q", "--quiet", dest="verbosity", action="store_const", const=-1, default=default,
                   help="no progress bars or notes on stderr (results and errors still print)")
    g.add_argument("-v", "--verbose", dest="verbosity", action="store_const", const=1, default=default,
                   help="also say where Aerie's files are and how long the command took")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="aerie", description="Aerie: a 3D sandbox for aerial tabletop combat.",
                formatter_class=argparse.RawDescriptionHelpFormatter,
                epilog="examples:\n  aerie check showcase\n  aerie render showcase -o out.png --size 640x360\n"
                       "  aerie -q flythrough showcase -o fly.mp4     (no progress bar)\n"
                       "  aerie -v check showcase                    (where the files are, how long it took)\n"
                       "  aerie play showcase\n\n`aerie COMMAND --help` shows a command's options and examples.")
    p.add_argument("--version", action="version", version=_version(), help="print the version and exit")
    _verbosity(p, suppress=False)
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND",
                           help="what to do (`aerie COMMAND --help`: its options and examples)")
    _scene_commands(sub)
    _picture_commands(sub)

    from engine.render.volume_cli import add_parsers as volume_parsers   # aerie cover, aerie threat

    volume_parsers(sub)

    from engine.sim.cli import add_parser as simulate_parser   # aerie simulate

    simulate_parser(sub, _positive, _seed)
    _bench_command(sub)

    from engine.interop.commands import add_arguments as interop_arguments   # import MAP, export SCENE

    interop_arguments(sub, _positive, _seed)
    _catalogue_commands(sub)
    _compendium_command(sub)
    for name, sp in sub.choices.items():
        _verbosity(sp, suppress=True)
        sp.formatter_class = argparse.RawDescriptionHelpFormatter
        if name in EXAMPLES:
            sp.epilog = "examples:\n" + "\n".join(f"  {line}" for line in EXAMPLES[name])
    sub.choices["check"].description = "Validate a scene file. Shipped scenes, usable by name: " + ", ".join(
        _shipped_scenes()) + "."
    return p


def _scene_commands(sub) -> None:
    """check, query, run: a scene's data and rules, no picture."""
    s = sub.add_parser("check", help="validate a scene file")
    s.add_argument("scene", help=SCENE_HELP)

    s = sub.add_parser("query", help="the geometry between two characters: distance, engagement, line of sight, cover")
    s.add_argument("scene", help=SCENE_HELP)
    s.add_argument("--from", dest="frm", required=True, metavar="A", help="the id of the looking character")
    s.add_argument("--to", required=True, metavar="B", help="the id of the character looked at")
    s.add_argument("--json", action="store_true", help="print the result as one JSON object")

    s = sub.add_parser("run", help="play a scene's script of actions and check its expectations")
    s.add_argument("scene", help=SCENE_HELP)
    s.add_argument("--seed", type=_seed, help="the dice seed (default: the scene's)")
    s.add_argument("--actions", metavar="FILE", help="play the actions in this JSON file instead of the scene's")
    s.add_argument("--json", action="store_true", help="print the event log as JSON lines")
    s.add_argument("--log", metavar="FILE", help="also write the event log (JSON lines) here")


def _picture_commands(sub) -> None:
    """render, flythrough, replay, play: what draws the scene."""
    s = sub.add_parser("render", help="render a still of a scene to PNG")
    s.add_argument("scene", help=SCENE_HELP)
    s.add_argument("-o", "--output", required=True, metavar="PNG", help="the PNG file to write")
    s.add_argument("--size", type=_size, default=(1280, 720), metavar="WxH", help="image size (default 1280x720)")
    g = s.add_mutually_exclusive_group()
    g.add_argument("--camera", metavar="NAME", help="one of the scene's named cameras")
    g.add_argument("--orbit", type=_number(float, -1e6, 1e6), metavar="DEG", help="view from this azimuth around the action (0 = from the south, 90 = from the east)")
    s.add_argument("--step", type=_number(int, 0, 1_000_000), default=0, metavar="N", help="show the scene after its first N scripted actions (default 0: as placed)")
    s.add_argument("--seed", type=_seed, help="the dice seed for --step (default: the scene's)")
    s.add_argument("--overlay", action="append", default=[], metavar="NAME",
                   help="draw an overlay (repeatable): sightlines:A:B, grid:LAYER, engagement, reach:ID, "
                        "movement:ID, cover:ID:LAYER")
    s.add_argument("--cut-above", type=_number(int, 0, 255), metavar="LAYER",
                   help="cut away every layer above LAYER (and the characters there): look into a storey")
    s.add_argument("--units", choices=("m", "ft"),
                   help="the labels' distances in metres or feet (default: the scene's [view] units, else metres)")

    s = sub.add_parser("flythrough", help="render the scene's camera fly-through to a video")
    s.add_argument("scene", help=SCENE_HELP)
    s.add_argument("-o", "--output", required=True, metavar="VIDEO", help="the .mp4 or .gif file to write (a .png with --at)")
    s.add_argument("--seconds", type=_positive(float, 3600), help="length in seconds; stretches the scene's keyframes to fit (default: their length, or a 10 s orbit)")
    s.add_argument("--fps", type=_positive(int, 240), default=30, help="frames per second (default 30)")
    s.add_argument("--size", type=_size, default=(1280, 720), metavar="WxH", help="frame size (default 1280x720)")
    s.add_argument("--path", metavar="NAME", help="the named camera path ([[flythrough]] keys with path = NAME; "
                                                  "default: the keys without a name)")
    s.add_argument("--at", type=_number(float, 0, 3600), metavar="SECONDS",
                   help="one still of the fly-through at this time instead of a video (-o still.png)")

    s = sub.add_parser("replay", help="render a scripted fight with its events animated")
    s.add_argument("scene", help=SCENE_HELP)
    s.add_argument("-o", "--output", required=True, metavar="VIDEO", help="the .mp4 or .gif file to write")
    s.add_argument("--fps", type=_positive(int, 240), default=30, help="frames per second (default 30)")
    s.add_argument("--size", type=_size, default=(1280, 720), metavar="WxH", help="frame size (default 1280x720)")
    s.add_argument("--seed", type=_seed, help="the dice seed (default: the scene's)")
    s.add_argument("--actions", metavar="FILE", help="replay the actions in this JSON file instead of the scene's")
    s.add_argument("--path", metavar="NAME", help="film it along the scene's named camera path (follow and look-at "
                                                  "keys track the characters as they move; default: a slow turn)")

    s = sub.add_parser("play", help="open the interactive window")
    s.add_argument("scene", help=SCENE_HELP)
    s.add_argument("--seed", type=_seed, help="the dice seed (default: the scene's)")
    s.add_argument("--size", type=_size, default=(1280, 720), metavar="WxH", help="window size (default 1280x720)")
    s.add_argument("--units", choices=("m", "ft"),
                   help="distances on screen in metres or feet (a 5e square: 1.5 m = 5 ft; Ctrl+U toggles; default: "
                        "the scene's [view] units, else its ruleset's, metres)")
    s.add_argument("--serve", nargs="?", const="127.0.0.1:8765", default=None, metavar="[HOST:]PORT",
                   help="serve each side a page of its own (docs/players.md; default 127.0.0.1:8765, 0.0.0.0: the "
                        "local network); prints one join link per side (the 'serve' extra)")
    s.add_argument("--approve", action="store_true",
                   help="with --serve: the GM approves each player's action first (Ctrl+Enter / Ctrl+Backspace)")


def _bench_command(sub) -> None:
    s = sub.add_parser("bench", help="benchmarks (figures for docs/performance.md)")
    s.add_argument("what", choices=["los", "rules", "render", "window", "cover", "simulate", "srd"],
                   help="what to time: %(choices)s")
    s.add_argument("--rays", type=_positive(int, 100_000_000), default=1_000_000, help="los: how many rays (default 1000000)")
    s.add_argument("--seed", type=_number(int, 0, 2 ** 53), default=1,
                   help="the seed of the generated maps and dice, 0 or more (default 1)")
    s.add_argument("--quick", action="store_true", help="smaller sizes, for a smoke test")
    s.add_argument("--breakdown", action="store_true",
                   help="render: also time the same views with a single-colour terrain and with no terrain")
    s.add_argument("--lasting", action="store_true",
                   help="cover: also time the cover volume beside the same town with two lasting areas (a Fog Cloud "
                        "and a Darkness, heavily obscured) in one run (issue 39)")
    s.add_argument("--feats", action="store_true", help="rules: every character of the skirmish takes 14 combat feats")
    s.add_argument("--casters", action="store_true",
                   help="rules: also the skirmish with its priest and sky archer each holding 20 SRD spells, beside the "
                        "skirmish in the same run (issue 39)")
    s.add_argument("--dragon", action="store_true",
                   help="rules: also an adult red dragon (legendary actions, recharge) against the skirmish's four reds, "
                        "beside the skirmish in the same run (issue 44)")
    s.add_argument("--big-flyer", action="store_true",
                   help="rules: instead, time one legal-action list (and its peak memory) of a flyer with "
                        "fly_speed_m = 1000 on a 256 x 256 x 64 map (--quick: 64 x 64 x 32)")
    s.add_argument("--listing", action="store_true",
                   help="rules: instead, time one legal-action list in a mass battle of 3,000 characters, each "
                        "ruleset side by side (--quick: 300)")


def _catalogue_commands(sub) -> None:
    """rules (the catalogue) and demo."""
    s = sub.add_parser("rules", help="the rule catalogue (--markdown: docs/rules.md, generated from the registry)")
    s.add_argument("--markdown", action="store_true",
                   help="print docs/rules.md (every rule ID: the document's words, decision, module:function, tests, options) as Markdown")
    s.add_argument("--actions", nargs="?", const="", default=None, metavar="RULESET",
                   help="list every action and its parameters (of RULESET; default every ruleset), read from the "
                        "rulesets' action classes")

    s = sub.add_parser("demo", help="the main job: show the showcase scene")
    s.add_argument("--scene", default=None, help="show this scene instead of the showcase (a file or a name)")


def _compendium_command(sub) -> None:
    """``aerie compendium <section>``: one subcommand per entry of engine.compendium.SECTIONS."""
    import importlib

    from engine.compendium import SECTIONS

    s = sub.add_parser("compendium", help="search the SRD libraries (" + ", ".join(SECTIONS) + ")")
    secs = s.add_subparsers(dest="section", required=True, parser_class=_Parser, metavar="SECTION",
                            help="the library to search: " + ", ".join(SECTIONS))
    for name, module in SECTIONS.items():
        mod = importlib.import_module(module)
        sp = secs.add_parser(name, help=(mod.__doc__ or name).strip().split("\n")[0],
                             description=mod.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
        mod.add_arguments(sp)
        sp.set_defaults(compendium_run=mod.run)


def _shipped_scenes() -> list[str]:
    from engine.resources import shipped_scenes

    return shipped_scenes()


def cmd_check(args) -> int:
    from engine.scene import load_scene

    scene = load_scene(args.scene)
    X, Y, Z = scene.world.size
    print(f"{scene.path}: ok: {scene.name!r}, {scene.ruleset}, {X} x {Y} cells x {Z} layers, "
          f"{len(scene.characters)} characters")
    return 0


def cmd_query(args) -> int:
    from engine.scene.query import query, explain
    from engine.scene import load_scene

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
    "run": _delegate("engine.scene.run", "cmd_run"),
    "render": _delegate("engine.render.commands", "cmd_render"),
    "flythrough": _delegate("engine.render.commands", "cmd_flythrough"),
    "replay": _delegate("engine.render.commands", "cmd_replay"),
    "play": _delegate("engine.serve.window", "cmd_play"),     # the window, with the players' server on --serve
    "demo": _delegate("engine.demo", "cmd_demo"),
    "import": _delegate("engine.interop.commands", "cmd_import"),
    "export": _delegate("engine.interop.commands", "cmd_export"),
    "rules": _delegate("engine.rules.catalogue", "cmd_rules"),
    "cover": _delegate("engine.render.volume_cli", "cmd_cover"),
    "threat": _delegate("engine.render.volume_cli", "cmd_threat"),
    "simulate": _delegate("engine.sim.cli", "cmd_simulate"),
    "compendium": lambda args: args.compendium_run(args),
}

BENCHES = {      # `aerie bench WHAT`: each bench is imported only when it runs (the window's needs pyglet)
    "los": _delegate("engine.bench", "bench_los"),
    "rules": _delegate("engine.scene.bench", "bench_rules"),
    "render": _delegate("engine.render.bench", "bench_render"),
    "window": _delegate("engine.app.bench", "bench_window"),
    "cover": _delegate("engine.render.bench_cover", "bench_cover"),
    "simulate": _delegate("engine.sim.bench", "bench_simulate"),
    "srd": _delegate("engine.scene.bench", "bench_srd"),
}


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    console.set_level(getattr(args, "verbosity", 0) or 0)
    t0 = time.perf_counter()
    if console.verbose():
        from engine.resources import resource_dir

        console.detail(f"aerie: {_version()}; files: " + ", ".join(
            f"{k} {resource_dir(k)}" for k in ("scenes", "assets", "shaders")))
    try:
        if args.command == "bench":
            code = BENCHES[args.what](args)
        else:
            code = COMMANDS[args.command](args)
        console.detail(f"aerie {args.command}: {time.perf_counter() - t0:.2f} s, exit status {code}")
        return code
    except AerieError as e:
        print(f"aerie: {e}", file=sys.stderr)
        return e.exit_code
    except ModuleNotFoundError as e:
        if e.name and e.name.startswith("engine."):
            print(f"aerie {args.command}: not available in this build ({e.name} is missing)", file=sys.stderr)
            return 2
        if e.name and install_hint(e.name):
            print(f"aerie: {missing_message(e.name, 'aerie ' + args.command)}", file=sys.stderr)
            return 2
        raise
    except KeyboardInterrupt:
        print("aerie: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
