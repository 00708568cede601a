"""Choice points (engine/rules/choices.py) in both rulesets: in ask mode a player's open choice raises ChoiceNeeded
with the right chooser and options and changes nothing; once answered, the action with the parameters gives the
same events as a script that passes them."""

from __future__ import annotations

import pytest

from engine.rules.choices import ChoiceNeeded, Point, fill
from engine.rules.core import BadAction, dumps
from rules_helpers import make
from baton_util import ch, foe, hero, session

pytestmark = pytest.mark.unit


def ask(s, action, answers: dict):
    """Step ``action`` in ask mode, answering each question from ``answers`` (by key); the questions and the final
    action are returned with the events."""
    answered: dict = {}
    asked: list[Point] = []
    while True:
        before = s.fingerprint()
        try:
            evs = s.step(action, ask=answered).log
            return evs, action, asked
        except ChoiceNeeded as c:
            assert s.fingerprint() == before, "a question changed the state"
            asked.append(c.point)
            v = answers[c.point.key]
            action, key = fill(action, c.point, v)
            answered[key] = v


def same_as_script(make_session, prefix: list, action: dict, answers: dict):
    """Ask mode then a plain script of the final action: the same log, byte for byte."""
    s1 = make_session()
    for a in prefix:
        s1.step(a)
    _evs, final, asked = ask(s1, action, answers)
    s2 = make_session()
    for a in prefix + [final]:
        s2.step(a)
    assert [dumps(e) for e in s1.events] == [dumps(e) for e in s2.events]
    return final, asked


PASS = [{"actor": "ana", "action": "pass", "to": "gob"}]


# -- baton ---------------------------------------------------------------------------------------------------------
def test_bat14_the_defenders_player_is_asked_and_the_answer_is_a_parameter():
    def mk():
        return session([hero(at=(4, 2, 0)), foe()], starts="ana")
    act = {"actor": "gob", "action": "attack", "target": "ana", "rolls": {"test": 5, "damage": 2}}
    final, asked = same_as_script(mk, PASS, act, {"defence": "none"})
    p = asked[0]
    assert (p.key, p.chooser, p.role, p.rule) == ("defence", "ana", "defender", "BAT-14")
    assert set(p.options) == {"dodge", "none"} and "difficulty 9" in p.options["dodge"]
    assert final["defence"] == "none" and len(asked) == 1
    s = mk()
    s.step(PASS[0])
    assert [e for e in s.step(final).log if e["type"] == "attack"][0]["difficulty"] == 7


def test_bat14_a_gm_character_defends_by_its_policy_without_a_question():
    s = session([hero(), foe()], starts="ana")
    evs, final, asked = ask(s, {"actor": "ana", "action": "attack", "target": "gob", "rolls": {"test": 5}}, {})
    assert not asked and "defence" not in final and [e for e in evs if e["type"] == "attack"][0]["defence"] == "dodge"


def test_bat36_the_natural_12_is_asked_after_it_is_rolled_damage_or_destiny():
    def mk():
        return session([hero(), foe(attributes={"physique": 8})], starts="ana")
    act = {"actor": "ana", "action": "attack", "target": "gob", "rolls": {"test": 12, "damage": 3}}
    final, asked = same_as_script(mk, [], act, {"crit": "destiny"})
    p = asked[0]
    assert (p.key, p.chooser, p.rule) == ("crit", "ana", "BAT-36") and set(p.options) == {"damage", "destiny"}
    assert any(r["name"] == "test" and r["result"] == 12 for r in p.rolled), p.rolled     # the 12 was seen
    assert final["crit"] == "destiny"
    s = mk()
    _evs, _f, asked2 = ask(s, {"actor": "ana", "action": "attack", "target": "gob", "rolls": {"test": 5, "damage": 3}}, {})
    assert not asked2                                                                     # no natural 12: no question


def test_bat38_the_enemy_leaving_a_players_reach_asks_that_player_take_or_let_go():
    def mk():
        return session([hero(at=(4, 2, 0)), foe()], starts="ana")
    act = {"actor": "gob", "action": "move", "to": [0, 2, 0]}
    final, asked = same_as_script(mk, PASS, act, {"declined.ana": "let_go"})
    assert [(p.key, p.chooser, p.rule) for p in asked] == [("declined.ana", "ana", "BAT-38")]
    assert final["declined"] == ["ana"]
    final2, _ = same_as_script(mk, PASS, act, {"declined.ana": "attack"})
    assert "declined" not in final2                                                       # the default: it attacks
    s = mk()
    s.step(PASS[0])
    assert any(e["type"] == "opportunity_attack" for e in s.step(final2).log)


