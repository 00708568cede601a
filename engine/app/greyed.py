"""The selected character's actions that are not legal now, each with the core's reason (worked out in the
worker: one check per action with each possible target)."""

from __future__ import annotations


def greyed(win) -> list[dict]:
    ctl = win.ctl
    sel = ctl.selected
    if sel not in ctl.state.actors:
        return []
    k = (ctl.state_version, sel, id(ctl.session))
    win.jobs.submit("greyed", k, lambda: greyed_now(ctl, sel))
    ok, val = win.jobs.result("greyed", k)
    return val if ok and isinstance(val, list) else []






def greyed_now(ctl, sel) -> list[dict]:
    from engine.app.flow import greyed_actions

    return greyed_actions(ctl, sel)




def hover_greyed(win) -> str:
    ident = win.hud.hit(*win.mouse)
    if ident and ident[0] == "greyed":
        g = next((g for g in greyed(win) if g["action"] == ident[1]), None)
        if g:
            return f"{g['label']}: not now - {g['reason']}"
    return ""
