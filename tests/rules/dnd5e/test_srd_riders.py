"""What the SRD flyers' hits add after the damage (rule IDs SRD-46, SRD-47, SRD-59, SRD-60, issue 44), each
played through ``aerie run`` (``engine.cli.main``) with forced dice on a scene written here, the events read from
``--json``."""

from __future__ import annotations


import pytest

from engine.cli import main
from rules_helpers import events, run_scene, scene_text, tables

pytestmark = pytest.mark.unit




def refused(tmp_path, capsys, chars, script) -> str:
    p = tmp_path / "scene.toml"
    p.write_text(scene_text(chars, size=(20, 20, 12)) + tables("script", script))
    assert main(["run", str(p)]) == 2
    return capsys.readouterr().err



ARCHER = {"id": "a", "kind": "archer", "side": "blue", "at": [10, 10, 0], "max_hp": 300}
CLERIC = {"id": "c", "kind": "priest", "side": "blue", "at": [11, 10, 0], "max_hp": 300}


def test_srd46_the_horned_devils_tail_opens_an_infernal_wound_that_grows_and_is_stanched(tmp_path, capsys):
    """Horned devil, "Tail. ... Hit: 10 (1d8 + 6) piercing damage. If the target is a creature other than an undead
    or a construct, it must succeed on a DC 17 Constitution saving throw or lose 10 (3d6) hit points at the start of
    each of its turns due to an infernal wound. Each time the devil hits the wounded target with this attack, the
    damage dealt by the wound increases by 10 (3d6). Any creature can take an action to stanch the wound with a
    successful DC 12 Wisdom (Medicine) check." The archer fails the save (wounded), the next Tail hit asks no save and
    adds 3d6: its turns start losing 3d6, then 6d6 (1 each); the priest beside it stanches the wound (Medicine 20): the archer's
    next turn starts without a loss."""
    devil = {"id": "d", "srd": "horned-devil", "side": "red", "at": [7, 10, 0]}
    tail = {"actor": "d", "action": "attack", "target": "a", "weapon": "Tail"}
    evs = run_scene(tmp_path, capsys, [devil, ARCHER, CLERIC], [
        {**tail, "rolls": {"attack": 19, "damage": [1], "save": 1}},
        {"actor": "d", "action": "end_turn", "rolls": {"wound": [1] * 3}},
        {"actor": "a", "action": "end_turn"},
        {"actor": "c", "action": "end_turn"},
        {**tail, "rolls": {"attack": 19, "damage": [1]}},
        {"actor": "d", "action": "end_turn", "rolls": {"wound": [1] * 6}},
        {"actor": "a", "action": "end_turn"},
        {"actor": "c", "action": "stanch", "target": "a", "rolls": {"check": 20}},
        {"actor": "c", "action": "end_turn"},
        {"actor": "d", "action": "end_turn"}])
    assert len(events(evs, "save", who="a")) == 1
    assert [e.get("grows", False) for e in events(evs, "wounded", who="a", rule="SRD-46")] == [False, True]
    assert [(e["amount"], e["rule"]) for e in events(evs, "damage", who="a")] == [(7, "DND-16"), (3, "SRD-46"),
                                                                                 (7, "DND-16"), (6, "SRD-46")]
    assert events(evs, "stanch", who="c", success=True) and events(evs, "wound_closes", who="a")
    assert evs[-1]["characters"]["a"]["hp"] == 300 - 23


def test_srd46_magical_healing_closes_the_wound_an_undead_is_spared_stanch_refused(tmp_path, capsys):
    """"The wound also closes if the target receives magical healing." The cleric's cure wounds closes it; "other
    than an undead or a construct": a zombie hit asks no save and bears no wound; stanching the unwounded is refused
    (SRD-46 named)."""
    devil = {"id": "d", "srd": "horned-devil", "side": "red", "at": [7, 10, 0]}
    zombie = {"id": "z", "srd": "zombie", "side": "blue", "at": [4, 10, 0]}
    devil2 = {**devil, "id": "e", "at": [2, 10, 0]}
    evs = run_scene(tmp_path, capsys, [devil, ARCHER, CLERIC, zombie, devil2], [
        {"actor": "d", "action": "attack", "target": "a", "weapon": "Tail",
         "rolls": {"attack": 19, "damage": [1], "save": 1}},
        {"actor": "d", "action": "end_turn", "rolls": {"wound": [2, 2, 2]}},
        {"actor": "a", "action": "end_turn"},
        {"actor": "c", "action": "cast", "spell": "cure_wounds", "target": "a", "rolls": {"heal": 1}},
        {"actor": "c", "action": "end_turn"},
        {"actor": "z", "action": "end_turn"},
        {"actor": "e", "action": "attack", "target": "z", "weapon": "Tail", "rolls": {"attack": 19, "damage": [1]}},
        {"actor": "e", "action": "end_turn"},
        {"actor": "d", "action": "end_turn"}])
    assert not events(evs, "save", who="z") and not events(evs, "wounded", who="z")
    assert events(evs, "wound_closes", who="a", rule="SRD-46")
    assert [e["rule"] for e in events(evs, "damage", who="a")] == ["DND-16", "SRD-46"]
    err = refused(tmp_path, capsys, [ARCHER, CLERIC], [{"actor": "a", "action": "stanch", "target": "c"}])
    assert "SRD-46" in err


