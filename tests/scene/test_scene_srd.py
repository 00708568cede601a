"""`[[characters]] srd = "<id>"` takes an SRD creature (scene keys override it, as with `kind`); an unknown id, a
`kind` naming no stat block and `srd` in a baton scene are one line, exit 2; a scene's `statblocks` libraries give
`kind` its blocks (through the same containment check as maps)."""

import pytest

from engine.cli import main
from engine.rules.session import Session
from engine.scene import load_scene, parse_scene

pytestmark = pytest.mark.unit

HEAD = 'name = "t"\nruleset = "{rs}"\n[map]\nsize = [24, 24, 12]\n'


def scene(chars: str, rs="dnd5e", extra="") -> str:
    return extra + HEAD.format(rs=rs) + chars


DRAGON = '[[characters]]\nid = "d"\nsrd = "young-red-dragon"\nat = [4, 4, 5]\nflying = true\nside = "red"\n'
ARCHER = '[[characters]]\nid = "a"\nkind = "archer"\nat = [12, 12, 0]\nside = "blue"\n'


def _check(tmp_path, text, capsys, name="s.toml"):
    p = tmp_path / name
    p.write_text(text)
    rc = main(["check", str(p)])
    return rc, capsys.readouterr()


def test_srd_creature_plays_with_its_numbers():
    s = Session(parse_scene(scene(DRAGON + ARCHER), "<t>"), 1)
    d = s.state.actors["d"]
    assert (d.name, d.size, d.max_hp, d.data["ac"], d.data["speed_m"], d.data["fly_speed_m"]) == \
        ("Young Red Dragon", "large", 178, 18, 12.0, 24.0)
    assert d.data["immune"] == ["fire"] and d.data["attacks"] == 3 and d.data["prof"] == 4
    bite = d.data["weapons"][0]
    assert (bite["name"], bite["to_hit"], bite["reach_m"], bite["extra"]) == ("Bite", 10, 3.0, [{"damage": "1d6", "type": "fire"}])
    assert d.footprint == 2 and not d.data["pc"]


def test_scene_keys_override_the_srd_block():
    s = Session(parse_scene(scene(DRAGON.replace('side = "red"', 'side = "red"\nmax_hp = 50\nname = "Ember"') + ARCHER),
                            "<t>"), 1)
    d = s.state.actors["d"]
    assert (d.max_hp, d.name, d.data["ac"]) == (50, "Ember", 18)


def test_unknown_srd_id_is_one_line_with_the_closest(tmp_path, capsys):
    rc, out = _check(tmp_path, scene(DRAGON.replace("young-red-dragon", "young-red-dragn")), capsys)
    assert rc == 2 and out.err.count("\n") == 1
    assert "characters[0].srd" in out.err and "young-red-dragon" in out.err


def test_srd_in_a_baton_scene_says_the_bestiary_is_5es(tmp_path, capsys):
    rc, out = _check(tmp_path, scene(DRAGON, rs="baton"), capsys)
    assert rc == 2 and out.err.count("\n") == 1
    assert "characters[0].srd" in out.err and "5e" in out.err


def test_kind_naming_no_block_is_one_line(tmp_path, capsys):
    rc, out = _check(tmp_path, scene(ARCHER.replace('"archer"', '"bogus"')), capsys)
    assert rc == 2 and out.err.count("\n") == 1 and "characters[0].kind" in out.err and "bogus" in out.err
    rc, out = _check(tmp_path, scene(ARCHER.replace('"archer"', '"archr"')), capsys)
    assert rc == 2 and "archer" in out.err                                  # the closest block named


@pytest.mark.parametrize("value", ["[]", "3", "{ a = 1 }", '["archer"]'])
def test_a_kind_that_is_no_name_is_one_line(tmp_path, capsys, value):
    """`make fuzz` found `kind = []` raising TypeError (a list looked up among the blocks) instead of a refusal."""
    rc, out = _check(tmp_path, scene(ARCHER.replace('"archer"', value)), capsys)
    assert rc == 2 and out.err.count("\n") == 1 and "characters[0].kind" in out.err and "Traceback" not in out.err


@pytest.mark.parametrize("value", ["[[]]", "[{ a = 1 }]", '["fire-bolt", 3]'])
def test_a_spell_that_is_no_name_is_one_line(tmp_path, capsys, value):
    """`make fuzz` (seed 7) found `spells = [[]]` raising TypeError (a list looked up among the spells)."""
    rc, out = _check(tmp_path, scene(ARCHER.replace('side = "blue"', f'side = "blue"\nspells = {value}')), capsys)
    assert rc == 2 and out.err.count("\n") == 1 and "characters[0].spells[" in out.err and "Traceback" not in out.err


