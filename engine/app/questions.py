"""A player's choice at the moment the rules make it (ask mode): the controller's open question, its prompt's
view, the answer that retakes the step, and the table's questions between actions (the ruleset's
``table_question``). Functions over the controller, which holds the state (``ctl.question``, ``ctl.ask``), so the
controller's class stays small; pure Python like it (engine/rules/choices.py makes the questions)."""

from __future__ import annotations

from engine.errors import AerieError
from engine.rules.choices import fill
from engine.rules.events import StepResult


def _first_pick(p) -> int:
    opts = list(p.options)
    return opts.index(p.default) if p.default in opts else 0


def ask(ctl, act: dict, answered: dict | None, p) -> None:
    """The step stopped at choice point ``p``: it becomes the open question, the default option highlighted."""
    ctl.question = {"action": act, "answered": dict(answered or {}), "point": p, "pick": _first_pick(p)}
    ctl.say(f"{chooser_label(ctl, p)}: {p.question}" if p.question else f"{chooser_label(ctl, p)} chooses")
    ctl._changed()


def chooser_label(ctl, p) -> str:
    if p.role == "players":             # a table question: the players together (the chooser names the side)
        return "The players"
    a = ctl.state.actors.get(p.chooser)
    name = a.name if a is not None else p.chooser
    return f"{name} ({p.role})" if p.role else name


def option_label(ctl, value, labels: dict | None = None) -> str:
    if labels and isinstance(value, str) and value in labels:
        return str(labels[value])
    if isinstance(value, str) and value in ctl.state.actors:
        return ctl.state.actors[value].name
    if value is True:
        return "Yes"
    if value is False or value is None:
        return "No"
    return str(value).replace("_", " ").capitalize()


def view(ctl) -> dict | None:
    """What the prompt shows (and the tests read): who chooses, for which side, the options and what each does,
    the dice rolled so far in this action."""
    q = ctl.question
    if q is None:
        return None
    p = q["point"]
    a = ctl.state.actors.get(p.chooser)
    return {"chooser": p.chooser, "label": chooser_label(ctl, p), "side": a.side if a is not None else None,
            "key": p.key, "rule": p.rule, "question": p.question, "pick": q["pick"],
            "options": [{"value": v, "label": option_label(ctl, v, p.labels), "does": d, "default": v == p.default}
                        for v, d in p.options.items()],
            "rolled": [f"{r['name']} {r['die']} = {r['result']}" for r in p.rolled],
            "action": q["action"], "table": bool(q.get("table"))}


def offer_table(ctl) -> None:
    """In ask mode with no question open: the question the table answers now (the ruleset's ``table_question``),
    unless it was answered "as it stands" since the last action."""
    if not ctl.ask or ctl.question is not None:
        return
    try:
        got = ctl.session.ruleset.table_question(ctl.session)
    except AerieError:
        got = None
    if got is None:
        return
    act, p = got
    if (p.key, len(ctl.session.actions)) in ctl._table_done:
        return
    ctl.question = {"action": act, "answered": {}, "point": p, "pick": _first_pick(p), "table": True}
    ctl.say(f"{chooser_label(ctl, p)}: {p.question}")
    ctl._changed()


def answer(ctl, i: int | None = None) -> StepResult | None:
    """Answer the open question with option ``i`` (None: the one highlighted), then try the step again."""
    q = ctl.question
    if q is None:
        return None
    opts = list(q["point"].options)
    i = q["pick"] if i is None else i
    if not 0 <= i < len(opts):
        ctl.say(f"choose 1 to {len(opts)}", "error")
        return None
    value = opts[i]
    ctl.question = None
    if q.get("table") and value == q["point"].default:     # the table keeps what the rules give: no action
        ctl._table_done.add((q["point"].key, len(ctl.session.actions)))
        ctl.say(f"{option_label(ctl, value, q['point'].labels)}: as it stands")
        ctl._changed()
        return None
    act, key = fill(q["action"], q["point"], value)
    return ctl.step(act, {**q["answered"], key: value})


def move_pick(ctl, d: int) -> None:
    q = ctl.question
    if q is not None:
        q["pick"] = (q["pick"] + d) % max(len(q["point"].options), 1)
        ctl._changed()


def drop(ctl) -> None:
    """Esc on a question: the action is not taken (a table question is not offered again until the next action)."""
    if ctl.question is not None:
        if ctl.question.get("table"):
            ctl._table_done.add((ctl.question["point"].key, len(ctl.session.actions)))
        ctl.question = None
        ctl.say("the action was not taken (its question was put aside)")
        ctl._changed()


def choice_lines(ctl, act: dict) -> list[str]:
    """What the actor's own choice in ``act`` does (the ruleset's ``choice_lines``; never raises)."""
    try:
        return [str(x) for x in ctl.session.ruleset.choice_lines(ctl.session, act)]
    except (AerieError, KeyError, TypeError, ValueError):
        return []
