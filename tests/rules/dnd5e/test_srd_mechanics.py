"""The SRD creatures' mechanics (rule IDs SRD-*), each played through ``aerie run`` (``engine.cli.main``) with
forced dice on a scene written here, the events read from ``--json``."""

from __future__ import annotations


import pytest

from engine.cli import main
from rules_helpers import events, run_scene, scene_text, tables

pytestmark = pytest.mark.unit




ARCHER = {"id": "a", "kind": "archer", "side": "blue", "at": [10, 10, 0]}


def test_srd02_a_hits_added_damage(tmp_path, capsys):
    """Young red dragon's Bite: "17 (2d10 + 6) piercing damage plus 3 (1d6) fire damage"."""
    dragon = {"id": "d", "srd": "young-red-dragon", "side": "red", "at": [8, 9, 0]}
    evs = run_scene(tmp_path, capsys, [dragon, ARCHER], [
        {"actor": "d", "action": "attack", "target": "a", "weapon": "Bite",
         "rolls": {"attack": 15, "damage": [2, 3], "extra_damage": 4}}])
    dmg = events(evs, "damage", who="a")
    assert [(e["amount"], e["damage_type"], e["rule"]) for e in dmg] == [(11, "piercing", "DND-16"), (4, "fire", "SRD-02")]


def test_srd03_resistance_to_nonmagical_weapons_and_immunity(tmp_path, capsys):
    """Vrock: "bludgeoning, piercing, and slashing from nonmagical weapons" -- a longbow's 7 is 3; the same
    bow with the magical property deals 7."""
    vrock = {"id": "v", "srd": "vrock", "side": "red", "at": [10, 16, 0]}
    magic = {**ARCHER, "id": "m", "at": [12, 10, 0],
             "weapons": [{"name": "longbow", "properties": ["ammunition", "heavy", "two-handed", "ranged", "magical"]}]}
    evs = run_scene(tmp_path, capsys, [ARCHER, magic, vrock], [
        {"actor": "a", "action": "attack", "target": "v", "weapon": "longbow", "rolls": {"attack": 18, "damage": 4}},
        {"actor": "a", "action": "end_turn"},
        {"actor": "m", "action": "attack", "target": "v", "weapon": "longbow", "rolls": {"attack": 18, "damage": 4}}])
    dmg = events(evs, "damage", who="v")
    assert [e["amount"] for e in dmg] == [3, 7]
    assert "nonmagical weapons (SRD-03)" in dmg[0]["notes"][0] and "notes" not in dmg[1]


def test_srd03_immunity_and_vulnerability_from_the_block(tmp_path, capsys):
    """A skeleton: "Damage Vulnerabilities bludgeoning"; a red dragon wyrmling: immune to fire."""
    skel = {"id": "s", "srd": "skeleton", "side": "red", "at": [10, 11, 0]}
    brute = {**ARCHER, "weapons": ["mace"]}
    evs = run_scene(tmp_path, capsys, [brute, skel], [
        {"actor": "a", "action": "attack", "target": "s", "weapon": "mace", "rolls": {"attack": 18, "damage": 3}}])
    e = events(evs, "damage", who="s")[0]
    assert e["amount"] == 6 and "vulnerability doubles it (DND-33)" in e["notes"]


def test_srd04_condition_immunity(tmp_path, capsys):
    """Vrock: "Condition Immunities poisoned"."""
    vrock = {"id": "v", "srd": "vrock", "side": "red", "at": [10, 16, 0]}
    evs = run_scene(tmp_path, capsys, [ARCHER, vrock], [
        {"actor": "gm", "action": "condition", "target": "v", "add": "poisoned"},
        {"actor": "gm", "action": "condition", "target": "v", "add": "prone"}])
    assert events(evs, "condition_immune", who="v", condition="poisoned", rule="SRD-04")
    assert events(evs, "condition", who="v", condition="prone")
    assert not events(evs, "condition", who="v", condition="poisoned")


