"""The flyers' shapes and planes (SRD-89..SRD-95, issue 44), each played through ``aerie run`` with forced dice on a
scene written here, the events read from ``--json`` (helpers: test_srd_mechanics.py)."""

from __future__ import annotations

import pytest

from engine.cli import main
from rules_helpers import scene_text
from test_srd_mechanics import events, run_scene

pytestmark = pytest.mark.unit

ARCHER = {"id": "a", "kind": "archer", "side": "blue", "at": [6, 2, 0], "max_hp": 300}


def test_srd89_change_shape_keeps_hit_points_and_minds_and_reverts_at_death(tmp_path, capsys):
    """Ancient brass dragon, "polymorphs into a humanoid or beast that has a challenge rating no higher than its own
    ... retains its ... hit points, ... proficiencies, Legendary Resistance, ... and Intelligence, Wisdom, and Charisma
    scores ... Its statistics and capabilities are otherwise replaced" -- a giant eagle of 297 HP, the eagle's Str and
    Dex, the dragon's Int and proficiency (its Beak +5 - 2 + 6 = +9: a 5 hits AC 14), no legendary actions; "It
    reverts to its true form if it dies". The couatl (CR 4): no archmage (CR 12); the deva keeps its Mace and gains the
    eagle's attacks ("gains any ... capabilities ... that the new form has but that it lacks")."""
    dragon = {"id": "d", "srd": "ancient-brass-dragon", "side": "red", "at": [2, 2, 0]}
    couatl = {"id": "c", "srd": "couatl", "side": "red", "at": [2, 12, 0]}
    deva = {"id": "v", "srd": "deva", "side": "red", "at": [12, 12, 0]}
    evs = run_scene(tmp_path, capsys, [dragon, couatl, deva, ARCHER], [
        {"actor": "d", "action": "change_shape", "form": "giant-eagle"},
        {"actor": "d", "action": "end_turn"},
        {"actor": "c", "action": "change_shape", "form": "archmage", "illegal": "SRD-89"},
        {"actor": "c", "action": "change_shape", "form": "giant-eagle"},
        {"actor": "c", "action": "end_turn"},
        {"actor": "v", "action": "change_shape", "form": "giant-eagle"},
        {"actor": "v", "action": "end_turn"},
        {"actor": "a", "action": "end_turn"},
        {"actor": "d", "action": "move", "to": [4, 2, 0]},
        {"actor": "d", "action": "attack", "target": "a", "weapon": "Beak", "rolls": {"attack": 5, "damage": [3]}},
        {"actor": "gm", "action": "damage", "target": "d", "amount": 400, "type": "force"}])
    att = events(evs, "attack", who="d")[0]
    assert (att["weapon"], att["bonus"], att["total"], att["hit"]) == ("Beak", 9, 14, True)
    shapes = [(e["who"], e["form"], e["size"], e.get("reason"), e["rule"]) for e in events(evs, "change_shape")]
    assert shapes == [("d", "giant-eagle", "large", None, "SRD-89"), ("c", "giant-eagle", "large", None, "SRD-89"),
                      ("v", "giant-eagle", "large", None, "SRD-89"), ("d", "true", "gargantuan", "it dies", "SRD-89")]
    assert not events(evs, "legendary_action", who="d")          # its legendary actions are not the eagle's
    st = evs[-1]["characters"]
    c, v = st["c"]["data"], st["v"]["data"]
    assert st["c"]["hp"] == 97 and c["abilities"]["str"] == 16 and c["abilities"]["cha"] == 18 and c["ac"] == 13
    assert sorted(w["name"] for w in c["weapons"]) == ["Beak", "Talons"] and c["fly_speed_m"] == 24.0
    assert sorted(w["name"] for w in v["weapons"]) == ["Beak", "Mace", "Talons"] and st["v"]["hp"] == 136
    assert st["d"]["size"] == "gargantuan" and st["d"]["data"]["abilities"]["str"] == 27


def test_srd90_shapechanger_by_speed_a_rat_falls_a_raven_flies(tmp_path, capsys):
    """Imp, "polymorph into a beast form that resembles a rat (speed 20 ft.), a raven (20 ft., fly 60 ft.), or a
    spider (20 ft., climb 20 ft.), or back into its true form. Its statistics are the same in each form, except for
    the speed changes noted": aloft at layer 6 a rat falls (AIR-10, AIR-12); a raven flies at 18 m; no bat."""
    imp = {"id": "i", "srd": "imp", "side": "red", "at": [4, 4, 6], "flying": True}
    evs = run_scene(tmp_path, capsys, [imp, ARCHER], [
        {"actor": "i", "action": "change_shape", "form": "bat", "illegal": "SRD-90"},
        {"actor": "i", "action": "change_shape", "form": "rat"},
        {"actor": "i", "action": "end_turn"}, {"actor": "a", "action": "end_turn"},
        {"actor": "i", "action": "change_shape", "form": "raven"}], options={"air_speed": "fly_speed"})
    shapes = [(e["form"], e["can_fly"], e["rule"]) for e in events(evs, "change_shape", who="i")]
    assert shapes == [("rat", False, "SRD-90"), ("raven", True, "SRD-90")]
    assert [(e["from"], e["to"]) for e in events(evs, "fall", who="i")] == [(6, 0)]
    d = evs[-1]["characters"]["i"]["data"]
    assert (d["speed_m"], d["fly_speed_m"], d["ac"], evs[-1]["characters"]["i"]["size"]) == (6.0, 18.0, 13, "tiny")


