"""Choice points: every place where the rules resolve a player's choice calls :func:`choose`.

A choice is an action parameter (``defence = "dodge"``, ``power_attack = true``, ``reactions = {duarte = {sentinel =
false}}``, ``declined = ["harpy"]``). :func:`choose` returns what the action being stepped says, else the default
(the character's scene policy, else the rules' documented default). Scripts and ``aerie run`` never see anything
else, so a script that passes the parameters plays exactly like the window that asked for them.

**Ask mode** (``Session.step(action, ask=answered)``, used only by the window): when a choice point is reached whose
parameter the action does not give and whose chooser is a player character (``Actor.data["pc"]``), :func:`choose`
raises :class:`ChoiceNeeded` with the chooser, the options and what each does, and the dice rolled so far. The step
is atomic: the session restores its state and its generator, so the next try rolls the same dice. The window shows
the question, writes the answer into the action (:func:`fill`) and steps again until nothing is missing; the log then
holds one ordinary action with every parameter -- byte for byte what a script passing them gives. A chooser the GM
controls (``pc = false``) is never asked: its policy answers.

A point is named by its *path* in the action: ``("defence",)``, ``("reactions", "duarte", "sentinel")`` (a table
parameter), or ``("declined", "harpy")`` with ``member`` set (a list parameter: the option ``member`` puts the id in
the list; any other answer is remembered by the window in ``answered``, not in the action).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import AerieError
from engine.rules.core import BadAction

MISSING = object()


@dataclass
class Point:
    """One question: who chooses, between what, and where the answer goes in the action."""
    path: tuple
    chooser: str
    options: dict                   # value -> what it does (player-facing text); values are JSON scalars
    default: object
    rule: str = ""
    role: str = ""                  # "defender", "attacker", "reaction", "flyer"...
    question: str = ""
    member: object = None           # list parameters: the option that puts path[1] in the list
    rolled: list = field(default_factory=list)   # the roll events of this step so far
    name: str = ""                  # the answer's key in ``answered`` when the path alone does not tell moments apart
    labels: dict = field(default_factory=dict)   # value -> the option's name on a prompt (else the value in words)

    @property
    def key(self) -> str:
        return self.name or ".".join(str(p) for p in self.path)

    def to_dict(self) -> dict:
        return {"key": self.key, "path": list(self.path), "chooser": self.chooser, "options": dict(self.options),
                "default": self.default, "rule": self.rule, "role": self.role, "question": self.question,
                "rolled": [dict(r) for r in self.rolled], "member": self.member, "labels": dict(self.labels)}


class ChoiceNeeded(AerieError):
    """Raised in ask mode at a choice point the action leaves open (the step changed nothing)."""

    def __init__(self, point: Point):
        self.point = point
        super().__init__(f"{point.chooser} chooses {point.key}: {', '.join(map(str, point.options))}")


def given(session, path: tuple, member=None):
    """What the action being stepped says at ``path`` (MISSING when it says nothing). Outside a step: MISSING."""
    act = getattr(session, "_act", None)
    if act is None or not takes(session, path[0]):
        return MISSING
    v = act.get(path[0], MISSING)
    if member is not None:               # a list parameter: membership is the answer
        if isinstance(v, list) and path[1] in v:
            return member
        return MISSING
    for p in path[1:]:
        if not isinstance(v, dict):
            return MISSING
        v = v.get(p, MISSING)
    return v


def check_reactions(session, rx) -> None:
    """An action's ``reactions`` table: { character id = { reaction name = true / false } }, the names the ruleset
    offers (``Ruleset.REACTIONS``). A bad one is a BadAction naming the key."""
    names = tuple(getattr(session.ruleset, "REACTIONS", ()))
    if not names:
        raise BadAction("this ruleset names no reactions; its choices are the actions' own parameters", "", "reactions")
    if not isinstance(rx, dict):
        raise BadAction("a table: { character id = { reaction = true / false } }", "", "reactions")
    for rid, t in rx.items():
        if rid not in session.state.actors:
            raise BadAction(f"no character {rid!r}", "", f"reactions.{rid}")
        if not isinstance(t, dict):
            raise BadAction("a table of reaction = true / false", "", f"reactions.{rid}")
        for k, v in t.items():
            if k not in names:
                raise BadAction(f"unknown reaction; one of {', '.join(names)}", "", f"reactions.{rid}.{k}")
            if not isinstance(v, bool):
                raise BadAction("true (take it) or false (decline)", "", f"reactions.{rid}.{k}")


def takes(session, param: str) -> bool:
    """The action being stepped has this parameter (a choice met inside another action's effect, e.g. a confused
    character's random attack, is answered by its default: nothing in the action can hold the answer)."""
    act = getattr(session, "_act", None)
    if act is None:
        return False
    if param == "reactions":         # a GM's action holds them too (a flyer it knocks out falls: Feather Fall)
        return bool(getattr(session.ruleset, "REACTIONS", ()))
    spec = session.ruleset.action_specs().get(act.get("action"))
    return bool(spec) and param in spec


def asking(session, chooser: str) -> bool:
    """True in ask mode when this chooser's controller is a player (a GM's character answers by its policy)."""
    if getattr(session, "_answered", None) is None:
        return False
    a = session.state.actors.get(chooser)
    return bool(a is not None and a.data.get("pc"))


def open_question(session, path: tuple, chooser: str, member=None, name: str = "") -> bool:
    """True when this point would be asked now: ask mode, a player's chooser, and no answer yet."""
    if not asking(session, chooser) or not takes(session, path[0]):
        return False
    key = name or ".".join(str(p) for p in path)
    return key not in session._answered and given(session, path, member) is MISSING


def choose(session, path, chooser: str, options: dict, default, *, rule: str = "", role: str = "",
           question: str = "", member=None, name: str = "", ask: bool = True, labels: dict | None = None):
    """The value of one choice point: the action's parameter at ``path`` if given, else ``default`` (the policy).
    In ask mode, a player's open choice raises :class:`ChoiceNeeded` (see the module's text); ``ask=False``: a
    choice the actor makes as a variant of its own action before taking it (never a question); ``labels``: the
    options' names on a prompt where the value itself would read wrong (``"none"``)."""
    path = (path,) if isinstance(path, str) else tuple(path)
    v = given(session, path, member)
    if v is not MISSING:
        return v
    if ask and open_question(session, path, chooser, member, name):
        rolled = [dict(e) for e in (session._sink or []) if e.get("type") == "roll"]
        raise ChoiceNeeded(Point(path, chooser, dict(options), default, rule, role, question, member, rolled, name,
                                 dict(labels or {})))
    return default


def fill(action: dict, point: Point | dict, value) -> tuple[dict, str]:
    """The action with the answer written in (a new dict) and the point's key (for ``answered``)."""
    p = point.to_dict() if isinstance(point, Point) else point
    path = list(p["path"])
    member = point.member if isinstance(point, Point) else p.get("member")
    out = dict(action)
    if member is not None:
        if value == member:
            out[path[0]] = [*(out.get(path[0]) or []), path[1]]
        return out, p["key"]
    if len(path) == 1:
        if value is not None:            # None ("not this time", e.g. keep the superiority die) writes nothing
            out[path[0]] = value
        return out, p["key"]
    top = out[path[0]] = _copy(out.get(path[0]) or {})
    d = top
    for k in path[1:-1]:
        d = d.setdefault(k, {})
    d[path[-1]] = value
    return out, p["key"]


def _copy(v):
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    return v
