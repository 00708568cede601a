"""`aerie cover` and `aerie threat`: the cover and threat volumes of a scene (engine/world/volumes.py, on the GPU
through engine/render/los_grid.py where GL 4.3 is there), written as .npy / .npz or drawn as a PNG.

    aerie cover SCENE --from ID [--layer L] -o out.npy|out.png [--json]
    aerie threat SCENE --side S [--layer L] [--after-move] -o out.npz|out.png [--json]

cover .npy: float32 [Z, Y, X] (with --layer: [1, Y, X]) blocked fraction of the 36 sample lines from ID's eye to
a standard body at each cell, NaN where a standard body cannot be. threat .npz: ``count`` int16 [Z, Y, X] (how
many enemies could attack a standard body there, -1 where one cannot be), ``fraction`` float32 [E, Z, Y, X] (the
cover it would have against each enemy's best attack, NaN where that enemy cannot attack it), ``enemies`` (ids),
``layers``. A PNG (``--view``) is the chosen layer seen from above (``top``, the default with --layer) or a 3D
view (``3d``, the default without --layer): the volume's cells drawn in place as small cubes (cover: the cells with
some cover from the attacker, coloured by level; threat: the cells safe from every enemy), a lattice of every
n-th cell past 6,000 cubes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

import json
import time
from pathlib import Path

import numpy as np

from engine.errors import AerieError
from engine.outputs import atomic_path

COUNT_COLOURS = [(70, 200, 90), (240, 210, 60), (245, 140, 40), (225, 60, 45), (150, 30, 90)]
LEVEL_COLOURS = {"none": (70, 210, 90), "half": (240, 200, 60), "three-quarters": (245, 120, 40),
                 "partial": (240, 170, 50), "total": (80, 80, 120)}


def add_parsers(sub) -> None:
    """The two sub-commands, for engine/cli.py."""
    s = sub.add_parser("cover", help="the cover volume of one attacker: blocked fraction for a standard body at every cell")
    s.add_argument("scene", help="a scene file (.toml), or the name of a shipped scene")
    s.add_argument("--from", dest="frm", required=True, metavar="ID",
                   help="the attacker: the id of the character whose sight lines are traced")
    s.add_argument("--layer", type=int, metavar="L", help="only this layer (default: every layer of the map)")
    s.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="cover: .npy (float32 [Z, Y, X] blocked fraction, NaN where no body fits) or .png; threat: .npz or .png")
    s.add_argument("--json", action="store_true", help="print a summary (cells, time, backend) as JSON")
    s.add_argument("--backend", choices=["auto", "gpu", "cpu"], default="auto",
                   help="auto (default): the compute shader where GL 4.3 is there, else the CPU; gpu or cpu to force one")
    s.add_argument("--view", choices=["top", "3d"],
                   help="a .png's picture: top (the --layer seen from above; the default with --layer) or 3d (the "
                        "cells drawn in place as small cubes, every layer or the --layer; the default without --layer)")
    s = sub.add_parser("threat", help="the threat volume of one side: enemies that could attack a standard body at every cell")
    s.add_argument("scene", help="a scene file (.toml), or the name of a shipped scene")
    s.add_argument("--side", required=True, metavar="S", help="the side whose safety is mapped (its enemies are the threats)")
    s.add_argument("--layer", type=int, metavar="L", help="only this layer (default: every layer of the map)")
    s.add_argument("--after-move", action="store_true", help="enemies from anywhere they could move this turn")
    s.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="cover: .npy (float32 [Z, Y, X] blocked fraction, NaN where no body fits) or .png; threat: .npz or .png")
    s.add_argument("--json", action="store_true", help="print a summary (cells, time, backend) as JSON")
    s.add_argument("--backend", choices=["auto", "gpu", "cpu"], default="auto",
                   help="auto (default): the compute shader where GL 4.3 is there, else the CPU; gpu or cpu to force one")
    s.add_argument("--view", choices=["top", "3d"],
                   help="a .png's picture: top (the --layer seen from above; the default with --layer) or 3d (the "
                        "cells drawn in place as small cubes, every layer or the --layer; the default without --layer)")


# -- checks: one clear line, before any work --------------------------------------------------------------------
def _output(path: str, suffixes, scene) -> Path:
    """-o, checked before any work (engine.outputs): extension, folder, writable, and none of the files the scene
    reads (its map.vox, images...: a cover.png over the scene's ground image destroyed it)."""
    from engine.outputs import check_output_path
    from engine.scene import scene_inputs

    return check_output_path(path, suffixes, scene_inputs(scene), what="-o")


def _layers(scene, layer):
    Z = scene.world.size[2]
    if layer is None:
        return list(range(Z))
    if not 0 <= layer < Z:
        raise AerieError(f"{scene.path}: --layer {layer}: outside the map's layers 0..{Z - 1}")
    return [layer]


def _write_whole(path: Path, write) -> None:
    """``write(tmp)`` to a temporary file beside ``path``, then renamed over it: whole or not at all; a folder that
    cannot hold it is one line (``engine.outputs.atomic_path``)."""
    with atomic_path(path) as tmp:
        write(tmp)


def _save_npy(path, arr) -> None:
    with open(path, "wb") as f:
        np.save(f, arr)


def _backend(world, prefer):
    from engine.render.los_grid import open_backend

    try:
        return open_backend(world, prefer)
    except RuntimeError as e:
        raise AerieError(f"--backend gpu: {e}") from None


# -- pictures ----------------------------------------------------------------------------------------------------
def _layer_png(world, rgb_cells: np.ndarray, known: np.ndarray, title: str, legend) -> Image.Image:
    """A top-down picture of one layer: cells coloured, the rest shaded by the terrain's height; north up."""
    from PIL import Image, ImageDraw

    from engine.render.text import _font as font_for

    Y, X = known.shape
    s = max(2, min(16, 768 // max(X, Y)))
    hm = world.heightmap().astype(np.float64)
    shade = (60 + 120 * hm / max(1.0, float(world.size[2]))).astype(np.uint8)
    img = np.repeat(shade[:, :, None], 3, axis=2)
    img[known] = rgb_cells[known]
    img = np.repeat(np.repeat(img[::-1], s, axis=0), s, axis=1)          # row 0 = north
    pad = 22 + 18 * ((len(legend) + 3) // 4)
    canvas = Image.new("RGB", (X * s, Y * s + pad), (24, 24, 28))
    canvas.paste(Image.fromarray(img), (0, pad))
    d = ImageDraw.Draw(canvas)
    try:
        font = font_for(14)[0]
    except Exception:   # noqa: BLE001 - no font: PIL's own
        font = None
    d.text((6, 3), title, fill=(255, 255, 255), font=font)
    for i, (name, col) in enumerate(legend):
        x, y = 6 + (i % 4) * max(120, X * s // 4), 22 + 18 * (i // 4)
        d.rectangle((x, y + 2, x + 12, y + 14), fill=tuple(col))
        d.text((x + 16, y), name, fill=(230, 230, 230), font=font)
    return canvas


def _view(args) -> str:
    """The PNG's picture from --view and --layer (checked before any work)."""
    view = args.view or ("top" if args.layer is not None else "3d")
    if view == "top" and args.layer is None:
        raise AerieError(f"{args.output}: --view top draws one layer: give --layer L (or --view 3d)")
    if args.view is not None and not str(args.output).lower().endswith(".png"):
        raise AerieError(f"{args.output}: --view chooses a .png's picture; this output is not a .png")
    return view


def _view_png(scene, classes: np.ndarray, colours: dict, title: str, size=(1280, 720), layers=None):
    """A 3D view: a small cube at each cell of a coloured class, in place (engine.render.volume_view.cube_prims)."""
    from PIL import Image

    from engine.render.camera import orbit_camera
    from engine.render.commands import _renderer
    from engine.render.renderer import DrawOptions
    from engine.render.state import RenderState
    from engine.render.volume_view import cube_prims

    state = RenderState.from_scene(scene)
    prims, info = cube_prims(scene.world, classes, colours, layers)
    if info["stride"] > 1:
        title += f"; one cell in {info['stride']} x {info['stride']} x {info['stride']} drawn"
    r = _renderer(scene, size)
    img = r.render(orbit_camera(scene.world, state.characters, 35.0), state, prims, DrawOptions(hud=(title,)))
    return Image.fromarray(img)


def _short(be) -> str:
    return "GPU kernel" if be.name.startswith("GLSL") else "CPU"


def _save_png(path: Path, img) -> None:
    _write_whole(path, lambda tmp: img.save(tmp, format="PNG"))


# -- aerie cover --------------------------------------------------------------------------------------------------
def cmd_cover(args) -> int:
    from engine.rules.registry import cover_levels
    from engine.world.geometry import Body
    from engine.scene import load_scene
    from engine.world.volumes import NO_BODY, fraction, level_table

    scene = load_scene(args.scene)
    out = _output(args.output, (".npy", ".png"), scene)
    view = _view(args)
    try:
        ch = scene.character(args.frm)
    except KeyError:
        raise AerieError(f"{scene.path}: --from {args.frm}: no character {args.frm!r}; the scene has "
                         f"{', '.join(c.id for c in scene.characters) or 'none'}") from None
    layers = _layers(scene, args.layer)
    world = scene.world
    attacker = Body.of(ch)
    t0 = time.perf_counter()
    be = _backend(world, args.backend)
    t1 = time.perf_counter()
    try:
        counts = be.cell_counts([attacker], layers)
    finally:
        be.release()
    dt = time.perf_counter() - t1
    frac = fraction(counts)
    thresholds = scene.spec.options.get("cover_thresholds") or cover_levels(scene.ruleset)
    levels = level_table(None, thresholds)
    ok = counts != NO_BODY
    summary = {"scene": scene.path, "from": ch.id, "at": list(ch.at), "layers": layers if args.layer is not None else "all",
               "shape": list(frac.shape), "cells": int(ok.sum()), "lines": int(ok.sum()) * 36,
               "time_s": round(dt, 4), "setup_s": round(t1 - t0, 4), "backend": be.name, "output": str(out),
               "levels": {name: int(sum(int((counts[ok] == k).sum()) for k in range(37) if levels[k] == name))
                          for name, _s in thresholds}}
    if out.suffix.lower() == ".npy":
        _write_whole(out, lambda tmp: _save_npy(tmp, frac))
    else:
        names = [n for n, _s in thresholds]
        idx = np.array([names.index(levels[k]) for k in range(37)])
        cls = np.where(ok, idx[np.minimum(counts, 36)], -1)
        cols = {i: LEVEL_COLOURS.get(n, (160, 160, 160)) for i, n in enumerate(names)}
        if view == "top":
            rgb = np.zeros(cls.shape[1:] + (3,), dtype=np.uint8)
            for i, c in cols.items():
                rgb[cls[0] == i] = c
            img = _layer_png(world, rgb, ok[0], f"{scene.name}: cover from {ch.id} {tuple(ch.at)} at layer "
                             f"{args.layer} ({_short(be)})", [(n, cols[i]) for i, n in enumerate(names)])
        else:
            show = {i: cols[i] for i in range(1, len(names))}          # every level but none: where cover is
            where = "all layers" if args.layer is None else f"layer {args.layer}"
            img = _view_png(scene, cls, show, f"{scene.name}: cells with cover from {ch.id}, {where} ("
                            + ", ".join(names[1:]) + f"; {_short(be)})", layers=layers)
        _save_png(out, img)
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    else:
        print(f"wrote {out}: cover from {ch.id} at {tuple(ch.at)}, {summary['cells']:,} cells "
              f"({summary['lines']:,} sight lines) in {dt * 1000:.0f} ms on {be.name}")
    return 0


# -- aerie threat -------------------------------------------------------------------------------------------------
def threat_inputs(session, side: str, after_move: bool):
    """[(actor, places [Body], volumes.Weapons)] for every living enemy of ``side``: where it stands (and with
    ``after_move`` every place its reach map lets it end its move this turn), its longest reach and range from
    the ruleset (``Ruleset.attack_reach``)."""
    from engine.world.volumes import Weapons

    out = []
    for a in session.state.actors.values():
        if a.side == side or a.dead:
            continue
        reach_m, range_m = session.ruleset.attack_reach(session, a)
        places = [a.body()]
        if after_move:
            from engine.rules.aerial import reach

            r = reach(session, a)
            places += [a.body().moved(x, y, z) for (x, y, z) in r.destinations()]
        out.append((a, places, Weapons(reach_m, range_m)))
    return out


def threat_volume(backend, enemies, layers):
    """(count int16 [L, Y, X] with -1 where no body, fraction float32 [E, L, Y, X], per-enemy counts)."""
    from engine.world.volumes import NO_ATTACK, NO_BODY

    per = []
    for _a, places, weapons in enemies:
        if weapons.reach_m is None and weapons.range_m is None:
            c = backend.cell_counts([places[0]], layers)
            c = np.where(c == NO_BODY, NO_BODY, NO_ATTACK).astype(np.uint16)
        else:
            c = backend.cell_counts(places, layers, weapons=weapons)
        per.append(c)
    return per


def cmd_threat(args) -> int:
    from engine.render import rules_bridge
    from engine.rules.registry import cover_levels
    from engine.scene import load_scene
    from engine.world.volumes import NO_ATTACK, NO_BODY, N_SAMPLES, free_cells, level_table

    scene = load_scene(args.scene)
    out = _output(args.output, (".npz", ".png"), scene)
    view = _view(args)
    sides = sorted({c.side for c in scene.characters})
    if args.side not in sides:
        raise AerieError(f"{scene.path}: --side {args.side}: no such side; the scene has {', '.join(sides) or 'none'}")
    layers = _layers(scene, args.layer)
    world = scene.world
    session = rules_bridge.new_session(scene)
    t0 = time.perf_counter()
    enemies = threat_inputs(session, args.side, args.after_move)
    be = _backend(world, args.backend)
    t1 = time.perf_counter()
    try:
        per = threat_volume(be, enemies, layers)
    finally:
        be.release()
    dt = time.perf_counter() - t1
    thresholds = scene.spec.options.get("cover_thresholds") or cover_levels(scene.ruleset)
    levels = level_table(None, thresholds)
    total = levels[-1]
    first_total = next(k for k in range(N_SAMPLES + 1) if levels[k] == total)   # counts from here: no attack
    free = free_cells(world)[layers]
    count = np.zeros(free.shape, dtype=np.int16)
    fracs = np.full((len(per),) + free.shape, np.nan, dtype=np.float32)
    for i, c in enumerate(per):
        can = (c != NO_BODY) & (c != NO_ATTACK) & (c < first_total)
        count += can
        fracs[i][can] = (c[can].astype(np.float64) / N_SAMPLES).astype(np.float32)
    count[~free] = -1
    ids = np.array([a.id for a, _p, _w in enemies])
    summary = {"scene": scene.path, "side": args.side, "after_move": bool(args.after_move),
               "layers": layers if args.layer is not None else "all", "shape": list(count.shape),
               "cells": int(free.sum()), "enemies": {a.id: {"places": len(p), "reach_m": w.reach_m, "range_m": w.range_m}
                                                    for a, p, w in enemies},
               "safe_cells": int((count == 0).sum()), "time_s": round(dt, 4), "setup_s": round(t1 - t0, 4),
               "backend": be.name, "output": str(out),
               "cells_by_count": {str(k): int((count == k).sum()) for k in range(len(per) + 1)}}
    if out.suffix.lower() == ".npz":
        def write(tmp):
            with open(tmp, "wb") as f:
                np.savez_compressed(f, count=count, fraction=fracs, enemies=ids, layers=np.array(layers))
        _write_whole(out, write)
    else:
        cls = np.where(count >= 0, np.minimum(count, len(COUNT_COLOURS) - 1), -1)
        cols = {i: COUNT_COLOURS[i] for i in range(len(COUNT_COLOURS))}
        legend = [("safe" if i == 0 else f"{i}{'+' if i == len(COUNT_COLOURS) - 1 else ''} "
                   f"{'enemy' if i == 1 else 'enemies'}", cols[i])
                  for i in range(min(len(COUNT_COLOURS), len(per) + 1))]
        how = "after their moves" if args.after_move else "from where they stand"
        if view == "top":
            rgb = np.zeros(cls.shape[1:] + (3,), dtype=np.uint8)
            for i, c in cols.items():
                rgb[cls[0] == i] = c
            img = _layer_png(world, rgb, cls[0] >= 0, f"{scene.name}: threat to side {args.side} at layer "
                             f"{args.layer}, {len(per)} enemies {how} ({_short(be)})", legend)
        else:
            where = "" if args.layer is None else f" at layer {args.layer}"
            img = _view_png(scene, cls, {0: cols[0]}, f"{scene.name}: cells{where} safe from all {len(per)} enemies "
                            f"of {args.side} {how} ({_short(be)})", layers=layers)
        _save_png(out, img)
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    else:
        print(f"wrote {out}: threat to {args.side} from {len(per)} enemies "
              f"({'after moving' if args.after_move else 'where they stand'}), {summary['cells']:,} cells, "
              f"{summary['safe_cells']:,} safe, in {dt * 1000:.0f} ms on {be.name}")
    return 0
