"""The 5e legal-action listing (``Dnd5e.legal_actions_of``): the frame around the actions' own candidates (each
unit's ``candidates``, asked in the order of its ``groups``, engine/rules/actions.py ``listed``), the moves compact
(``engine/rules/legal.py``), and the checks asked to probe (``session.probing``: the sight test, not the cover
level, engine/rules/dnd5e/sight.py). ``rs`` is the ruleset."""


from __future__ import annotations

from collections.abc import Collection, Sequence

from engine.rules.actions import Listing, listed
from engine.rules.core import Actor
from engine.rules.legal import Checked, Fresh, LazyMoves, Later, LegalActions, passes
from engine.rules.dnd5e.actions.objects import standing_objects
from engine.rules.dnd5e import attacks, conditions, feats, turns
from engine.world.geometry import distance_m, in_melee_reach

#: the order of the candidates: per group, per item it iterates (``self``, each foe, each friend), each action's
#: own (the units name their groups and their rank in each: ``Unit.groups``); an action in no group is listed
#: after them (for ``self``)
GROUPS = (("first", "self"), ("on_foe", "foe"), ("cast", "self"), ("on_friend", "friend"), ("then", "self"))
#: the scene's objects (DND-39 / DND-40), listed after the rest (and after a feat's choices)
OBJECT_GROUPS = (("object", "object"),)
#: the frame lists these itself: end_turn first (its AIR-10 variant leads the checked rest), then the moves
FRAME_GROUPS = (("frame", "self"),)
DECLARED_GROUPS = GROUPS + OBJECT_GROUPS + FRAME_GROUPS


class Context(Listing):
    """One 5e listing's ``ctx``: foes and friends by ``conditions.hostile``, the turn, whether an attack is left,
    the actor's body, ``near(t)`` (within its longest melee reach), the scene's standing objects."""

    def __init__(self, rs, session, a: Actor):
        super().__init__(rs, session, a, lambda x, o: conditions.hostile(rs, x, o))
        self.turn = session.state.turn
        self.can_attack = self.turn["attacks_left"] > 0 or not self.turn["action"]
        self.ab = a.body()
        self._reach: float | None = None

    def near(self, t) -> bool:
        if self._reach is None:
            self._reach = max(self.rs.melee_reach(self.actor, w) for w in self.actor.data["weapons"])
        return in_melee_reach(self.ab, t.body(), self._reach, self.session.world.cell_m)

    def each(self, key: str):
        return standing_objects(self.session) if key == "object" else super().each(key)


def legal_actions(rs, session, a: Actor, kinds: Collection[str] | None = None) -> Sequence[dict]:
    """A :class:`LegalActions`: end_turn, the move destinations (one compact run, searched when read), the rest
    checked when read (``engine/rules/legal.py``, ``Lazy``). ``kinds``: only those actions are asked (issue 26), the
    full list's of those kinds in its order."""
    if a.id != session.current:
        return []

    def want(n: str) -> bool:
        return kinds is None or n in kinds

    ctx = Context(rs, session, a)
    fresh = Fresh(session)
    units = rs.ACTIONS
    ends = units["end_turn"].candidates(rs, session, a, ctx, None) if want("end_turn") else []
    head, out = ends[:1], ends[1:]
    turn = ctx.turn
    incap = conditions.incapacitated(rs, a)
    mounted_ctl = a.data["controlled_mount"] and a.data["rider"]
    check = checker(rs, session, a)
    ok = passes(check, reach_filter(rs, session, a))
    parts: list[Sequence] = [head]
    if not incap:
        if want("move"):
            parts.append(_moves(rs, session, a, ctx, units["move"], fresh))

        def gate(n: str) -> bool:     # a controlled mount's few actions; once the action is used, none that needs it
            return want(n) and (not mounted_ctl or n in rs.CONTROLLED_MOUNT_ACTIONS) and not (
                turn["action"] and units[n].spends_action)

        parts.append(out)
        legal = Checked(listed(units, units.listing(GROUPS), ctx, declared=units.listing(DECLARED_GROUPS), allow=gate), ok, fresh)
        parts.append(legal)
        if a.data.get("feats"):
            # the options of an attack already found legal (power attack, luck, savage, a manoeuvre) are legal when
            # their own condition holds (checked in feats.attack_variants, as Attack.check does); the rest is checked
            parts.append(Later(("attack",), lambda: feats.attack_variants(rs, session, a, legal.group("attack")), fresh))
            parts.append(Checked([c for c in feats.legal_choices(rs, session, a) if want(c["action"])], ok, fresh))
    else:
        parts.append(out)
    if session.state.objects and not incap and not mounted_ctl:
        # DND-39 / DND-40 (an object's id may also be a character's: no reach filter)
        parts.append(Checked(listed(units, units.listing(OBJECT_GROUPS), ctx, rest=False, allow=want), passes(check), fresh))
    return LegalActions(parts)