def test_srd06_reach_from_the_stat_block(tmp_path, capsys):
    """Young red dragon: Bite "reach 10 ft." hits an archer 3 m away; Claw "reach 5 ft." may not."""
    dragon = {"id": "d", "srd": "young-red-dragon", "side": "red", "at": [7, 9, 0]}
    p = tmp_path / "s.toml"
    p.write_text(scene_text([dragon, ARCHER], size=(20, 20, 12)) + tables("script", [
        {"actor": "d", "action": "attack", "target": "a", "weapon": "Claw", "rolls": {"attack": 15}}]))
    assert main(["run", str(p)]) == 2
    assert "reach" in capsys.readouterr().err
    evs = run_scene(tmp_path, capsys, [dragon, ARCHER], [
        {"actor": "d", "action": "attack", "target": "a", "weapon": "Bite", "rolls": {"attack": 15, "damage": [1, 1]}}])
    assert events(evs, "attack", who="d", target="a", hit=True)


def _flyby(tmp_path, capsys, traits):
    """Giant owl (walk 5 ft., fly 60 ft.; AIR-09's default flies at the ground speed: the scene takes the fly
    speed) flies out of a guard's reach."""
    owl = {"id": "o", "srd": "giant-owl", "side": "red", "at": [10, 11, 1], "flying": True, **traits}
    guard = {"id": "g", "kind": "guard", "side": "blue", "at": [10, 10, 0]}
    return run_scene(tmp_path, capsys, [owl, guard], [
        {"actor": "o", "action": "move", "to": [10, 16, 1]}], seed=2, options={"air_speed": "fly_speed"})


def test_srd07_flyby_no_opportunity_attack_when_it_flies_out_of_reach(tmp_path, capsys):
    assert not events(_flyby(tmp_path, capsys, {}), "opportunity_attack")
    # the same owl without its Flyby (the scene's key overrides the block's traits): the guard's spear strikes
    assert events(_flyby(tmp_path, capsys, {"srd_traits": []}), "opportunity_attack", who="g", rule="DND-28")


def test_srd08_hover_does_not_fall_when_knocked_prone_or_stunned(tmp_path, capsys):
    """Flying sword "fly 50 ft. (hover)" stays at layer 6 when knocked prone, an air elemental "fly 90 ft.
    (hover)" when stunned (AIR-10 would ground both; the elemental is immune to prone, SRD-04); a giant eagle,
    without hover, falls."""
    sword = {"id": "s", "srd": "flying-sword", "side": "red", "at": [4, 4, 6], "flying": True}
    ele = {"id": "e", "srd": "air-elemental", "side": "red", "at": [4, 12, 6], "flying": True}
    eagle = {"id": "g", "srd": "giant-eagle", "side": "red", "at": [12, 4, 6], "flying": True}
    evs = run_scene(tmp_path, capsys, [ARCHER, sword, ele, eagle], [
        {"actor": "gm", "action": "condition", "target": "s", "add": "prone"},
        {"actor": "gm", "action": "condition", "target": "e", "add": "stunned"},
        {"actor": "gm", "action": "condition", "target": "g", "add": "prone"}])
    assert events(evs, "condition", who="s", condition="prone") and events(evs, "condition", who="e", condition="stunned")
    assert not events(evs, "flight_lost", who="s") and not events(evs, "flight_lost", who="e")
    assert events(evs, "flight_lost", who="g", rule="AIR-10")
    st = evs[-1]["characters"]
    assert [st[k]["position"][2] for k in "seg"] == [6, 6, 0] and st["s"]["flying"] and st["e"]["flying"]


