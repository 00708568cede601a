"""A developer's script (not in the package): the documentation's fly-through GIF, small enough for a README.

    python tools/flythrough_gif.py showcase window docs/images/flythrough_tour.gif --size 384x216 --fps 8 --colours 32

``aerie flythrough -o x.gif`` gives every frame its own palette (best colours, large files: 7.7 MB for this 20 s
tour at 400 x 225). Here every frame is rendered the same way (engine.render.commands: the path's camera, the
scene as placed, the video's legend) and then mapped, without dithering, onto ONE palette taken from the frames,
so unchanged pixels compress across frames. The frame times add up to the path's length exactly (8 fps: 120 and
130 ms alternately, GIF delays are in hundredths of a second).
"""

from __future__ import annotations

import argparse

import numpy as np
from PIL import Image

from engine.render.camera import char_points, scene_path
from engine.render.commands import _renderer, flythrough_options
from engine.render.state import RenderState
from engine.scene import load_scene
from engine.units import scene_units


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scene")
    ap.add_argument("path")
    ap.add_argument("output")
    ap.add_argument("--size", default="384x216")
    ap.add_argument("--fps", type=int, default=8)
    ap.add_argument("--colours", type=int, default=32)
    a = ap.parse_args(argv)
    w, h = (int(v) for v in a.size.split("x"))
    sc = load_scene(a.scene)
    st = RenderState.from_scene(sc)
    p = scene_path(sc, st.characters, None, a.path, sc.world)
    r = _renderer(sc, (w, h))
    where, opts = char_points(sc.world, st.characters), flythrough_options(sc, scene_units(sc))
    n = int(round(p.duration * a.fps))
    frames = [r.render(p.at(i / a.fps, where), st, None, opts) for i in range(n)]
    sample = np.concatenate([f[::3, ::3] for f in frames[::8]], axis=0)
    pal = Image.fromarray(sample).quantize(colors=a.colours, method=Image.Quantize.MEDIANCUT)
    ims = [Image.fromarray(f).quantize(palette=pal, dither=Image.Dither.NONE) for f in frames]
    cs = [int(round(100 * (i + 1) / a.fps)) - int(round(100 * i / a.fps)) for i in range(n)]    # hundredths
    ims[0].save(a.output, save_all=True, append_images=ims[1:], duration=[10 * c for c in cs], loop=0, optimize=True)
    print(f"wrote {a.output} ({n} frames, {sum(cs) / 100:g} s, {w}x{h}, {a.colours} colours)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
