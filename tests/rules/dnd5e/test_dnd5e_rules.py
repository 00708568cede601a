"""DND-01..05, DND-10..38, DND-41..54: tests that fail if the rule breaks (forced dice keep them exact)."""

from __future__ import annotations

import pytest

from engine.rules.core import Illegal
from engine.rules.dnd5e import conditions
from rules_helpers import find, make, step

pytestmark = pytest.mark.unit


def knight(i="k", side="r", at=(5, 5, 0), **kw):
    return {"id": i, "kind": "knight", "side": side, "at": list(at)} | kw


def guard(i="t", side="b", at=(6, 5, 0), **kw):
    return {"id": i, "kind": "guard", "side": side, "at": list(at)} | kw


def attack_event(s, actor, target, **kw):
    return find(step(s, actor, "attack", target=target, **kw), "attack")


# -- dropping to 0 HP --------------------------------------------------------------------------------------------
def test_dnd01_instant_death():
    s = make([knight(), guard(max_hp=20, hp=5, pc=True)])
    step(s, "gm", "damage", target="t", amount=25)
    assert s.state.actors["t"].dead
    s = make([knight(), guard(max_hp=20, hp=5, pc=True)])
    step(s, "gm", "damage", target="t", amount=24)
    assert not s.state.actors["t"].dead and s.state.actors["t"].has("unconscious")


def test_dnd02_zero_hp_unconscious_until_healed():
    s = make([knight(), guard(pc=True)])
    step(s, "gm", "damage", target="t", amount=11)
    t = s.state.actors["t"]
    assert t.hp == 0 and t.has("unconscious") and t.has("prone")
    step(s, "gm", "heal", target="t", amount=3)
    assert t.hp == 3 and not t.has("unconscious")


def test_dnd02_monsters_die_at_zero_option():
    s = make([knight(), guard(pc=False)])
    step(s, "gm", "damage", target="t", amount=11)
    assert s.state.actors["t"].dead
    s = make([knight(), guard(pc=False)], options={"monsters_die_at_0": False})
    step(s, "gm", "damage", target="t", amount=11)
    assert not s.state.actors["t"].dead


def _dying(**options):
    s = make([knight(), guard(pc=True, hp=0), guard("ally", at=(9, 9, 0))], options=options)
    return s, s.state.actors["t"]


def cycle(s, roll):
    """The knight ends its turn; the dying guard's turn starts (a death save) and passes; the ally ends its turn."""
    evs = step(s, "k", "end_turn", rolls={"death_save": roll})
    assert find(evs, "turn_skipped", who="t")
    if s.current == "ally":
        step(s, "ally", "end_turn")
    return evs


def test_dnd03_death_saves():
    s, t = _dying()
    cycle(s, 10)
    assert t.data["death"] == {"successes": 1, "failures": 0}
    cycle(s, 9)
    assert t.data["death"] == {"successes": 1, "failures": 1}
    cycle(s, 20)                                                   # natural 20: two successes (the document)
    assert t.data["stable"] and not t.dead
    s, t = _dying()
    cycle(s, 1)                                                    # natural 1: two failures
    cycle(s, 5)
    assert t.dead


def test_dnd03_nat20_option_and_reset_on_healing():
    s, t = _dying(nat20_death_save="regain_1hp")
    step(s, "k", "end_turn", rolls={"death_save": 20})
    assert t.hp == 1
    s, t = _dying()
    cycle(s, 3)
    step(s, "gm", "heal", target="t", amount=2)
    assert t.data["death"] == {"successes": 0, "failures": 0}


def test_dnd04_damage_at_zero():
    s, t = _dying()
    step(s, "gm", "damage", target="t", amount=1)
    assert t.data["death"]["failures"] == 1
    s, t = _dying()
    step(s, "k", "attack", target="t", rolls={"attack": 20, "damage": 1})   # a critical hit: two failures
    assert t.data["death"]["failures"] == 2
    s, t = _dying()
    step(s, "gm", "damage", target="t", amount=11)
    assert t.dead


def test_dnd05_stabilise_with_medicine_and_damage_restarts():
    s = make([{"id": "p", "kind": "priest", "side": "b", "at": [5, 5, 0]}, guard(pc=True, hp=0)])
    evs = step(s, "p", "stabilize", target="t", rolls={"check": 7})          # 7 + 3 wis + 3 prof = 13 >= 10
    assert find(evs, "stabilize", success=True) and s.state.actors["t"].data["stable"]
    step(s, "gm", "damage", target="t", amount=1)
    assert not s.state.actors["t"].data["stable"]


# -- combat basics ----------------------------------------------------------------------------------------------
def test_dnd10_initiative_order_rounds_and_start():
    chars = [{"id": "a", "kind": "guard", "side": "r", "at": [1, 1, 0], "initiative": 5},
             {"id": "b", "kind": "guard", "side": "b", "at": [3, 3, 0], "initiative": 15},
             {"id": "c", "kind": "guard", "side": "b", "at": [5, 5, 0], "initiative": 15, "abilities": {"dex": 18}}]
    s = make(chars)
    assert s.state.order == ["c", "b", "a"] and s.state.round == 1
    for who in ("c", "b", "a"):
        step(s, who, "end_turn")
    assert s.state.round == 2 and s.current == "c"
    s = make([c | {"initiative": None} for c in chars], session_seed=3)
    rolls = [e for e in s.start_events if e["type"] == "roll" and e["name"] == "initiative"]
    assert len(rolls) == 3


def test_dnd11_one_action_per_turn():
    s = make([knight(), guard(at=(9, 9, 0))])
    step(s, "k", "dash")
    with pytest.raises(Illegal) as e:
        step(s, "k", "dodge")
    assert e.value.rule == "DND-24" and "already used its action" in e.value.reason


def test_dnd12_one_bonus_action():
    s = make([{"id": "p", "kind": "priest", "side": "b", "at": [5, 5, 0]}, guard(side="b", hp=3)])
    step(s, "p", "cast", spell="healing_word", target="t", rolls={"heal": 1})
    with pytest.raises(Illegal) as e:
        step(s, "p", "cast", spell="healing_word", target="t")
    assert e.value.rule == "DND-12"