def test_bat48_the_falling_player_chooses_once_the_attack_total_is_known():
    def mk():
        return session([hero(), ch("har", "party2", (3, 2, 4), kind="harpy", flying=True, pc=True)],
                       starts="har")
    act = {"actor": "har", "action": "drop", "attack": "ana", "rolls": {"test": [9, 9, 12], "damage": 7}}
    final, asked = same_as_script(mk, [], act, {"defence": "dodge", "fall_test": "agility"})
    keys = [p.key for p in asked]
    assert keys == ["defence", "fall_test"] and asked[1].chooser == "har" and asked[1].rule == "BAT-48"
    assert final["fall_test"] == "agility"


# -- 5e ------------------------------------------------------------------------------------------------------------
def knight(i="k", side="r", at=(5, 5, 0), **kw):
    return {"id": i, "kind": "knight", "side": side, "at": list(at), "weapons": ["greatsword"]} | kw


def guard(i="g", side="b", at=(6, 5, 0), **kw):
    return {"id": i, "kind": "guard", "side": side, "at": list(at), "pc": False} | kw


def test_dnd28_the_opportunity_attack_is_the_reacting_players_choice():
    def mk():
        return make([knight(), guard(at=(5, 4, 0))])
    pre = [{"actor": "k", "action": "end_turn"}]
    act = {"actor": "g", "action": "move", "to": [5, 1, 0]}
    final, asked = same_as_script(mk, pre, act, {"reactions.k.opportunity_attack": False})
    p = asked[0]
    assert (p.chooser, p.role, p.rule, p.default) == ("k", "reaction", "DND-28", True)
    assert final["reactions"] == {"k": {"opportunity_attack": False}}
    s = mk()
    s.step(pre[0])
    assert not any(e["type"] == "opportunity_attack" for e in s.step(final).log)
    final2, _ = same_as_script(mk, pre, act, {"reactions.k.opportunity_attack": True})
    s = mk()
    s.step(pre[0])
    assert any(e["type"] == "opportunity_attack" for e in s.step(final2).log)


def test_dnd28_a_gm_reactor_answers_by_its_policy():
    s = make([guard("g2", side="r", at=(5, 5, 0)), knight("k", side="b", at=(5, 4, 0))])
    s.step({"actor": s.current, "action": "end_turn"}) if s.current == "g2" else None
    if s.current != "k":
        pytest.skip("initiative order")
    evs, _f, asked = ask(s, {"actor": "k", "action": "move", "to": [5, 1, 0]}, {})
    assert not asked and any(e["type"] == "opportunity_attack" for e in evs)


def test_dnd_f16_power_attack_asked_before_the_roll_and_lucky_after_it():
    def mk():
        return make([knight(feats=["great_weapon_master", "lucky"]), guard()])
    act = {"actor": "k", "action": "attack", "target": "g", "rolls": {"attack": 3, "luck": 17, "damage": 2}}
    final, asked = same_as_script(mk, [], act, {"power_attack": True, "lucky": True})
    assert [p.key for p in asked] == ["power_attack", "lucky"]
    assert asked[0].rolled == [] and any(r["name"] == "attack" and r["result"] == 3 for r in asked[1].rolled)
    assert final["power_attack"] is True and final["lucky"] is True
    # DND-F32 l. 251: decided once the die is seen, before the result is known -- the question shows no total or AC
    assert "rolled 3 on the d20" in asked[1].question and "AC" not in asked[1].question


def test_dnd_f06_savage_asked_after_the_damage_roll():
    def mk():
        return make([knight(feats=["savage_attacker"]), guard(max_hp=90)])
    act = {"actor": "k", "action": "attack", "target": "g", "rolls": {"attack": 15, "damage": [1, 1], "savage": [6, 5]}}
    final, asked = same_as_script(mk, [], act, {"savage": True})
    assert [p.key for p in asked] == ["savage"] and any(r["name"] == "damage" for r in asked[0].rolled)


def test_air10_the_flyer_chooses_to_stay_aloft_by_its_own_variant_not_a_question():
    def mk():
        return make([knight(at=(2, 2, 3), flying=True, fly_speed_m=9), guard(at=(9, 9, 0))])
    s = mk()
    assert {"actor": "k", "action": "end_turn", "stay_aloft": False} in s.legal_actions()
    assert "falls 3 layer(s) (AIR-10)" in " ".join(s.ruleset.choice_lines(s, {"actor": "k", "action": "end_turn",
                                                                             "stay_aloft": False}))
    _evs, final, asked = ask(s, {"actor": "k", "action": "end_turn"}, {})
    assert not asked and s.state.actors["k"].flying                       # the default: it stays aloft
    final, asked = same_as_script(mk, [], {"actor": "k", "action": "end_turn", "stay_aloft": False}, {})
    s = mk()
    assert any(e["type"] == "fall" for e in s.step(final).log)


