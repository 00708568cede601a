"""What floats above each model in the window: its name, its resource bars (hit points, or whatever pools the
ruleset's actor data holds), its condition icons and, while a step animates, the damage it takes. Pure Python: the window
draws the result with its HUD (``engine.app.hud``).

Labels are placed in screen space near their model and never farther than :data:`MAX_PX` (at a 720-pixel-high
window; scaled with the height) from the model's head: the distance from the projected top of the model to the
nearest point of its label box. A label first tries the spot right above the head, then spots moved up, left and
right (never over a model, its own or another's, nor over another label); a label with no free spot within that
distance loses its bars (a compact name tag, its condition icons kept) and, if even that does not fit, is set
farther out as a name tag with a leader line to its model (issue 23 item 7: every character on screen keeps a
label); only when the window has no free spot at all is it folded into the nearest label as "+N".

Nothing here names a ruleset: the bars come from the ruleset object when it offers them (``token_bars`` or
``panel_rows``), else from the actor's generic fields (``hp`` / ``max_hp``, ``temp_hp``) and the numbers the
ruleset publishes in ``Actor.data["public"]`` that have a maximum beside them (``max_X`` or ``X_max``).
"""

from __future__ import annotations

import math
import zlib

MAX_PX = 40.0          # a label's box is at most this far from its model's head (at 720 px window height)


def short_name(actor) -> str:
    """The name a table uses: the scene's name without its parenthesised note ("Brann (archer)" -> "Brann")."""
    n = getattr(actor, "name", "") or getattr(actor, "id", "")
    return n.split(" (")[0].strip() or actor.id


def bars(session, actor) -> list[tuple[str, int, int]]:
    """[(label, value, max)] for the bars above a model, most important last (drawn bottom row)."""
    rs = session.ruleset
    fn = getattr(rs, "token_bars", None)
    if callable(fn):
        try:
            return [(str(a), int(b), int(c)) for a, b, c in fn(session, actor)]
        except Exception:   # noqa: BLE001 - a ruleset's optional hook must not take the window down
            pass
    out = []
    data = actor.data or {}
    for k in data.get("public", ()) if isinstance(data, dict) else ():
        v = data.get(k)
        mx = data.get(f"max_{k}", data.get(f"{k}_max"))
        if isinstance(v, int) and not isinstance(v, bool) and isinstance(mx, int) and mx > 0:
            out.append((k.replace("_", " ").capitalize(), v, mx))
    label = getattr(rs, "hp_label", None) or ("Life" if out else "HP")
    if actor.max_hp:
        out.append((label, int(actor.hp), int(actor.max_hp)))
    return out


SHORT_POOL = {"protection": "Prot"}


def health_words(session, actor, short: bool = False) -> str:
    """A turn-order row's health, the pools named ("Prot 3/3 Vigor 8/8 Life 8/8": never a bare "L" that a layer
    could be read into) when the ruleset has several; else the ruleset's own brief figure ("11/11 HP").
    ``short``: the other pools by their initial ("P3/3 V8/8 Life 8/8"), Life still spelt out."""
    bs = bars(session, actor)
    if len(bs) < 2:
        return session.ruleset.health_brief(session, actor)
    order = sorted(bs, key=lambda b: (b[0].lower() == "life", b[0].lower() != "protection"))
    if short:
        return " ".join(f"{lab} {v}/{mx}" if lab.lower() == "life" else f"{lab[:1]}{v}/{mx}" for lab, v, mx in order)
    return " ".join(f"{SHORT_POOL.get(lab.lower(), lab)} {v}/{mx}" for lab, v, mx in order)


CONDITION_COLOURS = {"prone": (230, 170, 60), "unconscious": (200, 60, 60), "dead": (120, 120, 120),
                     "grappled": (200, 120, 220), "restrained": (200, 120, 220), "poisoned": (90, 200, 90),
                     "frightened": (240, 220, 90), "blinded": (150, 150, 160), "invisible": (160, 210, 255),
                     "stunned": (250, 120, 40), "paralyzed": (250, 120, 40), "burning": (255, 110, 30)}


