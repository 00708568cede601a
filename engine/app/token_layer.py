"""What floats over the models, drawn: names, bars and condition icons (engine.app.tokens places them), with the
overlays' and the ruler's tags laid out in the same pass so none hides another."""

from __future__ import annotations

from engine.app import hud as H
from engine.app import tokens as T
from engine.render.state import side_colour


def token_max_px(win) -> float:
    return T.MAX_PX * win.size_px[1] / 720.0


def draw_tokens(win, cam, rs) -> None:
    st = win.hud_state()
    k = (cam, win.ctl.state_version, tuple(win.size_px), win.anim_t if win.anims else None, win.vstate.player_side,
         win.vstate.reveal_hp, win.vstate.units, id(st), tuple(c.id for c in rs.characters), tuple(t[1] for t in win.table_tags),
         tuple(tuple(b[:4]) for b in win.hud.blocks))
    if k != win.tok_key:
        win.tok_key = k
        build_tokens(win, cam, rs, st)
    win.tok.draw(win.size_px)


def _items(win, cam, rs, st):
    """One layout item per character on screen (its head and feet projected), then the tags."""
    tok = win.tok
    W, Hh = win.size_px
    cm = win.scene.world.cell_m
    s = win.ctl.session
    chars = [c for c in rs.characters if c.id in st.actors]
    pf = win.player_view()
    pts = []
    for c in chars:
        fx, fy = (c.x + c.footprint / 2) * cm, (c.y + c.footprint / 2) * cm
        top = c.layer + (0.6 if c.lying else c.height_layers) + 0.1
        pts += [(fx, fy, top), (fx, fy, c.layer)]
    proj = cam.project(pts, (W, Hh)) if pts else []
    lh = tok.line
    items, info = [], {}
    for i, c in enumerate(chars):
        hx, hy, hw = proj[2 * i]
        fx_, fy_, fw = proj[2 * i + 1]
        if hw <= 0 or fw <= 0 or not (-50 < hx < W + 50 and -50 < hy < Hh + 50):
            continue
        a = st.actors[c.id]
        name = T.short_name(a)
        head = f"{name}  layer {int(round(c.layer))}" + (" fly" if c.flying and not c.down else "")
        bars = T.bars(s, a)
        word = pf.health(a)
        if word:                         # the players' view of an enemy: a word, no bars
            head, bars = f"{head}  {word}", []
        tags = T.condition_tags(a)
        tag_w = sum(tok.width(t) + 8 for t, _c in tags)
        wf = max(tok.width(head) + 10, 64, tag_w + 4)
        hf = lh + 4 + len(bars) * 5 + (lh + 2 if tags else 0) + 2
        half = max(5.0, abs(fy_ - hy) * 0.3 * c.footprint)
        model = (min(hx, fx_) - half, min(hy, fy_), max(hx, fx_) + half, max(hy, fy_))
        items.append({"id": c.id, "anchor": (hx, hy), "depth": hw, "full": (wf, hf),
                      "compact": (tok.width(name) + 10 + tag_w, lh + 4), "model": model})
        info[c.id] = (a, c, name, head, bars, tags)
    from engine.app.scene_prims import sight_target

    focus = {win.ctl.selected, sight_target(win)}
    for it in items:                     # the selected character and its target are placed first
        if it["id"] in focus:
            it["depth"] = -0.5
    tags_ = list(win.table_tags)
    tproj = cam.project([t[0] for t in tags_], (W, Hh)) if tags_ else []
    for j, ((_p, text, bg), (tx, ty, tw_)) in enumerate(zip(tags_, tproj)):
        if tw_ <= 0:
            continue
        w_ = tok.width(text) + 10
        items.append({"id": f"_tag{j}", "anchor": (tx, ty), "depth": -1.0, "full": (w_, lh + 4),
                      "compact": (w_, lh + 4), "model": None})
        info[f"_tag{j}"] = (text, bg)
    return items, info


def _bars(tok, x0, x1, yy, bars):
    for label, v, mx in bars:
        f = max(0.0, min(1.0, v / mx)) if mx else 0.0
        tok.box(x0 + 4, yy, x1 - 4, yy + 4, (20, 20, 20, 230))
        hpcol = (80, 210, 90, 255) if f > 0.5 else ((235, 190, 50, 255) if f > 0.25 else (230, 60, 50, 255))
        if label.lower() not in ("hp", "life"):
            hpcol = (90, 160, 240, 255) if "prot" in label.lower() else (210, 170, 240, 255)
        tok.box(x0 + 4, yy, x0 + 4 + (x1 - x0 - 8) * f, yy + 4, hpcol)
        yy += 5
    return yy


