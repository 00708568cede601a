"""The flyers' traits about breathing and light (SRD-81..SRD-86), each played through ``aerie run`` with forced dice
on a scene written here, the events read from ``--json`` (helpers: test_srd_mechanics.py)."""

from __future__ import annotations

import pytest

from test_srd_mechanics import events, run_scene  # noqa: F401  (the shared scene runner)

pytestmark = pytest.mark.unit

#: a Con 1 character (modifier -5): it holds its breath 30 seconds (5 rounds) and survives 1 round more
DIVER = {"id": "a", "kind": "archer", "side": "blue", "at": [10, 10, 0], "pc": True, "abilities": {"con": 1},
         "underwater": True}
FOE = {"id": "b", "kind": "archer", "side": "red", "at": [2, 2, 0]}


def rounds(n, *ids) -> list[dict]:
    return [{"actor": i, "action": "end_turn"} for _ in range(n) for i in ids]


def test_srd81_a_creature_underwater_holds_its_breath_then_drops_to_0_hp(tmp_path, capsys):
    """"can hold its breath for ... 1 + its Constitution modifier (minimum of 30 seconds) ... it can survive for ...
    its Constitution modifier (minimum of 1 round). At the start of its next turn, it drops to 0 hit points and is
    dying": Con 1 holds 5 rounds, runs out at the 6th, drops at the 7th; one flagged ``underwater``, one standing
    with its head in water voxels; healing is refused while it lies there."""
    wet = {**DIVER, "id": "c", "at": [14, 14, 0], "underwater": False}
    healer = {"id": "h", "kind": "archer", "side": "blue", "at": [11, 10, 0],
              "srd_features": {"actions": [{"name": "Healing Touch", "kind": "heal", "dice": "4d8+2"}]}}
    evs = run_scene(tmp_path, capsys, [DIVER, wet, healer, FOE], rounds(6, "a", "c", "h", "b") + [
        {"actor": "h", "action": "trait_action", "feature": "Healing Touch", "target": "a",
         "rolls": {"heal": [3, 3, 3, 3]}}],
        fill=[("water", (13, 13, 0), (15, 15, 1))])
    for who in ("a", "c"):
        assert [e["rounds"] for e in events(evs, "holds_breath", who=who)] == [5]
        assert [e["rounds"] for e in events(evs, "suffocating", who=who)] == [1]
        assert len(events(evs, "suffocated", who=who)) == 1
        assert events(evs, "dying", who=who, rule="SRD-81")
    turns7 = [i for i, e in enumerate(evs) if e.get("type") == "turn" and e.get("who") == "a"]
    drop = evs.index(events(evs, "suffocated", who="a")[0])
    assert turns7[6] < drop and (len(turns7) < 8 or drop < turns7[7])     # at the start of its 7th turn
    assert not events(evs, "holds_breath", who="b") and not events(evs, "holds_breath", who="h")
    assert events(evs, "heal_blocked", who="a", rule="SRD-81")


def test_srd81_hold_breath_and_the_option_off(tmp_path, capsys):
    """The crocodile's "can hold its breath for 15 minutes" is 150 rounds; a sheet's ``hold_breath_min = 1`` is 10
    rounds (not Con 1's 5); ``suffocation = false`` holds no breath."""
    croc = {"id": "k", "srd": "crocodile", "side": "red", "at": [4, 4, 0], "underwater": True}
    held = {**DIVER, "srd_exposure": {"hold_breath_min": 1}}
    evs = run_scene(tmp_path, capsys, [held, croc, FOE], rounds(6, "a", "k", "b"))
    assert [e["rounds"] for e in events(evs, "holds_breath", who="k")] == [150]
    assert [e["rounds"] for e in events(evs, "holds_breath", who="a")] == [10]
    assert not events(evs, "suffocating")
    off = run_scene(tmp_path, capsys, [DIVER, FOE], rounds(7, "a", "b"), options={"suffocation": False})
    assert not events(off, "holds_breath") and not events(off, "suffocated")


def test_srd82_amphibious_breathes_underwater(tmp_path, capsys):
    """A black dragon wyrmling: "The dragon can breathe air and water." -- underwater with Con 1 beside a diver who
    drops, it never holds its breath; neither does a skeleton (an undead does not breathe)."""
    drake = {"id": "d", "srd": "black-dragon-wyrmling", "side": "red", "at": [5, 5, 0], "underwater": True,
             "abilities": {"con": 1}}
    skel = {"id": "s", "srd": "skeleton", "side": "red", "at": [7, 5, 0], "underwater": True, "abilities": {"con": 1}}
    evs = run_scene(tmp_path, capsys, [DIVER, drake, skel], rounds(6, "a", "d", "s"))
    assert events(evs, "suffocated", who="a")
    for who in ("d", "s"):
        assert not events(evs, "holds_breath", who=who) and not events(evs, "suffocated", who=who)


WRAITH = {"id": "w", "srd": "wraith", "side": "red", "at": [10, 10, 0]}
TARGET = {"id": "t", "kind": "archer", "side": "blue", "at": [11, 10, 0], "pc": True}
DRAIN = {"actor": "w", "action": "attack", "target": "t", "weapon": "Life Drain",
         "rolls": {"attack": [15, 3], "damage": [1, 1, 1, 1], "save": 20}}


def _dis(evs, who):
    return [e["disadvantage"] for e in events(evs, "attack", who=who)]