def test_dnd13_one_reaction_per_round():
    chars = [guard("m1", side="b", at=(6, 5, 0)), guard("m2", side="b", at=(6, 6, 0)), knight(at=(5, 5, 0))]
    s = make(chars)
    evs = step(s, "m1", "move", to=[8, 5, 0], rolls={"attack": 1})
    assert find(evs, "opportunity_attack", who="k")
    step(s, "m1", "end_turn")
    evs = step(s, "m2", "move", to=[8, 7, 0], rolls={"attack": 1})
    assert not find(evs, "opportunity_attack")


def test_dnd14_bonus_spell_then_only_a_cantrip():
    p = {"id": "p", "kind": "priest", "side": "b", "at": [5, 5, 0], "spells": ["healing_word", "cure_wounds", "sacred_flame"]}
    s = make([p, guard(side="b", hp=3, at=(6, 5, 0)), guard("e", side="r", at=(7, 7, 0))])
    step(s, "p", "cast", spell="healing_word", target="t", rolls={"heal": 1})
    with pytest.raises(Illegal) as e:
        step(s, "p", "cast", spell="cure_wounds", target="t")
    assert e.value.rule == "DND-14"
    step(s, "p", "cast", spell="sacred_flame", target="e", rolls={"save": 20, "damage": 1})


def test_dnd14_no_readied_spell_but_a_cantrip_after_a_bonus_action_spell():
    """l. 334 "Jeśli rzucasz czar w ramach akcji dodatkowej to w tej samej turze nie możesz już rzucić drugiego
    zaklęcia, którego rzucenie wymaga akcji, chyba że jest to sztuczka"; l. 363 "Można w ten sposób rzucić czar":
    readying a spell casts it now, so after Healing Word a readied Magic Missile is refused, a cantrip is not."""
    p = {"id": "p", "kind": "priest", "side": "b", "at": [5, 5, 0],
         "spells": ["healing_word", "magic_missile", "sacred_flame"], "spell_slots": {"1": 4}}
    s = make([p, guard(side="b", hp=3, at=(6, 5, 0)), guard("e", side="r", at=(9, 9, 0))])
    step(s, "p", "cast", spell="healing_word", target="t", rolls={"heal": 1})
    slots = dict(s.state.actors["p"].data["spell_slots"])
    with pytest.raises(Illegal) as e:
        step(s, "p", "ready", spell="magic_missile")
    assert e.value.rule == "DND-14" and s.state.actors["p"].data["spell_slots"] == slots
    assert not [c for c in s.legal_actions() if c["action"] == "ready" and c.get("spell") == "magic_missile"]
    step(s, "p", "ready", spell="sacred_flame")
    assert s.state.actors["p"].data["readied"]["spell"] == "sacred_flame"


def test_dnd15_split_movement():
    s = make([knight(at=(0, 0, 0)), guard(at=(3, 0, 0))])
    step(s, "k", "move", to=[2, 0, 0])
    step(s, "k", "attack", target="t", rolls={"attack": 1})
    step(s, "k", "move", to=[2, 4, 0])                     # 3 + 6 = 9 m
    with pytest.raises(Illegal):
        step(s, "k", "move", to=[2, 5, 0])


def test_dnd16_attack_and_multiattack():
    s = make([knight(), guard(max_hp=100)])
    step(s, "k", "attack", target="t", rolls={"attack": 1})
    step(s, "k", "attack", target="t", rolls={"attack": 1})          # knight: two attacks
    with pytest.raises(Illegal) as e:
        step(s, "k", "attack", target="t")
    assert e.value.rule == "DND-16"
    s = make([knight(), guard(max_hp=100)])
    att = attack_event(s, "k", "t", rolls={"attack": 10, "damage": 4})
    assert att["total"] == 10 + 3 + 3 and att["hit"]                     # str +3, prof +3 vs AC 16
    assert s.state.actors["t"].hp == 100 - 7


def test_dnd17_disengage():
    s = make([guard("m", side="b", at=(6, 5, 0)), knight()])
    step(s, "m", "disengage")
    assert not find(step(s, "m", "move", to=[8, 5, 0]), "opportunity_attack")


def test_dnd18_help():
    chars = [knight("h", side="b", at=(5, 5, 0)), knight("a", side="b", at=(5, 7, 0)), guard("e", side="r", at=(6, 6, 0))]
    s = make(chars)
    step(s, "h", "help", target="a", against="e")
    step(s, "h", "end_turn")
    a1 = attack_event(s, "a", "e", rolls={"attack": 1})
    assert "helped by h" in a1["advantage"]
    a2 = attack_event(s, "a", "e", rolls={"attack": 1})
    assert a2["advantage"] == []                          # only the first attack
    s = make([knight("h", side="b", at=(1, 1, 0)), knight("a", side="b", at=(5, 7, 0)), guard("e", side="r", at=(6, 6, 0))])
    with pytest.raises(Illegal) as e:
        step(s, "h", "help", target="a", against="e")
    assert e.value.rule == "DND-18"