def _leader(tok, box, ax, ay, bg):
    """Dots from the box's nearest point to the head (the HUD draws boxes only)."""
    x0, y0, x1, y1 = box
    px, py = min(max(ax, x0), x1), min(max(ay, y0), y1)
    n = int(max(abs(px - ax), abs(py - ay)) // 4)
    for i in range(1, n):
        x, y = ax + (px - ax) * i / n, ay + (py - ay) * i / n
        tok.box(x - 1.2, y - 1.2, x + 1.2, y + 1.2, (min(bg[0] * 2 + 60, 255), min(bg[1] * 2 + 60, 255),
                                                     min(bg[2] * 2 + 60, 255), 230))


def _token(win, it, pl, info, folded):
    """One character's label at its place: a full one (name, layer, bars, icons) or a compact name tag."""
    tok = win.tok
    lh = tok.line
    a, c, name, head, bars, tags = info[it["id"]]
    rec = {"name": name, "head": head, "anchor": list(it["anchor"]), "mode": pl["mode"], "box": pl["box"],
           "bars": [list(b) for b in bars], "tags": [t for t, _c in tags], "model": list(it["model"])}
    win.token_boxes[it["id"]] = rec
    if pl["box"] is None:
        rec["into"] = pl.get("into")
        return
    x0, y0, x1, y1 = pl["box"]
    col = side_colour(a.side)
    bg = (int(col[0] * 0.45), int(col[1] * 0.45), int(col[2] * 0.45), 215) if not a.dead else (40, 40, 40, 215)
    tok.box(x0, y0, x1, y1, bg)
    ax, ay = it["anchor"]
    if y1 < ay - 6:                       # moved up: a thin leader to its model
        lx = min(max(ax, x0 + 2), x1 - 2)
        tok.box(lx - 1, y1, lx + 1, ay - 2, (bg[0], bg[1], bg[2], 200))
    if pl["mode"] == "leader":           # set farther out: a dotted leader from the label to its model's head
        _leader(tok, pl["box"], ax, ay, bg)
    if pl["mode"] in ("compact", "leader"):   # a name tag, its condition icons kept
        xx = x0 + 5 + tok.text(x0 + 5, y0 + 2, name, H.FG) + 4
        for t, tc in tags:
            tw = tok.width(t) + 6
            tok.box(xx, y0 + 1, xx + tw, y1 - 1, (tc[0], tc[1], tc[2], 235))
            tok.text(xx + 3, y0 + 2, t, (10, 10, 10, 255))
            xx += tw + 2
    else:
        tok.text(x0 + 5, y0 + 2, head, H.FG)
        yy = _bars(tok, x0, x1, y0 + lh + 4, bars)
        if tags:
            xx = x0 + 4
            yy += 1
            for t, tc in tags:
                tw = tok.width(t) + 6
                tok.box(xx, yy, xx + tw, yy + lh + 1, (tc[0], tc[1], tc[2], 235))
                tok.text(xx + 3, yy, t, (10, 10, 10, 255))
                xx += tw + 2
    n = folded.get(it["id"])
    if n:
        t = f"+{n}"
        tok.box(x1 + 1, y0, x1 + tok.width(t) + 9, y0 + lh + 4, (30, 30, 36, 230))
        tok.text(x1 + 5, y0 + 2, t, H.ACCENT)
        rec["folded"] = n


def build_tokens(win, cam, rs, st) -> None:
    """Names, bars and condition icons above the models (engine.app.tokens places them)."""
    tok = win.tok
    tok.begin()
    W, Hh = win.size_px
    items, info = _items(win, cam, rs, st)
    panels = [b[:4] for b in win.hud.blocks if b[4] != "modal"]     # the HUD as last drawn
    places = T.layout(items, token_max_px(win), bounds=(0, 0, W, Hh), avoid=panels)
    folded: dict = {}
    for it, pl in zip(items, places):
        if pl["mode"] == "folded" and pl["into"] and not it["id"].startswith("_tag"):
            folded[pl["into"]] = folded.get(pl["into"], 0) + 1
    win.token_boxes = {}
    for it, pl in zip(items, places):
        if not it["id"].startswith("_tag"):
            _token(win, it, pl, info, folded)
        elif pl["box"] is not None:
            text, bg = info[it["id"]]
            x0, y0, x1, y1 = pl["box"]
            tok.box(x0, y0, x1, y1, bg)
            tok.text(x0 + 5, y0 + 2, text, H.FG)
    tok.upload()