def _moves(rs, session, a: Actor, ctx, unit, fresh: Fresh) -> LazyMoves:
    """The move unit's destinations, searched when first read."""
    return LazyMoves(a.id, lambda: unit.candidates(rs, session, a, ctx, None), fresh)


def known_check(fn):
    """Marks the ruleset's ``check`` whose steps :func:`checker` knows (``Dnd5e.check``; a subclass that overrides it
    goes the whole way)."""
    fn.listing_knows = True
    return fn


def checker(rs, session, a: Actor):
    """``Dnd5e.check`` for the candidates of the listing of ``a`` (the current actor): whose turn it is checked once
    and the refusals of the actor alone (``turns.actor_refusal``) once an action name, not once a candidate; the
    action's own check as before. A check changes nothing, so they hold for every candidate; any other actor,
    ruleset, GM tool or check goes the whole way (``rs.check``)."""
    def full(c):
        return rs.check(session, c)

    aid = a.id
    if not getattr(type(rs).check, "listing_knows", False) or aid == "gm" or aid != session.current or session.state.actors.get(aid) is not a:
        return full
    actions, gm_actions = rs.ACTIONS, rs.GM_ACTIONS
    refusals: dict = {}

    def check(c):
        name = c["action"]
        if c["actor"] != aid or name in gm_actions:
            return full(c)
        if name not in refusals:
            refusals[name] = turns.actor_refusal(rs, a, name)
        if refusals[name] is not None:
            raise refusals[name]
        if turns.TARGET_REFUSALS:
            refused = turns.target_refusal(rs, session, a, c)
            if refused is not None:
                raise refused
        return actions[name].check(rs, session, a, c)

    return check


def reach_filter(rs, session, a: Actor):
    """A test of a candidate of ``a``'s listing: False for an attack, shove or grapple on a character that its check
    refuses for distance alone, whatever else holds: a melee weapon (not thrown) out of its reach (AIR-05), a ranged
    or thrown one beyond its long range (AIR-03) -- ``_attack_plan``'s test, on the same ``geom`` bodies, which every
    legal attack passes (a Polearm Master's butt end keeps the weapon's reach and range) -- and a shove or grapple
    out of the longest melee reach (``conditions.contest_target``'s last test, on the plain bodies). A speed filter
    only: what it keeps is still checked. The bodies are worked out once, when first needed."""
    cell = session.world.cell_m
    actors = session.state.actors
    weapons: dict = {}
    for w in a.data["weapons"]:
        weapons.setdefault(w["name"], w)        # Ruleset.weapon: the first of that name
    geoms: dict = {}
    contest: list = []

    def fits(c) -> bool:
        k = c["action"]
        if k == "attack" and c.get("voxel") is None:
            t = actors.get(c.get("target"))
            w = weapons.get(c.get("weapon"))
            if t is None or w is None:
                return True
            ag = geoms.get(None)
            if ag is None:
                ag = geoms[None] = attacks.geom(rs, session, a)
            tg = geoms.get(t.id)
            if tg is None:
                tg = geoms[t.id] = attacks.geom(rs, session, t)
            melee = rs.is_melee(w)
            if melee and in_melee_reach(ag, tg, rs.melee_reach(a, w), cell):
                return True
            if melee and not ("thrown" in w["properties"] and w["range"]):
                return False                                        # AIR-05
            return distance_m(ag, tg, cell) <= w["range"][1] + 1e-9   # AIR-03
        if k in ("shove", "grapple") and not c.get("pin"):
            t = actors.get(c.get("target"))
            if t is None:
                return True
            if not contest:
                contest.append(max(rs.melee_reach(a, w) for w in a.data["weapons"]))
            return in_melee_reach(a.body(), t.body(), contest[0], cell)   # AIR-05
        return True

    return fits
