"""The picture of a run (``aerie simulate --report report.png|report.html``): win-rate bars with their 95%
intervals, a histogram of rounds, and a top-down map of the scene (each column's top voxel in its material's
colour, shaded by height) with a dot where each character went down, in its side's colour. PNG with Pillow (a
base dependency); HTML is one self-contained page (inline SVG, the map as an embedded PNG)."""

from __future__ import annotations

import base64
import html
import io

import numpy as np
from PIL import Image, ImageDraw, ImageFont

PALETTE = [(214, 69, 65), (52, 120, 198), (60, 160, 90), (230, 160, 40), (140, 90, 190), (90, 90, 90)]
W, H = 1200, 760


NAMED = {"red": PALETTE[0], "blue": PALETTE[1], "green": PALETTE[2], "orange": PALETTE[3], "purple": PALETTE[4]}
GROUND = (150, 150, 132)          # the ground under layer 0 (below the map is solid ground)


def side_colours(sides: list[str]) -> dict:
    """A side named after a colour gets it; the others take the palette in order."""
    free = [c for c in PALETTE if c not in {NAMED[s] for s in sides if s in NAMED}]
    out, k = {}, 0
    for s in sides:
        if s in NAMED:
            out[s] = NAMED[s]
        else:
            out[s] = free[k % len(free)]
            k += 1
    return out


def top_down(world, scale: int) -> Image.Image:
    """The map from above: each column's highest voxel, its material's colour, darker the lower it lies."""
    v = world.voxels                          # [Z, Y, X]
    Z = v.shape[0]
    solid = v > 0
    top = np.where(solid.any(axis=0), Z - 1 - np.argmax(solid[::-1], axis=0), -1)
    mat = np.take_along_axis(v, np.clip(top, 0, Z - 1)[None], axis=0)[0]
    lut = np.array([m.color for m in world.materials], dtype=np.float64)
    rgb = lut[mat]
    shade = 0.55 + 0.45 * (np.clip(top, 0, None) / max(1, Z - 1))
    rgb = np.where((top >= 0)[..., None], rgb * shade[..., None], np.array(GROUND, dtype=np.float64) * 0.5)
    img = Image.fromarray(np.flipud(rgb.astype(np.uint8)), "RGB")     # north up: y grows upwards
    return img.resize((img.width * scale, img.height * scale), Image.Resampling.NEAREST)


