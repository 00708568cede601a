"""A ``Unit`` owns everything about its action (issue 45): its place in the menus, its hotkey, the listing groups it
is asked in and whether it spends the action. No ruleset keeps them in separate tuples (``ORDER``, ``LISTING``,
``NEEDS_ACTION``, ``HOTKEY_ACTIONS``); the table, the listing and the window read them from the units."""

import re
from pathlib import Path

import pytest

from engine.rules.actions import ActionTable, Unit, listed

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]


def test_no_ruleset_keeps_its_actions_in_separate_tuples():
    pat = re.compile(r"^\s*(ORDER|LISTING|OBJECT_LISTING|NEEDS_ACTION|HOTKEY_ACTIONS)\s*(:[^=]*)?=", re.M)
    found = [f"{p.relative_to(ROOT)}: {m.group(1)}" for pkg in ("dnd5e", "baton")
             for p in sorted((ROOT / "engine" / "rules" / pkg).rglob("*.py")) for m in pat.finditer(p.read_text())]
    assert not found, found


def _units():
    t = ActionTable()

    @t.register
    class Late(Unit):
        name = "late"                       # no place: after those with one

    @t.register
    class Hit(Unit):
        name = "hit"
        place, hotkey, groups = 1, "2", {"on_foe": 0, "object": 1}

    @t.register
    class Wait(Unit):
        name = "wait"
        place, hotkey, groups, spends_action = 0, "1", {"first": 0}, True

    @t.register
    class Kick(Unit):
        name = "kick"
        place, groups = 2, {"on_foe": 1, "object": 0}
    return t


def test_the_table_orders_by_place_and_lists_by_the_units_groups():
    t = _units()
    assert list(t) == ["wait", "hit", "kick", "late"]
    assert t.listing((("first", "self"), ("on_foe", "foe"))) == (("self", ("wait",)), ("foe", ("hit", "kick")))
    assert t.listing((("object", "object"),)) == (("object", ("kick", "hit")),)
    assert t.hotkeys() == {"wait": "1", "hit": "2"}
    assert [n for n, u in t.items() if u.spends_action] == ["wait"]


def test_a_unit_registered_later_takes_its_place_in_the_listing():
    t = _units()
    first = t.listing((("on_foe", "foe"),))

    @t.register
    class Shove(Unit):
        name = "shove"
        place, groups = 3, {"on_foe": 0.5}

        @staticmethod
        def candidates(rs, session, a, ctx, item):
            return [{"actor": "me", "action": "shove", "target": item}]

    assert first == (("foe", ("hit", "kick")),)
    assert t.listing((("on_foe", "foe"),)) == (("foe", ("hit", "shove", "kick")),)

    class Ctx:
        rs = session = actor = None

        @staticmethod
        def each(key):
            return ["x", "y"] if key == "foe" else [None]
    got = listed(t, t.listing((("on_foe", "foe"),)), Ctx(), rest=False)
    assert got == [{"actor": "me", "action": "shove", "target": "x"}, {"actor": "me", "action": "shove", "target": "y"}]


def test_the_shipped_hotkeys_and_spenders_come_from_the_units():
    from engine.rules.baton.ruleset import Baton
    from engine.rules.dnd5e.ruleset import Dnd5e
    assert Dnd5e.ACTIONS.hotkeys() == {"move": "1", "attack": "2", "dash": "3", "dodge": "4", "disengage": "5",
                                       "cast": "6", "help": "7", "hide": "8", "stand": "9", "end_turn": "0"}
    assert list(Baton.ACTIONS.hotkeys())[:3] == ["move", "attack", "pass"]
    assert {n for n, u in Dnd5e.ACTIONS.items() if u.spends_action} == {
        "dash", "disengage", "dodge", "hide", "search", "ready", "help", "stabilize", "use", "escape", "wake",
        "douse", "whelm", "pull_out", "engulf", "escape_engulf", "stanch"}