def test_srd09_pack_tactics(tmp_path, capsys):
    """Blood hawk: advantage when an ally is within 1.5 m of the target (two d20s, the higher kept)."""
    h1 = {"id": "h1", "srd": "blood-hawk", "side": "red", "at": [10, 11, 0]}
    h2 = {"id": "h2", "srd": "blood-hawk", "side": "red", "at": [11, 10, 0]}
    far = {"id": "h3", "srd": "blood-hawk", "side": "red", "at": [2, 2, 0]}
    evs = run_scene(tmp_path, capsys, [h1, h2, ARCHER], [
        {"actor": "h1", "action": "attack", "target": "a", "weapon": "Beak", "rolls": {"attack": [3, 17], "damage": 2}}])
    at = events(evs, "attack", who="h1")[0]
    assert at["hit"] and any("Pack Tactics" in s for s in at.get("advantage", [])), at
    evs = run_scene(tmp_path, capsys, [h1, far, ARCHER], [
        {"actor": "h1", "action": "attack", "target": "a", "weapon": "Beak", "rolls": {"attack": 3}}])
    assert not events(evs, "attack", who="h1")[0]["hit"]


def test_srd10_magic_resistance(tmp_path, capsys):
    """Imp: advantage on saving throws against spells -- the mage's hold person, Wisdom save rolled 2 and 15."""
    mage = {"id": "m", "kind": "mage", "side": "blue", "at": [10, 10, 0], "spells": ["hold_person"]}
    imp = {"id": "i", "srd": "imp", "side": "red", "at": [10, 14, 0]}
    evs = run_scene(tmp_path, capsys, [mage, imp], [
        {"actor": "m", "action": "cast", "spell": "hold_person", "target": "i", "rolls": {"save": [2, 15]}}])
    sv = events(evs, "save", who="i")[0]
    assert sv["success"] and any("Magic Resistance" in s for s in sv.get("advantage", [])), sv


@pytest.mark.parametrize("traits, noticed", [({}, True), ({"srd_traits": []}, False),
                                            ({"srd_traits": ["keen hearing"]}, True)])
def test_srd11_keen_sight(tmp_path, capsys, traits, noticed):
    """Giant eagle (Perception +4, Keen Sight): its passive Perception against a rogue hiding behind a low wall is
    19 with Keen Sight (advantage on a passive check: +5), 14 without; Stealth 8 + 10 = 18. The same eagle with only
    Keen Hearing (the scene's key): "checks that rely on hearing" -- a hider's Stealth is against being heard too."""
    rogue = {"id": "r", "kind": "rogue", "side": "blue", "at": [10, 10, 0]}
    eagle = {"id": "e", "srd": "giant-eagle", "side": "red", "at": [10, 14, 0], **traits}
    evs = run_scene(tmp_path, capsys, [rogue, eagle], [{"actor": "r", "action": "hide", "rolls": {"check": 8}}],
                    fill=[("stone", (8, 11, 0), (12, 11, 0))], options={"hide_passive": "passive_perception"})
    assert bool(events(evs, "revealed", who="r", by="e")) is noticed


BREATH_MAP = [("stone", (14, 8, 0), (14, 11, 0))]          # a 1 m wall between the dragon and the archer


def _breath_scene():
    dragon = {"id": "d", "srd": "young-red-dragon", "side": "red", "at": [10, 8, 3], "flying": True}
    harpy = {"id": "h", "kind": "harpy", "side": "blue", "at": [13, 9, 1], "flying": True, "max_hp": 200}
    archer = {**ARCHER, "at": [15, 9, 0], "max_hp": 200}
    return [dragon, harpy, archer]


BREATH = {"actor": "d", "action": "creature_action", "feature": "Fire Breath", "at": [15, 9, 0]}


def test_srd12_breath_cone_catches_a_flyer_two_layers_below_and_a_walker_behind_half_cover(tmp_path, capsys):
    """Young red dragon at layer 3: "exhales fire in a 30-foot cone ... DC 17 Dexterity saving throw, taking 56
    (16d6) fire damage on a failed save, or half as much damage on a successful one". The harpy two layers below
    fails (48); the archer behind the wall (half cover, +2 to the Dex save with `half_cover_dex_saves`) rolls 12:
    12 + 3 + 2 = 17 succeeds, half (24)."""
    evs = run_scene(tmp_path, capsys, _breath_scene(), [
        {**BREATH, "rolls": {"damage": [3] * 16, "save": [5, 12]}}], options={"half_cover_dex_saves": True},
        fill=BREATH_MAP)
    act = events(evs, "creature_action", who="d")[0]
    assert act["targets"] == ["h", "a"] and act["rule"] == "SRD-12"
    sv = {e["who"]: e for e in events(evs, "save")}
    assert not sv["h"]["success"] and sv["a"]["success"], sv
    assert {"source": "half cover", "value": 2, "rule": "DND-32"} in sv["a"]["sources"]
    assert [(e["who"], e["amount"]) for e in events(evs, "damage")] == [("h", 48), ("a", 24)]


