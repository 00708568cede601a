"""The right column: the preview of the action being composed, the notes (overlays, the ruler, the template),
then the event log (the wheel over it scrolls it)."""

from __future__ import annotations

import json

from engine.app import areaspell
from engine.app.airnote import air_speed_note
from engine.app import hud as H
from engine.app import scene_prims as SP
from engine.app.composing import variant_note
from engine.app.controller import preview_lines
from engine.app.questions import choice_lines
from engine.app.sections.base import Layout, Section
from engine.app.sections.context import Table
from engine.app.intents import Intent, ScrollLog


class Preview(Section):
    """Green title: legal; red: illegal, with the core's reason and rule ID."""

    name = "preview"
    players = False               # what the GM composes, with its odds

    def visible(self, t: Table) -> bool:
        return t.ctl.pending is not None and not t.compact

    def result_rows(self, t: Table, act, w, rows) -> tuple:
        ctl, hud = t.ctl, t.hud
        col = H.BG_TITLE
        ok, res = t.jobs.result("preview", (ctl.state_version, json.dumps(act, sort_keys=True)))
        if not ok:
            rows.append(("computing...", H.DIM))
            return col
        if isinstance(res, Exception):
            rows.append((f"preview failed: {res}", H.BAD))
            return col
        pv = res.get("preview") or {}
        if res.get("ok"):
            col = (30, 90, 50, 245)
            rows.append(("LEGAL - Enter to confirm", H.GOOD))
        else:
            col = (120, 30, 26, 245)
            reason = res.get("reason", "")
            rule = res.get("rule")
            for line in hud.wrap("ILLEGAL: " + reason + (f" ({rule})" if rule and f"({rule})" not in reason else ""),
                                 w - 16):
                rows.append((line, H.BAD))
            note = air_speed_note(ctl.session, act, reason)     # a flyer short of movement: AIR-09 and the option
            for i, line in enumerate(hud.wrap(note, w - 24) if note else ()):
                rows.append(("  " + line if i else line, H.ACCENT))
            # the header says it already: the preview's own copy of the reason and rule would repeat it
            pv = {k: v for k, v in pv.items() if not (k == "reason" and v == reason) and not (k == "rule" and v == rule)}
        tgt = ctl.state.actors.get(pv.get("target")) if isinstance(pv.get("target"), str) else None
        base_ac = (tgt.data or {}).get("ac") if tgt is not None else None
        area = areaspell.row(t)       # an area spell: who it catches, by the rules' preview (issue 23 item 9)
        if area:
            for i, part in enumerate(hud.wrap(area, w - 24)):
                rows.append(("  " + part if i else part, H.ACCENT))
            pv = {k: v for k, v in pv.items() if k != "targets"}     # said above, in names
        for line in preview_lines(pv, base_ac, ctl.session.ruleset) + choice_lines(ctl, act):
            for i, part in enumerate(hud.wrap(line, w - 24)):
                rows.append(("  " + part if i else part, H.FG))
        return col

    def build(self, t: Table, L: Layout) -> None:
        hud, ctl = t.hud, t.ctl
        x, y, w = L.W - L.rw - 8, L.ry, L.rw
        p = ctl.pending
        assert p is not None                 # visible: an action is composed
        rows: list = []
        act = ctl.action()
        title = f"Preview: {t.name(ctl.selected)} - {p.name.replace('_', ' ')}"
        note = variant_note(ctl)
        if note:
            rows.append((note, H.DIM))
        for k, v in p.params.items():
            rows.append((f"{k}: {v}", H.FG))
        for m in ctl.missing():
            kind = dict(p.needs)[m]
            rows.append(((f"pick {m}: hover a cell, wheel/PgUp for altitude, click" if kind == "pos"
                          else f"pick {m}: click a character (T: next)"), H.ACCENT))
        col = self.result_rows(t, act, w, rows) if act is not None else H.BG_TITLE
        if ctl.forced:
            rows.append(("dice entered by hand: " + ", ".join(f"{k}={v}" for k, v in ctl.forced.items()), H.ACCENT))
        t.drawn.panels["preview"] = (x, y, x + w, y + hud.line + 7, col)
        rows = [(t.named(txt), c) for txt, c in rows]      # names, not ids, like everything on screen
        pf = t.player_view()
        if not pf.gm:               # F3: the target's numbers as its side may see them (a line need not name it)
            tgt = p.params.get("target")
            about = ctl.state.actors.get(tgt) if isinstance(tgt, str) else None
            rows = [(t2, c) for txt, c in rows if (t2 := pf.clean(txt, about=about, strict=False))]
        L.ry = hud.panel(x, y, w, title, rows, title_col=col) + 6


