"""`aerie import ACTOR.json -o creatures.toml`: real Foundry VTT dnd5e actors of both item formats (2.x-3.x
`system.damage.parts`, 4.x-5.x activities; from the dnd5e system's packs, tests/interop/data/README.md) and
5e-database monsters (one or an array) become a stat-block library that a scene plays; an import equals the shipped
SRD creature of the same name; features left out are one warning each, kept as text; a bad file is one line, exit 2,
nothing written."""

import copy
import json
import tomllib
from pathlib import Path

import pytest

from engine.cli import main
from engine.compendium import importer
from engine.rules.session import Session
from engine.rules.dnd5e.srd_blocks import bestiary, character
from engine.scene import load_scene

pytestmark = pytest.mark.unit
DATA = Path(__file__).resolve().parent / "data"


def _import(tmp_path, capsys, src: Path, out="creatures.toml"):
    rc = main(["import", str(src), "-o", str(tmp_path / out)])
    return rc, capsys.readouterr()


@pytest.mark.parametrize("name", ["foundry3_young_red_dragon.json", "foundry5_young_red_dragon.json",
                                  "foundry5_vrock.json", "foundry3_giant_eagle.json", "5edb_three.json"])
def test_an_import_equals_the_shipped_srd_creature(tmp_path, capsys, name):
    rc, out = _import(tmp_path, capsys, DATA / name)
    assert rc == 0, out.err
    lib = tomllib.loads((tmp_path / "creatures.toml").read_text())
    assert lib
    for bid, block in lib.items():
        srd = bid.replace("_", "-")
        want = character(bestiary()[srd])
        got = {k: v for k, v in block.items() if k not in ("about", "not_modelled")}
        assert got == want, (name, bid)
        left = [f for s in ("traits", "actions", "reactions", "legendary_actions") for f in bestiary()[srd][s]
                if not next(x for x in bestiary()[srd]["features"] if x["name"] == f["name"])["modelled"]]
        assert sorted(block.get("not_modelled", {})) == sorted(f["name"] for f in left)
    warnings = [ln for ln in out.err.splitlines() if ln.startswith("warning: ")]
    assert len(warnings) == sum(len(b.get("not_modelled", {})) for b in lib.values())
    assert out.err.count("\n") == len(warnings)           # nothing else on stderr


def test_both_foundry_formats_give_the_same_library(tmp_path, capsys):
    a = tmp_path / "a"
    b = tmp_path / "b"
    a.mkdir()
    b.mkdir()
    assert _import(a, capsys, DATA / "foundry3_young_red_dragon.json")[0] == 0
    assert _import(b, capsys, DATA / "foundry5_young_red_dragon.json")[0] == 0
    la, lb = (tomllib.loads((d / "creatures.toml").read_text()) for d in (a, b))
    assert la["young_red_dragon"]["weapons"] == lb["young_red_dragon"]["weapons"]
    assert {k: v for k, v in la["young_red_dragon"].items() if k != "not_modelled"} == \
        {k: v for k, v in lb["young_red_dragon"].items() if k != "not_modelled"}


def test_a_scene_plays_the_imported_block(tmp_path, capsys):
    assert _import(tmp_path, capsys, DATA / "foundry5_vrock.json")[0] == 0
    (tmp_path / "s.toml").write_text(
        'name = "t"\nruleset = "dnd5e"\nstatblocks = ["creatures.toml"]\n[map]\nsize = [20, 20, 12]\n'
        '[[characters]]\nid = "v"\nkind = "vrock"\nat = [2, 2, 4]\nflying = true\nside = "abyss"\n'
        '[[characters]]\nid = "a"\nkind = "archer"\nat = [10, 10, 0]\nside = "b"\n')
    s = Session(load_scene(tmp_path / "s.toml"), 1)
    v = s.state.actors["v"]
    assert (v.name, v.max_hp, v.data["fly_speed_m"], v.size) == ("Vrock", 104, 18.0, "large")
    assert "nonmagical_slashing" in v.data["resist"] and "poisoned" in v.data["condition_immunities"]


def _bad(tmp_path, capsys, doc, name="bad.json"):
    src = tmp_path / name
    src.write_text(json.dumps(doc) if not isinstance(doc, str) else doc)
    out = tmp_path / "creatures.toml"
    rc = main(["import", str(src), "-o", str(out)])
    cap = capsys.readouterr()
    return rc, cap, out


ACTOR = json.loads((DATA / "foundry5_young_red_dragon.json").read_text())
MONSTERS = json.loads((DATA / "5edb_three.json").read_text())


def _without(doc, *path):
    d = copy.deepcopy(doc)
    x = d
    for k in path[:-1]:
        x = x[k]
    del x[path[-1]]
    return d


@pytest.mark.parametrize("doc, says", [
    (_without(ACTOR, "system", "abilities"), "actor.system"),
    (_without(ACTOR, "name"), "actor.name"),
    ({**MONSTERS[0], "size": "Colossal"}, "monster.size"),
    ([MONSTERS[0], {**MONSTERS[1], "hit_points": -3}], "[1].hit_points"),
    ([MONSTERS[0], {**MONSTERS[1], "challenge_rating": "x"}], "[1].challenge_rating"),
    ({**MONSTERS[2], "actions": "Bite"}, "monster.actions"),
])
def test_a_bad_file_is_one_line_and_nothing_written(tmp_path, capsys, doc, says):
    rc, cap, out = _bad(tmp_path, capsys, doc)
    assert rc == 2 and cap.err.count("\n") == 1 and "bad.json" in cap.err and says in cap.err, cap.err
    assert not out.exists()


def test_an_existing_library_is_untouched_by_a_refused_import(tmp_path, capsys):
    (tmp_path / "creatures.toml").write_text("OLD\n")
    rc, cap, out = _bad(tmp_path, capsys, _without(ACTOR, "system", "attributes"))
    assert rc == 2 and out.read_text() == "OLD\n"


def test_the_record_reader_refuses_what_is_no_creature():
    with pytest.raises(Exception) as e:
        importer.records([], "x.json")
    assert "x.json" in str(e.value)