def test_srd05_recharge_a_d6_at_the_start_of_its_turn(tmp_path, capsys):
    """"(Recharge 5-6)": spent, a 4 at the start of the next turn leaves it spent (the breath is refused, SRD-05),
    a 5 the turn after brings it back."""
    evs = run_scene(tmp_path, capsys, _breath_scene(), [
        {**BREATH, "rolls": {"damage": [1] * 16, "save": [20, 20]}},
        {"actor": "d", "action": "end_turn"}, {"actor": "h", "action": "end_turn"},
        {"actor": "a", "action": "end_turn", "rolls": {"recharge": 4}},
        {**BREATH, "illegal": "SRD-05"},
        {"actor": "d", "action": "end_turn"}, {"actor": "h", "action": "end_turn"},
        {"actor": "a", "action": "end_turn", "rolls": {"recharge": 5}},
        {**BREATH, "rolls": {"damage": [1] * 16, "save": [20, 20]}}], fill=BREATH_MAP)
    rc = events(evs, "recharge", who="d")
    assert [(e["roll"], e["recharged"], e["rule"]) for e in rc] == [(4, False, "SRD-05"), (5, True, "SRD-05")]
    assert len(events(evs, "creature_action", who="d")) == 2
    assert events(evs, "roll", name="recharge", forced=True)


def test_srd01_multiattack_as_written(tmp_path, capsys):
    """Young red dragon: "three attacks: one with its bite and two with its claws" -- a second bite is refused
    (SRD-01), the claws are not; the legal actions after the bite offer the claws and no bite."""
    dragon = {"id": "d", "srd": "young-red-dragon", "side": "red", "at": [8, 9, 0]}
    big = {**ARCHER, "max_hp": 300}
    hit = {"attack": 15, "damage": [1, 1], "extra_damage": 1}
    evs = run_scene(tmp_path, capsys, [dragon, big], [
        {"actor": "d", "action": "attack", "target": "a", "weapon": "Bite", "rolls": hit},
        {"actor": "d", "action": "attack", "target": "a", "weapon": "Bite", "illegal": "SRD-01"},
        {"actor": "d", "action": "attack", "target": "a", "weapon": "Claw", "rolls": {"attack": 15, "damage": [1, 1]}},
        {"actor": "d", "action": "attack", "target": "a", "weapon": "Claw", "rolls": {"attack": 15, "damage": [1, 1]}}])
    assert [e["weapon"] for e in events(evs, "attack", who="d")] == ["Bite", "Claw", "Claw"]
    from rules_helpers import make, step

    s = make([dragon, big], size=(20, 20, 12))
    step(s, "d", "attack", target="a", weapon="Bite", rolls=hit)
    weapons = {x.get("weapon") for x in s.legal_actions("d") if x["action"] == "attack"}
    assert weapons == {"Claw"}


def test_srd01_alternatives_with_or(tmp_path, capsys):
    """Bandit captain: "two with its scimitar and one with its dagger. Or ... two ranged attacks with its daggers":
    two daggers then no scimitar."""
    cap = {"id": "c", "srd": "bandit-captain", "side": "red", "at": [9, 10, 0]}
    big = {**ARCHER, "max_hp": 300}
    evs = run_scene(tmp_path, capsys, [cap, big], [
        {"actor": "c", "action": "attack", "target": "a", "weapon": "Dagger", "rolls": {"attack": 15, "damage": 1}},
        {"actor": "c", "action": "attack", "target": "a", "weapon": "Dagger", "rolls": {"attack": 15, "damage": 1}},
        {"actor": "c", "action": "attack", "target": "a", "weapon": "Scimitar", "illegal": "SRD-01"}])
    assert len(events(evs, "attack", who="c")) == 2


