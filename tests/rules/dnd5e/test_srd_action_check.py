"""The sheet key ``creature_actions`` checked as a scene gives it (engine/rules/dnd5e/srd_action_check.py): every
entry the 334 SRD creatures' blocks give passes, and a wrong key or value is one line naming it, exit 2 (found by a
fuzz of the sheet keys: ``creature_actions = [{}]`` passed ``aerie check`` and ``aerie run`` then raised KeyError)."""

from __future__ import annotations

import pytest

from engine.cli import main
from engine.errors import SceneError
from engine.rules.dnd5e import srd_action_check
from engine.rules.dnd5e.srd_blocks import bestiary, character
from rules_helpers import _toml

pytestmark = pytest.mark.unit


def test_every_srd_creatures_save_actions_pass():
    n = 0
    for sid, c in bestiary().items():
        sheet = character(c)
        srd_action_check.check(sheet, f"<{sid}>", "characters[0]")
        n += len(sheet.get("creature_actions") or ())
    assert n >= 120


BREATH = {"name": "Frost Breath", "dc": 13, "ability": "con", "damage": [{"dice": "5d8", "type": "cold"}],
          "half": True, "area": {"shape": "cone", "length_m": 4.5}, "recharge": [5, 6]}


def _scene(tmp_path, entry) -> str:
    rows = ", ".join(f"{k} = {_toml(v)}" for k, v in entry.items())
    text = ('name = "x"\nruleset = "dnd5e"\n[map]\nsize = [16, 16, 8]\n'
            '[[characters]]\nid = "w"\nkind = "guard"\nat = [1, 1, 0]\nside = "a"\ninitiative = 20\n'
            f'creature_actions = [{{ {rows} }}]\n'
            '[[characters]]\nid = "v"\nkind = "guard"\nat = [3, 1, 0]\nside = "b"\ninitiative = 1\n'
            '[[script]]\nactor = "w"\naction = "creature_action"\nfeature = "Frost Breath"\ntarget = "v"\n')
    p = tmp_path / "s.toml"
    p.write_text(text)
    return str(p)


