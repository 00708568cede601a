"""The oni's Multiattack and Glaive, the chimera's breath in its Multiattack, the balor's Death Throes (SRD-105..108,
issue 44), each played through ``aerie run`` with forced dice on a scene written here, the events read from
``--json`` (helpers: test_srd_mechanics.py), or through a Session's listing and preview."""

from __future__ import annotations

import pytest

from engine.sim.policies import best_attack
from rules_helpers import make, step
from test_srd_mechanics import events, run_scene

pytestmark = pytest.mark.unit

ARCHER = {"id": "a", "kind": "archer", "side": "blue", "at": [6, 4, 0], "max_hp": 300}


def test_srd105_the_onis_two_attacks_either_with_its_claws_or_its_glaive(tmp_path, capsys):
    """Oni, "The oni makes two attacks, either with its claws or its glaive." and "Claw (Oni Form Only)": a claw,
    then the glaive is refused (SRD-01: two claws or two glaive attacks), a second claw hits; in its Small form (its
    Change Shape) the claw is refused (SRD-105), the glaive is not."""
    oni = {"id": "o", "srd": "oni", "side": "red", "at": [4, 4, 0]}
    claw = {"actor": "o", "action": "attack", "target": "a", "weapon": "Claw (Oni Form Only)"}
    glaive = {"actor": "o", "action": "attack", "target": "a", "weapon": "Glaive"}
    evs = run_scene(tmp_path, capsys, [oni, ARCHER], [
        {**claw, "rolls": {"attack": 15, "damage": [4]}},
        {**glaive, "illegal": "SRD-01"},
        {**claw, "rolls": {"attack": 15, "damage": [4]}},
        {"actor": "o", "action": "end_turn"}, {"actor": "a", "action": "end_turn"},
        {"actor": "o", "action": "trait_action", "feature": "Change Shape", "form": "small"},
        {"actor": "o", "action": "end_turn"}, {"actor": "a", "action": "end_turn"},
        {**claw, "illegal": "SRD-105"},
        {**glaive, "rolls": {"attack": 15, "damage": [5]}}])
    hits = [(e["weapon"], e["hit"]) for e in events(evs, "attack", who="o")]
    assert hits == [("Claw (Oni Form Only)", True), ("Claw (Oni Form Only)", True), ("Glaive", True)]
    assert [e["amount"] for e in events(evs, "damage", who="a")] == [8, 8, 9]


def test_srd106_the_onis_glaive_in_small_or_medium_form(tmp_path, capsys):
    """Oni's Glaive, "Hit: 15 (2d10 + 4) slashing damage, or 9 (1d10 + 4) slashing damage in Small or Medium form":
    in its true form two d10 (3 + 4 + 4 = 11); Medium, one d10 (an ``alternative_damage`` event, SRD-106); dead, it
    reverts to its true form ("its glaive reverts to its normal size")."""
    oni = {"id": "o", "srd": "oni", "side": "red", "at": [4, 4, 0]}
    glaive = {"actor": "o", "action": "attack", "target": "a", "weapon": "Glaive"}
    evs = run_scene(tmp_path, capsys, [oni, ARCHER], [
        {**glaive, "rolls": {"attack": 15, "damage": [3, 4]}},
        {"actor": "o", "action": "end_turn"}, {"actor": "a", "action": "end_turn"},
        {"actor": "o", "action": "trait_action", "feature": "Change Shape", "form": "medium"},
        {"actor": "o", "action": "end_turn"}, {"actor": "a", "action": "end_turn"},
        {**glaive, "rolls": {"attack": 15, "damage": [3]}}])
    assert [e["amount"] for e in events(evs, "damage", who="a")] == [11, 7]
    alt = events(evs, "alternative_damage", who="o")
    assert [(e["damage"], e["when"], e["rule"]) for e in alt] == [("1d10", "small_form", "SRD-106")]
    assert evs[-1]["characters"]["o"]["data"]["weapons"][1]["alternative"] == {"damage": "1d10", "when": "small_form"}


CHIMERA = {"id": "c", "srd": "chimera", "side": "red", "at": [4, 4, 0]}
BREATH = {"actor": "c", "action": "creature_action", "feature": "Fire Breath", "target": "a"}


def test_srd107_the_chimeras_breath_in_place_of_its_bite_or_horns(tmp_path, capsys):
    """Chimera, "three attacks: one with its bite, one with its horns, and one with its claws. When its fire breath
    is available, it can use the breath in place of its bite or horns.": a bite, the breath (in place of the horns),
    the horns refused (SRD-01), the claws, then nothing left (SRD-107); recharged, the breath first (the action
    taken, two attacks left), the horns, the bite refused, the claws."""
    atk = {"actor": "c", "action": "attack", "target": "a", "rolls": {"attack": 15, "damage": [1, 1]}}
    evs = run_scene(tmp_path, capsys, [CHIMERA, ARCHER], [
        {**atk, "weapon": "Bite"},
        {**BREATH, "rolls": {"damage": [2] * 7, "save": [1]}},
        {**atk, "weapon": "Horns", "illegal": "SRD-01"},
        {**atk, "weapon": "Claws"},
        {**BREATH, "illegal": "SRD-05"},
        {"actor": "c", "action": "end_turn"},
        {"actor": "a", "action": "end_turn", "rolls": {"recharge": 6}},
        {**BREATH, "rolls": {"damage": [2] * 7, "save": [1]}},
        {**atk, "weapon": "Horns", "rolls": {"attack": 15, "damage": [1]}},
        {**atk, "weapon": "Bite", "illegal": "SRD-01"},
        {**atk, "weapon": "Claws"},
        {"actor": "c", "action": "end_turn"},
        {"actor": "a", "action": "end_turn", "rolls": {"recharge": 6}},
        {"actor": "c", "action": "dodge"},
        {**BREATH, "illegal": "SRD-107"}])
    placed = [(e["feature"], e["replaces"], e["attacks_left"], e["rule"]) for e in events(evs, "in_place_of", who="c")]
    assert placed == [("Fire Breath", ["Bite", "Horns"], 1, "SRD-107"), ("Fire Breath", ["Bite", "Horns"], 2, "SRD-107")]
    made = [e["weapon"] for e in events(evs, "attack", who="c")]
    assert made == ["Bite", "Claws", "Horns", "Claws"]
    assert [e["amount"] for e in events(evs, "damage", who="a", damage_type="fire")] == [14, 14]