def test_dnd18_help_with_a_task():
    # l. 343 "Pomagasz innej istocie w wykonywanym przez nią zadaniu co daje jej ułatwienie." (no distance: the 1.5 m
    # of l. 344 is the helped attack's); the advantage is the ally's next ability check before the helper's next turn
    def scene():
        return make([knight("h", side="b", at=(1, 1, 0)), knight("a", side="b", at=(9, 9, 0)),
                     guard("e", side="r", at=(10, 1, 0))])
    s = scene()
    evs = step(s, "h", "help", target="a")
    assert find(evs, "help", who="h", ally="a", target=None, task=True, rule="DND-18")
    step(s, "h", "end_turn")
    assert find(step(s, "a", "search", rolls={"check": [2, 17]}), "check", who="a", roll=17)    # advantage
    step(s, "a", "end_turn")
    step(s, "e", "end_turn")
    step(s, "h", "end_turn")
    assert find(step(s, "a", "search", rolls={"check": [2, 17]}), "check", who="a", roll=2)     # spent
    s = scene()
    step(s, "h", "help", target="a")
    for who in ("h", "a", "e", "h"):
        step(s, who, "end_turn")                        # the helper's next turn: the help lapses unused
    assert find(step(s, "a", "search", rolls={"check": [2, 17]}), "check", who="a", roll=2)
    s = scene()
    with pytest.raises(Illegal) as e:
        step(s, "h", "help", target="e")
    assert e.value.rule == "DND-18"
    s = scene()                                         # listed: for the friend, not the foe, while the action is unused
    helps = [c for c in s.legal_actions("h") if c["action"] == "help"]
    assert helps == [{"actor": "h", "action": "help", "target": "a"}]
    step(s, "h", "dodge")
    assert not [c for c in s.legal_actions("h") if c["action"] == "help"]


def _hidden_pair():
    chars = [{"id": "r", "kind": "rogue", "side": "b", "at": [2, 3, 0]},
             {"id": "g", "kind": "guard", "side": "r", "at": [2, 8, 0]}]
    return make(chars, fill=[("stone", (0, 4, 0), (6, 4, 0))])       # a 1 m wall


def test_dnd19_23_hide_and_search():
    s = _hidden_pair()
    step(s, "r", "hide", rolls={"check": 10})                    # 10 + 4 dex + 6 (expertise) = 20
    assert s.state.actors["r"].data["hidden"] == 20
    step(s, "r", "end_turn")
    evs = step(s, "g", "search", rolls={"check": 5})
    assert find(evs, "search", found=[])
    s = _hidden_pair()
    step(s, "r", "hide", rolls={"check": 1})
    step(s, "r", "end_turn")
    evs = step(s, "g", "search", rolls={"check": 20})
    assert find(evs, "revealed", who="r") and s.state.actors["r"].data["hidden"] is None


def test_dnd23_cannot_hide_in_plain_sight():
    s = make([{"id": "r", "kind": "rogue", "side": "b", "at": [2, 2, 0]}, guard(side="r", at=(2, 8, 0))])
    with pytest.raises(Illegal) as e:
        step(s, "r", "hide")
    assert e.value.rule == "DND-23"


def test_dnd20_ready():
    s = make([knight(at=(5, 5, 0)), guard(at=(9, 5, 0))])
    step(s, "k", "ready", weapon="longsword")
    step(s, "k", "end_turn")
    evs = step(s, "t", "move", to=[6, 5, 0], rolls={"attack": 1})
    assert find(evs, "readied_action", who="k", rule="DND-20")


def test_dnd20_ready_trigger_perceived_and_may_be_ignored():
    # l. 361-362 "Najpierw trzeba zadeklarować jakie możliwe do zaobserwowania przez ciebie okoliczności prowokują
    # twoją reakcję" / "Kiedy nastąpi określone wcześniej wydarzenie możesz użyć swojej reakcji zaraz po tym jak
    # zostanie ono rozpatrzone, albo je zignorować."
    s = make([knight(at=(5, 5, 0)), guard(at=(9, 5, 0))])
    step(s, "k", "ready", weapon="longsword")
    step(s, "k", "end_turn")
    step(s, "gm", "condition", target="t", add="invisible")            # the reader cannot perceive the trigger
    evs = step(s, "t", "move", to=[6, 5, 0], rolls={"attack": 20})
    assert not find(evs, "readied_action") and not find(evs, "attack")
    assert s.state.actors["k"].data["readied"] and not s.state.actors["k"].data["reaction_used"]
    s = make([knight(at=(5, 5, 0)), guard(at=(9, 5, 0))])
    step(s, "k", "ready", weapon="longsword")
    step(s, "k", "end_turn")
    evs = step(s, "t", "move", to=[6, 5, 0], reactions={"k": {"readied_action": False}}, rolls={"attack": 20})
    assert not find(evs, "readied_action") and not find(evs, "attack")   # ignored: no reaction spent
    assert s.state.actors["k"].data["readied"] and not s.state.actors["k"].data["reaction_used"]
    evs = step(s, "t", "move", to=[6, 6, 0], rolls={"attack": 20, "damage": 1})
    assert find(evs, "readied_action", who="k", rule="DND-20")          # default: taken at the next trigger
    s = make([knight(at=(5, 5, 0), reactions={"readied_action": False}), guard(at=(9, 5, 0))])
    step(s, "k", "ready", weapon="longsword")
    step(s, "k", "end_turn")
    assert not find(step(s, "t", "move", to=[6, 5, 0], rolls={"attack": 20}), "readied_action")   # by policy
    s = make([{"id": "m", "kind": "mage", "side": "r", "at": [2, 5, 0]}, guard(at=(9, 5, 0))])
    step(s, "m", "ready", spell="fire_bolt")
    step(s, "m", "end_turn")
    evs = step(s, "t", "move", to=[7, 5, 0], reactions={"m": {"readied_action": False}}, rolls={"attack": 20})
    assert not find(evs, "readied_action") and s.state.actors["m"].data["readied"]["spell"] == "fire_bolt"


def test_dnd21_spells_attack_save_area():
    m = {"id": "m", "kind": "mage", "side": "b", "at": [1, 1, 0]}
    s = make([m, guard(at=(8, 1, 0), max_hp=60), guard("u", at=(9, 2, 0), max_hp=60)], size=(20, 12, 10))
    att = find(step(s, "m", "cast", spell="fire_bolt", target="t", rolls={"attack": 15, "damage": 5}), "attack")
    assert att["hit"] and s.state.actors["t"].hp == 60 - 10         # level 5: 2d10, no ability to damage
    s = make([m, guard(at=(8, 1, 0), max_hp=60), guard("u", at=(9, 2, 0), max_hp=60)], size=(20, 12, 10))
    evs = step(s, "m", "cast", spell="fireball", at=[8, 2, 0], rolls={"damage": 3, "save": [1, 20]})
    assert s.state.actors["t"].hp == 60 - 24 and s.state.actors["u"].hp == 60 - 12      # fail full, save half
    assert find(evs, "cast", targets=["t", "u"])