def _font(size: int):
    for name in ("DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default()


def downs(rows: list[dict]) -> list[tuple[str, str, int, int]]:
    """(character, side, x, y) of every time a character went down."""
    out = []
    for r in rows:
        for k, v in r.items():
            if k.endswith(".down") and v:
                c = k[:-5]
                x, y = r.get(f"{c}.down_x", -1), r.get(f"{c}.down_y", -1)
                if x is not None and x >= 0:
                    out.append((c, r.get(f"{c}.side", ""), int(x), int(y)))
    return out


def png(scene, variants: list[tuple[str, dict, list[dict]]], sides: list[str], title: str) -> bytes:
    """The report as PNG bytes. ``variants``: [(label, summary, rows)] (one, or two with --vs / --set)."""
    img = Image.new("RGB", (W, H), (250, 250, 247))
    d = ImageDraw.Draw(img)
    f, fb, fs = _font(15), _font(20), _font(12)
    col = side_colours(sides)
    d.text((20, 12), title, fill=(20, 20, 20), font=fb)
    _bars(d, variants, sides, col, (20, 60, 560, 360), f, fs)
    _histogram(d, variants, (20, 400, 560, 730), f, fs)
    _map(img, d, scene, variants, col, (600, 60, 1180, 730), f, fs)
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def _bars(d, variants, sides, col, box, f, fs):
    x0, y0, x1, y1 = box
    d.text((x0, y0), "win rate per side (bars: 95% Wilson interval)", fill=(0, 0, 0), font=f)
    groups = sides + ["draw"]
    top, bottom = y0 + 30, y1 - 40
    gw = (x1 - x0 - 40) / len(groups)
    bw = gw / (len(variants) + 1)
    for k in range(0, 101, 25):
        y = bottom - (bottom - top) * k / 100
        d.line([(x0 + 30, y), (x1, y)], fill=(220, 220, 220))
        d.text((x0, y - 7), f"{k}%", fill=(90, 90, 90), font=fs)
    for gi, g in enumerate(groups):
        for vi, (label, summ, _rows) in enumerate(variants):
            v = summ["draws"] if g == "draw" else summ["sides"].get(g)
            if v is None:           # a side this variant's scene does not field (--vs another scene)
                continue
            c = (150, 150, 150) if g == "draw" else col[g]
            if vi:
                c = tuple(int(0.55 * ch + 0.45 * 255) for ch in c)
            bx = x0 + 40 + gi * gw + vi * bw
            h = (bottom - top)
            d.rectangle([bx, bottom - h * v["rate"], bx + bw - 4, bottom], fill=c)
            cx = bx + (bw - 4) / 2
            d.line([(cx, bottom - h * v["low"]), (cx, bottom - h * v["high"])], fill=(0, 0, 0), width=2)
            for yy in (v["low"], v["high"]):
                d.line([(cx - 5, bottom - h * yy), (cx + 5, bottom - h * yy)], fill=(0, 0, 0), width=2)
            d.text((bx, bottom - h * v["rate"] - 16), f"{v['rate']:.0%}", fill=(0, 0, 0), font=fs)
        d.text((x0 + 40 + gi * gw, bottom + 6), g, fill=(0, 0, 0), font=f)
    if len(variants) > 1:
        d.text((x0 + 40, y1 - 16), "  |  ".join(f"{'solid' if i == 0 else 'pale'}: {lab}"
                                                  for i, (lab, _s, _r) in enumerate(variants)), fill=(60, 60, 60), font=fs)


def _histogram(d, variants, box, f, fs):
    x0, y0, x1, y1 = box
    d.text((x0, y0), "rounds to the end (draws at the cap included)", fill=(0, 0, 0), font=f)
    rounds = [[int(r["rounds"]) for r in rows if r.get("outcome") != "error"] for _l, _s, rows in variants]
    hi = max([max(r) for r in rounds if r] + [1])
    counts = [np.bincount(r, minlength=hi + 1)[1:] if r else np.zeros(hi) for r in rounds]
    peak = max([int(c.max()) for c in counts if len(c)] + [1])
    top, bottom = y0 + 30, y1 - 30
    bw = (x1 - x0 - 40) / hi
    for vi, c in enumerate(counts):
        fill = (70, 110, 160) if vi == 0 else (230, 150, 60)
        for k, n in enumerate(c):
            bx = x0 + 30 + k * bw + (bw / 2 if vi else 0)
            d.rectangle([bx, bottom - (bottom - top) * n / peak, bx + bw / max(1, len(counts)) - 1, bottom], fill=fill)
    if len(variants) > 1:
        for vi, (lab, _s, _r) in enumerate(variants):
            fill = (70, 110, 160) if vi == 0 else (230, 150, 60)
            d.rectangle([x1 - 200, top + 4 + 18 * vi, x1 - 190, top + 14 + 18 * vi], fill=fill)
            d.text((x1 - 184, top + 2 + 18 * vi), lab[:26], fill=(0, 0, 0), font=fs)
    step = max(1, hi // 10)
    for k in range(1, hi + 1, step):
        d.text((x0 + 30 + (k - 1) * bw, bottom + 4), str(k), fill=(60, 60, 60), font=fs)
    d.text((x0, top - 4), str(peak), fill=(60, 60, 60), font=fs)


def _map(img, d, scene, variants, col, box, f, fs):
    x0, y0, x1, y1 = box
    d.text((x0, y0), "where characters went down (seen from above, north up)", fill=(0, 0, 0), font=f)
    X, Y, _Z = scene.world.size
    scale = max(1, min((x1 - x0) // X, (y1 - y0 - 60) // Y))
    m = top_down(scene.world, scale)
    mx, my = x0, y0 + 28
    img.paste(m, (mx, my))
    rng = np.random.default_rng(0)           # a little jitter so dots on one cell stay countable (fixed: same picture)
    for _label, _s, rows in variants[:1]:
        for _c, side, x, y in downs(rows):
            jx, jy = rng.uniform(-0.35, 0.35, 2)
            px = mx + (x + 0.5 + jx) * scale
            py = my + (Y - 1 - y + 0.5 + jy) * scale
            r = max(2, scale // 3)
            d.ellipse([px - r, py - r, px + r, py + r], fill=col.get(side, (0, 0, 0)), outline=(255, 255, 255))
    ly = my + Y * scale + 8
    for i, (s, c) in enumerate(col.items()):
        d.ellipse([x0 + i * 140, ly + 2, x0 + i * 140 + 10, ly + 12], fill=c)
        d.text((x0 + i * 140 + 16, ly), f"{s} down", fill=(0, 0, 0), font=fs)
    if len(variants) > 1:
        d.text((x0, ly + 18), f"(dots: {variants[0][0]})", fill=(60, 60, 60), font=fs)


def html_page(scene, variants, sides: list[str], title: str, lines: list[str]) -> bytes:
    """One self-contained page: the PNG report embedded, and the summary as text."""
    pic = base64.b64encode(png(scene, variants, sides, title)).decode("ascii")
    body = html.escape("\n".join(lines))
    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            "<style>body{font-family:sans-serif;margin:24px;background:#fafaf7}pre{font-size:13px}</style></head>"
            f"<body><h1>{html.escape(title)}</h1><img alt='win rates, rounds and where characters went down' "
            f"src='data:image/png;base64,{pic}' width='{W}' height='{H}'><pre>{body}</pre></body></html>\n")
    return page.encode("utf-8")