def condition_tags(actor) -> list[tuple[str, tuple]]:
    """[(three-letter tag, colour)] for each condition, in name order; the full names are in the side panel."""
    out = []
    for c in sorted(actor.conditions):
        col = CONDITION_COLOURS.get(c)
        if col is None:
            h = zlib.crc32(c.encode())
            col = (120 + h % 120, 120 + (h >> 8) % 120, 120 + (h >> 16) % 120)
        out.append((c[:3].upper(), col))
    if actor.dead and "dead" not in actor.conditions:
        out.insert(0, ("DEAD", CONDITION_COLOURS["dead"]))
    return out


def _overlaps(a, b, pad=1.0) -> bool:
    return a[0] < b[2] + pad and b[0] < a[2] + pad and a[1] < b[3] + pad and b[1] < a[3] + pad


def box_distance(box, pt) -> float:
    """Distance from a point to the nearest point of a box (0 inside)."""
    dx = max(box[0] - pt[0], 0.0, pt[0] - box[2])
    dy = max(box[1] - pt[1], 0.0, pt[1] - box[3])
    return math.hypot(dx, dy)


def _free_index(c, placed, models, bounds, near=None) -> int:
    """The index of the first of the candidate boxes ``c`` (float64 [N, 4]: x0, y0, x1, y1, in order) that keeps
    within ``near`` = (point, max_px) of the point and within ``bounds``, overlaps no ``placed`` label box (1 px
    apart) and no ``models`` box; -1 when none does. One array test of them all: an orbit lays the labels out every frame, and
    the loops over candidates x boxes were most of a frame's CPU (a leader tag's rings are 256 candidates)."""
    import numpy as np

    if not len(c):
        return -1
    x0, y0, x1, y1 = c[:, 0], c[:, 1], c[:, 2], c[:, 3]
    ok = np.ones(len(c), dtype=bool)
    if near is not None:
        (px, py), max_px = near
        dx = np.maximum(np.maximum(x0 - px, 0.0), px - x1)
        dy = np.maximum(np.maximum(y0 - py, 0.0), py - y1)
        ok &= ~(np.hypot(dx, dy) > max_px)
    if bounds is not None:
        ok &= ~((x0 < bounds[0]) | (y0 < bounds[1]) | (x1 > bounds[2]) | (y1 > bounds[3]))
    p, m = _boxes(placed), _boxes(models)
    if (len(p) or len(m)) and ok.any():
        # the labels (1 px apart) and the models (touching allowed) in one test: a box's pad beside it
        b = np.concatenate((p, m)) if len(p) and len(m) else p if len(p) else m
        pad = np.zeros(len(b))
        pad[:len(p)] = 1.0
        hit = ((x0[:, None] < b[:, 2] + pad) & (b[:, 0] < x1[:, None] + pad)
               & (y0[:, None] < b[:, 3] + pad) & (b[:, 1] < y1[:, None] + pad)).any(axis=1)
        ok &= ~hit
    k = int(np.argmax(ok))
    return k if ok[k] else -1


def _boxes(boxes):
    """Boxes as float64 [N, 4] (an array as it is)."""
    import numpy as np

    return np.asarray(boxes, dtype=np.float64).reshape(-1, 4)