def test_dnd22_dash_doubles_movement():
    s = make([knight(at=(0, 0, 0))], size=(20, 5, 4))
    with pytest.raises(Illegal):
        step(s, "k", "move", to=[7, 0, 0])
    step(s, "k", "dash")
    step(s, "k", "move", to=[12, 0, 0])                 # 18 m


def test_dnd24_dodge():
    s = make([guard("d", side="b", at=(6, 5, 0)), knight()])
    step(s, "d", "dodge")
    step(s, "d", "end_turn")
    assert "the target is dodging" in attack_event(s, "k", "d", rolls={"attack": 1})["disadvantage"]
    step(s, "gm", "condition", target="d", add="stunned")
    assert "the target is dodging" not in attack_event(s, "k", "d", rolls={"attack": 1})["disadvantage"]


def test_dnd25_use_an_object():
    s = make([guard("p", side="b", at=(1, 1, 0), hp=2, items=["potion_of_healing"])])
    step(s, "p", "use", object="potion_of_healing", rolls={"heal": 2})
    assert s.state.actors["p"].hp == 2 + 2 + 2 + 2
    with pytest.raises(Illegal) as e:
        step(s, "p", "use", object="potion_of_healing")
    assert e.value.rule in ("DND-25",)


def test_dnd26_unseen_attackers_and_targets():
    s = make([knight(), guard()])
    step(s, "gm", "condition", target="k", add="invisible")
    att = attack_event(s, "k", "t", rolls={"attack": 1})
    assert "the target cannot see the attacker" in att["advantage"]
    s = make([knight(), guard()])
    step(s, "gm", "condition", target="k", add="blinded")
    assert "the attacker cannot see the target" in attack_event(s, "k", "t", rolls={"attack": 1})["disadvantage"]


def test_dnd26_attacking_reveals_the_hider():
    s = _hidden_pair()
    step(s, "r", "hide", rolls={"check": 10})
    step(s, "r", "end_turn")
    step(s, "g", "end_turn")
    step(s, "r", "move", to=[6, 3, 0])
    evs = step(s, "r", "attack", target="g", weapon="shortbow", rolls={"attack": 1})
    assert find(evs, "revealed", who="r", rule="DND-26")


def test_dnd27_not_when_the_neighbour_is_incapacitated():
    s = make([{"id": "a", "kind": "archer", "side": "r", "at": [5, 5, 0]}, guard(at=(6, 5, 0)), guard("u", at=(9, 9, 0))])
    assert "DND-27" in attack_event(s, "a", "u", rolls={"attack": 1})["rules"]
    s = make([{"id": "a", "kind": "archer", "side": "r", "at": [5, 5, 0]}, guard(at=(6, 5, 0)), guard("u", at=(9, 9, 0))])
    step(s, "gm", "condition", target="t", add="stunned")
    assert "DND-27" not in attack_event(s, "a", "u", rolls={"attack": 1})["rules"]


def test_dnd28_opportunity_attacks_and_forced_movement():
    s = make([guard("m", side="b", at=(6, 5, 0)), knight()])
    assert find(step(s, "m", "move", to=[8, 5, 0], rolls={"attack": 1}), "opportunity_attack", who="k")
    s = make([guard("m", side="b", at=(6, 5, 0)), knight()])
    step(s, "gm", "condition", target="m", add="invisible")            # the reactor cannot see it
    assert not find(step(s, "m", "move", to=[8, 5, 0]), "opportunity_attack")
    s = make([knight("p", side="b", at=(4, 5, 0)), guard("m", side="r", at=(5, 5, 0)), knight("w", side="r", at=(6, 6, 0))])
    evs = step(s, "p", "shove", target="m", mode="push", rolls={"check": 20, "contest": 1})
    assert s.state.actors["m"].pos == (6, 5, 0) and not find(evs, "opportunity_attack")


def test_dnd29_two_weapon_fighting():
    d = {"id": "d", "kind": "duelist", "side": "b", "at": [5, 5, 0]}
    s = make([d, guard(at=(6, 5, 0), max_hp=50)])
    with pytest.raises(Illegal) as e:
        step(s, "d", "attack", target="t", weapon="scimitar", bonus=True)
    assert e.value.rule == "DND-29"
    step(s, "d", "attack", target="t", weapon="shortsword", rolls={"attack": 1})
    step(s, "d", "attack", target="t", weapon="scimitar", bonus=True, rolls={"attack": 19, "damage": 4})
    assert s.state.actors["t"].hp == 50 - 4                               # no +3 dex to damage


def test_dnd29_off_hand_is_another_weapon_and_keeps_the_weapons_own_bonus():
    """l. 406 "możesz użyć akcji dodatkowej aby zaatakować inną lekką bronią trzymaną w drugiej dłoni": not the same
    shortsword twice; l. 407 "Nie dodajesz swojego modyfikatora z cechy do obrażeń ..., chyba że jest on negatywny":
    only the ability modifier goes: a +1 dagger keeps its +1, and Str -2 with a +3 light hammer deals +1."""
    d = {"id": "d", "kind": "duelist", "side": "b", "at": [5, 5, 0],
         "weapons": ["shortsword", {"name": "dagger", "damage_bonus": 1}]}
    s = make([d, guard(side="r", at=(6, 5, 0), max_hp=50)])
    step(s, "d", "attack", target="t", weapon="shortsword", rolls={"attack": 1})
    with pytest.raises(Illegal) as e:
        step(s, "d", "attack", target="t", weapon="shortsword", bonus=True, rolls={"attack": 19, "damage": 4})
    assert e.value.rule == "DND-29"
    assert {c["weapon"] for c in s.legal_actions() if c["action"] == "attack" and c.get("bonus")} == {"dagger"}
    evs = step(s, "d", "attack", target="t", weapon="dagger", bonus=True, rolls={"attack": 19, "damage": 3})
    assert find(evs, "damage", who="t")["amount"] == 3 + 1                # Dex +3 dropped, the dagger's +1 kept
    weak = {"id": "w", "kind": "duelist", "side": "b", "at": [5, 5, 0], "abilities": {"str": 6, "dex": 6},
            "weapons": ["handaxe", {"name": "light_hammer", "damage_bonus": 3}]}
    s = make([weak, guard(side="r", at=(6, 5, 0), max_hp=50)])
    step(s, "w", "attack", target="t", weapon="handaxe", rolls={"attack": 1})
    evs = step(s, "w", "attack", target="t", weapon="light_hammer", bonus=True, rolls={"attack": 19, "damage": 3})
    assert find(evs, "damage", who="t")["amount"] == 3 - 2 + 3


