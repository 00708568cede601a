"""The players' choices the baton document gives: each an action parameter with a default, offered by
``legal_actions`` and described by ``preview["choices"]`` (engine/rules/baton/choices.py)."""

from __future__ import annotations

import pytest

from engine.rules.baton import baton_order
from baton_util import A, ch, ev, foe, hero, illegal, one, session, step

pytestmark = pytest.mark.unit


def legal(s, **match):
    return [a for a in s.legal_actions() if all(a.get(k) == v for k, v in match.items())]


def test_bat36_a_pcs_natural_12_gives_more_damage_or_a_destiny_point_as_the_player_chooses():
    s = session([hero(), foe(attributes={"physique": 8})], starts="ana")
    crits = {a.get("crit") for a in legal(s, action="attack", target="gob")}
    assert crits == {None, "destiny"}                                                  # default: damage
    pv = s.preview({"actor": "ana", "action": "attack", "target": "gob"})
    assert set(pv["choices"]["crit"]["options"]) == {"damage", "destiny"} and pv["choices"]["crit"]["default"] == "damage"
    evs = step(s, "ana", "attack", target="gob", crit="destiny", rolls={"test": 12, "damage": 3})
    assert one(evs, "destiny", who="ana")["points"] == 1 and one(evs, "hit")["critical_extra"] == 0
    s = session([hero(), foe(attributes={"physique": 8})], starts="ana")
    evs = step(s, "ana", "attack", target="gob", rolls={"test": 12, "damage": 3})
    assert one(evs, "hit")["critical_extra"] == 8 and not ev(evs, "destiny")
    s = session([hero(at=(4, 2, 0)), foe()], starts="ana")
    step(s, "ana", "pass", to="gob")
    assert legal(s, action="attack", target="ana") and not legal(s, action="attack", crit="destiny")   # NPCs: damage


def test_bat34_the_manoeuvres_effect_is_chosen_once_the_test_succeeds():
    """BAT-34 "Se for bem-sucedido, o personagem escolhe um dos efeitos abaixo": a trip that succeeds may still push
    or grab (``effect``); the player is asked after the roll, knowing the success level; no second grab."""
    from engine.rules.choices import ChoiceNeeded
    s = session([hero(), foe()], starts="ana")
    evs = step(s, "ana", "trip", target="gob", effect="push", rolls={"test": 9})           # level 4: 2 cells
    assert one(evs, "pushed")["cells"] == 2 and not A(s, "gob").has("prone")
    s = session([hero(), foe()], starts="ana")
    with pytest.raises(ChoiceNeeded) as q:
        s.step({"actor": "ana", "action": "trip", "target": "gob", "rolls": {"test": 9}}, ask={})
    p = q.value.point
    assert (p.key, p.chooser, p.rule, p.default) == ("effect", "ana", "BAT-34", "trip")
    assert set(p.options) == {"grab", "trip", "push"} and "3 m" in p.options["push"] and p.rolled
    s = session([hero(), foe()], starts="ana")
    A(s, "gob").conditions["grappled"], A(s, "ana").conditions["grappling"] = ["ana"], ["gob"]     # ana holds gob
    illegal(s, "ana", "trip", "BAT-34", target="gob", effect="grab")
    with pytest.raises(ChoiceNeeded) as q:
        s.step({"actor": "ana", "action": "trip", "target": "gob", "rolls": {"test": 9}}, ask={})
    assert set(q.value.point.options) == {"trip", "push"}


def test_bat36_a_pc_counterattacking_with_a_natural_12_chooses_damage_or_destiny_too():
    """BAT-36 "Ao obter um sucesso crítico em uma rolagem de ataque, o personagem pode optar por causar um dano extra
    ... em vez de receber um ponto de Destino": a counterattack (BAT-13) and an opportunity attack (BAT-38) are attack
    rolls too; the PC's choice is ``counter_crit = {id = ...}`` on the action that sets them off (asked in the window)."""
    from engine.rules.choices import ChoiceNeeded

    def mk():
        s = session([hero(at=(4, 2, 0), counterattack=True), foe(attributes={"physique": 8})], starts="ana")
        step(s, "ana", "pass", to="gob")
        return s
    s = mk()
    evs = step(s, "gob", "attack", target="ana", counter_crit={"ana": "destiny"}, rolls={"test": [3, 12], "damage": 3})
    assert one(evs, "destiny", who="ana")["points"] == 1 and one(evs, "hit", who="ana")["critical_extra"] == 0
    s = mk()
    evs = step(s, "gob", "attack", target="ana", rolls={"test": [3, 12], "damage": 3})
    assert one(evs, "hit", who="ana")["critical_extra"] == 8 and not ev(evs, "destiny")      # default: damage
    s = mk()
    with pytest.raises(ChoiceNeeded) as q:
        s.step({"actor": "gob", "action": "attack", "target": "ana", "defence": "none",
                "rolls": {"test": [3, 12], "damage": 3}}, ask={})
    assert (q.value.point.key, q.value.point.chooser, q.value.point.rule) == ("counter_crit.ana", "ana", "BAT-36")
    s = session([hero(at=(2, 2, 0)), foe(at=(3, 2, 0), speed_m=12.0)], starts="ana")
    step(s, "ana", "pass", to="gob")
    evs = step(s, "gob", "move", to=[8, 2, 0], counter_crit={"ana": "destiny"}, rolls={"test": [12], "damage": 3})
    assert one(evs, "opportunity_attack", who="ana") and one(evs, "destiny", who="ana")
    illegal(s, "gob", "attack", "BAT-36", target="ana", counter_crit={"ana": "lots"})


