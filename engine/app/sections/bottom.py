"""The bottom: the selected character's actions (the legal ones as buttons, the others greyed with the core's
reason), then the status lines above them (the message, the hovered cell, the cursor's altitude)."""

from __future__ import annotations

from engine.app import hud as H
from engine.app import statement
from engine.app.greyed import greyed, hover_greyed
from engine.app.hovertext import cell_info
from engine.app.sections.base import Layout, Section
from engine.app.sections.context import Table
from engine.app.intents import Control, Intent, Say


class Actions(Section):
    name = "actions"
    players = False               # the GM's buttons: not on the players' screen
    kinds = ("action", "greyed", "confirm", "cancel")

    def on_click(self, t: Table, kind, val) -> Intent | None:
        if kind == "greyed":
            g = next((g for g in greyed(t) if g["action"] == val), None)
            return Say(f"{val.replace('_', ' ')}: not now - {g['reason'] if g else 'not possible now'}", "error")
        if kind == "action":
            return Control("choose", (val,))
        if kind == "confirm":
            return Control("confirm", wait=True)
        return Control("cancel")

    def rows(self, t: Table, L: Layout) -> list:
        """The buttons, wrapped onto more rows rather than run off the window."""
        hud, ctl, small, W = t.hud, t.ctl, L.small, L.W
        items = [(b["label"], ("action", b["action"]), b["active"], True, b["hotkey"]) for b in ctl.buttons()]
        if not small:
            items += [(g["label"], ("greyed", g["action"]), False, False, "") for g in greyed(t)]
        else:
            greyed(t)                     # still worked out (the test state lists them)
        if ctl.pending is not None:
            cc = [("confirm", ("confirm", None), False, ctl.action() is not None, "Enter"),
                  ("cancel", ("cancel", None), False, True, "Esc")]
            items = cc + items if small else items + cc       # a small window: confirm / cancel first
        rows_b: list = []
        row: list = []
        x = 10.0
        max_rows = 1 if small else 3
        for it in items:
            w = hud.button_width(it[0], it[4]) + 6 + (12 if it[1][0] == "confirm" else 0)
            if row and x + w > W - 10:
                rows_b.append(row)
                row, x = [], 10
            row.append(it)
            x += w
        if row:
            rows_b.append(row)
        if len(rows_b) > max_rows:        # too many: the greyed ones give way first, then the last rows
            keep = [r for r in rows_b if any(i[1][0] in ("confirm", "cancel", "action") for i in r)]
            rows_b = (keep or rows_b)
            if len(rows_b) > max_rows and not small and ctl.pending is not None:
                rows_b = rows_b[:max_rows - 1] + rows_b[-1:]     # confirm / cancel are on the last row
            rows_b = rows_b[:max_rows]
        return rows_b

    def build(self, t: Table, L: Layout) -> None:
        hud, ctl = t.hud, t.ctl
        bh = hud.line + 10
        rows_b = self.rows(t, L)
        L.by = by = L.H - bh - 6 - (len(rows_b) - 1) * (bh + 4)
        for ri, row in enumerate(rows_b):
            x: float = 10
            y = by + ri * (bh + 4)
            for label, ident, on_, enabled, hk in row:
                if ident[0] == "confirm":
                    x += 12
                x = hud.button(x, y, label, ident, on=on_, enabled=enabled, hotkey=hk) + 6
            hud.block(8, y - 2, x, y + bh + 2, "actions")
        if not ctl.buttons():                         # a hint line, on a background of its own
            cur = L.state.current
            pf = t.player_view()          # the player view names no one it cannot see
            who = t.name(ctl.selected) if ctl.selected and pf.shows(ctl.selected) else None
            hint = (f"{who} has no action now" if who else "no character selected") + (
                f" - it is {t.name(cur) if pf.shows(cur) else 'an unseen character'}'s turn (Space selects)"
                if cur else "")
            y = by - L.lh - 2
            w = min(hud.width(hint) + 12, L.W - 16)
            hud.box(8, y - 3, 8 + w, y + L.lh - 1, (12, 14, 20, 200))
            hud.text(12, y, hint, H.DIM, max_w=L.W - 24)


class Status(Section):
    """The message line (a mode's own line while one is typed), the hovered cell, the cursor's altitude."""

    name = "status"
    players = False               # the GM's messages, the hovered cell, the cursor's altitude

    def depends(self, t: Table) -> tuple:
        return (t.ctl.hover, hover_greyed(t), statement.prompt(t.ctl))

    def lines(self, t: Table, L, y2, text, colour, name, x_of, room, n) -> float:
        hud, lh = t.hud, L.lh
        # a list (``;blocks``) says one item a line, its end clipped where the room ends (the name first, whole)
        wrapped = (text.split("\n") if "\n" in text else hud.wrap(text, room - 20))[:n]
        for line in reversed(wrapped):
            x0 = x_of(y2)
            w = min(hud.width(line) + 20, room)
            hud.box(x0, y2 - 4, x0 + w, y2 + lh + 2, colour)
            hud.block(x0, y2 - 4, x0 + w, y2 + lh + 2, name)
            hud.text(x0 + 10, y2, line, H.FG, max_w=w - 20)
            y2 -= lh + 6
        return y2 - 4

    def build(self, t: Table, L: Layout) -> None:
        hud, ctl, lh, small = t.hud, t.ctl, L.lh, L.small
        y2 = L.by - lh - 6 - (lh if not ctl.buttons() else 0)
        text, kind = t.status() or ctl.message
        hov = hover_greyed(t)
        if hov and not text:
            text, kind = hov, "info"
        pf = t.player_view()        # nothing on the players' screen names whom they cannot see
        if not pf.message_ok(t.named(text or "")):
            text = ""
        room = L.W - L.rw - 30
        left_bottom, pw = L.left_bottom, L.pw

        def lx(yy):          # status lines move right of the left panels where those reach down (small windows)
            return 8 if yy - 4 > left_bottom else 8 + pw + 12

        if L.by - 5 * (lh + 6) < left_bottom:
            room -= pw + 12
        room = max(room, 60)
        if text:               # a list is said as it is: its words are not characters' ids (";blocks": knight)
            y2 = self.lines(t, L, y2, text if kind == "list" else t.named(text),
                            (90, 24, 20, 235) if kind == "error" else (20, 40, 30, 230), "message", lx,
                            # a long list climbs beside the left panels: wrapped to the room left of the log there
                            max(min(room, L.W - L.rw - 30 - L.pw - 12), 60) if kind == "list" else room,
                            40 if kind == "list" else 2 if small else 3)
        info = t.named(cell_info(ctl, ctl.hover)) if not small else ""
        if not pf.message_ok(info):
            info = ""
        if info:
            y2 = self.lines(t, L, y2, info, H.BG, "hover", lx, room, 2)
        if not small and y2 > left_bottom + 4:          # a hint line, on a background of its own (issue 23 item 7)
            cut = t.vstate.cut_above
            hint = f"cursor altitude: layer {ctl.cursor_layer}   (PgUp/PgDn; wheel while placing)"
            if cut is not None or t.scene.world.floor_images:    # a map with storeys, or a cut
                hint += f"   storey: {'all' if cut is None else f'cut above layer {cut}'} (, / .)"
            x0 = lx(y2)
            w = min(hud.width(hint) + 20, room)
            hud.box(x0, y2 - 4, x0 + w, y2 + lh + 2, (12, 14, 20, 200))
            hud.block(x0, y2 - 4, x0 + w, y2 + lh + 2, "hint")
            hud.text(x0 + 10, y2, hint, H.DIM, max_w=w - 20)
