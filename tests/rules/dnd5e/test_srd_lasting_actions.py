"""The SRD save actions' second effects (SRD-74..77, engine/rules/dnd5e/srd_lasting_actions.py), each played
through ``aerie run`` with forced dice on a scene written here."""

from __future__ import annotations

import pytest

from test_srd_mechanics import events, run_scene

pytestmark = pytest.mark.unit

FOE = {"id": "a", "kind": "archer", "side": "blue", "at": [12, 10, 0], "max_hp": 300}


def _conds(evs, who):
    return [(e["condition"], e["added"], e["rule"]) for e in events(evs, "condition", who=who)]


def test_srd74_horror_nimbus_sees_the_light_immunity_and_multiattack(tmp_path, capsys):
    """Nalfeshnee: "Each creature within 15 feet of the nalfeshnee that can see the light ... If a creature's saving
    throw is successful or the effect ends for it, the creature is immune"; "uses Horror Nimbus if it can. It then
    makes three attacks". The blinded archer is not caught; the bite follows the nimbus; the second nimbus (recharged
    on a 6) catches no one: one saved, the other's fear ended with its repeated save."""
    nalf = {"id": "n", "srd": "nalfeshnee", "side": "red", "at": [10, 10, 0]}
    blind = {**FOE, "id": "b", "at": [10, 12, 0], "conditions": ["blinded"]}
    other = {**FOE, "id": "c", "at": [8, 10, 0]}
    nimbus = {"actor": "n", "action": "creature_action", "feature": "Horror Nimbus"}
    evs = run_scene(tmp_path, capsys, [nalf, FOE, blind, other], [
        {**nimbus, "rolls": {"save": [2, 20]}},
        {"actor": "n", "action": "attack", "target": "a", "weapon": "Bite", "rolls": {"attack": 15, "damage": [1] * 5}},
        {"actor": "n", "action": "end_turn"},
        {"actor": "a", "action": "end_turn", "rolls": {"save": 20}},
        {"actor": "b", "action": "end_turn"}, {"actor": "c", "action": "end_turn", "rolls": {"recharge": 6}},
        nimbus])
    acts = events(evs, "creature_action", who="n")
    assert [e["targets"] for e in acts] == [["a", "c"], []]
    assert [(c, ad) for c, ad, _ in _conds(evs, "a")] == [("frightened", True), ("frightened", False)]
    assert not _conds(evs, "c")
    assert [e["hit"] for e in evs if e.get("type") == "attack"] == [True]


def test_srd75_lightning_strike_at_a_point_within_500_feet(tmp_path, capsys):
    """Storm giant: "hurls a magical lightning bolt at a point it can see within 500 feet of it. Each creature within
    10 feet of that point must make a DC 17 Dexterity saving throw": the two archers by the point, 18 m away, are
    caught; the one beside the giant is not."""
    giant = {"id": "g", "srd": "storm-giant", "side": "red", "at": [2, 2, 0]}
    near = {**FOE, "id": "n", "at": [5, 2, 0]}
    far1 = {**FOE, "id": "f1", "at": [15, 15, 0]}
    far2 = {**FOE, "id": "f2", "at": [16, 15, 0]}
    evs = run_scene(tmp_path, capsys, [giant, near, far1, far2], [
        {"actor": "g", "action": "creature_action", "feature": "Lightning Strike", "at": [15, 15, 0],
         "rolls": {"damage": [2] * 12, "save": [2, 2]}}])
    act = events(evs, "creature_action", who="g")[0]
    assert act["targets"] == ["f1", "f2"] and act["at"] == [15, 15, 0]
    assert [(e["who"], e["amount"]) for e in events(evs, "damage")] == [("f1", 24), ("f2", 24)]