def test_srd83_sunlight_is_the_open_sky_a_roof_shades(tmp_path, capsys):
    """``light = "sunlight"``: the wraith under the open sky attacks with disadvantage; the same wraith under a
    stone roof (layers 6..6 over it) does not; with the light unstated nothing changes."""
    roof = [("stone", (9, 9, 6), (12, 12, 6))]
    sky = run_scene(tmp_path, capsys, [WRAITH, TARGET], [DRAIN], options={"light": "sunlight"})
    shade = run_scene(tmp_path, capsys, [WRAITH, TARGET], [DRAIN], options={"light": "sunlight"}, fill=roof)
    night = run_scene(tmp_path, capsys, [WRAITH, TARGET], [DRAIN])
    assert _dis(sky, "w") == [["the attacker is in sunlight (Sunlight Sensitivity, SRD-84)"]]
    assert _dis(shade, "w") == [[]] and _dis(night, "w") == [[]]


def test_srd84_sunlight_sensitivity_attacks_and_perception(tmp_path, capsys):
    """The wraith: "While in sunlight, the wraith has disadvantage on attack rolls, as well as on Wisdom
    (Perception) checks that rely on sight." -- the attack keeps the lower die (3, a miss); its Search (Perception)
    keeps the lower of 15 and 2."""
    evs = run_scene(tmp_path, capsys, [WRAITH, TARGET], [
        DRAIN, {"actor": "w", "action": "end_turn"}, {"actor": "t", "action": "end_turn"},
        {"actor": "w", "action": "search", "rolls": {"check": [15, 2]}}], options={"light": "sunlight"})
    a = events(evs, "attack", who="w")[0]
    assert a["roll"] == 3 and not a["hit"] and "SRD-84" in a["rules"]
    assert [e["roll"] for e in events(evs, "check", who="w")] == [2]


def test_srd84_light_sensitivity_in_bright_light(tmp_path, capsys):
    """The cloaker: "While in bright light, the cloaker has disadvantage on attack rolls" -- bright light everywhere
    (``light = "bright"``), not in the unstated light."""
    cloaker = {"id": "w", "srd": "cloaker", "side": "red", "at": [10, 10, 0]}
    bite = {"actor": "w", "action": "attack", "target": "t", "weapon": "Tail", "rolls": {"attack": [15, 3],
                                                                                        "damage": [1]}}
    target = {**TARGET, "at": [12, 10, 0]}
    lit = run_scene(tmp_path, capsys, [cloaker, target], [bite], options={"light": "bright"})
    dark = run_scene(tmp_path, capsys, [cloaker, target], [bite])
    assert _dis(lit, "w") == [["the attacker is in bright light (Light Sensitivity, SRD-84)"]]
    assert _dis(dark, "w") == [[]]


SPAWN = {"id": "v", "srd": "vampire-spawn", "side": "red", "at": [10, 10, 0], "hp": 50}


def test_srd85_sunlight_hypersensitivity_burns_and_stops_regeneration(tmp_path, capsys):
    """The vampire spawn: "takes 20 radiant damage when it starts its turn in sunlight. While in sunlight, it has
    disadvantage on attack rolls and ability checks."; its Regeneration only "if it ... isn't in sunlight"."""
    evs = run_scene(tmp_path, capsys, [SPAWN, TARGET], [
        {"actor": "v", "action": "search", "rolls": {"check": [15, 2]}}], options={"light": "sunlight"})
    burn = events(evs, "damage", who="v", rule="SRD-85")
    assert [(e["amount"], e["damage_type"]) for e in burn] == [(20, "radiant")]
    assert events(evs, "regeneration", who="v", stopped="it is in sunlight")
    assert not events(evs, "heal", who="v")
    assert [e["roll"] for e in events(evs, "check", who="v")] == [2]
    night = run_scene(tmp_path, capsys, [SPAWN, TARGET], [])
    assert not events(night, "damage", who="v") and events(night, "heal", who="v", rule="SRD-32")


def test_srd86_running_water_harms_the_vampire(tmp_path, capsys):
    """"The vampire takes 20 acid damage when it ends its turn in running water." -- standing in a stream (a scene
    material the option ``running_water`` names), not in still water (the material water)."""
    river = '[materials.river]\ncolor = [70, 125, 190]\nsolid = false\nblocks_sight = false\ntranslucent = true\n'
    stream = run_scene(tmp_path, capsys, [SPAWN, TARGET], [{"actor": "v", "action": "end_turn"}],
                       fill=[("river", (9, 9, 0), (10, 10, 0))], options={"running_water": ["river"]}, extra=river)
    pond = run_scene(tmp_path, capsys, [SPAWN, TARGET], [{"actor": "v", "action": "end_turn"}],
                     fill=[("water", (9, 9, 0), (10, 10, 0))], options={"running_water": ["river"]})
    assert [(e["amount"], e["damage_type"]) for e in events(stream, "damage", who="v", rule="SRD-86")] == [(20, "acid")]
    assert not events(pond, "damage", who="v")


@pytest.mark.parametrize("bad, where", [
    ({"srd_exposure": {"gills": True}}, "characters[0].srd_exposure.gills"),
    ({"srd_exposure": {"hold_breath_min": 0}}, "characters[0].srd_exposure.hold_breath_min"),
    ({"srd_exposure": {"running_water": "lots"}}, "characters[0].srd_exposure.running_water"),
])
def test_srd82_a_bad_srd_exposure_key_is_one_line(tmp_path, capsys, bad, where):
    """A wrong ``srd_exposure`` key is one line naming it, exit 2, no traceback."""
    from engine.cli import main
    from rules_helpers import scene_text
    p = tmp_path / "scene.toml"
    p.write_text(scene_text([{**DIVER, **bad}, FOE], size=(20, 20, 12)))
    assert main(["run", str(p)]) == 2
    err = capsys.readouterr().err
    assert where in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
