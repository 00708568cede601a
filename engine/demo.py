"""`make demo` / `aerie demo`: the main job. Opens the showcase in the window when a display exists; otherwise
prints the line-of-sight report and renders the showcase (stills and a fly-through video) to out/."""

from __future__ import annotations

import argparse
import importlib.util
import os
from pathlib import Path

from engine.rules.registry import cover_levels
from engine.world.cover import cover_between
from engine.extras import missing_message
from engine.resources import resource_dir
from engine.world.geometry import Body, distance_m
from engine.scene import load_scene

SHOWCASE = resource_dir("scenes") / "showcase.toml"


def los_report(scene) -> str:
    """Who sees whom across the sides, with the cover the program computes (AIR-13..16)."""
    lines = [f"{scene.name}: line of sight and cover between the sides ({scene.ruleset}; AIR-13..AIR-16)", ""]
    chars = scene.characters
    w = max(len(c.id) for c in chars)
    for a in chars:
        for t in chars:
            if a.side == t.side:
                continue
            ba, bt = Body.of(a), Body.of(t)
            r = cover_between(scene.world, ba, bt, cover_levels(scene.ruleset))
            d = distance_m(ba, bt, scene.world.cell_m)
            seen = "sees" if r.visible else "----"
            lines.append(f"  {a.id:>{w}} (layer {ba.layer:2d}) {seen} {t.id:<{w}} (layer {bt.layer:2d})  "
                         f"{d:5.1f} m  cover {r.level:<14} {r.blocked_fraction:4.0%} of sight lines blocked")
    return "\n".join(lines)


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def cmd_demo(args) -> int:
    scene_path = Path(args.scene) if args.scene else SHOWCASE
    scene = load_scene(scene_path)
    if _has_display() and importlib.util.find_spec("engine.app") is not None:
        from engine.app.commands import cmd_play

        return cmd_play(argparse.Namespace(scene=str(scene_path), seed=None, size=(1280, 720)))
    print(los_report(scene))
    print()
    if importlib.util.find_spec("engine.render.commands") is None:
        print("(the renderer is not in this build: nothing rendered)")
        return 0
    from engine.render import commands

    out = Path("out")
    out.mkdir(exist_ok=True)
    print("No display: rendering the showcase instead of opening the window.")
    still = out / "showcase.png"
    commands.cmd_render(argparse.Namespace(scene=str(scene_path), output=str(still), size=(1280, 720),
                                           camera=None, orbit=None, step=0, seed=None, overlay=[]))
    print(f"Still: {still.resolve()}")
    if importlib.util.find_spec("imageio_ffmpeg") is None:
        print(f"No fly-through video: {missing_message('imageio_ffmpeg', 'video output')}")
    else:
        video = out / "showcase.mp4"
        commands.cmd_flythrough(argparse.Namespace(scene=str(scene_path), output=str(video), seconds=None, fps=30,
                                                   size=(1280, 720)))
        print(f"Fly-through video: {video.resolve()}")
    print("Open the window on a machine with a display: aerie play showcase")
    return 0