def test_srd13_a_hit_that_forces_a_save(tmp_path, capsys):
    """Bone devil's Sting: "5 (1d8 + 3) piercing damage plus 17 (5d6) poison damage, and the target must succeed on
    a DC 14 Constitution saving throw or become poisoned for 1 minute. The target can repeat the saving throw at
    the end of each of its turns" -- the save failed (3): poisoned, with its repeated save."""
    devil = {"id": "d", "srd": "bone-devil", "side": "red", "at": [8, 9, 0]}
    big = {**ARCHER, "max_hp": 300}
    evs = run_scene(tmp_path, capsys, [devil, big], [
        {"actor": "d", "action": "attack", "target": "a", "weapon": "Sting",
         "rolls": {"attack": 15, "damage": 2, "extra_damage": [1] * 5, "save": 3}}])
    assert events(evs, "save", who="a", rule="SRD-13", success=False)
    assert events(evs, "condition", who="a", condition="poisoned")
    st = evs[-1]["characters"]["a"]
    assert st["data"]["repeat_saves"]["poisoned"]["dc"] == 14


def test_srd03_magic_weapons_bypass_nonmagical_resistance(tmp_path, capsys):
    """Deva: "Angelic Weapons. The deva's weapon attacks are magical" -- a vrock's resistance to nonmagical
    weapons does not halve its mace."""
    deva = {"id": "d", "srd": "deva", "side": "gold", "at": [8, 9, 0]}
    vrock = {"id": "v", "srd": "vrock", "side": "red", "at": [9, 9, 0]}
    evs = run_scene(tmp_path, capsys, [deva, vrock], [
        {"actor": "d", "action": "attack", "target": "v", "weapon": "Mace",
         "rolls": {"attack": 15, "damage": 3, "extra_damage": [1, 1, 1, 1]}}])
    dm = events(evs, "damage", who="v")
    assert dm[0]["damage_type"] == "bludgeoning" and dm[0]["amount"] == 3 + 4 and "notes" not in dm[0]


def test_srd14_legendary_resistance(tmp_path, capsys):
    """Adult red dragon, "Legendary Resistance (3/Day). If the dragon fails a saving throw, it can choose to succeed
    instead": the mage's hold person, Wisdom save rolled 2 (2 + 7 = 9 against 14): it succeeds instead, 2 uses
    left; a dragon whose uses are spent (the scene's key) is held."""
    mage = {"id": "m", "kind": "mage", "side": "blue", "at": [10, 10, 0], "spells": ["hold_person"]}
    dragon = {"id": "d", "srd": "adult-red-dragon", "side": "red", "at": [10, 14, 0]}
    cast = {"actor": "m", "action": "cast", "spell": "hold_person", "target": "d", "rolls": {"save": 2}}
    evs = run_scene(tmp_path, capsys, [mage, dragon], [cast])
    sv = events(evs, "save", who="d")[0]
    assert sv["success"] and sv["legendary_resistance"] == 2 and sv["total"] < sv["dc"]
    assert not events(evs, "condition", who="d", condition="paralyzed")
    evs = run_scene(tmp_path, capsys, [mage, {**dragon, "legendary_resistance": 0}], [cast])
    assert not events(evs, "save", who="d")[0]["success"] and events(evs, "condition", who="d", condition="paralyzed")


