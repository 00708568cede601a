"""Issue 23 items 6 and 8 at the controller: the baton prompts say what they do (the default is the option
highlighted, the faller's Agility test is asked, a die entered by hand is one die), and the flow of a turn (one
hotkey per action kind, no red refusal on opening Move, T and greyed actions say why, the AIR-09 reading and a
template's radius in words)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.app.flow import greyed_actions, next_target
from engine.app.gmline import gm_line
from engine.app.controller import Controller, movement_text, template_label, turn_row_tail
from engine.scene import load_scene
from baton_util import ch, foe, hero, session

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]


def _ctl(s, ask=True):
    c = Controller(s.scene, session=s)
    c.set_ask(ask)
    return c


# -- item 6: baton prompts ------------------------------------------------------------------------------------------
def test_the_defence_prompt_highlights_the_default_it_names():
    s = session([hero(at=(4, 2, 0), skills={"fight_longsword": 3, "dodge": 1, "shield": 3}, armour=["shield"]), foe()],
                starts="ana")
    s.step({"actor": "ana", "action": "pass", "to": "gob"})
    ctl = _ctl(s)
    assert ctl.step({"actor": "gob", "action": "attack", "target": "ana", "rolls": {"test": 5, "damage": 2}}) is None
    qv = ctl.question_view()
    said = re.search(r"\(default (\w+)\)", qv["question"]).group(1)
    marked = [o["value"] for o in qv["options"] if o["default"]]
    assert marked == [said] and qv["options"][qv["pick"]]["value"] == said == "shield"
    # Enter (the highlighted option) resists as the rules' default does
    evs = ctl.answer().log
    plain = session([hero(at=(4, 2, 0), skills={"fight_longsword": 3, "dodge": 1, "shield": 3}, armour=["shield"]), foe()],
                    starts="ana")
    plain.step({"actor": "ana", "action": "pass", "to": "gob"})
    ref = plain.step({"actor": "gob", "action": "attack", "target": "ana", "rolls": {"test": 5, "damage": 2}}).log
    diff = [e["difficulty"] for e in evs if e["type"] == "attack"]
    assert diff == [e["difficulty"] for e in ref if e["type"] == "attack"]


def _faller():
    return session([hero(), ch("har", "party2", (3, 2, 4), kind="harpy", flying=True, pc=True)], starts="har")


def test_the_fallers_agility_test_is_the_fallers_choice_point():
    ctl = _ctl(_faller())
    assert ctl.step({"actor": "har", "action": "drop", "rolls": {"test": 3}}) is None
    qv = ctl.question_view()
    assert (qv["key"], qv["chooser"], qv["rule"]) == ("fall_test", "har", "BAT-47")
    assert [o["value"] for o in qv["options"]] == ["agility", "none"] and qv["pick"] == 0 and qv["options"][0]["default"]
    evs = ctl.answer(1).log                                     # no test: the whole wound
    assert not any(e.get("type") == "skill_test" or e.get("name") == "test" for e in evs if e.get("type") == "roll")
    # a script that says nothing makes the test, as before
    s = _faller()
    evs = s.step({"actor": "har", "action": "drop", "rolls": {"test": 3}}).log
    assert any(e.get("type") == "roll" and e.get("name") == "test" for e in evs)


def test_a_hand_entered_attack_test_does_not_force_the_agility_test():
    ctl = _ctl(_faller(), ask=False)
    assert ctl.enter_roll("test 11")
    act = {"actor": "har", "action": "drop", "attack": "ana", "defence": "dodge", "fall_test": "agility",
           "rolls": dict(ctl.forced)}
    evs = ctl.step(act).log
    tests = [e for e in evs if e.get("type") == "roll" and e.get("name") == "test"]
    assert len(tests) >= 2 and tests[0]["result"] == 11 and tests[0]["forced"]
    assert not any(t["forced"] for t in tests[1:])
    assert "went on the first die only" in ctl.message[0]


def test_a_pass_with_no_recipient_asks_for_whom_not_a_destination():
    ctl = _ctl(session([hero(), hero("bo", at=(2, 5, 0)), foe(at=(8, 8, 0))], starts="ana"))
    assert ctl.choose("pass")
    ctl.pending.params.pop("to", None)
    assert ctl.confirm() is None
    text = ctl.message[0]
    assert "destination" not in text and "pass" in text and "click a character" in text


def test_the_turn_order_says_layer_in_words_and_life_in_words():
    """Issue 23 items 6 and 7: "L" meant both Life and layer; the layer is "layer N" and Life is spelt out (and the
    tokens say "layer N" too), in both rulesets."""
    for name in ("baton_skyfall", "showcase"):
        ctl = Controller(load_scene(ROOT / "scenes" / f"{name}.toml"))
        for a in ctl.state.actors.values():
            tail = turn_row_tail(ctl.session, a)
            assert f"layer {a.layer}" in tail and not re.findall(r"\bL(?=\d)", tail), tail
            assert name != "baton_skyfall" or f"Life {a.hp}/{a.max_hp}" in tail, tail    # the tokens' heads ("Brann  layer 0"): tests/app/test_window_resize.py, at 1280 x 720 under Xvfb


# -- item 8: the flow of a turn -------------------------------------------------------------------------------------
def test_one_hotkey_per_action_kind_whoever_acts():
    ctl = Controller(load_scene(ROOT / "scenes" / "showcase.toml"))
    seen: dict = {}
    for _ in range(len(ctl.state.order)):
        for b in ctl.buttons():
            seen.setdefault(b["action"], set()).add(b["hotkey"])
        ctl.step({"actor": ctl.session.current, "action": "end_turn"})
    assert all(len(k) == 1 for k in seen.values()), seen
    assert "attack" in seen and seen["attack"] != {""} and seen["move"] != {""}


def test_move_opens_without_a_red_refusal():
    ctl = Controller(load_scene(ROOT / "scenes" / "showcase.toml"))
    a = ctl.actor(ctl.selected)
    assert ctl.choose("move")
    ctl.set_destination(a.pos)                   # the window puts the cursor on the character first
    assert ctl.action() is None and ctl.message[1] == "info" and "already" not in ctl.message[0]
    ctl.set_destination((a.x + 1, a.y, a.layer))
    assert ctl.action()["to"] == [a.x + 1, a.y, a.layer]


def _ogre_at_disadvantage():
    ctl = Controller(load_scene(ROOT / "scenes" / "dnd_death_saves.toml"))
    assert gm_line(ctl, "cond ogre +poisoned") is not None
    assert ctl.choose("attack")
    return ctl


def test_attack_18_under_disadvantage_fills_one_die_and_says_so():
    ctl = _ogre_at_disadvantage()
    ctl.choose_param("target", "aldric")
    assert ctl.enter_roll("attack 18") and "disadvantage: two d20s" in ctl.message[0]
    evs = ctl.confirm().log
    d20 = [e for e in evs if e.get("type") == "roll" and e.get("name") == "attack"]
    assert len(d20) == 2 and d20[0]["result"] == 18 and d20[0]["forced"] and not d20[1]["forced"]
    assert "first die only" in ctl.message[0]
    assert ctl.enter_roll("attack 18 12")                       # both given: both used
    ctl.step({"actor": "ogre", "action": "end_turn"})
    assert ctl.session.actions[-2]["rolls"] == {"attack": [18]}


def test_t_with_a_single_target_says_so():
    ctl = _ogre_at_disadvantage()
    next_target(ctl)
    assert ctl.pending.params["target"] == "aldric" and "only target" in ctl.message[0]


def test_a_greyed_attack_says_its_targets_are_out_of_reach():
    ctl = Controller(load_scene(ROOT / "scenes" / "showcase.toml"))
    assert ctl.selected == "harpy_low"
    g = {x["action"]: x["reason"] for x in greyed_actions(ctl)}
    assert "within reach" in g["attack"] and "out of reach" in g["attack"], g["attack"]


def test_a_flyers_movement_says_which_air09_reading_is_in_force():
    ctl = Controller(load_scene(ROOT / "scenes" / "showcase.toml"))
    t = movement_text(ctl.session, ctl.actor("harpy_low"))
    assert t.startswith("movement left: 6 m") and "AIR-09" in t and "fly speed 12 m" in t and "air_speed = ground" in t
    assert movement_text(ctl.session, ctl.actor("knight")) == "movement left: 9 m"


def test_a_template_says_which_length_its_size_is():
    assert template_label("sphere", 6.0) == "sphere, radius 6 m"
    assert template_label("cube", 4.5) == "cube, side 4.5 m"
