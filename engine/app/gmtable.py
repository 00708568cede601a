"""The GM's table in the window: a GM action (the ``;`` line, an Alt+drag) sent to the core and said on screen,
and the characters the GM added or removed in the render state."""

from __future__ import annotations


def gm_step(win, act) -> None:
    """A GM action, now or as soon as the worker is done reading the session."""
    win.do(_gm_now, win, act)


def _gm_now(win, act) -> None:
    before = len(win.ctl.session.actions)
    win.ctl.step(act)
    _said(win, before)


def _said(win, before: int) -> None:
    """What the GM's step did, in the controller's words: the GM event is not always the last one (what a set
    number brings about -- waking, dying -- follows it)."""
    if len(win.ctl.session.actions) > before:
        win.say(win.named(win.ctl.message[0]) + "  (Ctrl+Z undoes)")
    elif win.ctl.question is not None:        # a player's choice the GM's action met: asked first
        win.seats.hotseat(win.ctl, win.say)
        win.say(win.ctl.message[0])
    else:
        win.say(win.ctl.message[0], "error")


_gm_now.animates = True          # type: ignore[attr-defined]  # the window animates the step it makes


def gm_command(win, text: str) -> None:
    """The ``;`` line (engine/app/gmline.py): a table action, ``blocks``, ``save scene PATH.toml`` or ``start
    PATH.toml`` (the table saved as a scene and played from round 1: the window opens that scene -- a new game,
    so unsaved work asks "save first?" before it is dropped)."""
    if text.split()[:1] and text.split()[0].lower() == "start":
        from engine.app.intents import Do, SaveFirst

        win.perform(SaveFirst("start a new game", Do(_command_now, (win, text))))
        return
    win.do(_command_now, win, text)


def _command_now(win, text: str) -> None:
    from engine.app.gmline import gm_line

    ctl, scene, before = win.ctl, win.ctl.scene, len(win.ctl.session.actions)
    gm_line(ctl, text)
    if ctl.scene is not scene:                # ``start``: the saved scene is the table now
        win.set_controller(ctl)
        win.say(win.named(ctl.message[0]))
        return
    if len(ctl.session.actions) > before or ctl.question is not None:
        _said(win, before)
    else:
        win.say(win.named(ctl.message[0]), "error" if ctl.message[1] == "error" else "info")


_command_now.animates = True     # type: ignore[attr-defined]  # the window animates the step it makes


def gm_views(ctl, rs):
    """The render state of the session's characters: one the GM removed is gone, one the GM added looks like
    the scene character it copies (``gm_add``'s ``like``) or, made from a stat block, is drawn from its own body
    and kind (a block-made character had no view: not drawn, and selecting it raised in every frame)."""
    from dataclasses import replace

    from engine.render.state import CharView

    acts = ctl.state.actors
    keep = [c for c in rs.characters if c.id in acts]
    have = {c.id for c in keep}
    base = {c.id: c for c in rs.characters}
    likes = {e.get("who"): e.get("like") for e in ctl.session.events
             if e.get("type") == "gm" and e.get("what") == "add"}
    for aid, a in acts.items():
        if aid in have:
            continue
        now = dict(name=a.name, side=a.side, x=float(a.x), y=float(a.y), layer=float(a.layer), flying=a.flying,
                   hp=a.hp, max_hp=a.max_hp, conditions=tuple(sorted(a.conditions)) + (("dead",) if a.dead else ()))
        if likes.get(aid) in base:
            keep.append(replace(base[likes[aid]], id=aid, **now))
        else:
            keep.append(CharView(aid, kind=a.kind, footprint=a.footprint, height_layers=a.height_layers,
                                 eye_m=a.eye_m, **now))
    if len(keep) == len(rs.characters) and have == set(base):
        return rs
    return type(rs)(keep, turn=getattr(rs, "turn", None))

