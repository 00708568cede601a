"""`aerie compendium creatures`: the SRD bestiary searched by name, type and CR, --fly, --json with the issue's
fields for all 334; the compendium is a registry of sections (engine.compendium.SECTIONS); fast enough."""

import io
import json
import contextlib
import subprocess
import sys

import pytest

from engine.cli import build_parser, main
from engine.compendium import SECTIONS, creatures

pytestmark = pytest.mark.unit

ISSUE_KEYS = {"id", "name", "size", "type", "cr", "ac", "hp", "speed_m", "fly_speed_m", "hover", "abilities",
              "actions", "features", "source"}


def _json(capsys, *args) -> list:
    assert main(["compendium", "creatures", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_holds_all_334_with_the_issues_fields(capsys):
    got = _json(capsys)
    assert len(got) == 334 and len({c["id"] for c in got}) == 334
    for c in got:
        assert ISSUE_KEYS <= set(c), c["id"]
        assert set(c["abilities"]) == {"str", "dex", "con", "int", "wis", "cha"}
        assert all(set(f) >= {"name", "modelled", "why"} for f in c["features"])
    red = next(c for c in got if c["id"] == "young-red-dragon")
    assert (red["ac"], red["hp"], red["speed_m"], red["fly_speed_m"], red["hover"]) == (18, 178, 12.0, 24.0, False)
    assert red["actions"] == ["Multiattack", "Bite", "Claw", "Fire Breath"]
    assert next(c for c in got if c["id"] == "aboleth")["fly_speed_m"] == 0
    assert "CC-BY-4.0" in red["source"]


def test_search_by_name_type_cr_and_fly(capsys):
    assert [c["id"] for c in _json(capsys, "young", "red")] == ["young-red-dragon"]
    fly = _json(capsys, "--fly")
    assert len(fly) == 104 and all(c["fly_speed_m"] > 0 for c in fly)
    fiends = _json(capsys, "fiend", "--fly")
    assert fiends and all(c["type"] == "fiend" for c in fiends) and "vrock" in {c["id"] for c in fiends}
    assert {c["cr"] for c in _json(capsys, "cr1/2")} == {0.5}
    assert {c["cr"] for c in _json(capsys, "--cr", "20-30")} <= set(range(20, 31))


def test_table(capsys):
    assert main(["compendium", "creatures", "dragon", "--fly"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["name", "CR", "size", "type", "speeds"]
    assert any(line.startswith("Young Red Dragon") and "fly 24 m" in line for line in out)
    assert "CC-BY-4.0" in out[-1]


def test_bad_cr_is_one_line(capsys):
    assert main(["compendium", "creatures", "--cr", "x"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--cr x" in err


def test_sections_are_a_registry():
    """cli.py builds `aerie compendium <section>` from SECTIONS: each module's add_arguments and run."""
    assert SECTIONS["creatures"] == "engine.compendium.creatures"
    p = build_parser()
    for name in SECTIONS:
        args = p.parse_args(["compendium", name])
        assert args.compendium_run.__module__ == SECTIONS[name]


def test_json_lists_all_334_in_process():
    """Loading and listing all 334 (--json, the larger output): one JSON array, every creature once."""
    p = build_parser()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        creatures.run(p.parse_args(["compendium", "creatures", "--json"]))
    ids = [c["id"] for c in json.loads(out.getvalue())]
    assert len(ids) == len(set(ids)) == 334


def test_the_creatures_command_reads_the_bestiary_and_no_rules():
    """`aerie compendium creatures` stays a quick command because it reads assets/srd/creatures.json and imports no
    rules module (the speed itself is a benchmark, not a test: `aerie bench srd`, docs/performance.md)."""
    code = ("import sys; from engine.compendium import creatures as c; rows = c.select(c.load(), []); "
            "print(len(rows), sorted({m.split('.')[2] for m in sys.modules if m.startswith('engine.rules.')}))")
    r = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    n, rules = r.stdout.split(" ", 1)
    assert int(n) == 334 and rules.strip() == "[]", r.stdout


