"""The window's stills for docs/window.md (issue 23's fixed panels), each at 1280 x 720 and 1920 x 1080, taken
with the window's own code (``python -m engine.app.capture``) and kept small: cropped to the panel they show
(found in the window's test state: a HUD block by name, or the texts that hold a phrase) and saved as
palette PNGs.

    xvfb-run -a -s "-screen 0 1920x1080x24" python tools/window_shots.py [NAME ...]

Writes docs/images/shot_NAME_WxH.png and prints each file's size."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMG = ROOT / "docs" / "images"
SC = str(ROOT / "scenes")
TABLE = str(IMG / "table_actions.json")
PLAYER = str(IMG / "player_actions.json")
BATON_HIT = json.dumps([{"actor": "lia", "action": "attack", "target": "h1", "weapon": "longbow",
                         "rolls": {"test": [12]}}])

# name: (scene, capture flags, crop: None (the whole window) or a list of "block:NAME" / "text:PHRASE")
SHOTS: dict[str, tuple[str, list[str], list[str] | None]] = {
    "recovery": ("showcase.toml", ["--actions", TABLE, "--recovery-offer"], ["text:Recover the game", "text:N or Esc"]),
    "token_hud": ("showcase.toml", ["--token-hud", "wall_archer"], ["block:token hud"]),
    "player": ("showcase.toml", ["--actions", PLAYER, "--player", "blue"], None),
    "baton_prompt": ("baton_skyfall.toml", ["--actions", BATON_HIT, "--prompt"], ["block:question"]),
    "baton_turn": ("baton_skyfall.toml", ["--select", "ulf"], ["block:turn order", "block:Selected"]),
    "log_buttons": ("showcase.toml", ["--actions", TABLE, "--select", "harpy_low"],
                    ["block:actions", "block:Event log", "block:message", "block:hint"]),
    "help": ("showcase.toml", ["--keys-help"], None),
    "error": ("showcase.toml", ["--actions", TABLE, "--error", "ghost_prims: 'wall_archer'"],
              ["block:turn order", "block:message"]),
    "picker": ("showcase.toml", ["--actions", TABLE, "--picker", "open"], ["text:Open a scene", "text:.toml", "text:more below"]),
    "folded": ("showcase.toml", ["--overlay", "grid,engagement,movement,threat", "--select", "harpy_low", "--fold"],
               None),
    "labels": ("showcase.toml", [], None),
    "hints": ("showcase.toml", ["--select", "harpy_low", "--compose", '{"action": "move", "to": [20, 24, 3]}'],
              ["block:hint", "block:message", "text:cell (", "text:cursor altitude"]),
    "legends": ("showcase.toml", ["--overlay", "cover,threat", "--select", "ground_archer", "--layer", "0"],
                ["block:legend", "block:note"]),
    "top_bar": ("showcase.toml", ["--camera", "square"], ["block:top bar"]),
    "template": ("showcase.toml", ["--template", "sphere:6", "--hover", "25,31,0", "--zoom", "3"], None),
    "area": ("dnd_spells_vs_flyers.toml", ["--select", "mage", "--compose",
                                           '{"action": "cast", "spell": "fireball", "at": [12, 6, 5]}'], None),
    "save_first": ("showcase.toml", ["--actions", TABLE, "--save-first"], ["text:Save first?", "text:C or Esc"]),
    "outlook": ("showcase.toml", ["--actions", TABLE, "--outlook", "run,blue=cautious"], ["block:How does this end"]),
    "feet": ("showcase.toml", ["--units", "ft", "--ruler", "harpy_low,lookout", "--select", "harpy_low",
                               "--compose", '{"action": "move", "to": [20, 24, 3]}'], None),
}
SIZES = ("1280x720", "1920x1080")


def crop_box(st: dict, spec: list[str], pad: int = 14) -> tuple[int, int, int, int] | None:
    W, H = st["window"]["size"]
    boxes = []
    for s in spec:
        kind, _, what = s.partition(":")
        if kind == "block":
            boxes += [b[:4] for b in st["window"]["blocks"] if what.lower() in str(b[4]).lower()]
            boxes += [v[:4] for k, v in st["window"]["panels"].items() if what.lower() in k.lower()]
        else:
            boxes += [t[:4] for t in st["window"]["texts"] if what.lower() in t[4].lower()]
    if not boxes:
        return None
    x0 = max(0, int(min(b[0] for b in boxes)) - pad)
    y0 = max(0, int(min(b[1] for b in boxes)) - pad)
    x1 = min(W, int(max(b[2] for b in boxes)) + pad)
    y1 = min(H, int(max(b[3] for b in boxes)) + pad)
    if spec[0].startswith("text:"):          # a prompt: its whole width of the window
        x0, x1 = max(0, x0 - 200), min(W, x1 + 200)
    return x0, y0, x1, y1


def shoot(name: str, size: str, tmp: Path) -> Path:
    from PIL import Image

    scene, flags, spec = SHOTS[name]
    tmp = tmp / f"{name}_{size}"
    tmp.mkdir()
    raw, state = tmp / "shot.png", tmp / "state.json"
    env = dict(os.environ, AERIE_TEST_STATE=str(state), AERIE_SAVE=str(tmp / "game.save.json"),
               AERIE_OUTLOOK_RUNS="20", AERIE_OUTLOOK_ROUNDS="15",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, "-m", "engine.app.capture", f"{SC}/{scene}", *flags, "--size", size,
                        "-o", str(raw)], cwd=tmp, env=env, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise SystemExit(f"{name} {size}: {r.stderr.strip()[-800:]}")
    img = Image.open(raw).convert("RGB")
    box = crop_box(json.loads(state.read_text()), spec) if spec else None
    if spec and box is None:
        print(f"  {name} {size}: nothing matched {spec}: the whole window", file=sys.stderr)
    if box:
        img = img.crop(box)
    out = IMG / f"shot_{name}_{size}.png"
    palette(img).save(out, optimize=True)
    return out


def kept_colours() -> list[tuple[int, int, int]]:
    """The colours a still must keep exactly: the map legends' swatches (engine/app/maps.py) and the HUD's
    opaque text colours. Cut to 160 colours by median cut alone, a whole-window still merged the legend's small
    swatches into the scene's nearest colours (the folded view's threat legend showed 3 and 4+ as one dark red)."""
    from engine.app import hud as H
    from engine.app.maps import COVER_COLOURS, THREAT_COLOURS

    cols = [*THREAT_COLOURS.values(), *COVER_COLOURS.values(), H.FG, H.DIM, H.ACCENT, H.GOOD, H.BAD]
    return list(dict.fromkeys((int(c[0]), int(c[1]), int(c[2])) for c in cols))


def palette(img, colours: int = 160):
    """``img`` (RGB) as a palette image of at most ``colours`` colours: median cut for the scene, plus
    :func:`kept_colours` exactly; every pixel takes its nearest palette colour (no dithering, as before)."""
    from PIL import Image

    keep = kept_colours()
    base = img.quantize(colors=colours - len(keep), method=Image.Quantize.MEDIANCUT)
    pal = list(base.getpalette() or [])[: 3 * (colours - len(keep))] + [v for c in keep for v in c]
    pal += pal[-3:] * (256 - len(pal) // 3)          # the unused entries repeat a kept colour (no stray black)
    p = Image.new("P", (1, 1))
    p.putpalette(pal)
    return img.quantize(palette=p, dither=Image.Dither.NONE)


def main(argv: list[str]) -> int:
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__.strip() + "\n\nshots: " + ", ".join(SHOTS))
        return 0
    bad = [a for a in argv if a not in SHOTS]
    if bad:
        print(f"window_shots: no shot named {', '.join(bad)}; one of {', '.join(SHOTS)}", file=sys.stderr)
        return 2
    names = argv or list(SHOTS)
    with tempfile.TemporaryDirectory() as d:
        for name in names:
            for size in SIZES:
                out = shoot(name, size, Path(d))
                print(f"{out.relative_to(ROOT)}  {out.stat().st_size // 1024} KB", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