def test_a_homebrew_breath_plays(tmp_path, capsys):
    assert main(["run", _scene(tmp_path, BREATH)]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("change, where", [
    ({"name": None}, "creature_actions[0].name"),
    ({"dc": "13"}, "creature_actions[0].dc"),
    ({"ability": "luck"}, "creature_actions[0].ability"),
    ({"damage": [{"dice": "five", "type": "cold"}]}, "creature_actions[0].damage[0].dice"),
    ({"damage": [{"dice": "5d8", "type": "ice"}]}, "creature_actions[0].damage[0].type"),
    ({"damage": [[]]}, "creature_actions[0].damage[0]"),
    ({"area": {"shape": "donut", "length_m": 4.5}}, "creature_actions[0].area.shape"),
    ({"area": {"shape": "cone", "length_m": -1}}, "creature_actions[0].area.length_m"),
    ({"recharge": [6, 5]}, "creature_actions[0].recharge"),
    ({"charm": {"rule": []}}, "creature_actions[0].charm.rule"),
    ({"breath": True}, "creature_actions[0].breath"),
])
def test_a_wrong_entry_is_one_line(tmp_path, capsys, change, where):
    entry = {k: v for k, v in {**BREATH, **change}.items() if v is not None}
    assert main(["check", _scene(tmp_path, entry)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and where in err and "Traceback" not in err, err


def test_two_actions_of_one_name_are_refused():
    with pytest.raises(SceneError, match=r"creature_actions\[1\]\.name"):
        srd_action_check.check({"creature_actions": [BREATH, BREATH]}, "f.toml", "characters[0]")


@pytest.mark.parametrize("option, where", [
    ('{ kind = "attack" }', "legendary.options[0].name"),
    ('{ kind = "attack", name = "Tail", cost = 1 }', "legendary.options[0].weapon"),
    ('{ kind = "save", name = "Roar", cost = 2, dc = 10, ability = "wis" }', "legendary.options[0].area"),
    ('{ kind = "save", name = "Roar", cost = 2, dc = 10, ability = "wis", area = { shape = "self" } }',
     "legendary.options[0].area.radius_m"),
    ('{ kind = "bolts", name = "Storm", cost = 2, feature = "Storm" }', "legendary.options[0].feature"),
    ('{ kind = "move", name = "Move", cost = 0 }', "legendary.options[0].cost"),
    ('{ kind = "move", name = [], cost = 1 }', "legendary.options[0].name"),
])
def test_a_wrong_legendary_option_is_one_line(tmp_path, capsys, option, where):
    """Options that passed `aerie check` and then raised KeyError ('cost', 'weapon', 'area') in the first fight."""
    p = tmp_path / "s.toml"
    p.write_text('name = "x"\nruleset = "dnd5e"\n[map]\nsize = [16, 16, 8]\n[[characters]]\nid = "w"\nkind = "mage"\n'
                 f'at = [1, 1, 0]\nside = "a"\nlegendary = {{ points = 3, options = [{option}] }}\n')
    assert main(["check", str(p)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and where in err and "Traceback" not in err, err


def test_every_srd_creatures_weapons_pass():
    n = 0
    for sid, c in bestiary().items():
        for j, w in enumerate(character(c).get("weapons") or ()):
            if isinstance(w, dict):
                srd_action_check.check_weapon(w, f"<{sid}>", f"characters[0].weapons[{j}]")
                n += 1
    assert n >= 500


@pytest.mark.parametrize("weapon, where", [
    ('{ name = "Sting", damage = "1d4", on_hit = { dc = 11, ability = "con", damage = [[]] } }',
     "weapons[0].on_hit.damage[0]"),
    ('{ name = "Sting", damage = "1d4", on_hit = { dc = 11, ability = "con", damage = [{ dice = "2d6" }] } }',
     "weapons[0].on_hit.damage[0].type"),
    ('{ name = "Sting", damage = "1d4", on_hit = { dc = 11 } }', "weapons[0].on_hit"),
    ('{ name = "Sting", damage = "1d4", on_hit = { dc = 11, ability = "con", rider = { kind = "hex" } } }',
     "weapons[0].on_hit"),
    ('{ name = "Tail", damage = "1d4", grapple = { escape_dc = [] } }', "weapons[0].grapple"),
    ('{ name = "Tail", damage = "1d4", alternative = { damage = "1d8" } }', "weapons[0].alternative"),
    ('{ name = "Tail", damage = "1d4", range = [18, 6] }', "weapons[0].range"),
    ('{ name = "Tail", damage = "1d4", extra = [{ damage = "1d6", type = "ice" }] }', "weapons[0].extra[0].type"),
    ('{ name = "Tail", damage = [] }', "weapons[0].damage"),
    ('{ name = "Tusks", damage = "2d6", on_hit = { dc = 11, ability = "con", rider = "" } }', "weapons[0].on_hit"),
])
def test_a_wrong_weapon_table_is_one_line(tmp_path, capsys, weapon, where):
    """Weapon tables whose keys past the name and damage were copied unchecked: a hit's save with a damage that is
    not a table, a rider of no kind the rules know... raised in the first fight (a fuzz of the SRD sheets' leaves)."""
    p = tmp_path / "s.toml"
    p.write_text('name = "x"\nruleset = "dnd5e"\n[map]\nsize = [16, 16, 8]\n[[characters]]\nid = "w"\nkind = "guard"\n'
                 f'at = [1, 1, 0]\nside = "a"\nweapons = [{weapon}]\n')
    assert main(["check", str(p)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and where in err and "Traceback" not in err, err


@pytest.mark.parametrize("value", ["true", '[{ name = "Teleport", kind = [1, "a"] }]'])
def test_srd_features_actions_must_be_a_list_of_known_kinds(tmp_path, capsys, value):
    p = tmp_path / "s.toml"
    p.write_text('name = "x"\nruleset = "dnd5e"\n[map]\nsize = [16, 16, 8]\n[[characters]]\nid = "w"\nkind = "guard"\n'
                 f'at = [1, 1, 0]\nside = "a"\nsrd_features = {{ actions = {value} }}\n')
    assert main(["check", str(p)]) == 2
    err = capsys.readouterr().err
    assert "srd_features.actions" in err and err.count("\n") == 1
