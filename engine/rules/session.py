"""The Session event loop: scene + ruleset + seeded dice + state + the log of actions and events.

``Session.step(action) -> StepResult``: an action is a plain dict (``{"actor": "kestrel", "action": "move",
"to": [3, 4, 2]}``); the session checks it completely (the ruleset's ``check``) and only then applies it (the
ruleset's ``apply``), so an illegal action raises :class:`Illegal` and changes nothing. What a step returns is a
:class:`engine.rules.events.StepResult`: its events typed (``.events``), the log dicts (``.log``), the new state's
version and the state before it. The value types it works on
(``Actor``, ``State``, ``Dice``, ``Illegal``, events) are in :mod:`engine.rules.core`, below every rules module; the
session sits above them and above the modules it drives (the GM's tools, the ruleset interface, saves, objects).
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Collection, Sequence
from typing import Any

from engine.errors import AerieError
from engine.rules import gm, saves
from engine.rules.actions import check_params
from engine.rules.choices import check_reactions
from engine.rules.core import FIXED_DICE, Actor, BadAction, Dice, Event, Illegal, State, dumps
from engine.rules.events import StepResult
from engine.rules.objects import init_objects, rebuild_world
from engine.rules.ruleset import get_ruleset
from engine.rules.validate import MAX_INT, json_safe

_META = {"actor", "action", "rolls", "comment", "note", "reactions"}   # reactions: engine/rules/choices.py


_META_ORDER = tuple(_META)       # check_params's order of the meta keys (the set's own)
_PLAIN_META = frozenset(_META - {"rolls", "reactions"})


def _plain_shape(specs: dict, action: dict):
    """How :meth:`Session._plain_normalise` reads a plain action of this name and these keys (in this order): the
    meta keys it carries (in ``check_params``'s order) and per parameter, in the spec's order, its name, kind,
    choices and default (kind None: absent, its default filled in); False when the full check must answer (an
    unknown action or key, a GM tool, ``rolls`` or ``reactions``, a required parameter missing)."""
    name = action.get("action")
    if type(name) is not str or name not in specs or gm.handles(action):
        return False
    spec = specs[name]
    if any(type(k) is not str or (k not in spec and k not in _PLAIN_META) for k in action):
        return False
    params = []
    for k, p in spec.items():
        if k in action:
            params.append((k, p.kind, p.choices, None))
        elif p.required:
            return False
        elif p.default is not None:
            params.append((k, None, (), p.default))
    return tuple(k for k in _META_ORDER if k in action), tuple(params)


def _plain(v) -> bool:
    """A value whose JSON-safe copy (engine/rules/validate.py ``json_safe``) is itself: a string, a boolean, None,
    an integer within +-2**53, a finite float."""
    t = type(v)
    if t is str or t is bool or v is None:
        return True
    if t is int:
        return -MAX_INT <= v <= MAX_INT
    return t is float and math.isfinite(v)



class Session:
    """A game in progress: scene + ruleset + seeded dice + state + the log of actions and events."""

    def __init__(self, scene, seed: int | None = None, options: dict | None = None):
        self._build(scene, seed, options)
        self._begin()

    @classmethod
    def check_scene(cls, scene) -> None:
        """Everything a game of this scene would refuse, checked without starting one: the options, every actor
        the ruleset builds (stat blocks, weapons), the objects, the ``[options] rolls`` table and the ruleset's own
        ``check_scene`` (mounts, who may start). No die is rolled and no event is written (scene validation)."""
        s = cls.__new__(cls)
        s._build(scene, None, None)
        s._check_start_rolls()
        s.ruleset.check_scene(s)

    def _build(self, scene, seed: int | None, options: dict | None) -> None:
        self.scene = scene
        self.world = scene.world
        self.seed = int(scene.spec.seed if seed is None else seed)
        self.options = dict(scene.spec.options)
        if options:
            self.options.update(options)
        try:
            self.ruleset = get_ruleset(scene.ruleset, self.options)
        except AerieError as e:
            raise AerieError(f"{scene.path}: {e}") from None
        self.dice = Dice(self.seed)
        self.events: list[Event] = []
        self.actions: list[dict] = []
        self._sink: list[Event] | None = None
        self._act: dict | None = None               # the action being stepped (its choice points read it)
        self._answered: dict | None = None          # ask mode: the window's answers so far (engine/rules/choices.py)
        self.cache: dict = {}
        # True while a listing runs the checks only to know what is legal (the rulesets' legal_actions): a check
        # may then leave out of its plan what no legality test needs (an attack's cover level, worked out on a step)
        self.probing = False
        self._plain_specs: tuple[dict | None, dict] = (None, {})     # check_listed's tables, per action
        actors = {}
        for ch in scene.characters:
            actors[ch.id] = self.ruleset.make_actor(self, ch)
        self.state = State(actors)
        self._rebuild_world = rebuild_world
        init_objects(self)

    def _check_start_rolls(self) -> dict:
        """``[options] rolls``: dice rolled before any action (initiative) may be forced by the scene,
        ``{ initiative = [...] }``: a table of roll names and results here; each result is checked when rolled."""
        start_rolls = self.options.get("rolls", {})
        if not isinstance(start_rolls, dict) or not all(
                isinstance(v, int) or (isinstance(v, list) and all(isinstance(i, int) for i in v)) for v in start_rolls.values()):
            raise AerieError(f"{self.scene.path}: options.rolls: a table of roll name = die result(s), e.g. {{ initiative = [15, 4] }}")
        return start_rolls

    def _begin(self) -> None:
        """Write the ``session`` event and start the fight (the ruleset's ``start``: initiative and the first turn)."""
        scene = self.scene
        self._sink = [{"type": "session", "version": saves.SAVE_VERSION, **saves.header(scene, with_file=False), "seed": self.seed,
                       "ruleset": scene.ruleset, "options": self.options}]
        start_rolls = self._check_start_rolls()
        self.dice.forced = {k: (list(v) if isinstance(v, list) else v) for k, v in start_rolls.items()}
        try:
            self.ruleset.start(self)
        except Illegal as e:
            raise AerieError(f"{scene.path}: options.rolls: {e.reason}") from None
        finally:
            self.dice.forced = {}
        self.start_events = self._sink
        self.events.extend(self._sink)
        self._sink = None

    def sync_world(self) -> None:
        """Drop derived caches (reach maps, cover, body masks) when the world's voxels were edited
        (``World.set_voxels`` bumps ``World.revision``)."""
        token = self.world.revision
        if token != getattr(self, "_world_token", None):
            self._world_token = token
            self.cache.clear()
            self.__dict__.pop("_mask_cache", None)

    # -- events ---------------------------------------------------------------------------------------------
    def emit(self, ev: Event) -> Event:
        if self._sink is not None:
            self._sink.append(ev)
        return ev

    def roll(self, name: str, sides: int, count: int = 1, who=None, rule="", purpose="") -> list[int]:
        return self.dice.roll(self, name, sides, count, who, rule, purpose)

    # -- queries --------------------------------------------------------------------------------------------
    @property
    def current(self) -> str | None:
        return self.state.current

    def actor(self, aid: str, path: str = "") -> Actor:
        a = self.state.actors.get(aid) if isinstance(aid, str) else None
        if a is None:
            ids = ", ".join(self.state.actors)
            raise BadAction(f"no character {aid!r} (characters: {ids})", "", path)
        return a

    def fingerprint(self) -> str:
        return dumps(self.state.to_dict()) + f"|rng={hash(self.dice.rng.getstate())}"

    def legal_actions(self, actor: str | None = None, kinds: Collection[str] | None = None) -> Sequence[dict]:
        """The actor's legal actions: a sequence of action dicts (a compact ``engine.rules.legal.LegalActions``
        where the ruleset builds one; ``list(...)`` for a plain list). ``kinds`` (action names): only those, exactly
        the full list's actions of those kinds in its order, and only those actions are asked (issue 26: a policy
        that weighs the attacks does not pay for the moves); a name that is no action of the ruleset lists nothing."""
        self.sync_world()
        aid = actor or self.current
        if kinds is not None:      # a name this ruleset lacks is none of its actions (a policy asks every ruleset alike)
            kinds = frozenset([kinds] if isinstance(kinds, str) else kinds)
        if aid is None or self.state.over:
            return []
        if kinds is None:
            return self.ruleset.legal_actions(self, self.actor(aid))
        return self.ruleset.legal_actions_of(self, self.actor(aid), kinds)

    def preview(self, action: dict) -> dict:
        self.sync_world()
        if gm.handles(action):                       # the GM's table actions (engine/rules/gm.py)
            return gm.preview(self, action)
        act = self._normalise(action)
        if self.state.over and act.get("actor") != "gm":     # as check refuses it: nobody's turn is left to ask about
            return {"action": act["action"], "legal": False, "rule": "", "reason": self._over()}
        return self.ruleset.preview(self, act)

    # -- stepping -------------------------------------------------------------------------------------------
    def _clean(self, action) -> dict:
        """A deep, JSON-safe copy of the caller's action (finite numbers, no sets or objects, nested at most 8
        deep): the log keeps this copy, so changing the caller's dict afterwards never rewrites history."""
        if not isinstance(action, dict):
            raise BadAction(f"an action is a table with actor and action, not {type(action).__name__}")
        return json_safe(action, "", lambda path, problem: BadAction(problem, "", path), max_depth=8, max_items=10_000)

    def _normalise(self, action) -> dict:
        action = self._clean(action)
        name = action.get("action")
        if not isinstance(name, str):
            raise BadAction("required key is missing" if name is None else "must be a string", "", "action")
        specs = self.ruleset.action_specs()
        if name not in specs:
            raise BadAction(f"unknown action {name!r}; one of {', '.join(sorted(specs))}", "", "action")
        aid = action.get("actor")
        if not isinstance(aid, str):
            raise BadAction("required key is missing" if aid is None else "must be a string", "", "actor")
        if aid != "gm":
            self.actor(aid, "actor")
        rolls = action.get("rolls", {})
        if not isinstance(rolls, dict):
            raise BadAction("must be a table of roll name = die result(s)", "", "rolls")
        for k, v in rolls.items():
            ok = (isinstance(v, int) and not isinstance(v, bool)) or (
                isinstance(v, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in v))
            if not ok:
                raise BadAction("a forced roll is a die result or a list of them", "", f"rolls.{k}")
            sides = FIXED_DICE.get(k)
            for v1 in (v if isinstance(v, list) else [v]):
                if v1 < 1 or (sides and v1 > sides):
                    raise BadAction(f"{v1} is not a result of a d{sides or 'N'}", "", f"rolls.{k}")
        if "reactions" in action:             # the other characters' answers to this action's reactions
            check_reactions(self, action["reactions"])
        act = check_params(action, specs[name], _META)
        X, Y, Z = self.world.size
        for k, p in specs[name].items():       # a point off the map is refused, never silently ignored
            v = act.get(k)
            if p.kind == "pos" and v is not None and not (0 <= v[0] < X and 0 <= v[1] < Y and 0 <= v[2] < Z):
                raise Illegal(f"{list(v)} is outside the map ({X} x {Y} cells, {Z} layers)", "AIR-02", k)
        return act

    def _over(self) -> str:
        """What a step or a preview after the end of the fight is told."""
        return "the fight is over" + (f": {self.state.winner} won" if self.state.winner else "")

    def check(self, action) -> Any:
        """Validate without changing anything; returns the ruleset's plan. Raises Illegal."""
        self.sync_world()
        if gm.handles(action):                       # the GM's table actions (engine/rules/gm.py)
            return gm.check(self, action)
        act = self._normalise(action)
        if self.state.over and act.get("actor") != "gm":
            raise Illegal(self._over(), "")
        return act, self.ruleset.check(self, act)

    def check_listed(self, action: dict) -> Any:
        """:meth:`check` for a candidate a ruleset's listing built (issue 45: a listing checks thousands): when the
        action is flat and plain (strings, booleans, integers within JSON's range, finite floats, lists of those; no
        ``rolls`` or ``reactions``; an actor of the scene), its JSON-safe deep copy equals it, so the copy and the
        checks of what only such a copy can hold are skipped; the parameters are checked as a step checks them
        (``check_params``, the map's bounds) and the ruleset's ``check`` is the same. Anything else takes
        :meth:`check`, so the answer is always the one :meth:`check` gives (a property test holds the two equal)."""
        act = self._plain_normalise(action)
        if act is None:
            return self.check(action)
        self.sync_world()
        if self.state.over:
            raise Illegal(self._over(), "")
        return act, self.ruleset.check(self, act)

    def _plain_normalise(self, action) -> dict | None:
        """:meth:`_normalise` of a flat, plain action (see :meth:`check_listed`) that it accepts; None for any other
        (which :meth:`check` answers, naming what is wrong). Its parameters are read as ``check_params`` reads them,
        from a table made once per action and keys (``_plain_shape``): the same dict, keys in the same order."""
        if type(action) is not dict:
            return None
        aid = action.get("actor")
        if type(aid) is not str or aid == "gm" or aid not in self.state.actors:
            return None
        specs = self.ruleset.action_specs()
        if self._plain_specs[0] is not specs:
            self._plain_specs = (specs, {})
        name = action.get("action")
        if type(name) is not str:
            return None
        key = (name, *action)
        shape = self._plain_specs[1].get(key)
        if shape is None:
            shape = self._plain_specs[1][key] = _plain_shape(specs, action)
        if shape is False:
            return None
        for v in action.values():
            t = type(v)
            if not (t is str or t is bool or v is None or (t is int and -MAX_INT <= v <= MAX_INT)
                    or (t is float and math.isfinite(v))
                    or (t is list and len(v) <= 8 and all(map(_plain, v)))):
                return None
        meta, params = shape
        act = {k: action[k] for k in meta}
        for k, kind, choices, default in params:
            if kind is None:
                act[k] = default
                continue
            v = action[k]
            t = type(v)
            if kind == "pos":
                if not (t is list and len(v) == 3 and type(v[0]) is int and type(v[1]) is int and type(v[2]) is int):
                    return None
                X, Y, Z = self.world.size
                if not (0 <= v[0] < X and 0 <= v[1] < Y and 0 <= v[2] < Z):
                    return None
                v = list(v)
            elif (kind in ("str", "id") and t is not str) or (kind == "int" and t is not int) \
                    or (kind == "bool" and t is not bool) or kind == "table":
                return None
            if choices and v not in choices:
                return None
            act[k] = v
        return act

    def step(self, action, ask: dict | None = None) -> StepResult:
        """Check, then apply; returns the step's :class:`StepResult` (the events typed and as logged, the new
        version, the state before). ``ask`` (the window's answers so far, ``{point key: value}``) turns on ask mode:
        a player's choice the action leaves open raises ``ChoiceNeeded`` and changes nothing
        (engine/rules/choices.py)."""
        action = self._clean(action)
        self._act, self._answered = action, (dict(ask) if ask is not None else None)
        try:
            return self._step(action)
        finally:
            self._act = self._answered = None

    def _step(self, action) -> StepResult:
        act, plan = self.check(action)
        forced = act.get("rolls", {})
        self.dice.forced = {k: (list(v) if isinstance(v, list) else v) for k, v in forced.items()}
        # Rulesets validate fully in check(); still, something found only while applying (a forced result that
        # does not fit the die actually rolled, a bug) must leave the state as it was: keep a copy to restore.
        snapshot = pickle.dumps(self.state, pickle.HIGHEST_PROTOCOL)
        dice = self.dice
        outer = dice.armed, dice.undo
        dice.armed, dice.undo = True, None      # the generator's state is kept at its first draw (Dice.roll)
        self._sink = [{"type": "action", "step": self.state.steps, "action": action}]
        try:
            (gm.apply if gm.handles(act) else self.ruleset.apply)(self, act, plan)
        except BaseException:
            self.state = pickle.loads(snapshot)
            if dice.undo is not None:
                dice.rng.setstate(dice.undo)
            self._rebuild_world(self)        # voxels broken by the failed step come back
            raise
        finally:
            dice.armed, dice.undo = outer
            self.dice.forced = {}
            evs, self._sink = self._sink, None
        self.state.steps += 1
        if len(self.cache) > 4096:      # entries are keyed by everything they depend on; just bound the size
            self.cache.clear()
        self.actions.append(action)
        self.events.extend(evs)
        return StepResult(evs, self.state.steps, self.ruleset.EVENTS, snapshot, self._answered)

    # -- saving ---------------------------------------------------------------------------------------------
    def save(self) -> dict:
        """A saved game (engine/rules/saves.py, version 2): the scene by path and content hash, the seed, the
        actions and the event log they produced (to verify). A snapshot: changing it never changes the session."""
        return saves.snapshot({"type": "save", "version": saves.SAVE_VERSION, **saves.header(self.scene), "seed": self.seed,
                         "options": self.options, "actions": self.actions, "events": self.events})

    @classmethod
    def from_log(cls, events, scene=None) -> "Session":
        """Rebuild a game from its event log (dicts or JSON lines): the ``session`` event names the scene and the
        seed, the ``action`` events the actions; the replay must reproduce every event."""
        return saves.from_log(cls, events, scene)

    @classmethod
    def load(cls, save: dict, scene=None) -> "Session":
        return saves.load(cls, save, scene)