def test_srd91_vampire_bat_and_mist(tmp_path, capsys):
    """Vampire, "polymorph into a Tiny bat or a Medium cloud of mist ... While in bat form ... its walking speed is 5
    feet, and it has a flying speed of 30 feet ... While in mist form, the vampire can't take any actions ... has a
    flying speed of 20 feet, can hover ... It has advantage on Strength, Dexterity, and Constitution saving throws, and
    it is immune to all nonmagical damage": a Tiny bat flying 9 m; the mist refuses an attack, takes nothing from a
    longbow, rolls its Con save twice."""
    vamp = {"id": "v", "srd": "vampire-vampire", "side": "red", "at": [4, 2, 0]}
    archer = {**ARCHER, "at": [5, 6, 0]}
    evs = run_scene(tmp_path, capsys, [vamp, archer], [
        {"actor": "v", "action": "change_shape", "form": "bat"},
        {"actor": "v", "action": "end_turn"}, {"actor": "a", "action": "end_turn"},
        {"actor": "v", "action": "change_shape", "form": "mist"},
        {"actor": "v", "action": "end_turn"},
        {"actor": "a", "action": "attack", "target": "v", "weapon": "longbow", "rolls": {"attack": 15, "damage": 4}},
        {"actor": "a", "action": "end_turn"},
        {"actor": "v", "action": "attack", "target": "a", "weapon": "unarmed", "illegal": "SRD-91"},
        {"actor": "gm", "action": "trap", "target": "v", "save": "con", "dc": 15, "damage": "1d4",
         "rolls": {"save": [3, 18], "trap": 2}}])
    shapes = [(e["form"], e["size"], e["can_fly"], e["rule"]) for e in events(evs, "change_shape", who="v")]
    assert shapes == [("bat", "tiny", True, "SRD-91"), ("mist", "medium", True, "SRD-91")]
    dmg = events(evs, "damage", who="v")
    assert dmg[0]["amount"] == 0 and "mist form: immune to nonmagical damage (SRD-91)" in dmg[0]["notes"]
    sv = events(evs, "save", who="v")[-1]
    assert "mist form (SRD-91)" in sv["advantage"] and sv["success"]
    d = evs[-1]["characters"]["v"]["data"]
    assert (d["fly_speed_m"], d["hover"]) == (6.0, True)


def test_srd92_misty_escape_at_zero_hit_points(tmp_path, capsys):
    """Vampire, "When it drops to 0 hit points outside its resting place, the vampire transforms into a cloud of mist
    ... instead of falling unconscious ... While it has 0 hit points in mist form, it can't revert to its vampire
    form": 150 damage (144 HP) leaves a mist at 0 HP, not dead, no death save, no way back."""
    vamp = {"id": "v", "srd": "vampire-vampire", "side": "red", "at": [4, 2, 0]}
    ally = {"id": "g", "kind": "guard", "side": "red", "at": [15, 15, 0]}
    evs = run_scene(tmp_path, capsys, [ARCHER, vamp, ally], [
        {"actor": "gm", "action": "damage", "target": "v", "amount": 150, "type": "force"},
        {"actor": "a", "action": "end_turn"},
        {"actor": "v", "action": "change_shape", "form": "true", "illegal": "SRD-92"}])
    assert [e["rule"] for e in events(evs, "misty_escape", who="v")] == ["SRD-92"]
    assert [(e["form"], e["reason"]) for e in events(evs, "change_shape", who="v")] == [("mist", "Misty Escape")]
    assert not events(evs, "death", who="v") and not events(evs, "death_save", who="v")
    v = evs[-1]["characters"]["v"]
    assert (v["hp"], v["dead"], v["data"]["srd_shapes"]["vampire"]["form"]) == (0, False, "mist")