def test_dnd30_grapple_escape_and_size():
    s = make([knight(), guard()])
    evs = step(s, "k", "grapple", target="t", rolls={"check": 10, "contest": 10})
    assert find(evs, "contest", success=True)
    t = s.state.actors["t"]
    assert t.conditions["grappled"] == ["k"]
    step(s, "k", "end_turn")
    with pytest.raises(Illegal):
        step(s, "t", "move", to=[7, 5, 0])
    step(s, "t", "escape", rolls={"check": 20, "contest": 1})
    assert not t.has("grappled")
    s = make([guard("g", side="r", at=(5, 5, 0)), {"id": "w", "kind": "wyvern", "size": "huge", "side": "b", "at": [6, 5, 0]}])
    with pytest.raises(Illegal) as e:
        step(s, "g", "grapple", target="w")
    assert e.value.rule == "DND-30"
    s = make([knight(), guard()])
    step(s, "gm", "condition", target="t", add="stunned")
    assert find(step(s, "k", "grapple", target="t"), "contest", automatic=True)


def test_dnd31_shove_prone():
    s = make([knight(), guard()])
    step(s, "k", "shove", target="t", mode="prone", rolls={"check": 15, "contest": 2})
    assert s.state.actors["t"].has("prone")


def test_dnd32_cover_bonuses_to_ac_and_dex_saves():
    s = make([guard()])
    t = s.state.actors["t"]
    s._sink = []
    for level, roll, ok in (("three-quarters", 8, True), ("none", 12, False), ("none", 13, True)):
        s.dice.forced = {"save": roll}          # dex +1: 8 + 1 + 5 = 14; 12 + 1 = 13
        assert conditions.saving_throw(s.ruleset, s, t, "dex", 14, None, "DND-32", "test", cover_level=level) is ok
    s.dice.forced = {}


@pytest.mark.parametrize("option, ok", [(None, False), (True, True)])
def test_dnd32_half_cover_gives_no_dex_save_bonus_as_written(option, ok):
    """l. 428-429 "Cel osłonięty połowicznie dostaje +2 do KP" against "w trzech czwartych dostaje +5 do KP i rzutów
    obronnych na zręczność": half cover adds nothing to a Dexterity save; option ``half_cover_dex_saves = true``:
    the rulebook's +2."""
    s = make([guard()], options={"half_cover_dex_saves": option} if option else None)
    s._sink = []
    s.dice.forced = {"save": 11}                # dex +1: 11 + 1 = 12 < 14; with the rulebook's +2, 14
    assert conditions.saving_throw(s.ruleset, s, s.state.actors["t"], "dex", 14, None, "DND-32", "test",
                                   cover_level="half") is ok
    s.dice.forced = {}


def test_dnd33_resistance_and_vulnerability():
    s = make([knight(), guard(max_hp=50, resistances=["slashing"])])
    step(s, "k", "attack", target="t", rolls={"attack": 19, "damage": 5})     # 8 -> 4
    assert s.state.actors["t"].hp == 46
    s = make([knight(), guard(max_hp=50, vulnerabilities=["slashing"])])
    step(s, "k", "attack", target="t", rolls={"attack": 19, "damage": 5})     # 8 -> 16
    assert s.state.actors["t"].hp == 34


def test_dnd34_knock_out():
    s = make([knight(), guard(pc=True, hp=3)])
    step(s, "k", "attack", target="t", knock_out=True, rolls={"attack": 19, "damage": 5})
    t = s.state.actors["t"]
    assert t.hp == 0 and t.has("unconscious") and t.data["stable"] and not t.dead


def test_dnd35_temporary_hp():
    s = make([knight(), guard(max_hp=20, temp_hp=5)])
    step(s, "k", "attack", target="t", rolls={"attack": 19, "damage": 4})     # 7: 5 temp, 2 real
    t = s.state.actors["t"]
    assert t.temp_hp == 0 and t.hp == 18
    step(s, "gm", "temp_hp", target="t", amount=4)
    step(s, "gm", "temp_hp", target="t", amount=2)       # lower: declined
    assert t.temp_hp == 4
    step(s, "gm", "heal", target="t", amount=10)
    assert t.temp_hp == 4 and t.hp == 20
    s = make([knight(), guard(pc=True, hp=0)])
    step(s, "gm", "temp_hp", target="t", amount=5)
    assert s.state.actors["t"].has("unconscious")


def test_dnd36_mounts():
    rider = {"id": "r", "kind": "wyvern_rider", "side": "b", "at": [4, 4, 0]}
    mount = {"id": "w", "kind": "griffon", "size": "large", "side": "b", "at": [5, 4, 0], "controlled_mount": True}
    s = make([rider, mount, guard("e", side="r", at=(10, 10, 0))], options={"air_speed": "fly_speed"})
    step(s, "r", "mount", target="w")
    assert s.state.turn["moved_m"] == 4.5 and s.state.actors["r"].pos == (5, 4, 0)
    with pytest.raises(Illegal):
        step(s, "r", "move", to=[6, 6, 0])
    step(s, "r", "end_turn")
    assert s.current == "w"
    with pytest.raises(Illegal) as e:
        step(s, "w", "attack", target="e")
    assert e.value.rule == "DND-36"
    step(s, "w", "move", to=[5, 4, 3])                       # the griffon takes off, carrying the rider
    assert s.state.actors["r"].pos == (5, 4, 3) and s.state.actors["r"].flying
    step(s, "gm", "condition", target="w", add="stunned")    # the mount falls; so does the rider
    r = s.state.actors["r"]
    assert r.layer == 0 and not r.flying