def test_srd15_legendary_actions_at_the_end_of_another_creatures_turn(tmp_path, capsys):
    """Adult red dragon, 3 legendary actions: at the end of the archer's turn, "Tail Attack. The dragon makes a tail
    attack" (1 point) at the archer within its tail's 15 ft.; after the second archer's, another; the points return
    at the start of its turn."""
    dragon = {"id": "d", "srd": "adult-red-dragon", "side": "red", "at": [6, 9, 0]}
    a1 = {**ARCHER, "at": [10, 10, 0], "max_hp": 300}
    a2 = {**ARCHER, "id": "b", "at": [10, 8, 0], "max_hp": 300}
    tail = {"attack": 15, "damage": [1, 1]}
    evs = run_scene(tmp_path, capsys, [dragon, a1, a2], [
        {"actor": "d", "action": "end_turn"},
        {"actor": "a", "action": "end_turn", "rolls": tail},
        {"actor": "b", "action": "end_turn", "rolls": tail}])
    la = events(evs, "legendary_action", who="d")
    assert [(e["option"], e["cost"], e["points_left"], e["rule"]) for e in la] == [
        ("Tail Attack", 1, 2, "SRD-15"), ("Tail Attack", 1, 1, "SRD-15")]
    assert [e["weapon"] for e in events(evs, "attack", who="d")] == ["Tail", "Tail"]
    assert evs[-1]["characters"]["d"]["data"]["legendary_points"] == 3      # its turn began again: regained


def test_srd16_frightful_presence_save_frightened_and_immunity(tmp_path, capsys):
    """Adult red dragon, "Frightful Presence. Each creature of the dragon's choice that is within 120 feet of the
    dragon and aware of it must succeed on a DC 19 Wisdom saving throw or become frightened for 1 minute ... If a
    creature's saving throw is successful or the effect ends for it, the creature is immune to the dragon's
    Frightful Presence for the next 24 hours." Its Multiattack: "can use its Frightful Presence. It then makes three
    attacks" -- after it, a bite and two claws. The archer that failed repeats the save at the end of its turn (20):
    the fear ends; the next use affects neither (both immune), and not its ally."""
    dragon = {"id": "d", "srd": "adult-red-dragon", "side": "red", "at": [6, 9, 0]}
    ally = {"id": "k", "kind": "guard", "side": "red", "at": [4, 14, 0]}
    a1 = {**ARCHER, "at": [9, 10, 0], "max_hp": 300}
    a2 = {**ARCHER, "id": "b", "at": [18, 18, 0], "max_hp": 300}
    fp = {"actor": "d", "action": "creature_action", "feature": "Frightful Presence"}
    claw = {"attack": 15, "damage": [1, 1]}
    evs = run_scene(tmp_path, capsys, [dragon, a1, a2, ally], [
        {**fp, "rolls": {"save": [2, 20]}},
        {"actor": "d", "action": "attack", "target": "a", "weapon": "Bite",
         "rolls": {"attack": 15, "damage": [1, 1], "extra_damage": [1, 1]}},
        {"actor": "d", "action": "attack", "target": "a", "weapon": "Claw", "rolls": claw},
        {"actor": "d", "action": "attack", "target": "a", "weapon": "Claw", "rolls": claw},
        {"actor": "d", "action": "attack", "target": "a", "weapon": "Claw", "illegal": "DND-16"},
        {"actor": "d", "action": "end_turn"},
        {"actor": "a", "action": "end_turn", "rolls": {"save": 20}},
        {"actor": "b", "action": "end_turn"}, {"actor": "k", "action": "end_turn"},
        fp])
    first, second = events(evs, "creature_action", who="d")
    assert first["targets"] == ["a", "b"] and second["targets"] == []
    sv = [(e["who"], e["success"], e["dc"]) for e in events(evs, "save") if e.get("rule") in ("SRD-12", "DND-21")
          or e["who"] in ("a", "b")]
    assert sv[:2] == [("a", False, 19), ("b", True, 19)]
    assert events(evs, "condition", who="a", condition="frightened")
    assert not events(evs, "condition", who="b", condition="frightened")
    assert [e["weapon"] for e in events(evs, "attack", who="d")][:3] == ["Bite", "Claw", "Claw"]
    assert "frightened" not in evs[-1]["characters"]["a"]["conditions"]


