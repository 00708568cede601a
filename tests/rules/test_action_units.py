"""Issue 25: each action is one unit -- its parameters, check, apply, its candidates in the legal-action listing and
its preview on one class, the ruleset's spec table, listing and previews derived from the registered classes; and
issue 26: a listing of only some kinds of action asks only those classes and is exactly the full list's subset.

The test-only ruleset "drill" (tests/support/drill_ruleset.py) is built of units; the test below adds one action to it with
one class, written here, and nothing else."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import drill_ruleset
from engine.rules import registry
from engine.rules.actions import Param, Unit
from engine.rules.core import BadAction, Illegal
from engine.rules.session import Session
from engine.scene import parse_scene
from scenegen import random_scene, random_scene_with_objects

pytestmark = pytest.mark.unit
ENGINE = Path(__file__).resolve().parents[2] / "engine"

SCENE = """name = "salutes"
ruleset = "drill"
seed = 3
[map]
size = [8, 8, 5]
[[characters]]
id = "a1"
side = "red"
at = [1, 1, 0]
quickness = 9
[[characters]]
id = "a2"
side = "red"
at = [5, 1, 0]
[[characters]]
id = "b1"
side = "blue"
at = [6, 6, 0]
"""


class Salute(Unit):
    """The one new action: salute a friend (parameter ``to``; ``with`` one of two gestures), its log line its own."""
    name = "salute"
    PARAMS = {"to": Param("id", True, help="the friend saluted"), "with": Param("str", choices=("hand", "sword"), default="hand")}
    LINES = {"salute": lambda session, e, n, r: f"{n('who')} salutes {n('to')} with its {e['with']}{r}"}

    @staticmethod
    def check(rs, session, a, act):
        t = session.actor(act["to"], "to")
        if t.id == a.id or t.side != a.side:
            raise Illegal(f"{t.name} is no friend of {a.name}", "TST-1", "to")
        return {"to": t.id, "with": act.get("with", "hand")}

    @staticmethod
    def apply(rs, session, a, act, plan):
        session.emit({"type": "salute", "who": a.id, "to": plan["to"], "with": plan["with"], "rule": "TST-1"})

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "salute", "to": f.id} for f in ctx.friends]

    @staticmethod
    def preview(rs, session, a, act, plan):
        return {"to": plan["to"], "gesture": plan["with"]}


@pytest.fixture
def salute():
    drill_ruleset.ACTIONS.register(Salute)           # what "one new class in one file" does: @action on it
    try:
        yield Salute
    finally:
        drill_ruleset.ACTIONS.unregister("salute")


def _session() -> Session:
    s = Session(parse_scene(SCENE, "<salutes>"))
    assert s.current == "a1"
    return s


def test_the_drill_actions_are_derived_from_their_units():
    s = _session()
    assert list(s.ruleset.action_specs()) == ["end_turn", "move", "strike"]
    assert "salute" not in [c["action"] for c in s.legal_actions()]
    with pytest.raises(BadAction, match="unknown action 'salute'"):
        s.preview({"actor": "a1", "action": "salute", "to": "a2"})


def test_one_new_class_is_listed_previewed_validated_and_stepped(salute):
    s = _session()
    specs = s.ruleset.action_specs()
    assert list(specs) == ["end_turn", "move", "strike", "salute"] and specs["salute"] is Salute.PARAMS
    listed = [c for c in s.legal_actions() if c["action"] == "salute"]
    assert listed == [{"actor": "a1", "action": "salute", "to": "a2"}]          # after the declared ones
    assert list(s.legal_actions(kinds={"salute"})) == listed
    pv = s.preview(listed[0])
    assert pv == {"action": "salute", "legal": True, "to": "a2", "gesture": "hand"}
    refused = s.preview({"actor": "a1", "action": "salute", "to": "b1"})
    assert refused["legal"] is False and refused["rule"] == "TST-1"
    with pytest.raises(BadAction) as e:                                            # a bad parameter names its key
        s.preview({"actor": "a1", "action": "salute", "to": "a2", "with": "hat"})
    assert e.value.path == "with" and "'hat' is not one of hand, sword" in str(e.value)
    with pytest.raises(BadAction) as e:
        s.check({"actor": "a1", "action": "salute"})
    assert e.value.path == "to"
    with pytest.raises(BadAction) as e:                                            # the help: every action named
        s.check({"actor": "a1", "action": "wave"})
    assert "one of end_turn, move, salute, strike" in str(e.value)
    evs = s.step({"actor": "a1", "action": "salute", "to": "a2", "with": "sword"}).log
    assert [e["type"] for e in evs] == ["action", "salute"] and evs[1]["with"] == "sword"
    from engine.rules.runner import describe as log_line
    assert log_line(s, evs[1]) == "a1 salutes a2 with its sword [TST-1]"          # its own log line
    from engine.rules.actions import describe
    assert any(line.startswith("salute") and "to (id, required): the friend saluted" in line
               for line in describe(s.ruleset))


def _foreign_defs(path: Path) -> list[str]:
    """Module-level code of a ruleset module that defines an action's parameters, listing or preview outside a class:
    a ``preview_legal`` method, a ``make_specs``/``build_specs`` function, a ``Param(...)`` table in a ruleset class."""
    bad = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in (
                "preview_legal", "make_specs", "build_specs", "action_specs"):
            bad.append(f"{path.name}: def {node.name}")
    return bad


@pytest.mark.parametrize("ruleset", ["dnd5e", "baton"])
def test_no_action_is_defined_outside_its_class(ruleset):
    """Every action of the shipped rulesets is a registered unit with its own PARAMS, in its actions package (or
    the ruleset's own modules), and no ruleset module keeps a spec table or a preview ladder."""
    rs = registry.info(ruleset).ruleset_class()
    pkg = ENGINE / "rules" / ruleset
    bad = [b for p in sorted(pkg.rglob("*.py")) for b in _foreign_defs(p)]
    bad += [b for b in _foreign_defs(ENGINE / "rules" / "ruleset.py") if "action_specs" not in b and "preview" not in b]
    assert not bad, bad
    for name, unit in rs.ACTIONS.items():
        assert issubclass(unit, Unit) and unit.name == name, name
        assert "PARAMS" in vars(unit) or unit.PARAMS == {} or any("PARAMS" in vars(b) for b in unit.__mro__[1:-2]), name
        assert unit.__module__.startswith(f"engine.rules.{ruleset}."), name
    assert list(rs(None).action_specs()) == list(rs.ACTIONS)
    src = (pkg / "ruleset.py").read_text(encoding="utf-8")
    assert 'act["action"] ==' not in src and "act['action'] ==" not in src, "a per-action branch in the ruleset"


def _kinds_of(full) -> list[str]:
    return sorted({c["action"] for c in full})


@pytest.mark.parametrize("ruleset", ["dnd5e", "baton", "drill"])
def test_a_listing_of_some_kinds_is_the_full_lists_subset(ruleset):
    """Issue 26: at random positions of random scenes, ``legal_actions(kinds=K)`` is exactly the full list's actions
    of those kinds, in its order, for single kinds, the attacks, and random sets of kinds."""
    rng = random.Random(25)
    checked = 0
    for g in range(6):
        text = (random_scene_with_objects if g % 2 else random_scene)(random.Random(rng.randrange(10**6)), ruleset)
        s = Session(parse_scene(text, "<x>"), g)
        for _ in range(14):
            if s.state.over or s.current is None:
                break
            full = list(s.legal_actions())
            names = _kinds_of(full)
            sets = [{"attack", "charge"}, {"move", "end_turn", "pass"}] + [{n} for n in names] + \
                [set(rng.sample(names, rng.randint(1, len(names)))) for _ in range(3)]
            for k in sets:
                got = list(s.legal_actions(kinds=k))
                assert got == [c for c in full if c["action"] in k], (ruleset, g, sorted(k))
                checked += 1
            s.step(full[rng.randrange(len(full))])
    assert checked > 50


def test_an_attacks_only_listing_computes_no_reach(monkeypatch):
    """The attacks alone do not pay for the moves: no reach map is worked out (engine/rules/aerial.py ``reach``)."""
    from engine.rules import aerial

    s = Session(parse_scene(random_scene(random.Random(4), "dnd5e"), "<x>"), 1)
    calls = []
    real = aerial.reach
    monkeypatch.setattr(aerial, "reach", lambda *a, **k: calls.append(1) or real(*a, **k))
    list(s.legal_actions(kinds={"attack"}))
    assert calls == []
    acts = s.legal_actions()
    assert calls == []                              # nothing is worked out until it is read
    list(acts)
    assert calls


def test_aerie_rules_actions_lists_the_units(aerie):
    """``aerie rules --actions RULESET``: every action and its parameters, read from the registered classes."""
    r = aerie("rules", "--actions", "drill")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["drill:", "  end_turn: no parameters",
                                     "  move: to (pos, required): the destination [x, y, layer]",
                                     "  strike: target (id, required): an engaged enemy"]
    r = aerie("rules", "--actions", "dnd5e")
    assert r.returncode == 0 and "  salute" not in r.stdout
    assert "  shove: target (id, required); mode (str, one of prone|push, default 'prone'); bonus (bool)" in r.stdout
    r = aerie("rules", "--actions", "nope")
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1
    assert "unknown ruleset 'nope'" in r.stderr
