"""What the GM states for a composed action (the ruleset's ``gm_statement``: free words, a number), one question
at a time, the action taken after the last answer. Functions over the controller, which holds the open statement
(``ctl.statement``); pure Python."""

from __future__ import annotations

from engine.errors import AerieError
from engine.rules.events import StepResult


def begin(ctl) -> bool:
    act = ctl.action()
    got = None
    if act is not None:
        try:
            got = ctl.session.ruleset.gm_statement(ctl.session, act)
        except AerieError:
            got = None
    if act is None or not got:
        ctl.say("the composed action leaves nothing for the GM to state", "error")
        return False
    fixed, asks = got
    ctl.statement = {"action": {**act, **fixed}, "asks": [list(x) for x in asks], "i": 0}
    ctl._changed()
    return True


def prompt(ctl) -> str | None:
    st = ctl.statement
    if st is None:
        return None
    _param, question, default = st["asks"][st["i"]]
    who = ctl.state.actors.get(st["action"].get("actor"))
    return (f"GM states for {who.name if who else st['action'].get('actor')}'s "
            f"{str(st['action']['action']).replace('_', ' ')}: {question}"
            + (f" (Enter: {default})" if default is not None else ""))


def enter(ctl, text: str) -> StepResult | None:
    """The GM's answer to the statement's current question; the action is taken after the last one."""
    st = ctl.statement
    if st is None:
        return None
    param, question, default = st["asks"][st["i"]]
    text = text.strip()
    if not text:
        if default is None:
            ctl.say(f"{question}: type it (Esc: put it aside)", "error")
            return None
        value = default
    elif isinstance(default, int):
        try:
            value = int(text)
        except ValueError:
            ctl.say(f"{question}: a whole number", "error")
            return None
    else:
        value = text
    st["action"][param] = value
    st["i"] += 1
    if st["i"] < len(st["asks"]):
        ctl._changed()
        return None
    ctl.statement = None
    return ctl.step(st["action"])


enter.animates = True      # type: ignore[attr-defined]  # the window animates the step the last answer takes
