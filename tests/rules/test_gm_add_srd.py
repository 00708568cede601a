"""gm_add's ``srd = ID`` (the SRD bestiary, in a ruleset that expands it) and ``block`` from the scene's own
``statblocks`` files (issue 44, the compendium in the window puts creatures on the table through them): the creature
made as a scene's ``srd =`` makes it, the event names the id, a bad id / a ruleset without a bestiary / two sources
are one clear refusal, nothing changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import AerieError
from engine.rules.session import Session
from engine.rules.events import GmChange
from engine.scene import load_scene

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]


def _add(**kw):
    return {"actor": "gm", "action": "gm_add", "id": "new", **kw}


def test_srd_creature_added_as_a_scene_makes_it():
    s = Session(load_scene(ROOT / "scenes" / "dnd_spells_vs_flyers.toml"), 3)
    s.step(_add(srd="young-red-dragon", name="Ember", at=[5, 10, 0]))
    a = s.state.actors["new"]
    assert a.name == "Ember" and a.data["ac"] == 18 and a.max_hp == 178 and a.size == "large"
    ev = next(e for e in reversed(s.events) if e.get("type") == "gm")
    assert ev["srd"] == "young-red-dragon" and ev["table"]["srd"] == "young-red-dragon" and "block" not in ev
    assert GmChange.__struct_fields__.count("srd") == 1                 # a typed field of the event
    s.step(_add(srd="young-red-dragon", id="second", at=[9, 10, 0]))
    assert s.state.actors["second"].name.startswith("Young Red Dragon")     # its name by default, made unique


@pytest.mark.parametrize("act,words", [
    (_add(srd="young-purple-dragon", at=[30, 30, 0]), "no SRD creature 'young-purple-dragon'"),
    (_add(srd="young-red-dragon", block="knight", at=[30, 30, 0]), "one of them"),
])
def test_bad_srd_adds_are_refused_with_nothing_changed(act, words):
    s = Session(load_scene(ROOT / "scenes" / "showcase.toml"), 3)
    n = len(s.events)
    with pytest.raises(AerieError) as e:
        s.check(act)
    assert words in str(e.value) and len(s.events) == n and "new" not in s.state.actors


def test_a_ruleset_without_a_bestiary_says_whose_it_is():
    s = Session(load_scene(ROOT / "scenes" / "baton_skyfall.toml"), 3)
    w = s.scene.world
    with pytest.raises(AerieError) as e:
        s.check(_add(srd="harpy", at=[1, 1, w.support_layer(1, 1, w.size[2] - 1)]))
    assert "the SRD bestiary belongs to" in str(e.value)


def test_block_from_the_scenes_statblocks_file(tmp_path):
    (tmp_path / "mine.toml").write_text('[sky_hunter]\nname = "Sky Hunter"\nsrd = "red-dragon-wyrmling"\n')
    p = tmp_path / "scene.toml"
    p.write_text('statblocks = ["mine.toml"]\n' + (ROOT / "scenes" / "showcase.toml").read_text())
    s = Session(load_scene(p), 3)
    s.step(_add(block="sky_hunter", at=[30, 30, 0]))
    assert s.state.actors["new"].name.startswith("Sky Hunter") and s.state.actors["new"].data["ac"] == 17
    with pytest.raises(AerieError) as e:
        s.check(_add(block="sky_hunted", id="other", at=[34, 34, 0]))
    assert "no stat block 'sky_hunted'" in str(e.value)