def test_srd76_spores_damage_each_turn_while_poisoned_around_corners(tmp_path, capsys):
    """Vrock: "The spores spread around corners. ... or become poisoned. While poisoned in this way, a target takes
    5 (1d10) poison damage at the start of each of its turns. A target can repeat the saving throw": the archer
    behind the wall is caught too; each takes its d10 at the start of its turn; the one whose repeated save
    succeeds takes no more, the other's goes on."""
    vrock = {"id": "v", "srd": "vrock", "side": "red", "at": [10, 10, 0]}
    hidden = {**FOE, "id": "b", "at": [10, 13, 0]}
    evs = run_scene(tmp_path, capsys, [vrock, FOE, hidden], [
        {"actor": "v", "action": "creature_action", "feature": "Spores", "rolls": {"save": [2, 2]}},
        {"actor": "v", "action": "end_turn", "rolls": {"damage": 7}},
        {"actor": "a", "action": "end_turn", "rolls": {"save": 20, "damage": 4}},
        {"actor": "b", "action": "end_turn", "rolls": {"save": 2}},
        {"actor": "v", "action": "end_turn"},
        {"actor": "a", "action": "end_turn", "rolls": {"damage": 3}}], fill=[("stone", (8, 12, 0), (13, 12, 6))])
    assert events(evs, "creature_action", who="v")[0]["targets"] == ["a", "b"]
    dmg = [(e["who"], e["amount"], e["damage_type"]) for e in events(evs, "damage") if e["rule"] == "SRD-76"]
    assert dmg == [("a", 7, "poison"), ("b", 4, "poison"), ("b", 3, "poison")]


def test_srd77_each_roar_louder_and_different(tmp_path, capsys):
    """Androsphinx: the first roar frightens, the second deafens, frightens and paralyzes (the paralysis ends with
    the fright), the third is a Constitution save against 8d10 thunder damage and prone; a deafened creature does
    not hear the third; there is no fourth (3/Day)."""
    sphinx = {"id": "s", "srd": "androsphinx", "side": "red", "at": [10, 10, 0],
              "legendary": {"points": 3, "options": []}}          # no legendary claws between the roars
    b = {**FOE, "id": "b", "at": [13, 13, 0]}
    roar = {"actor": "s", "action": "creature_action", "feature": "Roar"}
    ends = [{"actor": "s", "action": "end_turn"}, {"actor": "a", "action": "end_turn", "rolls": {"save": 20}},
            {"actor": "b", "action": "end_turn"}]
    paralyzed = [{"actor": "s", "action": "end_turn", "rolls": {"save": 20}},     # a's turn passes: its repeated save
                 {"actor": "b", "action": "end_turn"}]
    evs = run_scene(tmp_path, capsys, [sphinx, FOE, b], [
        {**roar, "rolls": {"save": [2, 20]}}, *ends,
        {**roar, "rolls": {"save": [2, 20]}}, *paralyzed,
        {**roar, "rolls": {"save": [2], "damage": [1] * 8}}, *ends,
        {**roar, "illegal": "SRD-05"}])
    assert [e["roar"] for e in events(evs, "roar", who="s")] == [1, 2, 3]
    assert [e["targets"] for e in events(evs, "creature_action", who="s")] == [["a", "b"], ["a", "b"], ["b"]]
    assert [(c, ad) for c, ad, _ in _conds(evs, "a")] == [
        ("frightened", True), ("frightened", False),
        ("deafened", True), ("frightened", True), ("paralyzed", True), ("frightened", False), ("paralyzed", False)]
    assert ("paralyzed", False, "SRD-77") in _conds(evs, "a")
    assert [(e["who"], e["amount"], e["damage_type"]) for e in events(evs, "damage")] == [("b", 8, "thunder")]
    assert [(c, ad) for c, ad, _ in _conds(evs, "b")] == [("prone", True)]


def test_srd78_lightning_storm_three_bolts_three_targets(tmp_path, capsys):
    """Kraken: "three bolts of lightning, each of which can strike a target the kraken can see within 120 feet of it.
    A target must make a DC 23 Dexterity saving throw, taking 22 (4d10) lightning damage": three archers, each its
    own 4d10 and save; a fourth target, or the same one twice, is refused."""
    kraken = {"id": "k", "srd": "kraken", "side": "red", "at": [2, 2, 0], "legendary": {"points": 3, "options": []}}
    foes = [{**FOE, "id": i, "at": [x, 15, 0]} for i, x in (("a", 10), ("b", 13), ("c", 16), ("d", 18))]
    storm = {"actor": "k", "action": "creature_action", "feature": "Lightning Storm", "target": "a"}
    evs = run_scene(tmp_path, capsys, [kraken, *foes], [
        {**storm, "targets": ["b", "c", "d"], "illegal": "SRD-78"},
        {**storm, "targets": ["a"], "illegal": "SRD-78"},
        {**storm, "targets": ["b", "c"], "rolls": {"damage": [1] * 4 + [2] * 4 + [3] * 4, "save": [2, 2, 20]}}])
    assert events(evs, "creature_action", who="k")[0]["targets"] == ["a", "b", "c"]
    assert [(e["who"], e["amount"]) for e in events(evs, "damage")] == [("a", 4), ("b", 8), ("c", 6)]


