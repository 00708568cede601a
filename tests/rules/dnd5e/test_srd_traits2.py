"""The SRD flyers' traits and non-attack actions (SRD-30..SRD-36), each played through ``aerie run``
(``engine.cli.main``) with forced dice on a scene written here, the events read from ``--json``."""

from __future__ import annotations


import pytest

from engine.cli import main
import rules_helpers
from rules_helpers import events, scene_text, tables

pytestmark = pytest.mark.unit




def run_scene(tmp_path, capsys, chars, script, size=(20, 20, 16), **kw) -> list[dict]:
    """rules_helpers.run_scene on a map 16 layers high (the roc climbs to layer 8 and higher)."""
    return rules_helpers.run_scene(tmp_path, capsys, chars, script, size=size, **kw)


ARCHER = {"id": "a", "kind": "archer", "side": "blue", "at": [10, 10, 0]}


def test_srd30_a_roc_carries_a_grappled_walker_aloft_and_drops_it_from_layer_8(tmp_path, capsys):
    """Roc, "Talons ... the target is grappled (escape DC 19)": the roc flies up (two turns, at its fly speed) with
    the archer held under it (a Medium creature, four sizes smaller: carried); at layer 8 it lets go and the archer falls by AIR-12 -- 8 layers,
    35% of its 100 HP -- and lands Prone."""
    roc = {"id": "r", "srd": "roc", "side": "red", "at": [6, 8, 0]}
    archer = {**ARCHER, "at": [10, 9, 0], "max_hp": 100}
    evs = run_scene(tmp_path, capsys, [roc, archer], [
        {"actor": "r", "action": "attack", "target": "a", "weapon": "Talons",
         "rolls": {"attack": 15, "damage": [1, 1, 1, 1]}},
        {"actor": "r", "action": "move", "to": [6, 8, 4]},
        {"actor": "r", "action": "end_turn"}, {"actor": "a", "action": "end_turn"},
        {"actor": "r", "action": "move", "to": [6, 8, 10]},
        {"actor": "r", "action": "let_go", "target": "a"}], size=(20, 20, 24), options={"air_speed": "fly_speed"})
    carried = events(evs, "carried", who="a", by="r", rule="SRD-30")
    assert carried and carried[-1]["aloft"]
    at = carried[-1]["to"]
    assert at[2] == 8
    assert events(evs, "let_go", who="r", target="a", rule="SRD-30")
    fall = events(evs, "fall", who="a")
    assert [(f["from"], f["to"], f["percent"], f["damage"]) for f in fall] == [(8, 0, 35, 35)]
    st = evs[-1]["characters"]["a"]
    assert "prone" in st["conditions"] and "grappled" not in st["conditions"]


WALL = [("stone", (8, 0, 0), (8, 19, 7))]


def test_srd31_incorporeal_movement_through_a_wall_as_difficult_terrain(tmp_path, capsys):
    """Ghost, "can move through other creatures and objects as if they were difficult terrain. It takes 5 (1d10)
    force damage if it ends its turn inside an object": it flies through a wall 8 layers high, the wall's cell costing
    3 m (1.5 m twice); it ends its next turn inside the wall and takes the forced 7 force
    damage. The same move by a ghost without the trait is refused."""
    ghost = {"id": "g", "srd": "ghost", "side": "red", "at": [6, 10, 0]}
    archer = {**ARCHER, "at": [12, 10, 0]}
    evs = run_scene(tmp_path, capsys, [ghost, archer], [
        {"actor": "g", "action": "move", "to": [9, 10, 0]},
        {"actor": "g", "action": "end_turn"}, {"actor": "a", "action": "end_turn"},
        {"actor": "g", "action": "move", "to": [8, 10, 0]},
        {"actor": "g", "action": "end_turn", "rolls": {"damage": 7}}],
        fill=WALL, options={"air_speed": "fly_speed"})
    mv = events(evs, "move", who="g")
    assert [c[0] for c in mv[0]["path"]] == [6, 7, 8, 9] and mv[0]["cost_m"] == 6.0      # 1.5 + 3 + 1.5
    assert mv[1]["path"] == [[9, 10, 0], [8, 10, 0]] and mv[1]["cost_m"] == 3.0
    dmg = events(evs, "damage", who="g", rule="SRD-31")
    assert [(e["amount"], e["damage_type"]) for e in dmg] == [(7, "force")]
    plain = {**ghost, "srd_features": {}}
    p = tmp_path / "plain.toml"
    p.write_text(scene_text([plain, archer], size=(20, 20, 16), fill=WALL, options={"air_speed": "fly_speed"})
                 + tables("script", [{"actor": "g", "action": "move", "to": [9, 10, 0], "illegal": "AIR-07"}]))
    assert main(["run", str(p)]) == 0, capsys.readouterr().out


