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