def test_bat14_the_defender_resists_with_dodge_or_shield_or_not_at_all():
    s = session([hero(), foe(skills={"dodge": 3, "shield": 1}, armour=["shield"])], starts="ana")
    defs = {a.get("defence") for a in legal(s, action="attack", target="gob")}
    assert defs == {None, "shield", "none"}                      # default "best" = dodge here: no second dodge
    pv = s.preview({"actor": "ana", "action": "attack", "target": "gob", "defence": "none"})
    assert pv["difficulty"] == 7 and pv["choices"]["defence"]["by"] == "gob"
    assert pv["choices"]["defence"]["options"] == {"dodge": "difficulty 10 (dodge)", "shield": "difficulty 8 (shield)",
                                                   "none": "difficulty 7 (none)"}
    assert any(ln.startswith("choice defence (BAT-14, the defender; default best, now none)") for ln in pv["lines"])
    a = one(step(s, "ana", "attack", target="gob", defence="shield", rolls={"test": 5, "damage": 1}), "attack")
    assert a["difficulty"] == 8 and a["defence"] == "shield"
    bow = dict(weapons=["shortbow"], skills={"fight_shortbow": 2})
    s = session([hero(**bow), foe(at=(8, 2, 0), skills={"dodge": 3})], starts="ana")
    assert {a.get("defence") for a in legal(s, action="attack", target="gob")} == {None}   # no Dodge at range: no choice
    s = session([hero(**bow), foe(at=(8, 2, 0), skills={"dodge": 3, "shield": 1}, armour=["shield"])], starts="ana")
    assert {a.get("defence") for a in legal(s, action="attack", target="gob")} == {None, "none"}   # Shield, or nothing


def test_bat38_an_opportunity_attack_may_be_declined():
    s = session([hero(), foe()], starts="ana")
    offered = legal(s, action="move", declined=["gob"])
    assert offered, "a provoking move is offered with the attack declined"
    evs = step(s, "ana", "move", to=[0, 2, 0], declined=["gob"])
    one(evs, "declines", who="gob", target="ana")
    assert not ev(evs, "opportunity_attack") and A(s, "ana").pos == (0, 2, 0)
    illegal(s, "ana", "move", "BAT-38", to=[0, 3, 0], declined="gob")                  # a list of ids


def test_bat41_the_attack_on_leaving_total_cover_may_be_declined():
    bow = dict(weapons=["shortbow"], skills={"fight_shortbow": 2})
    s = session([hero(**bow, at=(2, 2, 0)), foe(at=(7, 2, 0), speed_m=12.0)], fill=[("stone", (6, 0, 0), (6, 6, 3))],
                starts="ana")
    step(s, "ana", "pass", to="gob")
    pv = s.preview({"actor": "gob", "action": "move", "to": [7, 8, 0]})                # the move says who shoots
    assert pv["exposed_to"] == ["ana"] and pv["provokes"] == []
    assert s.ruleset.move_preview_lines(pv) == ["leaves total cover: an immediate shot from ana (BAT-41)"]
    assert s.preview({"actor": "gob", "action": "move", "to": [7, 1, 0]})["exposed_to"] == []   # still behind it
    assert legal(s, action="move", to=[7, 8, 0], declined=["ana"])                     # offered: Ana lets it go
    assert not legal(s, action="move", to=[7, 1, 0], declined=["ana"])                 # still behind the wall
    evs = step(s, "gob", "move", to=[7, 8, 0], declined=["ana"])
    one(evs, "declines", who="ana", target="gob", rule="BAT-41")
    assert not ev(evs, "exposed_leaving_cover") and not ev(evs, "attack")


