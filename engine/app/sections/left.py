"""The top bar and the left column: whose turn it is, the turn order, the selected character."""

from __future__ import annotations

from engine.app import hud as H
from engine.app import tokens as T
from engine.app.sections.base import Layout, Section
from engine.app.sections.context import Table
from engine.app.intents import Control, GmStep, Intent, ToggleHelp
from engine.render.state import side_colour


class TopBar(Section):
    """Whose turn it is and the camera mode always fit (the scene's name gives way first); undo / redo / help."""

    name = "top bar"
    kinds = ("undo", "redo", "help")

    def depends(self, t: Table) -> tuple:
        return (t.camctl.mode,)

    def on_click(self, t: Table, kind, val) -> Intent | None:
        if kind in ("undo", "redo"):
            return Control(kind, wait=True)
        return ToggleHelp()

    def build(self, t: Table, L: Layout) -> None:
        hud, s, st, W = t.hud, t.ctl.session, L.state, L.W
        L.bar_h = bar_h = L.lh + 8
        L.ry = bar_h + 6
        hud.box(0, 0, W, bar_h, (12, 14, 20, 230))
        hud.block(0, 0, W, bar_h, "top bar")
        cur = st.current
        turn = f"round {st.round}, {t.name(cur)}'s turn" if cur in st.actors else ""
        if cur in st.actors and (said := s.ruleset.turn_caption(s)):
            turn = t.named(said)                  # the ruleset's own words for its turns
        if cur in st.actors and not t.player_view().shows(cur):
            turn = f"round {st.round}, an unseen character's turn"     # the player view names no one it cannot see
        if st.over:
            turn = f"fight over: {st.winner} won" if st.winner else "fight over"
        right = W - 6
        btns: tuple = (("help", "F1 help"), ("redo", "Ctrl+Y redo"), ("undo", "Ctrl+Z undo"))
        if W < 700:
            btns = (("help", "F1"), ("redo", "redo"), ("undo", "undo"))
        if t.players_screen:           # the GM's buttons: the players' screen takes no clicks
            btns = ()
        for ident, label in btns:
            right -= hud.button_width(label)
            hud.button(right, 0, label, (ident, None))
            right -= 4
        on = [n for n, v in t.vstate.on.items() if v]
        pieces = [(f"camera: {t.camctl.describe()}", H.DIM), (turn, H.FG)]
        if t.vstate.player_side is not None:
            pieces.insert(0, (f"PLAYER VIEW: {t.vstate.player_side}", H.BAD))
        x: float = 8
        room = right - 12
        title = f"Aerie  {t.scene.name}"
        need = sum(hud.width(txt) + 16 for txt, _c in pieces)
        if x + hud.width(title) + 16 + need <= room:
            x += hud.text(x, 4, title, H.ACCENT) + 16
        for txt, col in reversed(pieces):
            if not txt:
                continue
            w = hud.width(txt)
            if x + w > room:
                w = hud.text(x, 4, txt, col, max_w=max(room - x, 10))
            else:
                hud.text(x, 4, txt, col)
            x += w + 16
        if on and x + hud.width("overlays: " + ", ".join(on)) < room:
            hud.text(x, 4, "overlays: " + ", ".join(on), H.GOOD)