@pytest.mark.parametrize("second,petrified", [(1, True), (20, False)])
def test_srd47_the_cockatrices_bite_turns_to_stone(tmp_path, capsys, second, petrified):
    """Cockatrice, "Bite. ... the target must succeed on a DC 11 Constitution saving throw against being magically
    petrified. On a failed save, the creature begins to turn to stone and is restrained. It must repeat the saving
    throw at the end of its next turn. On a success, the effect ends. On a failure, the creature is petrified for 24
    hours." The archer fails (restrained); the end of the cockatrice's turn asks nothing; at the end of the archer's
    next turn it saves again: a failure petrifies it, a success frees it."""
    cock = {"id": "k", "srd": "cockatrice", "side": "red", "at": [9, 10, 0]}
    evs = run_scene(tmp_path, capsys, [cock, ARCHER], [
        {"actor": "k", "action": "attack", "target": "a", "weapon": "Bite",
         "rolls": {"attack": 19, "damage": [1], "save": 1}},
        {"actor": "k", "action": "end_turn"},
        {"actor": "a", "action": "end_turn", "rolls": {"save": second}}])
    assert events(evs, "petrifying", who="a", rule="SRD-47")
    assert [e["rule"] for e in events(evs, "save", who="a")] == ["SRD-13", "SRD-47"]
    conds = evs[-1]["characters"]["a"]["conditions"]
    assert ("petrified" in conds) is petrified and "restrained" not in conds


def test_srd59_consume_life_kills_a_dying_creature_and_heals_the_wisp(tmp_path, capsys):
    """Will-o'-wisp, "Consume Life. As a bonus action, the will-o'-wisp can target one creature it can see within 5
    ft. of it that has 0 hit points and is still alive. The target must succeed on a DC 10 Constitution saving throw
    against this magic or die. If the target dies, the will-o'-wisp regains 10 (3d6) hit points." The archer lies
    dying at 0 HP beside the hurt wisp: it fails the save and dies, the wisp regains 3d6 (2 each); the archer standing
    at full hit points is refused (SRD-59 named)."""
    wisp = {"id": "w", "srd": "will-o-wisp", "side": "red", "at": [9, 10, 0], "hp": 10}
    dying = {**ARCHER, "hp": 0, "max_hp": 22}
    evs = run_scene(tmp_path, capsys, [wisp, dying], [
        {"actor": "w", "action": "consume_life", "target": "a", "rolls": {"save": 1, "heal": [2, 2, 2]}}])
    assert events(evs, "consume_life", who="w", target="a", rule="SRD-59")
    assert events(evs, "death", who="a", rule="SRD-59") and events(evs, "heal", who="w", amount=6, rule="SRD-59")
    assert evs[-1]["characters"]["w"]["hp"] == 16
    assert "SRD-59" in refused(tmp_path, capsys, [wisp, ARCHER], [{"actor": "w", "action": "consume_life",
                                                                   "target": "a"}])


def test_srd60_consume_life_ends_the_wisps_invisibility(tmp_path, capsys):
    """"The will-o'-wisp and its light magically become invisible until it attacks or uses its Consume Life": the wisp
    turns invisible (SRD-34), then consumes a dying archer's life; the archer saves, yet the invisibility ends."""
    wisp = {"id": "w", "srd": "will-o-wisp", "side": "red", "at": [9, 10, 0]}
    dying = {**ARCHER, "hp": 0, "max_hp": 22}
    evs = run_scene(tmp_path, capsys, [wisp, dying, {**CLERIC, "at": [15, 15, 0]}], [
        {"actor": "w", "action": "trait_action", "feature": "Invisibility"},
        {"actor": "w", "action": "consume_life", "target": "a", "rolls": {"save": 20}}])
    assert not events(evs, "death", who="a")
    assert events(evs, "condition", who="w", condition="invisible", added=False)
    assert "invisible" not in evs[-1]["characters"]["w"]["conditions"]