class Notes(Section):
    """The overlays' notes ("computing...", reachable cells), the ruler's and the template's figures."""

    name = "notes"

    def build(self, t: Table, L: Layout) -> None:
        hud, lh, rw = t.hud, L.lh, L.rw
        rx = L.W - rw - 8
        extra = []
        view = t.vstate
        info = SP.ruler_info(t) if view.ruler else None
        if view.ruler:
            extra.append("Ruler (U): " + (SP.ruler_text(t, info) if info else "click the second point"))
        if view.template:
            who = SP.template_inside(t)
            txt = view.template
            pin = "pinned (a click moves it; Enter keeps it)" if txt.get("at") else "a click pins it"
            extra.append(f"Template (Y): {SP.template_size(txt['shape'], txt['size_m'])} (Ctrl+wheel: size; {pin}) - "
                         "inside: " + (", ".join(t.name(i) for i in who) or "nobody"))
        if view.pinned:
            extra.append(f"{len(view.pinned)} template(s) kept on the map (Y, then Delete: the one nearest the cursor)")
        for n in L.notes + extra:
            for line in hud.wrap(t.named(n), rw - 16)[:3]:
                hud.box(rx, L.ry, rx + rw, L.ry + lh + 4, (60, 50, 20, 220))
                hud.block(rx, L.ry, rx + rw, L.ry + lh + 4, "note")
                hud.text(rx + 8, L.ry + 2, line, H.FG, max_w=rw - 16)
                L.ry += lh + 4
            L.ry += 4


class EventLog(Section):
    """Every roll and event, in words; the players' view leaves out GM edits and whom they cannot see."""

    name = "log"

    def on_scroll(self, t: Table, x, y, scroll_y) -> Intent | None:
        area = t.log_view.get("area")
        if area and area[0] <= x <= area[2] and area[1] <= y <= area[3]:
            return ScrollLog(3 if scroll_y > 0 else -3)
        return None

    def build(self, t: Table, L: Layout) -> None:
        hud, lh, rw = t.hud, L.lh, L.rw
        rx, ry = L.W - rw - 8, L.ry
        log_bottom = L.by - 8
        avail = max(1, min(int((log_bottom - ry - lh - 20) // lh), 3 if L.small else 8))
        pf = t.player_view()
        lines = []
        for entry in t.log_lines:
            text = pf.log_text(entry)          # the one filter: the side's own lines, enemies' numbers hidden
            if text is None:
                continue
            # narrow enough that the panel never wraps a row again (its "  " indent and margins counted): a second
            # wrap left "=" or "13:" alone on a line and made the panel taller than its room, over the buttons
            for i, part in enumerate(hud.wrap(text, rw - 30 - hud.width("  "))):
                lines.append(("  " + part if i else part, entry[1]))
        scroll = max(0, min(t.vstate.log_scroll, max(len(lines) - avail, 0)))
        if scroll != t.vstate.log_scroll:
            t.drawn.log_scroll = scroll
        end = len(lines) - scroll
        shown = lines[max(end - avail, 0):end]
        top = max(log_bottom - (lh + 8 + len(shown) * lh + 6), ry)
        if ry < log_bottom - lh - 10:
            count = f"  ({len(t.ctl.session.events)} events)" if pf.gm else ""    # the count is the GM's
            ttl = (f"Event log{count}"
                   + (f"  - {scroll} newer below" if scroll else "  (wheel: older)"))
            if L.small:                    # folded: a title that fits its narrow column (issue 23 item 7)
                ttl = f"Log{count}" + (f"  +{scroll} newer" if scroll else "")
            hud.panel(rx, top, rw, ttl, shown, max_rows=len(shown))
            t.drawn.panels["log"] = (rx, top, rx + rw, top + lh + 4, H.BG_TITLE)
            t.drawn.log_view = {"first": shown[0][0] if shown else "", "last": shown[-1][0] if shown else "",
                            "scroll": scroll, "lines": len(lines), "area": [rx, top, rx + rw, log_bottom]}
