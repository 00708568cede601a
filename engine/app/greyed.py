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


def _candidates(s, sel, name, spec, others) -> list[dict]:
    base = {"actor": sel, "action": name}
    cands = [base]
    for k, p in spec.items():
        if p.required and p.kind == "id":
            cands = [dict(c, **{k: o}) for c in cands for o in others]
        elif p.required and p.kind == "pos":
            a = s.state.actors[sel]
            cands = [dict(c, **{k: [a.x, a.y, a.layer]}) for c in cands]
        elif p.required and p.choices:
            cands = [dict(c, **{k: p.choices[0]}) for c in cands]
    return cands


def _reason(s, cands) -> str | None:
    from engine.errors import AerieError
    from engine.rules.core import BadAction, Illegal

    reason = None
    for c in cands[:8]:
        try:
            s.check(c)
        except BadAction as e:
            reason = reason or (f"needs {e.path}" if e.path else e.reason)
            continue
        except Illegal as e:
            return e.reason + (f" ({e.rule})" if e.rule and f"({e.rule})" not in e.reason else "")
        except AerieError as e:
            reason = reason or str(e)
            continue
    return reason


def greyed_now(ctl, sel) -> list[dict]:
    from engine.app.flow import greyed_actions

    return greyed_actions(ctl, sel)


def _greyed_here(ctl, sel) -> list[dict]:
    s = ctl.session
    rs = s.ruleset
    gm_only = set(rs.GM_ACTIONS)
    legal = {a.get("action") for a in ctl.legal()}
    out = []
    others = [a.id for a in s.state.actors.values() if a.id != sel][:8]
    for name, spec in rs.action_specs().items():
        if name in legal or name in gm_only:
            continue
        reason = _reason(s, _candidates(s, sel, name, spec, others))
        out.append({"action": name, "label": name.replace("_", " "), "reason": reason or "not possible now"})
    return out


def hover_greyed(win) -> str:
    ident = win.hud.hit(*win.mouse)
    if ident and ident[0] == "greyed":
        g = next((g for g in greyed(win) if g["action"] == ident[1]), None)
        if g:
            return f"{g['label']}: not now - {g['reason']}"
    return ""