def test_srd107_the_listing_the_preview_and_the_policy_offer_the_breath_in_place():
    """After the bite the breath is listed (it may replace the horns), its preview weighs it as one attack (not a
    third of one); after the bite and the horns it is not listed; the aggressive policy's choice (``best_attack``)
    takes the breath over the horns when the cone catches two archers."""
    b = {**ARCHER, "id": "b", "at": [6, 6, 0]}
    s = make([CHIMERA, ARCHER, b], size=(20, 20, 12))
    step(s, "c", "attack", target="a", weapon="Bite")
    listed = [x for x in s.legal_actions("c") if x["action"] == "creature_action"]
    assert {x["feature"] for x in listed} == {"Fire Breath"}
    pv = s.preview(listed[0])
    assert pv["legal"] and pv["hit_chance"] > 0.5          # a DC 15 Dex save against +3: a failure at 55 %, else half
    best = best_attack(s, [x for x in s.legal_actions("c") if x["action"] in ("attack", "creature_action")])
    assert best["action"] == "creature_action"
    s2 = make([CHIMERA, ARCHER, b], size=(20, 20, 12))
    step(s2, "c", "attack", target="a", weapon="Bite")
    step(s2, "c", "attack", target="a", weapon="Horns")
    assert not [x for x in s2.legal_actions("c") if x["action"] == "creature_action"]


def test_srd108_the_balors_death_throes(tmp_path, capsys):
    """Balor, "When the balor dies, it explodes, and each creature within 30 feet of it must make a DC 20 Dexterity
    saving throw, taking 70 (20d6) fire damage on a failed save, or half as much damage on a successful one ... and
    it destroys the balor's weapons": an arrow kills it (1 HP); the archer 3 m away fails (60), the one 4.5 m away
    saves (30), the one 12 m away is not caught; its Longsword and Whip are gone."""
    balor = {"id": "z", "srd": "balor", "side": "red", "at": [8, 8, 0], "max_hp": 1}
    near = {**ARCHER, "at": [8, 13, 0]}
    mid = {**ARCHER, "id": "m", "at": [14, 8, 0]}
    far = {**ARCHER, "id": "f", "at": [8, 19, 0]}
    evs = run_scene(tmp_path, capsys, [near, mid, far, balor], [
        {"actor": "a", "action": "attack", "target": "z", "weapon": "longbow",
         "rolls": {"attack": 18, "damage": [4] + [3] * 20, "save": [1, 20]}}])
    assert events(evs, "death", who="z")
    burst = events(evs, "death_burst", who="z")[0]
    assert sorted(burst["targets"]) == ["a", "m"] and burst["rule"] == "SRD-108"
    assert {e["who"]: e["amount"] for e in events(evs, "damage") if e.get("rule") == "SRD-108"} == {"a": 60, "m": 30}
    assert all(e["rule"] == "SRD-108" for e in events(evs, "roll", name="damage") if e.get("who") == "z")
    gone = events(evs, "weapons_destroyed", who="z")
    assert [(e["weapons"], e["rule"]) for e in gone] == [(["Longsword", "Whip"], "SRD-108")]
    assert [w["name"] for w in evs[-1]["characters"]["z"]["data"]["weapons"]] == ["unarmed"]


def test_srd109_a_creature_that_touches_the_balor_burns(tmp_path, capsys):
    """Balor's Fire Aura, "A creature that touches the balor or hits it with a melee attack while within 5 feet of it
    takes 10 (3d6) fire damage": a Large knight's grapple that succeeds burns it (3 x 4 = 12, an ``aura_touch``
    event); one that fails does not touch it; a shove that succeeds burns again."""
    balor = {"id": "z", "srd": "balor", "side": "red", "at": [8, 8, 0]}
    knight = {"id": "k", "kind": "knight", "side": "blue", "at": [11, 8, 0], "size": "large", "max_hp": 300}
    evs = run_scene(tmp_path, capsys, [knight, balor], [
        {"actor": "k", "action": "grapple", "target": "z", "rolls": {"check": 2, "contest": 18}},
        {"actor": "k", "action": "end_turn", "rolls": {"damage": [1, 1, 1]}},          # the aura as its turn starts
        {"actor": "z", "action": "end_turn"},
        {"actor": "k", "action": "grapple", "target": "z", "rolls": {"check": 18, "contest": 2, "damage": [4, 4, 4]}},
        {"actor": "k", "action": "end_turn", "rolls": {"damage": [1, 1, 1]}},          # the aura as its turn starts
        {"actor": "z", "action": "end_turn"},
        {"actor": "k", "action": "shove", "target": "z", "rolls": {"check": 18, "contest": 2, "damage": [5, 5, 5]}}])
    touches = [(e["how"], e["rule"]) for e in events(evs, "aura_touch", who="k")]
    assert touches == [("grapple", "SRD-109"), ("shove", "SRD-109")]
    burnt = [e["amount"] for e in events(evs, "damage", who="k") if e.get("rule") == "SRD-109"]
    assert burnt == [12, 15]
