"""A fourth, test-only ruleset with its own weapon shape and options (tests/support/lancers_ruleset.py) validates its
scenes, refuses its own bad keys in one line and answers the threat map's reach, with no edit to a shared file
(issue 25): the scene loader, the shared validation and the options reach it through the registry."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import AerieError, SceneError
from engine.rules import registry
from engine.rules.session import Session
from engine.scene import parse_scene

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]

SCENE = """
name = "lists"
ruleset = "lancers"
{options}
[map]
size = [10, 8, 6]
cell_m = 2.0
[[characters]]
id = "a"
side = "red"
at = [2, 2, 0]
weapons = [{{ name = "lance", reach_cells = 2 }}, {{ name = "javelin", throw_cells = {throw} }}]
[[characters]]
id = "b"
side = "blue"
at = [7, 5, 0]
"""


def test_it_is_registered_like_any_add_on():
    """tests/conftest.py names every tests/*_ruleset.py in AERIE_RULESETS, as a user names an add-on."""
    assert "lancers" in registry.names()
    assert registry.info("lancers").ruleset_class().__name__ == "Lancers"


def test_its_scene_loads_and_plays_with_its_weapons():
    scene = parse_scene(SCENE.format(options="[options]\nformation = \"tight\"", throw=8), "t.toml")
    s = Session(scene, 1)
    assert s.ruleset.opt("formation") == "tight" and s.ruleset.opt("charge_bonus") == 1
    assert s.ruleset.attack_reach(s, s.state.actors["a"]) == (4.0, 16.0)     # its cells x cell_m
    assert s.ruleset.attack_reach(s, s.state.actors["b"]) == (None, None)
    s.step({"actor": s.current, "action": "end_turn"})


def test_its_weapon_shape_is_checked_at_load():
    with pytest.raises(SceneError) as e:
        parse_scene(SCENE.format(options="", throw=99), "t.toml")
    assert str(e.value) == "t.toml: characters[0].weapons[1].throw_cells: 99 is not cells 1..20"
    with pytest.raises(SceneError, match=r"characters\[0\].weapons\[0\]: a weapon has reach_cells or throw_cells"):
        parse_scene(SCENE.format(options="", throw=8).replace("reach_cells = 2", "reach_cells = 2, throw_cells = 3"),
                    "t.toml")


def test_its_options_are_checked_at_load():
    with pytest.raises(AerieError, match=r"^t.toml: options.formation: 'square' is not one of loose, tight$"):
        parse_scene(SCENE.format(options='[options]\nformation = "square"', throw=8), "t.toml")
    with pytest.raises(AerieError, match=r"options.charge_bonsu: unknown option; did you mean charge_bonus\?"):
        parse_scene(SCENE.format(options="[options]\ncharge_bonsu = 2", throw=8), "t.toml")
    with pytest.raises(AerieError, match=r"options.charge_bonus: 7 is outside 0..3"):
        parse_scene(SCENE.format(options="[options]\ncharge_bonus = 7", throw=8), "t.toml")


def test_no_shared_file_names_it():
    hits = [p for p in (ROOT / "engine").rglob("*.py") if "lancers" in p.read_text(encoding="utf-8").lower()]
    assert not hits, hits


def test_the_preview_lines_speak_the_rulesets_words():
    """The window's preview reads the upkeep and the roll in the ruleset's words (Ruleset.upkeep_name, HIT_ROLL):
    a ruleset that declares no roll text gets none, and nobody's flight upkeep is called a bonus action but 5e's."""
    from engine.app.controller import preview_lines

    move = {"action": "move", "legal": True, "cost_m": 3.0, "path": [[0, 0, 1], [1, 0, 1]], "horizontal_m": 1.5,
            "falls_at_end_of_turn": True}
    attack = {"action": "attack", "legal": True, "hit_chance": 0.5, "to_hit_bonus": 3, "target_ac": 12, "cover": "none"}
    for name, upkeep, roll in (("dnd5e", "no bonus action", "(d20 +3 vs AC 12)"), ("lancers", "no strike", None)):
        cls = registry.info(name).ruleset_class()
        assert any(upkeep in line for line in preview_lines(move, ruleset=cls)), name
        hit = next(line for line in preview_lines(attack, ruleset=cls) if line.startswith("CHANCE TO HIT"))
        assert hit == "CHANCE TO HIT: 50%" + (f" {roll}" if roll else ""), hit