def test_srd31_incorporeal_movement_through_a_creature(tmp_path, capsys):
    """Will-o'-wisp (Tiny): in a corridor one cell wide a hostile archer stands in the way; the wisp passes through
    its body (its cell costing 3 m) and stops beyond it -- it may not stop inside it."""
    walls = [("stone", (0, 9, 0), (19, 9, 7)), ("stone", (0, 11, 0), (19, 11, 7))]
    wisp = {"id": "w", "srd": "will-o-wisp", "side": "red", "at": [4, 10, 0]}
    archer = {**ARCHER, "at": [6, 10, 0]}
    evs = run_scene(tmp_path, capsys, [wisp, archer], [
        {"actor": "w", "action": "move", "to": [6, 10, 0], "illegal": "DND-11"},
        {"actor": "w", "action": "move", "to": [7, 10, 0]}], fill=walls, options={"air_speed": "fly_speed"},
        size=(20, 20, 8))
    mv = events(evs, "move", who="w")
    assert mv[0]["path"] == [[4, 10, 0], [5, 10, 0], [6, 10, 0], [7, 10, 0]] and mv[0]["cost_m"] == 6.0


def test_srd32_regeneration_and_radiant_damage_stopping_it(tmp_path, capsys):
    """Oni, "regains 10 hit points at the start of its turn if it has at least 1 hit point"; the vampire's
    "If the vampire takes radiant damage ..., this trait doesn't function at the start of the vampire's next turn":
    the oni hurt for 30 regains 10 when its next turn starts; the vampire hurt by radiant damage does not regenerate
    at its next turn, and does (20) at the one after."""
    oni = {"id": "o", "srd": "oni", "side": "red", "at": [4, 4, 0]}
    vamp = {"id": "v", "srd": "vampire-bat", "side": "red", "at": [8, 4, 0]}
    archer = {**ARCHER, "at": [15, 15, 0]}
    gm = {"actor": "gm", "action": "damage"}
    evs = run_scene(tmp_path, capsys, [oni, vamp, archer], [
        {**gm, "target": "o", "amount": 30, "type": "slashing"},
        {**gm, "target": "v", "amount": 30, "type": "radiant"},
        {"actor": "o", "action": "end_turn"},            # the vampire's turn: stopped by the radiant damage
        {"actor": "v", "action": "end_turn"}, {"actor": "a", "action": "end_turn"},     # the oni's turn: +10
        {"actor": "o", "action": "end_turn"}])           # the vampire's next turn: +20
    heals = [(e["who"], e["amount"]) for e in events(evs, "heal", rule="SRD-32")]
    assert heals == [("o", 10), ("v", 20)]
    assert events(evs, "regeneration", who="v", rule="SRD-32")[0]["stopped"] == "it took radiant damage"


def test_srd33_teleport_to_a_space_it_can_see(tmp_path, capsys):
    """Balor, "magically teleports ... up to 120 feet to an unoccupied space it can see": into the air 30 m away (it
    flies there); a space 40 m away, one behind a wall and one in the archer's body are refused."""
    balor = {"id": "b", "srd": "balor", "side": "red", "at": [2, 2, 0]}
    archer = {**ARCHER, "at": [12, 2, 0]}
    big = (40, 40, 16)
    wall = [("stone", (16, 0, 0), (16, 39, 15))]
    tp = {"actor": "b", "action": "trait_action", "feature": "Teleport"}
    evs = run_scene(tmp_path, capsys, [balor, archer], [
        {**tp, "at": [30, 2, 0], "illegal": "SRD-33"},
        {**tp, "at": [20, 2, 0], "illegal": "SRD-33"},
        {**tp, "at": [11, 2, 0], "illegal": "SRD-33"},
        {**tp, "at": [2, 20, 6]}], size=big, fill=wall)
    tpe = events(evs, "teleport", who="b", rule="SRD-33")
    assert [(e["from"], e["to"]) for e in tpe] == [([2, 2, 0], [2, 20, 6])]
    assert evs[-1]["characters"]["b"]["flying"] is True