class TurnOrder(Section):
    """The turn order (a click on a row selects); folded to whose turn it is."""

    name = "turn order"
    kinds = ("select",)

    def __init__(self) -> None:
        self.short_tails: dict = {}      # {id: the row's tail with the pools in short}, for a narrow panel

    def depends(self, t: Table) -> tuple:
        return (id(t.hud_state),)

    def on_click(self, t: Table, kind, val) -> Intent | None:
        return Control("select", (val,))

    def on_drop(self, t: Table, start, end) -> Intent | None:
        """A row dragged onto another: the character moves before it (dropped on a row above) or after it (below)
        -- a recorded gm_order (issue 23 item 9)."""
        if end is None or end[0] != "select" or end[1] == start[1]:
            return None
        order = list(t.ctl.state.order)
        if start[1] not in order or end[1] not in order:
            return None
        rel = "before" if order.index(end[1]) < order.index(start[1]) else "after"
        return GmStep({"actor": "gm", "action": "gm_order", "target": start[1], rel: end[1]})

    def rows(self, t: Table, L: Layout) -> list:
        s, st = t.ctl.session, L.state
        marks = s.ruleset.turn_marks(s)     # the ruleset's notes on the turn order (who has acted...)
        short = s.ruleset.TURN_MARKS_SHORT
        pf = t.player_view()
        rows = []
        # the order, then whoever is on the table and not in it yet (added on an empty map before ;start: issue 40
        # item 7 -- they never showed)
        for cid in list(st.order) + [c for c in st.actors if c not in st.order]:
            a = st.actors.get(cid)
            if a is None or not pf.shows(cid):
                continue
            mark = ">" if cid == st.current else " "
            hp = pf.health(a) or T.health_words(s, a)      # the pools spelt out (Life), or the players' word
            layer = where = f"layer {a.layer}{' fly' if a.flying else ''}"
            if cid in marks:
                where = f"{short.get(marks[cid], marks[cid])} {where}"
            if cid not in st.order:
                where = f"not in the order yet {where}"
            # too long for the panel: the pools in short (Life still spelt out), then the mark left out, before
            # the layer is ever cut
            brief = pf.health(a) or T.health_words(s, a, short=True)
            self.short_tails[cid] = [f"{brief} {where}", f"{brief} {layer}"]
            sc = side_colour(a.side)
            col: tuple = (min(sc[0] + 80, 255), min(sc[1] + 80, 255), min(sc[2] + 80, 255), 255)
            if a.dead:
                col = H.DIM
            rows.append((f"{mark} {T.short_name(a)}", col, f"{hp} {where}", cid))
        return rows

    def row(self, t: Table, L: Layout, yy, text, col, tail, cid) -> None:
        hud, pw, lh = t.hud, L.pw, L.lh
        if cid == t.ctl.selected:
            hud.box(10, yy - 2, 6 + pw, yy + lh - 2, (70, 80, 110, 200))
        # the name keeps at least its own width up to 40% of the panel; a long tail (a ruleset's health figures,
        # life, a mark) is the one clipped, so a row never reads "> ." for its character
        name_w = min(hud.width(text), pw * 0.4)
        tw = min(hud.width(tail), pw - 28 - name_w)
        for alt in self.short_tails.get(cid, ()):
            if hud.width(tail) <= tw:
                break
            tail = alt
            tw = min(hud.width(tail), pw - 28 - name_w)
        hud.text(16, yy, text, col, max_w=pw - tw - 28)
        if hud.width(tail) > tw:           # still too long: whole words dropped from its end, not half a word
            words = tail.split(" ")
            while len(words) > 1 and hud.width(" ".join(words) + "..") > tw:
                words.pop()
            # ".." (the atlas has no ellipsis glyph: "…" came out as "?")
            tail = " ".join(words) + (".." if len(words) < len(tail.split(" ")) else "")
        hud.text(8 + pw - 8 - tw, yy, tail, H.FG, max_w=tw)
        hud.rects.append((8, yy - 2, 8 + pw, yy + lh - 2, ("select", cid)))

    def build(self, t: Table, L: Layout) -> None:
        hud, s, st, W, lh = t.hud, t.ctl.session, L.state, L.W, L.lh
        L.pw = pw = int(min(300, max(200, W * 0.22))) if not L.small else int(min(220, W * 0.45))
        y = L.bar_h + 6
        rows = self.rows(t, L)
        title = f"Turn order  (round {st.round})"
        if s.ruleset.turn_marks(s):
            title = s.ruleset.turn_title(s) or title      # a ruleset may title its own turn panel
        if L.small:      # folded: the title and whose turn it is, the panel as wide as they need (issue 23 item 7)
            rows = [r for r in rows if r[3] == st.current][:1]
            title = f"Turn {st.round}  (F2)"
            need = max([hud.width(title) + 24] + [hud.width(txt) + hud.width(tail) + 40 for txt, _c, tail, _i in rows])
            L.pw = pw = int(max(pw, min(need, W * 0.45)))
        if not L.small and rows:
            # as wide as its longest row needs (a ruleset's health figures can be long), up to a third of the window
            need = max(hud.width(txt) + hud.width(tail) for txt, _c, tail, _id in rows) + 40
            L.pw = pw = int(max(pw, min(need, W * 0.34)))
        ph = lh + 8 + len(rows) * lh + 6
        hud.box(8, y, 8 + pw, y + ph, H.BG)
        hud.block(8, y, 8 + pw, y + ph, "turn order")
        hud.box(8, y, 8 + pw, y + lh + 4, H.BG_TITLE)
        hud.text(16, y + 3, title, H.ACCENT, max_w=pw - 16)
        yy = y + lh + 8
        for text, col, tail, cid in rows:
            self.row(t, L, yy, text, col, tail, cid)
            yy += lh
        t.drawn.panels["turn"] = (8, y, 8 + pw, y + lh + 4, H.BG_TITLE)
        t.drawn.panel_rows = {"turn": [(r[0] + " " + r[2]) for r in rows]}
        L.left_bottom = yy + 8