def test_srd12_a_line_breath_catches_each_creature_on_the_line(tmp_path, capsys):
    """Adult blue dragon, "Lightning Breath. The dragon exhales lightning in a 90-foot line that is 5 feet wide.
    Each creature in that line must make a DC 19 Dexterity saving throw, taking 66 (12d10) lightning damage on a
    failed save, or half as much damage on a successful one." Aimed at the archer 12 cells away: the guard on the
    line is caught too, the archer beside it (4 cells off the line) is not."""
    dragon = {"id": "d", "srd": "adult-blue-dragon", "side": "red", "at": [2, 9, 0]}
    far = {**ARCHER, "at": [14, 10, 0], "max_hp": 300}
    mid = {"id": "g", "kind": "guard", "side": "blue", "at": [9, 10, 0], "max_hp": 300}
    off = {**ARCHER, "id": "o", "at": [9, 14, 0], "max_hp": 300}
    evs = run_scene(tmp_path, capsys, [dragon, far, mid, off], [
        {"actor": "d", "action": "creature_action", "feature": "Lightning Breath", "target": "a",
         "rolls": {"damage": [5] * 12, "save": [1, 20]}}])
    act = events(evs, "creature_action", who="d")[0]
    assert sorted(act["targets"]) == ["a", "g"], act
    dmg = {e["who"]: e["amount"] for e in events(evs, "damage")}
    assert sorted(dmg.values()) == [30, 60] and "o" not in dmg


@pytest.mark.parametrize("roll,found", [(20, True), (1, False)])
def test_srd17_detect_a_legendary_perception_check_finds_a_hidden_foe(tmp_path, capsys, roll, found):
    """Adult red dragon, "Detect. The dragon makes a Wisdom (Perception) check." The rogue hides behind a low wall
    (Stealth 8 + its bonus); at the end of its turn the dragon spends a legendary action on Detect (its policy: a foe
    is hidden from it): Perception +13 with a 20 finds it, with a 1 (14) it does not."""
    rogue = {"id": "r", "kind": "rogue", "side": "blue", "at": [10, 10, 0]}
    dragon = {"id": "d", "srd": "adult-red-dragon", "side": "red", "at": [9, 14, 0]}
    evs = run_scene(tmp_path, capsys, [rogue, dragon], [
        {"actor": "r", "action": "hide", "rolls": {"check": 8}},
        {"actor": "r", "action": "end_turn", "rolls": {"check": roll}}],
        fill=[("stone", (6, 11, 0), (14, 11, 0))])
    la = events(evs, "legendary_action", who="d", option="Detect")
    assert [(e["cost"], e["points_left"]) for e in la] == [(1, 2)]
    chk = [e for e in events(evs, "check", who="d") if e.get("rule") == "SRD-17"]
    assert len(chk) == 1
    assert bool(events(evs, "revealed", who="r", by="d")) is found


def test_srd18_death_burst_when_the_mephit_dies(tmp_path, capsys):
    """Ice mephit, "Death Burst. When the mephit dies, it explodes in a burst of jagged ice. Each creature within
    5 ft. of it must make a DC 10 Dexterity saving throw, taking 4 (1d8) slashing damage on a failed save, or half as
    much damage on a successful one." The archer beside it kills it (a 1 HP mephit): it fails (6 damage); its ally
    beside the mephit saves (3); the archer 6 cells away is not caught."""
    mephit = {"id": "m", "srd": "ice-mephit", "side": "red", "at": [10, 11, 0], "max_hp": 1}
    near = {**ARCHER, "max_hp": 300}
    side = {**ARCHER, "id": "n", "at": [11, 11, 0], "max_hp": 300}
    far = {**ARCHER, "id": "f", "at": [10, 17, 0], "max_hp": 300}
    evs = run_scene(tmp_path, capsys, [near, side, far, mephit], [
        {"actor": "a", "action": "attack", "target": "m", "weapon": "shortsword",
         "rolls": {"attack": 18, "damage": [4, 6], "save": [1, 20]}}],
        options={"false_appearance": False})        # its False Appearance (SRD-100) would keep it from the archer
    assert events(evs, "death", who="m")
    burst = events(evs, "death_burst", who="m")[0]
    assert sorted(burst["targets"]) == ["a", "n"] and burst["rule"] == "SRD-18"
    assert {e["who"]: e["amount"] for e in events(evs, "damage") if e.get("rule") == "SRD-18"} == {"a": 6, "n": 3}


