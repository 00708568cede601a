"""The ruleset plug-in interface. The core (:mod:`engine.rules.core`) and the aerial module
(:mod:`engine.rules.aerial`) only ever talk to a ruleset through these methods, so they assume nothing about
any one ruleset. See ``docs/rules-core.md`` for the contract in prose.

A ruleset is registered by name (the scene's ``ruleset``) with :func:`register`; ``get_ruleset(name, options)``
builds one for a session. Everything it keeps must live in ``Actor.data`` / ``State.turn`` / ``State.data``
(JSON-able), never on the ruleset object, so a state fingerprint and a replay see all of it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, ClassVar

from engine.errors import AerieError
from engine.rules.core import Actor, Illegal
from engine.rules.events import CORE_EVENTS, Event

if TYPE_CHECKING:
    from engine.rules.session import Session
from engine.rules.options import validate_for
from engine.rules.actions import Listing, listed
from engine.errors import SceneError
import dataclasses
from engine.rules import registry


class Ruleset:
    name = "abstract"
    #: the per-turn resource that pays for staying aloft (AIR-08), in the ruleset's words
    upkeep_name = "upkeep"
    #: how an attack preview's roll reads (``{bonus}``: the preview's ``to_hit_bonus``, ``{target}``: what it rolls
    #: against, its ``target_ac``); empty: the roll is not spelled out
    HIT_ROLL = ""
    #: the rule ID of "a move cannot end in another creature's space" (empty: no ID)
    occupied_rule = ""
    #: the rule ID that limits a walker's move (a flyer's is AIR-09)
    walk_rule = "AIR-09"
    #: the damage type of a fall (AIR-12), passed to apply_damage
    fall_damage_type = "falling"
    #: the event types this ruleset's log may hold, declared (engine/rules/events.py): ``{type: Struct}``, the
    #: core's plus the ruleset's own (its ``events`` module); an undeclared one reads as ``Undeclared``
    EVENTS: ClassVar[dict[str, type[Event]]] = CORE_EVENTS
    #: the options this ruleset understands, declared once: ``{key: engine.rules.options.OptionSpec}`` (type, range
    #: or choices, default, the rule it reads); None: options are not checked
    OPTION_SPECS: ClassVar[dict | None] = None
    #: their defaults (scene ``[options]`` overrides): ``engine.rules.options.defaults(OPTION_SPECS)``
    DEFAULT_OPTIONS: ClassVar[dict] = {}

    def __init__(self, options: dict | None = None):

        self.options = dict(self.DEFAULT_OPTIONS)
        self.options.update(validate_for(self.OPTION_SPECS, options))

    def opt(self, key):
        return self.options.get(key, self.DEFAULT_OPTIONS.get(key))

    # -- setup and turn structure -----------------------------------------------------------------------
    def make_actor(self, session: Session, character) -> Actor:
        """Build an Actor from a scene Character (geometry + ``character.stats``, the ruleset's schema)."""
        raise NotImplementedError

    def start(self, session: Session) -> None:
        """Roll initiative (or whatever decides who acts first), set ``state.order``/``round`` and begin the first turn. Emit
        events with ``session.emit``; roll dice with ``session.roll``."""
        raise NotImplementedError

    def check_scene(self, session: Session) -> None:
        """What ``start`` would refuse about the scene (a mount that is no one, who may not start...), raised as a
        SceneError on a game that is built but not started: scene validation calls it instead of starting a game,
        so no die is rolled just to validate. Default: every ``mount`` names another character."""
        check_mounts_at_start(session)

    # -- actions ----------------------------------------------------------------------------------------
    def action_specs(self) -> dict:
        """``{action name: {param: engine.rules.actions.Param}}``. ``actor``/``action``/``rolls`` are implicit. By
        default derived from the units of ``ACTIONS`` (each class's ``PARAMS``), in the table's order."""
        specs = getattr(self.ACTIONS, "specs", None)
        if specs is None:
            raise NotImplementedError
        return specs()

    def check(self, session: Session, action: dict):
        """Validate fully; raise :class:`Illegal` (reason + rule ID); return a plan for ``apply``. Must not
        change the state nor roll dice."""
        raise NotImplementedError

    def apply(self, session: Session, action: dict, plan) -> None:
        """Carry out a checked action: mutate the state, roll dice, emit events."""
        raise NotImplementedError

    def legal_actions(self, session: Session, actor: Actor) -> Sequence[dict]:
        """Every action the actor may take now, as ready-to-step dicts (finite parameters filled in): a list, or an
        ``engine.rules.legal.LegalActions`` (move destinations kept compact). By default ``legal_actions_of`` all."""
        return self.legal_actions_of(session, actor, None)

    def legal_actions_of(self, session: Session, actor: Actor, kinds: Collection[str] | None) -> Sequence[dict]:
        """The legal actions of these kinds only (None: all), exactly the full list's of those kinds, in its order
        (issue 26). By default: the units of ``ACTIONS`` asked in ``LISTING``'s order (``engine.rules.actions.listed``),
        each candidate checked; a ruleset that lists its own way (an overridden ``legal_actions``) is filtered."""

        if type(self).legal_actions is not Ruleset.legal_actions:
            return [c for c in self.legal_actions(session, actor) if kinds is None or c["action"] in kinds]
        if actor.id != session.current:
            return []
        cands = listed(self.ACTIONS, self.LISTING, Listing(self, session, actor), kinds)
        return self.keep_legal(session, cands)

    def preview(self, session: Session, action: dict) -> dict:
        """What the action would do, without doing it (cost, path, to-hit chance, cover...): the refusal
        ``{action, legal: False, reason, rule}``, or ``{action, legal: True}`` with the fields of its unit's
        ``preview`` (from the plan of ``check``)."""
        plan, refused = self.checked_plan(session, action)
        if refused:
            return refused
        out = {"action": action["action"], "legal": True}
        unit = self.ACTIONS.get(action["action"])
        if unit is not None and hasattr(unit, "preview"):
            fields = unit.preview(self, session, session.state.actors.get(action["actor"]), action, plan)
            if fields:
                out.update(fields)
        return out

    def damage_on_hit(self, session: Session, action: dict) -> float | None:
        """The mean damage one hit of this (legal) attack on a character deals, by the ruleset's own damage rule:
        what a policy weighs with the preview's ``hit_chance`` (engine/sim). None: not such an attack, or the
        ruleset cannot say. Not part of the preview, so previews (and recorded games) stay as they are. By
        default its unit's ``damage_on_hit`` (from the plan of ``check``)."""
        unit = self.ACTIONS.get(action.get("action"))
        if unit is None or not hasattr(unit, "damage_on_hit"):
            return None
        plan, refused = self.checked_plan(session, action)
        if refused:
            return None
        return unit.damage_on_hit(self, session, session.state.actors.get(action["actor"]), action, plan)

    # -- helpers for rulesets ---------------------------------------------------------------------------
    def keep_legal(self, session: Session, candidates: list[dict], check=None) -> list[dict]:
        """The candidates that pass ``check`` (default: this ruleset's own ``check``; candidates built by the
        ruleset are well-formed, so parameter validation is skipped)."""
        check = check or (lambda c: self.check(session, c))
        out = []
        for c in candidates:
            try:
                check(c)
            except Illegal:
                continue
            out.append(c)
        return out

    def checked_plan(self, session: Session, action: dict):
        """(plan, None) when the action is legal, else (None, the preview of a refusal)."""
        try:
            return self.check(session, action), None
        except Illegal as e:
            return None, {"action": action["action"], "legal": False, "reason": e.reason, "rule": e.rule}

    # -- hooks the aerial module calls ------------------------------------------------------------------
    def movement_left(self, session: Session, actor: Actor, flying: bool) -> float:
        """Metres of movement the actor has left this turn (flying: with its fly speed)."""
        raise NotImplementedError

    def takeoff_cost(self, session: Session, actor: Actor) -> float:
        """AIR-06: half the character's movement."""
        raise NotImplementedError

    def spend_movement(self, session: Session, actor: Actor, metres: float) -> None:
        raise NotImplementedError

    def upkeep_available(self, session: Session, actor: Actor) -> bool:
        """AIR-08: is the resource that keeps the actor aloft this turn still unspent?"""
        raise NotImplementedError

    def spend_upkeep(self, session: Session, actor: Actor) -> None:
        raise NotImplementedError

    def fall_reason(self, session: Session, actor: Actor) -> tuple[str, str] | None:
        """AIR-10: why a flying actor must fall now (reason, rule), or None."""
        raise NotImplementedError

    def apply_damage(self, session: Session, actor: Actor, amount: int, dtype: str, source: str | None,
                     rule: str, critical: bool = False) -> int:
        """The ruleset's damage path (resistances, temp HP / Protection, dying...). Returns HP actually lost."""
        raise NotImplementedError

    def knock_prone(self, session: Session, actor: Actor, rule: str) -> None:
        raise NotImplementedError

    def fall_type(self, session: Session) -> str:
        """The damage type of a fall (AIR-12), for resistances and immunities."""
        return self.fall_damage_type

    def fall_damage(self, session: Session, actor: Actor, layers: int) -> tuple[int, str] | None:
        """A fall of ``layers`` layers just reached the ground: (damage, rule) by the ruleset's own fall rule
        (it may roll), or None for AIR-12's percentage of max HP (the default)."""
        return None

    def can_move(self, session: Session, actor: Actor) -> tuple[bool, str, str]:
        """(True, "", "") or (False, reason, rule)."""
        return True, "", ""

    def invariants(self, session: Session) -> list[str]:
        """What must hold after every step in this ruleset, beyond the shared ones (HP bounds, bodies in free
        space, flyers aloft only while able): a list of problems, empty when all is well. The API test
        (tests/rules/test_ruleset_api.py) checks it after every random step."""
        return []

    # -- how its panels read (the window asks; it never names a ruleset) ---------------------------------
    #: the per-turn resources the HUD lists as "used"/"free", as keys of ``State.turn``
    ECONOMY_KEYS: tuple = ()
    #: short forms of ``turn_marks`` notes for the turn-order panel
    TURN_MARKS_SHORT: ClassVar[dict] = {}
    #: choice points (engine/rules/choices.py): the reaction names an action's ``reactions`` table may answer, and
    #: the parameters that hold another character's choice (the window asks that character's player instead)
    REACTIONS: ClassVar[tuple] = ()
    OTHERS_CHOICES: ClassVar[tuple] = ()
    #: ``{event type: fn(session, event, name_of, rule_suffix) -> line or None}``: how its events read in the
    #: runner's log (on top of ``engine.rules.runner.GENERIC_LINES``)
    EVENT_LINES: ClassVar[dict] = {}
    #: the action table: name -> unit (engine/rules/actions.py ``Unit``: ``PARAMS``, ``check(rs, session, actor,
    #: action) -> plan``, ``apply(...)``, ``candidates``, ``preview``), an ``ActionTable`` its classes register in
    ACTIONS: ClassVar[dict] = {}
    #: the default listing's order: ``((each, (action, ...)), ...)`` (engine/rules/actions.py ``listed``); an
    #: action in no group is listed after them. The shipped rulesets list their own way, from each unit's ``groups``
    #: (``ActionTable.listing``); a small ruleset (the test ones) may declare it here
    LISTING: ClassVar[tuple] = ()
    #: the names of the ruleset's conditions (a GM's condition tool is checked against them; empty: not checked)
    CONDITIONS: ClassVar[Collection[str]] = ()
    #: the actions only the game master's tools take (the window never offers them as a character's greyed buttons)
    GM_ACTIONS: ClassVar[Collection[str]] = ()
    #: what follows from a number the GM sets (``gm_set``, engine/rules/gm.py): a Hook of
    #: ``fn(rs, session, actor, key, old, new)`` run after the value is set (5e: healing wakes the dying)
    GM_SET: ClassVar[list] = []
    #: AIR-07's climb for a character: ``fn(rs, session, actor, flying, metres) -> metres`` in order, from the
    #: option ``climb_m`` (engine/rules/pathing.py ``climb_cost``; 5e: Athlete, DND-F04)
    CLIMB_COST: ClassVar[list] = []
    #: the actions that end the actor's turn (a policy that has nothing better to do takes the first legal one)
    TURN_END_ACTIONS: ClassVar[tuple] = ("end_turn",)

    @classmethod
    def query_notes(cls, scene, a, b, result: dict) -> list[dict]:
        """``aerie query``: what the characters' own features change in these numbers (5e: feats), as
        ``{"feature", "rule", "text"}``; none by default."""
        return []

    def hud_rows(self, session: Session, actor: Actor) -> list[str]:
        """The character panel's rows about its health."""
        return [f"HP {actor.hp}/{actor.max_hp}" + (f" (+{actor.temp_hp} temp)" if actor.temp_hp else "")]

    def health_brief(self, session: Session, actor: Actor) -> str:
        """One short health figure for a row of the turn order and the runner's end-of-run list."""
        return f"{actor.hp}/{actor.max_hp} HP"

    def economy(self, session: Session, actor: Actor, turn: dict) -> list[tuple[str, bool]]:
        """[(resource, used)] of the current turn (``turn`` is ``State.turn``, or {} when not its turn)."""
        used = []
        for k in self.ECONOMY_KEYS:
            for kk in (k, f"{k}_used", f"used_{k}"):
                if kk in turn:
                    used.append((k.replace("_", " "), bool(turn[kk])))
                    break
        data = actor.data or {}
        if "reaction_used" in data and not any(u[0] == "reaction" for u in used):
            used.append(("reaction", bool(data["reaction_used"])))
        elif "reaction" in data and not any(u[0] == "reaction" for u in used):
            used.append(("reaction", bool(data["reaction"])))
        return used

    def turn_title(self, session: Session) -> str | None:
        """The turn-order panel's title when ``turn_marks`` has notes (None: "Turn order")."""
        return None

    def choice_lines(self, session: Session, action: dict) -> list[str]:
        """What the actor's own choice carried by this action does, for the window's preview panel (a variant the
        player toggles with Tab, not a question). Optional; not part of ``preview`` (the behaviour baseline)."""
        return []

    def table_question(self, session: Session):
        """A choice the table makes between actions (not inside a step): ``(action, Point)`` whose answer fills the
        action (the Point's default: nothing to do), or None. The window asks it (engine/rules/choices.py)."""
        return None

    def gm_statement(self, session: Session, action: dict):
        """What the GM states for a composed action, as free words and numbers no option list can hold (the
        window's E): ``(fixed parameters, [(parameter, question, default)])``, or None. Optional."""
        return None

    def turn_caption(self, session: Session) -> str | None:
        """The window's top bar: whose turn it is, in the ruleset's own words (None: "round N, X's turn")."""
        return None

    @staticmethod
    def move_preview_lines(preview: dict) -> list[str]:
        """Lines about the upkeep of flight (AIR-08) for a move's preview, from the ruleset's own preview keys."""
        return []

    def turn_marks(self, session: Session) -> dict:
        """{character id: short note} for a turn panel (who has acted, who acts next). Optional."""
        return {}

    def attack_reach(self, session: Session, actor: Actor) -> tuple[float | None, float | None]:
        """(longest melee reach, longest range), metres, of the attacks the actor could make, None for none: for
        threat maps (engine/world/volumes.py). A ruleset whose weapons have a shape of their own answers this
        itself; the default reads ``actor.data["weapons"]`` of the plain shape: a weapon with ``range_m`` > 0
        shoots that far, one without is melee with its ``reach_m`` (else the actor's, else 1.5 m)."""
        reach = rng = None
        for w in actor.data.get("weapons", ()):
            hi = float(w.get("range_m") or 0) or None
            if hi is None:
                m = float(w.get("reach_m", actor.data.get("reach_m", 1.5)))
                reach = m if reach is None else max(reach, m)
            else:
                rng = hi if rng is None else max(rng, hi)
        return reach, rng


def check_mounts_at_start(session: Session) -> None:
    """A character's ``mount`` names another character (``Actor.data["mount_at_start"]``, set by make_actor)."""

    actors = session.state.actors
    ridden: dict = {}
    for i, a in enumerate(actors.values()):
        m = a.data.get("mount_at_start")
        if not m:
            continue
        where = f"characters[{i}].mount"
        if m not in actors or m == a.id:
            raise SceneError(session.scene.path, where, f"no character {m!r} to ride")
        if actors[m].data.get("mount_at_start"):       # a ridden mount rides nothing (a pair riding each other)
            raise SceneError(session.scene.path, where, f"{m!r} rides {actors[m].data['mount_at_start']!r} itself: "
                                                        "a mount cannot ride")
        if m in ridden:
            raise SceneError(session.scene.path, where, f"{m!r} already carries {ridden[m]!r}: one rider a mount")
        ridden[m] = a.id


def character_index(session, ch) -> int:
    """The index of scene character ``ch`` in its session's scene (its key path ``characters[i]``), by id from a
    table made once per session: ``scene.characters.index(ch)`` compared whole characters, one scan per character,
    which made starting a session quadratic (2,000 characters: 15 s). A later character with the same id (the GM's
    addition, engine/rules/gm.py) is the one found, as the scan found it."""
    table = session.__dict__.get("_character_index")
    if table is None or len(table) != len(session.scene.characters):
        table = {c.id: i for i, c in enumerate(session.scene.characters)}
        session.__dict__["_character_index"] = table
    i = table.get(ch.id)
    return session.scene.characters.index(ch) if i is None else i


def register(name, dotted: str | None = None) -> None:
    """Register a ruleset: a :class:`engine.rules.registry.RulesetInfo`, or (older form) a name and the
    ``"module:Class"`` of its Ruleset (schema and cover levels then as the default ruleset's)."""


    if isinstance(name, registry.RulesetInfo):
        registry.register(name)
        return
    base = registry.default()
    registry.register(dataclasses.replace(base, name=name, ruleset=dotted, default=False))


def get_ruleset(name: str, options: dict | None = None) -> Ruleset:

    info = registry.info(name)
    try:
        cls = info.ruleset_class()
    except ModuleNotFoundError as e:
        mod = info.ruleset.partition(":")[0] if isinstance(info.ruleset, str) else ""
        if e.name and mod.startswith(e.name):
            raise AerieError(f"the {name} ruleset is not available in this build yet") from None
        raise
    return cls(options)


__all__ = ["Illegal", "Ruleset", "get_ruleset", "register"]


def scene_conditions(items, known, file: str, key: str) -> dict:
    """A scene character's ``conditions = ["prone", "grappled:ogre"]`` as ``{name: sorted source ids}``; an
    unknown name is a SceneError at ``key.conditions[j]``."""

    conds: dict = {}
    for j, c in enumerate(items or []):
        name, _, src = str(c).partition(":")
        name = name.strip().lower()
        if name not in known:
            raise SceneError(file, f"{key}.conditions[{j}]", f"unknown condition {c!r}; one of {', '.join(sorted(known))}")
        conds.setdefault(name, [])
        if src:
            conds[name] = sorted(set(conds[name] + [src.strip()]))
    return conds
