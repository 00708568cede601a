"""Typed events (engine/rules/events.py): every event type the rules emit is declared, each key of it a declared
field of the right type, in random games of every registered ruleset and in the GM's table actions; an undeclared
type or a dict that does not fit reads as ``Undeclared`` (never a crash); ``Session.step`` returns a ``StepResult``
whose log is what the session logged and whose typed events, version and state before agree with it.

The random games are few by default (a few seconds); ``AERIE_FUZZ=1`` plays many more (``AERIE_FUZZ_GAMES``)."""

from __future__ import annotations

import keyword
import os
import random

import msgspec
import pytest
from scenegen import random_scene, random_scene_with_objects

from engine.rules import events as E
from engine.rules.core import Illegal, dumps
from engine.rules.session import Session
from engine.rules.registry import info, names
from engine.scene import load_scene, parse_scene
from engine.scene.bench import random_action

pytestmark = pytest.mark.unit

GAMES = int(os.environ.get("AERIE_FUZZ_GAMES", 150 if os.environ.get("AERIE_FUZZ") else 3))
STEPS = 120 if os.environ.get("AERIE_FUZZ") else 60


def _table(ruleset: str) -> dict:
    return info(ruleset).ruleset_class().EVENTS


def _check_all(evs, table, where) -> set[str]:
    """Every event converts strictly (declared, no unknown key, values of the declared types), and its typed
    form gives the same dict back (every key a field, nothing added)."""
    seen = set()
    for ev in evs:
        try:
            t = E.strict(ev, table)
        except KeyError:
            pytest.fail(f"{where}: event type {ev.get('type')!r} is not declared: {dumps(ev)[:300]}")
        except msgspec.ValidationError as e:
            pytest.fail(f"{where}: {ev.get('type')!r} does not fit its declaration ({e}): {dumps(ev)[:300]}")
        back = t.to_dict()
        want = {k: v for k, v in ev.items() if v is not None}
        assert dumps(back) == dumps(want), f"{where}: {ev.get('type')} does not round-trip"
        seen.add(t.type)
    return seen


@pytest.mark.parametrize("ruleset", names())
def test_every_event_of_random_games_is_declared_and_converts(ruleset):
    table = _table(ruleset)
    seen: set[str] = set()
    for g in range(GAMES):
        rng = random.Random(9000 + g)
        text = (random_scene_with_objects if g % 2 else random_scene)(rng, ruleset)
        s = Session(parse_scene(text, "<gen>"), g)
        seen |= _check_all(s.start_events, table, f"{ruleset} game {g} start")
        for i in range(STEPS):
            if s.state.over:
                break
            act = random_action(s, rng)
            if act is None:
                break
            n = len(s.events)
            res = s.step(act)
            assert res.log == s.events[n:] and res.version == s.state.steps
            seen |= _check_all(res.log, table, f"{ruleset} game {g} step {i} {act}")
            assert not any(isinstance(e, E.Undeclared) for e in res.events)
    assert {"action", "session"} <= seen


def test_the_gm_table_actions_events_are_declared():
    sc = load_scene("scenes/showcase.toml")
    s = Session(sc)
    first = s.state.order[1]
    for a in [{"dice": "2d6+3", "label": "wind", "action": "gm_roll"},
              {"action": "gm_set", "target": "wall_archer", "key": "hp", "value": 0},
              {"action": "gm_set", "target": "knight", "key": "temp_hp", "value": 4},
              {"action": "gm_condition", "target": "knight", "add": "prone"},
              {"action": "gm_place", "target": "knight", "to": [30, 30, 0]},
              {"action": "gm_add", "id": "harpy3", "like": "harpy_low", "at": [20, 20, 6], "flying": True},
              {"action": "gm_order", "target": "harpy3", "after": first},
              {"action": "gm_condition", "target": "knight", "remove": "prone"},
              {"action": "gm_remove", "target": "harpy3"}]:
        res = s.step({"actor": "gm", **a})
        _check_all(res.log, _table(sc.ruleset), a["action"])
    assert {e.type for e in E.StepResult(s.events, 0, _table(sc.ruleset)).events} >= {"gm", "table_roll"}


def test_an_undeclared_type_or_a_misfit_reads_as_undeclared_never_raises():
    table = _table("dnd5e")
    odd = E.typed({"type": "no_such_event", "who": "a"}, table)
    assert isinstance(odd, E.Undeclared) and odd.type == "no_such_event" and odd.subject is None
    assert odd.to_dict() == {"type": "no_such_event", "who": "a"}
    extra = E.typed({"type": "upkeep", "who": "a", "spent": "x", "rule": "AIR-08", "surprise": 1}, table)
    assert isinstance(extra, E.Undeclared) and "surprise" in extra.why
    wrong = E.typed({"type": "upkeep", "who": 3, "spent": "x", "rule": "AIR-08"}, table)
    assert isinstance(wrong, E.Undeclared)
    assert isinstance(E.typed({"no": "type"}, table), E.Undeclared)
    ok = E.typed({"type": "upkeep", "who": "a", "spent": "x", "rule": "AIR-08"}, table)
    assert isinstance(ok, E.Upkeep) and ok.subject == "a" and ok.acted_on is None and ok.type == "upkeep"
    with pytest.raises(msgspec.ValidationError):
        E.strict({"type": "upkeep", "who": "a"}, table)


def test_declarations_each_type_once_each_field_named_once():
    core = set(E.CORE_EVENTS)
    for rs in names():
        table = _table(rs)
        assert core <= set(table), f"{rs}: the core's events are in every table"
        for tag, cls in table.items():
            assert cls.__struct_config__.tag == tag and issubclass(cls, E.Event)
            assert cls.__doc__, f"{cls.__name__}: say where it is emitted"
            names_in_log = [cls.__struct_encode_fields__[i] for i in range(len(cls.__struct_fields__))]
            assert len(set(names_in_log)) == len(names_in_log)
            for f, k in zip(cls.__struct_fields__, names_in_log):
                assert f == k or (keyword.iskeyword(k) and f == k + "_"), f"{tag}.{f}: written {k!r}"
            for role in (cls.SUBJECT, cls.ACTED_ON):
                assert role == "" or role in cls.__struct_fields__, f"{tag}: role {role!r} is no field"
            if issubclass(cls, E.Attacking) and cls.LANDED is None:
                assert "hit" in cls.__struct_fields__, f"{tag}: an attack says whether it landed"
    with pytest.raises(TypeError):
        E.table(E.CORE_EVENTS, [type("Twice", (E.Event,), {"__annotations__": {}}, tag="upkeep")])


def test_step_result_carries_the_state_before_and_the_version():
    rng = random.Random(3)
    s = Session(parse_scene(random_scene(rng, "dnd5e"), "<gen>"), 3)
    before = dumps(s.state.to_dict())
    act = random_action(s, rng)
    res = s.step(act)
    assert dumps(res.before.to_dict()) == before != dumps(s.state.to_dict())
    assert res.before is not res.before          # a fresh copy each time: the session's state is never shared
    assert res.version == s.state.steps == 1
    assert res.log[0] == {"type": "action", "step": 0, "action": act}
    first = res.events[0]
    assert isinstance(first, E.Action) and first.action == act and res.events is res.events   # converted once
    with pytest.raises(Illegal):
        s.step({"actor": s.current, "action": "move", "to": [999, 0, 0]})
    assert len(s.actions) == 1