def test_srd34_invisibility_until_it_attacks(tmp_path, capsys):
    """Imp, "magically turns invisible until it attacks, or until its concentration ends": invisible, its sting at
    the archer has advantage (unseen attacker); after the attack it is visible again. The invisible stalker: "The
    stalker is invisible." from the start."""
    imp = {"id": "i", "srd": "imp", "side": "red", "at": [9, 10, 0]}
    stalker = {"id": "s", "srd": "invisible-stalker", "side": "red", "at": [2, 2, 0]}
    evs = run_scene(tmp_path, capsys, [imp, ARCHER, stalker], [
        {"actor": "i", "action": "trait_action", "feature": "Invisibility"},
        {"actor": "i", "action": "end_turn"}, {"actor": "a", "action": "end_turn"}, {"actor": "s", "action": "end_turn"},
        {"actor": "i", "action": "attack", "target": "a", "weapon": "Sting (Bite in Beast Form)",
         "rolls": {"attack": [3, 17]}}])
    assert events(evs, "condition", who="i", condition="invisible")
    att = events(evs, "attack", who="i")[0]
    assert att["advantage"] and att["roll"] == 17
    ends = events(evs, "concentration_ends", who="i", rule="SRD-34")
    assert ends and "invisible" not in evs[-1]["characters"]["i"]["conditions"]
    assert "invisible" in evs[-1]["characters"]["s"]["conditions"]


def test_srd35_healing_touch(tmp_path, capsys):
    """Deva, "touches another creature. The target magically regains 20 (4d8 + 2) hit points and is freed from any
    curse, disease, poison, blindness, or deafness." (3/Day): the poisoned, hurt ally regains 4 x 3 + 2 = 14 and is
    no longer poisoned; a creature 3 m away is out of touch; the fourth use of the day is refused."""
    deva = {"id": "d", "srd": "deva", "side": "red", "at": [5, 5, 0]}
    ally = {**ARCHER, "id": "x", "side": "red", "at": [6, 5, 0], "max_hp": 60, "hp": 20}
    far = {**ARCHER, "id": "f", "side": "red", "at": [8, 5, 0]}
    foe = {**ARCHER, "at": [15, 15, 0]}
    ht = {"actor": "d", "action": "trait_action", "feature": "Healing Touch"}
    nxt = [{"actor": "d", "action": "end_turn"}, {"actor": "x", "action": "end_turn"},
           {"actor": "f", "action": "end_turn"}, {"actor": "a", "action": "end_turn"}]
    evs = run_scene(tmp_path, capsys, [deva, ally, far, foe], [
        {"actor": "gm", "action": "condition", "target": "x", "add": "poisoned"},
        {**ht, "target": "f", "illegal": "SRD-35"},
        {**ht, "target": "x", "rolls": {"heal": [3, 3, 3, 3]}}, *nxt,
        {**ht, "target": "x", "rolls": {"heal": [1, 1, 1, 1]}}, *nxt,
        {**ht, "target": "x", "rolls": {"heal": [1, 1, 1, 1]}}, *nxt,
        {**ht, "target": "x", "illegal": "SRD-35"}])
    heals = events(evs, "heal", who="x", rule="SRD-35")
    assert [e["amount"] for e in heals] == [14, 6, 6]
    assert "poisoned" not in evs[-1]["characters"]["x"]["conditions"]


def test_srd36_fire_aura(tmp_path, capsys):
    """Balor, "At the start of each of the balor's turns, each creature within 5 feet of it takes 10 (3d6) fire
    damage ... A creature that ... hits it with a melee attack while within 5 feet of it takes 10 (3d6) fire
    damage": the archer beside it burns for 2 + 3 + 4 when the balor's turn starts; its dagger hit burns it for
    1 + 1 + 1; the archer 6 m away is not touched."""
    balor = {"id": "b", "srd": "balor", "side": "red", "at": [5, 5, 0], "initiative": 1}
    near = {**ARCHER, "at": [8, 6, 0], "max_hp": 100, "weapons": ["dagger"], "initiative": 20}
    far = {**ARCHER, "id": "f", "at": [15, 15, 0], "initiative": 10}
    evs = run_scene(tmp_path, capsys, [balor, near, far], [
        {"actor": "a", "action": "attack", "target": "b", "weapon": "dagger",
         "rolls": {"attack": 19, "damage": [2, 1, 1, 1]}},
        {"actor": "a", "action": "end_turn"},
        {"actor": "f", "action": "end_turn", "rolls": {"damage": [2, 3, 4]}}])
    burns = [(e["amount"], e["damage_type"]) for e in events(evs, "damage", who="a", rule="SRD-36")]
    assert burns == [(3, "fire"), (9, "fire")]
    assert not events(evs, "damage", who="f")