def test_dnd36_mount_knocked_prone_rider_lands_on_feet():
    rider = {"id": "r", "kind": "wyvern_rider", "side": "b", "at": [5, 4, 0], "mount": "w"}
    mount = {"id": "w", "kind": "griffon", "size": "large", "side": "b", "at": [5, 4, 0], "controlled_mount": True}
    s = make([rider, mount])
    step(s, "gm", "condition", target="w", add="prone")
    r = s.state.actors["r"]
    assert r.data["mounted_on"] is None and not r.has("prone") and r.data["reaction_used"]


def test_dnd37_underwater():
    s = make([knight(underwater=True), guard()])
    assert "melee underwater without a swim speed" in attack_event(s, "k", "t", rolls={"attack": 1})["disadvantage"]
    s = make([knight(underwater=True, weapons=["shortsword"]), guard()])
    assert attack_event(s, "k", "t", rolls={"attack": 1})["disadvantage"] == []
    s = make([{"id": "a", "kind": "archer", "side": "r", "at": [0, 0, 0], "underwater": True}, guard(at=(11, 11, 0))],
             size=(40, 40, 4))
    s2 = make([{"id": "a", "kind": "archer", "side": "r", "at": [0, 0, 0], "underwater": True}, guard(at=(35, 0, 0))],
              size=(40, 4, 4))
    with pytest.raises(Illegal) as e:
        step(s2, "a", "attack", target="t", weapon="longbow")       # 52.5 m > normal 45 m
    assert e.value.rule == "DND-37"
    s = make([knight(), guard(underwater=True, max_hp=50)])
    step(s, "gm", "damage", target="t", amount=10, type="fire")
    assert s.state.actors["t"].hp == 45


def test_dnd38_sneak_attack():
    r = {"id": "r", "kind": "rogue", "side": "b", "at": [5, 5, 0]}
    s = make([r, guard(side="r", at=(6, 5, 0), max_hp=80)])
    evs = step(s, "r", "attack", target="t", weapon="shortsword", rolls={"attack": 15, "damage": 1})
    assert not find(evs, "roll", name="sneak_attack")                  # no advantage, no ally
    s = make([r, guard(side="r", at=(6, 5, 0), max_hp=80), knight("ally", side="b", at=(7, 5, 0))])
    evs = step(s, "r", "attack", target="t", weapon="shortsword", rolls={"attack": 15, "damage": 1, "sneak_attack": 2})
    assert len([e for e in evs if e["type"] == "roll" and e["name"] == "sneak_attack"]) == 3   # level 5: 3d6
    assert s.state.actors["t"].hp == 80 - (1 + 4) - 6
    s = make([r | {"attacks": 2}, guard(side="r", at=(6, 5, 0), max_hp=80), knight("ally", side="b", at=(7, 5, 0))])
    step(s, "r", "attack", target="t", weapon="shortsword", rolls={"attack": 15, "damage": 1, "sneak_attack": 2})
    evs = step(s, "r", "attack", target="t", weapon="shortsword", rolls={"attack": 15, "damage": 1})
    assert not find(evs, "roll", name="sneak_attack")                  # once per round (DND-38)


# -- conditions -------------------------------------------------------------------------------------------------
def test_dnd41_unconscious_adv_and_auto_crit_within_1_5m():
    s = make([knight(), guard(pc=True, hp=0, max_hp=11)])
    att = attack_event(s, "k", "t", rolls={"attack": 5})
    assert "the target is unconscious" in att["advantage"]
    s = make([knight(), guard(pc=True, hp=5, max_hp=40, conditions=["unconscious"])])
    att = attack_event(s, "k", "t", rolls={"attack": 15, "damage": 1})
    assert att["critical"]


def test_dnd42_invisible():
    s = make([knight(), guard(invisible=True)])
    assert "the target is invisible" in attack_event(s, "k", "t", rolls={"attack": 1})["disadvantage"]
    s = make([knight(invisible=True), guard()])
    assert "the attacker is invisible" in attack_event(s, "k", "t", rolls={"attack": 1})["advantage"]


def test_dnd43_incapacitated_no_actions_no_reactions():
    s = make([guard("m", side="b", at=(6, 5, 0)), knight()])
    step(s, "gm", "condition", target="k", add="incapacitated")
    assert not find(step(s, "m", "move", to=[8, 5, 0]), "opportunity_attack")
    s = make([knight(), guard()])
    step(s, "gm", "condition", target="k", add="incapacitated")
    with pytest.raises(Illegal) as e:
        step(s, "k", "dash")
    assert e.value.rule == "DND-43"


def test_dnd44_deafened_changes_no_attack():
    s = make([knight(conditions=["deafened"]), guard()])
    att = attack_event(s, "k", "t", rolls={"attack": 1})
    assert att["advantage"] == [] and att["disadvantage"] == []
    assert s.state.to_dict()["characters"]["k"]["conditions"] == ["deafened"]


def test_dnd45_stunned():
    s = make([knight(), guard(conditions=["stunned"])])
    assert "the target is stunned" in attack_event(s, "k", "t", rolls={"attack": 1})["advantage"]
    assert not conditions.saving_throw(s.ruleset, s, s.state.actors["t"], "dex", 1, None, "DND-45", "x")


def test_dnd46_blinded():
    s = make([knight(conditions=["blinded"]), guard(conditions=["blinded"])])
    att = attack_event(s, "k", "t", rolls={"attack": 1})
    assert "the attacker is blinded" in att["disadvantage"] and "the target is blinded" in att["advantage"]