def test_srd79_fetid_cloud_lasts_and_poisons_each_turn_start(tmp_path, capsys):
    """Dretch: "A 10-foot radius of disgusting green gas extends out from the dretch. The gas spreads around corners
    ... Any creature that starts its turn in that area must succeed on a DC 11 Constitution saving throw or be
    poisoned until the start of its next turn. While poisoned in this way, the target ... can't take reactions." No
    save as it forms; the archer beside it and the one behind the wall save as their turns start, the far one does
    not; the poisoned archer makes no opportunity attack as the dretch walks off; its poison ends as its next turn
    starts, where it saves again."""
    dretch = {"id": "d", "srd": "dretch", "side": "red", "at": [10, 10, 0]}
    behind = {**FOE, "id": "b", "at": [10, 12, 0]}
    far = {**FOE, "id": "c", "at": [17, 10, 0]}

    def play(first_save):
        return run_scene(tmp_path, capsys, [dretch, {**FOE, "at": [11, 10, 0]}, behind, far], [
            {"actor": "d", "action": "creature_action", "feature": "Fetid Cloud"},
            {"actor": "d", "action": "end_turn", "rolls": {"save": first_save}},
            {"actor": "a", "action": "end_turn", "rolls": {"save": 2}},
            {"actor": "b", "action": "end_turn"}, {"actor": "c", "action": "end_turn"},
            {"actor": "d", "action": "move", "to": [7, 7, 0], "rolls": {"attack": 2}},
            {"actor": "d", "action": "end_turn", "rolls": {"save": 20}}], fill=[("stone", (9, 11, 0), (11, 11, 6))])

    saved = play(20)                 # a saves: it makes its opportunity attack as the dretch walks off
    assert [e for e in saved if e.get("type") == "attack" and e.get("who") == "a"]
    evs = play(2)
    assert events(evs, "creature_action", who="d")[0]["targets"] == []
    assert [(e["who"], e["success"]) for e in events(evs, "save") if e["rule"] == "SRD-79"] == [
        ("a", False), ("b", False), ("a", True)]
    assert [(c, ad) for c, ad, _ in _conds(evs, "a")] == [("poisoned", True), ("poisoned", False)]
    assert _conds(evs, "a")[1][2] == "SRD-79"
    assert not [e for e in evs if e.get("type") == "attack" and e.get("who") == "a"]


def test_srd80_legendary_lightning_storm(tmp_path, capsys):
    """Kraken: "Lightning Storm (Costs 2 Actions). The kraken uses Lightning Storm." -- at the end of the archer's
    turn its three bolts strike the three nearest foes, each its own 4d10 and save; with 1 point left it takes no
    second one at the end of the next turn."""
    kraken = {"id": "k", "srd": "kraken", "side": "red", "at": [2, 2, 0]}
    foes = [{**FOE, "id": i, "at": [x, 15, 0]} for i, x in (("a", 10), ("b", 13), ("c", 16), ("d", 19))]
    evs = run_scene(tmp_path, capsys, [kraken, *foes], [
        {"actor": "k", "action": "end_turn"},
        {"actor": "a", "action": "end_turn", "rolls": {"damage": [1] * 4 + [2] * 4 + [3] * 4, "save": [2, 2, 20]}},
        {"actor": "b", "action": "end_turn"}])
    leg = events(evs, "legendary_action", who="k")
    assert [(e["option"], e["cost"], e["points_left"], e["targets"]) for e in leg] == [
        ("Lightning Storm", 2, 1, ["a", "b", "c"])]
    assert [(e["who"], e["amount"], e["rule"]) for e in events(evs, "damage")] == [
        ("a", 4, "SRD-80"), ("b", 8, "SRD-80"), ("c", 6, "SRD-80")]