def test_srd37_shapechanger_without_wings_falls_and_change_shape_reverts_at_death(tmp_path, capsys):
    """Succubus, "polymorph into a Small or Medium humanoid, or back into its true form. Without wings, the fiend
    loses its flying speed": aloft at layer 6 it becomes a Medium humanoid and falls (AIR-10, AIR-12); back in its
    true form it flies again. Oni, "polymorphs into a Small or Medium humanoid, into a Large giant ... If the oni dies,
    it reverts to its true form": Small (one cell, one layer), then Large again when it dies."""
    succ = {"id": "s", "srd": "succubus-incubus", "side": "red", "at": [4, 4, 6], "flying": True}
    oni = {"id": "o", "srd": "oni", "side": "red", "at": [10, 4, 0]}
    archer = {**ARCHER, "at": [15, 15, 0]}
    shape = {"actor": "s", "action": "trait_action", "feature": "Shapechanger"}
    evs = run_scene(tmp_path, capsys, [succ, oni, archer], [
        {**shape, "form": "huge", "illegal": "SRD-37"},
        {**shape, "form": "medium"},
        {"actor": "s", "action": "end_turn"},
        {"actor": "o", "action": "trait_action", "feature": "Change Shape", "form": "small"},
        {"actor": "gm", "action": "damage", "target": "o", "amount": 500, "type": "force"},
        {"actor": "o", "action": "end_turn"}, {"actor": "a", "action": "end_turn"},
        {**shape, "form": "true"}], options={"air_speed": "fly_speed"})
    shapes = [(e["who"], e["form"], e["size"], e["can_fly"]) for e in events(evs, "shape", rule="SRD-37")]
    assert shapes == [("s", "medium", "medium", False), ("o", "small", "small", True), ("o", "true", "large", True),
                      ("s", "true", "medium", True)]
    assert [(e["from"], e["to"]) for e in events(evs, "fall", who="s")] == [(6, 0)]
    st = evs[-1]["characters"]
    assert st["s"]["can_fly"] is True and st["o"]["footprint"] == 2


def test_srd33_srd38_legendary_teleport_and_move_get_away(tmp_path, capsys):
    """Solar, legendary "Teleport. The solar magically teleports ... up to 120 ft. to an unoccupied space it can
    see."; the vampire's "Move. The vampire moves up to its speed without provoking opportunity attacks.": hurt to half
    their hit points with an archer beside each, at the end of the archers' turn they get away (the policy: the place
    in reach farthest from the nearest foe), the vampire with no opportunity attack; unhurt, they stay."""
    solar = {"id": "s", "srd": "solar", "side": "red", "at": [4, 4, 0]}
    vamp = {"id": "v", "srd": "vampire-bat", "side": "red", "at": [14, 14, 0]}
    a1 = {**ARCHER, "at": [6, 4, 0], "weapons": ["dagger"], "max_hp": 200}
    a2 = {**ARCHER, "id": "b", "at": [15, 14, 0], "weapons": ["dagger"], "max_hp": 200}
    evs = run_scene(tmp_path, capsys, [a1, a2, solar, vamp], [
        {"actor": "a", "action": "end_turn"},                 # unhurt: no legendary escape
        {"actor": "gm", "action": "damage", "target": "s", "amount": 130, "type": "force"},
        {"actor": "gm", "action": "damage", "target": "v", "amount": 80, "type": "force"},
        {"actor": "b", "action": "end_turn"}], size=(30, 30, 12))
    leg = [(e["who"], e["option"]) for e in events(evs, "legendary_action")]
    assert ("s", "Teleport") not in leg[:-2] and ("v", "Move") not in leg[:-2]      # unhurt: they fight
    assert leg[-2:] == [("s", "Teleport"), ("v", "Move")]
    tp = events(evs, "teleport", who="s", rule="SRD-33")[0]
    assert tp["from"] == [4, 4, 0] and tp["to"] != [4, 4, 0]
    mv = events(evs, "move", who="v")[0]
    assert mv["from"] == [14, 14, 0] and not events(evs, "opportunity_attack")
    st = evs[-1]["characters"]
    assert st["s"]["position"] == tp["to"] and st["v"]["position"] == mv["to"]
