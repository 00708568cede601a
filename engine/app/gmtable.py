"""The GM's table in the window: a GM action (the ``;`` line, an Alt+drag) sent to the core and said on screen,
and the characters the GM added or removed in the render state."""

from __future__ import annotations


def gm_step(win, act) -> None:
    """A GM action, now or as soon as the worker is done reading the session."""
    win.do(_gm_now, win, act)


def _gm_now(win, act) -> None:
    before = len(win.ctl.session.actions)
    win.ctl.step(act)
    if len(win.ctl.session.actions) > before:
        ev = win.ctl.session.events[-1]
        what = str(act["action"]).replace("_", " ")
        win.say(win.named(ev.get("text", f"GM: {what} done")) + "  (Ctrl+Z undoes)")
    elif win.ctl.question is not None:        # a player's choice the GM's action met: asked first
        win.hotseat()
        win.say(win.ctl.message[0])
    else:
        win.say(win.ctl.message[0], "error")


_gm_now.animates = True          # type: ignore[attr-defined]  # the window animates the step it makes


def gm_command(win, text: str) -> None:
    from engine.app.gmtext import parse

    try:
        act = parse(text, win.ctl.state)
    except ValueError as e:
        win.say(f"GM: {e}", "error")
        return
    if act is not None:
        gm_step(win, act)


def gm_views(ctl, rs):
    """The render state of the session's characters: one the GM removed is gone, one the GM added looks like
    the scene character it copies (``gm_add``'s ``like``)."""
    from dataclasses import replace

    acts = ctl.state.actors
    keep = [c for c in rs.characters if c.id in acts]
    have = {c.id for c in keep}
    base = {c.id: c for c in rs.characters}
    likes = {e.get("who"): e.get("like") for e in ctl.session.events
             if e.get("type") == "gm" and e.get("what") == "add"}
    for aid, a in acts.items():
        if aid in have or likes.get(aid) not in base:
            continue
        keep.append(replace(base[likes[aid]], id=aid, name=a.name, side=a.side, x=float(a.x), y=float(a.y),
                            layer=float(a.layer), flying=a.flying, hp=a.hp, max_hp=a.max_hp,
                            conditions=tuple(sorted(a.conditions)) + (("dead",) if a.dead else ())))
    if len(keep) == len(rs.characters) and have == set(base):
        return rs
    return type(rs)(keep, turn=getattr(rs, "turn", None))