def test_a_bad_reactions_table_names_the_key():
    s = make([knight(), guard(at=(5, 4, 0))])
    with pytest.raises(BadAction) as e:
        s.step({"actor": "k", "action": "end_turn", "reactions": {"k": {"sentinal": True}}})
    assert e.value.path == "reactions.k.sentinal"
    b = session([hero(), foe()], starts="ana")
    with pytest.raises(BadAction) as e:
        b.step({"actor": "ana", "action": "pass", "to": "gob", "reactions": {}})
    assert e.value.path == "reactions"


def test_bat02_the_table_question_who_opens_the_initiative_becomes_an_open_with_action(tmp_path):
    from engine.app import questions
    from engine.app.controller import Controller
    from engine.scene import parse_scene
    from baton_util import _toml
    chars = [hero("ana"), hero("bea", at=(2, 4, 0)), foe(at=(9, 2, 0))]
    lines = ['name = "t"', 'ruleset = "baton"', "seed = 1", "[map]", "size = [12, 12, 6]"]
    for c in chars:
        lines.append("[[characters]]")
        lines += [f"{k} = {_toml(v)}" for k, v in c.items()]
    scene = parse_scene("\n".join(lines) + "\n", "<test>")
    c = Controller(scene)
    c.set_ask(True)
    q = c.question_view()
    assert q["key"] == "to" and q["rule"] == "BAT-02" and q["table"] and q["label"] == "The players"
    assert [o["value"] for o in q["options"]] == ["ana", "bea"] and q["options"][0]["default"]
    c.answer(1)
    assert c.session.actions == [{"actor": "ana", "action": "open_with", "to": "bea"}] and c.question is None
    c2 = Controller(scene)
    c2.session.step({"actor": "ana", "action": "open_with", "to": "bea"})
    assert c.event_log_text() == c2.event_log_text()
    c3 = Controller(scene)
    c3.set_ask(True)
    c3.answer(0)                                             # as it stands: nothing recorded, not asked again
    assert c3.session.actions == [] and c3.question is None
    questions.offer_table(c3)
    assert c3.question is None


def test_bat15_the_gm_line_composes_any_action_with_a_stated_effect():
    from engine.app.gmtext import parse
    s = session([hero(), foe()], starts="ana")
    act = parse('do ana create_opportunity skill=intimidate effect=stated difficulty=9 text="he drops it" target=gob',
                s.state)
    assert act == {"actor": "ana", "action": "create_opportunity", "skill": "intimidate", "effect": "stated",
                   "difficulty": 9, "text": "he drops it", "target": "gob"}
    evs = s.step(act).log
    assert any(e["type"] == "test" and e["difficulty"] == 9 and e["rule"] == "BAT-15" for e in evs)
    with pytest.raises(ValueError):
        parse("do ana", s.state)
    with pytest.raises(ValueError):
        parse("do ana pass gob", s.state)                     # key=value


def test_bat41_leaving_total_cover_asks_the_players_archer():
    bow = dict(weapons=["shortbow"], skills={"fight_shortbow": 2})

    def mk():
        return session([hero(**bow, at=(2, 2, 0)), foe(at=(7, 2, 0), speed_m=12.0)],
                       fill=[("stone", (6, 0, 0), (6, 6, 3))], starts="ana")
    pre = [{"actor": "ana", "action": "pass", "to": "gob"}]
    act = {"actor": "gob", "action": "move", "to": [7, 8, 0]}
    final, asked = same_as_script(mk, pre, act, {"declined.ana.cover": "let_go"})
    assert [(p.key, p.chooser, p.rule) for p in asked] == [("declined.ana.cover", "ana", "BAT-41")]
    assert final["declined"] == ["ana"]


def test_dnd_f01_the_manoeuvre_is_asked_once_the_d20_is_seen():
    def mk():
        return make([knight(feats=["martial_adept"], feat_choices={"martial_adept": "trip+precision"}), guard()])
    act = {"actor": "k", "action": "attack", "target": "g", "rolls": {"attack": 9, "superiority": 4, "damage": 3}}
    final, asked = same_as_script(mk, [], act, {"manoeuvre": "precision"})
    p = asked[0]
    assert p.key == "manoeuvre" and set(p.options) == {None, "trip", "precision"} and p.rule == "DND-F01"
    assert final["manoeuvre"] == "precision"
    final2, _ = same_as_script(mk, [], act, {"manoeuvre": None})
    assert "manoeuvre" not in final2                             # keeping the die: nothing written