def test_srd93_the_vampires_legendary_options_follow_its_form(tmp_path, capsys):
    """Vampire, legendary "Unarmed Strike. The vampire makes one unarmed strike." -- the SRD's "Unarmed Strike
    (Vampire Form Only)": as a bat beside the archer it takes none (its "Bite (Bat or Vampire Form Only)" is for a
    grappled, restrained or incapacitated foe), as a mist neither; back in its vampire form, at the end of the
    mist's and the archer's turns, an unarmed strike each."""
    bat = {"id": "b", "srd": "vampire-bat", "side": "red", "at": [5, 2, 0]}
    mist = {"id": "m", "srd": "vampire-mist", "side": "red", "at": [7, 2, 0]}
    archer = {**ARCHER, "at": [6, 2, 0]}
    evs = run_scene(tmp_path, capsys, [archer, bat, mist], [
        {"actor": "a", "action": "end_turn"},
        {"actor": "b", "action": "change_shape", "form": "true"},
        {"actor": "b", "action": "end_turn"},
        {"actor": "m", "action": "end_turn", "rolls": {"attack": 15, "damage": [2]}},
        {"actor": "a", "action": "end_turn", "rolls": {"attack": 15, "damage": [2]}}])
    la = [(e["who"], e["option"]) for e in events(evs, "legendary_action")]
    assert la == [("b", "Unarmed Strike"), ("b", "Unarmed Strike")]
    assert [e["weapon"] for e in events(evs, "attack", who="b")] == ["Unarmed Strike", "Unarmed Strike"]


def test_srd94_etherealness_nothing_crosses_the_planes(tmp_path, capsys):
    """Ghost, "enters the Ethereal Plane from the Material Plane ... it can't affect or be affected by anything on the
    other plane": ethereal, the archer's arrow and its own touch are refused (SRD-94); back, the arrow hits."""
    ghost = {"id": "g", "srd": "ghost", "side": "red", "at": [5, 2, 0]}
    evs = run_scene(tmp_path, capsys, [ghost, ARCHER], [
        {"actor": "g", "action": "etherealness"},
        {"actor": "g", "action": "end_turn"},
        {"actor": "a", "action": "attack", "target": "g", "weapon": "longbow", "illegal": "SRD-94"},
        {"actor": "a", "action": "end_turn"},
        {"actor": "g", "action": "attack", "target": "a", "weapon": "Withering Touch", "illegal": "SRD-94"},
        {"actor": "g", "action": "etherealness"}, {"actor": "g", "action": "end_turn"},
        {"actor": "a", "action": "attack", "target": "g", "weapon": "longbow", "rolls": {"attack": 15, "damage": 4}}])
    assert [(e["plane"], e["rule"]) for e in events(evs, "plane", who="g")] == [("Ethereal", "SRD-94"),
                                                                                ("Material", "SRD-94")]
    assert len(events(evs, "attack", who="a")) == 1 and events(evs, "damage", who="g")


def test_srd95_ethereal_stride_takes_willing_creatures_along(tmp_path, capsys):
    """Nightmare, "The nightmare and up to three willing creatures within 5 feet of it magically enter the Ethereal
    Plane": the knight beside it goes along, a foe does not (not willing), nor four; the ethereal knight's attack on
    the archer left on the Material Plane is refused, and so is the archer's on the knight (SRD-94)."""
    mare = {"id": "n", "srd": "nightmare", "side": "red", "at": [2, 2, 0]}
    knight = {"id": "k", "kind": "knight", "side": "red", "at": [4, 2, 0]}
    archer = {**ARCHER, "at": [5, 2, 0]}
    evs = run_scene(tmp_path, capsys, [mare, knight, archer], [
        {"actor": "n", "action": "etherealness", "with": ["k", "a"], "illegal": "SRD-95"},
        {"actor": "n", "action": "etherealness", "with": ["k", "k", "k", "k"], "illegal": "SRD-95"},
        {"actor": "n", "action": "etherealness", "with": ["k"]},
        {"actor": "n", "action": "end_turn"},
        {"actor": "k", "action": "attack", "target": "a", "weapon": "longsword", "illegal": "SRD-94"},
        {"actor": "k", "action": "end_turn"},
        {"actor": "a", "action": "attack", "target": "k", "weapon": "shortsword", "illegal": "SRD-94"}])
    assert [(e["who"], e["plane"], e["rule"]) for e in events(evs, "plane")] == [("n", "Ethereal", "SRD-95"),
                                                                                 ("k", "Ethereal", "SRD-95")]
    assert evs[-1]["characters"]["a"]["conditions"] == []


@pytest.mark.parametrize("bad, path", [
    ({"vampire": {"form": "wolf"}}, "characters[0].srd_shapes.vampire"),
    ({"change_shape": {"cr": 99, "keeps": "dragon"}}, "characters[0].srd_shapes.change_shape"),
    ({"wings": True}, "characters[0].srd_shapes.wings")])
def test_srd_shapes_sheet_key_refused_in_one_line(tmp_path, capsys, bad, path):
    """A scene's ``srd_shapes`` that is not what the rules play: one line naming the key, exit 2."""
    p = tmp_path / "scene.toml"
    p.write_text(scene_text([{"id": "i", "srd": "imp", "side": "red", "at": [4, 4, 0], "srd_shapes": bad}, ARCHER]))
    assert main(["run", str(p)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and path in err[0]