def test_srd19_a_hit_that_grapples_restrains_until_an_escape(tmp_path, capsys):
    """Roc, "Talons ... Hit: 23 (4d6 + 9) slashing damage, and the target is grappled (escape DC 19). Until this
    grapple ends, the target is restrained, and the roc can't use its talons on another target." The archer is
    grappled and restrained; the talons at the other archer are refused (SRD-19); an escape check of 4 fails against
    DC 19, one of 23 succeeds and the restraint ends with the grapple."""
    roc = {"id": "r", "srd": "roc", "side": "red", "at": [6, 8, 0]}
    a1 = {**ARCHER, "at": [10, 9, 0], "max_hp": 300}
    a2 = {**ARCHER, "id": "b", "at": [10, 11, 0], "max_hp": 300}
    talons = {"actor": "r", "action": "attack", "weapon": "Talons"}
    evs = run_scene(tmp_path, capsys, [roc, a1, a2], [
        {**talons, "target": "a", "rolls": {"attack": 20, "damage": [1, 1, 1, 1]}},
        {"actor": "r", "action": "end_turn"},
        {"actor": "a", "action": "escape", "rolls": {"check": 1}},
        {"actor": "a", "action": "end_turn"}, {"actor": "b", "action": "end_turn"},
        {**talons, "target": "b", "illegal": "SRD-19"},
        {"actor": "r", "action": "end_turn"},
        {"actor": "a", "action": "escape", "rolls": {"check": 20}}])
    assert events(evs, "grapple", who="r", target="a", rule="SRD-19")
    assert events(evs, "condition", who="a", condition="restrained")
    esc = events(evs, "escape", who="a")
    assert [(e["against"], e["success"], e["rule"]) for e in esc] == [(19, False, "SRD-19"), (19, True, "SRD-19")]
    st = evs[-1]["characters"]["a"]
    assert "grappled" not in st["conditions"] and "restrained" not in st["conditions"]


def test_srd12_the_metallic_breath_weapons_share_one_recharge(tmp_path, capsys):
    """Young silver dragon, "Breath Weapons (Recharge 5-6). The dragon uses one of the following breath weapons.
    Cold Breath. ... Paralyzing Breath. The dragon exhales paralyzing gas in a 30-foot cone. Each creature in that
    area must succeed on a DC 17 Constitution saving throw or be paralyzed for 1 minute. A creature can repeat the
    saving throw at the end of each of its turns": the archer is paralyzed and stays so after a failed repeat; a 4
    at the start of the dragon's turn leaves both breaths spent (one die for the two), Cold Breath is refused."""
    dragon = {"id": "d", "srd": "young-silver-dragon", "side": "red", "at": [4, 9, 0]}
    archer = {**ARCHER, "at": [8, 9, 0], "max_hp": 300}
    evs = run_scene(tmp_path, capsys, [dragon, archer], [
        {"actor": "d", "action": "creature_action", "feature": "Paralyzing Breath", "target": "a",
         "rolls": {"save": 1}},
        {"actor": "d", "action": "end_turn", "rolls": {"save": 1, "recharge": 4}},      # the paralyzed archer's turn
        {"actor": "d", "action": "creature_action", "feature": "Cold Breath", "target": "a", "illegal": "SRD-05"}])
    assert events(evs, "creature_action", who="d", feature="Paralyzing Breath")[0]["targets"] == ["a"]
    assert events(evs, "condition", who="a", condition="paralyzed")
    assert "paralyzed" in evs[-1]["characters"]["a"]["conditions"]
    rc = events(evs, "recharge", who="d")
    assert [(e["feature"], e["roll"], e["recharged"]) for e in rc] == [("Breath Weapons", 4, False)]
