"""Who may hold the baton and who holds it now (BAT-01, BAT-25, BAT-42), and one listing's memo: the queries every
layer of the baton asks (engine/rules/layers.py); ``baton_order`` re-exports them."""

from __future__ import annotations

from contextvars import ContextVar

from engine.rules import riding
from engine.rules.core import Actor


def able(rs, a: Actor) -> bool:
    return not a.dead and not a.has("petrified")


def can_hold(rs, a: Actor, session=None) -> bool:
    """May receive the baton: alive, not a statue, not a ridden mount (it acts with its rider, BAT-42)."""
    if not able(rs, a):
        return False
    if not riding.carries(a):
        return True
    return session is not None and not able(rs, riding.rider_of(session, a))


def in_combat(rs, session) -> bool:
    return bool(session.state.data.get("combat"))


def holder(rs, session) -> Actor | None:
    h = session.state.data.get("holder")
    return session.state.actors.get(h) if h else None


# One legal-action listing's memo (baton/listing.py ``checked``): while the listing's candidates are checked the
# session does not change (a check changes nothing, and legal.Fresh refuses a list read after a step), so who may
# take the baton is worked out once for the listing, not once per candidate -- the listing stays linear in the
# characters. Outside a listing (a step's own check, apply) there is no memo: every call works it out.
_LISTING_MEMO: ContextVar[dict | None] = ContextVar("baton_listing_memo", default=None)


def memoised(key: tuple, work):
    """``work()``, once per listing under the listing's memo (``key`` names it), else every time."""
    memo = _LISTING_MEMO.get()
    if memo is None:
        return work()
    if key not in memo:
        memo[key] = work()
    return memo[key]


def checked_with_memo(check):
    """``check`` run under one memo shared by every candidate it checks (a listing's)."""
    memo: dict = {}

    def run(c):
        token = _LISTING_MEMO.set(memo)
        try:
            return check(c)
        finally:
            _LISTING_MEMO.reset(token)
    return run