_NONE: tuple = ()
LEADER_RINGS = 8        # a leader tag is looked for up to this many times MAX_PX from its model's head
# the 16 directions around a head, straight up first, then alternately right and left, down last: (cos, sin)
_LEADER_DIRECTIONS = [(math.cos(a), math.sin(a)) for a in
                      (-math.pi / 2 + (j if k % 2 else -j) * math.pi / 8 for k in range(16) for j in [(k + 1) // 2])]


def _near_spots(it, max_px):
    """The spots a label of ``it`` is tried at first, in order, as (float64 [N, 4] boxes, the mode of each): the
    full label, then the compact one, upward from just above the head and beside it, up to ``max_px`` away. The
    same arithmetic as a spot at a time (numpy's elementwise float64, in the same order)."""
    import numpy as np

    ax, ay = it["anchor"]
    parts, modes = [], []
    for mode in ("full", "compact"):
        w, h = it[mode]
        step = max(h * 0.5, 4.0)
        k = np.arange(int(max_px // step) + 1, dtype=np.float64)
        xy = np.empty((3 * len(k), 2))
        xy[:len(k), 0], xy[:len(k), 1] = ax - w / 2, ay - 3 - k * step - h
        side = xy[len(k):]
        side[0::2, 0], side[1::2, 0] = ax + 6, ax - 6 - w
        side[0::2, 1] = side[1::2, 1] = ay - h / 2 - k * step
        parts.append(np.concatenate([xy, xy[:, :1] + w, xy[:, 1:] + h], axis=1))
        modes += [mode] * len(xy)
    return np.concatenate(parts), modes


def _leader_spots(it, max_px):
    """A compact tag with a leader line on rings farther out than ``max_px`` (up first, then right and left, down
    last): float64 [N, 4] boxes, tried twice, clear of every model, then of the labels only."""
    import numpy as np

    ax, ay = it["anchor"]
    w, h = it["compact"]
    r = max_px * (1 + np.arange(1, LEADER_RINGS * 2 + 1, dtype=np.float64) * 0.5)
    cs = np.asarray(_LEADER_DIRECTIONS)
    cx, cy = (ax + r[:, None] * cs[None, :, 0]).ravel(), (ay + r[:, None] * cs[None, :, 1]).ravel()
    return np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)


def _first_spot_free(it, max_px, bounds, placed, models) -> tuple | None:
    """The full label straight above the head, when it is free (most labels are): the first spot tried, tested
    without arrays."""
    ax, ay = it["anchor"]
    w, h = it["full"]
    x0, y0 = ax - w / 2, ay - 3 - h
    box = (x0, y0, x0 + w, y0 + h)
    if box_distance(box, (ax, ay)) > max_px:
        return None
    if bounds is not None and (box[0] < bounds[0] or box[1] < bounds[1] or box[2] > bounds[2] or box[3] > bounds[3]):
        return None
    if any(_overlaps(box, p) for p in placed) or any(_overlaps(box, m, 0.0) for m in models):
        return None
    return box


def _place(it, max_px, bounds, placed, models, models_a) -> tuple | None:
    """(box, mode) of the first free spot of ``it``, or None. ``models_a``: ``models`` as an array."""
    box = _first_spot_free(it, max_px, bounds, placed, models)
    if box is not None:
        return box, "full"
    c, modes = _near_spots(it, max_px)
    placed_a = _boxes(placed)
    k = _free_index(c, placed_a, models_a, bounds, (it["anchor"], max_px))
    if k >= 0:
        return tuple(float(v) for v in c[k]), modes[k]
    ring = _leader_spots(it, max_px)
    for strict in (True, False):                # farther out, a tag with a leader line: every character keeps one
        k = _free_index(ring, placed_a, models_a if strict else _NONE, bounds)
        if k >= 0:
            return tuple(float(v) for v in ring[k]), "leader"
    return None


def layout(items: list[dict], max_px: float, bounds=None, avoid=()) -> list[dict]:
    """Place label boxes. ``items``: dicts with ``id``, ``anchor`` (x, y: the model's head on screen), ``depth``
    (nearest first keeps the best spot), ``full`` (w, h) and ``compact`` (w, h) sizes, ``model`` (its own screen
    box). Returns one dict per item: ``box`` (x0, y0, x1, y1) and ``mode`` ("full", "compact" or "leader": a tag
    farther out, drawn with a leader line, so that every character keeps a label), or ``mode`` "folded" with
    ``into`` (the id of the label that counts it: only when the window has no free spot at all). ``avoid``: more
    boxes no label may cover (the HUD's panels)."""
    models = [it["model"] for it in items if it.get("model") is not None] + [tuple(b) for b in avoid]
    models_a = _boxes(models)           # as one array once a layout (each label tests its spots against them all)
    placed: list[tuple] = []
    out = {}
    for it in sorted(items, key=lambda it: it["depth"]):
        got = _place(it, max_px, bounds, [p[0] for p in placed], models, models_a)
        if got is None:
            near = min(placed, key=lambda p: box_distance(p[0], it["anchor"]), default=None)
            out[it["id"]] = {"mode": "folded", "into": near[1] if near else None, "box": None}
            continue
        placed.append((got[0], it["id"]))
        out[it["id"]] = {"mode": got[1], "box": got[0]}
    return [out[it["id"]] for it in items]