def test_dnd46_blinded_search_fails_without_a_roll():
    """l. 505 "Oślepione stworzenie nie widzi i automatycznie nie zdaje testów cech opartych na wzroku": the Search
    finds a hider along a line of sight, so a blinded searcher finds nobody, even with a 20 forced on its die."""
    s = _hidden_pair()
    step(s, "r", "hide", rolls={"check": 1})
    step(s, "r", "end_turn")
    step(s, "gm", "condition", target="g", add="blinded")
    evs = step(s, "g", "search", rolls={"check": 20})
    ev = find(evs, "search")
    assert ev["found"] == [] and ev["auto_fail"] == "blinded" and ev["auto_fail_rule"] == "DND-46"
    assert not find(evs, "roll") and s.state.actors["r"].data["hidden"] is not None


def test_dnd47_grapple_ends_when_grappler_incapacitated_or_out_of_reach():
    s = make([knight(), guard()])
    step(s, "k", "grapple", target="t", rolls={"check": 15, "contest": 1})
    step(s, "gm", "condition", target="k", add="stunned")
    assert not s.state.actors["t"].has("grappled")
    s = make([knight(), guard(), knight("p", side="r", at=(5, 4, 0))])
    step(s, "k", "grapple", target="t", rolls={"check": 15, "contest": 1})
    step(s, "k", "end_turn")
    step(s, "t", "end_turn")
    evs = step(s, "p", "shove", target="t", mode="push", rolls={"check": 20, "contest": 1})
    assert s.state.actors["t"].pos == (7, 6, 0)
    assert find(evs, "grapple_ends", who="t", rule="DND-47") and not s.state.actors["t"].has("grappled")


def test_dnd48_prone():
    s = make([knight(), guard(conditions=["prone"]), {"id": "a", "kind": "archer", "side": "r", "at": [6, 11, 0]}])
    assert "the target is prone, attacker within 1.5 m" in attack_event(s, "k", "t", rolls={"attack": 1})["advantage"]
    step(s, "k", "end_turn")
    step(s, "t", "end_turn")
    att = attack_event(s, "a", "t", rolls={"attack": 1})
    assert "the target is prone and the attacker farther than 1.5 m" in att["disadvantage"]
    s = make([guard(side="r", at=(6, 5, 0), conditions=["prone"]), knight(side="b")])
    assert "the attacker is prone" in attack_event(s, "t", "k", rolls={"attack": 1})["disadvantage"]
    step(s, "t", "stand")
    assert s.state.turn["moved_m"] == 4.5 and not s.state.actors["t"].has("prone")


def test_dnd48_crawling_costs_double():
    s = make([guard(side="r", at=(0, 0, 0), conditions=["prone"])])
    step(s, "t", "move", to=[3, 0, 0])                   # 4.5 m crawled = 9 m of movement
    with pytest.raises(Illegal):
        step(s, "t", "move", to=[4, 0, 0])


def test_dnd49_frightened():
    s = make([guard(side="b", at=(2, 2, 0), conditions=["frightened:k"]), knight(at=(6, 2, 0))])
    with pytest.raises(Illegal) as e:
        step(s, "t", "move", to=[3, 2, 0])
    assert e.value.rule == "DND-49"
    step(s, "t", "move", to=[1, 2, 0])
    att = attack_event(s, "t", "k", weapon="light_crossbow", rolls={"attack": 1})
    assert "the attacker is frightened and sees the source" in att["disadvantage"]


def test_dnd49_a_frightened_characters_moves_never_go_closer_to_the_source():
    """The listing offered the moves the check refuses (found by fuzzing the GM's tools): now every listed move is
    legal, none ends closer to the source in sight, and the moves away are still there."""
    from engine.world.geometry import distance_m

    s = make([guard(side="b", at=(5, 2, 0), conditions=["frightened:k"]), knight(at=(9, 2, 0))])
    t, k, cm = s.state.actors["t"], s.state.actors["k"], s.world.cell_m
    moves = [a for a in s.legal_actions("t") if a["action"] == "move"]
    here = distance_m(t.body(), k.body(), cm)
    assert moves and all(distance_m(t.body().moved(*m["to"]), k.body(), cm) >= here - 1e-9 for m in moves)
    assert {"actor": "t", "action": "move", "to": [3, 2, 0]} in moves
    for m in moves:
        s.check(m)
    assert len([a for a in s.legal_actions("t", kinds=["move"])]) == len(moves)


def test_dnd50_petrified_resists_everything():
    s = make([knight(), guard(max_hp=40, conditions=["petrified"])])
    att = attack_event(s, "k", "t", rolls={"attack": 19, "damage": 5})
    assert "the target is petrified" in att["advantage"] and s.state.actors["t"].hp == 36


def test_dnd50_petrified_immune_to_poison():
    """l. 531 "Skamieniały jest niepodatny na trucizny i choroby": poison damage does nothing (the resistance to all
    damage halved it) and the poisoned condition does not take; the other damage is still halved."""
    s = make([knight(), guard(max_hp=40, conditions=["petrified"])])
    evs = step(s, "gm", "damage", target="t", amount=10, type="poison")
    assert find(evs, "damage", who="t")["amount"] == 0 and s.state.actors["t"].hp == 40
    evs = step(s, "gm", "condition", target="t", add="poisoned")
    assert find(evs, "condition_immune", who="t", rule="DND-50") and not s.state.actors["t"].has("poisoned")
    step(s, "gm", "damage", target="t", amount=10, type="fire")
    assert s.state.actors["t"].hp == 35


def test_dnd51_paralyzed_crit_within_reach():
    s = make([knight(), guard(max_hp=60, conditions=["paralyzed"])])
    att = attack_event(s, "k", "t", rolls={"attack": 12, "damage": 1})
    assert att["critical"] and "the target is paralyzed" in att["advantage"]


def test_dnd52_restrained():
    s = make([knight(conditions=["restrained"]), guard(conditions=["restrained"])])
    att = attack_event(s, "k", "t", rolls={"attack": 1})
    assert "the attacker is restrained" in att["disadvantage"] and "the target is restrained" in att["advantage"]
    with pytest.raises(Illegal) as e:
        step(s, "k", "move", to=[5, 7, 0])
    assert e.value.rule == "DND-52"


