"""The SRD creatures' auras and riders' gifts (SRD-39 Fear Aura, SRD-40 Confer Fire Resistance), each played through
``aerie run`` (``engine.cli.main``) with forced dice on a scene written here, the events read from ``--json``."""

from __future__ import annotations

import pytest

from engine.compendium import creatures
from engine.rules.dnd5e import srd_features
from test_srd_traits2 import ARCHER, events, run_scene

pytestmark = pytest.mark.unit


def test_srd39_fear_aura(tmp_path, capsys):
    """Pit fiend, "Any creature hostile to the pit fiend that starts its turn within 20 feet of the pit fiend must
    make a DC 21 Wisdom saving throw ... On a failed save, the creature is frightened until the start of its next
    turn. If a creature's saving throw is successful, the creature is immune": the archer beside it fails (3), is
    frightened, the fear ends as its next turn starts and it saves (20): immune, no third save; the archer 18 m away
    never saves."""
    fiend = {"id": "p", "srd": "pit-fiend", "side": "red", "at": [5, 5, 0], "initiative": 20}
    near = {**ARCHER, "at": [8, 6, 0], "initiative": 10}
    far = {**ARCHER, "id": "f", "at": [18, 18, 0], "initiative": 5}
    end = [{"actor": x, "action": "end_turn"} for x in ("a", "f")]
    evs = run_scene(tmp_path, capsys, [fiend, near, far], [
        {"actor": "p", "action": "end_turn", "rolls": {"save": [3]}}, *end,
        {"actor": "p", "action": "end_turn", "rolls": {"save": [20]}}, *end,
        {"actor": "p", "action": "end_turn"}])
    saves = [(e["who"], e["success"]) for e in events(evs, "save", rule="SRD-39")]
    assert saves == [("a", False), ("a", True)]
    fear = [(e["who"], e["added"]) for e in events(evs, "condition", condition="frightened")]
    assert fear == [("a", True), ("a", False)]
    assert [e["who"] for e in events(evs, "fear_aura", immune=True)] == ["a"]
    assert "frightened" not in evs[-1]["characters"]["a"]["conditions"]


def test_srd39_fear_aura_not_while_incapacitated(tmp_path, capsys):
    """"... unless the pit fiend is incapacitated": stunned, its aura asks no save."""
    fiend = {"id": "p", "srd": "pit-fiend", "side": "red", "at": [5, 5, 0], "initiative": 20}
    near = {**ARCHER, "at": [8, 6, 0], "initiative": 10}
    evs = run_scene(tmp_path, capsys, [fiend, near], [
        {"actor": "gm", "action": "condition", "target": "p", "add": "stunned"},
        {"actor": "p", "action": "end_turn", "rolls": {"save": [3]}}])
    assert not events(evs, "save", rule="SRD-39")


def test_srd40_confer_fire_resistance(tmp_path, capsys):
    """Nightmare, "The nightmare can grant resistance to fire damage to anyone riding it": 20 fire on its rider is
    10, on the archer afoot 20; 20 cold on the rider stays 20."""
    mare = {"id": "n", "srd": "nightmare", "side": "blue", "at": [5, 5, 0], "controlled_mount": True}
    rider = {**ARCHER, "id": "r", "at": [5, 5, 0], "mount": "n", "max_hp": 100}
    afoot = {**ARCHER, "max_hp": 100}
    gm = {"actor": "gm", "action": "damage", "amount": 20}
    evs = run_scene(tmp_path, capsys, [mare, rider, afoot], [
        {**gm, "target": "r", "type": "fire"}, {**gm, "target": "a", "type": "fire"},
        {**gm, "target": "r", "type": "cold"}])
    dmg = [(e["who"], e["damage_type"], e["amount"]) for e in events(evs, "damage")]
    assert dmg == [("r", "fire", 10), ("a", "fire", 20), ("r", "cold", 20)]


def test_srd03_hellish_weapons_are_magical(tmp_path, capsys):
    """Erinyes, "Hellish Weapons. The erinyes's weapon attacks are magical and deal an extra 13 (3d8) poison damage on
    a hit (included in the attacks)": its longsword's slashing passes the vrock's resistance to nonmagical weapons
    (4 + 4 = 8, not 4); the vrock is immune to the poison."""
    eri = {"id": "e", "srd": "erinyes", "side": "blue", "at": [10, 10, 0]}
    vrock = {"id": "v", "srd": "vrock", "side": "red", "at": [11, 10, 0]}
    evs = run_scene(tmp_path, capsys, [eri, vrock], [
        {"actor": "e", "action": "attack", "target": "v", "weapon": "Longsword",
         "rolls": {"attack": 18, "damage": [4, 1, 1, 1]}}])
    dmg = [(e["damage_type"], e["amount"]) for e in events(evs, "damage", who="v")]
    assert dmg[0] == ("slashing", 8)
    assert all(amount == 0 for t, amount in dmg if t == "poison")


def test_srd42_tail_spikes_run_out(tmp_path, capsys):
    """Manticore, "The manticore has twenty-four tail spikes": the block gives it 24; with 2 left (the scene's
    count), its multiattack "three with its tail spikes" throws two and the third is refused (SRD-42)."""
    rec = next(c for c in creatures.load() if c["id"] == "manticore")
    assert srd_features.character_keys(rec)["srd_features"]["spikes"] == {"weapon": "Tail Spike", "count": 24}
    man = {"id": "m", "srd": "manticore", "side": "red", "at": [2, 2, 0],
           "srd_features": {"spikes": {"weapon": "Tail Spike", "count": 2}}}
    far = {**ARCHER, "at": [12, 12, 0], "max_hp": 200}
    throw = {"actor": "m", "action": "attack", "target": "a", "weapon": "Tail Spike"}
    evs = run_scene(tmp_path, capsys, [man, far], [
        {**throw, "rolls": {"attack": 18, "damage": [3]}}, {**throw, "rolls": {"attack": 2}},
        {**throw, "illegal": "SRD-42"}])
    assert len(events(evs, "attack", who="m")) == 2
