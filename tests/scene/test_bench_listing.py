"""``aerie bench rules --listing`` (issue 45): one legal-action list of a mass battle, each ruleset's side by side in
the same run; ``--quick`` lists 300 characters. The scene is the one the baton listing's linearity test uses."""

import argparse

import pytest

from engine.rules.session import Session
from engine.scene import parse_scene
from engine.scene.bench import bench_listing, mass_scene_text

pytestmark = pytest.mark.unit


def test_the_listing_bench_times_both_rulesets_at_the_same_size(capsys):
    assert bench_listing(argparse.Namespace(quick=True, seed=1)) == 0
    out = capsys.readouterr().out
    assert "mass battle of 300 characters (150 a side)" in out
    counts = {r: int(n.replace(",", "")) for r, n in
              ((line.split(":")[0].strip(), line.split(":")[1].split()[0]) for line in out.splitlines()
               if line.startswith(("  dnd5e:", "  baton:")))}
    assert set(counts) == {"dnd5e", "baton"} and min(counts.values()) > 0
    assert "baton / dnd5e" in out


@pytest.mark.parametrize("ruleset", ["dnd5e", "baton"])
def test_the_mass_battle_puts_each_side_at_its_end_of_the_field(ruleset):
    sc = parse_scene(mass_scene_text(120, ruleset), "<mass>")
    assert sc.ruleset == ruleset and len(sc.characters) == 240
    s = Session(sc, 1)
    reds = [a for a in s.state.actors.values() if a.side == "red"]
    blues = [a for a in s.state.actors.values() if a.side == "blue"]
    assert max(a.y for a in reds) < min(a.y for a in blues) - 10      # 20 empty rows between the two hosts
