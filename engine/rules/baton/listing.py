"""The baton's legal-action listing (``Baton.legal_actions_of``): the frame around the actions' own candidates (each
unit's ``candidates``, asked in the order of its ``groups``, engine/rules/actions.py ``listed``), then each candidate's
variants with a non-default choice (baton/choices.py), all checked as ``Session.check`` does. ``rs`` is the ruleset."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from engine.rules import objects
from engine.rules.actions import Listing, listed
from engine.rules.baton import baton_order, choices, combat, mounts
from engine.rules.core import Actor
from engine.rules.legal import Expanded, Fresh, LegalActions, passes
from engine.world.geometry import cell_gap, layers_apart, melee_cells, melee_layer_reach

#: in combat, the holder's candidates: per group, per item it iterates (``self``; ``weapon_foe``: the holder and its
#: mount, each able foe, each weapon in hand; ``foe``: each able foe), each action's own (the units name their
#: groups and their rank in each: ``Unit.groups``); an action in no group is listed after them
GROUPS = (("start", "self"), ("weapon_foe", "weapon_foe"), ("on_foe", "foe"), ("then", "self"))
#: out of combat (BAT-01), anyone's
OUT_OF_COMBAT_GROUPS = (("out_of_combat", "self"),)
#: the scene's objects (issue 14: BAT-12 / BAT-15), after the rest
OBJECT_GROUPS = (("object", "object"),)
DECLARED_GROUPS = GROUPS + OUT_OF_COMBAT_GROUPS + OBJECT_GROUPS


class Context(Listing):
    """One baton listing's ``ctx``: the able foes (another side), whom the baton may be passed to, the objects."""

    def __init__(self, rs, session, a: Actor):
        super().__init__(rs, session, a)
        st = session.state
        self.foes = [o for o in st.actors.values() if o.side != a.side and baton_order.able(rs, o)]
        self._pass: list | None = None

    @property
    def pass_ids(self) -> list:
        if self._pass is None:
            self._pass = baton_order.pass_targets(self.rs, self.session, self.actor)[0]
        return self._pass

    def each(self, key: str):
        st = self.session.state
        if key == "weapon_foe":
            a = self.actor
            whos = [a] + ([st.actors[a.data["mounted_on"]]] if a.data.get("mounted_on") else [])
            return [(who, t, w) for who in whos for t in self.foes
                    for w in combat.equipped(self.rs, who) or [combat.main_weapon(self.rs, who)]]
        if key == "object":
            return [o for o in objects._objects(self.session) if not objects.gone(self.session, o)]
        return super().each(key)


def legal_actions(rs, session, a: Actor, kinds: Collection[str] | None = None) -> Sequence[dict]:
    """Every legal action of ``a`` (``kinds``: only those, issue 26), each candidate and its choice variants checked
    as ``Session.check`` does, when read (engine/rules/legal.py ``Expanded``: a kind read alone expands and checks
    only its own candidates)."""

    def want(n: str) -> bool:
        return kinds is None or n in kinds

    ctx = Context(rs, session, a)
    units = rs.ACTIONS
    if not baton_order.in_combat(rs, session):
        cands = listed(units, units.listing(OUT_OF_COMBAT_GROUPS), ctx, rest=False, allow=want)
    else:
        h = baton_order.holder(rs, session)
        if h is None or a.id != h.id:
            return []
        cands = listed(units, units.listing(GROUPS), ctx, declared=units.listing(DECLARED_GROUPS), allow=want)
        if session.state.objects:
            cands += listed(units, units.listing(OBJECT_GROUPS), ctx, rest=False, allow=want)
    # one memo for every candidate checked (baton_order.checked_with_memo): who may take the baton, once
    ok = passes(baton_order.checked_with_memo(session.check_listed))
    return LegalActions([Expanded(cands, lambda base: choice_variants_of(rs, session, base, want, ok), ok,
                                  Fresh(session))])


#: False: every candidate is checked, none left out as surely illegal (the tests compare the two)
PRUNE = True


#: the actions whose check refuses a character out of melee reach whatever else it reads (BAT-34's manoeuvres with
#: the actor's own reach, disarm with its melee weapon; an attack with a melee weapon: ``out_of_reach``)
MELEE_ONLY = frozenset(("grab", "trip", "push", "disarm"))


class OutOfReach:
    """Whether a candidate on a character surely fails for reach (issue 45: at 3,000 characters the manoeuvres and
    melee attacks on the 1,500 foes across the field were half the listing): its actor's body (its mount's while it
    rides, as ``combat.in_reach``) is further from the target's, in cells or in layers, than the longest reach of
    its own reach and every weapon it has (``melee_cells`` and ``melee_layer_reach`` only grow with the reach)."""

    def __init__(self, rs, session):
        self.rs, self.session = rs, session
        self._bound: dict[str, tuple[int, int]] = {}

    def bound(self, who: Actor) -> tuple[int, int]:
        got = self._bound.get(who.id)
        if got is None:
            reach = max([float(who.data["reach_m"])] + [combat.reach_of(self.rs, who, w) for w in who.data["weapons"]])
            got = self._bound[who.id] = (melee_cells(reach, self.session.world.cell_m), melee_layer_reach(reach))
        return got

    def __call__(self, c: dict) -> bool:
        actors = self.session.state.actors
        who, t = actors.get(c["actor"]), actors.get(c.get("target"))
        if who is None or t is None:
            return False
        if c["action"] not in MELEE_ONLY:                 # an attack: only with a melee weapon it has
            w = next((w for w in who.data["weapons"] if w["name"] == c.get("weapon")), None)
            if w is None or not combat.is_melee(self.rs, w):
                return False
        cells, layers = self.bound(who)
        ab = mounts.body_of(self.rs, self.session, who).body()
        tb = mounts.body_of(self.rs, self.session, t).body()
        return cell_gap(ab, tb) > cells or layers_apart(ab, tb) > layers


def surely_illegal(rs, session, c: dict, ok, far: OutOfReach | None = None) -> bool:
    """Candidates whose check fails before it reads any parameter, so that their choice variants fail too (issue
    45: at 3,000 characters they are most of the listing): a ``drop`` when the plain drop fails (Drop.check refuses
    it on the body, the movement and the ground below before it reads ``attack``: the 1,500 drops with an attack on
    a foe and their variants); a ``charge`` when the turn's last deed was no move (Attack.check with ``charge``:
    whatever it reads first, it then refuses it with BAT-35); a manoeuvre, a disarm or a melee attack on a
    character surely out of reach (``OutOfReach``: whatever weapon or effect a variant names)."""
    k = c["action"]
    if k == "drop":
        return c.keys() == {"actor", "action"} and not ok(c)
    if k == "charge":
        turn = session.state.turn
        return isinstance(turn, dict) and turn.get("last") != "move"
    if k in MELEE_ONLY or (k == "attack" and "voxel" not in c):
        return (far or OutOfReach(rs, session))(c)
    return False


def choice_variants_of(rs, session, base: list[dict], want, ok) -> list[dict]:
    """``choices.choice_variants`` of ``base``, only the kinds wanted, less the surely illegal candidates and
    their variants (which the listing would leave out anyway)."""
    if PRUNE:
        was = session.probing
        session.probing = True               # as the listing's checks run (engine/rules/legal.py Checked)
        try:
            far = OutOfReach(rs, session)
            base = [c for c in base if not surely_illegal(rs, session, c, ok, far)]
        finally:
            session.probing = was
    return [c for c in choices.choice_variants(rs, session, base) if want(c["action"])]