def test_a_kind_with_every_number_given_is_a_label_with_a_warning(tmp_path, capsys):
    own = ARCHER.replace('"archer"', '"bandit_boss"') + 'max_hp = 30\nac = 15\nabilities = { str = 14 }\nweapons = ["scimitar"]\n'
    rc, out = _check(tmp_path, scene(own), capsys)
    assert rc == 0, out.err
    assert out.err.startswith("warning: ") and "bandit_boss" in out.err and out.err.count("\n") == 1


def test_every_5e_scene_shipped_names_real_blocks():
    """No shipped 5e scene relied on a bogus kind (they all load under the new check)."""
    from engine.resources import shipped_scenes

    for name in shipped_scenes():
        load_scene(name)


LIB = '''[ember]
about = "a small red dragon"
name = "Ember"
srd = "red-dragon-wyrmling"
max_hp = 40

[boss]
name = "Boss"
max_hp = 33
ac = 15
weapons = [{ name = "Cleaver", damage = "1d12", type = "slashing", to_hit = 5, damage_bonus = 3 }]
'''


def test_statblocks_libraries_give_kind_its_blocks(tmp_path):
    (tmp_path / "creatures.toml").write_text(LIB)
    chars = ARCHER.replace('"archer"', '"boss"') + DRAGON.replace('srd = "young-red-dragon"', 'kind = "ember"')
    p = tmp_path / "s.toml"
    p.write_text(scene(chars, extra='statblocks = ["creatures.toml"]\n'))
    s = Session(load_scene(p), 1)
    a, d = s.state.actors["a"], s.state.actors["d"]
    assert (a.max_hp, a.data["weapons"][0]["name"]) == (33, "Cleaver")
    assert (d.name, d.max_hp, d.data["fly_speed_m"], d.data["immune"]) == ("Ember", 40, 18.0, ["fire"])


@pytest.mark.parametrize("value, says", [('["../x.toml"]', "statblocks[0]"), ('["nope.toml"]', "statblocks[0]"),
                                         ('"creatures.toml"', "statblocks"), ('["lib.txt"]', "statblocks[0]")])
def test_bad_statblocks_are_one_line(tmp_path, capsys, value, says):
    (tmp_path / "lib.txt").write_text(LIB)
    rc, out = _check(tmp_path, scene(ARCHER, extra=f"statblocks = {value}\n"), capsys)
    assert rc == 2 and out.err.count("\n") == 1 and says in out.err, out.err


def test_a_broken_library_is_one_line(tmp_path, capsys):
    (tmp_path / "creatures.toml").write_text("[Bad Name]\nx = 1\n")
    rc, out = _check(tmp_path, scene(ARCHER, extra='statblocks = ["creatures.toml"]\n'), capsys)
    assert rc == 2 and out.err.count("\n") == 1 and "statblocks[0]" in out.err


def _twenty(key: str) -> str:
    chars = []
    for i in range(20):
        x, y = 1 + (i % 5) * 4, 1 + (i // 5) * 4
        v = 'srd = "vrock"' if key == "srd" else 'kind = "harpy"'
        chars.append(f'[[characters]]\nid = "c{i}"\n{v}\nside = "s{i % 2}"\nat = [{x}, {y}, 3]\nflying = true\n')
    return 'name = "t"\nruleset = "dnd5e"\n[map]\nsize = [24, 24, 12]\n' + "\n".join(chars)


def test_twenty_srd_creatures_in_two_scenes_read_the_bestiary_once(monkeypatch):
    """Loading SRD creatures costs a scene little beside `kind` blocks because the 1 MB bestiary is read and parsed
    once a process, however many creatures and scenes name it (the speed itself is a benchmark, not a test:
    `aerie bench`, docs/performance.md)."""
    from engine.rules.dnd5e import srd_blocks

    reads = []
    real = srd_blocks.library_file
    monkeypatch.setattr(srd_blocks, "library_file", lambda: reads.append(1) or real())
    srd_blocks.bestiary.cache_clear()
    try:
        for _ in range(2):
            s = Session(parse_scene(_twenty("srd"), "<t>"), 1)
            assert len(s.state.actors) == 20
    finally:
        srd_blocks.bestiary.cache_clear()
    assert len(reads) == 1, reads


def test_a_statblocks_file_is_one_of_the_scenes_inputs(tmp_path, capsys):
    """No command's output may replace it (engine.scene.scene_inputs): `aerie export -o creatures.toml` is refused."""
    from engine.scene import scene_inputs

    (tmp_path / "creatures.toml").write_text(LIB)
    p = tmp_path / "s.toml"
    p.write_text(scene(ARCHER.replace('"archer"', '"boss"'), extra='statblocks = ["creatures.toml"]\n'))
    assert (tmp_path / "creatures.toml").resolve() in {q.resolve() for q in scene_inputs(load_scene(p))}