def test_bat48_a_falling_character_may_make_the_agility_test_instead_of_using_the_attack():
    s = session([hero(surprised=True), ch("har", "foes", (3, 2, 4), kind="harpy", flying=True)])
    assert legal(s, action="drop", attack="ana", fall_test="agility")
    evs = step(s, "har", "drop", attack="ana", fall_test="agility", rolls={"test": [9, 9, 12], "damage": 7})
    assert not ev(evs, "fall_halved")
    agi = [e for e in ev(evs, "test") if e["skill"] == "agility"]
    assert len(agi) == 1 and agi[0]["success"] and agi[0]["rule"] == "BAT-47"
    assert A(s, "har").data["wounds"][-1]["severity"] == 1                              # 2 halved, rounded up
    pv_default = session([hero(surprised=True), ch("har", "foes", (3, 2, 4), kind="harpy", flying=True)])
    pv = pv_default.preview({"actor": "har", "action": "drop", "attack": "ana"})
    assert pv["choices"]["fall_test"]["default"] == "attack"


def test_bat02_the_players_choose_who_opens_the_initiative_when_the_scene_does_not_say():
    s = session([hero(), hero("bia", at=(2, 6, 0)), hero("caio", at=(2, 8, 0), surprised=True), foe()])
    assert s.current == "ana"                                                          # the default: the first
    assert {a["to"] for a in legal(s, action="open_with")} == {"bia"}                  # not a surprised PC
    pv = s.preview({"actor": "ana", "action": "open_with", "to": "bia"})
    assert pv["choices"]["to"]["options"] == {"ana": "keeps the opening (the first non-surprised PC of the scene)",
                                              "bia": "opens the initiative instead"}
    evs = step(s, "ana", "open_with", to="bia")
    one(evs, "opens_with", who="ana", to="bia")
    assert s.current == "bia" and s.state.data["acted"] == ["bia"] and s.state.data["activations"] == 1
    illegal(s, "bia", "open_with", "BAT-02", to="ana")                                  # only once, at the start
    s = session([hero(), hero("bia", at=(2, 6, 0)), foe()])
    step(s, "ana", "shout")
    illegal(s, "ana", "open_with", "BAT-02", to="bia")                                  # something was done
    s = session([hero(), hero("bia", at=(2, 6, 0)), foe()], starts="ana")
    assert not legal(s, action="open_with")                                            # the scene said
    illegal(s, "ana", "open_with", "BAT-02", to="bia")


def test_bat15_the_gm_states_an_effect_and_a_difficulty_and_the_test_reads_for_the_baton():
    s = session([hero(skills={"perform": 2}), hero("bia", at=(2, 6, 0)), foe()], starts="ana")
    illegal(s, "ana", "create_opportunity", "BAT-15", skill="perform", effect="stated")   # the GM must state it
    spec = s.ruleset.action_specs()["create_opportunity"]          # what a menu reads: the open effect and its words
    assert "stated" in spec["effect"].choices and "text" in spec and spec["difficulty"].default == 8
    fixed, asks = s.ruleset.gm_statement(s, {"actor": "ana", "action": "create_opportunity", "skill": "perform"})
    assert fixed == {"effect": "stated"} and [(p, d) for p, _q, d in asks] == [("text", None), ("difficulty", 8)]
    assert s.ruleset.gm_statement(s, {"actor": "ana", "action": "shout"}) is None
    evs = step(s, "ana", "create_opportunity", skill="perform", effect="stated", difficulty=11,
               text="the chandelier falls between the brigands", rolls={"test": 10})
    t = one(evs, "test")
    assert t["difficulty"] == 11 and t["success"] and t["purpose"].endswith("(the chandelier falls between the brigands)")
    assert one(evs, "opportunity", who="ana")["effect"] == "the chandelier falls between the brigands"
    ids, kept, rule = baton_order.pass_targets(s.ruleset, s, A(s, "ana"))
    assert kept and rule == "BAT-08" and ids == ["bia"]                                 # 10 is even: kept


def test_air08_a_baton_flyers_move_preview_says_its_minor_action_keeps_it_aloft():
    s = session([hero(at=(9, 9, 0)), ch("har", "foes", (3, 2, 4), kind="harpy", flying=True)], starts="ana")
    step(s, "ana", "pass", to="har")
    pv = s.preview({"actor": "har", "action": "move", "to": [4, 2, 4]})
    assert pv["legal"] and pv["ends_aloft"] and pv["minor_action_needed"]
    assert s.ruleset.move_preview_lines(pv) == ["minor action needed to stay aloft (AIR-08): available"]
    pv = s.preview({"actor": "har", "action": "move", "to": [4, 2, 0]})
    assert not pv.get("minor_action_needed") and s.ruleset.move_preview_lines(pv) == []
