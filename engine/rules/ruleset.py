"""The ruleset plug-in interface. The core (:mod:`engine.rules.core`) and the aerial module
(:mod:`engine.rules.aerial`) only ever talk to a ruleset through these methods, so they assume nothing about
D&D 5e. See ``docs/rules-core.md`` for the contract in prose.

A ruleset is registered by name (the scene's ``ruleset``) with :func:`register`; ``get_ruleset(name, options)``
builds one for a session. Everything it keeps must live in ``Actor.data`` / ``State.turn`` / ``State.data``
(JSON-able), never on the ruleset object, so a state fingerprint and a replay see all of it.
"""

from __future__ import annotations

import importlib

from engine.errors import AerieError
from engine.rules.core import Actor, Illegal, Session


class Ruleset:
    name = "abstract"
    #: the per-turn resource that pays for staying aloft (AIR-08): 5e "bonus action", baton "minor action"
    upkeep_name = "bonus action"
    #: options this ruleset understands, with defaults (scene ``[options]`` overrides)
    DEFAULT_OPTIONS: dict = {}

    def __init__(self, options: dict | None = None):
        self.options = dict(self.DEFAULT_OPTIONS)
        self.options.update(options or {})

    def opt(self, key):
        return self.options.get(key, self.DEFAULT_OPTIONS.get(key))

    # -- setup and turn structure -----------------------------------------------------------------------
    def make_actor(self, session: Session, character) -> Actor:
        """Build an Actor from a scene Character (geometry + ``character.stats``, the ruleset's schema)."""
        raise NotImplementedError

    def start(self, session: Session) -> None:
        """Roll initiative (or pass the baton), set ``state.order``/``round`` and begin the first turn. Emit
        events with ``session.emit``; roll dice with ``session.roll``."""
        raise NotImplementedError

    # -- actions ----------------------------------------------------------------------------------------
    def action_specs(self) -> dict:
        """``{action name: {param: engine.rules.actions.Param}}``. ``actor``/``action``/``rolls`` are implicit."""
        raise NotImplementedError

    def check(self, session: Session, action: dict):
        """Validate fully; raise :class:`Illegal` (reason + rule ID); return a plan for ``apply``. Must not
        change the state nor roll dice."""
        raise NotImplementedError

    def apply(self, session: Session, action: dict, plan) -> None:
        """Carry out a checked action: mutate the state, roll dice, emit events."""
        raise NotImplementedError

    def legal_actions(self, session: Session, actor: Actor) -> list[dict]:
        """Every action the actor may take now, as ready-to-step dicts (finite parameters filled in)."""
        raise NotImplementedError

    def preview(self, session: Session, action: dict) -> dict:
        """What the action would do, without doing it (cost, path, to-hit chance, cover...)."""
        raise NotImplementedError

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

    def fall_damage(self, session: Session, actor: Actor, layers: int) -> tuple[int, str] | None:
        """A fall of ``layers`` layers just reached the ground: (damage, rule) by the ruleset's own fall rule
        (it may roll), or None for AIR-12's percentage of max HP (the default)."""
        return None

    def can_move(self, session: Session, actor: Actor) -> tuple[bool, str, str]:
        """(True, "", "") or (False, reason, rule)."""
        return True, "", ""

    def turn_marks(self, session: Session) -> dict:
        """{character id: short note} for a turn panel (baton: who holds the baton, who has acted). Optional."""
        return {}

    def attack_reach(self, session: Session, actor: Actor) -> tuple[float | None, float | None]:
        """(longest melee reach, longest range), metres, of the attacks the actor could make, None for none: for
        threat maps (engine/world/volumes.py). Default: ``actor.data["weapons"]`` with the ruleset's
        ``is_melee`` and ``melee_reach`` / ``reach_of`` when it has them; a range is ``range`` (normal, long) or
        ``range_m`` (> 0), thrown weapons included."""
        reach = rng = None
        for w in actor.data.get("weapons", ()):
            r = w.get("range") or None
            hi = float(r[1] if isinstance(r, (list, tuple)) else r) if r else float(w.get("range_m") or 0) or None
            melee = self.is_melee(w) if hasattr(self, "is_melee") else hi is None
            if melee:
                fn = getattr(self, "melee_reach", None) or getattr(self, "reach_of", None)
                m = fn(actor, w) if fn else float(w.get("reach_m", actor.data.get("reach_m", 1.5)))
                reach = m if reach is None else max(reach, m)
            if hi is not None:
                rng = hi if rng is None else max(rng, hi)
        return reach, rng


_REGISTRY: dict[str, str] = {
    "dnd5e": "engine.rules.dnd5e.ruleset:Dnd5e",
    "baton": "engine.rules.baton.ruleset:Baton",
}


def register(name: str, dotted: str) -> None:
    _REGISTRY[name] = dotted


def get_ruleset(name: str, options: dict | None = None) -> Ruleset:
    dotted = _REGISTRY.get(name)
    if dotted is None:
        raise AerieError(f"unknown ruleset {name!r}; known: {', '.join(sorted(_REGISTRY))}")
    mod, _, cls = dotted.partition(":")
    try:
        m = importlib.import_module(mod)
    except ModuleNotFoundError as e:
        if e.name and mod.startswith(e.name):
            raise AerieError(f"the {name} ruleset is not available in this build yet") from None
        raise
    return getattr(m, cls)(options)


__all__ = ["Ruleset", "Illegal", "register", "get_ruleset"]