def test_dnd53_poisoned():
    s = make([knight(conditions=["poisoned"]), guard()])
    assert "the attacker is poisoned" in attack_event(s, "k", "t", rolls={"attack": 1})["disadvantage"]
    evs = step(s, "k", "grapple", target="t", rolls={"check": 10, "contest": 10})
    assert len([e for e in evs if e["type"] == "roll" and e["name"] == "check"]) == 2     # disadvantage on checks


def test_dnd54_charmed():
    s = make([knight(conditions=["charmed:t"]), guard()])
    with pytest.raises(Illegal) as e:
        step(s, "k", "attack", target="t")
    assert e.value.rule == "DND-54"


def test_dnd36_rider_knocked_prone_or_pushed_saves_or_falls_off():
    rider = {"id": "r", "kind": "wyvern_rider", "side": "b", "at": [5, 4, 0], "mount": "w"}
    mount = {"id": "w", "kind": "griffon", "size": "large", "side": "b", "at": [5, 4, 0], "controlled_mount": True}
    foe = knight("k", side="r", at=(4, 4, 0))
    s = make([foe, rider, mount])
    step(s, "k", "shove", target="r", mode="prone", rolls={"check": 20, "contest": 1, "save": 15})
    r = s.state.actors["r"]
    assert r.data["mounted_on"] == "w" and not r.has("prone") and r.pos == (5, 4, 0)
    step(s, "k", "shove", target="r", mode="push", rolls={"check": 20, "contest": 1, "save": 2})
    assert r.data["mounted_on"] is None and r.has("prone") and r.pos != (5, 4, 0)


def test_dnd21_areas_stop_at_walls_and_dnd54_charm_is_one_way():
    m = {"id": "m", "kind": "mage", "side": "b", "at": [1, 1, 0]}
    fill = [("stone", (0, 6, 0), (19, 6, 5))]
    s = make([m, guard(at=(8, 4, 0), max_hp=60), guard("u", at=(8, 8, 0), max_hp=60)], size=(20, 12, 10), fill=fill)
    evs = step(s, "m", "cast", spell="fireball", at=[8, 4, 0], rolls={"damage": 3, "save": 1})
    assert find(evs, "cast")["targets"] == ["t"]                       # u is behind the wall
    s = make([knight(), guard(conditions=["charmed:k"])])
    attack_event(s, "k", "t", rolls={"attack": 1})                      # t is charmed by k: k may still attack t


def test_dnd29_thrown_off_hand():
    d = {"id": "d", "kind": "duelist", "side": "b", "at": [1, 5, 0], "weapons": ["dagger", "dagger"]}
    s = make([d, guard(side="r", at=(5, 5, 0), max_hp=50)])
    step(s, "d", "attack", target="t", weapon="dagger", rolls={"attack": 1})
    att = find(step(s, "d", "attack", target="t", weapon="dagger", bonus=True, rolls={"attack": 19, "damage": 3}), "attack")
    assert att["melee"] is False and s.state.actors["t"].hp == 47


def test_dnd31_push_off_a_roof_falls():
    s = make([knight("k", side="b", at=(5, 4, 4)), {"id": "a", "kind": "archer", "side": "r", "at": [6, 4, 4]}],
             fill=[("roof", (2, 2, 0), (6, 6, 3))])
    evs = step(s, "k", "shove", target="a", mode="push", rolls={"check": 18, "contest": 2})
    a = s.state.actors["a"]
    assert a.pos == (7, 4, 0) and a.has("prone") and a.hp == 22 - 3
    assert find(evs, "fall", who="a", layers=4, percent=15)


@pytest.mark.parametrize("choice", ["mount", "rider"])
def test_dnd36_opportunity_attack_provoked_by_a_mount(choice):
    rider = {"id": "r", "kind": "wyvern_rider", "side": "b", "at": [5, 4, 0], "mount": "w"}
    mount = {"id": "w", "kind": "griffon", "size": "large", "side": "b", "at": [5, 4, 0], "controlled_mount": True}
    s = make([rider, mount, knight("k", side="r", at=(7, 4, 0))], size=(16, 12, 8), options={"mount_oa_target": choice})
    step(s, "r", "end_turn")
    evs = step(s, "w", "move", to=[1, 4, 0], rolls={"attack": 1})
    assert find(evs, "opportunity_attack", who="k", target="r" if choice == "rider" else "w")
    assert s.state.actors["r"].pos == s.state.actors["w"].pos


def test_dnd36_a_controlled_mount_takes_the_riders_initiative():
    rider = {"id": "r", "kind": "wyvern_rider", "side": "b", "at": [4, 4, 0], "initiative": 20}
    mount = {"id": "w", "kind": "griffon", "size": "large", "side": "b", "at": [5, 4, 0], "controlled_mount": True, "initiative": 2}
    e = guard("e", side="r", at=(10, 10, 0), initiative=10)
    s = make([rider, mount, e])
    assert s.state.order == ["r", "e", "w"]
    step(s, "r", "mount", target="w")
    assert s.state.order == ["r", "w", "e"]
    step(s, "r", "end_turn")
    assert s.current == "w"


def test_dnd32_another_creature_is_half_cover():
    chars = [{"id": "a", "kind": "archer", "side": "r", "at": [1, 5, 0]}, guard(at=(9, 5, 0)),
             guard("g2", side="b", at=(5, 5, 0))]
    s = make(chars)
    att = attack_event(s, "a", "t", rolls={"attack": 1})
    assert att["cover"] == "half" and att["cover_by"] == "g2" and att["cover_bonus"] == 2
    s = make(chars, options={"creatures_give_cover": False})
    assert attack_event(s, "a", "t", rolls={"attack": 1})["cover"] == "none"
    s = make([{"id": "a", "kind": "archer", "side": "r", "at": [1, 5, 0]}, guard(at=(9, 5, 0)),
              guard("g2", side="b", at=(5, 8, 0))])
    assert attack_event(s, "a", "t", rolls={"attack": 1})["cover"] == "none"
