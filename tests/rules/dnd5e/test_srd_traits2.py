"""The SRD flyers' traits and non-attack actions (SRD-30..SRD-36), each played through ``aerie run``
(``engine.cli.main``) with forced dice on a scene written here, the events read from ``--json``."""

from __future__ import annotations

import json

import pytest

from engine.cli import main
from rules_helpers import _toml, scene_text

pytestmark = pytest.mark.unit


def tables(name, rows) -> str:
    out = []
    for r in rows:
        out.append(f"[[{name}]]")
        out += [f"{k} = {_toml(v)}" for k, v in r.items()]
    return "\n".join(out) + "\n"


def run_scene(tmp_path, capsys, chars, script, size=(20, 20, 16), **kw) -> list[dict]:
    p = tmp_path / "scene.toml"
    p.write_text(scene_text(chars, size=size, **kw) + tables("script", script))
    rc = main(["run", str(p)])
    out = capsys.readouterr()
    assert rc == 0, out.err + out.out
    main(["run", str(p), "--json"])
    return [json.loads(ln) for ln in capsys.readouterr().out.strip().splitlines()]


def events(evs, type_, **fields):
    return [e for e in evs if e.get("type") == type_ and all(e.get(k) == v for k, v in fields.items())]


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
