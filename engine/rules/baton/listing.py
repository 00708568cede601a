"""The baton's legal-action listing (``Baton.legal_actions_of``): the frame around the actions' own candidates (each
unit's ``candidates``, asked in the order of its ``groups``, engine/rules/actions.py ``listed``), then each candidate's
variants with a non-default choice (baton/choices.py), all checked as ``Session.check`` does. ``rs`` is the ruleset."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from engine.rules import objects
from engine.rules.actions import Listing, listed
from engine.rules.baton import baton_order, choices, combat
from engine.rules.core import Actor
from engine.rules.legal import Expanded, Fresh, LegalActions, passes

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


def surely_illegal(rs, session, c: dict, ok) -> bool:
    """Candidates whose check fails before it reads any parameter, so that their choice variants fail too (issue
    45: at 3,000 characters they are most of the listing): a ``drop`` when the plain drop fails (Drop.check refuses
    it on the body, the movement and the ground below before it reads ``attack``: the 1,500 drops with an attack on
    a foe and their variants); a ``charge`` when the turn's last deed was no move (Attack.check with ``charge``:
    whatever it reads first, it then refuses it with BAT-35)."""
    if c["action"] == "drop":
        return c.keys() == {"actor", "action"} and not ok(c)
    if c["action"] == "charge":
        turn = session.state.turn
        return isinstance(turn, dict) and turn.get("last") != "move"
    return False


def choice_variants_of(rs, session, base: list[dict], want, ok) -> list[dict]:
    """``choices.choice_variants`` of ``base``, only the kinds wanted, less the surely illegal candidates and
    their variants (which the listing would leave out anyway)."""
    if PRUNE:
        was = session.probing
        session.probing = True               # as the listing's checks run (engine/rules/legal.py Checked)
        try:
            base = [c for c in base if not surely_illegal(rs, session, c, ok)]
        finally:
            session.probing = was
    return [c for c in choices.choice_variants(rs, session, base) if want(c["action"])]