class Selected(Section):
    """The selected character: its pools (the ruleset's rows), movement left, the turn's economy, altitude,
    conditions."""

    name = "selected"

    def depends(self, t: Table) -> tuple:
        return (id(t.hud_state),)

    def visible(self, t: Table) -> bool:
        return not t.compact

    def rows(self, t: Table, a) -> list:
        s = t.ctl.session
        rs = s.ruleset
        rows = [(f"{a.name}", H.FG), (f"{a.side} - {a.kind or a.size}  (id: {a.id})", H.DIM)]
        word = t.player_view().health(a)
        if word:                                                  # the players' view of an enemy
            rows.append((f"health: {word}", H.FG))
        else:
            rows.extend((row, H.FG) for row in rs.hud_rows(s, a))     # the ruleset's own rows (hit points...)
        try:
            from engine.app.controller import movement_text

            rows.append((movement_text(s, a), H.FG))      # names the AIR-09 reading in force for a flyer
        except Exception:   # noqa: BLE001 - not this actor's turn, or a ruleset without the hook
            pass
        cur = s.current == a.id
        used = rs.economy(s, a, s.state.turn if cur else {})       # [(resource, used)] for this turn
        if used:           # one short row: what is used, what is free (the panel is narrow)
            spent = [n for n, u in used if u]
            free = [n for n, u in used if not u]
            rows.append(("; ".join(x for x in (f"USED {', '.join(spent)}" if spent else "",
                                               f"free {', '.join(free)}" if free else "") if x), H.FG))
        elif cur:
            try:
                rows.append((f"{rs.upkeep_name}: {'free' if rs.upkeep_available(s, a) else 'used'}", H.FG))
            except Exception:   # noqa: BLE001
                pass
        alt = f"layer {a.layer}"
        try:
            from engine.rules.aerial import support_below

            below = support_below(s, a)
            if a.layer > below:
                alt += f", {a.layer - below} m up"
        except Exception:   # noqa: BLE001
            pass
        rows.append((("flying, " if a.flying else ("can fly, " if a.can_fly else "")) + alt, H.FG))
        conds = sorted(a.conditions)
        rows.append(("conditions: " + (", ".join(conds) if conds else "none"), H.BAD if conds else H.DIM))
        if a.dead:
            rows.append(("DEAD", H.BAD))
        rows.append((("it is their turn" if cur else f"waiting (it is {t.name(s.current)}'s turn)"),
                     H.GOOD if cur else H.DIM))
        return rows

    def build(self, t: Table, L: Layout) -> None:
        st = L.state
        sel = t.ctl.selected
        if sel not in st.actors or not t.player_view().shows(sel):   # the player view: not whom they cannot see
            return
        x, y, w = 8, L.left_bottom, L.pw
        t.drawn.panels["selected"] = (x, y, x + w, y + t.hud.line + 7, H.BG_TITLE)
        L.left_bottom = t.hud.panel(x, y, w, "Selected", self.rows(t, st.actors[sel])) + 8
